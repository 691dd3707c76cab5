"""Supply: every unit of a side in one pass, by a multi-source search from the sources.

Stage 1 follows road/rail links (unlimited length) from the sources, allowing up to
``road_breaks`` overland hexes between road stretches; stage 2 spreads overland at most
``max_length`` hexes from every hex reached so far. Both stages refuse blocked hexes (enemy
units, enemy ZOC without a friendly unit) and blocked hexsides. Each unit then looks its hex
up; the path back to the source is kept for display.

Rulesets shape it through hooks, so the CLI and a game's own checks give one answer:
:meth:`~toolkit.referee.Ruleset.supply_sources` (hexes, or :class:`~toolkit.referee.Source`
groups serving only some units, searched separately), ``supply_blocks`` (extra blocked hexes),
``supply_hexsides`` (hexsides the position blocks or opens) and ``needs_supply`` (units the check
leaves out).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .board import NO, board_of
from .position import Position
from .reasons import Code, Reason
from .ruleset import Ruleset, Source
from .zoc import enemy_zoc, occupied


class _Hexes:
    """The hexes that carry supply, as a lazy set (built only if asked for)."""

    def __init__(self, hexes, reached, blocked) -> None:
        self._args = (hexes, reached, blocked)
        self._set = None

    def _get(self) -> set:
        if self._set is None:
            hexes, reached, blocked = self._args
            self._set = {hexes[i] for i in range(len(hexes)) if reached[i] and not blocked[i]}
        return self._set

    def __contains__(self, hex) -> bool:
        return hex in self._get()

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


@dataclass
class SupplyResult:
    """Supply of one side: per unit whether it traces, its new status, and the traced path."""

    side: str
    supplied: set = field(default_factory=set)
    unsupplied: set = field(default_factory=set)
    status: dict = field(default_factory=dict)        # unit id -> "supplied" / ladder status
    paths: dict = field(default_factory=dict)         # unit id -> [unit hex, ..., source hex]
    reasons: dict = field(default_factory=dict)       # unit id -> Reason
    reached: object = field(default_factory=set)      # hexes that carry supply (a set-like view)
    road: set = field(default_factory=set)            # the road network supply reaches ("Supply Road")

    @property
    def source(self) -> dict:
        """Unit id -> the source hex its supply line ends at."""
        return {u: p[-1] for u, p in self.paths.items()}

    def to_dict(self, fmt) -> dict:
        return {"side": self.side, "supplied": sorted(self.supplied), "unsupplied": sorted(self.unsupplied),
                "status": dict(sorted(self.status.items())),
                "paths": {u: [fmt(h) for h in p] for u, p in sorted(self.paths.items())},
                "reasons": {u: r.to_dict(fmt) for u, r in sorted(self.reasons.items())}}


def _base_blocks():
    return Ruleset.supply_blocks


def _bits(flags) -> int:
    """0/1 bytes as one integer (byte i = flag i), for whole-array and/or/not."""
    return int.from_bytes(bytes(flags), "little")


def _trace_grid(pos: Position, rs: Ruleset, side: str):
    """The board, the hexes a supply line of ``side`` may not pass (cached per position), and
    each hex's neighbours across hexsides a supply line may cross (cached per map)."""
    board = board_of(pos.map)
    s = rs.supply
    weather = pos.current_weather

    def build():
        # whole arrays combined as big integers holding one 0/1 byte per hex: a position
        # changes with every move, so this runs often (a loop over the hexes took longer
        # than the search itself)
        n = board.n
        blocked = 0
        if s.enemy_blocks:
            blocked = _bits(occupied(pos, side, enemy=True))
        if s.ezoc_blocks:
            ez = _bits(bytes(map(bool, enemy_zoc(pos, rs, side))))
            if s.friendly_negates:
                ez &= ~_bits(occupied(pos, side, enemy=False))
            blocked |= ez
        if s.trace_class:
            # terrain the trace class may not enter blocks like an enemy unit (a path may end
            # there, at the unit's own hex, but not pass through) unless a road or railway runs
            # through the hex
            enter = board.enter_costs(s.trace_class, weather)
            blocked |= _bits(bytes(1 if e == NO else 0 for e in enter)) & ~_bits(board.on_line())
        blocked = bytearray(blocked.to_bytes(n, "little"))
        if type(rs).supply_blocks is not _base_blocks():
            for i, h in enumerate(board.hexes):
                if not blocked[i] and rs.supply_blocks(pos, side, h):
                    blocked[i] = 1
        return blocked
    blocked = pos.cached("supply-blocked", rs, (side, weather), build)
    skey = ("supply-sides", s.hexsides_block, s.trace_class, weather)
    bad = board._costs.get(skey)
    if bad is None:
        bad_sides = set(board.supply_blocked_sides()) if s.hexsides_block else set()
        if s.trace_class:
            line = board.line_costs(s.trace_class, weather)
            sides = board.side_costs(s.trace_class, weather)
            # hexside features are the same from both sides, so this set is symmetric
            bad_sides.update(k for k, cost in sides.items() if cost == NO and k not in line)
        bad = board._costs[skey] = frozenset(bad_sides)
    if type(rs).supply_hexsides is not Ruleset.supply_hexsides:
        bad = _changed_sides(board, bad, rs.supply_hexsides(pos, side))
    return board, blocked, bad, board.supply_neighbours(bad)


