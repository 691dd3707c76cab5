"""A map compiled for search: integer hex indices, a neighbour table, and cost arrays.

Every hex gets an index ``i``; ``nb[i]`` lists ``(k, j)`` pairs where ``j`` is a neighbour and
``k = 6*i + d`` names the directed hexside (``d`` the direction). Costs are integers in units
of ``1/scale`` MP, ``scale`` being the least common multiple of every cost denominator on the
map, so 1/2 and 1/3 MP stay exact. ``-1`` means prohibited. Boards are cached per map object;
a map edited after its board was built needs ``forget_board(map)``.

Costs that come from a ruleset rather than the map (ZOC costs, a mode's line rate, an
allowance changed by a status) may be finer than the map's own: :meth:`Board.at_scale` gives
the same board at a finer scale (sharing the topology), and :meth:`Board.scaled` raises
:class:`FinerScale` rather than round a value the scale cannot express.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ..errors import RulesError
from ..game import Map
from ..hexes import Hex, Hexside

NO = -1  # prohibited
_BOARDS: dict[int, tuple[Map, "Board"]] = {}
_KEEP = 16


def board_of(game_map: Map) -> "Board":
    """The compiled board of ``game_map`` (built once per map object)."""
    entry = _BOARDS.get(id(game_map))
    if entry is None or entry[0] is not game_map:
        entry = (game_map, Board(game_map))
        if len(_BOARDS) >= _KEEP:
            del _BOARDS[next(iter(_BOARDS))]   # forget the oldest map
        _BOARDS[id(game_map)] = entry
    return entry[1]


def forget_board(game_map: Map) -> None:
    """Drop the compiled board of a map whose terrain, hexsides or lines were edited."""
    _BOARDS.pop(id(game_map), None)


class FinerScale(RulesError):
    """An MP value the board's scale cannot express exactly; ``scale`` is one that can."""

    def __init__(self, value: Fraction, board_scale: int) -> None:
        super().__init__(f"{value} MP is finer than the board's unit of 1/{board_scale} MP")
        self.value, self.scale = value, fit_scale(board_scale, value)


def fit_scale(scale: int, *values) -> int:
    """The least multiple of ``scale`` that expresses every MP value in ``values`` (None skipped)."""
    return lcm(scale, *(Fraction(v).denominator for v in values if v is not None))


def _denominators(game_map: Map) -> set[int]:
    out = {1}
    tables = [t.move for t in game_map.terrain_types.values()]
    tables += [t.move for t in game_map.hexside_types.values()]
    tables += [t.move for t in game_map.line_types.values()]
    for table in tables:
        for cost in table.costs.values():
            if cost is not None:
                out.add(Fraction(cost).denominator)
    return out


