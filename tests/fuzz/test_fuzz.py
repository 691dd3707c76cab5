"""Every loader and every CLI command that reads a file, fed corrupted input (issue 11).

The acceptable outcomes are a correct answer (exit 0 or 1) or a clear error (exit 2 naming a
file); never a traceback, a hang, unbounded memory, a file read or written outside its place,
or half-written output (see fuzz_harness). The known failure classes each have a case below;
then a seeded slice of random corruptions runs by default (a few seconds) and a long run with
``--fuzz-long``, which prints its figures (inputs tried, outcomes by kind).
"""

from __future__ import annotations

import random

import pytest
from fuzz_harness import (Place, Tally, _many_traits, game_commands, mutate_archive, mutate_paths, mutate_text,
                          run_cli)

FILES = ["game.yaml", "map.yaml", "counters.csv", "scenarios/crossing.yaml"]


@pytest.fixture
def place(tmp_path):
    return Place(tmp_path)


@pytest.fixture(scope="module")
def module_bytes(tmp_path_factory):
    """The tutorial's .vmod (stand-in images) and its set-up save."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vassal"))
    from vassal_fakes import FAKES

    from toolkit.io import load_game
    from toolkit.vassal import build_module
    from fuzz_harness import zip_entries

    out = tmp_path_factory.mktemp("fuzz-vmod")
    [path] = build_module(load_game("tutorial"), out, lambda m: None, dpi=40, **FAKES)
    data = path.read_bytes()
    save = next(v for k, v in zip_entries(data).items() if k.endswith(".vsav"))
    return data, save


def _scale(request, fast: int, long: int) -> int:
    return long if request.config.getoption("--fuzz-long") else fast


# -- the failure classes of the issue, one case each -------------------------------------------


def _set(place, name, old, new):
    path = place.game / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("value", ["/etc/passwd", "../canary.csv", "CANARY"])
def test_a_game_file_outside_the_game_is_refused_unread(place, value):
    value = str(place.canary) if value == "CANARY" else value
    _set(place, "game.yaml", "counters: counters.csv", f"counters: {value}")
    outcome = run_cli(["validate", str(place.game), "--json"], place)
    assert outcome.kind == "error", outcome
    assert "outside the game's folder" in outcome.detail and "counters" in outcome.detail


@pytest.mark.parametrize("value", ["/dev/urandom", "/dev/zero"])
def test_a_device_is_not_read(place, value):
    _set(place, "game.yaml", "main: map.yaml", f"main: {value}")
    assert run_cli(["validate", str(place.game)], place).kind == "error"


def test_special_files_and_nul_names_are_refused_before_reading(place):
    import os
    from toolkit.errors import DataError
    from toolkit.io._source import read_text
    fifo = place.game / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="not a regular file"):
        read_text(str(fifo))       # would block forever if it were opened
    with pytest.raises(DataError, match="not a regular file"):
        read_text("/dev/urandom")
    with pytest.raises(DataError, match="NUL"):
        read_text(str(place.game / "a\x00b.yaml"))
    _set(place, "game.yaml", "main: map.yaml", 'main: "pipe.yaml"')
    assert run_cli(["validate", str(place.game)], place).kind == "error"


@pytest.mark.parametrize("keys", [110_000])
def test_a_yaml_file_with_too_many_keys_fails_fast_naming_the_limit(place, keys):
    path = place.game / "map.yaml"
    path.write_text(path.read_text() + "notes2:\n" + "".join(f"  k{i}: {i}\n" for i in range(keys)))
    outcome = run_cli(["validate", str(place.game)], place)
    assert outcome.kind == "error" and "100,000" in outcome.detail and outcome.seconds < 5, outcome


def test_a_yaml_alias_bomb_fails_fast(place):
    from fuzz_harness import _alias_bomb
    path = place.game / "map.yaml"
    path.write_text(path.read_text() + _alias_bomb())
    outcome = run_cli(["referee", "check", "-g", str(place.game)], place)
    assert outcome.kind == "error" and "aliases" in outcome.detail and outcome.seconds < 5, outcome


@pytest.mark.parametrize("game_id", ["../../escape", "a;b", "a,b", "a/b", '"a\\\\b"', '"a\\tb"'])
def test_ids_that_are_no_file_names_are_refused_and_nothing_is_written(place, game_id):
    _set(place, "game.yaml", "id: tutorial", f"id: {game_id}")
    for args in (["build", str(place.game), "--out", str(place.out), "-q", "--only", "referee"],
                 ["validate", str(place.game)]):
        outcome = run_cli(args, place)
        assert outcome.kind == "error" and "id" in outcome.detail, outcome
        assert not any(place.out.iterdir())
    assert not (place.root.parent / "escape").exists()


def test_build_refuses_a_game_built_in_code_with_a_bad_id(tmp_path, tutorial):
    import copy
    from toolkit.build import build_game
    from toolkit.errors import BuildError
    game = copy.copy(tutorial)
    game.id = "../outside"
    with pytest.raises(BuildError, match="game id"):
        build_game(game, tmp_path / "out")
    assert not (tmp_path / "outside").exists() and not (tmp_path / "out").exists()   # refused before writing


@pytest.mark.parametrize("game", ["../../../counters/tutorial", "tutorial" + "," * 600, "/etc"])
def test_a_position_file_names_no_game_outside_its_folder(place, game):
    pos = place.root / "pos.yaml"
    pos.write_text(f"game: '{game}'\nunits: {{}}\n", encoding="utf-8")
    outcome = run_cli(["referee", "check", "-p", str(pos)], place)
    assert outcome.kind == "error" and "game" in outcome.detail, outcome


@pytest.mark.parametrize("kind", ["proto-deep", "proto-wide", "grid-attr", "entity-bomb", "external-entity",
                                  "traversal", "flip", "truncate", "xml-cut"])
def test_module_failure_classes(place, module_bytes, kind):
    rnd = random.Random(kind)
    tally = Tally()
    for n in range(6 if kind in ("grid-attr", "flip") else 1):
        data, what = mutate_archive(module_bytes[0], rnd, kind)
        path = place.root / "m.vmod"
        path.write_bytes(data)
        tally.add(what, run_cli(["vassal", "inspect", str(path), "--json"], place))
    assert not tally.failures, tally.failures


@pytest.mark.parametrize("kind", ["empty-piece", "save-junk", "flip", "many-traits"])
def test_save_failure_classes(place, module_bytes, kind):
    rnd = random.Random(kind)
    mod = place.root / "m.vmod"
    mod.write_bytes(module_bytes[0])
    tally = Tally()
    for n in range(8 if kind in ("empty-piece", "flip") else 1):
        data, what = mutate_archive(module_bytes[1], rnd, kind)
        path = place.root / "s.vsav"
        path.write_bytes(data)
        tally.add(what, run_cli(["vassal", "inspect", str(path), "--module", str(mod)], place))
    assert not tally.failures, tally.failures


def test_twelve_pieces_of_thousands_of_traits_fail_fast(place):
    path = place.root / "s.vsav"
    path.write_bytes(_many_traits(12, 1000))
    outcome = run_cli(["vassal", "inspect", str(path)], place)
    assert outcome.kind in ("ok", "findings", "error") and outcome.seconds < 10, outcome


# -- the seeded slices ----------------------------------------------------------------------


def test_fuzz_game_files(place, request):
    """Corrupted copies of each file of a game, through every command that reads a game."""
    n = _scale(request, 45, 2400)
    rnd = random.Random(11)
    commands = game_commands(place)
    tally = Tally()
    for case in range(n):
        place.reset()
        if rnd.random() < 0.2:
            path = place.game / "game.yaml"
            text, what = mutate_paths(path.read_text(encoding="utf-8"), rnd, place)
        else:
            path = place.game / rnd.choice(FILES)
            text, what = mutate_text(path.read_text(encoding="utf-8"), rnd)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        args, writes = rnd.choice(commands)
        outcome = run_cli(args, place, writes_out=writes)
        tally.add(f"case {case} {path.name} {what} | {' '.join(args[:3])}", outcome)
    print(f"\nfuzz game files: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures[:5])


def test_fuzz_positions(place, request):
    """Corrupted position files through the referee commands."""
    n = _scale(request, 15, 600)
    rnd = random.Random(12)
    from pathlib import Path
    sources = sorted((Path(__file__).resolve().parents[1] / "data" / "positions").glob("tutorial-*.yaml"))
    tally = Tally()
    for case in range(n):
        place.reset()
        text = rnd.choice(sources).read_text(encoding="utf-8")
        text, what = mutate_text(text, rnd)
        pos = place.root / "pos.yaml"
        pos.write_bytes(text.encode("utf-8", "surrogateescape"))
        args = rnd.choice([["referee", "check", "-p", str(pos), "--json"], ["referee", "moves", "b-1", "-p", str(pos)],
                           ["referee", "supply", "-p", str(pos)], ["referee", "path", "b-1", "0605", "-p", str(pos)],
                           ["referee", "combat", "r-10", "0905", "-p", str(pos)],
                           ["referee", "retreat", "b-1", "-p", str(pos)], ["referee", "setup", "-p", str(pos)]])
        tally.add(f"case {case} {what} | {args[1]}", run_cli(args, place))
    print(f"\nfuzz positions: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures[:5])


def test_fuzz_modules_and_saves(place, module_bytes, request):
    """Corrupted modules and saves through ``vassal inspect`` (with and without the module)."""
    n = _scale(request, 30, 1200)
    rnd = random.Random(13)
    tally = Tally()
    for case in range(n):
        place.reset()
        is_save = rnd.random() < 0.4
        data, what = mutate_archive(module_bytes[1] if is_save else module_bytes[0], rnd)
        path = place.root / ("s.vsav" if is_save else "m.vmod")
        path.write_bytes(data)
        module = place.root / "good.vmod"
        module.write_bytes(module_bytes[0])
        args = ["vassal", "inspect", str(path), "--json"]
        if is_save:
            args = rnd.choice([args, args + ["--module", str(module)],
                               ["referee", "turn", str(path), "-g", "tutorial", "-m", str(module), "--json"],
                               ["vassal", "position", str(path), "-m", str(module)]])
        tally.add(f"case {case} {path.name} {what}", run_cli(args, place))
    print(f"\nfuzz modules and saves: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures[:5])


def test_a_huge_grid_or_counter_file_is_refused_naming_the_limit(place):
    _set(place, "map.yaml", "columns: [1, 12]", "columns: [1, 9999]")
    _set(place, "map.yaml", "rows: [1, 10]", "rows: [1, 9999]")
    outcome = run_cli(["validate", str(place.game)], place)
    assert outcome.kind == "error" and "250,000" in outcome.detail and outcome.seconds < 5, outcome
    place.reset()
    path = place.game / "counters.csv"
    row = next(r for r in path.read_text().splitlines() if r.startswith("b-1,"))
    path.write_text(path.read_text() + "".join(row.replace("b-1,", f"x-{i},", 1) + "\n" for i in range(10_001)))
    outcome = run_cli(["validate", str(place.game)], place)
    assert outcome.kind == "error" and "10,000" in outcome.detail and outcome.seconds < 5, outcome
