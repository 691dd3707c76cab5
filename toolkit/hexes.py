"""Hex grid geometry: one layout for every output.

A hex is named by its *printed* column and row numbers (``Hex(7, 17)`` is Velikiye Luki's
"0717"). A :class:`Grid` says how those numbers sit on the page: flat-topped hexes in columns
or pointy-topped hexes in rows, which lines (by printed number) are shifted half a hex, where
numbering starts and which way it runs. A :class:`Numbering` turns hexes into ids and back.
A :class:`Layout` puts a grid on pixels.

Internally every hex is reduced to *line coordinates* ``(a, d)``: ``a`` counts lines (columns
of a flat grid, rows of a pointy grid) across the page, and ``d`` is the doubled position
along the line (``2 * index + 1`` on shifted lines). A pointy grid is a flat grid mirrored
across the page diagonal, so all the maths below is written once, for lines.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator, NamedTuple

from .errors import HexError

__all__ = [
    "Hex", "Hexside", "Grid", "Numbering", "Layout", "ImageLayout",
    "FLAT_DIRECTIONS", "POINTY_DIRECTIONS",
]


class Hex(NamedTuple):
    """A hex by its printed column and row numbers."""

    col: int
    row: int


class Hexside(NamedTuple):
    """The side shared by two adjacent hexes, stored with ``a < b`` so each side has one name."""

    a: Hex
    b: Hex

    @classmethod
    def of(cls, h1: Hex, h2: Hex) -> "Hexside":
        """The canonical hexside between ``h1`` and ``h2`` (adjacency is not checked here)."""
        return cls(h1, h2) if h1 < h2 else cls(h2, h1)


# Directions as steps in line coordinates (line, doubled position).
FLAT_DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("N", 0, -2), ("NE", 1, -1), ("SE", 1, 1), ("S", 0, 2), ("SW", -1, 1), ("NW", -1, -1),
)
POINTY_DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("NE", -1, 1), ("E", 0, 2), ("SE", 1, 1), ("SW", 1, -1), ("W", 0, -2), ("NW", -1, -1),
)

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: Grids up to this many hexes precompute their line coordinates and neighbours.
_TABLE_LIMIT = 250_000


def _alpha(n: int) -> str:
    """VASSAL's alphabetic name of n >= 1: A..Z, then AA, BB, .., ZZ, AAA."""
    if n < 1:
        raise HexError(f"column {n} has no alphabetic name (letters start at A = 1)")
    n -= 1
    return _ALPHABET[n % 26] * (n // 26 + 1)


def _unalpha(text: str) -> int:
    """The number of an alphabetic column name; only repeated letters (AA, BBB) are valid."""
    if not text or any(ch != text[0] for ch in text):
        raise HexError(f"bad column letters {text!r}: expected A..Z, AA, BB, .., ZZ, AAA, ..")
    return (len(text) - 1) * 26 + _ALPHABET.index(text[0]) + 1


@dataclass(frozen=True)
class Numbering:
    """How hex ids are written: data, not code.

    ``order`` is ``"colrow"`` (CCRR, XXYY) or ``"rowcol"``. ``col_digits``/``row_digits`` are the
    printed widths; with ``pad=False`` the leading part loses its leading zero ("717" for
    column 7, row 17). Parsing accepts padded and unpadded forms alike. ``col_alpha`` writes
    columns as letters (A..Z, AA, BB, ...) and ``separator`` goes between the parts.
    """

    order: str = "colrow"
    col_digits: int = 2
    row_digits: int = 2
    pad: bool = True
    col_alpha: bool = False
    separator: str = ""

    def __post_init__(self) -> None:
        if self.order not in ("colrow", "rowcol"):
            raise HexError(f"numbering order must be 'colrow' or 'rowcol', not {self.order!r}")
        if not (1 <= self.col_digits <= 4 and 1 <= self.row_digits <= 4):
            raise HexError("numbering digits must be between 1 and 4")
        if self.separator and (self.separator.isalnum() or any(c in "/:,+" or c.isspace() for c in self.separator)):
            # '/' and ':' write hexsides, ',' and spaces separate lists, '+' joins terrain codes
            raise HexError(f"numbering separator {self.separator!r} must not be a letter, digit, space or one "
                           f"of / : , +")

    @property
    def describe(self) -> str:
        """A short human form of the scheme, for error messages ("CCRR", "XX-YY")."""
        col = "A" if self.col_alpha else "C" * self.col_digits
        row = "R" * self.row_digits
        parts = (col, row) if self.order == "colrow" else (row, col)
        text = self.separator.join(parts)
        if not self.pad:
            text += " (leading zero optional)"
        return text

    def format(self, hex: Hex) -> str:
        """The printed id of ``hex``."""
        col, row = hex
        fast = self._padded
        if fast is not None and 0 <= col < fast[1] and 0 <= row < fast[2]:
            return fast[0] % ((col, row) if self.order == "colrow" else (row, col))
        if col < 0 or row < 0:
            raise HexError(f"hex {tuple(hex)} has a negative number and cannot be written as {self.describe}")
        c = _alpha(col) if self.col_alpha else f"{col:0{self.col_digits}d}"
        r = f"{row:0{self.row_digits}d}"
        if len(r) > self.row_digits or (not self.col_alpha and len(c) > self.col_digits):
            raise HexError(f"hex {tuple(hex)} has more digits than {self.describe} allows")
        first, second = (c, r) if self.order == "colrow" else (r, c)
        if not self.pad and not (self.col_alpha and self.order == "colrow"):
            first = first.lstrip("0") or "0"
        return first + self.separator + second

    @cached_property
    def _padded(self) -> tuple[str, int, int] | None:
        """For padded numeric ids (a map prints thousands): the ``%`` format that writes them
        and the first column and row too wide for it; None for other schemes."""
        if self.col_alpha or not self.pad:
            return None
        first, second = (self.col_digits, self.row_digits) if self.order == "colrow" else (self.row_digits, self.col_digits)
        return (f"%0{first}d" + self.separator.replace("%", "%%") + f"%0{second}d", 10 ** self.col_digits,
                10 ** self.row_digits)

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        col = "[A-Z]+" if self.col_alpha else rf"[0-9]{{1,{self.col_digits}}}"
        row = rf"[0-9]{{1,{self.row_digits}}}"
        if self.separator:
            col_re, row_re = col, row
        else:  # without a separator the second part has its full width
            col_re = col if (self.order == "colrow" or self.col_alpha) else rf"[0-9]{{{self.col_digits}}}"
            row_re = row if self.order == "rowcol" else rf"[0-9]{{{self.row_digits}}}"
        parts = (f"(?P<col>{col_re})", f"(?P<row>{row_re})")
        if self.order == "rowcol":
            parts = parts[::-1]
        return re.compile(re.escape(self.separator).join(parts))

    def parse(self, text: str) -> Hex:
        """The hex whose id is ``text``; raises :class:`HexError` naming the expected form."""
        if not isinstance(text, str):
            if isinstance(text, int) and not isinstance(text, bool) and not self.col_alpha:
                text = str(text)  # YAML reads 0717 as a number: accept it
            else:
                raise HexError(f"hex id must be text like {self.format(Hex(1, 1))!r}, not {text!r}")
        match = self._pattern.fullmatch(text.strip().upper())
        if not match:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise HexError(f"bad hex id {shown!r}: expected {self.describe}, e.g. {self.format(Hex(7, 12))!r}")
        col_text = match["col"]
        if self.col_alpha:
            try:
                col = _unalpha(col_text)
            except HexError as exc:
                raise HexError(f"bad hex id {text!r}: {exc}") from None
        else:
            col = int(col_text)
        return Hex(col, int(match["row"]))


#: ``Hex(col, row)`` without the named tuple's argument handling (grids make thousands).
_new_tuple = tuple.__new__


@dataclass(frozen=True)
class Grid:
    """The hexes of a map and how they touch.

    ``orientation`` is ``"flat"`` (flat-topped hexes in vertical columns) or ``"pointy"``
    (pointy-topped hexes in horizontal rows). ``shifted`` says which lines, by printed number,
    sit half a hex further along: ``"even"`` or ``"odd"`` columns half a hex lower on a flat
    grid, rows half a hex to the right on a pointy grid. Columns and rows run from
    ``first_*`` to ``last_*``; ``col_direction``/``row_direction`` are ``"ascending"`` (left to
    right, top to bottom) or ``"descending"``. With ``short_shifted`` the shifted lines lose
    their last hex (a map whose edge zig-zags).
    """

    first_col: int
    last_col: int
    first_row: int
    last_row: int
    orientation: str = "flat"
    shifted: str = "even"
    short_shifted: bool = False
    col_direction: str = "ascending"
    row_direction: str = "ascending"
    numbering: Numbering = field(default_factory=Numbering)

    def __post_init__(self) -> None:
        checks = [
            (self.orientation in ("flat", "pointy"), f"orientation must be 'flat' or 'pointy', not {self.orientation!r}"),
            (self.shifted in ("even", "odd"), f"shifted must be 'even' or 'odd', not {self.shifted!r}"),
            (self.col_direction in ("ascending", "descending"), "col_direction must be 'ascending' or 'descending'"),
            (self.row_direction in ("ascending", "descending"), "row_direction must be 'ascending' or 'descending'"),
            (self.first_col <= self.last_col, f"first_col {self.first_col} is after last_col {self.last_col}"),
            (self.first_row <= self.last_row, f"first_row {self.first_row} is after last_row {self.last_row}"),
            (min(self.first_col, self.first_row) >= 0, "column and row numbers must not be negative"),
            ((self.last_col - self.first_col + 1) * (self.last_row - self.first_row + 1) <= 4_000_000,
             "grid is larger than 4,000,000 hexes"),
            (self.numbering.col_alpha or len(str(self.last_col)) <= self.numbering.col_digits,
             f"column {self.last_col} does not fit the numbering's {self.numbering.col_digits} column digits"),
            (len(str(self.last_row)) <= self.numbering.row_digits,
             f"row {self.last_row} does not fit the numbering's {self.numbering.row_digits} row digits"),
            (not self.numbering.col_alpha or self.first_col >= 1,
             "alphabetic columns start at 1 (A); first_col must be at least 1"),
            (not self.short_shifted or (self.last_row > self.first_row if self.orientation == "flat"
                                        else self.last_col > self.first_col),
             "short_shifted needs at least two hexes per line (the shifted lines lose one)"),
        ]
        for ok, message in checks:
            if not ok:
                raise HexError(message)

    # -- line coordinates ------------------------------------------------------------------

    @property
    def flat(self) -> bool:
        return self.orientation == "flat"

    @property
    def directions(self) -> tuple[tuple[str, int, int], ...]:
        return FLAT_DIRECTIONS if self.flat else POINTY_DIRECTIONS

    def _col_index(self, col: int) -> int:
        return col - self.first_col if self.col_direction == "ascending" else self.last_col - col

    def _row_index(self, row: int) -> int:
        return row - self.first_row if self.row_direction == "ascending" else self.last_row - row

    def _is_shifted(self, number: int) -> bool:
        return (number % 2 == 0) == (self.shifted == "even")

    def to_lines(self, hex: Hex) -> tuple[int, int]:
        """Line coordinates ``(a, d)`` of ``hex``: line index and doubled position along it."""
        found = self._line_table.get(hex)
        if found is not None:
            return found
        return self._to_lines(hex)

    def _to_lines(self, hex: Hex) -> tuple[int, int]:
        col, row = hex
        if self.flat:
            return self._col_index(col), 2 * self._row_index(row) + self._is_shifted(col)
        return self._row_index(row), 2 * self._col_index(col) + self._is_shifted(row)

    def from_lines(self, a: int, d: int) -> Hex | None:
        """The hex at line coordinates ``(a, d)``, or None where no hex centre lies there."""
        if self.flat:
            col = self.first_col + a if self.col_direction == "ascending" else self.last_col - a
            idx2 = d - self._is_shifted(col)
            if idx2 % 2:
                return None
            i = idx2 // 2
            row = self.first_row + i if self.row_direction == "ascending" else self.last_row - i
            return Hex(col, row)
        row = self.first_row + a if self.row_direction == "ascending" else self.last_row - a
        idx2 = d - self._is_shifted(row)
        if idx2 % 2:
            return None
        i = idx2 // 2
        col = self.first_col + i if self.col_direction == "ascending" else self.last_col - i
        return Hex(col, row)

    @cached_property
    def _cube_offset(self) -> int:
        # d - a has the same parity on every line; this makes (d - a - k) / 2 exact.
        line0 = self.first_col if self.flat else self.first_row
        if (self.col_direction if self.flat else self.row_direction) == "descending":
            line0 = self.last_col if self.flat else self.last_row
        return int(self._is_shifted(line0))

    def to_cube(self, hex: Hex) -> tuple[int, int, int]:
        """Cube coordinates (q, r, s) with q + r + s == 0."""
        a, d = self.to_lines(hex)
        r = (d - a - self._cube_offset) // 2
        return a, r, -a - r

    def from_cube(self, q: int, r: int, s: int | None = None) -> Hex:
        """The hex at cube (q, r, s); it may lie outside the grid."""
        hex = self.from_lines(q, 2 * r + q + self._cube_offset)
        assert hex is not None
        return hex

    # -- membership ------------------------------------------------------------------------

    def __contains__(self, hex: object) -> bool:
        if not isinstance(hex, tuple) or len(hex) != 2:
            return False
        col, row = hex
        if not (self.first_col <= col <= self.last_col and self.first_row <= row <= self.last_row):
            return False
        if self.short_shifted:
            line, last = (col, self._last_row_in_line) if self.flat else (row, self._last_col_in_line)
            if self._is_shifted(line) and (row if self.flat else col) == last:
                return False
        return True

    @property
    def _last_row_in_line(self) -> int:
        return self.last_row if self.row_direction == "ascending" else self.first_row

    @property
    def _last_col_in_line(self) -> int:
        return self.last_col if self.col_direction == "ascending" else self.first_col

    def __iter__(self) -> Iterator[Hex]:
        rows = range(self.first_row, self.last_row + 1)
        for col in range(self.first_col, self.last_col + 1):
            if not self.short_shifted:   # every hex of the rectangle (a map has thousands)
                yield from [_new_tuple(Hex, (col, row)) for row in rows]
                continue
            for row in rows:
                hex = Hex(col, row)
                if hex in self:
                    yield hex

    def __len__(self) -> int:
        return len(self._all)

    @cached_property
    def _all(self) -> frozenset[Hex]:
        return frozenset(iter(self))

    def hexes(self) -> list[Hex]:
        """Every hex of the grid, column by column."""
        return list(iter(self))

    def check(self, hex: Hex) -> Hex:
        """``hex`` itself, or :class:`HexError` if it is off the grid."""
        if hex not in self:
            raise HexError(f"hex {self.format(hex)} is outside the grid")
        return hex

    # -- ids -------------------------------------------------------------------------------

    def parse(self, text: str) -> Hex:
        """The hex named ``text`` in this grid's numbering (not checked against the extents)."""
        return self.numbering.parse(text)

    def format(self, hex: Hex) -> str:
        """The printed id of ``hex``."""
        return self.numbering.format(hex)

    # -- adjacency and distance ------------------------------------------------------------

    def neighbour(self, hex: Hex, direction: str) -> Hex:
        """The hex next to ``hex`` in compass ``direction`` (it may lie off the grid)."""
        a, d = self.to_lines(hex)
        for name, da, dd in self.directions:
            if name == direction:
                result = self.from_lines(a + da, d + dd)
                assert result is not None
                return result
        raise HexError(f"unknown direction {direction!r}: expected one of {[n for n, _, _ in self.directions]}")

    def neighbours(self, hex: Hex) -> tuple[Hex, ...]:
        """The hexes of the grid adjacent to ``hex``, clockwise from north (flat) or north-east."""
        found = self._neighbour_table.get(hex)
        if found is not None:
            return found
        a, d = self.to_lines(hex)
        near = (self.from_lines(a + da, d + dd) for _, da, dd in self.directions)
        return tuple(h for h in near if h in self)

    # Precomputed tables make neighbours() and distance() dictionary look-ups in tight loops
    # (referee path finding, supply tracing); hexes off the grid take the arithmetic path.

    @cached_property
    def _line_table(self) -> dict[Hex, tuple[int, int]]:
        area = (self.last_col - self.first_col + 1) * (self.last_row - self.first_row + 1)
        if area > _TABLE_LIMIT:
            return {}  # a huge grid is not worth a table built on the first look-up
        hexes = list(self._all)
        cols, rows = [h[0] for h in hexes], [h[1] for h in hexes]
        # _to_lines for every hex, its arithmetic written out once (a map has thousands)
        lines, along = (cols, rows) if self.flat else (rows, cols)
        lo, hi, up = ((self.first_col, self.last_col, self.col_direction == "ascending"),
                      (self.first_row, self.last_row, self.row_direction == "ascending"))[0 if self.flat else 1]
        alo, ahi, aup = ((self.first_row, self.last_row, self.row_direction == "ascending"),
                         (self.first_col, self.last_col, self.col_direction == "ascending"))[0 if self.flat else 1]
        even = self.shifted == "even"
        a = [n - lo for n in lines] if up else [hi - n for n in lines]
        d = [2 * ((m - alo) if aup else (ahi - m)) + ((n % 2 == 0) == even) for n, m in zip(lines, along)]
        return dict(zip(hexes, zip(a, d)))

    @cached_property
    def _neighbour_table(self) -> dict[Hex, tuple[Hex, ...]]:
        table = {}
        members = self._all
        for hex, (a, d) in self._line_table.items():
            found = (self.from_lines(a + da, d + dd) for _, da, dd in self.directions)
            table[hex] = tuple(h for h in found if h in members)
        return table

    def direction(self, start: Hex, end: Hex) -> str:
        """The compass name of the side of ``start`` that touches ``end``."""
        a1, d1 = self.to_lines(start)
        a2, d2 = self.to_lines(end)
        for name, da, dd in self.directions:
            if (a2 - a1, d2 - d1) == (da, dd):
                return name
        raise HexError(f"hexes {self.format(start)} and {self.format(end)} are not adjacent")

    def adjacent(self, h1: Hex, h2: Hex) -> bool:
        """True if the two hexes share a side."""
        return self.distance(h1, h2) == 1

    def distance(self, h1: Hex, h2: Hex) -> int:
        """Hexes counted from ``h1`` (excluded) to ``h2`` (included)."""
        # Line coordinates inlined for speed (referee path finding calls this in tight loops):
        # |a1 - a2| is the gap in line numbers whichever way they run, and the doubled positions
        # differ by 2 * (p1 - p2) plus or minus the difference of the two lines' half-hex shifts.
        flat, k = self._metric
        if flat:
            l1, p1 = h1
            l2, p2 = h2
        else:
            p1, l1 = h1
            p2, l2 = h2
        da = l1 - l2
        if da < 0:
            da = -da
        dd = 2 * (p1 - p2) + k * ((l1 & 1) - (l2 & 1))
        if dd < 0:
            dd = -dd
        return (da + dd) // 2 if dd > da else da

    @cached_property
    def _metric(self) -> tuple[bool, int]:
        """(flat?, k) where k * (l1 % 2 - l2 % 2) is the shift difference of lines l1 and l2 in
        doubled positions, signed by the direction positions run along a line."""
        along = self.row_direction if self.flat else self.col_direction
        sign = 1 if along == "ascending" else -1
        return self.flat, sign if self.shifted == "odd" else -sign

    def ring(self, center: Hex, radius: int) -> list[Hex]:
        """Grid hexes at exactly ``radius`` from ``center``."""
        if radius == 0:
            return [center] if center in self else []
        q, r, _ = self.to_cube(center)
        out = []
        # walk the six sides of the ring in cube space
        steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        cq, cr = q - radius, r + radius
        for sq, sr in steps:
            for _ in range(radius):
                hex = self.from_cube(cq, cr)
                if hex in self:
                    out.append(hex)
                cq, cr = cq + sq, cr + sr
        return out

    def within(self, center: Hex, radius: int) -> list[Hex]:
        """Grid hexes at most ``radius`` from ``center``, nearest first."""
        out: list[Hex] = []
        for k in range(radius + 1):
            out.extend(self.ring(center, k))
        return out

    def line(self, start: Hex, end: Hex, nudge: int = 1) -> list[Hex]:
        """Hexes a straight line from centre to centre passes through, both ends included.

        Where the line runs exactly along a hexside, ``nudge=+1`` and ``nudge=-1`` pick the hexes
        on either side; line-of-sight rules that treat such sides specially compare both.
        """
        q1, r1, s1 = self.to_cube(start)
        q2, r2, s2 = self.to_cube(end)
        n = self.distance(start, end)
        if n == 0:
            return [start]
        eps = 1e-6 * nudge
        p = (q1 + eps, r1 + eps, s1 - 2 * eps)
        out = []
        for i in range(n + 1):
            t = i / n
            out.append(self.from_cube(*_cube_round(p[0] + (q2 - q1) * t,
                                                     p[1] + (r2 - r1) * t,
                                                     p[2] + (s2 - s1) * t)))
        return out

    # -- hexsides --------------------------------------------------------------------------

    def hexside(self, h1: Hex, h2: Hex) -> Hexside:
        """The canonical hexside between two adjacent hexes; :class:`HexError` if not adjacent."""
        if not self.adjacent(h1, h2):
            raise HexError(f"hexes {self.format(h1)} and {self.format(h2)} are not adjacent")
        return Hexside.of(h1, h2)

    def parse_hexside(self, text: str, *, check_adjacent: bool = True) -> Hexside:
        """The hexside written ``"0717/0816"`` (its two hexes) or ``"0717:NE"`` (a hex and a side).

        The ``HEX/HEX`` form must name adjacent hexes unless ``check_adjacent`` is false (the map
        loader leaves that to the validator). Either hex may lie off the grid.
        """
        text = str(text).strip()
        if "/" in text:
            first, second = (self.parse(t) for t in text.split("/", 1))
            return self.hexside(first, second) if check_adjacent else Hexside.of(first, second)
        if ":" in text:
            hex_text, direction = text.split(":", 1)
            first = self.parse(hex_text)
            return Hexside.of(first, self.neighbour(first, direction.strip().upper()))
        raise HexError(f"hexside {text!r} must be written 'HEX/HEX' or 'HEX:DIRECTION', e.g. "
                       f"'{self.format(Hex(self.first_col, self.first_row))}:S'")

    def format_hexside(self, side: Hexside) -> str:
        """``"0717/0816"``: the canonical written form of a hexside."""
        return f"{self.format(side.a)}/{self.format(side.b)}"

    def hexsides(self, hex: Hex) -> list[tuple[str, Hexside]]:
        """The six sides of ``hex`` with their compass names (sides to off-grid hexes included)."""
        a, d = self.to_lines(hex)
        out = []
        for name, da, dd in self.directions:
            other = self.from_lines(a + da, d + dd)
            assert other is not None
            out.append((name, Hexside.of(hex, other)))
        return out

    def edge_hexes(self, edge: str) -> list[Hex]:
        """Grid hexes on the named page edge (``north``, ``south``, ``east`` or ``west``).

        Across the lines the edge is the first or last line; along them, the hexes whose
        straight neighbour towards the edge is off the grid (so a zig-zag edge is followed).
        """
        across = ("west", "east") if self.flat else ("north", "south")
        along = {"north": "N", "south": "S"} if self.flat else {"west": "W", "east": "E"}
        if edge in across:
            last_line = max(self.to_lines(h)[0] for h in self._all)
            wanted = 0 if edge == across[0] else last_line
            return [h for h in self if self.to_lines(h)[0] == wanted]
        if edge in along:
            return [h for h in self if self.neighbour(h, along[edge]) not in self]
        raise HexError(f"unknown map edge {edge!r}: expected north, south, east or west")


def _cube_round(fq: float, fr: float, fs: float) -> tuple[int, int, int]:
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    else:
        s = -q - r
    return q, r, s


@dataclass(frozen=True)
class Layout:
    """A grid on the page: hex size in pixels and where the first hex's centre lies.

    ``size`` is the flat-to-flat width of a hex (the distance between the centres of two
    adjacent hexes). ``origin`` is the centre of the hex at line coordinates (0, 0), i.e. the
    top-left hex of the grid when numbering ascends.
    """

    grid: Grid
    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    @property
    def radius(self) -> float:
        """Centre-to-corner distance (the side length)."""
        return self.size / math.sqrt(3)

    @property
    def line_spacing(self) -> float:
        """Distance between neighbouring lines (columns of a flat grid): 1.5 radius."""
        return 1.5 * self.radius

    def center(self, hex: Hex) -> tuple[float, float]:
        """Pixel centre of ``hex``."""
        a, d = self.grid.to_lines(hex)
        along = a * self.line_spacing
        across = d * self.size / 2
        if self.grid.flat:
            return self.origin[0] + along, self.origin[1] + across
        return self.origin[0] + across, self.origin[1] + along

    def hex_at(self, x: float, y: float) -> Hex:
        """The hex whose polygon contains pixel (x, y) (it may lie off the grid)."""
        along, across = (x - self.origin[0], y - self.origin[1])
        if not self.grid.flat:
            along, across = across, along
        fq = along / self.line_spacing
        # doubled position d = across / (size/2); cube r = (d - q - k) / 2
        fd = across / (self.size / 2)
        fr = (fd - fq - self.grid._cube_offset) / 2
        q, r, _ = _cube_round(fq, fr, -fq - fr)
        return self.grid.from_cube(q, r)

    def corners(self, hex: Hex) -> list[tuple[float, float]]:
        """The six corner points, clockwise from the west corner (flat) or north corner (pointy)."""
        cx, cy = self.center(hex)
        R = self.radius
        start = 180 if self.grid.flat else 270
        return [(cx + R * math.cos(math.radians(start + 60 * i)),
                 cy + R * math.sin(math.radians(start + 60 * i))) for i in range(6)]

    def polygon(self, hex: Hex):
        """The hex as a shapely Polygon."""
        from shapely.geometry import Polygon
        return Polygon(self.corners(hex))

    def hexside_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the segment two hexes share."""
        (ax, ay), (bx, by) = self.center(side.a), self.center(side.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        half = self.radius / 2
        ux, uy = -dy / length * half, dx / length * half
        return (mx - ux, my - uy), (mx + ux, my + uy)

    def bounds(self, hexes: Iterable[Hex] | None = None) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) of the hex polygons."""
        xs, ys = [], []
        for hex in (self.grid if hexes is None else hexes):
            for x, y in self.corners(hex):
                xs.append(x)
                ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)

    @classmethod
    def fit(cls, grid: Grid, size: float, margin: float = 0.0) -> "Layout":
        """A layout whose grid starts ``margin`` pixels from the top-left corner."""
        probe = cls(grid, size)
        x0, y0, _, _ = probe.bounds()
        return cls(grid, size, (margin - x0, margin - y0))

    def image_size(self, margin: float = 0.0) -> tuple[int, int]:
        """Pixel width and height that hold the whole grid plus ``margin`` on every side."""
        x0, y0, x1, y1 = self.bounds()
        return math.ceil(x1 - min(x0, 0) + margin), math.ceil(y1 - min(y0, 0) + margin)


@dataclass(frozen=True)
class ImageLayout(Layout):
    """A layout on someone else's picture (a scan, a VASSAL board): lines ``spacing`` apart.

    Printed hexes are not always regular: VASSAL's ``dx`` (between lines) and ``dy`` (along
    a line) are independent. ``size`` is the distance along a line; ``spacing`` 0 means regular.
    """

    spacing: float = 0.0

    @property
    def line_spacing(self) -> float:
        return self.spacing or 1.5 * self.radius

