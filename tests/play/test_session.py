"""The session: the sequence of play, arrivals, supply and stacking at phase changes, losses,
undo, and the saved game read back (round trip, bad files)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import DataError, IllegalMoveError, RulesError
from toolkit.io import load_game
from toolkit.play import Session, dump_session, load_session, next_stage, session_to_dict, stages
from toolkit.play.sequence import Stage, is_combat, is_movement, is_supply
from toolkit.referee import position_from_dict, position_to_dict, ruleset_for

PLAY = Path(__file__).resolve().parents[2] / "toolkit" / "play"


@pytest.fixture(scope="module")
def tutorial():
    return load_game("tutorial")


def _new(game, **kw):
    return Session.new(game, ruleset_for(game), seed=kw.pop("seed", 4), **kw)


def test_phases_without_sides_repeat_for_each_side_first_side_first(tutorial):
    assert stages(tutorial, "red") == [("red", "Movement"), ("red", "Combat"), ("blue", "Movement"), ("blue", "Combat")]
    assert next_stage(tutorial, "red", Stage(1, "blue", "Combat")) == Stage(2, "red", "Movement")


def test_phases_naming_a_side_are_one_game_turn():
    vl = load_game("velikiye-luki")
    order = stages(vl, "soviet")
    assert order[1] == ("soviet", "Soviet movement") and order[3] == ("german", "German movement")
    assert len(order) == len(vl.turn_phases)
    assert [is_movement(p) for _, p in order].count(True) == 2
    assert is_combat("German combat") and is_supply("Supply and weather") and not is_movement("End of turn")
    # activation games move and fight in one phase
    assert is_movement("Command execution") and is_combat("Command execution") and is_movement("Activation")


def test_a_new_session_starts_at_the_first_phase_of_the_first_side(tutorial):
    s = _new(tutorial)
    assert s.stage == Stage(1, "red", "Movement") and s.events == [] and not s.can_undo()


def test_a_turn_brings_reinforcements_weather_and_supply(tutorial):
    s = _new(tutorial)
    for _ in range(2):
        s.next_phase()
    blue_turn = s.events[-1]
    assert blue_turn["to"]["side"] == "blue" and set(blue_turn["supply"]) == {"blue"}   # T.7: start of its turn
    s.next_phase()
    event = s.next_phase()
    assert event["to"] == {"turn": 2, "side": "red", "phase": "Movement"}
    assert event["arrived"] == ["b-4"] and s.pos.units["b-4"].hex == s.pos.map.grid.parse("0105")
    assert event["weather"] == "clear"
    for _ in range(4):
        s.next_phase()
    assert s.pos.turn == 3 and s.pos.weather == "mud" and "r-16" in s.events[-1]["arrived"]


def test_supply_marks_units_cut_off_at_the_start_of_their_turn(tutorial):
    # a blue unit surrounded by red ZOC beyond the river: out of supply when blue's turn starts (T.7)
    data = {"game": "tutorial", "turn": 1, "side": "red", "phase": "Combat",
            "units": {"b-2": {"hex": "1105"}, "r-10": {"hex": "1004"}, "r-11": {"hex": "1006"},
                      "r-12": {"hex": "1205"}, "r-13": {"hex": "0905"}}}
    s = Session.from_position(position_from_dict(data, tutorial), ruleset_for(tutorial), seed=1)
    event = s.next_phase()
    assert event["supply"]["blue"]["status"] == {"b-2": "out_of_supply"}
    assert s.pos.units["b-2"].status == {"out_of_supply"} and s.pos.units["b-2"].supply == 1


def test_stacking_checked_at_the_end_of_the_phase_where_the_rules_say_so():
    vl = load_game("velikiye-luki")
    rs = ruleset_for(vl)
    assert rs.stacking.when == "phase"
    start = Session.new(vl, rs, seed=1).pos
    soviets = [u.id for u in start.on_map("soviet") if not u.counter.is_marker][:6]
    hex_id = start.map.format(start.units[soviets[0]].hex)
    data = {"game": "velikiye-luki", "turn": 1, "side": "soviet", "phase": "Soviet movement",
            "units": {uid: {"hex": hex_id} for uid in soviets}}
    s = Session.from_position(position_from_dict(data, vl), rs, seed=1)
    from toolkit.referee import check_stacking
    found = check_stacking(s.pos, rs)
    assert found                                              # six units on one hex break rule 5
    with pytest.raises(IllegalMoveError) as err:
        s.next_phase()
    assert err.value.reasons == found and s.stage.phase == "Soviet movement" and s.events == []


def test_losses_reduce_then_eliminate_and_undo_restores(tutorial):
    s = _new(tutorial)
    before = position_to_dict(s.pos)
    s.loss("b-1")
    assert s.pos.units["b-1"].steps == 1
    event = s.loss("b-1")
    assert event["eliminated"] and s.pos.units["b-1"].hex is None
    with pytest.raises(IllegalMoveError):
        s.loss("b-1")
    s.undo()
    s.undo()
    assert position_to_dict(s.pos) == before


def test_replay_checks_each_recorded_answer(tutorial):
    s = _new(tutorial)
    s.move("r-10", s.plan("r-10", tutorial.maps["main"].grid.parse("0905")))
    data = session_to_dict(s)
    data["events"][0]["spent"] = "0"                          # the file claims a free move
    from toolkit.play import session_from_dict
    replayed = session_from_dict(json.loads(json.dumps(data)), "x.json", replay=True)
    with pytest.raises(RulesError, match="recorded spent '0' does not match the referee's '1/2'"):
        replayed.step()
    assert replayed.events == [] and len(replayed.pending) == 1


def test_saved_game_round_trip_through_a_file(tutorial, tmp_path):
    s = _new(tutorial, seed=99)
    grid = tutorial.maps["main"].grid
    s.move("r-13", s.plan("r-13", grid.parse("0908")))
    s.next_phase()
    s.next_phase()
    path = tmp_path / "game.json"
    dump_session(s, path)
    back = load_session(path)
    assert back.seed == 99 and back.events == s.events and back.pos == s.pos
    assert session_to_dict(back) == session_to_dict(s)


@pytest.mark.parametrize("text, problem", [
    ("{", "invalid JSON"),
    ("[]", "expected a JSON object"),
    ('{"format": "hexforge-play", "version": 1, "seed": 1, "events": [], "game": "nope", "start": {}}', "game"),
])
def test_unreadable_saved_games_name_the_file(tmp_path, text, problem):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(DataError) as err:
        load_session(path)
    assert str(err.value).startswith(str(path)) and problem in str(err.value)


def test_the_session_layer_does_not_import_the_http_layer():
    for name in ("session.py", "savefile.py", "sequence.py", "views.py"):
        tree = ast.parse((PLAY / name).read_text())
        imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {m for m in imported if m.split(".")[0] in ("starlette", "uvicorn") or m.endswith("server")}, name


_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=6)
                       | st.sampled_from(["r-10", "b-1", "0905", "1005", "0605", "red"]),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
                       max_leaves=6)
_EVENTS = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "phase", "loss", "combat"])},
    optional={k: _VALUES for k in ("units", "path", "unit", "steps", "mode", "attackers", "defender", "seed",
                                   "supports", "dice", "result", "spent")})


@settings(max_examples=30)
@given(events=st.lists(_EVENTS, max_size=4))
def test_any_saved_events_load_or_are_refused_clearly(tutorial, events):
    s = _new(tutorial)
    data = {**session_to_dict(s), "events": events}
    from toolkit.play import session_from_dict
    try:
        loaded = session_from_dict(data, "fuzz.json", game=tutorial)
    except DataError as exc:
        assert str(exc).startswith("fuzz.json")
    else:
        assert len(loaded.events) == len(events)


def test_a_position_without_scenario_keeps_the_games_turn_order(tutorial):
    # turn 2, Blue's combat: Red (the scenario's first side) starts turn 3
    data = {"game": "tutorial", "turn": 2, "side": "blue", "phase": "Combat", "units": {"b-1": {"hex": "0505"}}}
    s = Session.from_position(position_from_dict(data, tutorial), ruleset_for(tutorial), seed=1)
    assert s.next_phase()["to"] == {"turn": 3, "side": "red", "phase": "Movement"}
    for _ in range(4):
        s.next_phase()
    assert s.stage == Stage(4, "red", "Movement")
