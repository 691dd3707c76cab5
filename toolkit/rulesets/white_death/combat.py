"""White Death's combat for the shared referee (``CombatRules`` + ``Ruleset.combat_model``):
an assault's defensive fire and assault fire, and barrages, fire aimed at individual units.

``context`` keys (the CLI's ``--fire`` and ``--target``): ``fire`` "assault" (default; the
assaulting units fire at the defenders), "defensive" (the defenders of the hex fire at the
assaulting units: the same machinery, the roles reversed) or "barrage" (the given artillery
fires at every unit of the hex); ``targets`` unit id -> fire points (None: a share), in the
order they are resolved; ``weapons_fire`` unit id -> "antitank" or "conventional" (10 D);
``barrage_attacks`` the values the barrage is split into (11 B.2.a); ``barrage_sp`` the supply
points paid (15 A.3: 3 for German rockets at full value).

Fire not allocated is shared out as the 1991 program's default does it (ruled: in proportion
to the targets' defence values, so every target of one table and hex is fired at the same
odds, which 9 C.3's limits allow).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import RulesError
from ...hexes import Hex
from ...referee.combat import CombatAssessment
from ...referee.combat_strength import Modifier, Support
from ...referee.reasons import Code, Reason
from . import units as U
from .artillery import support_value, used
from .fire import Target, defence_value, eligible_target, fire_value, refuse

__all__ = ["FireAssessment", "assess", "PHASES"]

PHASES = ("assault", "defensive", "barrage")
TABLES = {"conventional": "conventional_fire", "antitank": "antitank_fire"}


@dataclass
class FireAssessment(CombatAssessment):
    """A :class:`CombatAssessment` whose ``distribution`` is the whole fire's (strength points
    lost, units out of the fight) and whose ``shots`` hold each target's own distribution."""

    fire: str = "assault"
    shots: list = field(default_factory=list)
    fired_at: str = "defender"
    #: (strength points lost, units out) -> the ``distribution`` key
    headlines: dict = field(default_factory=dict)

    def to_dict(self, fmt=None) -> dict:
        out = super().to_dict(fmt)
        fmt = fmt or (lambda h: f"{h[0]},{h[1]}")
        out["fire"] = {"phase": self.fire, "fired_at": self.fired_at, "shots": [s.to_dict(fmt) for s in self.shots]}
        return out

    def retreat_hexes(self, pos, rs) -> list:
        """Where the units fired at would end a retreat if they failed or routed (14 B)."""
        from .fire_apply import retreat_ends
        out = set()
        for s in self.shots:
            if s.unit.id in pos.units and s.unit.hex is not None:
                out |= set(retreat_ends(pos, rs, s.unit.id)[1])
        return sorted(out)

    def detail_lines(self, fmt) -> list[str]:
        """Each target's odds and outcome distribution, for the human answer."""
        lines = []
        for s in self.shots:
            head = f"{s.unit.id} ({s.kind}"
            if s.kind in ("conventional", "antitank"):
                head += f", fire {num_text(s.fire)} vs defence {num_text(s.defence)}: {s.ratio} -> {s.column_text}"
            elif s.kind == "barrage":
                head += f", attacks {s.ratio}, DRM {s.drm:+d}"
            lines.append(head + ")")
            for text, p in sorted(s.outcomes.items(), key=lambda kv: -kv[1]):
                lines.append(f"    {str(p):>7s} {float(p) * 100:5.1f}%  {text}")
        return lines


def num_text(x) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else str(x)


def _impulse_refusal(pos, rs, unit) -> Reason | None:
    """6 B.3 / 5: the MP to assault, checked when the position records an impulse."""
    if "impulses" not in pos.state:
        return None
    return rs.assault_refusal(pos, unit)


