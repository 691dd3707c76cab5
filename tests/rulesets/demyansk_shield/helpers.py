"""Shared helpers of the Demyansk Shield tests: hexes, positions on the real map, and a copy
of the game isolating one supply source."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from toolkit.game.map import HexTerrain, SupplySource
from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import Position, Unit

DATA = Path(__file__).resolve().parents[2] / "data" / "demyansk-shield"


def H(text: str) -> Hex:
    return Hex(int(text[:2]), int(text[2:]))


def hexes(text: str) -> list[Hex]:
    return [H(t) for t in text.split()]


def position(game, weather="dry", side="axis", turn=3, **units) -> Position:
    """A position on the game map: ``unit_id="HHHH"`` or ``unit_id=("HHHH", {"status": ...})``."""
    pos = Position(game=game, map_id="main", weather=weather, side=side, turn=turn)
    for uid, where in units.items():
        extra = {}
        if isinstance(where, tuple):
            where, extra = where
        cid = uid.split("__")[0]
        counter = game.counters[cid]
        unit = Unit(uid, counter, counter.side, box=where[4:] if where.startswith("box:") else None,
                    hex=None if where.startswith("box:") else H(where))
        unit.status |= set(extra.get("status", ()))
        if "steps" in extra:
            unit.steps = extra["steps"]
        pos.units[uid] = unit
    return pos


def costs(check) -> list[Fraction]:
    return [s["cost"] for s in check.steps]


def one_source_game(source: str, airfields: bool = False):
    # a copy of the game whose map has no road, a single Axis source and (unless asked) no
    # airfield: it isolates the rule under test
    g = load_game("demyansk-shield")
    m = g.main_map
    m.lines = [ln for ln in m.lines if ln.code != "road"]
    m.supply = [s for s in m.supply if s.side != "axis"]
    m.supply.append(SupplySource(side="axis", hexes=(H(source),), kind="edge"))
    if not airfields:
        m.hexes = {h: c if "airfield" not in c.features else
                   HexTerrain(c.terrain, tuple(f for f in c.features if f != "airfield"), c.source)
                   for h, c in m.hexes.items()}
    return g
