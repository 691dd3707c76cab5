"""The White Death ruleset: the parts set by data, the rule options (notes 13 gaps, each with the
notes' fill as default), and the hooks data cannot say (impulse MP, river hexes, ZOC
exceptions, Rule 4 stacking, garrisons)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ...referee import (CombatRules, LosRules, MovementRules, Position, Reason, RetreatRules, Ruleset, StackingRules,
                        SupplyRules, Unit, ZocRules)
from ...referee.reasons import Code
from .._options import RuleOptions
from . import movement, stacking
from .combat import WhiteDeathCombat
from . import units as U
from .impulses import budget_of
from .terrain import city_hexes, garrison_towns

#: Every rule option with its default: the notes' suggested fill (docs/games/white-death.md).
DEFAULTS = {
    "german_stacking": "reconstructed",   # notes 6 / 13.2: three BE, or four of one formation, +1 company
    "isolation_edges": "supply",          # notes 13.2: isolation traces to the 15 B edges ("rail": the Rule 8 edges)
    "pass_cost": "1",                     # notes 13.2: a pass costs 1 MP (board game); "0": free
    "soviet_assault_minimum": "impulse",  # notes 5.2: the impulse is 3 MP or all left; "unit": each unit's 3 MP
    "garrison_units": "named",            # notes 13.2: the VL, Isotcha, Nowossokoljniki units; "all": every German
    "vl_release": "widening",             # notes 10.5: 1, 1-2, 1-3, then 1-4, 1-5, automatic; "capped": 1-3 on
    "afv_transit_stop": "failed_mc",      # 3 A: a failed MC ends an AFV's transit; "any_loss": the UI's reading
    "brandenburg_detection": "at_most_1",  # notes 12 (21 B): a modified roll of 1 or less; "exactly_1": literal
    "support_charge": "impulse",          # notes 13.2 (15 A.4): 1 SP an impulse; "hex": per defended hex (UI)
}
_CHOICES = {
    "german_stacking": ("reconstructed", "literal"),
    "isolation_edges": ("supply", "rail"),
    "pass_cost": ("1", "0"),
    "soviet_assault_minimum": ("impulse", "unit"),
    "garrison_units": ("named", "all"),
    "vl_release": ("widening", "capped"),
    "afv_transit_stop": ("failed_mc", "any_loss"),
    "brandenburg_detection": ("at_most_1", "exactly_1"),
    "support_charge": ("impulse", "hex"),
}
OPENING = ("campaign", "purkayev")         # Rule 22: the scenarios whose initial troops are garrisons


@dataclass
class WhiteDeath(RuleOptions, Ruleset):
    """White Death (RAW 1991); options: :data:`DEFAULTS`."""

    OPTION_DEFAULTS: ClassVar[dict] = DEFAULTS
    OPTION_CHOICES: ClassVar[dict] = _CHOICES
    OPTIONS_OF: ClassVar[str] = "White Death"

    needs_python: tuple[str, ...] = (
        "5 impulse MP budget", "7 river and creek enter/leave costs", "16 B same-side exit of river hexes in thaw",
        "3 A/B/C AFV, ski and weapons units in enemy ZOC",
        "3 A AFV transit fire", "21 B Brandenburg escorts", "12 A assaults into prohibited terrain",
        "15 A/D supply points and the Velikiye Luki waiver", "4 stacking by battalion equivalents and brigades",
        "8 rail movement", "15 B/C artillery supply and isolation", "20 bridges", "22 garrisons",
        "p.35 intrinsic garrisons", "9-11, 14 fire aimed at each unit, morale (combat_model)")

    #: 9-11, 14: fire aimed at individual units, resolved by :mod:`.combat` (not odds and shifts)
    combat_model: ClassVar[object] = WhiteDeathCombat()

    # -- impulse MP (Rule 5, 6 A) ------------------------------------------------------------

    def movement_allowance(self, pos: Position, unit: Unit, mode) -> Fraction:
        """Every unit may spend up to the MP its side declared for the impulse (6 A); before a
        declaration, what the side could still declare. Less what it spent this impulse."""
        budget = budget_of(pos)
        cur = budget.current
        mp = cur[1] if cur is not None and cur[0] == unit.side else budget.left.get(unit.side, 0)
        spent = Fraction(str((pos.state.get("spent") or {}).get(unit.id, 0)))
        if "entering" in unit.status and unit.hex is not None:
            # 17 C: a reinforcement pays the MP cost to enter the map-edge hex it appears in
            spent += movement.entry_cost(self, pos, unit)
        return max(Fraction(0), Fraction(mp) - spent)

    def can_move(self, pos: Position, unit: Unit, mode) -> Reason | None:
        if U.is_bunker(unit):
            return Reason(Code.CANNOT_MOVE, "19", f"{unit.id} is a bunker", unit.hex, (unit.id,))
        if pos.turn == 1 and self.garrison(pos, unit):
            return Reason(Code.CANNOT_MOVE, "22", f"{unit.id} is a garrison unit and may not move on turn 1",
                          unit.hex, (unit.id,))
        return super().can_move(pos, unit, mode)

    def garrison(self, pos: Position, unit: Unit) -> str | None:
        """Which garrison an initial unit of Scenario I or the Campaign belongs to (Rule 22):
        "Velikiye Luki", "Isotcha", "Nowossokoljniki", "other" (option garrison_units=all), None."""
        if unit.side != "german" or pos.scenario not in OPENING:
            return None
        initial = self._initial(pos)
        if unit.id not in initial:
            return None
        hex = initial[unit.id]
        if hex in city_hexes(pos.map):
            return "Velikiye Luki"
        place = pos.map.place_at(hex) if hex is not None else None
        for name in ("Isotcha", "Nowossokoljniki"):
            if (place is not None and place.name == name) or (hex in garrison_towns(pos.map) and
                                                              _near_place(pos, hex, name)):
                return name
        return "other" if self.option(pos, "garrison_units") == "all" else None

    def _initial(self, pos: Position) -> dict:
        """Counter id -> set-up hex of the position's scenario (cached with the position)."""
        def build():
            out: dict = {}
            for p in pos.game.scenarios[pos.scenario].setup:
                for cid in p.units:
                    out.setdefault(cid, p.hex)
            return out
        return pos.cached("white-death-initial", self, None, build)

    def vl_confined(self, pos: Position, unit: Unit) -> bool:
        """True while the Velikiye Luki garrison is not released (22; ``state.vl_released``)."""
        return (pos.turn or 1) >= 2 and not pos.state.get("vl_released") and \
            self.garrison(pos, unit) == "Velikiye Luki"

    def vl_release_chance(self, pos: Position, turn: int) -> Fraction:
        """The chance the VL garrison is released at the start of ``turn`` (22): 1 on turn 2,
        1-2 on turn 3, 1-3 on turn 4, "etc." (option vl_release)."""
        if turn < 2:
            return Fraction(0)
        faces = turn - 1
        if self.option(pos, "vl_release") == "capped":
            faces = min(faces, 3)
        return Fraction(min(faces, 6), 6)

    def step_rule(self, pos, units, step):
        return movement.step_rule(self, pos, units, step)

    def reachable(self, pos, unit_ids, mode=None):
        return movement.reachable(self, pos, unit_ids, mode)

    def path_refusal(self, pos, units, path):
        return movement.path_refusal(self, pos, units, path)

    # -- ZOC (Rule 3) ----------------------------------------------------------------------

    def exerts_zoc(self, pos: Position, unit: Unit) -> bool:
        """Every unit but an unstacked German weapons company (3)."""
        if unit.counter.is_marker:
            return False
        if unit.side == "german" and U.is_weapons(unit) and U.size(unit) == "I":
            others = [u for u in pos.at(unit.hex) if u is not unit and u.side == unit.side
                      and not u.counter.is_marker]
            return bool(others)
        return True

    # -- supply (Rule 15) -------------------------------------------------------------------

    def supply_sources(self, pos, side, context=None):
        """The friendly edges; for the artillery trace (15 B) only their road and rail hexes:
        the seven hexes lead to "a road or railroad which runs back to a friendly board edge"."""
        hexes = super().supply_sources(pos, side, context)
        if self.supply.rule != "15 B":
            return hexes
        from .terrain import line_hexes
        lines = line_hexes(pos.map)
        return [h for h in hexes if h in lines]

    # -- stacking (Rule 4) -------------------------------------------------------------------

    def stack_rule(self, pos, hex, side, units):
        return stacking.stack_rule(self, pos, hex, side, units)

    # -- assaults and passes (Rule 5) ------------------------------------------------------------

    def assault_refusal(self, pos: Position, unit: Unit) -> Reason | None:
        """Why ``unit`` may not assault in the impulse in progress (Rule 5, 6 B.3), or None."""
        budget = budget_of(pos)
        left = self.movement_allowance(pos, unit, self.mode(None))
        if left < 1:
            return Reason(Code.NOT_ENOUGH_MP, "6 B.3", f"{unit.id} needs 1 MP to assault and has none left",
                          unit.hex, (unit.id,))
        if unit.side == "soviet" and self.option(pos, "soviet_assault_minimum") == "unit":
            # the other reading of "3 MPs or all remaining": the unit keeps 3 MP of the impulse
            # for the assault, or has not moved (all its MP remain)
            cur = budget.current
            whole = Fraction(cur[1]) if cur and cur[0] == "soviet" else Fraction(0)
            if left >= 3 or (left == whole and left > 0):
                return None
            return Reason(Code.CUSTOM, "5", f"{unit.id} has {left} MP left: a Soviet unit assaults with 3 MP or "
                          "all its remaining MP (option soviet_assault_minimum=unit)", unit.hex, (unit.id,))
        why = budget.may_assault(unit.side)
        return None if why is None else Reason(why.code, why.rule, why.text, unit.hex, (unit.id,))

    def pass_cost(self, pos: Position) -> int:
        """MP a pass costs (the manual is silent; option pass_cost)."""
        return int(self.option(pos, "pass_cost"))

    # -- referee questions of this game (``hexforge referee impulse`` / ``analysis``) ----------

    def budget(self, pos: Position):
        """The impulse budget of the position (Rule 5)."""
        return budget_of(pos)

    def declare(self, pos: Position, mp: int | None, passing: bool = False) -> None:
        """Declare the next impulse in ``pos`` (``mp`` MP, or a pass at the option's cost);
        the units' MP spent in the last impulse are forgotten."""
        from .impulses import set_budget
        budget = budget_of(pos)
        side = budget.next_side()
        if side is None:
            budget.declare("soviet", 1)          # raises: the turn is over
        mp = min(self.pass_cost(pos), budget.left[side]) if passing else mp
        set_budget(pos, budget.declare(side, mp, passing=passing))
        pos.state.pop("spent", None)
        pos.state.pop("combat", None)            # 11 B.1, 14 B.1-2 last one impulse
        pos.side = side
        pos.touch()

    def rail_moves(self, pos: Position, unit_id: str):
        """Where a unit may go by rail this impulse (Rule 8): :func:`.rail.rail_moves`."""
        from .rail import rail_moves
        return rail_moves(pos, self, unit_id)

    ANALYSES: ClassVar[tuple] = ("isolation", "artillery")

    def analysis(self, pos: Position, kind: str, side: str):
        """The 1991 program's analysis screens: "isolation" (15 C, every unit) or "artillery"
        (15 B, the trace of artillery to roads running to a friendly edge)."""
        from .supply import artillery_supply, isolation
        if kind == "isolation":
            return isolation(pos, self, side)
        if kind == "artillery":
            return artillery_supply(pos, self, side)
        from ...errors import RulesError
        raise RulesError(f"unknown analysis {kind!r}; White Death has {', '.join(self.ANALYSES)}")


