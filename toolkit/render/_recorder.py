"""A canvas that records operations to replay into any window, its polylines made in bulk."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import shapely

from ._polyline import Point, _notch_limit
from ._raster import _TOLERANCE, Canvas

__all__ = ["Recorder"]


class Recorder(Canvas):
    """Collects canvas operations with their boxes, to be replayed into any window later
    (:meth:`Canvas.add` on a canvas of the same ``factor``). Each operation is noted with the
    :attr:`kind` set when it was recorded (what the planner calls it: linework, a bridge).

    Polylines are kept in their place and made into operations all together when
    :attr:`items` is read: simplified, snapped and searched for sharp vertices in a few calls
    for all of them (a map has hundreds of shores, rivers and bridge wings: a call or two each
    cost more than their points), the same numbers as :meth:`Canvas.line` makes line by line."""

    def __init__(self, factor: int) -> None:
        super().__init__(None, factor)
        self.kind: str | None = None
        self._entries: list = []   # (op, box, pad) per operation, None where a polyline waits
        self._kinds: list[str | None] = []
        self._waiting: list[tuple] = []   # (points, fill, width, round_ends) of those polylines

    @property
    def items(self) -> list[tuple[tuple, tuple, float]]:
        """Every operation recorded so far, in order: (op, box, pad)."""
        self._settle()
        return self._entries

    @property
    def kinds(self) -> list[str | None]:
        """The :attr:`kind` each of :attr:`items` was recorded under."""
        self._settle()
        return self._kinds

    def line(self, points: Sequence[Point], fill, width: float, *, round_ends: bool = True) -> None:
        if len(points) >= 2:
            self._waiting.append((points, fill, width, round_ends))
            self._entries.append(None)
            self._kinds.append(self.kind)

    def _bin(self, boxes, pad: float) -> None:
        op = self._ops.pop()
        for box in boxes:
            self._entries.append((op, tuple(box), pad))
            self._kinds.append(self.kind)

    def _settle(self) -> None:
        """Make the waiting polylines into operations, each in its place."""
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        entries, kinds = self._entries, self._kinds
        first = entries.index(None)
        self._entries, self._kinds = [], []   # each polyline's pieces land here, in turn
        ends = []
        widths = [max(1, round(width * self.factor)) for _, _, width, _ in waiting]
        for (_, fill, width, round_ends), w, (exact, snapped, sharp) in zip(
                waiting, widths, _prepared([p for p, *_ in waiting], widths, self.factor)):
            self._pieces(exact, snapped, fill, w, width, round_ends, sharp)
            ends.append(len(self._entries))
        pieces, out, out_kinds = self._entries, entries[:first], kinds[:first]
        k = start = 0
        for entry, kind in zip(entries[first:], kinds[first:]):
            if entry is None:
                out += pieces[start:ends[k]]
                out_kinds += [kind] * (ends[k] - start)
                start = ends[k]
                k += 1
            else:
                out.append(entry)
                out_kinds.append(kind)
        self._entries, self._kinds = out, out_kinds


def _prepared(lines: list, widths: list[int], factor: int) -> list[tuple[np.ndarray, np.ndarray, list[int]]]:
    """What :meth:`Canvas.line` makes of each polyline of ``lines`` (``widths``: in
    supersampled pixels): its simplified points, snapped, and its sharp vertices; the same
    arithmetic on all the lines' points at once."""
    arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p in lines]
    counts = [len(a) for a in arrays]
    long = [i for i, n in enumerate(counts) if n >= 3]
    if long:   # _simplify, every line in one call
        geoms = shapely.linestrings(np.concatenate([arrays[i] for i in long]),
                                    indices=np.repeat(np.arange(len(long)), [counts[i] for i in long]))
        kept, index = shapely.get_coordinates(shapely.simplify(geoms, _TOLERANCE / factor, preserve_topology=False),
                                              return_index=True)
        ends = np.cumsum(np.bincount(index, minlength=len(long))).tolist()
        for i, start, end in zip(long, [0] + ends, ends):
            arrays[i] = kept[start:end]
            counts[i] = end - start
    exact = np.concatenate(arrays)
    snapped = np.floor(exact * factor + 0.5).astype(np.int32)   # Canvas._snap
    starts = [0]
    for n in counts:
        starts.append(starts[-1] + n)
    # _sharp_vertices of every line at once: a vertex inside its line (the steps before and
    # after it both its line's) is sharp where the turn passes its width's limit
    sharp_at: list[list[int]] = [[] for _ in lines]
    if len(exact) >= 3 and any(w > 2 for w in widths):
        p = snapped.astype(float)
        steps = p[1:] - p[:-1]
        lengths = np.hypot(steps[:, 0], steps[:, 1])
        a, b, na, nb = steps[:-1], steps[1:], lengths[:-1], lengths[1:]
        ok = (na > 0) & (nb > 0)
        cos = np.where(ok, (a * b).sum(axis=1) / np.where(ok, na * nb, 1.0), 1.0)
        # each vertex's limit; none at the ends of a line, nor on a line too thin for joints
        limit = np.repeat(np.asarray([_notch_limit(w) if w > 2 else -2.0 for w in widths]), counts)
        first, n = np.asarray(starts[:-1]), np.asarray(counts)
        limit[first[n > 0]] = -2.0
        limit[(first + n - 1)[n > 0]] = -2.0
        at = (np.flatnonzero(cos < limit[1:-1]) + 1).tolist()
        line = 0
        for vertex in at:   # in order: each line's after the last's
            while vertex >= starts[line + 1]:
                line += 1
            sharp_at[line].append(vertex - starts[line])
    return [(exact[s:e], snapped[s:e], sharp) for s, e, sharp in zip(starts, starts[1:], sharp_at)]
