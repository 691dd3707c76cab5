"""Links between hexes joined into paths."""

from __future__ import annotations

from ..hexes import Hex, Hexside


def line_paths(links: set[Hexside]) -> list[list[Hex]]:
    """Links joined into paths: each path stops where the network forks or ends."""
    adjacent: dict[Hex, set[Hex]] = {}
    for side in links:
        adjacent.setdefault(side.a, set()).add(side.b)
        adjacent.setdefault(side.b, set()).add(side.a)
    used: set[Hexside] = set()
    paths = []
    starts = sorted(h for h, n in adjacent.items() if len(n) != 2) + sorted(adjacent)
    for start in starts:
        for nxt in sorted(adjacent[start]):
            if Hexside.of(start, nxt) in used:
                continue
            path = [start, nxt]
            used.add(Hexside.of(start, nxt))
            while len(adjacent[path[-1]]) == 2:
                step = next((n for n in sorted(adjacent[path[-1]]) if Hexside.of(path[-1], n) not in used), None)
                if step is None:
                    break
                used.add(Hexside.of(path[-1], step))
                path.append(step)
            paths.append(path)
    return paths
