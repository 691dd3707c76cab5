"""Combat (1.3, 9, 13.2) on the shared :class:`~toolkit.referee.CombatRules`: strengths added per
hex before halving and rounded down, the odds column rounded down, the TEC's shifts added up,
the attacker's die by side (German d6, Soviet d10; 9.2) from game.yaml ``charts.combat_results``.
The hooks here say what data cannot: the 9.3.6 legality after terrain shifts, the zero defence of
9.3.7, Stukas (9.3.4), Timoshenko (9.3.5), the German turn-1 bonus (9.3.5, 4.1.2) and the Minsk
+1 (14.0). Fixed-column attacks (13.2, 13.3) are :mod:`.fixed`; retreats and advances :mod:`.retreat`."""

from __future__ import annotations

from fractions import Fraction
from math import floor

from ...referee import CombatRules, Modifier, Reason, chart_of
from ...referee.combat_strength import strengths, terrain_modifiers
from ...referee.reasons import Code

COMBAT = CombatRules(
    rule="9", crt="combat_results", attack_value="attack", defence_value="defence",
    context_keys={"stuka": ("attack", "defence"), "timoshenko": (True, False), "minsk": (True, False),   # 9.3.4-5, 14
                  "activated": (), "fixed": ("art", "rocket", "bomber")},                   # 9.1.1, 13.2-13.3
    strength_fallback="combat",                 # 2.2.2: non-motorised units have one strength
    odds_rule="9.3.2", below_table="refuse",    # 9.3.6: no attack below 1-1 (no lower column)
    terrain_rule="9.3.3", hex_terrain="add",    # 9.3.3: "terrain effects are cumulative"
    halve_together="hex", strength_round="down", strength_rule="1.3, 9.3.1",
    attack_status={"out_of_supply": Fraction(1, 2), "isolated": Fraction(1, 2)},   # 9.3.1, 10.3
    defence_status={"isolated": Fraction(1, 2)}, status_rule="9.3.1",
)


def halve(value: int | Fraction) -> int:
    """Half, rounded down (1.3): 5 -> 2."""
    return floor(Fraction(value) / 2)


def quarter(value: int | Fraction) -> int:
    """A quarter, rounded down (1.3): 3 -> 0."""
    return floor(Fraction(value) / 4)


