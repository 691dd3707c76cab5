"""Import the bundled games' own modules and get the source data back (known answers)."""

from __future__ import annotations

from collections import Counter as Tally

import pytest
from importer_fixtures import BUNDLED, round_trip  # noqa: F401 (a fixture)

FIELDS = ("name", "side", "kind", "type", "size", "formation", "unit_class", "steps", "back_kind", "front", "back")


@pytest.mark.parametrize("game_id", BUNDLED)
def test_grid_names_every_hex_as_the_source(round_trip, game_id):
    source, imported, _ = round_trip(game_id)
    by_name = {m.name: m for m in imported.maps.values()}
    assert set(by_name) == {m.name for m in source.maps.values()}   # every map (Grossdeutschland has four)
    for source_map in source.maps.values():
        src, imp = source_map.grid, by_name[source_map.name].grid
        assert set(src) <= set(imp)
        assert all(imp.format(h) == src.format(h) for h in src)
        assert all(imp.parse(src.format(h)) == h for h in src)
        # neighbours agree, so movement on the imported grid is the same
        assert all(set(imp.neighbours(h)) & set(src) == set(src.neighbours(h)) for h in src)


@pytest.mark.parametrize("game_id", BUNDLED)
def test_counters_come_back(round_trip, game_id):
    source, imported, _ = round_trip(game_id)
    assert set(imported.counters) == set(source.counters)
    for cid, counter in source.counters.items():
        got = imported.counters[cid]
        # hexforge's modules give a marker no Side property, so a marker's side cannot come back
        fields = [f for f in FIELDS if not (f == "side" and counter.is_marker)]
        assert {f: getattr(got, f) for f in fields} == {f: getattr(counter, f) for f in fields}, cid
        assert got.image and (imported.files["game"] and got.image.startswith("art/"))
    assert {s.id: s.name for s in imported.sides} == {s.id: s.name for s in source.sides}


def _hex_setup(game, scenario):
    """(unit, map name, hex name, state) of every placement on a hex, each on its own map."""
    maps = [game.maps[p.map or scenario.map] for p in scenario.setup]
    return Tally((u, m.name, m.grid.format(p.hex), p.state if p.state not in (None, "front", "full") else None)
                 for p, m in zip(scenario.setup, maps) if p.hex is not None for u in p.units)


@pytest.mark.parametrize("game_id", BUNDLED)
def test_setups_come_back(round_trip, game_id):
    source, imported, _ = round_trip(game_id)
    by_name = {s.name: s for s in imported.scenarios.values()}
    assert len(by_name) == len(source.scenarios)
    for scenario in source.scenarios.values():
        got = by_name[scenario.name]
        assert imported.maps[got.map].name == source.maps[scenario.map].name   # played on the same map
        expected = _hex_setup(source, scenario)
        placed = _hex_setup(imported, got)
        area = [(u, p.hexes) for p in scenario.setup if p.hexes and p.hex is None for u in p.units]
        # fixed placements exactly; an area placement anywhere in its area (the writer chose a hex)
        assert expected - placed == Tally()
        extra = placed - expected
        for unit, hexes in area:
            hit = next(k for k in extra if k[0] == unit and source.maps[scenario.map].grid.parse(k[2]) in hexes)
            extra[hit] -= 1
        assert +extra == Tally()
        boxes = {b.id: b.name for m in imported.maps.values() for b in m.boxes}
        src_boxes = {b.id: b.name for m in source.maps.values() for b in m.boxes}
        # a marker on the game's own turn track at turn N goes to the module's "Turn N" box
        in_boxes = Tally((u, f"Turn {p.state}" if str(p.state).isdigit() and "turn" in p.box else src_boxes[p.box])
                         for p in scenario.setup if p.box for u in p.units)
        got_boxes = Tally((u, boxes[p.box]) for p in got.setup if p.box for u in p.units)
        assert in_boxes - got_boxes == Tally()


def test_import_report_lists_what_did_not_map(round_trip):
    _, _, result = round_trip("tutorial")
    text = (result.folder / "import-report.txt").read_text()
    assert "module.turn.TurnTracker" in text and "DiceButton" in text


@pytest.mark.parametrize("game_id", [g for g in BUNDLED if g in ("a-victory-denied", "grossdeutschland")])
def test_decks_come_back(round_trip, game_id):
    source, imported, result = round_trip(game_id)
    assert source.decks, "the game has decks (chit cups)"
    boxes = {b.id: b.name for m in imported.maps.values() for b in m.boxes}
    src_boxes = {b.id: b.name for m in source.maps.values() for b in m.boxes}
    by_name = {d.name: d for d in imported.decks}
    assert set(by_name) == {d.name for d in source.decks}
    names = {d.id: d.name for d in source.decks}
    for deck in source.decks:
        got = by_name[deck.name]
        assert got.counters == deck.counters   # the chits are the source's counters, in order
        assert all(imported.counters[c].count == source.counters[c].count for c in deck.counters)
        assert (got.face_down, got.draw_face_up, got.shuffle) == (deck.face_down, deck.draw_face_up, deck.shuffle)
        assert got.return_command == deck.return_command
        assert (by_name_of(imported, got.send_to) if got.send_to else None) == names.get(deck.send_to)
        if deck.box is not None:
            assert boxes[got.box] == src_boxes[deck.box]
    assert any(line.startswith(f"deck {source.decks[0].name!r}") for line in result.report)


def by_name_of(game, deck_id):
    return next(d.name for d in game.decks if d.id == deck_id)
