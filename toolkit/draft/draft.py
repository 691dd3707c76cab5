"""Drafting a map's terrain from a picture, and applying the draft to the map data.

Each hex is read (:class:`~toolkit.draft.sample.HexSampler`) and given the terrain of the
nearest palette example, with a confidence from how much nearer that example is than the
best example of any other terrain. A scan's colour cast is taken out by fitting, per
channel, a gain and offset from the hexes the first pass was sure of to their terrains'
palette looks, then reading again (channels the cast clipped left out of the fit and clipped
alike on the palette's drawings: :mod:`._cast`). Hexsides are found by their feature's colour running
along them (:mod:`.hexsides`); roads and railways by a stroke of their colour crossing a
hexside into both hexes (:mod:`.lines`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from PIL import Image

from ..game import HexsideFeature, HexTerrain, Line, Map, Source
from ..hexes import Hex, Hexside
from ..render._symbolroom import MOVED
from .doubt import LOW_CONFIDENCE, Doubt, Reading, hex_doubts, judge, line_sureness, side_sureness
from .palette import Palette, Terrain
from ._cast import clip_levels, first_correction, refine
from ._drawings import Drawings
from ._drawn import compare
from ._lineinks import line_inks, printed_fill
from ._shown import overlays_shown, signs_shown
from ._pixels import fix
from ._tints import settle
from ._courses import course_kinds, fills_grain, hidden_courses, side_name
from ._sideprofile import side_reach
from ._sidereaders import side_marks, side_readers
from .hexsides import SIDE_SHARE, read_hexside, under_name
from ._linepaths import line_paths
from .lines import LinkReader
from .sample import HexSampler, Look

__all__ = ["Doubt", "Draft", "HexDraft", "draft_terrain", "apply_draft", "LOW_CONFIDENCE"]

#: A hex whose look spreads more than this (trees, marsh symbols) is "textured" (woods drawn
#: by the default theme spread about 9).
TEXTURED = 8.0
#: Hexes whose base or overlays are read less surely than this are compared with drawings.
REDRAW_BELOW = 0.6
#: The drawing comparison's sureness: this many times the relative margin of the best drawing
#: over the next best.
DRAWN_MARGIN = 4.0
#: How sure a hex is whose drawing comparison disagrees with its looks' reading.
DISAGREE = 0.45
#: Lines read through a hex this many ways: where the map has symbols it moves off the lines
#: (a village's blocks, see toolkit.render._symbolroom), a hex read with an overlay but none of
#: those is compared with the drawings too. The drawings have the blocks in their usual places,
#: under the lines: a village moved beside three roads and a railway among trees (Lychkovo)
#: fits them no better than the woods alone, and is listed for a person rather than missed.
CROWDED = 3


@dataclass(frozen=True)
class HexDraft:
    """A hex's reading: its terrain, how sure the whole reading is (terrain, and the hexsides
    and lines around it), the next-best terrain, and how sure its hexsides and lines are."""

    terrain: Terrain
    confidence: float
    runner_up: Terrain | None = None
    sides_confidence: float = 1.0
    #: The terrain and overlay readings and every other reading less than sure, least sure
    #: first (the confidence is the least of them; see :mod:`.doubt`).
    doubts: tuple[Doubt, ...] = ()


@dataclass
class Draft:
    """What a picture shows, hex by hex; ``missing`` hexes were not wholly on the picture."""

    hexes: dict[Hex, HexDraft] = field(default_factory=dict)
    hexsides: dict[Hexside, tuple[str, float]] = field(default_factory=dict)
    #: Features read on a hexside besides the one in ``hexsides`` (a lake's narrows under a river).
    more_hexsides: dict[Hexside, tuple[str, ...]] = field(default_factory=dict)
    #: Roads and railways across a hexside: line code -> the share of samples that saw it.
    links: dict[Hexside, dict[str, float]] = field(default_factory=dict)
    missing: list[Hex] = field(default_factory=list)
    #: The colour correction the line and hexside readers use (``v * gain + offset``).
    correction: tuple = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    #: The terrain readers' correction (see :mod:`._cast`): clipped channels left out of it.
    terrain_correction: tuple = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    skipped: list[str] = field(default_factory=list)
    #: How sure the hexside and line readings across a hexside are, where less than sure.
    side_confidence: dict[Hexside, float] = field(default_factory=dict)
    #: The readings across a hexside that are less than sure.
    side_doubts: dict[Hexside, list[Doubt]] = field(default_factory=dict)

    def low(self, threshold: float = LOW_CONFIDENCE) -> list[Hex]:
        return sorted(h for h, d in self.hexes.items() if d.confidence < threshold)


def draft_terrain(game_map: Map, image: Image.Image, layout, palette: Palette, *, theme=None,
                  rounds: int = 2, labels=()) -> Draft:
    """Read every hex of ``game_map`` on ``image`` placed by ``layout`` (see :mod:`.geometry`).

    ``labels`` are boxes on the picture where names and markers are printed (see
    :func:`~toolkit.draft.geometry.drawn_labels`): terrain, hexsides and lines are read around them."""
    from ..render import Theme

    theme = theme or Theme.default()
    sampler = HexSampler(image, layout, game_map.hex_ids, labels)
    draft = Draft()
    raw: dict[Hex, Look] = {}
    for hex in game_map.grid:
        look = sampler.look(hex)
        if look is None:
            draft.missing.append(hex)
        else:
            raw[hex] = look
    # the line and hexside readers judge inks blended with the fill: their correction takes a
    # fill the cast clipped back to its printed level; the terrain's leaves clipped channels out
    # and clips the palette where the picture is (see _cast)
    draft.correction, seen_bases, _ = refine(raw, first_correction(raw, palette, False), palette, rounds, False)
    correction, bases, _ = refine(raw, first_correction(raw, palette), palette, rounds)
    draft.terrain_correction = correction
    palette = palette.through(correction)
    # (the line and hexside readers see the bases read with their correction)
    draft.hexes = {h: HexDraft((b[0], ()), b[1], None) for h, b in seen_bases.items()}
    crossed = _features(game_map, sampler, draft, raw, theme, palette.unclipped or palette)
    towards: dict[Hex, list[Hex]] = {}
    for side in draft.links:
        towards.setdefault(side.a, []).append(side.b)
        towards.setdefault(side.b, []).append(side.a)
    patterns = {}
    for hex, base in bases.items():
        away = tuple(towards.get(hex, ()))
        if away:  # read again without the road or railway crossing the ring
            ring = sampler.look(hex, "ring", away)
            if ring is not None:
                base = palette.classify_base(ring.corrected(*correction), hex)
                bases[hex] = base
        links = tuple(sorted((code, game_map.grid.direction(hex, o))
                             for o in away for code in draft.links[Hexside.of(hex, o)]))
        patterns[hex] = (base[0], links)
    if palette.drawn:  # only hexes a road or railway crosses need their overlays drawn in context
        palette.draw_contexts(game_map, {p for p in patterns.values() if p[1]}, sampler.layout.size,
                               theme)
    readings: dict[Hex, Reading] = {}
    rings: dict[Hex, Look] = {}
    for hex, base in bases.items():
        centre = sampler.look(hex, "centre")
        ring = sampler.look(hex, "ring", tuple(towards.get(hex, ())))
        features, f_conf, f_dist, runner = (), 1.0, 0.0, None
        if centre is not None and ring is not None:
            centre, ring = centre.corrected(*correction), ring.corrected(*correction)
            rings[hex] = ring
            if patterns[hex] in palette.context:
                features, f_conf, f_dist, runner = palette.classify_in_context(patterns[hex], ring, centre)
            else:
                features, f_conf, f_dist, runner = palette.classify_features(base[0], ring, centre, hex)
        readings[hex] = Reading(base[0], base[1], base[2], base[3], tuple(features), f_conf, f_dist,
                                None if runner is None else tuple(runner),
                                patterns[hex] in palette.context, bool(patterns[hex][1]) or hex in crossed)
    drawn: dict[Hex, list[Doubt]] = {}
    if palette.drawn:
        redrawn = _redraw(game_map, sampler, readings, hex_doubts(readings, palette, game_map.grid), correction,
                          theme, towards, raw)
        for hex, (terrain, doubt) in redrawn.items():
            readings[hex] = replace(readings[hex], base=terrain[0], features=terrain[1])
            drawn[hex] = [doubt]
    # two overlays drawn as tints a few levels apart: the picture's own groups say which is which
    for hex, (terrain, sure, other) in settle({h: r.terrain for h, r in readings.items()}, rings, palette).items():
        r = readings[hex]
        readings[hex] = replace(r, features=terrain[1], features_runner=other[1],
                                features_sure=max(sure, r.features_sure) if terrain == r.terrain else sure)
    for hex, (confidence, runner_up, sides_sure, kept) in judge(game_map.grid, draft, readings, palette,
                                                                drawn).items():
        draft.hexes[hex] = HexDraft(readings[hex].terrain, confidence, runner_up, sides_sure, kept)
    return draft


def _redraw(game_map: Map, sampler: HexSampler, readings: dict[Hex, Reading], doubts_of: dict, correction,
            theme, towards: dict[Hex, list[Hex]], looks: dict[Hex, Look]) -> dict[Hex, tuple[Terrain, Doubt]]:
    """The terrain of each hex whose base or overlays were read with doubt, or that shows a
    small sign or an overlay its reading lacks, by comparing it with hexforge's drawing of every base it may
    be with every set of overlays (see :mod:`._drawn`): ``hex -> (terrain, the comparison's
    doubt)``. ``looks`` are the hexes' looks (uncorrected)."""
    def least(doubts, readers) -> float:
        return min([d.confidence for d in doubts if d.reader.startswith(readers)] + [1.0])
    doubtful = [h for h, doubts in doubts_of.items() if least(doubts, ("terrain", "overlay", "drawn")) < REDRAW_BELOW]
    drawings = Drawings(game_map, sampler.layout.size, theme, clip_levels(correction))
    if not doubtful and not drawings.tiles and not any(r.features for r in readings.values()):
        return {}
    colours = line_inks(game_map, theme)
    # the overlays whose symbols the map moves off the lines through their hex (see CROWDED)
    moved = {code for code, t in game_map.terrain_types.items() if t.overlay and theme.terrain_style(t).symbol in MOVED}
    fills = {}   # the printed fill of the sure hexes looked at again (those sent on reuse it)
    for hex in sorted(set(readings) - set(doubtful)):
        terrain = readings[hex].terrain
        if hex not in looks or not (drawings.tiles or terrain[1]):
            continue
        fill = fills[hex] = printed_fill(sampler, hex, correction, colours)
        # a small sign (an airfield beside a town) the reading lacks, wherever the map placed
        # it, or an overlay among another's symbols (a village among woods' trees)
        if (drawings.tiles and signs_shown(sampler, drawings, hex, terrain, correction, colours, fill)
                or overlays_shown(sampler, drawings, hex, terrain, correction, colours, fill)
                or len(towards.get(hex, ())) >= CROWDED and moved.isdisjoint(terrain[1])):
            doubtful.append(hex)
    out = {}
    for hex in doubtful:
        r = readings[hex]
        # the runner-up base too where the base itself is in doubt
        bases = (r.base,) + ((r.base_runner,) if r.base_runner and r.base_runner != r.base
                             and least(doubts_of[hex], ("terrain", "drawn")) < REDRAW_BELOW else ())
        printed = fills[hex] if hex in fills else printed_fill(sampler, hex, correction, colours)
        if printed is None:
            continue
        ranked = compare(sampler, drawings, hex, bases, correction, colours, printed, tuple(towards.get(hex, ())))
        if not ranked:
            continue
        (c1, best), (c2, runner) = ranked[0], ranked[1] if len(ranked) > 1 else (math.inf, None)
        sure = min(1.0, DRAWN_MARGIN * (c2 - c1) / (c1 + c2 + 1e-9)) if runner else 1.0
        if best != r.terrain:  # two readers disagree: a person decides
            sure = min(sure, DISAGREE)
        sure = round(sure, 3)
        names = tuple("+".join((t[0],) + t[1]) for t in (best, runner) if t is not None)
        out[hex] = (best, Doubt("drawing", sure, names, evidence=(round(c1, 1), round(c2, 1))))
    return out


