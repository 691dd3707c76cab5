"""Reading YAML and CSV with line numbers, and typed field access that names file, line and field.

The YAML reader keeps the line of every mapping key and list item, refuses duplicate keys,
anchors and aliases (no entity-expansion tricks), binary junk and oversized files.

Every data file is read through :func:`read_bytes`, the one guarded reader: only regular
files (no devices, pipes or directories), at most :data:`MAX_FILE_BYTES`, names without NUL.
:func:`inside` keeps a file named by another file (game.yaml naming its maps) inside the
folders it may come from. YAML is limited in size, depth and number of keys and items, checked
on the parser's events before anything is built, so a crafted file fails fast.
"""

from __future__ import annotations

import math
import os
import re
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import Any, Iterable, Iterator

import yaml

from ..errors import DataError, HexError
from ..game.ids import id_problem
from ..game.provenance import UNSOURCED, Source
from ..game.terrain import ANY, CostTable
from ..hexes import Grid, Hex

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_YAML_BYTES = 8 * 1024 * 1024
MAX_YAML_NODES = 100_000        # keys, values and list items of one YAML file
MAX_NUMBER = 10**9
MAX_DEPTH = 50
MAX_COST = 1000
_WHOLE = re.compile(r"[-+]?[0-9]+")


class YDict(dict):
    """A mapping from a YAML file that remembers its own line and each key's line."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class YList(list):
    """A list from a YAML file that remembers its own line and each item's line."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


@contextmanager
def _os_errors(path) -> Iterator[None]:
    """The OS's errors on reading ``path`` as :class:`DataError` errors that name it."""
    try:
        yield
    except DataError:   # a ValueError too: already says what and where
        raise
    except FileNotFoundError:
        raise DataError("file not found", path=path) from None
    except IsADirectoryError:
        raise DataError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", path=path) from None
    except ValueError as exc:   # a name the OS cannot take (embedded NUL, too long...)
        raise DataError(f"cannot read: {exc}", path=repr(str(path))) from None


#: While :func:`recording_reads` runs: the files :func:`read_bytes` read, as (path, stat, bytes).
_READS: ContextVar[list | None] = ContextVar("hexforge_reads", default=None)


@contextmanager
def recording_reads() -> Iterator[list]:
    """Collect ``(path, os.stat_result, bytes)`` of every data file read within (the game
    cache keys a loaded game by the files it was read from)."""
    reads: list = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """The bytes of a data file: a regular file of at most ``limit`` bytes, else a
    :class:`DataError` that says why (checked before reading; nothing of the file is quoted)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    if "\x00" in str(path):
        raise DataError("a file name cannot contain a NUL character", path=repr(str(path)))
    with _os_errors(path):
        _regular(os.stat(path), path, limit)   # before open: a pipe would block, a device never end
        with open(path, "rb") as fh:
            info = os.fstat(fh.fileno())
            _regular(info, path, limit)   # the file opened is the file checked
            raw = fh.read(limit + 1)
    if len(raw) > limit:
        raise DataError(f"file grew past {limit:,} bytes while being read", path=path)
    reads = _READS.get()
    if reads is not None:
        reads.append((str(path), info, raw))
    return raw


def regular_file(path: str, limit: int | None = None) -> str:
    """``path`` if it names a regular file of at most ``limit`` bytes (for readers that stream,
    such as zip archives), else the :class:`DataError` :func:`read_bytes` would raise."""
    limit = MAX_FILE_BYTES if limit is None else limit
    if "\x00" in str(path):
        raise DataError("a file name cannot contain a NUL character", path=repr(str(path)))
    with _os_errors(path):
        _regular(os.stat(path), path, limit)
    return path


def _regular(info: os.stat_result, path: str, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError
    if not stat.S_ISREG(info.st_mode):
        raise DataError("not a regular file (a device, pipe or socket); data files are plain files", path=path)
    if info.st_size > limit:
        raise DataError(f"file is {info.st_size:,} bytes; data files are limited to {limit:,}", path=path)


def read_text(path: str, limit: int | None = None) -> str:
    """The text of a data file, or a :class:`DataError` that says why it can't be read."""
    raw = read_bytes(path, limit)
    if b"\x00" in raw:
        raise DataError("binary data (NUL byte) in a text file", path=path, line=raw[: raw.index(b"\x00")].count(b"\n") + 1)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", path=path, line=line) from None


