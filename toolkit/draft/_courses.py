"""Hexside features read again once every side was read on its own, along their courses and
among their peers: a river runs on from side to side, so a side it runs along but the reader
could not read (a name printed over it, a blurred curve off the side) is the course's, and a
side read as a kind that breaks its course may be the reader's runner-up that fits it; a feature
barely found where the sides between hexes of the same two terrains often show a glimpse of it
is the fills' grain. All stay listed for a person to confirm."""

from __future__ import annotations

from dataclasses import replace

from ..hexes import Hexside
from ._sidedoubt import COMMON, SIDE_EVEN, SIDE_PEERS, kind_breaks
from .hexsides import SIDE_SHARE
from ._sureness import Doubt

#: How sure a side read again is (from its course, or its peers): listed for a person.
REREAD = 0.45
#: The most hidden sides in a row a course is followed across.
HIDDEN_RUN = 2


def side_name(code) -> str:
    """A hexside reading's name: a feature's code, or two features' (``lake and river``)."""
    return " and ".join(code) if isinstance(code, tuple) else code


def _corners(grid, side: Hexside) -> list[tuple[Hexside, Hexside]]:
    """The two other sides meeting ``side`` at each of its corners (at the map's edge, fewer corners)."""
    return [(Hexside.of(side.a, c), Hexside.of(side.b, c)) for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b))]


def hidden_courses(grid, draft, hidden: dict[Hexside, tuple | None]) -> None:
    """Sides read without a feature where a course of one kind stops at both their ends, read as
    that course running on, hidden (a course stopping twice on one side is rare; where a name or
    a blur hides a river, common). ``hidden``: the sides read without a feature, each with the
    features seen on most of its samples, or None where a name covers it (anything may lie
    under it). A run of up to :data:`HIDDEN_RUN` such sides, each of them glimpsed as the kind
    (or under a name), is read too (a thin slope blurred by JPEG along two sides of a hex).
    Listed for a person to confirm."""
    def could_be(side, kind) -> bool:
        return side in hidden and (hidden[side] is None or kind in hidden[side])

    def runs_on(side, others, kind, left: int):
        """The hidden sides the course of ``kind`` passes through from ``side`` at the corner
        where ``others`` meet it, on to a side read as ``kind`` (``[]``: that side is next to
        it); None where it does not run on so."""
        read = [o for o in others if o in draft.hexsides]
        if read:
            return [] if len(read) == 1 and draft.hexsides[read[0]][0] == kind else None
        through = [o for o in others if could_be(o, kind)]
        if len(through) != 1 or left == 0:
            return None
        nxt = through[0]
        far = [c for c in _corners(grid, nxt) if side not in c]
        if len(far) != 1:
            return None
        rest = runs_on(nxt, far[0], kind, left - 1)
        return None if rest is None else [nxt] + rest

    found: dict[Hexside, str] = {}
    for side in hidden:
        corners = _corners(grid, side)
        if len(corners) != 2:
            continue
        kinds = {draft.hexsides[o][0] for c in corners for o in c if o in draft.hexsides}
        for kind in sorted(kinds):
            if not could_be(side, kind):
                continue
            ends = [runs_on(side, c, kind, HIDDEN_RUN - 1) for c in corners]
            if None not in ends and sum(len(e) for e in ends) < HIDDEN_RUN:
                for s in [side] + ends[0] + ends[1]:
                    found.setdefault(s, kind)
                break
    for side, code in found.items():
        draft.hexsides[side] = (code, REREAD)
        doubts = [d for d in draft.side_doubts.get(side, ()) if d.reader != "hexside"]
        draft.side_doubts[side] = doubts + [Doubt("hexside", REREAD, (code, "no feature"), side)]
        draft.side_confidence[side] = min(d.confidence for d in draft.side_doubts[side])


def course_kinds(grid, draft, others: dict[Hexside, tuple]) -> None:
    """Sides whose feature breaks its course (a kind none of the features at its ends has: see
    :func:`~toolkit.draft.doubt.kind_breaks`) read again as the reader's runner-up (``others``:
    what else each side read may hold) where that is of the kinds the course has (a river
    through a lake's narrows, blurred, as wide as a major river, between the lake's side and
    the river's). Still listed: the reader doubted it."""
    for side, doubt in kind_breaks(grid, draft.hexsides).items():
        kinds = set(doubt.candidates[1:])
        for other in others.get(side, ()):
            codes = other if isinstance(other, tuple) else (other,)
            if not set(codes) <= kinds:
                continue
            was = draft.more_hexsides.pop(side, ()) + (draft.hexsides[side][0],)
            draft.hexsides[side] = (codes[-1], draft.hexsides[side][1])
            if len(codes) > 1:
                draft.more_hexsides[side] = codes[:-1]
            names = (side_name(other), side_name(was if len(was) > 1 else was[0]))
            draft.side_doubts[side] = [replace(d, candidates=names) if d.reader == "hexside" else d
                                       for d in draft.side_doubts.get(side, ())]
            break


def fills_grain(draft, glimpsed: dict[Hexside, tuple]) -> None:
    """Features found on fewer than :data:`SIDE_EVEN` of their samples, read as no feature where
    they were glimpsed (seen on at least half of what a feature needs) on :data:`COMMON` or more
    of the sides between hexes of the same two terrains (of at least :data:`SIDE_PEERS` such
    sides): what shows along that many sides is the fills' grain (a compressed river fill's
    stripes beside a grid line's ringing look like a ford's pale middle and dark edges), not a
    feature. ``glimpsed``: every side read without a feature, with the features seen on most of
    its samples and on what share of them."""
    def pair(side) -> tuple:
        return tuple(sorted((draft.hexes[side.a].terrain[0], draft.hexes[side.b].terrain[0])))
    sides: dict[tuple, int] = {}
    seen: dict[tuple, int] = {}
    for side in list(glimpsed) + list(draft.hexsides):
        sides[pair(side)] = sides.get(pair(side), 0) + 1
    for side, (codes, share) in glimpsed.items():
        if share >= SIDE_SHARE / 2:
            for code in codes:
                seen[(pair(side), code)] = seen.get((pair(side), code), 0) + 1
    for side, (code, share) in list(draft.hexsides.items()):
        p = pair(side)
        if share >= SIDE_EVEN or side in draft.more_hexsides or sides[p] < SIDE_PEERS \
                or seen.get((p, code), 0) < COMMON * sides[p]:
            continue
        del draft.hexsides[side]
        doubts = [d for d in draft.side_doubts.get(side, ()) if d.reader != "hexside"]
        sure = min([d.confidence for d in draft.side_doubts.get(side, ()) if d.reader == "hexside"] + [REREAD])
        draft.side_doubts[side] = doubts + [Doubt("hexside", sure, ("no feature", code), side)]
        draft.side_confidence[side] = min(d.confidence for d in draft.side_doubts[side])
