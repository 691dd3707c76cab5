"""Combat (10-13): the odds, column shifts and support conditions the worked examples of
11-13 and 17.0 check."""

from __future__ import annotations

from fractions import Fraction

from ...hexes import Hex
from ...referee import CombatRules, Modifier, Reason, SupportRules
from ...referee.reasons import Code
from .features import active_strongpoint_owner
from .supply import supply
from .zoc import in_enemy_zoc

#: CRT columns left to right: the columns the text names (1-3, 1-2, 3-2, 2-1, 5-2, 3-1, 5-1, 6-1,
#: 8-1) plus 1-1, 4-1 and 7-1, which the rounding and shift examples need (estimated).
COLUMNS = ("1-3", "1-2", "1-1", "3-2", "2-1", "5-2", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1")
_RATIO = {c: Fraction(int(c.split("-")[0]), int(c.split("-")[1])) for c in COLUMNS}


def initial_odds(attack: int, defence: int) -> str | None:
    """The CRT column of ``attack`` : ``defence`` rounded in the defender's favour (11.52);
    odds above 8-1 use 8-1; None when worse than 1-3 (no column)."""
    if defence <= 0:
        return COLUMNS[-1]
    ratio = Fraction(attack, defence)
    best = None
    for c in COLUMNS:
        if _RATIO[c] <= ratio:
            best = c
    return best


def attack_allowed(attack: int, defence: int, rs=None) -> Reason | None:
    """None if the initial odds may be declared (11.17, 11.31; option ``minimum_odds``)."""
    if rs is None:
        from .ruleset import RULESET as rs
    floor_ = Fraction(1, 4) if rs.options["minimum_odds"] == "1-4" else Fraction(1, 3)
    if defence and Fraction(attack, defence) < floor_:
        return Reason(Code.CUSTOM, "11.31" if floor_ == Fraction(1, 3) else "12.12",
                      f"initial odds {attack}:{defence} are worse than {rs.options['minimum_odds']}")
    return None


def support_shifts(points: int) -> int:
    """Columns a side's artillery + CAS support points give on the Combat Support Chart (13.23):
    1 point one column and 3 points two (13.2 example, 17.0); 2 points one column (estimated)."""
    return 0 if points <= 0 else 1 if points <= 2 else 2


def final_column(attack: int, defence: int, shifts: int) -> tuple[str, int]:
    """``(column, die roll modifier)`` after ``shifts`` (right positive), net shift capped at
    three columns (11.52); above 8-1 starts at 8-1 (11.52 note); below 1-3 is the 1-3 column
    with +1 on the die (12.12, a flat +1 however far below)."""
    start = initial_odds(attack, defence)
    i = COLUMNS.index(start) if start else -1
    i += max(-3, min(3, shifts))
    if i < 0:
        return COLUMNS[0], 1
    return COLUMNS[min(i, len(COLUMNS) - 1)], 0


def halved_attack(supplied: list[int], halved: list[int]) -> int:
    """Attack strength with the halved units' total halved, fraction dropped (3.51c, 6.42)."""
    return sum(supplied) + sum(halved) // 2


def bomber_may_support(pos, defender_hexes: list[Hex]) -> bool:
    """Bombers give CAS only where a Defender hex gives a terrain left shift or holds an
    airfield, town or village (13.25); an active Strongpoint is such terrain (17.0)."""
    types = pos.map.terrain_types
    for h in defender_hexes:
        codes = [pos.map.terrain(h), *pos.map.features(h)]
        if any(c in ("airfield", "town", "village") for c in codes):
            return True
        if any((types[c].combat.get("shift") or 0) < 0 for c in codes if c in types):
            return True
        if active_strongpoint_owner(pos, h):
            return True
    return False


def artillery_may_fire(pos, rs, unit_id: str, defender_hexes: list[Hex],
                       attacking: bool = True) -> Reason | None:
    """None if the artillery unit may give Fire Support to this combat (10.13, 10.18, 10.32)."""
    unit = pos.unit(unit_id)
    grid = pos.map.grid
    ids = (unit.id,)
    rng = unit.counter.front.get("range") or 0
    if min(grid.distance(unit.hex, h) for h in defender_hexes) > rng:
        return Reason(Code.CUSTOM, "10.13a", f"{unit.id} (range {rng}) is out of range of the Defender hex",
                      unit.hex, ids)
    if "fired" in unit.status:
        return Reason(Code.CUSTOM, "10.13b", f"{unit.id} is Fired until the Recovery Segment", unit.hex, ids)
    if unit.id not in supply(pos, unit.side, rs).supplied:
        return Reason(Code.CUSTOM, "10.13c", f"{unit.id} is out of supply", unit.hex, ids)
    if in_enemy_zoc(pos, rs, unit.side, unit.hex):
        adjacent = all(grid.distance(unit.hex, h) == 1 for h in defender_hexes)
        if not (attacking and adjacent and rs.options["artillery_in_zoc_supports_adjacent"]):
            return Reason(Code.CUSTOM, "10.13e", f"{unit.id} is in an enemy ZOC", unit.hex, ids)
    return None


def major_river_benefit(pos, attackers: dict[Hex, list[str]], defender_hexes: list[Hex]) -> bool:
    """True if the defender gets the major-river hexside benefit (11.22b): one Defender hex faces
    only non-artillery attackers coming across a major river."""
    grid, m = pos.map.grid, pos.map
    for d in defender_hexes:
        facing = [a for a, ids in attackers.items() if grid.adjacent(a, d)
                  and any(pos.unit(u).type not in ("artillery", "rocket artillery") for u in ids)]
        if facing and all("major_river" in m.hexside_codes(grid.hexside(a, d)) for a in facing):
            return True
    return False



def defender_must_retreat(result_has_retreat: bool, attackers_left: int) -> bool:
    """12.38: no defender retreat when no attacking unit is left that could occupy the hex."""
    return result_has_retreat and attackers_left > 0



def combat_rules(minimum_odds: str = "1-3") -> CombatRules:
    """The CombatRules of 11-13 (CRT and Combat Support Chart in game.yaml, estimated)."""
    return CombatRules(
        rule="11", crt="combat_results", attack_value="attack", defence_value="defence", context_keys={},
        ranged_types=("rocket artillery",), range_value="range",   # 10.17b: adds attack strength from range
        across_prohibited=False,                                     # 11.24
        odds_rule="11.52", below_table="below", minimum_odds=minimum_odds,
        minimum_rule="11.31" if minimum_odds == "1-3" else "12.12",
        max_shift=3, shift_rule="11.52", below_drm=1,                # 11.52: net 3 columns; 12.12: 1-3 and +1
        terrain_rule="11.22", hex_terrain="best", hexside_applies="all",   # 11.22a, 11.22b
        multi_hex="all-adjacent", multi_hex_rule="11.15", multi_hex_not_weathers=("mud",),   # 11.13, 11.15b, 11.26a
        halve_together=True, strength_round="down", strength_rule="3.51",  # 3.51c: total, halve, drop the fraction
        attack_status={"out_of_supply": Fraction(1, 2)}, status_shift={"out_of_supply": 1}, status_rule="6.4",
        supports={
            # Fired / Flown only by a Special Result of their side, the owner choosing which (12.23,
            # 10.41, 13.14); an air unit flies as many missions as it likes until then (13.11)
            "artillery": SupportRules(rule="10.15", chart="combat_support", unit_types=("artillery",),
                                      range_value="range", points_value="support", spent_status="fired",
                                      spent_on="special", spent_rule="10.41"),
            "air": SupportRules(rule="13.23", chart="combat_support", unit_types=("air",), range_value=None,
                                points_value="support", spent_status="flown", spent_on="special",
                                spent_rule="13.14"),
        },
        special_rule="12.23",
    )


def combat_status(rs, pos, unit, role, combat) -> set:
    """Supply is judged at the moment of combat (6.13, 6.41): ``out_of_supply`` when the unit
    traces no Supply Route now (defenders may use the constructed airfield, 6.35)."""
    defending = frozenset(u.id for u in combat.defenders) if role == "defender" else frozenset()
    supplied = pos.cached("ds-combat-supply", rs, (unit.side, defending),
                          lambda: supply(pos, unit.side, rs, defending).supplied)
    status = set(unit.status)
    if unit.id not in supplied and unit.type != "air":
        status.add("out_of_supply")
    return status


def combat_modifiers(rs, pos, combat) -> list:
    """14.21: an active Strongpoint in the Defender hex held by the defender shifts 1 left, on top
    of the other terrain."""
    for d in combat.defender_hexes:
        owner = active_strongpoint_owner(pos, d)
        if owner and any(u.side == owner and u.hex == d for u in combat.defenders):
            return [Modifier("shift", -1, "14.21", "defender in an active Strongpoint: 1 column left", d, (),
                             "defender")]
    return []


def check_support(rs, pos, combat, support) -> Reason | None:
    """Artillery Fire Support (10.13: range, not Fired, supplied, enemy ZOC) and Close Air Support
    (13.15: none in Storm; 13.25: Bombers only against terrain shifting left, towns, villages,
    airfields and Strongpoints)."""
    unit = pos.unit(support.unit) if support.unit else None
    if unit is None:
        return None
    if support.kind == "artillery":
        return artillery_may_fire(pos, rs, unit.id, list(combat.defender_hexes), attacking=support.side == "attacker")
    if support.kind == "air":
        if "storm" in pos.current_weather:
            return Reason(Code.SUPPORT_REFUSED, "13.15", "no air missions in a Storm", None, (unit.id,))
        if "B" in unit.counter.marks and not bomber_may_support(pos, list(combat.defender_hexes)):
            return Reason(Code.SUPPORT_REFUSED, "13.25", f"{unit.id} is a Bomber: it supports only against a "
                          "hex with a terrain left shift, an airfield, town, village or Strongpoint", None, (unit.id,))
    return None


def attack_refusals(rs, pos, combat) -> list:
    """11.41: only one Soviet armor unit per hex attacks, unless every attacking armor unit
    attacks from a clear hex into a clear Defender hex (village or road allowed) and not
    across a river or major river. 10.42, 10.13b: Fired rocket artillery does not attack."""
    out = [Reason(Code.CANNOT_ATTACK, "10.42", f"{u.id} is Fired until the Recovery Segment (10.13b, 10.43)",
                  u.hex, (u.id,)) for u in combat.attackers if u.type == "rocket artillery" and "fired" in u.status]
    by_hex: dict = {}
    for u in combat.attackers:
        if u.side == "soviet" and u.type == "armor":
            by_hex.setdefault(u.hex, []).append(u.id)
    m = pos.map

    def clear(h):
        return m.terrain(h) == "clear" and not (set(m.features(h)) - {"village"})
    for h, ids in by_hex.items():
        crossing = set(combat.crossing.get(ids[0], ())) & {"river", "major_river"}
        if len(ids) > 1 and (crossing or not (clear(h) and all(clear(d) for d in combat.defender_hexes))):
            out.append(Reason(Code.CANNOT_ATTACK, "11.41", f"only one Soviet armor unit per hex may attack "
                              f"({', '.join(ids)} in {m.format(h)})", h, tuple(ids)))
    return out


def after_combat(rs, before, outcome, assessment) -> None:
    """Artillery turned to Fired by a combat, not by a Special Result: rocket artillery after
    each use (10.42), an artillery unit attacked alone in its hex whatever the result (10.22).
    Nothing when a Retreat Before Combat passed (11.42: there was no combat)."""
    if outcome.before_combat is not None and outcome.before_combat.passed:
        return
    pos = outcome.position
    flips = [(u, "10.42, rocket artillery after each use") for u in assessment.attackers
             if before.unit(u).type == "rocket artillery"]
    for h in assessment.defender_hexes or (assessment.defender_hex,):
        here = [u for u in assessment.defenders if before.unit(u).hex == h]
        if here and all(before.unit(u).type == "artillery" for u in here):   # no other combat unit with it
            flips += [(u, "10.22, artillery attacked alone") for u in here]
    for uid, why in flips:
        unit = pos.unit(uid)
        if unit.hex is not None and "fired" not in unit.status:
            unit.status.add("fired")
            outcome.log.append(f"{uid} is fired ({why})")
    pos.touch()
