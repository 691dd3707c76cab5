"""Stacking (7.1, 7.2), zones of control (8.0) and supply (5.1, 5.3): notes 13.A and 13.B."""

from __future__ import annotations

import pytest

from toolkit.referee import apply_supply, board_of, check_path, check_stacking, enemy_zoc_owners, supply_status

from .helpers import RS, board, h, paint, put, road, side_feature


def zoc(pos, side="german") -> set:
    """The hexes in an enemy ZOC of ``side``."""
    hexes = board_of(pos.map).hexes
    return {hexes[i] for i, owners in enumerate(enemy_zoc_owners(pos, RS, side)) if owners}


def stack(pos, at, units, *, reduced=(), mode=None):
    for uid in units:
        u = put(pos, uid, at)
        if uid in reduced:
            u.steps = 1
        u.mode = mode
    pos.touch()
    return check_stacking(pos, RS, h(at))


FULL = ["g-1gr-1k", "g-1gr-2k", "g-1gr-3k", "g-1gr-4k", "g-2gr-5k", "g-2gr-6k", "g-2gr-7k", "g-3gr-9k",
        "g-3gr-10k", "g-3gr-11k", "g-3gr-12k", "g-1fus-1k", "g-1fus-2k"]


def test_a03_depleted_units_count_half(gd):
    assert not stack(board(gd), "0505", FULL[:8], reduced=FULL[:8])          # 8 depleted = 4
    assert not stack(board(gd), "0505", FULL[:5], reduced=FULL[3:5])         # 3 + 2 depleted = 4
    over = stack(board(gd), "0505", FULL[:9], reduced=FULL[:9])              # 9 depleted = 4.5
    assert over and over[0].rule == "7.1"


def test_a04_road_movement_stacks_two(gd):
    assert not stack(board(gd), "0505", FULL[:4], reduced=FULL[:4], mode="road")
    assert not stack(board(gd), "0505", FULL[:3], reduced=FULL[1:3], mode="road")
    assert stack(board(gd), "0505", FULL[:3], mode="road")


def test_a05_city_hexes_stack_six_but_two_on_the_road(gd):
    pos = board(gd)
    paint(pos, "downtown", "0505")
    paint(pos, "city", "0707")
    assert not stack(pos, "0505", FULL[:6])
    assert stack(pos, "0505", FULL[6:7])                                       # a seventh unit
    pos = board(gd)
    paint(pos, "downtown", "0505")
    assert not stack(pos, "0505", FULL[:12], reduced=FULL[:12])                # 12 depleted
    pos = board(gd)
    paint(pos, "city", "0707")
    assert stack(pos, "0707", FULL[:3], mode="road")                           # road limit stays 2


def test_b22_b23_division_hq_is_free(gd):
    assert stack(board(gd), "0505", FULL[:5], reduced=FULL[4:5])               # 4.5 > 4
    assert not stack(board(gd), "0505", FULL[:4] + ["g-div-division-hq"])
    assert stack(board(gd), "0505", FULL[:4] + ["g-div-hq-staff"])             # A34: a battalion HQ counts


def test_b25_stacking_is_checked_after_movement(gd):
    pos = board(gd)
    stack(pos, "0505", FULL[:4])
    put(pos, "g-2pz-5k", "0405")
    assert check_path(pos, RS, ["g-2pz-5k"], [h("0405"), h("0505"), h("0605")]).ok
    assert check_path(pos, RS, ["g-2pz-5k"], [h("0405"), h("0505")]).ok          # 7.1: not during movement
    pos.place("g-2pz-5k", h("0505"))
    over = check_stacking(pos, RS)
    assert over and over[0].rule == "7.1" and "g-2pz-5k" in over[0].units     # ... but at its end


# -- zones of control (8.0) ---------------------------------------------------------------

def test_a06_no_zoc_into_forest(gd):
    pos = board(gd)
    paint(pos, "forest", "0605")
    put(pos, "s-1rif-1", "0505")
    owners = zoc(pos)
    assert h("0605") not in owners and h("0506") in owners
    put(pos, "g-1gr-1k", "0705")
    assert check_path(pos, RS, ["g-1gr-1k"], [h("0705"), h("0605"), h("0604")]).ok


