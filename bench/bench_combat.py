"""Combat benchmark: the exact distribution of one attack, and of every possible attack of a
side on a bundled scenario, against a plain loop over every face of every die in the same run.

- One attack: Velikiye Luki's Combat 1 (6.5.2) with its supports: the CRT's 1d6 and both
  sides' quality rolls (1d6 each), 216 outcomes. The referee convolves the two quality rolls
  into a net shift first, then sums each column once over the CRT die.
- Every attack: each enemy hex next to a unit of the side, attacked by every non-empty subset
  of the units next to it (Demyansk Shield, scenario 1: the set-up, then a greedy movement
  phase in which every unit that can reach a hex next to an enemy unit goes there; each side).

The plain loop enumerates each die face combination, moves the column, reads the cell and
adds a Fraction; both answers are compared (they must be equal). Targets: one distribution
under 1 ms, every attack of a side under 2 s. Times are CPU time, best of several runs.

    python bench/bench_combat.py

Measured on the 2-CPU development machine (load average about 9, CPU time): one distribution
0.20-0.23 ms against 0.70 ms for the plain loop (3.1-3.5x); assess_combat of that attack with
every rule 0.37-0.42 ms; every attack of a side, Demyansk scenario 1 after a movement to
contact: Soviet 37 attacks (34 legal) 6.0-6.3 ms, Axis 9 attacks 1.1-1.2 ms (supply at the moment of
combat searched once per side and position). With a single d6 and no random shifts the plain
loop is as fast as it gets (0.66 ms for the 34 Soviet distributions against the referee's
1.3-1.6 ms, which also sums the expected steps): the convolution pays off with more dice.
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

from toolkit.io import load_game
from toolkit.referee import Support, assess_combat, load_position, position_from_scenario, ruleset_for
from toolkit.referee.combat import _place, distribution_of
from toolkit.referee.combat_support import random_parts
from toolkit.referee.combat_strength import Combat

ROOT = Path(__file__).resolve().parents[1]


def _time(fn, repeat: int) -> float:
    best = None
    for _ in range(repeat):
        start = time.process_time()
        fn()
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return best


def plain_loop(chart, cr, start, shift, drm, notes) -> dict:
    """Every face of every die: the CRT die and each random shift's die, one by one."""
    dice = [("crt", chart.dice)] + [(n["side"], n["dice"]) for n in notes]
    faces = []
    for _, text in dice:
        count, sides = (int(x or 1) for x in text.lower().split("d"))
        faces.append([sum(c) for c in product(range(1, sides + 1), repeat=count)])
    whole = 1
    for f in faces:
        whole *= len(f)
    out: dict[str, Fraction] = {}
    for combo in product(*faces):
        extra = 0
        for note, face in zip(notes, combo[1:]):
            s = note["shifts"][str(face)]
            extra += s if note["side"] == "attacker" else -s
        col, more = _place(chart, cr, start, shift + extra)
        text = chart.result(combo[0] + drm + more, col).text
        out[text] = out.get(text, Fraction(0)) + Fraction(1, whole)
    return out


def _plan(pos, rs, a):
    start, shift, drm = a._plan
    combat = Combat(pos, rs, pos.units_of(list(a.attackers)), pos.units_of(list(a.defenders)), a.defender_hex)
    parts, notes = random_parts(combat)
    totals = {"attacker": sorted(pos.unit(u).steps for u in a.attackers),
              "defender": sorted(pos.unit(u).steps for u in a.defenders)}
    return start, shift, drm, parts, notes, totals


def every_attack(pos, rs, side):
    """Each enemy hex next to ``side`` with every non-empty subset of the units next to it."""
    grid = pos.map.grid
    by_hex = {}
    for u in pos.on_map(side):
        if u.counter.is_marker or u.counter.kind != "unit":
            continue
        for n in grid.neighbours(u.hex):
            if any(e.side not in (side, None) and not e.counter.is_marker for e in pos.at(n)):
                by_hex.setdefault(n, []).append(u.id)
    out = []
    for hex, ids in by_hex.items():
        for k in range(1, len(ids) + 1):
            out += [(list(c), hex) for c in combinations(ids, k)]
    return out


