"""Combat through the page's API on the tutorial (T.10-T.11): the referee's assessment reaches
the page whole, the sequence of play is enforced, the seeded roll is an event that replays
the same, and the retreat and advance the result calls for are refereed."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from toolkit.errors import RulesError
from toolkit.io import load_game
from toolkit.play import Session, Table, create_app, session_from_dict, session_to_dict
from toolkit.play.combat import spent_statuses
from toolkit.referee import position_from_dict, position_to_dict, ruleset_for

try:
    from toolkit.referee import advance_options, assess_combat, retreat_options, roll_combat
    COMBAT = True
except ImportError:
    COMBAT = False

pytestmark = pytest.mark.skipif(not COMBAT, reason="the referee has no combat part (assess_combat) yet")

#: T.10's example: Blue's 4th armour and 2nd infantry attack Red's 13th cavalry in the open.
ATTACK = {"game": "tutorial", "turn": 2, "side": "blue", "phase": "Combat",
          "units": {"b-4": {"hex": "0705"}, "b-2": {"hex": "0804"}, "b-5": {"hex": "0504"},
                    "r-13": {"hex": "0805"}, "r-12": {"hex": "1006"}, "r-15": {"hex": "1104"}}}


@pytest.fixture(scope="module")
def game():
    return load_game("tutorial")


def _session(game, seed=1, **changes):
    return Session.from_position(position_from_dict({**ATTACK, **changes}, game), ruleset_for(game), seed=seed)


#: The same attack with the 2nd from 0706: the 13th has a way back, to 0905 (T.11).
OPEN = {**ATTACK["units"], "b-2": {"hex": "0706"}}


def _seed_with(game, want, **changes):
    """A game seed whose first roll of the example gives a result with ``want`` (deterministic)."""
    rs = ruleset_for(game)
    for seed in range(200):
        s = _session(game, seed, **changes)
        a = assess_combat(s.pos, rs, ["b-4", "b-2"], s.pos.map.grid.parse("0805"))
        result = roll_combat(s.pos, rs, a, seed=s.roll_seed()).result
        if want(result):
            return seed
    raise AssertionError("no seed gives the wanted result")


def test_the_assessment_reaches_the_page_whole(game):
    s = _session(game)
    client = TestClient(create_app(Table(s)))
    answer = client.get("/api/combat/assess", params={"attackers": "b-4,b-2", "defender": "0805"}).json()
    expected = assess_combat(s.pos, s.rs, ["b-4", "b-2"], s.pos.map.grid.parse("0805")).to_dict(s.fmt)
    assert answer == expected
    assert answer["odds"] == "3-1" and answer["legal"]
    assert client.get("/api/board").json()["combat"] is True


@pytest.mark.parametrize("changes, body, code", [
    ({"phase": "Movement"}, {"attackers": "b-4", "defender": "0805"}, "not-combat-phase"),
    ({}, {"attackers": "r-12", "defender": "0705"}, "not-phasing-side"),
])
def test_the_sequence_of_play_refuses_attacks(game, changes, body, code):
    client = TestClient(create_app(Table(_session(game, **changes))))
    answer = client.get("/api/combat/assess", params=body)
    assert answer.status_code == 409 and answer.json()["refused"][0]["code"] == code


def test_a_roll_is_an_event_that_replays_and_undoes_to_the_same_dice(game):
    s = _session(game, seed=5)
    client = TestClient(create_app(Table(s)))
    seed = s.roll_seed()
    event = client.post("/api/combat/roll", json={"attackers": ["b-4", "b-2"], "defender": "0805"}).json()["event"]
    a = assess_combat(s.states[0], s.rs, ["b-4", "b-2"], s.pos.map.grid.parse("0805"))
    expected = roll_combat(s.states[0], s.rs, a, seed=seed)
    assert (event["seed"], event["dice"], event["result"]) == (seed, expected.dice, expected.result.text)
    again = client.post("/api/combat/roll", json={"attackers": ["b-4"], "defender": "0805"}).json()["refused"][0]
    assert again["code"] == "already-attacked"
    client.post("/api/undo")
    redo = client.post("/api/combat/roll", json={"attackers": ["b-4", "b-2"], "defender": "0805"}).json()["event"]
    assert redo["dice"] == event["dice"] and redo["result"] == event["result"]
    assert session_from_dict(session_to_dict(s)).events == s.events


def test_retreat_and_advance_follow_the_referee(game):
    seed = _seed_with(game, lambda r: r.defender.retreat and not r.defender.steps and not r.attacker.retreat,
                      units=OPEN)
    s = _session(game, seed, units=OPEN)
    client = TestClient(create_app(Table(s)))
    client.post("/api/combat/roll", json={"attackers": ["b-4", "b-2"], "defender": "0805"})
    after = client.get("/api/position").json()["position"]["after_combat"]
    [due] = after["retreats"]
    assert due["units"] == ["r-13"] and due["role"] == "defender" and list(due["ends"]) == ["0905"]
    options = retreat_options(s.pos, s.rs, ["r-13"], tuple(due["lengths"]), from_hex=s.pos.map.grid.parse("0805"))
    assert set(due["ends"]) == {s.fmt(h) for h in options.paths}
    bad = client.post("/api/combat/retreat", json={"units": ["r-13"], "to": "0705"}).json()["refused"][0]
    assert bad["code"] == "retreat-not-allowed"
    assert client.post("/api/combat/advance", json={"units": ["b-4"], "to": "0805"}).json()["refused"][0]["code"] \
        == "no-advance"                                   # not before the defender has gone
    end = sorted(due["ends"])[0]
    assert client.post("/api/combat/retreat", json={"units": ["r-13"], "to": end}).status_code == 200
    assert s.fmt(s.pos.units["r-13"].hex) == end
    offered = client.get("/api/position").json()["position"]["after_combat"]["advance"]
    group = next(g for g in offered["groups"] if "b-4" in g["units"])
    assert group["to"] == [s.fmt(h) for h in advance_options(s.pos, s.rs, group["units"], s.pos.map.grid.parse("0805"),
                                                             path=[s.pos.map.grid.parse(h) for h in
                                                                   s.events[-1]["path"]])]
    assert client.post("/api/combat/advance", json={"units": ["b-4"], "to": "0805"}).status_code == 200
    assert s.fmt(s.pos.units["b-4"].hex) == "0805"
    replayed = session_from_dict(session_to_dict(s))
    assert position_to_dict(replayed.pos) == position_to_dict(s.pos)


def test_no_way_back_eliminates_with_the_rule(game):
    seed = _seed_with(game, lambda r: r.defender.retreat and not r.defender.steps and not r.attacker.retreat)
    s = _session(game, seed)                              # the 2nd at 0804 closes the 13th's way back
    client = TestClient(create_app(Table(s)))
    client.post("/api/combat/roll", json={"attackers": ["b-4", "b-2"], "defender": "0805"})
    [due] = client.get("/api/position").json()["position"]["after_combat"]["retreats"]
    assert due["eliminated"] and due["reason"]["code"] == "retreat-blocked" and due["reason"]["rule"] == "T.11"
    refused = client.post("/api/combat/retreat", json={"units": ["r-13"], "to": "0905"}).json()["refused"][0]
    assert refused["code"] == "retreat-not-allowed" and refused["rule"] == "T.11"
    event = client.post("/api/combat/retreat", json={"units": ["r-13"]}).json()["event"]
    assert event["eliminated"] and s.pos.units["r-13"].hex is None


def test_supports_shift_the_column_and_fire_until_the_next_turn(game):
    s = _session(game, seed=3)
    client = TestClient(create_app(Table(s)))
    support = [{"kind": "artillery", "side": "attacker", "unit": "b-5"}]
    params = {"attackers": "b-4,b-2", "defender": "0805"}
    plain = client.get("/api/combat/assess", params=params).json()
    backed = client.get("/api/combat/assess", params={**params, "supports": __import__("json").dumps(support)}).json()
    expected = assess_combat(s.pos, s.rs, ["b-4", "b-2"], s.pos.map.grid.parse("0805"),
                             supports=[("artillery", "attacker", 1, "b-5")]).to_dict(s.fmt)
    assert backed == expected and backed["column"] != plain["column"]
    assert any(m["rule"] == "T.10" for m in backed["modifiers"])
    event = client.post("/api/combat/roll", json={**{"attackers": ["b-4", "b-2"], "defender": "0805"},
                                                  "supports": support}).json()["event"]
    assert event["supports"] == [["artillery", "attacker", 1, "b-5", None]]
    assert "fired" in s.pos.units["b-5"].status                     # T.10: it turns to its fired side
    assert session_from_dict(session_to_dict(s)).pos == s.pos
    while s.stage.turn == 2:
        s.next_phase()
    assert "fired" not in s.pos.units["b-5"].status


def test_malformed_supports_are_400(game):
    client = TestClient(create_app(Table(_session(game))))
    for bad in ("{", '[{"kind": 3}]', '[["artillery", "sideways"]]'):
        answer = client.get("/api/combat/assess", params={"attackers": "b-4", "defender": "0805", "supports": bad})
        assert answer.status_code == 400 and "supports" in answer.json()["error"]


# -- Demyansk 12.23: a support is spent only by its side's special result ------------------------


@pytest.fixture(scope="module")
def ds_17():
    """Demyansk 17.0's combat 1 in the Soviet Combat phase, both sides' air in the air box."""
    from pathlib import Path

    from toolkit.io._source import load_yaml
    from toolkit.referee import Unit
    game = load_game("demyansk-shield")
    raw = load_yaml(Path(__file__).resolve().parents[1] / "data" / "demyansk-shield" / "combat-17-0.yaml")
    pos = position_from_dict({**raw, "phase": "Combat"}, game)
    for uid in ("so-air-1", "ax-air-b1"):
        pos.units[uid] = Unit(uid, game.counters[uid], game.counters[uid].side, box="air-available")
    pos.touch()
    return pos


DS_ATTACKERS = ["so-87", "so-1-87", "so-1318", "so-1-1318", "so-2-87"]
DS_SUPPORTS = [["artillery", "attacker", 1, "so-231-387", None], ["air", "attacker", 1, "so-air-1", None],
               ["air", "defender", 1, "ax-air-b1", None]]


def test_a_special_result_spends_the_support_its_owner_names(ds_17):
    from toolkit.play.combat import roll
    rs = ruleset_for(ds_17.game)
    s = Session.from_position(ds_17, rs, seed=12)                  # this game's first roll: A1*/DR
    with pytest.raises(RulesError, match=r"must choose .* artillery \(so-231-387\) or air \(so-air-1\)") as exc:
        roll(s, DS_ATTACKERS, ds_17.map.grid.parse("1811"), DS_SUPPORTS)
    assert exc.value.reasons[0].rule == "12.23" and not s.events  # nothing recorded: the same roll again
    roll(s, DS_ATTACKERS, ds_17.map.grid.parse("1811"), DS_SUPPORTS, {"attacker": "artillery"})
    assert s.events[-1]["result"] == "A1*/DR" and s.events[-1]["special"] == {"attacker": "artillery"}
    assert "fired" in s.pos.units["so-231-387"].status              # "turns it over to its Fired side"
    assert not s.pos.units["so-air-1"].status & spent_statuses(rs)  # the air unit it did not name
    assert not s.pos.units["ax-air-b1"].status & spent_statuses(rs)  # the defender had no special result
    again = Session.from_position(ds_17, rs, seed=12)              # the recorded choice replays
    again.apply(s.events[-1])
    assert again.pos == s.pos


def test_the_roll_asks_the_page_the_choice_and_takes_the_answer(ds_17):
    # the 409 carries the roll and the options as 12.23a names them; the answer rolls the same dice
    rs = ruleset_for(ds_17.game)
    s = Session.from_position(ds_17, rs, seed=12)
    client = TestClient(create_app(Table(s)))
    body = {"attackers": DS_ATTACKERS, "defender": "1811", "supports": DS_SUPPORTS}
    answer = client.post("/api/combat/roll", json=body)
    assert answer.status_code == 409 and not s.events
    choice = answer.json()["choice"]
    assert answer.json()["refused"][0]["rule"] == "12.23"
    assert choice["rule"] == "12.23" and choice["result"] == "A1*/DR" and choice["seed"] == s.roll_seed()
    assert list(choice["roles"]) == ["attacker"] and choice["roles"]["attacker"]["side"] == "soviet"
    assert [(o["kind"], o["units"], o["rule"], o["text"]) for o in choice["roles"]["attacker"]["options"]] == [
        ("artillery", ["so-231-387"], "10.41", "all participating artillery units are turned to Fired"),
        ("air", ["so-air-1"], "13.14", "all participating air units are turned to Flown")]
    wrong = client.post("/api/combat/roll", json={**body, "special": {"attacker": "armor"}})
    assert wrong.status_code == 409 and "not 'armor'" in wrong.json()["error"] and wrong.json()["choice"] == choice
    done = client.post("/api/combat/roll", json={**body, "special": {"attacker": "air"}})
    assert done.status_code == 200, done.json()
    event = done.json()["event"]
    assert event["dice"] == choice["dice"] and event["result"] == "A1*/DR" and event["special"] == {"attacker": "air"}
    assert event["supports_spent"] == ["so-air-1 is flown (air special result, rule 12.23)"]
    saved = client.get("/api/save").json()          # the choice is in the saved game and replays
    again = session_from_dict(saved, game=ds_17.game)
    assert again.events[-1]["special"] == {"attacker": "air"} and again.pos == s.pos


def test_a_result_without_a_star_spends_no_support(ds_17):
    from toolkit.play.combat import roll
    rs = ruleset_for(ds_17.game)
    s = Session.from_position(ds_17, rs, seed=0)
    roll(s, DS_ATTACKERS, ds_17.map.grid.parse("1811"), DS_SUPPORTS)
    assert "*" not in s.events[-1]["result"]
    assert not any(s.pos.units[u].status & spent_statuses(rs) for u in ("so-231-387", "so-air-1", "ax-air-b1"))


# -- Demyansk 12.32: a retreat from a Map Box Entry hex straight into the box ----------------------

ENTRY = {"game": "demyansk-shield", "turn": 3, "side": "soviet", "phase": "Combat", "weather": "frozen",
         "units": {"ax-ir27": {"hex": "2036"}, "so-87": {"hex": "2035"}, "so-1-87": {"hex": "2035"}}}


def test_a_retreat_into_the_map_box_is_offered_and_replays():
    game = load_game("demyansk-shield")
    rs = ruleset_for(game)
    seed = next(n for n in range(200) if _first_result(game, rs, n).defender.retreat)   # a DR (deterministic)
    s = Session.from_position(position_from_dict(ENTRY, game), rs, seed=seed)
    client = TestClient(create_app(Table(s)))
    rolled = client.post("/api/combat/roll", json={"attackers": ["so-87", "so-1-87"], "defender": "2036"})
    assert rolled.status_code == 200, rolled.json()
    retreat = next(r for r in rolled.json()["position"]["after_combat"]["retreats"] if r["role"] == "defender")
    assert retreat["boxes"] == [{"id": "agn", "name": "AGN (Army Group North)", "rule": "12.32"}]
    assert not retreat["eliminated"] and retreat["ends"]                       # hexes too: the owner chooses
    wrong = client.post("/api/combat/retreat", json={"units": ["ax-ir27"], "box": "nwf"})
    assert wrong.status_code == 409 and wrong.json()["refused"][0]["code"] == "retreat-not-allowed"
    done = client.post("/api/combat/retreat", json={"units": ["ax-ir27"], "box": "agn"})
    assert done.status_code == 200, done.json()
    assert done.json()["event"]["box"] == "agn" and done.json()["event"]["path"] == ["2036"]
    assert (s.pos.units["ax-ir27"].hex, s.pos.units["ax-ir27"].box) == (None, "agn")
    again = session_from_dict(client.get("/api/save").json(), game=game)
    assert again.pos == s.pos and again.events[-1]["box"] == "agn"


def _first_result(game, rs, seed):
    s = Session.from_position(position_from_dict(ENTRY, game), rs, seed=seed)
    a = assess_combat(s.pos, rs, ["so-87", "so-1-87"], s.pos.map.grid.parse("2036"))
    return roll_combat(s.pos, rs, a, seed=s.roll_seed()).result
