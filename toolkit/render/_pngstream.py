"""A PNG written strip by strip: rows are filtered and deflated as they come, so the whole
image never sits in memory (pillow can only save an image it holds whole)."""

from __future__ import annotations

import struct
import zlib
from typing import BinaryIO, Iterable

import numpy as np
from PIL import Image

__all__ = ["write_png"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Deflated bytes gathered before an IDAT chunk is written.
_CHUNK = 1 << 20
#: Rows filtered and deflated at a time.
_ROWS = 64


def _chunk(fh: BinaryIO, kind: bytes, data: bytes) -> None:
    fh.write(struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def write_png(fh: BinaryIO, size: tuple[int, int], strips: Iterable[Image.Image], *, dpi: int | None = None,
              level: int = 6) -> None:
    """Write an 8-bit RGB PNG of ``size`` to ``fh`` from ``strips`` (RGB images of the full
    width, top to bottom, heights adding up to the image height). Each row uses the "Up"
    filter (the difference to the row above), which turns flat map colours into zeros."""
    width, height = size
    fh.write(_SIGNATURE)
    _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    if dpi:
        ppm = round(dpi / 0.0254)
        _chunk(fh, b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    deflate = zlib.compressobj(level)
    pending: list[bytes] = []
    held = 0
    above = np.zeros(width * 3, dtype=np.uint8)
    rows_done = 0
    for strip in strips:
        if strip.mode != "RGB":
            strip = strip.convert("RGB")
        if strip.width != width:
            raise ValueError(f"strip is {strip.width} pixels wide, the image {width}")
        # a few rows at a time: the filtered copy of a whole strip of a wide map is large
        for r0 in range(0, strip.height, _ROWS):
            part = strip.crop((0, r0, width, min(strip.height, r0 + _ROWS))) if strip.height > _ROWS else strip
            rows = np.asarray(part, dtype=np.uint8).reshape(part.height, width * 3)
            out = np.empty((part.height, width * 3 + 1), dtype=np.uint8)
            out[:, 0] = 2                                   # filter type Up
            np.subtract(rows[0], above, out=out[0, 1:])     # wraps modulo 256, as PNG wants
            np.subtract(rows[1:], rows[:-1], out=out[1:, 1:])
            above = rows[-1].copy()
            rows_done += part.height
            data = deflate.compress(out.tobytes())
            del out, rows, part
            if data:
                pending.append(data)
                held += len(data)
            if held >= _CHUNK:
                _chunk(fh, b"IDAT", b"".join(pending))
                pending, held = [], 0
    if rows_done != height:
        raise ValueError(f"strips gave {rows_done} rows, the image has {height}")
    pending.append(deflate.flush())
    _chunk(fh, b"IDAT", b"".join(pending))
    _chunk(fh, b"IEND", b"")
