"""Combat (10.0-10.8, 13.1-13.2, 14.1, 16.0) on the shared :class:`~toolkit.referee.CombatRules`:
attack and defence totals (5.3 supply halvings with their own rounding), the odds rounded in the
defender's favour between 1-4 and 5-1, the TEC's DRMs added up (10.1 step 4; a hexside's only when
every attacker crosses it), weather (14.1), the CRT on 2d6 with the net roll held to 2-12 (rows
beyond read the end rows). The hooks say what data cannot: 3d6 at night (13.2) and across a
bridge (10.1 step 6), +1 instead of the water DRM across a bridge (10.8), +1 in the Evening
(13.1), engineers halving terrain DRMs (16.0), HQs and pinned units not attacking (10.0, 11.3)."""

from __future__ import annotations

from fractions import Fraction
from math import floor

from ...referee import CombatRules, Modifier, Reason
from ...referee.combat_strength import terrain_modifiers
from ...referee.reasons import Code

HQ_TYPES = ("hq", "division hq")
WATER = ("stream", "river", "canal")
ENGINEER = "eng"            # the counter mark of Eng and Pioneer units (16.0)

COMBAT = CombatRules(
    rule="10.1", crt="combat_results", attack_value="attack", defence_value="defence",
    odds_rule="10.1", below_table="first",         # 10.1 note: below 1-4 is resolved as 1-4, above 5-1 as 5-1
    terrain_rule="10.1", hex_terrain="add", hexside_applies="all",   # 10.1 step 4
    halve_together=True, strength_round="down", strength_rule="5.3",
    attack_status={"low_supply": Fraction(1, 2), "out_of_supply": Fraction(1, 2), "step_loss": Fraction(1, 2)},
    defence_status={"out_of_supply": Fraction(1, 2), "step_loss": Fraction(1, 2)},
    status_round={"low_supply": "up"},             # 5.3: Low Supply "rounded up", Out of Supply "down"
    no_attack_status=("pinned",), status_rule="5.3, 11.3",
    weather_drm={"rainy": 1, "stormy": 2, "snowy": 3}, weather_rule="14.1",
)


def _bridged(pos, combat) -> list[str]:
    """Attackers attacking across a stream, river or canal hexside crossed by a bridge (a bridge
    feature or a road over it; 10.8, 9.1)."""
    m = pos.map
    links = m.line_links()
    out = []
    for u in combat.attackers:
        if u.hex is None or not m.grid.adjacent(u.hex, combat.defender_hex):
            continue
        side = m.grid.hexside(u.hex, combat.defender_hex)
        codes = m.hexside_codes(side)
        if not any(c in WATER for c in codes):
            continue
        bridge = any(c in m.hexside_types and m.hexside_types[c].bridge for c in codes)
        if bridge or side in links:
            out.append(u.id)
    return out


def combat_dice(rs, pos, combat) -> str | None:
    """3d6 at night (13.2) or across a bridge hexside (10.1 step 6); else the chart's 2d6."""
    from .ruleset import NIGHT, time_of_day
    if time_of_day(pos) == NIGHT or _bridged(pos, combat):
        return "3d6"
    return None


def attack_refusals(rs, pos, combat) -> list[Reason]:
    """HQs do not attack (10.4 note: an HQ with the attackers is "not contributing")."""
    return [Reason(Code.CANNOT_ATTACK, "10.0", f"{u.id} is an HQ and does not attack", u.hex, (u.id,))
            for u in combat.attackers if u.type in HQ_TYPES]


def combat_modifiers(rs, pos, combat) -> list[Modifier]:
    """Bridges (10.8), engineers (16.0), Evening (13.1); the night dice noted (13.2)."""
    from .ruleset import EVENING, NIGHT, time_of_day
    out: list[Modifier] = []
    if not combat.defenders:
        return out
    terrain = [t for t in terrain_modifiers(combat) if t.kind == "drm"]
    bridged = _bridged(pos, combat)
    if bridged:
        for t in terrain:
            if t.units and any(c in WATER for u in t.units for c in combat.crossing.get(u, ())):
                out.append(Modifier("drm", -int(t.value), "10.8", "an attacker crosses a bridge: no water DRM",
                                    t.hex, t.units, "defender"))
                terrain.remove(t)
                break
        out.append(Modifier("drm", 1, "10.8", f"{', '.join(bridged)} attack across a bridge: +1",
                            combat.defender_hex, tuple(bridged), "defender"))
    if any(ENGINEER in u.counter.marks for u in combat.attackers):
        for t in terrain:
            half = floor(Fraction(t.value) / 2)
            if half != t.value:
                out.append(Modifier("drm", half - int(t.value), "16.0",
                                    f"engineers halve {t.text.split(':')[0]}: {t.value} -> {half}", t.hex,
                                    tuple(u.id for u in combat.attackers if ENGINEER in u.counter.marks), "attacker"))
    tod = time_of_day(pos)
    if tod == EVENING:
        out.append(Modifier("drm", 1, "13.1", "Evening: +1", None, (), "defender"))
    if tod == NIGHT or bridged:
        why = "night (13.2)" if tod == NIGHT else "across a bridge hexside (10.1 step 6)"
        out.append(Modifier("note", 0, "13.2" if tod == NIGHT else "10.1", f"3d6 instead of 2d6: {why}"))
    return out
