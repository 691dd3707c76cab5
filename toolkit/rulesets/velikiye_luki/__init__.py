"""Velikiye Luki 1942-1943 (Vae Victis): the referee's ruleset.

Rules cited as "n.n" are sections of the rulebook; "TEC" is its Terrain Effects Table. The
shared parts carry what data can say (stop on entering a ZOC, +2 MP to leave one, no move from
one enemy ZOC to another of the same enemy unit (4.2.1, ``zoc_to_zoc="same-unit"``), friendly
units do not negate a ZOC for movement, the stacking compositions of rule 5 checked at the end
of each phase, supply of any length blocked by enemy units and by enemy ZOC unless a friendly
unit is there, isolated then unsupplied). Python hooks add the rest, one module per job:

* :mod:`.ruleset`: movement allowance (6 MP infantry, 8 MP mechanised, halved when unsupplied,
  3.1, 8.3; the Festung counters never move, 1.6), the Festung's ZOC off while Velikiye Luki
  is encircled (4.2.2, 7.6), the Festung left out of the supply check (estimated), the
  stacking categories of rule 5 (a reduced division and one cadre make a division, 1.7);
* :mod:`.movement`: road and rail (3.2: infantry always has the rate; a mechanised unit only
  alone or with infantry and into no hex holding a friendly mechanised unit), ski units
  infiltrating infantry (4.4, not stopped by the ZOC they infiltrate), lakes for infantry;
* :mod:`.city`: the encirclement of 7.1 and 7.2; :mod:`.retreats`: 6.5.1 and 4.3;
  :mod:`.cadres`: :func:`split_division`, :func:`reintegrate`, :func:`lose_step` (1.7).

Options (``RULESET.with_options(...)``, else the scenario's ``options``, else the game's,
else :data:`DEFAULTS`) settle the rulebook's conflicts; the defaults follow the reference
notes: ``mech_road_cost`` "1/2" (3.2 example) or "1" (TEC 6); ``bridge_mechanised`` "cancel"
(3.2) or "plus1" (TEC 9); ``lake_infantry`` "prohibited" (the map prints the TEC's "–" as
prohibited) or "1" (the step hook lifts the prohibition at 1 MP).
"""

from __future__ import annotations

from .cadres import lose_step, reintegrate, split_division
from .city import encircled, encirclement, velikiye_luki_hexes
from .movement import MECH, enemy_zoc_at, is_infantry
from .retreats import FRIENDLY_EDGE, RetreatCheck, check_retreat, retreat_options
from .ruleset import DEFAULTS, RULESET, VelikiyeLuki

__all__ = [
    "DEFAULTS", "FRIENDLY_EDGE", "MECH", "RULESET", "RetreatCheck", "VelikiyeLuki", "check_retreat", "encircled",
    "encirclement", "enemy_zoc_at", "is_infantry", "lose_step", "reintegrate", "retreat_options",
    "split_division", "velikiye_luki_hexes",
]
