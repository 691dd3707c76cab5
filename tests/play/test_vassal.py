"""The bridges to VASSAL through the page's API: the position exported as a .vsav of the
game's module and read back."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from toolkit.io import load_game
from toolkit.play import Session, Table, create_app
from toolkit.referee import position_to_dict, ruleset_for

@pytest.fixture(scope="module")
def game():
    return load_game("tutorial")


def _units(pos):
    data = position_to_dict(pos)["units"]
    return {uid: {k: v for k, v in u.items() if k in ("hex", "box", "steps", "moved")} for uid, u in data.items()}


def test_position_round_trips_through_a_vsav(game, tmp_path):
    session = Session.new(game, ruleset_for(game), seed=1)
    table = Table(session)
    client = TestClient(create_app(table))
    assert client.post("/api/move", json={"units": ["r-10"], "to": "0905"}).status_code == 200
    client.post("/api/loss", json={"unit": "b-2"})
    exported = client.get("/api/export.vsav")
    assert exported.status_code == 200, exported.text
    assert exported.content[:2] == b"PK" and ".vsav" in exported.headers["content-disposition"]
    other = Table(Session.new(game, ruleset_for(game), seed=2))
    other.modules = table.modules                      # the same module, built once
    answer = TestClient(create_app(other)).post("/api/import.vsav", params={"name": "turn1.vsav"},
                                                content=exported.content)
    assert answer.status_code == 200, answer.text
    assert _units(other.session.pos) == _units(session.pos)
    assert other.session.pos.units["b-2"].steps == 1


def test_export_is_a_vsav_of_the_games_module(game, tmp_path):
    from toolkit.vassal import build_module, inspect
    session = Session.new(game, ruleset_for(game), seed=1)
    client = TestClient(create_app(Table(session)))
    client.post("/api/move", json={"units": ["r-10"], "to": "0905"})
    client.post("/api/loss", json={"unit": "b-2"})
    exported = client.get("/api/export.vsav")
    assert exported.status_code == 200, exported.text
    (tmp_path / "turn1.vsav").write_bytes(exported.content)
    module = build_module(game, tmp_path / "module")[0]       # the module `hexforge vassal` writes
    report = inspect(tmp_path / "turn1.vsav", module=str(module))
    assert report["problems"] == []
    units = {p["properties"]["UnitId"]: p for p in report["pieces"] if p["properties"].get("Kind") != "marker"}
    placed = {uid: u for uid, u in session.pos.units.items() if u.hex is not None}
    assert set(units) == set(placed)
    assert {uid: p["hex"] for uid, p in units.items()} == {uid: session.fmt(u.hex) for uid, u in placed.items()}
    assert units["b-2"]["layer"] == 2 and units["r-10"]["layer"] in (None, 1)   # reduced: the back face


def test_a_bad_vsav_is_refused_clearly(game):
    client = TestClient(create_app(Table(Session.new(game, ruleset_for(game), seed=1))))
    answer = client.post("/api/import.vsav", params={"name": "junk.vsav"}, content=b"not a zip")
    assert answer.status_code == 400 and "junk.vsav" in answer.json()["error"]
