"""A Victory Denied (MMP): the ruleset (movement, strategic movement, rivers, ZOC, stacking,
isolation) and the game's own referee questions: command-chit activation (:mod:`.command`),
Out of Supply and isolation (:mod:`.supply`), combat strengths and odds (:mod:`.combat`),
the Soviet 10's elite draw (:mod:`.elite`) and the combat limits kept in the position (:mod:`.limits`)."""

from .combat import COMBAT, art_attacks, halve, quarter
from .command import (Activation, activate_hq_chit, activate_panzer_group, chit_activates, hqs_out_of_range,
                      panzer_corps)
from .ruleset import DEFAULTS, RULESET, AVictoryDenied, in_pocket, is_motorised
from .elite import cup_units, elite_distribution, roll_elite
from .hq import advance_hqs, hq_relocation, lone_hq, overrun_hq
from .limits import return_stuka
from .reinforcements import entry_moves
from .supply import effective_strength, isolation, oos_candidates

__all__ = [
    "AVictoryDenied", "Activation", "COMBAT", "DEFAULTS", "RULESET", "activate_hq_chit",
    "activate_panzer_group", "advance_hqs", "art_attacks", "chit_activates", "cup_units", "effective_strength",
    "elite_distribution", "return_stuka", "roll_elite",
    "entry_moves", "halve", "hq_relocation", "lone_hq", "overrun_hq", "hqs_out_of_range", "in_pocket", "is_motorised", "isolation",
    "oos_candidates", "panzer_corps", "quarter",
]
