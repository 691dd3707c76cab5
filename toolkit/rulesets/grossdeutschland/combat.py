"""Combat (10.0-10.8, 13.1-13.2, 14.1, 15, 16.0) on the shared :class:`~toolkit.referee.CombatRules`:
attack and defence totals (5.3 supply halvings with their own rounding), artillery in range adding
its attack strength to either side (10.2, 11.1: ``Support("artillery", side, unit=...)``), the odds
rounded in the defender's favour between 1-4 and 5-1, the TEC's DRMs added up (10.1 step 4; a
hexside's only when every attacker crosses it), weather (14.1), the CRT on 2d6 with the net roll
held to 2-12 (rows beyond read the end rows). The hooks say what data cannot: 3d6 at night (13.2)
and across a bridge (10.1 step 6), +1 instead of the water DRM across a bridge (10.8), +1 in the
Evening (13.1), fortification chits by their facing (15.0, 15.1), engineers halving terrain and
fortification DRMs (16.0), HQs and pinned units not attacking (10.0, 11.3), the attackers one
battalion within its activating HQ's range at the attack (6.0, 10.0). Retreats toward the HQ
(10.5) and advances (10.6) are in :mod:`.retreat`."""

from __future__ import annotations

from fractions import Fraction
from math import floor

from ...errors import RulesError
from ...referee import CombatRules, Modifier, Reason, SupportRules
from ...referee.combat_strength import terrain_modifiers
from ...referee.reasons import Code
from .bridges import bridged
from .movement import OMNIDIRECTIONAL        # 15.1: a minefield faces every side

HQ_TYPES = ("hq", "division hq")
DIVISION_HQ = "division hq"
#: Units printed with a white triangle (10.2, 11.1): their ``range`` value.
ARTILLERY = ("artillery", "self-propelled artillery", "rocket artillery")
#: 18.4: the Kursk 2Art stands off map "within two hexes of hex 2328"; its range counts two less.
OFF_MAP = {"kursk-off-map": ("2328", 2)}
WATER = ("stream", "river", "canal")
ENGINEER = "eng"            # the counter mark of Eng and Pioneer units (16.0)

COMBAT = CombatRules(
    rule="10.1", crt="combat_results", attack_value="attack", defence_value="defence",
    context_keys={"activating_hq": (), "overrun": (True, False), "nullified": ()},   # 6.0, 9.4, 15.0
    odds_rule="10.1", below_table="first",         # 10.1 note: below 1-4 is resolved as 1-4, above 5-1 as 5-1
    terrain_rule="10.1", hex_terrain="add", hexside_applies="all",   # 10.1 step 4
    halve_together=True, strength_round="down", strength_rule="5.3",
    attack_status={"low_supply": Fraction(1, 2), "out_of_supply": Fraction(1, 2), "step_loss": Fraction(1, 2)},
    # 9.5: a Leg unit riding tanks is "the same unit" as its carrier: its defence is ignored
    defence_status={"out_of_supply": Fraction(1, 2), "step_loss": Fraction(1, 2), "riding_tanks": Fraction(0)},
    status_round={"low_supply": "up"},             # 5.3: Low Supply "rounded up", Out of Supply "down"
    no_attack_status=("pinned",), status_rule="5.3, 11.3",
    weather_drm={"rainy": 1, "stormy": 2, "snowy": 3}, weather_rule="14.1",
    # 10.2: an artillery unit adds its attack strength to the attack or to the defence; range and
    # the rest of 10.2 are checked by check_support (an off-map battery counts from 2328, 18.4)
    supports={"artillery": SupportRules(rule="10.2", unit_types=ARTILLERY, points_value="attack", range_value=None,
                                        spent_status="fired", adds="strength")},
)


def _bridged(pos, combat) -> list[str]:
    """Attackers attacking across a stream, river or canal hexside crossed by a standing bridge
    (a bridge feature, a road over it or a completed pontoon; a blown bridge is none: 10.8, 9.1,
    12.0, 12.1)."""
    m = pos.map
    out = []
    for u in combat.attackers:
        if u.hex is None or not m.grid.adjacent(u.hex, combat.defender_hex):
            continue
        codes = m.hexside_codes(m.grid.hexside(u.hex, combat.defender_hex))
        if any(c in WATER for c in codes) and bridged(pos, u.hex, combat.defender_hex):
            out.append(u.id)
    return out