def _changed_sides(board, bad: frozenset, changes: dict) -> frozenset:
    """``bad`` (directed hexside indices) with the ruleset's position-made changes, both ways."""
    if not changes:
        return bad
    out = set(bad)
    for side, blocks in changes.items():
        for k in (board.k_of(side.a, side.b), board.k_of(side.b, side.a)):
            if k is not None:
                (out.add if blocks else out.discard)(k)
    return frozenset(out)


class SupplyTrace:
    """Where supply from some source hexes reaches: :meth:`reaches`, :meth:`path`, and
    ``road``, the hexes of the road network the road stage reached (a "Supply Road")."""

    def __init__(self, board, reached: bytearray, blocked: bytearray, prev: list[int], road: set) -> None:
        self.board, self._reached, self._blocked, self._prev, self.road = board, reached, blocked, prev, road

    def reaches(self, hex) -> bool:
        """True if a supply line may end on ``hex`` (a unit's own hex never blocks its line)."""
        i = self.board.index.get(hex)
        return i is not None and bool(self._reached[i])

    def carries(self, hex) -> bool:
        """True if a supply line may go on from ``hex`` (reached and not blocked)."""
        i = self.board.index.get(hex)
        return i is not None and bool(self._reached[i]) and not self._blocked[i]

    def path(self, hex) -> list:
        """The supply line from ``hex`` back to its source, both included."""
        path, i = [], self.board.index[hex]
        while i != -1 and len(path) <= self.board.n:
            path.append(self.board.hexes[i])
            i = self._prev[i]
        return path


