"""Movement: the hexes a unit or stack can reach, with MP left and the cheapest path.

One Dijkstra over hex indices with lazy deletion (costs are edge costs: hexsides, line links,
ZOC exit), each step priced by :class:`~toolkit.referee.steps.StepPricer`. A hex whose entry
ends the move (enemy ZOC with ``stop``, infiltration, the minimum move) is a destination but
is not expanded. Stacking is not part of the search; see
:func:`toolkit.referee.stacking.check_stacking`. The step-by-step check of a given path is
:mod:`.paths`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from heapq import heappop, heappush

from ..errors import RulesError
from ..hexes import Hex
from .board import Board, board_of
from .parts import MovementMode
from .position import Position, Unit
from .reasons import Code, Reason
from .ruleset import Ruleset
from .steps import StepPricer, fmt_mp, priced


@dataclass
class Reach:
    """The answer to "where can this unit (stack) go": MP left and cheapest path per hex.

    ``refused`` is set (and nothing is reachable) when the units may not move at all.
    Hexes are those entered by some legal move; the start hex is not counted.
    """

    units: tuple[str, ...]
    start: Hex | None
    ma: Fraction
    board: Board
    spent: dict = field(default_factory=dict)     # index -> scaled MP spent
    prev: dict = field(default_factory=dict)      # search node -> previous node (-1 at the start)
    stopped: set = field(default_factory=set)     # indices reached only by steps that end the move
    refused: Reason | None = None
    #: index -> the search node whose path is reported (default: the index itself). The
    #: generic search keeps two nodes per hex, ``i`` (may go on) and ``i + n`` (move ended).
    entry: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return max(0, len(self.spent) - 1)

    def __contains__(self, hex: Hex) -> bool:
        i = self.board.index.get(hex)
        return i is not None and i in self.spent and hex != self.start

    def hexes(self) -> list[Hex]:
        """Reachable hexes, start excluded, in map order."""
        hx = self.board.hexes
        return [hx[i] for i in sorted(self.spent) if hx[i] != self.start]

    def mp_left(self, hex: Hex) -> Fraction:
        """MP left on reaching ``hex``: 0 where entering ends the move (enemy ZOC with
        ``stop``, infiltration, the minimum move, a hook's ``stop``), whatever it cost."""
        i = self.board.index[hex]
        if i in self.stopped:
            return Fraction(0)
        return max(Fraction(0), self.ma - self.board.to_mp(self.spent[i]))

    def cost(self, hex: Hex) -> Fraction:
        """MP spent to reach ``hex`` along the cheapest path (on a hex whose entry ends the
        move: what the path's steps cost, which may be less than the allowance, or more under
        the minimum move)."""
        return self.board.to_mp(self.spent[self.board.index[hex]])

    def path(self, hex: Hex) -> list[Hex]:
        """The cheapest path from the start to ``hex``, both included."""
        i = self.board.index.get(hex)
        if i is None or i not in self.spent:
            raise RulesError(f"{self.board.map.format(hex)} is not reachable")
        n = self.board.n
        node = self.entry.get(i, i)
        out = []
        while node != -1:
            out.append(self.board.hexes[node % n])
            node = self.prev[node]
        return out[::-1]

    def to_dict(self) -> dict:
        fmt = self.board.map.format
        return {
            "units": list(self.units), "start": fmt(self.start) if self.start else None,
            "ma": fmt_mp(self.ma), "count": len(self),
            "refused": self.refused.to_dict(fmt) if self.refused else None,
            "hexes": [{"hex": fmt(h), "mp_left": fmt_mp(self.mp_left(h)), "cost": fmt_mp(self.cost(h)),
                       "stops": self.board.index[h] in self.stopped,
                       "path": [fmt(p) for p in self.path(h)]} for h in self.hexes()],
        }


def moving_units(pos: Position, unit_ids) -> list[Unit]:
    """The units of a move (one id or a stack); :class:`RulesError` if none."""
    units = pos.units_of(unit_ids)
    if not units:
        raise RulesError("no unit given to move")
    return units


def move_start(pos: Position, units: list[Unit], mode: MovementMode, rs: Ruleset) -> tuple[Hex | None, Reason | None]:
    """The hex the units move from, and why they may not move together in ``mode`` (or None)."""
    ids = tuple(u.id for u in units)
    hexes = {u.hex for u in units}
    if None in hexes:
        off = next(u for u in units if u.hex is None)
        return None, Reason(Code.NOT_ON_MAP, None, f"{off.id} is not on the map", None, (off.id,))
    if len(hexes) > 1:
        return None, Reason(Code.STACK_SPLIT, rs.movement.rule, "units moving together must start in one hex",
                            None, ids)
    sides = {u.side for u in units}
    if len(sides) > 1:
        return None, Reason(Code.STACK_SPLIT, rs.movement.rule, "units of different sides cannot move together",
                            None, ids)
    for u in units:
        why = rs.can_move(pos, u, mode)
        if why is not None:
            return next(iter(hexes)), why
    return next(iter(hexes)), None


def reachable(pos: Position, rs: Ruleset, unit_ids, mode: str | None = None) -> Reach:
    """Every hex the unit (or the stack of ``unit_ids`` moving together) can reach this move.

    A ruleset whose moves depend on more than the hex a unit stands on (the bank of a river hex
    it entered from) defines ``reachable(pos, unit_ids, mode)`` and answers itself; it may call
    :func:`plain_reachable` for the cases the shared search covers."""
    custom = getattr(rs, "reachable", None)
    if custom is not None:
        return custom(pos, unit_ids, mode)
    return plain_reachable(pos, rs, unit_ids, mode)


def plain_reachable(pos: Position, rs: Ruleset, unit_ids, mode: str | None = None) -> Reach:
    """:func:`reachable` by the shared search alone (no ruleset ``reachable``)."""
    units = moving_units(pos, unit_ids)
    m = rs.mode(mode)
    start, why = move_start(pos, units, m, rs)
    board = board_of(pos.map)
    ids = tuple(u.id for u in units)
    if why is not None:
        return Reach(ids, start, Fraction(0), board, refused=why)
    return priced(pos, rs, units, m, lambda ctx: _reach(ctx, start, ids))


def _reach(ctx: StepPricer, start: Hex, ids: tuple[str, ...]) -> Reach:
    rs, m = ctx.rs, ctx.mode
    s = ctx.board.index[start]
    reach = Reach(ids, start, ctx.ma, ctx.board, spent={s: 0}, prev={s: -1})
    if ctx.ez[s]:
        z = rs.zoc
        if z.sticky or not m.start_in_ezoc:
            reach.refused = Reason(Code.ZOC_STICKY if z.sticky else Code.MODE_NOT_ALLOWED,
                                   z.rule if z.sticky else m.rule,
                                   f"{ids[0]} starts in an enemy ZOC and may not move "
                                   f"{'' if z.sticky else m.name + ' '}out of it", start, ids)
            return reach
    if ctx.hook or ctx.minimum or ctx.infiltrate or rs.zoc.zoc_to_zoc in ("one-hex", "same-unit"):
        _search_generic(ctx, s, reach)
    else:
        _search_fast(ctx, s, reach)
    return reach


def _search_generic(ctx: StepPricer, s: int, reach: Reach) -> None:
    """The search calling :meth:`StepPricer.step` for each edge (any rule, any hook).

    Each hex has two nodes: ``i``, reached by a step after which the move may go on, and
    ``i + n``, reached by a step that ends the move (never expanded). Keeping both makes the
    search exact even when a hook decides per step (not per hex) whether the move ends. A hex
    is reported through its "may go on" node when it has one.
    """
    n = ctx.board.n
    nb, step = ctx.board.nb, ctx.step
    best = {s: 0}
    prev = reach.prev
    prev[s] = -1
    heap = [(0, s)]
    while heap:
        g, i = heappop(heap)
        if g != best[i]:
            continue
        for k, j in nb[i]:
            if j == s:
                continue
            got = step(i, k, j, g, s)
            if isinstance(got, Reason):
                continue
            ng, stop = got
            node = j + n if stop else j
            old = best.get(node)
            if old is None or ng < old:
                best[node] = ng
                prev[node] = i
                if not stop:
                    heappush(heap, (ng, j))
    spent, stopped, entry = reach.spent, reach.stopped, reach.entry
    for node, g in best.items():
        i = node % n
        if node < n:
            spent[i] = g
            entry.pop(i, None)
            stopped.discard(i)
        elif i not in spent or i in stopped:
            spent[i] = g
            entry[i] = node
            stopped.add(i)


def _search_fast(ctx: StepPricer, s: int, reach: Reach) -> None:
    """The same search as :func:`_search_generic` with :meth:`StepPricer.step` inlined over dense
    arrays (no hooks, no minimum move, no infiltration, no one-hex ZOC-to-ZOC): the hot path."""
    board = ctx.board
    mv, z, mode = ctx.rs.movement, ctx.rs.zoc, ctx.mode
    off, line = ctx.dense
    nb, enemy, ez = board.nb, ctx.enemy, ctx.ez
    simple_lines = mv.line_into_ezoc and mv.line_out_of_ezoc and not mode.road_only
    zoc_stop, zoc2zoc_ok, enter_ezoc = z.stop, z.zoc_to_zoc == "allowed", mode.enter_ezoc
    ecost, lcost, ma = ctx.enter_cost, ctx.leave_cost, ctx.ma_scaled
    road_only, line_in, line_out = mode.road_only, mv.line_into_ezoc, mv.line_out_of_ezoc
    n = board.n
    best = [ma + 1] * n
    prev_list = [-1] * n
    stopped = reach.stopped
    touched = [s]
    best[s] = 0
    # heap keys are spent * n + index: one int compares faster than a tuple
    heap = [s]
    while heap:
        g, i = divmod(heappop(heap), n)
        if g != best[i]:
            continue
        ez_i = ez[i]
        for k, j in nb[i]:
            if enemy[j]:
                continue
            ez_j = ez[j]
            if simple_lines:
                c = line[k]
                if c < 0:
                    c = off[k]
                    if c < 0:
                        continue
            else:
                c = line[k]
                if c < 0 or not ((line_in or not ez_j) and (line_out or not ez_i)):
                    if road_only:
                        continue
                    c = off[k]
                    if c < 0:
                        continue
            if ez_j:
                if not enter_ezoc or (ez_i and not zoc2zoc_ok):
                    continue
                c += ecost
            if ez_i:
                c += lcost
            ng = g + c
            if ng >= best[j]:
                continue
            if best[j] > ma:
                touched.append(j)
            best[j] = ng
            prev_list[j] = i
            if ez_j and zoc_stop:
                stopped.add(j)      # a destination, never expanded: no need to queue it
            else:
                heappush(heap, ng * n + j)
    stopped.discard(s)
    reach.spent = {i: best[i] for i in touched}
    reach.prev = {i: prev_list[i] for i in touched}
