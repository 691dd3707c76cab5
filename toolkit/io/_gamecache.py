"""Loaded games kept for the rest of the process, so that a game is parsed once.

``load_game`` keys a game by its resolved ``game.yaml`` and the data root, and remembers the
files the load read (each with its size, modification time and inode). From the second load
on, while its files all still match, it hands out a fresh copy of the game (unpickled from the
bytes kept here: a tenth to a half of parsing; hexes, being immutable, are written as column
and row and shared within the copy), so a caller may change what it gets without touching the
cache or any other caller's game; any file changed, moved or gone loads the game again. A file
modified within :data:`RACY_NS` of the load is compared by content too, since a file system
stamps times coarsely and a quick rewrite can keep the old time (git's "racily clean" files).
"""

from __future__ import annotations

import gc
import hashlib
import io
import os
import pickle
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

from ..hexes import Hex
from ._source import recording_reads

#: Games kept (least recently used dropped first); a pickled game is 25-800 KB.
MAX_GAMES = 16
#: A file modified less than this before its load finished is checked by content (2 s).
RACY_NS = 2_000_000_000


@dataclass(frozen=True)
class _File:
    path: str
    mtime_ns: int
    size: int
    inode: int
    digest: bytes


@dataclass(frozen=True)
class _Entry:
    files: tuple[_File, ...]
    loaded_ns: int
    blob: bytes | None      # None until the game is loaded a second time


_GAMES: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def _digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


def _fresh(entry: _Entry) -> bool:
    for f in entry.files:
        try:
            info = os.stat(f.path)
        except OSError:
            return False
        if (info.st_mtime_ns, info.st_size, info.st_ino) != (f.mtime_ns, f.size, f.inode):
            return False
        if info.st_mtime_ns >= entry.loaded_ns - RACY_NS:
            try:
                with open(f.path, "rb") as fh:
                    if _digest(fh.read(f.size + 1)) != f.digest:
                        return False
            except OSError:
                return False
    return True


class _Pickler(pickle.Pickler):
    """Writes each hex as its column and row: a game holds tens of thousands of equal hexes
    (every side, line, placement and area names its own), which a copy then shares."""

    def persistent_id(self, obj):
        return (obj[0], obj[1]) if type(obj) is Hex else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, blob: bytes) -> None:
        super().__init__(io.BytesIO(blob))
        self._hexes: dict = {}

    def persistent_load(self, pid):
        # (a hex is immutable: one object for each hex of the copy)
        hex = self._hexes.get(pid)
        if hex is None:
            hex = self._hexes[pid] = Hex(*pid)
        return hex


def _dumps(game) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(game)
    return out.getvalue()


def _loads(blob: bytes):
    """A copy of the pickled game, the garbage collector paused meanwhile: a copy is tens of
    thousands of new objects and no garbage, and a collection every few hundred of them (as
    allocations set them off) would go through every object the process holds, each time."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _Unpickler(blob).load()
    finally:
        if paused:
            gc.enable()


def cached_game(key: tuple, load: Callable):
    """The game ``load()`` returns, from the cache when every file it read is unchanged. Each
    caller gets its own copy; errors are not cached. The first load keeps only what it read:
    the game is pickled (a fifth to a half of a parse) at its second load, so a process that
    loads a game once (a CLI command) pays nothing for the cache."""
    with _LOCK:
        entry = _GAMES.get(key)
        if entry is not None:
            _GAMES.move_to_end(key)
    fresh = entry is not None and _fresh(entry)
    if fresh and entry.blob is not None:
        return _loads(entry.blob)
    with recording_reads() as reads:
        game = load()
    files = tuple(_File(path, info.st_mtime_ns, info.st_size, info.st_ino, _digest(raw))
                  for path, info, raw in reads)
    blob = _dumps(game) if fresh else None
    with _LOCK:
        _GAMES[key] = _Entry(files, time.time_ns(), blob)
        _GAMES.move_to_end(key)
        while len(_GAMES) > MAX_GAMES:
            _GAMES.popitem(last=False)
    return game


def clear_game_cache() -> None:
    """Forget every loaded game (the next ``load_game`` of each reads its files again)."""
    with _LOCK:
        _GAMES.clear()
