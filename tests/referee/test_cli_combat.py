"""``hexforge referee combat`` and ``retreat``: text, JSON, rolls, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.cli import main

ATTACK = Path(__file__).resolve().parents[1] / "data" / "combat" / "tutorial-attack.yaml"


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_combat_text(capsys):
    code, out, _ = run(capsys, "combat", "b-4,b-2", "0805", "-p", str(ATTACK))
    assert code == 0
    assert out.startswith("b-4,b-2 attack 0805 (r-13): 10:3 -> 3-1")
    assert "D1R" in out and "1/3" in out and "expected steps lost: attacker 0 (0.00), defender 2/3" in out


def test_combat_json_schema(capsys):
    code, out, _ = run(capsys, "combat", "b-4,b-2", "0805", "-p", str(ATTACK), "--json",
                       "--support", "artillery:b-5", "--defence-support", "artillery:r-15")
    data = json.loads(out)
    assert code == 0 and data["schema"] == 1 and data["command"] == "combat"
    c = data["combat"]
    assert (c["attack"], c["defence"], c["odds"], c["column"], c["legal"]) == ("10", "3", "3-1", "3-1", True)
    assert sum(__import__("fractions").Fraction(p) for p in c["distribution"].values()) == 1
    shifts = [m for m in c["modifiers"] if m["kind"] == "shift"]
    assert [(m["value"], m["hex"], m["rule"]) for m in shifts] == [(1, "0504", "T.10"), (-1, "1104", "T.10")]
    assert c["expected_steps"] == {"attacker": "0", "defender": "2/3"}
    assert c["results"]["D2R"]["defender"]["steps"] == 2


def test_combat_roll_is_logged(capsys):
    code, out, _ = run(capsys, "combat", "b-4,b-2", "0805", "-p", str(ATTACK), "--roll", "6")
    assert code == 0 and out.strip().splitlines()[-1].startswith("combat b-4,b-2 -> 0805 (r-13): 10:3 = 3-1")
    assert out.strip().endswith("]") and ": D2R [seed" in out
    code, out, _ = run(capsys, "combat", "b-4,b-2", "0805", "-p", str(ATTACK), "--seed", "11", "--json")
    first = json.loads(out)["roll"]
    code, out, _ = run(capsys, "combat", "b-4,b-2", "0805", "-p", str(ATTACK), "--seed", "11", "--json")
    assert json.loads(out)["roll"] == first and first["seed"] == 11


def test_combat_refused_and_bad_input(capsys):
    code, out, _ = run(capsys, "combat", "b-5", "0805", "-p", str(ATTACK))
    assert code == 1 and "not next to 0805" in out
    code, out, err = run(capsys, "combat", "b-9", "0805", "-p", str(ATTACK))
    assert code == 2 and "no unit 'b-9'" in err and "Traceback" not in err
    code, out, err = run(capsys, "combat", "b-4", "9999", "-p", str(ATTACK))
    assert code == 2 and "9999" in err
    code, out, err = run(capsys, "combat", "b-4", "0805", "-p", str(ATTACK), "--support", "air:2")
    assert code == 2 and "unknown support 'air'" in err
    code, out, err = run(capsys, "combat", "b-4", "0805", "-p", str(ATTACK), "--roll", "9")
    assert code == 2 and "not 9" in err


VV1 = Path(__file__).resolve().parents[1] / "data" / "velikiye-luki" / "retreat-combat-1.yaml"


def test_retreat_command(capsys):
    code, out, _ = run(capsys, "retreat", "s343", "-p", str(VV1), "--length", "3", "--advance", "df357")
    assert code == 0 and "s343 from 1109" in out and "808  via 1009 909 808" in out
    assert "df357 may advance into: 1109" in out
    code, out, _ = run(capsys, "retreat", "r-13", "-p", str(ATTACK), "--json")
    data = json.loads(out)
    assert code == 1 and data["retreat"]["eliminated"] and data["retreat"]["reason"]["code"] == "retreat-blocked"
    code, out, err = run(capsys, "retreat", "r-13", "-p", str(ATTACK), "--length", "x")
    assert code == 2 and "--length" in err


def test_combat_png_marks_the_attack(capsys, tmp_path):
    from PIL import Image
    vv = Path(__file__).resolve().parents[1] / "data" / "combat" / "vv-combat-1.yaml"
    png = tmp_path / "combat.png"
    code, out, err = run(capsys, "combat", "df357,rc27,bm18-2m", "1109", "-p", str(vv), "--support", "mrl:mrl38g",
                         "--defence-support", "artillery:1@hq-83", "--png", str(png), "--dpi", "40")
    assert code == 0 and f"wrote {png}" in err
    image = Image.open(png).convert("RGB")
    assert image.width > 200 and len(image.resize((64, 64)).getcolors(64 * 64)) > 20


@pytest.mark.parametrize("module", ["tutorial", "velikiye_luki", "demyansk_shield"])
def test_the_emitted_plugin_carries_combat(module):
    import importlib

    from toolkit.referee.plugin import ruleset_config, ruleset_from_config
    rs = importlib.import_module(f"toolkit.rulesets.{module}").RULESET
    config = json.loads(json.dumps(ruleset_config(rs)))
    assert config["combat"]["crt"] == "combat_results" and "retreat" in config
    back = ruleset_from_config(config)
    assert back.combat == rs.combat and back.retreat == rs.retreat and back == rs