def assault_refusals(pos, rs, attackers, hex: Hex, defenders, phase: str) -> list[Reason]:
    """Who may assault ``hex`` (9 A, 9 B, 6 B.3, 12 A, 14 B.2, 19)."""
    from .activity import assault_into_refusal
    fmt = pos.map.format
    out = []
    if len({u.side for u in attackers}) > 1:
        out.append(refuse("9 B", "units of different sides cannot assault together", None, [u.id for u in attackers]))
    if not defenders:
        out.append(Reason(Code.NO_DEFENDER, "9 B", f"{fmt(hex)} holds no enemy unit to assault", hex))
    side = attackers[0].side
    barred = used(pos, "no_assault")
    assaults = (pos.state.get("combat") or {}).get("assaults") or {}
    for u in attackers:
        if u.hex is None:
            out.append(Reason(Code.NOT_ON_MAP, "9 A", f"{u.id} is not on the map", None, (u.id,)))
            continue
        if u.counter.is_marker or U.is_bunker(u):
            out.append(refuse("19", f"{u.id} is {'a marker' if u.counter.is_marker else 'a bunker'} and cannot assault",
                              u.hex, [u.id]))
            continue
        if not pos.map.grid.adjacent(u.hex, hex):
            out.append(Reason(Code.NOT_ADJACENT, "6 B.3", f"{u.id} in {fmt(u.hex)} is not next to {fmt(hex)}",
                              u.hex, (u.id,)))
            continue
        if u.id in barred and phase == "assault":
            out.append(refuse("14 B.2", f"{u.id} failed a morale check against defensive fire and may not assault",
                              u.hex, [u.id]))
        other = assaults.get(u.id)
        if other is not None and other != fmt(hex):
            out.append(refuse("9 B", f"{u.id} assaults {other} this impulse: a unit assaults one hex (Combat/"
                              "Definition: ghosted)", u.hex, [u.id]))
        why = assault_into_refusal(pos, rs, u, hex) or _impulse_refusal(pos, rs, u)
        if why is not None:
            out.append(why)
    if pos.side and side != pos.side and "impulses" in pos.state:
        out.append(refuse("5", f"only the phasing player ({pos.side}) assaults", None, [u.id for u in attackers]))
    return out


def support_missions(pos, rs, supports, phase, firing_side, stack_units, to_hex):
    """``(value, modifiers, refusals, artillery ids)`` of the support missions (11 A)."""
    mods, refusals, ids, total = [], [], [], Fraction(0)
    if not supports:
        return total, mods, refusals, ids
    formations = sorted({U.formation(u) for u in stack_units})
    for s in supports:
        role = "attacker" if phase == "assault" else "defender"
        if phase == "barrage":
            refusals.append(Reason(Code.SUPPORT_REFUSED, "11 A", "a barrage takes no support missions"))
            continue
        if s.side != role:
            refusals.append(Reason(Code.SUPPORT_REFUSED, "11 A", f"{s.kind} support of the {s.side} does not fire in "
                                   f"{phase} fire (use --fire {'assault' if s.side == 'attacker' else 'defensive'})"))
            continue
        if s.kind not in ("artillery", "artillery-low") or s.unit is None:
            raise RulesError(f"White Death support is artillery:UNIT (or artillery-low:UNIT, low-intensity "
                             f"defensive support, 15 A.4), optionally @HQ; not {s.kind}:{s.unit or s.points}")
        if s.kind == "artillery-low" and role != "defender":
            refusals.append(Reason(Code.SUPPORT_REFUSED, "15 A.4", "low intensity is a choice of defensive support"))
            continue
        unit = pos.unit(s.unit)
        if unit.side != firing_side:
            refusals.append(Reason(Code.SUPPORT_REFUSED, "11 A", f"{unit.id} is not of the {firing_side} side",
                                   unit.hex, (unit.id,)))
            continue
        formation = formations[0] if len(formations) == 1 else None
        if s.via is not None:
            hq = pos.unit(s.via)
            if hq not in stack_units:
                refusals.append(Reason(Code.SUPPORT_REFUSED, "11 A.1", f"the controlling HQ {hq.id} is not one of the "
                                       "units in the attack or defence", hq.hex, (hq.id,)))
                continue
            formation = U.formation(hq)
        elif len(formations) > 1 and unit.side == "soviet":
            refusals.append(Reason(Code.SUPPORT_REFUSED, "11 A.1", f"units of {', '.join(formations)} are involved: "
                                   "name the controlling HQ (artillery:UNIT@HQ)", unit.hex, (unit.id,)))
            continue
        value, notes, why = support_value(pos, rs, unit, to_hex, formation=formation,
                                          high_intensity=s.kind == "artillery")
        if why is not None:
            refusals.append(why)
            continue
        ids.append(unit.id)
        total += value
        note = "; ".join(text for _, text in notes)
        mods.append(Modifier("attack", value, "11 A", f"support of {unit.id}: {num_text(value)}" +
                             (f" ({note})" if note else ""), unit.hex, (unit.id,), firing_side))
    return total, mods, refusals, ids


