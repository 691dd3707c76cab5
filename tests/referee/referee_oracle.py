"""Slow, literal referees used as oracles: every simple path, rules applied step by step.

Written from the rules (T.3-T.6) and the map data directly, sharing no code with the search,
so a disagreement points at a bug in one of the two.
"""

from __future__ import annotations

import random
from fractions import Fraction

from dataclasses import replace

from toolkit.game import Game, HexTerrain, HexsideFeature, Line, Map
from toolkit.game.terrain import CostTable
from toolkit.hexes import Grid, Hex, Hexside
from toolkit.referee import Position, Unit


def _terrain(m: Map, h: Hex, cls: str, weather: str):
    base = m.terrain(h)
    if base not in m.terrain_types:
        return None
    found, cost = m.terrain_types[base].move.lookup(cls, weather)
    if not found or cost is None:
        return None
    for f in m.features(h):
        ok, fc = m.terrain_types[f].move.lookup(cls, weather) if f in m.terrain_types else (False, None)
        if ok:
            if fc is None:
                return None
            cost = max(cost, fc)
    return Fraction(cost)


def _lines_between(m: Map, a: Hex, b: Hex) -> list[str]:
    out = []
    for line in m.lines:
        for x, y in zip(line.hexes, line.hexes[1:]):
            if {x, y} == {a, b}:
                out.append(line.code)
    return out


def _hexside(m: Map, a: Hex, b: Hex, cls: str, weather: str):
    if any(m.line_types[c].bridges for c in _lines_between(m, a, b)):
        return Fraction(0)
    codes = m.hexside_codes(Hexside.of(a, b))
    total = Fraction(0)
    for c in codes:
        found, cost = m.hexside_types[c].move.lookup(cls, weather)
        if not found:
            continue
        if cost is None:
            return None
        total += cost
    return total


def _line(m: Map, a: Hex, b: Hex, cls: str, weather: str, codes=None, rate=None):
    """The best line rate from ``a`` to ``b`` over lines of ``codes`` (None: any); a mode's
    ``rate`` replaces every line's own rate."""
    best = None
    for c in _lines_between(m, a, b):
        if codes is not None and c not in codes:
            continue
        if rate is not None:
            return Fraction(rate)
        found, cost = m.line_types[c].move.lookup(cls, weather)
        if found and cost is not None:
            best = cost if best is None else min(best, cost)
    return best


def in_enemy_zoc(pos: Position, rs, side: str, h: Hex) -> bool:
    return bool(zoc_owners_at(pos, rs, side, h))


def zoc_owners_at(pos: Position, rs, side: str, h: Hex) -> set[str]:
    """The enemy units (of ``side``'s enemies) whose ZOC covers ``h``."""
    m = pos.map
    out = set()
    for u in pos.units.values():
        if u.hex is None or u.side in (None, side) or u.counter.kind not in rs.zoc.kinds:
            continue
        if u.type in rs.zoc.exempt_types:
            continue
        if u.hex == h:
            out.add(u.id)
        elif m.grid.adjacent(u.hex, h):
            codes = m.hexside_codes(Hexside.of(u.hex, h))
            if not any(c in rs.zoc.blocked_hexsides for c in codes):
                out.add(u.id)
    return out


