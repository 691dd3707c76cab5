"""The Demyansk Shield ruleset: the shared parts set for this game, and the hooks that hand
over to the modules of this package (movement, zoc, supply)."""

from __future__ import annotations

from fractions import Fraction

from ...referee import MovementMode, MovementRules, RetreatRules, Ruleset, StackingRules, SupplyRules, ZocRules
from . import combat, movement, retreats, supply, zoc
from .features import is_heavy

#: Options and their defaults (the notes' suggested rulings; docs/games/demyansk-shield.md).
DEFAULT_OPTIONS = {
    # 3.31 (Soviet armor battalions have no dots) over the 11.41 note ("not ignored for stacking")
    "soviet_armor_battalions_free": True,
    # 3.22 "except those prohibited to its movement": prohibited hexsides only (lake sides in
    # Dry/Mud), or literally, also the swamp hexes heavy units may not enter in Dry/Mud
    "restricted_zoc_into_swamp": False,
    # 6.33 (any friendly airfield supplies all Axis units) vs 6.35 (the constructed airfield
    # supplies defending units only): 6.35 governs the constructed airfield
    "constructed_airfield_limited": True,
    # 8.31 text ("the highest MP cost" of a mixed hex) vs its example (woods added: 2707 = 2 + 1)
    "woods": "add",
    # 11.17 and 11.31 (initial odds of at least 1-3) vs 12.12 ("worse than 1-4 are not allowed")
    "minimum_odds": "1-3",
    # 10.13e (no support from an enemy ZOC) vs 10.32 (may support attacks on adjacent enemies)
    "artillery_in_zoc_supports_adjacent": True,
    # 12.37 "the friendly Supply Source to which it traced a Supply Route for this combat": the
    # one the referee's supply search traced ("traced") or any the unit can trace to ("any")
    "retreat_source": "traced",
}



class DemyanskShield(Ruleset):
    """The shared parts plus the Demyansk Shield hooks (see the package docstring)."""

    #: the ZOC hooks look at the unit's own stack (3.24) and at the hex the ZOC enters (3.25)
    zoc_radius = 1

    def unit_class(self, pos, unit) -> str:
        return "heavy" if is_heavy(unit) else "foot"

    def exerts_zoc(self, pos, unit) -> bool:
        return zoc.exerts_zoc(pos, unit)

    def zoc_reaches(self, pos, unit, hex) -> bool:
        return zoc.zoc_reaches(self, pos, unit, hex)

    def stack_points(self, pos, unit) -> Fraction:
        if unit.type == "air" or unit.counter.kind != "unit":
            return Fraction(0)   # air units and markers never count (3.31, 13.13)
        pts = Fraction(unit.counter.front.get("stacking", 1) or 0)
        if (not self.options["soviet_armor_battalions_free"] and unit.side == "soviet" and unit.type == "armor"
                and unit.counter.size == "II" and pts == 0):
            pts = Fraction(1)   # the 11.41-note reading: additional armor is not ignored for stacking
        return pts

    def movement_allowance(self, pos, unit, mode) -> Fraction:
        return movement.movement_allowance(super().movement_allowance(pos, unit, mode), unit)

    def can_move(self, pos, unit, mode):
        return super().can_move(pos, unit, mode) or movement.can_move(self, pos, unit, mode)

    def may_infiltrate(self, pos, unit) -> bool:
        return movement.may_infiltrate(unit)

    def step_rule(self, pos, units, step):
        return movement.step_rule(self, pos, units, step)

    def needs_supply(self, pos, unit) -> bool:
        return not unit.counter.is_marker and unit.type != "air"   # 3.27: air units need none

    def supply_blocks(self, pos, side, hex) -> bool:
        return supply.supply_blocks(pos, side, hex)

    def supply_sources(self, pos, side, context=None):
        return supply.sources(self, pos, side, context or {})

    def combat_status(self, pos, unit, role, c):
        return combat.combat_status(self, pos, unit, role, c)

    def combat_modifiers(self, pos, c):
        return combat.combat_modifiers(self, pos, c)

    def check_support(self, pos, c, support):
        return combat.check_support(self, pos, c, support)

    def attack_refusals(self, pos, c):
        return combat.attack_refusals(self, pos, c)

    def may_retreat_into(self, pos, units, a, b):
        return retreats.may_retreat_into(pos, units, a, b)

    def no_retreat(self, pos, role, units):
        return retreats.no_retreat(pos, role, units)

    def zoc_retreat(self, pos, role, units):
        return retreats.zoc_retreat(pos, role, units)

    def after_combat(self, pos, outcome, assessment, choices):
        combat.after_combat(self, pos, outcome, assessment)

    def retreat_boxes(self, pos, units):
        return retreats.retreat_boxes(pos, units)

    def retreat_before_combat(self, pos, units):
        return retreats.retreat_before_combat(pos, units)

    def retreat_search(self, pos, unit_ids, length, from_hex=None):
        return retreats.retreat_search(pos, self, unit_ids, length, from_hex=from_hex)


