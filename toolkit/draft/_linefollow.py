"""A line's stroke followed pixel by pixel from a hexside into a hex: each step looks across
the stroke for the run of its colour nearest where it was heading, and looks on past names,
symbols and other lines drawn over it."""

from __future__ import annotations

import math

from ._strokes import StrokeReader
from .sample import LABEL_PAD

#: A stroke is followed until it lies this deep inside a hex (the side is 0.5 from its centre).
DEPTH = 0.3
DEEPEST = 0.45
#: Steps along a stroke, and how far across each step the stroke is looked for.
STEP = 0.06
REACH = 0.12
#: The widest run across a stroke still taken for a line (a town's block or a wood is wider).
THIN = 0.16
#: A point this near (working pixels) a hex's side lies on its grid line.
GRID_LINE = 1.5


class StrokeFollower(StrokeReader):
    """Follows a line's strokes into the hexes either side of a hexside (see :meth:`_follow`)."""

    def _follow(self, start, way, index, fill, centre, mid, inward, dist, paired,
                textured=False, behind=None) -> tuple[int, int, bool | None, list]:
        """Follow line ``index`` from ``start`` (working pixels) heading about ``way`` into the
        hex centred at ``centre`` (see :meth:`_trace`). A stroke lost after it went under a
        label (a road bending under an id) is looked for where it leaves the label's box
        elsewhere than straight on, and followed on from there."""
        result, entry = self._trace(start, way, index, fill, centre, mid, inward, dist, paired, textured, behind)
        if result[2] is not False or entry is None:
            return result
        out = self._exit(entry, index, fill, centre, mid, inward, dist)
        if out is None:
            return result
        point, heading = out
        again, _ = self._trace(point, heading, index, fill, centre, mid, inward, dist, False, textured, behind,
                               entry[4:])
        return again if again[2] is True else result

    def _trace(self, start, way, index, fill, centre, mid, inward, dist, paired, textured=False, behind=None,
               state=None) -> tuple[tuple[int, int, bool | None, list], tuple | None]:
        """Follow line ``index`` from ``start`` (working pixels) heading about ``way`` into the
        hex centred at ``centre``: ``(steps it was seen on, steps it could be seen on, whether
        it reached DEPTH inside the hex, or None where names hid it all the way, the points
        it was seen at with its heading there)``, and where the stroke last went under a
        label: ``(where it was last seen, its heading, the first point hidden, the counts and
        the trail so far)``, or None. ``state``: such counts and trail to go on from.

        Each step looks across the stroke for the run of its colour nearest where the stroke
        was heading, and turns with it. The first step looks wider (a stroke's heading across
        the side is known only roughly: ``paired``, from where it crossed both scans)."""
        thin = THIN * dist
        # roads whose dark casing looks like this line: one passes beside it, not over it
        cased = set(self.cased_by.get(index, ()))
        x, y = start
        lx, ly = start  # where the stroke was last seen
        wx, wy = way
        hits = looked = misses = 0
        trail = []      # where the stroke was seen, and its heading there
        first = True    # until the stroke is first seen, its heading is known only roughly
        coasted = 0.0   # how far the search went on without seeing the stroke
        inside = 0      # steps it could be seen on inside this hex (past the side)
        patched = 0     # steps inside this hex lost in patches of line colour (not under names)
        named = 0       # steps inside this hex hidden under names and ids
        ended = False   # whether it was missed before the side (a stroke that ends short of it)
        if state is not None:
            hits, looked, misses, inside, patched, named, ended, trail = state
            trail = list(trail)
        entry = None    # where the stroke last went under a label (see above)
        for _ in range(int(0.6 * dist / (STEP * dist)) + 3):
            # up to 30 degrees off the heading (55 when only one scan saw the stroke), 40
            # once followed; the further from where it was last seen, the wider
            step = max(2.0, 2 * STEP * dist) if first else max(1.5, STEP * dist)
            turn = min(0.3 * dist, max(1.5, (step + coasted) * ((0.6 if paired else 1.4) if first else 0.8)))
            reach = max(3, int(math.ceil(max(REACH * dist, turn + 0.5 * thin))))
            qx, qy = x + step * wx, y + step * wy
            px, py = -wy, wx
            points = [(qx + k * px, qy + k * py) for k in range(-reach, reach + 1)]
            # each pixel judged against the fill of the hex it lies in (the first steps of a
            # stroke seen on one side only still lie in the hex it was seen in)
            depth = (qx - mid[0]) * inward[0] + (qy - mid[1]) * inward[1]
            here = fill if depth >= 0 or behind is None else behind
            found, hidden = self.runs(points, here, centre, (wx, wy))
            # hidden where the stroke would be: on its heading, or, until it is first seen (its
            # heading known only roughly), on much of where it may have turned to; a name
            # beside its course hides nothing of it
            aside = int(0.5 * thin) + 1
            covered = bool(hidden) and any(self._hidden(*points[reach + k], centre) for k in range(-aside, aside + 1))
            if hidden and first and not covered:
                window = range(reach - int(turn), reach + int(turn) + 1)
                covered = sum(self._hidden(*points[k], centre) for k in window) >= 0.4 * len(window)
            # where the stroke is in a run: its middle, or in a run wider than a line (the line
            # and a symbol touching it), the run's point nearest where the stroke was heading
            near = [((first_ + last) / 2 - reach if last - first_ + 1 <= 0.5 * thin
                     else min(max(0.0, first_ - reach), last - reach), last - first_ + 1)
                    for first_, last, i in found if i == index and last - first_ + 1 <= thin]
            near = [(o, w) for o, w in near if abs(o) <= turn]
            # the stroke runs on unbroken from where it was last seen (dots and symbols do not)
            # (where symbols fill the hex: elsewhere nothing else is drawn to be mistaken for it)
            near = [(o, w) for o, w in sorted(near, key=lambda v: abs(v[0]))
                    if not textured or self._unbroken((lx, ly), (qx + o * px, qy + o * py), index, here, centre, True)][:1]
            on_grid = bool(near) and covered and _on_side((qx + near[0][0] * px, qy + near[0][0] * py), (lx, ly), centre,
                                                          inward, dist)
            if on_grid:
                # a hexside's grid line, dark like a railway (beside an id that hides the
                # stroke): not the stroke, which is looked for on its heading, no wider
                near = []
            # (a stroke seen once past a label and lost again is still the one that went in there)
            if covered and not near and (entry is None or len(trail) >= len(entry[-1]) + 2):
                entry = (lx, ly, (wx, wy), (qx, qy), hits, looked, misses, inside, patched, named, ended, tuple(trail))
            if near:
                o, _ = near[0]
                nx, ny = qx + o * px, qy + o * py
                hx, hy = _unit(nx - lx, ny - ly)
                wx, wy = (hx, hy) if first else _unit(wx + hx, wy + hy)
                x, y = lx, ly = nx, ny
                trail.append((nx, ny, wx, wy))
                # (seen short of the side, where the follow of a stroke seen on one side only
                # starts, it tells nothing of this hex)
                hits += depth >= 0
                looked += depth >= 0
                inside += depth >= 0
                misses = 0
                first, coasted = False, 0.0
            else:
                # in a patch of its colour wider than a line where the stroke would be (a symbol it
                # crosses), or under another line drawn over it (a minor road under the road on
                # the same course, a railway under a town's blocks, not a road beside it whose
                # dark casing looks like it)
                patch = any(i == index and last - first_ + 1 > thin and first_ - 1 <= reach <= last + 1
                            for first_, last, i in found)
                under = any(i != index and first_ - 1 <= reach + aside and last + 1 >= reach - aside
                            and (i not in cased or last - first_ + 1 > thin) for first_, last, i in found)
                # (on a fill too near the line's colour to tell it there, as under a name: a
                # road into a city's dark red, a minor road over an orange hatching, blurred)
                dim = depth >= 0 and self.dim(index, here)
                if covered or patch or under or dim:
                    # under a name, a symbol or another line: look on beyond it
                    x, y = qx, qy
                    coasted += 0.0 if on_grid else step
                    patched += patch and not covered and not dim and depth >= 0
                    named += (covered or dim) and depth >= 0
                else:
                    x, y = qx, qy
                    coasted += 0.0 if on_grid else step
                    looked += 1
                    inside += depth >= 0
                    ended = ended or depth < 0
                    misses += 1
                    if misses > 2:
                        return (hits, looked, False, trail), entry
            if wx * inward[0] + wy * inward[1] < 0.2:  # turned to run along the side
                return (hits, looked, False, trail), entry
            depth = (x - mid[0]) * inward[0] + (y - mid[1]) * inward[1]
            # (where names hide the stroke, it is looked for on nearly to the hex's middle)
            if depth >= DEPTH * dist and looked >= 2 or depth >= DEEPEST * dist:
                # inside this hex, not gone on into its neighbour past a corner (None: names hid
                # the stroke wherever it was looked for in this hex)
                if math.hypot(x - centre[0], y - centre[1]) > 0.42 * dist:
                    return (hits, looked, False, trail), entry
                # (a stroke seen once, then lost in patches of line colour, a fortress's outline,
                # is not followed into the hex; one not seen before them, lines meeting at a
                # town, may run on into them)
                if inside == 1 and patched:
                    return (hits, looked, False, trail), entry
                # (a stroke seen on one side of the hexside only and never inside this hex,
                # though it could have been, did not reach into it: a block beside a name, not a
                # line running on under it)
                if inside and not hits and not paired:
                    return (hits, looked, False, trail), entry
                # (seen once only, at the end of a course names hid, it is as good as hidden)
                if inside == 1 and hits == 1 and named >= 2:
                    return (hits, looked, None, trail), entry
                return (hits, looked, True if inside else False if ended else None, trail), entry
        return (hits, looked, False, trail), entry

    def _exit(self, entry, index, fill, centre, mid, inward, dist) -> tuple | None:
        """Where a stroke that went under a label (``entry``, see :meth:`_trace`) leaves the
        label's box elsewhere than where it went in: ``(point, heading out of the box)``
        (working pixels) for the one thin run of the line's colour just around the box (boxes
        that overlap it taken with it), inside this hex and off its grid lines; None where
        there is none, or more than one."""
        s = self.sampler
        (lx, ly), way, hidden = entry[:2], entry[2], entry[3]
        pad = LABEL_PAD * s.layout.size / s.k + 0.5  # (as far as a label hides, see _hidden)
        # (the labels hiding points beside the first point hidden, see _trace's ``covered``)
        box = (hidden[0] - 0.5 * THIN * dist - 1, hidden[1] - 0.5 * THIN * dist - 1,
               hidden[0] + 0.5 * THIN * dist + 1, hidden[1] + 0.5 * THIN * dist + 1)
        for _ in range(4):  # labels overlapping each other hide one patch
            near = s.labels_near((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad))
            if not near:
                return None
            grown = (min(b[0] for b in near), min(b[1] for b in near), max(b[2] for b in near), max(b[3] for b in near))
            if grown == box:
                break
            box = grown
        thin = THIN * dist
        g = pad + 1.5
        x0, y0, x1, y1 = box[0] - g, box[1] - g, box[2] + g, box[3] + g
        rim, normals = [], []
        for (ax, ay), (bx, by), normal in (((x0, y0), (x1, y0), (0.0, -1.0)), ((x1, y0), (x1, y1), (1.0, 0.0)),
                                           ((x1, y1), (x0, y1), (0.0, 1.0)), ((x0, y1), (x0, y0), (-1.0, 0.0))):
            n = max(1, int(math.hypot(bx - ax, by - ay)))
            rim += [(ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(n)]
            normals += [normal] * n
        found, _ = self.runs(rim, fill, centre)
        # where the stroke went in: the first of the rim's points on its course (or nearest it)
        went_in = min(range(len(rim)), key=lambda i: (_off_ray(rim[i], (lx, ly), way) > 0.5 * thin,
                                                      math.hypot(rim[i][0] - lx, rim[i][1] - ly)))
        exits = []
        for first, last, i in found:
            first, last = math.ceil(first), math.floor(last)  # (a road's casing cut off a run ends between pixels)
            if i != index or last < first or last - first + 1 > 1.5 * thin:
                continue
            k = (first + last) // 2
            p = rim[k]
            if min(abs(k - went_in), len(rim) - abs(k - went_in)) <= thin:
                continue  # where it went in
            depth = (p[0] - mid[0]) * inward[0] + (p[1] - mid[1]) * inward[1]
            if depth < 0.1 * dist or math.hypot(p[0] - centre[0], p[1] - centre[1]) > 0.5 * dist or \
                    _by_side(p, centre, inward, dist):
                continue
            exits.append((p, _unit(sum(normals[j][0] for j in range(first, last + 1)),
                                   sum(normals[j][1] for j in range(first, last + 1)))))
        return exits[0] if len(exits) == 1 else None


def _on_side(point, last, centre, inward, dist) -> bool:
    """True if ``point`` (working pixels) lies on a side of the hex centred at ``centre`` (its
    grid line), reached from ``last`` along that side rather than across it (``inward``: from
    the side crossed into the hex; ``dist``: between neighbouring centres)."""
    heading = _unit(point[0] - last[0], point[1] - last[1])
    return any(abs(off - 0.5 * dist) <= GRID_LINE and abs(heading[0] * v[0] + heading[1] * v[1]) < 0.6
               for v, off in _sides(point, centre, inward))


def _by_side(point, centre, inward, dist) -> bool:
    """True if ``point`` (working pixels) lies on or beside a grid line of the hex centred at
    ``centre`` (``inward``: from a side into the hex; ``dist``: between neighbouring centres)."""
    return any(abs(off - 0.5 * dist) <= GRID_LINE + 1 for _, off in _sides(point, centre, inward))


def _sides(point, centre, inward):
    """Per side of the hex centred at ``centre`` (``inward``: from one side into the hex): the
    unit vector out of the hex across it, and how far ``point`` lies from the centre that way."""
    for k in range(6):
        a = math.pi / 3 * k
        c, s = math.cos(a), math.sin(a)
        v = (-(c * inward[0] - s * inward[1]), -(s * inward[0] + c * inward[1]))  # out of the hex
        yield v, (point[0] - centre[0]) * v[0] + (point[1] - centre[1]) * v[1]


def _off_ray(point, origin, way) -> float:
    """How far ``point`` lies from the ray from ``origin`` heading ``way`` (a unit vector)."""
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    t = max(0.0, dx * way[0] + dy * way[1])
    return math.hypot(dx - t * way[0], dy - t * way[1])


def _unit(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y) or 1.0
    return x / length, y / length

