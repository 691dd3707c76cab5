"""Building White Death's combat answer (:class:`~.combat.FireAssessment`) and rolling it.

The three fires share one path: who fires and who is fired at (assault fire: the assaulting
units at the defenders; defensive fire: the defenders at the assaulting units; barrage: the
artillery at every unit of the hex), the fire values and defence values, the allocation, then
:func:`~.shots.chain` for the exact distribution.
"""

from __future__ import annotations

import random
import secrets
from fractions import Fraction

from ...errors import RulesError
from ...referee.combat import CombatRoll
from ...referee.combat_chart import CombatResult, SideResult
from ...referee.combat_strength import Modifier
from ...referee.reasons import Code, Reason
from . import units as U
from .artillery import barrage_value, observed, used
from .combat import FireAssessment, assault_refusals, fire_targets, num_text, support_missions, weapon_limits
from .fire import garrison_unit, is_garrison, isolated_units, refuse
from .fire_tables import FireResult, fire_table
from .morale import grade, tank_fright
from .shots import Shot, cap_loss, chain, check_for, needs_check, outcome_of

__all__ = ["build", "roll", "FireRoll"]


def _defenders(pos, side, hex):
    units = [u for u in pos.at(hex) if u.side not in (side, None) and not u.counter.is_marker]
    g = garrison_unit(pos, hex)
    if g is not None and g.side != side:
        units.append(g)
    return units


def barrage_choices(context) -> tuple[int, list[Fraction]]:
    """The barrage's ``barrage_sp`` (supply points paid for the impulse, 15 A.2-3: 2, or 3 for
    German rockets at full value; default 2) and ``barrage_attacks`` (the values the barrage is
    split into, 11 B.2.a; empty: one attack) from ``context``, checked: RulesError naming the
    key and what was expected."""
    sp = context.get("barrage_sp", 2)
    if isinstance(sp, bool) or not isinstance(sp, int) or sp not in (2, 3):
        raise RulesError(f"barrage_sp is the supply points paid for a barrage impulse, 2 or 3 (15 A.2-3), "
                         f"not {sp!r}")
    raw = context.get("barrage_attacks") or ()
    raw = [raw] if isinstance(raw, (int, str, Fraction)) and not isinstance(raw, bool) else raw
    split = []
    for v in raw:
        try:
            value = Fraction(v) if not isinstance(v, (bool, float)) else None
        except (ValueError, ZeroDivisionError, TypeError):
            value = None
        if value is None or value <= 0:
            raise RulesError(f"barrage_attacks are the barrage values of the separate attacks (11 B.2.a), each "
                             f"above 0, e.g. 60,20; not {v!r}")
        split.append(value)
    return sp, split


def _barrage_shots(pos, rs, firers, hex, context, refusals, mods):
    side = firers[0].side
    if len({u.side for u in firers}) > 1:
        refusals.append(refuse("11 B", "units of different sides cannot barrage together", None,
                               [u.id for u in firers]))
    if pos.side and pos.side != side:
        refusals.append(refuse("11 B", f"only the phasing player barrages ({pos.side} is to move)", None,
                               [u.id for u in firers]))
    total = Fraction(0)
    sp, split = barrage_choices(context)
    if sp == 3 and side != "german":
        refusals.append(refuse("15 A.3", "only the German player pays 3 supply points for a rocket barrage", None,
                               [u.id for u in firers]))
    for f in firers:
        value, notes, why = barrage_value(pos, rs, f, hex, sp_spent=sp)
        if why is not None:
            refusals.append(why)
            continue
        total += value
        note = "; ".join(t for _, t in notes)
        mods.append(Modifier("note", 0, "11 B.2.a", f"barrage of {f.id}: {num_text(value)}" +
                             (f" ({note})" if note else ""), f.hex, (f.id,), "fire"))
    table = fire_table(pos.game, "barrage")
    split = split or [total]
    if sum(split) != total:
        refusals.append(refuse("11 B.2.a", f"the barrage attacks {' + '.join(map(num_text, split))} do not add up to the "
                               f"barrage value {num_text(total)}"))
    obs_ok, obs_drm, notes = observed(pos, rs, firers, hex) if firers and not refusals else (True, 0, [])
    for rule, text in notes:
        mods.append(Modifier("drm" if obs_drm else "note", obs_drm, rule, text, hex))
    drm_data = table.extra.get("drm") or {}
    shots = []
    isolated = isolated_units(pos, rs, next((u.side for u in _defenders(pos, side, hex)), side))
    for u in _defenders(pos, side, hex):
        drm, umods = obs_drm, []
        codes = [pos.map.terrain(hex), *pos.map.features(hex)]
        bunker_here = any(U.is_bunker(b) and b.side == u.side and U.strength(b) > 0 for b in pos.at(hex))
        if U.is_bunker(u):
            drm += int(drm_data.get("bunker", 0))
            umods.append(Modifier("drm", int(drm_data.get("bunker", 0)), "11 B.2.b", "a bunker: only the bunker DRM",
                                  hex, (u.id,)))
        else:
            for code, v in (drm_data.get("terrain") or {}).items():
                if code in codes and v:
                    drm += int(v)
                    umods.append(Modifier("drm", int(v), "11 B.2.b", f"in {code}: +{v}", hex, (u.id,)))
            if bunker_here and not U.is_afv(u):
                drm += int(drm_data.get("bunker", 0))
                umods.append(Modifier("drm", int(drm_data.get("bunker", 0)), "11 B.2.b", "in a bunker hex",
                                      hex, (u.id,)))
            if U.is_afv(u) and drm_data.get("afv"):
                drm += int(drm_data["afv"])
                umods.append(Modifier("drm", int(drm_data["afv"]), "11 B.2.b", "an AFV", hex, (u.id,)))
        shots.append(Shot(u, "barrage", table, fire=total, attacks=tuple(table.column_of(v) for v in split),
                          drm=drm, modifiers=umods, firers=tuple(f.id for f in firers),
                          isolated=u.id in isolated))
    return shots, total


