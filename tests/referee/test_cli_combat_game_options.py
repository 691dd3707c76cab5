"""``hexforge referee combat`` options of some games (toolkit/cli/referee_combat_games.py): A
Victory Denied's Soviet 10 (9.4.3) drawing from the Elite Division Cup, with ``--place`` and
``--apply``; Grossdeutschland's anti-aircraft against an air chit (10.7, ``--air``). White
Death's ``--barrage-split`` and ``--barrage-sp`` are in tests/rulesets/white_death/test_fire_cli.py."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from toolkit.cli import cli
from toolkit.errors import HexforgeError
from toolkit.referee import load_position
from toolkit.referee.combat_chart import dice_distribution
from toolkit.rulesets.a_victory_denied.elite import cup_units

DATA = Path(__file__).resolve().parents[1] / "data" / "combat"
AVD = str(DATA / "avd-soviet-attack.yaml")          # s-20c (1637) and s-45c (1638) attack g-3pz in 1537
ATTACK = ["referee", "combat", "s-20c,s-45c", "1537", "-p", AVD]


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def refused(result, text: str) -> bool:
    """The command stopped on a hexforge error saying ``text`` (the console script's ``main``
    prints it as one line and exits 2)."""
    return isinstance(result.exception, HexforgeError) and text in str(result.exception)


def test_a_soviet_10_draws_from_the_elite_cup_and_rolls_again():
    # 9.4.3: "combat stops", a unit is drawn and stacked with an attacker, the odds are
    # recalculated, the die rolled again (the next natural comes from the seed)
    result = invoke(*ATTACK, "--roll", "10", "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    draws = doc["draws"]
    cup = cup_units(load_position(AVD))
    assert len(draws["drawn"]) >= 1 and all(u in cup for u in draws["drawn"])
    assert draws["attackers"][:2] == ["s-20c", "s-45c"] and draws["drawn"][0] in draws["attackers"]
    assert draws["log"][0].startswith("d10 10: combat stops; drew ") and "(9.4.3)" in draws["log"][0]
    assert doc["roll"]["column"] == draws["column"] and "[seed 7]" in doc["roll"]["log"]
    again = json.loads(invoke(*ATTACK, "--roll", "10", "--seed", "7", "--json").output)
    assert again["draws"] == draws and again["roll"] == doc["roll"]          # replayable from the seed
    plain = json.loads(invoke(*ATTACK, "--roll", "3", "--seed", "7", "--json").output)
    assert plain["draws"]["drawn"] == [] and plain["roll"]["result"]["text"] == "DR"


def test_place_and_apply_write_the_drawn_unit_on_the_map(tmp_path):
    drawn = json.loads(invoke(*ATTACK, "--roll", "10", "--seed", "7", "--json").output)["draws"]["drawn"][0]
    after = tmp_path / "after.yaml"
    result = invoke(*ATTACK, "--roll", "10", "--seed", "7", "--place", f"{drawn}=1638", "--apply",
                    "--out", str(after))
    assert result.exit_code == 0, result.output
    assert "stacked in 1638" in result.output
    pos = load_position(after)
    assert pos.map.format(pos.unit(drawn).hex) in ("1638", "1537")          # stacked, or advanced after
    wrong = invoke(*ATTACK, "--roll", "10", "--seed", "7", "--place", f"{drawn}=1537")   # the defender's hex
    assert refused(wrong, "(9.4.3, 5.1-5.3), not 1537") and not after.read_text() == ""
    assert refused(invoke(*ATTACK, "--roll", "10", "--place", f"{drawn}=1000"), "hex 1000 is not on the map")


def test_place_is_refused_where_nothing_is_drawn():
    vv = str(DATA / "vv-combat-1.yaml")
    result = invoke("referee", "combat", "df357", "1109", "-p", vv, "--place", "x=1109")
    assert refused(result, "--place is for games whose roll draws units")
    assert refused(invoke(*ATTACK, "--place", "s-100id"), "bad --place 's-100id'")


GD = """game: grossdeutschland
map: kursk
turn: 3
side: german
phase: combat
weather: sunny
units:
  g-1gr-1k: {hex: "1328"}
  g-1gr-hq: {hex: "1328"}
  s-1rif-1: {hex: "1329"}
  s-div-aa: {hex: "1331"}
