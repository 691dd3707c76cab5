"""What public module sources showed the importer, written by hand the way VASSAL's editor
writes it (the sources carry no licence, so none is kept): at-start stacks in map folders
(Kassala), sides named by palette folders and "Unit Side" properties (Kassala, Vive
l'Empereur), maps inside chart windows (The Longest Day), modules with no hex grid at all
(Fields of Fire, For the People, Paths of Glory)."""

from __future__ import annotations

import pytest
from handmade import B, basic, board, hexgrid, module, png, slot, vmap, zones

from toolkit.errors import DataError
from toolkit.importer import import_vmod
from toolkit.io import load_game
from toolkit.vassal import inspect
from toolkit.vassal.grid import VassalHexGrid

GRID = dict(dx="60.0", dy="70.0", x0="40", y0="35", sideways="false")


def _vassal_grid(width=400, height=300):
    numbering = {"hOff": "1", "vOff": "1", "hLeading": "1", "vLeading": "1", "stagger": "true", "first": "H",
                 "sep": "", "hType": "N", "vType": "N", "hDescend": "false", "vDescend": "false"}
    return VassalHexGrid.from_attributes(GRID, numbering, width, height)


def _stack(name: str, x: int, y: int, *pieces: str, board_name: str | None = "Kassala") -> str:
    owner = f' owningBoard="{board_name}"' if board_name else ""
    return (f'<{B}module.map.SetupStack name="{name}"{owner} useGridLocation="false" x="{x}" y="{y}">'
            + "".join(pieces) + f'</{B}module.map.SetupStack>')


def _folder(name: str, inner: str) -> str:
    return f'<{B}module.folder.MapSubFolder desc="" name="{name}">{inner}</{B}module.folder.MapSubFolder>'


def test_at_start_stacks_in_a_map_folder_are_placed_and_folders_are_not_reported(tmp_path):
    # Kassala keeps its 23 at-start stacks in two MapSubFolders: none was placed
    grid = _vassal_grid()
    at, other = grid.centre(2, 1), grid.centre(4, 2)
    gun = slot("Moslem_Cannon_1-0", 53, basic("gun.png", "Moslem_Cannon_1-0"))
    foot = slot("Christian_Infantry", 54, basic("foot.png", "Christian_Infantry"))
    stacks = (_folder("Moslem At-Start Stacks", _stack("Guns", *at, gun, gun.replace('gpid="53"', 'gpid="55"')))
              + _folder("Christian At-Start Stacks", _folder("Infantry", _stack("Foot", *other, foot))))
    maps = vmap("Main Map", board("Kassala", "map.png", hexgrid(60.0, 70.0, 40, 35)), extra=stacks)
    palette = (f'<{B}widget.ListWidget entryName="Moslem Units">{gun}</{B}widget.ListWidget>'
               f'<{B}widget.ListWidget entryName="Christian Units">{foot}</{B}widget.ListWidget>')
    path = module(tmp_path / "kassala.vmod", maps, palette, sides=("Moslems", "Christian"),
                  images={"map.png": png(400, 300), "gun.png": png(75, 64), "foot.png": png(75, 64)})
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    [scenario] = game.scenarios.values()
    placed = sorted((u, game.maps[scenario.map].format(p.hex)) for p in scenario.setup for u in p.units)
    assert placed == sorted([("moslem-cannon-1-0", grid.label(*at))] * 2
                            + [("christian-infantry", grid.label(*other))])
    assert game.counters["moslem-cannon-1-0"].count == 2
    # the palette folders "Moslem Units" and "Christian Units" name the roster's sides (a plural too:
    # The Longest Day's folder "German" holds the side "Germans")
    assert {c.id: c.side for c in game.counters.values()} == {"moslem-cannon-1-0": "moslems",
                                                              "christian-infantry": "christian"}
    assert not any("not placed" in line or "folder" in line for line in result.report), result.report


def test_a_side_property_with_another_name_gives_the_side(tmp_path):
    # Vive l'Empereur's prototypes carry "Unit Side" = France / Prussia
    french = slot("Soult", 1, "+/null/mark;Unit Side\tpiece;;;soult.png;Soult/France\tnull;0;0;;0")
    flip = slot("Flip", 2, "+/null/mark;Backside\tpiece;;;flip.png;Flip/red.png\tnull;0;0;;0")
    maps = vmap("Main Map", board("Map", "map.png", hexgrid(60.0, 70.0, 40, 35)))
    palette = f'<{B}widget.ListWidget entryName="Pieces">{french}{flip}</{B}widget.ListWidget>'
    path = module(tmp_path / "vle.vmod", maps, palette, sides=("Solitaire", "France", "Coalition"),
                  images={"map.png": png(400, 300), "soult.png": png(50, 50), "flip.png": png(50, 50)})
    import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    assert game.counters["soult"].side == "france"
    assert game.counters["flip"].side is None     # the other side of a counter is not a side


