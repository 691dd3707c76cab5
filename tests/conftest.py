"""Shared test set-up: hypothesis writes nothing into the repository; the tutorial game fixtures
(paths of test data and edit helpers: tests/datafiles.py)."""

from __future__ import annotations

import atexit
import gc
import shutil
import tempfile
from pathlib import Path

import pytest
# BROKEN, edit, line_of: still importable from conftest for tests written before datafiles.py
from datafiles import BROKEN, ROOT, edit, line_of  # noqa: F401
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# hypothesis keeps caches under .hypothesis/ in the working folder: keep them out of the checkout,
# in a temporary folder removed when the run ends
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="hexforge-hypothesis-")
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)
set_hypothesis_home_dir(_HYPOTHESIS_HOME)
settings.register_profile("hexforge", database=None, deadline=None)
settings.load_profile("hexforge")

# a test process holds far more than a command does (every game, board and drawing its tests
# cached: about a million objects): at the default thresholds (700, 10, 10) the garbage collector
# went through all of it every few seconds, 36 of the 88 CPU-s of tests/referee, rulesets, vassal
# and play in one process. Collected less often (the young every 10,000 allocations, the whole
# heap a third as often), 13 of 66, its peak memory 620 -> 720 MB (at (10000, 10, 100): 9 of 64,
# 1,150 MB); the cycles the tests leave are still freed
gc.set_threshold(10_000, 10, 30)


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="Run the long fuzz run of tests/fuzz (thousands of corrupted inputs) and print its figures.")


@pytest.fixture(scope="session")
def tutorial():
    """The bundled tutorial game, loaded once (tests must copy before changing it)."""
    from toolkit.io import load_game

    return load_game(str(ROOT / "counters" / "tutorial"))


@pytest.fixture
def game_copy(tmp_path) -> Path:
    """A writable copy of the tutorial game folder, with its map beside it."""
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "counters" / "tutorial", folder)
    shutil.copy(ROOT / "maps" / "tutorial" / "map.yaml", folder / "map.yaml")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("../../maps/tutorial/map.yaml", "map.yaml"), encoding="utf-8")
    return folder

