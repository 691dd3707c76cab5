"""Small stand-in renderers for the VASSAL tests (the real renderers are other packages' work)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from toolkit.hexes import Layout

COUNTERS = Path(__file__).resolve().parents[2] / "counters"
BUNDLED = sorted(p.parent.name for p in COUNTERS.glob("*/game.yaml"))


@dataclass
class FakeMapImage:
    image: Image.Image
    layout: Layout
    dpi: int


def fake_render_map(game_map, *, dpi=150, game=None):
    """A plain image with the grid where a real map would put it, and a legend band beside."""
    size = game_map.hex_size_inches * dpi
    layout = Layout.fit(game_map.grid, size, margin=size * 0.6)
    width, height = layout.image_size(margin=size * 0.6)
    return FakeMapImage(Image.new("RGB", (width + 240, height), (230, 225, 200)), layout, dpi)


def fake_render_counter(game, counter, *, back=False, px=75, state=None):
    colour = (80, 200, 80) if state else (200, 80, 80) if back else (80, 80, 200)
    return Image.new("RGB", (px, px), colour)


FAKES = {"render_map": fake_render_map, "render_counter": fake_render_counter}


