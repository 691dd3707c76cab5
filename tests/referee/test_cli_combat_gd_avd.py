"""``hexforge referee combat`` / ``retreat`` / ``--apply`` on Grossdeutschland and A Victory
Denied with the games' own conditions: artillery support and the activating HQ (GD 10.2, 10.0),
a retreat toward the HQ (GD 10.5), fixed-column attacks and the Minsk +1 (AVD 13.2, 14.0), a
retreat that overruns a lone HQ and the owner's relocation choice (AVD 9.5.7, 12.6), the PNG."""

from __future__ import annotations

import json

import pytest
import yaml

from toolkit.cli import main
from toolkit.io import load_game
from toolkit.referee import load_position, retreat_options
from toolkit.rulesets.a_victory_denied import RULESET as AVD, hq_relocation


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def _file(tmp_path, name, game, units, **extra):
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"game": game, "turn": extra.pop("turn", 3), "side": extra.pop("side", "german"),
                                    "phase": "combat", **extra, "units": units}), encoding="utf-8")
    return str(path)


def _gd(tmp_path, **more):
    units = {"g-1gr-1k": {"hex": "1328"}, "g-1gr-hq": {"hex": "1328"}, "s-1rif-1": {"hex": "1329"},
             "g-3art-7-btty": {"hex": "1332"}, **more}
    return _file(tmp_path, "gd.yaml", "grossdeutschland", units, map="kursk", weather="sunny")


def test_gd_artillery_support_and_its_fired_flip(capsys, tmp_path):
    p = _gd(tmp_path)
    code, out, _ = run(capsys, "combat", "g-1gr-1k", "1329", "-p", p, "--support", "artillery:g-3art-7-btty", "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and c["attack"] == "10" and any(m["rule"] == "10.2" and m["kind"] == "attack"
                                                     for m in c["modifiers"])
    after = str(tmp_path / "after.yaml")
    code, out, _ = run(capsys, "combat", "g-1gr-1k", "1329", "-p", p, "--support", "artillery:g-3art-7-btty",
                       "--roll", "7", "--apply", "--out", after)
    assert code == 0 and "g-3art-7-btty is fired" in out
    assert "fired" in load_position(after).unit("g-3art-7-btty").status
    code, out, _ = run(capsys, "combat", "g-1gr-1k", "1329", "-p", after, "--support", "artillery:g-3art-7-btty")
    assert code == 1 and "fired" in out


def test_gd_the_activating_hq_at_the_attack(capsys, tmp_path):
    p = _gd(tmp_path, **{"g-1gr-hq": {"hex": "1340"}, "g-div-division-hq": {"hex": "1430"}})
    code, out, _ = run(capsys, "combat", "g-1gr-1k", "1329", "-p", p)
    assert code == 1 and "activation range" in out and "[rule 10.0]" in out
    code, out, _ = run(capsys, "combat", "g-1gr-1k", "1329", "-p", p, "--context", "activating_hq=g-div-division-hq")
    assert code == 0
    code, _, err = run(capsys, "combat", "g-1gr-1k", "1329", "-p", p, "--context", "activating_hq")
    assert code == 2 and "--context" in err


def test_gd_retreat_toward_the_hq(capsys, tmp_path):
    p = _gd(tmp_path, **{"s-1rif-hq": {"hex": "1333"}})
    code, out, _ = run(capsys, "retreat", "s-1rif-1", "-p", p, "--length", "2", "--json")
    ends = json.loads(out)["retreat"]["ends"]
    assert code == 0 and ends
    pos = load_position(p)
    grid = pos.map.grid
    hq = grid.parse("1333")
    assert all(grid.distance(grid.parse(e["hex"]), hq) == grid.distance(grid.parse("1329"), hq) - 2 for e in ends)


def _avd(tmp_path, units, **extra):
    return _file(tmp_path, "avd.yaml", "a-victory-denied", units, weather="clear", **extra)


def test_avd_fixed_attacks_and_minsk_from_the_command_line(capsys, tmp_path):
    p = _avd(tmp_path, {"s-20c": {"hex": "1637"}, "s-45c": {"hex": "1638"}, "g-3pz": {"hex": "1537"}},
             side="soviet")
    code, out, _ = run(capsys, "combat", "s-20c", "1537", "-p", p, "--context", "fixed=art", "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and c["column"] == "3-1" and c["crt"]["dice"] == "1d6"
    code, out, _ = run(capsys, "combat", "s-20c,s-45c", "1537", "-p", p, "--context", "minsk=true", "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and c["drm"] == 1 and c["crt"]["dice"] == "d8"


def test_avd_a_retreat_overruns_a_lone_hq_and_the_owner_relocates_it(capsys, tmp_path):
    units = {"s-20c": {"hex": "1538"}, "g-31id": {"hex": "1537"}}
    p = _avd(tmp_path, units, side="soviet")
    pos = load_position(p)
    end = retreat_options(pos, AVD, ["g-31id"], 1).hexes()[0]
    fmt = pos.map.format
    p = _avd(tmp_path, {**units, "s-hq-16a": {"hex": fmt(end)}}, side="soviet")
    code, out, _ = run(capsys, "retreat", "g-31id", "-p", p)
    assert code == 0 and "overruns s-hq-16a" in out
    pos = load_position(p)
    entered = pos.copy()
    entered.place("g-31id", end)
    dest = hq_relocation(entered, AVD, "s-hq-16a", end)["destinations"]
    a_roll = next(n for n in range(1, 10) if _text(pos, n) == "DR")
    after = str(tmp_path / "after.yaml")
    args = ["combat", "s-20c", "1537", "-p", p, "--roll", str(a_roll), "--apply", "--retreat", f"defender={fmt(end)}",
            "--out", after]
    if len(dest) > 1:
        code, _, err = run(capsys, *args)
        assert code == 2 and "relocate:s-hq-16a=" in err
    code, out, _ = run(capsys, *args, "--choice", f"relocate:s-hq-16a={fmt(dest[0])}")
    assert code == 0 and "overrun by g-31id retreating" in out
    moved = load_position(after)
    assert moved.unit("g-31id").hex == end and moved.unit("s-hq-16a").hex == dest[0]
    code, _, err = run(capsys, *args, "--choice", "relocate:s-hq-16a")
    assert code == 2 and "--choice" in err


def _text(pos, roll):
    from toolkit.referee import assess_combat, roll_combat
    a = assess_combat(pos, AVD, ["s-20c"], pos.map.grid.parse("1537"))
    return roll_combat(pos, AVD, a, roll=roll).result.text


def test_one_png_for_each_game(capsys, tmp_path):
    for p, args in ((_gd(tmp_path), ["g-1gr-1k", "1329", "--support", "artillery:g-3art-7-btty"]),
                    (_avd(tmp_path, {"s-20c": {"hex": "1637"}, "s-45c": {"hex": "1638"}, "g-3pz": {"hex": "1537"}},
                          side="soviet"), ["s-20c,s-45c", "1537"])):
        png = tmp_path / f"{load_game(yaml.safe_load(open(p))['game']).id}.png"
        code, _, err = run(capsys, "combat", *args, "-p", p, "--png", str(png), "--dpi", "30")
        assert code == 0 and png.stat().st_size > 1000
