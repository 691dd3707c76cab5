"""How sure the roads and railways read on a picture are: each step's margin (see
:func:`line_sureness`), a picture whose lines show softly, strokes explained by a line beside
them, and lines that stop inside the map (see :func:`line_ends`)."""

from __future__ import annotations

from dataclasses import replace

from ..hexes import Hex, Hexside
from ._sureness import explained
from .lines import LINE_SHARE, TEXTURED_SHARE

#: How sure a hex is where a road or railway read on the picture stops short of the map's edge.
LINE_END = 0.45
#: How many glimpsed steps past where a line stops it is followed (see :func:`line_ends`).
GLIMPSED_STEPS = 1
#: Roads and railways: found on this share of their steps and no more, even odds.
LINE_EVEN = 0.82
#: A picture's lines show softly when this share of the links found were seen on fewer than
#: all their steps (sharp renders 0.02-0.05; blurred or JPEG 0.07-0.11).
SOFT = 0.07
#: A line seen on part of its course among trees but not found: how steeply its doubt grows
#: as what was seen nears what it needs (8: even odds only within about 0.05 of it).
LINE_SEEN_POWER = 8.0
#: ... and on a flat fill (2: even odds from about 0.65 of what it needs).
LINE_SEEN_FLAT = 2.0


def line_sureness(found: float | None, seen: float, textured: bool = False, soft: bool = False) -> float:
    """How sure a road or railway reading across a hexside is: one found on all its samples,
    or seen on none, is sure; found on no more than :data:`LINE_EVEN` of them, or just the
    share it needs, about even odds (a third of the lines found on 0.8 were no line or
    another). A line seen on part of its course but not found is doubted the nearer what was
    seen comes to what it needs: on a ``soft`` picture (see :func:`soft_lines`) from about
    two thirds of it; on a sharp one from about nine tenths on a flat fill, and where trees or
    marsh symbols fill a hex (``textured``: their dark strokes look like lines) only when it
    nearly reaches it. Calibrated on the bundled maps: on sharp pictures a stroke seen on
    0.4-0.65 of its steps on a flat fill was never a missed line (0 of 260 sides), one among
    trees seen on 0.7 was on 11 sides of 406 (where the line's course stops, and
    :func:`line_ends` lists the gap); on soft pictures they were on 5 of 20 and 22 of 55."""
    needed = TEXTURED_SHARE if textured else LINE_SHARE
    if found is not None:
        even = max(needed, LINE_EVEN)
        return 1.0 if even >= 1.0 else min(1.0, max(0.0, 0.45 + 0.55 * (found - even) / (1.0 - even)))
    power = 1.0 if soft else LINE_SEEN_POWER if textured else LINE_SEEN_FLAT
    return 1.0 - 0.76 * min(1.0, seen / needed) ** power


def glimpsed(side_doubts: dict) -> set[Hexside]:
    """Hexsides where a line was seen on at least half of what it needs but not found."""
    return {side for side, doubts in side_doubts.items()
            if any(d.reader == "line" and d.evidence and d.evidence[0] is None
                   and d.evidence[1] >= 0.5 * (TEXTURED_SHARE if d.evidence[2] else LINE_SHARE) for d in doubts)}


def soft_lines(links: dict) -> bool:
    """Whether the picture's roads and railways show softly (blurred, compressed): more than
    :data:`SOFT` of the links found were seen on fewer than all their steps."""
    shares = [share for codes in links.values() for share in codes.values()]
    return bool(shares) and sum(1 for share in shares if share < 1.0) >= SOFT * len(shares)


def resoften(draft) -> None:
    """On a picture whose lines show softly, the line doubts again (see :func:`line_sureness`)."""
    if not soft_lines(draft.links):
        return
    for side, doubts in draft.side_doubts.items():
        for i, d in enumerate(doubts):
            if d.reader == "line" and d.evidence:
                doubts[i] = replace(d, confidence=round(line_sureness(*d.evidence, soft=True), 3))
        draft.side_confidence[side] = min(d.confidence for d in doubts)


