"""A scenario's deck contents in its saved setup (docs/vassal-decks.md): the cards and the Deck
written as VASSAL 3.7's own saves write them, read back by hexforge's reader; the strings are
checked against what the Java source (Deck.getType/getState, NewGameIndicator) produces."""

from __future__ import annotations

import zipfile

import pytest

from toolkit.errors import DataError
from toolkit.io import dump_game, load_game
from toolkit.validate import validate_game
from toolkit.vassal import build_module, inspect
from toolkit.vassal.buildfile import DECK_TYPE_FIELDS, DeckSpec, deck_type, pile_attributes
from toolkit.vassal.encoding import Trait, decode, parse_add_piece
from toolkit.vassal.module import BOXES_MAP
from toolkit.vassal.savegame import SETUP_STACK, DeckState, Setup, deobfuscate, setup_commands
from vassal_fakes import FAKES

DECKS = """
decks:
  - {id: cup, name: Marker cup, box: blue-reserve, counters: [oos], draw_face_up: true,
     return_command: Back to the cup, send_to: pile, side: blue, rule: "T.6"}
  - {id: pile, name: Isolation pile, box: eliminated, counters: [isolated], face_down: false, shuffle: menu,
     shuffle_command: Shuffle the pile, estimated: "a test pile"}
"""
SCENARIO_DECKS = """
decks:
  - {deck: cup, counters: [isolated], rule: "T.9"}
  - {deck: pile, turn: 3, counters: [oos], note: "comes on turn 3", rule: "T.9"}
"""
PICKS = """
decks:
  - {deck: cup, pick: 4, counters: [oos], rule: "T.9"}
  - {box: blue-reserve, counters: [isolated], rule: "T.9"}
"""


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def deck_game(game_copy):
    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write(DECKS)
    with open(game_copy / "scenarios" / "crossing.yaml", "a", encoding="utf-8") as f:
        f.write(SCENARIO_DECKS)
    return game_copy


def _commands(vmod, scenario="crossing") -> list[str]:
    with zipfile.ZipFile(vmod) as zf, zipfile.ZipFile(zf.open(f"setup_{scenario}.vsav")) as save:
        return deobfuscate(save.read("savedGame")).split("\x1b")


@pytest.fixture
def tutorial_built(deck_game, tmp_path):
    game = load_game(str(deck_game))
    [path] = build_module(game, tmp_path / "out", dpi=60, **FAKES)
    return game, path


def test_scenario_decks_load_validate_and_round_trip(deck_game, tmp_path):
    game = load_game(str(deck_game))
    first, later = game.scenarios["crossing"].decks
    assert (first.deck, first.counters, first.turn, first.source.rule) == ("cup", ("isolated",), None, "T.9")
    assert (later.deck, later.turn, later.note) == ("pile", 3, "comes on turn 3")
    assert validate_game(game).ok
    again = load_game(str(dump_game(game, str(tmp_path / "copy"))))
    assert again.scenarios["crossing"].decks == game.scenarios["crossing"].decks


def test_the_validator_checks_scenario_decks(deck_game):
    path = deck_game / "scenarios" / "crossing.yaml"
    edit(path, "{deck: cup, counters: [isolated]", "{deck: attic, counters: [isolated, b-1, nonesuch, oos]")
    edit(path, "turn: 3, counters", "turn: 9, counters")
    report = validate_game(load_game(str(deck_game)))
    found = {(f.code, f.field) for f in report.findings}
    assert ("unknown-deck", "decks[0].deck") in found
    assert ("turn-out-of-range", "decks[1].turn") in found
    messages = [f.message for f in report.findings if f.code == "unknown-counter"]
    assert any("'b-1'" in m and "no deck of the game holds it" in m for m in messages)
    assert any("'nonesuch'" in m for m in messages)
    assert any(f.code == "counter-overused" and "'oos'" in f.message for f in report.findings)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "deck: attic" in text)
    assert next(f for f in report.findings if f.code == "unknown-deck").line == line


@pytest.mark.parametrize("entry, field, words", [
    ("{deck: cup, counters: []}", "decks[0].counters", "at least one counter"),
    ("{counters: [oos]}", "decks[0].deck", "exactly one of deck"),
    ("{deck: cup, box: blue-reserve, counters: [oos]}", "decks[0].deck", "exactly one of deck"),
    ("{deck: cup, counters: [oos], pick: 0}", "decks[0].pick", ""),
    ("{deck: cup, counters: [oos], turn: soon}", "decks[0].turn", ""),
    ("{deck: cup, counters: [oos], colour: red}", "decks[0].colour", "unknown key"),
])
def test_broken_scenario_decks_name_the_field(game_copy, entry, field, words):
    path = game_copy / "scenarios" / "crossing.yaml"
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"decks:\n  - {entry}\n")
    with pytest.raises(DataError) as info:
        load_game(str(game_copy))
    assert info.value.path == str(path) and info.value.field == field and words in info.value.problem