class Board:
    """The integer form of a map. Build with :func:`board_of`."""

    _TOPOLOGY = ("map", "hexes", "index", "n", "terrain", "features", "sides", "nb", "side_codes",
                 "line_codes", "bridged")

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        grid = game_map.grid
        self.hexes: list[Hex] = grid.hexes()
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.n = len(self.hexes)
        self.scale = lcm(*_denominators(game_map))
        self.terrain: list[str | None] = [game_map.terrain(h) for h in self.hexes]
        self.features: list[tuple[str, ...]] = [game_map.features(h) for h in self.hexes]
        index = self.index
        nb: list[tuple[tuple[int, int], ...]] = []
        #: directed hexside k -> Hexside (also for sides to off-grid hexes: not needed)
        self.sides: dict[int, Hexside] = {}
        for i, h in enumerate(self.hexes):
            row = []
            for d, (_, side) in enumerate(grid.hexsides(h)):
                other = side.b if side.a == h else side.a
                j = index.get(other)
                if j is not None:
                    k = 6 * i + d
                    row.append((k, j))
                    self.sides[k] = side
            nb.append(tuple(row))
        self.nb = nb
        #: k -> hexside feature codes, only for hexsides that have any
        self.side_codes: dict[int, tuple[str, ...]] = {}
        for k, side in self.sides.items():
            codes = game_map.hexsides.get(side)
            if codes:
                self.side_codes[k] = tuple(f.code for f in codes)
        #: k -> line codes linking the two hexes of directed hexside k
        links = game_map.line_links()
        self.line_codes: dict[int, tuple[str, ...]] = {}
        for k, side in self.sides.items():
            codes = links.get(side)
            if codes:
                self.line_codes[k] = tuple(dict.fromkeys(codes))
        self.bridged: set[int] = {k for k, codes in self.line_codes.items()
                                  if any(game_map.line_types[c].bridges for c in codes if c in game_map.line_types)}
        self._costs: dict = {}
        self._scales: dict[int, Board] = {self.scale: self}

    def at_scale(self, scale: int) -> "Board":
        """This board with costs in units of ``1/scale`` MP (a multiple of :attr:`scale`),
        sharing hexes, indices and neighbours; built once per scale."""
        out = self._scales.get(scale)
        if out is None:
            if scale % self.scale:
                raise RulesError(f"board scale {scale} is not a multiple of the map's {self.scale}")
            out = object.__new__(Board)
            for name in self._TOPOLOGY:
                setattr(out, name, getattr(self, name))
            out.scale, out._costs, out._scales = scale, {}, self._scales
            self._scales[scale] = out
        return out

    def edge_hexes(self, edge: str) -> list[Hex]:
        """The grid's hexes on a named map edge (cached)."""
        key = ("edge", edge)
        out = self._costs.get(key)
        if out is None:
            out = self._costs[key] = self.map.grid.edge_hexes(edge)
        return out

    # -- conversions ----------------------------------------------------------------------

    def to_mp(self, scaled: int) -> Fraction:
        return Fraction(scaled, self.scale)

    def scaled(self, mp) -> int:
        """MP (int or Fraction) in board units, exactly; :class:`FinerScale` if the board's
        scale cannot express them (never rounded)."""
        if type(mp) is int:
            return mp * self.scale
        value = Fraction(mp)
        units, rest = divmod(value.numerator * self.scale, value.denominator)
        if rest:
            raise FinerScale(value, self.scale)
        return units

    def k_of(self, a: Hex, b: Hex) -> int | None:
        """The directed hexside index from ``a`` to adjacent ``b`` (None if not adjacent)."""
        i = self.index.get(a)
        j = self.index.get(b)
        if i is None or j is None:
            return None
        for k, jj in self.nb[i]:
            if jj == j:
                return k
        return None

    # -- cost arrays per movement class and weather ----------------------------------------

    def _cost(self, table, cls: str, weather: str) -> int | None | bool:
        found, cost = table.lookup(cls, weather)
        if not found:
            return False
        return NO if cost is None else self.scaled(cost)

    def enter_costs(self, cls: str, weather: str, feature_mode: str = "max") -> list[int]:
        """Scaled MP to enter each hex off-line (``NO`` where prohibited or terrain unknown)."""
        key = ("enter", cls, weather, feature_mode)
        out = self._costs.get(key)
        if out is None:
            types = self.map.terrain_types
            per_code = {code: self._cost(t.move, cls, weather) for code, t in types.items()}
            out = []
            for code, feats in zip(self.terrain, self.features):
                base = per_code.get(code, False)
                cost = NO if base is False else base
                if feats and feature_mode != "ignore" and cost != NO:
                    for f in feats:
                        fc = per_code.get(f, False)
                        if fc is False:
                            continue  # an overlay with no cost of its own ("as that terrain")
                        if fc == NO:
                            cost = NO
                            break
                        cost = cost + fc if feature_mode == "add" else max(cost, fc)
                out.append(cost)
            self._costs[key] = out
        return out

    def side_costs(self, cls: str, weather: str, bridges_ignore: bool = True) -> dict[int, int]:
        """Directed hexside k -> extra scaled MP to cross (``NO`` = prohibited); absent = 0."""
        key = ("side", cls, weather, bridges_ignore)
        out = self._costs.get(key)
        if out is None:
            types = self.map.hexside_types
            out = {}
            for k, codes in self.side_codes.items():
                if bridges_ignore and k in self.bridged:
                    continue
                if any(types[c].bridge for c in codes if c in types):
                    continue  # a bridge feature on the side cancels the others
                total = 0
                for c in codes:
                    t = types.get(c)
                    if t is None:
                        continue
                    cost = self._cost(t.move, cls, weather)
                    if cost is False:
                        continue
                    if cost == NO:
                        total = NO
                        break
                    total += cost
                if total:
                    out[k] = total
            self._costs[key] = out
        return out

    def line_costs(self, cls: str, weather: str, lines: tuple[str, ...] | None = None,
                   rate=None) -> dict[int, int]:
        """Directed hexside k -> scaled MP along the best usable line linking its two hexes."""
        key = ("line", cls, weather, lines, rate)
        out = self._costs.get(key)
        if out is None:
            types = self.map.line_types
            out = {}
            fixed = None if rate is None else self.scaled(rate)
            for k, codes in self.line_codes.items():
                best = None
                for c in codes:
                    if lines is not None and c not in lines:
                        continue
                    if fixed is not None:
                        cost = fixed
                    else:
                        t = types.get(c)
                        cost = self._cost(t.move, cls, weather) if t else False
                    if cost is False or cost == NO:
                        continue
                    best = cost if best is None else min(best, cost)
                if best is not None:
                    out[k] = best
            self._costs[key] = out
        return out

    def edge_arrays(self, classes: tuple[str, ...], weather: str, feature_mode: str, bridges_ignore: bool,
                    lines: tuple[str, ...] | None, rate, use_lines: bool) -> tuple[list[int], list[int]]:
        """Dense per-directed-hexside arrays ``(off, line)`` for a set of movement classes.

        ``off[k]``: scaled MP to step across k off any line (terrain of the hex entered plus the
        hexside), ``NO`` if prohibited; ``line[k]``: the line rate across k, ``NO`` if no usable
        line links the two hexes. A stack of several classes pays the most any member pays.
        """
        key = ("edges", classes, weather, feature_mode, bridges_ignore, lines, rate, use_lines)
        out = self._costs.get(key)
        if out is None:
            size = 6 * self.n
            off = [NO] * size
            line = [NO] * size
            enters = [self.enter_costs(c, weather, feature_mode) for c in classes]
            sides = [self.side_costs(c, weather, bridges_ignore) for c in classes]
            lcs = [self.line_costs(c, weather, lines, rate) for c in classes] if use_lines else []
            for i, row in enumerate(self.nb):
                for k, j in row:
                    worst = 0
                    for enter, side in zip(enters, sides):
                        e, sc = enter[j], side.get(k, 0)
                        if e == NO or sc == NO:
                            worst = NO
                            break
                        worst = max(worst, e + sc)
                    off[k] = worst
                    if lcs:
                        vals = [lc.get(k) for lc in lcs]
                        if all(v is not None for v in vals):
                            line[k] = max(vals)
            out = (off, line)
            self._costs[key] = out
        return out

    def on_line(self) -> bytearray:
        """1 for each hex a line (road, railway...) runs through."""
        out = self._costs.get("on-line")
        if out is None:
            out = bytearray(self.n)
            for k in self.line_codes:
                out[k // 6] = 1
            self._costs["on-line"] = out
        return out

    def supply_neighbours(self, bad_sides: frozenset) -> list[tuple[int, ...]]:
        """For each hex, the neighbours a supply line may step to (blocked hexsides left out)."""
        key = ("supply-nb", bad_sides)
        out = self._costs.get(key)
        if out is None:
            out = [tuple(j for k, j in row if k not in bad_sides) for row in self.nb]
            self._costs[key] = out
        return out

    def supply_blocked_sides(self) -> set[int]:
        """Directed hexsides whose features block supply and that no bridging line crosses."""
        out = self._costs.get("supply-sides")
        if out is None:
            types = self.map.hexside_types
            out = {k for k, codes in self.side_codes.items()
                   if k not in self.bridged and any(types[c].blocks_supply for c in codes if c in types)}
            self._costs["supply-sides"] = out
        return out
