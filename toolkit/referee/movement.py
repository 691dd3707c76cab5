"""Movement: the hexes a unit or stack can reach, with MP left and the cheapest path, and the
step-by-step check of a given path that names the first illegal step.

One Dijkstra over hex indices with lazy deletion (costs are edge costs: hexsides, line links,
ZOC exit). A hex whose entry ends the move (enemy ZOC with ``stop``, infiltration, the
minimum move) is a destination but is not expanded. Stacking is not part of the search; see
:func:`toolkit.referee.stacking.check_stacking`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from heapq import heappop, heappush

from ..errors import RulesError
from ..hexes import Hex
from .board import NO, Board, board_of
from .parts import MovementMode
from .position import Position, Unit
from .reasons import Code, Reason
from .ruleset import Ruleset, Step
from .zoc import enemy_zoc, enemy_zoc_owners, occupied

_INF = float("inf")


class _Ctx:
    """Everything one move looks up, as flat arrays over board indices."""

    def __init__(self, pos: Position, rs: Ruleset, units: list[Unit], mode: MovementMode) -> None:
        self.pos, self.rs, self.units, self.mode = pos, rs, units, mode
        board = self.board = board_of(pos.map)
        mv, z = rs.movement, rs.zoc
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
        self.ma = min(rs.movement_allowance(pos, u, mode) for u in units)
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
            ng, stop = g + board.scaled(got.cost), got.stop
        if ng > self.ma_scaled and not whole:
            if self.minimum and i == start:
                return (ng, True)
            return Reason(Code.NOT_ENOUGH_MP, mv.rule, f"entering {board.map.format(hex_j)} costs "
                          f"{_fmt(board.to_mp(ng - g))} MP but only {_fmt(board.to_mp(self.ma_scaled - g))} are left",
                          hex_j, ids)
        return (ng, stop)

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


def _fmt(mp: Fraction) -> str:
    return str(mp) if mp.denominator != 1 else str(mp.numerator)


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
        """MP left on reaching ``hex`` (0 where entering ends the move)."""
        i = self.board.index[hex]
        if i in self.stopped:
            return Fraction(0)
        return max(Fraction(0), self.ma - self.board.to_mp(self.spent[i]))

    def cost(self, hex: Hex) -> Fraction:
        """MP spent to reach ``hex`` along the cheapest path."""
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
            "ma": _fmt(self.ma), "count": len(self),
            "refused": self.refused.to_dict(fmt) if self.refused else None,
            "hexes": [{"hex": fmt(h), "mp_left": _fmt(self.mp_left(h)), "cost": _fmt(self.cost(h)),
                       "stops": self.board.index[h] in self.stopped,
                       "path": [fmt(p) for p in self.path(h)]} for h in self.hexes()],
        }


def _units(pos: Position, unit_ids) -> list[Unit]:
    units = pos.units_of(unit_ids)
    if not units:
        raise RulesError("no unit given to move")
    return units


def _start(pos: Position, units: list[Unit], mode: MovementMode, rs: Ruleset) -> tuple[Hex | None, Reason | None]:
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
    """Every hex the unit (or the stack of ``unit_ids`` moving together) can reach this move."""
    units = _units(pos, unit_ids)
    m = rs.mode(mode)
    start, why = _start(pos, units, m, rs)
    board = board_of(pos.map)
    ids = tuple(u.id for u in units)
    if why is not None:
        return Reach(ids, start, Fraction(0), board, refused=why)
    ctx = _Ctx(pos, rs, units, m)
    s = board.index[start]
    reach = Reach(ids, start, ctx.ma, board, spent={s: 0}, prev={s: -1})
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


def _search_generic(ctx: _Ctx, s: int, reach: Reach) -> None:
    """The search calling :meth:`_Ctx.step` for each edge (any rule, any hook).

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


