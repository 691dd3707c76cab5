"""Where roads, tracks, railways and rivers drawn as lines run: the points each curve passes.

A line runs through the centres of its hexes (rows of a flat-topped grid straightened), with
what a cartographer would change:

- two lines of a kind that end in one hex (and only they) are drawn as one course through it,
  so they meet without a spike; a line whose first step another line of its kind also runs
  is drawn from where they part (one road on the map, not two side by side);
- a sharp turn is rounded inside its hex (the point moves toward the inside of the turn);
- a line's point keeps clear of its hex's id;
- a line ending where another of its kind passes ends on that line's course (no right-angle
  connector); a line ending by a river drawn as a line ends on its own bank;
- a line sharing steps with a line of a higher rank (a railway with a road, a track with a
  road, a road with a river) runs beside it at a distance that keeps their ink apart, on the
  side it leaves toward.

:func:`plan_lines` returns the drawn points of every line (a centripetal Catmull-Rom curve
through the points, ``samples`` per span) and which of them is each hex's.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import LineString, Point

from ._mapgeom import line_class, straighten

__all__ = ["plan_lines", "RANK", "half_extent"]

#: Which line moves where two share a step: the higher rank goes beside the lower.
RANK = {"watercourse": 0, "road": 1, "secondary": 2, "track": 3, "rail": 4}

#: Turns (degrees, between one step's direction and the next) beyond this are rounded.
ROUND_FROM = 75.0
#: How far along each arm (hex sizes) a turn of 120 degrees is cut.
ROUND_CUT = 0.35
#: How far (a fraction) a hairpin's two cut points move back toward the turn's point.
ROUND_BACK = 0.6
#: Ink-free room (hex sizes) between two lines drawn beside each other.
GAP = 0.03
#: Ink-free room (hex sizes) between a line and a hex id's box.
ID_GAP = 0.015


def half_extent(style) -> float:
    """Half the width (hex sizes) of a line's ink: the line, its ties, its casing."""
    return max(style.width, style.ties or 0.0) / 2 + (0.011 if style.casing is not None else 0.0)


@dataclass
class _Course:
    """Lines drawn as one curve: (line number, reversed) in order, their hexes and points."""
    parts: list
    style: object
    hexes: list = field(default_factory=list)
    pts: list = field(default_factory=list)
    drawn: np.ndarray | None = None
    marks: list = field(default_factory=list)   # per hex: its point's number in drawn


def plan_lines(items, centres, flat: bool, radius: float, size: float, keepout=None, samples: int = 10):
    """The drawn points of each line of ``items`` ((style, hexes) pairs, drawn in that order),
    which of them is each hex's (its number in the points, per hex), and the hexes each is
    drawn through (a first or last step drawn by another line dropped).

    ``keepout`` (hex -> pixel box or None): where a hex's id goes; points keep clear of it."""
    hexes = _trimmed([list(h) for _, h in items], [s.key for s, _ in items])
    styles = [s for s, _ in items]
    courses = _courses(styles, hexes, centres, flat, radius)
    planner = _Planner(styles, hexes, centres, size, keepout, samples, _arms(courses, centres), _normals(flat))
    # rivers first (the others keep off them), then roads, the lesser roads, railways
    order = sorted(range(len(courses)), key=lambda n: RANK.get(courses[n].style.key, 1))
    for n in order:
        planner.place(courses[n])
    out: list = [None] * len(items)
    marks: list = [None] * len(items)
    for course in courses:
        start = 0
        for line, rev in course.parts:
            count = len(hexes[line])
            lo, hi = course.marks[start], course.marks[start + count - 1]
            piece = course.drawn[lo:hi + 1]
            at = [m - lo for m in course.marks[start:start + count]]
            out[line] = np.asarray(piece[::-1] if rev else piece, dtype=float)
            marks[line] = [hi - lo - m for m in at[::-1]] if rev else at
            start += count - 1
    return out, marks, hexes