def explained_glimpses(grid, draft) -> None:
    """Roads and railways seen on part of a step but not found, doubted no lower than
    :data:`EXPLAINED` where a line found on a hexside beside that step (sharing a corner
    with it) explains the stroke: a curved line passes the corner of the hex beside its
    course. (Where a line really turned there, it would stop short: :func:`line_ends` lists
    that.)"""
    for side, doubts in draft.side_doubts.items():
        beside = [Hexside.of(h, c) for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b))
                  for h in (side.a, side.b)]
        if not any(b in draft.links for b in beside):
            continue
        for i, d in enumerate(doubts):
            if d.reader == "line" and d.evidence and d.evidence[0] is None:
                doubts[i] = explained(d)
        if side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def lines_past(grid, links: dict) -> set[Hex]:
    """Hexes a road or railway runs past without entering: found between two of their
    neighbours (a line drawn between those two centres may cut across the hex's ring)."""
    out = set()
    for side in links:
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            out.add(c)
    return out


def line_ends(grid, links: dict, hexes, glimpsed=frozenset(), sighted=None) -> dict[Hex, float]:
    """Hexes where a road or railway read on the picture is doubtful, with how sure they are.

    Lines run on to the map's edge or into a town nearly always: where one stops inside the
    map, a step was most often missed or a stray one read. Listed: the end, the hex the line
    would run on to (straight on, across a side where a line was ``glimpsed``: seen on part
    of its course, not found, or to the map's edge beside it) and, where another line passes
    there or through the end, that line's next hexes (the two may share a course), any hex beside the end the
    same line passes through (a branch missed), and for a spur off a line the hex it leaves.
    A step read as two lines of like colours, the weaker on fewer than all its samples, is
    listed too. Given the hexsides where a line was ``sighted`` at all (seen on any of its
    samples, or found), straight on is listed only across one of them: on a sharp picture a
    line missed there leaves a trace (of 219 hexes straight on from an end across a side where
    nothing was seen, 16 were wrong, each where another line runs on, or on a soft picture)."""
    ends: dict[tuple[str, Hex], list[Hex]] = {}
    for side, codes in links.items():
        for code in codes:
            ends.setdefault((code, side.a), []).append(side.b)
            ends.setdefault((code, side.b), []).append(side.a)
    doubted: dict[Hex, float] = {}
    # (line, end, the hex it came from, how many glimpsed steps beyond the last one found)
    todo = [(code, hex, others[0], 0) for (code, hex), others in ends.items() if len(others) == 1]
    while todo:
        code, hex, back, beyond = todo.pop()
        near = grid.neighbours(hex)
        if len(near) < 6 or any(n not in hexes for n in near) or beyond and (code, hex) in ends:
            continue
        doubted[hex] = LINE_END
        if not beyond and len(ends[(code, back)]) >= 3:  # a spur off a line
            doubted[back] = LINE_END
        on = grid.neighbour(hex, grid.direction(back, hex))
        # straight on, across a side where a stroke was glimpsed, or to the map's edge beside it
        straight = beyond or sighted is None or Hexside.of(hex, on) in sighted
        runs_on = {n for n in near if n != back and (n == on and straight or Hexside.of(hex, n) in glimpsed
                                                     or len(grid.neighbours(n)) < 6)}
        for n in near:
            if n in runs_on or n != back and (code, n) in ends:
                doubted[n] = LINE_END
            # a stroke glimpsed on from the end: the line may run on unread past that hex too
            # (a minor road lost under a hex id and a name, on to the road it meets)
            if n in runs_on and Hexside.of(hex, n) in glimpsed and beyond < GLIMPSED_STEPS:
                todo.append((code, n, hex, beyond + 1))
        # running on into another line, it may share that line's course (drawn beside it):
        # the other line's next hexes from there are doubtful too
        for (other, o_hex), o_next in ends.items():
            if (o_hex in runs_on or o_hex == hex) and other != code:
                for n in o_next:
                    doubted[n] = LINE_END
    for side, codes in links.items():
        if len(codes) > 1 and min(codes.values()) < 1.0:
            doubted[side.a] = doubted[side.b] = LINE_END
    return doubted
