"""Fixtures (imported by the tests that use them): the bundled games' modules (stand-in images, small DPI), built once and imported."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vassal"))
from vassal_fakes import BUNDLED, FAKES  # noqa: E402

from toolkit.importer import import_vmod  # noqa: E402
from toolkit.io import load_game  # noqa: E402
from toolkit.vassal import build_module  # noqa: E402

__all__ = ["BUNDLED"]


@pytest.fixture(scope="session")
def round_trip(tmp_path_factory):
    """game id -> (source game, imported game, import result) for a bundled game."""
    cache = {}

    def get(game_id: str):
        if game_id not in cache:
            game = load_game(game_id)
            out = tmp_path_factory.mktemp(f"rt-{game_id}")
            [path] = build_module(game, out / "module", lambda message: None, dpi=60, **FAKES)
            result = import_vmod(path, out / "game")
            cache[game_id] = (game, load_game(str(out / "game")), result)
        return cache[game_id]

    return get
