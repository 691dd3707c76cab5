"""Drafting terrain from hexforge's own render of the bundled maps (known answers), clean and
degraded the way a scan is (JPEG, blur, a colour cast, 2% scale and half a degree of turn)."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageFilter

from toolkit.draft import LOW_CONFIDENCE, Palette, apply_draft, draft_terrain, placed_layout
from toolkit.draft.geometry import PlacedLayout
from toolkit.io import load_game
from toolkit.render import render_map

DPI = 120


@pytest.fixture(scope="module")
def tutorial_render():
    game = load_game("tutorial")
    return game, render_map(game.main_map, dpi=DPI, game=game)


@pytest.fixture(scope="module")
def clean_draft(tutorial_render):
    game, rendered = tutorial_render
    return _draft(game.main_map, rendered.image, PlacedLayout(rendered.layout))


def _truth(m, hex):
    return m.terrain(hex), tuple(m.features(hex))


def _score(m, draft):
    wrong = [h for h, d in draft.hexes.items() if d.terrain != _truth(m, h)]
    wrong_base = [h for h, d in draft.hexes.items() if d.terrain[0] != m.terrain(h)]
    n = len(draft.hexes)
    return 1 - len(wrong) / n, 1 - len(wrong_base) / n, wrong


def _draft(m, image, layout):
    return draft_terrain(m, image, layout, Palette.from_game(m, layout.size))


def jpeg(image):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=60)
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


def test_clean_render_gives_back_every_base_terrain(tutorial_render, clean_draft):
    game, rendered = tutorial_render
    m = game.main_map
    draft = clean_draft
    accuracy, base, wrong = _score(m, draft)
    assert base == 1.0
    assert accuracy >= 0.98, wrong
    assert not draft.missing
    assert draft.correction[0] == (1.0, 1.0, 1.0)  # a clean picture needs no colour correction


def test_rivers_and_roads_come_back(tutorial_render, clean_draft):
    game, rendered = tutorial_render
    m = game.main_map
    draft = clean_draft
    truth = {s for s, fs in m.hexsides.items() if any(not m.hexside_types[f.code].bridge for f in fs)}
    found = set(draft.hexsides)
    assert len(found & truth) >= 0.9 * len(truth) and len(found - truth) <= 2
    links = m.line_links()
    right = [s for s, (code, _) in draft.links.items() if code in links.get(s, [])]
    # roads and railways are harder than terrain (a railway is a hairline; trees hold dark strokes)
    assert len(right) >= 0.7 * len(links) and len(right) >= 0.75 * len(draft.links)


@pytest.mark.parametrize("degrade", [jpeg, blur, cast], ids=["jpeg60", "blur", "cast"])
def test_a_degraded_render_is_still_read(tutorial_render, degrade):
    game, rendered = tutorial_render
    m = game.main_map
    draft = _draft(m, degrade(rendered.image), PlacedLayout(rendered.layout))
    accuracy, base, wrong = _score(m, draft)
    assert accuracy >= 0.95 and base >= 0.97, wrong
    assert all(draft.hexes[h].confidence < LOW_CONFIDENCE for h in wrong)  # a person is asked about each


def test_a_scan_registered_by_two_hexes(tutorial_render):
    game, rendered = tutorial_render
    m = game.main_map
    picture, land = scan(cast(blur(rendered.image)))
    picture = jpeg(picture)
    hexes = list(m.grid)
    refs = {h: tuple(round(v) for v in land(*rendered.layout.center(h))) for h in (hexes[0], hexes[-1])}
    layout = placed_layout(m, refs=refs, use_board=False)
    for h in hexes[::17]:  # the grid lands where the scan put each hex (within a pixel or two)
        x, y = land(*rendered.layout.center(h))
        cx, cy = layout.center(h)
        assert abs(cx - x) < 2 and abs(cy - y) < 2
    draft = _draft(m, picture, layout)
    accuracy, base, wrong = _score(m, draft)
    assert accuracy >= 0.95 and base >= 0.98, wrong
    assert all(draft.hexes[h].confidence < LOW_CONFIDENCE for h in wrong)
    assert len(draft.low()) <= 0.35 * len(draft.hexes)  # ... without asking about everything


def test_applied_draft_is_estimated_and_round_trips(tutorial_render, clean_draft, tmp_path):
    from toolkit.io import dump_map, load_map

    game, rendered = tutorial_render
    m = game.main_map
    draft = clean_draft
    drafted = apply_draft(m, draft, "map.png")
    assert all(c.source.is_estimated and "drafted from map.png" in c.source.estimated for c in drafted.hexes.values())
    assert all("confidence" in c.source.estimated for c in drafted.hexes.values())
    dump_map(drafted, str(tmp_path / "map.yaml"))
    again = load_map(str(tmp_path / "map.yaml"))
    assert again.hexes == drafted.hexes and again.lines == drafted.lines
    assert set(again.hexsides) == set(drafted.hexsides)


@pytest.mark.slow
def test_velikiye_luki_clean_and_scanned():
    game = load_game("velikiye-luki")
    m = game.main_map
    rendered = render_map(m, dpi=80, game=game)
    draft = _draft(m, rendered.image, PlacedLayout(rendered.layout))
    accuracy, base, wrong = _score(m, draft)
    assert base == 1.0 and accuracy >= 0.97, wrong
    picture, land = scan(rendered.image)
    hexes = list(m.grid)
    refs = {h: tuple(round(v) for v in land(*rendered.layout.center(h))) for h in (hexes[0], hexes[-1])}
    draft = _draft(m, jpeg(picture), placed_layout(m, refs=refs, use_board=False))
    accuracy, base, wrong = _score(m, draft)
    assert base >= 0.98 and accuracy >= 0.95, wrong
