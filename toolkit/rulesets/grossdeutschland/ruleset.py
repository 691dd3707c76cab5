"""The Grossdeutschland ruleset: the shared parts set for this game, its rule options, and the
hooks (movement allowance by class, time of day and supply; the H and ALL costs of the Terrain
Chart; rivers into enemy ZOC; stacking points; supply to the unit's own battalion HQ)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import ClassVar

from ...referee import (CommandRules, LosRules, MovementMode, MovementRules, Position, RetreatRules, Ruleset,
                        StackingRules, SupplyRules, ZocRules)
from ...referee.reasons import Code, Reason
from ...referee.ruleset import Source
from .._options import RuleOptions
from . import combat as _combat

#: The default of every rule option: the notes' suggested rulings (section 14).
DEFAULTS = {
    "out_of_supply_ma": "9.1",          # A1
    "h_cost": "ceil",                   # A20
    "division_hq_range_from": "division",  # A8
    "preselect_turns": "first",         # A11
    "passed_by_division": True,         # A10
    "road_through_na_supply": True,     # A19
    "overrun_spent": "through_adjacent",  # A21
    "retreat_toward": "battalion",      # 10.5: the battalion's HQ, the Division HQ only without it
    "op_fire_retreats": False,          # A27
    "pontoon": "bridge",                # 12.1: a completed pontoon is a bridge for movement
}
_CHOICES = {
    "out_of_supply_ma": ("9.1", "5.3"),
    "h_cost": ("ceil", "floor"),
    "division_hq_range_from": ("division", "battalion"),
    "preselect_turns": ("first", "every"),
    "passed_by_division": (True, False),
    "road_through_na_supply": (True, False),
    "overrun_spent": ("through_adjacent", "before_adjacent"),
    "retreat_toward": ("battalion", "either"),
    "op_fire_retreats": (False, True),
    "pontoon": ("bridge", "na_only"),
}

LEG, TRACKED, WHEELED = "leg", "tracked", "wheeled"
HQ_TYPES = ("hq", "division hq")
DIVISION_HQ = "division hq"
#: The supply ladder of 5.3 after 1, 2, 3+ failed checks; "step_loss" is out of supply and
#: costs a step at that check.
LADDER = ("low_supply", "out_of_supply", "step_loss")
OUT_OF_SUPPLY = ("out_of_supply", "step_loss")
#: Time of day of a turn, from the scenario's dates ("10th Night"): 13.0
NIGHT, EVENING = "Night", "Evening"
HALVING_WEATHER = ("rainy", "stormy", "snowy")      # 14.1
ROAD = "road"
OVERRUN = "overrun"
RIDING = "riding_tanks"          # 9.5: the status of a Leg unit carried by a Tracked unit
#: 9.5: statuses of a unit that has paid the +1 MP to mount or to dismount a rider in its
#: current activation (set by :func:`~.movement.mount`/:func:`~.movement.dismount`, cleared
#: when the unit is activated again, :meth:`.Activation.activate`).
PAID = ("mounted", "dismounted")


def _half(value: Fraction, how: str) -> Fraction:
    return Fraction(ceil(value / 2) if how == "up" else floor(value / 2))


@dataclass
class Grossdeutschland(RuleOptions, Ruleset):
    """Famous Divisions: Grossdeutschland (the package docstring lists the rules); options: :data:`DEFAULTS`."""

    OPTION_DEFAULTS: ClassVar[dict] = DEFAULTS
    OPTION_CHOICES: ClassVar[dict] = _CHOICES
    OPTIONS_OF: ClassVar[str] = "Grossdeutschland"

    needs_python: tuple[str, ...] = (
        "9.0 H and ALL costs", "13.2/14.1 night and weather halve the MA", "5.3/9.1 out of supply halves the MA",
        "9.6 a debarked Wheeled unit moves as Leg with MA 4", "9.5 a rider moves as its Tracked carrier; +1 MP to mount or dismount; no overrun with a rider", "8.0 no move across a river into enemy ZOC",
        "12.0/12.1 blown bridges and pontoons change the crossing",
        "5.1 supply to the unit's own battalion HQ; an HQ to any other HQ", "7.1 depleted units count half",
        "7.2 city and Downtown hexes stack 6")

    # -- movement (9.0-9.6, 13.2, 14.1) ----------------------------------------------------

    def unit_class(self, pos, unit):
        if RIDING in unit.status and self.carrier(pos, unit) is not None:
            return TRACKED                                          # 9.5: Leg costs are ignored
        if "debarked" in unit.status:
            return LEG                                              # 9.6: a Leg unit until re-embarked
        return super().unit_class(pos, unit)

    def carrier(self, pos, unit):
        """The Tracked unit a Leg unit with a Riding Tanks marker rides: a friendly Tracked unit
        in its hex (the one with the highest MA if several), or None."""
        hosts = [u for u in pos.at(unit.hex) if u.id != unit.id and u.side == unit.side
                 and u.counter.unit_class == TRACKED and RIDING not in u.status] if unit.hex else []
        return max(hosts, key=lambda u: (u.value("movement", 0) or 0, u.id), default=None)

    def printed_ma(self, pos, unit) -> Fraction:
        """The printed MA, 4 for a debarked unit (9.6), the carrier's for a rider (9.5)."""
        if RIDING in unit.status:
            host = self.carrier(pos, unit)
            if host is not None:
                return self.printed_ma(pos, host)
        if "debarked" in unit.status:
            return Fraction(4)
        return Fraction(unit.value("movement", 0) or 0)

    def can_move(self, pos, unit, mode):
        why = super().can_move(pos, unit, mode)
        if why is None and mode.name == OVERRUN:
            riders = [u.id for u in pos.at(unit.hex) if RIDING in u.status and u.id != unit.id
                      and (host := self.carrier(pos, u)) is not None and host.id == unit.id] if unit.hex else []
            if riders:
                return Reason(Code.MODE_NOT_ALLOWED, "9.5", f"{unit.id} carries {', '.join(riders)} riding tanks "
                              f"and may not overrun", unit.hex, (unit.id, *riders))
        return why

    #: True on the copy of the ruleset that answers an advance after combat (10.6): the
    #: retreat's HQ constraint (10.5, :func:`.retreat.may_retreat_into`) does not apply.
    advancing: bool = False

    #: MP left to units continuing an overrun (9.4), by unit id: set by :func:`overrun_moves`
    #: on a copy of the ruleset for that one question.
    overrun_left: dict = dataclasses.field(default_factory=dict)

    def movement_allowance(self, pos, unit, mode):
        if mode.name == OVERRUN:
            return Fraction(self.overrun_left.get(unit.id, 0))
        ma = self.printed_ma(pos, unit)
        if unit.status & set(OUT_OF_SUPPLY):
            cls = self.unit_class(pos, unit)
            if self.option(pos, "out_of_supply_ma") == "9.1":
                if cls in (TRACKED, WHEELED) or unit.type in HQ_TYPES:
                    ma = _half(ma, "up")                            # 9.1: halved, rounded up, HQs too
            elif cls in (TRACKED, WHEELED):
                ma = _half(ma, "down")                              # 5.3: halved, rounded down
        if time_of_day(pos) == NIGHT:
            ma = _half(ma, "up")                                    # 13.2
        if pos.current_weather in HALVING_WEATHER:
            ma = _half(ma, "up")                                    # 14.1
        paid = sum(1 for status in PAID if status in unit.status)   # 9.5: +1 MP each, spent not halved
        return max(Fraction(0), ma - paid)

    def h_cost(self, pos, unit) -> Fraction:
        """What "H" costs ``unit``: half its printed MA (9.0), rounded up by default (A20)."""
        return _half(self.printed_ma(pos, unit), "up" if self.option(pos, "h_cost") == "ceil" else "down")

    def step_rule(self, pos, units, step):
        from .movement import step_rule
        return step_rule(self, pos, units, step)

    # -- zones of control (8.0) ------------------------------------------------------------

    #: 8.0, 12.0, 12.1: a unit's ZOC (the six hexes around it, less what is NA to Wheeled
    #: units) changes with the blown-bridge and pontoon markers in its hex and the hexes next
    #: to it (``zoc_reaches``): markers one hex away
    zoc_radius = 1

    def exerts_zoc(self, pos, unit):
        return unit.counter.kind == "unit" and unit.type not in HQ_TYPES     # "never HQ"

    def zoc_reaches(self, pos, unit, hex):
        from .bridges import zoc_crosses
        return zoc_crosses(pos, unit, hex)                  # 8.0: a blown bridge carries no ZOC

    # -- stacking (7.0-7.2) -----------------------------------------------------------------

    def stack_points(self, pos, unit):
        if unit.counter.is_marker or unit.counter.kind == "chit" or unit.type == DIVISION_HQ:
            return Fraction(0)                                      # 7.1 note: the Division HQ is free
        return Fraction(1, 2) if unit.reduced else Fraction(1)      # 7.1: depleted units count half

    # -- supply (5.1, 5.3) ------------------------------------------------------------------

    def needs_supply(self, pos, unit):
        return unit.counter.kind in ("unit", "hq") and unit.type != DIVISION_HQ

    def supply_sources(self, pos, side, context=None):
        """5.1: each unit traces to an HQ of its own battalion; each battalion HQ to any other
        HQ of its side. A battalion whose HQ is not on the map has no source, except the one
        stack its owner nominates: ``context["nominated"]`` maps the battalion to that hex."""
        hqs = [u for u in pos.on_map(side) if u.type in HQ_TYPES]
        groups = []
        by_battalion: dict[str, list] = {}
        for hq in hqs:
            if hq.type == "hq":
                by_battalion.setdefault(hq.counter.formation, []).append(hq)
        for battalion, own in by_battalion.items():
            ids = {h.id for h in own}
            groups.append(Source(tuple(h.hex for h in own),
                                 serves=lambda u, b=battalion, ids=ids: (u.counter.formation == b
                                                                          and u.id not in ids),
                                 kind=f"HQ {battalion}"))
        for hq in hqs:
            if hq.type != "hq":
                continue
            others = tuple(h.hex for h in hqs if h.id != hq.id)
            if others:
                groups.append(Source(others, serves=lambda u, i=hq.id: u.id == i, kind="another HQ"))
        # 5.1: a battalion with no HQ to trace to may nominate one stack, in supply this turn
        for battalion, hex in ((context or {}).get("nominated") or {}).items():
            if battalion not in by_battalion:
                groups.append(Source((hex,), serves=lambda u, b=battalion, h=hex: u.counter.formation == b
                                     and u.hex == h, trace=False, kind="nominated stack"))
        return groups

    # -- combat (10) ------------------------------------------------------------------------

    def attack_refusals(self, pos, combat_):
        from . import combat
        return combat.attack_refusals(self, pos, combat_)

    def combat_modifiers(self, pos, combat_):
        from . import combat
        return combat.combat_modifiers(self, pos, combat_)

    def combat_dice(self, pos, combat_):
        from . import combat
        return combat.combat_dice(self, pos, combat_)

    def check_support(self, pos, combat_, support):
        from . import combat
        return combat.check_support(self, pos, combat_, support)

    def may_retreat_into(self, pos, units, a, b):
        from . import retreat
        return retreat.may_retreat_into(self, pos, units, a, b)

    def advance_search(self, pos, unit_ids, vacated_hex, path=None, hexes=None):
        from . import retreat
        return retreat.advance_search(self, pos, unit_ids, vacated_hex, path=path, hexes=hexes)

    def convert_result(self, pos, assessment, result):
        from . import retreat
        return retreat.convert_result(self, pos, assessment, result)

    def after_combat(self, pos, outcome, assessment, choices):
        from . import retreat
        retreat.rider_follows(self, pos, outcome, assessment)
        retreat.after_combat(self, pos, outcome, assessment, choices)

    def air_defence(self, pos, chit_id, hex):
        """10.7: each AA unit's chance to nullify the air chit ``chit_id`` (:func:`.air.air_chance`)."""
        from .air import air_chance
        return air_chance(pos, chit_id, hex)

    def roll_air_defence(self, pos, chit_id, hex, seed):
        """10.7: the AA dice rolled from ``seed`` (:func:`.air.roll_air_defence`)."""
        from .air import roll_air_defence
        return roll_air_defence(pos, chit_id, hex, seed)

    def opportunity_fire(self, pos, mover_ids, hex, how="move"):
        """11.4: ``(firers, why none, targets)``: :func:`.opfire.opportunity_fire` and
        :func:`.opfire.fire_targets` (``hexforge referee opfire``)."""
        from .opfire import fire_targets, opportunity_fire
        firers, why = opportunity_fire(self, pos, mover_ids, hex, how)
        return firers, why, (fire_targets(self, pos, hex, mover_ids) if firers else [])

    def supply_hexsides(self, pos, side):
        """12.0, 12.1: a blown bridge is no bridge for a supply line either (the Wheeled trace
        class may not cross the water it spanned); a completed pontoon is one."""
        from . import bridges
        return bridges.supply_hexsides(pos, WHEELED)

    def supply_blocks(self, pos, side, hex):
        from . import bridges
        if hex in bridges.crossings(pos)["blown_hexes"]:
            return True                  # 12.0: a major river hex under a blown bridge is impassable
        if self.option(pos, "road_through_na_supply"):
            return False
        # A19 off: a road does not carry a supply path through terrain NA to Wheeled units
        cell = pos.map.terrain_types.get(pos.map.terrain(hex))
        return cell is not None and cell.move.lookup(WHEELED, pos.current_weather)[1] is None


