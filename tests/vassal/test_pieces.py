"""Pieces: step faces, multi-level Layers with their commands and reports, cadres."""

from dataclasses import replace

import pytest

from toolkit.io import load_game
from toolkit.vassal.encoding import decode
from toolkit.vassal.pieces import (FLIP, MULTI_STEP_PROTOTYPE, STEP_GAIN, STEP_PROTOTYPE, cadre_of, counter_piece,
                                   image_names, prototypes, step_faces)


@pytest.fixture(scope="module")
def luki():
    return load_game("velikiye-luki")


def _layer_fields(design):
    [trait] = [t for t in design.traits if t.id == "emb2;"]
    return decode(trait.type[len("emb2;"):], ";")


def test_faces_follow_the_steps(luki, tutorial):
    assert step_faces(luki.counters["dfg21"]) == ("front", "back", "cadre")
    assert step_faces(luki.counters["klatt"]) == ("front", "back")
    assert step_faces(luki.counters["cadre-b"]) == ("front",)
    assert step_faces(tutorial.counters["r-12"]) == ("front",)
    names = image_names(list(luki.counters.values()))
    assert names["dfg21"] == ("c_dfg21.png", "c_dfg21_back.png", "c_dfg21_cadre.png")
    assert all(len(set(v)) == len(v) for v in names.values())
    assert len({n for v in names.values() for n in v}) == sum(len(v) for v in names.values())


def test_a_division_is_replaced_by_the_cadre_of_its_quality(luki):
    assert cadre_of(luki, luki.counters["dfg21"]).id == "cadre-b"   # quality B
    assert cadre_of(luki, luki.counters["df381"]).id == "cadre-c"   # quality C
    assert cadre_of(luki, luki.counters["klatt"]) is None           # two steps: no cadre


def test_three_step_layer_has_three_levels_no_loop_and_a_decrease(luki):
    counter = luki.counters["dfg21"]
    images = ("a.png", "b.png", "c.png")
    design = counter_piece(counter, images, cadre_of(luki, counter))
    fields = _layer_fields(design)
    assert decode(fields[15], ",") == list(images)
    assert decode(fields[16], ",") == ["", "+ (reduced)", "+ (cadre)"]
    assert fields[17] == "false"                                  # loopLevels: a cadre does not flip back
    assert (fields[3], fields[27]) == ("Lose a step", FLIP)       # upCommand, increaseKeyStroke
    assert (fields[6], fields[28]) == ("Regain a step", STEP_GAIN)  # downCommand, decreaseKeyStroke
    assert len(fields) == 33
    assert [design.level(s) for s in (None, "full", "reduced", "cadre")] == [None, 1, 2, 3]
    names = [decode(t.type[len("prototype;"):], ";")[0] for t in design.traits if t.id == "prototype;"]
    assert MULTI_STEP_PROTOTYPE in names and STEP_PROTOTYPE not in names
    marker = next(t for t in design.traits if t.id == "mark;" and "CadreId" in t.type)
    props = dict(zip(decode(marker.type[len("mark;"):], ","), decode(marker.state, ",")))
    assert (props["CadreId"], props["cadre_combat"], props["cadre_quality"]) == ("cadre-b", "2", "B")


def test_two_sided_layer_still_flips_in_a_loop(luki):
    design = counter_piece(luki.counters["klatt"], ("a.png", "b.png"))
    fields = _layer_fields(design)
    assert fields[17] == "true" and fields[27] == FLIP and fields[28] == ""
    assert design.level("cadre") is None and design.level("front") == 1 and design.level("reduced") == 2
    assert design.level("overcast") is None
    with pytest.raises(ValueError, match="3 faces but 2 images"):
        counter_piece(luki.counters["dfg21"], ("a.png", "b.png"))


def test_multi_step_prototype_reports_both_commands(luki, tutorial):
    protos = prototypes(luki, dead_map="Boxes", dead_zone="Dead", px=75)
    reports = [decode(t.type[len("report;"):], ";") for t in protos[MULTI_STEP_PROTOTYPE] if t.id == "report;"]
    assert [decode(r[0], ",") for r in reports] == [[FLIP], [STEP_GAIN]]  # one keystroke each
    assert all("$oldPieceName$" in r[1] and "$newPieceName$" in r[1] for r in reports)
    assert MULTI_STEP_PROTOTYPE not in prototypes(tutorial, dead_map="Boxes", dead_zone="Dead", px=75)


def test_a_one_step_counter_has_no_layer(luki):
    design = counter_piece(replace(luki.counters["cadre-b"]), ("x.png",))
    assert not [t for t in design.traits if t.id == "emb2;"] and design.level("reduced") is None
