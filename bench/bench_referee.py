"""Referee benchmark: movement and supply on a 60x40 map with 80 units a side.

Targets (issue "toolkit/referee"): the reachable set of an 8-MP unit in under 0.2 ms median;
every unit's reachable set for a side in under 20 ms; supply for every unit of a side in under
2 ms. Baselines measured in the same run: networkx Dijkstra on the same weighted graph for
movement, one search per unit for supply.

Issue 19 (the play surface): the enemy ZOC after one unit moves, updated in place, against
rebuilding it (target: faster than the rebuild); supply of a whole side, with warm caches and
right after a move, against a plain multi-source breadth-first search over the same map from
the same sources (target: within 2x).

    python bench/bench_referee.py
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import deque

import networkx as nx

from toolkit.game import Game, HexTerrain, HexsideFeature, Line, Map
from toolkit.hexes import Grid, Hexside
from toolkit.io import load_game
from toolkit.referee import (Position, Unit, board_of, enemy_zoc, get_ruleset, reachable, supply_per_unit,
                             supply_status)
from toolkit.referee.steps import StepPricer
from toolkit.referee.supply import _plain_sources, _trace_grid
from toolkit.referee.zoc import rebuilt_enemy_zoc

W, H, UNITS = 60, 40, 80


def build(seed: int = 7) -> Position:
    rnd = random.Random(seed)
    tut = load_game("tutorial")
    base = tut.main_map
    grid = Grid(1, W, 1, H, orientation="flat", shifted="even")
    m = Map(id="main", name="bench", grid=grid, terrain_types=base.terrain_types,
            hexside_types=base.hexside_types, line_types=base.line_types, weathers=base.weathers,
            unit_classes=base.unit_classes)
    codes = ["clear"] * 10 + ["woods"] * 3 + ["rough", "hills", "hills", "swamp", "town"]
    for x in grid:
        m.hexes[x] = HexTerrain(rnd.choice(codes))
    hexes = grid.hexes()
    for _ in range(300):   # river and stream hexsides
        x = rnd.choice(hexes)
        n = rnd.choice(grid.neighbours(x))
        m.hexsides[Hexside.of(x, n)] = [HexsideFeature(Hexside.of(x, n), rnd.choice(["river", "stream"]))]
    for k in range(20):    # road snakes and a few railways
        walk = [rnd.choice(hexes)]
        for _ in range(rnd.randint(10, 40)):
            options = [n for n in grid.neighbours(walk[-1]) if n not in walk]
            if not options:
                break
            walk.append(rnd.choice(options))
        m.lines.append(Line("rail" if k % 7 == 0 else "road", tuple(walk)))
    m.supply = [type(base.supply[0])(side="blue", edge="west"), type(base.supply[0])(side="red", edge="east")]
    counters = dict(tut.counters)
    game = Game(id="bench", name="bench", sides=tut.sides, maps={"main": m}, counters=counters, ruleset="tutorial")
    pos = Position(game=game, map_id="main", side="blue", turn=1, weather="clear")
    blue = [c for c in ("b-1", "b-3", "b-4") ]
    red = [c for c in ("r-10", "r-13", "r-14")]
    taken = set()
    for side, pool, cols in (("blue", blue, (1, 32)), ("red", red, (29, 60))):
        for n in range(UNITS):
            while True:
                hex_ = rnd.choice(hexes)
                if cols[0] <= hex_.col <= cols[1] and hex_ not in taken and m.terrain(hex_) != "swamp":
                    break
            taken.add(hex_)
            cid = pool[n % len(pool)]
            uid = f"{cid}#{n}"
            pos.units[uid] = Unit(uid, counters[cid], side, hex_)
    pos.touch()
    return pos


def _time(fn, repeat: int) -> list[float]:
    """CPU seconds of each of ``repeat`` runs: on a shared machine wall time also counts
    other processes' turns, CPU time counts only this one's work."""
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append(time.process_time() - start)
    return out


def _nx_graph(pos, rs, uid):
    """The same weighted graph the referee searches (terrain, hexsides, lines, enemy hexes)."""
    unit = pos.units[uid]
    ctx = StepPricer(pos, rs, [unit], rs.mode(None))
    board = ctx.board
    g = nx.DiGraph()
    for i in range(board.n):
        for k, j in board.nb[i]:
            if ctx.enemy[j]:
                continue
            off, line = ctx.dense
            c = line[k] if line[k] >= 0 else off[k]
            if c >= 0:
                g.add_edge(i, j, weight=c)
    return g, ctx


def main() -> None:
    pos = build()
    rs = get_ruleset("tutorial")
    board = board_of(pos.map)
    movers = [u.id for u in pos.on_map("blue") if u.value("movement") == 8]
    # warm the caches (ZOC arrays, cost arrays) as a referee answering many questions would
    reachable(pos, rs, movers[0])
    supply_status(pos, rs, "blue")

    one = []
    sizes = []
    for uid in movers:
        t = _time(lambda: reachable(pos, rs, uid), 5)
        one.append(min(t))
        sizes.append(len(reachable(pos, rs, uid)))
    one_med = statistics.median(one)

    nx_times = []
    for uid in movers[:20]:
        g, ctx = _nx_graph(pos, rs, uid)
        src = board.index[pos.units[uid].hex]
        t = _time(lambda: nx.single_source_dijkstra_path_length(g, src, cutoff=ctx.ma_scaled), 5)
        nx_times.append(min(t))
    nx_med = statistics.median(nx_times)

    side_units = [u.id for u in pos.on_map("blue")]
    side_t = min(_time(lambda: [reachable(pos, rs, uid) for uid in side_units], 10))
    start = time.perf_counter()
    for uid in side_units:
        reachable(pos, rs, uid)
    side_wall = time.perf_counter() - start

    sup_t = min(_time(lambda: supply_status(pos, rs, "blue"), 20))
    base_t = min(_time(lambda: supply_per_unit(pos, rs, "blue"), 3))
    fast = supply_status(pos, rs, "blue").supplied
    slow = supply_per_unit(pos, rs, "blue")
    assert fast == slow, "multi-source and per-unit supply disagree"

    # the play surface: one unit steps to a free neighbour and back, again and again
    red = pos.on_map("red")[0]
    home = red.hex
    spot = next(h for h in pos.map.grid.neighbours(home) if not pos.at(h))
    where = [home, spot]

    def step():
        where.reverse()
        pos.place(red.id, where[0])

    def step_zoc():
        step()
        return enemy_zoc(pos, rs, "blue")

    def step_rebuild():
        pos.touch()     # nothing cached: the move cannot update, the ZOC is built anew
        step()
        return rebuilt_enemy_zoc(pos, rs, "blue")

    def step_supply():
        step()
        return supply_status(pos, rs, "blue")

    move_t = min(_time(lambda: (pos.touch(), step()), 50))
    reb_t = min(_time(step_rebuild, 50))
    enemy_zoc(pos, rs, "blue")
    inc_t = min(_time(step_zoc, 50))
    assert enemy_zoc(pos, rs, "blue") == rebuilt_enemy_zoc(pos, rs, "blue")
    sup_warm = min(_time(lambda: supply_status(pos, rs, "blue"), 30))
    sup_move = min(_time(step_supply, 30)) - min(_time(step, 30))
    bfs_t = min(_time(_plain_bfs(pos, rs, "blue"), 30))

    ms = 1000.0
    rows = [
        ("reachable set, one 8-MP unit (median)", one_med * ms, 0.2, nx_med * ms, "networkx Dijkstra, same graph"),
        (f"reachable sets, all {len(side_units)} units of a side", side_t * ms, 20.0,
         nx_med * ms * len(side_units), "networkx x units"),
        (f"supply, all {len(side_units)} units of a side", sup_t * ms, 2.0, base_t * ms, "one search per unit"),
    ]
    print(f"map {W}x{H} ({board.n} hexes), {UNITS} units a side; 8-MP units reach {statistics.mean(sizes):.0f} "
          f"hexes on average; {len(fast)}/{len(side_units)} blue units supplied (both methods agree)")
    print(f"times are CPU time, best of several runs (wall time for all units of a side, once: "
          f"{side_wall * ms:.1f} ms; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")
    print(f"{'measure':46s} {'ms':>8s} {'target':>8s} {'ok':>4s} {'baseline ms':>12s} {'x faster':>9s}  baseline")
    for name, value, target, base, what in rows:
        ok = "yes" if value < target else "NO"
        print(f"{name:46s} {value:8.3f} {target:8.1f} {ok:>4s} {base:12.3f} {base / value:9.1f}  {what}")
    print()
    print(f"play surface (issue 19): one red unit moves (ZOC rows include the move, {move_t * ms:.3f} ms alone; "
          "the supply row after a move does not)")
    print(f"{'measure':46s} {'ms':>8s} {'baseline ms':>12s} {'ratio':>7s} {'target':>7s} {'ok':>4s}  baseline")
    for name, value, base, target, what in [
            ("move + enemy ZOC, updated in place", inc_t * ms, reb_t * ms, 1.0, "move + ZOC rebuilt"),
            (f"supply, all {len(side_units)} units, warm caches", sup_warm * ms, bfs_t * ms, 2.0,
             "plain multi-source BFS"),
            (f"supply, all {len(side_units)} units, after a move", sup_move * ms, bfs_t * ms, 2.0,
             "plain multi-source BFS")]:
        ratio = value / base
        ok = "yes" if ratio <= target else "NO"
        print(f"{name:46s} {value:8.3f} {base:12.3f} {ratio:6.2f}x {target:6.1f}x {ok:>4s}  {what}")


def _plain_bfs(pos, rs, side):
    """A breadth-first search from the side's supply sources over the same hexes and
    hexsides, no rules at all: the floor a supply check cannot beat."""
    board, _, _, steps = _trace_grid(pos, rs, side)
    sources = [board.index[h] for h in _plain_sources(pos, rs, side) if h in board.index]

    def run():
        seen = bytearray(board.n)
        queue = deque()
        for i in sources:
            seen[i] = 1
            queue.append(i)
        while queue:
            i = queue.popleft()
            for j in steps[i]:
                if not seen[j]:
                    seen[j] = 1
                    queue.append(j)
        return seen
    return run


if __name__ == "__main__":
    main()
