"""Retreat options a side may take after a combat result: No Retreat (Demyansk 12.42), a die
rolled on a game chart whose rows say whether the side stands ("pass") or retreats ("fail"),
some with steps lost on top of the CRT's ("pass/1"), and a retreat through an enemy ZOC on the
same table (12.43-12.44: a pass goes on, a fail is eliminated). The ruleset's ``no_retreat``
and ``zoc_retreat`` hooks say who is eligible and the DRM; :func:`~toolkit.referee.apply_combat`
applies the outcome.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from ..errors import DataError, IllegalMoveError, RulesError
from .combat_chart import CombatResult, SideResult, _roll_label, parse_dice
from .reasons import Code, Reason, refusal

__all__ = ["NoRetreatRoll", "apply_before_combat", "apply_no_retreat", "no_retreat_table", "roll_no_retreat"]


@dataclass(frozen=True)
class NoRetreatRoll:
    """A No Retreat attempt: the die ``roll``, the ``drm`` (and why), the ``modified`` roll, the
    ``outcome`` ("pass": the side stays; "fail": it retreats) and the ``steps`` lost for it."""

    role: str
    roll: int
    drm: int
    why: str
    modified: int
    outcome: str
    steps: int
    rule: str | None
    through_zoc: bool = False
    before_combat: bool = False

    @property
    def passed(self) -> bool:
        return self.outcome == "pass"

    def log(self) -> str:
        drm = f" {self.drm:+d} ({self.why}) = {self.modified}" if self.drm else ""
        steps = f", {self.steps} step(s) lost" if self.steps else ""
        if self.before_combat:
            return (f"{self.role} tries Retreat Before Combat (rule {self.rule}): {self.roll}{drm}: {self.outcome}; "
                    + ("it retreats and there is no combat" if self.passed else "it defends"))
        if self.through_zoc:
            return (f"{self.role} retreats through an enemy ZOC (rule {self.rule}): {self.roll}{drm}: "
                    f"{self.outcome}; {'it goes on' if self.passed else 'the retreating units are eliminated'}")
        return (f"{self.role} tries No Retreat (rule {self.rule}): {self.roll}{drm}: {self.outcome}"
                f"{steps}; the {self.role} {'stays' if self.passed else 'retreats'}")


def no_retreat_table(game, name: str) -> list[tuple[int | None, int | None, str, int]]:
    """The rows ``(low, high, outcome, steps)`` of chart ``name`` of ``game``; a DataError naming
    the game file and the field when it is missing or a cell is not pass, fail, pass/N, fail/N."""
    where = f"{game.root}/game.yaml" if game.root else f"game {game.id}"
    data = game.charts.get(name)
    if not isinstance(data, dict) or not isinstance(data.get("rows"), dict):
        raise DataError(f"game {game.id} has no No Retreat table (charts.{name} with rows)", path=where,
                        field=f"charts.{name}")
    out = []
    for label, cell in data["rows"].items():
        m = re.fullmatch(r"\s*(pass|fail)\s*(?:/\s*(\d+))?\s*", str(cell).lower())
        try:
            low, high = _roll_label(label)
        except ValueError as exc:
            raise DataError(str(exc), path=where, field=f"charts.{name}.rows") from None
        if not m:
            raise DataError(f"{cell!r} is not pass, fail, pass/N or fail/N", path=where,
                            field=f"charts.{name}.rows.{label}")
        out.append((low, high, m[1], int(m[2] or 0)))
    return out


def roll_no_retreat(pos, rs, role: str, units, *, roll: int | None = None, seed=None,
                    through_zoc: bool = False, before_combat: bool = False) -> NoRetreatRoll:
    """Roll No Retreat for ``units`` (the ``role``'s side): ``roll`` if given, else drawn from
    ``seed`` (logged by the caller). :class:`IllegalMoveError` with the hook's reason when the
    side may not try it. ``through_zoc``: the same table for a retreat through an enemy ZOC
    (the ``zoc_retreat`` hook and ``RetreatRules.zoc_retreat_rule``; a pass goes on, a fail is
    eliminated; the table's extra steps do not apply). ``before_combat``: the defender's
    Retreat Before Combat (``retreat_before_combat`` hook, ``RetreatRules.before_combat_rule``;
    the table's extra steps do not apply either)."""
    r = rs.retreat
    what, rule, rule_on, hook = (
        ("retreat through an enemy ZOC", r.zoc_retreat_rule, r.zoc_retreat_rule, lambda: rs.zoc_retreat(pos, role, units))
        if through_zoc else
        ("Retreat Before Combat", r.before_combat_rule, r.before_combat_rule,
         lambda: rs.retreat_before_combat(pos, units)) if before_combat else
        ("No Retreat", r.no_retreat_rule, True, lambda: rs.no_retreat(pos, role, units)))
    units = list(units)
    if not r.no_retreat_chart or not rule_on:
        raise IllegalMoveError(f"{rs.name} has no {what} option",
                               [Reason(Code.COMBAT_CHOICE, r.rule, f"{rs.name} has no {what} option")])
    answer = hook()
    if isinstance(answer, Reason):
        raise IllegalMoveError(str(answer), [answer])
    drm, why = answer
    n, sides = parse_dice(r.no_retreat_dice)
    if roll is None:
        name = "zoc-retreat" if through_zoc else "before-combat" if before_combat else "no-retreat"
        rng = random.Random(f"{seed}/{name}/{role}")
        roll = sum(rng.randint(1, sides) for _ in range(n))
    elif not n <= roll <= n * sides:
        raise RulesError(f"a {what} roll of {r.no_retreat_dice} is {n} to {n * sides}, not {roll}")
    modified = roll + drm
    for low, high, outcome, steps in no_retreat_table(pos.game, r.no_retreat_chart):
        if (low is None or modified >= low) and (high is None or modified <= high):
            return NoRetreatRoll(role, roll, drm, why, modified, outcome,
                                 0 if through_zoc or before_combat else steps, rule, through_zoc, before_combat)
    raise RulesError(f"charts.{r.no_retreat_chart} has no row for a roll of {modified}")


# -- the options applied (by :func:`~toolkit.referee.apply_combat`) -------------------------------


def apply_no_retreat(work, role: str, side, die):
    """``side`` (a :class:`SideResult`) after the ``role``'s No Retreat roll in ``work`` (the
    combat being applied): no retreat on a pass, the table's extra steps either way (logged)."""
    ids = [u for u in work.members[role] if work.pos.unit(u).hex is not None]
    if not side.retreat or side.eliminated or not ids:
        raise refusal(Code.COMBAT_CHOICE, work.rs.retreat.no_retreat_rule, f"the {role} does not retreat on "
                      f"{work.roll.result.text}: no No Retreat to try", None, tuple(ids))
    tried = roll_no_retreat(work.pos, work.rs, role, work.pos.units_of(ids), roll=die, seed=work.roll.seed)
    work.out.log.append(tried.log())
    work.out.no_retreat[role] = tried
    if tried.passed:
        return replace(side, retreat=(), requirements=0, steps=side.steps + tried.steps)
    return replace(side, steps=side.steps + tried.steps)


def apply_before_combat(work, die, tried_no_retreat: bool):
    """The defender's Retreat Before Combat (``RetreatRules.before_combat_rule``) in ``work``: the
    roll logged; on a pass the result applied instead of the CRT's (a retreat, no combat), else None."""
    r = work.rs.retreat
    ids = [u for u in work.members["defender"] if work.pos.unit(u).hex is not None]
    if tried_no_retreat:
        raise refusal(Code.COMBAT_CHOICE, r.one_option_rule or r.before_combat_rule, "the defender may try only "
                      "one retreat option in a combat: Retreat Before Combat or No Retreat", None, tuple(ids))
    if len(work.a.defender_hexes) > 1:
        raise refusal(Code.COMBAT_CHOICE, r.before_combat_rule, "Retreat Before Combat is rolled for each "
                      "Defender hex; the referee takes it only in a combat on one hex", None, tuple(ids))
    tried = roll_no_retreat(work.pos, work.rs, "defender", work.pos.units_of(ids), roll=die, seed=work.roll.seed,
                            before_combat=True)
    work.out.before_combat = tried
    work.out.log.append(tried.log())
    if not tried.passed:
        return None
    result = CombatResult("RBC", SideResult(), SideResult(retreat=tuple(r.before_combat_retreat)))
    work.out.log.append(f"no combat: the CRT roll ({work.roll.result.text}) is not applied "
                        f"(rule {r.before_combat_rule})")
    work.roll = replace(work.roll, result=result)
    return result
