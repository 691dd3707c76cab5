"""Benchmarks: writing the largest bundled game's module (target: under 20 s), and reading
large published-size modules (target: a 69 MB module in under 3 s).

Writing: the largest game is the one with the most hexes plus counters.
The largest game is the one with the most hexes plus counters. The module is built with the
real renderers at the default 150 DPI; the breakdown is images (rendering and PNG encoding),
XML (plan, pieces, setups, buildFile) and zip.

Baseline, measured in the same run: the renderers alone (the map image and every counter
face, no PNG encoding, no module), i.e. the work any exporter must do before it writes a
byte. The ratio says what the module costs on top of drawing its pictures.

Reading: modules of 35, 69 and 140 MB written the way VASSAL's editor writes them
(bench/synthetic_vmod.py: hundreds of piece slots of 20-60 traits on 40 prototypes, decks of
masked cards, thousands of images, four set-ups of 3,000+ pieces each, Decks in the set-ups),
plus any modules named on the command line. Each is read by ``vassal inspect`` and imported
by ``import vmod``, each step in a fresh process (its peak memory is that process's). The
baseline, measured in the same run and process kind: the least any reader does, every zip
entry decompressed and the buildFile parsed by lxml. Ratio = CPU time / the baseline's (wall
times are printed too; on a shared machine they grow with its load, CPU times much less).

    python bench/bench_vassal.py [write|read] [MODULE.vmod ...]
"""

from __future__ import annotations

import json
import os
import subprocess
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
READ_TARGET_S = 3.0      # a 69 MB module, inspected
ROOT = Path(__file__).resolve().parents[1]
#: (label, images MB, piece slots, pieces per set-up, cards): the middle one has the size and
#: slot count of the published module the issue timed (69 MB, 782 slots)
SIZES = [("35 MB", 30, 400, 1500, 120), ("69 MB", 65, 782, 3000, 220), ("140 MB", 130, 1200, 5000, 400)]

_STEP = r"""
import json, sys, time, zipfile
kind, path, out = sys.argv[1:4]
from lxml import etree
from toolkit.importer import import_vmod
from toolkit.vassal import inspect
start, cpu = time.perf_counter(), time.process_time()   # after the imports: the reading, not Python's start-up
if kind == "baseline":
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            data = zf.read(info)
            if info.filename == "buildFile.xml":
                etree.fromstring(data)
    extra = {}
elif kind == "inspect":
    report = inspect(path)
    extra = {"slots": len(report["pieces"]), "pieces": sum(len(s.get("pieces", [])) for s in report["setups"]),
             "problems": len(report["problems"])}
else:
    result = import_vmod(path, out)
    extra = {"counters": result.counts["counters"], "decks": len(result.game.decks)}
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
# the process's own peak (VmHWM starts again at exec; ru_maxrss would keep the parent's)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(json.dumps({"s": seconds, "cpu": cpu, "mb": peak / 1024, **extra}))
"""


def _step(kind: str, module: Path, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _STEP, kind, str(module), str(out)], capture_output=True, text=True,
                          env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def read_bench(extra: list[str]) -> bool:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from synthetic_vmod import make_module

    ok = True
    print(f"{'module':<24}{'MB':>5}{'slots':>6}{'pieces':>7}{'baseline s':>11}{'cpu s':>7}{'inspect s':>10}{'cpu s':>7}"
          f"{'ratio':>6}{'import s':>9}{'cpu s':>7}{'ratio':>6}{'peak MB':>8}{'base MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        modules = []
        for label, images_mb, slots, pieces, cards in SIZES:
            path = Path(folder) / f"synthetic-{label.split()[0]}.vmod"
            make_module(path, slots=slots, pieces=pieces, cards=cards, images_mb=images_mb)
            modules.append((f"synthetic {label}", path))
        modules += [(Path(m).name[:23], Path(m)) for m in extra]
        for label, path in modules:
            base = _step("baseline", path, Path(folder) / "none")
            read = _step("inspect", path, Path(folder) / "none")
            out = Path(folder) / f"game-{path.stem}"
            try:
                imported = _step("import", path, out)
            except subprocess.CalledProcessError as exc:   # a real module hexforge cannot import (no hex grid)
                imported = {"s": float("nan"), "cpu": float("nan"), "mb": 0.0}
                print(f"  ({label}: import refused: {exc.stderr.strip().splitlines()[-1][:90]})")
            size = path.stat().st_size / 1e6
            print(f"{label:<24}{size:>5.0f}{read['slots']:>6}{read['pieces']:>7}{base['s']:>11.2f}{base['cpu']:>7.2f}"
                  f"{read['s']:>10.2f}{read['cpu']:>7.2f}{read['cpu'] / base['cpu']:>6.1f}{imported['s']:>9.2f}"
                  f"{imported['cpu']:>7.2f}{imported['cpu'] / base['cpu']:>6.1f}{max(read['mb'], imported['mb']):>8.0f}"
                  f"{base['mb']:>8.0f}")
            if label == "synthetic 69 MB":
                ok = read["cpu"] < READ_TARGET_S
    print()
    print(f"target: the 69 MB module inspected in under {READ_TARGET_S:.0f} s of CPU (the wall time of an idle "
          "machine: the reader is single-threaded; wall times grow with the machine's load); baseline = every zip "
          "entry decompressed + the buildFile parsed by lxml, same run; ratio = CPU time / baseline's; peak MB = "
          "the larger process's peak RSS (inspect or import), base MB the baseline's")
    return ok


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
    args = sys.argv[1:]
    kind = args.pop(0) if args and args[0] in ("write", "read") else "all"
    ok = True
    if kind in ("all", "read"):
        ok = read_bench(args) and ok
        print()
    if kind in ("all", "write"):
        ok = write_bench() and ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def write_bench() -> bool:
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
    return total < TARGET_S and not report["problems"]


if __name__ == "__main__":
    sys.exit(main())
