"""load_game's cache (toolkit/io/_gamecache.py): one parse per process while the files are
unchanged, a copy per caller, and any change to a file the game was read from read again."""

from __future__ import annotations

import os
import shutil

import pytest

from toolkit.errors import DataError
from toolkit.io import bundled_games, clear_game_cache, data_root, load_game
from toolkit.io import _gamecache
from toolkit.io import games as games_module


@pytest.fixture
def parses(monkeypatch):
    """How many times the game files were really parsed."""
    count = {"n": 0}
    real = games_module._load_game

    def counted(path):
        count["n"] += 1
        return real(path)
    monkeypatch.setattr(games_module, "_load_game", counted)
    clear_game_cache()
    return count


def _tutorial_copy(tmp_path, name="tut"):
    """The tutorial as a game folder of its own, laid out as bundled games are."""
    root = data_root()
    game = tmp_path / "counters" / name
    shutil.copytree(root / "counters" / "tutorial", game)
    if not (tmp_path / "maps" / "tutorial").exists():
        shutil.copytree(root / "maps" / "tutorial", tmp_path / "maps" / "tutorial")
    return game


@pytest.fixture
def copy_of_tutorial(tmp_path):
    return _tutorial_copy(tmp_path)


@pytest.mark.parametrize("game_id", bundled_games())
def test_a_cached_game_equals_a_fresh_parse_and_is_a_copy(game_id, parses):
    first = load_game(game_id)
    assert _gamecache._GAMES and all(e.blob is None for e in _gamecache._GAMES.values())  # loaded once: no pickle
    second = load_game(game_id)                  # the second load parses again and keeps the game
    again = load_game(game_id)
    assert parses["n"] == 2
    assert again == second == first == games_module._load_game(games_module.game_path(game_id))
    assert again is not second and again.maps is not second.maps and again.counters is not second.counters


def test_changing_what_you_got_changes_nobody_elses_game(parses):
    load_game("tutorial")
    mine = load_game("tutorial")
    m = next(iter(mine.maps.values()))
    hex = next(iter(m.hexes))
    m.hexes.pop(hex)
    mine.counters.clear()
    mine.scenarios.clear()
    theirs = load_game("tutorial")
    assert hex in next(iter(theirs.maps.values())).hexes and theirs.counters and theirs.scenarios
    assert parses["n"] == 2


def _warm(folder) -> object:
    """Load a game twice: the second load keeps it (pickled) in the cache."""
    load_game(str(folder))
    game = load_game(str(folder))
    assert all(e.blob is not None for e in _gamecache._GAMES.values())
    return game


def test_a_changed_file_is_read_again(copy_of_tutorial, parses):
    game = _warm(copy_of_tutorial)
    name = next(iter(game.scenarios.values())).name
    scenario = next(iter(game.files["scenarios"].values()))
    text = open(scenario).read()
    with open(scenario, "w") as fh:             # same size, rewritten at once: only the content says
        fh.write(text.replace(f"name: {name}", f"name: {name[::-1]}", 1))
    assert next(iter(load_game(str(copy_of_tutorial)).scenarios.values())).name == name[::-1]
    assert parses["n"] == 3
    _warm(copy_of_tutorial)
    assert next(iter(load_game(str(copy_of_tutorial)).scenarios.values())).name == name[::-1]
    assert parses["n"] == 4


@pytest.mark.parametrize("which", ["game", "counters", "map"])
def test_any_file_of_the_game_counts(copy_of_tutorial, parses, which):
    game = _warm(copy_of_tutorial)
    path = {"game": game.files["game"], "counters": game.files["counters"],
            "map": next(iter(game.files["maps"].values()))}[which]
    with open(path, "a") as fh:
        fh.write("\n")
    load_game(str(copy_of_tutorial))
    assert parses["n"] == 3


def test_an_old_unchanged_file_is_not_read_by_content(copy_of_tutorial, parses, monkeypatch):
    game = load_game(str(copy_of_tutorial))
    old = 1_000_000_000_000_000_000                  # 2001: far from "racily" new
    for path in [game.files["game"], game.files["counters"], *game.files["maps"].values(),
                 *game.files["scenarios"].values()]:
        os.utime(path, ns=(old, old))
    clear_game_cache()
    _warm(copy_of_tutorial)
    opened = []
    monkeypatch.setattr(_gamecache, "open", lambda *a, **k: opened.append(a) or open(*a, **k), raising=False)
    load_game(str(copy_of_tutorial))
    assert parses["n"] == 3 and opened == []


def test_a_file_gone_or_broken_is_an_error_again(copy_of_tutorial, parses):
    game = _warm(copy_of_tutorial)
    os.remove(game.files["counters"])
    with pytest.raises(DataError, match="counters.csv"):
        load_game(str(copy_of_tutorial))
    (copy_of_tutorial / "game.yaml").write_text("id: [")
    for _ in range(2):
        with pytest.raises(DataError, match="game.yaml"):
            load_game(str(copy_of_tutorial))
    assert parses["n"] == 5                          # errors are never cached


def test_the_cache_is_bounded(parses, tmp_path):
    for i in range(_gamecache.MAX_GAMES + 3):
        load_game(str(_tutorial_copy(tmp_path, f"g{i}")))
    assert len(_gamecache._GAMES) == _gamecache.MAX_GAMES
    assert parses["n"] == _gamecache.MAX_GAMES + 3
