"""Reading untrusted archives and XML: modules and saves come from other people.

Guards: zip entry names that escape the archive (absolute, ``..``, drive letters), zip bombs
(too many entries, too many bytes, absurd compression ratios, sizes that lie), XML with a
DOCTYPE (entity expansion, external entities) and malformed XML. Every refusal is an
:class:`~toolkit.errors.UnsafeInputError` or :class:`~toolkit.errors.DataError` naming the
file and the entry.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from lxml import etree

from ..errors import DataError, UnsafeInputError
from ..io._source import regular_file

__all__ = ["SafeZip", "parse_xml", "MAX_ENTRIES", "MAX_ENTRY_BYTES", "MAX_TOTAL_BYTES", "MAX_RATIO"]

MAX_ENTRIES = 20_000
MAX_ENTRY_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 1024 * 1024 * 1024
MAX_RATIO = 200          # uncompressed / compressed, for entries bigger than 1 MB
MAX_NESTED_BYTES = 64 * 1024 * 1024
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024   # a module file on disk

_DRIVE = re.compile(r"^[A-Za-z]:")


def _check_name(name: str, where: str) -> None:
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or _DRIVE.match(name) or ".." in parts or "\x00" in name:
        raise UnsafeInputError(f"zip entry {name!r} points outside the archive (path traversal)", path=where)


class SafeZip:
    """A zip archive opened for reading with limits; ``read`` never returns more than it checked."""

    def __init__(self, source: str | Path | bytes, *, where: str | None = None,
                 max_total: int = MAX_TOTAL_BYTES) -> None:
        self.where = where or (str(source) if not isinstance(source, bytes) else "archive")
        if not isinstance(source, bytes):
            # a regular file within the limit (no device, pipe or NUL name), then streamed
            source = regular_file(str(source), MAX_ARCHIVE_BYTES)
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source)
        except Exception as exc:   # zipfile raises many kinds on a corrupt central directory
            raise DataError(f"not a zip archive (a .vmod or .vsav is a zip): {_why(exc)}", path=self.where) from None
        infos = self._zip.infolist()
        if len(infos) > MAX_ENTRIES:
            raise UnsafeInputError(f"archive has {len(infos)} entries (limit {MAX_ENTRIES}): refusing a zip bomb",
                                   path=self.where)
        total = 0
        self._infos: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            _check_name(info.filename, self.where)
            if info.flag_bits & 0x1:
                raise DataError(f"zip entry {info.filename!r} is encrypted", path=self.where)
            if info.file_size > MAX_ENTRY_BYTES:
                raise UnsafeInputError(f"zip entry {info.filename!r} expands to {info.file_size} bytes "
                                       f"(limit {MAX_ENTRY_BYTES}): refusing a zip bomb", path=self.where)
            if info.file_size > 1024 * 1024 and info.file_size > MAX_RATIO * max(1, info.compress_size):
                raise UnsafeInputError(f"zip entry {info.filename!r} compresses {info.file_size // max(1, info.compress_size)}"
                                       f":1 (limit {MAX_RATIO}:1): refusing a zip bomb", path=self.where)
            total += info.file_size
            self._infos[info.filename] = info
        if total > max_total:
            raise UnsafeInputError(f"archive expands to {total} bytes (limit {max_total}): refusing a zip bomb",
                                   path=self.where)

    def names(self) -> list[str]:
        return list(self._infos)

    def __contains__(self, name: str) -> bool:
        return name in self._infos

    def size(self, name: str) -> int:
        return self._infos[name].file_size

    def read(self, name: str, limit: int = MAX_ENTRY_BYTES) -> bytes:
        """The entry's bytes, reading at most what its header declared (headers can lie)."""
        info = self._infos.get(name)
        if info is None:
            raise DataError(f"the archive has no entry {name!r}", path=self.where)
        cap = min(limit, info.file_size)
        try:
            with self._zip.open(info) as handle:
                data = handle.read(cap + 1)
        except Exception as exc:   # BadZipFile, zlib.error, EOFError, NotImplementedError...: all corruption
            raise DataError(f"zip entry {name!r} is corrupt: {_why(exc)}", path=self.where) from None
        if len(data) > cap:
            raise UnsafeInputError(f"zip entry {name!r} holds more bytes than it declares or than the limit "
                                   f"({cap}): refusing it", path=self.where)
        return data

    def head(self, name: str, size: int) -> bytes:
        """The entry's first ``size`` bytes, decompressing no more (an image's header, not its pixels)."""
        info = self._infos.get(name)
        if info is None:
            raise DataError(f"the archive has no entry {name!r}", path=self.where)
        try:
            with self._zip.open(info) as handle:
                return handle.read(min(size, info.file_size))
        except Exception as exc:   # as in read: every kind of corruption
            raise DataError(f"zip entry {name!r} is corrupt: {_why(exc)}", path=self.where) from None

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> "SafeZip":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _why(exc: Exception) -> str:
    text = str(exc)[:120]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def parse_xml(data: bytes, where: str):
    """Parse untrusted XML: no DOCTYPE (so no entity expansion), no network, clear errors."""
    head = data[:4096].lower()
    if b"<!doctype" in data.lower() or b"<!entity" in head:
        raise UnsafeInputError("XML declares a DOCTYPE or entities; VASSAL files never do (refusing "
                               "entity expansion)", path=where)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise DataError(f"malformed XML: {exc}", path=where) from None
    if root is None:
        raise DataError("empty XML document", path=where)
    return root