def advance_to_contact(pos, rs, side) -> int:
    """A greedy movement phase: each unit of ``side`` that can reach a hex next to an enemy unit
    (within the stacking limit) ends its move there. Returns the number of units moved."""
    from toolkit.referee import destinations
    grid = pos.map.grid
    moved = 0
    for u in list(pos.on_map(side)):
        if u.counter.kind != "unit" or not u.value("attack"):
            continue
        try:
            ends = destinations(pos, rs, u.id)
        except Exception:       # a unit the referee refuses to move (boxes, statuses): stays
            continue
        for h in ends:
            if any(e.side not in (side, None) and e.counter.kind == "unit" for n in grid.neighbours(h)
                   for e in pos.at(n)) and len([x for x in pos.at(h) if x.side == side]) < 2:
                pos.place(u.id, h)
                moved += 1
                break
    return moved


def main() -> None:
    ms = 1000.0
    rows = []
    # -- one attack ------------------------------------------------------------------------
    pos = load_position(ROOT / "tests" / "data" / "combat" / "vv-combat-1.yaml")
    rs = ruleset_for(pos.game)
    sup = [Support("mrl", "attacker", unit="mrl38g"), Support("artillery", "defender", 1, via="hq-83")]
    target = pos.map.grid.parse("1109")
    a = assess_combat(pos, rs, ["df357", "rc27", "bm18-2m"], target, supports=sup)
    start, shift, drm, parts, notes, totals = _plan(pos, rs, a)
    chart, cr = a.chart, rs.combat
    assert plain_loop(chart, cr, start, shift, drm, notes) == a.distribution, "the two sums disagree"
    ours = _time(lambda: distribution_of(chart, cr, start, shift, drm, parts, totals), 200)
    base = _time(lambda: plain_loop(chart, cr, start, shift, drm, notes), 50)
    whole = _time(lambda: assess_combat(pos, rs, ["df357", "rc27", "bm18-2m"], target, supports=sup), 50)
    rows.append(("distribution, one attack (VV Combat 1, 216 outcomes)", ours * ms, 1.0, base * ms, "plain loop"))
    rows.append(("assess_combat, same attack (all rules + distribution)", whole * ms, 5.0, base * ms, "plain loop"))
    # -- every attack of a side --------------------------------------------------------------
    game = load_game("demyansk-shield")
    rs = ruleset_for(game)
    counts = {}
    for side in ("soviet", "axis"):
        pos = position_from_scenario(game, "scenario-1", side=side)
        advance_to_contact(pos, rs, side)
        attacks = every_attack(pos, rs, side)
        assessed = [assess_combat(pos, rs, ids, hex) for ids, hex in attacks]
        legal = [x for x in assessed if x.legal]
        plans = [(x, _plan(pos, rs, x)) for x in legal]
        for x, (st, sh, dr, pa, no, to) in plans:
            assert plain_loop(x.chart, rs.combat, st, sh, dr, no) == x.distribution
        counts[side] = (len(attacks), len(legal))
        ours_all = _time(lambda: [assess_combat(pos, rs, ids, hex) for ids, hex in attacks], 3)
        dist_all = _time(lambda: [distribution_of(x.chart, rs.combat, *p) for x, p in
                                  ((x, (st, sh, dr, pa, to)) for x, (st, sh, dr, pa, no, to) in plans)], 5)
        base_all = _time(lambda: [plain_loop(x.chart, rs.combat, st, sh, dr, no)
                                  for x, (st, sh, dr, pa, no, to) in plans], 5)
        rows.append((f"distributions, every attack of {side} ({len(legal)} legal)", dist_all * ms, 1000.0,
                     base_all * ms, "plain loop x attacks"))
        rows.append((f"assess_combat, every attack of {side} ({len(attacks)})", ours_all * ms, 2000.0,
                     base_all * ms, "plain loop x attacks"))
    print("Demyansk Shield scenario 1 after a movement phase to contact: " + ", ".join(f"{s}: {n} attacks ({k} legal)" for s, (n, k) in counts.items())
          + "; every distribution equals the plain loop's")
    print(f"times are CPU time, best of several runs ({os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f})")
    print(f"{'measure':58s} {'ms':>9s} {'target':>8s} {'ok':>4s} {'baseline ms':>12s} {'x faster':>9s}  baseline")
    for name, value, target, base, what in rows:
        ok = "yes" if value < target else "NO"
        print(f"{name:58s} {value:9.3f} {target:8.1f} {ok:>4s} {base:12.3f} {base / value:9.1f}  {what}")


if __name__ == "__main__":
    main()