def test_maps_in_chart_windows_are_read_and_their_zones_become_boxes(tmp_path):
    # The Longest Day keeps nine displays as WidgetMaps in a chart window: the reader did not see them
    display = (f'<{B}module.ChartWindow name="Displays"><{B}widget.MapWidget entryName="Remnants">'
               f'<{B}widget.WidgetMap mapName="Allied Remnants" edgeHeight="0" edgeWidth="0">'
               f'<{B}module.map.BoardPicker>'
               + board("Allied Remnants", "remnants.png", zones(("Remnant box", "0,0;100,0;100,100;0,100")))
               + f'</{B}module.map.BoardPicker></{B}widget.WidgetMap></{B}widget.MapWidget></{B}module.ChartWindow>')
    maps = vmap("Normandy", board("Normandy", "map.png", hexgrid(60.0, 70.0, 40, 35))) + display
    path = module(tmp_path / "tld.vmod", maps, slot("Unit", 1, basic("unit.png", "Unit")),
                  images={"map.png": png(400, 300), "remnants.png": png(100, 100), "unit.png": png(50, 50)})
    report = inspect(path)
    assert [m["name"] for m in report["maps"]] == ["Normandy", "Allied Remnants"]
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    assert [b.name for b in game.maps["normandy"].boxes] == ["Remnant box"]
    assert not any("WidgetMap" in line or "MapWidget" in line for line in result.report), result.report


def test_a_module_without_a_hex_grid_says_what_its_boards_have(tmp_path):
    square = (f'<{B}module.map.boardPicker.board.SquareGrid color="0,0,0" cornersLegal="false" dotsVisible="false" '
              f'dx="50.0" dy="50.0" edgesLegal="false" range="Metric" snapTo="true" visible="true" x0="36" y0="36"/>')
    maps = (vmap("Main", board("Field", "a.png", square))
            + vmap("Boxes", board("Holding", "b.png", zones(("Reserve", "0,0;50,0;50,50;0,50")))))
    path = module(tmp_path / "square.vmod", maps, slot("Unit", 1, basic("", "Unit")),
                  images={"a.png": png(300, 300), "b.png": png(50, 50)})
    with pytest.raises(DataError, match=r"no board with a hex grid .*\(1 board: square grid; 1 board: zones only\)"):
        import_vmod(path, tmp_path / "game")
    assert not (tmp_path / "game").exists()


def test_an_at_start_stack_in_the_margin_is_reported_off_the_board(tmp_path):
    # Dreadball keeps each team's dice and cards beside the pitch, past the board's right edge
    grid = _vassal_grid()
    dice = slot("Dice", 1, basic("dice.png", "Dice"))
    stacks = _stack("Home dice", *grid.centre(2, 2), dice, board_name=None) + _stack("Away dice", 450, 100, dice,
                                                                                    board_name=None)
    maps = vmap("Main Map", board("Pitch", "map.png", hexgrid(60.0, 70.0, 40, 35)), edge=(60, 0), extra=stacks)
    path = module(tmp_path / "dreadball.vmod", maps, dice, images={"map.png": png(400, 300), "dice.png": png(40, 40)})
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    [scenario] = game.scenarios.values()
    assert [(p.units, game.maps[scenario.map].format(p.hex)) for p in scenario.setup] == [
        (("dice",), grid.label(*grid.centre(2, 2)))]   # a stack with no board: at the first board's origin
    assert "at-start stack 'Away dice': piece 'Dice' lies at 450,100, outside board 'Pitch' (400x300): not placed" \
        in result.report


def _zone(name: str, path: str, inner: str = "", fmt: str = "$gridLocation$") -> str:
    return (f'<{B}module.map.boardPicker.board.mapgrid.Zone highlightProperty="" locationFormat="{fmt}" name="{name}" '
            f'path="{path}" useHighlight="false" useParentGrid="false">{inner}'
            f'</{B}module.map.boardPicker.board.mapgrid.Zone>')