def _features(game_map: Map, sampler: HexSampler, draft: Draft, raw: dict[Hex, Look], theme,
              palette: Palette) -> set[Hex]:
    """Hexsides and links into ``draft``; returns the hexes a line may cross (seen on at least
    half its samples between them and a neighbour, found or not)."""
    crossed: set[Hex] = set()
    grid = game_map.grid
    size = sampler.layout.size  # picture pixels (runs answer in picture pixels too)
    water = {code for code, t in game_map.terrain_types.items() if theme.terrain_style(t).water is not None}
    grid_colour = theme.get("grid", "colour", "#4a4a44")
    from ..render.theme import rgb
    grid_rgb = rgb(grid_colour)
    sides, alphas, shapes = side_readers(game_map, theme, size, draft.correction, palette.strokes, grid_rgb,
                                         draft.skipped)
    family = {code: (colour, edge) for code, colour, edge, _ in sides}
    marks = side_marks(game_map, theme, palette.strokes)  # a ford's stones across its river
    lines = []
    for code, kind in game_map.line_types.items():
        style, learned = theme.line_style(kind), palette.strokes.get(("line", code))
        lines.append((code, learned or style.colour, None if learned else style.casing))
    sampler.correction = draft.correction
    fill = {h: tuple(int(round(v)) for v in fix(look.mode, draft.correction)) for h, look in raw.items()}
    # how textured each terrain is drawn (its palette spread; Look.vector weighs spread 0.15)
    texture = {t[0]: sum(palette.vector_of(t[0])[6:9]) / 3 / 0.15 for t in palette.terrains}
    # the lakes drawn on the hexsides: their shore is no river drawn through the hexes
    lakes = [(colour, edge) for code, colour, edge, _ in sides
             if isinstance(code, str) and side_reach(code, sides)[1] and edge is not None]
    read = _read_links(game_map, sampler, draft, lines, fill, texture, lakes) if lines else {}
    seen: set[Hexside] = set()
    hidden: dict[Hexside, tuple | None] = {}  # sides read without a feature: what was glimpsed there
    others: dict[Hexside, tuple] = {}  # sides read with a feature: what else they may hold
    glimpsed: dict[Hexside, tuple] = {}  # sides read without a feature: what was seen, on what share
    for hex in draft.hexes:
        for other in grid.neighbours(hex):
            if other not in draft.hexes:
                continue
            side = Hexside.of(hex, other)
            if side in seen:
                continue
            seen.add(side)
            sure, crossing = 1.0, ()
            if lines:
                found, partly, textured = read[side]
                if found:
                    draft.links[side] = found
                if partly >= 0.5:
                    crossed.update((hex, other))
                # the colours of the lines found crossing (None: a line seen on part of its course)
                crossing = tuple(colour for code, colour, _ in lines if code in found) or \
                    ((None,) if partly >= 0.5 else ())
                sure = line_sureness(min(found.values()) if found else None, partly, textured)
                if sure < 1.0:
                    draft.side_doubts.setdefault(side, []).append(
                        Doubt("line", round(sure, 3), tuple(found) + ("no line",), side,
                              (min(found.values()) if found else None, partly, textured)))
            if sides and draft.hexes[hex].terrain[0] not in water and draft.hexes[other].terrain[0] not in water:
                found, partly, side_sure, maybe = read_hexside(sampler, side, sides, alphas, size, fill[hex],
                                                               fill[other], crossing, grid_rgb, shapes, marks=marks)
                side_sure = side_sureness(found[1] if found else None, side_sure, SIDE_SHARE)
                sure = min(sure, side_sure)
                if found and isinstance(found[0], tuple):  # two features: the one on top, and the other
                    draft.hexsides[side] = (found[0][-1], found[1])
                    draft.more_hexsides[side] = found[0][:-1]
                elif found:
                    draft.hexsides[side] = found
                if found:
                    others[side] = maybe
                else:
                    glimpsed[side] = (maybe, partly)
                    if under_name(sampler, side, size):
                        hidden[side] = None  # a name covers it: anything may lie under it
                    elif partly >= SIDE_SHARE / 2 and len({family[code] for code in maybe}) == 1:
                        hidden[side] = maybe  # glimpsed as features drawn alike (not a ford among rivers)
                if side_sure < 1.0:
                    draft.side_doubts.setdefault(side, []).append(
                        Doubt("hexside", round(side_sure, 3), (side_name(found[0]) if found else "no feature",)
                              + tuple(side_name(code) for code in maybe), side,
                              (found[1] if found else None, partly)))
            if sure < 1.0:
                draft.side_confidence[side] = round(sure, 3)
    fills_grain(draft, glimpsed)
    course_kinds(grid, draft, others)
    hidden_courses(grid, draft, hidden)
    return crossed