def combat_dice(rs, pos, combat) -> str | None:
    """3d6 at night (13.2) or across a bridge hexside (10.1 step 6); else the chart's 2d6."""
    from .ruleset import NIGHT, time_of_day
    if time_of_day(pos) == NIGHT or _bridged(pos, combat):
        return "3d6"
    return None


def attack_refusals(rs, pos, combat) -> list[Reason]:
    """HQs do not attack (10.4 note: an HQ with the attackers is "not contributing"); the
    attackers are of one battalion (6.0, 7.1: battalions "may never be activated together"),
    within its activating HQ's range at the time of the attack (10.0), or of one stack when the
    battalion has no HQ on the map (6.0); reinforcements entering this turn are in range (10.0
    note). ``context["activating_hq"]`` names the HQ that activated them (the Division HQ, 6.0;
    default: the battalion's own HQ)."""
    out = [Reason(Code.CANNOT_ATTACK, "10.0", f"{u.id} is an HQ and does not attack", u.hex, (u.id,))
           for u in combat.attackers if u.type in HQ_TYPES]
    units = [u for u in combat.attackers if u.type not in HQ_TYPES and u.hex is not None]
    battalions = sorted({u.counter.formation or "" for u in units})
    if len(battalions) > 1:
        out.append(Reason(Code.CANNOT_ATTACK, "6.0", f"units of battalions {', '.join(battalions)} attack together; "
                          "one activation moves and fights one battalion (6.0, 7.1)", combat.defender_hex,
                          tuple(u.id for u in units)))
        return out
    if not units:
        return out
    hq, one_stack = activating_hq(pos, rs, units[0], combat.context)
    entering = _entering(pos)
    if one_stack:
        hexes = {u.hex for u in units if u.id not in entering}
        if len(hexes) > 1:
            out.append(Reason(Code.CANNOT_ATTACK, "6.0", f"battalion {battalions[0]} has no HQ on the map: one stack "
                              f"(one hex) is activated, not units of {len(hexes)} hexes", combat.defender_hex,
                              tuple(u.id for u in units)))
        return out
    if hq is None:
        return out
    reach = hq.value(rs.command.range_value)
    for u in units:
        if u.id in entering:
            continue
        distance = pos.map.grid.distance(hq.hex, u.hex)
        if not isinstance(reach, int) or distance > reach:
            out.append(Reason(Code.CANNOT_ATTACK, "10.0", f"{u.id} is {distance} hexes from {hq.id}, beyond its "
                              f"activation range of {reach}, at the time of the attack", u.hex, (u.id,)))
    return out


def activating_hq(pos, rs, unit, context) -> tuple:
    """``(hq, one_stack)``: the HQ whose activation range counts for ``unit``'s battalion (its
    own battalion HQ, or ``context["activating_hq"]``: the Division HQ measured per option
    ``division_hq_range_from``, A8), and whether the battalion, without an HQ on the map, may
    only act as one stack (6.0)."""
    on_map = [u for u in pos.on_map(unit.side) if u.type in HQ_TYPES]
    own = next((u for u in on_map if u.type != DIVISION_HQ and u.counter.formation == unit.counter.formation), None)
    chosen = (context or {}).get("activating_hq")
    if chosen:
        hq = pos.unit(chosen)
        if hq.side != unit.side or hq.type not in HQ_TYPES or hq.hex is None:
            raise RulesError(f"activating_hq {chosen} is not an HQ of the {unit.side} side on the map")
        if hq.type == DIVISION_HQ:
            if rs.option(pos, "division_hq_range_from") == "battalion":
                return own, False
            return hq, False
        if hq.counter.formation != unit.counter.formation:
            raise RulesError(f"activating_hq {chosen} is the HQ of battalion {hq.counter.formation}, not of "
                             f"{unit.counter.formation}: no HQ activates another battalion (6.0)")
        return hq, False
    return own, own is None


def _entering(pos) -> set:
    """Units whose reinforcement turn is the position's (10.0 note: always in range)."""
    scenario = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    if scenario is None or pos.turn is None:
        return set()
    return {u for r in scenario.reinforcements if r.turn == pos.turn for u in r.units}


