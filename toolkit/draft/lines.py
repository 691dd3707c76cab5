"""Roads and railways read where a thin stroke of their colour crosses a hexside and runs on
into both hexes (joined into paths by :mod:`._linepaths`).

Nothing here knows how a line was drawn (through the centres, bent, moved beside another
line): a line is found the way a person finds it. Scan each side of the hexside, a little
inside either hex, for a thin run of a line's colour; from each run, follow the stroke pixel
by pixel into both hexes, some way toward their middles (:mod:`._linefollow`). A stroke
that crosses the side and reaches into both hexes links them; one that only passes near the side, or ends, does not.
Which line it is comes from the colour of its pixels (:mod:`._strokes`); a road's dark casing
is told from a railway beside it by its width. How strongly each line shows on the picture is
learned from the strokes that crossed a side for sure (:meth:`LinkReader.learned`): a picture
that shows one faint (a thin railway blurred to half its colour) is read again with that line's
thresholds lowered in proportion.
"""

from __future__ import annotations

import math

from ..hexes import Hex
from ._decks import parapet
from ._linefollow import THIN, StrokeFollower, _unit
from ._pixels import fix
from ._strokes import Strength
from .sample import colour_distance

#: A line is found when it is seen on this share of the steps followed into both hexes ...
LINE_SHARE = 0.75
#: ... and this share where trees or marsh symbols (dark strokes of every colour) fill a hex.
TEXTURED_SHARE = 0.85

#: The scans either side of a hexside lie this far inside the hexes (of the hex size): clear
#: of the grid line and of a river drawn along the side; deeper, then nearer the side, where
#: a name or an id hides the first.
SCANS = (0.1, 0.25, 0.04)
#: A scan's run reaching the end of the scan is looked at this much further (of the distance
#: between centres: as far as the hex reaches beside the side at the first scan's depth).
PAST_END = 0.08
#: How far aside (of the hex size) a stroke seen on one side of a hexside may cross a scan of
#: the other side.
DRIFT = 0.15
#: Points of a stroke seen this far apart (of the distance between centres) or less are seen
#: running on (it is followed in steps of STEP); further apart, it was looked for past something.
JOINED = 0.15
#: Two lines' strokes followed within this (of the distance between centres) of each other
#: are one stroke (a railway drawn beside a road or river lies 0.11 of a hex aside).
SAME = 0.04
#: A stroke whose colour peaks at under this share of its line's learned strength (the median
#: along it, in the hex where it shows more) is found only just, left for a person: blurred hill contours of a like hue pass a
#: faint line's lowered thresholds (on the bundled maps such true lines were a few in a hundred).
PALE = 0.65
#: ... and of a line the picture shows crisp, under this share is no stroke of it: JPEG greys a
#: thin blue river to a railway's hue at two thirds of its ink (0.62-0.66 of the railway's
#: peak on White Death; its railways and roads showed at 0.96 or more, its rivers, greyed
#: too, at 0.76 or more of the rivers' peak).
SHARP_PALE = 0.7
#: A line's strength is learned from this many points on its sure strokes (a few links' worth).
LEARN_POINTS = 24
#: A run of a line's colour with a lake's water beside it on one side only, on half of this many
#: pixels next to it, is the lake's shore line (drawn in a blue like a river's), not
#: a line: a lake lying on a hexside reaches a sixth of a hex into both hexes, its shore
#: crossing the scans beside the side. A pixel within this (RGB levels) of the water is water (a
#: blurred river's edge blended with the fill comes within 27 of White Death's lake blue, on one
#: pixel only; JPEG rings the water beside the shore line by as much).
SHORE_PIXELS, SHORE_WATER = 4, 30.0


