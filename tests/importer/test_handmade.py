"""Modules hexforge did not write import too: sideways grids, other numbering, several boards."""

from __future__ import annotations

import re
import zipfile

import pytest
from handmade import B, basic, board, hexgrid, module, png, slot, vmap, zones

from toolkit.errors import DataError, UnsafeInputError
from toolkit.importer import import_vmod
from toolkit.io import load_game
from toolkit.validate import validate_game
from toolkit.vassal.encoding import ESC, Trait, add_piece, encode
from toolkit.vassal.grid import VassalHexGrid
from toolkit.vassal.pieces import basic_piece, layer, marker, prototype

NORTH = dict(dx=40.0, dy=46.0, x0=23, y0=20, sideways=True, hOff="0", vOff="0")
SOUTH = dict(dx=45.0, dy=52.0, x0=30, y0=26, sep=".", stagger="false", hOff="0", vOff="0")


def _grid(spec, width, height):
    spec = dict(spec)
    grid = {k: str(spec.pop(k)).lower() if k == "sideways" else str(spec.pop(k))
            for k in ("dx", "dy", "x0", "y0", "sideways") if k in spec}
    return VassalHexGrid.from_attributes(grid, spec, width, height)


def _hexgrid(spec):
    spec = dict(spec)
    return hexgrid(spec.pop("dx"), spec.pop("dy"), spec.pop("x0"), spec.pop("y0"),
                   sideways=spec.pop("sideways", False), **spec)


def _piece(pid: str, traits, map_name: str, x: int, y: int, gpid: int) -> str:
    basic = traits[-1]
    placed = Trait(basic.type, encode([map_name, x, y, gpid, 0], ";"))
    return add_piece(pid, list(traits[:-1]) + [placed])


@pytest.fixture
def handmade(tmp_path):
    tanks = [prototype("Blue unit"), layer(["tank.png", "tank_b.png"], ["", ""]), marker({"attack": 5}),
             basic_piece("", "Tanks")]
    rifles = [basic_piece("rifles.png", "Rifles")]  # no prototype, no Layer, no properties
    maps = (vmap("Front", board("North", "north.png", _hexgrid(NORTH)) + board("South", "south.png", _hexgrid(SOUTH)))
            + vmap("Boxes", board("Holding", "boxes.png", zones(("Reserve", "0,0;150,0;150,100;0,100"),
                                                              ("Dead", "150,0;300,0;300,100;150,100")))))
    from toolkit.vassal.buildfile import _piece_text
    palette = (f'<{B}widget.PanelWidget entryName="Red" nColumns="4">{slot("Rifles", 1, _piece_text(rifles))}'
               f'</{B}widget.PanelWidget><{B}widget.ListWidget entryName="Blue">'
               f'{slot("Tanks", 2, _piece_text(tanks))}</{B}widget.ListWidget>')
    protos = (f'<{B}module.PrototypeDefinition description="" name="Blue unit">'
              f'{_piece_text([marker({"Side": "Blue"}), basic_piece("", "")])}</{B}module.PrototypeDefinition>')
    north, south = _grid(NORTH, 420, 300), _grid(SOUTH, 400, 260)
    n_centre = north.centre(3, 2)
    s_centre = south.centre(4, 3)
    commands = ["begin_save",
                _piece("p1", rifles, "Front", n_centre[0], n_centre[1], 1),
                _piece("p2", tanks, "Front", s_centre[0], s_centre[1] + 300, 2),  # South is below North
                _piece("p3", [Trait(t.type, "2") if t.id == "emb2;" else t for t in tanks], "Boxes", 40, 50, 2),
                "FrontBoardPicker\tNorth\t0\t0\tSouth\t0\t1", "end_save"]
    images = {"north.png": png(420, 300), "south.png": png(400, 260), "boxes.png": png(300, 100),
              "rifles.png": png(60, 60), "tank.png": png(48, 64), "tank_b.png": png(48, 64)}
    path = module(tmp_path / "hand.vmod", maps, palette, prototypes=protos, images=images,
                  setups={"Opening": encode(commands, ESC)})
    return path, north, south, n_centre, s_centre