def test_no_zoc_across_a_river_unless_bridged(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "s-1rif-1", "0505")
    assert h("0605") not in zoc(pos)
    side_feature(pos, "bridge", "0505/0605")
    assert h("0605") in zoc(pos)


def test_hqs_exert_no_zoc(gd):
    pos = board(gd)
    put(pos, "s-1rif-hq", "0505")
    put(pos, "s-div-division-hq", "0808")
    assert not zoc(pos)


# -- supply (5.1, 5.3) ----------------------------------------------------------------------

def test_a02_path_through_an_enemy_is_blocked(gd):
    pos = board(gd)
    paint(pos, "forest", *[f"{c:02d}{r:02d}" for c in range(1, 13) for r in (3, 7)])   # NA to Wheeled
    put(pos, "g-2pz-hq", "0105")
    put(pos, "g-2pz-5k", "1205")
    put(pos, "g-1gr-hq", "0106")                                # another HQ, for the 2Pz HQ's own check
    result = supply_status(pos, RS, "german")
    assert "g-2pz-5k" in result.supplied
    put(pos, "s-1rif-hq", "0605")                               # an HQ blocks: it is an enemy unit
    for row in (4, 6):
        put(pos, "s-1rif-1", f"06{row:02d}", copy=f"#{row}")
    result = supply_status(pos, RS, "german")
    assert "g-2pz-5k" in result.unsupplied and result.status["g-2pz-5k"] == "low_supply"