def art_attacks(roll: int) -> int:
    """Soviet artillery attacks from the ART chit's d6: half the roll, rounded down (13.2)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1-6, not {roll}")
    return halve(roll)


def _terrain_shift(combat) -> int:
    return sum(int(m.value) for m in terrain_modifiers(combat) if m.kind == "shift")


def attack_refusals(rs, pos, combat) -> list[Reason]:
    """9.0, 12.1: an HQ alone in a hex cannot be attacked (it is overrun by moving into it);
    9.1.1: with ``context["activated"]`` (the ids a chit activated) only those attack; 9.1.1,
    9.1.4: one attack per unit and per hex in a Combat Segment, and 13.3: a Stuka from the
    airfields (:mod:`.limits`); 9.3.6: below 1-1 after the terrain shifts (before the others)
    the attack is not possible."""
    if not combat.defenders:
        return []
    from .limits import segment_refusals, stuka_refusals
    limits = segment_refusals(pos, combat) + stuka_refusals(pos, combat.attackers[0].side, combat.context,
                                                            combat.defender_hex)
    return limits + _refusals(rs, pos, combat)


def _refusals(rs, pos, combat) -> list[Reason]:
    active = combat.context.get("activated")
    if active is not None:                      # 9.1.1: the units the drawn chit activated (referee chit)
        idle = [u.id for u in combat.attackers if u.id not in set(active)]
        if idle:
            return [Reason(Code.CANNOT_ATTACK, "9.1.1", f"{', '.join(idle)} not activated: non-activated units "
                           "cannot attack, even when adjacent to enemy units", combat.defender_hex, tuple(idle))]
    if all(u.counter.kind == "hq" for u in combat.defenders):
        return [Reason(Code.NO_DEFENDER, "12.1", "an HQ alone in a hex cannot be attacked (9.0, 12.1); a combat "
                       "unit overruns it by entering its hex", combat.defender_hex,
                       tuple(u.id for u in combat.attackers))]
    attack, defence, _, _ = strengths(combat)
    if defence <= 0:
        return []                               # 9.3.7: the 10-1 column, terrain ignored
    start = chart_of(pos.game, rs.combat.crt).column_of(attack, defence)
    shift = _terrain_shift(combat)
    if start is not None and start + shift < 0:
        return [Reason(Code.ODDS_TOO_LOW, "9.3.6", f"{attack}:{defence} with {-shift} terrain shift(s) left is below "
                       "1-1: the attack is not possible", combat.defender_hex, tuple(u.id for u in combat.attackers))]
    return []


def combat_modifiers(rs, pos, combat) -> list[Modifier]:
    """Shifts after terrain: zero defence (9.3.7), Stuka (9.3.4; context ``stuka``: "attack" or
    "defence"), Timoshenko (9.3.5; context ``timoshenko``), the German turn-1 bonus (9.3.5); the
    Minsk +1 on Soviet attacks (14.0; context ``minsk``)."""
    out: list[Modifier] = []
    if not combat.defenders:
        return out
    _, defence, _, _ = strengths(combat)
    shift = _terrain_shift(combat)
    if defence <= 0 and shift:
        out.append(Modifier("shift", -shift, "9.3.7", "defence 0: the 10-1 column, terrain shifts ignored",
                            combat.defender_hex, (), "defender"))
    side = combat.attackers[0].side
    stuka = combat.context.get("stuka")
    if stuka not in (None, "attack", "defence"):
        from ...errors import RulesError
        raise RulesError(f"stuka is 'attack' or 'defence', not {stuka!r}")
    if stuka == "attack" and side == "german":
        out.append(Modifier("shift", 2, "9.3.4", "Stuka with the German attack: 2 right", None, (), "attacker"))
    if stuka == "defence" and side == "soviet":
        out.append(Modifier("shift", -2, "9.3.4", "Stuka with the German defence: 2 left", None, (), "defender"))
    if combat.context.get("timoshenko") and side == "soviet":
        out.append(Modifier("shift", 1, "9.3.5", "Timoshenko activation: 1 right", None, (), "attacker"))
    if combat.context.get("minsk") and side == "soviet":
        out.append(Modifier("drm", 1, "14.0", "Minsk Pocket escapees: +1 on the Soviet die (a natural 9 or 10 then "
                            "draws an elite unit and rolls again, 9.4.3: the roll that counts is 1-8, a d8 here)",
                            None, (), "attacker"))
    if pos.turn == 1 and side == "german":
        out.append(Modifier("shift", 2, "9.3.5, 4.1.2", "German attack on turn 1: 2 right, after all others",
                            None, (), "attacker"))
    return out


def combat_dice(rs, pos, combat) -> str | None:
    """14.0 with 9.4.3: under the Minsk +1 a Soviet natural 9 or 10 draws an elite unit and rolls
    again (taken as a reroll, as the chart's 10), so the roll that counts is uniform on 1-8: a d8
    (plus the +1 of :func:`combat_modifiers`). Else the chart's dice."""
    if combat.context.get("minsk") and combat.attackers and combat.attackers[0].side == "soviet":
        return "d8"
    return None


def elimination_box(unit) -> str | None:
    """Where an eliminated combat unit goes (9.4.2): German motorised units to the Eliminated
    Motorised box; Soviet tan units not Isolated to the Soviet Reserve; red units (not PVO) not
    Isolated back to the Elite Division Cup; PVO, "*" and Isolated Soviet units out of the game
    (None); German non-motorised units out of the game too (notes 14.4.8: the text is silent)."""
    if unit.side == "german":
        return "eliminated-motorised" if unit.counter.unit_class == "motorised" else None
    if "isolated" in unit.status or unit.type == "pvo" or unit.counter.front.get("reinf") == "*":
        return None
    return "elite-cup" if "red" in unit.counter.marks else "soviet-reserve"


def send_eliminated(before, outcome) -> None:
    """Put the combat units ``outcome`` eliminated where 9.4.2 sends them (apply_combat's hook)."""
    pos = outcome.position
    for uid in outcome.eliminated:
        unit = pos.unit(uid)
        if unit.counter.kind != "unit" or unit.hex is not None:
            continue
        box = elimination_box(before.unit(uid))
        unit.box = box if box and pos.map.box(box) is not None else None
        outcome.log.append(f"{uid} to {unit.box or 'out of the game'} (9.4.2)")
