"""``hexforge referee combat ... --apply``: the position after the result, written atomically;
bad choices exit 2 with the rule and nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from toolkit.cli import main
from toolkit.referee import load_position

DATA = Path(__file__).resolve().parents[1] / "data" / "velikiye-luki" / "retreat-combat-1.yaml"

COMBAT_1 = ["combat", "df357,rc27,bm18-2m", "1109", "--support", "mrl:mrl38g", "--defence-support",
            "artillery:1@hq-83", "--roll", "4", "--rolls", "attacker quality=3", "--rolls", "defender quality=4"]


@pytest.fixture()
def combat_1(tmp_path):
    """VV 6.5.2 Combat 1 as a position file (the Katyusha and HQ 83 added)."""
    data = yaml.safe_load(DATA.read_text())
    data.pop("expect")
    data["units"].update({"mrl38g": {"hex": "1309"}, "hq-83": {"hex": "1009"}})
    path = tmp_path / "combat-1.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_apply_writes_the_position_after_combat_1(capsys, tmp_path, combat_1):
    after = tmp_path / "after.yaml"
    code, out, _ = run(capsys, *COMBAT_1, "-p", str(combat_1), "--apply", "--loss", "df357=1",
                       "--retreat", "defender=1008,909,808", "--advance", "df357", "--advance", "bm18-2m=909",
                       "--out", str(after))
    assert code == 0
    assert "1d6 4: 1/R2 [seed" in out and "s343 retreat 1109 1008 909 808" in out
    assert "df357 loses 1 step(s) (3 -> 2)" in out and "bm18-2m advances 1208 -> 909" in out
    assert f"wrote {after}" in out
    pos = load_position(after)
    fmt = pos.map.format
    assert fmt(pos.unit("s343").hex) == "808" and pos.unit("df357").steps == 2
    assert fmt(pos.unit("df357").hex) == "1109" and fmt(pos.unit("bm18-2m").hex) == "909"


def test_apply_json(capsys, tmp_path, combat_1):
    code, out, _ = run(capsys, *COMBAT_1, "-p", str(combat_1), "--json", "--apply", "--loss", "df357=1",
                       "--loss", "s343=1", "--retreat", "defender=909")
    doc = json.loads(out)
    assert code == 0 and doc["outcome"]["losses"] == {"s343": 1, "df357": 1}
    assert doc["outcome"]["retreats"]["s343"][-1] == "909" and doc["outcome"]["out"] is None
    assert doc["outcome"]["log"][0] == doc["roll"]["log"]


@pytest.mark.parametrize("extra,message", [
    (["--retreat", "defender=1209"], "may not end a retreat in 1209"),
    ([], "the defender must choose"),
    (["--retreat", "defender=808", "--loss", "df357=x"], "bad --loss"),
    (["--retreat", "sideways=808"], "bad --retreat"),
    (["--retreat", "defender=808", "--loss", "nobody=1"], "no unit 'nobody'"),
    (["--retreat", "defender=808", "--loss", "df357=1", "--advance", "s343"], "did not attack"),
])
def test_bad_choices_exit_2_and_write_nothing(capsys, tmp_path, combat_1, extra, message):
    after = tmp_path / "after.yaml"
    code, out, err = run(capsys, *COMBAT_1, "-p", str(combat_1), "--apply", *extra, "--out", str(after))
    assert code == 2 and message in err and "Traceback" not in err
    assert not after.exists()


def test_choices_need_apply(capsys, combat_1, tmp_path):
    code, _, err = run(capsys, *COMBAT_1, "-p", str(combat_1), "--loss", "df357=1", "--out", str(tmp_path / "x"))
    assert code == 2 and "need --apply" in err