def test_deck_type_is_deck_get_type_of_the_drawpile():
    """``Deck.getType``: ``deck;`` and 49 fields, each the DrawPile attribute setAttribute copies."""
    spec = DeckSpec(name="A;cup", board="b", x=10, y=20, size=75, cards=[], face_down=True, draw_face_up=True,
                    shuffle="always", shuffle_command="Reshuffle", send_to="Pile", send_command="Discard")
    text = deck_type(spec)
    assert text.startswith("deck;")
    fields = decode(text[len("deck;"):], ";")
    assert len(fields) == len(DECK_TYPE_FIELDS) == 49
    attrs = pile_attributes(spec)
    assert fields == ["" if name is None else attrs[name] for name in DECK_TYPE_FIELDS]
    # drawOutline, colour, size, faceDownOption, shuffleOption, then the reshuffle command,
    # target and message, and the deck's name: the one DrawPile.findDrawPile looks up
    assert fields[:13] == ["true", "0,0,0", "75", "75", "Always", "Always", "false", "false", "false", "Discard",
                           "Pile", "* $deckName$: $commandName$ *", "A;cup"]
    assert fields[16:18] == ["true", "false"] and fields[26] == "$BasicName$" and fields[30] == "Reshuffle"
    assert "A\\;cup" in text                                  # SequenceEncoder escapes the delimiter


def test_setup_commands_write_cards_then_decks_then_setup_stack():
    card = [Trait("piece;;;a.png;A/", "M;5;6;7;0")]
    setup = Setup([], [("M", "B")], [DeckState("deck;x", "M", 5, 6, True, [card, card]),
                                     DeckState("deck;y", "M", 8, 9, False, [])])
    commands = setup_commands(setup, prefix="t")
    assert commands[0] == "begin_save" and commands[-1] == "end_save"
    assert commands[1:5] == ["+/t1/piece;;;a.png;A\\//M;5;6;7;0", "+/t2/piece;;;a.png;A\\//M;5;6;7;0",
                             "+/td1/deck;x/M;5;6;true;t1,t2", "+/td2/deck;y/M;8;9;false"]
    assert commands[5] == SETUP_STACK == "SETUP_STACK\t" and commands.count(SETUP_STACK) == 1
    assert SETUP_STACK not in setup_commands(Setup([], [("M", "B")]))      # no decks: VASSAL fills them


def test_the_saved_setup_holds_the_scenarios_decks(tutorial_built):
    game, path = tutorial_built
    commands = _commands(path)
    assert commands.count(SETUP_STACK) == 1 and commands.index(SETUP_STACK) < commands.index("end_save")
    decks = [parse_add_piece(c) for c in commands if c.startswith("+/") and parse_add_piece(c)[1].startswith("deck;")]
    assert [decode(t[5:], ";")[12] for _, t, _ in decks] == ["Marker cup", "Isolation pile"]
    ids = {parse_add_piece(c)[0]: i for i, c in enumerate(commands) if c.startswith("+/")}
    for deck_id, _, state in decks:
        fields = decode(state, ";")
        assert fields[0] == BOXES_MAP
        for card in (decode(fields[4], ",") if len(fields) > 4 else []):
            assert ids[card] < ids[deck_id]                                  # cards before their deck
            _, _, card_state = parse_add_piece(commands[ids[card]])
            assert card_state.split("\t")[-1].split(";")[:3] == fields[:3]   # at the deck's place
    # the deck's type is the DrawPile's: every buildFile attribute it reads agrees
    with zipfile.ZipFile(path) as zf:
        build = zf.read("buildFile.xml").decode("utf-8")
        help_page = zf.read(next(n for n in zf.namelist() if n.startswith("help/"))).decode("utf-8")
    assert 'name="Marker cup"' in build and decks[0][2].split(";")[3] == "true" and decks[1][2].split(";")[3] == "false"
    assert "Decks at the start" in help_page and "Isolation pile from turn 3 (waiting on its turn box)" in help_page


def test_the_setup_reads_back_with_each_deck_as_the_scenario_starts_it(tutorial_built, tmp_path):
    game, path = tutorial_built
    with zipfile.ZipFile(path) as zf:
        (tmp_path / "s.vsav").write_bytes(zf.read("setup_crossing.vsav"))
    info = inspect(tmp_path / "s.vsav", module=path)
    assert info["problems"] == [] and info["decks_as_saved"]
    counter = {p["id"]: p["properties"]["UnitId"] for p in info["pieces"]}
    decks = {d["name"]: [counter[i] for i in d["pieces"]] for d in info["decks"]}
    assert decks == {"Marker cup": ["isolated"] * 6, "Isolation pile": []}       # isolated moved into the cup
    assert [d["face_down"] for d in info["decks"]] == [True, False]
    waiting = [p for p in info["pieces"] if p["properties"]["UnitId"] == "oos"]
    assert len(waiting) == 6 and {p["location"] for p in waiting} == {"Turn 3"}     # oos waits for turn 3


