"""Line of sight and command range."""

from __future__ import annotations

import pytest

from toolkit.errors import RulesError
from toolkit.io import load_game
from toolkit.referee import (Code, CommandRules, LosRules, Ruleset, command_range, get_ruleset, line_of_sight,
                             position_from_scenario)

GAME = load_game("tutorial")
RS = get_ruleset("tutorial")


def H(text):
    return GAME.main_map.grid.parse(text)


@pytest.fixture
def pos():
    return position_from_scenario(GAME, "crossing", turn=1)


def test_clear_line_is_visible(pos):
    sight = line_of_sight(pos, RS, H("0105"), H("0405"))     # r(ough) . . . : nothing blocks
    assert sight.visible and sight.blocked_by is None


def test_woods_between_blocks_but_end_hexes_do_not(pos):
    sight = line_of_sight(pos, RS, H("0505"), H("0507"))     # 0506 is woods
    assert not sight.visible and sight.blocked_by == H("0506")
    assert sight.reason.code is Code.LOS_BLOCKED and "0506" in sight.reason.text
    assert line_of_sight(pos, RS, H("0505"), H("0506")).visible  # target in woods is seen


def test_line_along_a_hexside_follows_the_rule(pos):
    # 0406 -> 0606 runs along the side between 0506 (woods) and 0507 (clear)
    assert line_of_sight(pos, RS, H("0406"), H("0606")).visible            # "both" must block
    strict = Ruleset(name="strict", los=LosRules(along_hexside="either"))
    assert line_of_sight(pos, strict, H("0406"), H("0606")).blocked_by == H("0506")


def test_range_limit(pos):
    rs = Ruleset(name="short", los=LosRules(max_range=2))
    assert not line_of_sight(pos, rs, H("0105"), H("0405")).visible


def test_command_range_counts_hexes_and_ignores_terrain(pos):
    assert command_range(pos, RS, "b-hq", radius=2) == ["b-1", "b-2", "b-5"]
    assert command_range(pos, RS, "b-hq", radius=0) == ["b-1"]
    # b-3 at 0608 is four hexes from the HQ at 0505, across the river
    assert "b-3" not in command_range(pos, Ruleset(name="r3", command=CommandRules(radius=3)), "b-hq")
    assert "b-3" in command_range(pos, Ruleset(name="r4", command=CommandRules(radius=4)), "b-hq")


def test_command_range_needs_a_radius(pos):
    with pytest.raises(RulesError, match="no command range"):
        command_range(pos, RS, "b-hq")


def test_off_map_hex_is_an_error(pos):
    with pytest.raises(RulesError):
        line_of_sight(pos, RS, H("0105"), H("2020"))
