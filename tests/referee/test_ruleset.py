"""The hooks the search hands each step to (``Ruleset.step_rule``): the movement mode,
infiltration steps, refusals a ruleset may lift; and the "same-unit" ZOC-to-ZOC rule.

Tutorial map: 0805 clear next to the lake 0806 (lake "P" for every class); 0106 and 0305 hold
two enemy units: 0206 is in the first one's ZOC, 0205 in both, 0306 in the second one's only.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from test_parts import TUT, H, position, rules, walk

from toolkit.referee import (Code, MovementMode, Reason, Ruleset, board_of, enemy_zoc_owners, reachable,
                             zoc_owners)


class _Recorder(Ruleset):
    """Returns every step unchanged and remembers it."""

    def step_rule(self, pos, units, step):
        self.steps.append(step)
        return step


def _recorder(**parts) -> _Recorder:
    rs = _Recorder(name="recorder-" + "-".join(sorted(parts)), movement=parts.get("movement", TUT.movement),
                   zoc=parts.get("zoc", TUT.zoc))
    rs.steps = []
    return rs


def test_step_rule_is_told_the_movement_mode():
    slow = MovementMode("slow", ma_factor=Fraction(1, 2))
    rs = _recorder(movement=replace(TUT.movement, modes={"slow": slow}))
    pos = position(b_1="0505")
    assert walk(pos, rs, "b-1", "0505 0605", mode="slow").ok
    assert {s.mode.name for s in rs.steps} == {"slow"}
    rs.steps.clear()
    reachable(pos, rs, "b-1")
    assert rs.steps and {s.mode.name for s in rs.steps} == {"normal"}


def test_infiltration_steps_reach_the_hook():
    class NoInfiltrationIntoClear(_Recorder):
        def step_rule(self, pos, units, step):
            self.steps.append(step)
            if step.infiltration and pos.map.terrain(step.b) == "clear":
                return Reason(Code.CUSTOM, "X.1", "no infiltration into clear terrain", step.b)
            return step

    zoc = replace(TUT.zoc, infiltration_min_ma=6)
    pos = position(b_3="0905", r_12="0804")       # b-3's ZOC covers 0804 and 0805; r-12 has MA 6
    seen = _recorder(zoc=zoc)
    check = walk(pos, seen, "r-12", "0804 0805")
    assert check.ok and check.steps[0]["spent"] == 6
    infiltration = [s for s in seen.steps if s.infiltration]
    assert len(infiltration) == 1 and infiltration[0].cost == 6 and infiltration[0].stop
    refusing = NoInfiltrationIntoClear(name="no-infiltration", movement=TUT.movement, zoc=zoc)
    refusing.steps = []
    assert walk(pos, refusing, "r-12", "0804 0805").reason.rule == "X.1"
    # a mode with infiltration=False never infiltrates: the shared ZOC-to-ZOC refusal stands
    plain = _recorder(zoc=zoc, movement=replace(TUT.movement,
                                                modes={"normal": MovementMode("normal", infiltration=False)}))
    assert walk(pos, plain, "r-12", "0804 0805").reason.code is Code.ZOC_TO_ZOC


def test_prohibited_terrain_reaches_the_hook_which_may_lift_it():
    class WadeLakes(Ruleset):
        def step_rule(self, pos, units, step):
            if step.prohibited is not None and pos.map.terrain(step.b) == "lake":
                return replace(step, prohibited=None, cost=step.cost + 3)
            return step

    pos = position(b_1="0805")
    assert walk(pos, TUT, "b-1", "0805 0806").reason.code is Code.PROHIBITED_TERRAIN
    seen = _recorder()
    refused = walk(pos, seen, "b-1", "0805 0806")      # seen, not lifted: still refused
    assert refused.reason.code is Code.PROHIBITED_TERRAIN
    assert any(s.prohibited is not None and s.prohibited.code is Code.PROHIBITED_TERRAIN for s in seen.steps)
    wade = WadeLakes(name="wade", movement=TUT.movement, zoc=TUT.zoc)
    check = walk(pos, wade, "b-1", "0805 0806")
    assert check.ok and check.steps[0]["cost"] == 3
    reach = reachable(pos, wade, "b-1")
    assert H("0806") in reach and reach.cost(H("0806")) == 3
    assert H("0806") not in reachable(pos, TUT, "b-1")


def test_zoc_owners_name_the_units_whose_zoc_covers_a_hex():
    pos = position(r_10="0106", r_11="0305", b_1="0206")
    index = board_of(pos.map).index
    assert enemy_zoc_owners(pos, TUT, "blue")[index[H("0205")]] == {"r-10", "r-11"}
    assert zoc_owners(pos, TUT, "red")[index[H("0306")]] == {"r-11"}
    assert enemy_zoc_owners(pos, TUT, "red")[index[H("0306")]] == {"b-1"}


def test_zoc_to_zoc_of_the_same_unit_only():
    pos = position(r_10="0106", r_11="0305", b_1="0206")
    same = rules(zoc_zoc_to_zoc="same-unit")
    refused = walk(pos, same, "b-1", "0206 0205")       # both in r-10's ZOC
    assert refused.reason.code is Code.ZOC_TO_ZOC and "r-10" in refused.reason.text
    assert walk(pos, same, "b-1", "0206 0306").ok       # from r-10's ZOC into r-11's only
    assert walk(pos, TUT, "b-1", "0206 0306").reason.code is Code.ZOC_TO_ZOC   # "forbidden"
    reach = reachable(pos, same, "b-1")
    assert H("0306") in reach and H("0205") not in reach
