"""The A Victory Denied ruleset: parts set by data, its options, and the hooks data cannot say
(movement allowance under supply status, PVO units, the Minsk Pocket, rivers, strategic
movement, stacking by colour)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ...hexes import Hex
from ...referee import (MovementMode, MovementRules, Position, Reason, RetreatRules, Ruleset, StackingRules,
                        SupplyRules, Unit, ZocRules)
from ...referee.reasons import Code
from .._options import RuleOptions
from . import combat, movement
from .movement import POCKET

MOTORISED = "motorised"

#: Every rule option with its default (the notes' suggested rulings, docs/games/a-victory-denied.md).
DEFAULTS = {
    "strategic_cost": "1/2",               # 8 example, 11.1.2 first paragraph; "1/3" as 8.3.1 prints
    "major_river_crossing": "first_hex",   # 8.1.3: the crossing is the first hex; "start_adjacent"
    "oos_and_isolated": "cumulative",      # notes 14.4.3; "once": one halving only
    "pocket_units": "inert",               # notes 14.4.10, 14.4.22; "active": activated and OOS-eligible
    "relocation_path": "ignore",           # notes 14.4.7: 12.6's path ignores units and ZOC; "blocked"
}
_CHOICES = {
    "strategic_cost": ("1/2", "1/3"),
    "major_river_crossing": ("first_hex", "start_adjacent"),
    "oos_and_isolated": ("cumulative", "once"),
    "pocket_units": ("inert", "active"),
    "relocation_path": ("ignore", "blocked"),
}


def is_motorised(unit: Unit) -> bool:
    """Motorised class (2.2.2): panzer, motorised, mechanised units and motorised HQs."""
    return unit.counter.unit_class == MOTORISED


def in_pocket(pos: Position, hex: Hex | None) -> bool:
    """True if ``hex`` is a Minsk Pocket hex (14)."""
    return hex is not None and POCKET in pos.map.features(hex)


def _strategic() -> MovementMode:
    # the rate per road hex is the option strategic_cost, set by the step hook (.movement)
    return MovementMode(name="strategic", rule="8.3.1", road_only=True, lines=("road",), line_rate=Fraction(1, 2),
                        enter_ezoc=False, start_in_ezoc=False, classes=("non_motorised",))


@dataclass
class AVictoryDenied(RuleOptions, Ruleset):
    """The A Victory Denied ruleset (see the module docstring); options: :data:`DEFAULTS`."""

    OPTION_DEFAULTS: ClassVar[dict] = DEFAULTS
    OPTION_CHOICES: ClassVar[dict] = _CHOICES
    OPTIONS_OF: ClassVar[str] = "A Victory Denied"

    needs_python: tuple[str, ...] = (
        "10.3 halved MA out of supply / isolated (1.3 rounding)", "8.1.6 PVO never move",
        "8.1.3 unbridged major rivers", "8.2.2 no major river ZOC to ZOC", "8.3.1 strategic movement adjacency",
        "14 no German entry into the Minsk Pocket", "5.1-5.3 stacking by colour", "7 command chits",
        "10.1 Out of Supply chosen by the Soviet player", "12.1 overrun of a lone HQ", "12.6 HQ relocation",
        "9.5 retreat paths ranked by ZOC, supply and stacking", "9.6 advance of motorised units")

    #: True on the copy of the ruleset that answers an advance after combat (9.6): the retreat's
    #: major-river-between-ZOCs rule (9.5.6) does not apply.
    advancing: bool = False

    # -- movement -------------------------------------------------------------------------

    def movement_allowance(self, pos, unit, mode):
        ma = Fraction(unit.value("movement", 0) or 0)
        halvings = sum(s in unit.status for s in ("out_of_supply", "isolated"))     # 10.3.2, 10.3.3
        if halvings == 2 and self.option(pos, "oos_and_isolated") == "once":
            halvings = 1
        ma = Fraction(int(ma) >> halvings)                                            # 1.3: round down
        if "entering" in unit.status:                                                 # 11.1.2: entry paid
            from .reinforcements import entry_cost
            ma = max(Fraction(0), ma - entry_cost(pos, self, unit, unit.hex))
        return ma

    def can_move(self, pos, unit, mode):
        if unit.type == "pvo":
            return Reason(Code.CANNOT_MOVE, "8.1.6", f"{unit.id} is a PVO unit and may never move", unit.hex,
                          (unit.id,))
        return super().can_move(pos, unit, mode)

    def step_rule(self, pos, units, step):
        return movement.step_rule(self, pos, units, step)

    # -- ZOC (6.1) ------------------------------------------------------------------------

    #: 6.1: every combat unit's ZOC covers the six hexes around it, across rivers too: it
    #: depends on the unit alone, no other unit can change it
    zoc_radius = 0

    def exerts_zoc(self, pos, unit):
        return unit.counter.kind == "unit"        # every combat unit, PVO too; HQs never

    # -- stacking (5.1-5.3) ---------------------------------------------------------------

    def stack_category(self, pos, unit):
        if unit.counter.kind == "hq":
            return "hq"
        if unit.side == "soviet":
            return "red" if "red" in unit.counter.marks else "tan"
        return "combat"

    # -- combat (9) -------------------------------------------------------------------------

    def combat_status(self, pos, unit, role, combat_):
        status = set(unit.status)
        if {"out_of_supply", "isolated"} <= status and self.option(pos, "oos_and_isolated") == "once":
            status.discard("out_of_supply")       # notes 14.4.3: one halving only
        return status

    def attack_refusals(self, pos, combat_):
        return combat.attack_refusals(self, pos, combat_)

    def combat_modifiers(self, pos, combat_):
        return combat.combat_modifiers(self, pos, combat_)

    def combat_dice(self, pos, combat_):
        return combat.combat_dice(self, pos, combat_)

    def fixed_attack(self, pos, attacker_ids, defender_hex, context):
        from .fixed import fixed_attack
        return fixed_attack(self, pos, attacker_ids, defender_hex, context)

    def roll_with_draws(self, pos, assessment, context, *, seed, roll=None, place=None):
        """The CLI's roll of a Soviet attack (9.4.3): :func:`.elite.roll_elite`, a 10 drawing from
        the Elite Division Cup; None for the attacks it does not cover (German, fixed-column)."""
        from .elite import roll_elite
        if assessment.side != "soviet" or (context or {}).get("fixed"):
            return None
        return roll_elite(pos, self, list(assessment.attackers), assessment.defender_hex, context, seed=seed,
                          rolls=[roll] if roll is not None else None, place=place)

    # -- retreat and advance (9.5, 9.6; :mod:`.retreat`) ----------------------------------

    def retreat_search(self, pos, unit_ids, length, from_hex=None):
        from . import retreat
        return retreat.retreat_search(self, pos, unit_ids, length, from_hex=from_hex)

    def retreat_loss(self, pos, units, hex):
        from . import retreat
        return retreat.retreat_loss(self, pos, units, hex)

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
        from .hq import after_combat
        from .limits import record
        from .retreat import check_pvo_losses
        check_pvo_losses(pos, outcome, assessment)
        after_combat(self, pos, outcome, assessment, choices)
        combat.send_eliminated(pos, outcome)
        record(pos, outcome, assessment)

    # -- supply (10.2) --------------------------------------------------------------------

    def needs_supply(self, pos, unit):
        return unit.counter.kind == "unit"        # 10.2.1: HQs are never isolated

    # -- referee questions of this game (``hexforge referee chit`` / ``oos``) ---------------

    def activation(self, pos, chit_id: str, hq_id: str | None = None, seeds: dict | None = None):
        """What a drawn command chit activates (7): :mod:`.command`."""
        from .command import PANZER_GROUPS, activate_hq_chit, activate_panzer_group, chit_activates
        if chit_activates(pos, chit_id) in PANZER_GROUPS:
            return activate_panzer_group(pos, self, chit_id, seeds or {})
        return activate_hq_chit(pos, self, chit_id, hq_id)

    def out_of_supply_question(self, pos, count: int) -> dict:
        """The Soviet player's choice of German units Out of Supply (10.1.2): :mod:`.supply`."""
        from .supply import oos_candidates
        return oos_candidates(pos, count, pocket=self.option(pos, "pocket_units") == "active")


