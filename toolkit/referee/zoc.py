"""Zones of control as per-side counter arrays over board indices, cached per position.

The arrays follow a move: when :meth:`Position.place` moves one unit, only the ZOC of that
unit and of the units near its old and new hex (:func:`zoc_radius`) is taken out and put
back, instead of every unit's being rebuilt. Rulesets whose ZOC hooks look further (or do
not say how far) get the arrays rebuilt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import NO, Board, board_of

if TYPE_CHECKING:
    from .position import Position
    from .ruleset import Ruleset


class _ZocField:
    """ZOC counts (and, once asked for, owners) per hex index of the units of ``sides``,
    with each unit's targets, so that a move updates only what it changes."""

    def __init__(self, pos: "Position", rs: "Ruleset", sides: frozenset) -> None:
        board = board_of(pos.map)
        self.rs, self.sides, self.board = rs, sides, board
        self.counts = [0] * board.n
        self.owners: list | None = None
        self.targets: dict[str, list[int]] = {}
        for unit in pos.on_map():
            if unit.side in sides and rs.exerts_zoc(pos, unit):
                t = self.targets[unit.id] = _targets(pos, rs, board, unit)
                for j in t:
                    self.counts[j] += 1

    def owners_list(self) -> list:
        if self.owners is None:
            owners: list = [frozenset()] * self.board.n
            for uid, t in self.targets.items():
                for j in t:
                    owners[j] = owners[j] | {uid}
            self.owners = owners
        return self.owners

    def follow(self, pos: "Position", unit, old_hex) -> bool:
        """Update for ``unit`` moved from ``old_hex`` (already moved); False: rebuild instead."""
        radius = zoc_radius(self.rs)
        if radius is None:
            return False
        near = {unit.id: unit}
        grid = pos.map.grid
        for h in (old_hex, unit.hex):
            if h is None or radius < 0:
                continue
            for n in grid.within(h, radius):
                for other in pos.at(n):
                    near[other.id] = other
        changed = False
        for other in near.values():
            if other.side not in self.sides:
                continue
            old = self.targets.get(other.id, [])
            new = (_targets(pos, self.rs, self.board, other)
                   if other.hex is not None and self.rs.exerts_zoc(pos, other) else [])
            if old == new:
                continue
            if not changed:
                # copies: arrays handed out before the move keep describing that position
                self.counts = self.counts[:]
                if self.owners is not None:
                    self.owners = self.owners[:]
                changed = True
            for j in old:
                self.counts[j] -= 1
            for j in new:
                self.counts[j] += 1
            if self.owners is not None:
                for j in old:
                    self.owners[j] = self.owners[j] - {other.id}
                for j in new:
                    self.owners[j] = self.owners[j] | {other.id}
            if new:
                self.targets[other.id] = new
            else:
                self.targets.pop(other.id, None)
        return True


def _field(pos: "Position", rs: "Ruleset", sides) -> _ZocField:
    sides = frozenset(sides)
    return pos.cached("zoc-field", rs, sides, lambda: _ZocField(pos, rs, sides))


def zoc_radius(rs: "Ruleset") -> int | None:
    """How far from a unit another unit can change its ZOC (``Ruleset.zoc_radius``); None
    if the ruleset overrides the ZOC hooks without saying (then arrays are rebuilt)."""
    from .ruleset import Ruleset
    for klass in type(rs).__mro__:
        if klass is Ruleset:
            break
        if "zoc_radius" in klass.__dict__:
            return klass.__dict__["zoc_radius"]
    cls = type(rs)
    if cls.exerts_zoc is not Ruleset.exerts_zoc or cls.zoc_reaches is not Ruleset.zoc_reaches:
        return None
    return Ruleset.zoc_radius


def zoc_counts(pos: "Position", rs: "Ruleset", side: str) -> list[int]:
    """For each hex index, how many units of ``side`` exert a ZOC into it (own hexes included)."""
    return _field(pos, rs, (side,)).counts


def zoc_owners(pos: "Position", rs: "Ruleset", side: str) -> list[frozenset]:
    """For each hex index, the ids of the units of ``side`` whose ZOC covers it (own hexes
    included): what "the ZOC of the same unit" rules need (``ZocRules.zoc_to_zoc="same-unit"``)."""
    return _field(pos, rs, (side,)).owners_list()


def enemy_zoc_owners(pos: "Position", rs: "Ruleset", side: str | None) -> list[frozenset]:
    """For each hex index, the ids of the enemy units (of every side but ``side``) whose ZOC
    covers it."""
    return _field(pos, rs, pos.enemies_of(side)).owners_list()


def enemy_zoc(pos: "Position", rs: "Ruleset", side: str | None) -> list[int]:
    """Counts of enemy ZOC (every side but ``side``) per hex index."""
    return _field(pos, rs, pos.enemies_of(side)).counts


def rebuilt_enemy_zoc(pos: "Position", rs: "Ruleset", side: str | None) -> list[int]:
    """:func:`enemy_zoc` built from scratch, never from a cache (the benchmark's and the
    tests' reference)."""
    return _ZocField(pos, rs, frozenset(pos.enemies_of(side))).counts


def occupied(pos: "Position", side: str | None, enemy: bool) -> bytearray:
    """1 where a unit (not a marker) of ``side`` (or of its enemies, if ``enemy``) stands."""
    key = ("occ", side, enemy)
    out = pos._cache.get(key)
    if out is None:
        board = board_of(pos.map)
        out = bytearray(board.n)
        for unit in pos.units.values():
            if unit.hex is None or unit.side is None or unit.counter.is_marker:
                continue
            if (unit.side != side) == enemy:
                out[board.index[unit.hex]] = 1
        pos._cache[key] = out
    return out


def _base_reaches():
    from .ruleset import Ruleset
    return Ruleset.zoc_reaches


def _targets(pos: "Position", rs: "Ruleset", board: Board, unit) -> list[int]:
    """The hex indices the ZOC of ``unit`` (which exerts one) covers: its own and the
    neighbours the data rules and :meth:`Ruleset.zoc_reaches` allow."""
    z = rs.zoc
    i = board.index.get(unit.hex)
    if i is None:
        return []
    out = [i]
    blocked = set(z.blocked_hexsides)
    enter = sides = None
    if z.prohibited_class:
        cls = rs.unit_class(pos, unit) if z.prohibited_class == "own" else z.prohibited_class
        weather = pos.current_weather
        enter = board.enter_costs(cls, weather)
        sides = board.side_costs(cls, weather)
    hook = type(rs).zoc_reaches is not _base_reaches()
    for k, j in board.nb[i]:
        if hook and not rs.zoc_reaches(pos, unit, board.hexes[j]):
            continue
        if blocked:
            codes = board.side_codes.get(k, ())
            if any(c in blocked for c in codes) and not (z.bridged_carry and k in board.bridged):
                continue
        if enter is not None:
            if enter[j] == NO and not (z.bridged_carry and k in board.bridged):
                continue
            if sides.get(k, 0) == NO:
                continue
        out.append(j)
    return out
