"""Demyansk Shield (Legion Wargames 2017) as referee parts plus the hooks its rules need.

Rules are cited by rulebook section. Data carries the TEC (maps/demyansk-shield/map.yaml); the
ruleset's parts carry the movement, ZOC, stacking and supply policy (:mod:`.ruleset`); the
hooks carry what data cannot say, one module per job:

- :mod:`.movement`: roads into enemy ZOC, engineers, heavy units, Strongpoint costs, strategic
  movement along the Supply Road, exploitation (8.3-8.4, 9.1, 14.13);
- :mod:`.zoc`: no-ZOC band units (3.24), no ZOC across prohibited hexsides (3.22) nor into an
  active enemy Strongpoint (3.25); ZOC to ZOC only by the engine's infiltration (MA 7+, 9.2),
  never into an enemy Strongpoint (9.23, in :mod:`.movement`);
- :mod:`.supply`: sources (map, airfields, constructed airfield, Strongpoints, 6.3) and
  blocks for the shared supply search; the map-edge victory checks (16.14, 19.24);
- :mod:`.boxes` (9.35 map boxes), :mod:`.combat` (11-13 odds and support), :mod:`.retreats`
  (12.3-12.4), :mod:`.air` (7.1-7.2), :mod:`.grc` (5.34); :mod:`.features` holds the board
  look-ups they share.

Where the rulebook contradicts itself the notes' suggested ruling is the default and the other
reading is an option of :func:`make_ruleset` (see docs/games/demyansk-shield.md).
"""

from __future__ import annotations

from .air import air_transport, airdrop
from .boxes import entry_box, reachable_from_box
from .combat import (COLUMNS, artillery_may_fire, attack_allowed, bomber_may_support, defender_must_retreat,
                     final_column, halved_attack, initial_odds, major_river_benefit, support_shifts)
from .features import (active_strongpoint_owner, airfields, in_play_area, is_heavy, printed_strongpoint_owner,
                       road_hex)
from .grc import GRC_EXITS, grc_delay_turns, grc_exit, grc_penalty
from .retreats import no_retreat_drm, retreat_destinations, zoc_retreat_drm, zoc_retreat_possible
from .ruleset import DEFAULT_OPTIONS, RULESET, DemyanskShield, make_ruleset
from .supply import (MAP_EDGE_SOURCES, bruckenschlag_won, controls_airfield, demyansk_surrounded, map_sources,
                     supply, supply_road, traces_to_map_edge)
from .zoc import in_enemy_zoc

__all__ = [
    "COLUMNS", "DEFAULT_OPTIONS", "DemyanskShield", "GRC_EXITS", "MAP_EDGE_SOURCES", "RULESET",
    "active_strongpoint_owner", "air_transport", "airdrop", "airfields", "artillery_may_fire", "attack_allowed",
    "bomber_may_support", "bruckenschlag_won", "controls_airfield", "defender_must_retreat",
    "demyansk_surrounded", "entry_box", "final_column", "grc_delay_turns", "grc_exit", "grc_penalty",
    "halved_attack", "in_enemy_zoc", "in_play_area", "initial_odds", "is_heavy", "major_river_benefit",
    "make_ruleset", "map_sources", "no_retreat_drm", "printed_strongpoint_owner", "reachable_from_box",
    "retreat_destinations", "road_hex", "supply", "supply_road", "support_shifts", "traces_to_map_edge",
    "zoc_retreat_drm", "zoc_retreat_possible",
]
