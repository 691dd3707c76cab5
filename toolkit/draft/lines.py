"""Roads and railways read where a thin stroke of their colour crosses a hexside and runs on
into both hexes, and joined into paths.

Nothing here knows how a line was drawn (through the centres, bent, moved beside another
line): a line is found the way a person finds it. Scan each side of the hexside, a little
inside either hex, for a thin run of a line's colour; from each run, follow the stroke pixel
by pixel into both hexes, some way toward their middles. A stroke that crosses the side and
reaches into both hexes links them; one that only passes near the side, or ends, does not.
Which line it is comes from the colour of its pixels (each pixel against the fill of the hex
it lies in, see :func:`~toolkit.draft._pixels.blend_alpha`); a road's dark casing is told
from a railway beside it by its width.
"""

from __future__ import annotations

import math

from ..hexes import Hex, Hexside
from ._pixels import fix
from .sample import ID_BAND, colour_distance

#: A line is found when it is seen on this share of the steps followed into both hexes ...
LINE_SHARE = 0.75
#: ... and this share where trees or marsh symbols (dark strokes of every colour) fill a hex.
TEXTURED_SHARE = 0.85

#: The two scans either side of a hexside lie this far inside the hexes (of the hex size):
#: clear of the grid line and of a river drawn along the side.
SCAN = 0.1
#: A stroke is followed until it lies this deep inside a hex (the side is 0.5 from its centre).
DEPTH = 0.3
DEEPEST = 0.45
#: A stroke's core is at least this much its line's colour (blurred, a thin line keeps more).
CORE = 0.6
#: Steps along a stroke, and how far across each step the stroke is looked for.
STEP = 0.06
REACH = 0.12
#: The widest run across a stroke still taken for a line (a town's block or a wood is wider).
THIN = 0.16


