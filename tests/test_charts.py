"""The Terrain Effects Chart as text, shared by the map legend and the VASSAL chart."""

from dataclasses import replace
from fractions import Fraction

import pytest

from toolkit.charts import MISSING, Tec, combat_text, cost_text, tec
from toolkit.game.provenance import Source
from toolkit.game.terrain import CostTable, HexsideType, LineType, TerrainType
from toolkit.io import load_game


@pytest.fixture(scope="module")
def tutorial_map():
    return load_game("tutorial").maps["main"]


@pytest.mark.parametrize("found, cost, hexside, plain, text", [
    (True, Fraction(1, 2), False, False, "\u00bd"),
    (True, Fraction(1, 2), False, True, "1/2"),
    (True, Fraction(3, 2), False, False, "1\u00bd"),
    (True, Fraction(3, 2), False, True, "1 1/2"),
    (True, Fraction(1, 3), False, False, "\u2153"),
    (True, Fraction(2, 5), False, False, "2/5"),        # no vulgar fraction: written out
    (True, Fraction(2), False, False, "2"),
    (True, 0, False, False, "0"),
    (True, None, False, False, "P"),
    (True, None, True, False, "P"),                     # a prohibited hexside has no "+"
    (False, None, False, False, MISSING),
    (False, None, True, True, "-"),
    (True, Fraction(1), True, False, "+1"),
    (True, Fraction(0), True, False, "+0"),
    (True, Fraction(1, 2), True, True, "+1/2"),
])
def test_cost_cells(found, cost, hexside, plain, text):
    assert cost_text(found, cost, hexside=hexside, plain=plain) == text


def test_combat_effects_read_as_words():
    assert combat_text({"defence": "x2", "no_retreat": True, "shift": -1, "blocks_los": False,
                        "note": None}) == "defence x2, no retreat, shift -1, not blocks los"
    assert combat_text({}) == ""
    # White Death's defence by assault case: read as words, not a dict's repr ({'P': 9, ...})
    assert combat_text({"defence": {"P": 9, "L": 8, "H": 7}, "afv_defence": "-1"}) == \
        "defence P 9 / L 8 / H 7, afv defence -1"


def test_tutorial_chart_rows_and_columns(tutorial_map):
    chart = tec([tutorial_map])
    assert isinstance(chart, Tec)
    assert [c.label for c in chart.columns] == ["foot clear", "foot mud", "mech clear", "mech mud"]
    rows = {r.name: r for r in chart.rows}
    assert rows["Swamp"].costs == ("3", "4", "P", "P") and rows["Swamp"].combat == "defence +1"
    assert rows["Village"].kind == "feature" and rows["Village"].costs == ("other",) * 4
    assert rows["River"].kind == "hexside" and rows["River"].costs == ("+2", "+2", "P", "P")
    assert rows["Road"].costs == ("\u00bd", "\u00bd", "\u00bd", "1") and rows["Road"].combat == "bridges rivers"
    assert tec([tutorial_map], plain=True).rows[-2].costs == ("1/2", "1/2", "1/2", "1")
    order = {"terrain": 0, "feature": 0, "hexside": 1, "line": 2}   # terrain, then hexsides, then lines
    assert [order[r.kind] for r in chart.rows] == sorted(order[r.kind] for r in chart.rows)
    assert "other" in chart.note and "P prohibited" in chart.note


def test_weather_that_changes_nothing_collapses_per_class(tutorial_map):
    flat = CostTable({("*", "*"): Fraction(1)})
    muddy = CostTable({("*", "*"): Fraction(1), ("wheeled", "mud"): Fraction(3)})
    m = replace(tutorial_map, unit_classes=("foot", "wheeled"), weathers=("dry", "mud", "frost"),
                terrain_types={"a": TerrainType("a", "Open", flat, source=Source(rule="7")),
                               "b": TerrainType("b", "Marsh", muddy)},
                hexside_types={"r": HexsideType("r", "Brook", CostTable())},
                line_types={})
    chart = tec([m])
    assert [(c.label, c.by_weather) for c in chart.columns] == [("foot", False), ("wheeled dry", True),
                                                               ("wheeled mud", True)]
    open_, marsh, brook = chart.rows
    assert open_.costs == ("1", "1", "1") and open_.rule == "7"
    assert marsh.costs == ("1", "1", "3") and marsh.rule is None
    assert brook.costs == (MISSING,) * 3                    # the chart is silent: a dash
    assert "other" not in chart.note


def test_no_unit_classes_is_one_column_for_all(tutorial_map):
    m = replace(tutorial_map, unit_classes=(), weathers=(),
                terrain_types={"a": TerrainType("a", "Open", CostTable({("*", "*"): Fraction(2)}))},
                hexside_types={}, line_types={"l": LineType("l", "Track", CostTable({("*", "*"): Fraction(1)}))})
    chart = tec([m])
    assert [c.label for c in chart.columns] == ["all"]
    assert [r.costs for r in chart.rows] == [("2",), ("1",)]
    assert chart.rows[1].combat == ""                       # no hexsides: nothing to bridge


def test_each_type_once_over_several_maps(tutorial_map):
    chart = tec([tutorial_map, tutorial_map])
    assert len(chart.rows) == len(tec([tutorial_map]).rows)


def test_the_map_legend_and_the_vassal_chart_draw_the_same_chart(tutorial_map, monkeypatch):
    """Both renderers print the cells toolkit.charts.tec gives them, and nothing else."""
    from PIL import Image, ImageDraw

    from toolkit.render import _maplegend
    from toolkit.render._raster import Canvas
    from toolkit.render.theme import Theme
    from toolkit.vassal import boards

    def marked(maps, **kw):  # every cell tagged, so a cell formatted anywhere else would show
        chart = tec(maps, **kw)
        rows = tuple(replace(r, costs=tuple(f"<{c}>" for c in r.costs)) for r in chart.rows)
        return replace(chart, rows=rows)
    monkeypatch.setattr(_maplegend, "tec", marked)
    monkeypatch.setattr(boards, "tec", marked)
    wanted = [list(r.costs) for r in marked([tutorial_map]).rows]

    printed = []
    monkeypatch.setattr(boards, "_table", lambda title, header, rows, note=None: printed.append(rows))
    boards._tec(load_game("tutorial"))
    assert [row[1:-2] for row in printed[0]] == wanted

    legend = _maplegend._Legend(tutorial_map, None, Theme.default(), 72)
    block = legend.tec_block()
    image = Image.new("RGB", (legend.width, block.height))
    texts = []

    class Recording:
        def __init__(self, draw):
            self._draw = draw

        def text(self, xy, text, *args, **kwargs):
            texts.append(text)
            return self._draw.text(xy, text, *args, **kwargs)

        def __getattr__(self, name):
            return getattr(self._draw, name)
    block.paint(image, Recording(ImageDraw.Draw(image)), Canvas(image, 3), 0, 0)
    assert [t for t in texts if t.startswith("<")] == [c for row in wanted for c in row]
