"""Build a 20,000-hex synthetic map into a PNG, a tiled A4 print PDF and a VASSAL module.

    python bench/monster_build.py [OUT_DIR] [--cols 200 --rows 100 --dpi 300]

Not part of the test run (it takes minutes): the proof that a monster map goes through every
output on an ordinary machine. Prints each step's time and the process's peak memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_map import synthetic_map  # noqa: E402


def main(argv: list[str]) -> None:
    from toolkit.game import Game
    from toolkit.io import load_game
    from toolkit.render.mapimage import render_map
    from toolkit.render.tiles import print_pdf
    from toolkit.vassal.module import build_module

    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default="build/monster")
    ap.add_argument("--cols", type=int, default=200)
    ap.add_argument("--rows", type=int, default=100)
    ap.add_argument("--dpi", type=int, default=300)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    game_map = synthetic_map(args.cols, args.rows)
    tutorial = load_game("tutorial")
    # the tutorial's sides and counters on the monster map (the module needs pieces)
    game_map = replace(game_map, id="main", unit_classes=tutorial.main_map.unit_classes,
                       weathers=tutorial.main_map.weathers)
    game = Game(id="monster", name="Monster map", sides=tutorial.sides, maps={"main": game_map},
                counters=dict(tutorial.counters), ruleset="tutorial")
    say = lambda text: print(text, flush=True)  # noqa: E731

    def peak() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    start = time.perf_counter()
    image = render_map(game_map, dpi=args.dpi, game=game)
    w, h = image.size
    say(f"{len(game_map.grid):,} hexes at {args.dpi} dpi: {w} x {h} px, planned in "
        f"{time.perf_counter() - start:.1f} s")
    t = time.perf_counter()
    png = image.save(out / "monster.png", say)
    say(f"PNG {png} ({png.stat().st_size / 2**20:.0f} MB) in {time.perf_counter() - t:.1f} s; peak {peak():.0f} MB")
    t = time.perf_counter()
    pdf = print_pdf(image, out / "monster-a4.pdf", "a4", progress=say)
    say(f"PDF {pdf} ({pdf.stat().st_size / 2**20:.0f} MB) in {time.perf_counter() - t:.1f} s; peak {peak():.0f} MB")
    del image
    t = time.perf_counter()
    vmod = build_module(game, out, say)
    say(f"module {vmod[0]} ({vmod[0].stat().st_size / 2**20:.0f} MB, map at 150 dpi) in "
        f"{time.perf_counter() - t:.1f} s; peak {peak():.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
