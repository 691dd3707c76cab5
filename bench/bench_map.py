"""Map rendering benchmark: speed against a plain polygon fill, and peak memory by map size.

    python bench/bench_map.py            # every case, each in its own process
    python bench/bench_map.py --quick    # the 1,000-hex speed case only
    python bench/bench_map.py --quick --fresh-memory   # fresh pages for every run's image

Speed cases render a synthetic map with every kind of feature (terrain symbols, lakes,
rivers, roads, rail, places, victory hexes, edges), every pixel of it (planned, then drawn
strip by strip and thrown away), against a baseline that only fills the same hex polygons
with pillow into one image of the render's size. Each side runs in processes of its own (so
neither inherits the other's heap or caches), in alternating rounds; each process times one
first run, then several repeats, each on a map of its own (same size and mix of features,
other random terrain, places and lakes: caches help only with what maps share, such as
glyphs, symbols and pond shapes at one hex size). The table gives the median of all repeats
of each side, and the render's first run in a fresh process (cold caches) beside it.

Memory for the image: by default both sides keep the heap they have grown (glibc told not to
hand big blocks back to the system between runs), so no repeat pays for fresh pages, the
condition in which the two used to be timed side by side in one process; ``--fresh-memory``
times both sides with glibc's defaults instead, where every run maps and faults in new pages
for its image (as a one-off ``hexforge map`` does): a cost of the same size on both sides.

Memory cases plan a map and write its PNG (strip by strip) and its A4 print PDF (page by
page) in a fresh process; peak memory is that process's maximum resident set size (pillow's
buffers are invisible to tracemalloc). Targets: within 1 GB at 20,000 hexes and 300 dpi, and
the 5,000- and 20,000-hex peaks within 20% of each other (memory follows the strip, not the map).
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the toolkit next to this file (a worktree), not whichever copy is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SPEED = {
    "1k@150": dict(cols=40, rows=25, dpi=150, ratio=5.0, repeats=5, rounds=3),
    "5k@300": dict(cols=100, rows=50, dpi=300, ratio=3.0, repeats=2, rounds=2),
}
MEMORY = {
    "5k@300": dict(cols=100, rows=50, dpi=300),
    "20k@300": dict(cols=200, rows=100, dpi=300),
}
MEMORY_TARGET_MB = 1024
SAME_PEAK = 0.20


def synthetic_map(cols: int, rows: int, seed: int = 1):
    from toolkit.game import (HexsideFeature, HexsideType, HexTerrain, Line, LineType, Map, MapEdge,
                              Place, TerrainType, VictoryHex, CostTable)
    from toolkit.hexes import Grid, Hex, Hexside, Numbering

    grid = Grid(1, cols, 1, rows, numbering=Numbering(col_digits=3 if cols > 99 else 2,
                                                               row_digits=3 if rows > 99 else 2))
    cost = CostTable({("*", "*"): 1})
    types = {c: TerrainType(c, n, move=cost) for c, n in
             [("c", "Clear"), ("w", "Woods"), ("s", "Swamp"), ("r", "Rough"), ("h", "Hills"),
              ("t", "Town"), ("l", "Lake")]}
    types["v"] = TerrainType("v", "Village", overlay=True)
    rng = random.Random(seed)
    weights = [("c", 50), ("w", 20), ("s", 8), ("r", 8), ("h", 8), ("t", 2), ("l", 4)]
    pool = [c for c, n in weights for _ in range(n)]
    hexes = {h: HexTerrain(rng.choice(pool), ("v",) if rng.random() < 0.03 else ()) for h in grid}
    sides: dict = {}
    # rivers: walk down hexside chains between columns
    for col in range(4, cols, 9):
        for row in range(1, rows + 1):
            a = Hex(col, row)
            for b in grid.neighbours(a):
                if b.col == col + 1:
                    side = Hexside.of(a, b)
                    sides[side] = [HexsideFeature(side, "river")]
    lines = []
    for row in range(3, rows, 7):
        lines.append(Line("road", tuple(Hex(c, row) for c in range(1, cols + 1))))
    for col in range(6, cols, 13):
        lines.append(Line("rail", tuple(Hex(col, r) for r in range(1, rows + 1))))
    places = [Place(f"Place {i}", Hex(rng.randint(1, cols), rng.randint(1, rows)), "town") for i in range(cols * rows // 40)]
    victory = [VictoryHex(p.hex, 2) for p in places[::3]]
    return Map(id="bench", name="Bench", grid=grid, terrain_types=types,
               hexside_types={"river": HexsideType("river", "River", width="major")},
               line_types={"road": LineType("road", "Road"), "rail": LineType("rail", "Railway", rail=True)},
               hexes=hexes, hexsides=sides, lines=lines, places=places, victory=victory,
               edges=[MapEdge("west", "a"), MapEdge("east", "b")])


def baseline(game_map, dpi: int, image_size: tuple[int, int]) -> float:
    """Fill the same hex polygons with pillow into an image of the render's size (``image_size``:
    hexes, margin and legend band), nothing else."""
    from PIL import Image, ImageDraw

    from toolkit.hexes import Layout

    start, cpu = time.perf_counter(), time.process_time()
    size = game_map.hex_size_inches * dpi
    layout = Layout.fit(game_map.grid, size, 0.42 * dpi)
    image = Image.new("RGB", image_size, "white")
    draw = ImageDraw.Draw(image)
    for h in game_map.grid:
        draw.polygon(layout.corners(h), fill=(200, 220, 180), outline=(60, 60, 60))
    elapsed = time.perf_counter() - start, time.process_time() - cpu
    del image
    return elapsed


def _render(game_map, dpi: int) -> tuple[float, float, tuple[int, int]]:
    """Plan and draw every pixel of ``game_map`` strip by strip: (wall s, CPU s, image size)."""
    from toolkit.render.mapimage import render_map

    start, cpu = time.perf_counter(), time.process_time()
    image = render_map(game_map, dpi=dpi)
    for strip in image.strips():
        del strip
    return time.perf_counter() - start, time.process_time() - cpu, image.size


def run_speed(name: str, side: str) -> dict:
    """One process's runs of one side (``render`` or ``baseline``) of a speed case: its first
    run, then ``repeats`` more (wall and CPU seconds each)."""
    from toolkit.render.mapimage import render_map   # imported before any run is timed

    case = SPEED[name]
    maps = [synthetic_map(case["cols"], case["rows"], seed=1 + k) for k in range(1 + case["repeats"])]
    dpi = case["dpi"]
    if side == "render":
        runs = [_render(game_map, dpi) for game_map in maps]
        size = runs[0][2]
    else:
        sizes = [render_map(game_map, dpi=dpi).size for game_map in maps]   # plans only (not timed)
        runs = [baseline(game_map, dpi, size) for game_map, size in zip(maps, sizes)]
        size = sizes[0]
    return dict(case=name, side=side, hexes=len(maps[0].grid), dpi=dpi, size=list(size),
                first=list(runs[0][:2]), repeats=[list(r[:2]) for r in runs[1:]])


#: glibc keeps what the heap has grown to (no trimming, big blocks from the heap, not mmap)
_KEEP_HEAP = {"MALLOC_MMAP_THRESHOLD_": str(2**30), "MALLOC_TRIM_THRESHOLD_": str(2**32)}


def speed_case(name: str, fresh_memory: bool = False) -> dict:
    """Both sides of a speed case, each in processes of its own, in alternating rounds."""
    case = SPEED[name]
    runs: dict[str, list] = {"render": [], "baseline": []}
    firsts = []
    env = None if fresh_memory else _KEEP_HEAP
    for k in range(case["rounds"]):
        for side in (("baseline", "render") if k % 2 == 0 else ("render", "baseline")):
            out = _child("speed", name, side, env=env)
            runs[side] += out["repeats"]
            if side == "render":
                firsts.append(out["first"][0])
                size, n = out["size"], out["hexes"]
    med = {side: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for side, r in runs.items()}
    (wall, cpu), (base, base_cpu) = med["render"], med["baseline"]
    # the least CPU time of each side: what a run costs when nothing else slows it (a core
    # shared with other work, a page fault more), the steadiest figure on a busy machine
    least = {side: min(c for _, c in r) for side, r in runs.items()}
    return dict(case=name, hexes=n, dpi=case["dpi"], size=size, seconds=wall, ms_per_hex=wall * 1000 / n,
                baseline=base, ratio=wall / base, cpu=cpu, baseline_cpu=base_cpu, cpu_ratio=cpu / base_cpu,
                least_ratio=least["render"] / least["baseline"],
                first=statistics.median(firsts), target=case["ratio"], runs=len(runs["render"]))


def run_memory(name: str) -> dict:
    from toolkit.render.mapimage import render_map
    from toolkit.render.tiles import print_pdf

    case = MEMORY[name]
    game_map = synthetic_map(case["cols"], case["rows"])
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        image = render_map(game_map, dpi=case["dpi"])
        planned = time.perf_counter()
        image.save(os.path.join(tmp, "map.png"))
        png = time.perf_counter()
        png_mb = os.path.getsize(os.path.join(tmp, "map.png")) / 2**20
        pages = []
        print_pdf(image, os.path.join(tmp, "map.pdf"), progress=pages.append)
        pdf = time.perf_counter()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return dict(case=name, hexes=len(game_map.grid), size=image.size, plan=planned - start, png=png - planned,
                png_mb=png_mb, pdf=pdf - png, pages=len(pages) or 1, peak_mb=peak_mb)


def _child(kind: str, *args: str, env: dict | None = None) -> dict:
    environ = {k: v for k, v in os.environ.items() if k not in _KEEP_HEAP} | (env or {})
    out = subprocess.run([sys.executable, __file__, "--" + kind, *args], capture_output=True, text=True, check=True,
                         env=environ)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    if argv[:1] == ["--speed"]:
        print(json.dumps(run_speed(argv[1], argv[2])))
        return
    if argv[:1] == ["--memory"]:
        print(json.dumps(run_memory(argv[1])))
        return
    quick = "--quick" in argv
    fresh = "--fresh-memory" in argv
    rows = [speed_case(name, fresh) for name in (["1k@150"] if quick else SPEED)]
    head = (f"{'case':8} {'hexes':>6} {'image px':>13} {'render s':>9} {'ms/hex':>7} {'baseline s':>10} "
            f"{'ratio':>6} {'cpu s':>6} {'base cpu':>8} {'cpu ratio':>9} {'least cpu':>9} {'first s':>8} {'target':>6} "
            f"{'ok':>3}")
    print(head)
    print("-" * len(head))
    for r in rows:
        w, h = r["size"]
        ok = "yes" if r["ratio"] <= r["target"] else "NO"
        print(f"{r['case']:8} {r['hexes']:>6} {w:>6}x{h:<6} {r['seconds']:>9.3f} {r['ms_per_hex']:>7.3f} "
              f"{r['baseline']:>10.3f} {r['ratio']:>5.1f}x {r['cpu']:>6.3f} {r['baseline_cpu']:>8.3f} "
              f"{r['cpu_ratio']:>8.1f}x {r['least_ratio']:>8.2f}x {r['first']:>8.3f} {r['target']:>5.0f}x {ok:>3}")
    print("\nrender: plan + every pixel drawn strip by strip; baseline: the same hex polygons filled with"
          "\npillow into one image of the render's size (no symbols, text or lines). Each side in processes"
          "\nof its own, alternating; each process times a first run, then repeats, each on a map of its"
          "\nown: render s, baseline s and cpu are medians of all repeats ("
          + ", ".join(f"{r['runs']} per side for {r['case']}" for r in rows) + "),\n"
          + ("every run's image in fresh pages (--fresh-memory)" if fresh else "the heap kept between runs") +
          "; first s: the render's first run in a fresh process (glyph, symbol and style caches cold),"
          "\nmedian over the rounds. ok: the wall-clock ratio. cpu: the processes' CPU time for the same"
          "\nruns (on a machine shared with other work the wall clock also counts waiting for a core);"
          "\nleast cpu: the render's least CPU time over all its runs against the fill's least, the"
          "\nsteadiest figure when the machine is busy (each side's cost without the slowdowns).")
    if quick:
        return
    mem = [_child("memory", name) for name in MEMORY]
    print()
    head = (f"{'case':8} {'hexes':>6} {'image px':>13} {'plan s':>7} {'PNG s':>7} {'PNG MB':>7} {'PDF s':>7} "
            f"{'pages':>5} {'peak MB':>8} {'target':>7} {'ok':>3}")
    print(head)
    print("-" * len(head))
    for r in mem:
        w, h = r["size"]
        ok = "yes" if r["peak_mb"] <= MEMORY_TARGET_MB else "NO"
        print(f"{r['case']:8} {r['hexes']:>6} {w:>6}x{h:<6} {r['plan']:>7.1f} {r['png']:>7.1f} {r['png_mb']:>7.1f} "
              f"{r['pdf']:>7.1f} {r['pages']:>5} {r['peak_mb']:>8.0f} {MEMORY_TARGET_MB:>7} {ok:>3}")
    small, big = mem[0]["peak_mb"], mem[-1]["peak_mb"]
    growth = big / small - 1
    print(f"\npeak at {mem[-1]['hexes']:,} hexes vs {mem[0]['hexes']:,}: {growth:+.0%} (target within "
          f"{SAME_PEAK:.0%}: {'yes' if abs(growth) <= SAME_PEAK else 'NO'}); peak MB is each process's maximum RSS"
          "\n(plan, PNG in strips, then the A4 PDF page by page, in one fresh process per size).")


if __name__ == "__main__":
    main(sys.argv[1:])
