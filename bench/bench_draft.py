"""Benchmark: drafting the terrain of a 5,000-hex map from its 150 DPI picture.

Baseline, measured in the same run on the same picture: a plain per-hex mean colour with
pillow's ImageStat (over the hex polygon) matched to the nearest terrain fill colour. The
table gives time and accuracy for both: the draft does much more per hex (the fill under
names and roads, overlays in context, hexsides, roads and railways, a colour correction),
and the ratio says what that costs.

    python bench/bench_draft.py
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace

from PIL import Image, ImageDraw, ImageStat

import toolkit.draft.draft as draft_module
from toolkit.draft import Palette, draft_terrain
from toolkit.draft.geometry import PlacedLayout, drawn_labels
from toolkit.draft.lines import LinkReader
from toolkit.draft.sample import HexSampler
from toolkit.game import HexTerrain, Line
from toolkit.hexes import Grid, Numbering
from toolkit.io import load_game
from toolkit.render import Theme, render_map

COLS, ROWS = 100, 50
DPI = 150


def _map():
    """The tutorial's terrain types on a 100 x 50 grid: patches of terrain, villages, two roads."""
    base = load_game("tutorial").main_map
    grid = Grid(1, COLS, 1, ROWS, numbering=Numbering(col_digits=3))
    m = replace(base, grid=grid, hexes={}, hexsides={}, lines=[], places=[], victory=[], supply=[], edges=[],
                boxes=[], locations={})
    rng = random.Random(7)
    codes = [c for c, t in base.terrain_types.items() if not t.overlay]
    seeds = {(rng.randint(1, COLS), rng.randint(1, ROWS)): rng.choice(codes) for _ in range(260)}
    for hex in grid:
        nearest = min(seeds, key=lambda s: (s[0] - hex.col) ** 2 + (s[1] - hex.row) ** 2)
        code = seeds[nearest] if rng.random() > 0.15 else "clear"
        village = ("village",) if code == "clear" and rng.random() < 0.03 else ()
        m.hexes[hex] = HexTerrain(code, village)
    for row in (12, 37):
        m.lines.append(Line("road", tuple(h for h in grid if h.row == row)))
    return m


def _baseline(image, layout, m, theme):
    """Mean colour over each hex polygon (ImageStat with a mask), nearest terrain fill."""
    fills = {c: theme.terrain_style(t).fill for c, t in m.terrain_types.items() if not t.overlay}
    out = {}
    for hex in m.grid:
        corners = layout.corners(hex)
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        box = (int(min(xs)), int(min(ys)), int(math.ceil(max(xs))), int(math.ceil(max(ys))))
        mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
        ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in corners], fill=255)
        mean = ImageStat.Stat(image.crop(box), mask).mean
        out[hex] = min(fills, key=lambda c: sum((a - b) ** 2 for a, b in zip(mean, fills[c])))
    return out


def main() -> None:
    m = _map()
    start = time.perf_counter()
    rendered = render_map(m, dpi=DPI)
    render_s = time.perf_counter() - start
    layout = PlacedLayout(rendered.layout)
    theme = Theme.default()

    start = time.perf_counter()
    base = _baseline(rendered.image, rendered.layout, m, theme)
    base_s = time.perf_counter() - start

    # the time spent reading pixels one by one in Python (lines and hexsides): all that numpy
    # could take off, as the rest already runs in pillow's C (ImageStat, point, filters)
    per_pixel, listing = [0.0], [0.0]

    def timed(fn, into=per_pixel):
        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                into[0] += time.perf_counter() - t
        return wrapper
    HexSampler.profile = timed(HexSampler.profile)
    LinkReader.runs = timed(LinkReader.runs)
    # the listing: every reader's doubts combined (toolkit/draft/doubt.py)
    draft_module.judge = timed(draft_module.judge, listing)

    start = time.perf_counter()
    palette = Palette.from_game(m, layout.size)
    labels = drawn_labels(m, layout)
    draft = draft_terrain(m, rendered.image, layout, palette, labels=labels)
    draft_s = time.perf_counter() - start

    n = len(m.grid)
    base_ok = sum(1 for h in m.grid if base[h] == m.terrain(h)) / n
    draft_base = sum(1 for h, d in draft.hexes.items() if d.terrain[0] == m.terrain(h)) / n
    draft_full = sum(1 for h, d in draft.hexes.items() if d.terrain == (m.terrain(h), m.features(h))) / n
    links = m.line_links()
    found = sum(1 for s, codes in draft.links.items() if set(codes) == set(links.get(s, [])))
    print(f"{n} hexes, picture {rendered.image.width}x{rendered.image.height} at {DPI} dpi "
          f"(rendered in {render_s:.1f} s)")
    print(f"{'method':<34}{'seconds':>9}{'base terrain':>14}{'with overlays':>15}")
    print(f"{'baseline: ImageStat mean, nearest':<34}{base_s:>9.2f}{base_ok:>14.1%}{'-':>15}")
    print(f"{'draft (terrain, overlays, lines)':<34}{draft_s:>9.2f}{draft_base:>14.1%}{draft_full:>15.1%}")
    print(f"ratio draft/baseline: {draft_s / base_s:.1f}x; roads found {found} of {len(links)} links; "
          f"{len(draft.low())} hexes flagged low-confidence")
    print(f"of the draft's {draft_s:.1f} s, {per_pixel[0]:.1f} s ({per_pixel[0] / draft_s:.0%}) read pixels one "
          f"by one in Python (what numpy could vectorise); the listing (doubt.judge) {listing[0]:.1f} s")


if __name__ == "__main__":
    main()
