"""The bundled Grossdeutschland data: clean, the text's hexes as the text says, set-ups legal."""

from __future__ import annotations

import pytest

from toolkit.game import SetupArea, area_hexes
from toolkit.hexes import Hexside
from toolkit.io import dump_map, load_map
from toolkit.referee import check_setup, legal_setup_hexes, position_from_scenario
from toolkit.validate import validate_game

from .helpers import h


def test_validates_clean(gd):
    report = validate_game(gd)
    assert report.findings == []


def test_four_maps_xxyy_odd_columns_lower(gd):
    assert set(gd.maps) == {"kursk", "akhtyrka", "mischurin-rog", "lutchessa"}
    for m in gd.maps.values():
        assert m.grid.shifted == "odd" and m.grid.format(h("0405")) == "0405"
        assert m.unit_classes == ("leg", "tracked", "wheeled")
    # the notes' parity evidence: the Main Bridge and Borodayevka are contiguous
    mr = gd.maps["mischurin-rog"].grid
    assert mr.adjacent(h("4047"), h("4147")) and mr.adjacent(h("4147"), h("4248"))
    assert mr.adjacent(h("3551"), h("3552")) and mr.adjacent(h("3551"), h("3651"))
    assert mr.adjacent(h("3552"), h("3653"))


def test_the_hexes_the_text_names(gd):
    ak = gd.maps["akhtyrka"]
    for t in "3502 3602 3603 3702 3802 3803 3804 3902".split():
        assert ak.terrain(h(t)) == "downtown" and ak.hexes[h(t)].source.rule == "19.4"
    assert "river" in ak.hexside_codes(Hexside.of(h("4613"), h("4614")))                 # 19.4
    mr = gd.maps["mischurin-rog"]
    assert all(mr.terrain(h(t)) == "major_river" for t in ("4047", "4147", "4248"))
    assert any(ln.name == "Main Bridge road" for ln in mr.lines)
    assert {v.points for v in mr.victory if v.hex in (h("4047"), h("4147"), h("4248"))} == {3}   # 20.3, A13
    woods = gd.maps["kursk"].terrain_types["woods"]
    assert woods.move_ma == {"tracked": "H", "wheeled": "ALL"} and woods.move.lookup("leg", "sunny")[1] == 2


def test_h_and_all_round_trip(gd, tmp_path):
    m = gd.maps["lutchessa"]
    out = tmp_path / "lutchessa.yaml"
    dump_map(m, str(out))
    assert load_map(str(out)) == m


def test_north_of_the_pena(gd):
    k = gd.maps["kursk"]
    north = area_hexes(SetupArea(side_of=("north", "Pena River")), k)
    assert h("2135") in north and h("1742") in north                  # Ssyrzewo, Werchopenje
    assert not {h("2328"), h("2428"), h("3249")} & north              # Luchanio, Alexejewka


@pytest.mark.parametrize("scenario", ["kursk", "akhtyrka", "mischurin-rog", "lutchessa-valley"])
def test_bundled_set_ups_are_legal(gd, scenario):
    pos = position_from_scenario(gd, scenario)
    assert check_setup(pos) == []
    s = gd.scenarios[scenario]
    assert s.options["activation_chits"] and s.options["event_cups"]
    assert all(p.area is not None for p in s.setup if p.hex is not None)


def test_the_activation_cup_holds_every_scenarios_chits(gd):
    """2.5, 3.4: the module's one activation cup has a CardSlot for each scenario's chits; each
    scenario's set-up then starts the cup with its own (``decks:``, tests/vassal/test_deck_state.py)."""
    cup = next(d for d in gd.decks if d.id == "activation-cup")
    for scenario in gd.scenarios.values():
        chits = scenario.options["activation_chits"]
        assert len(set(chits)) == len(chits) and set(chits) <= set(cup.counters), scenario.id
        activation = [e for e in scenario.decks if e.deck in ("activation-cup", "activation-discard")]
        listed = [c for entry in activation for c in entry.counters]
        assert sorted(listed) == sorted(chits), scenario.id          # every chit of the scenario, once
        cups = scenario.options["event_cups"]
        for side, mix in cups.items():                               # 18.2-21.2, as the options say
            entries = [e for e in scenario.decks if e.deck == f"{side}-event-cup"]
            assert sorted(e.pick for e in entries) == sorted([mix["blue"], mix["red"], mix["random_black"]])
            [held] = [e for e in scenario.decks if e.box == f"{side}-black-chits"]
            assert list(held.counters) == mix["black_allotment"]
            assert not set(held.counters) & {c for e in entries for c in e.counters}
    assert set(cup.counters) == {c for s in gd.scenarios.values() for c in s.options["activation_chits"]}


def test_set_up_areas_of_the_kursk_table(gd):
    pos = position_from_scenario(gd, "kursk")
    _, tanks = legal_setup_hexes(pos, "s-2tk-1-t-34")                # within 3 hexes of 2743
    assert len(tanks) == 37 and h("2743") in tanks
    entry, luchanio = legal_setup_hexes(pos, "g-1fus-hq")             # in any Luchanio hex
    assert luchanio == {h("2328"), h("2428")} and entry.rule == "OOB 18"
    depleted = [p for p in gd.scenarios["kursk"].setup if p.state == "reduced"]
    assert sorted(u for p in depleted for u in p.units) == ["g-1pz-1k", "g-1pz-2k", "g-1pz-3k"]   # 18.4


def test_the_counter_values_the_text_gives(gd):
    units = [c for c in gd.counters.values() if c.kind in ("unit", "hq")]
    assert len(units) == 199 and sum(c.side == "german" for c in units) == 110
    flak = gd.counters["g-flak-88"]
    assert (flak.front["attack"], flak.front["defence"], flak.front["movement"], flak.back["defence"]) == (2, 9, 8, 5)
    apathy = gd.counters["ev-g-red-apathy"]
    assert apathy.front["attack"] == "+2" and apathy.source.rule == "10.3" and "Accurate Fire" in apathy.note
    assert gd.counters["s-2mot-hq"].band == gd.counters["s-2mot-1"].band                    # errata, 2.0
    assert all(c.back_kind == "fired" for c in units if "range" in c.front)                # 10.2
    assert {c.unit_class for c in units} == {"leg", "tracked", "wheeled"}