def _trimmed(hexes: list[list], classes: list[str]) -> list[list]:
    """Each line without a first or last step that another line of its kind (``classes``: the
    style of each) runs along and goes on from (two roads leaving a town by one step are one
    road there; a track along a road is drawn beside it): the line then ends where they part,
    in a hex the other passes through."""
    out = [list(h) for h in hexes]
    changed = True
    while changed:
        changed = False
        inner = defaultdict(set)   # (class, step) -> lines with that step and its far hex inside
        for n, hs in enumerate(out):
            for i in range(len(hs) - 1):
                a, b = hs[i], hs[i + 1]
                if i + 1 < len(hs) - 1:
                    inner[(classes[n], a, b)].add(n)
                if i > 0:
                    inner[(classes[n], b, a)].add(n)
        for n, hs in enumerate(out):
            if len(hs) < 3:
                continue
            if inner[(classes[n], hs[0], hs[1])] - {n}:
                out[n] = hs[1:]
                changed = True
            elif inner[(classes[n], hs[-1], hs[-2])] - {n}:
                out[n] = hs[:-1]
                changed = True
            if changed:
                break
    return out


def _courses(styles, hexes, centres, flat, radius) -> list[_Course]:
    """Lines joined where exactly two of a class end in a hex no line of the class passes."""
    classes = [line_class(s.key) for s in styles]
    inner = {(classes[n], h) for n, hs in enumerate(hexes) for h in hs[1:-1]}
    ends = defaultdict(list)
    for n, hs in enumerate(hexes):
        if classes[n] == "water":
            continue
        ends[(classes[n], hs[0])].append((n, 0))
        ends[(classes[n], hs[-1])].append((n, -1))
    partner: dict = {}
    for key, found in ends.items():
        if len(found) == 2 and key not in inner and found[0][0] != found[1][0]:
            (a, ea), (b, eb) = found
            near_a = hexes[a][1] if ea == 0 else hexes[a][-2]
            near_b = hexes[b][1] if eb == 0 else hexes[b][-2]
            if near_a == near_b:   # both leave by one step: not a course through the hex
                continue
            partner[(a, ea)] = (b, eb)
            partner[(b, eb)] = (a, ea)
    done = set()
    courses = []
    for n in range(len(hexes)):
        if n in done:
            continue
        # walk back to the course's first line (a ring is cut where the walk began)
        first, rev = n, False
        seen = {n}
        while True:
            back = partner.get((first, -1 if rev else 0))
            if back is None or back[0] in seen:
                break
            first, rev = back[0], back[1] == 0   # entered at its end: run it backwards
            seen.add(first)
        parts = []
        line, r = first, rev
        while line is not None and line not in done:
            parts.append((line, r))
            done.add(line)
            nxt = partner.get((line, 0 if r else -1))
            line, r = (nxt[0], nxt[1] == -1) if nxt is not None else (None, False)
        course = _Course(parts, styles[first])
        for k, (line, r) in enumerate(parts):
            hs = hexes[line][::-1] if r else hexes[line]
            course.hexes += hs if k == 0 else hs[1:]
        # a row straightened along the whole course: where it turns at the junction is seen
        course.pts = straighten(flat, [centres[h] for h in course.hexes], radius)
        courses.append(course)
    return courses


def _normals(flat: bool) -> list:
    """Unit vectors from a hex's centre toward its six neighbours' (its sides' normals)."""
    start = 30.0 if flat else 0.0
    return [(math.cos(math.radians(start + 60 * k)), math.sin(math.radians(start + 60 * k))) for k in range(6)]


