"""CombatRules options added for A Victory Denied and Grossdeutschland, on the tutorial's attack
(b-4 attack 6 and b-2 attack 4 on r-13, defence 3, in the open): ``halve_together="hex"``,
``status_round``, ``strength_fallback`` and the ``combat_dice`` hook."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from toolkit.errors import RulesError
from toolkit.referee import assess_combat, load_position, roll_combat, ruleset_for

ATTACK = Path(__file__).resolve().parents[1] / "data" / "combat" / "tutorial-attack.yaml"


@pytest.fixture()
def attack():
    pos = load_position(ATTACK)
    return pos, ruleset_for(pos.game), pos.map.grid.parse("0805")


def _with(rs, **combat):
    return dataclasses.replace(rs, combat=dataclasses.replace(rs.combat, **combat))


def test_halving_per_hex_or_together(attack):
    # 5 + 3 (two odd attackers, out of supply, in two hexes): together 4, per hex 2 + 1 = 3
    pos, rs, d = attack
    pos.units["b-4"].counter = dataclasses.replace(pos.units["b-4"].counter, front={"attack": 5, "defence": 3})
    pos.units["b-2"].counter = dataclasses.replace(pos.units["b-2"].counter, front={"attack": 3, "defence": 4})
    for u in ("b-4", "b-2"):
        pos.units[u].status = {"out_of_supply"}
    assert assess_combat(pos, rs, ["b-4", "b-2"], d).attack == 4
    assert assess_combat(pos, _with(rs, halve_together="hex"), ["b-4", "b-2"], d).attack == 3
    pos.units["b-2"].hex = pos.units["b-4"].hex                  # one hex: added before halving again
    assert assess_combat(pos, _with(rs, halve_together="hex"), ["b-4", "b-2"], d).attack == 4


def test_status_round(attack):
    # a 3-strength b-4 out of supply: 3 / 2 rounds down to 1, or up to 2 with status_round
    pos, rs, d = attack
    pos.units["b-4"].counter = dataclasses.replace(pos.units["b-4"].counter, front={"attack": 3, "defence": 3})
    pos.units["b-4"].status = {"out_of_supply"}
    assert assess_combat(pos, rs, ["b-4"], d).attack == 1
    a = assess_combat(pos, _with(rs, status_round={"out_of_supply": "up"}), ["b-4"], d)
    assert a.attack == 2 and "rounded up" in " ".join(m.text for m in a.modifiers)


def test_strength_fallback(attack):
    pos, rs, d = attack
    pos.units["b-2"].counter = dataclasses.replace(pos.units["b-2"].counter, front={"combat": 4})
    a = assess_combat(pos, rs, ["b-4", "b-2"], d)
    assert not a.legal and "b-2 has no attack strength" in " ".join(str(r) for r in a.refusals)
    b = assess_combat(pos, _with(rs, strength_fallback="combat"), ["b-4", "b-2"], d)
    assert b.legal and b.attack == 10


def test_combat_dice_hook_replaces_the_charts_dice(attack):
    pos, rs, d = attack

    @dataclasses.dataclass
    class ThreeDice(type(rs)):
        def combat_dice(self, pos, combat):
            return "2d6"

    rs2 = ThreeDice(**{f.name: getattr(rs, f.name) for f in dataclasses.fields(rs)})
    a = assess_combat(pos, rs2, ["b-4", "b-2"], d)
    assert a.dice == "2d6" and a.to_dict()["crt"]["dice"] == "2d6"
    literal: dict = {}
    col = a.chart.columns.index(a.column)
    for x, y in product(range(1, 7), repeat=2):
        text = a.chart.result(x + y + a.drm, col).text
        literal[text] = literal.get(text, 0) + Fraction(1, 36)
    assert a.distribution == literal
    r = roll_combat(pos, rs2, a, seed=5)
    assert 2 <= r.roll <= 12 and "2d6" in r.log
    with pytest.raises(RulesError):
        roll_combat(pos, rs2, a, roll=1)