def test_a_module_from_the_editor_imports(handmade, tmp_path):
    path, north, south, n_centre, s_centre = handmade
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    assert set(game.maps) == {"north", "south"}
    n, s = game.maps["north"], game.maps["south"]
    assert n.grid.orientation == "pointy" and s.grid.orientation == "flat"
    assert s.grid.numbering.separator == "."
    # every hex is named as VASSAL names it, on both boards
    layout = n.image.layout(n.grid)
    for hex in n.grid:
        x, y = layout.center(hex)
        if 0 <= x < 420 and 0 <= y < 300:
            assert north.label(*north.snap(x, y)) == n.grid.format(hex)
    assert (tmp_path / "game" / "maps" / n.image.file).is_file()
    # counters: no prototype (its side from its palette folder), and a two-faced one with a side and a value from its prototype
    rifles, tanks = game.counters["rifles"], game.counters["tanks"]
    assert rifles.side == "red" and rifles.image == "art/rifles.png" and rifles.back_image is None
    assert tanks.side == "blue" and tanks.front == {"attack": 5} and tanks.back_image == "art/tank_b.png"
    assert {side.id for side in game.sides} == {"red", "blue"}
    # the setup: one piece per board (the second board lies below the first) and one in a zone
    [scenario] = game.scenarios.values()
    where = {(u, p.map or scenario.map, p.hex and game.maps[p.map or scenario.map].format(p.hex), p.box, p.state)
             for p in scenario.setup for u in p.units}
    assert where == {("rifles", "north", north.label(*n_centre), None, None),
                     ("tanks", "south", south.label(*s_centre), None, None),
                     ("tanks", "north", None, "reserve", "reduced")}
    assert game.counters["tanks"].count == 2
    assert any("DiceButton" in line for line in result.report)
    report = validate_game(game)  # the imported game is read by the validator (terrain is still empty)
    assert any(f.code == "hex-without-terrain" for f in report.findings)


