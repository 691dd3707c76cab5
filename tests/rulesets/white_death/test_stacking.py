"""Stacking (Rule 4; notes cases 18-20): battalion equivalents, brigades, the engineer brigade,
and the option for the German clause the OCR lost."""

from __future__ import annotations

import pytest

from toolkit.referee import check_path, check_stacking

from .helpers import clear_run, position

GERMAN_OK = [
    ["g-251-1", "g-251-2", "g-251-3", "g-pzj183"],                 # 3 battalions of 83 ID + a company
    ["g-251-1", "g-251-2", "g-gj138-1", "g-brb1"],                 # any three BE + a company
    ["g-gj138-1", "g-gj138-2", "g-gj139-1", "g-gj139-2", "g-brb1"],   # 4 of 3rd Mtn + another's company
    ["g-251-1", "g-251-2", "g-pz10-1", "g-pz10-2", "g-pz10-3", "g-pz10-4", "g-brb1"],  # 4 companies = 1 BE
]
GERMAN_BAD = [
    ["g-251-1", "g-251-2", "g-257-1", "g-gj138-1"],                # 4 battalions of two divisions
    ["g-251-1", "g-251-2", "g-251-3", "g-brb1", "g-ski1", "g-ski2"],   # 3 BE + 3 companies of others
]
SOVIET_OK = [
    ["s-t184-1", "s-t184-2", "s-t184-3", "s-eng1"],                # a whole tank brigade + an engineer bde
    ["s-hmort", "s-hart", "s-eng2"],                               # two non-divisional artillery + engineers
    ["s-18g", "s-m18-1"],                                          # a regiment and a battalion
    ["s-b44-1", "s-b44-2", "s-b44-3"],                             # one ski brigade
]
SOVIET_BAD = [
    ["s-18g", "s-31g"],                                            # two regiments
    ["s-b44-1", "s-b45-1"],                                        # two brigades
    ["s-18g", "s-m18-1", "s-eng1", "s-eng2"],                      # two engineer brigades
]


def _stack(game, ids, hex="1530"):
    return position(game, {u: hex for u in ids})


@pytest.mark.parametrize("ids", GERMAN_OK + SOVIET_OK)
def test_legal_stacks(game, rs, ids):
    pos = _stack(game, ids)
    assert check_stacking(pos, rs) == []


@pytest.mark.parametrize("ids", GERMAN_BAD + SOVIET_BAD)
def test_illegal_stacks(game, rs, ids):
    reasons = check_stacking(_stack(game, ids), rs)
    assert reasons and reasons[0].rule == "4"


def test_german_stacking_option_literal(game, rs):
    literal = rs.with_options(german_stacking="literal")
    assert check_stacking(_stack(game, GERMAN_OK[0]), literal) == []       # 3 of one division + 1 company
    assert check_stacking(_stack(game, GERMAN_OK[1]), literal)             # mixed: only the reconstruction
    assert check_stacking(_stack(game, GERMAN_OK[2]), literal)             # 4 BE: only the reconstruction


def test_bunkers_and_markers_do_not_count(game, rs):
    assert check_stacking(_stack(game, ["g-251-1", "g-251-2", "g-251-3", "g-pzj183", "g-bunker1"]), rs) == []


def test_case_18_moving_through_a_full_stack_but_not_ending_there(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    units = {"s-18g": m.format(a), "s-31g": m.format(b), "s-m18-1": m.format(b)}
    pos = position(game, units, impulse=("soviet", 10))
    assert check_path(pos, rs, "s-18g", [a, b, c]).ok
    check = check_path(pos, rs, "s-18g", [a, b])
    assert not check.ok and check.reason.rule == "4"
