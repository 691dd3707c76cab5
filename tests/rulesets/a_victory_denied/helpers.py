"""Shared helpers of the A Victory Denied tests: positions on the real (estimated) map, and
finders that pick hexes by what they hold, so a test isolates one rule wherever the estimated
terrain puts it."""

from __future__ import annotations

from pathlib import Path

from toolkit.hexes import Hexside
from toolkit.referee import Position, Unit

ROOT = Path(__file__).resolve().parents[3]


def position(game, units: dict, side="soviet", turn=3, **state) -> Position:
    """A position with ``units`` (id, or id#n for a copy -> hex id) and per-unit state."""
    pos = Position(game=game, map_id="main", side=side, turn=turn, weather="clear")
    for uid, hex_id in units.items():
        counter = game.counters[uid.split("#")[0]]
        pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=game.main_map.grid.parse(hex_id))
        for key, value in state.get(uid, {}).items():
            setattr(pos.units[uid], key, value)
    return pos


def plain(m, h) -> bool:
    """A clear hex with no town, city or pocket, and no road."""
    on_road = any(h in line.hexes for line in m.lines)
    return m.terrain(h) == "clear" and not m.features(h) and not on_road


def ring_ok(m, hexes, pred) -> bool:
    return all(h in m.grid and pred(m, h) for h in hexes)


def river_sides(m, code: str, bridged: bool):
    links = m.line_links()
    return [s for s, fs in sorted(m.hexsides.items()) if any(f.code == code for f in fs) and (s in links) == bridged]


def side_codes(m, a, b):
    return m.hexside_codes(Hexside.of(a, b))
