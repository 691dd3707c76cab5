"""``hexforge build``: every output of a game into build/GAME/, all or nothing.

Steps run in order into a temporary folder beside the target; only when all succeed does it
replace build/GAME, so a failed build leaves no half-written output. Each step is a function
``step(game, out_dir, progress) -> list[Path]`` provided by its own package.
"""

from __future__ import annotations

import importlib
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

from .errors import BuildError, HexforgeError
from .game import Game, id_problem
from .validate import format_report, validate_game

#: name -> "module:function" of each build step, in the order they run.
STEPS = {
    "map": "toolkit.render:build_map",
    "counters": "toolkit.render:build_counters",
    "vassal": "toolkit.vassal:build_module",
    "referee": "toolkit.referee:build_plugin",
}

Progress = Callable[[str], None]


def _step(name: str):
    module_name, func = STEPS[name].split(":")
    module = importlib.import_module(module_name)
    return getattr(module, func)


def build_game(game: Game, out_root: str | Path = "build", steps: list[str] | None = None,
               progress: Progress = lambda message: None) -> tuple[Path, list[Path]]:
    """Run the build steps for ``game`` into ``out_root/<game id>``; returns the folder and files."""
    names = steps or list(STEPS)
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        raise BuildError(f"unknown build step {unknown[0]!r}; expected one of {', '.join(STEPS)}")
    for kind, value in [("game", game.id)] + [("map", m) for m in game.maps]:
        problem = id_problem(value)
        if problem:   # ids become folder and file names: refuse before anything is written
            raise BuildError(f"cannot build: {kind} {problem}")
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    target = out_root / game.id
    staging = Path(tempfile.mkdtemp(prefix=f".{game.id}-", dir=out_root))
    written: list[Path] = []
    timings: list[tuple[str, float]] = []
    try:
        report = validate_game(game)
        if not report.ok:
            first = "; ".join(f.format() for f in report.errors[:3])
            raise BuildError(f"{game.id} has {len(report.errors)} data errors, first: {first}; run "
                             f"'hexforge validate {game.id}'")
        if target.exists():
            # keep outputs of steps not run this time
            shutil.copytree(target, staging, dirs_exist_ok=True)
        for name in names:
            progress(f"{name}: building")
            start = time.perf_counter()
            files = _step(name)(game, staging, progress)
            timings.append((name, time.perf_counter() - start))
            written.extend(files)
            progress(f"{name}: {len(files)} files in {timings[-1][1]:.1f} s")
        lines = [f"hexforge build of {game.name} ({game.id})", ""]
        lines += [f"  {name:10s} {seconds:6.2f} s" for name, seconds in timings]
        lines += ["", "files written:"] + [f"  {p.relative_to(staging)}" for p in written]
        lines += ["", "validator:", format_report(report)]
        (staging / "report.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if target.exists():
            old = out_root / f".{game.id}-old"
            if old.exists():
                shutil.rmtree(old)
            target.rename(old)
            staging.rename(target)
            shutil.rmtree(old)
        else:
            staging.rename(target)
    except HexforgeError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    except Exception as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise BuildError(f"building {game.id} failed: {type(exc).__name__}: {exc}") from exc
    return target, [target / p.relative_to(staging) for p in written] + [target / "report.txt"]
