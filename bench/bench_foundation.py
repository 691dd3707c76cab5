"""Foundation benchmark: load + validate a generated 5,000-hex map, and hex maths in tight loops.

Run ``python bench/bench_foundation.py``. It prints one table: each measured figure, its target
and, for the hex maths, the ratio against a minimal inline-arithmetic baseline measured in the
same run (the same work written as bare integer arithmetic on (col, row) pairs, no objects).

Targets (the FOUNDATION issue): load_map + validate_map of a 5,000-hex map under 1 s;
``Grid.neighbours`` and ``Grid.distance`` within 2x of the baseline.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolkit.hexes import Grid, Hex  # noqa: E402
from toolkit.io import load_map  # noqa: E402
from toolkit.validate import validate_map  # noqa: E402

COLS, ROWS = 100, 50
CODES = ["clear", "woods", "rough", "hills", "swamp", "town"]


def generate_map(path: Path, cols: int = COLS, rows: int = ROWS, seed: int = 1) -> None:
    """A map file with every block kind: row terrain with features, per-hex blocks, hexsides,
    roads and rail, places, victory hexes, supply, edges and boxes."""
    rng = random.Random(seed)
    grid = Grid(1, cols, 1, rows, numbering=_numbering(cols, rows))
    fmt = grid.format
    out = [
        "id: bench", "name: Generated benchmark map",
        "grid:", "  orientation: flat", "  shifted: even", f"  columns: [1, {cols}]", f"  rows: [1, {rows}]",
        f"  numbering: {{col_digits: {len(str(cols))}, row_digits: {len(str(rows))}}}",
        "weathers: [clear, mud, snow]", "unit_classes: [foot, mech, cav]",
        "terrain_types:",
    ]
    for code in CODES:
        out.append(f"  {code}: {{name: {code.title()}, move: {{'*': 1, mech/mud: 2, '*/snow': 2}}, rule: 'B.1'}}")
    out += ["  village: {name: Village, overlay: true, combat: {defence: '+1'}, rule: 'B.1'}",
            "hexside_types:",
            "  stream: {name: Stream, move: {'*': 1}, width: minor, rule: 'B.2'}",
            "  river: {name: River, move: {foot: 2, cav: 2, mech: P}, width: major, blocks_supply: true, "
            "rule: 'B.2'}",
            "  bridge: {name: Bridge, move: {'*': 0}, bridge: true, width: minor, rule: 'B.2'}",
            "line_types:",
            "  road: {name: Road, move: {'*': 1/2}, rule: 'B.3'}",
            "  rail: {name: Rail, move: {'*': 1/3}, rail: true, rule: 'B.3'}",
            "terrain:",
            "  - estimated: generated",
            "    rows:"]
    for row in range(1, rows + 1):
        tokens = []
        for _ in range(cols):
            token = rng.choice(CODES)
            if token == "clear" and rng.random() < 0.1:
                token += "+village"
            tokens.append(token)
        out.append(f"      \"{row}\": \"{' '.join(tokens)}\"")
    for i in range(50):  # exceptions, one hex each
        hex = Hex(rng.randint(1, cols), rng.randint(1, rows))
        out.append(f"  - {{hex: '{fmt(hex)}', terrain: woods, rule: 'B.4'}}")
    # a river down column boundaries, a stream, and a bridge where the road crosses the river
    river = [f"{fmt(Hex(cols // 2, r))}/{fmt(Hex(cols // 2 + 1, r))}" for r in range(1, rows + 1)]
    stream = [f"{fmt(Hex(c, rows // 3))}/{fmt(Hex(c, rows // 3 + 1))}" for c in range(1, cols + 1)]
    out += ["hexsides:",
            f"  - {{feature: river, sides: '{' '.join(river)}', rule: 'B.5'}}",
            f"  - {{feature: stream, sides: '{' '.join(stream)}', rule: 'B.5'}}",
            f"  - {{feature: bridge, sides: '{river[rows // 2 - 1]}', rule: 'B.5'}}",
            "lines:"]
    for r in range(5, rows, 10):
        out.append(f"  - {{type: road, hexes: '{' '.join(fmt(Hex(c, r)) for c in range(1, cols + 1))}', rule: 'B.6'}}")
    out.append(f"  - {{type: rail, hexes: '{' '.join(fmt(Hex(3, r)) for r in range(1, rows + 1))}', rule: 'B.6'}}")
    out += ["places:"] + [f"  - {{name: Town {i}, hex: '{fmt(Hex(2 + i * 4, 3 + i))}', rule: 'B.7'}}"
                          for i in range(20)]
    out += ["victory:"] + [f"  - {{hex: '{fmt(Hex(2 + i * 4, 3 + i))}', points: 1, rule: 'B.8'}}" for i in range(10)]
    out += ["supply:", "  - {side: blue, edge: west, rule: 'B.9'}",
            f"  - {{side: red, hexes: '{fmt(Hex(cols, 1))}-{fmt(Hex(cols, rows))}', rule: 'B.9'}}",
            "edges:", "  - {edge: west, side: blue, rule: 'B.9'}",
            "boxes:", f"  - {{id: reserve, name: Reserve, side: blue, entry: '{fmt(Hex(1, 1))}', rule: 'B.10'}}"]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _numbering(cols: int, rows: int):
    from toolkit.hexes import Numbering

    return Numbering(col_digits=len(str(cols)), row_digits=len(str(rows)))


def best_of(fn, repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_of_pair(ours, base, repeat: int) -> tuple[float, float]:
    """The fastest of ``repeat`` runs of each, run in turns so both see the same machine load."""
    t_ours, t_base = [], []
    for _ in range(repeat):
        t_base.append(best_of(base, 1))
        t_ours.append(best_of(ours, 1))
    return min(t_ours), min(t_base)


# -- the inline-arithmetic baselines ---------------------------------------------------------
# Flat grid, even columns half a hex lower, columns 1..COLS and rows 1..ROWS ascending: the
# layout is fixed in the code, which is all a hand-written loop would do.


def baseline_neighbours(pairs, cols=COLS, rows=ROWS) -> int:
    total = 0
    for col, row in pairs:
        if col % 2 == 0:  # shifted column: its side neighbours are on rows r and r+1
            cand = ((col, row - 1), (col + 1, row), (col + 1, row + 1), (col, row + 1), (col - 1, row + 1),
                    (col - 1, row))
        else:
            cand = ((col, row - 1), (col + 1, row - 1), (col + 1, row), (col, row + 1), (col - 1, row),
                    (col - 1, row - 1))
        found = tuple(h for h in cand if 1 <= h[0] <= cols and 1 <= h[1] <= rows)
        total += len(found)
    return total


def baseline_distance(pairs) -> int:
    total = 0
    for (c1, r1), (c2, r2) in pairs:
        # doubled coordinates: d = 2 * row + 1 on shifted (even) columns
        d1 = 2 * r1 + (1 - c1 % 2)
        d2 = 2 * r2 + (1 - c2 % 2)
        da = abs(c1 - c2)
        dd = abs(d1 - d2)
        total += da + (dd - da) // 2 if dd > da else da
    return total


def measured_neighbours(grid: Grid, hexes) -> int:
    neighbours = grid.neighbours
    total = 0
    for hex in hexes:
        total += len(neighbours(hex))
    return total


def measured_distance(grid: Grid, pairs) -> int:
    distance = grid.distance
    total = 0
    for a, b in pairs:
        total += distance(a, b)
    return total


def main() -> int:
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "map.yaml"
        generate_map(path)
        m = load_map(str(path))
        report = validate_map(m, str(path))
        hexes = len(m.grid)
        load_s = best_of(lambda: load_map(str(path)), 5)
        both_s = best_of(lambda: validate_map(load_map(str(path)), str(path)), 5)
        rows_out.append((f"load_map, {hexes:,}-hex map", f"{load_s * 1000:.0f} ms", "-", "-"))
        rows_out.append((f"load_map + validate_map ({len(report.findings)} findings)", f"{both_s * 1000:.0f} ms",
                         "< 1000 ms", f"{both_s:.2f} of target"))
        ok_load = both_s < 1.0

    grid = Grid(1, COLS, 1, ROWS, numbering=_numbering(COLS, ROWS))
    rng = random.Random(2)
    cells = grid.hexes()
    sample = [rng.choice(cells) for _ in range(200_000)]
    pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(200_000)]
    plain = [(tuple(h)) for h in sample]
    plain_pairs = [(tuple(a), tuple(b)) for a, b in pairs]
    # the same answers, or the comparison means nothing
    assert measured_neighbours(grid, sample) == baseline_neighbours(plain)
    assert measured_distance(grid, pairs) == baseline_distance(plain_pairs)
    grid.neighbours(cells[0])  # build the tables before timing, as any real use would
    ratios = []
    for label, ours, base in [
        ("neighbours, 200k calls", lambda: measured_neighbours(grid, sample), lambda: baseline_neighbours(plain)),
        ("distance, 200k calls", lambda: measured_distance(grid, pairs), lambda: baseline_distance(plain_pairs)),
    ]:
        t_ours, t_base = best_of_pair(ours, base, 15)
        ratio = t_ours / t_base
        ratios.append(ratio)
        rows_out.append((label, f"{t_ours * 1000:.0f} ms", "<= 2.0x baseline",
                         f"{ratio:.2f}x (baseline {t_base * 1000:.0f} ms)"))

    widths = [max(len(r[i]) for r in rows_out + [("measure", "time", "target", "ratio")]) for i in range(4)]
    line = "  ".join(f"{{:{w}}}" for w in widths)
    print(line.format("measure", "time", "target", "ratio"))
    print(line.format(*("-" * w for w in widths)))
    for r in rows_out:
        print(line.format(*r))
    ok = ok_load and all(r <= 2.0 for r in ratios)
    print("\nall targets met" if ok else "\nTARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
