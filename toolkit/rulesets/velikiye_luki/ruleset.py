"""The Velikiye Luki ruleset: the shared parts set for this game, its rule options, and the
hooks (movement allowance, the step hook of :mod:`.movement`, Festung ZOC and supply,
stacking categories)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ...referee import MovementRules, Reason, RetreatRules, Ruleset, StackingRules, SupplyRules, ZocRules
from ...referee.reasons import Code
from .._options import RuleOptions
from . import combat, movement, retreats
from .cadres import cadre_attached, is_cadre
from .city import encircled
from .movement import MECH

#: The default of every rule option (the reference notes' suggested rulings).
DEFAULTS = {
    "mech_road_cost": "1/2",
    "bridge_mechanised": "cancel",
    "lake_infantry": "prohibited",
    "first_turn_weather": "overcast",
    "mech_corps_limit": True,
}
_CHOICES = {
    "mech_road_cost": ("1/2", "1"),
    "bridge_mechanised": ("cancel", "plus1"),
    "lake_infantry": ("prohibited", "1"),
    "first_turn_weather": ("overcast", "cloudy"),
    "mech_corps_limit": (True, False),
}

_NO_ZOC_TYPES = ("hq", "rocket artillery")        # 4.1: combat units only (HQs and MRLs are not)


@dataclass
class VelikiyeLuki(RuleOptions, Ruleset):
    """The Velikiye Luki ruleset: shared parts plus the hooks listed in the package docstring."""

    OPTION_DEFAULTS: ClassVar[dict] = DEFAULTS
    OPTION_CHOICES: ClassVar[dict] = _CHOICES
    OPTIONS_OF: ClassVar[str] = "Velikiye Luki"

    needs_python: tuple[str, ...] = (
        "3.1 movement allowance by class; 8.3 unsupplied half MA", "3.2 road/rail for mechanised units",
        "4.4 ski infiltration (lifts the same-unit ZOC-to-ZOC refusal)", "4.2.2/7.6 Festung ZOC",
        "TEC 12 lake option (lifts the prohibited step)", "8 Festung needs no supply (estimated)",
        "5 division equivalent (1.7)", "6.5.1 retreats (retreat_priority)",
        "6.2.2-6.2.8, 7.6 column shifts (combat_modifiers)", "1.4 HQ support (check_support)",
        "13.2.3 2M limit (attack_refusals)", "6.4 first loss (first_loss)",
        "6.4 retreat converted to a loss (retreat_to_loss)")

    # -- movement -------------------------------------------------------------------------

    def movement_allowance(self, pos, unit, mode):
        if unit.type == "fortress":
            return Fraction(0)
        ma = Fraction(8 if self.unit_class(pos, unit) == MECH else 6)   # 1.3, 3.1
        if "unsupplied" in unit.status:
            ma /= 2                                                      # 8.3
        return ma

    def can_move(self, pos, unit, mode):
        if unit.type == "fortress":
            return Reason(Code.CANNOT_MOVE, "1.6", f"{unit.id} is a Festung counter of Velikiye Luki and never moves",
                          unit.hex, (unit.id,))
        return super().can_move(pos, unit, mode)

    def step_rule(self, pos, units, step):
        return movement.step_rule(self, pos, units, step)

    # -- combat (6) -----------------------------------------------------------------------

    def combat_modifiers(self, pos, c):
        return combat.combat_modifiers(self, pos, c)

    def attack_refusals(self, pos, c):
        return combat.attack_refusals(self, pos, c)

    def check_support(self, pos, c, support):
        return combat.check_support(self, pos, c, support)

    def first_loss(self, pos, role, units, enemies):
        return combat.first_loss(self, pos, role, units, enemies)

    def retreat_to_loss(self, pos, role, units):
        return combat.retreat_to_loss(self, pos, role, units)

    # -- retreats (6.5.1) -----------------------------------------------------------------

    def retreat_priority(self, pos, units, hex, path):
        return retreats.retreat_priority(pos, self, units, hex)

    def may_retreat_into(self, pos, units, a, b):
        return retreats.may_retreat_into(pos, self, units, b)

    # -- zones of control and supply ------------------------------------------------------

    def exerts_zoc(self, pos, unit):
        if unit.counter.kind != "unit" or unit.type in _NO_ZOC_TYPES:
            return False
        if unit.type == "fortress":
            return not encircled(pos, self)                                 # 4.2.2, 7.6
        return True

    def needs_supply(self, pos, unit):
        # estimated: the rulebook is silent on the Festung's supply (notes, "Supply"); the
        # garrison is encircled by design and its attrition is the Festung track of chapter 7
        return unit.type != "fortress" and super().needs_supply(pos, unit)

    # -- stacking (5) ---------------------------------------------------------------------

    def stack_category(self, pos, unit):
        size = unit.counter.size
        if unit.side == "german":
            return "de-I" if size == "I" else "de-III"                      # 5.2: III, KG, II alike
        if size == "XX":
            return "su-XX"
        if size == "II" or size == "I":
            return "su-II"
        if is_cadre(unit) and cadre_attached(pos, unit):
            return "su-cadre"                                                # 1.7: division equivalent
        return "su-III"                                                      # brigades and regiments

RULESET = VelikiyeLuki(
    name="velikiye-luki",
    game="velikiye-luki",
    title="Velikiye Luki 1942-1943 (Vae Victis)",
    movement=MovementRules(
        rule="3.1", terrain_rule="TEC", hexside_rule="TEC", line_rule="3.2", enemy_rule="6.5.1",
        feature_costs="ignore",             # TEC 4-5: village and city cost as the other terrain
        bridges_ignore_hexsides=True,       # 3.2: a bridge cancels the river's MP
    ),
    zoc=ZocRules(
        rule="4.2.1", kinds=("unit",), exempt_types=_NO_ZOC_TYPES,
        stop=True, leave_cost=2, zoc_to_zoc="same-unit", zoc_to_zoc_rule="4.2.1",
        friendly_negates=False,             # 4.2.1: not for movement
    ),
    stacking=StackingRules(
        rule="5.1", points_value=None, default_points=1, limit=None,
        exempt_types=("hq", "fortress"), exempt_kinds=("marker", "hq"),    # 5.1: HQs and markers free
        compositions=(
            {"su-XX": 1, "su-cadre": 1, "su-III": 1},   # 5.1: a division (or equivalent) + X/III
            {"su-XX": 1, "su-cadre": 1, "su-II": 1},    # ... or + a battalion
            {"su-III": 3, "su-II": 1},                  # up to three regiments/brigades + a battalion
            {"su-III": 2, "su-II": 2},                  # two regiments/brigades + two battalions
            {"de-III": 3, "de-I": 1},                   # 5.2: three regiments, KG or battalions + a company
        ),
        composition_rule="5.1", when="phase",
    ),
    supply=SupplyRules(
        rule="8.1", max_length=None, road_lines=(), enemy_blocks=True, ezoc_blocks=True,
        friendly_negates=True, hexsides_block=False, trace_class=MECH,
        ladder=("isolated", "unsupplied"), ladder_rule="8.3",
    ),
    combat=combat.COMBAT,
    retreat=RetreatRules(
        rule="6.5.1", away=None,            # 6.5.1: no "away" rule; the priorities (retreat_priority) steer
        enemy_zoc="loss", friendly_negates=True,   # 4.3: a step per enemy ZOC hex without a friendly unit
        stacking_end="phase", stacking_rule="6.5.1",   # over-stacking allowed; a unit eliminated at the phase end (5.1)
        advance="retreat", advance_rule="6.5.2",   # along the retreat path, as far as it went
        advance_zoc_stop=2, advance_ignore_zoc_classes=("mechanised", "ski"),   # 6.5.2
    ),
)
