"""The referee: movement, zones of control, stacking, supply, line of sight and command range,
with a reason for every refusal.

A game's rules are a :class:`Ruleset` composed of shared parts (:mod:`.parts`) set by data,
plus hook methods a game may override. Rulesets are found by name through the entry-point
group ``hexforge.rulesets`` (:func:`get_ruleset`). See docs/referee.md.

Typical use::

    from toolkit.io import load_game
    from toolkit.referee import get_ruleset, position_from_scenario, reachable

    game = load_game("tutorial")
    pos = position_from_scenario(game, "crossing", turn=1)
    reach = reachable(pos, get_ruleset("tutorial"), "b-1")
    reach.hexes(), reach.mp_left(hex), reach.path(hex)
"""

from __future__ import annotations

from .board import Board, board_of, forget_board
from .combat import CombatAssessment, CombatRoll, assess_combat, check_combat_context, roll_combat
from .combat_apply import CombatOutcome, apply_combat
from .combat_support import SpecialOption, spend_supports, special_choices
from .combat_options import NoRetreatRoll, roll_no_retreat
from .combat_retreat import (RetreatAnswer, advance_options, next_retreat_hexes, retreat_boxes, retreat_options,
                             retreat_step_loss, zoc_retreat_options)
from .combat_chart import CombatChart, CombatResult, SideResult, chart_of, dice_distribution
from .combat_strength import Combat, Modifier, Support
from .movement import Reach, reachable
from .paths import PathCheck, check_path, destinations, end_stacking
from .parts import (CombatRules, CommandRules, LosRules, MovementMode, MovementRules, RandomShift,
                    RetreatRules, StackingRules, SupplyRules, SupportRules, ZocRules)
from .posfile import dump_position, load_position, position_from_dict, position_to_dict
from .position import Position, Unit, position_from_scenario
from .reasons import Code, Reason
from .registry import GROUP, available, get_ruleset, register, ruleset_for
from .ruleset import Ruleset, Source, Step
from .setup import SetupEntry, check_setup, legal_setup_hexes, setup_entries
from .services import Sight, command_range, line_of_sight
from .stacking import check_stacking, stack_reasons
from .supply import SupplyResult, SupplyTrace, apply_supply, supply_per_unit, supply_status, supply_trace
from .zoc import enemy_zoc, enemy_zoc_owners, zoc_counts, zoc_owners

__all__ = [
    "Combat", "CombatAssessment", "CombatChart", "CombatResult", "CombatRoll", "CombatRules", "Modifier",
    "RandomShift", "RetreatRules", "SideResult", "Support", "SupportRules", "assess_combat", "chart_of",
    "dice_distribution", "roll_combat", "spend_supports", "special_choices", "SpecialOption", "RetreatAnswer", "advance_options", "next_retreat_hexes", "retreat_boxes", "retreat_options",
    "retreat_step_loss", "CombatOutcome", "apply_combat",
    "check_combat_context", "NoRetreatRoll", "roll_no_retreat", "zoc_retreat_options",
    "Board", "Code", "CommandRules", "GROUP", "LosRules", "MovementMode", "MovementRules", "PathCheck",
    "Position", "Reach", "Reason", "Ruleset", "SetupEntry", "Sight", "Source", "StackingRules", "Step", "SupplyResult",
    "SupplyRules", "SupplyTrace",
    "Unit", "ZocRules", "apply_supply", "available", "board_of", "build_plugin", "check_path", "check_setup",
    "check_stacking", "command_range", "destinations", "end_stacking", "forget_board", "dump_position", "enemy_zoc",
    "enemy_zoc_owners", "get_ruleset", "legal_setup_hexes", "line_of_sight",
    "load_position", "position_from_dict", "position_from_scenario", "position_to_dict", "reachable", "register",
    "ruleset_for", "setup_entries", "stack_reasons", "supply_per_unit", "supply_status", "supply_trace", "zoc_counts", "zoc_owners",
]


def build_plugin(game, out_dir, progress=lambda message: None):
    """``hexforge build`` step: write ``out_dir/referee/``, a pip-installable plugin package
    carrying the game's ruleset and data (see :mod:`toolkit.referee.plugin`)."""
    from .plugin import build_plugin as _build
    return _build(game, out_dir, progress)
