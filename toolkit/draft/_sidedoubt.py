"""How sure the hexside features read on a picture are, judged along their courses: a feature
whose kind breaks its course, a gap in a course, a doubt the whole course shares, and sightings
common to the sides between hexes read alike (the fills' own grain)."""

from __future__ import annotations

from ..hexes import Hex, Hexside
from ._sureness import LOW_CONFIDENCE, Doubt, Reading, explained

#: A hexside feature glimpsed but not found on at least this share of the sides between hexes
#: of the same two terrains (of at least SIDE_PEERS such sides) is explained by their fills.
COMMON = 0.07
SIDE_PEERS = 20
COMMON_READERS = ("hexside", "line")
#: How sure a hexside feature is whose kind differs from the course it lies on.
KIND_BREAK = 0.45
#: Hexside features: found on this share of their samples and no more, even odds.
SIDE_EVEN = 0.75


def side_sureness(share: float | None, sure: float, needed: float) -> float:
    """The hexside reader's sureness, and for a feature found on few more samples than it
    needs no more than even odds at :data:`SIDE_EVEN` (a false ford read on 0.7 of them)."""
    if share is None:
        return sure
    return min(sure, max(0.0, 0.5 * (share - needed) / (SIDE_EVEN - needed)))


def kind_breaks(grid, hexsides: dict) -> dict[Hexside, Doubt]:
    """Hexside features whose kind breaks their course: read as a kind that none of the features
    meeting it at either end has (a river read as a major river on one side, where a lake's
    shore and the river share the side and widen the band)."""
    doubts: dict[Hexside, Doubt] = {}
    for side, (code, _) in hexsides.items():
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            ends.append({hexsides[s][0] for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in hexsides})
        kinds = set().union(*ends) if ends else set()
        if len(ends) == 2 and all(ends) and code not in kinds:
            doubts[side] = Doubt("hexside", KIND_BREAK, (code,) + tuple(sorted(kinds)), side)
    return doubts


def common_sightings(draft, readings: dict[Hex, Reading], sides, readers=COMMON_READERS) -> None:
    """Hexside features (and roads and railways) glimpsed but not found, on as many sides
    between hexes read alike (the same two terrains) as :data:`COMMON` of them or more,
    doubted no lower than :data:`EXPLAINED`: what shows along or across that many sides is the
    fills' own grain (a water fill's compression noise, a forest's strokes), not a feature
    missed. ``sides`` are the hexsides read."""
    pair = {side: tuple(sorted((readings[side.a].base, readings[side.b].base))) for side in sides}
    counts: dict[tuple, int] = {}
    for side in sides:
        counts[pair[side]] = counts.get(pair[side], 0) + 1

    def glimpse(side, d) -> bool:
        return d.reader in readers and bool(d.evidence) and d.evidence[0] is None and side in pair
    seen: dict[tuple, list[float]] = {}
    for side, doubts in draft.side_doubts.items():
        for d in doubts:
            if glimpse(side, d):
                seen.setdefault((d.reader, pair[side]), []).append(d.evidence[1])
    for side, doubts in draft.side_doubts.items():
        for i, d in enumerate(doubts):
            if glimpse(side, d) and counts[pair[side]] >= SIDE_PEERS:
                alike = sum(1 for p in seen[(d.reader, pair[side])] if p >= d.evidence[1])
                if alike >= COMMON * counts[pair[side]]:
                    doubts[i] = explained(d)
        if doubts and side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def course_doubts(grid, draft) -> None:
    """Hexside features found along all their samples but doubted by the reader (a kind of
    like colour close on width, a colour showing faintly), explained where the course runs on
    in the same kind at both ends, its sides there doubted the same way: the doubt is the
    picture's (a blur over the whole course), not this side's (a ford's pale middle among a
    stream's sure sides stays listed)."""
    def unsure(side) -> bool:
        return any(d.reader == "hexside" and d.evidence and d.evidence[0] is not None and d.evidence[0] >= 1.0
                   and d.confidence < LOW_CONFIDENCE for d in draft.side_doubts.get(side, ()))
    relieved = []
    for side in draft.side_doubts:
        if side not in draft.hexsides or not unsure(side):
            continue
        code = draft.hexsides[side][0]
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            on = [s for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in draft.hexsides]
            ends.append(len(on) == 1 and draft.hexsides[on[0]][0] == code and unsure(on[0]))
        if len(ends) == 2 and all(ends):
            relieved.append(side)
    for side in relieved:
        doubts = draft.side_doubts[side]
        doubts[:] = [explained(d) if d.reader == "hexside" and d.evidence and d.evidence[0] is not None else d
                     for d in doubts]
        if side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def course_gaps(grid, hexsides: dict, sides) -> dict[Hexside, Doubt]:
    """Hexsides read without a feature where a course of one kind stops at both its ends (a
    river drawn as a curve that leaves the side for the hex beside it, so the hexside reader
    finds too little of it there): rivers seldom end twice on one side. ``sides`` are the
    hexsides read."""
    doubts: dict[Hexside, Doubt] = {}
    for side in sides:
        if side in hexsides:
            continue
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            kinds = [hexsides[s][0] for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in hexsides]
            ends.append(kinds[0] if len(kinds) == 1 else None)
        if len(ends) == 2 and ends[0] is not None and ends[0] == ends[1]:
            doubts[side] = Doubt("hexside", KIND_BREAK, ("no feature", ends[0]), side)
    return doubts
