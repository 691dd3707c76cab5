"""Decks (VASSAL DrawPiles): game data -> buildFile -> read back, and the errors on the way."""

from __future__ import annotations

import zipfile

import pytest
from lxml import etree

from toolkit.errors import DataError
from toolkit.game import Deck
from toolkit.hexes import Hex
from toolkit.io import dump_game, load_game
from toolkit.validate import validate_game
from toolkit.vassal import build_module, inspect
from toolkit.vassal.module import BOXES_MAP
from vassal_fakes import FAKES

B = "VASSAL.build."


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, fragment: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in line)

DECKS = """
decks:
  - {id: cup, name: Marker cup, box: blue-reserve, counters: [oos], draw_face_up: true,
     return_command: Back to the cup, send_to: pile, side: blue, rule: "T.6"}
  - {id: pile, name: Isolation pile, hex: "0304", counters: [isolated], face_down: false, shuffle: menu,
     shuffle_command: Shuffle the pile, estimated: "a test pile"}
"""


@pytest.fixture
def deck_game(game_copy):
    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write(DECKS)
    return game_copy


def test_decks_load_and_round_trip(deck_game, tmp_path):
    game = load_game(str(deck_game))
    cup, pile = game.decks
    assert cup == Deck(id="cup", name="Marker cup", counters=("oos",), box="blue-reserve", draw_face_up=True,
                       return_command="Back to the cup", send_to="pile", send_command="Send all to pile",
                       side="blue", source=cup.source)
    assert cup.source.rule == "T.6" and pile.source.is_estimated
    assert pile.map == "main" and pile.hex == Hex(3, 4) and pile.shuffle == "menu" and not pile.face_down
    again = load_game(str(dump_game(game, str(tmp_path / "copy"))))
    assert again.decks == game.decks
    assert validate_game(game).ok


@pytest.mark.parametrize("old, new, field, words", [
    ("box: blue-reserve, counters", "box: blue-reserve, hex: \"0101\", counters", "decks[0].box", "exactly one"),
    ("shuffle: menu", "shuffle: sometimes", "decks[1].shuffle", "expected one of always, menu, never"),
    ("face_down: false", "face_down: maybe", "decks[1].face_down", "true or false"),
    ("hex: \"0304\"", "hex: \"03x4\"", "decks[1].hex", "bad hex id"),
    ("side: blue, rule", "side: blue, colour: red, rule", "decks[0].colour", "unknown key"),
    ("{id: pile, name: Isolation pile,", "{id: pile,", "decks[1].name", "required field is missing"),
])
def test_broken_decks_name_file_line_and_field(deck_game, old, new, field, words):
    path = deck_game / "game.yaml"
    edit(path, old, new)
    with pytest.raises(DataError) as info:
        load_game(str(deck_game))
    error = info.value
    assert error.path == str(path) and error.field == field and words in error.problem
    # the line of the key at fault (a flow mapping may run over two lines), else of the deck
    assert error.line in (line_of(path, new), line_of(path, "{id: pile" if "[1]" in field else "{id: cup"))


def test_validator_checks_what_decks_name(deck_game):
    edit(deck_game / "game.yaml", "counters: [oos]", "counters: [oos, nonesuch, isolated]")
    edit(deck_game / "game.yaml", "send_to: pile", "send_to: attic")
    edit(deck_game / "game.yaml", "box: blue-reserve", "box: cellar")
    report = validate_game(load_game(str(deck_game)))
    codes = [f.code for f in report.findings]
    assert {"unknown-counter", "unknown-deck", "unknown-box", "counter-overused"} <= set(codes)
    unknown = next(f for f in report.findings if f.code == "unknown-counter")
    assert unknown.field == "decks[0].counters" and unknown.line == line_of(deck_game / "game.yaml", "{id: cup")


def test_a_counter_in_a_deck_and_the_setup_is_overused(deck_game):
    edit(deck_game / "game.yaml", "counters: [isolated]", "counters: [b-1]")
    report = validate_game(load_game(str(deck_game)))
    assert any(f.code == "counter-overused" and "'b-1'" in f.message for f in report.findings)


@pytest.fixture
def deck_module(deck_game, tmp_path):
    game = load_game(str(deck_game))
    [path] = build_module(game, tmp_path / "out", dpi=60, **FAKES)
    return game, path


