"""Positions on the real (estimated) White Death map, and finders that pick hexes by what they
hold, so that a test isolates one rule wherever the estimated terrain puts it."""

from __future__ import annotations

from toolkit.referee import Position, Unit
from toolkit.rulesets.white_death import Budget
from toolkit.rulesets.white_death.terrain import water


def position(game, units: dict, side="soviet", turn=3, weather="clear_frost", impulse=None, **state) -> Position:
    """``units``: id -> hex id. ``impulse``: (side, MP) declared as the impulse in progress."""
    pos = Position(game=game, map_id="main", side=side, turn=turn, weather=weather)
    grid = game.maps["main"].grid
    for uid, hex_id in units.items():
        counter = game.counters[uid.split("#")[0]]
        pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=grid.parse(hex_id))
    if impulse is not None:
        b = Budget()
        if impulse[0] == "german":
            b = b.declare("soviet", 1)
        pos.state["impulses"] = b.declare(*impulse).to_state()
    pos.state.update(state)
    pos.touch()
    return pos


def h(game, text):
    return game.maps["main"].grid.parse(text)


def plain(m, hex) -> bool:
    """Clear, no feature, no line."""
    return m.terrain(hex) == "clear" and not m.features(hex) and not any(hex in l.hexes for l in m.lines) \
        and not any(hex in (s.a, s.b) for s in m.hexsides)


def course(m, name):
    return next(l.hexes for l in m.lines if l.code == "river" and l.name == name)


def clear_run(m):
    """Three plain hexes in a row: a, b (neighbour of a), c (neighbour of b, not of a)."""
    g = m.grid
    inner = lambda x: all(n in g for n in g.neighbours(x)) and x.col > 2 and x.row > 2
    for a in m.hexes:
        if not plain(m, a) or not inner(a):
            continue
        for b in g.neighbours(a):
            if b in g and plain(m, b) and inner(b):
                for c in g.neighbours(b):
                    if c in g and c != a and plain(m, c) and not g.adjacent(a, c):
                        return a, b, c
    raise AssertionError("no clear run")


def plain_river_hexes(m):
    """Lowatj hexes with nothing else in them, whose two off-course neighbours across are plain."""
    from toolkit.rulesets.white_death.terrain import bank
    out = []
    for hx in course(m, "Lowatj")[2:-2]:
        if set(m.features(hx)) != {"river"}:
            continue
        sides = {}
        for n in m.grid.neighbours(hx):
            if n in m.grid and plain(m, n):
                sides.setdefault(bank(m, hx, n), []).append(n)
        if sides.get("left") and sides.get("right"):
            out.append((hx, sides["left"][0], sides["right"][0]))
    return out
