"""Known answers for drafting: the bundled maps rendered by hexforge, degraded the way a scan is,
drafted, and scored hex by hex against the source data (shared by the tests and
bench/draft_accuracy.py)."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, replace

from PIL import Image, ImageFilter

from toolkit.draft import Palette, draft_terrain, placed_layout
from toolkit.draft.geometry import PlacedLayout, drawn_labels
from toolkit.render import render_map

#: (game, map id, dpi): every bundled map, at a dpi where its hexes are 60-80 pixels across.
MAPS = [("tutorial", "main", 120), ("velikiye-luki", "main", 80), ("demyansk-shield", "main", 100),
        ("grossdeutschland", "kursk", 100), ("grossdeutschland", "akhtyrka", 100),
        ("grossdeutschland", "mischurin-rog", 100), ("grossdeutschland", "lutchessa", 100),
        ("a-victory-denied", "main", 100), ("white-death", "main", 80)]


def jpeg(image, quality=60):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return Image.open(io.BytesIO(out.getvalue())).convert("RGB")


def blur(image):
    return image.filter(ImageFilter.GaussianBlur(1.0))


def cast(image):
    r, g, b = image.split()
    return Image.merge("RGB", (r.point(lambda v: min(255, int(v * 1.06 + 8))), g.point(lambda v: int(v * 0.97)),
                               b.point(lambda v: int(v * 0.88))))


def scan(image, scale=1.02, degrees=0.5):
    """Scaled and turned like a scan; returns the picture and where a render pixel lands on it."""
    big = image.resize((round(image.width * scale), round(image.height * scale)), Image.BICUBIC)
    turned = big.rotate(degrees, resample=Image.BICUBIC, expand=True, fillcolor=(243, 239, 225))
    th = math.radians(degrees)

    def land(x, y):
        x, y = x * scale - big.width / 2, y * scale - big.height / 2
        return (x * math.cos(th) + y * math.sin(th) + turned.width / 2,
                -x * math.sin(th) + y * math.cos(th) + turned.height / 2)
    return turned, land


DEGRADATIONS = ("clean", "jpeg60", "blur", "cast", "scan", "all")


def picture(game_map, rendered, degradation: str):
    """The degraded picture and the layout a user would give for it (two reference hexes for a scan)."""
    image = rendered.image
    if degradation in ("clean", "jpeg60", "blur", "cast"):
        fn = {"clean": lambda i: i, "jpeg60": jpeg, "blur": blur, "cast": cast}[degradation]
        return fn(image), PlacedLayout(rendered.layout)
    if degradation == "all":
        image = cast(blur(image))
    turned, land = scan(image)
    if degradation == "all":
        turned = jpeg(turned)
    hexes = list(game_map.grid)
    refs = {h: tuple(round(v) for v in land(*rendered.layout.center(h))) for h in (hexes[0], hexes[-1])}
    return turned, placed_layout(game_map, refs=refs, use_board=False)


@dataclass
class Score:
    hexes: int
    wrong: list            # hexes wrong in any way (terrain, overlay, a hexside or a link of theirs)
    wrong_terrain: list    # hexes whose terrain or overlays are wrong
    wrong_base: list
    unflagged: list        # wrong hexes not listed for a person
    listed: int
    sides: tuple           # (right, missed, false)
    links: tuple           # (right, missed, false)

    @property
    def accuracy(self) -> float:
        return 1 - len(self.wrong) / self.hexes


def truth_sides(game_map, draft) -> dict:
    """The hexsides a draft is asked to find: non-bridge features of the types it drafts, on
    hexsides of land hexes (a lake's own shore runs along a water hex's sides: not read)."""
    from toolkit.render import Theme

    theme = Theme.default()
    water = {code for code, t in game_map.terrain_types.items() if theme.terrain_style(t).water is not None}
    skipped = {s.split("'")[1] for s in draft.skipped if s.startswith("hexside type")}
    out = {}
    for side, feats in game_map.hexsides.items():
        if game_map.terrain(side.a) in water or game_map.terrain(side.b) in water:
            continue
        codes = {f.code for f in feats if not game_map.hexside_types[f.code].bridge and f.code not in skipped}
        if codes:
            out[side] = codes
    return out


def score(game_map, draft) -> Score:
    sides = truth_sides(game_map, draft)
    links = {s: set(c) for s, c in game_map.line_links().items()}
    # a hex's overlays are a set: the order a terrain file lists them in is the author's
    wrong_terrain = [h for h, d in draft.hexes.items()
                     if (d.terrain[0], sorted(d.terrain[1])) != (game_map.terrain(h), sorted(game_map.features(h)))]
    wrong_base = [h for h, d in draft.hexes.items() if d.terrain[0] != game_map.terrain(h)]
    bad = set(wrong_terrain)
    got_sides = {s: {code, *draft.more_hexsides.get(s, ())} for s, (code, _) in draft.hexsides.items()}
    got_links = {s: set(codes) for s, codes in draft.links.items()}
    counts = []
    for truth, got in ((sides, got_sides), (links, got_links)):
        right = missed = false = 0
        for s in set(truth) | set(got):
            t, g = truth.get(s, set()), got.get(s, set())
            if t == g:
                right += 1
                continue
            if t and not g:
                missed += 1
            else:
                false += 1
            bad.update(h for h in (s.a, s.b) if h in draft.hexes)
        counts.append((right, missed, false))
    low = set(draft.low())
    wrong = sorted(bad)
    return Score(len(draft.hexes), wrong, wrong_terrain, wrong_base, [h for h in wrong if h not in low],
                 len(low), counts[0], counts[1])


def window(game_map, cols: tuple[int, int], rows: tuple[int, int]):
    """The part of ``game_map`` in a rectangle of hexes (``cols`` and ``rows``: first and last,
    inclusive): its hexes, the hexsides between two of them and each line's runs through it."""
    grid = replace(game_map.grid, first_col=cols[0], last_col=cols[1], first_row=rows[0], last_row=rows[1])
    lines = []
    for line in game_map.lines:
        run_ = []
        for hex in line.hexes + (None,):
            if hex is not None and hex in grid:
                run_.append(hex)
                continue
            if len(run_) > 1:
                lines.append(replace(line, hexes=tuple(run_)))
            run_ = []
    return replace(game_map, grid=grid, hexes={h: t for h, t in game_map.hexes.items() if h in grid},
                   hexsides={s: f for s, f in game_map.hexsides.items() if s.a in grid and s.b in grid}, lines=lines)


def run(game, map_id, dpi, degradation, rendered=None, cols=None, rows=None):
    """Draft a bundled map from its render degraded by ``degradation`` and score it: the whole
    map, or the window of it in ``cols`` and ``rows`` (see :func:`window`; drafted on the whole
    picture, knowing every label printed on it)."""
    full = game.maps[map_id]
    rendered = rendered or render_map(full, dpi=dpi, game=game)
    image, layout = picture(full, rendered, degradation)
    labels = drawn_labels(full, layout, game=game)
    game_map = full if cols is None else window(full, cols, rows)
    draft = draft_terrain(game_map, image, layout, Palette.from_game(game_map, layout.size), labels=labels)
    return draft, score(game_map, draft)
