"""Map files (YAML): ``load_map`` / ``dump_map``.

The format is documented with an annotated example in docs/data-format.md. Terrain is a list
of blocks applied in order, so later blocks override earlier ones:

* ``rows:`` one line of codes per printed row (or ``columns:`` per column), ``-`` for no data;
* ``hexes:`` ids and ranges that all get the same terrain;
* ``hex:`` a single hex, the form for exceptions and cited hexes.

Every block carries its provenance (``rule:`` or ``estimated:``).
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import DataError, HexError
from ..game.map import (BoardImage, Box, HexsideFeature, HexTerrain, Line, Map, MapEdge, Place, SupplySource,
                        VictoryHex)
from ..game.provenance import Source
from ..game.terrain import HexsideType, LineType, TerrainType
from ..hexes import Grid, Hex, Hexside, Numbering
from ._atomic import write_text
from ._source import (Fields, YDict, dump_cost_table, dump_yaml, load_yaml, parse_cost_table,
                      parse_hex, parse_hex_list, source_dict)

EDGES = ("north", "south", "east", "west")


def load_map(path: str) -> Map:
    """Read a map file; :class:`DataError` names the file, line and field of any problem."""
    path = os.fspath(path)
    f = Fields(load_yaml(path), path, "", 1)
    grid = _load_grid(f.sub("grid", required=True))
    m = Map(id=f.id("id"), name=f.str("name", required=True), grid=grid)
    m.weathers = _names(f, "weathers") or ("clear",)
    m.unit_classes = _names(f, "unit_classes") or ("foot",)
    m.hex_size_inches = f.float("hex_size", 0.625, minimum=0.1, maximum=5.0)
    m.scale = f.str("scale")
    m.north = f.str("north", "up", choices=("up", "down", "left", "right"))
    m.hex_ids = f.str("hex_ids", "top", choices=("top", "centre", "bottom", "none"))
    if f.has("image"):
        m.image = _load_image(f.sub("image"))
    f.raw("notes")

    for code, sub in _named(f, "terrain_types"):
        if not code or code == "-" or any(c in "+/" or c.isspace() for c in code):
            raise DataError(f"terrain code {code!r} must be one word without '+' or '/', and not '-'",
                            path=sub.path, line=sub.line, field=sub.where)
        m.locations[("terrain_types", code)] = (sub.path, sub.line)
        move_ma = _ma_shares(sub)
        m.terrain_types[code] = TerrainType(
            code=code, name=sub.str("name", required=True),
            move=parse_cost_table(sub, "move", m.unit_classes, m.weathers),
            combat=dict(sub.mapping("combat")), overlay=sub.bool("overlay"),
            blocks_los=sub.bool("blocks_los"), colour=sub.str("colour"), source=sub.source(), move_ma=move_ma)
        sub.done(["notes"])
    for code, sub in _named(f, "hexside_types"):
        m.locations[("hexside_types", code)] = (sub.path, sub.line)
        m.hexside_types[code] = HexsideType(
            code=code, name=sub.str("name", required=True),
            move=parse_cost_table(sub, "move", m.unit_classes, m.weathers),
            combat=dict(sub.mapping("combat")), blocks_supply=sub.bool("blocks_supply"),
            bridge=sub.bool("bridge"), width=sub.str("width", "minor", choices=("minor", "major", "line")),
            source=sub.source())
        sub.done(["notes"])
    for code, sub in _named(f, "line_types"):
        m.locations[("line_types", code)] = (sub.path, sub.line)
        m.line_types[code] = LineType(
            code=code, name=sub.str("name", required=True),
            move=parse_cost_table(sub, "move", m.unit_classes, m.weathers),
            bridges=sub.bool("bridges", True), rail=sub.bool("rail"), source=sub.source())
        sub.done(["notes"])

    for sub in _items(f, "terrain"):
        _load_terrain_block(sub, m)
    for sub in _items(f, "hexsides"):
        _load_hexside_block(sub, m)
    for sub in _items(f, "lines"):
        hexes = parse_hex_list(sub.require("hexes"), grid, sub, "hexes")
        m.lines.append(Line(code=sub.str("type", required=True), hexes=tuple(hexes),
                            name=sub.str("name"), source=sub.source()))
        m.locations[("line", len(m.lines) - 1)] = (sub.path, sub.line)
        sub.done(["notes"])
    for sub in _items(f, "places"):
        m.places.append(Place(name=sub.str("name", required=True),
                              hex=parse_hex(sub.require("hex"), grid, sub, "hex"),
                              kind=sub.str("kind", "town"), source=sub.source()))
        m.locations[("places", len(m.places) - 1)] = (sub.path, sub.line)
        sub.done(["notes"])
    for sub in _items(f, "victory"):
        m.victory.append(VictoryHex(hex=parse_hex(sub.require("hex"), grid, sub, "hex"),
                                    points=sub.int("points", minimum=0), side=sub.str("side"),
                                    source=sub.source()))
        m.locations[("victory", len(m.victory) - 1)] = (sub.path, sub.line)
        sub.done(["notes", "name"])
    for sub in _items(f, "supply"):
        edge = sub.str("edge", choices=EDGES)
        hexes = parse_hex_list(sub.raw("hexes", []), grid, sub, "hexes")
        if not edge and not hexes:
            raise sub.error("hexes", "a supply source needs hexes or an edge")
        m.supply.append(SupplySource(side=sub.str("side", required=True), hexes=tuple(hexes), edge=edge,
                                     kind=sub.str("kind", "edge" if edge else "hex"),
                                     turns=(sub.int("from_turn"), sub.int("until_turn")),
                                     note=sub.str("note"), source=sub.source()))
        m.locations[("supply", len(m.supply) - 1)] = (sub.path, sub.line)
        sub.done(["notes"])
    for sub in _items(f, "edges"):
        m.edges.append(MapEdge(edge=sub.str("edge", required=True, choices=EDGES), side=sub.str("side"),
                               hexes=tuple(parse_hex_list(sub.raw("hexes", []), grid, sub, "hexes")),
                               note=sub.str("note"), source=sub.source()))
        m.locations[("edges", len(m.edges) - 1)] = (sub.path, sub.line)
        sub.done(["notes"])
    for sub in _items(f, "boxes"):
        m.boxes.append(Box(id=sub.str("id", required=True), name=sub.str("name", required=True),
                           side=sub.str("side"),
                           entry=tuple(parse_hex_list(sub.raw("entry", []), grid, sub, "entry")),
                           note=sub.str("note"), source=sub.source()))
        m.locations[("boxes", len(m.boxes) - 1)] = (sub.path, sub.line)
        sub.done(["notes"])
    for features in m.hexsides.values():
        features.sort(key=lambda feature: feature.code)  # one order, whatever order the file used
    m.locations["file"] = (path, 1)
    f.done()
    return m


def _names(f: Fields, key: str) -> tuple[str, ...]:
    """Weather or unit class names: they become cost keys (``mech/mud``), so no '/' or '*'."""
    names = f.words(key)
    for name in names:
        if "/" in name or "*" in name:
            raise f.error(key, f"name {name!r} must not contain '/' or '*' (they write cost keys)")
    if len(set(names)) != len(names):
        raise f.error(key, "a name is listed twice")
    return tuple(names)


def _named(f: Fields, key: str):
    table = f.mapping(key)
    for code in table:
        yield str(code), Fields(table[code], f.path, f"{key}.{code}",
                                table.line_of(code) if isinstance(table, YDict) else f.line)


def _items(f: Fields, key: str):
    items = f.list(key)
    for i, item in enumerate(items):
        line = items.line_of(i) if hasattr(items, "line_of") else f.line
        yield Fields(item, f.path, f"{key}[{i}]", line)


MAX_MAP_HEXES = 250_000


def _load_grid(g: Fields) -> Grid:
    n = g.sub("numbering")
    try:
        numbering = Numbering(order=n.str("order", "colrow", choices=("colrow", "rowcol")),
                              col_digits=n.int("col_digits", 2, minimum=1, maximum=4),
                              row_digits=n.int("row_digits", 2, minimum=1, maximum=4),
                              pad=n.bool("pad", True), col_alpha=n.bool("col_alpha"),
                              separator=n.str("separator", ""))
        n.done()
        cols, rows = _pair(g, "columns"), _pair(g, "rows")
        size = (abs(cols[1] - cols[0]) + 1) * (abs(rows[1] - rows[0]) + 1)
        if size > MAX_MAP_HEXES:
            raise g.error("columns", f"the grid has {size:,} hexes; a map file is limited to {MAX_MAP_HEXES:,} "
                                     f"(the largest published maps have about 60,000)")
        grid = Grid(first_col=cols[0], last_col=cols[1], first_row=rows[0], last_row=rows[1],
                    orientation=g.str("orientation", "flat", choices=("flat", "pointy")),
                    shifted=g.str("shifted", "even", choices=("even", "odd")),
                    short_shifted=g.bool("short_shifted"),
                    col_direction=g.str("col_direction", "ascending", choices=("ascending", "descending")),
                    row_direction=g.str("row_direction", "ascending", choices=("ascending", "descending")),
                    numbering=numbering)
    except HexError as exc:
        raise DataError(str(exc), path=g.path, line=g.line, field="grid") from None
    g.done(["rule", "estimated", "notes"])
    return grid


def _load_image(g: Fields) -> BoardImage:
    file = g.str("file", required=True)
    if file.startswith(("/", "\\")) or ".." in file.replace("\\", "/").split("/"):
        raise g.error("file", f"image {file!r} must be a path inside the map's folder")
    origin = g.require("origin")
    if (not isinstance(origin, list) or len(origin) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 1e6 for v in origin)):
        raise g.error("origin", "expected [x, y]: the pixel centre of the first hex")
    image = BoardImage(file=file, origin=(float(origin[0]), float(origin[1])),
                       size=_positive(g, "size"), spacing=_positive(g, "spacing"))
    g.done(["notes"])
    return image


def _positive(g: Fields, key: str) -> float:
    g.require(key)
    return g.float(key, minimum=2.0, maximum=10000.0)


def _pair(g: Fields, key: str) -> tuple[int, int]:
    value = g.require(key)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise g.error(key, "expected [first, last] as two whole numbers")
    if not all(0 <= v <= 9999 for v in value):
        raise g.error(key, "column and row numbers must be between 0 and 9999")
    return value[0], value[1]


def _load_terrain_block(sub: Fields, m: Map) -> None:
    source = sub.source()
    grid = m.grid
    legend = {str(k): str(v) for k, v in sub.mapping("legend").items()}

    def cell(token: str) -> HexTerrain:
        parts = [legend.get(p, p) for p in token.split("+")]
        return HexTerrain(terrain=parts[0], features=tuple(parts[1:]), source=source)

    if sub.has("rows") or sub.has("columns"):
        by_rows = sub.has("rows")
        key = "rows" if by_rows else "columns"
        table = sub.mapping(key)
        start = sub.int("start", grid.first_col if by_rows else grid.first_row)
        for label, text in table.items():
            try:
                number = int(str(label))
            except ValueError:
                raise sub.error(key, f"row/column key {label!r} is not a number") from None
            if not isinstance(text, str):
                raise DataError("expected a line of terrain codes separated by spaces",
                                path=sub.path, line=_line(table, label, sub), field=f"{sub.field_name(key)}.{label}")
            for offset, token in enumerate(text.split()):
                if token == "-":
                    continue
                hex = Hex(start + offset, number) if by_rows else Hex(number, start + offset)
                m.hexes[hex] = cell(token)
                _remember_line(m, hex, sub.path, _line(table, label, sub))
    elif sub.has("hexes") or sub.has("hex"):
        key = "hexes" if sub.has("hexes") else "hex"
        hexes = parse_hex_list(sub.raw(key), grid, sub, key)
        features = tuple(sub.words("features"))
        terrain = sub.str("terrain")
        for hex in hexes:
            if terrain is None:  # features only: keep the base terrain
                base = m.hexes.get(hex)
                if base is None:
                    raise sub.error("terrain", f"hex {grid.format(hex)} has no terrain yet to add features to")
                m.hexes[hex] = HexTerrain(base.terrain, tuple(dict.fromkeys(base.features + features)), source)
            else:
                m.hexes[hex] = HexTerrain(legend.get(terrain, terrain), features, source)
            _remember_line(m, hex, sub.path, sub.line)
    else:
        raise DataError("a terrain block needs rows, columns, hexes or hex", path=sub.path, line=sub.line,
                        field=sub.where)
    sub.done(["notes", "name"])


#: TEC cells that are a share of the printed movement allowance (Grossdeutschland 9.0).
MA_SHARES = ("H", "ALL")


def _ma_shares(sub: Fields) -> dict:
    """Take the ``H``/``ALL`` cells out of a terrain's ``move`` (they cost 0 in the table;
    the ruleset adds the share of the unit's allowance) and return them by cost key."""
    raw = sub.data.get("move")
    if not isinstance(raw, dict):
        return {}
    shares = {}
    for key, value in raw.items():
        if isinstance(value, str) and value.strip().upper() in MA_SHARES:
            shares[str(key)] = value.strip().upper()
            raw[key] = 0
    return shares


