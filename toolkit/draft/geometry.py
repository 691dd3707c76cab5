"""Where a map's hexes lie on a picture: its own render, its board image, or a scan registered
by two reference hexes (a scan is scaled and turned a little: a similarity transform).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import DataError
from ..game import Map
from ..hexes import Hex, Layout

__all__ = ["PlacedLayout", "drawn_labels", "placed_layout", "render_layout"]


@dataclass(frozen=True)
class PlacedLayout:
    """A layout moved onto a picture: ``scale`` and ``angle`` (radians) about the base origin,
    then ``offset``. It answers what :class:`~toolkit.hexes.Layout` answers (centre, corners,
    size, grid), so overlays and samplers take either."""

    base: Layout
    scale: float = 1.0
    angle: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)

    @property
    def grid(self):
        return self.base.grid

    @property
    def size(self) -> float:
        return self.base.size * self.scale

    @property
    def radius(self) -> float:
        return self.base.radius * self.scale

    @property
    def line_spacing(self) -> float:
        return self.base.line_spacing * self.scale

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A base-layout point on the picture."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        return (self.scale * (c * x - s * y) + self.offset[0], self.scale * (s * x + c * y) + self.offset[1])

    def unpoint(self, x: float, y: float) -> tuple[float, float]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        x, y = (x - self.offset[0]) / self.scale, (y - self.offset[1]) / self.scale
        return c * x + s * y, -s * x + c * y

    def center(self, hex: Hex) -> tuple[float, float]:
        return self.point(*self.base.center(hex))

    def corners(self, hex: Hex) -> list[tuple[float, float]]:
        return [self.point(x, y) for x, y in self.base.corners(hex)]

    def hex_at(self, x: float, y: float) -> Hex:
        return self.base.hex_at(*self.unpoint(x, y))

    def hexside_segment(self, side):
        a, b = self.base.hexside_segment(side)
        return self.point(*a), self.point(*b)


def render_layout(game_map: Map, dpi: int, theme=None) -> Layout:
    """The layout :func:`~toolkit.render.render_map` uses at ``dpi`` (without drawing the map)."""
    from ..render import Theme

    theme = theme or Theme.default()
    size = game_map.hex_size_inches * dpi
    return Layout.fit(game_map.grid, size, theme.data.get("margin", 0.42) * dpi)


def placed_layout(game_map: Map, *, dpi: int | None = None, refs: dict[Hex, tuple[float, float]] | None = None,
                  use_board: bool = True) -> PlacedLayout:
    """The map's hexes on a picture.

    With two ``refs`` (hex -> the pixel of its centre on the picture) the base layout is
    scaled, turned and moved onto them; the base is the map's board image geometry, or a
    unit layout. Without refs: the board image's geometry (``use_board``), else a render at ``dpi``.
    """
    if game_map.image is not None and use_board:
        base: Layout = game_map.image.layout(game_map.grid)
    elif refs:
        base = Layout(game_map.grid, 100.0)
    else:
        base = render_layout(game_map, dpi or 150)
    if not refs:
        return PlacedLayout(base)
    if len(refs) != 2:
        raise DataError(f"give exactly two reference hexes (--ref HEX=X,Y twice), not {len(refs)}", field="ref")
    (h1, p1), (h2, p2) = refs.items()
    for h in (h1, h2):
        if h not in game_map.grid:
            raise DataError(f"reference hex {game_map.grid.format(h)} is not on map {game_map.id}", field="ref")
    a1, a2 = base.center(h1), base.center(h2)
    va = (a2[0] - a1[0], a2[1] - a1[1])
    vp = (p2[0] - p1[0], p2[1] - p1[1])
    la, lp = math.hypot(*va), math.hypot(*vp)
    if la < 1e-9 or lp < 1:
        raise DataError("the two reference hexes must be different hexes at different pixels", field="ref")
    scale = lp / la
    angle = math.atan2(vp[1], vp[0]) - math.atan2(va[1], va[0])
    probe = PlacedLayout(base, scale, angle)
    q1 = probe.point(*a1)
    return PlacedLayout(base, scale, angle, (p1[0] - q1[0], p1[1] - q1[1]))


def drawn_labels(game_map: Map, layout, *, game=None, theme=None) -> list[tuple[float, float, float, float]]:
    """Where hexforge's renderer prints the map's place names, hex ids and victory and supply
    markers, as boxes on the picture placed by ``layout`` (a render of this map, or a scan of
    one registered by two hexes): the drafter reads terrain, hexsides and lines around them.

    The renderer plans the map (nothing is painted) at the picture's hex size."""
    from ..render import render_map

    placed = layout if isinstance(layout, PlacedLayout) else PlacedLayout(layout)
    base = placed.base
    dpi = min(1200, max(20, round(base.size / game_map.hex_size_inches)))
    rendered = render_map(game_map, dpi=dpi, game=game, theme=theme)
    drawn = rendered.layout
    h0 = next(iter(game_map.grid))
    s = base.size / drawn.size
    (rx, ry), (bx, by) = drawn.center(h0), base.center(h0)
    boxes = rendered.text_boxes
    out = []
    for x0, y0, x1, y1 in [*boxes["places"].values(), *boxes["hex_ids"].values(), *boxes["markers"]]:
        corners = [placed.point(bx + (x - rx) * s, by + (y - ry) * s)
                   for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return out