@pytest.mark.parametrize("scenario, chooser", [("kursk", "german"), ("akhtyrka", "soviet"),
                                               ("mischurin-rog", "german"), ("lutchessa-valley", "soviet")])
def test_grossdeutschland_setups_put_each_chit_where_the_rules_do(built, tmp_path, scenario, chooser):
    """2.5: the cup holds the chits of the battalions in play at the start; a battalion that comes
    later brings its chit (it waits on its turn's box); 18.1-21.1: the chooser picks his first
    chits from the face-up pile and sends the rest into the cup. No other chit is in the game."""
    game, path = built("grossdeutschland")
    s = game.scenarios[scenario]
    with zipfile.ZipFile(path) as zf:
        (tmp_path / "s.vsav").write_bytes(zf.read(f"setup_{scenario}.vsav"))
    info = inspect(tmp_path / "s.vsav", module=path)
    assert info["problems"] == [] and info["decks_as_saved"]
    unit = {p["id"]: p["properties"]["UnitId"] for p in info["pieces"]}
    decks = {d["name"]: [unit[i] for i in d["pieces"]] for d in info["decks"]}
    cup, chosen = decks["Activation cup"], decks["Activation chits drawn"]
    waiting = {unit[p["id"]]: p["location"] for p in info["pieces"] if unit[p["id"]].startswith("chit-")
               and p["id"] not in {i for d in info["decks"] for i in d["pieces"]}}
    assert sorted(cup + chosen + list(waiting)) == sorted(s.options["activation_chits"])
    assert {game.counters[c].side for c in chosen} == {chooser} and chooser not in {game.counters[c].side for c in cup}
    first = s.turns[0].number
    arrival = {}
    for r in s.reinforcements:
        for u in r.units:
            key = (game.counters[u].side, game.counters[u].formation)
            arrival[key] = min(arrival.get(key, r.turn), r.turn)
    for p in s.setup:
        for u in p.units:
            arrival[(game.counters[u].side, game.counters[u].formation)] = first
    for chit, where in waiting.items():
        c = game.counters[chit]
        battalion = "Div" if c.name == "Division" else c.name
        assert where == f"Turn {arrival[(c.side, battalion)]}" and arrival[(c.side, battalion)] > first, chit
    for side in ("german", "soviet"):                     # 18.2: 30 random blue, 30 red, 6 black...
        mix = s.options["event_cups"][side]
        cup = decks[f"{side.capitalize()} event cup"]
        assert len(cup) == mix["blue"] + mix["red"] + mix["random_black"]
        assert sum("-black-" in c for c in cup) == mix["random_black"]
        assert not set(cup) & set(mix["black_allotment"])   # ... the allotment in the player's hand
        held = [unit[p["id"]] for p in info["pieces"] if p["location"] == f"{side.capitalize()} black chits held"]
        assert sorted(held) == sorted(mix["black_allotment"])


def test_pick_takes_that_many_copies_and_a_box_holds_the_rest(game_copy, tmp_path):
    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write(DECKS)
    with open(game_copy / "scenarios" / "crossing.yaml", "a", encoding="utf-8") as f:
        f.write(PICKS)
    game = load_game(str(game_copy))
    assert validate_game(game).ok and game.scenarios["crossing"].decks[0].pick == 4
    again = load_game(str(dump_game(game, str(tmp_path / "copy"))))
    assert again.scenarios["crossing"].decks == game.scenarios["crossing"].decks
    [path] = build_module(game, tmp_path / "out", dpi=60, **FAKES)
    with zipfile.ZipFile(path) as zf:
        (tmp_path / "s.vsav").write_bytes(zf.read("setup_crossing.vsav"))
    info = inspect(tmp_path / "s.vsav", module=path)
    unit = {p["id"]: p["properties"]["UnitId"] for p in info["pieces"]}
    decks = {d["name"]: [unit[i] for i in d["pieces"]] for d in info["decks"]}
    assert decks == {"Marker cup": ["oos"] * 4, "Isolation pile": []}              # 4 of the 6 copies
    assert sorted(p["location"] for p in info["pieces"] if unit[p["id"]] == "isolated") == ["Blue reserve"] * 6
    [again_path] = build_module(game, tmp_path / "out2", dpi=60, **FAKES)
    assert _commands(again_path) == _commands(path)                                   # the same pick each build
    edit(game_copy / "scenarios" / "crossing.yaml", "pick: 4", "pick: 7")
    report = validate_game(load_game(str(game_copy)))
    assert any(f.code == "counter-overused" and f.field == "decks[0].pick" for f in report.findings)
    edit(game_copy / "scenarios" / "crossing.yaml", "{box: blue-reserve, counters", "{box: blue-reserve, turn: 2, counters")
    with pytest.raises(DataError) as info:
        load_game(str(game_copy))
    assert info.value.field == "decks[1].turn"
