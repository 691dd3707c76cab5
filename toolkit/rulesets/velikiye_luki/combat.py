"""Combat (6, 7.6, 8.3, 10, 12, 13.2.3): the CombatRules data and the column shifts of 6.2 that
data cannot say (combined arms, anti-tank, armoured bonus, engineers, concentric attack,
divisional integrity, the encirclement penalty), HQ-allocated support (1.4) and the 2M limit."""

from __future__ import annotations

from fractions import Fraction

from ...referee import CombatRules, Modifier, RandomShift, Reason, SupportRules, board_of, zoc_owners
from ...referee.reasons import Code
from .city import encircled, velikiye_luki_hexes

INFANTRY = ("infantry", "ski", "security", "motorcycle", "motorised", "airborne", "engineer")   # 6.2.3 "of any type"
ARMOUR = ("armour", "assault gun")                                  # 6.2.3 armoured units (or assault cannons)
MECH_BRIGADE = "mechanised"                                        # 1.5: infantry + armour built in (Soviet)
ANTI_TANK = "anti-tank"
SPECIAL_CITY = ("engineer", "flame")                               # 6.2.6, 1.5
#: 6.2.2: the formations whose regiments earn divisional integrity
INTEGRITY = ("20 Mot", "1 SS Bde", "291 ID", "6 Luft", "205 ID", "331 ID")
#: 1.4: HQs that may support every friendly unit; the others only units of their colour code
HQ_ALL = ("hq-3c", "hq-chevalerie", "hq-wohler")

COMBAT = CombatRules(
    rule="6", crt="combat_results", attack_value="combat", defence_value="combat", context_keys={},
    odds_rule="6.3",
    # estimated: 6.3 bounds the *final* ratio to 1:3..8:1; raw odds below 1:3 are read at 1:3
    below_table="first",
    terrain_rule="6.2.1", hex_terrain="best", hexside_applies="any",   # 6.2.1: the defender's best
    attack_status={"isolated": Fraction(1, 2)}, no_attack_status=("unsupplied",),
    defence_status={"unsupplied": Fraction(1, 2)}, status_rule="8.3",
    halve_together=False, strength_round="up", strength_rule="8.3",    # 8.3: "rounded up"
    random_shifts=(RandomShift("quality", chart="quality", value="quality", rule="6.2.8", dice="1d6"),),
    supports={
        "artillery": SupportRules(rule="6.2.7", shift=1, max_points=2),     # via an HQ (1.4), 2 a combat
        "air": SupportRules(rule="10.1", shift=1, max_points=1),            # via an HQ (1.4), 1 a combat
        "mrl": SupportRules(rule="1.5", shift=1, unit_types=("rocket artillery",), range_value="range",
                            spent_status="fired"),                          # on the map, range 2, once a turn
    },
)


def _side_units(combat, role):
    return combat.attackers if role == "attacker" else combat.defenders


def _infantry_with_armour(pos, units) -> bool:
    """6.2.3: an infantry unit stacked with an armoured unit, or a Soviet mechanised brigade."""
    if any(u.type == MECH_BRIGADE and u.side == "soviet" for u in units):
        return True
    for u in units:
        if u.type in INFANTRY and any(o.type in ARMOUR and o.side == u.side for o in pos.at(u.hex)):
            return True
    return False


def _armoured(units) -> list:
    return [u for u in units if u.type in ARMOUR or (u.type == MECH_BRIGADE and u.side == "soviet")]


