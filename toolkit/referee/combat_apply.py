"""Applying a rolled combat result to a position: steps lost, retreats, eliminations, advances.

:func:`apply_combat` takes the owners' choices as arguments and checks them against the result
and the rules; a choice the result leaves open and the owner did not make is refused with the
choices there are, a choice that is forced is applied without asking. The defender's part is
applied first, then the attacker's (an exchange costs the attacker what the defender lost),
then the attacker's advance. The input position is never changed: the outcome holds a new one
and a log (the roll's line first) for play by e-mail.

How a side's result is read (:class:`~toolkit.referee.combat_chart.SideResult`):

- ``steps`` are lost; ``requirements`` (VV 6.4) are each one step or one more retreat hex,
  the owner's choice, after the mandatory retreat; ``retreat`` lengths are the owner's choice.
- ``eliminated``: every unit leaves the map; ``units`` / ``half_units``: that many whole units
  (half, rounded down) of the owner's choice are eliminated; ``exchange``: as many steps as
  the other side lost.
- A retreat ends in the hex the owner names (one end per stack), checked with
  :func:`~toolkit.referee.retreat_options` for that length; the path's enemy-ZOC steps are
  lost too; no legal retreat eliminates the stack (the :class:`RetreatAnswer`'s reason).
- ``losses`` (unit -> steps) covers every step a side loses by choice, ZOC steps included.

Eliminated units go to the map's ``eliminated`` box when it has one, else off the map.
The ruleset's ``first_loss`` hook names the units that must take a side's first step (VV 6.4:
the armoured unit, else the unit with the most steps): given losses that skip them are refused,
and a one-step loss it pins on one unit is applied without asking.
``RetreatRules`` sets the order (``attacker_first``), 12.38's ``retreat_needs_occupier``, 12.25's
``reduced_attacker_loss``, No Retreat (``no_retreat_chart`` with the ``no_retreat`` hook), the
stacking at a retreat's end (``stacking_end``); the advance is :mod:`.combat_advance`'s
(``advance_stacking``, ``no_advance_types``, ``advance_per_hex``).
``zoc_retreat_rule`` lets a stack with no retreat try one through an enemy ZOC on a roll (12.43).
The ``retreat_to_loss`` hook lets a stack take its mandatory retreat as losses (VV 6.4).
Not modelled here: a stack splitting its retreat (VV 6.5.1).
The outcome is :mod:`.combat_outcome`'s, No Retreat and Retreat Before Combat are applied by
:mod:`.combat_options`, the advance by :mod:`.combat_advance`, spent supports by :mod:`.combat_support`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

from ..errors import IllegalMoveError, RulesError
from ..hexes import Hex
from .combat import CombatAssessment, CombatRoll
from .combat_advance import apply_advance, occupiers
from .combat_chart import SideResult
from .combat_options import apply_before_combat, apply_no_retreat, roll_no_retreat
from .combat_outcome import CombatOutcome
from .combat_retreat import (next_retreat_hexes, retreat_boxes, retreat_options, retreat_step_loss,
                             stacking_end_mode, zoc_retreat_options)
from .combat_support import spend_supports
from .position import Position
from .reasons import Code, Reason, refusal

__all__ = ["CombatOutcome", "apply_combat"]

ELIMINATED_BOX = "eliminated"


@dataclass
class _Plan:
    """One way to fill a side's result: ``k`` requirements taken as steps, retreat ``length``,
    the end hex of each stack (None: the owner must name it), ZOC steps and blocked stacks."""

    k: int
    length: int
    ends: dict = field(default_factory=dict)
    paths: dict = field(default_factory=dict)
    zoc: int = 0
    overstacked: dict = field(default_factory=dict)
    through: list = field(default_factory=list)
    blocked: list = field(default_factory=list)
    open_choice: list = field(default_factory=list)


class _Applier:
    def __init__(self, pos: Position, rs, assessment: CombatAssessment, roll: CombatRoll, losses, retreats,
                 zoc_tries=None):
        self.zoc_tries = dict(zoc_tries or {})
        self.dropped: dict = {}              # role -> why the end it named was dropped (a game's retreat_search)
        self.before = pos
        self.pos = pos.copy()
        self.rs = rs
        self.a = assessment
        self.roll = roll
        self.fmt = pos.map.format
        self.rule = assessment.chart.rule or rs.combat.rule
        self.out = CombatOutcome(self.pos, roll, log=[roll.log])
        self.members = {"attacker": list(assessment.attackers), "defender": list(assessment.defenders)}
        self.losses = {}
        for uid, n in dict(losses or {}).items():
            role = self._role_of(uid)
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise refusal(Code.COMBAT_CHOICE, self.rule, f"{uid} must lose a whole number of steps (1 or more), "
                              f"not {n!r}", None, (uid,))
            if n > self.pos.unit(uid).steps:
                raise refusal(Code.COMBAT_CHOICE, self.rule, f"{uid} has {self.pos.unit(uid).steps} step(s); it "
                              f"cannot lose {n}", self.pos.unit(uid).hex, (uid,))
            self.losses.setdefault(role, {})[uid] = n
        self.retreats = {}
        for role, where in dict(retreats or {}).items():
            if role not in self.members:
                raise RulesError(f"a retreat is for the attacker or the defender, not {role!r}")
            self.retreats[role] = where

    def _role_of(self, uid: str) -> str:
        self.pos.unit(uid)
        for role, ids in self.members.items():
            if uid in ids:
                return role
        raise refusal(Code.COMBAT_CHOICE, self.rule, f"{uid} is not in this combat (attackers "
                      f"{', '.join(self.a.attackers)}; defenders {', '.join(self.a.defenders)})", None, (uid,))

    # -- one side ------------------------------------------------------------------------------

    def _stacks(self, ids) -> dict[Hex, list[str]]:
        out: dict[Hex, list[str]] = {}
        for uid in ids:
            u = self.pos.unit(uid)
            if u.hex is not None:
                out.setdefault(u.hex, []).append(uid)
        return dict(sorted(out.items()))

    def _end_choice(self, role: str, start: Hex, many: bool):
        """The end hex the owner named for the stack in ``start`` (None if not named)."""
        where = self.retreats.get(role)
        if where is None:
            return None
        if isinstance(where, dict):
            return where.get(start)
        if many:
            raise refusal(Code.COMBAT_CHOICE, self.rs.retreat.rule, f"the {role}'s units retreat from several hexes: "
                          "name an end hex for each starting hex", start)
        return where

    def _plans(self, role: str, side: SideResult, stacks) -> list[_Plan]:
        n = side.requirements
        base = side.retreat[0] if side.retreat else 0
        if n:
            combos = [(k, base + n - k) for k in range(n + 1)]
        else:
            combos = [(0, length) for length in (side.retreat or (0,))]
        if base and all(self.rs.retreat_to_loss(self.pos, role, self.pos.units_of(ids)) for ids in stacks.values()):
            combos.append((base + n, 0))     # the mandatory retreat taken as losses too (VV 6.4)
        named = role in self.retreats
        shortest = min((length for _, length in combos if length), default=0)
        plans = []
        for k, length in combos:
            plan = _Plan(k, length)
            if length == 0:
                if named:
                    continue               # the owner named a retreat: plans without one do not fit
                plans.append(plan)
                continue
            fits = True
            for start, ids in stacks.items():
                answer = retreat_options(self.pos, self.rs, ids, length)
                end = self._end_choice(role, start, len(stacks) > 1)
                boxes = self._boxes(ids) if role not in self.zoc_tries else []
                if isinstance(end, str) or (end is None and not answer.paths and len(boxes) == 1):
                    box = end if isinstance(end, str) else boxes[0]
                    if box not in boxes:
                        raise refusal(Code.RETREAT_ILLEGAL, self.rs.retreat.box_rule or self.rs.retreat.rule,
                                      f"{','.join(ids)} may not retreat from {self.fmt(start)} into the {box} box"
                                      + (f"; only into {' or '.join(boxes)}" if boxes else
                                         ": it is not on an Entry hex of a friendly Map Box it may enter"), start, ids)
                    if length != shortest:        # a retreat into a box crosses no hex: it counts once
                        fits = False
                        break
                    plan.ends[start], plan.paths[start] = box, [start]
                    continue
                through = False
                if role in self.zoc_tries:
                    if answer.paths:
                        raise refusal(Code.RETREAT_ILLEGAL, self.rs.retreat.zoc_retreat_rule, f"{','.join(ids)} "
                                      f"may not retreat through an enemy ZOC: a normal retreat exists", start, ids)
                    if length == 2:
                        alt = zoc_retreat_options(self.pos, self.rs, ids)
                        answer, through = (alt, True) if not alt.eliminated else (answer, False)
                        allowed = self.rs.zoc_retreat(self.pos, role, self.pos.units_of(ids))
                        if through and isinstance(allowed, Reason):
                            raise IllegalMoveError(str(allowed), [allowed])
                if not answer.paths:
                    if end is not None or (role in self.zoc_tries and length != 2):
                        fits = False
                        break
                    plan.blocked.append((start, ids, answer.reason or Reason(
                        Code.RETREAT_BLOCKED, self.rs.retreat.rule, f"no legal retreat of {length} hex(es) from "
                        f"{self.fmt(start)}: the retreating units are eliminated", start, tuple(ids))))
                    continue
                path = None
                if isinstance(end, (list, tuple)) and not isinstance(end, Hex):
                    path = [start, *[h for h in end if h != start]]
                    end = path[-1]
                    if len(path) - 1 != length:
                        fits = False
                        break
                if end is None:
                    if len(answer.paths) == 1 and not boxes:
                        end = next(iter(answer.paths))
                    else:
                        plan.open_choice.append((start, ids, answer, boxes))
                        continue
                if end not in answer.paths or (through and path is not None and path != answer.paths[end]):
                    if end in answer.dropped:        # a rule of the game's retreat search forbids it
                        self.dropped[role] = answer.dropped[end]
                    fits = False
                    break
                if through:
                    path = None
                    plan.through.append(start)
                if path is not None:
                    zoc = self._walk(role, ids, path)
                else:
                    path, zoc = answer.paths[end], answer.losses[end]
                if end in answer.overstacked:
                    plan.overstacked[start] = answer.overstacked[end]
                plan.ends[start] = end
                plan.paths[start] = path
                plan.zoc += zoc
            if fits:
                plans.append(plan)
        return plans

    def _boxes(self, ids) -> list[str]:
        """Map Boxes the stack ``ids`` may retreat into from its hex (the ruleset's ``retreat_boxes``)."""
        return retreat_boxes(self.pos, self.rs, ids)

    def _into_box(self, movers, start, box) -> None:
        for uid in movers:
            unit = self.pos.unit(uid)
            unit.hex, unit.box = None, box
            self.out.retreats[uid] = [start]
            self.out.boxes[uid] = box
        if movers:
            rule = self.rs.retreat.box_rule or self.rs.retreat.rule
            self.out.log.append(f"{','.join(movers)} retreat from {self.fmt(start)} into the {box} box (rule {rule})")
        self.pos.touch()

    def _walk(self, role: str, ids, path) -> int:
        """Check a retreat ``path`` the owner gave step by step; its enemy-ZOC steps."""
        units = self.pos.units_of(ids)
        zoc = 0
        for i in range(1, len(path)):
            options = next_retreat_hexes(self.pos, self.rs, ids, path[:i])
            if path[i] not in options:
                raise refusal(Code.RETREAT_ILLEGAL, self.rs.retreat.rule,
                              f"the {role}'s retreat may not go from {self.fmt(path[i - 1])} to {self.fmt(path[i])}; "
                              f"it may go to {' '.join(self.fmt(h) for h in options) or 'no hex'}", path[i], ids)
            zoc += retreat_step_loss(self.pos, self.rs, units, path[i])
        return zoc

    def _describe(self, role, side, plans_all) -> str:
        parts = []
        for p in plans_all:
            text = (f"lose {p.k} requirement step(s) and " if side.requirements else "") + \
                   (f"retreat {p.length} hex(es)" if p.length else "stay")
            for start, ids, answer, boxes in p.open_choice:
                text += f" ({','.join(ids)} from {self.fmt(start)} to one of " \
                        f"{' '.join([*(self.fmt(h) for h in answer.hexes()), *(f'box:{b}' for b in boxes)])})"
            parts.append(text)
        return "; or ".join(parts)

    def side(self, role: str, side: SideResult, other_lost: int) -> int:
        """Apply ``side`` to ``role``'s units; the steps that left the map."""
        ids = [u for u in self.members[role] if self.pos.unit(u).hex is not None]
        if side.empty or not ids:
            return 0
        if side.eliminated:
            self._eliminate(ids, f"{role} eliminated ({self.roll.result.text})")
            return sum(self.out.losses.get(u, 0) for u in ids)
        units_out = side.units + (len(ids) // 2 if side.half_units else 0)
        fixed = side.steps + (other_lost if side.exchange else 0)
        if units_out >= len(ids) or fixed >= sum(self.pos.unit(u).steps for u in ids):
            unused = [u for u in self.losses.get(role, {}) if self.losses[role][u] != self.pos.unit(u).steps]
            if unused:
                raise refusal(Code.COMBAT_CHOICE, self.rule, f"{', '.join(unused)}: every step of the {role} is "
                              f"lost ({self.roll.result.text}: {side.describe()})", None, unused)
            self._eliminate(ids, f"every step lost ({self.roll.result.text}: {side.describe()})")
            return sum(self.out.losses.get(u, 0) for u in ids)
        stacks = self._stacks(ids)
        where = self.retreats.get(role)
        if isinstance(where, dict) and set(where) - set(stacks):
            raise refusal(Code.RETREAT_ILLEGAL, self.rs.retreat.rule, f"the {role} has no retreating units in "
                          f"{' '.join(self.fmt(h) for h in set(where) - set(stacks))}; its units stand in "
                          f"{' '.join(self.fmt(h) for h in stacks)}", None, ids)
        plans = self._plans(role, side, stacks)
        retreat_rule = self.rs.retreat.rule
        if not plans and role in self.dropped:
            why = self.dropped[role]
            raise refusal(why.code, why.rule, f"the {role} may not end its retreat there: {why.text}", why.hex, ids)
        if not plans:
            where = self.retreats.get(role)
            lengths = sorted({(side.retreat[0] if side.retreat else 0) + side.requirements - k
                              for k in range(side.requirements + 1)} if side.requirements else set(side.retreat))
            def show(w):
                if isinstance(w, str):
                    return f"box {w}"
                return self.fmt(w) if isinstance(w, Hex) else "path " + " ".join(self.fmt(h) for h in w)
            shown = ", ".join(f"{self.fmt(a)} -> {show(b)}" for a, b in where.items()) \
                if isinstance(where, dict) else show(where)
            raise refusal(Code.RETREAT_ILLEGAL, retreat_rule,
                          f"the {role} may not end a retreat in {shown}: not a legal end of a retreat of "
                          f"{' or '.join(map(str, [x for x in lengths if x])) or 'no'} hex(es) "
                          f"({self.roll.result.text}: {side.describe()})", where if isinstance(where, Hex) else None,
                          ids)
        every = plans
        if role not in self.retreats:
            # hexes beyond the mandatory retreat are the owner's to name (VV 6.4): none named, none taken
            base = (side.retreat[0] if side.retreat else 0) if side.requirements else max(side.retreat or (0,))
            plans = [p for p in plans if p.length <= base] or plans
        given = self.losses.get(role)
        if given is not None:
            total = sum(given.values())
            fitting = [p for p in plans if self._fits(ids, given, fixed + p.k + p.zoc, units_out, p)]
            if not fitting:
                needs = sorted({fixed + p.k + p.zoc for p in plans})
                raise refusal(Code.COMBAT_CHOICE, self.rule,
                              f"the {role}'s losses ({total} step(s): "
                              f"{', '.join(f'{u} {s}' for u, s in given.items())}) do not fit "
                              f"{self.roll.result.text} ({side.describe()}): it loses "
                              f"{' or '.join(map(str, needs))} step(s)"
                              + (f" and {units_out} whole unit(s)" if units_out else "")
                              + (" counting the enemy-ZOC steps of the retreat" if any(p.zoc for p in plans) else "")
                              + ("; name a longer retreat to lose fewer" if len(every) > len(plans) else ""),
                              None, ids)
            plans = fitting
            if role not in self.retreats and len(plans) > 1 and any(p.length == 0 for p in plans):
                plans = [p for p in plans if p.length == 0]   # losses given, no retreat named: it stays
        if len(plans) > 1 and all(not p.ends and not p.open_choice and p.k == plans[0].k and p.blocked for p in plans):
            plans = plans[:1]                # every length leaves no retreat: nothing to choose
        if len(plans) > 1 or plans[0].open_choice:
            raise refusal(Code.COMBAT_CHOICE, retreat_rule if plans[0].length else self.rule,
                          f"the {role} must choose ({self.roll.result.text}: {side.describe()}): "
                          f"{self._describe(role, side, every)}; "
                          + ("give the steps each unit loses and " if side.requirements and len(every) > 1 else "")
                          + "name the end hex of the retreat",
                          None, ids)
        plan = plans[0]
        lost_before = sum(self.out.losses.values())
        blocked = {u for _, stack, _ in plan.blocked for u in stack}
        for start, stack, reason in plan.blocked:
            self.out.log.append(f"{','.join(stack)}: {reason}")
            self._eliminate(stack, f"no legal retreat ({reason.rule or retreat_rule})")
        alive = [u for u in ids if u not in blocked]
        need = fixed + plan.k + plan.zoc
        chosen = self._allocate(role, side, alive, given, need, units_out)
        for uid, n in chosen.items():
            self._lose(uid, n)
        for start, end in plan.ends.items():
            path = plan.paths[start]
            movers = [u for u in stacks[start] if self.pos.unit(u).hex is not None]
            if isinstance(end, str):
                self._into_box(movers, start, end)
                continue
            if start in plan.through and movers:
                tried = roll_no_retreat(self.pos, self.rs, role, self.pos.units_of(movers),
                                        roll=self.zoc_tries[role], seed=self.roll.seed, through_zoc=True)
                self.out.zoc_retreat[role] = tried
                self.out.log.append(f"{','.join(movers)} enter {self.fmt(path[1])} in enemy ZOC; " + tried.log())
                if not tried.passed:
                    self._eliminate(movers, f"failed the retreat through an enemy ZOC (rule {tried.rule})")
                    continue
            for uid in movers:
                self.pos.unit(uid).hex = end
                self.out.retreats[uid] = list(path)
            if movers:
                zoc = f" ({plan.zoc} step(s) in enemy ZOC)" if plan.zoc else ""
                self.out.log.append(f"{','.join(movers)} retreat {' '.join(self.fmt(h) for h in path)}{zoc}")
            over = plan.overstacked.get(start)
            if over is not None and movers:
                self.pos.touch()
                if stacking_end_mode(self.rs) == "eliminate":
                    self._eliminate(movers, f"the retreat ends over the stacking limit in {self.fmt(end)} "
                                    f"(rule {over.rule}: {over.text})")
                else:
                    self.out.stacking.append(over)
                    self.out.log.append(f"{self.fmt(end)} is over-stacked after the retreat (rule {over.rule}: "
                                        f"{over.text}); the owner eliminates a unit there at the end of the phase")
        self.pos.touch()
        return sum(self.out.losses.values()) - lost_before

    def _fits(self, ids, given, need, units_out, plan) -> bool:
        blocked = {u for _, stack, _ in plan.blocked for u in stack}
        if any(u in blocked for u in given):
            return False
        alive = [u for u in ids if u not in blocked]
        available = sum(self.pos.unit(u).steps for u in alive)
        total = sum(given.values())
        whole = [u for u in given if given[u] == self.pos.unit(u).steps]
        if units_out >= len(alive):
            return total == available
        if units_out == 0:
            return total == min(need, available)
        for gone in combinations(whole, units_out):
            rest = available - sum(self.pos.unit(u).steps for u in gone)
            if total - sum(given[u] for u in gone) == min(need, rest):
                return True
        return False

    def _first_loss(self, role: str, alive) -> tuple[list[str], str, str] | None:
        """The ruleset's ``first_loss`` answer for ``role`` (judged on the position before the
        combat), narrowed to the units still there; None when it leaves the owner free."""
        other = "defender" if role == "attacker" else "attacker"
        answer = self.rs.first_loss(self.before, role, self.before.units_of(self.members[role]),
                                    self.before.units_of(self.members[other]))
        if not answer:
            return None
        ids, rule, why = answer
        ids = [u for u in alive if u in set(ids)]
        return (ids, rule, why) if ids and len(ids) < len(alive) else None

    def _allocate(self, role, side, alive, given, need, units_out) -> dict[str, int]:
        """Steps each of ``alive`` loses: the owner's (checked by :meth:`_fits` and the
        ruleset's ``first_loss``) or a forced choice."""
        steps = {u: self.pos.unit(u).steps for u in alive}
        available = sum(steps.values())
        first = self._first_loss(role, alive) if need or units_out else None
        if given is not None:
            lost = [u for u, n in given.items() if n]
            if first and lost and sum(given.values()) < available and not set(lost) & set(first[0]):
                ids, rule, why = first
                raise refusal(Code.COMBAT_CHOICE, rule, f"the {role}'s first loss must be taken by "
                              f"{' or '.join(ids)}, not {', '.join(lost)}: {why}", None, lost)
            return dict(given)
        if not alive or (need == 0 and units_out == 0):
            return {}
        if units_out >= len(alive) or (units_out == 0 and need >= available):
            return steps                     # every step is lost: nothing to choose
        if units_out == 0 and len(alive) == 1:
            return {alive[0]: need}
        if first and units_out == 0 and need == 1 and len(first[0]) == 1:
            return {first[0][0]: 1}          # the rule names the one unit that loses the step
        what = (f"{units_out} whole unit(s)" if units_out else "") + (" and " if units_out and need else "") + \
               (f"{need} step(s)" if need else "")
        rule_text = f"; the first loss is {' or '.join(first[0])}'s ({first[2]}, rule {first[1]})" if first else ""
        raise refusal(Code.COMBAT_CHOICE, self.rule,
                      f"the {role} must choose which units lose {what} ({self.roll.result.text}: {side.describe()}) "
                      f"among {', '.join(f'{u} ({steps[u]} step(s))' for u in alive)}{rule_text}", None, alive)

    def _lose(self, uid: str, n: int) -> None:
        unit = self.pos.unit(uid)
        if n >= unit.steps:
            self._eliminate([uid], "all its steps lost")
            return
        unit.steps -= n
        self.out.losses[uid] = self.out.losses.get(uid, 0) + n
        self.out.log.append(f"{uid} loses {n} step(s) ({unit.steps + n} -> {unit.steps})")

    def _eliminate(self, ids, why: str) -> None:
        box = ELIMINATED_BOX if self.pos.map.box(ELIMINATED_BOX) is not None else None
        for uid in ids:
            unit = self.pos.unit(uid)
            if unit.hex is None:
                continue
            self.out.losses[uid] = self.out.losses.get(uid, 0) + unit.steps
            self.out.eliminated.append(uid)
            unit.hex, unit.box = None, box
            self.out.log.append(f"{uid} eliminated: {why}" + (f" (to box {box})" if box else " (off the map)"))
        self.pos.touch()


def apply_combat(pos: Position, rs, assessment: CombatAssessment, roll: CombatRoll, *, losses=None,
                 retreats=None, advance=None, choices=None, no_retreat=None, zoc_retreat=None,
                 before_combat=None) -> CombatOutcome:
    """Apply ``roll`` (of ``assessment``) to a copy of ``pos``; ``pos`` is left untouched.

    ``losses``: unit id -> steps it loses (ZOC steps of its retreat included); ``retreats``:
    ``"attacker"``/``"defender"`` -> the end hex of the retreat (or start hex -> end hex when
    the side's units stand in several hexes); ``advance``: attacking unit ids that advance into
    the vacated hex (or unit id -> hex, along the retreat path where the game allows);
    ``no_retreat``: role -> the die of its No Retreat attempt (None: rolled from the combat's
    seed), where ``RetreatRules.no_retreat_chart`` gives the game one (Demyansk 12.42);
    ``zoc_retreat``: role -> the die of its attempt to retreat through an enemy ZOC when it has
    no other retreat (``RetreatRules.zoc_retreat_rule``, Demyansk 12.43-12.44);
    ``before_combat``: ``{"defender": die}`` (None: rolled from the seed), the defender's Retreat
    Before Combat (``RetreatRules.before_combat_rule``, Demyansk 11.42): a pass applies a
    retreat of ``before_combat_retreat`` hexes instead of ``roll``'s result (no combat, no
    support spent), a fail applies ``roll``; never with the defender's No Retreat (12.41).
    A choice the result leaves open and not given, or a choice that does not fit the result or
    the rules, raises :class:`~toolkit.errors.IllegalMoveError` whose reason cites the rule.
    A ruleset with an ``after_combat(pos, outcome, assessment, choices)`` method finishes the
    outcome its own way (A Victory Denied 12.2, 12.6: HQs relocated); ``choices`` are the
    owners' game-specific choices it reads (``{"relocate": {hq: hex}}``). A ruleset with a
    ``convert_result(pos, assessment, result)`` method rewrites the rolled result first; it
    returns ``(result, staying, note)``: the result applied, the unit ids the result leaves
    out (the ruleset's ``after_combat`` deals with them), a log line or None (A Victory Denied 9.5.2: PVO units take steps instead of retreating).
    """
    model = getattr(rs, "combat_model", None)
    if model is not None:
        if no_retreat or zoc_retreat or before_combat:
            raise RulesError(f"{rs.name} has no No Retreat, retreat through an enemy ZOC or Retreat Before Combat "
                             "option")
        return model.apply(pos, rs, assessment, roll, losses=losses, retreats=retreats, advance=advance,
                           choices=choices)
    if not assessment.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in assessment.refusals))
    if roll.result.text not in assessment.results:
        raise RulesError(f"the roll ({roll.result.text}) is not one of this attack's results "
                         f"({', '.join(assessment.results)}): roll the same assessment")
    stands = dict(no_retreat or {})
    for given in (stands, zoc_retreat or {}):
        if set(given) - {"attacker", "defender"}:
            raise RulesError(f"a retreat option is for the attacker or the defender, not "
                             f"{', '.join(set(given) - {'attacker', 'defender'})}")
    if set(before_combat or {}) - {"defender"}:
        raise RulesError(f"Retreat Before Combat is the defender's, not the {', '.join(set(before_combat) - {'defender'})}'s")
    work = _Applier(pos, rs, assessment, roll, losses, retreats, zoc_retreat)
    result = roll.result
    fought = not before_combat
    if before_combat:
        fought = (result := apply_before_combat(work, before_combat["defender"], "defender" in stands)) is None
        result = result or roll.result
    convert = getattr(rs, "convert_result", None)
    if convert is not None and fought:        # a game rewriting a result for what the hex holds (AVD 9.5.2)
        result, staying, note = convert(pos, assessment, result)
        for role in work.members:
            work.members[role] = [u for u in work.members[role] if u not in set(staying)]
        if note:
            work.out.log.append(note)
    r = rs.retreat
    first = ("attacker", "defender") if r.attacker_first and not result.attacker.exchange else ("defender", "attacker")
    lost = {}
    for role in first:
        side = result.side(role)
        if role == "attacker" and r.reduced_attacker_loss and side.steps and result.defender.steps > \
                sum(u.steps for u in pos.units_of(assessment.defenders) if u.hex is not None):
            side = replace(side, steps=side.steps - 1)
            work.out.log.append(f"attacker loses one step fewer: the defender had fewer steps than "
                                f"{result.defender.steps} (rule {r.reduced_attacker_loss})")
        if role == "defender" and r.retreat_needs_occupier and side.retreat and "attacker" in lost \
                and not occupiers(work.pos, rs, work.members["attacker"], work.out):
            side = replace(side, retreat=(), requirements=0)
            work.out.log.append(f"defender stays: no attacking unit is left that could occupy "
                                f"{work.fmt(assessment.defender_hex)} (rule {r.occupier_rule or r.rule})")
        if role in stands:
            side = apply_no_retreat(work, role, side, stands.pop(role))
        lost[role] = work.side(role, side, lost.get("defender" if role == "attacker" else "attacker", 0))
    tried = [role for role in work.zoc_tries if role not in work.out.zoc_retreat
             and not all(u in work.out.eliminated for u in work.members[role])]
    if tried:
        raise refusal(Code.RETREAT_ILLEGAL, r.zoc_retreat_rule, f"the {', '.join(tried)} does not retreat through an "
                      f"enemy ZOC on {result.text} (no retreat of two hexes through one)", None, ())
    if stands:
        raise refusal(Code.COMBAT_CHOICE, r.no_retreat_rule, f"the {', '.join(stands)} does not retreat on "
                      f"{result.text}: no No Retreat to try", None, ())
    unused = [u for given in work.losses.values() for u in given if u not in work.out.losses]
    if unused:
        raise refusal(Code.COMBAT_CHOICE, work.rule, f"{', '.join(unused)}: the result {result.text} takes no step "
                      "from them", None, unused)
    for role in work.retreats:
        if not any(u in work.out.retreats for u in work.members[role]) and \
                not any(u in work.out.eliminated for u in work.members[role]):
            raise refusal(Code.RETREAT_ILLEGAL, rs.retreat.rule, f"the {role} does not retreat on {result.text}",
                          None, work.members[role])
    apply_advance(rs, assessment, work.out, advance)
    # a support unit is spent (fired) by the combat it gave, or by its side's special result
    if fought:
        work.out.log += spend_supports(work.pos, rs, assessment, result, dict(choices or {}).get("special"))
    after = getattr(rs, "after_combat", None)
    if after is not None:
        after(pos, work.out, assessment, dict(choices or {}))
        work.pos.touch()
    return work.out