def test_a_hex_grid_inside_a_zone_is_the_map_and_a_bare_board_a_box(tmp_path):
    # Ragnarok (hex'n'counters template): the hex grid belongs to a zone "map" covering the hexes,
    # numbered within the zone's bounds (here descending), a track zone beside it; the heroes
    # wait on a "deployment" board with neither grid nor zones
    numbering = dict(sideways=True, hOff="0", vOff="0", vDescend="true")
    inner = hexgrid(50.0, 58.0, 21, 24, **numbering)
    zoned = (f'<{B}module.map.boardPicker.board.ZonedGrid>'
             + _zone("map", "10,10;400,10;400,300;10,300", inner) + _zone("Turn track", "420,10;500,10;500,300;420,300")
             + f'</{B}module.map.boardPicker.board.ZonedGrid>')
    spec = {"dx": "50.0", "dy": "58.0", "x0": "21", "y0": "24", "sideways": "true"}
    num = {"hOff": "0", "vOff": "0", "vDescend": "true", "hLeading": "1", "vLeading": "1", "stagger": "true"}
    grid = VassalHexGrid.from_attributes(spec, num, 390, 290)   # numbered within the zone's 390x290 bounds
    at = grid.centre(3, 2)
    from toolkit.vassal.encoding import ESC, Trait, add_piece, encode
    hero = [Trait("piece;;;hero.png;Odin", "")]
    commands = ["begin_save", add_piece("h1", [Trait(hero[0].type, f"Main Map;{at[0]};{at[1]};1;0")]),
                add_piece("h2", [Trait(hero[0].type, "deployment;50;60;1;0")]),
                add_piece("h3", [Trait(hero[0].type, "Main Map;450;100;1;0")]), "end_save"]
    maps = (vmap("Main Map", board("Map", "map.png", zoned)) + vmap("deployment", board("deployment", "", "")))
    path = module(tmp_path / "ragnarok.vmod", maps, slot("Odin", 1, basic("hero.png", "Odin")),
                  images={"map.png": png(520, 320), "hero.png": png(50, 50)}, setups={"At Start": encode(commands, ESC)})
    [setup] = inspect(path)["setups"]
    assert {p["id"]: p.get("hex") or p.get("zone") for p in setup["pieces"]} == {
        "h1": grid.label(*at), "h2": None, "h3": "Turn track"}
    result = import_vmod(path, tmp_path / "game")
    game = load_game(str(tmp_path / "game"))
    [m] = game.maps.values()
    lay = m.image.layout(m.grid)
    for hex in m.grid:   # every hex of the zone named as VASSAL names it
        x, y = lay.center(hex)
        if 10 < x < 400 and 10 < y < 300:
            assert m.format(hex) == grid.label(x, y)
    assert [b.name for b in m.boxes] == ["Turn track", "deployment"]   # the grid's zone is the map, not a box
    [scenario] = game.scenarios.values()
    placed = sorted((p.box or m.format(p.hex)) for p in scenario.setup)
    assert placed == sorted([grid.label(*at), "turn-track", "deployment"])
    assert "board 'deployment' of map 'deployment' has no grid or zones: the pieces set up on it are in box " \
           "'deployment'" in result.report


def test_images_drawn_from_game_piece_image_layouts_are_not_missing(tmp_path):
    # the template draws its counters' backgrounds ("counter-black") from Game Piece Image definitions
    gpi = (f'<{B}module.gamepieceimage.GamePieceImageDefinitions><{B}module.gamepieceimage.GamePieceImage '
           f'bgColor="BLACK" borderColor="BLACK" name="counter-black" props="" version="0"/>'
           f'</{B}module.gamepieceimage.GamePieceImageDefinitions>')
    maps = vmap("Main Map", board("Map", "map.png", hexgrid(60.0, 70.0, 40, 35))) + gpi
    path = module(tmp_path / "gpi.vmod", maps, slot("Unit", 1, basic("counter-black", "Unit")),
                  images={"map.png": png(400, 300)})
    assert inspect(path)["problems"] == []
    result = import_vmod(path, tmp_path / "game")
    assert "image 'counter-black' is drawn by VASSAL from a Game Piece Image layout: the counter is drawn by " \
           "hexforge instead" in result.report


def test_properties_named_like_counter_columns_keep_their_values(tmp_path):
    # Ragnarok's units carry Marker properties "size" and "id": counters.csv had those columns twice
    unit = slot("Odin", 1, "+/null/mark;size\tmark;id\tpiece;;;odin.png;Odin/large\tbig\tnull;0;0;;0")
    maps = vmap("Main Map", board("Map", "map.png", hexgrid(60.0, 70.0, 40, 35)))
    path = module(tmp_path / "m.vmod", maps, unit, images={"map.png": png(400, 300), "odin.png": png(50, 50)})
    import_vmod(path, tmp_path / "game")
    assert load_game(str(tmp_path / "game")).counters["odin"].front == {"size_value": "large", "id_value": "big"}


def test_a_deck_beside_a_zone_hex_grid_gets_a_box_of_its_own(tmp_path):
    zoned = (f'<{B}module.map.boardPicker.board.ZonedGrid>'
             + _zone("map", "10,10;500,10;10,300", hexgrid(50.0, 58.0, 21, 24, sideways=True))   # a triangle
             + f'</{B}module.map.boardPicker.board.ZonedGrid>')
    pile = f'<{B}module.map.DrawPile name="Events" owningBoard="Map" x="400" y="250"></{B}module.map.DrawPile>'
    maps = vmap("Main Map", board("Map", "map.png", zoned), extra=pile)
    path = module(tmp_path / "m.vmod", maps, slot("Odin", 1, basic("", "Odin")), images={"map.png": png(520, 320)})
    import_vmod(path, tmp_path / "game")
    [deck] = load_game(str(tmp_path / "game")).decks
    assert (deck.box, deck.hex) == ("events", None)   # off the zone, inside the grid's rectangle: no hex
