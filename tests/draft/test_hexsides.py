"""Hexside features read from small pictures hexforge draws: a full and a partial lake hexside
side by side (White Death's two lake kinds, drawn in the same colours and told apart only by
their shape along the side), a slope drawn over the grid line, a river beside a lake side."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageFilter

from known_answers import jpeg
from toolkit.draft import Palette, apply_draft, draft_terrain
from toolkit.draft.geometry import PlacedLayout, drawn_labels
from toolkit.draft._sideprofile import _band, side_ink
from toolkit.draft._sideshapes import SHAPE_TS, side_shapes
from toolkit.draft.sample import colour_distance
from toolkit.game import HexsideFeature, HexTerrain
from toolkit.hexes import Grid, Hex, Hexside
from toolkit.io import load_game
from toolkit.render import Theme, render_map


def _small_map(game_id: str, sides: dict[tuple[tuple[int, int], str], str]):
    """The game's map cut down to a plain 8 x 7 grid of clear terrain, with ``sides`` (a hex
    and the direction of the side: a feature)."""
    base = load_game(game_id).main_map
    grid = Grid(1, 8, 1, 7)
    m = replace(base, grid=grid, hexes={}, hexsides={}, lines=[], places=[], victory=[], supply=[], edges=[],
                boxes=[], locations={}, image=None)
    plain = next(c for c, t in base.terrain_types.items() if not t.overlay and c in ("clear", "c", "open"))
    for hex in grid:
        m.hexes[hex] = HexTerrain(plain)
    for (a, direction), code in sides.items():
        side = Hexside.of(Hex(*a), grid.neighbour(Hex(*a), direction))
        m.hexsides[side] = [HexsideFeature(side, code)]
    return m


def _read(m, dpi: int, degrade=lambda image: image):
    rendered = render_map(m, dpi=dpi)
    layout = PlacedLayout(rendered.layout)
    # (the ids where hexforge printed them, as the drafter knows them on its own pictures: an id
    # moved off a lake side lies where no id is looked for)
    draft = draft_terrain(m, degrade(rendered.image), layout, Palette.from_game(m, layout.size),
                          labels=drawn_labels(m, layout))
    return {s: code for s, (code, _) in draft.hexsides.items()}, draft


def _truth(m):
    return {s: feats[0].code for s, feats in m.hexsides.items()}


# White Death's lake hexsides: a ring of full lake sides around one hex, a ring of partial ones
# around the next, a full and a partial side meeting at a corner, and slopes (Rule 12, 13)
LAKES = {((3, 3), "N"): "lake_full", ((3, 3), "NE"): "lake_full", ((3, 3), "SE"): "lake_full",
         ((6, 3), "N"): "lake_partial", ((6, 3), "NE"): "lake_partial", ((6, 3), "SE"): "lake_partial",
         ((6, 3), "S"): "lake_partial",
         ((2, 6), "N"): "lake_full", ((2, 6), "NE"): "lake_partial",
         ((5, 6), "N"): "slope", ((5, 6), "NE"): "slope", ((7, 6), "NE"): "lake_partial"}


@pytest.fixture(scope="module")
def lakes():
    return _small_map("white-death", LAKES)


def test_full_and_partial_lake_sides_are_told_apart(lakes):
    got, draft = _read(lakes, 80)
    assert got == _truth(lakes)
    assert min(draft.side_confidence.values(), default=1.0) >= 0.5  # none listed for a person


@pytest.mark.parametrize("degradation", ["blur", "jpeg60"])
def test_lake_sides_are_told_apart_on_a_degraded_picture(lakes, degradation):
    degrade = {"blur": lambda i: i.filter(ImageFilter.GaussianBlur(1.0)), "jpeg60": jpeg}[degradation]
    got, draft = _read(lakes, 80, degrade)
    wrong = {s for s in set(got) | set(_truth(lakes)) if got.get(s) != _truth(lakes).get(s)}
    # a slope drawn over the grid line, JPEG'd, may be missed; never a lake read as the other kind
    assert not [s for s in wrong if {got.get(s), _truth(lakes).get(s)} <= {"lake_full", "lake_partial"}]
    assert len(wrong) <= 1, wrong
    assert all(draft.side_confidence.get(s, 1.0) < 0.5 for s in wrong)  # listed for a person


def test_lake_side_shapes(lakes):
    """The shapes learned from hexforge's drawing: a full lake side reaches both corners and is
    widest at its middle; a partial one lies in the middle, touching neither corner."""
    theme = Theme.default()
    sides = [(code, theme.hexside_style(kind).colour, theme.hexside_style(kind).edge,
              theme.hexside_style(kind).drawn_width(64.0) / 64.0)
             for code, kind in lakes.hexside_types.items() if code.startswith("lake")]
    shapes = side_shapes(lakes, sides, 64.0, theme)
    full, partial = shapes["lake_full"], shapes["lake_partial"]
    middle = SHAPE_TS.index(0.5)
    # a broad lake: a third of a hex across at the middle, half that or more near the corners
    assert full[middle] == max(full) and full[middle] > 0.3 and full[0] > 0.4 * full[middle]
    assert partial[0] == partial[-1] == 0.0 and partial[middle] > 0.6 * full[middle]
    assert full == full[::-1] and partial == partial[::-1]  # a side is read either way


# Demyansk's rivers and lake sides: a lake side meeting a river and a major river at corners
RIVERS = {((3, 3), "N"): "lake", ((3, 3), "NE"): "river", ((3, 3), "NW"): "major_river",
          ((3, 3), "SE"): "lake", ((6, 5), "N"): "river", ((6, 5), "NE"): "river",
          ((6, 5), "SE"): "major_river", ((2, 6), "N"): "lake"}


def test_a_river_beside_a_lake_side():
    m = _small_map("demyansk-shield", RIVERS)
    got, _ = _read(m, 100)
    assert got == _truth(m)


# A lake's reach along two sides of 0306 with a river running through its second side and on (as
# at Demyansk's 3004/3103, the Pola through Lake Seliger's reaches); the same river drawn over a
# lone lake side beside 0603, and a river and a major river alone
REACH = {((3, 6), "SE"): ["lake"], ((3, 6), "S"): ["lake", "river"], ((3, 6), "SW"): ["river"],
         ((6, 4), "N"): ["lake", "major_river"], ((6, 4), "NE"): ["major_river"],
         ((3, 3), "NE"): ["river"], ((3, 3), "SE"): ["major_river"]}


def test_a_river_through_a_lake_reach_is_read_as_both():
    m = _small_map("demyansk-shield", {})
    for (a, direction), codes in REACH.items():
        side = Hexside.of(Hex(*a), m.grid.neighbour(Hex(*a), direction))
        m.hexsides[side] = [HexsideFeature(side, code) for code in codes]
    _, draft = _read(m, 100)
    got = {s: {code, *draft.more_hexsides.get(s, ())} for s, (code, _) in draft.hexsides.items()}
    truth = {s: {f.code for f in feats} for s, feats in m.hexsides.items()}
    reach = Hexside.of(Hex(3, 6), m.grid.neighbour(Hex(3, 6), "S"))
    assert got[reach] == {"lake", "river"}  # the lake shows beside the river: both read
    assert draft.more_hexsides[reach] == ("lake",) and draft.hexsides[reach][0] == "river"
    wrong = {s for s in set(got) | set(truth) if got.get(s) != truth.get(s)}
    # a lone lake side under a major river hardly shows (hexforge draws the river over it): its
    # band, shaped like both, leaves the side listed; the rivers alone are read as rivers
    assert wrong <= {Hexside.of(Hex(6, 4), m.grid.neighbour(Hex(6, 4), "N"))}, wrong
    assert all(draft.side_confidence.get(s, 1.0) < 0.5 for s in wrong | {reach})
    for side in wrong:  # the listing says what else the side may be
        assert "lake and major_river" in [c for d in draft.side_doubts[side] if d.reader == "hexside"
                                          for c in d.candidates]
    # both written to the terrain file
    drafted = apply_draft(m, draft, "reach.png")
    assert {f.code for f in drafted.hexsides[reach]} == {"lake", "river"}


def test_a_side_under_a_name_is_listed_where_a_feature_shows_through_it():
    """A side wholly under a name's box says little: a feature showing through it (between the
    letters) is not read, but the side is listed for a person; a side showing nothing is not."""
    m = _small_map("demyansk-shield", {((3, 3), "NE"): "river"})
    rendered = render_map(m, dpi=100)
    layout = PlacedLayout(rendered.layout)
    river = Hexside.of(Hex(3, 3), m.grid.neighbour(Hex(3, 3), "NE"))
    plain = Hexside.of(Hex(6, 3), m.grid.neighbour(Hex(6, 3), "NE"))

    def box(side):
        (ax, ay), (bx, by) = layout.hexside_segment(side)
        return (min(ax, bx) - 4, min(ay, by) - 4, max(ax, bx) + 4, max(ay, by) + 4)
    named = draft_terrain(m, rendered.image, layout, Palette.from_game(m, layout.size),
                          labels=[box(river), box(plain)])
    assert river not in named.hexsides and plain not in named.hexsides

    def sure(draft, side):  # the hexside reader's (the line reader has its own doubts)
        return min([d.confidence for d in draft.side_doubts.get(side, ()) if d.reader == "hexside"] + [1.0])
    assert sure(named, river) < 0.5 and sure(named, plain) >= 0.5
    assert [d.candidates for d in named.side_doubts[river] if d.reader == "hexside"] == [("no feature", "river")]
    bare = draft_terrain(m, rendered.image, layout, Palette.from_game(m, layout.size))
    assert bare.hexsides[river][0] == "river" and min(sure(bare, s) for s in (river, plain)) >= 0.5


def test_a_river_under_a_bridge_off_the_middle_of_its_side():
    """A road that bends crosses a side off its middle, and its bridge hides the river there:
    the side is read around where the road crosses (read around the middle, half its samples
    fall on the bridge)."""
    from PIL import ImageDraw

    from toolkit.draft._sideprofile import side_ink
    from toolkit.draft.hexsides import read_hexside
    from toolkit.draft.sample import HexSampler

    m = _small_map("velikiye-luki", {((3, 3), "NE"): "minor_river"})
    rendered = render_map(m, dpi=80)
    layout = PlacedLayout(rendered.layout)
    side = Hexside.of(Hex(3, 3), m.grid.neighbour(Hex(3, 3), "NE"))
    (ax, ay), (bx, by) = layout.hexside_segment(side)
    size = layout.size
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    theme = Theme.default()
    road = theme.line_style(m.line_types["road"])
    for at in (0.3, 0.7):  # a deck as hexforge draws it (about 0.1 of the hex either side), and the road
        picture = rendered.image.copy()
        draw = ImageDraw.Draw(picture)
        cx, cy = ax + (bx - ax) * at, ay + (by - ay) * at
        half, across = 0.1 * size, 0.15 * size
        draw.polygon([(cx + ux * sa * half + uy * sb * across, cy + uy * sa * half - ux * sb * across)
                      for sa, sb in ((1, 1), (1, -1), (-1, -1), (-1, 1))], fill=theme.paper)
        draw.line([(cx + uy * across, cy - ux * across), (cx - uy * across, cy + ux * across)],
                  fill=road.colour, width=max(1, round(road.width * size)))
        sampler = HexSampler(picture, layout, "none")
        fill = tuple(int(v) for v in sampler.look(Hex(1, 1)).mode)
        sides = [(code, theme.hexside_style(kind).colour, theme.hexside_style(kind).edge,
                  theme.hexside_style(kind).drawn_width(size) / size)
                 for code, kind in m.hexside_types.items() if not kind.bridge]
        alphas = {code: side_ink(colour, edge, sampler.correction) for code, colour, edge, _ in sides}
        shapes = side_shapes(m, sides, size, theme)
        found, _, sure, _ = read_hexside(sampler, side, sides, alphas, size, fill, fill, (road.colour,), shapes=shapes)
        assert found is not None and found[0] == "minor_river", (at, found, sure)


# -- a hexside's profile across the side, on hand-made colours (no picture drawn): ink that is no
# drawn feature (a scan's halo beside a grid line, the neighbour's fill)

IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
CLEAR = (238, 232, 200)
GRID = (74, 74, 68)
STREAM, EDGE = (59, 125, 192), (31, 79, 128)


def _profile(colours, fill=CLEAR):
    return [(k - len(colours) // 2, c, fill) for k, c in enumerate(colours)]


def _stream_band(colours, locals_=(CLEAR, CLEAR)):
    body, ink = side_ink(STREAM, EDGE, IDENTITY)
    return _band(_profile(colours), body, ink, 2.0, (STREAM, EDGE), GRID, IDENTITY, locals_)


def test_a_stream_drawn_on_the_hexside_is_one_band_of_its_colour():
    drawn, inked, strength, _ = _stream_band([CLEAR] * 4 + [EDGE, STREAM, STREAM, EDGE] + [CLEAR] * 4)
    assert drawn >= 3.5 and inked >= 3.5 and strength == 1.0


def test_a_grid_line_and_its_halo_are_no_feature():
    halo = (131, 187, 237)  # a sharpened or resampled scan brightens the fill beside a dark line
    fill = (110, 154, 192)
    body, ink = side_ink((169, 211, 238), EDGE, IDENTITY)  # a ford: pale with dark edges
    profile = _profile([fill] * 5 + [GRID, halo] + [fill] * 5, fill)
    drawn, inked, _, _ = _band(profile, body, ink, 2.0, ((169, 211, 238), EDGE), GRID, IDENTITY, (fill, fill))
    assert drawn < 1.5 and inked < 1.5


def test_where_two_fills_meet_their_blend_is_no_ink():
    blue = (127, 178, 221)  # a river terrain's fill beside clear: no stream along their side
    colours = [blue] * 6 + [(180, 205, 210)] + [CLEAR] * 5
    profile = [(k - 6, c, blue if k < 6 else CLEAR) for k, c in enumerate(colours)]
    body, ink = side_ink(STREAM, EDGE, IDENTITY)
    drawn, inked, _, _ = _band(profile, body, ink, 2.0, (STREAM, EDGE), GRID, IDENTITY, (blue, CLEAR))
    assert drawn == 0.0 and inked < 1.0


# -- features read along their courses, on pictures hexforge draws -------------------------------

def _run_of_three(grid, hex: Hex, middle: Hex) -> list[Hexside]:
    """Three sides of ``hex`` in a row, the middle one towards ``middle``."""
    beside = [n for n in grid.neighbours(hex) if grid.adjacent(n, middle)]
    assert len(beside) == 2
    return [Hexside.of(hex, beside[0]), Hexside.of(hex, middle), Hexside.of(hex, beside[1])]


def _box(layout, side, pad=4):
    (ax, ay), (bx, by) = layout.hexside_segment(side)
    return (min(ax, bx) - pad, min(ay, by) - pad, max(ax, bx) + pad, max(ay, by) + pad)


def test_a_river_course_under_a_names_knock_out_is_read_running_on_under_it():
    """A name printed over a side of a major river's course, its knock-out hiding the river
    there (A Victory Denied's Dnieper under Smolensk): the course runs on under the name, read
    as the river and listed; a side under a name at one end of the course only is not read."""
    from PIL import ImageDraw

    m = _small_map("a-victory-denied", {})
    course = _run_of_three(m.grid, Hex(4, 4), Hex(4, 3))
    for side in course:
        m.hexsides[side] = [HexsideFeature(side, "major_river")]
    ring = [s.b if s.a == Hex(4, 4) else s.a for s in course]
    past = Hexside.of(Hex(4, 4), next(n for n in m.grid.neighbours(Hex(4, 4))
                                      if n not in ring and m.grid.adjacent(n, ring[2])))
    rendered = render_map(m, dpi=100)
    layout = PlacedLayout(rendered.layout)
    picture = rendered.image.copy()
    draw = ImageDraw.Draw(picture)
    boxes = [_box(layout, course[1]), _box(layout, past)]
    fill = rendered.image.getpixel((round(layout.center(Hex(6, 6))[0]), round(layout.center(Hex(6, 6))[1])))
    for box in boxes:  # the names' knock-outs, in the clear fill
        draw.rectangle(box, fill=fill)
    draft = draft_terrain(m, picture, layout, Palette.from_game(m, layout.size), labels=boxes)
    assert draft.hexsides[course[1]][0] == "major_river"
    assert draft.side_confidence[course[1]] < 0.5
    assert past not in draft.hexsides
    assert {s for s in draft.hexsides} == set(course)


# Demyansk's Parfino bridge (1425/1426), where a road and a railway cross the major river side by
# side: across the side (offset, colour) in the samples beside the road's crossing, the railway's
# bridge deck (greys) beside its dark stroke, each sample with the fills found either side
PARFINO = [
    (((-6, (79, 80, 73)), (-5, (34, 34, 34)), (-4, (79, 80, 73)), (-3, (79, 85, 84)), (-2, (33, 49, 65)),
      (-1, (45, 74, 104)), (0, (51, 95, 139)), (1, (51, 95, 139)), (2, (51, 95, 139)), (3, (59, 125, 192)),
      (4, (31, 79, 128)), (5, (77, 115, 146)), (6, (238, 240, 211))), (215, 217, 191), (238, 240, 211)),
    (((-6, (240, 240, 216)), (-5, (147, 145, 137)), (-4, (148, 146, 138)), (-3, (173, 171, 161)),
      (-2, (173, 171, 161)), (-1, (173, 171, 161)), (0, (104, 102, 98)), (1, (104, 102, 98)), (2, (104, 102, 98)),
      (3, (57, 57, 55)), (4, (34, 34, 34)), (5, (34, 34, 34)), (6, (79, 80, 73))), (102, 103, 93), (238, 240, 211)),
    (((-6, (28, 28, 28)), (-5, (28, 28, 28)), (-4, (28, 28, 28)), (-3, (52, 51, 50)), (-2, (100, 98, 94)),
      (-1, (123, 122, 115)), (0, (171, 169, 159)), (1, (123, 122, 115)), (2, (76, 75, 72)), (3, (195, 192, 181)),
      (4, (243, 239, 225)), (5, (243, 239, 225)), (6, (243, 239, 225))), (168, 169, 150), (28, 28, 28)),
    (((-6, (217, 216, 198)), (-5, (28, 28, 28)), (-4, (243, 239, 225)), (-3, (243, 239, 225)), (-2, (243, 239, 225)),
      (-1, (219, 215, 203)), (0, (171, 169, 159)), (1, (123, 122, 115)), (2, (76, 75, 72)), (3, (171, 169, 159)),
      (4, (100, 98, 94)), (5, (100, 98, 94)), (6, (100, 98, 94))), (51, 51, 48), (238, 240, 211))]
LAKE, MAJOR_RIVER = (159, 199, 227), ((59, 125, 192), (31, 79, 128))


def test_a_bridges_deck_beside_a_river_is_no_lake_under_it():
    """A lake drawn under a river is read where its own colour shows beside the river's band:
    only in the samples where that band shows. Beside a bridge (the river hidden under its deck,
    a railway's dark stroke taken for a fill), the deck's greys are no lake."""
    from toolkit.draft._sideprofile import _beside

    ts = (0.3, 0.35, 0.4, 0.45)
    across = [(profile, 1, local_a, local_b, []) for profile, local_a, local_b in PARFINO]
    # the river's band shows in the first sample only, beside the railway's bridge
    assert _beside(across, ts, 6.0, LAKE, MAJOR_RIVER, IDENTITY, (True, False, False, False)) == 0.0
    # (read in every sample, the deck's greys passed for a lake beside the river: Demyansk's false lake side)
    assert _beside(across, ts, 6.0, LAKE, MAJOR_RIVER, IDENTITY, (True, True, True, True)) >= 0.5


def test_a_hex_id_beside_a_side_is_not_the_hexs_fill_there():
    """The fill either side of a hexside is read around hex ids and names: the id of the hex
    below a ford, printed just under it, is no dark fill beside the ford (blurred, the ford's
    pale middle judged against the id's digits looked like a stream: Mischurin Rog 1644/1645).
    (Read beside the ford's stones, which lie over its middle and, blurred, tint its ends from 0.4.)"""
    from toolkit.draft.geometry import drawn_labels
    from toolkit.draft._sideprofile import _across
    from toolkit.draft.sample import HexSampler

    m = _small_map("grossdeutschland", {})
    course = _run_of_three(m.grid, Hex(4, 4), Hex(4, 5))
    for side, code in zip(course, ("stream", "ford", "stream")):
        m.hexsides[side] = [HexsideFeature(side, code)]
    rendered = render_map(m, dpi=100)
    layout = PlacedLayout(rendered.layout)
    picture = rendered.image.filter(ImageFilter.GaussianBlur(1.0))
    fill = (238, 232, 200)

    def fills(labels):
        sampler = HexSampler(picture, layout, m.hex_ids, labels)
        ts = (0.25, 0.3, 0.35, 0.65, 0.7, 0.75)
        return [local for _, _, *locals_, _ in _across(sampler, course[1], ts, fill, fill,
                                                     layout.size) for local in locals_]
    assert all(colour_distance(local, fill) < 10 for local in fills(drawn_labels(m, layout)))
    assert max(colour_distance(local, fill) for local in fills(())) > 40  # the id's digits, blurred
    draft = draft_terrain(m, picture, layout, Palette.from_game(m, layout.size), labels=drawn_labels(m, layout))
    # blurred, the stream runs on through the ford and its stones show beyond both banks: a ford
    assert draft.hexsides[course[1]][0] == "ford"
    assert draft.hexsides[course[0]][0] == draft.hexsides[course[2]][0] == "stream"



def test_a_ford_in_a_streams_course_is_read_as_a_ford():
    """On a sharp picture a ford's pale middle shows whole, where a stream's colour shows only as
    that middle blended with the ford's dark edges: the two are not drawn alike but for their
    width, so the ford is not read again as the stream its course runs. Mischurin Rog's ford
    (1644/1645), drawn on a row of pixels that leaves one of its edges blended with its middle,
    read in a window of its map."""
    from toolkit.draft.geometry import drawn_labels
    from toolkit.draft.hexsides import ALIKE_STRENGTH

    game = load_game("grossdeutschland")
    full = game.maps["mischurin-rog"]
    rendered = render_map(full, dpi=100, game=game)
    layout = PlacedLayout(rendered.layout)
    ford = full.grid.parse_hexside("1644/1645")
    window = replace(full.grid, first_col=14, last_col=18, first_row=42, last_row=47)
    m = replace(full, grid=window, hexes={h: t for h, t in full.hexes.items() if h in window},
                hexsides={s: f for s, f in full.hexsides.items() if s.a in window and s.b in window})
    draft = draft_terrain(m, rendered.image, layout, Palette.from_game(m, layout.size),
                          labels=drawn_labels(full, layout, game=game))
    assert draft.hexsides[ford][0] == "ford"
    # listed still, as a kind its course does not have; not as the stream's runner-up
    doubts = [d for d in draft.side_doubts.get(ford, ()) if d.reader == "hexside"]
    assert all(d.evidence == () for d in doubts), doubts
    assert 0 < ALIKE_STRENGTH < 1 - 0.63   # (the stream's colour in the ford's middle, blended)



# -- Lutchessa's ford (2508/2509) on its picture degraded every way at once: the profiles across
# the side as the drafter saw them (the picture's colour correction below), pixels -9..9
LUTCHESSA_FORD = {
    0.2: [(252, 221, 177), (251, 219, 178), (255, 223, 185), (255, 225, 184), (250, 227, 173), (240, 227, 174), (216, 211, 169), (178, 177, 157), (158, 161, 170), (169, 173, 198), (172, 176, 201), (160, 163, 172), (169, 168, 148), (205, 200, 158), (238, 225, 172), (250, 227, 173), (253, 221, 180), (255, 223, 182), (255, 225, 178)],
    0.3: [(193, 162, 118), (183, 151, 110), (196, 162, 124), (206, 174, 133), (215, 192, 138), (220, 207, 154), (208, 203, 161), (176, 175, 155), (158, 161, 170), (169, 173, 198), (172, 176, 201), (160, 163, 172), (169, 168, 148), (205, 200, 158), (238, 225, 172), (250, 227, 173), (253, 221, 180), (255, 223, 182), (255, 225, 178)],
    0.4: [(217, 186, 142), (212, 179, 138), (211, 177, 139), (217, 185, 144), (223, 200, 146), (230, 217, 164), (217, 212, 170), (180, 179, 159), (162, 165, 174), (177, 181, 206), (172, 176, 201), (162, 165, 174), (173, 172, 152), (207, 202, 160), (239, 226, 173), (250, 227, 173), (254, 222, 181), (255, 226, 185), (255, 225, 178)],
    0.5: [(197, 166, 122), (206, 173, 132), (206, 171, 133), (210, 178, 137), (217, 194, 140), (226, 210, 158), (212, 205, 163), (174, 173, 153), (156, 159, 168), (170, 174, 199), (172, 176, 201), (162, 165, 174), (173, 172, 152), (209, 202, 160), (241, 225, 173), (250, 227, 173), (254, 222, 181), (255, 225, 187), (255, 224, 179)],
    0.6: [(223, 193, 143), (215, 183, 134), (202, 168, 120), (202, 171, 127), (212, 188, 152), (220, 204, 178), (200, 194, 180), (164, 166, 161), (152, 162, 164), (163, 176, 182), (168, 181, 187), (155, 163, 165), (172, 172, 164), (214, 203, 185), (243, 220, 189), (255, 223, 182), (255, 224, 173), (255, 221, 169), (255, 225, 174)],
    0.7: [(203, 173, 123), (207, 174, 123), (218, 178, 127), (210, 172, 125), (211, 182, 142), (219, 198, 167), (203, 192, 172), (172, 169, 160), (158, 162, 161), (166, 174, 176), (172, 181, 180), (160, 162, 157), (177, 171, 159), (218, 202, 179), (247, 218, 184), (255, 222, 177), (255, 223, 168), (255, 220, 163), (255, 224, 172)],
    0.8: [(249, 219, 169), (255, 223, 172), (255, 225, 173), (251, 215, 165), (243, 214, 174), (238, 217, 186), (210, 199, 179), (173, 171, 159), (157, 163, 159), (165, 175, 176), (168, 176, 178), (162, 164, 161), (178, 172, 160), (219, 203, 180), (255, 227, 193), (255, 228, 183), (255, 221, 166), (255, 220, 163), (255, 224, 172)],
}


class _Recorded:
    """A sampler giving back recorded profiles across one hexside (at its samples' ``t``, pixels
    -n..n, as far as it is asked to reach), with the boxes of the names and ids printed near it."""

    def __init__(self, profiles, correction, size, segment, centre_a, boxes=()):
        self.profiles, self.correction, self.size, self.k = profiles, correction, size, 1
        self.segment, self.centre_a, self.boxes = segment, centre_a, boxes
        self.layout = self

    def hexside_segment(self, side):
        return self.segment

    def center(self, hex):   # (only side.a's is asked for)
        return self.centre_a

    def profile(self, a, b, t, reach):
        row = self.profiles[round(t, 2)]
        n = len(row) // 2
        return [(k, c) for k, c in zip(range(-n, n + 1), row) if abs(k) <= max(1, int(reach))]

    def labelled(self, x, y, pad=1.0):
        return any(x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad for x0, y0, x1, y1 in self.boxes)


def _pale_ford_readers(m, size, correction):
    """What the map's hexsides are read with, its ford drawn as hexforge drew fords before they
    were drawn as stepping stones across the river: a pale bar with dark edges along the side
    (the profiles below were recorded on such pictures; the rules they test read any feature
    drawn with a pale middle between dark edges)."""
    from toolkit.draft._sidereaders import THIN, blurred_colour, side_readers

    sides, alphas, shapes = side_readers(m, Theme.default(), size, correction)
    pale, edge, width = (169, 211, 238), (31, 79, 128), 0.05
    sides = sides + [("ford", pale, edge, (width * size + 2) / size)]
    blurred = blurred_colour(pale, edge, max(1.0, width * size), width * size + 2) if width * size < THIN else None
    rivals = {c for code, colour, e, _ in sides for c in (colour, e) if c is not None}
    alphas = dict(alphas, ford=side_ink(pale, edge, correction, blurred, rivals))
    return sides, alphas, shapes


def test_a_faint_reading_yields_to_a_feature_whose_colour_shows_whole():
    """Blurred, cast, turned and JPEG'd, a ford's pale middle shows whole on four of its seven
    samples (the river's ends bending in over its corners hide it on the rest) while a river's
    colour shows only half (a blend of the ford's middle and edges) on all seven: the faint
    river yields to the ford drawn with the same edges, still listed."""
    from toolkit.draft.hexsides import read_hexside

    m = load_game("grossdeutschland").maps["lutchessa"]
    correction = ((0.9979, 1.0271, 1.1471), (-16.3132, 0.0, -1.619))
    size = 63.733
    # the id of 2509 is printed just below the ford
    sampler = _Recorded(LUTCHESSA_FORD, correction, size, ((708.15, 279.83), (671.36, 280.14)), (689.48, 248.12),
                        [(680.51, 284.23, 699.7, 292.04)])
    sides, alphas, shapes = _pale_ford_readers(m, size, correction)
    side = Hexside.of(Hex(25, 8), Hex(25, 9))
    found, _, sure, others = read_hexside(sampler, side, sides, alphas, size, CLEAR, CLEAR, (), GRID, shapes)
    assert found[0] == "ford" and sure < 0.5 and others == ()



# -- Akhtyrka's ford (3306/3307) on its picture degraded every way at once: the profiles across
# the side as the drafter saw them (the picture's colour correction below), pixels -9..9
AKHTYRKA_FORD = {
    0.2: [(255, 223, 172), (255, 224, 170), (255, 228, 167), (255, 225, 161), (249, 223, 162), (246, 224, 174), (218, 205, 171), (175, 169, 155), (156, 157, 162), (174, 177, 194), (174, 175, 195), (156, 153, 162), (171, 159, 147), (218, 198, 165), (253, 224, 168), (255, 220, 162), (255, 221, 179), (255, 220, 184), (255, 221, 183)],
    0.3: [(216, 193, 152), (208, 186, 145), (200, 178, 129), (186, 166, 113), (182, 164, 114), (193, 181, 141), (186, 184, 161), (160, 165, 161), (141, 153, 169), (165, 179, 205), (169, 183, 209), (153, 160, 176), (164, 161, 154), (212, 199, 167), (252, 229, 175), (255, 233, 173), (254, 223, 177), (252, 223, 183), (252, 223, 181)],
    0.4: [(211, 188, 146), (205, 180, 140), (214, 183, 139), (217, 182, 140), (219, 181, 142), (230, 197, 164), (215, 194, 173), (169, 162, 152), (152, 162, 164), (167, 186, 193), (166, 186, 195), (148, 163, 166), (164, 166, 155), (216, 202, 176), (254, 225, 185), (255, 223, 175), (255, 225, 176), (255, 226, 176), (255, 226, 176)],
    0.5: [(182, 159, 117), (171, 146, 106), (179, 148, 104), (190, 155, 113), (206, 168, 129), (229, 196, 163), (216, 195, 174), (169, 162, 152), (152, 162, 164), (167, 186, 193), (166, 186, 195), (148, 163, 166), (164, 166, 155), (216, 202, 176), (254, 225, 185), (255, 223, 175), (255, 225, 176), (255, 226, 176), (255, 226, 176)],
    0.6: [(217, 194, 152), (226, 201, 161), (239, 208, 164), (235, 201, 156), (229, 192, 150), (226, 196, 162), (205, 187, 165), (170, 163, 153), (152, 162, 164), (170, 189, 196), (163, 183, 192), (144, 160, 160), (168, 170, 157), (216, 204, 178), (250, 222, 182), (255, 223, 175), (255, 225, 176), (255, 226, 176), (255, 226, 176)],
    0.7: [(204, 181, 139), (203, 178, 138), (208, 177, 133), (207, 173, 128), (213, 176, 134), (221, 191, 157), (205, 187, 165), (169, 162, 152), (152, 162, 164), (170, 189, 196), (163, 183, 192), (144, 160, 160), (168, 170, 157), (216, 204, 178), (250, 222, 182), (255, 223, 175), (255, 225, 176), (255, 226, 176), (255, 226, 176)],
    0.8: [(247, 230, 186), (246, 229, 183), (255, 229, 176), (255, 223, 168), (255, 221, 165), (255, 222, 175), (226, 202, 168), (172, 165, 147), (145, 159, 159), (160, 187, 196), (153, 183, 194), (137, 160, 166), (167, 173, 163), (221, 207, 181), (255, 222, 177), (255, 220, 168), (255, 225, 174), (255, 226, 176), (255, 226, 176)],
}


def test_a_reading_whose_colour_shows_far_less_than_a_runner_ups_is_unsure():
    """Degraded every way at once, Akhtyrka's ford reads best as the river it breaks (the ford's
    pale middle blended with its dark edges is the river's blue, at 0.61 of its strength), but the
    ford's own colour shows whole (1.0): the reading is unsure, the ford offered, however far the
    two score apart."""
    from toolkit.draft.hexsides import STRONGER, read_hexside

    m = load_game("grossdeutschland").maps["akhtyrka"]
    correction = ((0.97955, 0.99, 1.11463), (-11.6493, 8.44709, 4.09807))
    size = 63.742
    # the id of 3307 is printed just below the ford
    sampler = _Recorded(AKHTYRKA_FORD, correction, size, ((378.71, 469.88), (341.91, 470.2)), (360.04, 438.17),
                        [(350.82, 474.29, 370.01, 482.11)])
    sides, alphas, shapes = _pale_ford_readers(m, size, correction)
    side = Hexside.of(Hex(33, 6), Hex(33, 7))
    found, _, sure, others = read_hexside(sampler, side, sides, alphas, size, CLEAR, CLEAR, (), GRID, shapes)
    assert found[0] in ("river", "ford") and sure < 0.5
    if found[0] == "river":
        assert others == ("ford",)
    assert 0 < STRONGER < 1 - 0.61


# Demyansk's Polnovo (3004/3103) blurred: a river through a lake's reach, the lake broad on the
# clear side (3103's, -24), all but hidden under the woods' trees on the other (pixels -24..24)
POLNOVO_REACH = {
    0.2: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (236, 239, 211), (215, 225, 205), (182, 203, 198), (149, 183, 194), (130, 172, 197), (140, 183, 214), (118, 161, 196), (75, 124, 171), (54, 112, 170), (55, 117, 181), (54, 116, 179), (51, 109, 167), (61, 112, 161), (109, 154, 190), (149, 190, 220), (158, 198, 226), (159, 199, 227), (154, 195, 224), (154, 195, 224), (136, 181, 208), (106, 156, 169), (88, 140, 119), (85, 136, 83), (87, 138, 72), (85, 137, 69), (85, 137, 69), (85, 138, 70), (86, 137, 68), (81, 133, 65), (82, 135, 67), (102, 156, 85), (120, 173, 100), (126, 177, 105), (126, 177, 105), (124, 174, 103), (123, 175, 103)],
    0.3: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (237, 240, 211), (237, 239, 211), (225, 231, 208), (217, 226, 206), (164, 194, 201), (147, 184, 201), (148, 190, 218), (157, 197, 226), (157, 197, 226), (154, 195, 223), (128, 170, 203), (75, 124, 171), (54, 112, 170), (54, 117, 180), (52, 112, 173), (52, 110, 169), (62, 113, 162), (99, 143, 182), (144, 185, 216), (158, 198, 227), (159, 199, 227), (159, 199, 227), (154, 195, 224), (154, 195, 224), (135, 181, 208), (108, 160, 168), (105, 159, 130), (124, 174, 113), (127, 175, 110), (122, 174, 103), (122, 174, 103), (101, 153, 84), (82, 132, 68), (86, 111, 61), (89, 112, 62), (120, 87, 60), (121, 95, 66), (121, 85, 60), (121, 85, 60)],
    0.4: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (235, 237, 210), (199, 213, 201), (165, 191, 195), (135, 173, 193), (131, 174, 201), (151, 193, 222), (156, 197, 225), (159, 199, 227), (159, 199, 227), (159, 199, 227), (151, 192, 221), (151, 192, 221), (130, 172, 205), (73, 122, 169), (53, 112, 172), (54, 116, 180), (53, 113, 174), (70, 120, 168), (90, 137, 177), (129, 170, 204), (151, 191, 220), (159, 199, 227), (158, 198, 226), (156, 197, 225), (132, 178, 200), (117, 167, 180), (93, 147, 132), (95, 151, 113), (102, 158, 89), (115, 169, 98), (102, 156, 86), (100, 154, 83), (82, 130, 65), (82, 130, 65), (93, 112, 64), (118, 86, 59), (154, 74, 58), (173, 71, 58), (160, 76, 61), (150, 77, 60)],
    0.5: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (237, 240, 211), (228, 233, 209), (193, 210, 201), (139, 177, 195), (138, 181, 210), (137, 180, 210), (153, 194, 223), (158, 198, 227), (159, 199, 227), (159, 199, 227), (158, 198, 226), (139, 181, 212), (82, 129, 173), (82, 129, 173), (57, 111, 164), (54, 115, 179), (53, 111, 170), (65, 116, 165), (98, 143, 182), (148, 188, 218), (154, 194, 223), (158, 199, 227), (157, 197, 225), (133, 179, 205), (95, 147, 142), (88, 139, 105), (88, 138, 74), (87, 137, 70), (85, 137, 68), (84, 135, 67), (82, 134, 67), (79, 131, 63), (79, 131, 64), (82, 133, 66), (84, 135, 69), (84, 135, 69), (109, 156, 90), (116, 150, 92), (124, 169, 102), (125, 165, 104)],
    0.6: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (237, 239, 211), (218, 226, 206), (176, 199, 198), (138, 178, 202), (146, 188, 216), (150, 192, 220), (157, 197, 225), (159, 199, 227), (157, 197, 226), (145, 186, 216), (115, 159, 194), (62, 113, 164), (52, 114, 176), (52, 114, 176), (53, 115, 177), (57, 110, 163), (102, 146, 185), (138, 180, 211), (155, 195, 224), (158, 199, 227), (157, 198, 226), (147, 190, 218), (107, 158, 179), (82, 138, 131), (92, 149, 94), (106, 160, 91), (124, 174, 105), (122, 169, 104), (126, 176, 108), (121, 170, 103), (103, 157, 86), (83, 137, 68), (78, 129, 63), (83, 134, 68), (99, 135, 78), (99, 135, 78), (110, 104, 69), (109, 101, 67)],
    0.7: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (236, 239, 210), (222, 229, 207), (173, 197, 197), (135, 175, 196), (141, 184, 214), (155, 195, 224), (155, 195, 224), (159, 199, 227), (155, 195, 224), (130, 172, 206), (88, 136, 178), (60, 114, 168), (54, 116, 179), (52, 112, 173), (52, 112, 173), (55, 108, 160), (99, 143, 182), (145, 186, 217), (156, 196, 225), (155, 196, 224), (125, 172, 199), (99, 150, 167), (81, 136, 133), (80, 135, 80), (95, 151, 83), (108, 163, 90), (120, 172, 100), (108, 163, 91), (106, 161, 89), (85, 140, 71), (83, 137, 68), (85, 131, 66), (89, 121, 65), (101, 80, 51), (122, 61, 45), (155, 47, 39), (155, 47, 39)],
    0.8: [(238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (237, 240, 211), (238, 240, 211), (237, 239, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (229, 235, 208), (205, 218, 202), (143, 178, 193), (129, 172, 200), (149, 191, 221), (159, 199, 227), (159, 199, 227), (156, 196, 224), (132, 173, 206), (80, 128, 173), (55, 112, 168), (53, 116, 178), (52, 113, 174), (58, 110, 162), (58, 110, 162), (91, 136, 177), (135, 177, 209), (125, 171, 200), (102, 154, 174), (85, 137, 108), (89, 139, 85), (92, 142, 77), (94, 142, 73), (92, 140, 72), (88, 138, 70), (82, 136, 67), (80, 136, 67), (99, 146, 80), (95, 133, 74), (112, 110, 69), (111, 87, 54), (153, 52, 40), (163, 49, 39), (164, 51, 41), (155, 55, 42)],
}


def test_what_else_a_side_may_hold_comes_likeliest_first():
    """Blurred, the river through the lake's reach is read as both, the lake showing broad beside
    it on the clear side though the woods' trees all but hide it on the other (its shape learned
    with both banks showing: the slack for a lake's wavering shore keeps the river alone from
    fitting better), unsure: what else it may hold is the lake under a major river, the band
    as wide as the two (before the lake sides were drawn broad, this side read as a major
    river, the lake under a river offered first)."""
    from toolkit.draft._sidereaders import side_readers
    from toolkit.draft.hexsides import read_hexside

    m = load_game("demyansk-shield").main_map
    sampler = _Recorded(POLNOVO_REACH, IDENTITY, 60.0, ((1133.19, 222.0), (1150.51, 252.0)), (1115.87, 252.0),
                        [(1099.0, 268.0, 1133.0, 278.0), (1093.0, 238.0, 1114.0, 247.0), (1106.0, 286.0, 1126.0, 295.0),
                         (1158.0, 196.0, 1178.0, 205.0), (1143.0, 283.0, 1164.0, 292.0), (1091.0, 247.5, 1107.2, 263.7)])
    sides, alphas, shapes = side_readers(m, Theme.default(), 60.0, IDENTITY)
    side = Hexside.of(m.grid.parse("3004"), m.grid.parse("3103"))
    found, _, sure, others = read_hexside(sampler, side, sides, alphas, 60.0, (94, 142, 75), (239, 241, 212), (),
                                          GRID, shapes)
    assert found[0] == ("lake", "river") and sure < 0.5
    assert others == (("lake", "major_river"),)


# A Victory Denied's Dnieper under Smolensk's name (3628/3728), scaled and turned like a scan: the
# river curves under the name, whose knock-out cuts the top of its band along most of the side
# (pixels -9..9 across it, the name on the -9 side)
SMOLENSK_DNIEPER = {
    0.2: [(153, 152, 146), (149, 148, 143), (151, 149, 144), (137, 135, 132), (217, 214, 206), (250, 247, 232), (239, 236, 220), (255, 255, 225), (133, 172, 203), (49, 119, 190), (57, 123, 191), (62, 131, 201), (43, 105, 169), (31, 81, 133), (156, 173, 182), (243, 240, 221), (244, 240, 222), (240, 237, 221), (240, 237, 220)],
    0.3: [(161, 159, 154), (247, 244, 234), (240, 237, 228), (239, 236, 227), (238, 235, 227), (246, 243, 232), (243, 240, 224), (239, 236, 220), (255, 255, 225), (129, 169, 202), (50, 119, 190), (60, 128, 197), (51, 113, 176), (13, 71, 130), (148, 167, 179), (244, 240, 222), (244, 240, 222), (240, 237, 220), (239, 236, 219)],
    0.4: [(187, 184, 177), (132, 131, 126), (131, 130, 125), (184, 181, 175), (242, 239, 229), (248, 245, 232), (241, 238, 222), (243, 238, 221), (255, 246, 223), (115, 160, 201), (54, 123, 194), (56, 120, 185), (1, 62, 128), (151, 169, 180), (245, 241, 222), (243, 240, 222), (240, 237, 220), (241, 238, 221), (241, 238, 221)],
    0.5: [(195, 194, 187), (255, 255, 244), (255, 255, 247), (187, 185, 178), (4, 4, 4), (160, 157, 151), (246, 243, 230), (240, 238, 222), (255, 255, 228), (120, 156, 186), (55, 120, 187), (57, 121, 187), (1, 62, 128), (157, 173, 183), (245, 241, 222), (243, 239, 222), (240, 237, 220), (241, 238, 221), (239, 236, 219)],
    0.6: [(220, 217, 209), (207, 204, 197), (207, 204, 196), (220, 217, 209), (246, 243, 233), (250, 247, 234), (242, 239, 223), (241, 238, 221), (255, 247, 222), (107, 154, 199), (56, 124, 194), (57, 120, 186), (1, 62, 127), (163, 179, 186), (244, 240, 222), (243, 239, 221), (240, 237, 220), (241, 238, 221), (240, 237, 220)],
    0.7: [(226, 224, 213), (228, 225, 215), (227, 224, 214), (220, 218, 208), (207, 207, 198), (239, 237, 226), (243, 240, 224), (242, 239, 220), (253, 246, 223), (102, 151, 198), (60, 129, 201), (30, 89, 150), (101, 132, 158), (214, 217, 208), (242, 239, 222), (241, 238, 221), (240, 237, 220), (241, 238, 221), (239, 236, 219)],
    0.8: [(229, 226, 218), (34, 34, 33), (143, 141, 136), (165, 163, 157), (9, 9, 9), (190, 188, 181), (243, 240, 225), (240, 237, 221), (255, 255, 226), (108, 153, 195), (24, 80, 138), (89, 123, 155), (211, 215, 207), (242, 239, 222), (241, 238, 221), (240, 237, 220), (241, 238, 221), (241, 238, 221), (241, 238, 221)],
}


def test_a_band_a_name_cuts_short_is_at_least_as_wide_as_its_feature():
    """Where a name's knock-out cuts a major river's band down to a river's width or less, and
    the band shows a major river's whole width where the name leaves it (the side's end), it is
    read as the major river, not the river its cut widths look like; unsure, offering the river."""
    from toolkit.draft._sidereaders import side_readers
    from toolkit.draft.hexsides import read_hexside

    m = load_game("a-victory-denied").main_map
    size, fill = 61.205, (240, 237, 220)
    sampler = _Recorded(SMOLENSK_DNIEPER, IDENTITY, size, ((1497.74, 640.58), (1533.08, 640.27)), (1515.68, 671.03),
                        [(1490.28, 624.78, 1555.74, 638.17), (1505.77, 650.7, 1525.38, 658.81)])
    sides, alphas, shapes = side_readers(m, Theme.default(), size, IDENTITY)
    side = m.grid.parse_hexside("3628/3728")
    found, _, sure, others = read_hexside(sampler, side, sides, alphas, size, fill, fill, (), GRID, shapes)
    assert found[0] == "major_river" and sure < 0.5 and others == ("minor_river",)
    # the same band with no name beside it is what its widths say (narrower at one end than
    # the other, as a river's band never is: unsure)
    sampler.boxes = []
    found, _, sure, _ = read_hexside(sampler, side, sides, alphas, size, fill, fill, (), GRID, shapes)
    assert found[0] == "minor_river"


# Demyansk's river (2710/2711) blurred: it curves away under the bridge of the road into the town
# and the name Demyansk covers the side's other end; two samples near its corner are clear of both
# (pixels -9..9 across it, 2710 on the -9 side)
DEMYANSK_POLA = {
    0.15: [(226, 222, 211), (233, 227, 214), (223, 219, 208), (190, 195, 193), (129, 153, 171), (76, 119, 161), (57, 113, 171), (54, 117, 179), (55, 113, 172), (72, 118, 162), (129, 157, 172), (196, 208, 194), (230, 234, 207), (237, 239, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211), (238, 240, 211)],
    0.2: [(223, 218, 207), (233, 227, 213), (232, 226, 211), (222, 219, 205), (186, 193, 191), (122, 148, 171), (71, 118, 164), (56, 115, 176), (54, 114, 177), (57, 110, 163), (92, 130, 161), (165, 184, 183), (218, 224, 203), (235, 237, 210), (236, 238, 210), (233, 235, 207), (228, 230, 203), (229, 231, 204), (234, 236, 208)],
    0.25: [(213, 210, 201), (229, 225, 212), (234, 228, 213), (228, 223, 209), (203, 203, 198), (144, 163, 177), (82, 123, 164), (57, 115, 173), (54, 115, 178), (55, 111, 166), (80, 123, 159), (145, 169, 176), (206, 215, 198), (231, 234, 207), (232, 234, 205), (220, 221, 194), (205, 206, 181), (209, 211, 185), (226, 228, 201)],
    0.3: [(196, 193, 189), (210, 207, 199), (226, 221, 209), (228, 223, 209), (215, 212, 200), (173, 181, 183), (106, 134, 161), (64, 110, 158), (54, 110, 167), (53, 107, 162), (59, 104, 146), (98, 127, 148), (161, 173, 168), (191, 194, 175), (181, 181, 161), (155, 155, 137), (153, 153, 136), (187, 186, 165), (217, 217, 191)],
    0.35: [(207, 203, 195), (201, 197, 190), (208, 202, 193), (197, 190, 179), (166, 156, 148), (133, 125, 121), (101, 98, 102), (79, 81, 92), (74, 79, 93), (79, 81, 95), (83, 80, 89), (90, 81, 86), (107, 91, 88), (117, 95, 88), (119, 92, 82), (126, 96, 85), (147, 113, 99), (159, 121, 106), (162, 120, 105)],
    0.4: [(193, 154, 144), (198, 158, 148), (189, 144, 134), (166, 111, 103), (146, 81, 73), (138, 67, 60), (139, 63, 56), (141, 60, 53), (142, 56, 50), (145, 54, 48), (148, 50, 44), (149, 47, 40), (150, 46, 39), (153, 48, 40), (157, 48, 40), (160, 49, 41), (163, 50, 42), (166, 50, 42), (168, 50, 42)],
    0.45: [(180, 95, 86), (189, 100, 91), (185, 91, 83), (173, 72, 65), (164, 57, 50), (162, 52, 44), (163, 51, 43), (166, 50, 42), (167, 49, 41), (168, 49, 41), (170, 48, 40), (171, 48, 40), (171, 48, 40), (172, 48, 40), (171, 48, 40), (171, 48, 40), (171, 48, 40), (169, 48, 40), (168, 50, 42)],
    0.5: [(167, 52, 44), (165, 53, 45), (162, 52, 44), (158, 49, 42), (151, 45, 38), (147, 43, 36), (144, 43, 37), (138, 42, 36), (130, 40, 36), (125, 41, 36), (119, 40, 37), (113, 39, 36), (110, 40, 36), (109, 43, 38), (105, 45, 39), (105, 49, 42), (116, 62, 54), (135, 87, 75), (153, 109, 95)],
    0.55: [(162, 119, 109), (160, 122, 112), (146, 112, 103), (120, 90, 83), (105, 80, 74), (105, 85, 80), (99, 85, 85), (76, 73, 85), (61, 69, 90), (57, 72, 98), (55, 73, 103), (61, 77, 101), (92, 101, 109), (137, 137, 129), (162, 159, 142), (157, 154, 138), (141, 139, 124), (149, 147, 131), (184, 183, 162)],
    0.6: [(199, 183, 169), (189, 174, 161), (160, 147, 137), (135, 125, 116), (143, 135, 125), (160, 154, 144), (148, 150, 149), (109, 126, 141), (82, 112, 141), (67, 106, 145), (59, 102, 146), (66, 104, 139), (111, 135, 149), (175, 184, 174), (209, 212, 189), (207, 209, 185), (185, 187, 166), (172, 173, 154), (190, 192, 169)],
    0.65: [(228, 221, 205), (211, 205, 191), (189, 184, 172), (193, 188, 176), (214, 208, 194), (225, 220, 205), (221, 218, 206), (204, 205, 198), (175, 180, 179), (136, 151, 157), (115, 144, 162), (96, 133, 162), (120, 150, 168), (186, 199, 191), (226, 231, 207), (236, 238, 210), (235, 237, 209), (233, 235, 206), (233, 235, 206)],
    0.7: [(233, 226, 210), (232, 225, 209), (228, 223, 209), (215, 211, 199), (193, 189, 180), (194, 191, 181), (201, 198, 187), (196, 193, 183), (185, 184, 174), (177, 179, 167), (183, 192, 181), (160, 179, 181), (137, 162, 172), (168, 185, 183), (213, 220, 201), (233, 236, 209), (238, 240, 211), (238, 240, 211), (238, 240, 211)],
    0.75: [(233, 226, 210), (233, 227, 211), (231, 225, 211), (207, 203, 193), (151, 149, 143), (107, 106, 102), (99, 98, 94), (120, 119, 114), (153, 152, 145), (183, 182, 171), (212, 213, 196), (213, 219, 201), (181, 196, 188), (159, 179, 180), (193, 205, 193), (226, 231, 206), (237, 239, 210), (238, 240, 211), (238, 240, 211)],
    0.8: [(233, 226, 210), (233, 227, 211), (230, 225, 211), (204, 201, 190), (145, 143, 136), (99, 98, 94), (89, 88, 85), (106, 105, 101), (131, 130, 124), (164, 163, 153), (206, 206, 190), (218, 222, 204), (186, 199, 191), (150, 172, 176), (177, 193, 186), (218, 225, 203), (235, 237, 209), (238, 240, 211), (238, 240, 211)],
    0.85: [(233, 226, 210), (233, 226, 211), (228, 222, 208), (198, 194, 184), (142, 140, 133), (117, 116, 111), (127, 125, 120), (142, 140, 134), (159, 158, 150), (182, 182, 169), (209, 212, 195), (205, 216, 203), (157, 182, 190), (106, 142, 170), (117, 149, 168), (176, 192, 188), (220, 226, 204), (235, 238, 209), (238, 240, 211)],
}


def test_a_side_a_name_and_a_bridge_hide_but_for_two_samples_is_read_on_those():
    """A side a name covers only in part, the rest under a bridge, is read on the two samples
    both leave clear (unsure: two samples are few), not taken as a side all under the name,
    which would be read as nothing and left to its course."""
    from toolkit.draft._sidereaders import side_readers
    from toolkit.draft.hexsides import read_hexside

    m = load_game("demyansk-shield").main_map
    sampler = _Recorded(DEMYANSK_POLA, IDENTITY, 60.0, ((977.31, 672.0), (942.67, 672.0)), (959.99, 642.0),
                        [(911.0, 670.0, 955.0, 681.0), (950.0, 616.0, 971.0, 625.0), (937.0, 688.0, 957.0, 696.0),
                         (971.69, 691.5, 981.89, 701.7)])
    sides, alphas, shapes = side_readers(m, Theme.default(), 60.0, IDENTITY)
    side = m.grid.parse_hexside("2710/2711")
    road = ((184, 50, 42),)
    found, _, sure, _ = read_hexside(sampler, side, sides, alphas, 60.0, (237, 239, 210), (221, 212, 199), road,
                                     GRID, shapes)
    assert found[0] == "river" and sure < 0.5
    # nothing on the two samples: as a side under the name, what shows through it offered
    found, _, sure, others = read_hexside(sampler, side, sides, alphas, 60.0, (237, 239, 210), (221, 212, 199),
                                          road, GRID, shapes, parted=False)
    assert found is None and sure < 0.5 and "river" in others
