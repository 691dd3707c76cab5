"""Text from caches: the legend's GlyphDraw draws exactly what ImageDraw.text draws."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from toolkit.render._glyphs import GlyphDraw
from toolkit.render.fonts import font


@pytest.mark.parametrize("anchor", [None, "la", "lm", "mm", "ma", "rs"])
def test_cached_text_draws_the_pixels_of_imagedraw_text(anchor):
    texts = [("TERRAIN EFFECTS CHART", font(20, bold=True)), ("Woods", font(16.6, family="condensed")),
             ("shift -1, when attacker lower", font(13, family="condensed")), ("N", font(15, bold=True)),
             ("Velikiye Luki 1942\u20131943", font(40, family="serif"))]
    for k, (text, f) in enumerate(texts):
        for x, y in ((10, 12), (10.5, 12.25), (33.75, 40.5), (7.1, 61.9)):
            paper = Image.new("RGB", (420, 110), (243, 241, 230))
            want = paper.copy()
            ImageDraw.Draw(want).text((x, y), text, font=f, fill=(20, 20, 20), anchor=anchor)
            for _ in range(2):   # the second time from the cache
                got = paper.copy()
                GlyphDraw(ImageDraw.Draw(got)).text((x, y), text, font=f, fill=(20, 20, 20), anchor=anchor)
                assert got.tobytes() == want.tobytes(), (text, x, y, anchor)


def test_anything_else_goes_to_the_wrapped_draw():
    image = Image.new("RGB", (60, 40), "white")
    draw = GlyphDraw(ImageDraw.Draw(image))
    draw.rectangle((5, 5, 20, 20), fill=(255, 0, 0))
    draw.text((28, 2), "two\nlines", font=font(10), fill=(0, 0, 0))   # multi-line: ImageDraw's own
    assert image.getpixel((10, 10)) == (255, 0, 0)
    assert image.crop((28, 0, 60, 40)).convert("L").getextrema()[0] < 100