def _share(targets: list[Target], wanted: dict, pools: dict, refusals: list) -> None:
    """Allocate each table's pool (per target hex) to ``targets``: given points first (never more
    than the pool), the rest in proportion to the defence values of targets without points."""
    for kind in ("conventional", "antitank"):
        mine = [t for t in targets if t.kind == kind]
        if not mine:
            continue
        given = Fraction(0)
        for t in mine:
            pts = wanted.get(t.unit.id)
            if pts is not None:
                pool = pools[kind].get(t.unit.hex, Fraction(0))
                t.fire = Fraction(pts)
                given += Fraction(pts) / pool if pool else Fraction(1)
        if given > 1:
            refusals.append(refuse("9 C.3", f"{kind} fire allocated beyond the pool: "
                                   + ", ".join(f"{t.unit.id} {num_text(t.fire)} of {num_text(pools[kind].get(t.unit.hex, 0))}"
                                               for t in mine if wanted.get(t.unit.id) is not None)))
            continue
        rest = [t for t in mine if wanted.get(t.unit.id) is None]
        weight = sum((t.defence or Fraction(1) for t in rest), Fraction(0))
        for t in rest:
            share = (1 - given) * (t.defence or Fraction(1)) / weight if weight else Fraction(0)
            t.fire = pools[kind].get(t.unit.hex, Fraction(0)) * share


def weapon_limits(targets: list[Target], hex_units: dict, refusals: list) -> None:
    """9 C.3: no weapons unit fired at unless every personnel unit of its hex is, nor at higher
    odds than any personnel unit there."""
    for hx, units in hex_units.items():
        personnel = [u for u in units if U.is_personnel(u) and not U.is_afv(u)]
        fired = {t.unit.id: t for t in targets if t.kind == "conventional" and t.unit.hex == hx}
        for t in fired.values():
            if not U.is_weapons(t.unit):
                continue
            missing = [p.id for p in personnel if p.id not in fired]
            if missing:
                refusals.append(refuse("9 C.3", f"{t.unit.id} is a weapons unit: it may be fired at only when every "
                                       f"personnel unit in the hex is ({', '.join(missing)} not)", hx, [t.unit.id]))
                continue
            odds = t.fire / t.defence if t.defence else None
            low = min((fired[p.id].fire / fired[p.id].defence for p in personnel if fired[p.id].defence),
                      default=None)
            if odds is not None and low is not None and odds > low:
                refusals.append(refuse("9 C.3", f"{t.unit.id} is a weapons unit: fired at {num_text(odds)} to 1, higher "
                                       f"odds than a personnel unit of the hex ({num_text(low)} to 1)", hx, [t.unit.id]))


def assess(pos, rs, attacker_ids, defender_hex, *, supports=(), context=None) -> FireAssessment:
    """The White Death answer to :func:`~toolkit.referee.assess_combat` (see the module doc)."""
    from .assessment import build
    context = dict(context or {})
    phase = str(context.get("fire") or "assault")
    if phase not in PHASES:
        raise RulesError(f"unknown fire {phase!r}; White Death fires {', '.join(PHASES)}")
    attackers = pos.units_of(attacker_ids)
    if not attackers:
        raise RulesError("no attacking unit given")
    hexes = defender_hex if isinstance(defender_hex, (list, tuple)) and not isinstance(defender_hex, Hex) \
        else [defender_hex]
    if len(hexes) != 1:
        raise RulesError("a White Death assault or barrage is against one hex (9 C.3, 11 B)")
    hex = hexes[0]
    if hex not in pos.map.grid:
        raise RulesError(f"hex {hex} is not on map {pos.map_id}")
    sup = tuple(s if isinstance(s, Support) else Support(*s) for s in supports)
    a = build(pos, rs, attackers, hex, sup, context, phase)
    a.context = dict(context)               # --apply reads the barrage's supply points from it (15 A)
    return a


