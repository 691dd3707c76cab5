"""Benchmark: the largest bundled game's VASSAL module (target: under 20 s), with a breakdown.

The largest game is the one with the most hexes plus counters. The module is built with the
real renderers at the default 150 DPI; the breakdown is images (rendering and PNG encoding),
XML (plan, pieces, setups, buildFile) and zip.

Baseline, measured in the same run: the renderers alone (the map image and every counter
face, no PNG encoding, no module), i.e. the work any exporter must do before it writes a
byte. The ratio says what the module costs on top of drawing its pictures.

    python bench/bench_vassal.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from toolkit.io import load_game
from toolkit.render import render_counter, render_map
from toolkit.vassal import build_module, inspect
from toolkit.vassal.module import DEFAULT_DPI
from toolkit.vassal.pieces import step_faces

TARGET_S = 20.0
ROOT = Path(__file__).resolve().parents[1]


def _largest():
    games = [load_game(p.parent.name) for p in sorted((ROOT / "counters").glob("*/game.yaml"))]
    return max(games, key=lambda g: sum(len(m.grid) for m in g.maps.values()) + len(g.counters))


def _baseline(game) -> float:
    px = max(24, round(game.counter_style.size_inches * DEFAULT_DPI))
    start = time.perf_counter()
    for game_map in game.maps.values():
        render_map(game_map, dpi=DEFAULT_DPI, game=game)
    for counter in game.counters.values():
        for face in step_faces(counter):  # the faces the module draws: front, back, cadre
            render_counter(game, counter, back=face != "front", px=px, state=None if face != "cadre" else face)
    return time.perf_counter() - start


def main() -> int:
    game = _largest()
    with tempfile.TemporaryDirectory() as folder:
        timings: dict[str, float] = {}
        start = time.perf_counter()
        [path] = build_module(game, Path(folder), lambda message: None, timings=timings)
        total = time.perf_counter() - start
        size_mb = path.stat().st_size / 1e6
        report = inspect(path)
    baseline = _baseline(game)
    hexes = sum(len(m.grid) for m in game.maps.values())
    pieces = sum(len(s.get("pieces", [])) for s in report["setups"])
    print(f"{game.id}: {hexes} hexes, {len(game.counters)} counters, {len(report['setups'])} setups "
          f"({pieces} pieces), {size_mb:.1f} MB module, {len(report['problems'])} problems on read-back")
    print()
    print(f"{'part':<10}{'measured s':>12}{'target s':>10}{'baseline s':>12}{'ratio':>8}")
    for part in ("images", "xml", "zip"):
        print(f"{part:<10}{timings[part]:>12.2f}{'':>10}{'':>12}{'':>8}")
    print(f"{'total':<10}{total:>12.2f}{TARGET_S:>10.1f}{baseline:>12.2f}{total / baseline:>8.2f}")
    print()
    print("baseline: the renderers alone (map + every counter face), same run; ratio = total / baseline")
    ok = total < TARGET_S and not report["problems"]
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