def inside(base: str | os.PathLike, name: Any, roots: Iterable[str | os.PathLike], *, path: str,
           line: int | None = None, field: str | None = None) -> str:
    """``name`` (a file named in the data file ``path``) joined to ``base``, refused unless it
    resolves inside one of ``roots`` (links followed): no absolute paths elsewhere, no ``..``
    out of the game's folder. Returns the joined path without ``..`` so messages stay plain."""
    if not isinstance(name, str) or not name.strip():
        raise DataError(f"expected a file name, found {_kind(name)}", path=path, line=line, field=field)
    if "\x00" in name or len(name) > 1024:
        raise DataError("not a usable file name (NUL character or over 1024 characters)", path=path, line=line,
                        field=field)
    joined = os.path.normpath(os.path.join(os.fspath(base), name))
    real = os.path.realpath(joined)
    for root in roots:
        top = os.path.realpath(os.fspath(root))
        if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
            return joined
    raise DataError(f"{_short(name)} is outside the game's folder; data files must be inside it "
                    f"(or under the bundled maps/ and counters/)", path=path, line=line, field=field)


def load_yaml(path: str) -> Any:
    """Parse a YAML data file into :class:`YDict`/:class:`YList`/scalars."""
    text = read_text(path, min(MAX_FILE_BYTES, MAX_YAML_BYTES))
    if not text.strip():
        raise DataError("file is empty", path=path)
    try:
        _check_events(text, path)
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise DataError(f"invalid YAML: unacceptable character #x{code:04x} (control characters are not allowed)",
                        path=path, line=line) from None
    except RecursionError:
        raise DataError(f"YAML nested too deeply (more than {MAX_DEPTH} levels)", path=path) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise DataError(f"invalid YAML: {exc.problem or exc.context}", path=path, line=line) from None
    except yaml.YAMLError as exc:
        raise DataError(f"invalid YAML: {exc}", path=path) from None
    if node is None:
        raise DataError("file holds no data", path=path)
    return _build(node, path, set(), 0)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _check_events(text: str, path: str) -> None:
    """Refuse aliases, nesting deeper than :data:`MAX_DEPTH` and more than
    :data:`MAX_YAML_NODES` nodes from the parser's event stream, before building anything."""
    depth = nodes = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise DataError("YAML anchors and aliases are not allowed in data files", path=path,
                            line=event.start_mark.line + 1)
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise DataError(f"YAML nested too deeply (more than {MAX_DEPTH} levels)", path=path,
                                line=event.start_mark.line + 1)
        elif isinstance(event, _CLOSE):
            depth -= 1
            continue
        elif not isinstance(event, yaml.ScalarEvent):
            continue
        nodes += 1
        if nodes > MAX_YAML_NODES:
            raise DataError(f"YAML file has more than {MAX_YAML_NODES:,} keys, values and items (the limit of a "
                            f"data file)", path=path, line=event.start_mark.line + 1)


def _build(node: yaml.Node, path: str, seen: set, depth: int) -> Any:
    line = node.start_mark.line + 1
    if id(node) in seen:
        raise DataError("YAML anchors and aliases are not allowed in data files", path=path, line=line)
    if depth > MAX_DEPTH:
        raise DataError(f"YAML nested too deeply (more than {MAX_DEPTH} levels)", path=path, line=line)
    seen.add(id(node))
    depth += 1
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
        raise DataError(f"unsupported YAML tag {node.tag}", path=path, line=line)
    if isinstance(node, yaml.MappingNode):
        out = YDict()
        out.line = line
        out.key_lines = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise DataError("YAML merge keys (<<) are not allowed in data files", path=path,
                                line=key_node.start_mark.line + 1)
            key = _build(key_node, path, seen, depth)
            if isinstance(key, (dict, list)):
                raise DataError("a mapping key must be plain text", path=path, line=key_node.start_mark.line + 1)
            key = str(key)
            if key in out:
                raise DataError(f"duplicate key {key!r} (first on line {out.key_lines[key]})", path=path,
                                line=key_node.start_mark.line + 1)
            out.key_lines[key] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path, seen, depth)
        return out
    if isinstance(node, yaml.SequenceNode):
        out_list = YList()
        out_list.line = line
        out_list.item_lines = []
        for item in node.value:
            out_list.item_lines.append(item.start_mark.line + 1)
            out_list.append(_build(item, path, seen, depth))
        return out_list
    return _scalar(node, path)


