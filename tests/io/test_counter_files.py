"""Counter files (CSV): round trips and the rules of the format."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datafiles import ROOT
from toolkit.errors import DataError
from toolkit.game import Counter, Source
from toolkit.io import dump_counters, load_counters

TUTORIAL = ROOT / "counters" / "tutorial" / "counters.csv"


def test_tutorial_counters_round_trip(tmp_path):
    first = load_counters(str(TUTORIAL))
    dump_counters(first, str(tmp_path / "c.csv"))
    second = load_counters(str(tmp_path / "c.csv"))
    assert second == first and list(second) == list(first)


def test_tutorial_counter_values():
    counters = load_counters(str(TUTORIAL))
    b1 = counters["b-1"]
    assert (b1.side, b1.unit_class, b1.steps, b1.back_kind) == ("blue", "foot", 2, "reduced")
    assert b1.front == {"attack": 4, "defence": 4, "movement": 4}
    assert b1.back == {"attack": 2, "defence": 2, "movement": 4}
    assert counters["r-14"].marks == ("*",)
    assert counters["oos"].is_marker and counters["oos"].count == 6
    assert b1.source == Source(rule="T.1")
    assert counters.lines["b-1"] == 4  # line numbers count the comment lines


WORD = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=8).filter(lambda t: t.strip("-"))
TEXT = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=12).filter(
    lambda t: t == t.strip() and not t.lstrip("-").isdigit() and not t.startswith("#"))


@st.composite
def counters(draw) -> dict[str, Counter]:
    out = {}
    for cid in draw(st.lists(WORD, min_size=1, max_size=6, unique=True)):
        front = draw(st.dictionaries(st.sampled_from(["attack", "defence", "movement", "range"]),
                                     st.integers(-5, 10**9) | TEXT, max_size=3))
        back = draw(st.dictionaries(st.sampled_from(["attack", "defence"]), st.integers(0, 9), max_size=2))
        out[cid] = Counter(
            id=cid, side=draw(st.sampled_from([None, "blue", "red"])), name=draw(TEXT),
            kind=draw(st.sampled_from(["unit", "marker", "hq"])), type=draw(WORD),
            size=draw(st.sampled_from([None, "III", "XX"])), unit_class=draw(st.sampled_from([None, "foot"])),
            front=front, back=back, back_kind="reduced" if back else "none",
            steps=draw(st.integers(1, 4)), count=draw(st.integers(1, 30)),
            marks=tuple(draw(st.lists(WORD, max_size=2))), note=draw(st.sampled_from([None, "a, \"quoted\" note"])),
            source=draw(st.sampled_from([Source(), Source(rule="1.3"), Source(estimated="guess")])))
    return out


@settings(max_examples=50)
@given(counters())
def test_generated_counters_round_trip(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.csv"
        dump_counters(data, str(path))
        assert load_counters(str(path)) == data


@pytest.mark.parametrize("text, line, field, words", [
    ("id,name,kind\nx,X,tank\n", 2, "kind", "expected one of unit"),
    ("id,name,back_kind\nx,X,flipped\n", 2, "back_kind", "expected one of none"),
    ("id,name,rule,estimated\nx,X,1.1,guess\n", 2, "estimated", "either cited"),
    ("id,name,count\nx,X,²\n", 2, "count", "whole number"),
    ("id,name,count\nx,X,0\n", 2, "count", "from 1 to 1000"),
    ("name\nX\n", 1, None, "lacks the required column 'id'"),
    ("id,name,bad column!\n", 1, None, "bad column name"),
    ("id,,name\n", 1, None, "empty column name"),
    ("id,name\n\n\n,X\n", 4, "id", "required value is empty"),
])
def test_broken_counter_rows(tmp_path, text, line, field, words):
    path = tmp_path / "c.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_counters(str(path))
    assert (info.value.path, info.value.line, info.value.field) == (str(path), line, field)
    assert words in info.value.problem


def test_short_rows_and_comments_are_fine(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("# header comment\nid,name,attack,defence\n  # indented comment\nx,X,3\n", encoding="utf-8")
    counters = load_counters(str(path))
    assert counters["x"].front == {"attack": 3}
    assert counters.lines["x"] == 4
