"""A VASSAL HexGrid on a board image, as a hexforge :class:`~toolkit.hexes.Grid` with its pixels.

VASSAL's grid has no extent: the board image bounds it. Every hex whose centre lies on the
board is named with the port of VASSAL's arithmetic (:class:`~toolkit.vassal.VassalHexGrid`),
the names become hexforge numbers, and the hexforge grid (orientation, shifted lines,
directions, numbering) is the one whose line coordinates are VASSAL's up to a constant. The
conversion is checked, not trusted: every hex hexforge formats must read exactly as VASSAL
names it, or the board is refused with the first hex that differs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import DataError, HexError
from ..hexes import Grid, Hex, ImageLayout, Numbering
from ..vassal.grid import VassalHexGrid, inside_shape

__all__ = ["BoardGrid", "convert_grid"]


@dataclass(frozen=True)
class BoardGrid:
    """A converted grid: the hexforge grid, its pixel geometry on the board image, VASSAL's grid.

    ``origin`` is the board-local pixel centre of the hex at line coordinates (0, 0) (it may
    lie off the grid); ``spacing`` the distance between lines (VASSAL's ``dx``) and ``size``
    the distance between neighbours along a line (``dy``). ``names`` maps every hex with its
    centre on the board to VASSAL's name of it.
    """

    grid: Grid
    vassal: VassalHexGrid
    origin: tuple[float, float]
    spacing: float
    size: float
    names: dict[Hex, str] = field(default_factory=dict)
    off_board: int = 0
    dropped: tuple[str, ...] = ()

    @property
    def layout(self) -> ImageLayout:
        """Board-local pixel geometry of the grid."""
        return ImageLayout(self.grid, self.size, self.origin, self.spacing)


def _centres(v: VassalHexGrid, board: tuple[int, int] | None = None,
             zone: list[tuple[int, int]] | None = None) -> list[tuple[int, int, int, int]]:
    """``(raw col, raw row, x, y)`` of every hex whose centre lies on the board image (and inside
    ``zone`` for a zone's own grid, whose container is the zone, not the board)."""
    width, height = board or (v.board_width, v.board_height)
    along, across = (height, width) if v.sideways else (width, height)
    out = []
    c_lo, c_hi = math.floor(-v.x0 / v.dx) - 1, math.ceil((along - v.x0) / v.dx) + 1
    r_lo, r_hi = math.floor(-v.y0 / v.dy) - 2, math.ceil((across - v.y0) / v.dy) + 1
    if (c_hi - c_lo) * (r_hi - r_lo) > 4_000_000:
        raise DataError(f"the hex grid would have more than 4,000,000 hexes (dx={v.dx}, dy={v.dy} on a "
                        f"{width}x{height} board)", field="HexGrid")
    for c in range(c_lo, c_hi + 1):
        for r in range(r_lo, r_hi + 1):
            x, y = v.centre(c, r)
            if 0 <= x < width and 0 <= y < height and (zone is None or inside_shape(zone, x, y)):
                out.append((c, r, x, y))
    return out


def _numbers(v: VassalHexGrid, x: int, y: int) -> tuple[int, int]:
    """VASSAL's (column number, row number) of a point, offsets applied: the two printed parts."""
    col, row = v.column_row(x, y)
    return col + v.h_off, row + v.v_off


def _part_digits(leading: int, numbers: list[int]) -> int:
    return max(leading + 1, len(str(max(numbers))) if numbers else 1)


def convert_grid(v: VassalHexGrid, where: str, *, board: tuple[int, int] | None = None,
                 zone: list[tuple[int, int]] | None = None) -> BoardGrid:
    """The hexforge grid that names every on-board hex as VASSAL does; :class:`DataError` if none can.

    A Zone's own grid is numbered within the zone's bounding box (``v``'s size) but lies on the
    board: give the ``board`` size and the ``zone`` polygon, and only the hexes whose centre is
    inside the zone are named (VASSAL names points outside it by other zones or the board)."""
    centres = _centres(v, board, zone)
    if not centres:
        size = board or (v.board_width, v.board_height)
        raise DataError(f"no hex centre of the grid lies on the {size[0]}x{size[1]} board image"
                        + (" inside its zone" if zone is not None else ""), path=where, field="HexGrid")
    # VASSAL's column ("H" part) numbers the lines; on a sideways grid the lines are our rows.
    line_is_col = not v.sideways
    line_alpha, pos_alpha = v.h_type == "A", v.v_type == "A"
    col_alpha = line_alpha if line_is_col else pos_alpha
    if (pos_alpha if line_is_col else line_alpha):
        raise DataError("the grid names its " + ("rows" if line_is_col else "columns") + " with letters; "
                        "hexforge writes letters only for columns", path=where, field="HexGridNumbering")
    hexes: dict[Hex, tuple[int, int, str]] = {}
    dropped: list[str] = []
    for c, r, x, y in centres:
        h_num, v_num = _numbers(v, x, y)
        col, row = (h_num, v_num) if line_is_col else (v_num, h_num)
        if col_alpha:
            col += 1  # VASSAL's letters count from 0 = "A", ours from 1
        name = v.label(x, y)
        if col < (1 if col_alpha else 0) or row < 0 or col > 9999 or row > 9999:
            dropped.append(name)
            continue
        hexes[Hex(col, row)] = (c, 2 * r + (c % 2), name)
    if not hexes:
        raise DataError("every hex on the board has a negative number; hexforge numbers start at 0",
                        path=where, field="HexGridNumbering")
    cols = sorted({h.col for h in hexes})
    rows = sorted({h.row for h in hexes})
    h_first = v.first == "H"
    col_first = h_first == line_is_col
    col_lead, row_lead = (v.h_leading, v.v_leading) if line_is_col else (v.v_leading, v.h_leading)
    first_lead = col_lead if col_first else row_lead
    try:
        numbering = Numbering(order="colrow" if col_first else "rowcol",
                              col_digits=min(4, _part_digits(col_lead, cols)),
                              row_digits=min(4, _part_digits(row_lead, rows)),
                              pad=first_lead > 0 or (col_alpha and col_first), col_alpha=col_alpha,
                              separator=v.sep)
    except HexError as exc:
        raise DataError(f"the grid's numbering cannot be written by hexforge: {exc}", path=where,
                        field="HexGridNumbering") from None
    grid = _fit(hexes, cols, rows, v.sideways, numbering, where)
    mismatches = [(grid.format(h), name) for h, (_, _, name) in hexes.items() if grid.format(h) != name]
    if mismatches:
        ours, theirs = mismatches[0]
        raise DataError(f"{len(mismatches)} hexes would be named differently from VASSAL (VASSAL {theirs!r}, "
                        f"hexforge {ours!r}; locationFormat {v.location_format!r}): hexforge cannot "
                        "express this numbering", path=where, field="HexGridNumbering")
    h0 = next(iter(hexes))
    a, d = grid.to_lines(h0)
    c, dv, _ = hexes[h0]
    a_v0, d_v0 = c - a, dv - d  # VASSAL line coordinates of our line coordinates (0, 0)
    along = v.x0 + a_v0 * v.dx
    across = v.y0 + d_v0 * v.dy / 2
    origin = (across, along) if v.sideways else (along, across)
    names = {h: name for h, (_, _, name) in hexes.items()}
    return BoardGrid(grid=grid, vassal=v, origin=origin, spacing=v.dx, size=v.dy, names=names,
                     off_board=sum(1 for h in grid if h not in hexes), dropped=tuple(dropped))


def _fit(hexes: dict[Hex, tuple[int, int, str]], cols: list[int], rows: list[int], sideways: bool,
         numbering: Numbering, where: str) -> Grid:
    """The grid (shifted lines, directions, short lines) whose line coordinates match VASSAL's."""
    for shifted in ("even", "odd"):
        for col_dir in ("ascending", "descending"):
            for row_dir in ("ascending", "descending"):
                for short in (True, False):
                    try:
                        grid = Grid(first_col=cols[0], last_col=cols[-1], first_row=rows[0], last_row=rows[-1],
                                    orientation="pointy" if sideways else "flat", shifted=shifted,
                                    short_shifted=short, col_direction=col_dir, row_direction=row_dir,
                                    numbering=numbering)
                    except HexError:
                        continue
                    if short and any(h not in grid for h in hexes):
                        continue
                    offsets = {(a - c, d - dv) for h, (c, dv, _) in hexes.items()
                               for a, d in [grid._to_lines(h)]}
                    if len(offsets) == 1:
                        return grid
    raise DataError("the grid's numbering does not follow its geometry (numbers jump between hexes), so "
                    "no hexforge grid matches it", path=where, field="HexGridNumbering")
