"""Thin strokes of a line's colour on a picture: each pixel judged against the fill of the hex
it lies in (how much of it is which line's colour, see :func:`~toolkit.draft._pixels.blend_alpha`),
and runs of them across a row of pixels, a road's casing taken into the road and a blurred
line's faint edges into the line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ._pixels import fix
from .sample import ID_BAND, LABEL_PAD, colour_distance

#: A stroke is its line's colour nearly unblended somewhere (its core) or, blurred, at least
#: FAINT and holding INK of it across (the sum of its pixels' share of the colour, in pixels:
#: blur spreads a thin line but keeps its ink); a paler stroke of a like hue (a hill's
#: contour) is neither.
CORE = 0.6
FAINT = 0.47
INK = 0.8
#: A pixel this much nearer a mix of one line's colours than of a like line's (in RGB levels)
#: is that line's, beside the other (see :meth:`StrokeReader._one_of_alike`).
APART = 40.0
#: A pixel this much nearer (RGB levels) a mix of a line's colour than of a road's colours and
#: casing is plainly that line's, not the casing's (a railway drawn against a road's edge).
PLAIN = 25.0
#: A pixel holding this much of a dark line's colour is the line itself, whatever its hue (a
#: casing's antialiased edge is a blend, paler).
SOLID = 0.95
#: A stroke covers this share of its course from one step to the next (a dashed track does).
UNBROKEN = 0.6
#: A pixel is taken for a line's colour when at least this much of it is that colour.
FLOOR = 0.4
#: A line's colour nearer a fill than this (RGB levels) shows there too faintly to be missed
#: where it is not seen (JPEG and blur move a pixel by a fair share of it).
DIM = 75.0
#: A line whose sure strokes peak at this share of its colour or more shows crisp; one that
#: peaks lower is judged with thresholds lowered in proportion, down to WEAKEST of them.
CRISP = 0.9
WEAKEST = 0.45


@dataclass(frozen=True)
class Strength:
    """How strongly a line shows on one picture, learned from its sure strokes: the median
    ``peak`` share of its colour across them (its most inked pixel; about 1 on a crisp
    picture). Blur or a soft scan spreads a thin line (a railway at 80 dpi) to half its
    colour or less, keeping its shape: its thresholds are then lowered in proportion (but not
    below :data:`WEAKEST` of a crisp line's, where noise, grid lines and contours would pass)."""

    peak: float

    def thresholds(self) -> tuple[float, float, float]:
        """``(floor, faint, ink)`` for this line on this picture (the defaults on a crisp one)."""
        ratio = min(1.0, max(WEAKEST, self.peak / CRISP))
        return FLOOR * ratio, FAINT * ratio, INK * ratio


class StrokeReader:
    """Judges the pixels of ``sampler``'s picture against lines ``(code, colour, casing or
    None)``: the map's colours, the picture's after ``correction``."""

    def __init__(self, sampler, lines, correction, strengths=None) -> None:
        self.sampler = sampler
        self.lines = list(lines)
        self.correction = correction
        self.codes = [code for code, _, _ in self.lines]
        self.colours = [tuple(float(v) for v in colour) for _, colour, _ in self.lines]
        # which line's casing is drawn in which line's colour (a road's dark edge looks like a
        # railway): casing index -> the lines that wear it
        self.cased_by: dict[int, list[int]] = {}
        for i, (_, _, casing) in enumerate(self.lines):
            if casing is None:
                continue
            for j, colour in enumerate(self.colours):
                if j != i and colour_distance(colour, casing) < 80:
                    self.cased_by.setdefault(j, []).append(i)
        # lines of like colours (not one the casing of the other): a stroke is one of them
        self.alike = {(i, j) for i, a in enumerate(self.colours) for j, b in enumerate(self.colours)
                      if i != j and colour_distance(a, b) < 150 and j not in self.cased_by.get(i, ())
                      and i not in self.cased_by.get(j, ())}
        self._labels: dict = {}
        #: the lines drawn with a casing, and the casing's colour
        self._casings = [(i, tuple(float(v) for v in casing)) for i, (_, _, casing) in enumerate(self.lines)
                         if casing is not None]
        #: per line: (floor, faint, ink) thresholds, from its :class:`Strength` where learned
        self.strengths = dict(strengths or {})
        self.limits = [self.strengths[i].thresholds() if i in self.strengths else (FLOOR, FAINT, INK)
                       for i in range(len(self.lines))]
        #: the lines this picture shows fainter than a crisp picture would
        self.faint = {i for i, limits in enumerate(self.limits) if limits != (FLOOR, FAINT, INK)}

    # -- pixels ------------------------------------------------------------------------------

    def label(self, colour, fill, cased: bool = False) -> tuple[int, float]:
        """The index of the line whose colour the pixel is (blended with ``fill``), or -1, and
        how much of the pixel is that colour. ``cased``: a pixel of a line's colour blended
        with its casing's counts too (see :meth:`_cased_label`)."""
        key = (colour, fill, cased)
        known = self._labels.get(key)
        if known is not None:
            return known
        p = fix(colour, self.correction)
        best, best_off, alpha = -1, None, 0.0
        for i, target in enumerate(self.colours):
            v = [target[c] - fill[c] for c in range(3)]
            vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
            if vv < 1600.0:  # the line's colour is too near this fill to be seen on it
                continue
            w = [p[c] - fill[c] for c in range(3)]
            a = (v[0] * w[0] + v[1] * w[1] + v[2] * w[2]) / vv
            if a < self.limits[i][0] or a > 1.6:
                continue
            r = math.sqrt(sum((w[c] - a * v[c]) ** 2 for c in range(3)))
            length = math.sqrt(vv)
            if r > 20 + 0.12 * length:
                continue
            off = r / length  # off the line fill -> colour, relative to its length
            if best_off is None or off < best_off:
                best, best_off, alpha = i, off, a
        if best < 0 and cased and self._casings:
            best, alpha = self._cased_label(p, fill)
        if len(self._labels) > 200_000:
            self._labels.clear()
        self._labels[key] = best, alpha
        return best, alpha

    def _cased_label(self, p, fill) -> tuple[int, float]:
        """``(line index, share)`` for a corrected pixel ``p`` no line's colour explains alone:
        a line's colour blended with its casing's on a fill unlike both (a thin road blurred
        over woods' green or a town's brown: its red core mixed half with the dark casing, off
        the blend of fill and red, though both inks are there). The share is both inks', each
        at least half the line's floor (a tree's dark outline is no road's, nor a red block's
        edge its dark outline); -1, 0 where no cased line explains it."""
        best, best_off, alpha = -1, None, 0.0
        w = [p[c] - fill[c] for c in range(3)]
        for i, casing in self._casings:
            target = self.colours[i]
            v = [target[c] - fill[c] for c in range(3)]
            u = [casing[c] - fill[c] for c in range(3)]
            vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
            if vv < 1600.0:
                continue
            uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2]
            vu = v[0] * u[0] + v[1] * u[1] + v[2] * u[2]
            det = vv * uu - vu * vu
            if det < 1e-3 * vv * uu:  # the casing lies on the line's blend: nothing more to explain
                continue
            wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2]
            wu = w[0] * u[0] + w[1] * u[1] + w[2] * u[2]
            a, b = (wv * uu - wu * vu) / det, (wu * vv - wv * vu) / det
            floor = self.limits[i][0]
            if a < 0.5 * floor or b < 0.5 * floor or a + b > 1.6:
                continue
            r = math.sqrt(sum((w[c] - a * v[c] - b * u[c]) ** 2 for c in range(3)))
            length = math.sqrt(vv)
            if r > 20 + 0.12 * length:
                continue
            if best_off is None or r / length < best_off:
                best, best_off, alpha = i, r / length, a + b
        return best, alpha

    def dim(self, index: int, fill) -> bool:
        """True if line ``index``'s colour is too near ``fill`` (corrected) for a picture's
        noise to leave it told apart there: where it is not seen, it may be there unseen."""
        return colour_distance(self.colours[index], fill) < DIM

    def share(self, colour, fill, index: int) -> float:
        """How much of a pixel is line ``index``'s colour blended with ``fill`` (0 when it lies
        off the blend), with no floor: what a faint stroke's pixels hold."""
        p = fix(colour, self.correction)
        target = self.colours[index]
        v = [target[c] - fill[c] for c in range(3)]
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if vv < 1600.0:
            return 0.0
        w = [p[c] - fill[c] for c in range(3)]
        a = (v[0] * w[0] + v[1] * w[1] + v[2] * w[2]) / vv
        if a <= 0.0:
            return 0.0
        r = math.sqrt(sum((w[c] - a * v[c]) ** 2 for c in range(3)))
        return min(1.0, a) if r <= 20 + 0.12 * math.sqrt(vv) else 0.0

    def across(self, x: float, y: float, way, index: int, fill, reach: int) -> float:
        """The share of line ``index``'s colour in the most inked pixel across a stroke at
        working point (x, y) heading ``way`` (each read a pixel either way along the stroke
        too, as :meth:`runs` does)."""
        pixel = self.sampler.pixel
        px, py = -way[1], way[0]
        shares = []
        for k in range(-reach, reach + 1):
            cx, cy = x + k * px, y + k * py
            best = 0.0
            for colour in (pixel(cx, cy), pixel(cx - way[0], cy - way[1]), pixel(cx + way[0], cy + way[1])):
                if colour is not None:
                    best = max(best, self.share(colour, fill, index))
            shares.append(best)
        return max(shares)

    def _hidden(self, x: float, y: float, centre) -> bool:
        """True if working point (x, y) is under a printed name, id or marker (where the hex
        ids are printed when no boxes are known)."""
        s = self.sampler
        if s.labels:
            return s.labelled(x * s.k, y * s.k, LABEL_PAD * s.layout.size)
        if s.hex_ids not in ("top", "bottom", "centre"):
            return False
        layout = s.layout
        angle = getattr(layout, "angle", 0.0)
        c, sn = math.cos(angle), math.sin(angle)
        vx, vy = x - centre[0], y - centre[1]
        ly = (-sn * vx + c * vy) / s.size
        lx = (c * vx + sn * vy) / s.size
        if s.hex_ids == "top":
            return ly < -ID_BAND
        if s.hex_ids == "bottom":
            return ly > ID_BAND
        return abs(ly) < 0.1 and abs(lx) < 0.2

    def runs(self, points, fill, centre, along=None) -> tuple[list[tuple[float, float, int]], int]:
        """Runs of line colour along ``points`` (working pixels, one pixel apart): ``(first,
        last, line index)`` with a road's casing taken into the road, and how many points are
        hidden under labels (``centre``: of the hex the points lie in). Points off the picture
        or hidden count as neither. A run must have a :data:`CORE` or hold :data:`INK` of the
        line's colour.

        ``along``: the stroke's heading (a unit vector); each point is then read a pixel
        either way along the stroke too, keeping the most inked (a railway's ties, JPEG's
        blocks and blur leave a thin line broken and faint in places)."""
        labels, alphas, inks = self._judged(points, fill, centre, along)
        self._join_faint(labels, alphas)
        self._one_of_alike(labels, inks, fill)
        raw = []
        start = 0
        for i in range(1, len(labels) + 1):
            if i == len(labels) or labels[i] != labels[start]:
                peak = max(alphas[start:i])
                line = labels[start]
                if line >= 0 and (peak >= CORE or peak >= self.limits[line][1]
                                  and sum(alphas[start:i]) >= self.limits[line][2]):
                    raw.append([start, i - 1, labels[start]])
                start = i
        return self._uncase(raw, labels, alphas, inks, fill), labels.count(-2)

    def _judged(self, points, fill, centre, along) -> tuple[list[int], list[float], list]:
        """Per point: the line index its pixel is (-1: none, -2: hidden or off the picture),
        how much of it, and the pixel read."""
        pixel = self.sampler.pixel
        known = self._labels  # (label's answers: looked up here first, as most pixels repeat)
        labels, alphas, inks = [], [], []
        for x, y in points:
            if self._hidden(x, y, centre):
                group = ()
            elif along is None:
                group = (pixel(x, y),)
            else:
                group = (pixel(x, y), pixel(x - along[0], y - along[1]), pixel(x + along[0], y + along[1]))
            if not group or group[0] is None:
                labels.append(-2)
                alphas.append(0.0)
                inks.append(None)
                continue
            best = (-1, 0.0, None)
            for colour in group:
                if colour is not None:
                    index, alpha = known.get((colour, fill, False)) or self.label(colour, fill)
                    if index >= 0 and alpha > best[1]:
                        best = (index, alpha, colour)
            labels.append(best[0])
            alphas.append(best[1])
            inks.append(best[2])
        return labels, alphas, inks

    def _join_faint(self, labels: list[int], alphas: list[float]) -> None:
        """A thin line blurred: its faint edges may be judged nearer another line's colour; a
        pixel or two of faint colour beside a stronger stroke is that stroke's edge (but not
        a road's fringe beyond its casing)."""
        n = len(labels)
        i = 0
        while i < n:
            j = i
            while j < n and labels[j] == labels[i]:
                j += 1
            if labels[i] >= 0 and j - i <= 2 and max(alphas[i:j]) < CORE:
                near = [k for k in (i - 1, j) if 0 <= k < n and labels[k] >= 0 and labels[k] != labels[i]
                        and alphas[k] > max(alphas[i:j]) and labels[i] not in self.cased_by.get(labels[k], ())
                        and labels[k] not in self.cased_by.get(labels[i], ())]
                if near:
                    strongest = max(near, key=lambda k: alphas[k])
                    for k in range(i, j):
                        labels[k] = labels[strongest]
            i = j

    def _one_of_alike(self, labels: list[int], inks: list, fill) -> None:
        """A stroke's pixels may be judged nearer either of two lines of like colours (a road
        and a minor road: blur mixes a line's colour with its casing's, JPEG shifts hues): the
        stroke is one line, the one whose colour and casing, mixed, explain its pixels."""
        if not self.alike:
            return
        i = 0
        while i < len(labels):
            group = {labels[i]} | {o for o in range(len(self.colours)) if (labels[i], o) in self.alike}
            if labels[i] < 0 or len(group) == 1:
                i += 1
                continue
            j = i
            while j < len(labels) and labels[j] in group:
                j += 1
            winner = min(group, key=lambda code: sum(self._unmixed(inks[n], fill, code) for n in range(i, j)))
            # ... unless a part of it is plainly the other line, its colour unmixed where no mix
            # of the winner's explains it: two lines side by side (a minor road showing beside
            # the road drawn over it on the same course)
            for n in range(i, j):
                if labels[n] != winner and self._unmixed(inks[n], fill, winner) - self._unmixed(
                        inks[n], fill, labels[n]) < APART:
                    labels[n] = winner
            i = j

    def _unbroken(self, a, b, index, fill, centre=None, cased=False) -> bool:
        """True if line colour (``index``'s, or one a faint pixel of it leans to) covers most of
        the segment a-b (working pixels; a pixel either side allowed) where it is not hidden
        under a name or an id (``centre``: of the hex the segment lies in). ``cased``: a line's
        colour blended with its casing's covers it too (a thin road blurred over woods: its
        red mixed half with its dark casing all along, off any blend of the woods' green and
        red alone; not in the runs across a stroke, where it would join a road to a hill's
        brown contours or a town's dark-edged blocks beside it)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        steps = int(length)
        if steps < 2:
            return True
        ux, uy = dx / length, dy / length
        covered = 0
        for i in range(1, int(length) + 1):
            x, y = a[0] + ux * i, a[1] + uy * i
            if centre is not None and self._hidden(x, y, centre):
                steps -= 1
                continue
            for k in (0, -1, 1):
                colour = self.sampler.pixel(x - uy * k, y + ux * k)
                # (any line's colour: a faint thin line's pixels lean to one or another)
                if colour is not None and self.label(colour, fill, cased)[0] >= 0:
                    covered += 1
                    break
        # (a course hidden nearly all the way shows nothing of a stroke: no sign it runs on)
        return steps >= 2 and covered >= UNBROKEN * steps

    def _unmixed(self, colour, fill, index) -> float:
        """How far a pixel lies from any mix of the fill, line ``index``'s colour and its casing."""
        p = fix(colour, self.correction)
        w = [p[c] - fill[c] for c in range(3)]
        v1 = [self.colours[index][c] - fill[c] for c in range(3)]
        casing = self.lines[index][2]
        basis = [v1] if casing is None else [v1, [casing[c] - fill[c] for c in range(3)]]
        best = math.sqrt(sum(x * x for x in w))
        for v in basis:  # one colour mixed with the fill
            vv = sum(x * x for x in v) or 1.0
            a = max(0.0, sum(x * y for x, y in zip(v, w)) / vv)
            best = min(best, math.sqrt(sum((w[c] - a * v[c]) ** 2 for c in range(3))))
        if len(basis) == 2:  # both, as blur mixes them
            v, u = basis
            vv, uu, vu = (sum(x * x for x in v), sum(x * x for x in u), sum(x * y for x, y in zip(v, u)))
            wv, wu = sum(x * y for x, y in zip(w, v)), sum(x * y for x, y in zip(w, u))
            det = vv * uu - vu * vu
            if abs(det) > 1e-6:
                a, b = (wv * uu - wu * vu) / det, (wu * vv - wv * vu) / det
                if a >= 0 and b >= 0:
                    best = min(best, math.sqrt(sum((w[c] - a * v[c] - b * u[c]) ** 2 for c in range(3))))
        return best

    def _uncase(self, raw: list, labels: list[int], alphas: list[float], inks=None,
                fill=None) -> list[tuple[float, float, int]]:
        """A road's casing (a dark edge each side) joins the road; what is left of a dark run
        beside it, wider than the casing on its other side, is a line of its own (a railway
        drawn beside the road). The casing's width is read where it shows alone: the narrower
        edge where both are runs, else the ink of the faint edge on the other side. Where the
        pixels tell the casing's colour from the line's (``inks``: the pixels read), the casing
        ends at the first pixel plainly of the line's colour, and a faint rest none of whose
        pixels leans to the line's colour more than the casing's is the casing's antialiased
        edge."""
        if not self.cased_by:
            return [tuple(r) for r in raw]
        out = [list(r) for r in raw]
        wearers = {i for group in self.cased_by.values() for i in group}
        for n, core in enumerate(out):
            if core[2] not in wearers:
                continue
            edges = {}
            for side in (-1, 1):
                m = n + side
                if 0 <= m < len(out) and core[2] in self.cased_by.get(out[m][2], ()):
                    gap = out[m][0] - core[1] - 1 if side > 0 else core[0] - out[m][1] - 1
                    if gap <= 1:
                        edges[side] = out[m]
            if not edges:
                continue
            widths = [e[1] - e[0] + 1 for e in edges.values()]
            # the casing is as wide each side: the narrower edge's width where both show
            if len(widths) == 2:
                casing = min(widths)
            else:
                side = -next(iter(edges))
                faint = self._edge_ink(labels, alphas, core, side, next(iter(edges.values()))[2])
                casing = min(widths[0], faint or 0.5 + 0.2 * (core[1] - core[0] + 1))
            core_peak = max(alphas[math.ceil(core[0]):math.floor(core[1]) + 1], default=0.0)
            for side, edge in edges.items():
                if core_peak < CORE and max(alphas[math.ceil(edge[0]):math.floor(edge[1]) + 1], default=0.0) >= SOLID:
                    continue  # a faint run's casing is no darker than it: a line beside it
                # (from the core outward) how much more each pixel is the line's than the casing's
                leans = [] if inks is None else [
                    self._unmixed(inks[k], fill, core[2]) - self._unmixed(inks[k], fill, edge[2])
                    if inks[k] is not None else 0.0
                    for k in (range(math.ceil(edge[0]), math.floor(edge[1]) + 1) if side > 0
                              else range(math.floor(edge[1]), math.ceil(edge[0]) - 1, -1))]
                cut = next((k for k, lean in enumerate(leans) if lean >= PLAIN), None)
                cut = casing if cut is None else min(casing, cut)
                if side > 0:
                    edge[0] += cut
                else:
                    edge[1] -= cut
                # what is left must show as a stroke itself (not a casing's antialiased fringe)
                rest = alphas[math.ceil(edge[0]):math.floor(edge[1]) + 1]
                _, faint, ink = self.limits[edge[2]]
                # (only where the line shows crisp and no pixel of the rest is wholly dark, as no
                # casing's antialiased edge is: JPEG bleeds a road's red into a railway's core
                # beside it, blur mixes their colours)
                plain = (not leans or edge[2] in self.faint or max(rest, default=0.0) >= SOLID
                         or any(lean > 0 for lean in leans[math.ceil(cut):]))
                if not rest or not plain or not (max(rest) >= CORE or max(rest) >= faint and sum(rest) >= ink):
                    edge[1] = edge[0] - 1
        return [tuple(r) for r in out if r[1] - r[0] >= 0]

    @staticmethod
    def _edge_ink(labels: list[int], alphas: list[float], core, side: int, casing: int) -> float:
        """The ink of casing ``casing`` just beyond ``core``'s ``side`` end (a pixel's gap
        allowed), too faint to be a run of its own: 0 where none shows."""
        ink, gap = 0.0, 0
        k = int(core[1] if side > 0 else core[0]) + side
        for _ in range(4):
            if not 0 <= k < len(labels):
                break
            if labels[k] == casing:
                ink += alphas[k]
            elif ink or gap:
                break
            else:
                gap += 1
            k += side
        return ink
