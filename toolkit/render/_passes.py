"""A canvas's operations in passes of a few colours, each drawn in codes in a one-byte crop.

Each colour of a pass draws a code of :data:`CODES`, so a reduced pixel says how many of its
subpixels are of each colour, and a table (see :func:`_table`) makes that its premultiplied
colour and cover, for pillow to lay over the tile.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Sequence

from PIL import Image

from ._drawop import ink

__all__ = ["CODES", "passes"]


#: The codes a pass's colours draw in, per factor: every choice of a pixel's subpixels among
#: them (and the ground) sums, and so reduces, to a value of its own (see :func:`_decoder`).
#: At 1x nothing is summed: any 255 codes.
CODES = {1: tuple(range(1, 256)), 2: (13, 30, 101, 123), 3: (9, 90)}


def passes(ops: Sequence[tuple], factor: int) -> tuple[list[tuple], list[list[int]]]:
    """The layers of ``ops`` (an operation's fill and its outline) in passes, each drawn in
    one crop of codes: per operation its layers as ``(pass, part, code)`` (part: "fill",
    "outline" or None for the whole operation), and per pass the table that makes a reduced
    code a premultiplied colour and cover.

    Each colour of a pass draws a code of :data:`CODES`, so the box filter's sum of a pixel's
    subpixels says how many are of each colour, and a later layer overwrites an earlier one
    as it would in colour: a pass draws exactly what its layers would draw in colour at the
    supersampled size, reduced. A pass holds 4 colours at 2x, 2 at 3x, 1 at more, 255 at 1x;
    passes follow the operations' order, so they are the same in every window (where the
    edges of two passes fall in one pixel, the later blends over the earlier's blend, in every
    window alike)."""
    codes = CODES.get(factor, (factor * factor,))
    room = len(codes)
    drawn = [_layers(op) for op in ops]
    # runs of layers of one colour, in order: (colour, [(operation, layer)])
    runs: list[tuple[int, list]] = []
    for i, mine in enumerate(drawn):
        for k, (_, c) in enumerate(mine):
            if runs and runs[-1][0] == c:
                runs[-1][1].append((i, k))
            else:
                runs.append((c, [(i, k)]))
    # each run's pass: a pass takes runs while their colours fit; a run that does not fit
    # starts the next pass with the run before it if that one brought its colour (an outline
    # and its fill, a road and its casing, a deck and its river stay in one pass)
    number = [0] * len(runs)
    colours: list[list[int]] = [[]]
    first: dict[int, int] = {}   # the pass's colours: the run that brought each
    for r, (c, _) in enumerate(runs):
        if c not in first and len(first) == room:
            prev = runs[r - 1][0]
            if first.get(prev) == r - 1 and len(first) > 1 and room > 1:
                colours[-1].remove(prev)
                colours.append([prev])
                first = {prev: r - 1}
                number[r - 1] = len(colours) - 1
            else:
                colours.append([])
                first = {}
        if c not in first:
            first[c] = r
            colours[-1].append(c)
        number[r] = len(colours) - 1
    layers: list[list] = [[None] * len(mine) for mine in drawn]
    for (c, members), n in zip(runs, number):
        code = codes[colours[n].index(c)]
        for i, k in members:
            layers[i][k] = (n, drawn[i][k][0], code)
    return [tuple(mine) for mine in layers], [_table(c, factor) for c in colours]


@lru_cache(maxsize=8)
def _decoder(factor: int) -> dict[int, tuple[int, ...]]:
    """Per reduced value of a pass's crop, how many of the pixel's subpixels are of each code
    of :data:`CODES`: found by reducing every choice with pillow itself (its rounding)."""
    codes = CODES.get(factor, (factor * factor,))
    f2 = factor * factor
    if factor == 1:
        return {0: (0,) * len(codes)} | {code: tuple(int(j == i) for j in range(len(codes))) for i, code in enumerate(codes)}
    choices = [c for c in itertools.product(range(f2 + 1), repeat=len(codes)) if sum(c) <= f2]
    block = Image.new("L", (factor * len(choices), factor), 0)
    for n, counts in enumerate(choices):
        values = [code for code, k in zip(codes, counts) for _ in range(k)]
        for k, value in enumerate(values):
            block.putpixel((n * factor + k % factor, k // factor), value)
    reduced = list(block.reduce(factor).tobytes())
    if len(set(reduced)) != len(reduced):
        raise AssertionError(f"codes {codes} do not reduce apart at {factor}x")
    return dict(zip(reduced, choices))


@lru_cache(maxsize=1024)
def _table_cached(colours: tuple, factor: int) -> tuple:
    f2 = factor * factor
    rgb = [(c & 255, (c >> 8) & 255, (c >> 16) & 255) for c in colours]
    out = [[0] * 256 for _ in range(4)]
    for v, counts in _decoder(factor).items():
        mix = [(k, c) for k, c in zip(counts, rgb) if k]
        cover = sum(k for k, _ in mix)
        for ch in range(3):
            out[ch][v] = (2 * sum(k * c[ch] for k, c in mix) + f2) // (2 * f2)
        out[3][v] = (2 * 255 * cover + f2) // (2 * f2)
    return tuple(out[0] + out[1] + out[2] + out[3])


def _table(colours: list[int], factor: int) -> list[int]:
    """The table that makes a pass's reduced codes premultiplied RGBa (see :func:`passes`)."""
    return list(_table_cached(tuple(colours), factor))


def _layers(op: tuple) -> list[tuple[str | None, int]]:
    """What ``op`` draws, in order: ``(part, packed colour)``, part "fill", "outline" or None
    (the whole operation, of one colour)."""
    kind = op[0]
    if kind in ("line", "segments"):
        return [(None, op[2])]
    if kind == "ellipse":
        fill, outline, w = op[2], op[3], op[4]
        fill_ink = ink(fill) if fill is not None else None
        out = [("fill", fill_ink)] if fill_ink is not None else []
        if outline is not None and ink(outline) != fill_ink and w != 0:   # as ImageDraw.ellipse
            out.append(("outline", ink(outline)))
        return out
    fill, outline = op[2], op[3]
    if kind == "shape":
        fill, outline = (None if fill is None else ink(fill)), (None if outline is None else ink(outline))
    return [(part, c) for part, c in (("fill", fill), ("outline", outline)) if c is not None]