class LinkReader:
    """Reads the lines crossing each hexside of a picture.

    ``lines`` are ``(code, colour, casing or None)``; colours are the map's (the picture's
    after ``correction``)."""

    def __init__(self, sampler, lines, correction) -> None:
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
        self._labels: dict = {}

    # -- pixels ------------------------------------------------------------------------------

    def label(self, colour, fill) -> tuple[int, float]:
        """The index of the line whose colour the pixel is (blended with ``fill``), or -1, and
        how much of the pixel is that colour."""
        key = (colour, fill)
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
            if a < 0.4 or a > 1.6:
                continue
            r = math.sqrt(sum((w[c] - a * v[c]) ** 2 for c in range(3)))
            length = math.sqrt(vv)
            if r > 20 + 0.12 * length:
                continue
            off = r / length  # off the line fill -> colour, relative to its length
            if best_off is None or off < best_off:
                best, best_off, alpha = i, off, a
        if len(self._labels) > 200_000:
            self._labels.clear()
        self._labels[key] = best, alpha
        return best, alpha

    def _hidden(self, x: float, y: float, centre) -> bool:
        """True if working point (x, y) is under a printed name, id or marker (where the hex
        ids are printed when no boxes are known)."""
        s = self.sampler
        if s.labels:
            return s.labelled(x * s.k, y * s.k, 0.02 * s.layout.size)
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

    def runs(self, points, fill, centre) -> tuple[list[tuple[float, float, int]], int]:
        """Runs of line colour along ``points`` (working pixels, one pixel apart): ``(first,
        last, line index)`` with a road's casing taken into the road, and how many points are
        hidden under labels. Points off the picture or hidden count as neither. A run must
        be the line's colour nearly unblended somewhere (its core): a paler stroke of a like
        hue (a hill's contour, a symbol) is not the line."""
        labels = []
        alphas = []
        hidden = 0
        for x, y in points:
            colour = self.sampler.pixel(x, y)
            if colour is None or self._hidden(x, y, centre):
                labels.append(-2)
                alphas.append(0.0)
                hidden += 1
            else:
                index, alpha = self.label(colour, fill)
                labels.append(index)
                alphas.append(alpha)
        raw = []
        start = 0
        for i in range(1, len(labels) + 1):
            if i == len(labels) or labels[i] != labels[start]:
                if labels[start] >= 0 and max(alphas[start:i]) >= CORE:
                    raw.append([start, i - 1, labels[start]])
                start = i
        return self._uncase(raw), hidden

    def _uncase(self, raw: list) -> list[tuple[float, float, int]]:
        """A road's casing (a dark edge each side) joins the road; what is left of a dark run
        beside it, wider than a casing, is a line of its own (a railway drawn beside the road)."""
        if not self.cased_by:
            return [tuple(r) for r in raw]
        out = [list(r) for r in raw]
        for n, run in enumerate(out):
            wearers = self.cased_by.get(run[2])
            if not wearers:
                continue
            for side in (-1, 1):
                m = n + side
                if not 0 <= m < len(out) or out[m][2] not in wearers:
                    continue
                core = out[m]
                gap = run[0] - core[1] - 1 if side < 0 else core[0] - run[1] - 1
                if gap > 1:
                    continue
                casing = 1.0 + 0.4 * (core[1] - core[0] + 1)
                if side < 0:  # the road is before the dark run
                    run[0] = max(run[0], core[1] + 1 + casing)
                else:
                    run[1] = min(run[1], core[0] - 1 - casing)
        return [tuple(r) for r in out if r[1] - r[0] >= 0]

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
        half = dist / (2 * math.sqrt(3))      # half the side's length
        d = SCAN * dist
        reach = 0.75 * half
        ts = [i - reach for i in range(int(2 * reach) + 1)]
        seeds = []
        for sign, fill, centre in ((-1, fill_a, ca), (1, fill_b, cb)):
            points = [(m[0] + sign * d * n[0] + t * u[0], m[1] + sign * d * n[1] + t * u[1]) for t in ts]
            found, hidden = self.runs(points, fill, centre)
            for first, last, index in found:
                # a run that reaches an end of the scan runs along the side, not across it
                if first <= 0 or last >= len(points) - 1 or (last - first + 1) > 2 * THIN * dist:
                    continue
                seeds.append((sign, ts[0] + (first + last) / 2, index, last - first + 1))
        if not seeds:
            return {}, 0.0
        needed = TEXTURED_SHARE if textured else LINE_SHARE
        best: dict[int, float] = {}
        done: list[tuple[int, float]] = []
        # seeds seen on both scans first: they give the stroke's direction across the side
        pairs = []
        for sign, t, index, width in seeds:
            mate = [t2 for s2, t2, i2, _ in seeds if s2 != sign and i2 == index and abs(t2 - t) <= 3 * d]
            pairs.append((0 if mate else 1, sign, t, index, min(mate, key=lambda v: abs(v - t)) if mate else None))
        pairs.sort(key=lambda p: p[0])
        for _, sign, t, index, mate in pairs:
            if any(i == index and abs(t - t0) < 3 for i, t0 in done):
                continue
            ta, tb = (t, mate) if sign < 0 else (mate, t)
            done.extend((index, v) for v in (ta, tb) if v is not None)
            pa = (m[0] - d * n[0] + (ta if ta is not None else tb) * u[0],
                  m[1] - d * n[1] + (ta if ta is not None else tb) * u[1])
            pb = (m[0] + d * n[0] + (tb if tb is not None else ta) * u[0],
                  m[1] + d * n[1] + (tb if tb is not None else ta) * u[1])
            if ta is not None and tb is not None:
                way = _unit(pb[0] - pa[0], pb[1] - pa[1])
            else:
                way = n
            if way[0] * n[0] + way[1] * n[1] < 0.35:  # along the side, not across it
                continue
            paired = ta is not None and tb is not None
            into_a = self._follow(pa, (-way[0], -way[1]), index, fill_a, ca, m, (-n[0], -n[1]), dist, paired)
            into_b = self._follow(pb, way, index, fill_b, cb, m, n, dist, paired)
            hits = into_a[0] + into_b[0] + (ta is not None) + (tb is not None)
            # a scan that missed the stroke counts against it, unless a label hid it there
            missed = 1 if ta is None and not self._hidden(*pa, ca) else 1 if tb is None and not self._hidden(*pb, cb) else 0
            looked = into_a[1] + into_b[1] + 1 + (ta is not None and tb is not None) + missed
            share = hits / max(1, looked)
            # a stroke that does not run on into both hexes is no link (a line passing by, a
            # symbol's edge); seen on one side, it leaves the reading unsure
            reached = [into_a[2], into_b[2]]
            if None in reached and True in reached:
                # hidden under a name to the hex's middle on one side: a line that crosses
                # the side runs on under it, but only just found
                share = min(share, needed)
            else:
                share *= 1.0 if all(reached) else 0.7 if any(reached) else 0.3
            best[index] = max(best.get(index, 0.0), round(share, 3))
        found = {self.codes[i]: share for i, share in best.items() if share >= needed}
        seen = max(best.values(), default=0.0)
        return found, seen

    def _follow(self, start, way, index, fill, centre, mid, inward, dist, paired) -> tuple[int, int, bool | None]:
        """Follow line ``index`` from ``start`` (working pixels) heading about ``way`` into the
        hex centred at ``centre``: ``(steps it was seen on, steps it could be seen on, whether
        it reached DEPTH inside the hex, or None where names hid it all the way)``.

        Each step looks across the stroke for the run of its colour nearest where the stroke
        was heading, and turns with it. The first step looks wider (a stroke's heading across
        the side is known only roughly: ``paired``, from where it crossed both scans)."""
        thin = THIN * dist
        x, y = start
        wx, wy = way
        hits = looked = misses = 0
        first = True
        for _ in range(int(0.6 * dist / (STEP * dist)) + 3):
            if first:  # up to 30 degrees off the heading (55 when only one scan saw the stroke)
                step = max(2.0, 2 * STEP * dist)
                turn = step * (0.6 if paired else 1.4)
            else:
                step = max(1.5, STEP * dist)
                turn = max(1.5, 0.8 * step)
            reach = max(3, int(math.ceil(max(REACH * dist, turn + 0.5 * thin))))
            qx, qy = x + step * wx, y + step * wy
            px, py = -wy, wx
            points = [(qx + k * px, qy + k * py) for k in range(-reach, reach + 1)]
            found, hidden = self.runs(points, fill, centre)
            near = [((first_ + last) / 2 - reach, last - first_ + 1) for first_, last, i in found
                    if i == index and last - first_ + 1 <= thin]
            near = [(o, w) for o, w in near if abs(o) <= turn]
            if near:
                o, _ = min(near, key=lambda v: abs(v[0]))
                nx, ny = qx + o * px, qy + o * py
                hx, hy = _unit(nx - x, ny - y)
                wx, wy = (hx, hy) if first else _unit(wx + hx, wy + hy)
                x, y = nx, ny
                hits += 1
                looked += 1
                misses = 0
            elif hidden and any(self._hidden(*points[reach + k], centre)
                                for k in range(-int(turn), int(turn) + 1)):
                x, y = qx, qy  # under a name or an id where the stroke would be: look on beyond it
            else:
                x, y = qx, qy
                looked += 1
                misses += 1
                if misses > 2:
                    return hits, looked, False
            first = False
            if wx * inward[0] + wy * inward[1] < 0.2:  # turned to run along the side
                return hits, looked, False
            depth = (x - mid[0]) * inward[0] + (y - mid[1]) * inward[1]
            # (where names hide the stroke, it is looked for on nearly to the hex's middle)
            if depth >= DEPTH * dist and looked >= 2 or depth >= DEEPEST * dist:
                return hits, looked, looked >= 1 or None
        return hits, looked, False


def _unit(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y) or 1.0
    return x / length, y / length


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
