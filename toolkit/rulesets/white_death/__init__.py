"""White Death / Battle for Velikiye Luki (RAW 1991): the ruleset (:mod:`.ruleset`), the
impulse budget (:mod:`.impulses`), river hexes and bridges (:mod:`.terrain`, :mod:`.bridges`),
rail movement (:mod:`.rail`), AFV transit, Brandenburgers and
assaults into prohibited terrain (:mod:`.activity`), supply points (:mod:`.logistics`), stacking (:mod:`.stacking`), supply and isolation (:mod:`.supply`); combat: fire aimed at units (:mod:`.combat`,
:mod:`.assessment`, :mod:`.fire`, :mod:`.shots`, :mod:`.fire_apply`), the fire tables (:mod:`.fire_tables`),
artillery and observation (:mod:`.artillery`), morale (:mod:`.morale`), AFV transit fire (:mod:`.transit`)."""

from .activity import (assault_into_refusal, brandenburg_chance, brandenburg_found, brandenburg_rolls,
                       transit_fire, transit_outcome)
from .artillery import barrage_value, observed, observers_for, sees, support_value
from .bridges import blow_bridge, build_bridge
from .combat import FireAssessment, WhiteDeathCombat
from .extras import air_drop_chance, entry_closed, entry_zone, ice_rolls, vl_route
from .fire import defence_value, fire_value, garrison_unit
from .fire_apply import retreat_ends
from .fire_tables import FireResult, FireTable, fire_table
from .impulses import Budget, budget_of, set_budget
from .morale import MoraleCheck, check_odds, morale_check, tank_fright
from .logistics import (Isolation, barrage_factor, defence_cost, impulse_cost, isolation_effects, pools, spend,
                        support_factor, waive_vl_isolation)
from .rail import RailAnswer, rail_moves
from .ruleset import DEFAULTS, RULESET, WhiteDeath
from .stacking import battalion_equivalents, german_refusal, soviet_refusal
from .shots import Outcome, Shot
from .supply import artillery_supply, isolation
from .terrain import along, bank, bridges, city_hexes, garrison_holds, garrison_towns, water
from .transit import transit_odds

__all__ = [
    "assault_into_refusal", "brandenburg_chance", "brandenburg_found", "brandenburg_rolls", "transit_fire",
    "transit_outcome", "Isolation", "barrage_factor", "defence_cost", "impulse_cost", "isolation_effects", "pools",
    "spend", "support_factor", "waive_vl_isolation",
    "air_drop_chance", "entry_closed", "entry_zone", "ice_rolls", "vl_route",
    "Budget", "DEFAULTS", "RULESET", "RailAnswer", "WhiteDeath", "along", "artillery_supply", "bank",
    "battalion_equivalents", "blow_bridge", "bridges", "budget_of", "build_bridge", "city_hexes", "garrison_holds",
    "garrison_towns", "german_refusal", "isolation", "rail_moves", "set_budget", "soviet_refusal", "water",
    "barrage_value", "observed", "observers_for", "sees", "support_value", "FireAssessment", "WhiteDeathCombat",
    "defence_value", "fire_value", "garrison_unit", "retreat_ends", "FireResult", "FireTable", "fire_table",
    "MoraleCheck", "check_odds", "morale_check", "tank_fright", "Outcome", "Shot", "transit_odds",
]