def combat_modifiers(rs, pos, combat) -> list[Modifier]:
    """The shifts of 6.2.2-6.2.8 and 7.6 (one of each type per side; + is the attacker's)."""
    out: list[Modifier] = []
    dh = combat.defender_hex
    for role, sign in (("attacker", 1), ("defender", -1)):
        mine, theirs = _side_units(combat, role), _side_units(combat, "defender" if role == "attacker" else "attacker")
        if _infantry_with_armour(pos, mine):
            out.append(Modifier("shift", sign, "6.2.3", f"{role}: infantry with armour", mine[0].hex,
                                tuple(u.id for u in mine if u.type in INFANTRY + ARMOUR + (MECH_BRIGADE,)), role))
        if role == "defender" and _armoured(theirs):
            at = [u for u in mine if (u.type in INFANTRY and ("at-dot" in u.counter.marks or any(
                o.type == ANTI_TANK and o.side == u.side for o in pos.at(u.hex))))]
            if at:
                out.append(Modifier("shift", -1, "6.2.4", "defender: infantry with anti-tank against armour", dh,
                                    tuple(u.id for u in at), role))
        starred = [u for u in mine if "*" in u.counter.marks and
                   (u.type in ARMOUR or (role == "defender" and u.type == ANTI_TANK))]
        enemy_armour = [u for u in theirs if u.type in ARMOUR or (u.type == MECH_BRIGADE and u.side == "soviet")]
        if starred and enemy_armour and not any("*" in u.counter.marks for u in enemy_armour):
            out.append(Modifier("shift", sign, "6.2.5", f"{role}: armoured bonus against armour without it",
                                starred[0].hex, tuple(u.id for u in starred), role))
        codes = set(pos.map.features(dh)) | {pos.map.terrain(dh)}
        special = [u for u in mine if u.type in SPECIAL_CITY]
        if special and codes & {"city", "village"}:
            out.append(Modifier("shift", sign, "6.2.6", f"{role}: engineer or flame-thrower in a city or village "
                                "combat", special[0].hex, tuple(u.id for u in special), role))
    out += _integrity(pos, combat)
    if _concentric(pos, rs, combat):
        out.append(Modifier("shift", 1, "6.2.8", "concentric attack: the defender is surrounded by the attacker's "
                            "units and zones of control", dh, (), "attacker"))
    if combat.attacker_side == "soviet" and any(u.side == "german" for u in combat.defenders) and encircled(pos, rs):
        city = velikiye_luki_hexes(pos)
        ring = [u.id for u in combat.attackers if any(pos.map.grid.adjacent(u.hex, c) for c in city)]
        if ring:
            out.append(Modifier("shift", -1, "7.6", "Soviet units of the Velikiye Luki encirclement attack a German "
                                "unit", None, tuple(ring), "defender"))
    return out


def _integrity(pos, combat) -> list[Modifier]:
    """6.2.2: every regiment of an eligible division or brigade attacks the same hex (battalions
    do not count); Soviet 2M: at least three brigades, only without the 13.2.3 limit."""
    out = []
    ids = {u.id for u in combat.attackers}
    for formation in sorted({u.counter.formation for u in combat.attackers if u.counter.formation}):
        if formation in INTEGRITY:
            regiments = [c.id for c in pos.game.counters.values() if c.formation == formation
                         and c.kind == "unit" and c.size not in ("II", "I")]
            if regiments and all(r in ids for r in regiments):
                out.append(Modifier("shift", 1, "6.2.2", f"divisional integrity: every regiment of {formation}",
                                    None, tuple(regiments), "attacker"))
        elif formation == "2 Mech" and not combat.rs.option(pos, "mech_corps_limit"):
            brigades = [u.id for u in combat.attackers if u.counter.formation == formation and u.counter.size == "X"]
            if len(brigades) >= 3:
                out.append(Modifier("shift", 1, "6.2.2", "divisional integrity: three 2M brigades", None,
                                    tuple(brigades), "attacker"))
    return out


def _concentric(pos, rs, combat) -> bool:
    """6.2.8: every hex around the defender holds an attacking unit or is in an attacking unit's
    ZOC (a friendly unit does not negate it for this, 4.2.1). Ruling: "the attacker's units" are
    the units of this attack, as Combat 2 (6.5.2) gets no concentric shift though every hex
    around Meyer is in a Soviet ZOC."""
    ids = {u.id for u in combat.attackers}
    board = board_of(pos.map)
    owners = zoc_owners(pos, rs, combat.attacker_side)
    for n in pos.map.grid.neighbours(combat.defender_hex):
        if n not in pos.map.grid:
            return False
        held = any(u.id in ids for u in pos.at(n))
        if not held and not (owners[board.index[n]] & ids):
            return False
    return True