"""


def _gd(tmp_path):
    path = tmp_path / "gd.yaml"
    path.write_text(GD)
    return ["referee", "combat", "g-1gr-1k", "1329", "-p", str(path), "--context", "activating_hq=g-1gr-hq"]


def test_air_chit_against_aa_the_distribution(tmp_path):
    # 10.7: the Soviet AA two hexes away rolls 2d6 and nullifies the German Airstrike on a total
    # greater than 2 (35/36); the combat's distribution is the chit's DRM with 1/36, none otherwise
    base = _gd(tmp_path)
    plain = json.loads(invoke(*base, "--json").output)["combat"]
    hit = json.loads(invoke(*base, "--drm", "2", "--json").output)["combat"]
    result = invoke(*base, "--drm", "2", "--air", "ev-g-blue-airstrike", "--json")
    assert result.exit_code == 0, result.output
    air = json.loads(result.output)["air"]
    stands = 1 - sum(p for t, p in dice_distribution("2d6").items() if t > 2)
    assert Fraction(air["stands"]) == stands == Fraction(1, 36)
    assert air["rolls"] == [{"unit": "s-div-aa", "dice": "2d6", "distance": 2, "nullifies": "35/36"}]
    for text in set(plain["distribution"]) | set(hit["distribution"]):
        want = stands * Fraction(hit["distribution"].get(text, "0")) + (1 - stands) * \
            Fraction(plain["distribution"].get(text, "0"))
        assert Fraction(air["distribution"].get(text, "0")) == want
    assert sum(Fraction(p) for p in air["distribution"].values()) == 1
    text = invoke(*base, "--drm", "2", "--air", "ev-g-blue-airstrike").output
    assert "AA against ev-g-blue-airstrike (10.7): the chit stands 1/36" in text


def test_air_chit_rolled_from_the_seed(tmp_path):
    base = _gd(tmp_path)
    result = invoke(*base, "--drm", "2", "--air", "ev-g-blue-airstrike", "--seed", "5", "--json")
    doc = json.loads(result.output)
    rolled = doc["air"]["rolled"]
    (aa,) = rolled["rolls"]
    assert aa["unit"] == "s-div-aa" and 2 <= aa["total"] <= 12 and aa["nullifies"] == (aa["total"] > 2)
    assert rolled["stands"] == (not aa["nullifies"])
    # the combat is rolled with the chit's DRM only when it stands
    assert doc["roll"]["modified"] - doc["roll"]["roll"] == (2 if rolled["stands"] else 0)
    again = json.loads(invoke(*base, "--drm", "2", "--air", "ev-g-blue-airstrike", "--seed", "5", "--json").output)
    assert again["air"]["rolled"] == rolled and again["roll"] == doc["roll"]       # replayable from the seed
    text = invoke(*base, "--drm", "2", "--air", "ev-g-blue-airstrike", "--seed", "5").output
    assert f"AA s-div-aa 2d6 {aa['total']} against 2 hex(es)" in text and "[seed 5]" in text


def test_air_is_refused_where_it_does_not_fit(tmp_path):
    base = _gd(tmp_path)
    assert refused(invoke(*base, "--air", "ev-g-blue-airstrike"), "declare the chit's die-roll modifier with --drm")
    assert refused(invoke(*base, "--drm", "2", "--air", "g-1gr-hq"), "is not a blue Airstrike or Strafing event chit")
    assert refused(invoke(*ATTACK, "--drm", "1", "--air", "x"), "--air is for games with anti-aircraft")
