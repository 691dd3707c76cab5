"""Themes: terrain styles found by name, fallbacks that still read in greyscale, overrides."""

from __future__ import annotations

import pytest

from toolkit.errors import DataError
from toolkit.game import HexsideType, LineType, TerrainType
from toolkit.render.theme import Theme, rgb


@pytest.fixture(scope="module")
def theme():
    return Theme.default()


@pytest.mark.parametrize("code,name,key", [
    ("w", "Woods", "woods"), ("F", "Forest", "woods"), ("lw", "Light Woods", "woods"),
    ("m", "Marsh", "swamp"), ("sw", "Swamp", "swamp"), ("x", "Rough", "rough"),
    ("h", "Hills", "hills"), ("mtn", "Mountains", "mountain"), ("c", "Major City", "city"),
    ("t", "Town", "town"), ("hamlet", "Hamlet", "village"), ("lake", "Lake", "lake"),
    ("sea", "Sea", "lake"), ("o", "Open", "clear"), ("af", "Airfield", "airfield"),
    ("sp", "Axis Strongpoint (printed)", "fort"),
])
def test_well_known_terrain_is_matched_by_code_or_name(theme, code, name, key):
    assert theme.terrain_style(TerrainType(code, name)).key == key


def test_unknown_terrain_gets_a_stable_generated_colour_and_a_hatch(theme):
    a = theme.terrain_style(TerrainType("zq", "Quagmire"))
    b = theme.terrain_style(TerrainType("zq", "Quagmire"))
    c = theme.terrain_style(TerrainType("yy", "Something else"))
    assert a.key == "other" and a.symbol == "hatch"
    assert a.fill == b.fill and a.fill != c.fill
    assert min(a.fill) > 120, "generated fills stay light so symbols and ids read on them"


def test_terrain_colour_in_the_data_overrides_the_theme(theme):
    style = theme.terrain_style(TerrainType("w", "Woods", colour="#123456"))
    assert style.fill == (0x12, 0x34, 0x56) and style.symbol == "trees"
    fallback = theme.terrain_style(TerrainType("q", "Quux", colour="#abcdef"))
    assert fallback.fill == (0xab, 0xcd, 0xef)


def test_river_width_follows_its_class(theme):
    major = theme.hexside_style(HexsideType("r", "River", width="major"))
    minor = theme.hexside_style(HexsideType("r2", "River", width="minor"))
    stream = theme.hexside_style(HexsideType("stream", "Stream", width="minor"))
    assert major.key == minor.key == "river"
    assert major.width > minor.width >= stream.width
    assert theme.hexside_style(HexsideType("ls", "Lake side")).key == "lake"
    assert theme.hexside_style(HexsideType("esc", "Escarpment")).ticks


def test_line_styles(theme):
    assert theme.line_style(LineType("rr", "Railroad", rail=True)).ties
    assert theme.line_style(LineType("rd", "Road")).key == "road"
    assert theme.line_style(LineType("tr", "Trail")).dash is not None
    assert theme.line_style(LineType("x", "Something")).key == "road"


def test_a_theme_file_overrides_only_what_it_names(tmp_path):
    path = tmp_path / "dark.yaml"
    path.write_text("name: dark\npaper: '#101010'\nterrain:\n  woods: {fill: '#00ff00'}\n")
    theme = Theme.load(path)
    assert theme.name == "dark" and theme.paper == (16, 16, 16)
    woods = theme.terrain_style(TerrainType("w", "Woods"))
    assert woods.fill == (0, 255, 0) and woods.symbol == "trees"   # the rest from the default


def test_bad_theme_files_name_the_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("paper: not-a-colour\n")
    with pytest.raises(DataError, match="bad.yaml"):
        Theme.load(path)
    path.write_text("- a list\n")
    with pytest.raises(DataError, match="mapping"):
        Theme.load(path)


def test_rgb_reads_names_hex_and_tuples():
    assert rgb("red") == (255, 0, 0)
    assert rgb("#00ff00") == (0, 255, 0)
    assert rgb((1, 2, 3, 4)) == (1, 2, 3)


def test_a_theme_whose_aliases_differ_matches_by_its_own_aliases(tmp_path):
    """Style names are matched once per table of names: a theme that gives a style other
    aliases is not answered from another theme's table."""
    plain = Theme.default()
    assert plain.terrain_style(TerrainType("qg", "Quagmire")).key == "other"
    path = tmp_path / "quagmires.yaml"
    path.write_text("terrain:\n  swamp: {fill: '#446644', aliases: [quagmire]}\n")
    quagmires = Theme.load(path)
    assert quagmires.terrain_style(TerrainType("qg", "Quagmire")).key == "swamp"
    assert Theme.default().terrain_style(TerrainType("qg", "Quagmire")).key == "other"