def test_a_numbering_hexforge_cannot_write_is_reported_not_renamed(tmp_path):
    maps = vmap("Front", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23, vType="A")))
    path = module(tmp_path / "m.vmod", maps, "", images={"a.png": png(300, 200)})
    with pytest.raises(DataError, match="no board with a hex grid"):
        import_vmod(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("content, error", [
    (b"not a zip", "not a zip archive"),
    ({"moduledata": "<data/>"}, "no buildFile"),
    ({"buildFile.xml": "<VASSAL.build.GameModule"}, "malformed XML"),
    ({"buildFile.xml": '<!DOCTYPE x [<!ENTITY a "b">]><x/>'}, "DOCTYPE"),
    ({"../evil.xml": "x", "buildFile.xml": "<x/>"}, "outside the archive"),
])
def test_malformed_modules_fail_clearly(tmp_path, content, error):
    path = tmp_path / "bad.vmod"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        with zipfile.ZipFile(path, "w") as zf:
            for name, text in content.items():
                zf.writestr(name, text)
    with pytest.raises((DataError, UnsafeInputError), match=error):
        import_vmod(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_existing_folder_is_not_overwritten(handmade, tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "keep.txt").write_text("mine")
    with pytest.raises(DataError, match="not empty"):
        import_vmod(handmade[0], tmp_path / "game")
    assert (tmp_path / "game" / "keep.txt").read_text() == "mine"


def _editor_module_with_a_deck(tmp_path):
    """Two boards on one map (a sideways grid and a flat one numbered from 0 with a separator),
    a zones-only board, pieces without prototypes, and a deck of cards with a Mask, which the
    set-up holds in a Deck (a piece whose innermost member is not a BasicPiece)."""
    rifles = [basic_piece("rifles.png", "Rifles")]
    from toolkit.vassal.pieces import obscurable, return_to_deck
    card = [obscurable("back.png", "Event"), return_to_deck("Discard", "Events"), basic_piece("card.png", "Ambush")]
    other = [obscurable("back.png", "Event"), return_to_deck("Discard", "Events"), basic_piece("card2.png", "Rain")]
    from toolkit.vassal.buildfile import _piece_text
    pile = (f'<{B}module.map.DrawPile faceDown="Always" name="Events" owningBoard="Holding" reshufflable="false" '
            f'shuffle="Always" drawFaceUp="false" x="50" y="50">'
            + "".join(f'<{B}widget.CardSlot entryName="{n}" gpid="{g}" height="80" width="60">{_x(_piece_text(t))}'
                      f'</{B}widget.CardSlot>' for n, g, t in (("Ambush", 5, card), ("Ambush", 6, card),
                                                                  ("Rain", 7, other)))
            + f'</{B}module.map.DrawPile>')
    maps = (vmap("Front", board("North", "north.png", _hexgrid(NORTH)) + board("South", "south.png", _hexgrid(SOUTH)))
            + vmap("Boxes", board("Holding", "boxes.png", zones(("Reserve", "0,0;150,0;150,100;0,100"))), extra=pile))
    north = _grid(NORTH, 420, 300)
    at = north.centre(2, 2)
    commands = ["begin_save", _piece("p1", rifles, "Front", at[0], at[1], 1),
                _piece("c1", card, "Boxes", 50, 50, 5), _piece("c2", card, "Boxes", 50, 50, 6),
                _piece("c3", other, "Boxes", 50, 50, 7),
                "+/d1/deck;false;255,255,255;60;80;Always;Always;false;false;false;;;;Events/Boxes;50;50;true;c1,c2,c3",
                "FrontBoardPicker\tNorth\t0\t0\tSouth\t0\t1", "end_save"]
    images = {"north.png": png(420, 300), "south.png": png(400, 260), "boxes.png": png(300, 100),
              "rifles.png": png(60, 60), "card.png": png(60, 80, (250, 240, 200)),
              "card2.png": png(60, 80, (200, 240, 250)), "back.png": png(60, 80, (90, 30, 30))}
    path = module(tmp_path / "deck.vmod", maps, slot("Rifles", 1, _piece_text(rifles)), images=images,
                  setups={"Opening": encode(commands, ESC)})
    return path, north.label(*at)


def _x(text):
    from xml.sax.saxutils import escape
    return escape(text)


def test_an_editor_module_with_a_deck_imports_validates_and_builds_back(tmp_path, capsys):
    from toolkit.cli import main
    from toolkit.vassal import inspect

    def run(*args):
        with pytest.raises(SystemExit) as info:
            main(list(args))
        out, err = capsys.readouterr()
        return info.value.code, out, err

    path, rifles_at = _editor_module_with_a_deck(tmp_path)
    assert inspect(path)["problems"] == []      # a Deck in the set-up is no problem
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    [deck] = game.decks
    assert (deck.name, deck.counters, deck.face_down, deck.shuffle) == ("Events", ("ambush", "rain"), True, "always")
    assert deck.box == "reserve" and deck.return_command == "Discard"   # it sits in the zone; cards return to it
    ambush = game.counters["ambush"]
    assert (ambush.kind, ambush.count, ambush.image, ambush.back_image) == ("chit", 2, "art/card.png", "art/back.png")
    [scenario] = game.scenarios.values()
    assert [(p.units, game.maps[p.map or scenario.map].format(p.hex)) for p in scenario.setup] == [
        (("rifles",), rifles_at)]   # the cards stay in their deck
    assert any("3 cards in 1 decks" in line for line in result.report)
    # terrain from the board pictures (one colour: all clear), then validate and build a module
    for map_id, game_map in game.maps.items():
        first = game_map.format(next(iter(game_map.grid)))
        code, out, err = run("terrain", "draft", str(tmp_path / "game"), "--map", map_id, "--learn", f"{first}=clear")
        assert code == 0, err
    code, out, err = run("validate", str(tmp_path / "game"))
    # read without a traceback; what is left is for the user: costs, sides and the partial hexes
    # at the boards' edges the drafter could not see
    codes = set(re.findall(r"error: .*\((\S+)\)$", out, re.M))
    assert code == 1 and err == "" and codes <= {"hex-without-terrain", "tec-gap", "missing-side"}, out
    _fix_by_hand(tmp_path / "game")
    code, out, err = run("validate", str(tmp_path / "game"))
    assert code == 0, out
    code, out, err = run("build", str(tmp_path / "game"), "--out", str(tmp_path / "build"), "-q")
    assert code == 0, err
    [rebuilt] = (tmp_path / "build").glob("*/*.vmod")
    assert not (rebuilt.parent / "referee").exists()   # no ruleset yet: map, counters, sheets and module
    report = inspect(rebuilt)
    assert report["problems"] == []
    [events] = [d for d in report["decks"] if d["name"] == "Events"]
    assert sorted(events["cards"]) == ["Ambush", "Ambush", "Rain"]
    [setup] = report["setups"]
    assert [p["hex"] for p in setup["pieces"] if p["name"] == "Rifles"] == [rifles_at]


def test_inspect_names_hexes_on_every_board_of_a_map(handmade):
    # the set-up's BoardPicker puts South below North: a piece there is on South's grid
    from toolkit.vassal import inspect
    path, north, south, n_centre, s_centre = handmade
    [setup] = inspect(path)["setups"]
    where = {p["id"]: p.get("hex") or p.get("zone") for p in setup["pieces"]}
    assert where == {"p1": north.label(*n_centre), "p2": south.label(*s_centre), "p3": "Reserve"}


def _fix_by_hand(folder):
    """What the user does after the draft (from-a-module.md, step 3): a movement cost for the
    learned terrain, terrain for the partial hexes at the boards' edges, the unit's side."""
    import yaml
    game = load_game(str(folder))
    for map_id, game_map in game.maps.items():
        path = folder / "maps" / f"{map_id}.yaml"
        data = yaml.safe_load(path.read_text())
        data["terrain_types"]["clear"]["move"] = {"*": 1}
        data["terrain"] += [{"hex": game_map.format(h), "terrain": "clear", "estimated": "by eye"}
                            for h in game_map.grid if game_map.terrain(h) is None]
        path.write_text(yaml.safe_dump(data, sort_keys=False))
    csv = folder / "counters.csv"
    csv.write_text(csv.read_text().replace("\nrifles,,", "\nrifles,red,"))