def _line(table: Any, key: Any, sub: Fields) -> int | None:
    return table.line_of(key) if isinstance(table, YDict) else sub.line


def _remember_line(m: Map, hex: Hex, path: str, line: int | None) -> None:
    m.locations[("hex", hex)] = (path, line)


def _load_hexside_block(sub: Fields, m: Map) -> None:
    grid = m.grid
    code = sub.str("feature", required=True)
    source = sub.source()
    name = sub.str("name")
    tokens = sub.words("sides")
    if not tokens:
        raise sub.error("sides", "expected hexsides such as '0717/0816' or '0717:NE'")
    for token in tokens:
        try:
            side = grid.parse_hexside(token, check_adjacent=False)
        except HexError as exc:
            raise sub.error("sides", str(exc)) from None
        if code in m.hexside_codes(side):
            first = m.locations.get(("hexside", side, code), (None, None))[1]
            raise sub.error("sides", f"hexside {grid.format_hexside(side)} is given {code!r} twice"
                                     f" (first on line {first})")
        m.hexsides.setdefault(side, []).append(HexsideFeature(side=side, code=code, source=source, name=name))
        m.locations[("hexside", side, code)] = (sub.path, sub.line)
    sub.done(["notes"])


# -- dumping --------------------------------------------------------------------------------