def overrun_moves(pos: Position, rs: "Grossdeutschland", unit_id: str, spent, approach):
    """Where a Tracked unit may go on after a successful overrun (9.4): ``spent`` is the MP it
    had spent up to and including the hex next to the defender, ``approach`` the cost of that
    last hex. It moves on with its printed MA less ``spent`` (A21, the default) or less the MP
    spent before that hex (``overrun_spent="before_adjacent"``), halting on entering an enemy
    ZOC. The unit needs the ``overrun`` status (the Overrun marker)."""
    from ...referee import reachable
    unit = pos.unit(unit_id)
    used = Fraction(spent) - (Fraction(approach) if rs.option(pos, "overrun_spent") == "before_adjacent" else 0)
    left = max(Fraction(0), rs.printed_ma(pos, unit) - used)
    ask = dataclasses.replace(rs, overrun_left={**rs.overrun_left, unit_id: left})
    return left, reachable(pos, ask, unit_id, mode=OVERRUN)


def time_of_day(pos: Position) -> str | None:
    """Morning, Day, Evening or Night of the position's turn, from its scenario's dates."""
    scenario = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    if scenario is None or pos.turn is None:
        return None
    for t in scenario.turns:
        if t.number == pos.turn and t.date:
            return t.date.split()[-1]
    return None


