"""NATO unit-type symbols: every type a game needs draws, distinctly, at any size."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from toolkit.render.nato import SYMBOLS, canonical_type, draw_symbol, known_types, size_mark

#: the types the counters issue requires
REQUIRED = ["infantry", "armour", "mechanised", "motorised", "reconnaissance", "cavalry", "artillery",
            "rocket artillery", "anti-tank", "assault gun", "engineer", "ski", "mountain", "airborne", "hq",
            "anti-aircraft", "machine-gun", "mortar", "security"]


def _draw(unit_type: str, size: int = 120, **kw) -> Image.Image:
    image = Image.new("RGB", (size, size), "#c0c0c0")
    draw_symbol(ImageDraw.Draw(image), (10, 25, size - 10, size - 25), unit_type, width=3, **kw)
    return image


def test_every_required_type_has_its_own_symbol():
    drawings = {t: _draw(t).tobytes() for t in REQUIRED}
    assert all(canonical_type(t) in SYMBOLS for t in REQUIRED)
    # no two required types look the same
    assert len(set(drawings.values())) == len(REQUIRED)


@pytest.mark.parametrize("spelling, name", [
    ("Armor", "armour"), ("panzer", "armour"), ("MRL", "rocket artillery"), ("Katyusha", "rocket artillery"),
    ("mechanized", "mechanised"), ("Sicherung", "security"), ("parachute", "airborne"), ("AA", "anti-aircraft"),
    ("StuG", "assault gun"), ("recon", "reconnaissance"), (None, "infantry"), ("  Ski ", "ski"),
])
def test_spellings_map_to_one_symbol(spelling, name):
    assert canonical_type(spelling) == name
    assert name in known_types()


def test_unknown_type_draws_a_frame_with_initials_instead_of_failing():
    plain = Image.new("RGB", (120, 120), "#c0c0c0")
    draw_symbol(ImageDraw.Draw(plain), (10, 25, 110, 95), "zeppelin wing", width=3, fill=None, frame=True)
    blank = Image.new("RGB", (120, 120), "#c0c0c0")
    ImageDraw.Draw(blank).rectangle((10, 25, 110, 95), outline="#000000", width=3)
    assert plain.tobytes() != blank.tobytes()  # the initials were drawn inside the frame


def test_silhouette_replaces_the_oval_for_armour_only():
    assert _draw("armour", silhouette=True).tobytes() != _draw("armour").tobytes()
    assert _draw("infantry", silhouette=True).tobytes() == _draw("infantry").tobytes()


@pytest.mark.parametrize("code, mark", [("III", "III"), ("XX", "XX"), ("KG", "KG"), ("I", "I"), ("X", "X"),
                                        ("XXX", "XXX"), ("II", "II"), ("battalion", "II"), ("Kampfgruppe", "KG"),
                                        ("II+", "II+"), (None, ""), ("", "")])
def test_size_marks(code, mark):
    assert size_mark(code) == mark
