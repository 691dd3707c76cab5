"""Command (7, TC-27 to TC-31, TC-33): HQ chits, the 9th Army chit and Panzer Corps chaining."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.errors import RulesError
from toolkit.rulesets.a_victory_denied import activate_hq_chit, activate_panzer_group, panzer_corps

from .helpers import position


def _line(m, start: str, step: int):
    """Hex ids going east from ``start``: distance n at index n (one row, flat columns)."""
    h = m.grid.parse(start)
    return [m.format(type(h)(h.col + n, h.row)) for n in range(0, step)]


def test_tc27_the_command_example(game, rs):
    m = game.main_map
    row = _line(m, "3020", 12)          # distances along one row of a flat grid are the column gaps
    assert m.grid.distance(m.grid.parse(row[0]), m.grid.parse(row[5])) == 5
    pos = position(game, {
        "s-hq-22a": row[0], "s-hq-20a": row[2], "s-hq-13a": row[5],     # 20th 2 hexes away, 13th 5
        "s-23m": row[4],                # 4 from 22nd: in range (the German ZOC does not matter)
        "g-45id": m.format(m.grid.neighbours(m.grid.parse(row[4]))[0]),
        "s-20c": row[6],                # 4 from the 20th Army HQ: in range of an activated HQ
        "s-63c": row[7],                # 7 from 22nd, 5 from 20th: out of range
        "s-45c": row[9],                # next to the 13th Army HQ only
    })
    act = activate_hq_chit(pos, rs, "c-22a")
    assert act.hqs == ("s-hq-22a", "s-hq-20a")                           # not the 13th (5 away), no chaining
    assert set(act.units) == {"s-23m", "s-20c"}
    assert "s-63c" not in act.units and "s-45c" not in act.units
    assert len(act.units) == len(set(act.units))                      # TC-33: once, though in two ranges


def test_tc28_range_counts_hexes(game, rs):
    m = game.main_map
    row = _line(m, "3020", 7)
    pos = position(game, {"s-hq-22a": row[0], "s-20c": row[4], "s-45c": row[5]})
    assert activate_hq_chit(pos, rs, "c-22a").units == ("s-20c",)       # 4 in, 5 out (7.3.4)


def test_a_chit_whose_hq_is_not_on_the_map_activates_nothing(game, rs):
    pos = position(game, {"s-45c": "3020"})
    act = activate_hq_chit(pos, rs, "c-22a")
    assert act.refused is not None and not act.units
    with pytest.raises(RulesError):
        activate_hq_chit(pos, rs, "c-2pzg")


def test_tc31_the_9th_army_chit(game, rs):
    m = game.main_map
    row = _line(m, "3020", 10)
    pos = position(game, {"g-hq-9a": row[0], "g-hq-5k": row[5], "g-161id": row[3], "g-129id": row[9],
                          "g-17pz": row[1], "g-1cav": row[2]}, side="german")
    with pytest.raises(RulesError):
        activate_hq_chit(pos, rs, "c-9a")                                 # the German picks an HQ
    act = activate_hq_chit(pos, rs, "c-9a", "g-hq-9a")
    assert act.hqs == ("g-hq-9a", "g-hq-5k")                              # range 5 reaches V AK
    assert set(act.units) == {"g-161id", "g-1cav", "g-129id"}            # 129 ID through V AK's range 4
    assert "g-17pz" not in act.units                                     # Panzer Group motorised (7.3.3)


def test_tc30_panzer_corps_chaining(game, rs):
    m = game.main_map
    row = _line(m, "3020", 16)
    pos = position(game, {
        # XXXIX (purple): 900 Lehr within 3 of 14 Mot, 14 Mot within 3 of 19 Pz and 18 Mot
        "g-900lehr": row[0], "g-14mot": row[3], "g-19pz": row[6], "g-18mot": row[5],
        # LVII (green): {20 Pz} more than 3 from {12 Pz, 20 Mot, 7 Pz}
        "g-20pz": row[8], "g-12pz": row[12], "g-20mot": row[13], "g-7pz": row[15],
        "g-5id": row[1],                  # 3rd Panzer Group infantry: never by chit chaining
    }, side="german")
    assert panzer_corps(pos, "3rd Panzer Group") == {"LVII": ["g-12pz", "g-20mot", "g-20pz", "g-7pz"],
                                                     "XXXIX": ["g-14mot", "g-18mot", "g-19pz", "g-900lehr"]}
    for seed in ("g-900lehr", "g-19pz"):
        act = activate_panzer_group(pos, rs, "c-3pzg", {"XXXIX": seed})
        assert set(act.units) == {"g-900lehr", "g-14mot", "g-19pz", "g-18mot"}
    act = activate_panzer_group(pos, rs, "c-3pzg", {"LVII": "g-12pz"})
    assert set(act.units) == {"g-12pz", "g-20mot", "g-7pz"} and "g-20pz" in act.notes[0]
    act = activate_panzer_group(pos, rs, "c-3pzg", {"LVII": "g-20pz"})
    assert act.units == ("g-20pz",)
    assert not act.hqs and "g-5id" not in act.units
    with pytest.raises(RulesError):
        activate_panzer_group(pos, rs, "c-3pzg", {"LVII": "g-19pz"})      # seed of another corps
    with pytest.raises(RulesError):
        activate_panzer_group(pos, rs, "c-guderian", {"XXXIX": "g-19pz"})  # Guderian is the 2nd's


def test_units_in_the_minsk_pocket_are_inert(game, rs):
    pos = position(game, {"g-hq-9a": "3106", "g-31id": "3105", "g-161id": "3107"}, side="german")
    act = activate_hq_chit(pos, rs, "c-9a", "g-hq-9a")
    assert act.units == ("g-161id",)


@pytest.mark.parametrize("option, active", [("inert", ("g-161id",)), ("active", ("g-161id", "g-31id"))])
def test_minsk_pocket_units_option(game, rs, option, active):
    # notes 14.4.10: are German units in the pocket activated (and OOS candidates, 14.4.22)?
    pos = position(game, {"g-hq-9a": "3106", "g-31id": "3105", "g-161id": "3107"}, side="german")
    r = rs.with_options(pocket_units=option)
    assert activate_hq_chit(pos, r, "c-9a", "g-hq-9a").units == tuple(sorted(active))
    assert r.out_of_supply_question(pos, 1)["candidates"] == sorted(active)


def test_tc40_an_hq_with_no_unit_in_range_is_removed_at_the_end_of_the_turn(game, rs):
    from toolkit.rulesets.a_victory_denied import hqs_out_of_range
    m = game.main_map
    row = _line(m, "3020", 7)
    pos = position(game, {"s-hq-22a": row[0], "s-45c": row[5], "s-hq-20a": row[6]})
    assert hqs_out_of_range(pos, rs, "soviet") == ["s-hq-22a"]      # range 4, nearest unit 5 away
    pos = position(game, {"s-hq-22a": row[0], "s-45c": row[4]})
    assert hqs_out_of_range(pos, rs, "soviet") == []


def _literal_chain(grid, hexes: dict, seed: str) -> set:
    """7.4 read literally: add every unit within 3 of an activated one until nothing changes."""
    active = {seed}
    changed = True
    while changed:
        changed = False
        for unit, h in hexes.items():
            if unit not in active and any(grid.distance(h, hexes[a]) <= 3 for a in active):
                active.add(unit)
                changed = True
    return active


LVII = ["g-20pz", "g-12pz", "g-20mot", "g-7pz"]


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(6, 44), st.integers(12, 44)), min_size=4, max_size=4, unique=True),
       st.integers(0, 3))
def test_chaining_matches_a_literal_reading(game, rs, spots, seed_index):
    from toolkit.hexes import Hex
    grid = game.main_map.grid
    hexes = {u: Hex(c, r) for u, (c, r) in zip(LVII, spots)}
    pos = position(game, {u: grid.format(h) for u, h in hexes.items()}, side="german")
    seed = LVII[seed_index]
    act = activate_panzer_group(pos, rs, "c-3pzg", {"LVII": seed})
    assert set(act.units) == _literal_chain(grid, hexes, seed)