RULESET = Grossdeutschland(
    name="grossdeutschland",
    game="grossdeutschland",
    title="Famous Divisions: Grossdeutschland",
    movement=MovementRules(
        rule="9.0", terrain_rule="9.0", hexside_rule="9.1", line_rule="9.2", enemy_rule="7.0",
        # 11.3, 11.4: a pinned unit "must halt its movement"; the marker stays to the end of the
        # turn (3.5) and a battalion activates once a turn, so it moves no more this turn
        cannot_move=("pinned",), cannot_move_rule="11.3",
        feature_costs="ignore",             # a peak is a mark on its hill, not terrain of its own
        bridges_ignore_hexsides=True,       # 9.1: a bridge nullifies the river
        line_out_of_ezoc=False,             # 8.0: no road movement when leaving an enemy ZOC
        minimum_move=True, minimum_move_rule="9.0",
        modes={ROAD: MovementMode(name=ROAD, rule="9.2", road_only=True, stacking=ROAD),
               OVERRUN: MovementMode(name=OVERRUN, rule="9.4", classes=(TRACKED,), needs_status=OVERRUN)},
    ),
    zoc=ZocRules(
        rule="8.0", kinds=("unit",), exempt_types=HQ_TYPES,
        prohibited_class=WHEELED,           # 8.0: no ZOC into or across what is NA to Wheeled units
        bridged_carry=True,                 # 8.0: ... except over a bridge that is not blown
        stop=True, leave_cost=1,            # 8.0: halt on entering; +1 MP to leave
        zoc_to_zoc="allowed", friendly_negates=False,
    ),
    stacking=StackingRules(
        rule="7.1", limit=4, limit_by_terrain={"city": 6, "downtown": 6}, limit_by_mode={ROAD: 2},
        points_value=None, reduced_factor=Fraction(1, 2), exempt_types=(DIVISION_HQ,),
        exempt_kinds=("marker", "chit"), when="phase",   # 7.1: only at the end of all movement
    ),
    supply=SupplyRules(
        rule="5.1", max_length=None, road_lines=(), enemy_blocks=True, ezoc_blocks=True,
        friendly_negates=True, hexsides_block=True, trace_class=WHEELED,
        ladder=LADDER, ladder_rule="5.3",
    ),
    los=LosRules(rule="11.2", along_hexside="both", max_range=10),
    command=CommandRules(rule="6.0", hq_types=HQ_TYPES, radius=None, range_value="command", same_formation=True),
    combat=_combat.COMBAT,
    # 10.5: no enemy ZOC, friendly units or not (8.0); stacking at the end; closer to the HQ is
    # the may_retreat_into hook (.retreat). 10.6: the vacated hex, ZOC ignored (advance_search)
    retreat=RetreatRules(rule="10.5", away=None, enemy_zoc="forbidden", friendly_negates=False, stacking_end=True,
                         advance=1, advance_rule="10.6"),
)
