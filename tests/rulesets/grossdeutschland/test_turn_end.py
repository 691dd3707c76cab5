"""The End of Turn Phase (3.5) with the notes' ruling A25: derived case B94."""

from __future__ import annotations

from toolkit.rulesets.grossdeutschland import end_of_turn

from .helpers import board, h, put


def test_b94_end_of_turn(gd):
    """B94: fired artillery unflipped (not when Out of Supply), Pinned and Overrun removed, Road
    Move kept, the pontoon completed, the turn advanced; A25: Debarked and Riding Tanks stay."""
    pos = board(gd, turn=3)
    put(pos, "g-3art-7-btty", "0303", status={"fired"})
    put(pos, "g-3art-8-btty", "0304", status={"fired", "out_of_supply"})
    put(pos, "g-1gr-1k", "0505", status={"pinned", "riding_tanks"})
    put(pos, "g-2pz-5k", "0505", status={"overrun"})
    put(pos, "g-2gr-flak", "0606", status={"debarked", "road_move"})
    grid = pos.map.grid
    put(pos, "m-pontoon", "0707", status={f"facing:{grid.direction(h('0707'), h('0807'))}", "under_construction"})
    done = end_of_turn(pos)
    assert pos.turn == 4
    assert pos.unit("g-3art-7-btty").status == set()
    assert pos.unit("g-3art-8-btty").status == {"fired", "out_of_supply"}
    assert pos.unit("g-1gr-1k").status == {"riding_tanks"} and pos.unit("g-2pz-5k").status == set()
    assert pos.unit("g-2gr-flak").status == {"debarked", "road_move"}
    assert "under_construction" not in pos.unit("m-pontoon").status
    assert done == {"cleared": ["g-1gr-1k", "g-2pz-5k"], "unflipped": ["g-3art-7-btty"], "completed": ["m-pontoon"]}
