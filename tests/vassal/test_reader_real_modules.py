"""The reader on what published modules hold: decks of cards, every trait kind of VASSAL 3.7,
VASSAL's own images, long setups. Only real problems are reported."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "importer"))
from handmade import B, board, hexgrid, module, png, slot, vmap  # noqa: E402

from toolkit.vassal import inspect  # noqa: E402
from toolkit.vassal.encoding import ESC, Trait, add_piece, encode  # noqa: E402
from toolkit.vassal.reader import KNOWN_TRAITS  # noqa: E402

#: One minimal trait of every decorator kind BasicCommandEncoder builds in VASSAL 3.7.26.
EVERY_TRAIT = sorted(KNOWN_TRAITS - {"piece;", "deck;", "prototype;"})


def _chain(image: str, name: str, traits=(), state: str = "null;0;0;;0") -> list[Trait]:
    return [Trait(t, "") for t in traits] + [Trait(f"piece;;;{image};{name}", state)]


def test_cards_decks_and_every_trait_kind_are_no_problem(tmp_path):
    card = _chain("card.png", "Card 1", ["obs;77,130;back.png;Mask;P;?;player:;Peek", "return;Discard;68,130;"])
    moved = _chain("unit.png", "Unit", ["markmoved;moved.gif;0;0;Mark Moved;77,130"])
    every = _chain("unit.png", "Everything", EVERY_TRAIT)
    deck_pile = (f'<{B}module.map.DrawPile name="Deck" owningBoard="A" x="50" y="50" width="60" height="80">'
                 f'<{B}widget.CardSlot entryName="Card 1" gpid="3" height="80" width="60">'
                 f'{_escape(add_piece(None, card))}</{B}widget.CardSlot></{B}module.map.DrawPile>')
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)), extra=deck_pile)
    palette = (f'<{B}widget.PanelWidget entryName="All">{slot("Unit", 1, add_piece(None, moved))}'
               f'{slot("Everything", 2, add_piece(None, every))}</{B}widget.PanelWidget>')
    placed = [Trait(t.type, "Main;100;100;3;0" if t.id == "piece;" else t.state) for t in card]
    commands = ["begin_save", add_piece("c1", placed), "+/d1/deck;Main;100;100;Deck/Main;100;100;c1",
                "MainBoardPicker\tA\t0\t0", "end_save"]
    images = {"a.png": png(300, 200), "card.png": png(60, 80), "back.png": png(60, 80), "unit.png": png(48, 48)}
    path = module(tmp_path / "cards.vmod", maps, palette, images=images, setups={"Start": encode(commands, ESC)})
    report = inspect(path)
    assert report["problems"] == []
    [setup] = report["setups"]
    assert [p["name"] for p in setup["pieces"]] == ["Card 1"] and setup["decks"][0]["id"] == "d1"
    slots = {p["entry"]: p for p in report["pieces"]}
    assert slots["Everything"]["traits"][:-1] == EVERY_TRAIT


def test_an_unknown_trait_and_a_missing_prototype_are_real_problems(tmp_path):
    odd = _chain("unit.png", "Odd", ["myCustomTrait;x", "prototype;Nowhere"])
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    path = module(tmp_path / "odd.vmod", maps, slot("Odd", 1, add_piece(None, odd)),
                  images={"a.png": png(300, 200), "unit.png": png(48, 48)})
    problems = inspect(path)["problems"]
    assert "piece slot 'Odd': unknown trait 'myCustomTrait;'" in problems
    assert "piece slot 'Odd': prototype 'Nowhere' does not exist" in problems


def test_a_long_setup_reads_in_seconds(tmp_path):
    # 3,000 pieces of 40 traits each, all copies of a few designs (as in a card-driven game)
    designs = [_chain("unit.png", f"U{i}", EVERY_TRAIT[:40]) for i in range(5)]
    commands = ["begin_save"]
    for n in range(3000):
        traits = designs[n % 5]
        commands.append(add_piece(f"p{n}", traits[:-1] + [Trait(traits[-1].type, f"Main;{n % 300};{n % 200};;0")]))
    commands.append("end_save")
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    path = module(tmp_path / "long.vmod", maps, "", images={"a.png": png(300, 200), "unit.png": png(48, 48)},
                  setups={"Long": encode(commands, ESC)})
    start = time.perf_counter()
    report = inspect(path)
    assert len(report["setups"][0]["pieces"]) == 3000 and report["problems"] == []
    assert time.perf_counter() - start < 30  # a guard against quadratic decoding, not a benchmark


def _escape(text: str) -> str:
    from xml.sax.saxutils import escape
    return escape(text)


def test_traits_whose_id_has_no_semicolon_are_known(tmp_path):
    # Deselect.myGetType is "deselect" + its fields, TranslatableMessage's "locmsg" + its fields
    piece = _chain("unit.png", "Unit", ["deselectDeselect;88,130;;false;D", "locmsg77,130;Say;hello"])
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    path = module(tmp_path / "bare.vmod", maps, slot("Unit", 1, add_piece(None, piece)),
                  images={"a.png": png(300, 200), "unit.png": png(48, 48)})
    assert inspect(path)["problems"] == []


def test_decks_on_the_map_and_expressions_naming_decks_are_no_problem(tmp_path):
    # a DrawPile with no owning board sits on the map (DrawPile.getPosition); a Return to Deck
    # naming its deck by a constant expression is checked, one naming it by a property is not
    card = _chain("card.png", "Card", ["obs;77,130;back.png;Mask;P;?;player:;Peek",
                                       'return;Discard;68,130;;Select;Discard;2;false;{"Pile"}',
                                       'return;Away;69,130;;Select;Away;2;false;{Side + " Pile"}'])
    wrong = _chain("card.png", "Card 2", ["obs;77,130;back.png;Mask;P;?;player:;Peek",
                                          'return;Discard;68,130;;Select;Discard;2;false;{"Nowhere"}'])
    pile = (f'<{B}module.map.DrawPile name="Pile" owningBoard="" x="50" y="50">'
            f'<{B}widget.CardSlot entryName="Card" gpid="3">{_escape(add_piece(None, card))}</{B}widget.CardSlot>'
            f'<{B}widget.CardSlot entryName="Card 2" gpid="4">{_escape(add_piece(None, wrong))}</{B}widget.CardSlot>'
            f'</{B}module.map.DrawPile>')
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)), extra=pile)
    path = module(tmp_path / "deck.vmod", maps, "", images={"a.png": png(300, 200), "card.png": png(60, 80),
                                                            "back.png": png(60, 80)})
    assert inspect(path)["problems"] == [
        "deck 'Pile': card 'Card 2' returns to deck 'Nowhere', which does not exist"]


def test_board_sizes_come_from_image_headers(tmp_path):
    from toolkit.vassal.reader import image_size
    from toolkit.vassal.safety import SafeZip
    import io
    import zipfile
    from PIL import Image
    jpeg, gif = io.BytesIO(), io.BytesIO()
    Image.new("RGB", (640, 480), (10, 20, 30)).save(jpeg, "JPEG")
    Image.new("P", (33, 44)).save(gif, "GIF")
    with zipfile.ZipFile(tmp_path / "i.zip", "w") as zf:
        zf.writestr("a.png", png(300, 200))
        zf.writestr("b.jpg", jpeg.getvalue())
        zf.writestr("c.gif", gif.getvalue())
        zf.writestr("d.txt", "not an image")
    with SafeZip(tmp_path / "i.zip") as archive:
        assert [image_size(archive, n) for n in ("a.png", "b.jpg", "c.gif", "d.txt")] == [
            (300, 200), (640, 480), (33, 44), None]


def test_a_setup_without_a_file_starts_a_new_game(tmp_path):
    # PredefinedSetup.launch: no file name, no save to load (a "No Setup" entry of a real module)
    import zipfile
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    path = module(tmp_path / "m.vmod", maps, "", images={"a.png": png(300, 200)})
    with zipfile.ZipFile(path) as zf:
        entries = {n: zf.read(n) for n in zf.namelist()}
    entries["buildFile.xml"] = entries["buildFile.xml"].replace(
        f"</{B}GameModule>".encode(),
        f'<{B}module.PredefinedSetup isMenu="false" name="No Setup" useFile="true"/></{B}GameModule>'.encode())
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    report = inspect(path)
    assert report["problems"] == [] and [s["name"] for s in report["setups"]] == ["No Setup"]


def test_slots_without_gpid_are_one_problem_not_duplicates(tmp_path):
    # The Longest Day (VASSAL 2.9) has 2,070 slots and no gpids: 2,070 false "gpid is used by" problems
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    palette = "".join(slot(f"U{i}", 0, add_piece(None, _chain("unit.png", f"U{i}"))).replace(' gpid="0"', "")
                      for i in range(3))
    path = module(tmp_path / "old.vmod", maps, palette, images={"a.png": png(300, 200), "unit.png": png(48, 48)})
    assert inspect(path)["problems"] == [
        "3 piece slots have no gpid (first 'U0'): pieces of saved games cannot be refreshed from them until the "
        "editor gives them one"]


def test_a_prototype_problem_is_reported_once_for_all_its_pieces(tmp_path):
    # Fields of Fire: three prototypes name prototypes that are gone; 1,652 lines, one a piece
    protos = (f'<{B}module.PrototypeDefinition name="Vehicle">'
              f'{_escape(add_piece(None, _chain("", "", ["prototype;Layer_Experience"])))}'
              f'</{B}module.PrototypeDefinition>')
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    palette = "".join(slot(name, i, add_piece(None, _chain("unit.png", name, ["prototype;Vehicle"])))
                      for i, name in enumerate(["Jeep", "Truck", "Sherman", "Tiger"], 1))
    path = module(tmp_path / "fof.vmod", maps, palette, prototypes=protos,
                  images={"a.png": png(300, 200), "unit.png": png(48, 48)})
    assert inspect(path)["problems"] == [
        "4 piece slots ('Jeep', 'Truck', 'Sherman', ...): prototype 'Layer_Experience' does not exist"]


def test_set_up_pieces_on_a_map_the_module_lacks_are_one_problem(tmp_path):
    # Warhammer Underworlds' set-up was saved by an older version whose map had another name
    maps = vmap("BOARD", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)))
    unit = _chain("unit.png", "Unit")
    commands = ["begin_save"] + [add_piece(f"p{i}", unit[:-1] + [Trait(unit[-1].type, "MESA - BOARD;100;100;;0")])
                                 for i in range(40)] + ["end_save"]
    path = module(tmp_path / "wu.vmod", maps, "", images={"a.png": png(300, 200), "unit.png": png(48, 48)},
                  setups={"SETUP": encode(commands, ESC)})
    assert inspect(path)["problems"] == [
        "setup 'SETUP': 40 pieces are on map 'MESA - BOARD', which the module does not have (VASSAL leaves them "
        "off every map; first: piece p0)"]


def test_a_deck_without_a_board_lies_past_the_map_edge_and_one_with_a_board_on_it(tmp_path):
    # Dreadball's decks sit at x=110 on a map with 261-pixel edges: the reader put them in the margin
    from toolkit.vassal.grid import VassalHexGrid
    card = _chain("card.png", "Card", ["obs;77,130;back.png;Mask;P;?;player:;Peek"])
    cards = (f'<{B}widget.CardSlot entryName="Card" gpid="9">{_escape(add_piece(None, card))}</{B}widget.CardSlot>')
    piles = (f'<{B}module.map.DrawPile name="Cards" x="110" y="80">{cards}</{B}module.map.DrawPile>'
             f'<{B}module.map.DrawPile name="Spare" owningBoard="B" x="150" y="120"></{B}module.map.DrawPile>')
    grid_b = hexgrid(40.0, 46.0, 20, 23, hOff="0", vOff="0")
    maps = vmap("Main", board("A", "a.png", hexgrid(40.0, 46.0, 20, 23)) + board("B", "b.png", grid_b),
                edge=(261, 30), extra=piles)
    path = module(tmp_path / "edge.vmod", maps, "", images={"a.png": png(300, 200), "b.png": png(300, 200),
                                                            "card.png": png(60, 80), "back.png": png(60, 80)})
    decks = {d["name"]: d["location"] for d in inspect(path)["decks"]}
    numbering = {"hOff": "1", "vOff": "1", "hLeading": "1", "vLeading": "1", "stagger": "true"}
    a = VassalHexGrid.from_attributes({"dx": "40.0", "dy": "46.0", "x0": "20", "y0": "23"}, numbering, 300, 200)
    b = VassalHexGrid.from_attributes({"dx": "40.0", "dy": "46.0", "x0": "20", "y0": "23"},
                                      {**numbering, "hOff": "0", "vOff": "0"}, 300, 200)
    assert decks == {"Cards": a.label(110, 80), "Spare": b.label(150, 120)}