class LinkReader(StrokeFollower):
    """Reads the lines crossing each hexside of a picture: ``lines`` are ``(code, colour,
    casing or None)``, the map's colours (the picture's after ``correction``); ``strengths``
    how strongly each shows on this picture (see :meth:`learned`)."""

    def __init__(self, sampler, lines, correction, strengths=None, water=()) -> None:
        super().__init__(sampler, lines, correction, strengths)
        self._sure: dict[int, list] = {}  # line index -> points on its sure strokes
        #: the water of the lakes drawn on the hexsides, and the lines drawn in a colour like
        #: their shore line's (``water``: ``(water, shore)`` colours): a river drawn through the
        #: hexes (a road or railway crossing a lake's edge on its bridge has water beside it)
        self.water = [tuple(float(v) for v in w) for w, _ in water]
        self.shore_like = {i for i, c in enumerate(self.colours)
                           if any(colour_distance(c, shore) < 80 for _, shore in water)}

    def learned(self) -> dict[int, Strength]:
        """How strongly each line showed on the strokes read so far that crossed a side sure
        (seen on both scans, followed well into both hexes): the median share of its colour
        at their most inked pixels across, for lines seen on at least :data:`LEARN_POINTS` points."""
        out = {}
        for index, points in self._sure.items():
            if len(points) < LEARN_POINTS:
                continue
            picked = points[::max(1, len(points) // 400)]  # a few hundred points tell the median
            reach = max(3, int(math.ceil(0.5 * THIN * self.sampler.size)))
            peaks = sorted(self.across(x, y, (wx, wy), index, fill, reach) for (x, y, wx, wy), fill in picked)
            out[index] = Strength(peaks[len(peaks) // 2])
        return out

    # -- a hexside ---------------------------------------------------------------------------

    def read(self, hex: Hex, other: Hex, fill_a, fill_b, textured: bool = False) -> tuple[dict, float]:
        """``({line code: share of the steps it was seen on}, largest share any line crossing
        the side was seen on)`` for the hexside between ``hex`` and ``other``."""
        s = self.sampler
        ca, cb = s._at(*s.layout.center(hex)), s._at(*s.layout.center(other))
        dx, dy = cb[0] - ca[0], cb[1] - ca[1]
        dist = math.hypot(dx, dy) or 1.0
        n = (dx / dist, dy / dist)            # from hex into other
        u = (-n[1], n[0])                     # along the side
        m = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)
        reach = 0.92 * dist / (2 * math.sqrt(3))  # all the side but its ends, where grid lines meet
        ts = [i - reach for i in range(int(2 * reach) + 1)]

        def at(sign, depth, t):
            return m[0] + sign * depth * n[0] + t * u[0], m[1] + sign * depth * n[1] + t * u[1]

        seeds = []
        left: dict[int, list[float]] = {}  # per side of the hexside: the scans not yet looked at

        scanned: dict[int, list] = {-1: [], 1: []}  # per side: the depths scanned, and their runs

        def scan(sign, depth, fill, centre) -> bool:
            points = [at(sign, depth * dist, t) for t in ts]
            found, hidden = self.runs(points, fill, centre, n)  # (a crossing stroke runs about along n)
            if self.shore_like:
                found = [run for run in found if run[2] not in self.shore_like or not self._shore(points, *run[:2])]
            scanned[sign].append((depth, found))
            for first, last, index in found:
                if (last - first + 1) > 2 * THIN * dist:
                    continue
                if first <= 0 or last >= len(points) - 1:
                    # a run that reaches an end of the scan runs along the side, not across it,
                    # unless it ends a little further on, still inside the hex (a stroke crossing
                    # the side near its corner)
                    first, last = self._past_end(at, sign, depth * dist, ts, (first, last, index), fill, centre, n, dist)
                    if first is None:
                        continue
                seeds.append((sign, depth * dist, ts[0] + (first + last) / 2, index))
            return bool(hidden)
        ends = ((-1, fill_a, ca), (1, fill_b, cb))
        for sign, fill, centre in ends:
            # where a name or an id hides the scan, scan again deeper in the hex, then nearer the side
            left[sign] = list(SCANS)
            while left[sign] and scan(sign, left[sign].pop(0), fill, centre):
                pass
        for sign, fill, centre in ends:
            # a stroke seen on one side only, of a line this picture shows faint: look for it
            # deeper on the other too (broken where the first scan crossed it) before counting
            # it missed there (not nearer the side, where a line passing by a corner shows)
            deeper = [d for d in left[sign] if d > SCANS[0]]
            while deeper and any(o[0] == -sign and o[3] in self.faint for o in seeds) and not any(
                    o[0] == sign for o in seeds):
                scan(sign, deeper.pop(0), fill, centre)
        if not seeds:
            return {}, 0.0
        needed = TEXTURED_SHARE if textured else LINE_SHARE
        best: dict[int, float] = {}
        strokes: dict[int, list] = {}  # per line: the points its best stroke was followed along
        decks: dict[int, bool] = {}    # per line: whether its best stroke edges a deck (see parapet)
        unsure = 0.0
        # seeds seen on both sides first: they give the stroke's heading across the side
        plans = []
        for seed in seeds:
            sign, depth, t, index = seed
            mates = [o for o in seeds if o[0] != sign and o[3] == index and abs(o[2] - t) <= 1.5 * (depth + o[1])]
            mate = min(mates, key=lambda o: abs(o[2] - t)) if mates else None
            plans.append((mate is None, seed, mate))
        plans.sort(key=lambda p: p[0])
        done: list = []
        for _, seed, mate in plans:
            if any(o[3] == seed[3] and o[0] == seed[0] and abs(o[2] - seed[2]) < 3 for o in done):
                continue
            done.extend(o for o in (seed, mate) if o is not None)
            index = seed[3]
            a_seed, b_seed = (seed, mate) if seed[0] < 0 else (mate, seed)
            pa = at(-1, a_seed[1], a_seed[2]) if a_seed else None
            pb = at(1, b_seed[1], b_seed[2]) if b_seed else None
            if pa and pb:
                way = _unit(pb[0] - pa[0], pb[1] - pa[1])
                if way[0] * n[0] + way[1] * n[1] < 0.35:  # along the side, not across it
                    continue
            else:
                way = n
            # an unpaired stroke is followed from where it was seen, across the side
            into_a = self._follow(pa or pb, (-way[0], -way[1]), index, fill_a, ca, m, (-n[0], -n[1]), dist,
                                  bool(pa and pb), textured, fill_b)
            into_b = self._follow(pb or pa, way, index, fill_b, cb, m, n, dist, bool(pa and pb), textured, fill_a)
            hits = into_a[0] + into_b[0] + 1 + bool(pa and pb)
            # the scan that did not see the stroke counts against it, unless a label hid it there
            # (on every scan of that side: one deeper, clear of labels where the stroke would
            # cross it and of runs wider than a line near there, would have shown it; not one
            # nearer the side, which a stroke crossing by a corner may pass)
            missed = 0
            if not (pa and pb):
                sign = 1 if pa else -1
                aside = int(DRIFT * dist)
                k = seed[2] - ts[0]

                def clear(depth, runs) -> bool:
                    return not self._hidden(*at(sign, depth * dist, seed[2]), cb if pa else ca) and not self.dim(
                        index, fill_b if pa else fill_a) and not any(
                        last - first + 1 > THIN * dist and first - aside <= k <= last + aside for first, last, _ in runs)
                missed = 1 if any(clear(depth, runs) for depth, runs in scanned[sign] if depth >= SCANS[0]) else 0
            looked = into_a[1] + into_b[1] + 1 + bool(pa and pb) + missed
            share = hits / max(1, looked)
            reached = [into_a[2], into_b[2]]
            near_side = min(o[1] for o in (a_seed, b_seed) if o is not None) <= SCANS[0] * dist + 0.5
            # (seen crossing on both scans, into a hex whose fill is too near its colour to show
            # it, once seen on in the other hex is enough: a road into a dark red city, blurred)
            dim_end = None in reached and self.dim(index, (fill_a, fill_b)[reached.index(None)])
            if None in reached and True in reached and near_side and _connected(
                    (pa, pb)[reached.index(True)] or pa or pb, (into_a, into_b)[reached.index(True)][3], JOINED * dist) >= (1 if dim_end and pa and pb else 2):
                # hidden under a name to the hex's middle on one side: a line that crosses
                # the side and is followed on in the other hex runs on under it, but only
                # just found (not a stroke seen only a step or two, a symbol's or a hatching's,
                # or only deep in the hex, a town's block beside a name)
                share = min(share, needed)
            else:
                # a stroke that does not run on into both hexes is no link (a line passing
                # by, a symbol's edge); seen on one side, it leaves the reading unsure
                share *= 1.0 if all(reached) else 0.7 if any(reached) else 0.3
            deck = share >= 0.5 * needed and parapet(self, ((into_a[3], fill_a, ca), (into_b[3], fill_b, cb)),
                                                      index, dist)
            if share >= needed and index in self.strengths:
                paleness = self._paleness(index, into_a[3], fill_a, into_b[3], fill_b)
                if index not in self.faint and paleness < SHARP_PALE:
                    # a line this picture shows crisp is as dark wherever it runs: a paler stroke
                    # is another line's (a thin river's blue that JPEG greyed), glimpsed
                    share = round(0.95 * needed, 3)
                elif paleness < PALE:
                    share = needed  # found only just: a paler stroke of a like hue (a blurred contour)
            if round(share, 3) > best.get(index, -1.0):  # its course, from a's end to b's
                decks[index] = deck
                strokes[index] = [p[:2] for p in reversed(into_a[3])] + [p for p in (pa, pb) if p] + \
                    [p[:2] for p in into_b[3]]
            best[index] = max(best.get(index, 0.0), round(share, 3))
            # a stroke seen crossing and followed well into one hex, lost in the other (faint
            # on a dark fill), leaves the side unsure however little of it the other showed
            if pa and pb and all(reached) and share >= 0.95 and not deck:  # a sure stroke: how this line shows
                self._sure.setdefault(index, []).extend(
                    [(p, fill_a) for p in into_a[3]] + [(p, fill_b) for p in into_b[3]])
            for (h, looked_, reached_, _) in (into_a, into_b):
                if reached_ and looked_ >= 2 and h >= needed * looked_:
                    unsure = max(unsure, 0.7)
        # a bridge's parapets along the road its deck carries, found across the side too: the
        # deck is the road's
        for i in [i for i in best if decks.get(i)]:
            if any(j != i and best[j] >= needed and not decks.get(j) for j in best):
                best[i] = 0.0
        # one stroke read as two lines (a thin river that JPEG greyed to a railway's hue along its
        # edge): the line found on more of its steps is the stroke, the other only glimpsed
        for i in [i for i, share in best.items() if share >= needed]:
            if any(j != i and best[j] > best[i] and _on(strokes[i], strokes[j], max(1.5, SAME * dist))
                   for j in best if best[j] >= needed):
                best[i] = round(0.95 * needed, 3)
        found = {self.codes[i]: share for i, share in best.items() if share >= needed}
        seen = max(max(best.values(), default=0.0), unsure if not found else 0.0)
        return found, seen

    def _shore(self, points, first: int, last: int) -> bool:
        """Whether the run ``points[first..last]`` is a lake's shore or water, not a line: a
        lake's water lies beside it on one side only (a line drawn across a lake has it on
        both), or within it (a pond's water, which holds a little of a river's blue)."""
        pixel = self.sampler.pixel
        (x0, y0), (x1, y1) = points[0], points[-1]
        step = ((x1 - x0) / max(1, len(points) - 1), (y1 - y0) / max(1, len(points) - 1))

        def wet(i: int) -> bool:   # (the scan's points run on straight past its ends)
            colour = pixel(x0 + step[0] * i, y0 + step[1] * i)
            if colour is None:
                return False
            p = fix(colour, self.correction)
            return min(colour_distance(p, w) for w in self.water) <= SHORE_WATER

        # (half of the few pixels next to it: JPEG rings beside the shore line, a bridge's deck
        # may lie on the other side)
        before = sum(wet(first - 1 - j) for j in range(SHORE_PIXELS)) * 2 >= SHORE_PIXELS
        after = sum(wet(last + 1 + j) for j in range(SHORE_PIXELS)) * 2 >= SHORE_PIXELS
        if before != after:
            return True
        row = 0
        for i in range(math.floor(first), math.ceil(last) + 1):   # (a run's ends may lie between points)
            row = row + 1 if wet(i) else 0
            if row >= SHORE_PIXELS:
                return True
        return False

    def _past_end(self, at, sign, depth, ts, run, fill, centre, n, dist) -> tuple:
        """``(first, last)`` of ``run`` (a scan's run of one line reaching an end of the scan
        along points ``at(sign, depth, t)`` for ``t`` in ``ts``) where the scan, carried on past
        that end by up to :data:`PAST_END` of the distance between centres (still inside the
        hex), shows it end as a stroke crossing the scan does: its middle on the scan, no wider
        than two strokes; else ``(None, None)``."""
        first, last, index = run
        more = max(2, int(PAST_END * dist))
        if first <= 0 and last >= len(ts) - 1:
            return None, None
        lead = more if first <= 0 else 0
        extended = [ts[0] - k for k in range(lead, 0, -1)] + list(ts) + \
            ([ts[-1] + k for k in range(1, more + 1)] if not lead else [])
        found, _ = self.runs([at(sign, depth, t) for t in extended], fill, centre, n)
        for f, l, i in found:
            if i != index or l < first + lead or f > last + lead:
                continue  # not the run that reached the end
            if f <= 0 or l >= len(extended) - 1 or l - f + 1 > 2 * THIN * dist:
                return None, None
            mid = (f + l) / 2 - lead
            return (f - lead, l - lead) if 0 <= mid <= len(ts) - 1 else (None, None)
        return None, None

    def _paleness(self, index: int, trail_a: list, fill_a, trail_b: list, fill_b) -> float:
        """How strongly the stroke followed along ``trail_a`` and ``trail_b`` (points with their
        heading, in the hexes of fill ``fill_a`` and ``fill_b``) shows its line's colour, against
        how the line's sure strokes on this picture did (see :meth:`learned`): the median of
        its most inked pixels across, over the line's learned peak (1: as strongly), in the hex
        where it shows the more strongly (on a fill near the line's colour, a road into a
        city's dark red, blur leaves little of it)."""
        reach = max(3, int(math.ceil(0.5 * THIN * self.sampler.size)))
        best = None
        for trail, fill in ((trail_a, fill_a), (trail_b, fill_b)):
            if trail:
                peaks = sorted(self.across(x, y, (wx, wy), index, fill, reach) for x, y, wx, wy in trail)
                best = max(best or 0.0, peaks[len(peaks) // 2])
        return 1.0 if best is None else best / max(1e-6, self.strengths[index].peak)


def _connected(start, trail: list, gap: float) -> int:
    """How many of ``trail``'s points (a stroke followed from ``start``) were seen before the
    first stretch longer than ``gap`` where it was not (looked past under a name, a symbol or
    another line)."""
    count, last = 0, start
    for x, y, *_ in trail:
        if math.hypot(x - last[0], y - last[1]) > gap:
            break
        count += 1
        last = (x, y)
    return count


def _on(course: list, other: list, near: float) -> bool:
    """True if most of the points of ``course`` (working pixels) that lie alongside the polyline
    ``other`` lie within ``near`` of it (at least one does; a point whose nearest place on it
    is an end, and lies on beyond that end, is not alongside it)."""
    if not other:
        return False
    segments = list(zip(other, other[1:])) or [(other[0], other[0])]
    alongside = close = 0
    for x, y in course:
        nearest = None   # (distance, beyond an end of the polyline)
        for n, ((ax, ay), (bx, by)) in enumerate(segments):
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            t = ((x - ax) * dx + (y - ay) * dy) / length2 if length2 else 0.0
            ends = near / math.sqrt(length2) if length2 else 0.0
            beyond = (n == 0 and t < -ends) or (n == len(segments) - 1 and t > 1 + ends)
            t = min(1.0, max(0.0, t))
            d = math.hypot(x - ax - t * dx, y - ay - t * dy)
            if nearest is None or d < nearest[0]:
                nearest = (d, beyond)
        if not nearest[1]:
            alongside += 1
            close += nearest[0] <= near
    return alongside > 0 and close >= 0.6 * alongside

