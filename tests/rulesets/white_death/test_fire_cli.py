"""``hexforge referee combat -g white-death``: the per-target answer, --fire and --target, JSON,
a seeded roll, --apply with --out, --png, and bad input."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

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


def test_a_split_barrage_from_the_command_line(capsys, pos_file):
    # 11 B.2.a: the barrage value may be split into several attacks; they must add up to it
    code, out, _ = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage", "--json")
    whole = json.loads(out)["combat"]
    assert code == 0 and whole["attack"] == "12"
    code, out, _ = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage",
                       "--barrage-split", "6,6", "--json")
    split = json.loads(out)["combat"]
    assert code == 0 and split["fire"]["shots"][0]["column"].count("+") == 1      # two attacks on the column
    assert sum(Fraction(p) for p in split["distribution"].values()) == 1
    assert split["distribution"] != whole["distribution"]
    code, out, _ = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage",
                       "--barrage-split", "8,8")
    assert code == 1 and "the barrage attacks 8 + 8 do not add up to the barrage value 12 [rule 11 B.2.a]" in out
    for bad, message in (("x,y", "bad --barrage-split 'x,y'"), ("6,0", "bad --barrage-split '6,0'")):
        code, out, err = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage",
                             "--barrage-split", bad)
        assert code == 2 and message in err and "Traceback" not in out + err
    # the same key through --context is checked too (it was a traceback)
    code, out, err = run(capsys, "combat", "s-art-9g", "0703", "-p", str(pos_file), "--fire", "barrage",
                         "--context", "barrage_attacks=x")
    assert code == 2 and "barrage_attacks are the barrage values" in err


def test_the_rocket_payment_from_the_command_line(capsys, tmp_path):
    # 15 A.3 (case 42): German rockets barrage at half value unless 3 SP are paid
    pos = tmp_path / "werfer.yaml"
    pos.write_text("game: white-death\nturn: 3\nside: german\nweather: clear_frost\nunits:\n"
                   "  g-werfer: {hex: '0703', status: [deployed], steps: 2}\n  s-18g: {hex: '0705'}\n")
    base = ["combat", "g-werfer", "0705", "-p", str(pos), "--fire", "barrage", "--json"]
    code, out, _ = run(capsys, *base)
    assert code == 0 and json.loads(out)["combat"]["attack"] == "4"
    code, out, _ = run(capsys, *base, "--barrage-sp", "3")
    assert code == 0 and json.loads(out)["combat"]["attack"] == "8"
    code, out, err = run(capsys, *base, "--barrage-sp", "5")
    assert code == 2 and "2 or 3 (15 A.2-3), not 5" in err
    code, out, _ = run(capsys, "combat", "s-art-9g", "0703", "-p", str(DATA), "--fire", "barrage", "--barrage-sp", "3")
    assert code == 1 and "only the German player pays 3 supply points for a rocket barrage [rule 15 A.3]" in out
    code, _, err = run(capsys, "combat", "b-1", "0505", "-p", str(DATA.parent / "tutorial-attack.yaml"),
                       "--barrage-sp", "3")
    assert code == 2 and "--barrage-sp is for games whose barrages are split and paid for" in err


def test_apply_spends_the_impulses_supply_points(capsys, tmp_path):
    # 15 A.1: the Soviet assault costs its impulse one point, written with the new position
    pos = tmp_path / "pools.yaml"
    pos.write_text(DATA.read_text() + "state:\n  supply_points: {soviet: 3, german: 2, vl: 2}\n")
    after = tmp_path / "after.yaml"
    args = ["combat", "s-18g,s-31g", "0703", "-p", str(pos), "--target", "g-251-1", "--roll", "5",
            "--rolls", "morale g-251-1=1", "--apply"]
    code, out, err = run(capsys, *args, "--out", str(after))
    assert code == 0, err
    assert "soviet pays 1 supply point(s) (15 A.1, assault): 3 -> 2" in out
    assert yaml.safe_load(after.read_text())["state"]["supply_points"] == {"soviet": 2, "german": 2, "vl": 2}
    pos.write_text(DATA.read_text() + "state:\n  supply_points: {soviet: 0, german: 2, vl: 2}\n")
    code, out, err = run(capsys, *args, "--out", str(tmp_path / "none.yaml"))
    assert code == 2 and "the soviet pool has 0 supply points, 1 needed (15 A, D)" in err
    assert not (tmp_path / "none.yaml").exists()


def test_weapons_fire_from_the_command_line(capsys, tmp_path):
    # 10 D (case 30): a weapons unit gives one fire or the other; the AT company fires antitank at
    # the assaulting T-70 by default, conventional at the rifle regiment when told so
    pos = tmp_path / "pzj.yaml"
    pos.write_text(DATA.read_text().replace('  g-251-2: {hex: "0703"}', '  g-251-2: {hex: "0703"}\n'
                                            '  g-pzj183: {hex: "0703"}'))
    args = ["combat", "s-18g,s-t184-2", "0703", "-p", str(pos), "--fire", "defensive", "--json"]

    def fire(*more):
        code, out, err = run(capsys, *args, *more)
        assert code == 0, err
        return {s["unit"]: Fraction(s["fire"]) for s in json.loads(out)["combat"]["fire"]["shots"]}

    default, told = fire(), fire("--weapons-fire", "g-pzj183=conventional")
    assert told["s-18g"] > default["s-18g"] and told["s-t184-2"] < default["s-t184-2"]
    code, _, err = run(capsys, *args, "--weapons-fire", "g-pzj183=both")
    assert code == 2 and "bad --weapons-fire 'g-pzj183=both'" in err
    code, _, err = run(capsys, "combat", "b-1", "0505", "-p", str(DATA.parent / "tutorial-attack.yaml"),
                       "--weapons-fire", "b-1=antitank")
    assert code == 2 and "--weapons-fire are for games whose fire is aimed at units" in err


def test_retreat_options_of_other_games_are_refused(capsys):
    code, _, err = run(capsys, "combat", "s-18g,s-31g", "0703", "-p", str(DATA), "--roll", "1", "--apply",
                       "--before-combat", "defender=4")
    assert code == 2 and "white-death has no No Retreat, retreat through an enemy ZOC or Retreat Before Combat" in err
