"""A module's pictures read from the archive without decoding them: the format from the first
bytes, the size from the header, VASSAL's own images, and the limits on a board's size."""

from __future__ import annotations

import io
import struct

from .safety import SafeZip

__all__ = ["BUILT_IN_IMAGES", "MAX_BOARD_PIXELS", "MAX_BOARD_SIDE", "image_kind", "image_size"]

#: Images VASSAL ships in its own jar (vassal-app/src/main/resources/images of 3.7.26): a
#: module may name them without holding them (a Mark When Moved trait's default moved.gif).
BUILT_IN_IMAGES = frozenset(
    "Edit16.gif Help16.gif Save16.gif SaveAs16.gif Splash.gif Splash.png StepForward16.gif Undo16.gif "
    "VASSAL-256x256.png black.jpg camera.gif chart.gif chess_clock.png connect.gif counter.gif die.gif "
    "disconnect.gif getMessages.gif globe_selected.gif globe_unselected.gif inventory.gif keyCommand.gif "
    "lockedRoom.gif map.gif moved.gif notes.gif overview.gif playerAway.gif playerLooking.gif postMessage.gif "
    "recenter.gif status.gif thread.gif unmoved.gif zoom.png zoomIn.gif zoomIn.png zoomOut.gif zoomOut.png".split())

#: Bytes of an image read to learn its size: a PNG's or GIF's header is in its first 24 and
#: 10 bytes; a JPEG's frame header follows its EXIF block (rarely more than 64 KB).
_HEADER_BYTES = 64 * 1024


#: The first bytes of the image formats VASSAL reads (ImageIO's and its SVG renderer's).
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "png"), (b"GIF8", "gif"), (b"\xff\xd8\xff", "jpeg"), (b"BM", "bmp"),
          (b"RIFF", "webp"))
#: A board image larger than this is refused: no printed map is, and a forged header could make
#: every later step (grid conversion, drafting, building) work on billions of pixels.
MAX_BOARD_PIXELS = 500_000_000
MAX_BOARD_SIDE = 100_000


def image_kind(archive: SafeZip, name: str) -> str | None:
    """The format of an image of the archive from its first bytes ("png", "gif", "jpeg", "bmp",
    "webp" or "svg"); None if it is none of them (only its first bytes are decompressed)."""
    head = archive.head(name, 256)
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith((b"<svg", b"<?xml", b"<!--")) and (b"<svg" in head.lower() or name.lower().endswith(".svg")):
        return "svg"
    return None


def image_size(archive: SafeZip, name: str) -> tuple[int, int] | None:
    """Width and height of an image of the archive from its header (the pixels are not read);
    None if it is not an image PIL knows."""
    head = archive.head(name, _HEADER_BYTES)
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    from PIL import Image
    for data in (head, None):
        if data is None:
            if archive.size(name) <= len(head):
                return None
            data = archive.read(name)  # a header beyond the first 64 KB (a JPEG with a big EXIF)
        try:
            with Image.open(io.BytesIO(data)) as image:   # PIL reads the header only
                return image.size
        except Exception:  # an unreadable or truncated header: reported, not fatal
            continue
    return None
