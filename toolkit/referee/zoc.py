"""Zones of control as per-side counter arrays over board indices, cached per position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import NO, Board, board_of

if TYPE_CHECKING:
    from .position import Position
    from .ruleset import Ruleset


def zoc_counts(pos: "Position", rs: "Ruleset", side: str) -> list[int]:
    """For each hex index, how many units of ``side`` exert a ZOC into it (own hexes included)."""
    def build():
        board = board_of(pos.map)
        counts = [0] * board.n
        for unit in pos.on_map(side):
            if rs.exerts_zoc(pos, unit):
                for j in _targets(pos, rs, board, unit):
                    counts[j] += 1
        return counts
    return pos.cached("zoc", rs, side, build)


def zoc_owners(pos: "Position", rs: "Ruleset", side: str) -> list[frozenset]:
    """For each hex index, the ids of the units of ``side`` whose ZOC covers it (own hexes
    included): what "the ZOC of the same unit" rules need (``ZocRules.zoc_to_zoc="same-unit"``)."""
    def build():
        board = board_of(pos.map)
        owners: list = [frozenset()] * board.n
        for unit in pos.on_map(side):
            if rs.exerts_zoc(pos, unit):
                for j in _targets(pos, rs, board, unit):
                    owners[j] = owners[j] | {unit.id}
        return owners
    return pos.cached("zoc-owners", rs, side, build)


def enemy_zoc_owners(pos: "Position", rs: "Ruleset", side: str | None) -> list[frozenset]:
    """For each hex index, the ids of the enemy units (of every side but ``side``) whose ZOC
    covers it."""
    def build():
        arrays = [zoc_owners(pos, rs, s) for s in pos.enemies_of(side)]
        if not arrays:
            return [frozenset()] * board_of(pos.map).n
        return [frozenset().union(*v) for v in zip(*arrays)]
    return pos.cached("ezoc-owners", rs, side, build)


def enemy_zoc(pos: "Position", rs: "Ruleset", side: str | None) -> list[int]:
    """Counts of enemy ZOC (every side but ``side``) per hex index."""
    def build():
        arrays = [zoc_counts(pos, rs, s) for s in pos.enemies_of(side)]
        return [sum(v) for v in zip(*arrays)] if arrays else [0] * board_of(pos.map).n
    return pos.cached("ezoc", rs, side, build)


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