def build(pos, rs, attackers, hex, supports, context, phase) -> FireAssessment:
    refusals: list[Reason] = []
    mods: list[Modifier] = []
    side = attackers[0].side
    defenders = _defenders(pos, side, hex)
    wanted = {str(k): (None if v is None else Fraction(v)) for k, v in (context.get("targets") or {}).items()}
    order = list(wanted)
    if phase == "barrage":
        shots, total = _barrage_shots(pos, rs, attackers, hex, context, refusals, mods)
        defence = Fraction(0)
        if not defenders:
            refusals.append(Reason(Code.NO_DEFENDER, "11 B", f"{pos.map.format(hex)} holds no enemy unit", hex))
        fired_at, firing_side = "defender", side
    else:
        refusals += assault_refusals(pos, rs, attackers, hex, defenders, phase)
        if phase == "assault":
            firers, targets_units, fired_at = attackers, defenders, "defender"
            stack, to_hex = attackers, min((u.hex for u in attackers if u.hex), default=hex,
                                           key=lambda h: pos.map.grid.distance(h, hex))
        else:
            barred = used(pos, "no_defensive_fire")
            firers = [u for u in defenders if u.id not in barred]
            for u in defenders:
                if u.id in barred:
                    mods.append(Modifier("note", 0, "14 B.1", f"{u.id} failed a morale check against a barrage "
                                         "and may not fire defensively", u.hex, (u.id,)))
            targets_units, fired_at, stack, to_hex = attackers, "attacker", defenders, hex
        firing_side = firers[0].side if firers else None
        support_total, smods, srefusals, art = support_missions(pos, rs, supports, phase, firing_side, stack, to_hex)
        mods += smods
        refusals += srefusals
        firers = [f for f in firers if f.id not in art]        # 11 A.1: support, not fire
        iso = isolated_units(pos, rs, firing_side) if firing_side else set()
        targets, _ = fire_targets(pos, rs, phase, firers, targets_units, hex, wanted, support_total,
                                  dict(context.get("weapons_fire") or {}), refusals, mods,
                                  phase == "defensive", iso)
        weapon_limits(targets, {hex: defenders} if phase == "assault" else {}, refusals)
        target_iso = isolated_units(pos, rs, targets_units[0].side) if targets_units else set()
        shots = []
        for t in targets:
            table = fire_table(pos.game, "conventional_fire" if t.kind == "conventional" else "antitank_fire")
            col = table.column_of(t.fire, t.defence)
            fright = phase == "assault" and tank_fright(pos, t.unit, attackers)
            shots.append(Shot(t.unit, t.kind, table, t.fire, t.defence, col, modifiers=t.modifiers,
                              firers=tuple(f.id for f in firers), fright=fright, isolated=t.unit.id in target_iso,
                              assaulting=phase == "defensive"))
        if phase == "assault":                  # 14 C.2: tank fright makes unfired units check too
            fired = {s.unit.id for s in shots}
            for u in defenders:
                if u.id not in fired and not U.is_bunker(u) and tank_fright(pos, u, attackers):
                    shots.append(Shot(u, "morale", None, fright=True, isolated=u.id in target_iso))
        total = sum((s.fire for s in shots), Fraction(0))
        defence = sum((s.defence or 0 for s in shots), Fraction(0))
    if order:
        rank = {uid: i for i, uid in enumerate(order)}
        shots.sort(key=lambda s: rank.get(s.unit.id, len(rank)))
    return _finish(pos, rs, attackers, defenders, hex, supports, phase, shots, total, defence, mods, refusals,
                   fired_at, side)


