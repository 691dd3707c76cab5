"""Famous Divisions: Grossdeutschland: the referee's ruleset.

Rules cited as "n.n" are sections of the rulebook. The shared parts carry what data can say:
Terrain Chart costs by class (Leg, Tracked, Wheeled), roads at their rate whatever the other
terrain (9.2), a stop on entering an enemy ZOC and +1 MP to leave one, no road rate out of one
(8.0); no ZOC from HQs, nor into or across terrain NA to Wheeled units except over a bridge
(8.0); stacking 4 units, depleted ones counting half, 6 in city and Downtown hexes, 2 in road
movement (mode ``road``), the Division HQ free (7.1, 7.2); supply of any length blocked by
enemy units, by enemy ZOC unless a friendly unit is there, and by terrain NA to Wheeled units
(5.1), Low then Out of supply then a step lost (5.3); activation range from the HQ's printed
flag over its own battalion (6.0); line of sight up to 10 hexes (11.2). Python adds the rest,
one module per job:

* :mod:`.ruleset`: the movement allowance (halved at Night and in rain, storm and snow, 13.2,
  14.1; out of supply, 5.3/9.1; on after an overrun, 9.4, :func:`overrun_moves`; a debarked unit moves 4 as Leg, 9.6; a Leg unit with a
  ``riding_tanks`` status moves as the Tracked unit it rides, 9.5), stacking points, supply
  to the unit's own battalion HQ and an HQ's to any other HQ (5.1);
* :mod:`.movement`: the H and ALL cells of the Terrain Chart (9.0), no move across a river
  into an enemy ZOC without a bridge (8.0), fortification chit costs (15.2), rafts (9.7),
  :func:`debark` and :func:`reembark` (9.6), :func:`mount` and :func:`dismount`
  (9.5, +1 MP each to the rider and its carrier), :func:`pin` (a pinned carrier's riders are
  pinned and dismounted, 9.5), :func:`entry_hex` (4.0);
* :mod:`.bridges`: blown bridges and pontoons as markers that change crossings (12.0, 12.1);
* :mod:`.engineers`: :func:`demolish`, :func:`place_pontoon`, :func:`complete_pontoons` and
  :func:`enemy_moved_next_to` (12.0, 12.1), :func:`clear_fortifications` (16.1);
* :mod:`.activation`: the chit-pull order as referee state (2.5, 3.4, 6.0);
* :mod:`.sight`: line of sight with peaks (11.2, 11.3) and fog of war (1.1);
* :mod:`.opfire`: who may opportunity-fire at a unit entering a hex, and at which unit (11.4);
* :mod:`.turn_end`: :func:`end_of_turn` (3.5, with the A25 ruling).

Options (``RULESET.with_options(...)``, else the scenario's ``options``, else the game's, else
:data:`DEFAULTS`) settle the contradictions of the rulebook that touch these rules; the
defaults are the notes' suggested rulings (docs/games/grossdeutschland.md, "Rulings").
"""

from __future__ import annotations

from .activation import Activation, ActivationError, chits_of
from .air import air_chance, air_distribution
from .engineers import clear_fortifications, complete_pontoons, demolish, enemy_moved_next_to, place_pontoon
from .movement import debark, dismount, entry_hex, ma_share, mount, pin, reembark, riders
from .opfire import fire_targets, opportunity_fire
from .ruleset import DEFAULTS, LADDER, RULESET, Grossdeutschland, overrun_moves, time_of_day
from .sight import inspectable, sees
from .turn_end import end_of_turn

__all__ = [
    "Activation", "ActivationError", "DEFAULTS", "Grossdeutschland", "LADDER", "RULESET", "air_chance",
    "air_distribution", "chits_of", "clear_fortifications", "complete_pontoons", "debark", "demolish", "dismount",
    "end_of_turn", "enemy_moved_next_to", "entry_hex", "fire_targets",
    "inspectable", "ma_share", "mount", "opportunity_fire", "overrun_moves", "pin", "place_pontoon", "reembark",
    "riders", "sees", "time_of_day",
]
