"""Counter files (CSV): ``load_counters`` / ``dump_counters``.

One row per counter design. Fixed columns are listed in :data:`COLUMNS`; every other column
is a printed value: ``attack`` is a front value, ``back.attack`` the same value on the back.
Lines starting with ``#`` are comments. Provenance per row: a ``rule`` or an ``estimated`` note.
"""

from __future__ import annotations

import csv
import io
import os
import re
from typing import Any

from ..errors import DataError
from ..game.counters import Counter
from ..game.provenance import Source
from ._atomic import write_text
from ._source import MAX_NUMBER, read_text

COLUMNS = ("id", "side", "name", "kind", "type", "size", "formation", "class", "steps", "count",
           "back_kind", "colour", "text_colour", "band", "marks", "note", "rule", "estimated",
           "image", "back_image")
REQUIRED = ("id", "name")
BACK_KINDS = ("none", "reduced", "untried", "fired", "cadre", "used", "blank", "marker")
KINDS = ("unit", "marker", "hq", "leader", "chit")
MAX_COUNTERS = 10_000       # counter designs in one file; the largest published games have a few thousand
MAX_CSV_BYTES = 8 * 1024 * 1024


def load_counters(path: str) -> dict[str, Counter]:
    """Read a counters CSV into ``{id: Counter}``, in file order (a :class:`Counters` that also
    knows each counter's line)."""
    path = os.fspath(path)
    text = read_text(path, MAX_CSV_BYTES)
    lines = [("" if ln.lstrip().startswith("#") else ln) for ln in text.splitlines()]
    reader = csv.reader(io.StringIO("\n".join(lines)), strict=True)
    header: list[str] | None = None
    counters = Counters()
    first_line = counters.lines
    for row in _rows(reader, path):
        if not row or all(not c.strip() for c in row):
            continue
        line = reader.line_num
        if header is None:
            header = [c.strip() for c in row]
            _check_header(header, path, line)
            continue
        if len(row) > len(header):
            raise DataError(f"{len(row)} cells but the header has {len(header)} columns", path=path, line=line)
        cells = {name: value.strip() for name, value in zip(header, row)}
        counter = _counter(cells, path, line)
        if counter.id in counters:
            raise DataError(f"duplicate counter id {counter.id!r} (first on line {first_line[counter.id]})",
                            path=path, line=line, field="id")
        counters[counter.id] = counter
        first_line[counter.id] = line
        if len(counters) > MAX_COUNTERS:
            raise DataError(f"more than {MAX_COUNTERS:,} counter rows (the limit of a counters file)",
                            path=path, line=line)
    if header is None:
        raise DataError("file is empty: expected a header row and one row per counter", path=path)
    return counters


class Counters(dict):
    """``{id: Counter}`` in file order, with ``lines[id]``, the line each counter was read from."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lines: dict[str, int] = {}


def _rows(reader: Any, path: str):
    """The reader's rows; a CSV syntax error becomes a :class:`DataError` with its line."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DataError(f"bad CSV: {exc}", path=path, line=reader.line_num) from None
        yield row


def _check_header(header: list[str], path: str, line: int) -> None:
    seen = set()
    for name in header:
        if not name:
            raise DataError("empty column name in header", path=path, line=line)
        if name in seen:
            raise DataError(f"column {name!r} appears twice in header", path=path, line=line)
        seen.add(name)
        if not (name in COLUMNS or name.replace("back.", "", 1).replace("_", "").isalnum()):
            raise DataError(f"bad column name {name!r}", path=path, line=line)
    for name in REQUIRED:
        if name not in header:
            raise DataError(f"header lacks the required column {name!r}", path=path, line=line)


_WHOLE = re.compile(r"-?[0-9]+")


def _value(text: str, path: str, line: int, column: str) -> Any:
    """A printed value: a whole number where the cell is one, else the text as printed."""
    if _WHOLE.fullmatch(text):
        if len(text) > 10 or abs(int(text)) > MAX_NUMBER:
            shown = text if len(text) <= 20 else text[:20] + "..."
            raise DataError(f"number {shown} is out of range (at most {MAX_NUMBER:,})", path=path, line=line,
                            field=column)
        return int(text)
    return text


def _counter(cells: dict[str, str], path: str, line: int) -> Counter:
    def get(name: str, default: str | None = None) -> str | None:
        value = cells.get(name, "")
        return value if value != "" else default

    def whole(name: str, default: int, minimum: int, maximum: int) -> int:
        text = get(name)
        if text is None:
            return default
        if not _WHOLE.fullmatch(text) or len(text) > 10 or not (minimum <= int(text) <= maximum):
            raise DataError(f"expected a whole number from {minimum} to {maximum}, found {text!r}",
                            path=path, line=line, field=name)
        return int(text)

    for name in REQUIRED:
        if not get(name):
            raise DataError("required value is empty", path=path, line=line, field=name)
    kind = get("kind", "unit")
    if kind not in KINDS:
        raise DataError(f"expected one of {', '.join(KINDS)}, found {kind!r}", path=path, line=line, field="kind")
    back_kind = get("back_kind", "none")
    if back_kind not in BACK_KINDS:
        raise DataError(f"expected one of {', '.join(BACK_KINDS)}, found {back_kind!r}", path=path, line=line,
                        field="back_kind")
    if get("rule") and get("estimated"):
        raise DataError("a row is either cited (rule) or estimated, not both", path=path, line=line,
                        field="estimated")
    front, back = {}, {}
    for name, text in cells.items():
        if name in COLUMNS or text == "":
            continue
        target, key = (back, name[5:]) if name.startswith("back.") else (front, name)
        target[key] = _value(text, path, line, name)
    return Counter(
        id=get("id"), side=get("side"), name=get("name"), kind=kind, type=get("type", "infantry"),
        size=get("size"), formation=get("formation"), unit_class=get("class"),
        front=front, back=back, back_kind=back_kind,
        steps=whole("steps", 1, 1, 20), count=whole("count", 1, 1, 1000),
        colour=get("colour"), text_colour=get("text_colour"), band=get("band"),
        marks=tuple(get("marks", "").split()), note=get("note"),
        source=Source(rule=get("rule"), estimated=get("estimated")),
        image=get("image"), back_image=get("back_image"),
    )


def dump_counters(counters: dict[str, Counter], path: str) -> None:
    """Write counters as CSV (atomically), value columns after the fixed ones."""
    fronts = list(dict.fromkeys(k for c in counters.values() for k in c.front))
    backs = list(dict.fromkeys(k for c in counters.values() for k in c.back))
    header = list(COLUMNS) + fronts + [f"back.{k}" for k in backs]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for c in counters.values():
        fixed = [c.id, c.side, c.name, c.kind, c.type, c.size, c.formation, c.unit_class, c.steps, c.count,
                 c.back_kind, c.colour, c.text_colour, c.band, " ".join(c.marks), c.note,
                 c.source.rule, c.source.estimated, c.image, c.back_image]
        values = [c.front.get(k) for k in fronts] + [c.back.get(k) for k in backs]
        writer.writerow(["" if v is None else v for v in fixed + values])
    write_text(path, out.getvalue())
