"""The terrain palette a draft classifies against: examples of how each terrain looks.

Three sources, which may be combined: the game's own terrain types drawn by hexforge's
renderer at the picture's hex size (so symbols, water and hatching look as they will), a
palette file of colours, and hexes a person points at on the picture (``--learn``).
A class is a base terrain with its overlay features (``clear+town``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import DataError
from ..game import Map, TerrainType
from ..hexes import Grid, Hex, Hexside, Numbering
from ._cast import clip_image, clip_levels, clip_look
from .sample import HexSampler, Look

__all__ = ["Palette", "Terrain"]

#: A drafted terrain: base code and overlay features.
Terrain = tuple[str, tuple[str, ...]]


#: Copies of each terrain drawn for the palette: hexforge draws a symbol (trees, rocks) a few
#: ways (``toolkit.render._mapsymbols.VARIANTS``), each copy another way.
COPIES = 3


def terrain_name(terrain: Terrain) -> str:
    return "+".join((terrain[0],) + terrain[1])


def _nearest(v, candidates, prefer=None) -> tuple[object, float, float, object]:
    """``(label, confidence, distance, runner-up)`` of the nearest ``(label, vector)``.

    ``prefer`` wins near-ties: a hex without an overlay is far commoner than one with.
    """
    best: dict = {}
    for label, ex in candidates:
        d = math.sqrt(sum([(a - b) ** 2 for a, b in zip(v, ex)]))
        if prefer is not None and label != prefer:
            d = d * 1.1 + 2.0
        if d < best.get(label, math.inf):
            best[label] = d
    ranked = sorted(best.items(), key=lambda kv: kv[1])
    label, d1 = ranked[0]
    closeness = 1.0 / (1.0 + (d1 / 60.0) ** 2)
    if len(ranked) == 1:
        return label, closeness, d1, None
    runner, d2 = ranked[1]
    margin = (d2 - d1) / (d2 + d1 + 1e-9)
    return label, min(1.0, 2.5 * margin) * closeness, d1, runner


@dataclass
class Palette:
    """Examples of each terrain: the look of the ring (base terrain) and of the centre (where
    overlays such as towns are drawn). The nearest examples decide; the margin over the best
    other terrain is the confidence."""

    examples: list[tuple[Terrain, tuple[float, ...], tuple[float, ...]]] = field(default_factory=list)
    origin: list[str] = field(default_factory=list)
    context: dict = field(default_factory=dict)
    #: The hex each example was read from (None: drawn or given): a hex is never its own example.
    sources: list = field(default_factory=list)
    #: True when the examples are hexforge's own drawing (overlays can then be drawn in context).
    drawn: bool = False
    #: True when the examples were read on the picture being drafted (no colour correction then).
    native: bool = False
    #: Colours of hexside features and lines learned on the picture: ("side"|"line", code) -> RGB.
    strokes: dict = field(default_factory=dict)
    #: The levels (palette terms) a picture's colour cast clips each channel at, the palette's
    #: drawings clipped alike (see :meth:`through`); None: nothing clipped.
    clip: tuple | None = None
    #: How each example was made, to make it again through a cast: ``("drawn", swatch, hex)``,
    #: ``("given", ring, centre)`` (a palette file's colours) or None (read on the picture).
    made: list = field(default_factory=list)
    #: The pictures hexforge drew the examples on: ``(image, layout, hex_ids)``.
    swatches: list = field(default_factory=list)
    #: The palette unclipped, for a palette seen through a cast that clips (see :meth:`through`).
    unclipped: "Palette | None" = field(default=None, repr=False)
    _seen: dict = field(default_factory=dict, repr=False)

    def add(self, terrain: Terrain, ring: Look, centre: Look | None = None, source: Hex | None = None,
            made=None) -> None:
        self.examples.append((terrain, ring.vector(), _overlay_vector(ring, centre or ring)))
        self.sources.append(source)
        self.made.append(made)

    def through(self, correction) -> "Palette":
        """The palette as a picture needing ``correction`` shows it: where the picture's cast
        clips a channel (a light fill lifted past white), the drawings are clipped alike before
        their looks are read, and given colours clipped. Itself when nothing is clipped."""
        levels = clip_levels(correction)
        if levels == self.clip or not self.examples:
            return self
        key = None if levels is None else tuple(round(v * 2) for side in levels for v in side)
        known = self._seen.get(key)
        if known is not None:
            return known
        seen = replace(self, examples=[], sources=[], made=[], context={}, clip=levels, _seen={},
                       unclipped=None if levels is None else (self.unclipped or self))
        samplers: dict[int, HexSampler] = {}
        for (terrain, ring, centre), source, made in zip(self.examples, self.sources, self.made):
            if made is None:  # read on the picture: as the picture shows it already
                seen.examples.append((terrain, ring, centre))
                seen.sources.append(source)
                seen.made.append(None)
            elif made[0] == "given":
                seen.add(terrain, clip_look(made[1], levels), clip_look(made[2], levels), source, made)
            else:
                _, n, hex = made
                if n not in samplers:
                    image, layout, hex_ids = self.swatches[n]
                    samplers[n] = HexSampler(clip_image(image, levels), layout, hex_ids, sparse=True)
                seen._read(samplers[n], n, [(hex, terrain)])
        self._seen[key] = seen
        return seen

    def _read(self, sampler: HexSampler, swatch: int, placed) -> None:
        """Add the look of each ``(hex, terrain)`` drawn on swatch number ``swatch``."""
        for hex, terrain in placed:
            ring, centre = sampler.look(hex), sampler.look(hex, "centre")
            if ring is not None and centre is not None:
                self.add(terrain, ring, centre, made=("drawn", swatch, hex))

    @property
    def terrains(self) -> list[Terrain]:
        return list(dict.fromkeys(t for t, _, _ in self.examples))

    def _others(self, hex: Hex | None):
        return [ex for ex, src in zip(self.examples, self.sources) if src is None or src != hex]

    def classify_base(self, ring: Look, hex: Hex | None = None):
        """``(base code, confidence, distance, runner-up code)``."""
        return _nearest(ring.vector(), [(t[0], v) for t, v, _ in self._others(hex)])

    def classify_features(self, base: str, ring: Look, centre: Look, hex: Hex | None = None):
        """``(features, confidence, distance, runner-up)`` among the examples of ``base``."""
        # the ring counts too: an overlay drawn over the whole hex (woods on clear) changes the
        # ring and the centre alike
        candidates = [(t[1], v + c) for t, v, c in self._others(hex) if t[0] == base]
        if len({f for f, _ in candidates}) < 2:
            return (candidates[0][0] if candidates else ()), 1.0, 0.0, None
        return _nearest(ring.vector() + _overlay_vector(ring, centre), candidates, prefer=())

    def vector_of(self, base: str) -> tuple[float, ...]:
        """The mean ring vector of a base terrain's examples (for colour correction)."""
        vs = ([v for t, v, _ in self.examples if t == (base, ())]  # overlays cover the fill: plain first
              or [v for t, v, _ in self.examples if t[0] == base])
        return tuple(sum(c) / len(vs) for c in zip(*vs))

    # -- overlays in context -------------------------------------------------------------

    def add_context(self, key, terrain: Terrain, ring: Look, centre: Look) -> None:
        self.context.setdefault(key, []).append((terrain[1], ring.vector() + _overlay_vector(ring, centre)))

    def classify_in_context(self, key, ring: Look, centre: Look):
        """``(features, confidence, distance, runner-up)`` among examples drawn like this hex."""
        candidates = self.context.get(key, [])
        if len({f for f, _ in candidates}) < 2:
            return (candidates[0][0] if candidates else ()), 1.0, 0.0, None
        return _nearest(ring.vector() + _overlay_vector(ring, centre), candidates, prefer=())

    def draw_contexts(self, game_map: Map, patterns: set, hex_px: float, theme=None) -> None:
        """Draw, for each ``(base, links)`` pattern, the base alone and with each overlay, with
        the same roads and railways through the hex, and keep how their centres look.

        ``links`` are ``(line code, direction)`` pairs. A town's symbol and a road through the
        centre share colours; only drawing both together tells a town from a road.
        """
        from ..game import Line
        from ..game.map import HexTerrain
        from ..render import render_map

        overlays = [t.code for t in game_map.terrain_types.values() if t.overlay]
        if not overlays or not patterns:
            return
        jobs = [(key, (key[0], feats)) for key in sorted(patterns)
                for feats in [()] + [(o,) for o in overlays] for _ in range(COPIES)]
        per_row = 3 * COPIES
        rows = math.ceil(len(jobs) / per_row)
        grid = replace(game_map.grid, first_col=1, last_col=2 * per_row + 2, first_row=1, last_row=3 * rows + 1,
                       short_shifted=False, col_direction="ascending", row_direction="ascending",
                       numbering=Numbering(col_digits=4, row_digits=4))
        swatch = Map(id="context", name="context", grid=grid, terrain_types=dict(game_map.terrain_types),
                     line_types=dict(game_map.line_types), hex_size_inches=hex_px / 100.0,
                     hex_ids=game_map.hex_ids)
        spacer = next(t.code for t in game_map.terrain_types.values() if not t.overlay)
        for hex in grid:
            swatch.hexes[hex] = HexTerrain(spacer)
        placed = []
        towards: dict[Hex, tuple[Hex, ...]] = {}
        for i, (key, terrain) in enumerate(jobs):
            row, col = divmod(i, per_row)
            # two columns apart (three rows): the copies of a job take each of the renderer's
            # symbol variants (chosen by column and row), as the map's hexes do; a line may end in
            # a hex between two swatches from both, along other hexsides
            centre = Hex(grid.first_col + 1 + 2 * col, grid.first_row + 1 + 3 * row)
            swatch.hexes[centre] = HexTerrain(terrain[0], terrain[1])
            by_code: dict[str, list[Hex]] = {}
            for code, direction in key[1]:
                by_code.setdefault(code, []).append(grid.neighbour(centre, direction))
            for code, ends in by_code.items():
                if len(ends) >= 2:
                    swatch.lines.append(Line(code, (ends[0], centre, ends[1])))
                    ends = ends[2:]
                swatch.lines.extend(Line(code, (centre, end)) for end in ends)
            placed.append((centre, key, terrain))
            towards[centre] = tuple(grid.neighbour(centre, d) for _, d in key[1])
        rendered = render_map(swatch, dpi=100, theme=theme)
        sampler = HexSampler(clip_image(rendered.image, self.clip), rendered.layout, game_map.hex_ids, sparse=True)
        for centre, key, terrain in placed:
            look, ring = sampler.look(centre, "centre"), sampler.look(centre, "ring", towards[centre])
            if look is not None and ring is not None:
                self.add_context(key, terrain, ring, look)

    # -- sources ---------------------------------------------------------------------------

    @classmethod
    def from_game(cls, game_map: Map, hex_px: float, theme=None) -> "Palette":
        """Every base terrain (and every overlay on every base) drawn by hexforge at ``hex_px``."""
        from ..render import render_map

        bases = [t for t in game_map.terrain_types.values() if not t.overlay]
        overlays = [t for t in game_map.terrain_types.values() if t.overlay]
        if not bases:
            raise DataError(f"map {game_map.id} has no terrain types to draft with: give --learn or --palette",
                            field="terrain_types")
        terrains: list[Terrain] = [(b.code, ()) for b in bases] + [(b.code, (o.code,)) for b in bases for o in overlays]
        if hex_px < 10 or hex_px > 500:
            raise DataError(f"hexes are {hex_px:.0f} px across on the picture; drafting needs 10 to 500",
                            field="image")
        per_row = 3 * COPIES
        cells = len(terrains) * COPIES
        rows = math.ceil(cells / per_row)
        grid = Grid(1, 2 * per_row + 1, 1, 2 * rows + 1)
        swatch = Map(id="palette", name="palette", grid=grid, terrain_types=dict(game_map.terrain_types),
                     hex_size_inches=hex_px / 100.0, hex_ids=game_map.hex_ids)
        from ..game.map import HexTerrain
        spacer = bases[0].code
        for hex in grid:
            swatch.hexes[hex] = HexTerrain(spacer)
        placed: list[tuple[Hex, Terrain]] = []
        for i in range(cells):
            row, col = divmod(i, per_row)
            # two columns apart: the copies of a terrain (side by side in a row) take each of the
            # renderer's symbol variants (trees, rocks are drawn a few ways, by column and row)
            hex = Hex(2 + 2 * col, 2 + 2 * row)
            terrain = terrains[i // COPIES]
            swatch.hexes[hex] = HexTerrain(terrain[0], terrain[1])
            placed.append((hex, terrain))
        rendered = render_map(swatch, dpi=100, theme=theme)
        sampler = HexSampler(rendered.image, rendered.layout, game_map.hex_ids, sparse=True)
        palette = cls(origin=[f"the map's {len(terrains)} terrain types drawn by hexforge"], drawn=True)
        palette.swatches.append((rendered.image, rendered.layout, game_map.hex_ids))
        palette._read(sampler, 0, placed)
        return palette

    @classmethod
    def from_file(cls, path: str | Path, game_map: Map) -> "Palette":
        """A palette file: ``terrain: "#rrggbb"`` or a list of colours per terrain (``base+feature`` allowed)."""
        from ..io._source import load_yaml
        from ..render.theme import rgb

        data = load_yaml(str(path))
        if not isinstance(data, dict) or not data:
            raise DataError("expected a mapping of terrain -> colour or list of colours", path=str(path))
        palette = cls(origin=[f"palette {path}"])
        for key, value in data.items():
            terrain = _parse_terrain(str(key), game_map, str(path))
            for colour in value if isinstance(value, list) else [value]:
                try:
                    c = tuple(float(v) for v in rgb(str(colour)))
                except Exception:
                    raise DataError(f"colour {colour!r} is not a colour (#rrggbb or a name)", path=str(path),
                                    field=str(key)) from None
                look = Look(c, 1.0, c, (0.0, 0.0, 0.0))
                palette.add(terrain, look, look, made=("given", look, look))
        return palette

    def learn(self, sampler: HexSampler, examples: dict[Hex, Terrain], grid: Grid, keep_source: bool = False) -> None:
        """Add the looks of hexes a person named (``--learn 0104=woods``); ``keep_source``
        remembers each example's hex so that it is not used to judge itself."""
        if not self.examples:
            self.native = True  # every example comes from this picture
        for hex, terrain in examples.items():
            ring, centre = sampler.look(hex), sampler.look(hex, "centre")
            if ring is None or centre is None:
                raise DataError(f"learn: hex {grid.format(hex)} is not wholly on the picture", field="learn")
            self.add(terrain, ring, centre, hex if keep_source else None)
        if examples:
            self.origin.append(f"{len(examples)} hexes named by hand")


def _overlay_vector(ring: Look, centre: Look) -> tuple[float, ...]:
    """How the centre differs from the ring: an overlay's mark, whatever the picture's cast.
    Not its grain: a hatching covers the ring as well, and a road through the middle is all
    the centre's grain would show."""
    return tuple(c - r for c, r in zip(replace(centre, grain=ring.grain).vector(), ring.vector()))


def _parse_terrain(text: str, game_map: Map, where: str) -> Terrain:
    parts = [p.strip() for p in text.split("+") if p.strip()]
    if not parts:
        raise DataError(f"empty terrain name {text!r}", path=where)
    for p in parts:
        if not all(c.isalnum() or c in "-_" for c in p):
            raise DataError(f"terrain code {p!r} must be one word (letters, digits, - and _)", path=where)
    return parts[0], tuple(parts[1:])


def parse_learn(text: str, game_map: Map) -> dict[Hex, Terrain]:
    """``0104=woods,0612=swamp,0505=clear+town`` -> hex -> terrain."""
    out: dict[Hex, Terrain] = {}
    for item in [i for i in text.replace(" ", ",").split(",") if i]:
        if "/" in item.partition("=")[0] or ">" in item.partition("=")[0]:
            continue  # a hexside or a road: parse_learn_strokes
        hex_text, sep, terrain = item.partition("=")
        if not sep or not terrain:
            raise DataError(f"learn: {item!r} is not HEX=TERRAIN (e.g. 0104=woods)", field="learn")
        try:
            hex = game_map.grid.parse(hex_text)
        except Exception as exc:
            raise DataError(f"learn: {exc}", field="learn") from None
        if hex not in game_map.grid:
            raise DataError(f"learn: hex {hex_text} is not on map {game_map.id}", field="learn")
        out[hex] = _parse_terrain(terrain, game_map, "--learn")
    return out


def parse_learn_strokes(text: str, game_map: Map) -> tuple[dict, dict]:
    """``0104/0204=river`` (a hexside) and ``0503>0504=road`` (a road or railway between two
    hex centres) -> ``({hexside: code}, {hexside: code})``."""
    sides: dict = {}
    links: dict = {}
    for item in [i for i in text.replace(" ", ",").split(",") if i]:
        where, sep, code = item.partition("=")
        if "/" not in where and ">" not in where:
            continue
        if not sep or not code or not all(c.isalnum() or c in "-_" for c in code):
            raise DataError(f"learn: {item!r} is not HEX/HEX=FEATURE or HEX>HEX=LINE (e.g. 0104/0204=river)",
                            field="learn")
        a_text, _, b_text = where.replace(">", "/").partition("/")
        try:
            a, b = game_map.grid.parse(a_text), game_map.grid.parse(b_text)
        except Exception as exc:
            raise DataError(f"learn: {exc}", field="learn") from None
        if a not in game_map.grid or b not in game_map.grid or not game_map.grid.adjacent(a, b):
            raise DataError(f"learn: {a_text} and {b_text} are not two adjacent hexes of map {game_map.id}",
                            field="learn")
        (links if ">" in where else sides)[Hexside.of(a, b)] = code
    return sides, links


def stroke_colour(sampler: HexSampler, a, b, fills) -> tuple[float, float, float] | None:
    """The colour drawn along the segment a-b: of the pixels near it, those least like the fills
    on either side (their mean)."""
    from .sample import colour_distance

    pixels = []
    for t in (0.3, 0.4, 0.5, 0.6, 0.7):
        px, py = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        reach = int(0.08 * sampler.layout.size) + 1
        for k in range(-reach, reach + 1):
            colour = sampler.pixel(*sampler._at(px + nx * k, py + ny * k))
            if colour is not None:
                pixels.append((min(colour_distance(colour, f) for f in fills), colour))
    if not pixels:
        return None
    pixels.sort(reverse=True)
    top = [c for _, c in pixels[:max(1, len(pixels) // 6)]]
    return tuple(sum(c[i] for c in top) / len(top) for i in range(3))


def ensure_types(game_map: Map, terrains, note: str) -> None:
    """Give the map a terrain type for every learned code it lacks (costs unknown: estimated)."""
    from ..game import Source

    for base, features in terrains:
        for i, code in enumerate((base,) + features):
            if code not in game_map.terrain_types:
                game_map.terrain_types[code] = TerrainType(code=code, name=code.replace("-", " ").title(),
                                                           overlay=i > 0, source=Source(estimated=note))
