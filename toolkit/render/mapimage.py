"""Map images: ``render_map`` draws a game map at a DPI, ``build_map`` writes a game's maps.

The hexes sit in a playing area with a margin (map-edge labels live there); the legend (the
Terrain Effects Chart) and title block sit in a band to the right of it, or below a wide
map, never over a hex. Hex centres in image pixels are exactly ``MapImage.layout.center``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from PIL import Image

from ..errors import BuildError
from ..game import Game, Map
from ..hexes import Layout
from ..io import atomic_path
from ._mapdraw import draw_map
from ._maplegend import draw_legend, plan_legend
from .theme import Theme

__all__ = ["MapImage", "render_map", "build_map", "MAX_PIXELS"]

#: Refuse images larger than this many pixels (about 1.5 GB of RGB).
MAX_PIXELS = 500_000_000


@dataclass
class MapImage:
    """A rendered map: the RGB image, the layout that placed its hexes, and its DPI.

    ``hex_area`` is the (left, top, right, bottom) pixel box of the playing area (hexes plus
    margin); the legend band lies outside it.
    """

    image: Image.Image
    layout: Layout
    dpi: int
    game_map: Map
    hex_area: tuple[int, int, int, int]
    text_boxes: dict = field(default_factory=dict, repr=False)

    def save(self, path: str | os.PathLike) -> Path:
        """Write the image (PNG unless the suffix says otherwise) with its DPI, atomically."""
        path = Path(path)
        with atomic_path(str(path)) as tmp:
            fmt = "PNG" if path.suffix.lower() in ("", ".png") else None
            self.image.save(tmp, format=fmt or Image.registered_extensions().get(path.suffix.lower()),
                            dpi=(self.dpi, self.dpi))
        return path


def render_map(game_map: Map, *, dpi: int = 150, theme: Theme | None = None,
               game: Game | None = None) -> MapImage:
    """Draw ``game_map`` at ``dpi``: hexes ``game_map.hex_size_inches * dpi`` pixels across."""
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 20 <= dpi <= 1200:
        raise BuildError(f"map {game_map.id}: dpi must be a whole number from 20 to 1200, not {dpi!r}")
    theme = theme or Theme.default()
    size = game_map.hex_size_inches * dpi
    margin = theme.data.get("margin", 0.42) * dpi
    layout = Layout.fit(game_map.grid, size, margin)
    area_w, area_h = layout.image_size(margin)
    plan, _ = plan_legend(game_map, game, theme, dpi, area_w, area_h)
    if plan.right:
        width, height = area_w + plan.width, max(area_h, plan.height)
        origin = (area_w, 0)
    else:
        width, height = max(area_w, plan.width), area_h + plan.height
        origin = (0, area_h)
    if width * height > MAX_PIXELS:
        raise BuildError(f"map {game_map.id} at {dpi} dpi would be {width} x {height} pixels, "
                         f"more than {MAX_PIXELS:,}; use a lower --dpi")
    image = Image.new("RGB", (width, height), theme.paper)
    text_boxes = draw_map(image, game_map, layout, theme, game)
    draw_legend(image, origin, plan)
    return MapImage(image=image, layout=layout, dpi=dpi, game_map=game_map, hex_area=(0, 0, area_w, area_h),
                    text_boxes=text_boxes)


def build_map(game: Game, out_dir: Path, progress: Callable[[str], None]) -> list[Path]:
    """Write each map of ``game`` as out_dir/map/<id>.png (150 dpi) and a tiled A4 print PDF."""
    from .tiles import print_pdf

    folder = Path(out_dir) / "map"
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for game_map in game.maps.values():
        progress(f"map {game_map.id}: rendering at 150 dpi")
        image = render_map(game_map, dpi=150, game=game)
        written.append(image.save(folder / f"{game_map.id}.png"))
        progress(f"map {game_map.id}: print PDF on A4 at 300 dpi")
        printable = render_map(game_map, dpi=300, game=game)
        written.append(print_pdf(printable, folder / f"{game_map.id}-a4.pdf", paper="a4"))
    return written