def test_drawpiles_are_written_as_vassal_reads_them(deck_module):
    game, path = deck_module
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("buildFile.xml"))
        names = set(zf.namelist())
    piles = {p.get("name"): p for p in root.iter(B + "module.map.DrawPile")}
    assert set(piles) == {"Marker cup", "Isolation pile"}
    cup, pile = piles["Marker cup"], piles["Isolation pile"]
    # every attribute DrawPile.getAttributeNames lists, in alphabetical order as VASSAL 3.6+ writes them
    assert len(cup.attrib) == 53 and list(cup.attrib) == sorted(cup.attrib)
    assert cup.getparent().get("mapName") == BOXES_MAP and cup.get("owningBoard") == BOXES_MAP
    assert (cup.get("faceDown"), cup.get("shuffle"), cup.get("drawFaceUp")) == ("Always", "Always", "true")
    assert (cup.get("reshufflable"), cup.get("reshuffleTarget")) == ("true", "Isolation pile")
    assert cup.get("allowSelect") == "false" and cup.get("allowMultiple") == "false"
    assert (pile.get("faceDown"), pile.get("shuffle"), pile.get("shuffleCommand")) == (
        "Never", "Via right-click Menu", "Shuffle the pile")
    assert pile.getparent().get("mapName") == game.main_map.name
    # one CardSlot per copy of each counter (oos: 6, isolated: 6), each with a unique gpid
    cards = list(cup.iter(B + "widget.CardSlot"))
    assert len(cards) == game.counters["oos"].count == 6
    gpids = [int(c.get("gpid")) for c in root.iter(B + "widget.CardSlot", B + "widget.PieceSlot")]
    assert len(gpids) == len(set(gpids)) and int(root.get("nextPieceSlotId")) > max(gpids)
    assert "images/deck_cup.png" in names and "images/deck_pile.png" not in names
    text = cards[0].text
    assert "obs;72,130;deck_cup.png;Hide;P;Marker cup counter" in text
    assert "return;Back to the cup;82,195;Marker cup;" in text


def test_decks_read_back_with_their_place_and_cards(deck_module):
    game, path = deck_module
    info = inspect(path)
    assert info["problems"] == []
    decks = {d["name"]: d for d in info["decks"]}
    cup, pile = decks["Marker cup"], decks["Isolation pile"]
    assert cup["map"] == BOXES_MAP and cup["location"] == "Blue reserve"
    assert pile["location"] == "0304" and pile["shuffle"] == "Via right-click Menu"
    assert cup["cards"] == ["Out of supply"] * 6 and cup["send_to"] == "Isolation pile" and cup["draw_face_up"]
    assert pile["face_down"] == "Never" and len(pile["cards"]) == 6


def test_reader_reports_broken_decks(deck_module, tmp_path):
    _, path = deck_module
    with zipfile.ZipFile(path) as zf:
        entries = {n: zf.read(n) for n in zf.namelist()}
    root = etree.fromstring(entries["buildFile.xml"])
    piles = {p.get("name"): p for p in root.iter(B + "module.map.DrawPile")}
    piles["Isolation pile"].set("faceDown", "Always")      # cards without a Mask would show their faces
    piles["Marker cup"].set("reshuffleTarget", "Attic")
    piles["Marker cup"].set("owningBoard", "Nowhere")
    piles["Isolation pile"].set("name", "Renamed")          # the cup's cards return to a deck that is gone
    entries["buildFile.xml"] = etree.tostring(root)
    broken = tmp_path / "broken.vmod"
    with zipfile.ZipFile(broken, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    problems = "\n".join(inspect(broken)["problems"])
    assert "deck 'Renamed': 6 cards have no Mask trait ('Isolated'), so they show their face" in problems
    assert "deck 'Marker cup': sends its cards to deck 'Attic', which does not exist" in problems
    assert "owning board 'Nowhere' is not a board" in problems
    piles["Marker cup"].set("name", "Cup")
    entries["buildFile.xml"] = etree.tostring(root)
    with zipfile.ZipFile(broken, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    assert "returns to deck 'Marker cup', which does not exist" in "\n".join(inspect(broken)["problems"])