def _headline(phase, lost, out, n, cleared) -> str:
    if phase == "assault":
        tail = ", hex cleared" if cleared else (f", {out} of {n} leave the hex" if out else "")
        return f"defender loses {lost} SP{tail}"
    if phase == "defensive":
        return f"attacker loses {lost} SP" + (f", {out} may not assault" if out else "")
    return f"{lost} SP lost" + (f", {out} out (no defensive fire or retreat)" if out else "")


def _finish(pos, rs, attackers, defenders, hex, supports, phase, shots, total, defence, mods, refusals,
            fired_at, side) -> FireAssessment:
    legal = not refusals and bool(shots)
    if not shots and not refusals:
        refusals.append(refuse("9 C", "no unit may be fired at: no target has fire allocated", hex,
                               [u.id for u in attackers]))
        legal = False
    distribution, results, headlines = {}, {}, {}
    expected = {"attacker": Fraction(0), "defender": Fraction(0)}
    if legal:
        joint = chain(pos, shots, phase)
        holders = [u for u in defenders if not U.is_bunker(u)]
        bunker = any(U.is_bunker(u) and U.strength(u) > 0 for u in defenders)
        targeted = {s.unit.id for s in shots}
        for (lost, out), p in sorted(joint.items()):
            cleared = phase == "assault" and not bunker and out == len(shots) and \
                all(u.id in targeted for u in holders)
            text = _headline(phase, lost, out, len(shots), cleared)
            distribution[text] = distribution.get(text, Fraction(0)) + p
            headlines[(lost, out)] = text
            hit = SideResult(steps=lost)
            results[text] = CombatResult(text, hit if fired_at == "attacker" else SideResult(),
                                         hit if fired_at == "defender" else SideResult())
            expected[fired_at] += p * lost
    first = shots[0] if shots else None
    table = first.table if first is not None and first.table is not None else fire_table(pos.game, "conventional_fire")
    if phase == "barrage":
        ratio = f"barrage {num_text(total)}" + (f" as {shots[0].ratio}" if shots and len(shots[0].attacks) > 1 else "")
        odds = shots[0].column_text if shots else None
    else:
        ratio = "; ".join(f"{s.unit.id} {s.ratio}" for s in shots if s.table is not None) or "-"
        odds = "; ".join(f"{s.column_text}" for s in shots if s.table is not None) or None
    for s in shots:
        mods.extend(s.modifiers)
    got = _assessment(attackers, hex, defenders, legal, refusals, total, defence, ratio, odds, mods,
                      distribution, results, expected, supports, table, phase, shots, fired_at, side)
    got.headlines = headlines
    return got


def _assessment(attackers, hex, defenders, legal, refusals, total, defence, ratio, odds, mods, distribution,
                results, expected, supports, table, phase, shots, fired_at, side) -> FireAssessment:
    drm = shots[0].drm if shots and phase == "barrage" else 0
    return FireAssessment(
        attackers=tuple(u.id for u in attackers), defender_hex=hex, defenders=tuple(u.id for u in defenders),
        legal=legal, refusals=refusals, attack=total, defence=defence, ratio=ratio, odds=odds, column=odds,
        shift=0, modifiers=mods, drm=drm, distribution=distribution, results=results, expected_steps=expected,
        column_distribution={}, random=[], supports=tuple(supports), chart=table, rule=table.rule, side=side,
        defender_hexes=(hex,), fire=phase, shots=shots, fired_at=fired_at)


