"""``hexforge referee combat --context`` (situational facts a game's combat rules read, checked
against the ruleset's ``CombatRules.context_keys``) and ``--apply --no-retreat`` (Demyansk 12.42)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
AVD = str(DATA / "combat" / "avd-soviet-attack.yaml")
DS_17 = str(DATA / "demyansk-shield" / "combat-17-0.yaml")


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_context_reaches_the_rulesets_hooks(capsys):
    # A Victory Denied 9.3.4/9.3.5: a Stuka with the German defence (2 left), Timoshenko (1 right)
    code, out, _ = run(capsys, "combat", "s-20c,s-45c", "1537", "-p", AVD, "--json")
    plain = json.loads(out)["combat"]
    code, out, _ = run(capsys, "combat", "s-20c,s-45c", "1537", "-p", AVD, "--json",
                       "--context", "stuka=defence", "--context", "timoshenko=yes")
    c = json.loads(out)["combat"]
    assert code == 0 and c["shift"] == plain["shift"] - 1
    assert {m["rule"] for m in c["modifiers"]} - {m["rule"] for m in plain["modifiers"]} == {"9.3.4", "9.3.5"}


@pytest.mark.parametrize("args, message", [
    (["-p", AVD, "--context", "stukka=attack"], "unknown combat context 'stukka' for a-victory-denied; it knows: "
                                                 "activated, fixed, minsk, stuka, timoshenko"),
    (["-p", AVD, "--context", "stuka=maybe"], "combat context stuka is one of attack, defence, not 'maybe'"),
    (["-p", AVD, "--context", "timoshenko"], "bad --context 'timoshenko': expected KEY=VALUE"),
    (["-p", AVD, "--context", "stuka=attack", "--context", "stuka=defence"], "--context stuka is given twice"),
])
def test_bad_context_is_a_clear_error(capsys, args, message):
    code, out, err = run(capsys, "combat", "s-20c,s-45c", "1537", *args)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_a_game_without_context_keys_says_so(capsys):
    code, _, err = run(capsys, "combat", "df357", "1109", "-p", str(DATA / "combat" / "vv-combat-1.yaml"),
                       "--context", "snow=1")
    assert code == 2 and "unknown combat context 'snow' for velikiye-luki; it knows: none" in err


def test_no_retreat_from_the_command_line(capsys, tmp_path):
    # 17.0 combat 1 (without the air missions): A1*/DR, the Axis No Retreat roll 5 + 1 passes
    out_file = tmp_path / "after.yaml"
    args = ["combat", "so-87,so-1-87,so-1318,so-1-1318,so-2-87", "1811", "-p", DS_17,
            "--support", "artillery:so-231-387", "--roll", "6", "--apply", "--loss", "so-1318=1"]
    code, out, _ = run(capsys, *args, "--no-retreat", "defender=5", "--json", "--out", str(out_file))
    o = json.loads(out)["outcome"]
    assert code == 0 and o["no_retreat"]["defender"] == {"roll": 5, "drm": 1, "modified": 6, "outcome": "pass",
                                                         "steps": 1, "rule": "12.42"}
    assert o["losses"] == {"so-1318": 1, "ax-iii26": 1} and o["retreats"] == {} and out_file.is_file()
    code, out, err = run(capsys, *args, "--no-retreat", "attacker")
    assert code == 2 and "attacker does not retreat on A1*/DR" in err
    code, _, err = run(capsys, *args, "--no-retreat", "both=3")
    assert code == 2 and "bad --no-retreat 'both=3'" in err
    code, _, err = run(capsys, "combat", "so-87", "1811", "-p", DS_17, "--no-retreat", "defender")
    assert code == 2 and "need --apply" in err


def test_zoc_retreat_from_the_command_line(capsys, tmp_path):
    # 12.44 unit #1 (here a two-step unit) surrounded in 2733: the roll passes, it goes on to 2932
    pos = tmp_path / "pos.yaml"
    text = (DATA / "demyansk-shield" / "retreat-12-44.yaml").read_text().replace('so-1-87: {hex: "2733"}',
                                                                                  'so-1318: {hex: "2733"}')
    pos.write_text(text)
    args = ["combat", "ax-ss-baum,ax-ss-bochmann", "2733", "-p", str(pos), "--apply", "--json"]
    rolls = {}
    for n in range(1, 7):
        code, out, _ = run(capsys, "combat", "ax-ss-baum,ax-ss-bochmann", "2733", "-p", str(pos), "--roll", str(n),
                           "--json")
        rolls[json.loads(out)["roll"]["result"]["text"]] = n
    die = str(rolls["DR"])
    code, out, err = run(capsys, *args, "--roll", die, "--zoc-retreat", "defender=6", "--retreat", "defender=2932")
    o = json.loads(out)["outcome"]
    assert code == 0, err
    assert o["zoc_retreat"]["defender"]["outcome"] == "pass" and o["retreats"]["so-1318"] == ["2733", "2833", "2932"]
    code, _, err = run(capsys, *args, "--roll", die, "--zoc-retreat", "nobody")
    assert code == 2 and "bad --zoc-retreat 'nobody'" in err


def test_special_result_choice_from_the_command_line(capsys, tmp_path):
    # 17.0 combat 1: A1*/DR with artillery and air: "He chooses the artillery unit" (12.23a)
    pos = tmp_path / "17-0.yaml"
    pos.write_text((DATA / "demyansk-shield" / "combat-17-0.yaml").read_text().replace(
        '  ax-iii26: {hex: "1811"}', '  ax-iii26: {hex: "1811"}\n  so-air-1: {box: air-available}\n  ax-air-b1: {box: air-available}'))
    args = ["combat", "so-87,so-1-87,so-1318,so-1-1318,so-2-87", "1811", "-p", str(pos), "--support",
            "artillery:so-231-387", "--support", "air:so-air-1", "--defence-support", "air:ax-air-b1", "--roll", "6", "--apply", "--loss", "so-1318=1",
            "--no-retreat", "defender=5"]
    code, out, err = run(capsys, *args)
    assert code == 2 and "the attacker must choose which support units the special result of A1*/DR spends" in err
    code, out, err = run(capsys, *args, "--choice", "special:attacker=artillery")
    assert code == 0, err
    assert "so-231-387 is fired (artillery special result, rule 12.23)" in out and "so-air-1 is flown" not in out
    code, out, err = run(capsys, *args, "--choice", "special:attacker=air")
    assert code == 0 and "so-air-1 is flown (air special result, rule 12.23)" in out


RBC = """game: demyansk-shield
turn: 3
side: soviet
weather: frozen
units:
  ax-aa12: {hex: "2032"}
  so-87: {hex: "2132"}
  so-1-87: {hex: "2132"}