def check_support(rs, pos, combat, support) -> Reason | None:
    """10.2, 11.1: an artillery unit supports a combat hex within its printed range (counted
    from the next hex to the combat hex included, no line of sight), once a turn (the ``fired``
    status, refused by the shared part), never its own defence or a defence of its own hex, not
    while it attacks in the same combat, not Out of Supply (5.3: flipped to fired), not in an
    overrun (9.4, ``context["overrun"]``); an off-map Kursk 2Art counts from 2328 at its range
    less two (18.4)."""
    unit = pos.unit(support.unit)
    ids = (unit.id,)
    if combat.context.get("overrun"):
        return Reason(Code.SUPPORT_REFUSED, "9.4", "no artillery is added to either side of an overrun", unit.hex, ids)
    if unit in combat.attackers or unit in combat.defenders:
        return Reason(Code.SUPPORT_REFUSED, "10.2", f"{unit.id} takes part in this combat as a unit and cannot also "
                      "add its strength as artillery", unit.hex, ids)
    if support.side == "defender" and unit.hex in combat.defender_hexes:
        return Reason(Code.SUPPORT_REFUSED, "10.2", f"{unit.id} may not add its attack strength to the defence of "
                      "its own hex", unit.hex, ids)
    if unit.status & {"out_of_supply", "step_loss"}:
        return Reason(Code.SUPPORT_REFUSED, "5.3", f"{unit.id} is out of supply: flipped to its fired side until "
                      "supply is restored", unit.hex, ids)
    rng = unit.value("range")
    origin, less = unit.hex, 0
    if origin is None and unit.box in OFF_MAP:
        ref, less = OFF_MAP[unit.box]
        origin = pos.map.grid.parse(ref) if pos.map.grid.parse(ref) in pos.map.grid else None
    if origin is None:
        return Reason(Code.SUPPORT_REFUSED, "10.2", f"{unit.id} is not on the map", None, ids)
    if not isinstance(rng, int):
        return Reason(Code.SUPPORT_REFUSED, "10.2", f"{unit.id} has no artillery range (white triangle)", unit.hex, ids)
    distance = min(pos.map.grid.distance(origin, d) for d in combat.defender_hexes)
    if distance > rng - less:
        off = f" (off map: {rng} less {less}, counted from {pos.map.format(origin)}, 18.4)" if less else ""
        return Reason(Code.SUPPORT_REFUSED, "10.2", f"{unit.id} is {distance} hexes from "
                      f"{pos.map.format(combat.defender_hex)}, beyond its range of {rng - less}{off}", unit.hex, ids)
    return None


def combat_modifiers(rs, pos, combat) -> list[Modifier]:
    """Bridges (10.8), fortifications (15), engineers (16.0), Evening (13.1); the night dice noted (13.2)."""
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
    forts = fortification_modifiers(pos, combat)
    out += forts
    terrain += forts
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


def fortification_modifiers(pos, combat) -> list[Modifier]:
    """15.0, 15.1: each fortification chit in the defender's hex (a marker of a type of
    ``charts.fortifications.drm``) adds its DRM, "exactly like terrain", when every attacker
    next to the hex attacks across one of its green hexsides (``facing:N`` statuses; a minefield
    faces every side); one of each type at most. A chit nullified by a black event chit
    (``context["nullified"]``: its type, or a list of types; 15.0) adds nothing."""
    table = (pos.game.charts.get("fortifications") or {}).get("drm") or {}
    grid = pos.map.grid
    nullified = combat.context.get("nullified") or ()
    nullified = {nullified} if isinstance(nullified, str) else set(nullified)
    out: list[Modifier] = []
    for d in combat.defender_hexes:
        facing = [u for u in combat.attackers if u.hex is not None and grid.adjacent(u.hex, d)]
        seen = set()
        for chit in pos.at(d):
            if not chit.counter.is_marker or chit.type not in table or chit.type in seen:
                continue
            seen.add(chit.type)
            name = chit.counter.name
            if chit.type in nullified:
                out.append(Modifier("note", 0, "15.0", f"{name} nullified by an event chit", d, (chit.id,), "attacker"))
                continue
            if chit.type not in OMNIDIRECTIONAL:
                across = [u.id for u in facing if f"facing:{grid.direction(d, u.hex)}" in chit.status]
                if not facing or len(across) < len(facing):
                    out.append(Modifier("note", 0, "15.1", f"{name}: not every attacker attacks across its green "
                                        "hexside, no DRM", d, (chit.id,), "defender"))
                    continue
            value = int(str(table[chit.type]).replace("+", ""))
            out.append(Modifier("drm", value, "15.0", f"defender with a {name.lower()}: +{value} on the dice", d,
                                (chit.id,), "defender"))
    return out
