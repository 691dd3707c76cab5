"""Small boards for the Grossdeutschland rules: a 12 x 10 grid with the game's own Terrain
Chart (every type of the four maps), clear unless a test paints it, and the game's counters."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from toolkit.game import HexsideFeature, HexTerrain, Line, Map, Place
from toolkit.hexes import Grid, Hex, Hexside, Numbering
from toolkit.referee import Position, Unit, forget_board
from toolkit.rulesets.grossdeutschland import RULESET

RS = RULESET
TEST_MAP = "test"


def h(text: str) -> Hex:
    return Hex(int(text[:2]), int(text[2:]))


def board(gd, *, turn=1, scenario="kursk", weather="sunny", side="german") -> Position:
    """An empty position on a fresh clear 12 x 10 map (odd columns lower, as the game's maps)."""
    src = list(gd.maps.values())
    terrain, sides, lines = {}, {}, {}
    for m in src:
        terrain.update(m.terrain_types)
        sides.update(m.hexside_types)
        lines.update(m.line_types)
    grid = Grid(1, 12, 1, 10, "flat", "odd", numbering=Numbering(pad=True))
    m = Map(id=TEST_MAP, name="test", grid=grid, terrain_types=terrain, hexside_types=sides, line_types=lines,
            weathers=src[0].weathers, unit_classes=src[0].unit_classes)
    m.hexes = {x: HexTerrain("clear") for x in grid}
    game = dataclasses.replace(gd, maps={TEST_MAP: m})
    return Position(game=game, map_id=TEST_MAP, side=side, turn=turn, weather=weather, scenario=scenario)


def paint(pos, terrain: str, *hexes: str, features=()) -> None:
    for t in hexes:
        pos.map.hexes[h(t)] = HexTerrain(terrain, tuple(features))
    _changed(pos)


def _changed(pos) -> None:
    """The map changed: drop the search board built from it, and the position's caches."""
    forget_board(pos.map)
    pos.touch()


def side_feature(pos, code: str, *pairs: str, name=None) -> None:
    for pair in pairs:
        a, b = pair.split("/")
        s = Hexside.of(h(a), h(b))
        pos.map.hexsides.setdefault(s, []).append(HexsideFeature(s, code, name=name))
    _changed(pos)


def road(pos, *hexes: str, code="road") -> None:
    pos.map.lines.append(Line(code, tuple(h(t) for t in hexes)))
    _changed(pos)


def place(pos, name, *hexes, kind="town"):
    for t in hexes:
        pos.map.places.append(Place(name, h(t), kind))


def put(pos, uid: str, at: str | None, *, copy: str = "", steps=None, status=(), moved=False) -> Unit:
    """Put counter ``uid`` (as ``uid`` + ``copy`` when the same counter is needed twice) on a hex."""
    counter = pos.game.counters[uid]
    unit = Unit(id=uid + copy, counter=counter, side=counter.side, hex=h(at) if at else None, steps=steps,
                status=set(status), moved=moved)
    pos.units[unit.id] = unit
    pos.touch()
    return unit


def mp(value) -> Fraction:
    return Fraction(value)