class FireRoll(CombatRoll):
    """A rolled fire: every die by name, and each target's outcome (``outcomes``: unit id ->
    :class:`~.shots.Outcome`, in the order resolved)."""

    def __init__(self, *args, outcomes=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = dict(outcomes or {})

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["outcomes"] = {u: {"text": o.text, "lost": o.lost, "check": o.check, "retreat": o.retreat,
                               "eliminated": o.eliminated} for u, o in self.outcomes.items()}
        return out


def roll(pos, rs, a: FireAssessment, *, seed=None, roll=None, rolls=None) -> FireRoll:
    """Roll every die of the fire in order (fixed by ``roll`` for the first fire die and
    ``rolls`` by name: "conventional UNIT", "antitank UNIT", "barrage UNIT" ("barrage#2 UNIT"
    for a second attack), "morale UNIT"), else from ``seed`` (a fresh logged one if None)."""
    if not a.legal:
        raise RulesError("the fire is not legal: " + "; ".join(str(r) for r in a.refusals))
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    rng = random.Random(seed)
    given = {str(k): int(v) for k, v in (rolls or {}).items()}
    dice: dict = {}
    first = [roll]

    def die(name: str) -> int:
        if first[0] is not None and not name.startswith("morale"):
            value, first[0] = first[0], None
        else:
            value = given.pop(name, None)
            value = rng.randint(1, 6) if value is None else value
        if not 1 <= value <= 6:
            raise RulesError(f"a roll of 1d6 for {name} is 1 to 6, not {value}")
        dice[name] = value
        return value

    outcomes, state = {}, {}
    lost_total = out_total = 0
    for s in a.shots:
        uid = s.unit.id
        routed, elim = state.get(s.unit.hex, (0, 0))
        if s.kind == "barrage":
            n = 0
            for i, col in enumerate(s.attacks):
                r = die(f"barrage{'#' + str(i + 1) if i else ''} {uid}")
                n += s.table.result(r + s.drm, col).lost
            cell = FireResult(f"{n} SP" if n else "-", n)
        elif s.table is None:
            cell = FireResult("-")
        else:
            cell = s.table.result(die(f"{s.kind} {uid}"), s.column)
        capped = cap_loss(s, cell.lost, U.strength(s.unit))
        check = None
        if not (capped >= U.strength(s.unit) or (is_garrison(s.unit) and capped)) and needs_check(s, cell, capped):
            mc = check_for(pos, s, cell, routed, elim)
            if mc.exempt:
                check = "exempt"
            else:
                r = die(f"morale {uid}")
                check = grade(pos.game, mc.morale, r + mc.drm)
                dice[f"morale {uid}"] = f"{r}{mc.drm:+d} vs {mc.morale}: {check}"
        o = outcome_of(pos, s, cell, check, a.fire)
        outcomes[uid] = o
        state[s.unit.hex] = (routed, elim + 1) if o.eliminated else (routed + (o.check == "rout"), elim)
        lost_total += o.lost
        out_total += o.out
    valid = {f"{kind} {s.unit.id}" for s in a.shots for kind in ("morale", s.kind)} | \
        {f"barrage#{i + 1} {s.unit.id}" for s in a.shots for i in range(1, len(s.attacks))}
    unknown = [k for k in given if k not in valid]
    if unknown:                     # a die the fire did not need (a morale check not taken) is no error
        raise RulesError(f"no such roll in this fire: {', '.join(unknown)}; the dice are {', '.join(sorted(valid))}")
    result = _result_for(a, lost_total, out_total)
    fmt = pos.map.format
    rolled = ", ".join(f"{k} {v}" for k, v in dice.items())
    log = (f"{a.fire} fire {','.join(a.attackers)} -> {fmt(a.defender_hex)}: "
           + "; ".join(f"{s.unit.id} {s.ratio}" for s in a.shots) + f"; dice: {rolled}; "
           + "; ".join(f"{u}: {o.text}" for u, o in outcomes.items()) + f": {result.text} [seed {seed}]")
    first_fire = next((v for k, v in dice.items() if not k.startswith("morale")), 0)
    return FireRoll(dice, int(first_fire), int(first_fire) + a.drm, a.shots[0].column_text or "-", result, seed,
                    log, outcomes=outcomes)


def _result_for(a, lost, out) -> CombatResult:
    text = a.headlines.get((lost, out))
    if text is None:
        raise RulesError(f"internal: the rolled fire ({lost} SP, {out} out) is not in the distribution")
    return a.results[text]
