"""How hexside features drawn alike (two lake side kinds) are drawn along their side: their width
from corner to corner, measured on examples hexforge draws, and how far a reading runs from it."""

from __future__ import annotations

from ._sideprofile import _across, _measure, side_ink, side_reach


#: Where along a hexside (from one corner, 0, to the other, 1) a feature's drawn shape is measured.
SHAPE_TS = tuple(round(0.05 * i, 2) for i in range(2, 19))
#: A sample's width off the drawing's counts at most this much (of the hex size): a symbol or
#: name touching the side at one sample does not outweigh the rest.
SHAPE_CAP = 0.12


#: The weight of how the width runs along the side, each relative to its widest (see
#: :func:`_run_off`), beside the widths themselves (a tenth: about a wide lake side's width).
SHAPE_RUN = 0.1


def _run_off(shape: tuple[float, ...], ts, found, lower: bool = False) -> float:
    """How far the measured width runs along the side from ``shape``, each relative to its
    widest sample (0..1 per sample, the mean): a picture's degradations thin or widen a band
    all along it, but a lake side reaching both corners still reaches them (a partial one does
    not), where its widths alone, thinned, come nearer the partial one's. ``lower``: the
    samples a name may have cut short are left out."""
    kept = [(w or 0.0, _at(shape, t)) for t, (w, _, _, cut) in zip(ts, found) if not (lower and cut)]
    widths, drawn = [w for w, _ in kept], [d for _, d in kept]
    if not kept or not max(widths) or not max(drawn):
        return 0.0
    return sum(abs(w / max(widths) - d / max(drawn)) for w, d in kept) / len(ts)


def _at(shape: tuple[float, ...], t: float) -> float:
    """A shape's width at ``t`` (linear between its samples)."""
    x = (t - SHAPE_TS[0]) / (SHAPE_TS[1] - SHAPE_TS[0])
    i = min(len(shape) - 2, max(0, int(x)))
    f = min(1.0, max(0.0, x - i))
    return shape[i] * (1 - f) + shape[i + 1] * f


def side_shapes(game_map, sides, hex_px: float, theme=None, grid_rgb=(74, 74, 68),
                everything=None) -> dict[str, tuple[float, ...]]:
    """How each hexside feature of ``sides`` (``(code, colour, edge, width)``) is drawn along its
    side: its width (a fraction of the hex size) at each of :data:`SHAPE_TS`, read the way a
    picture's hexsides are on examples hexforge draws at ``hex_px`` (as the palette draws the
    terrains): a lake side widest at its middle and narrow at the corners, a partial lake side
    a small lake touching neither corner, a river even. Mirrored: a side is read either way.
    A ``code`` that is a tuple of codes is those features drawn on one side (see
    :func:`side_combos`), measured in the ``colour`` and ``edge`` given, as far out as
    :func:`side_reach` reads it among ``everything`` (all the map's features; ``sides``)."""
    from dataclasses import replace

    from ..game import HexsideFeature, HexTerrain, Map
    from ..hexes import Hex, Hexside, Numbering
    from ..render import Theme, render_map
    from .sample import HexSampler

    theme = theme or Theme.default()
    codes = [code for code, _, _, _ in sides]
    drawn = {c for code in codes for c in (code if isinstance(code, tuple) else (code,))}
    bases = [t for t in game_map.terrain_types.values() if not t.overlay]
    if not codes or not bases:
        return {}
    # drawn between land hexes (hexsides of water hexes are not read)
    spacer = next((t for t in bases if theme.terrain_style(t).water is None), bases[0]).code
    per_row = 4
    rows = -(-len(codes) // per_row)
    grid = replace(game_map.grid, first_col=1, last_col=4 * per_row + 1, first_row=1, last_row=4 * rows + 2,
                    short_shifted=False, col_direction="ascending", row_direction="ascending",
                    numbering=Numbering(col_digits=4, row_digits=4))
    swatch = Map(id="sides", name="sides", grid=grid, terrain_types=dict(game_map.terrain_types),
                 hexside_types={c: game_map.hexside_types[c] for c in sorted(drawn)},
                 hex_size_inches=hex_px / 100.0, hex_ids="none")  # no id printed over a side
    for hex in grid:
        swatch.hexes[hex] = HexTerrain(spacer)
    examples: dict[str, list] = {}
    for i, code in enumerate(codes):
        row, col = divmod(i, per_row)
        centre = Hex(3 + 4 * col, 3 + 4 * row)
        near = grid.neighbours(centre)
        # two sides meeting at a corner, and a side alone
        chosen = [Hexside.of(centre, near[0]), Hexside.of(centre, near[1]), Hexside.of(centre, near[3])]
        for side in chosen:
            for c in code if isinstance(code, tuple) else (code,):
                swatch.hexsides.setdefault(side, []).append(HexsideFeature(side, c))
        examples[code] = chosen
    rendered = render_map(swatch, dpi=100, theme=theme)
    sampler = HexSampler(rendered.image, rendered.layout, "none")
    size = sampler.layout.size
    look = sampler.look(Hex(1, 1))
    fill = tuple(int(round(v)) for v in look.mode) if look is not None else (255, 255, 255)
    out = {}
    for code, colour, edge, width in sides:
        body, ink = side_ink(colour, edge, sampler.correction)
        least = max(1.5, 0.4 * width * size)
        sums = [0.0] * len(SHAPE_TS)
        for side in examples[code]:
            across = _across(sampler, side, SHAPE_TS, fill, fill, size, *side_reach(code, everything or sides))
            for i, (w, _, _, _) in enumerate(_measure(across, body, ink, (colour, edge or colour), grid_rgb,
                                                    sampler, [least] * len(SHAPE_TS))):
                sums[i] += (w or 0.0) / size
                sums[-1 - i] += (w or 0.0) / size
        n = 2 * len(examples[code])
        out[code] = tuple(round(v / n, 4) for v in sums)
    return out
