"""Finding rulesets and the emitted plugin package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.errors import RulesError
from toolkit.io import load_game
from toolkit.referee import Ruleset, available, build_plugin, get_ruleset, register
from toolkit.referee.plugin import ruleset_config, ruleset_from_config
from toolkit.rulesets.tutorial import RULESET


def test_bundled_ruleset_is_found():
    assert get_ruleset("tutorial") is RULESET or get_ruleset("tutorial") == RULESET
    assert "tutorial" in available()


def test_register_and_unknown_name():
    mine = register(Ruleset(name="test-only-ruleset"))
    assert get_ruleset("test-only-ruleset") is mine
    with pytest.raises(RulesError, match="no ruleset 'nope'"):
        get_ruleset("nope")
    with pytest.raises(RulesError):
        register("not a ruleset")


def test_config_round_trip():
    config = json.loads(json.dumps(ruleset_config(RULESET)))
    assert ruleset_from_config(config) == RULESET


def test_plugin_package_is_written(tmp_path):
    files = build_plugin(load_game("tutorial"), tmp_path, lambda m: None)
    root = tmp_path / "referee"
    names = {p.relative_to(root).as_posix() for p in files}
    assert {"pyproject.toml", "hexforge_referee_tutorial/__init__.py", "hexforge_referee_tutorial/ruleset.json",
            "hexforge_referee_tutorial/data/game.yaml"} <= names
    assert 'tutorial = "hexforge_referee_tutorial:RULESET"' in (root / "pyproject.toml").read_text().replace('"tutorial"', "tutorial")


def _metadata_dir(root: Path, out: Path) -> None:
    """Install the plugin into ``out/site`` the way a user would: build its wheel, install it (offline)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(out / "wheels"), str(root)], check=True, capture_output=True)
    wheels = list((out / "wheels").glob("*.whl"))
    assert len(wheels) == 1
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target",
                    str(out / "site"), str(wheels[0])], check=True, capture_output=True)


def test_installed_plugin_is_discovered(tmp_path):
    build_plugin(load_game("tutorial"), tmp_path, lambda m: None)
    _metadata_dir(tmp_path / "referee", tmp_path)
    code = ("from toolkit.referee.registry import _entry_points, get_ruleset\n"
            "from toolkit.rulesets.tutorial import RULESET\n"
            "import hexforge_referee_tutorial as p\n"
            "print(_entry_points()['tutorial'])\n"
            "print(get_ruleset('tutorial') == RULESET, p.load().id)\n"
            "from toolkit.referee.registry import plugin_game_dir\n"
            "print(plugin_game_dir('tutorial') == p.GAME_DIR)\n")
    # this checkout's toolkit (not whichever one is installed) reads the plugin it just wrote
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(root)]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["hexforge_referee_tutorial:RULESET", "True", "tutorial", "True"]
