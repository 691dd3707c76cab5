"""Fog of war by VASSAL's own means (a Mask the owner sets) and the module's help page."""

from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from toolkit.errors import DataError
from toolkit.game import FogOfWar
from toolkit.io import dump_game, load_game
from toolkit.vassal import build_module, inspect
from vassal_fakes import FAKES

B = "VASSAL.build."
FOG = """
fog_of_war:
  kinds: [unit]
  note: "Look only within sight."
  rule: "T.6"
"""


@pytest.fixture
def fog_game(game_copy):
    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write(FOG)
    return game_copy


def test_fog_of_war_loads_and_round_trips(fog_game, tmp_path):
    game = load_game(str(fog_game))
    assert game.fog_of_war == FogOfWar(kinds=("unit",), note="Look only within sight.", source=game.fog_of_war.source)
    assert game.fog_of_war.source.rule == "T.6"
    assert load_game(str(dump_game(game, str(tmp_path / "copy")))).fog_of_war == game.fog_of_war


def test_a_bad_kind_names_the_field(game_copy):
    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write("fog_of_war: {kinds: [unit, tree]}\n")
    with pytest.raises(DataError) as exc:
        load_game(str(game_copy))
    assert exc.value.field == "fog_of_war.kinds" and "'tree'" in exc.value.problem


def test_units_carry_a_mask_markers_do_not_and_the_help_says_how(fog_game, tmp_path):
    game = load_game(str(fog_game))
    [path] = build_module(game, tmp_path / "out", dpi=60, **FAKES)
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("buildFile.xml"))
        names = set(zf.namelist())
        page = zf.read("help/tutorial.html").decode("utf-8")
    slots = {s.get("entryName"): s.text or "" for s in root.iter(B + "widget.PieceSlot")}
    unit = game.counters["b-1"]
    marker = next(c for c in game.counters.values() if c.is_marker)
    assert "obs;" in slots[unit.name] and "Hidden from the enemy" in slots[unit.name]
    assert "obs;" not in slots[marker.name]
    assert {"images/fog_blue.png", "images/fog_red.png"} <= names
    helps = [h.get("fileName") for h in root.iter(B + "module.documentation.HelpFile")]
    assert "help/tutorial.html" in helps
    assert "Fog of war" in page and "Look only within sight. [rule T.6]" in page and "The Kessel Crossing" in page
    assert inspect(path)["problems"] == []


def test_without_fog_no_mask(game_copy, tmp_path):
    game = load_game(str(game_copy))
    [path] = build_module(game, tmp_path / "out", dpi=60, **FAKES)
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("buildFile.xml"))
        page = zf.read("help/tutorial.html").decode("utf-8")
    assert not any("obs;" in (s.text or "") for s in root.iter(B + "widget.PieceSlot"))
    assert "Fog of war" not in page


def test_turn_track_captions_keep_what_scenarios_share():
    from toolkit.game import Game, Scenario, Turn
    from toolkit.vassal.module import _captions

    def scenario(sid, day, n):
        parts = ["Morning", "Day", "Evening", "Night"]
        return Scenario(id=sid, name=sid, turns=[Turn(i + 1, f"{day + i // 4}th {parts[i % 4]}") for i in range(n)])

    game = Game(id="g", name="g", scenarios={"a": scenario("a", 10, 8), "b": scenario("b", 4, 4)})
    assert _captions(game) == {1: "Morning", 2: "Day", 3: "Evening", 4: "Night", 5: "11th Morning",
                               6: "11th Day", 7: "11th Evening", 8: "11th Night"}
    one = Game(id="g", name="g", scenarios={"a": scenario("a", 10, 2)})
    assert _captions(one) == {1: "10th Morning", 2: "10th Day"}