def attack_refusals(rs, pos, combat) -> list[Reason]:
    """13.2.3 (option ``mech_corps_limit``): at most two 2M units in one combat."""
    if not rs.option(pos, "mech_corps_limit"):
        return []
    two_m = [u.id for u in combat.attackers if u.counter.formation == "2 Mech" and u.type != "hq"]
    if len(two_m) > 2:
        return [Reason(Code.CANNOT_ATTACK, "13.2.3", f"at most two 2M units may attack together, not "
                       f"{len(two_m)} ({', '.join(two_m)})", None, tuple(two_m))]
    return []


def check_support(rs, pos, combat, support) -> Reason | None:
    """1.4: artillery points and air missions are allocated through an HQ of the side giving them,
    within its range of the defender hex (estimated: the text does not say where range is measured),
    not flipped (all its supports used), and of the colour of a supported unit (HQ 3C,
    Chevalerie and Wöhler support every unit)."""
    if support.kind not in ("artillery", "air"):
        return None
    if not support.via:
        return Reason(Code.SUPPORT_REFUSED, "1.4", f"{support.kind} support is allocated through an HQ: "
                      f"name it ({support.kind}:N@HQ)")
    hq = pos.unit(support.via)
    units = _side_units(combat, support.side)
    side = units[0].side if units else None
    why = None
    if hq.type != "hq" or hq.side != side:
        why = f"{hq.id} is not an HQ of the {support.side}"
    elif hq.hex is None:
        why = f"{hq.id} is not on the map"
    elif "used" in hq.status:
        why = f"{hq.id} has used all its supports this turn"
    elif pos.map.grid.distance(hq.hex, combat.defender_hex) > int(hq.value("range", 0) or 0):
        why = f"{hq.id} (range {hq.value('range')}) is out of range of {pos.map.format(combat.defender_hex)}"
    elif hq.id not in HQ_ALL and hq.counter.band and not any(u.counter.band == hq.counter.band for u in units):
        why = f"{hq.id} supports only units of its colour code"
    if why:
        return Reason(Code.SUPPORT_REFUSED, "1.4", why, hq.hex, (hq.id,))
    return None


def _armour_or_anti_tank(u) -> bool:
    """6.4: an armoured unit (tanks, assault guns, a Soviet mechanised brigade) or an anti-tank
    unit (ruling: an infantry unit with the anti-tank dot of 6.2.4 is infantry, not anti-tank)."""
    return u.type in ARMOUR + (ANTI_TANK,) or (u.type == MECH_BRIGADE and u.side == "soviet")


def first_loss(rs, pos, role, units, enemies):
    """6.4: who takes a side's first step loss. With armoured or anti-tank units on both sides,
    one of the side's armoured or anti-tank units, unless every one of them has the armoured
    bonus (the exception; ruling: with one bonus-less armoured unit in the stack the loss still
    goes to armour, any of it); else "the most important unit in terms of steps" (the most
    steps left; a tie is the owner's choice, as the rule says)."""
    units = [u for u in units if u.hex is not None]
    if not units:
        return None
    armour = [u for u in units if _armour_or_anti_tank(u)]
    if armour and any(_armour_or_anti_tank(e) for e in enemies) and \
            not all("*" in u.counter.marks for u in armour):
        return ([u.id for u in armour], "6.4", "armoured or anti-tank units are on both sides and "
                f"{'none' if len(armour) == 1 else 'not every one'} of the {role}'s has the armoured bonus")
    most = max(u.steps for u in units)
    return ([u.id for u in units if u.steps == most], "6.4",
            f"the first loss is taken by the most important unit in steps ({most})")


def retreat_to_loss(rs, pos, role, units) -> str | None:
    """6.4: "For a unit of quality A or B, the mandatory retreat can be converted to a loss. In
    this case, if units of lesser quality are stacked with this unit, they do not retreat
    either", and "for a unit of any quality in a city or village" (the stack's hex)."""
    if not units or units[0].hex is None:
        return None
    codes = {pos.map.terrain(units[0].hex), *pos.map.features(units[0].hex)}
    if codes & {"city", "village"} or any(str(u.value("quality") or "") in ("A", "B") for u in units):
        return "6.4"
    return None