def map_to_dict(m: Map) -> dict:
    """The map as plain data in the file format (the inverse of :func:`load_map`)."""
    grid = m.grid
    fmt = grid.format
    n = grid.numbering
    out: dict[str, Any] = {
        "id": m.id,
        "name": m.name,
        "grid": {
            "orientation": grid.orientation, "shifted": grid.shifted,
            "columns": [grid.first_col, grid.last_col], "rows": [grid.first_row, grid.last_row],
            "short_shifted": grid.short_shifted, "col_direction": grid.col_direction,
            "row_direction": grid.row_direction,
            "numbering": {"order": n.order, "col_digits": n.col_digits, "row_digits": n.row_digits,
                          "pad": n.pad, "col_alpha": n.col_alpha, "separator": n.separator},
        },
        "hex_size": m.hex_size_inches,
        "scale": m.scale,
        "north": m.north,
        "hex_ids": m.hex_ids,
        "image": ({"file": m.image.file, "origin": list(m.image.origin), "size": m.image.size,
                   "spacing": m.image.spacing} if m.image else None),
        "weathers": list(m.weathers),
        "unit_classes": list(m.unit_classes),
        "terrain_types": {t.code: {"name": t.name, "move": {**dump_cost_table(t.move), **t.move_ma}, "combat": t.combat,
                                   "overlay": t.overlay, "blocks_los": t.blocks_los, "colour": t.colour,
                                   **source_dict(t.source)} for t in m.terrain_types.values()},
        "hexside_types": {t.code: {"name": t.name, "move": dump_cost_table(t.move), "combat": t.combat,
                                   "blocks_supply": t.blocks_supply, "bridge": t.bridge, "width": t.width,
                                   **source_dict(t.source)} for t in m.hexside_types.values()},
        "line_types": {t.code: {"name": t.name, "move": dump_cost_table(t.move), "bridges": t.bridges,
                                "rail": t.rail, **source_dict(t.source)} for t in m.line_types.values()},
        "terrain": _dump_terrain(m),
        "hexsides": [{"feature": code, "name": name, "sides": " ".join(grid.format_hexside(s) for s in sides),
                      **source_dict(src)} for (code, name, src), sides in _group_hexsides(m).items()],
        "lines": [{"type": ln.code, "name": ln.name, "hexes": " ".join(fmt(h) for h in ln.hexes),
                   **source_dict(ln.source)} for ln in m.lines],
        "places": [{"name": p.name, "hex": fmt(p.hex), "kind": p.kind, **source_dict(p.source)}
                   for p in m.places],
        "victory": [{"hex": fmt(v.hex), "points": v.points, "side": v.side, **source_dict(v.source)}
                    for v in m.victory],
        "supply": [{"side": s.side, "hexes": " ".join(fmt(h) for h in s.hexes), "edge": s.edge, "kind": s.kind,
                    "from_turn": s.turns[0], "until_turn": s.turns[1], "note": s.note, **source_dict(s.source)}
                   for s in m.supply],
        "edges": [{"edge": e.edge, "side": e.side, "hexes": " ".join(fmt(h) for h in e.hexes), "note": e.note,
                   **source_dict(e.source)} for e in m.edges],
        "boxes": [{"id": b.id, "name": b.name, "side": b.side, "entry": " ".join(fmt(h) for h in b.entry),
                   "note": b.note, **source_dict(b.source)} for b in m.boxes],
    }
    return _drop_empty(out)


