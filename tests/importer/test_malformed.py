"""Malformed modules: a clear error naming the file, the entry and what was expected, nothing
written; or, where the rest of the module is sound, the broken part reported and left out."""

from __future__ import annotations

import struct
import zipfile
import zlib

import pytest
from handmade import basic, board, hexgrid, module, png, slot, vmap

from toolkit.errors import DataError
from toolkit.importer import import_vmod
from toolkit.io import load_game
from toolkit.vassal import inspect


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` and whose pixels are a few bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))


def _module(tmp_path, board_image: bytes, unit_image: bytes | None = None):
    maps = vmap("Main", board("Field", "map.png", hexgrid(60.0, 70.0, 40, 35)))
    return module(tmp_path / "m.vmod", maps, slot("Unit", 1, basic("unit.png", "Unit")),
                  images={"map.png": board_image, "unit.png": unit_image or png(50, 50)})


@pytest.mark.parametrize("board_image, error", ids=["not-an-image", "truncated", "svg"], argvalues=[
    (b"this is not a picture", r"image 'map.png' is not an image \(PNG, GIF, JPEG, BMP, WebP or SVG expected\)"),
    (png(400, 300)[:200], r"image 'map.png' is corrupt"),
    (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"/>',
     r"image 'map.png' is an SVG drawing .*save it as PNG"),
])
def test_a_board_picture_hexforge_cannot_read_refuses_the_board(tmp_path, board_image, error):
    path = _module(tmp_path, board_image)
    with pytest.raises(DataError, match=r"m\.vmod: the module has no board with a hex grid .*" + error):
        import_vmod(path, tmp_path / "game")
    assert not (tmp_path / "game").exists() and list(tmp_path.iterdir()) == [path]   # no temporary folder left
    if board_image.startswith(b"this"):
        assert inspect(path)["problems"] == [
            "board 'Field': image 'map.png' is not an image (PNG, GIF, JPEG, BMP, WebP or SVG expected)"]


def test_a_board_picture_claiming_billions_of_pixels_is_refused(tmp_path):
    path = _module(tmp_path, _png_header(100_000, 100_000))
    for read in (inspect, lambda p: import_vmod(p, tmp_path / "game")):
        with pytest.raises(DataError, match=r"m\.vmod: board 'Field': image 'map.png' gives 100000x100000 pixels; "
                                            r"expected at most 100000 a side and 500,000,000 in all"):
            read(path)
    assert not (tmp_path / "game").exists()


@pytest.mark.parametrize("unit_image, said", ids=["not-an-image", "huge", "truncated"], argvalues=[
    (b"GIF8 but nothing else", "is not an image (PNG, GIF, JPEG, BMP or WebP expected)"),
    (_png_header(60_000, 60_000), "is 60000x60000 pixels (at most 8192 a side expected)"),
    (png(50, 50)[:60], "is corrupt (OSError: Truncated File Read)"),
])
def test_counter_art_hexforge_cannot_paste_is_reported_and_the_counter_drawn(tmp_path, unit_image, said):
    path = _module(tmp_path, png(400, 300), unit_image)
    result = import_vmod(path, tmp_path / "game")
    assert f"image 'unit.png' {said}: the counter is drawn instead" in "\n".join(result.report)
    game = load_game(str(tmp_path / "game"))
    assert game.counters["unit"].image is None and not (tmp_path / "game" / "art").exists()


def test_a_truncated_module_is_not_a_zip(tmp_path):
    path = _module(tmp_path, png(400, 300))
    data = path.read_bytes()
    for cut in (len(data) // 2, len(data) - 10):
        path.write_bytes(data[:cut])
        with pytest.raises(DataError, match=r"m\.vmod: not a zip archive \(a \.vmod or \.vsav is a zip\)"):
            import_vmod(path, tmp_path / "game")
        assert not (tmp_path / "game").exists()


def test_a_piece_with_a_broken_trait_is_reported_not_imported(tmp_path):
    maps = vmap("Main", board("Field", "map.png", hexgrid(60.0, 70.0, 40, 35)))
    broken = slot("Broken", 2, "+/null/emb2;;;;;;;;;;;;;;;;;;;;\\\\\\\\/")   # a Layer with no BasicPiece inside
    path = module(tmp_path / "m.vmod", maps, slot("Unit", 1, basic("", "Unit")) + broken,
                  images={"map.png": png(400, 300)})
    assert any("piece slot 'Broken'" in p for p in inspect(path)["problems"])
    result = import_vmod(path, tmp_path / "game")
    assert "piece slot 'Broken' not imported: no BasicPiece" in result.report
    assert set(load_game(str(tmp_path / "game")).counters) == {"unit"}


def test_a_corrupt_entry_names_the_entry(tmp_path):
    path = _module(tmp_path, png(400, 300))
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("buildFile.xml")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start:start + 40] = b"\xff" * 40    # the compressed bytes of the buildFile
    path.write_bytes(bytes(data))
    with pytest.raises(DataError, match=r"m\.vmod: zip entry 'buildFile.xml' is corrupt"):
        import_vmod(path, tmp_path / "game")
    assert not (tmp_path / "game").exists()
