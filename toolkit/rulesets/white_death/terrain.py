"""The map as White Death's rules read it: river and creek hexes with their courses and banks
(Rule 7, 16), standing bridges as position state (Rule 20), the city of Velikiye Luki, and the
rail towns west of the Lowatj that hold an intrinsic garrison (p.35)."""

from __future__ import annotations


from ...game import Map
from ...hexes import Hex
from ...referee import Position

_MEMO: dict = {}


def _memo(build):
    """Per-map memo of a derived table (maps are not hashable; keyed by identity)."""
    def get(m: Map):
        key = (build.__name__, id(m))
        got = _MEMO.get(key)
        if got is None or got[0] is not m:
            got = _MEMO[key] = (m, build(m))
        return got[1]
    get.__name__, get.__doc__ = build.__name__, build.__doc__
    return get


RIVER, CREEK = "river", "creek"
COURSE = "river"            # the line type that gives a watercourse's course
LOWATJ = "Lowatj"
CITY_PLACE = "Velikiye Luki"


def water(m: Map, hex: Hex) -> str | None:
    """"river", "creek" or None for a hex."""
    feats = m.features(hex)
    if RIVER in feats:
        return RIVER
    if CREEK in feats:
        return CREEK
    return None


@_memo
def _courses(m: Map) -> dict:
    """hex -> (course index, position on it) for every watercourse hex."""
    out: dict = {}
    for n, line in enumerate(l for l in m.lines if l.code == COURSE):
        for k, h in enumerate(line.hexes):
            out.setdefault(h, (n, k, line.hexes))
    return out


def along(m: Map, a: Hex, b: Hex) -> bool:
    """True if a step a -> b moves up or down one watercourse (Rule 7), not across it."""
    ca, cb = _courses(m).get(a), _courses(m).get(b)
    return ca is not None and cb is not None and ca[0] == cb[0] and abs(ca[1] - cb[1]) == 1


def bank(m: Map, river_hex: Hex, other: Hex) -> str | None:
    """Which bank of the watercourse through ``river_hex`` the adjacent ``other`` lies on,
    "left" or "right" looking downstream (the course's order); None if ``other`` is on the
    course itself. The labels agree along a whole course, so a unit's bank is carried as it
    moves up or down it."""
    got = _courses(m).get(river_hex)
    if got is None:
        return None
    _, k, hexes = got
    grid = m.grid
    names = [d[0] for d in grid.directions]
    prev = hexes[k - 1] if k > 0 else None
    nxt = hexes[k + 1] if k + 1 < len(hexes) else None
    if other in (prev, nxt):
        return None
    d_other = names.index(grid.direction(river_hex, other))
    dq = names.index(grid.direction(river_hex, nxt)) if nxt is not None else None
    dp = names.index(grid.direction(river_hex, prev)) if prev is not None else None
    if dq is None:
        dq = (dp + 3) % 6
    if dp is None:
        dp = (dq + 3) % 6
    # clockwise from downstream (dq) to upstream (dp): the right-hand bank
    steps_other = (d_other - dq) % 6
    steps_prev = (dp - dq) % 6
    return "right" if 0 < steps_other < steps_prev else "left"


# -- bridges (Rule 20) ----------------------------------------------------------------------

def bridges(pos: Position) -> set[Hex]:
    """River hexes with a standing bridge: the map's (the four at the start, Rule 20) less
    those blown, plus those built (``state.bridges``: {built: [...], blown: [...]})."""
    m = pos.map
    data = pos.state.get("bridges") or {}
    built = {m.grid.parse(str(h)) for h in data.get("built", [])}
    blown = {m.grid.parse(str(h)) for h in data.get("blown", [])}
    return (set(_map_bridges(m)) - blown) | built


@_memo
def _map_bridges(m: Map) -> frozenset:
    """The hexes the map prints a bridge in (looked up on every step of a move: kept per map)."""
    return frozenset(h for h in m.hexes if "bridge" in m.features(h))


# -- places ---------------------------------------------------------------------------------

@_memo
def city_hexes(m: Map) -> frozenset:
    """Velikiye Luki: the town hexes of the city's place hex and round it."""
    centres = [p.hex for p in m.places if p.name == CITY_PLACE]
    out = set()
    for c in centres:
        for h in (c, *m.grid.neighbours(c)):
            if h in m.grid and "town" in m.features(h):
                out.add(h)
    return frozenset(out)


def is_town(m: Map, hex: Hex) -> bool:
    return "town" in m.features(hex)


@_memo
def rail_hexes(m: Map) -> frozenset:
    return frozenset(h for line in m.lines if m.line_types[line.code].rail for h in line.hexes)


@_memo
def line_hexes(m: Map) -> frozenset:
    """Hexes on a road or railroad."""
    return frozenset(h for line in m.lines if line.code in ("road", "rail") for h in line.hexes)


@_memo
def west_of_lowatj(m: Map) -> frozenset:
    """Hexes west of the Lowatj: west of its hex in the same row (or beyond its ends)."""
    course = next((l.hexes for l in m.lines if l.code == COURSE and l.name == LOWATJ), ())
    by_row: dict[int, int] = {}
    for h in course:
        by_row[h.row] = min(by_row.get(h.row, h.col), h.col)
    return frozenset(h for h in m.hexes if h.row in by_row and h.col < by_row[h.row])


@_memo
def garrison_towns(m: Map) -> frozenset:
    """Towns west of the Lowatj with a railroad: each has an intrinsic garrison (p.35)."""
    west, rail = west_of_lowatj(m), rail_hexes(m)
    return frozenset(h for h in m.hexes if is_town(m, h) and h in west and h in rail)


def garrison_holds(pos: Position, hex: Hex) -> bool:
    """True while the intrinsic garrison of ``hex`` stands (``state.garrisons_eliminated``)."""
    if hex not in garrison_towns(pos.map):
        return False
    gone = {pos.map.grid.parse(str(h)) for h in pos.state.get("garrisons_eliminated", [])}
    return hex not in gone
