"""Fixtures: the bundled games' modules, built once with stand-in images."""

from __future__ import annotations

import pytest

from toolkit.io import load_game
from toolkit.vassal import build_module
from vassal_fakes import FAKES


@pytest.fixture(scope="session")
def tutorial():
    return load_game("tutorial")


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """game id -> (game, path of its .vmod) for every bundled game, built with stand-in images."""
    cache = {}

    def get(game_id: str):
        if game_id not in cache:
            game = load_game(game_id)
            out = tmp_path_factory.mktemp(f"vmod-{game_id}")
            [path] = build_module(game, out, lambda message: None, dpi=60, **FAKES)
            cache[game_id] = (game, path)
        return cache[game_id]

    return get


@pytest.fixture(scope="session")
def bound(built):
    """game id -> the ModuleBinding of its (stand-in) module."""
    from toolkit.vassal.binding import ModuleBinding
    cache = {}

    def get(game_id: str):
        if game_id not in cache:
            game, path = built(game_id)
            cache[game_id] = ModuleBinding(game, path)
        return cache[game_id]

    return get
