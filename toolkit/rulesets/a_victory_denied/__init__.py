"""A Victory Denied (MMP): the ruleset (movement, strategic movement, rivers, ZOC, stacking,
isolation) and the game's own referee questions: command-chit activation (:mod:`.command`),
Out of Supply and isolation (:mod:`.supply`), and combat strengths and odds (:mod:`.combat`)."""

from .combat import (COLUMNS, ColumnResult, art_attacks, attack_die, combat_column, halve, odds_column, quarter,
                     stack_strength)
from .command import (Activation, activate_hq_chit, activate_panzer_group, chit_activates, hqs_out_of_range,
                      panzer_corps)
from .ruleset import DEFAULTS, RULESET, AVictoryDenied, in_pocket, is_motorised
from .reinforcements import entry_moves
from .supply import effective_strength, isolation, oos_candidates

__all__ = [
    "AVictoryDenied", "Activation", "COLUMNS", "ColumnResult", "DEFAULTS", "RULESET", "activate_hq_chit",
    "activate_panzer_group", "art_attacks", "attack_die", "chit_activates", "combat_column", "effective_strength",
    "entry_moves", "halve", "hqs_out_of_range", "in_pocket", "is_motorised", "isolation", "odds_column",
    "oos_candidates", "panzer_corps", "quarter", "stack_strength",
]
