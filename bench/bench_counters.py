"""Benchmark: 560 two-sided counters at 300 DPI into a duplex PDF (target: under 15 s).

Baseline, measured in the same run: the same pages and PDF, but every counter face is a
bitmap rendered beforehand, so the baseline only pastes and writes. The ratio says how much
drawing the counters costs on top of the page work any sheet writer has.

    python bench/bench_counters.py
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
import time
from pathlib import Path

from toolkit.game import Counter
from toolkit.io import load_game
from toolkit.render import sheets
from toolkit.render.counters import render_face
from toolkit.render.sheets import SheetSpec, plan_pages, write_sheets

TARGET_S = 15.0
N = 560
TYPES = ["infantry", "armour", "mechanised", "motorised", "reconnaissance", "cavalry", "artillery",
         "rocket artillery", "anti-tank", "assault gun", "engineer", "ski", "mountain", "airborne", "hq",
         "anti-aircraft", "machine-gun", "mortar", "security"]
SIZES = ["I", "II", "III", "X", "XX", "KG"]
BACKS = ["reduced", "reduced", "reduced", "fired", "untried", "cadre", "blank"]


def _game():
    """The tutorial game with 560 distinct two-sided counters (every type, size and back kind)."""
    game = load_game("tutorial")
    counters = {}
    for i in range(N):
        side = game.sides[i % 2].id
        kind = BACKS[i % len(BACKS)]
        front = {"attack": 1 + i % 9, "defence": 1 + (i // 3) % 8, "movement": 3 + i % 7}
        back = {"attack": max(1, front["attack"] // 2), "defence": max(1, front["defence"] // 2),
                "movement": front["movement"]} if kind in ("reduced", "cadre") else {"movement": front["movement"]}
        counters[f"c{i}"] = Counter(
            id=f"c{i}", side=side, name=f"{i % 97}/{i % 13 + 1}", type=TYPES[i % len(TYPES)], size=SIZES[i % 6],
            formation=f"{side}-{i // 40}", steps=2 if kind == "reduced" else 1, back_kind=kind,
            front=front, back=back, marks=("*",) if i % 11 == 0 else ())
    return dataclasses.replace(game, counters=counters)


def _baseline(game, spec: SheetSpec, path: Path) -> None:
    """Same pages and PDF, from bitmaps drawn before the clock starts (pasting only)."""
    cache = {}
    for counter in game.counters.values():
        for back in (False, True):
            cache[(counter.id, back)] = render_face(game, counter, spec.counter_px, back=back, bleed=spec.bleed_px)
    pages = plan_pages(game, spec)
    start = time.perf_counter()

    def images():
        for page in pages:
            yield sheets.render_page(game, spec, page, cache=cache)
            yield sheets.render_page(game, spec, page, back=True, cache=cache)

    sheets.save_pdf(images(), path, spec.resolution)
    return time.perf_counter() - start


def main() -> int:
    game = _game()
    spec = SheetSpec(size_in=0.625, dpi=300, paper="a4")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        start = time.perf_counter()
        write_sheets(game, spec, out / "full.pdf")
        full = time.perf_counter() - start
        base = _baseline(game, spec, out / "base.pdf")
        pages = 2 * len(plan_pages(game, spec))
        size_mb = (out / "full.pdf").stat().st_size / 1e6
    rate = N / full
    print(f"{N} two-sided counters, 5/8 in at {spec.dpi} DPI ({spec.counter_px} px), A4 duplex, {pages} pages, "
          f"{size_mb:.1f} MB")
    print(f"{'measure':32s} {'value':>10s} {'target':>10s}")
    print(f"{'render + PDF (s)':32s} {full:10.2f} {TARGET_S:10.1f}")
    print(f"{'counters per second':32s} {rate:10.1f} {N / TARGET_S:10.1f}")
    print(f"{'baseline: paste + PDF only (s)':32s} {base:10.2f}")
    print(f"{'ratio full / baseline':32s} {full / base:10.2f}")
    print("PASS" if full < TARGET_S else "FAIL")
    return 0 if full < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
