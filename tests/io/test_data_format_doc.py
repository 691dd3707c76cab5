"""docs/data-format.md: its example files form a game that loads, validates clean and round-trips."""

from __future__ import annotations

import re

import pytest

from datafiles import ROOT
from toolkit.hexes import Hex, Hexside
from toolkit.io import dump_game, load_game
from toolkit.validate import CODES, validate_game

DOC = ROOT / "docs" / "data-format.md"


def example_files() -> dict[str, str]:
    """The fenced blocks whose first line is ``# file: NAME``."""
    files = {}
    for block in re.findall(r"```(?:yaml|csv)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        first = block.splitlines()[0]
        if first.startswith("# file: "):
            files[first[len("# file: "):].strip()] = block
    return files


@pytest.fixture
def example(tmp_path):
    for name, text in example_files().items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return load_game(str(tmp_path))


def test_the_doc_has_all_four_files():
    assert set(example_files()) == {"game.yaml", "map.yaml", "counters.csv", "scenarios/meeting.yaml"}


def test_the_example_game_validates_clean(example):
    report = validate_game(example)
    assert report.findings == []
    assert report.provenance["map main: hexes"]["estimated"] == 1  # the hex under the turn track


def test_the_example_says_what_the_doc_says(example):
    m = example.main_map
    assert m.terrain(Hex(3, 3)) == "clear" and m.features(Hex(3, 3)) == ("town",)
    assert m.terrain(Hex(6, 4)) == "clear" and m.hexes[Hex(6, 4)].source.is_estimated
    assert m.features(Hex(5, 2)) == ("town",) and m.terrain(Hex(5, 2)) == "woods"
    assert m.hexside_codes(Hexside.of(Hex(3, 3), Hex(4, 2))) == ["bridge", "river"]
    assert m.hexside_codes(Hexside.of(Hex(2, 3), Hex(2, 4))) == ["stream"]  # 0203:S
    assert m.supply[1].turns == (1, 4)
    assert example.counters["r-1"].source.estimated == "value not printed in the rules"
    assert example.scenario().turns[2].date is None


def test_the_example_round_trips(example, tmp_path):
    assert load_game(str(dump_game(example, str(tmp_path / "copy")))) == example


def test_every_finding_code_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for code in CODES:
        assert f"| `{code}` | {CODES[code]} |" in text