def _read_links(game_map: Map, sampler: HexSampler, draft: Draft, lines: list, fill: dict,
                texture: dict, lakes=()) -> dict[Hexside, tuple[dict, float, bool]]:
    """The roads and railways read across every hexside: ``side -> (found, largest share
    seen, whether either hex is textured)`` (see :meth:`~toolkit.draft.lines.LinkReader.read`). A picture that shows a line
    fainter than a crisp one (a thin railway blurred to half its colour) is read again, that
    line judged by how its sure strokes showed; on one that shows every line crisp, the sides
    where a line was found are read again the same way (a stroke much paler than its line's
    sure strokes is not that line). ``lakes``: the water and shore colours of the lakes drawn
    on the hexsides (their shore is no line)."""
    pairs: dict[Hexside, tuple[Hex, Hex, bool]] = {}
    for hex in draft.hexes:
        for other in game_map.grid.neighbours(hex):
            side = Hexside.of(hex, other)
            if other in draft.hexes and side not in pairs:
                textured = any(texture[draft.hexes[h].terrain[0]] > TEXTURED for h in (hex, other))
                pairs[side] = (hex, other, textured)

    def read_all(reader: LinkReader) -> dict:
        return {side: (*reader.read(a, b, fill[a], fill[b], textured), textured)
                for side, (a, b, textured) in pairs.items()}
    reader = LinkReader(sampler, lines, draft.correction, water=lakes)
    read = read_all(reader)
    again = LinkReader(sampler, lines, draft.correction, reader.learned(), lakes)
    if again.limits != reader.limits:
        return read_all(again)
    # the same thresholds: the lines found are judged again against how their line shows
    return {side: (*again.read(a, b, fill[a], fill[b], textured), textured) if read[side][0] else read[side]
            for side, (a, b, textured) in pairs.items()}



