"""``hexforge referee combat -g white-death``: the per-target answer, --fire and --target, JSON,
a seeded roll, --apply with --out, --png, and bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


DATA = Path(__file__).resolve().parents[2] / "data" / "combat" / "wd-assault.yaml"


@pytest.fixture()
def pos_file():
    return DATA


def test_text_answer_lists_each_target(capsys, pos_file):
    code, out, _ = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--target", "g-251-1=16",
                       "--target", "g-251-2")
    assert code == 0
    assert "g-251-1 16:6; g-251-2 8:6 -> 2:1; 1:1" in out
    assert "per target:" in out and "MC1 -> -1 SP, passes" in out and "estimated" in out


def test_json_answer(capsys, pos_file):
    code, out, _ = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--target", "g-251-1", "--json")
    doc = json.loads(out)
    c = doc["combat"]
    assert code == 0 and c["fire"]["phase"] == "assault" and c["crt"]["name"] == "conventional_fire"
    shot = c["fire"]["shots"][0]
    assert (shot["unit"], shot["fire"], shot["defence"], shot["column"]) == ("g-251-1", "24", "6", "4:1")
    assert sum(Fraction(p) for p in shot["distribution"].values()) == 1
    assert sum(Fraction(p) for p in c["distribution"].values()) == 1


def test_defensive_fire_and_support(capsys, pos_file):
    code, out, _ = run(capsys, "combat", "s-18g,s-t184-2", "0703", "-p", str(pos_file), "--fire", "defensive",
                       "--json")
    c = json.loads(out)["combat"]
    kinds = {s["unit"]: s["table"] for s in c["fire"]["shots"]}
    assert code == 0 and kinds == {"s-18g": "conventional", "s-t184-2": "antitank"}
    assert c["fire"]["fired_at"] == "attacker" and Fraction(c["expected_steps"]["defender"]) == 0
    code, out, _ = run(capsys, "combat", "s-18g", "0703", "-p", str(pos_file), "--support", "artillery:s-art-9g",
                       "--target", "g-251-1")
    assert code == 0 and "support of s-art-9g" in out


def test_seeded_roll_apply_and_out(capsys, pos_file, tmp_path):
    after = tmp_path / "after.yaml"
    code, out, _ = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--target", "g-251-1",
                       "--roll", "1", "--rolls", "morale g-251-1=1", "--apply", "--out", str(after))
    assert code == 0 and "conventional g-251-1 1" in out and "g-251-1 loses 1 SP" in out
    assert "g-251-1: {hex: '0703', steps: 2}" in after.read_text() or "steps: 2" in after.read_text()
    one = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--seed", "7")[1]
    two = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--seed", "7")[1]
    assert one == two and "[seed 7]" in one


def test_barrage_png(capsys, pos_file, tmp_path):
    png = tmp_path / "b.png"
    code, out, err = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage",
                         "--png", str(png), "--dpi", "40")
    assert code == 0 and png.stat().st_size > 1000 and "barrage of s-art-9g" in out


def test_refusals_and_bad_input(capsys, pos_file):
    code, out, _ = run(capsys, "combat", "s-18g", "0703", "-p", str(pos_file), "--target", "g-251-1=99")
    assert code == 1 and "beyond the pool" in out
    code, _, err = run(capsys, "combat", "s-18g", "0703", "-p", str(pos_file), "--target", "g-251-1=lots")
    assert code == 2 and "bad --target" in err
    code, _, err = run(capsys, "combat", "s-18g", "0703", "-p", str(pos_file), "--target", "nobody")
    assert code == 2 and "nobody" in err
    code, _, err = run(capsys, "combat", "s-18g", "0703", "-p", str(pos_file), "--support", "air:2")
    assert code == 2 and "artillery:UNIT" in err



def test_a_retreat_to_choose_exits_2_and_writes_nothing(capsys, pos_file, tmp_path):
    # 12 points each at 2:1; a 1 is MC1; morale 4 with 5 + 1: the unit fails and must retreat two hexes
    after = tmp_path / "after.yaml"
    code, _, err = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--roll", "1",
                       "--rolls", "morale g-251-1=5", "--rolls", "conventional g-251-2=6", "--apply",
                       "--out", str(after))
    assert code == 2 and "name the end hex" in err and "14 B" in err and not after.exists()
    code, out, _ = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(pos_file), "--roll", "1",
                       "--rolls", "morale g-251-1=5", "--rolls", "conventional g-251-2=6", "--apply",
                       "--retreat", "defender=0701", "--out", str(after))
    assert code == 0 and "g-251-1 retreats 0703" in out and "0701" in after.read_text()


def test_aimed_fire_options_are_refused_elsewhere(capsys):
    data = Path(__file__).resolve().parents[2] / "data" / "combat" / "tutorial-attack.yaml"
    code, _, err = run(capsys, "combat", "b-1", "0505", "-p", str(data), "--target", "r-1")
    assert code == 2 and "aimed at units" in err
