"""Kessel Crossing, the tutorial game (docs/tutorial-rules.md T.5-T.11), as referee parts.

Everything is data: no hook is overridden.
"""

from __future__ import annotations

from fractions import Fraction

from ..referee import (CombatRules, CommandRules, LosRules, MovementRules, RetreatRules, Ruleset, StackingRules,
                       SupplyRules, SupportRules, ZocRules)

RULESET = Ruleset(
    name="tutorial",
    game="tutorial",
    title="Kessel Crossing (hexforge tutorial)",
    movement=MovementRules(
        rule="T.3", terrain_rule="T.3", hexside_rule="T.4", line_rule="T.5", enemy_rule="T.6",
        feature_costs="max",                  # T.3: a village costs as the terrain it is in
        line_alone_classes=("mech",),         # T.5: a mech unit moving with another loses the road rate
        line_alone_rule="T.5",
        bridges_ignore_hexsides=True,         # T.5: roads and the railway bridge the river
        cannot_move=("isolated",),            # T.7: an isolated unit cannot move
        cannot_move_rule="T.7",
    ),
    zoc=ZocRules(
        rule="T.6",
        kinds=("unit",),                      # T.6: HQs (kind hq) and markers exert none
        exempt_types=("hq",),
        blocked_hexsides=("river",),          # T.6: not across a river hexside
        stop=True,
        zoc_to_zoc="forbidden", zoc_to_zoc_rule="T.6",
        friendly_negates=False,               # T.6: friendly units do not negate ZOC for movement
    ),
    stacking=StackingRules(
        rule="T.6", limit=2, points_value=None, default_points=1,
        exempt_types=("hq",), exempt_kinds=("marker", "hq"),  # T.6: HQs and markers do not count
        when="move",
    ),
    supply=SupplyRules(
        rule="T.7", max_length=None, road_lines=(),   # any length, no road stage
        enemy_blocks=True, ezoc_blocks=True, friendly_negates=True, hexsides_block=True,
        # estimated: T.7 is silent on lakes; a path of hexes is taken not to run through
        # terrain no unit may enter, so it follows what a foot unit may enter and cross
        trace_class="foot",
        ladder=("out_of_supply", "isolated"), ladder_rule="T.7",
    ),
    los=LosRules(rule="T.3", along_hexside="both"),
    command=CommandRules(rule="T.1", hq_types=("hq",), radius=None, range_value="command"),
    combat=CombatRules(
        rule="T.10", crt="combat_results", attack_value="attack", defence_value="defence", context_keys={},
        odds_rule="T.10", below_table="refuse", minimum_odds="1-2", minimum_rule="T.10",
        terrain_rule="T.3", hex_terrain="best",            # T.10: the best defence bonus of the hex
        hexside_applies="each",                            # T.4: each unit attacking across is affected
        halve_together=True, strength_round="down", strength_rule="T.10",
        attack_status={"out_of_supply": Fraction(1, 2)}, no_attack_status=("isolated",),
        defence_status={"isolated": Fraction(1, 2)}, status_rule="T.10",
        weather_drm={"mud": -1}, weather_rule="T.10",
        supports={"artillery": SupportRules(rule="T.10", shift=1, max_points=2,
                                            unit_types=("artillery", "rocket artillery"), range_value="range",
                                            spent_status="fired")},
    ),
    retreat=RetreatRules(rule="T.11", away="farther", enemy_zoc="forbidden", friendly_negates=True,
                         stacking_end=True, advance=1, advance_rule="T.11"),
)
