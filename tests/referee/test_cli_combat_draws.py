"""``hexforge referee combat`` rolls that draw units into the attack: A Victory Denied's Soviet
10 (9.4.3) drawing from the Elite Division Cup, with ``--place`` and ``--apply``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from toolkit.cli import cli
from toolkit.errors import HexforgeError
from toolkit.referee import load_position
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