def fire_targets(pos, rs, phase, firers, targets_units, assault_hex, wanted, support_total, weapons: dict,
                 refusals, mods, assaulting_targets: bool, isolated: set) -> tuple[list[Target], dict]:
    """The targets with their defence values and the fire allocated to each (9 C.3, 10 C.2)."""
    targets = []
    before = used(pos, f"fired_{phase}")
    for u in targets_units:
        kind = "antitank" if U.is_afv(u) else "conventional"
        if u.id in before:
            if u.id in wanted:
                refusals.append(refuse("9 C.3", f"{u.id} was fired at in this {phase} fire already: no target "
                                       "unit may be fired at more than once per phase", u.hex, [u.id]))
            continue
        if eligible_target(u, kind):
            if u.id in wanted:
                refusals.append(refuse("9 B" if kind == "conventional" else "10 B", eligible_target(u, kind),
                                       u.hex, [u.id]))
            continue
        if wanted and u.id not in wanted:
            continue
        dv, dmods = defence_value(pos, u, kind, assault_hex=assault_hex, assaulting=assaulting_targets)
        targets.append(Target(u, kind, dv, dmods))
    for uid in wanted:
        if uid not in {u.id for u in targets_units}:
            if not uid.startswith("garrison@"):
                pos.unit(uid)                      # an unknown id is bad input, not a refusal
            refusals.append(refuse("9 B", f"{uid} is not a unit that may be fired at in this {phase} fire "
                                   f"(targets: {', '.join(u.id for u in targets_units) or 'none'})", None, [uid]))
    pools = {"conventional": {}, "antitank": {}}
    want_at = any(t.kind == "antitank" for t in targets)
    for f in firers:
        assaulting = phase == "assault"
        kinds = ["conventional", "antitank"]
        if U.is_weapons(f):                        # 10 D: one or the other
            pick = weapons.get(f.id)
            if pick not in (None, "antitank", "conventional"):
                raise RulesError(f"weapons_fire for {f.id} is antitank or conventional, not {pick!r}")
            has_at = U.fraction(f.counter.front.get("at", 0) or 0) > 0
            kinds = [pick or ("antitank" if want_at and has_at else "conventional")]
        for kind in kinds:
            for hx in {t.unit.hex for t in targets if t.kind == kind}:
                value, fmods, why = fire_value(pos, rs, f, kind, assaulting=assaulting, target_hex=hx,
                                               assault_hex=assault_hex, isolated=f.id in isolated)
                if why and kind == "conventional" and not U.is_afv(f):
                    mods.append(Modifier("note", 0, "9 A" if "defensively" in why else "10 A", why, f.hex, (f.id,)))
                if value:
                    pools[kind][hx] = pools[kind].get(hx, Fraction(0)) + value
                    mods.extend(m for m in fmods if m not in mods)
    for hx in {t.unit.hex for t in targets if t.kind == "conventional"}:
        if support_total:
            pools["conventional"][hx] = pools["conventional"].get(hx, Fraction(0)) + support_total
    dry = [t for t in targets if not pools[t.kind].get(t.unit.hex)]
    for t in dry:                   # nothing of that kind can reach it: not a target (named: refused)
        if t.unit.id in wanted:
            why = ("only assaulting AFVs fire antitank (10 A)" if t.kind == "antitank" and phase == "assault"
                   else f"no unit here has {t.kind} fire for it")
            refusals.append(refuse("10 A" if t.kind == "antitank" else "9 A", f"{t.unit.id} cannot be fired at: {why}",
                                   t.unit.hex, [t.unit.id]))
    targets = [t for t in targets if t not in dry]
    _share(targets, wanted, pools, refusals)
    return targets, pools


class WhiteDeathCombat:
    """The ``Ruleset.combat_model`` of White Death: assess, roll and apply aimed fire."""

    def assess(self, pos, rs, attacker_ids, defender_hex, *, supports=(), context=None) -> FireAssessment:
        return assess(pos, rs, attacker_ids, defender_hex, supports=supports, context=context)

    def roll(self, pos, rs, assessment, *, seed=None, roll=None, rolls=None):
        from .assessment import roll as roll_fire
        return roll_fire(pos, rs, assessment, seed=seed, roll=roll, rolls=rolls)

    def apply(self, pos, rs, assessment, roll, *, losses=None, retreats=None, advance=None, choices=None):
        from .fire_apply import apply
        if choices:
            raise RulesError(f"White Death takes no game choices when fire is applied (got {', '.join(choices)}): "
                             "retreats are --retreat, advances --advance")
        return apply(pos, rs, assessment, roll, losses=losses, retreats=retreats, advance=advance)