def _search_fast(ctx: _Ctx, s: int, reach: Reach) -> None:
    """The same search as :func:`_search_generic` with :meth:`_Ctx.step` inlined over dense
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


@dataclass
class PathCheck:
    """The verdict on a given path: legal or the first illegal step, with costs per step."""

    units: tuple[str, ...]
    path: list[Hex]
    ma: Fraction
    steps: list[dict] = field(default_factory=list)   # {"hex", "cost", "spent", "mp_left"}
    reason: Reason | None = None
    failed_step: int | None = None   # 1-based index into path of the refused hex

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_dict(self, fmt) -> dict:
        return {"units": list(self.units), "path": [fmt(h) for h in self.path], "ma": _fmt(self.ma),
                "legal": self.ok, "failed_step": self.failed_step,
                "reason": self.reason.to_dict(fmt) if self.reason else None,
                "steps": [{"hex": fmt(s["hex"]), "cost": _fmt(s["cost"]), "spent": _fmt(s["spent"]),
                           "mp_left": _fmt(s["mp_left"])} for s in self.steps]}


def check_path(pos: Position, rs: Ruleset, unit_ids, path: list[Hex], mode: str | None = None) -> PathCheck:
    """Walk ``path`` (starting at the units' hex, or the first hex after it) step by step.

    Returns the costs of the legal steps and, at the first illegal one, the reason (rule, hex,
    units). Also refuses a path that ends where it may not (enemy hex) or that goes on after a
    step that ends movement (enemy ZOC).
    """
    units = _units(pos, unit_ids)
    m = rs.mode(mode)
    start, why = _start(pos, units, m, rs)
    ids = tuple(u.id for u in units)
    board = board_of(pos.map)
    path = list(path)
    if start is not None and (not path or path[0] != start):
        path = [start, *path]
    result = PathCheck(ids, path, Fraction(0))
    if why is not None:
        result.reason, result.failed_step = why, 0
        return result
    ctx = _Ctx(pos, rs, units, m)
    result.ma = ctx.ma
    s = board.index[start]
    if ctx.ez[s] and (rs.zoc.sticky or not m.start_in_ezoc) and len(path) > 1:
        result.reason = Reason(Code.ZOC_STICKY if rs.zoc.sticky else Code.MODE_NOT_ALLOWED,
                               rs.zoc.rule if rs.zoc.sticky else m.rule,
                               f"{ids[0]} starts in an enemy ZOC and may not leave it this way", start, ids)
        result.failed_step = 0
        return result
    g, i, stopped = 0, s, False
    for n, hex in enumerate(path[1:], start=1):
        j = board.index.get(hex)
        if j is None:
            result.reason = Reason(Code.OFF_MAP, None, f"{board.map.format(hex)} is not on the map", hex, ids)
        elif stopped and ctx.ez[i]:
            result.reason = Reason(Code.ZOC_STOP, rs.zoc.rule,
                                   f"the move had to end at {board.map.format(board.hexes[i])} "
                                   f"(entering enemy ZOC ends movement)", hex, ids)
        elif stopped:
            why = ("a unit moving more than its MP allow moves one hex only" if g > ctx.ma_scaled
                   else "the step into it ends the move")
            result.reason = Reason(Code.MOVE_ENDED, rs.movement.minimum_move_rule or rs.movement.rule,
                                   f"the move had to end at {board.map.format(board.hexes[i])} ({why})", hex, ids)
        else:
            k = board.k_of(board.hexes[i], hex)
            if k is None:
                result.reason = Reason(Code.NOT_ADJACENT, None, f"{board.map.format(hex)} is not next to "
                                       f"{board.map.format(board.hexes[i])}", hex, ids)
            else:
                got = ctx.step(i, k, j, g, s)
                if isinstance(got, Reason):
                    result.reason = got
                else:
                    ng, stopped = got
                    spent = min(ng, ctx.ma_scaled) if stopped else ng
                    result.steps.append({"hex": hex, "cost": board.to_mp(ng - g), "spent": board.to_mp(ng),
                                         "mp_left": Fraction(0) if stopped else ctx.ma - board.to_mp(spent)})
                    g, i = ng, j
        if result.reason is not None:
            result.failed_step = n
            return result
    if len(path) > 1:
        why = end_stacking(pos, rs, units, path[-1], mode)
        if why is not None:
            result.reason, result.failed_step = why, len(path) - 1
    return result


def end_stacking(pos: Position, rs: Ruleset, units: list[Unit], dest: Hex, mode: str | None = None) -> Reason | None:
    """Why ``units`` may not end a move on ``dest`` under the stacking rules (None if they may).

    Only when the ruleset checks stacking at the end of each move (``when`` "move" or
    "always"), and only for violations the moving units take part in.
    """
    if rs.stacking.when not in ("move", "always"):
        return None
    from .stacking import stack_reasons
    movers = {u.id for u in units}
    there = [u for u in pos.at(dest) if u.id not in movers] + list(units)
    key = mode if mode and rs.mode(mode).stacking else None
    for reason in stack_reasons(pos, rs, dest, there, key):
        if movers & set(reason.units):
            return reason
    return None


def destinations(pos: Position, rs: Ruleset, unit_ids, mode: str | None = None) -> list[Hex]:
    """The reachable hexes where the units may also end their move (stacking checked when the
    ruleset checks it at the end of each move)."""
    reach = reachable(pos, rs, unit_ids, mode)
    units = _units(pos, unit_ids)
    return [h for h in reach.hexes() if end_stacking(pos, rs, units, h, mode) is None]
