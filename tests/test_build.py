"""The build orchestrator: all or nothing, report written, errors named."""

from pathlib import Path

import pytest

from toolkit import build as build_module
from toolkit.build import build_game
from toolkit.errors import BuildError
from toolkit.io import load_game


def _fake_steps(monkeypatch, steps):
    monkeypatch.setattr(build_module, "STEPS", {name: f"fake:{name}" for name in steps})
    monkeypatch.setattr(build_module, "_step", lambda name: steps[name])


def _writer(name):
    def step(game, out_dir: Path, progress):
        path = out_dir / name / f"{game.id}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
        progress(f"{name} wrote {path.name}")
        return [path]
    return step


def test_build_writes_every_step_and_a_report(tmp_path, monkeypatch):
    _fake_steps(monkeypatch, {"a": _writer("a"), "b": _writer("b")})
    messages = []
    target, files = build_game(load_game("tutorial"), tmp_path, progress=messages.append)
    assert target == tmp_path / "tutorial"
    assert (target / "a" / "tutorial.txt").read_text() == "a"
    assert (target / "b" / "tutorial.txt").read_text() == "b"
    report = (target / "report.txt").read_text()
    assert "a/tutorial.txt" in report and "0 errors" in report
    assert all(f.exists() for f in files)
    assert any("a wrote" in m for m in messages)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_failed_step_leaves_previous_build_untouched(tmp_path, monkeypatch):
    _fake_steps(monkeypatch, {"a": _writer("a")})
    target, _ = build_game(load_game("tutorial"), tmp_path)
    before = sorted(p.relative_to(target) for p in target.rglob("*"))

    def broken(game, out_dir, progress):
        (out_dir / "half-written.png").write_bytes(b"\x89PNG")
        raise RuntimeError("disk on fire")

    _fake_steps(monkeypatch, {"a": _writer("a"), "b": broken})
    with pytest.raises(BuildError, match="disk on fire"):
        build_game(load_game("tutorial"), tmp_path)
    assert sorted(p.relative_to(target) for p in target.rglob("*")) == before
    assert not (target / "half-written.png").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_unknown_step_is_named(tmp_path):
    with pytest.raises(BuildError, match="unknown build step 'paint'"):
        build_game(load_game("tutorial"), tmp_path, steps=["paint"])


def test_game_with_data_errors_is_not_built(tmp_path, monkeypatch):
    _fake_steps(monkeypatch, {"a": _writer("a")})
    game = load_game("tutorial")
    game.scenario().setup[0] = type(game.scenario().setup[0])(units=("no-such-unit",), hex=game.scenario().setup[0].hex)
    with pytest.raises(BuildError, match="data errors"):
        build_game(game, tmp_path)
    assert not (tmp_path / "tutorial").exists()