def test_supply_is_to_the_units_own_battalion_hq(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0505")
    put(pos, "g-2gr-hq", "0507")
    put(pos, "g-2gr-5k", "0305")
    result = supply_status(pos, RS, "german")
    assert result.paths["g-2gr-5k"][-1] == h("0507")            # not the nearer 1Gr HQ
    assert {"g-1gr-hq", "g-2gr-hq"} <= result.supplied          # each HQ reaches the other
    pos.units.pop("g-1gr-hq")
    pos.touch()
    result = supply_status(pos, RS, "german")
    assert "g-2gr-hq" in result.unsupplied                      # B29: no other HQ to reach
    assert "g-2gr-5k" in result.supplied                        # ... its company still traces to it


def test_b27_enemy_zoc_blocks_unless_a_friend_is_there(gd):
    pos = board(gd)
    paint(pos, "forest", *[f"{c:02d}{r:02d}" for c in range(1, 13) for r in (4, 6)])
    put(pos, "g-1gr-hq", "0105")
    put(pos, "g-1gr-1k", "1205")
    put(pos, "g-2gr-hq", "0110")
    put(pos, "s-1rif-1", "0603")                                # its ZOC covers 0604 only: forest, none
    put(pos, "s-1rif-2", "0707")
    # the corridor of row 5 between two forest rows: no ZOC reaches into forest (8.0)
    assert "g-1gr-1k" in supply_status(pos, RS, "german").supplied
    paint(pos, "clear", "0606", "0706")
    put(pos, "s-1rif-3", "0606")                                # now 0505, 0605 and 0705 lie in its ZOC
    result = supply_status(pos, RS, "german")
    assert "g-1gr-1k" in result.unsupplied
    put(pos, "g-1gr-2k", "0505")
    put(pos, "g-1gr-3k", "0605")
    put(pos, "g-1gr-4k", "0705")
    assert "g-1gr-1k" in supply_status(pos, RS, "german").supplied


def _river_between_hq_and_unit(gd):
    """B28's board: a river down the 06/07 column line, 1Gr's HQ west of it, its company east."""
    sides = []
    for r in range(1, 11):
        sides += [f"06{r:02d}/07{r:02d}"] + ([f"06{r:02d}/07{r - 1:02d}"] if r > 1 else [])
    pos = board(gd)
    side_feature(pos, "river", *sides)
    put(pos, "g-1gr-hq", "0305")
    put(pos, "g-1gr-1k", "0905")
    return pos


def test_b28_river_blocks_supply_a_bridge_carries_it(gd):
    pos = _river_between_hq_and_unit(gd)
    put(pos, "g-2gr-hq", "0308")
    assert "g-1gr-1k" in supply_status(pos, RS, "german").unsupplied
    side_feature(pos, "bridge", "0605/0705")
    assert "g-1gr-1k" in supply_status(pos, RS, "german").supplied


def test_a_blown_bridge_cuts_supply_and_a_pontoon_carries_it(gd):
    """12.0: a blown bridge makes the crossing what it was without the bridge, for a supply path
    too (traced as Wheeled, 5.1); 12.1: a completed pontoon is a bridge."""
    pos = _river_between_hq_and_unit(gd)
    side_feature(pos, "bridge", "0605/0705")
    assert "g-1gr-1k" in supply_status(pos, RS, "german").supplied
    grid = pos.map.grid
    put(pos, "m-blown-bridge", "0605", status=(f"facing:{grid.direction(h('0605'), h('0705'))}",))
    assert "g-1gr-1k" in supply_status(pos, RS, "german").unsupplied
    put(pos, "m-pontoon", "0606", status=(f"facing:{grid.direction(h('0606'), h('0706'))}", "under_construction"))
    assert "g-1gr-1k" in supply_status(pos, RS, "german").unsupplied        # not yet built
    pos.units["m-pontoon"].status.discard("under_construction")
    pos.touch()
    assert "g-1gr-1k" in supply_status(pos, RS, "german").supplied


def test_b26_low_then_out_then_a_step(gd):
    pos = board(gd)
    put(pos, "g-1gr-1k", "0505")                                # no HQ of 1Gr at all
    seen = []
    for _ in range(4):
        apply_supply(pos, RS, supply_status(pos, RS, "german"))
        seen.append(sorted(pos.units["g-1gr-1k"].status))
    assert seen == [["low_supply"], ["out_of_supply"], ["step_loss"], ["step_loss"]]
    assert RS.movement_allowance(pos, pos.units["g-1gr-1k"], RS.mode(None)) == 4      # Leg: not halved


@pytest.mark.parametrize("follow_road", [True, False])
def test_a19_a_road_through_na_terrain_carries_supply_option(gd, follow_road):
    """A19: a supply path may follow a road through terrain NA to Wheeled units (default) or not."""
    rs = RS.with_options(road_through_na_supply=follow_road)
    pos = board(gd)
    paint(pos, "forest", *[f"06{r:02d}" for r in range(1, 11)])          # a forest belt, NA to Wheeled
    road(pos, "0505", "0605", "0705")
    put(pos, "g-1gr-hq", "0305")
    put(pos, "g-1gr-1k", "0905")
    put(pos, "g-2gr-hq", "0308")
    result = supply_status(pos, rs, "german")
    assert ("g-1gr-1k" in result.supplied) is follow_road


def test_b30_a_battalion_without_its_hq_nominates_one_stack(gd):
    pos = board(gd)
    put(pos, "g-1gr-1k", "0303")
    put(pos, "g-1gr-2k", "0303")
    put(pos, "g-1gr-3k", "0808")
    assert not supply_status(pos, RS, "german").supplied
    result = supply_status(pos, RS, "german", {"nominated": {"1Gr": h("0303")}})
    assert result.supplied == {"g-1gr-1k", "g-1gr-2k"} and result.unsupplied == {"g-1gr-3k"}
    put(pos, "g-1gr-hq", "0505")                      # with an HQ on the map, no nomination
    result = supply_status(pos, RS, "german", {"nominated": {"1Gr": h("0808")}})
    assert "g-1gr-3k" in result.supplied and result.paths["g-1gr-3k"][-1] == h("0505")


def test_the_division_hq_needs_no_supply_path(gd):
    """5.1 gives the Division HQ no source to trace to (it is one, A7); only it is left out."""
    pos = board(gd)
    put(pos, "g-div-division-hq", "0505")
    put(pos, "g-div-hq-staff", "0909")                 # the Div battalion's own HQ traces like any HQ
    result = supply_status(pos, RS, "german")
    assert "g-div-division-hq" not in result.status
    assert result.paths["g-div-hq-staff"][-1] == h("0505")   # "any other HQ": the Division HQ is one
