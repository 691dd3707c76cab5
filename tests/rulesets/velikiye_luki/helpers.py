"""Shared helpers of the Velikiye Luki tests: positions on the real map and hex lists.

Every worked example of the rulebook that the referee covers (3.2 road and rail, the 3.2
bridge, 4.4 ski infiltration, the retreats of Combat 1 and Combat 2) is a position file in
tests/data/velikiye-luki with its known answers; positions built in the tests isolate each
rule. Where the rulebook contradicts itself the ruling is an option and both settings are tested.
"""

from __future__ import annotations

from pathlib import Path

from toolkit.referee import Position, Unit

ROOT = Path(__file__).resolve().parents[3]
POSITIONS = sorted((ROOT / "tests" / "data" / "velikiye-luki").glob("*.yaml"))


def position(game, units: dict, side="german", turn=3, weather="overcast", **state) -> Position:
    """A position with ``units`` (id -> hex id) and per-unit state (id -> dict of Unit fields)."""
    pos = Position(game=game, map_id="main", side=side, turn=turn, weather=weather)
    for uid, hex_id in units.items():
        counter = game.counters[uid.split("#")[0]]
        pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=game.main_map.grid.parse(hex_id))
        for key, value in state.get(uid, {}).items():
            setattr(pos.units[uid], key, value)
    return pos


def hex_list(pos, text: str):
    """The hexes named in ``text`` (ids separated by spaces)."""
    return [pos.map.grid.parse(t) for t in text.split()]