def _drop_empty(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_empty(v) for k, v in value.items() if v not in (None, "", [], {})}
    if isinstance(value, list):
        return [_drop_empty(v) for v in value]
    return value


def _dump_terrain(m: Map) -> list[dict]:
    """One ``rows`` block per provenance, ``-`` where another block holds the hex."""
    grid = m.grid
    groups: dict[Source, dict[Hex, str]] = {}
    for hex, cell in m.hexes.items():
        token = "+".join((cell.terrain,) + cell.features)
        groups.setdefault(cell.source, {})[hex] = token
    blocks = []
    for source, cells in groups.items():
        rows: dict[str, str] = {}
        row_numbers = sorted({h.row for h in cells})
        cols = [h.col for h in cells]
        start = min(cols)
        for row in row_numbers:
            tokens = [cells.get(Hex(c, row), "-") for c in range(start, max(cols) + 1)]
            while tokens and tokens[-1] == "-":
                tokens.pop()
            rows[f"{row:0{grid.numbering.row_digits}d}"] = " ".join(tokens)
        blocks.append({"rows": rows, "start": start, **source_dict(source)})
    return blocks


def _group_hexsides(m: Map) -> dict[tuple[str, str | None, Source], list[Hexside]]:
    groups: dict[tuple[str, str | None, Source], list[Hexside]] = {}
    for side, features in m.hexsides.items():
        for feature in features:
            groups.setdefault((feature.code, feature.name, feature.source), []).append(side)
    return groups


def dump_map(m: Map, path: str) -> None:
    """Write ``m`` to ``path`` in the map format (atomically: no half-written file)."""
    write_text(path, "# hexforge map file: see docs/data-format.md\n" + dump_yaml(map_to_dict(m)))