"""


def test_retreat_before_combat_from_the_command_line(capsys, tmp_path):
    # 11.42: the recon unit's roll of 4 passes: it retreats, no combat (the DR rolled is not applied),
    # the Soviet advances
    pos = tmp_path / "rbc.yaml"
    pos.write_text(RBC)
    args = ["combat", "so-87,so-1-87", "2032", "-p", str(pos), "--roll", "4", "--apply"]
    code, out, err = run(capsys, *args, "--before-combat", "defender=4", "--retreat", "defender=1933",
                         "--advance", "so-87", "--json")
    assert code == 0, err
    o = json.loads(out)["outcome"]
    assert o["before_combat"] == {"roll": 4, "drm": 0, "modified": 4, "outcome": "pass", "rule": "11.42"}
    assert o["retreats"]["ax-aa12"][-1] == "1933" and o["advances"] == {"so-87": "2032"} and o["losses"] == {}
    assert o["log"][2] == "no combat: the CRT roll (DR) is not applied (rule 11.42)"
    code, out, err = run(capsys, *args, "--before-combat", "defender=2")     # a fail: the DR rolled applies
    assert code == 2 and "the defender must choose (DR" in err
    code, out, err = run(capsys, *args, "--before-combat", "defender=2", "--retreat", "defender=1933")
    assert code == 0 and "Retreat Before Combat (rule 11.42): 2: fail; it defends" in out
    code, _, err = run(capsys, *args, "--before-combat", "defender=4", "--no-retreat", "defender=6")
    assert code == 2 and "only one retreat option" in err and "12.41" in err
    code, _, err = run(capsys, *args, "--before-combat", "attacker")
    assert code == 2 and "Retreat Before Combat is the defender's" in err
    code, _, err = run(capsys, "combat", "so-87,so-1-87", "2032", "-p", str(pos), "--before-combat", "defender")
    assert code == 2 and "need --apply" in err


def test_retreat_into_a_map_box_from_the_command_line(capsys, tmp_path):
    # Demyansk 12.32: IR 27 on 2036 (an AGN Entry hex) retreats into the AGN box
    pos = tmp_path / "entry.yaml"
    pos.write_text(RBC.replace('ax-aa12: {hex: "2032"}', 'ax-ir27: {hex: "2036"}')
                   .replace('"2132"', '"2035"'))
    out_file = tmp_path / "after.yaml"
    args = ["combat", "so-87,so-1-87", "2036", "-p", str(pos), "--roll", "1", "--apply"]
    code, out, err = run(capsys, *args, "--retreat", "defender=box:agn", "--out", str(out_file))
    assert code == 0, err
    assert "ax-ir27 retreat from 2036 into the agn box (rule 12.32)" in out
    assert "ax-ir27: {box: agn}" in out_file.read_text() or "box: agn" in out_file.read_text()
    code, _, err = run(capsys, *args, "--retreat", "defender=box:depot")
    assert code == 2 and "no box 'depot' on the map" in err


def test_the_retreat_listing_names_the_map_box_ends(capsys, tmp_path):
    # Demyansk 12.32: "A unit can retreat from a Map Box Entry hex directly into the adjacent
    # friendly Map Box (without the requirement to cross any hexes)": IR 27 on 2036 (an AGN Entry
    # hex) may end its retreat in 1936, 2136 or the AGN box, whatever the length
    pos = tmp_path / "entry.yaml"
    pos.write_text(RBC.replace('ax-aa12: {hex: "2032"}', 'ax-ir27: {hex: "2036"}').replace('"2132"', '"2035"'))
    for length in ("1", "2", "1,2"):
        code, out, err = run(capsys, "retreat", "ax-ir27", "-p", str(pos), "--length", length)
        assert code == 0, err
        assert "ax-ir27 from 2036:" in out and "and 1 Map Box(es) to end a retreat" in out
        assert "  box:agn  into the AGN (Army Group North) box, straight from 2036, crossing no hex (rule 12.32)" in out
    code, out, _ = run(capsys, "retreat", "ax-ir27", "-p", str(pos), "--json")
    answer = json.loads(out)["retreat"]
    assert code == 0 and answer["boxes"] == ["agn"] and not answer["eliminated"]
    assert [e["hex"] for e in answer["ends"]] == ["1936", "2136"]
    # the hexes on the map held by Soviet units: the box is the one end left, not an elimination
    pos.write_text(pos.read_text() + '  so-1318: {hex: "1936"}\n  so-1-1318: {hex: "2136"}\n')
    code, out, _ = run(capsys, "retreat", "ax-ir27", "-p", str(pos))
    assert code == 0 and "0 hex(es) and 1 Map Box(es)" in out and "box:agn" in out and "cannot retreat" not in out
    # one hex off the Entry hex: no box (12.32 is from an Entry hex only)
    pos.write_text(RBC.replace('ax-aa12: {hex: "2032"}', 'ax-ir27: {hex: "2035"}').replace('"2132"', '"2034"'))
    code, out, _ = run(capsys, "retreat", "ax-ir27", "-p", str(pos), "--json")
    assert json.loads(out)["retreat"]["boxes"] == []