def _rounded(value: Fraction, how: str) -> Fraction:
    if how == "down":
        return Fraction(value.numerator // value.denominator)
    if how == "up":
        return Fraction(-(-value.numerator // value.denominator))
    return value


def oracle_ma(rs, unit, mode) -> Fraction:
    """A unit's MP for a move in ``mode``: printed MA, times each status factor it has, times
    the mode's factor (each rounded as the ruleset says), plus the mode's bonus."""
    mv = rs.movement
    ma = Fraction(unit.value("movement") or 0)
    for status, factor in mv.status_ma.items():
        if status in unit.status:
            ma = _rounded(ma * Fraction(factor), mv.status_ma_round)
    if mode.ma_factor != 1:
        ma = _rounded(ma * Fraction(mode.ma_factor), mode.round)
    return ma + Fraction(mode.ma_bonus)


def oracle_reach(pos: Position, rs, unit_ids: list[str], mode: str | None = None,
                 hook=None) -> dict[Hex, tuple[Fraction, bool]]:
    """Hex -> (least MP spent, move ends there) over every simple path.

    Applies the tutorial's kinds of rules plus the ZOC and minimum-move options of the
    ruleset (enter/leave costs, stop, ZOC-to-ZOC allowed/forbidden/one-hex/same-unit,
    infiltration), status factors on the allowance, the movement ``mode`` (line rate, lines,
    road only, MA factor and bonus), and ``hook(a, b)``: extra MP a ruleset's step hook adds to
    every step."""
    m, grid, weather = pos.map, pos.map.grid, pos.current_weather
    units = [pos.units[u] for u in unit_ids]
    side = units[0].side
    if any(s in u.status for u in units for s in rs.movement.cannot_move):
        return {}
    md = rs.mode(mode)
    codes = md.lines or rs.movement.lines
    classes = {u.counter.unit_class or m.unit_classes[0] for u in units}
    ma = min(oracle_ma(rs, u, md) for u in units)
    enemy = {u.hex for u in pos.units.values()
             if u.hex and u.side and u.side != side and not u.counter.is_marker}
    use_line = not (len(units) > 1 and classes & set(rs.movement.line_alone_classes))
    owners = {h: zoc_owners_at(pos, rs, side, h) for h in grid}
    zoc = {h: bool(o) for h, o in owners.items()}

    z = rs.zoc
    minimum = rs.movement.minimum_move and not any(u.moved for u in units)
    infiltrate = md.infiltration and all(rs.may_infiltrate(pos, u) for u in units)
    enter_cost, leave_cost = Fraction(z.enter_cost), Fraction(z.leave_cost)

    def literal_map_cost(a: Hex, b: Hex):
        """The MP the map charges for a -> b (line, or terrain plus hexside), None if prohibited."""
        lines = [_line(m, a, b, cls, weather, codes, md.line_rate) if use_line else None for cls in classes]
        if None not in lines:
            return max(Fraction(x) for x in lines)
        if md.road_only:
            return None
        costs = []
        for cls in classes:
            t, s = _terrain(m, b, cls, weather), _hexside(m, a, b, cls, weather)
            if t is None or s is None:
                return None
            costs.append(t + s)
        return max(costs)

    # the map's part of a step depends only on (a, b): work it out once per step, not once per
    # path through it (the paths, ZOC and MP are still walked one by one)
    map_costs: dict[tuple[Hex, Hex], Fraction | None] = {}

    def map_cost(a: Hex, b: Hex):
        if (a, b) not in map_costs:
            map_costs[a, b] = literal_map_cost(a, b)
        return map_costs[a, b]

    def step(a: Hex, b: Hex, spent: Fraction, first: bool):
        """(total spent, move ends) after stepping a -> b, or None if the step is illegal."""
        if b in enemy:
            return None
        extra = hook(a, b) if hook else 0
        c = map_cost(a, b)
        if c is None:
            return None
        stop = False
        if zoc[b]:
            if zoc[a]:
                if infiltrate and first:
                    return max(ma, spent) + extra, True        # infiltration: all MP, then stop
                if z.zoc_to_zoc == "forbidden" or (z.zoc_to_zoc == "one-hex" and not first):
                    return None
                if z.zoc_to_zoc == "same-unit" and owners[a] & owners[b]:
                    return None
                if z.zoc_to_zoc == "one-hex":
                    return max(ma, spent) + extra, True
            c += enter_cost
            stop = z.stop
        if zoc[a]:
            c += leave_cost
        total = spent + c + extra
        if total > ma:
            if minimum and first:
                return total, True                    # the minimum move: one hex, then stop
            return None
        return total, stop

    start = units[0].hex
    best: dict[Hex, tuple[Fraction, bool]] = {}

    def walk(h: Hex, spent: Fraction, seen: set) -> None:
        for n in grid.neighbours(h):
            if n in seen:
                continue
            got = step(h, n, spent, h == start)
            if got is None:
                continue
            total, stop = got
            # a hex is reported by its cheapest arrival after which the move may go on, and
            # only if there is none, by its cheapest arrival that ends the move
            old = best.get(n)
            if old is None or (old[1] and not stop) or (old[1] == stop and total < old[0]):
                best[n] = (total, stop)
            if not stop:
                seen.add(n)
                walk(n, total, seen)
                seen.discard(n)

    walk(start, Fraction(0), {start})
    best.pop(start, None)
    return best


def _whole_lines(line_types: dict) -> dict:
    """The line types with every rate raised to a whole MP (a map whose costs are integers)."""
    return {code: replace(t, move=CostTable({k: None if c is None else Fraction(-(-c.numerator // c.denominator))
                                            for k, c in t.move.costs.items()}))
            for code, t in line_types.items()}


def random_position(game: Game, seed: int, size: int = 6, whole: bool = False) -> tuple[Position, str]:
    """A random small map with the tutorial's terrain chart, and a random position on it.

    ``whole``: the lines cost whole MP too, so the map's own costs are all integers."""
    rnd = random.Random(seed)
    base = game.main_map
    w, h = rnd.randint(3, size), rnd.randint(3, size)
    grid = Grid(1, w, 1, h, orientation="flat", shifted=rnd.choice(["even", "odd"]))
    m = Map(id="main", name="random", grid=grid, terrain_types=base.terrain_types,
            hexside_types=base.hexside_types,
            line_types=_whole_lines(base.line_types) if whole else base.line_types,
            weathers=base.weathers, unit_classes=base.unit_classes)
    codes = ["clear"] * 6 + ["woods", "rough", "hills", "swamp", "lake", "town"]
    for x in grid:
        m.hexes[x] = HexTerrain(rnd.choice(codes), ("village",) if rnd.random() < 0.1 else ())
    for x in grid:
        for n in grid.neighbours(x):
            if x < n and rnd.random() < 0.15:
                m.hexsides[Hexside.of(x, n)] = [HexsideFeature(Hexside.of(x, n), rnd.choice(["river", "stream"]))]
    for code in ("road", "rail"):
        if rnd.random() < 0.7:
            walk = [rnd.choice(grid.hexes())]
            for _ in range(rnd.randint(2, 8)):
                options = [n for n in grid.neighbours(walk[-1]) if n not in walk]
                if not options:
                    break
                walk.append(rnd.choice(options))
            m.lines.append(Line(code, tuple(walk)))
    g = Game(id="random", name="random", sides=game.sides, maps={"main": m}, counters=game.counters,
             ruleset="tutorial")
    pos = Position(game=g, map_id="main", weather=rnd.choice(base.weathers), side="blue", turn=1)
    hexes = grid.hexes()
    mover = rnd.choice(["b-1", "b-3", "b-hq", "b-5"])
    pos.units[mover] = Unit(mover, game.counters[mover], "blue", rnd.choice(hexes))
    if rnd.random() < 0.3:
        pos.units["b-4"] = Unit("b-4", game.counters["b-4"], "blue", pos.units[mover].hex)
    for rid in rnd.sample(["r-10", "r-11", "r-12", "r-13", "r-14"], rnd.randint(0, 3)):
        spot = rnd.choice(hexes)
        if spot != pos.units[mover].hex:
            pos.units[rid] = Unit(rid, game.counters[rid], "red", spot)
    pos.touch()
    return pos, mover