def _near_place(pos: Position, hex, name: str) -> bool:
    return any(p.name == name and pos.map.grid.distance(p.hex, hex) <= 1 for p in pos.map.places)


def _ruleset() -> WhiteDeath:
    return WhiteDeath(
        name="white-death",
        game="white-death",
        title="White Death: Battle for Velikiye Luki (RAW 1991)",
        movement=MovementRules(rule="6 A", terrain_rule="7", hexside_rule="7, 13", line_rule="7, 8",
                               enemy_rule="6 A", feature_costs="max", lines=("road", "rail"),
                               bridges_ignore_hexsides=False),
        zoc=ZocRules(rule="3", kinds=("unit",), exempt_types=(), stop=True, enter_cost=0, leave_cost=1,
                     zoc_to_zoc="allowed", friendly_negates=False),
        stacking=StackingRules(rule="4", limit=None, points_value=None, exempt_kinds=("marker",),
                               exempt_types=("bunker",), enemy_together=False, when="move"),
        supply=SupplyRules(rule="15 C", source_kinds=("edge",), max_length=None, road_lines=(),
                           enemy_blocks=True, ezoc_blocks=True, friendly_negates=False, hexsides_block=False,
                           ladder=("isolated",), ladder_rule="15 C"),
        los=LosRules(rule="11 B.3.c", along_hexside="both"),
        combat=CombatRules(rule="9", crt="conventional_fire", odds_rule="9 C.3", terrain_rule="12",
                           strength_rule="9 C.1", status_rule="15 C",
                           context_keys={"barrage_sp": (), "barrage_attacks": ()}),   # 15 A.3 (--fire/--target set the rest)
        retreat=RetreatRules(rule="14 B", away="farther", enemy_zoc="loss", friendly_negates=False,
                             stacking_end=True, advance=1, advance_rule="9 D"),
    )


RULESET = _ruleset()
