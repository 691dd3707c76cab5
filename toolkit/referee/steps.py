"""Pricing one step of a move: the shared parts first (terrain, hexsides, lines, enemy hexes,
ZOC), then the ruleset's :meth:`~toolkit.referee.Ruleset.step_rule` hook, which sees the step
(mode, infiltration, refusals it may lift) and has the final say. Used by the search
(:mod:`.movement`) and the path check (:mod:`.paths`) alike, so both give one answer.

MP stay exact: the pricer works at a board scale that expresses the map's costs, the ruleset's
ZOC costs and line rate, and the allowance (status and mode factors included). A hook cost the
scale cannot express raises :class:`~toolkit.referee.board.FinerScale`, and :func:`priced`
runs the question again at a scale that expresses it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cached_property
from typing import TypeVar

from ..errors import RulesError
from .board import NO, Board, FinerScale, board_of, fit_scale
from .parts import MovementMode
from .position import Position, Unit
from .reasons import Code, Reason
from .ruleset import Ruleset, Step
from .zoc import enemy_zoc, enemy_zoc_owners, occupied


class StepPricer:
    """Everything one move looks up, as flat arrays over board indices, and :meth:`step`."""

    def __init__(self, pos: Position, rs: Ruleset, units: list[Unit], mode: MovementMode,
                 scale: int | None = None) -> None:
        self.pos, self.rs, self.units, self.mode = pos, rs, units, mode
        mv, z = rs.movement, rs.zoc
        self.ma = min(Fraction(rs.movement_allowance(pos, u, mode)) for u in units)
        base = board_of(pos.map)
        scale = fit_scale(scale or base.scale, base.scale, z.enter_cost, z.leave_cost, mode.line_rate, self.ma)
        board = self.board = base.at_scale(scale)
        side = units[0].side
        weather = pos.current_weather
        classes = self.classes = (rs.unit_class(pos, units[0]),) if len(units) == 1 else \
            tuple(sorted({rs.unit_class(pos, u) for u in units}))
        self.weather = weather
        line_set = mode.lines or mv.lines
        line_ok = not (len(units) > 1 and any(c in mv.line_alone_classes for c in classes))
        self.line_denied = not line_ok
        self.dense = board.edge_arrays(classes, weather, mv.feature_costs, mv.bridges_ignore_hexsides,
                                       line_set, mode.line_rate, line_ok)
        self.ez = _movement_zoc(pos, rs, side)
        self.enemy = _closed(pos, board, side, mode.near_enemy)
        self.enter_cost = board.scaled(z.enter_cost)
        self.leave_cost = board.scaled(z.leave_cost)
        self.ma_scaled = board.scaled(self.ma)
        self.infiltrate = mode.infiltration and all(rs.may_infiltrate(pos, u) for u in units)
        self.minimum = mv.minimum_move and not any(u.moved for u in units)
        self.hook = type(rs).step_rule is not Ruleset.step_rule

    @cached_property
    def enter(self) -> list[int]:
        """Off-line cost to enter each hex (only to say whether terrain or hexside refused)."""
        mv = self.rs.movement
        enters = [self.board.enter_costs(c, self.weather, mv.feature_costs) for c in self.classes]
        return enters[0] if len(enters) == 1 else [NO if NO in v else max(v) for v in zip(*enters)]

    def step(self, i: int, k: int, j: int, g: int, start: int) -> tuple[int, bool] | Reason:
        """Cost after stepping i -> j having spent ``g``: ``(new spent, stops)`` or why not.

        Refusals a hook may lift (prohibited terrain or hexside, ZOC to ZOC) are handed to
        :meth:`Ruleset.step_rule` as ``Step.prohibited`` when the ruleset has the hook."""
        board, rs, mv, z, mode = self.board, self.rs, self.rs.movement, self.rs.zoc, self.mode
        hex_j = board.hexes[j]
        ids = tuple(u.id for u in self.units)
        if self.enemy[j]:
            if not mode.near_enemy and not occupied(self.pos, self.units[0].side, True)[j]:
                return Reason(Code.MODE_NOT_ALLOWED, mode.rule, f"{mode.name} movement may not come next to an "
                              f"enemy unit ({board.map.format(hex_j)})", hex_j, ids)
            return Reason(Code.ENEMY_OCCUPIED, mv.enemy_rule, f"{board.map.format(hex_j)} holds an enemy unit", hex_j, ids)
        ez_i, ez_j = self.ez[i], self.ez[j]
        off, line = self.dense
        lc = line[k] if line[k] != NO else None
        if lc is not None and not ((mv.line_into_ezoc or not ez_j) and (mv.line_out_of_ezoc or not ez_i)):
            lc = None
        prohibited = None
        if lc is not None:
            c = lc
        else:
            if mode.road_only:
                return Reason(Code.MODE_ROAD_ONLY, mode.rule, f"{mode.name} movement must follow a road; the step "
                              f"into {board.map.format(hex_j)} does not", hex_j, ids)
            c = off[k]
            if c == NO:
                prohibited = self._prohibited(k, j, ids)
                if not self.hook:
                    return prohibited
                c = 0
        stop = whole = False
        if ez_i and z.sticky:
            return Reason(Code.ZOC_STICKY, z.rule, "a unit in an enemy ZOC may not leave it", board.hexes[i], ids)
        if ez_j:
            if not mode.enter_ezoc:
                return Reason(Code.ZOC_ENTRY, mode.rule, f"{mode.name} movement may not enter the enemy ZOC at "
                              f"{board.map.format(hex_j)}", hex_j, ids)
            if ez_i:
                whole = i == start and (self.infiltrate or z.zoc_to_zoc == "one-hex")
                if not whole:
                    # a ZOC-to-ZOC refusal wins over prohibited terrain: lifting it is the
                    # hook's business (it then sees ``terrain`` None for the terrain)
                    prohibited = self._zoc_to_zoc(i, j, ids) or prohibited
                    if prohibited is not None and not self.hook:
                        return prohibited
            c += self.enter_cost
            stop = z.stop
        if ez_i:
            c += self.leave_cost
        if whole:   # infiltration or a one-hex move: every MP left, then stop
            c, stop = max(self.ma_scaled, g + 1) - g, True
        ng = g + c
        if self.hook:
            terrain = None if off[k] == NO else board.to_mp(off[k])
            step = Step(board.hexes[i], hex_j, board.to_mp(c), terrain, None if lc is None else board.to_mp(lc),
                        lc is not None, int(ez_i), int(ez_j), i == start, board.to_mp(g), stop,
                        mode, whole and self.infiltrate, prohibited)
            got = rs.step_rule(self.pos, self.units, step)
            if isinstance(got, Reason):
                return got
            if got.prohibited is not None:
                return got.prohibited
            ng, stop = g + self._hook_cost(got.cost, hex_j), got.stop
        if ng > self.ma_scaled and not whole:
            if self.minimum and i == start:
                return (ng, True)
            return Reason(Code.NOT_ENOUGH_MP, mv.rule, f"entering {board.map.format(hex_j)} costs "
                          f"{fmt_mp(board.to_mp(ng - g))} MP but only {fmt_mp(board.to_mp(self.ma_scaled - g))} are left",
                          hex_j, ids)
        return (ng, stop)

    def _hook_cost(self, cost, hex_j) -> int:
        """A cost the hook returned, in board units: exact MP, never negative."""
        if isinstance(cost, bool) or not isinstance(cost, (int, Fraction)):
            raise RulesError(f"ruleset {self.rs.name}: step_rule priced the step into "
                             f"{self.board.map.format(hex_j)} as {cost!r}; MP must be an int or a Fraction")
        if cost < 0:
            raise RulesError(f"ruleset {self.rs.name}: step_rule priced the step into "
                             f"{self.board.map.format(hex_j)} at {cost} MP; a step may not cost less than 0")
        return self.board.scaled(cost)   # FinerScale if too fine: priced() retries at its scale

    def _prohibited(self, k: int, j: int, ids: tuple) -> Reason:
        """Why the step across link ``k`` into ``j`` is refused off any line."""
        board, mv = self.board, self.rs.movement
        hex_j = board.hexes[j]
        if self.enter[j] == NO:
            t = board.terrain[j]
            return Reason(Code.PROHIBITED_TERRAIN, mv.terrain_rule,
                          f"{t or 'unmapped'} terrain at {board.map.format(hex_j)} is prohibited", hex_j, ids)
        codes = "/".join(board.side_codes.get(k, ()))
        return Reason(Code.PROHIBITED_HEXSIDE, mv.hexside_rule,
                      f"crossing the {codes} hexside into {board.map.format(hex_j)} is prohibited", hex_j, ids)

    def _zoc_to_zoc(self, i: int, j: int, ids: tuple) -> Reason | None:
        """Why moving from the enemy ZOC hex ``i`` to the enemy ZOC hex ``j`` is refused."""
        board, z = self.board, self.rs.zoc
        a, b = board.map.format(board.hexes[i]), board.map.format(board.hexes[j])
        rule = z.zoc_to_zoc_rule or z.rule
        if z.zoc_to_zoc in ("forbidden", "one-hex"):
            return Reason(Code.ZOC_TO_ZOC, rule, f"may not move directly from enemy ZOC at {a} to enemy ZOC at {b}",
                          board.hexes[j], ids)
        if z.zoc_to_zoc == "same-unit":
            owners = enemy_zoc_owners(self.pos, self.rs, self.units[0].side)
            shared = owners[i] & owners[j]
            if shared:
                return Reason(Code.ZOC_TO_ZOC, rule, f"may not move directly from {a} to {b}: both are in the ZOC "
                              f"of {', '.join(sorted(shared))}", board.hexes[j], ids)
        return None


_T = TypeVar("_T")
_RETRIES = 8


def priced(pos: Position, rs: Ruleset, units: list[Unit], mode: MovementMode,
           run: Callable[[StepPricer], _T]) -> _T:
    """``run`` with a :class:`StepPricer`, run again at a finer scale each time a hook prices a
    step finer than the scale so far (exact answers, never rounded ones)."""
    scale = None
    for _ in range(_RETRIES):
        try:
            return run(StepPricer(pos, rs, units, mode, scale))
        except FinerScale as finer:
            scale = finer.scale
    raise RulesError(f"ruleset {rs.name}: step_rule costs need a unit finer than 1/{scale} MP; "
                     f"give costs in fewer distinct fractions")


def _movement_zoc(pos: Position, rs: Ruleset, side: str | None) -> list[int]:
    """Enemy ZOC as movement sees it (cancelled by friendly units where the rules say so)."""
    if not rs.zoc.friendly_negates:
        return enemy_zoc(pos, rs, side)
    def build():
        friend = occupied(pos, side, enemy=False)
        return [0 if f else e for e, f in zip(enemy_zoc(pos, rs, side), friend)]
    return pos.cached("move-zoc", rs, side, build)


def _closed(pos: Position, board: Board, side: str | None, near_enemy_ok: bool) -> bytearray:
    """Hexes a move may not enter: enemy-occupied ones, and their neighbours for modes that
    may not come next to the enemy."""
    enemy = occupied(pos, side, enemy=True)
    if near_enemy_ok:
        return enemy
    key = ("near-enemy", side)
    near = pos._cache.get(key)
    if near is None:
        near = bytearray(enemy)
        for i in range(board.n):
            if enemy[i]:
                for _, j in board.nb[i]:
                    near[j] = 1
        pos._cache[key] = near
    return near


def fmt_mp(mp: Fraction) -> str:
    """MP as text: "3", "1/2"."""
    return str(mp) if mp.denominator != 1 else str(mp.numerator)
