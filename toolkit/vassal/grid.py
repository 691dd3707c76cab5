"""VASSAL's hex grid: a faithful port of its arithmetic, and attributes derived from a Layout.

:class:`VassalHexGrid` reproduces ``HexGrid``/``HexGridNumbering`` of VASSAL 3.7 exactly
(vassal-format.md §5): hex centres with Java ``int`` truncation, centre snapping with the
float32 polygon and Java's insideness rule, raw column/row with ``Math.round``, the numbering
options and the label. :func:`derive_grid` builds the attributes from our
:class:`~toolkit.hexes.Layout` so that VASSAL's label of every hex centre is our hex id.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, replace

from ..errors import BuildError
from ..hexes import Hex, Layout

__all__ = ["inside_shape", "VassalHexGrid", "derive_grid", "raw_index"]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


_MAX_PX = 1_000_000   # pixels: far beyond any board VASSAL can show


def _number(attrs: dict, key: str, default: str, low: float, high: float, kind=int):
    """Attribute ``key`` as a finite ``kind`` (int or float) from ``low`` to ``high``, else a
    ValueError naming it (nan, inf, 1e-320 and 10**400 never reach the grid arithmetic)."""
    text = str(attrs.get(key, default)).strip()
    try:
        value = float(text) if kind is float else int(text)
    except (ValueError, OverflowError):
        raise ValueError(f"{key}={text[:30]!r} is not {'a number' if kind is float else 'a whole number'}") from None
    if not (low <= value <= high and (kind is int or math.isfinite(value))):
        raise ValueError(f"{key}={text[:30]!r} is outside {low}..{high}")
    return value


def _f32(value: float) -> float:
    """``value`` rounded to a Java float."""
    return struct.unpack("f", struct.pack("f", value))[0]


def _jround(value: float) -> int:
    """Java ``Math.round``: half up (Python's ``round`` rounds half to even)."""
    return math.floor(value + 0.5)


def _jint(value: float) -> int:
    """Java ``(int)`` cast: truncation toward zero."""
    return int(value)


def _name(n: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName``."""
    text = "-" if n < 0 else ""
    n = abs(n)
    if kind == "A":
        while True:
            text += _ALPHABET[n % 26]
            n -= 26
            if n < 0:
                return text
    while leading > 0:
        ok = n < 10 ** leading
        leading -= 1
        if not ok:
            break
        text += "0"
    return text + str(n)


def inside_shape(poly: list[tuple[int, int]], px: float, py: float) -> bool:
    """Whether a point is inside a polygon (a zone's path) as VASSAL decides: Java ``Shape`` insideness: even-odd crossings, half-open edges, intersection x <= px."""
    crossings = 0
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if y1 == y2:
            continue
        if not (min(y1, y2) <= py < max(y1, y2)):
            continue
        # xi <= px, with xi = x1 + (py - y1) * (x2 - x1) / (y2 - y1), cross-multiplied
        lhs = (py - y1) * (x2 - x1)
        rhs = (px - x1) * (y2 - y1)
        if (lhs <= rhs) if y2 > y1 else (lhs >= rhs):
            crossings += 1
    return crossings % 2 == 1


@dataclass(frozen=True)
class VassalHexGrid:
    """A VASSAL ``HexGrid`` with its ``HexGridNumbering`` on a board of a given image size.

    Field names follow the buildFile attributes. Coordinates are board-local pixels.
    """

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool
    board_width: int
    board_height: int
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"

    # -- attributes ------------------------------------------------------------------------

    @classmethod
    def from_attributes(cls, grid: dict, numbering: dict, width: int, height: int) -> "VassalHexGrid":
        """Read buildFile attributes (strings) as VASSAL would, defaults included."""
        def flag(value: str | None, default: bool) -> bool:
            return default if value is None else value == "true"

        n = numbering or {}
        return cls(
            dx=_number(grid, "dx", "55.42562584220407", 1, _MAX_PX, float),
            dy=_number(grid, "dy", "64.0", 1, _MAX_PX, float),
            x0=_number(grid, "x0", "0", -_MAX_PX, _MAX_PX), y0=_number(grid, "y0", "32", -_MAX_PX, _MAX_PX),
            sideways=flag(grid.get("sideways"), False),
            board_width=_number({"width": width}, "width", "0", 1, _MAX_PX),
            board_height=_number({"height": height}, "height", "0", 1, _MAX_PX),
            first=n.get("first", "H"), sep=n.get("sep", ""), h_type=n.get("hType", "N"),
            v_type=n.get("vType", "N"), h_leading=_number(n, "hLeading", "1", 0, 100),
            v_leading=_number(n, "vLeading", "1", 0, 100), h_off=_number(n, "hOff", "1", -_MAX_PX, _MAX_PX),
            v_off=_number(n, "vOff", "1", -_MAX_PX, _MAX_PX), h_descend=flag(n.get("hDescend"), False),
            v_descend=flag(n.get("vDescend"), False), stagger=flag(n.get("stagger"), True),
            location_format=n.get("locationFormat", "$gridLocation$"),
        )

    def hexgrid_attributes(self) -> dict[str, str]:
        """The ``HexGrid`` element's attributes."""
        return {
            "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "dx": repr(float(self.dx)),
            "dy": repr(float(self.dy)), "edgesLegal": "false", "sideways": _bool(self.sideways),
            "snapTo": "true", "visible": "false", "x0": str(self.x0), "y0": str(self.y0),
        }

    def numbering_attributes(self) -> dict[str, str]:
        """The ``HexGridNumbering`` element's attributes."""
        return {
            "color": "0,0,0", "first": self.first, "fontSize": "9", "hDescend": _bool(self.h_descend),
            "hDrawOff": "0", "hLeading": str(self.h_leading), "hOff": str(self.h_off), "hType": self.h_type,
            "locationFormat": self.location_format, "rotateText": "0", "sep": self.sep,
            "stagger": _bool(self.stagger), "vDescend": _bool(self.v_descend), "vDrawOff": "0",
            "vLeading": str(self.v_leading), "vOff": str(self.v_off), "vType": self.v_type, "visible": "false",
        }

    # -- geometry (§5.2 - §5.4) ------------------------------------------------------------

    def _rot(self, x, y):
        return (y, x) if self.sideways else (x, y)

    def _centre_unrotated(self, col: int, row: int) -> tuple[int, int]:
        x = _jint(self.dx * col + self.x0)
        if col % 2 == 0:
            y = _jint(self.dy * row + self.y0)
        else:
            y = _jint(self.dy * row + _jint(self.dy / 2) + self.y0)
        return x, y

    def centre(self, col: int, row: int) -> tuple[int, int]:
        """Board-local centre of raw column ``col``, raw row ``row``."""
        return self._rot(*self._centre_unrotated(col, row))

    def _polygon(self, cx: int, cy: int) -> list[tuple[int, int]]:
        fx, fy, ddx, ddy = _f32(cx), _f32(cy), _f32(self.dx), _f32(self.dy)
        r = _f32(_f32(2.0 * ddx) / 3.0)
        half_r, half_dy = _f32(0.5 * r), _f32(0.5 * ddy)

        def rnd(v: float) -> int:
            return _jround(_f32(v))

        return [
            (rnd(fx - r), rnd(fy)),
            (rnd(fx - half_r), rnd(fy - half_dy)),
            (rnd(fx + half_r) + 1, rnd(fy - half_dy)),
            (rnd(fx + r) + 1, rnd(fy)),
            (rnd(fx + half_r) + 1, rnd(fy + half_dy) + 1),
            (rnd(fx - half_r), rnd(fy + half_dy) + 1),
        ]

    def snap(self, x: float, y: float) -> tuple[int, int]:
        """The hex centre VASSAL snaps the point to (centre-only snapping)."""
        x, y = self._rot(x, y)
        nx = math.floor((x - self.x0 + self.dx / 2) / self.dx)
        if nx % 2 == 0:
            ny = math.floor((y - self.y0 + self.dy / 2) / self.dy)
        else:
            ny = math.floor((y - self.y0) / self.dy)
        cand = self._centre_unrotated(nx, ny)
        if not inside_shape(self._polygon(*cand), x, y):
            offsets = ((-1, -1), (-1, 0), (1, -1), (1, 0)) if nx % 2 == 0 else ((-1, 0), (-1, 1), (1, 0), (1, 1))
            for ox, oy in offsets:
                other = self._centre_unrotated(nx + ox, ny + oy)
                if inside_shape(self._polygon(*other), x, y):
                    cand = other
                    break
        return self._rot(*cand)

    def raw(self, x: float, y: float) -> tuple[int, int]:
        """``(getRawColumn, getRawRow)`` of a point."""
        x, y = self._rot(x, y)
        col = _jint(math.floor((x - self.x0) / self.dx + 0.5))
        nx = _jround((x - self.x0) / self.dx)
        if nx % 2 == 0:
            row = _jround((y - self.y0) / self.dy)
        else:
            row = _jround((y - self.y0 - self.dy / 2) / self.dy)
        return col, row

    # -- numbering (§5.5, §5.6) ------------------------------------------------------------

    def column_row(self, x: float, y: float) -> tuple[int, int]:
        """``(getColumn, getRow)``: raw indices after the descending and stagger options."""
        raw_col, raw_row = self.raw(x, y)
        max_rows = _jint(math.floor(self.board_height / self.dx + 0.5))
        max_cols = _jint(math.floor(self.board_width / self.dy + 0.5))
        col = raw_col
        if self.v_descend and self.sideways:
            col = max_rows - col
        if self.h_descend and not self.sideways:
            col = max_cols - col
        row = raw_row
        if self.v_descend and not self.sideways:
            row = max_rows - row
        if self.h_descend and self.sideways:
            row = max_cols - row
        if self.stagger and raw_col % 2 != 0:
            descending = self.h_descend if self.sideways else self.v_descend
            row = row - 1 if descending else row + 1
        return col, row

    def label(self, x: float, y: float) -> str:
        """VASSAL's location name of a (board-local) point."""
        col, row = self.column_row(x, y)
        row_name = _name(row + self.v_off, self.v_type, self.v_leading)
        col_name = _name(col + self.h_off, self.h_type, self.h_leading)
        grid_location = col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name
        return (self.location_format.replace("$gridLocation$", grid_location)
                .replace("$row$", row_name).replace("$column$", col_name))

    def snapped_label(self, x: float, y: float) -> str:
        """The label of the hex the point snaps to."""
        return self.label(*self.snap(x, y))


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _line_parity(layout: Layout) -> int:
    """0 or 1: the parity of the doubled position on line 0 (constant ``d - a`` parity)."""
    hex = next(iter(layout.grid))
    a, d = layout.grid.to_lines(hex)
    return (d - a) % 2


def raw_index(layout: Layout, hex: Hex) -> tuple[int, int]:
    """VASSAL's raw (column, row) of ``hex`` in the grid :func:`derive_grid` makes."""
    a, d = layout.grid.to_lines(hex)
    col = a + _line_parity(layout)
    return col, (d - col % 2) // 2


def derive_grid(layout: Layout, width: int, height: int) -> VassalHexGrid:
    """The VASSAL grid whose label of every hex centre of ``layout`` is the hex's id.

    VASSAL's raw column 0 is an unshifted line, so when our first line is shifted the raw
    columns start one before it; numbering offsets undo that, descending numbering uses
    VASSAL's own (board-size based) maxima, and leading zeros reproduce ``Numbering.format``
    (an unpadded first part, as in Velikiye Luki's "717", gets no leading zeros). ``width``
    and ``height`` are the board image's size.
    """
    grid = layout.grid
    numbering = grid.numbering
    s0 = _line_parity(layout)
    dx, dy = layout.line_spacing, layout.size
    ox, oy = layout.origin
    along0, across0 = (ox, oy) if grid.flat else (oy, ox)
    x0 = _jround(along0 - s0 * dx)
    y0 = _jround(across0)
    base = VassalHexGrid(dx=dx, dy=dy, x0=x0, y0=y0, sideways=not grid.flat,
                         board_width=width, board_height=height, stagger=False)
    max_rows = _jint(math.floor(height / dx + 0.5))
    max_cols = _jint(math.floor(width / dy + 0.5))

    # Our numbers along the lines (VASSAL columns) and across them (VASSAL rows).
    if grid.flat:
        line_first, line_last, line_desc = grid.first_col, grid.last_col, grid.col_direction == "descending"
        pos_first, pos_last, pos_desc = grid.first_row, grid.last_row, grid.row_direction == "descending"
        line_is_col = True
    else:
        line_first, line_last, line_desc = grid.first_row, grid.last_row, grid.row_direction == "descending"
        pos_first, pos_last, pos_desc = grid.first_col, grid.last_col, grid.col_direction == "descending"
        line_is_col = False
    line_max = max_rows if not grid.flat else max_cols   # VASSAL's maximum for its column
    pos_max = max_cols if not grid.flat else max_rows    # ... and for its row
    h_off = (line_last + s0 - line_max) if line_desc else (line_first - s0)
    v_off = (pos_last - pos_max) if pos_desc else pos_first

    col_first = numbering.order == "colrow"
    unpadded_first = not numbering.pad and not numbering.separator and not (numbering.col_alpha and col_first)

    def part(is_col: bool) -> tuple[str, int]:
        if is_col and numbering.col_alpha:
            return "A", 0
        digits = numbering.col_digits if is_col else numbering.row_digits
        first_part = is_col == col_first
        return "N", 0 if (unpadded_first and first_part) else digits - 1

    h_type, h_leading = part(line_is_col)
    v_type, v_leading = part(not line_is_col)
    if h_type == "A":
        h_off -= 1  # VASSAL's letters count from 0 = "A"; ours from 1
    if v_type == "A":
        v_off -= 1
    # "H" puts VASSAL's column first; VASSAL's column is our column on a flat grid
    first = "H" if (col_first == line_is_col) else "V"
    if grid.flat:
        h_descend, v_descend = line_desc, pos_desc
    else:  # sideways: vDescend reverses VASSAL's column (our rows), hDescend its row
        h_descend, v_descend = pos_desc, line_desc
    result = replace(base, first=first, sep=numbering.separator, h_type=h_type, v_type=v_type,
                     h_leading=h_leading, v_leading=v_leading, h_off=h_off, v_off=v_off,
                     h_descend=h_descend, v_descend=v_descend)
    if width <= 0 or height <= 0:
        raise BuildError(f"board image is {width}x{height} pixels; a VASSAL board needs a real image")
    return result
