"""``hexforge referee combat`` on A Victory Denied and Grossdeutschland: reasons, the dice of the
attacker's side or of the hour, the exact distribution, a seeded roll."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "combat"


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_avd_soviet_attack_rolls_a_d10(capsys):
    code, out, _ = run(capsys, "combat", "s-20c,s-45c", "1537", "-p", str(DATA / "avd-soviet-attack.yaml"), "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and (c["attack"], c["defence"], c["odds"], c["column"], c["legal"]) == ("6", "2", "3-1", "3-1", True)
    assert c["crt"]["dice"] == "d10" and c["crt"]["reroll"] == [10] and c["crt"]["estimated"]
    probs = {k: Fraction(v) for k, v in c["distribution"].items()}
    assert sum(probs.values()) == 1 and all(p.denominator in (1, 3, 9) for p in probs.values())   # 9 rows
    code, out, _ = run(capsys, "combat", "s-20c,s-45c", "1537", "-p", str(DATA / "avd-soviet-attack.yaml"))
    assert code == 0 and "6:2 -> 3-1" in out and "d10" in out and "estimated" in out


def test_avd_one_corps_reads_1_5_1(capsys):
    code, out, _ = run(capsys, "combat", "s-20c", "1537", "-p", str(DATA / "avd-soviet-attack.yaml"), "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and (c["ratio"], c["odds"], c["legal"]) == ("3:2", "1.5-1", True)      # 9.3.2: 12:7 is 1.5-1


def test_gd_night_attack_on_3d6(capsys):
    code, out, _ = run(capsys, "combat", "g-1gr-1k,g-1gr-schwr", "1329", "-p", str(DATA / "gd-night-attack.yaml"),
                       "--json")
    c = json.loads(out)["combat"]
    assert code == 0 and (c["attack"], c["defence"], c["odds"], c["legal"]) == ("7", "3", "2-1", True)
    assert c["crt"]["dice"] == "3d6"
    assert any(m["rule"] == "13.2" for m in c["modifiers"])
    probs = {k: Fraction(v) for k, v in c["distribution"].items()}
    assert sum(probs.values()) == 1 and probs["DE"] == Fraction(1, 216)     # 3d6 = 3 (+0): the 2 row
    assert c["results"]["DR"]["defender"]["retreat"] == [2]                 # 10.5: two hexes
    code, out, _ = run(capsys, "combat", "g-1gr-1k,g-1gr-schwr", "1329", "-p", str(DATA / "gd-night-attack.yaml"),
                       "--seed", "3")
    assert code == 0 and "3d6" in out and "[seed 3]" in out