def apply_draft(game_map: Map, draft: Draft, picture: str, *, keep: bool = False) -> Map:
    """A copy of the map whose terrain, hexsides and lines are the draft, each marked estimated.

    ``keep`` keeps hexes the draft could not read (off the picture) as they were.
    """
    m = replace(game_map, hexes=dict(game_map.hexes) if keep else {}, hexsides={}, lines=[],
                locations={})
    for hex, d in sorted(draft.hexes.items()):
        # confidences in tenths, so the terrain file keeps a few blocks, not one per hex
        note = f"drafted from {picture}, confidence {int(d.confidence * 10) / 10:.1f}"
        m.hexes[hex] = HexTerrain(d.terrain[0], d.terrain[1], Source(estimated=note))
    for side, (code, share) in sorted(draft.hexsides.items()):
        source = Source(estimated=f"drafted from {picture}, confidence {int(share * 10) / 10:.1f}")
        m.hexsides[side] = [HexsideFeature(side, c, source) for c in draft.more_hexsides.get(side, ()) + (code,)]
    by_code: dict[str, set[Hexside]] = {}
    shares: dict[str, float] = {}
    for side, codes in draft.links.items():
        for code, share in codes.items():
            by_code.setdefault(code, set()).add(side)
            shares[code] = min(share, shares.get(code, 1.0))
    for code, links in sorted(by_code.items()):
        share = shares[code]
        for path in line_paths(links):
            m.lines.append(Line(code, tuple(path), source=Source(
                estimated=f"drafted from {picture}, confidence at least {share:.2f}")))
    return m