def _ruleset() -> AVictoryDenied:
    return AVictoryDenied(
        name="a-victory-denied",
        game="a-victory-denied",
        title="A Victory Denied: Crisis at Smolensk 1941 (MMP)",
        movement=MovementRules(
            rule="8.1", terrain_rule="8.1.2", hexside_rule="8.1.3", line_rule="8.3.1", enemy_rule="5.2",
            feature_costs="ignore",                 # towns and cities cost as their terrain (8.1.2)
            bridges_ignore_hexsides=True,           # 2.1.3, 8.1.3: a road over a river is a bridge
            lines=(),                               # roads help only strategic movement (8.3.1)
            modes={"strategic": _strategic()},
        ),
        zoc=ZocRules(rule="8.2.1", kinds=("unit",), exempt_types=(), stop=False, enter_cost=2, leave_cost=2,
                     zoc_to_zoc="allowed", friendly_negates=False),
        stacking=StackingRules(
            rule="5.1", limit=None, points_value=None, default_points=1, exempt_kinds=("marker",),
            compositions=({"combat": 2, "hq": 1}, {"red": 2, "hq": 1}, {"red": 1, "tan": 1, "hq": 1},
                          {"tan": 1, "hq": 1}),
            category_by="size", composition_rule="5.1, 5.3", enemy_together=False, when="move"),
        supply=SupplyRules(rule="10.2.2", max_length=None, road_lines=(), enemy_blocks=True, ezoc_blocks=True,
                           friendly_negates=True, hexsides_block=True, ladder=("isolated",), ladder_rule="10.2.3"),
        combat=combat.COMBAT,
        # 9.5: away from the start (notes 14.4.6), a step per enemy-ZOC hex (9.5.4), lone HQs overrun
        # (9.5.7: they block nothing); the ranking of 9.5.3 and 9.5.5 is retreat_search (.retreat)
        retreat=RetreatRules(rule="9.5", ignore_types=("hq",), away="farther", enemy_zoc="loss",
                             friendly_negates=False, stacking_end=False, advance=1, advance_rule="9.6"),
    )


RULESET = _ruleset()
