"""The game's data: the hex ids the text gives land where it says (3.4, 3.14, 10.2.2, 11.1.2),
the map and counters are complete, the decks hold what 3.5 and 3.8 put in the cups."""

from __future__ import annotations

from toolkit.hexes import Hex
from toolkit.validate import validate_game


def places(game):
    return {p.name: p.hex for p in game.main_map.places}


def test_the_texts_hex_ids_are_where_the_text_puts_them(game):
    m = game.main_map
    at = places(game)
    parse = m.grid.parse
    assert at["Vitebsk"] == parse("3919") and at["Bobruysk"] == parse("2110")      # 3.4
    assert {v.hex for v in m.victory} >= {parse("3919"), parse("2110")}            # Victory Hexes (3.4)
    source = next(s for s in m.supply if s.side == "soviet" and s.hexes)
    assert source.hexes == (parse("1517"),) and source.turns == (None, 4)           # 10.2.2: ignored after turn 4
    assert not source.active(5) and source.active(4)
    # orientation settled from the ids: the first pair grows northward, the second eastward
    x, y = m.grid.parse("3919"), m.grid.parse("2110")
    assert x == Hex(col=19, row=39) and y == Hex(col=10, row=21)
    from toolkit.hexes import Layout
    layout = Layout.fit(m.grid, 50)
    (vx, vy), (bx, by) = layout.center(x), layout.center(y)
    assert vy < by and vx > bx          # Vitebsk is north (up) and east (right) of Bobruysk
    assert layout.center(parse("3902"))[0] < layout.center(parse("3106"))[0] < bx   # entries west of Bobruysk


def test_entry_hexes_are_road_hexes_next_to_the_minsk_pocket(game):
    m = game.main_map
    on_road = {h for line in m.lines if line.code == "road" for h in line.hexes}
    for text in ("3902", "3106", "2704"):                                          # 3.14, 11.1.2
        h = m.grid.parse(text)
        assert h in on_road, text
        assert "minsk_pocket" not in m.features(h)
        assert any("minsk_pocket" in m.features(n) for n in m.grid.neighbours(h) if n in m.grid), text
    pocket = [h for h in m.grid if "minsk_pocket" in m.features(h)]
    assert places(game)["Minsk"] in pocket


def test_three_moscow_hexes_and_rivers_of_both_widths(game):
    m = game.main_map
    moscow = [h for h in m.grid if "moscow" in m.features(h)]
    assert len(moscow) == 3 and all(h.col == m.grid.last_col for h in moscow)     # 16.1, the east edge
    codes = {f.code for fs in m.hexsides.values() for f in fs}
    assert codes == {"minor_river", "major_river"}
    assert m.hexside_types["major_river"].blocks_supply                            # 10.2.2


def test_every_estimate_is_marked_and_the_game_validates_clean(game):
    report = validate_game(game)
    assert report.ok and not report.warnings
    prov = report.provenance
    assert prov["counters"]["unsourced"] == 0 and prov["map main: hexes"]["unsourced"] == 0
    assert prov["scenario campaign: placements"]["unsourced"] == 0


def test_counters_the_text_names(game):
    c = game.counters
    reich = c["g-ssreich"]
    assert (reich.front["attack"], reich.front["defence"], reich.front["movement"]) == (8, 8, 10)   # 2.2.2
    assert (reich.back["attack"], reich.back["defence"]) == (7, 7)
    assert c["c-9a"].count == 3                                                    # 7.1.1
    assert c["s-hq-22a"].front["command"] == 4                                     # 7.2 example
    stars = [x for x in c.values() if x.front.get("reinf") == "*"]
    assert len(stars) == 6                                                         # 3.13
    red_at_start = {"s-1mrd", "s-172id", "s-187id"}                                # 3.2
    assert all("red" in c[i].marks for i in red_at_start)
    assert len([x for x in c.values() if x.type == "pvo"]) == 14                   # 5 + turns 1-9 (3.2, 3.8)
    assert [x.count for x in c.values() if x.type == "stuka"] == [3]               # 3.12


def test_decks_hold_the_cups(game):
    decks = {d.id: d for d in game.decks}
    assert set(decks["chit-cup"].counters) == {"c-air", "c-supply", "c-reinf"}    # 3.5 (no ART on turn 1)
    elite = [game.counters[i] for i in decks["elite-cup"].counters]
    assert elite and all("red" in x.marks and x.type != "pvo" for x in elite)    # 3.8
    setup = {u for p in game.scenario().setup for u in p.units}
    assert not setup & set(decks["elite-cup"].counters)
    assert all(decks[d].face_down for d in decks)