def supply_trace(pos: Position, rs: Ruleset, side: str, hexes) -> SupplyTrace:
    """One multi-source search of ``side``'s supply lines from the source ``hexes``."""
    s = rs.supply
    board, blocked, bad_sides, steps = _trace_grid(pos, rs, side)
    nb = board.nb
    sources = [board.index[h] for h in hexes if h in board.index]
    prev = [-1] * board.n
    seeds: dict[int, int] = {}   # index -> road breaks used to reach it
    queue = deque()
    for i in sources:
        if not blocked[i] and i not in seeds:
            seeds[i] = 0
            prev[i] = -1
            queue.append((i, 0))
    lines = s.road_lines
    road: set = set()
    if lines is None or lines:
        # stage 1: a 0-1 search along road links; a break (one step between two road hexes
        # that no road link joins) costs one of the allowed road breaks
        road_ok = {k for k, codes in board.line_codes.items() if lines is None or any(c in lines for c in codes)}
        on_road = {k // 6 for k in road_ok}
        while queue:
            i, used = queue.popleft()
            if seeds.get(i) != used:
                continue
            for k, j in nb[i]:
                if blocked[j] or k in bad_sides:
                    continue
                if k in road_ok:
                    nused = used
                elif i in on_road and j in on_road and used < s.road_breaks:
                    nused = used + 1
                else:
                    continue
                old = seeds.get(j)
                if old is not None and old <= nused:
                    continue
                seeds[j] = nused
                prev[j] = i
                if nused == used:
                    queue.appendleft((j, nused))
                else:
                    queue.append((j, nused))
        road = {board.hexes[i] for i in seeds if i in on_road}
    # stage 2: overland, at most max_length hexes from any hex reached so far; a blocked hex
    # may end a path (it is a unit's own hex) but never carries one
    reached = bytearray(board.n)
    for i in seeds:
        reached[i] = 1
    frontier = list(seeds)
    limit = s.max_length
    d = 0
    while frontier and (limit is None or d < limit):
        d += 1
        nxt = []
        for i in frontier:
            for j in steps[i]:
                if not reached[j]:
                    reached[j] = 1
                    prev[j] = i
                    if not blocked[j]:
                        nxt.append(j)
        frontier = nxt
    return SupplyTrace(board, reached, blocked, prev, road)


def _groups(pos: Position, rs: Ruleset, side: str, context: dict) -> tuple[list[Source], int]:
    """The ruleset's sources as groups, in its order, and the index of the group of plain
    hexes (serving every unit; placed where the first plain hex came)."""
    plain: list = []
    groups: list[Source] = []
    at = None
    for item in rs.supply_sources(pos, side, context):
        if isinstance(item, Source):
            groups.append(item)
        else:
            if at is None:
                at = len(groups)
                groups.append(Source(()))
            plain.append(item)
    if at is None:
        at = len(groups)
        groups.append(Source(()))
    groups[at] = Source(tuple(plain))
    return groups, at


def supply_status(pos: Position, rs: Ruleset, side: str | None = None, context: dict | None = None) -> SupplyResult:
    """Supply of every on-map unit of ``side`` (default: the side to move): one search per
    source group (:meth:`Ruleset.supply_sources`), each unit served by the first group that
    serves it and reaches it. ``context`` goes to the ruleset's hook (e.g. the defending units)."""
    side = side or pos.side or pos.sides()[0]
    s = rs.supply
    groups, main_at = _groups(pos, rs, side, context or {})
    traces: dict[int, SupplyTrace] = {}
    result = SupplyResult(side=side)
    for unit in pos.on_map(side):
        if not rs.needs_supply(pos, unit):
            continue
        path = None
        for n, group in enumerate(groups):
            if group.serves is not None and not group.serves(unit):
                continue
            if not group.trace:
                if unit.hex in group.hexes:
                    path = [unit.hex]
                    break
                continue
            trace = traces.get(n)
            if trace is None:
                trace = traces[n] = supply_trace(pos, rs, side, group.hexes)
            if trace.reaches(unit.hex):
                path = trace.path(unit.hex)
                break
        if path is not None:
            result.supplied.add(unit.id)
            result.status[unit.id] = "supplied"
            result.paths[unit.id] = path
        else:
            result.unsupplied.add(unit.id)
            result.status[unit.id] = rs.supply_status(unit.supply + 1)
            result.reasons[unit.id] = Reason(Code.SUPPLY_NONE, s.rule,
                                             f"{unit.id} at {pos.map.format(unit.hex)} cannot trace supply",
                                             unit.hex, (unit.id,))
    main = traces.get(main_at) or supply_trace(pos, rs, side, groups[main_at].hexes)
    result.road = main.road
    result.reached = _Hexes(main.board.hexes, main._reached, main._blocked)
    return result


def apply_supply(pos: Position, rs: Ruleset, result: SupplyResult) -> None:
    """Advance each unit's supply history and status markers from a check's result."""
    ladder = set(rs.supply.ladder)
    for uid in result.supplied:
        unit = pos.units[uid]
        unit.supply = 0
        unit.status -= ladder
    for uid in result.unsupplied:
        unit = pos.units[uid]
        unit.supply += 1
        unit.status -= ladder
        unit.status.add(rs.supply_status(unit.supply))
    pos.touch()


def _plain_sources(pos: Position, rs: Ruleset, side: str) -> tuple:
    groups, at = _groups(pos, rs, side, {})
    return groups[at].hexes


def supply_per_unit(pos: Position, rs: Ruleset, side: str) -> set[str]:
    """The supplied units found by one search per unit (slow; the benchmark baseline and a test
    oracle). Only for rulesets without road stages (``road_lines == ()``)."""
    board, blocked, bad_sides, steps = _trace_grid(pos, rs, side)
    sources = {board.index[h] for h in _plain_sources(pos, rs, side) if h in board.index}
    limit = rs.supply.max_length
    out = set()
    for unit in pos.on_map(side):
        if not rs.needs_supply(pos, unit):
            continue
        start = board.index[unit.hex]
        seen = {start: 0}
        queue = deque([start])
        found = False
        while queue and not found:
            i = queue.popleft()
            if i in sources and not blocked[i]:
                found = True
                break
            d = seen[i] + 1
            if limit is not None and d > limit:
                continue
            for j in steps[i]:
                if j in seen or blocked[j]:
                    continue
                seen[j] = d
                queue.append(j)
        if found:
            out.add(unit.id)
    return out
