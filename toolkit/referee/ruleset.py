"""The ruleset protocol: the shared parts, options, and hook methods a game may override.

A game's plugin module exposes ``RULESET``, a :class:`Ruleset` (or an instance of a subclass
that overrides hooks). The parts hold data; the hooks hold what data cannot say. The search
code calls the hooks below and nothing else of a ruleset, so overriding one is enough to change
a rule everywhere (reachable sets, path checks, supply, stacking).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, floor
from typing import TYPE_CHECKING, ClassVar

from ..hexes import Hex
from .parts import (CombatRules, CommandRules, LosRules, MovementMode, MovementRules, RetreatRules,
                    StackingRules, SupplyRules, ZocRules)
from .reasons import Code, Reason

if TYPE_CHECKING:
    from .position import Position, Unit

NORMAL = MovementMode(name="normal")


@dataclass
class Step:
    """One step of a move as the shared parts price it, handed to :meth:`Ruleset.step_rule`.

    ``cost`` is what the step costs (MP); ``terrain`` what it would cost off any line
    (terrain + hexside, None if prohibited); ``line`` the line rate available on this link
    (None if none or denied); ``used_line`` whether ``cost`` uses it. ``zoc_from``/``zoc_to``
    count the enemy ZOCs on the two hexes; ``first`` is True for the first step of the move;
    ``spent`` is the MP spent before it; ``stop`` says the move must end on ``b``.

    ``mode`` is the movement mode of the move. ``infiltration`` is True for a ZOC-to-ZOC step
    the shared parts allow as infiltration (``cost`` then spends every MP left, ``stop`` is
    set). ``prohibited`` is the reason the shared parts refuse the step (prohibited terrain
    or hexside, ZOC to ZOC); the step is refused unless the hook returns it with
    ``prohibited=None`` (lifting it; the hook then sets ``cost``, which is 0 + ZOC costs for
    prohibited terrain).
    """

    a: Hex
    b: Hex
    cost: Fraction
    terrain: Fraction | None
    line: Fraction | None
    used_line: bool
    zoc_from: int
    zoc_to: int
    first: bool
    spent: Fraction
    stop: bool
    mode: MovementMode = NORMAL
    infiltration: bool = False
    prohibited: Reason | None = None


def _round(value: Fraction, how: str) -> Fraction:
    if how == "down":
        return Fraction(floor(value))
    if how == "up":
        return Fraction(ceil(value))
    return value


@dataclass
class Ruleset:
    """A game's rules for the referee, composed of the shared parts.

    ``name`` is the entry-point name; ``game`` the game id it referees. ``needs_python`` lists,
    for documentation, the rules this ruleset implements in overridden hooks.
    """

    name: str
    game: str | None = None
    title: str = ""
    movement: MovementRules = field(default_factory=MovementRules)
    zoc: ZocRules = field(default_factory=ZocRules)
    stacking: StackingRules = field(default_factory=StackingRules)
    supply: SupplyRules = field(default_factory=SupplyRules)
    los: LosRules = field(default_factory=LosRules)
    command: CommandRules = field(default_factory=CommandRules)
    combat: CombatRules = field(default_factory=CombatRules)
    retreat: RetreatRules = field(default_factory=RetreatRules)
    options: dict = field(default_factory=dict)
    needs_python: tuple[str, ...] = ()

    # -- movement hooks -------------------------------------------------------------------

    def mode(self, name: str | None) -> MovementMode:
        """The movement mode called ``name`` ("normal" when None)."""
        if name in (None, "normal"):
            return self.movement.modes.get("normal", NORMAL)
        try:
            return self.movement.modes[name]
        except KeyError:
            from ..errors import RulesError
            known = ", ".join(["normal", *self.movement.modes])
            raise RulesError(f"ruleset {self.name} has no movement mode {name!r}; it has {known}") from None

    def unit_class(self, pos: "Position", unit: "Unit") -> str:
        """The movement class (TEC column) of a unit."""
        return unit.counter.unit_class or pos.map.unit_classes[0]

    def movement_allowance(self, pos: "Position", unit: "Unit", mode: MovementMode) -> Fraction:
        """MP a unit has for a move in ``mode``: printed MA, status factors, mode factor/bonus."""
        ma = Fraction(unit.value(self.movement.ma_value, 0) or 0)
        if unit.status:
            for status, factor in self.movement.status_ma.items():
                if status in unit.status:
                    ma = _round(ma * Fraction(factor), self.movement.status_ma_round)
        if mode.ma_factor != 1:
            ma = _round(ma * Fraction(mode.ma_factor), mode.round)
        bonus = mode.ma_bonus_by_type.get(unit.type, mode.ma_bonus) if mode.ma_bonus_by_type else mode.ma_bonus
        return ma + bonus if bonus else ma

    def can_move(self, pos: "Position", unit: "Unit", mode: MovementMode) -> Reason | None:
        """None if the unit may start a move in ``mode``, else why not."""
        mv = self.movement
        for status in mv.cannot_move:
            if status in unit.status:
                return Reason(Code.CANNOT_MOVE, mv.cannot_move_rule,
                              f"{unit.id} is {status.replace('_', ' ')} and cannot move", unit.hex, (unit.id,))
        if mode.name != "normal":
            weather = pos.current_weather
            bad = (mode.weathers and weather not in mode.weathers) or weather in mode.no_weathers
            if bad:
                return Reason(Code.MODE_NOT_ALLOWED, mode.rule,
                              f"{mode.name} movement is not allowed in {weather} weather", unit.hex, (unit.id,))
            if mode.types and unit.type not in mode.types:
                return Reason(Code.MODE_NOT_ALLOWED, mode.rule,
                              f"{unit.id} ({unit.type}) may not use {mode.name} movement", unit.hex, (unit.id,))
            if mode.classes and self.unit_class(pos, unit) not in mode.classes:
                return Reason(Code.MODE_NOT_ALLOWED, mode.rule,
                              f"{unit.id} ({self.unit_class(pos, unit)}) may not use {mode.name} movement",
                              unit.hex, (unit.id,))
            if mode.needs_status and mode.needs_status not in unit.status:
                return Reason(Code.MODE_NOT_ALLOWED, mode.rule,
                              f"{unit.id} lacks the {mode.needs_status.replace('_', ' ')} marker needed for "
                              f"{mode.name} movement", unit.hex, (unit.id,))
        return None

    def may_infiltrate(self, pos: "Position", unit: "Unit") -> bool:
        """True if the unit may move directly from enemy ZOC to enemy ZOC (spending all MP)."""
        z = self.zoc
        if z.infiltration_types and unit.type in z.infiltration_types:
            return True
        if z.infiltration_min_ma is not None:
            return Fraction(unit.counter.front.get(self.movement.ma_value, 0) or 0) >= z.infiltration_min_ma
        return False

    def step_rule(self, pos: "Position", units: list["Unit"], step: Step) -> Step | Reason:
        """Final say on one step, after the shared parts priced it (see :class:`Step`).

        The default returns ``step`` unchanged. A ruleset that overrides this is called for
        every step the search considers (slower, but any rule can be added): return the step
        with another ``cost`` (exact MP: an int or Fraction, not negative; never rounded, a
        finer fraction than the map's makes the search run at a finer scale) or ``stop``, or a
        :class:`Reason` to refuse it. Prohibited
        terrain/hexsides and ZOC-to-ZOC refusals reach the hook as ``step.prohibited`` (which it
        may lift); other refusals (enemy hex, road-only modes, sticky ZOC, entry refused by the
        mode) never reach it.
        """
        return step

    # -- ZOC hooks ------------------------------------------------------------------------

    #: How far (in hexes) from a unit other units can change its ZOC through the hooks
    #: below; the ZOC arrays then follow a move by looking only that far. A subclass that
    #: overrides a hook says how far it looks (None: anywhere, arrays are rebuilt).
    zoc_radius: ClassVar[int | None] = 0

    def exerts_zoc(self, pos: "Position", unit: "Unit") -> bool:
        """True if the unit projects a zone of control."""
        z = self.zoc
        return unit.counter.kind in z.kinds and unit.type not in z.exempt_types

    def zoc_reaches(self, pos: "Position", unit: "Unit", hex: Hex) -> bool:
        """True if the unit's ZOC extends into the adjacent ``hex`` (after the data rules of
        :class:`ZocRules` allowed it). Override for rules such as "no ZOC into a hex with an
        enemy strongpoint"; only called when overridden."""
        return True

    # -- stacking hooks -------------------------------------------------------------------

    def stack_points(self, pos: "Position", unit: "Unit") -> Fraction:
        """Stacking points of one unit."""
        s = self.stacking
        if unit.counter.kind in s.exempt_kinds or unit.type in s.exempt_types:
            return Fraction(0)
        printed = unit.value(s.points_value) if s.points_value else None
        if isinstance(printed, (int, float)):
            return Fraction(printed)
        if unit.type in s.points_by_type:
            pts = Fraction(s.points_by_type[unit.type])
        elif unit.counter.size in s.points_by_size:
            pts = Fraction(s.points_by_size[unit.counter.size])
        else:
            pts = Fraction(s.default_points)
        return pts * Fraction(s.reduced_factor) if unit.reduced else pts

    def stack_rule(self, pos: "Position", hex: Hex, side: str | None, units: list["Unit"]) -> Reason | None:
        """Stacking rules data cannot say (a whole brigade, battalion equivalents of one
        formation...): why ``side``'s ``units`` may not stand together on ``hex``, or None
        (the default)."""
        return None

    def stack_category(self, pos: "Position", unit: "Unit") -> str:
        """The category a unit counts as in :attr:`StackingRules.compositions`."""
        if self.stacking.category_by == "type":
            return unit.type
        return unit.counter.size or unit.type

    def stacking_limit(self, pos: "Position", hex: Hex, side: str | None, mode: str | None = None) -> Fraction | None:
        """The points limit of ``hex`` for ``side``'s units (moving in ``mode``, if any)."""
        s = self.stacking
        limit = None if s.limit is None else Fraction(s.limit)
        codes = [pos.map.terrain(hex), *pos.map.features(hex)]
        by_terrain = [Fraction(s.limit_by_terrain[c]) for c in codes if c in s.limit_by_terrain]
        if by_terrain:
            limit = max(by_terrain)
        key = self.mode(mode).stacking if mode else None
        if key and key in s.limit_by_mode:
            mode_limit = Fraction(s.limit_by_mode[key])
            limit = mode_limit if limit is None else min(limit, mode_limit)
        return limit

    # -- supply hooks ---------------------------------------------------------------------

    def needs_supply(self, pos: "Position", unit: "Unit") -> bool:
        """True if the supply check judges ``unit`` (default: every unit that is not a marker)."""
        return not unit.counter.is_marker

    def supply_blocks(self, pos: "Position", side: str, hex: Hex) -> bool:
        """True if no supply line of ``side`` may pass ``hex`` beyond what :class:`SupplyRules`
        blocks (e.g. an enemy strongpoint). Called per hex only when overridden."""
        return False

    def supply_hexsides(self, pos: "Position", side: str) -> dict:
        """Hexsides whose crossing the position changes for ``side``'s supply lines beyond what
        the map's features say (a blown bridge, a pontoon): ``{Hexside: True}`` blocks one,
        ``{Hexside: False}`` opens one. Called once per trace only when overridden."""
        return {}

    def supply_sources(self, pos: "Position", side: str, context: dict | None = None) -> list:
        """Supply sources of ``side`` now: hexes (serving every unit) or :class:`Source` groups
        (serving some units, or only the units standing on them). Default: the map sources
        active this turn and the hexes of source units. ``context`` is what the caller of
        :func:`~toolkit.referee.supply.supply_status` passed (e.g. the defending units)."""
        s = self.supply
        from .board import board_of
        out: list[Hex] = []
        board = board_of(pos.map)
        for src in pos.map.supply:
            if src.side != side or not src.active(pos.turn):
                continue
            if s.source_kinds is not None and src.kind not in s.source_kinds:
                continue
            out.extend(src.hexes)
            if src.edge:
                out.extend(board.edge_hexes(src.edge))
        if s.source_types:
            out.extend(u.hex for u in pos.on_map(side) if u.type in s.source_types)
        return out

    # -- combat hooks ---------------------------------------------------------------------

    #: A game whose combat is not one odds-and-shift attack answers it itself (White Death:
    #: fire aimed at each unit): an object with ``assess``, ``roll`` and ``apply`` taking the
    #: arguments of assess_combat, roll_combat and apply_combat. None: the shared engine.
    combat_model: ClassVar[object | None] = None

    def combat_status(self, pos: "Position", unit: "Unit", role: str, combat) -> set:
        """The statuses combat judges ``unit`` by ("out_of_supply", "isolated"...; default its
        markers). ``role`` is "attacker" or "defender"; a game that checks supply at the moment
        of combat computes it here."""
        return unit.status

    def attack_refusals(self, pos: "Position", combat) -> list[Reason]:
        """Game rules that forbid the attack beyond :class:`CombatRules` (default none):
        activation, required attacks, stacking of attackers..."""
        return []

    def combat_modifiers(self, pos: "Position", combat) -> list:
        """Column shifts and DRMs the data cannot say (combined arms, concentric attack...), as
        :class:`~toolkit.referee.combat_strength.Modifier` entries (default none)."""
        return []

    def combat_dice(self, pos: "Position", combat) -> str | None:
        """The dice this combat rolls on the CRT instead of the chart's (``"3d6"`` at night;
        default None: the chart's dice for the attacker's side, rerolls included)."""
        return None

    def check_support(self, pos: "Position", combat, support) -> Reason | None:
        """None if ``support`` may be given to ``combat`` beyond :class:`SupportRules` (HQ
        range and colour, bombers only on some terrain...), else why not."""
        return None

    def first_loss(self, pos: "Position", role: str, units: list["Unit"], enemies: list["Unit"]):
        """Who must take the first step ``units`` (the ``role``'s side of a combat, against
        ``enemies``) lose: ``(unit ids, rule, why)``, or None (default): the owner chooses."""
        return None

    def retreat_to_loss(self, pos: "Position", role: str, units: list["Unit"]) -> str | None:
        """The rule letting ``units`` take their mandatory retreat as step losses instead, hex
        for hex, staying put (VV 6.4: quality A or B, or in a city or village); None (default):
        the mandatory retreat is due."""
        return None

    def no_retreat(self, pos: "Position", role: str, units: list["Unit"]):
        """Whether ``units`` (the ``role``'s side of a combat, after its losses) may try No
        Retreat on ``RetreatRules.no_retreat_chart``: ``(drm, why)`` (the DRM and the words for
        it), or a Reason refusing it; default: a refusal (the game has no such option)."""
        return Reason(Code.COMBAT_CHOICE, self.retreat.no_retreat_rule, "this game has no No Retreat option")

    def zoc_retreat(self, pos: "Position", role: str, units: list["Unit"]):
        """Whether ``units`` with no legal retreat may try one through an enemy ZOC
        (``RetreatRules.zoc_retreat_rule``): ``(drm, why)`` or a Reason refusing it (default)."""
        return Reason(Code.COMBAT_CHOICE, self.retreat.zoc_retreat_rule,
                      "this game has no retreat through an enemy ZOC")

    def retreat_before_combat(self, pos: "Position", units: list["Unit"]):
        """Whether the defending ``units`` may try a Retreat Before Combat on
        ``RetreatRules.no_retreat_chart`` (``RetreatRules.before_combat_rule``): ``(drm, why)`` or a
        Reason refusing it (default: the game has none)."""
        return Reason(Code.COMBAT_CHOICE, self.retreat.before_combat_rule,
                      "this game has no Retreat Before Combat")

    def retreat_priority(self, pos: "Position", units: list["Unit"], hex: Hex, path: list[Hex]):
        """A sort key for the next retreat hex (lower is better); None: no priorities (the
        owner chooses among every legal hex)."""
        return None

    def may_retreat_into(self, pos: "Position", units: list["Unit"], a: Hex, b: Hex) -> bool | None:
        """True/False to decide whether ``units`` may retreat from ``a`` into ``b`` whatever the
        terrain says; None (default): the movement board decides (prohibited terrain/hexsides)."""
        return None

    def supply_status(self, failures: int) -> str:
        """The status name after ``failures`` consecutive failed checks (0: "supplied")."""
        if failures <= 0:
            return "supplied"
        ladder = self.supply.ladder
        return ladder[min(failures, len(ladder)) - 1]


@dataclass(frozen=True)
class Source:
    """Supply source hexes that serve only some units.

    ``serves(unit)`` says whether the source serves ``unit`` (None: every unit); with
    ``trace=False`` it serves only the units standing on its hexes (no supply line).
    ``kind`` names it in answers ("airfield", "strongpoint"...)."""

    hexes: tuple[Hex, ...]
    serves: Callable[["Unit"], bool] | None = None
    trace: bool = True
    kind: str = ""
