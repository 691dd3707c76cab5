"""Counter faces: drawn from the counter data in the game's layout, every face and layout."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import ImageColor

from toolkit.errors import DataError
from toolkit.game import Counter
from toolkit.render import render_counter
from toolkit.render.counter_layouts import LAYOUTS, layout_names, resolve_layout
from toolkit.render.counters import format_values


def _with_style(game, **style):
    return dataclasses.replace(game, counter_style=dataclasses.replace(game.counter_style, **style))


def _dark_pixels(image, box=None) -> int:
    region = image.crop(box) if box else image
    return sum(region.convert("L").histogram()[:80])


@pytest.mark.parametrize("px", [75, 150, 188])
def test_every_counter_renders_both_faces_at_the_asked_size(tutorial, px):
    for counter in tutorial.counters.values():
        for back in (False, True):
            image = render_counter(tutorial, counter, back=back, px=px)
            assert image.size == (px, px)
            assert image.mode == "RGB"


def test_background_is_the_side_colour(tutorial):
    image = render_counter(tutorial, tutorial.counters["b-1"], px=75)
    blue = ImageColor.getrgb(tutorial.side("blue").colour)
    # a point inside the counter away from any printed element
    assert image.getpixel((5, 40)) == blue


def test_reduced_back_prints_the_back_values(tutorial):
    counter = tutorial.counters["b-1"]          # 4-4-4 front, 2-2-4 back
    front = render_counter(tutorial, counter, px=150)
    back = render_counter(tutorial, counter, back=True, px=150)
    assert front.tobytes() != back.tobytes()
    # the same back drawn from a counter whose back values equal the front's differs from it
    same = dataclasses.replace(counter, back=dict(counter.front))
    assert render_counter(tutorial, same, back=True, px=150).tobytes() != back.tobytes()


def test_fired_back_and_forced_states(tutorial):
    artillery = tutorial.counters["b-5"]
    fired = render_counter(tutorial, artillery, back=True, px=100)
    assert fired.tobytes() == render_counter(tutorial, artillery, state="fired", px=100).tobytes()
    assert fired.tobytes() == render_counter(tutorial, artillery, state="back", px=100).tobytes()
    assert fired.tobytes() != render_counter(tutorial, artillery, px=100).tobytes()
    assert render_counter(tutorial, artillery, state="full", px=100).tobytes() == \
        render_counter(tutorial, artillery, px=100).tobytes()
    with pytest.raises(DataError, match="unknown counter state"):
        render_counter(tutorial, artillery, state="exploded")


def test_untried_back_prints_question_marks(tutorial):
    counter = dataclasses.replace(tutorial.counters["b-1"], back_kind="untried", back={"movement": 4})
    untried = render_counter(tutorial, counter, back=True, px=150)
    blank = render_counter(tutorial, counter, state="blank", px=150)
    values_band = (0, 105, 150, 145)
    assert _dark_pixels(untried, values_band) > _dark_pixels(blank, values_band) + 100


def test_marks_are_drawn(tutorial):
    plain = dataclasses.replace(tutorial.counters["r-14"], marks=())
    for mark in ("*", "at-dot", "no-zoc"):
        marked = dataclasses.replace(plain, marks=(mark,))
        assert render_counter(tutorial, marked, px=120).tobytes() != render_counter(tutorial, plain, px=120).tobytes()


def test_markers_print_their_name_large(tutorial):
    marker = tutorial.counters["oos"]
    image = render_counter(tutorial, marker, px=75)
    assert image.getpixel((3, 3))[:3] == ImageColor.getrgb("#ffd400")
    assert _dark_pixels(image) > 300        # the words OUT OF SUPPLY fill the counter


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layout_draws_every_counter(tutorial, name):
    game = _with_style(tutorial, layout=name)
    images = {render_counter(game, c, px=75).tobytes() for c in game.counters.values()}
    assert len(images) == len(game.counters)  # every counter looks different
    for counter in game.counters.values():
        assert render_counter(game, counter, back=True, px=75).size == (75, 75)


def test_layouts_differ(tutorial):
    counter = tutorial.counters["b-3"]
    looks = {render_counter(_with_style(tutorial, layout=n), counter, px=100).tobytes() for n in layout_names()}
    assert len(looks) == len(layout_names())


def test_layout_aliases_and_unknown_layout():
    assert resolve_layout("vv")["name"] == "velikiye-luki-vv"
    with pytest.raises(DataError, match="unknown counter layout 'nope'"):
        resolve_layout("nope")


def test_game_overrides_adjust_remove_and_add_elements(tutorial):
    layout = resolve_layout("standard", {"layout": {"border": 0, "elements": {"name": {"size": 0.2}, "steps": None},
                                                    "add": [{"kind": "formation", "box": [0, 0, 1, 0.1]}]}})
    kinds = [e["kind"] for e in layout["elements"]]
    assert layout["border"] == 0 and "steps" not in kinds and kinds[-1] == "formation"
    assert next(e for e in layout["elements"] if e["kind"] == "name")["size"] == 0.2
    assert LAYOUTS["standard"]["border"] != 0           # the shipped layout is untouched
    with pytest.raises(DataError, match="no element 'sparkles'"):
        resolve_layout("standard", {"layout": {"elements": {"sparkles": {}}}})
    game = _with_style(tutorial, options={"layout": {"elements": {"values": None}}})
    counter = tutorial.counters["b-1"]
    assert render_counter(game, counter).tobytes() != render_counter(tutorial, counter).tobytes()


def _text(runs):
    return "".join(text for text, _ in runs)


def test_format_values():
    values = {"attack": 4, "defence": 3, "movement": 8, "quality": "B"}
    assert _text(format_values("attack-defence-movement", values)) == "4-3-8"
    assert [name for _, name in format_values("attack-defence-movement", values)] == \
        ["attack", None, "defence", None, "movement"]
    # the first alternative whose values are all present wins
    assert _text(format_values("attack-defence-movement|strength-movement", {"strength": 3, "movement": 5})) == "3-5"
    # a missing value drops out with its separator; synonyms are understood
    assert _text(format_values("attack-defence-range-movement", {"attack": 2, "defense": 1, "ma": 4})) == "2-1-4"
    # values drawn elsewhere by the layout are left out
    assert _text(format_values("strength quality", {"strength": 7, "quality": "B"}, exclude={"quality"})) == "7"
    # untried sides print ? for a value the front has
    assert _text(format_values("attack-defence-movement", {"movement": 6}, unknown="?",
                               reference={"attack": 3, "defence": 2, "movement": 6})) == "?-?-6"
    assert format_values("", values) == []


def test_small_images_are_refused(tutorial):
    with pytest.raises(DataError, match="too small"):
        render_counter(tutorial, tutorial.counters["b-1"], px=4)


@pytest.mark.parametrize("field", ["colour", "text_colour", "band"])
def test_bad_colour_is_a_data_error_naming_the_counter(tutorial, field):
    counter = Counter(id="x", side="blue", name="X", **{field: "not-a-colour"})
    with pytest.raises(DataError, match="counter 'x': cannot read colour 'not-a-colour'"):
        render_counter(tutorial, counter)


def _count_colour(image, colour, tolerance=40) -> int:
    target = ImageColor.getrgb(colour)
    data = image.convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3])
    return sum(1 for rgb in pixels if sum(abs(a - b) for a, b in zip(rgb, target)) < tolerance)


def test_demyansk_layout_colours_the_type_box_and_frames_exploitation_ma(tutorial):
    game = _with_style(tutorial, layout="demyansk-shield")
    base = tutorial.counters["b-3"]
    red = dataclasses.replace(base, front={**base.front, "box": "red"})
    assert _count_colour(render_counter(game, red, px=150), "#e0474c") > 300
    assert _count_colour(render_counter(game, base, px=150), "#e0474c") == 0
    exploit = dataclasses.replace(base, front={**base.front, "em": 1})
    assert render_counter(game, exploit, px=150).tobytes() != render_counter(game, base, px=150).tobytes()


def test_grossdeutschland_prints_red_attack_and_green_defence(tutorial):
    game = _with_style(tutorial, layout="grossdeutschland")
    image = render_counter(game, tutorial.counters["b-1"], px=150)
    values_band = image.crop((0, 100, 150, 150))
    assert _count_colour(values_band, "#c0141c") > 50 and _count_colour(values_band, "#0b7a2a") > 50


def test_a_victory_denied_prints_reduced_values_in_yellow(tutorial):
    game = _with_style(tutorial, layout="a-victory-denied")
    counter = tutorial.counters["b-1"]
    assert _count_colour(render_counter(game, counter, back=True, px=150), "#ffd21f") > 50
    assert _count_colour(render_counter(game, counter, px=150), "#ffd21f") == 0


def test_vv_grey_quality_marks_a_special_capacity(tutorial):
    game = _with_style(tutorial, layout="velikiye-luki-vv", values="combat")
    base = dataclasses.replace(tutorial.counters["b-1"], front={"combat": 5, "quality": "B"})
    special = dataclasses.replace(base, marks=("special",))
    quality_box = (100, 98, 142, 140)

    black_letter = render_counter(game, base, px=150).crop(quality_box).convert("L")
    grey_letter = render_counter(game, special, px=150).crop(quality_box).convert("L")
    # the letter's strokes (inside the same black box): black on a plain quality, grey on a special one
    assert sum(black_letter.histogram()[:40]) > sum(grey_letter.histogram()[:40]) + 200
    assert sum(grey_letter.histogram()[80:200]) > sum(black_letter.histogram()[80:200]) + 200


def test_every_bundled_game_renders(tmp_path):
    from toolkit.io import bundled_games, load_game

    for game_id in bundled_games():
        game = load_game(game_id)
        for counter in game.counters.values():
            for back in (False, True):
                assert render_counter(game, counter, back=back, px=75).size == (75, 75)


def test_a_broken_layout_override_is_a_data_error(tutorial):
    game = _with_style(tutorial, options={"layout": {"symbol_fill": "plaid"}})
    with pytest.raises(DataError, match="cannot read colour 'plaid'"):
        render_counter(game, tutorial.counters["b-1"])
    game = _with_style(tutorial, options={"layout": {"elements": {"name": {"box": [0, 0]}}}})
    with pytest.raises(DataError, match="cannot be drawn"):
        render_counter(game, tutorial.counters["b-1"])


def test_step_pips_show_the_steps_left(tutorial):
    # a three-step division: three filled pips at full strength, two reduced, one as a cadre
    division = dataclasses.replace(tutorial.counters["b-1"], steps=3)
    px = 300
    box = (round(0.07 * px), round(0.06 * px), round(0.22 * px), round(0.2 * px))  # the standard steps box
    ink = {state: _dark_pixels(render_counter(tutorial, division, state=state, px=px), box)
           for state in ("full", "reduced", "cadre")}
    assert ink["full"] > ink["reduced"] > ink["cadre"] > 0
