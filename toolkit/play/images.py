"""The pictures the page shows: the map renderer's image and the counter renderer's faces,
as PNG bytes, drawn once and kept."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from ..errors import RulesError
from ..game import Game
from ..hexes import Layout

__all__ = ["MapArt", "screen_dpi", "counter_png", "COUNTER_SHARE"]

#: Pixels a hex is drawn across at zoom 1.
HEX_PX = 64
#: A counter on the map is this share of a hex across, so the terrain and shading around it show.
COUNTER_SHARE = 0.8


def screen_dpi(game: Game, map_id: str) -> int:
    """The DPI at which a hex of ``map_id`` is about :data:`HEX_PX` pixels across."""
    inches = game.maps[map_id].hex_size_inches or 0.625
    return max(20, min(600, round(HEX_PX / inches)))


@dataclass
class MapArt:
    """A map drawn for the screen: PNG bytes, the layout of its hexes, its size in pixels."""

    png: bytes
    layout: Layout
    size: tuple[int, int]
    counter_px: int
    #: counter faces drawn so far, (counter id, back, px) -> PNG bytes
    faces: dict = field(default_factory=dict, repr=False)

    @classmethod
    def draw(cls, game: Game, map_id: str) -> "MapArt":
        from ..render import render_map
        image = render_map(game.maps[map_id], dpi=screen_dpi(game, map_id), game=game)
        buffer = io.BytesIO()
        image.image.save(buffer, format="PNG", compress_level=3)
        counter_px = round(image.layout.size * COUNTER_SHARE)
        art = cls(buffer.getvalue(), image.layout, image.image.size, counter_px)
        # every front face now: the page asks for them all at once when it opens, and a "Where"
        # asked meanwhile would wait behind them
        for counter_id in game.counters:
            counter_png(game, counter_id, px=art.face_px, cache=art.faces)
        return art

    @property
    def face_px(self) -> int:
        """Pixels of a counter image: twice its size on the map, sharp when zoomed in."""
        return self.counter_px * 2


def counter_png(game: Game, counter_id: str, *, back: bool = False, px: int = 96,
                cache: dict | None = None) -> bytes:
    """One face of a counter, ``px`` pixels a side, as PNG bytes (kept in ``cache`` if given)."""
    if counter_id not in game.counters:
        raise RulesError(f"game {game.id} has no counter {counter_id!r}")
    if not 16 <= px <= 512:
        raise RulesError(f"counter size {px} is outside 16 to 512 pixels")
    key = (counter_id, back, px)
    if cache is not None and key in cache:
        return cache[key]
    from ..render import render_counter
    image = render_counter(game, game.counters[counter_id], back=back, px=px)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    if cache is not None:
        cache[key] = buffer.getvalue()
    return buffer.getvalue()
