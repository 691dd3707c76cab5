"""The play server's HTTP API through Starlette's test client: every refusal reaches the page
with its code, rule, hex and text; undo restores the exact position; save, load and replay
reproduce the game."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from toolkit.io import load_game
from toolkit.play import Session, Table, create_app, session_to_dict
from toolkit.referee import check_path, position_from_dict, position_to_dict, reachable, ruleset_for

#: A tutorial position built so that each movement rule can be broken by one red move.
CRAFTED = {"game": "tutorial", "turn": 1, "side": "red", "phase": "Movement",
           "units": {"b-1": {"hex": "0705"}, "b-2": {"hex": "0703"}, "r-10": {"hex": "0905"},
                     "r-11": {"hex": "0804"}, "r-12": {"hex": "1003", "status": ["isolated"]},
                     "r-13": {"box": "eliminated"}, "r-14": {"hex": "1208"}, "r-15": {"hex": "1207"}}}


@pytest.fixture(scope="module")
def game():
    return load_game("tutorial")


def _client(session):
    return TestClient(create_app(Table(session)))


def _crafted(game, **changes):
    data = json.loads(json.dumps(CRAFTED))
    data.update(changes)
    return Session.from_position(position_from_dict(data, game), ruleset_for(game), seed=7)


# (units, path, expected code): each breaks one rule in CRAFTED (or the scenario, see below)
RULE_CASES = [
    (["r-10"], ["1004", "1104"], "not-enough-mp"),
    (["r-10"], ["1005", "0906"], "prohibited-terrain"),
    (["r-10"], ["0805", "0804"], "zoc-stop"),
    (["r-11"], ["0803"], "zoc-to-zoc"),
    (["r-11"], ["0705"], "enemy-occupied"),
    (["r-12"], ["1002"], "cannot-move"),
    (["r-10"], ["1003"], "not-adjacent"),
    (["r-13"], ["1005"], "not-on-map"),
    (["r-14", "r-10"], ["1108"], "stack-split"),
]


@pytest.mark.parametrize("units, path, code", RULE_CASES, ids=[c[2] for c in RULE_CASES])
def test_every_referee_refusal_reaches_the_page(game, units, path, code):
    session = _crafted(game)
    before = position_to_dict(session.pos)
    grid = session.pos.map.grid
    expected = check_path(session.pos, session.rs, units, [grid.parse(h) for h in path]).reason
    answer = _client(session).post("/api/move", json={"units": units, "path": path})
    assert answer.status_code == 409
    refused = answer.json()["refused"]
    assert refused == [expected.to_dict(session.fmt)]
    assert refused[0]["code"] == code and refused[0]["text"]
    assert position_to_dict(session.pos) == before      # a refused move stays where it was


def test_scenario_refusals_cite_their_rule(game):
    # the scenario's own set-up: the 1004 stack is full (T.6); the blue HQ may not cross the river (T.4)
    session = Session.new(game, ruleset_for(game), seed=1)
    client = _client(session)
    full = client.post("/api/move", json={"units": ["r-10"], "to": "1004"}).json()["refused"][0]
    assert (full["code"], full["rule"], full["hex"]) == ("stacking-limit", "T.6", "1004")
    blue = Session.from_position(position_from_dict({**CRAFTED, "side": "blue", "units": {"b-hq": {"hex": "0505"}}},
                                                    game), ruleset_for(game))
    river = _client(blue).post("/api/move", json={"units": ["b-hq"], "path": ["0604", "0704"]}).json()["refused"][0]
    assert (river["code"], river["rule"], river["hex"]) == ("prohibited-hexside", "T.4", "0704")


SESSION_CASES = [
    ("/api/move", {"units": ["b-1"], "to": "0605"}, "not-phasing-side"),
    ("/api/undo", {}, "nothing-to-undo"),
]


@pytest.mark.parametrize("path, body, code", SESSION_CASES, ids=[c[2] for c in SESSION_CASES])
def test_session_refusals_reach_the_page(game, path, body, code):
    answer = _client(_crafted(game)).post(path, json=body)
    assert answer.status_code == 409
    assert answer.json()["refused"][0]["code"] == code


def test_moved_units_and_phases_are_refused_with_reasons(game):
    client = _client(_crafted(game))
    assert client.post("/api/move", json={"units": ["r-10"], "to": "1005"}).status_code == 200
    again = client.post("/api/move", json={"units": ["r-10"], "to": "1004"}).json()["refused"][0]
    assert again["code"] == "already-moved"
    client.post("/api/phase")                                   # red combat
    moving = client.post("/api/move", json={"units": ["r-11"], "to": "0904"}).json()["refused"][0]
    assert moving["code"] == "not-movement-phase"
    ended = client.post("/api/undo").json()["refused"][0]
    assert ended["code"] == "phase-ended"


def test_where_matches_the_referee_and_says_why_not_now(game):
    session = _crafted(game)
    client = _client(session)
    where = client.get("/api/where", params={"units": "r-10"}).json()
    reach = reachable(session.pos, session.rs, "r-10")
    assert [h["hex"] for h in where["hexes"]] == [session.fmt(h) for h in reach.hexes()]
    assert where["blocked"] is None
    enemy = client.get("/api/where", params={"units": "b-1"}).json()
    assert enemy["blocked"]["code"] == "not-phasing-side"
    stopped = client.get("/api/where", params={"units": "r-12"}).json()
    assert stopped["refused"]["code"] == "cannot-move" and stopped["hexes"] == []


def test_undo_restores_the_exact_position(game):
    session = Session.new(game, ruleset_for(game), seed=3)
    client = _client(session)
    before = position_to_dict(session.pos)
    r1 = client.post("/api/move", json={"units": ["r-10"], "to": "0905"})
    assert r1.status_code == 200
    middle = position_to_dict(session.pos)
    assert middle != before and middle["units"]["r-10"] == {"hex": "0905", "moved": True}
    client.post("/api/move", json={"units": ["r-13"], "to": "0908"})
    assert client.post("/api/undo").json()["event"]["units"] == ["r-13"]
    assert position_to_dict(session.pos) == middle
    client.post("/api/undo")
    assert position_to_dict(session.pos) == before
    assert session.pos == session.start


def _play_a_turn(client):
    moves = [(["r-10"], "0905"), (["r-13"], "0908"), (["r-14"], "1107")]
    for units, to in moves:
        assert client.post("/api/move", json={"units": units, "to": to}).status_code == 200
    for _ in range(2):
        assert client.post("/api/phase").status_code == 200    # red combat, blue movement
    assert client.post("/api/move", json={"units": ["b-3"], "to": "0708"}).status_code == 200
    for _ in range(2):
        assert client.post("/api/phase").status_code == 200    # blue combat, turn 2 red movement


def test_save_load_and_replay_reproduce_the_game(game):
    session = Session.new(game, ruleset_for(game), seed=11)
    client = _client(session)
    _play_a_turn(client)
    end = position_to_dict(session.pos)
    assert end["turn"] == 2 and "b-4" in end["units"]          # the turn 2 reinforcement arrived
    saved = client.get("/api/save")
    assert "attachment" in saved.headers["content-disposition"]
    data = saved.json()
    assert data["seed"] == 11 and len(data["events"]) == 8

    other = _client(Session.new(game, ruleset_for(game)))       # "another machine"
    loaded = other.post("/api/load", json=data)
    assert loaded.status_code == 200
    assert loaded.json()["position"]["stage"] == {"turn": 2, "side": "red", "phase": "Movement"}
    assert other.get("/api/save").json() == data

    table = Table(Session.new(game, ruleset_for(game)))
    replay = TestClient(create_app(table))
    assert replay.post("/api/load", params={"replay": "1"}, json=data).json()["position"]["pending"] == 8
    refused = replay.post("/api/move", json={"units": ["r-10"], "to": "0905"}).json()["refused"][0]
    assert refused["code"] == "replay-pending"
    seen = []
    for _ in range(8):
        seen.append(replay.post("/api/replay/step").json()["event"])
    assert seen == data["events"]
    assert replay.get("/api/save").json() == data
    assert position_to_dict(table.session.pos) == end
    assert replay.post("/api/replay/step").json()["event"] is None


def test_a_tampered_save_is_refused_naming_the_event(game):
    session = Session.new(game, ruleset_for(game), seed=5)
    client = _client(session)
    client.post("/api/move", json={"units": ["r-10"], "to": "0905"})
    data = session_to_dict(session)
    data["events"][0]["path"] = ["1005", "0905", "0805", "0705", "0605", "0505"]   # onto the enemy in Kessel
    answer = _client(Session.new(game, ruleset_for(game))).post("/api/load", params={"name": "cheat.json"}, json=data)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("cheat.json: events[0]: event 1 (move) is refused")


@pytest.mark.parametrize("body, problem", [
    ({"format": "x"}, "not a hexforge saved game"),
    ({"format": "hexforge-play", "version": 9}, "unsupported version"),
    ({"format": "hexforge-play", "version": 1, "seed": -1, "events": []}, "seed"),
    ({"format": "hexforge-play", "version": 1, "seed": 1, "events": [{"type": "teleport"}]}, "events[0]"),
    ({"format": "hexforge-play", "version": 1, "seed": 1, "events": [], "game": "tutorial", "start": []}, "start"),
])
def test_bad_saved_games_get_a_clear_error(game, body, problem):
    session = _crafted(game)
    answer = _client(session).post("/api/load", params={"name": "bad.json"}, json=body)
    assert answer.status_code == 400
    assert problem in answer.json()["error"] and "bad.json" in answer.json()["error"]
    assert session.events == []


def test_bad_requests_are_400_not_tracebacks(game):
    client = _client(_crafted(game))
    assert client.post("/api/move", content=b"{not json").status_code == 400
    assert client.post("/api/move", json={"units": ["nobody"], "to": "0905"}).status_code == 400
    assert "not on map" in client.post("/api/move", json={"units": ["r-10"], "to": "9999"}).json()["error"]
    assert client.get("/api/overlay/zoc", params={"side": "green"}).status_code == 400
    assert client.get("/api/overlay/weather").status_code == 404
    assert client.get("/counter/nothing.png").status_code == 400


def test_overlays_answer_from_the_referee(game):
    session = _crafted(game)
    client = _client(session)
    zoc = client.get("/api/overlay/zoc", params={"side": "red"}).json()
    assert {"0704", "0804", "0806"} & set(zoc["hexes"]) and zoc["rule"] == "T.6"
    supply = client.get("/api/overlay/supply", params={"side": "red"}).json()
    assert "r-10" in supply["supplied"] and supply["rule"] == "T.7"
    los = client.get("/api/overlay/los", params={"from": "0905", "to": "0505"}).json()
    assert los["from"] == "0905" and isinstance(los["visible"], bool)
    command = client.get("/api/overlay/command", params={"side": "blue"}).json()
    assert command["hqs"] == []                                   # no blue HQ in CRAFTED
    info = client.get("/api/hex/0905", params={"units": "r-10"}).json()
    assert info["class"] == "foot" and info["terrain"]["cost"]


def test_page_pictures_and_board(game):
    session = Session.new(game, ruleset_for(game), seed=1)
    client = _client(session)
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/js/main.js"' in page.text
    for asset in ("/static/js/main.js", "/static/js/board.js", "/static/js/api.js", "/static/js/panels.js",
                  "/static/play.css"):
        body = client.get(asset)
        assert body.status_code == 200 and "http://" not in body.text.replace("http://www.w3.org/2000/svg", "")
    board = client.get("/api/board").json()
    assert len(board["map"]["hexes"]) == len(session.pos.map.grid)
    assert board["sequence"][0] == {"side": "red", "phase": "Movement"}
    png = client.get("/map.png")
    assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"
    assert client.get("/counter/r-10.png", params={"px": 64}).content[:4] == b"\x89PNG"
