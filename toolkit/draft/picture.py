"""Everything a draft or a check needs from the command line: the picture, where the grid lies
on it, and the palette. Pictures are untrusted files: size-checked before they are decoded."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from ..errors import DataError
from ..game import Map
from ..hexes import Hex
from .geometry import PlacedLayout, drawn_labels, placed_layout
from .palette import Palette, ensure_types, parse_learn, parse_learn_strokes, stroke_colour
from .sample import HexSampler

__all__ = ["Picture", "open_picture", "prepare", "parse_refs"]

MAX_PICTURE_PIXELS = 400_000_000


@dataclass
class Picture:
    image: Image.Image
    layout: PlacedLayout
    palette: Palette
    name: str
    #: Where hexforge's renderer prints names, ids and markers on the picture (none for a board
    #: image hexforge did not draw): the draft reads around them.
    labels: list = field(default_factory=list)


def open_picture(path: str | os.PathLike) -> Image.Image:
    """An RGB picture; a clear error for a missing, unreadable or absurdly large file."""
    try:
        with Image.open(path) as image:
            if image.width * image.height > MAX_PICTURE_PIXELS:
                raise DataError(f"picture is {image.width}x{image.height} pixels, more than "
                                f"{MAX_PICTURE_PIXELS:,}", path=str(path))
            return image.convert("RGB")
    except FileNotFoundError:
        raise DataError("picture not found", path=str(path)) from None
    except (OSError, Image.DecompressionBombError, ValueError) as exc:
        raise DataError(f"not a readable picture: {exc}", path=str(path)) from None


def _learn_strokes(game_map: Map, learn: str, pal: Palette, sampler: HexSampler, name: str) -> None:
    """Hexside features and lines named by hand: their colour read on the picture, their type
    added to the map if it lacks one (costs unknown: estimated)."""
    from ..game import HexsideType, LineType, Source

    from ..render import Theme
    from ..render.theme import rgb

    grid = rgb(Theme.default().get("grid", "colour", "#4a4a44"))
    sides, links = parse_learn_strokes(learn, game_map)
    note = f"learned from {name}: movement costs not known"
    for kind, found in (("side", sides), ("line", links)):
        for side, code in found.items():
            fills = [look.mode for look in (sampler.look(side.a), sampler.look(side.b)) if look is not None]
            ends = (sampler.layout.hexside_segment(side) if kind == "side"
                    else (sampler.layout.center(side.a), sampler.layout.center(side.b)))
            # the grid's lines run along every hexside: never the feature's colour
            colour = stroke_colour(sampler, *ends, fills + [grid]) if fills else None
            if colour is None:
                raise DataError(f"learn: {game_map.grid.format_hexside(side)} is not on the picture", field="learn")
            pal.strokes[(kind, code)] = colour
            if kind == "side" and code not in game_map.hexside_types:
                game_map.hexside_types[code] = HexsideType(code, code.replace("-", " ").title(),
                                                           source=Source(estimated=note))
            if kind == "line" and code not in game_map.line_types:
                game_map.line_types[code] = LineType(code, code.replace("-", " ").title(),
                                                     source=Source(estimated=note))


def _data_examples(game_map: Map, per_class: int = 12) -> dict[Hex, tuple]:
    """Up to ``per_class`` hexes of each terrain in the data, spread over the map."""
    by_class: dict[tuple, list[Hex]] = {}
    for hex, cell in sorted(game_map.hexes.items()):
        by_class.setdefault((cell.terrain, tuple(cell.features)), []).append(hex)
    chosen = {}
    for terrain, hexes in by_class.items():
        step = max(1, len(hexes) // per_class)
        for hex in hexes[::step][:per_class]:
            chosen[hex] = terrain
    return chosen


def parse_refs(items: tuple[str, ...], game_map: Map) -> dict[Hex, tuple[float, float]]:
    """``HEX=X,Y`` pairs: the pixel of a hex's centre on the picture."""
    refs = {}
    for item in items:
        hex_text, sep, xy = item.partition("=")
        xs, comma, ys = xy.partition(",")
        try:
            point = (float(xs), float(ys))
            hex = game_map.grid.parse(hex_text)
        except Exception:
            raise DataError(f"reference {item!r} is not HEX=X,Y (e.g. 0101=120,96)", field="ref") from None
        if not sep or not comma:
            raise DataError(f"reference {item!r} is not HEX=X,Y (e.g. 0101=120,96)", field="ref")
        refs[hex] = point
    return refs


def prepare(game_map: Map, *, image: str | None = None, palette: str | None = None, learn: str | None = None,
            refs: tuple[str, ...] = (), dpi: int = 100, game=None, against: bool = False) -> Picture:
    """The picture (given, the map's board image, or the map rendered at ``dpi``), the grid on
    it and the palette (the game's terrain drawn by hexforge, a palette file, learned hexes).

    ``against``: the palette is for checking the map's data: the data's own hexes read on the
    picture (any picture, in its own colours), each hex judged by the others, never by itself.
    """
    if refs and len(refs) != 2:
        raise DataError(f"give exactly two reference hexes (--ref HEX=X,Y twice), not {len(refs)}", field="ref")
    board = None
    if game_map.image is not None:
        base = game_map.locations.get("file", (None, None))[0]
        board = Path(base).parent / game_map.image.file if base else Path(game_map.image.file)
    if image is not None:
        picture, name = open_picture(image), Path(image).name
        layout = placed_layout(game_map, dpi=dpi, refs=parse_refs(refs, game_map) or None)
    elif board is not None:
        picture, name = open_picture(board), board.name
        layout = placed_layout(game_map, refs=parse_refs(refs, game_map) or None)
    else:
        if refs:
            raise DataError("--ref places the grid on a picture: give the picture with --image", field="ref")
        from ..render import render_map
        rendered = render_map(game_map, dpi=dpi, game=game)
        picture, name, layout = rendered.image, f"hexforge's render at {dpi} dpi", PlacedLayout(rendered.layout)
    learned = parse_learn(learn, game_map) if learn else {}
    if palette:
        pal = Palette.from_file(palette, game_map)
    elif learned:
        pal = Palette()  # the picture's own looks of the named hexes
    elif against and len({(c.terrain, c.features) for c in game_map.hexes.values()}) >= 2:
        pal = Palette()
        pal.learn(HexSampler(picture, layout, game_map.hex_ids), _data_examples(game_map), game_map.grid,
                  keep_source=True)
        pal.origin = [f"{len(pal.examples)} hexes of the data, read on the picture"]
    elif any(not t.overlay for t in game_map.terrain_types.values()):
        pal = Palette.from_game(game_map, layout.size)
    else:
        pal = Palette()
    if learned:
        ensure_types(game_map, learned.values(), f"learned from {name}: movement costs not known")
        pal.learn(HexSampler(picture, layout, game_map.hex_ids), learned, game_map.grid)
    if learn:
        _learn_strokes(game_map, learn, pal, HexSampler(picture, layout, game_map.hex_ids), name)
    if not pal.examples:
        raise DataError(f"map {game_map.id} has no terrain types: name example hexes with --learn "
                        "(e.g. --learn 0104=woods,0612=swamp) or give --palette", field="terrain_types")
    drawn_by_hexforge = image is not None or board is None
    labels = drawn_labels(game_map, layout, game=game) if drawn_by_hexforge else []
    return Picture(picture, layout, pal, name, labels)