def _arms(courses, centres) -> dict:
    """Per class and hex where two or more courses of the class end: the mean direction (a
    unit vector, or None if they leave every way) their ends leave the hex by."""
    found = defaultdict(list)
    for course in courses:
        cls = line_class(course.style.key)
        for k, toward in ((0, 1), (-1, -2)):
            h, nxt = course.hexes[k], course.hexes[toward]
            (x0, y0), (x1, y1) = centres[h], centres[nxt]
            d = math.hypot(x1 - x0, y1 - y0) or 1.0
            found[(cls, h)].append(((x1 - x0) / d, (y1 - y0) / d))
    out = {}
    for key, dirs in found.items():
        if len(dirs) > 1:
            mx, my = sum(d[0] for d in dirs) / len(dirs), sum(d[1] for d in dirs) / len(dirs)
            m = math.hypot(mx, my)
            out[key] = (mx / m, my / m) if m > 0.3 else None
    return out


class _Planner:
    """Places each course's points (see the module's notes) and draws its curve."""

    def __init__(self, styles, hexes, centres, size, keepout, samples, arms, normals) -> None:
        self.styles, self.hexes, self.centres = styles, hexes, centres
        self.size, self.keepout, self.samples = size, keepout, samples
        self.arms, self.normals = arms, normals   # see _arms, _normals
        self.placed: list[_Course] = []
        self.classes = [line_class(s.key) for s in styles]
        # per class and hex: the placed courses passing it inside (for ends meeting them)
        self.passing: dict = defaultdict(list)
        # per step: the placed courses drawn along it, with their rank
        self.along: dict = defaultdict(list)

    # -- the steps -------------------------------------------------------------------------

    def place(self, course: _Course) -> None:
        key = course.style.key
        cls = line_class(key)
        pts = [tuple(p) for p in course.pts]
        hs = course.hexes
        met = set()
        if cls != "water":
            met = self._ends(course, hs, pts, cls)
            for k, h in enumerate(hs):
                pts[k] = self._clear_of_id(h, pts[k], course.style)
        beside = self._beside(course, hs, pts, met) if key != "watercourse" else []
        kept = {k for (k0, k1), *_ in beside for k in range(k0, k1 + 1)}
        ctrl, marks, cut = self._rounded(hs, pts, kept, course.style) if cls != "water" \
            else (pts, list(range(len(pts))), ())
        s = self.samples
        drawn = np.asarray(_smooth(ctrl, s, cut, self.size), dtype=float).reshape(-1, 2)
        course.marks = marks = [round(m * s) for m in marks]
        for (k0, k1), base, sign, offset, where in beside:   # along the base's own curve, offset
            for k in range(k0, k1):
                piece = _resampled(self._offset_step(base, where[k], where[k + 1], sign, offset),
                                   marks[k + 1] - marks[k] + 1)
                # an end on another line of its kind: from there over to beside the base
                if k in met:
                    piece = _blended(piece, pts[k], 0)
                if k + 1 in met:
                    piece = _blended(piece, pts[k + 1], -1)
                drawn = np.concatenate([drawn[:marks[k]], piece, drawn[marks[k + 1] + 1:]])
            # where it comes to the base and leaves it (not where it goes on beside another),
            # no kink: joined on its own side (along the base it keeps its distance)
            if 0 < k0 and k0 not in met and k0 not in {b[0][1] for b in beside}:
                drawn = _joined(drawn, max(1, marks[k0] - s), marks[k0])
            if k1 < len(hs) - 1 and k1 not in met and k1 not in {b[0][0] for b in beside}:
                drawn = _joined(drawn, marks[k1], min(len(drawn) - 2, marks[k1] + s))
        course.drawn = drawn
        rank = RANK.get(key, 1)
        for k, h in enumerate(hs):
            if 0 < k < len(hs) - 1:
                self.passing[(cls, h)].append(course)
            if k:
                self.along[frozenset((hs[k - 1], h))].append((rank, course))
        self.placed.append(course)

    def _rounded(self, hs, pts, kept, style):
        """The points a course's curve passes, per hex the number of its point (a half where a
        point was cut in two), and the numbers of the points cut: a sharp turn (not where the line turns back on itself,
        the data's, nor where it runs beside another line) cut into two points on its arms, the
        curve rounding the corner between them inside the hex."""
        ctrl, marks, cut = [pts[0]], [0.0], []
        for k in range(1, len(pts) - 1):
            b = pts[k]
            if hs[k - 1] == hs[k + 1] or k in kept:
                ctrl.append(b)
                marks.append(len(ctrl) - 1.0)
                continue
            a, c = pts[k - 1], pts[k + 1]
            u, v = (b[0] - a[0], b[1] - a[1]), (c[0] - b[0], c[1] - b[1])
            lu, lv = math.hypot(*u), math.hypot(*v)
            turn = math.degrees(math.acos(max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (lu * lv))))) \
                if lu and lv else 0.0
            if turn <= ROUND_FROM:
                ctrl.append(b)
                marks.append(len(ctrl) - 1.0)
                continue
            along = ROUND_CUT * self.size * min(1.0, (turn - 60.0) / 60.0)
            # on each arm, not beyond 0.4 of it nor out of the hex
            fa = min(0.4, along / lu, self._inside(hs[k], b, (-u[0] / lu, -u[1] / lu)) / lu)
            fc = min(0.4, along / lv, self._inside(hs[k], b, (v[0] / lv, v[1] / lv)) / lv)
            # the two points moved back toward the corner's own point: the turn rounds about
            # the hex's middle, not up against the hexside between the arms (and its id)
            back = ROUND_BACK * min(1.0, max(0.0, (turn - 90.0) / 30.0))   # hairpins only
            bx, by = back * (u[0] * fa - v[0] * fc) / 2, back * (u[1] * fa - v[1] * fc) / 2
            p_in = (b[0] - u[0] * fa + bx, b[1] - u[1] * fa + by)
            p_out = (b[0] + v[0] * fc + bx, b[1] + v[1] * fc + by)
            ctrl += [self._clear_of_id(hs[k], p_in, style), self._clear_of_id(hs[k], p_out, style)]
            cut += [len(ctrl) - 2, len(ctrl) - 1]
            marks.append(len(ctrl) - 1.5)
        ctrl.append(pts[-1])
        marks.append(len(ctrl) - 1.0)
        return ctrl, marks, cut

    def _inside(self, h, p, d) -> float:
        """How far from ``p`` along the unit direction ``d`` the line stays a tenth of a hex
        inside hex ``h`` (its sides face its neighbours' centres, half a hex out)."""
        cx, cy = self.centres[h]
        room = math.inf
        for n in self.normals:
            along = d[0] * n[0] + d[1] * n[1]
            if along > 1e-9:
                room = min(room, (self.size * 0.4 - ((p[0] - cx) * n[0] + (p[1] - cy) * n[1])) / along)
        return max(0.0, room)

    def _ends(self, course, hs, pts, cls) -> set:
        """An end in a hex another placed line of its class passes goes onto that line's
        curve (returned: the numbers of those ends); an end by a river drawn as a line goes
        onto its own bank."""
        met = set()
        for k, toward in ((0, 1), (len(hs) - 1, len(hs) - 2)):
            h = hs[k]
            others = [c for c in self.passing.get((cls, h), ()) if c is not course]
            c = self.centres[h]
            if others:
                # a line that crosses the other on its way to the hex's centre is cut there
                # once drawn (see join_ends); one that would not meet it ends on its curve
                curve = LineString(others[0].drawn)
                if LineString([pts[toward], pts[k]]).intersects(curve):
                    met.add(k)
                    continue
                at = curve.interpolate(curve.project(Point(c)))
                pts[k] = (at.x, at.y)
                met.add(k)
                continue
            water = [w for w in self.placed if w.style.key == "watercourse"]
            if not water:
                continue
            if (cls, h) in self.arms:   # ends of several lines: they leave the river together
                arm = self.arms[(cls, h)]
                if arm is not None:
                    pts[k] = self._off_water(c, (c[0] + arm[0] * self.size, c[1] + arm[1] * self.size),
                                             water, course.style)
                continue
            pts[k] = self._off_water(pts[k], pts[toward], water, course.style)
        return met

    def _off_water(self, p, toward, water, style):
        """``p`` moved toward ``toward`` until clear of the drawn rivers near it."""
        need = (half_extent(style) + half_extent(water[0].style) + GAP) * self.size
        near = [LineString(w.drawn) for w in water]
        here = Point(p)
        near = [w for w in near if w.distance(here) < need]
        if not near:
            return p
        dx, dy = toward[0] - p[0], toward[1] - p[1]
        d = math.hypot(dx, dy) or 1.0
        step = self.size * 0.01
        for n in range(1, 41):   # at most 0.4 of a hex
            q = Point(p[0] + dx / d * step * n, p[1] + dy / d * step * n)
            if all(w.distance(q) >= need for w in near):
                return (q.x, q.y)
        return p

    def _clear_of_id(self, h, p, style):
        """``p`` moved straight away from its hex's id (inward) if its ink would touch it."""
        box = self.keepout(h) if self.keepout is not None else None
        if box is None:
            return p
        room = (half_extent(style) + ID_GAP) * self.size
        x0, y0, x1, y1 = box
        if not (x0 - room < p[0] < x1 + room and y0 - room < p[1] < y1 + room):
            return p
        cy = self.centres[h][1]
        if cy > y1:   # id above the point's hex centre: move down
            return (p[0], y1 + room)
        if cy < y0:
            return (p[0], y0 - room)
        return p

    def _beside(self, course, hs, pts, met=()) -> list:
        """The stretches of ``course`` along a placed line of lower rank: its points moved
        beside that line's curve (but an end on another line of its kind, ``met``: it runs
        from there to beside the base); returns (steps k0..k1, base, side, offset, where)
        per stretch, the steps to draw along the base's curve."""
        rank = RANK.get(course.style.key, 1)
        base_of = []
        for k in range(len(hs) - 1):
            found = [(r, c) for r, c in self.along.get(frozenset((hs[k], hs[k + 1])), ()) if r < rank]
            base_of.append(min(found, key=lambda rc: rc[0])[1] if found else None)
        out = []
        k = 0
        before = None   # where the stretch before ended: (its last hex, the point there)
        while k < len(base_of):
            base = base_of[k]
            if base is None:
                k += 1
                continue
            k1 = k
            while k1 + 1 < len(base_of) and base_of[k1 + 1] is base:
                k1 += 1
            offset = (half_extent(course.style) + half_extent(base.style) + GAP) * self.size
            where = self._where(base, hs, k, k1 + 1)
            prefer = before[1] if before is not None and before[0] == k else None
            sign = self._side(base, hs, pts, k, k1 + 1, offset, where, course.style, prefer)
            for j in range(k, k1 + 2):
                if j in met:
                    continue
                at, normal = self._frame(base, where[j])
                pts[j] = (at[0] + normal[0] * sign * offset, at[1] + normal[1] * sign * offset)
            out.append(((k, k1 + 1), base, sign, offset, where))
            before = (k1 + 1, pts[k1 + 1])
            k = k1 + 1
        # a stretch's end moved beside its base: the points next to it see where it went
        return out

    @staticmethod
    def _where(base, hs, k0, k1) -> dict:
        """Per hex ``k0`` to ``k1`` of a stretch along ``base``: its number among the base's
        hexes (a base may pass a hex twice: the one of this step)."""
        where = {}
        for k in range(k0, k1):
            a, b = hs[k], hs[k + 1]
            for j in range(len(base.hexes) - 1):
                if base.hexes[j] == a and base.hexes[j + 1] == b:
                    where[k], where[k + 1] = j, j + 1
                    break
                if base.hexes[j] == b and base.hexes[j + 1] == a:
                    where[k], where[k + 1] = j + 1, j
                    break
        return where

    def _frame(self, base, k):
        """The base's point at its ``k``-th hex and the unit normal of its curve there."""
        d = base.drawn
        m = base.marks[k]
        at = d[m]
        a, b = d[max(0, m - 1)], d[min(len(d) - 1, m + 1)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        n = math.hypot(tx, ty) or 1.0
        return at, (-ty / n, tx / n)

    def _side(self, base, hs, pts, k0, k1, offset, where, style, prefer=None) -> float:
        """Which side of the base a stretch from hex ``k0`` to ``k1`` runs: where the line goes
        on from its ends, away from the base (not at an end of the base: the line goes round
        it; one that comes from one side and goes on to the other keeps the side it leaves
        the base by less steeply, crossing it where they part at the steeper angle), but the
        other side if only that one keeps clear of the ids; with nothing to go by, the side
        clear of the ids. A stretch that goes on from one along another base keeps its side
        (``prefer``: where that one left the line): a line crosses its bases where they part
        from it, not where one ends and the next begins (it would jump across there)."""
        if prefer is not None:
            at, normal = self._frame(base, where[k0])
            return 1.0 if (prefer[0] - at[0]) * normal[0] + (prefer[1] - at[1]) * normal[1] >= 0 else -1.0
        votes = []
        for k, nxt in ((k0, k0 - 1), (k1, k1 + 1)):
            if not 0 <= nxt < len(hs) or where[k] in (0, len(base.hexes) - 1):
                continue
            at, normal = self._frame(base, where[k])
            vx, vy = pts[nxt][0] - at[0], pts[nxt][1] - at[1]
            d = math.hypot(vx, vy) or 1.0
            votes.append((vx * normal[0] + vy * normal[1]) / d)
        touch = {1.0: 0, -1.0: 0}   # per side, how many of its points an id pushes
        for sign in touch:
            for k in range(k0, k1 + 1):
                at, normal = self._frame(base, where[k])
                p = (at[0] + normal[0] * sign * offset, at[1] + normal[1] * sign * offset)
                touch[sign] += self._clear_of_id(hs[k], p, style) != p
        strong = [v for v in votes if abs(v) > 0.3]
        if len(strong) == 2 and (strong[0] > 0) != (strong[1] > 0):
            side = 1.0 if min(strong, key=abs) > 0 else -1.0
        elif abs(sum(votes)) > 0.2:
            side = 1.0 if sum(votes) > 0 else -1.0
        else:
            return 1.0 if touch[1.0] <= touch[-1.0] else -1.0
        return -side if touch[side] and not touch[-side] else side

    def _offset_step(self, base, ka, kb, sign, offset) -> np.ndarray:
        """The base's curve from its ``ka``-th hex to its ``kb``-th (one step), ``offset`` to
        ``sign``'s side (of the base's own direction of travel, as :meth:`_frame` gives it)."""
        full = np.asarray(base.drawn, dtype=float)
        lo, hi = sorted((base.marks[ka], base.marks[kb]))
        idx = np.arange(lo, hi + 1)
        prev, nxt = full[np.maximum(idx - 1, 0)], full[np.minimum(idx + 1, len(full) - 1)]
        t = nxt - prev
        t /= np.maximum(np.hypot(t[:, 0], t[:, 1]), 1e-9)[:, None]
        piece = full[lo:hi + 1] + np.column_stack([-t[:, 1], t[:, 0]]) * sign * offset
        return piece if base.marks[kb] > base.marks[ka] else piece[::-1]


def _joined(pts: np.ndarray, first: int, last: int) -> np.ndarray:
    """``pts`` with the points between numbers ``first`` and ``last`` redrawn as a cubic that
    leaves point ``first`` and reaches point ``last`` in the directions the curve has there
    (a line coming to, or leaving, the curve of the line it runs beside: no kink)."""
    if last - first < 2 or first < 1 or last > len(pts) - 2:
        return pts
    out = np.array(pts, dtype=float)
    p0, p1 = out[first], out[last]
    chord = np.hypot(*(p1 - p0))
    m0, m1 = out[first] - out[first - 1], out[last + 1] - out[last]
    m0 = m0 / (np.hypot(*m0) or 1.0) * chord
    m1 = m1 / (np.hypot(*m1) or 1.0) * chord
    t = np.linspace(0.0, 1.0, last - first + 1)[:, None]
    t2, t3 = t * t, t * t * t
    out[first:last + 1] = ((2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * m0
                           + (-2 * t3 + 3 * t2) * p1 + (t3 - t2) * m1)
    return out


def _blended(piece: np.ndarray, at, end: int) -> np.ndarray:
    """``piece`` with its ``end`` (0 or -1) moved to the point ``at``, the move fading out
    over the first half of it."""
    n = len(piece)
    t = np.linspace(0.0, 1.0, n)
    weight = np.clip(1.0 - t / 0.5, 0.0, 1.0) ** 2
    if end == -1:
        weight = weight[::-1]
    shift = np.asarray(at, dtype=float) - piece[end]
    return piece + weight[:, None] * shift


def _resampled(pts: np.ndarray, count: int) -> np.ndarray:
    """``count`` points evenly along the polyline ``pts`` (its ends kept)."""
    seg = np.hypot(*np.diff(pts, axis=0).T)
    at = np.concatenate([[0.0], np.cumsum(seg)])
    if at[-1] == 0 or count < 2:
        return np.repeat(pts[:1], max(count, 1), axis=0)
    want = np.linspace(0.0, at[-1], count)
    return np.column_stack([np.interp(want, at, pts[:, 0]), np.interp(want, at, pts[:, 1])])


def _smooth(points, samples: int, cut=(), unit: float = 1.0) -> list:
    """A smooth curve through every one of ``points``, ``samples`` points a span: Catmull-Rom
    (Barry and Goldman's form), uniform (a run of evenly spaced collinear points stays
    straight) but next to the points of ``cut`` (a corner cut in two close points), where it
    is centripetal (the square root of each span's length in ``unit``s): there the uniform
    curve would loop."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    if len(pts) < 3:   # a point, or a straight step (sampled as a curve's would be)
        if len(pts) < 2:
            return [tuple(p) for p in pts.tolist()]
        u = (np.arange(samples + 1) / samples)[:, None]
        return [tuple(p) for p in (pts[0] + (pts[1] - pts[0]) * u).tolist()]
    e = np.vstack([2 * pts[0] - pts[1], pts, 2 * pts[-1] - pts[-2]])
    # the knot interval of each pair of neighbours (e's numbering: point i of pts is i + 1)
    span = np.ones(len(e) - 1)
    if cut:
        lengths = np.hypot(*np.diff(e, axis=0).T) / unit
        near = np.zeros(len(e), dtype=bool)
        near[[c + 1 for c in cut]] = True
        where = near[:-1] | near[1:]
        span[where] = np.maximum(lengths[where], 1e-6) ** 0.5
    p0, p1, p2, p3 = (e[k:len(e) - 3 + k, None, :] for k in range(4))
    d01, d12, d23 = (span[k:len(span) - 2 + k, None, None] for k in range(3))
    t0 = np.zeros_like(d01)
    t1 = t0 + d01
    t2 = t1 + d12
    t3 = t2 + d23
    u = (np.arange(1, samples + 1) / samples)[None, :, None]
    t = t1 + (t2 - t1) * u
    a1 = ((t1 - t) * p0 + (t - t0) * p1) / (t1 - t0)
    a2 = ((t2 - t) * p1 + (t - t1) * p2) / (t2 - t1)
    a3 = ((t3 - t) * p2 + (t - t2) * p3) / (t3 - t2)
    b1 = ((t2 - t) * a1 + (t - t0) * a2) / (t2 - t0)
    b2 = ((t3 - t) * a2 + (t - t1) * a3) / (t3 - t1)
    curve = ((t2 - t) * b1 + (t - t1) * b2) / (t2 - t1)
    return [tuple(pts[0]), *map(tuple, curve.reshape(-1, 2).tolist())]
