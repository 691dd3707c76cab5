"""Line of sight (11.2, 11.3) and fog of war (1.1): notes 13.A A14 and 13.B B46, B85."""

from __future__ import annotations

from toolkit.rulesets.grossdeutschland import inspectable, sees

from .helpers import RS, board, h, paint, put


def test_a14_orchard_blocks_even_with_a_bunker_b46_a_bunker_never_blocks(gd):
    pos = board(gd)
    paint(pos, "orchard", "0505")
    put(pos, "m-bunker", "0505")
    assert not sees(pos, RS, h("0305"), h("0705")).visible                # through the orchard
    assert sees(pos, RS, h("0305"), h("0505")).visible                    # into it
    pos = board(gd)
    put(pos, "m-bunker", "0505")
    assert sees(pos, RS, h("0305"), h("0705")).visible


def test_ten_hexes_at_most(gd):
    pos = board(gd)
    assert sees(pos, RS, h("0101"), h("1106")).visible                    # 10 hexes
    far = sees(pos, RS, h("0101"), h("1206"))
    assert not far.visible and far.reason.rule == "11.2"


def test_along_a_hexside_both_sides_must_block(gd):
    """0305 -> 0705 runs along the sides between 0405/0406 and 0605/0606 (odd columns lower)."""
    pos = board(gd)
    paint(pos, "woods", "0405")
    assert sees(pos, RS, h("0305"), h("0705")).visible                    # one side only
    paint(pos, "woods", "0406")
    blocked = sees(pos, RS, h("0305"), h("0705"))
    assert not blocked.visible and blocked.blocked_by in (h("0405"), h("0406"))


def test_a_peak_sees_over_adjacent_blocking_terrain(gd):
    pos = board(gd)
    paint(pos, "woods", "0504")
    assert not sees(pos, RS, h("0503"), h("0507")).visible                # down one column
    paint(pos, "hill", "0503", features=("peak",))
    assert sees(pos, RS, h("0503"), h("0507")).visible                    # woods adjacent to the peak
    assert sees(pos, RS, h("0507"), h("0503")).visible                    # and back (ruled: reciprocal)
    paint(pos, "woods", "0506")
    assert not sees(pos, RS, h("0503"), h("0508")).visible                # woods further on still block


def test_b85_inspection(gd):
    pos = board(gd, side="german")
    put(pos, "g-1gr-1k", "0101")
    put(pos, "s-1rif-1", "1106")                     # 10 hexes
    put(pos, "s-1rif-2", "1206")                     # 11 hexes
    put(pos, "s-1rif-3", "0103")
    paint(pos, "woods", "0102")
    put(pos, "s-1rif-at", "0301")
    put(pos, "m-trench", "0301")
    seen = inspectable(pos, RS, "german")
    assert seen[h("1106")] is True and seen[h("1206")] is False
    assert seen[h("0103")] is False                  # a blocking hex between
    assert seen[h("0301")] is False                  # a fortification: never
    assert inspectable(pos, RS, "german", revealed={"s-1rif-at"})[h("0301")] is True   # it fought