_RESOLVER = yaml.SafeLoader("")
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _scalar(node: yaml.ScalarNode, path: str) -> Any:
    tag = node.tag
    text = node.value
    line = node.start_mark.line + 1
    if tag == "tag:yaml.org,2002:str":
        return text
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return text.lower() in ("true", "yes", "on")
    if tag == "tag:yaml.org,2002:int":
        try:
            value = _RESOLVER.construct_yaml_int(node)
        except Exception:
            raise DataError(f"bad integer {text!r}", path=path, line=line) from None
        if text.startswith("0") and len(text) > 1 and text.isdigit():
            return text  # "0717" is an id, not octal or a number
        return value
    if tag == "tag:yaml.org,2002:float":
        try:
            return float(_RESOLVER.construct_yaml_float(node))
        except Exception:
            raise DataError(f"bad number {text!r}", path=path, line=line) from None
    if tag in ("tag:yaml.org,2002:timestamp",):
        return text
    raise DataError(f"unsupported YAML tag {tag}", path=path, line=line)


class Fields:
    """Typed access to one mapping of a data file, with errors that name file, line and field.

    ``where`` is the dotted path of the mapping in the file (``terrain_types.woods``).
    Call :meth:`done` after reading to reject keys that were never asked for.
    """

    def __init__(self, data: Any, path: str, where: str, line: int | None = None) -> None:
        self.path = path
        self.where = where
        if not isinstance(data, dict):
            raise DataError(f"expected a mapping (key: value), found {_kind(data)}", path=path,
                            line=getattr(data, "line", line), field=where or None)
        self.data = data
        self.line = getattr(data, "line", line)
        self._read: set[str] = set()

    def field_name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def line_of(self, key: str) -> int | None:
        if isinstance(self.data, YDict):
            return self.data.line_of(key)
        return self.line

    def error(self, key: str, problem: str) -> DataError:
        return DataError(problem, path=self.path, line=self.line_of(key), field=self.field_name(key))

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def raw(self, key: str, default: Any = None) -> Any:
        self._read.add(key)
        value = self.data.get(key, default)
        return default if value is None else value

    def require(self, key: str) -> Any:
        self._read.add(key)
        if key not in self.data or self.data[key] is None:
            raise DataError("required field is missing", path=self.path, line=self.line, field=self.field_name(key))
        return self.data[key]

    def str(self, key: str, default: str | None = None, *, required: bool = False,
            choices: Iterable[str] | None = None) -> str | None:
        value = self.require(key) if required else self.raw(key, default)
        if value is None:
            return None
        if isinstance(value, (dict, list)) or isinstance(value, bool):
            raise self.error(key, f"expected text, found {_kind(value)}")
        value = str(value)
        if choices is not None and value not in choices:
            raise self.error(key, f"expected one of {', '.join(sorted(choices))}; found {value!r}")
        return value

    def id(self, key: str, *, required: bool = True) -> str | None:
        """An id that may become a file name: text matching :data:`~toolkit.game.ID_PATTERN`."""
        value = self.str(key, required=required)
        problem = None if value is None else id_problem(value)
        if problem:
            raise self.error(key, problem)
        return value

    def int(self, key: str, default: int | None = None, *, required: bool = False,
            minimum: int = -MAX_NUMBER, maximum: int = MAX_NUMBER) -> int | None:
        value = self.require(key) if required else self.raw(key, default)
        if value is None:
            return None
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()) and len(value) < 20:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"expected a whole number, found {_kind(value)} {value!r}")
        if value < minimum:
            raise self.error(key, f"expected at least {minimum:,}, found {_short(value)}")
        if value > maximum:
            raise self.error(key, f"expected at most {maximum:,}, found {_short(value)}")
        return value

    def float(self, key: str, default: float | None = None, *, minimum: float = 0.0,
              maximum: float = 1e6) -> float | None:
        value = self.raw(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(key, f"expected a number, found {_kind(value)} {_short(value)}")
        if not (minimum <= value <= maximum):
            raise self.error(key, f"expected a number from {minimum} to {maximum}, found {_short(value)}")
        return float(value)

    def bool(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"expected true or false, found {value!r}")
        return value

    def list(self, key: str, *, required: bool = False) -> list:
        value = self.require(key) if required else self.raw(key, [])
        if not isinstance(value, list):
            raise self.error(key, f"expected a list, found {_kind(value)}")
        return value

    def mapping(self, key: str, *, required: bool = False) -> dict:
        value = self.require(key) if required else self.raw(key, {})
        if not isinstance(value, dict):
            raise self.error(key, f"expected a mapping, found {_kind(value)}")
        return value

    def sub(self, key: str, *, required: bool = False) -> "Fields":
        value = self.require(key) if required else self.raw(key, YDict())
        return Fields(value, self.path, self.field_name(key), self.line_of(key))

    def words(self, key: str) -> list[str]:
        """A list of text items, written as a YAML list or as one space-separated string."""
        value = self.raw(key, [])
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return str(value).split()
        if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
            return [str(v) for v in value]
        raise self.error(key, f"expected a list of names, found {_kind(value)}")

    def source(self) -> Source:
        """The provenance of this mapping: ``rule:`` or ``estimated:`` (not both)."""
        rule = self.str("rule")
        estimated = self.raw("estimated")
        if estimated is True:
            estimated = "estimated"
        elif estimated is not None and not isinstance(estimated, str):
            raise self.error("estimated", "expected a note saying how the value was estimated")
        if rule and estimated:
            raise self.error("estimated", "a datum is either cited (rule) or estimated, not both")
        return Source(rule=rule, estimated=estimated) if (rule or estimated) else UNSOURCED

    def done(self, extra_ok: Iterable[str] = ()) -> None:
        """Reject keys nobody read: a typo in a data file must not pass silently."""
        allowed = self._read | set(extra_ok)
        for key in self.data:
            if key not in allowed:
                expected = ", ".join(sorted(self._read)) or "no keys"
                raise self.error(key, f"unknown key; expected one of: {expected}")


def _short(value: Any, limit: int = 40) -> str:
    """``repr`` of a value, cut short so a huge number or string cannot flood a message."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return "a number"
    return "text"


# -- values shared by several formats -------------------------------------------------------


def parse_cost(value: Any) -> Fraction | None:
    """A movement cost: 2, 1.5, "1/2", "+1" (the plus is decoration) or "P" for prohibited."""
    if isinstance(value, bool) or value is None:
        raise ValueError("expected a cost such as 1, 1/2 or P")
    if isinstance(value, (dict, list)):
        raise ValueError(f"expected a cost such as 1, 1/2, +1 or P; found {_kind(value)}")
    if isinstance(value, int):
        number = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"expected a finite cost, found {value}")
        number = Fraction(value).limit_denominator(12)
    else:
        text = str(value).strip()
        if text.upper() in ("P", "PROHIBITED", "X"):
            return None
        try:
            if len(text) > 20:
                raise ValueError(text)
            number = Fraction(text.lstrip("+"))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"expected a cost such as 1, 1/2, +1 or P; found {_short(text)}") from None
    if number < 0 or number > MAX_COST:
        shown = str(number) if len(str(number)) <= 20 else f"{str(number)[:20]}..."
        raise ValueError(f"cost {shown} is outside 0..{MAX_COST}")
    return number


def format_cost(cost: Fraction | None) -> Any:
    """A cost as written in files: ``2``, ``"1/2"`` or ``"P"`` (ints and floats are accepted too)."""
    if cost is None:
        return "P"
    cost = Fraction(cost).limit_denominator(12) if isinstance(cost, float) else Fraction(cost)
    if cost.denominator == 1:
        return int(cost)
    return f"{cost.numerator}/{cost.denominator}"


def parse_cost_table(fields: Fields, key: str, classes: Iterable[str], weathers: Iterable[str]) -> CostTable:
    """``{"*": 1, "mech": 2, "mech/mud": "P", "*/snow": 2}`` as a :class:`CostTable`."""
    raw = fields.mapping(key)
    costs = {}
    classes, weathers = set(classes) | {ANY}, set(weathers) | {ANY}
    for name, value in raw.items():
        unit_class, _, weather = str(name).partition("/")
        weather = weather or ANY
        if unit_class not in classes:
            raise DataError(f"unknown unit class {unit_class!r} in cost key {name!r}; expected one of "
                            f"{', '.join(sorted(classes))}", path=fields.path,
                            line=_line(raw, name, fields), field=f"{fields.field_name(key)}.{name}")
        if weather not in weathers:
            raise DataError(f"unknown weather {weather!r} in cost key {name!r}; expected one of "
                            f"{', '.join(sorted(weathers))}", path=fields.path,
                            line=_line(raw, name, fields), field=f"{fields.field_name(key)}.{name}")
        try:
            costs[(unit_class, weather)] = parse_cost(value)
        except ValueError as exc:
            raise DataError(str(exc), path=fields.path, line=_line(raw, name, fields),
                            field=f"{fields.field_name(key)}.{name}") from None
    return CostTable(costs)


def dump_cost_table(table: CostTable) -> dict:
    out = {}
    for (unit_class, weather), cost in table.costs.items():
        key = unit_class if weather == ANY else f"{unit_class}/{weather}"
        out[key] = format_cost(cost)
    return out


def _line(raw: Any, key: str, fields: Fields) -> int | None:
    return raw.line_of(key) if isinstance(raw, YDict) else fields.line


def parse_hex_list(text: Any, grid: Grid, fields: Fields, key: str) -> list[Hex]:
    """Hex ids and ranges: ``"0717 0816 1606-1615"``; a range ``CCRR-CCRR`` is the rectangle
    of columns and rows between its corners, clipped to the grid."""
    if isinstance(text, list):
        tokens = [str(t) for t in text]
    elif isinstance(text, (str, int)) and not isinstance(text, bool):
        tokens = str(text).replace(",", " ").split()
    else:
        raise fields.error(key, f"expected hex ids such as '{grid.format(Hex(grid.first_col, grid.first_row))}', "
                                f"found {_kind(text)}")
    out: list[Hex] = []
    for token in tokens:
        try:
            if "-" in token and not grid.numbering.separator == "-":
                first, last = (grid.parse(t) for t in token.split("-", 1))
                cols = range(min(first.col, last.col), max(first.col, last.col) + 1)
                rows = range(min(first.row, last.row), max(first.row, last.row) + 1)
                if len(cols) * len(rows) > 1_000_000:
                    raise HexError(f"range {token} is too large")
                out.extend(Hex(c, r) for c in cols for r in rows if Hex(c, r) in grid)
            else:
                out.append(grid.parse(token))
        except HexError as exc:
            raise fields.error(key, str(exc)) from None
    return out


def parse_hex(value: Any, grid: Grid, fields: Fields, key: str) -> Hex:
    try:
        return grid.parse(value)
    except HexError as exc:
        raise fields.error(key, str(exc)) from None


def source_dict(source: Source) -> dict:
    """The ``rule:``/``estimated:`` keys of a datum, for dumpers."""
    out = {}
    if source.rule is not None:
        out["rule"] = source.rule
    if source.estimated is not None:
        out["estimated"] = source.estimated
    return out


def dump_yaml(data: Any) -> str:
    """YAML text in the project's style: keys in the order given, unicode kept, and short
    mappings and lists of plain values on one line (``columns: [1, 12]``) so diffs stay small."""
    return yaml.dump(_plain(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


class _Style:
    """Flow style for a mapping or list of scalars that fits on a line, block style otherwise."""

    def represent_mapping(self, tag, mapping, flow_style=None):
        return super().represent_mapping(tag, mapping, flow_style=_fits(list(mapping.keys()) + list(mapping.values())))

    def represent_sequence(self, tag, sequence, flow_style=None):
        return super().represent_sequence(tag, sequence, flow_style=_fits(sequence))

    def represent_str(self, data):
        # hex ids such as 0608 must stay text for every YAML reader, not only for ours
        if data[:1].isdigit() and data.replace("-", "").replace(".", "").isdigit():
            return self.represent_scalar("tag:yaml.org,2002:str", data, style="'")
        return super().represent_str(data)


class _Dumper(_Style, getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """The project's style on libyaml's emitter when PyYAML has it (same text, about 4x faster:
    writing YAML was half of an import's time), else on the pure-Python one."""


_Dumper.add_representer(str, _Dumper.represent_str)


def _fits(items: list) -> bool:
    scalar = all(isinstance(v, (str, int, float, bool)) or v is None for v in items)
    return scalar and sum(len(str(v)) + 4 for v in items) <= 72 and not any("\n" in str(v) for v in items)


def _plain(value: Any) -> Any:
    """``value`` with YDict/YList (free data read from a file, e.g. options) as plain dicts/lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