def make_ruleset(**options) -> DemyanskShield:
    """The Demyansk Shield ruleset with ``options`` (see :data:`DEFAULT_OPTIONS`) changed."""
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        from ...errors import RulesError
        raise RulesError(f"unknown Demyansk Shield option(s) {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(DEFAULT_OPTIONS)}")
    opts = {**DEFAULT_OPTIONS, **options}
    return DemyanskShield(
        name="demyansk-shield",
        game="demyansk-shield",
        title="Demyansk Shield (Legion Wargames 2017)",
        movement=MovementRules(
            rule="8.1", terrain_rule="8.31", hexside_rule="8.34", line_rule="8.36", enemy_rule="8.14",
            feature_costs=opts["woods"],  # 8.31 example: woods +1 on top of rough
            lines=("road",),              # the railroad gives no movement (8.36b: bridges only)
            line_into_ezoc=True,          # 8.36c is priced in step_rule (woods ignored, heavy on swamp)
            bridges_ignore_hexsides=True,  # 8.36b
            modes={
                "strategic": MovementMode("strategic", rule="9.1", ma_bonus=2,
                                          ma_bonus_by_type={"armor": 4, "recon": 4}, road_only=True,
                                          lines=("road",), near_enemy=False, no_weathers=("mud",)),
                "exploitation": MovementMode("exploitation", rule="8.4", ma_factor=Fraction(1, 2), round="down",
                                             needs_status="exploit", no_weathers=("mud",)),
            },
        ),
        zoc=ZocRules(
            # 3.22 (prohibited hexsides) and 3.25 (Strongpoints) are the zoc_reaches hook
            rule="8.2", kinds=("unit",), exempt_types=("air",), stop=True,
            zoc_to_zoc="forbidden", zoc_to_zoc_rule="8.22",
            infiltration_min_ma=7, infiltration_rule="9.2", friendly_negates=False,
        ),
        stacking=StackingRules(rule="3.32", limit=7, points_value="stacking", default_points=1,
                               exempt_types=("air",), exempt_kinds=("marker",), when="phase"),
        supply=SupplyRules(rule="6.2", max_length=7, road_lines=("road",),
                           road_breaks=1, enemy_blocks=True, ezoc_blocks=True, friendly_negates=True,
                           hexsides_block=True, trace_class="foot", ladder=("out_of_supply",), ladder_rule="6.4"),
        combat=combat.combat_rules(opts["minimum_odds"]),
        retreat=RetreatRules(rule="12.3", ignore_types=("air",),   # air units on the map block nothing
                             away="farther",                        # 12.31: away from the Defender hex
                             enemy_zoc="forbidden", friendly_negates=True,   # 12.35
                             stacking_end="eliminate", stacking_rule="12.33",   # ending over the limit eliminates
                             advance=1, advance_rule="12.5",       # 12.52: one hex, the Defender hex
                             advance_stacking=True,                 # 12.56
                             no_advance_types=("artillery", "rocket artillery"),   # 12.57
                             advance_per_hex={"soviet": 1},        # 12.52: one Soviet unit per attacking hex
                             attacker_first=True,                   # 12.21: the attacker removes his losses first
                             retreat_needs_occupier=True, occupier_rule="12.38",
                             reduced_attacker_loss="12.25",
                             no_retreat_chart="retreat_options", no_retreat_rule="12.42",
                             zoc_retreat_rule="12.43",
                             before_combat_rule="11.42", before_combat_retreat=(1, 2),   # 11.42b: as 12.31
                             one_option_rule="12.41", box_rule="12.32"),
        options=opts,
        needs_python=("8.33b engineers", "8.35 heavy units", "8.36c road into ZOC",
                      "3.24 no-ZOC band", "3.25 Strongpoints and ZOC (zoc_reaches)", "9.1 Supply Road",
                      "9.23 no infiltration into a Strongpoint", "9.35 map boxes",
                      "6.3 airfields and Strongpoints as sources (Source groups)",
                      "6.41 supply at the moment of combat (combat_status)", "14.21 Strongpoint shift (combat_modifiers)",
                      "10.13, 13.15, 13.25 support eligibility (check_support)", "11.41 Soviet armor (attack_refusals)",
                      "12.42 No Retreat eligibility and DRM (no_retreat)", "12.43 ZOC retreat (zoc_retreat)",
                      "12.37 retreat toward supply (retreat_search)",
                      "11.42 Retreat Before Combat eligibility (retreat_before_combat)",
                      "12.32 retreat into a Map Box (retreat_boxes)",
                      "10.22, 10.42 artillery Fired by a combat (after_combat)"),
    )


RULESET = make_ruleset()
