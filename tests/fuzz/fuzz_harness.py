"""The fuzz harness: corrupted copies of the bundled files fed to the loaders and the CLI.

Each case runs ``hexforge ARGS`` in this process inside its own *place* (a temporary folder
holding a copy of the tutorial game, an ``out/`` folder and, next to the place, a canary file
that nothing may read). The outcome is one of:

- ``ok`` (exit 0), ``findings`` (exit 1), ``error`` (exit 2 with a one-line message naming a
  file): acceptable;
- ``traceback`` (an exception escaped), ``hang`` (over the time limit), ``memory`` (the
  process grew by more than :data:`MAX_GROWTH`), ``outside`` (a file opened, written or
  removed outside the place, or the canary's text printed), ``half-written`` (a failed run
  left files in ``out/``), ``unclear`` (exit 2 whose message names no file): failures.

Files are watched with an audit hook (:func:`sys.addaudithook`), so an ``open`` of
``/etc/passwd`` counts even when nothing of it is printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import resource
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20.0                       # seconds per case (the "runs over 20 s")
MAX_GROWTH = 1024 * 1024             # KiB of peak resident memory a case may add
CANARY = "canary-7f3a9c-do-not-read"
BAD = ("traceback", "hang", "memory", "outside", "half-written", "unclear")


class _Timeout(BaseException):
    """Raised by the alarm inside a case that runs too long (BaseException: nothing catches it)."""


@dataclass
class Outcome:
    kind: str
    code: int | None
    seconds: float
    detail: str = ""


@dataclass
class Tally:
    """Inputs tried and outcomes by kind, with the first few failures kept for the report."""

    counts: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    slowest: float = 0.0

    def add(self, label: str, outcome: Outcome) -> None:
        self.counts[outcome.kind] = self.counts.get(outcome.kind, 0) + 1
        self.slowest = max(self.slowest, outcome.seconds)
        if outcome.kind in BAD:
            self.failures.append(f"{label}: {outcome.kind}: {outcome.detail[:600]}")

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return f"{self.total} inputs: {kinds}; slowest {self.slowest:.1f} s"


# -- watching files ---------------------------------------------------------------------------

_WATCH: dict = {}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _audit(event: str, args: tuple) -> None:
    if not _WATCH or event not in ("open", "os.mkdir", "os.rename", "os.replace", "os.remove", "os.rmdir",
                                   "shutil.rmtree", "os.symlink", "os.link", "os.truncate"):
        return
    target = args[0]
    if isinstance(target, int) or target is None:
        return
    try:
        path = os.path.abspath(os.fsdecode(target))
    except (TypeError, ValueError):
        return
    if event == "open":
        mode, flags = args[1], args[2] if len(args) > 2 else 0
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool(flags & _WRITE_FLAGS)
    else:
        writing = True
    place = _WATCH["place"]
    if path == place or path.startswith(place + os.sep):
        return
    real = os.path.realpath(path)
    if real.startswith(place + os.sep):
        return
    forbidden = (path.startswith(_WATCH["parent"] + os.sep) or path in ("/etc/passwd", "/etc/shadow")
                 or (path.startswith("/dev/") and path not in ("/dev/null", "/dev/urandom_ok")))
    if writing and not path.startswith(("/proc/", "/dev/null")):
        _WATCH["violations"].append(f"{event} for writing outside the place: {path}")
    elif forbidden:
        _WATCH["violations"].append(f"{event} outside the place: {path}")


sys.addaudithook(_audit)


# -- places -----------------------------------------------------------------------------------


class Place:
    """A scratch folder with a self-contained copy of the tutorial game (``game/``), ``out/``,
    and a canary file beside it that no case may read."""

    def __init__(self, base: Path) -> None:
        self.parent = base
        self.root = base / "place"
        self.game = self.root / "game"
        self.out = self.root / "out"
        self.out.mkdir(parents=True)
        shutil.copytree(ROOT / "counters" / "tutorial", self.game)
        shutil.copy(ROOT / "maps" / "tutorial" / "map.yaml", self.game / "map.yaml")
        text = (self.game / "game.yaml").read_text(encoding="utf-8")
        (self.game / "game.yaml").write_text(text.replace("../../maps/tutorial/map.yaml", "map.yaml"),
                                             encoding="utf-8")
        self.canary = base / "canary.csv"
        self.canary.write_text(f"id,side,name\n{CANARY},blue,{CANARY}\n", encoding="utf-8")
        self.pristine = {p.relative_to(self.game): p.read_bytes() for p in self.game.rglob("*") if p.is_file()}

    def reset(self) -> None:
        """Back to the pristine game and an empty ``out/`` (between cases)."""
        for path in list(self.root.iterdir()):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        self.out.mkdir(parents=True)
        for rel, data in self.pristine.items():
            target = self.game / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def run_cli(args: list[str], place: Place, *, timeout: float = TIMEOUT, writes_out: bool = False) -> Outcome:
    """``hexforge ARGS`` in-process with the place as working folder; the outcome by kind."""
    from toolkit.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cwd = os.getcwd()
    code, crash = None, None
    previous = signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    _WATCH.update(place=str(place.root), parent=str(place.parent), violations=[])
    try:
        os.chdir(place.root)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except _Timeout:
        crash = "hang"
    except MemoryError:
        crash = "memory"
    except Exception:
        crash = traceback.format_exc(limit=-4)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        violations = list(_WATCH.get("violations", []))
        _WATCH.clear()
        os.chdir(cwd)
    seconds = time.perf_counter() - start
    text = out.getvalue() + err.getvalue()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    if crash == "hang":
        return Outcome("hang", None, seconds, f"over {timeout} s")
    if crash is not None:
        kind = "memory" if crash == "memory" else "traceback"
        return Outcome(kind, None, seconds, crash)
    if violations or CANARY in text:
        return Outcome("outside", code, seconds, "; ".join(violations[:3]) or "canary printed")
    if grown > MAX_GROWTH:
        return Outcome("memory", code, seconds, f"peak memory grew by {grown // 1024} MiB")
    if code not in (0, 1) and not writes_out and any(place.out.iterdir()):
        return Outcome("half-written", code, seconds, ", ".join(p.name for p in place.out.iterdir()))
    if code in (0, 1):
        return Outcome("ok" if code == 0 else "findings", code, seconds)
    if code == 2 and _names_a_file(text):
        return Outcome("error", code, seconds, text.strip()[-600:])
    return Outcome("unclear", code, seconds, text[-400:])


def _alarm(signum, frame):
    raise _Timeout()


def _names_a_file(text: str) -> bool:
    """An error message that says where: a file name (``x.yaml``, a path) or a CLI usage error."""
    lowered = text.lower()
    return any(s in lowered for s in (".yaml", ".yml", ".csv", ".vmod", ".vsav", ".xml", "/", "usage:",
                                      "no game", "no such option", "no unit", "unknown"))


# -- mutations of text files ------------------------------------------------------------------

HUGE = "9" * 400
VALUES = ["-1", "0", "-99999999999", HUGE, "1e999", ".nan", "-.inf", "1e-320", "''", "null", "[]", "{}",
          "true", "\"ünïcødé ☃ \\u202e\"", "\"\\t\"", "\"a;b,c/d\\\\e\"", "../../x", "/etc/passwd",
          "/dev/urandom", "\"a\\0b\"", "'../canary.csv'", "0x41", "[[[[[[[[[[1]]]]]]]]]]", "!!python/object:os.system x",
          "\"\\x01\"", "P", "1/0", "-1/2", "3/0"]


def _alias_bomb() -> str:
    lines = ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 9):
        lines.append(f"bomb{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def mutate_text(text: str, rnd: random.Random) -> tuple[str, str]:
    """One seeded corruption of a YAML or CSV text: ``(new text, what was done)``."""
    lines = text.splitlines(keepends=True) or [""]
    i = rnd.randrange(len(lines))
    kind = rnd.choice(["delete-line", "value", "value", "value", "truncate", "duplicate-line", "junk",
                       "empty", "deep", "alias-bomb", "unicode", "swap-ids", "cells", "keys"])
    if kind == "delete-line":
        del lines[i]
        return "".join(lines), f"{kind} {i + 1}"
    if kind == "value":
        line = lines[i]
        value = rnd.choice(VALUES)
        if ":" in line and not line.lstrip().startswith("#"):
            head, _, _ = line.partition(":")
            lines[i] = f"{head}: {value}\n"
        elif "," in line:
            cells = line.rstrip("\n").split(",")
            cells[rnd.randrange(len(cells))] = value
            lines[i] = ",".join(cells) + "\n"
        else:
            lines[i] = value + "\n"
        return "".join(lines), f"{kind} {i + 1} = {value[:30]}"
    if kind == "truncate":
        cut = rnd.randrange(len(text) + 1)
        return text[:cut], f"{kind} at {cut}"
    if kind == "duplicate-line":
        lines.insert(i, lines[i])
        return "".join(lines), f"{kind} {i + 1}"
    if kind == "junk":
        junk = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 40))).decode("latin-1")
        return text[:len(text) // 2] + junk + text[len(text) // 2:], kind
    if kind == "empty":
        return rnd.choice(["", "\n", "# nothing\n", "---\n", "~\n"]), kind
    if kind == "deep":
        depth = rnd.choice([60, 500, 5000])
        return text + "\nnested: " + "[" * depth + "]" * depth + "\n", f"{kind} {depth}"
    if kind == "alias-bomb":
        return text + "\n" + _alias_bomb(), kind
    if kind == "unicode":
        line = lines[i]
        lines[i] = line.replace("a", "\u0430").replace("e", "\u00e9\u0301").replace(" ", "\u00a0", 1)
        return "".join(lines), f"{kind} {i + 1}"
    if kind == "swap-ids":
        for old in ("b-1", "r-10", "crossing", "main", "blue", "clear", "road"):
            if old in text:
                new = rnd.choice(["zz-missing", "b-1", "../x", "a;b", "a/b", "a\\b", "a\tb", ""])
                return text.replace(old, new), f"{kind} {old} -> {new!r}"
        return text, kind
    if kind == "cells":
        line = lines[i].rstrip("\n")
        lines[i] = line + "," * rnd.choice([1, 5, 500]) + "\n"
        return "".join(lines), f"{kind} {i + 1}"
    # "keys": many keys, to test the limits (kept small enough for the fast slice)
    n = rnd.choice([1000, 30000, 210000])
    return text + "\nnotes_big:\n" + "".join(f"  k{k}: {k}\n" for k in range(n)), f"keys {n}"


PATH_VALUES = ["/etc/passwd", "../canary.csv", "../../canary.csv", "/dev/urandom", "/dev/zero", "\"a\\0b.csv\"",
               "..", "/", "game.yaml", "scenarios", "''", "[/etc/passwd]", "{a: b}"]


def mutate_paths(text: str, rnd: random.Random, place: Place) -> tuple[str, str]:
    """game.yaml naming files outside the game (absolute, ``..``, devices, NUL), or ids that
    would become file names outside ``out/``."""
    choice = rnd.choice(["maps", "counters", "scenarios", "id"])
    if choice == "id":
        value = rnd.choice(["../../escape", "a;b", "a,b", "a/b", "a\\\\b", "\"a\\tb\"", "..", "\"\\0\"", "ok-id",
                            "x" * 200, str(place.canary)])
        return text.replace("id: tutorial", f"id: {value}"), f"id = {value}"
    value = rnd.choice(PATH_VALUES + [str(place.canary)])
    if choice == "maps":
        return text.replace("main: map.yaml", f"main: {value}"), f"maps.main = {value}"
    if choice == "counters":
        return text.replace("counters: counters.csv", f"counters: {value}"), f"counters = {value}"
    return text.replace("scenarios: [scenarios/crossing.yaml]", f"scenarios: [{value}]"), f"scenarios = {value}"


# -- the commands that read a game's files ----------------------------------------------------

def game_commands(place: Place) -> list[tuple[list[str], bool]]:
    """(args, writes into out/ when it succeeds) of every command that reads a game folder."""
    g = str(place.game)
    return [
        (["validate", g], False),
        (["validate", g, "--json"], False),
        (["validate", str(place.game / "map.yaml")], False),
        (["referee", "check", "-g", g, "--json"], False),
        (["referee", "moves", "b-1", "-g", g], False),
        (["referee", "path", "b-3", "0607", "0707", "-g", g, "--json"], False),
        (["referee", "supply", "-g", g], False),
        (["referee", "stacking", "-g", g], False),
        (["referee", "combat", "r-10", "0905", "-g", g, "--json"], False),
        (["referee", "retreat", "b-1", "-g", g], False),
        (["referee", "setup", "-g", g], False),
        (["build", g, "--out", str(place.out), "--only", "referee", "-q"], True),
        (["map", g, "--dpi", "20", "--out", str(place.out / "map.png")], True),
        (["counters", g, "--out", str(place.out / "counters")], True),
    ]


# -- modules and saves ------------------------------------------------------------------------

_B = "VASSAL.build."
_GRID = _B + "module.map.boardPicker.board.HexGrid"


def zip_entries(data: bytes) -> dict[str, bytes]:
    import zipfile
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


def _edit_buildfile(entries: dict[str, bytes], edit) -> None:
    from lxml import etree
    root = etree.fromstring(entries["buildFile.xml"])
    edit(root)
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _prototype_tree(root, depth: int, fan: int) -> None:
    """Prototypes P<d>_0 .. nesting ``depth`` deep, each using ``fan`` copies of the next one."""
    from lxml import etree

    from toolkit.vassal.encoding import Trait, add_piece
    from toolkit.vassal.pieces import prototype
    for d in range(depth):
        inner = [prototype(f"P{d + 1}") for _ in range(fan)] if d + 1 < depth else [Trait("mark;X", "1")]
        element = etree.SubElement(root, _B + "module.PrototypeDefinition", name=f"P{d}")
        element.text = add_piece(None, [*inner, Trait("piece;;;;", "")])
    slot = etree.SubElement(root, _B + "widget.PieceSlot", entryName="nested", gpid="99999")
    slot.text = add_piece(None, [prototype("P0"), Trait("piece;;;a.png;A", "")])


def save_commands(commands: list[str]) -> bytes:
    from toolkit.vassal.encoding import ESC, encode
    from toolkit.vassal.savegame import obfuscate
    return zip_bytes({"savedGame": obfuscate(encode(commands, ESC)), "savedata": b"<data version='1'/>"})


_PIECES: dict[int, str] = {}


def _many_traits(n_pieces: int, n_traits: int) -> bytes:
    """A save of ``n_pieces`` pieces of ``n_traits`` traits each (one piece encoded, then copied)."""
    from toolkit.vassal.encoding import Trait, add_piece
    if n_traits not in _PIECES:
        _PIECES[n_traits] = add_piece("PID", [Trait("mark;A", "1")] * n_traits + [Trait("piece;;;a.png;A", "null;0;0;p")])
    pieces = [_PIECES[n_traits].replace("PID", f"p{i}", 1) for i in range(n_pieces)]
    return save_commands(["begin_save", *pieces, "end_save"])


ARCHIVE_KINDS = ["flip", "flip", "truncate", "drop-entry", "traversal", "entity-bomb", "external-entity",
                 "proto-deep", "proto-wide", "grid-attr", "grid-attr", "xml-cut", "empty-piece", "save-junk",
                 "many-traits", "junk-file"]


def mutate_archive(data: bytes, rnd: random.Random, kind: str | None = None) -> tuple[bytes, str]:
    """One seeded corruption of a .vmod or .vsav: ``(bytes, what was done)``."""
    kind = kind or rnd.choice(ARCHIVE_KINDS)
    if kind == "flip":
        raw = bytearray(data)
        for _ in range(rnd.choice([1, 4, 64])):
            i = rnd.randrange(len(raw))
            raw[i] ^= 1 << rnd.randrange(8)
        return bytes(raw), kind
    if kind == "truncate":
        cut = rnd.randrange(len(data))
        return data[:cut], f"{kind} at {cut}"
    if kind == "junk-file":
        return bytes(rnd.randrange(256) for _ in range(rnd.choice([0, 10, 5000]))), kind
    entries = zip_entries(data)
    module = "buildFile.xml" in entries
    if kind == "drop-entry":
        name = rnd.choice(sorted(entries))
        del entries[name]
        return zip_bytes(entries), f"{kind} {name}"
    if kind == "traversal":
        name = rnd.choice(["../evil.txt", "/etc/evil", "a/../../evil", "C:\\evil", "images/../../evil"])
        entries[name] = b"evil"
        return zip_bytes(entries), f"{kind} {name}"
    if kind == "many-traits":
        return _many_traits(12, rnd.choice([300, 700, 1000])), kind
    if kind == "empty-piece":
        piece = rnd.choice(["+/p1//", "+/p1/\t/", "+/p1", "+//", "+/p1/stack/", "+/p1/piece;\t\t\t/",
                            "+/s1/stack/main;1;2;nope", "+/p1/emb2;" + ";" * 20 + "/x"])
        return save_commands(["begin_save", piece, "end_save"]), f"{kind} {piece!r}"
    if kind == "save-junk":
        body = rnd.choice([b"!VCSKzz", b"!VCSK41" + b"0" * 7, b"\xff\xfe" * 10, b"", b"!VCSK" + b"41" * 3])
        return zip_bytes({"savedGame": body}), f"{kind} {body[:12]!r}"
    if not module:
        return mutate_archive(data, rnd, "flip")
    if kind in ("entity-bomb", "external-entity"):
        head = (b'<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">'
                b'<!ENTITY c "&b;&b;&b;&b;&b;&b;">]>' if kind == "entity-bomb" else
                b'<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
        entries["buildFile.xml"] = head + b"<m>&c;&x;</m>".replace(b"&x;" if kind == "entity-bomb" else b"&c;", b"")
        return zip_bytes(entries), kind
    if kind in ("proto-deep", "proto-wide"):
        depth, fan = (25, 2) if kind == "proto-deep" else (5, 30)
        _edit_buildfile(entries, lambda root: _prototype_tree(root, depth, fan))
        return zip_bytes(entries), f"{kind} {depth}x{fan}"
    if kind == "grid-attr":
        attr = rnd.choice(["dx", "dy", "x0", "y0"])
        value = rnd.choice(["nan", "inf", "-inf", "1e-320", "1e400", "-5", "0", "", "x", "9" * 400])

        def edit(root):
            for grid in root.iter(_GRID):
                grid.set(attr, value)
        _edit_buildfile(entries, edit)
        return zip_bytes(entries), f"{kind} {attr}={value[:12]}"
    # xml-cut
    xml = entries["buildFile.xml"]
    entries["buildFile.xml"] = xml[:rnd.randrange(len(xml))]
    return zip_bytes(entries), kind
