"""Findings about a game's data: errors, warnings and a provenance summary.

``validate_game(game)`` never raises for bad content; it returns a :class:`Report` whose
findings each name the file, the line where known, the field, and what was expected.
(Unreadable files raise :class:`~toolkit.errors.DataError` from the loader instead.)
The finding codes are listed in :data:`CODES` and documented in docs/data-format.md.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import asdict, dataclass, field

from .game import AreaError, Game, Map, area_hexes, id_problem
from .hexes import Hexside

ERROR = "error"
WARNING = "warning"

#: Every finding code the validator produces, with its severity.
CODES: dict[str, str] = {
    "hex-off-grid": ERROR, "unknown-terrain": ERROR, "overlay-as-base": ERROR,
    "hex-without-terrain": ERROR, "tec-gap": ERROR, "unused-terrain": WARNING,
    "unknown-hexside": ERROR, "hexside-not-adjacent": ERROR, "hexside-conflict": ERROR,
    "bridge-over-nothing": WARNING, "unused-hexside": WARNING,
    "unknown-line": ERROR, "short-line": ERROR, "line-gap": ERROR, "line-crosses-impassable": ERROR,
    "line-tec-gap": WARNING, "unused-line": WARNING,
    "duplicate-id": ERROR, "unknown-side": ERROR, "missing-side": ERROR, "missing-class": WARNING,
    "unknown-class": ERROR, "steps-without-back": WARNING,
    "unknown-counter": ERROR, "unknown-box": ERROR, "unknown-weather": ERROR, "turn-out-of-range": ERROR,
    "no-entry": WARNING, "counter-overused": ERROR, "wrong-side": ERROR, "unknown-deck": ERROR,
    "bad-area": ERROR, "setup-outside-area": ERROR, "bad-id": ERROR,
}


@dataclass(frozen=True)
class Finding:
    """One problem in the data."""

    severity: str
    code: str
    message: str
    file: str | None = None
    line: int | None = None
    field: str | None = None

    def format(self) -> str:
        where = self.file or ""
        if where and self.line:
            where += f":{self.line}"
        if self.field:
            where += f" [{self.field}]" if where else self.field
        return f"{where}: {self.severity}: {self.message} ({self.code})" if where else \
            f"{self.severity}: {self.message} ({self.code})"


@dataclass
class Report:
    """All findings about one game plus how much of it is cited, estimated or unsourced."""

    game: str
    findings: list[Finding] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def ok(self) -> bool:
        return not self.errors

    def codes(self) -> set[str]:
        """The codes of all findings (handy in tests and tools)."""
        return {f.code for f in self.findings}

    def to_dict(self) -> dict:
        return {"game": self.game, "ok": self.ok, "errors": len(self.errors), "warnings": len(self.warnings),
                "findings": [asdict(f) for f in self.findings], "provenance": self.provenance}


class _Collector:
    """Adds findings; the severity of each comes from :data:`CODES`."""

    def __init__(self, report: Report) -> None:
        self.report = report

    def add(self, code: str, message: str, where: tuple, field: str | None = None) -> None:
        file, line = where
        self.report.findings.append(Finding(CODES[code], code, message, file, line, field))


def validate_game(game: Game) -> Report:
    """Check a loaded game: map terrain, TEC, lines, hexsides, counters and scenarios."""
    report = Report(game.id)
    out = _Collector(report)
    sides = {s.id for s in game.sides}
    _check_ids(game, out)
    for map_id, m in game.maps.items():
        _check_map(m, game.files.get("maps", {}).get(map_id), out, sides)
    _check_counters(game, out)
    _check_scenarios(game, out)
    _check_decks(game, out)
    report.provenance = provenance_summary(game)
    return report


def validate_map(m: Map, file: str | None = None) -> Report:
    """Check one map on its own (sides are not checked: they belong to the game)."""
    report = Report(m.id)
    _check_map(m, file, _Collector(report), None)
    report.provenance = {"hexes": _hex_provenance(m)}
    return report


def _check_ids(game: Game, out: _Collector) -> None:
    """Every id that may become a file or entry name follows the one id pattern."""
    file = game.files.get("game")
    named = [("game", game.id, (file, 1), "id")]
    named += [("map", k, (game.files.get("maps", {}).get(k), None), "id") for k in game.maps]
    named += [("side", s.id, game.locations.get(("side", i), (file, None)), f"sides[{i}].id")
              for i, s in enumerate(game.sides)]
    named += [("counter", c, game.locations.get(("counter", c), (game.files.get("counters"), None)), "id")
              for c in game.counters]
    named += [("scenario", k, (game.files.get("scenarios", {}).get(k), None), "id") for k in game.scenarios]
    for kind, value, at, where in named:
        problem = id_problem(value)
        if problem:
            out.add("bad-id", f"{kind} {problem}", at, where)


# -- maps -----------------------------------------------------------------------------------


def _check_map(m: Map, file: str | None, out: _Collector, sides: set[str] | None) -> None:
    def where(key) -> tuple:
        path, line = m.locations.get(key, (file, None))
        return path or file, line

    _check_hexes(m, file, where, out)
    _check_charts(m, where, out)
    _check_hexsides(m, where, out)
    _check_lines(m, where, out)
    _check_points(m, where, out, sides)


def _check_hexes(m: Map, file, where, out: _Collector) -> None:
    grid, fmt, known = m.grid, m.grid.format, m.terrain_types
    expected = ", ".join(sorted(known)) or "none defined"
    for hex, cell in m.hexes.items():
        at = where(("hex", hex))
        label = _label(m, hex)
        if hex not in grid:
            out.add("hex-off-grid", f"hex {label} is outside the grid (columns {grid.first_col}-{grid.last_col}, "
                    f"rows {grid.first_row}-{grid.last_row})", at, "terrain")
        if cell.terrain not in known:
            out.add("unknown-terrain", f"hex {label} has unknown terrain {cell.terrain!r}; expected one of "
                    f"{expected}", at, "terrain")
        elif known[cell.terrain].overlay:
            out.add("overlay-as-base", f"hex {label} uses overlay {cell.terrain!r} as its base terrain; "
                    f"expected a base terrain before any '+feature'", at, "terrain")
        for feature in cell.features:
            if feature not in known:
                out.add("unknown-terrain", f"hex {label} has unknown feature {feature!r}; expected one of "
                        f"{expected}", at, "terrain")
    missing = [h for h in grid if h not in m.hexes]
    if missing:
        sample = ", ".join(fmt(h) for h in missing[:12]) + (" ..." if len(missing) > 12 else "")
        out.add("hex-without-terrain", f"{len(missing)} grid hexes have no terrain: {sample}; expected every "
                f"hex of the grid to have one", (file, None), "terrain")


def _label(m: Map, hex) -> str:
    try:
        return m.grid.format(hex)
    except ValueError:  # a number too wide for the numbering: show it raw
        return f"({hex[0]}, {hex[1]})"


def _check_charts(m: Map, where, out: _Collector) -> None:
    """TEC gaps (a unit class x weather with no cost) and chart entries nothing uses."""
    used = Tally(c.terrain for c in m.hexes.values())
    used.update(f for c in m.hexes.values() for f in c.features)
    charts = [("terrain_types", "terrain", m.terrain_types, "tec-gap"),
              ("hexside_types", "hexside", m.hexside_types, "tec-gap"),
              ("line_types", "line", m.line_types, "line-tec-gap")]
    for key, what, types, code in charts:
        for type_code, kind in types.items():
            if key == "terrain_types" and kind.overlay and not kind.move:
                continue  # an overlay without costs leaves movement to the base terrain
            if key == "line_types" and not kind.move:
                continue  # a line with no rates at all (a railway that only bridges) is deliberate
            for unit_class in m.unit_classes:
                for weather in m.weathers:
                    if not kind.move.lookup(unit_class, weather)[0]:
                        note = " (it will not speed that class)" if code == "line-tec-gap" else ""
                        out.add(code, f"{what} {type_code!r} gives no cost for unit class {unit_class!r} in weather "
                                f"{weather!r}{note}; expected a '{unit_class}', '{unit_class}/{weather}' or '*' "
                                f"entry", where((key, type_code)), f"{key}.{type_code}.move")
    for code, kind in m.terrain_types.items():
        if code not in used:
            out.add("unused-terrain", f"terrain type {code!r} is defined but no hex uses it",
                    where(("terrain_types", code)), f"terrain_types.{code}")
    used_lines = {ln.code for ln in m.lines}
    for code in m.line_types:
        if code not in used_lines:
            out.add("unused-line", f"line type {code!r} is defined but no road or rail uses it",
                    where(("line_types", code)), f"line_types.{code}")


def _check_hexsides(m: Map, where, out: _Collector) -> None:
    grid, types = m.grid, m.hexside_types
    used = Tally()
    for side, features in m.hexsides.items():
        label = f"{_label(m, side.a)}/{_label(m, side.b)}"
        for feature in features:
            used[feature.code] += 1
            at = where(("hexside", side, feature.code))
            if not grid.adjacent(side.a, side.b):
                out.add("hexside-not-adjacent", f"hexside {label}: the hexes are not adjacent; expected two "
                        f"neighbouring hexes", at, "hexsides")
            elif side.a not in grid and side.b not in grid:
                out.add("hex-off-grid", f"hexside {label} lies outside the grid", at, "hexsides")
            if feature.code not in types:
                out.add("unknown-hexside", f"hexside {label} has unknown feature {feature.code!r}; expected one of "
                        f"{', '.join(sorted(types)) or 'none defined'}", at, "hexsides")
        _check_side_conflicts(m, side, label, where, out)
    for code in types:
        if not used[code]:
            out.add("unused-hexside", f"hexside type {code!r} is defined but no hexside uses it",
                    where(("hexside_types", code)), f"hexside_types.{code}")


def _check_side_conflicts(m: Map, side: Hexside, label: str, where, out: _Collector) -> None:
    """A hexside holds at most one non-bridge feature per width class, and a bridge needs one.

    ``width`` is the kind of obstacle (minor: stream, major: river, line: slope or border), so two
    different features of one class on one side contradict each other (a side cannot be both a
    stream and a canal); a bridge alone has nothing to cross.
    """
    kinds = [(f.code, m.hexside_types[f.code]) for f in m.hexsides[side] if f.code in m.hexside_types]
    by_width: dict[str, list[str]] = {}
    for code, kind in kinds:
        if not kind.bridge:
            by_width.setdefault(kind.width, []).append(code)
    for width, codes in by_width.items():
        if len(codes) > 1:
            # point at the feature given last: that is the one contradicting the first
            at = max((where(("hexside", side, c)) for c in codes), key=lambda fl: fl[1] or 0)
            out.add("hexside-conflict", f"hexside {label} is given both {' and '.join(map(repr, codes))}, two "
                    f"{width} features; expected at most one {width} feature per hexside", at, "hexsides")
    if kinds and all(kind.bridge for _, kind in kinds):
        out.add("bridge-over-nothing", f"hexside {label} has a bridge but nothing to cross; expected a river or "
                f"other feature on the same hexside", where(("hexside", side, kinds[0][0])), "hexsides")


def _impassable(m: Map, kind) -> bool:
    """True if the hexside prohibits crossing to every unit class in every weather."""
    return all(kind.move.lookup(c, w) == (True, None) for c in m.unit_classes for w in m.weathers)


def _check_lines(m: Map, where, out: _Collector) -> None:
    grid = m.grid
    for i, ln in enumerate(m.lines):
        at = where(("line", i))
        name = ln.name or f"{ln.code} #{i + 1}"
        field_name = f"lines[{i}]"
        if ln.code not in m.line_types:
            out.add("unknown-line", f"line {name!r} has unknown type {ln.code!r}; expected one of "
                    f"{', '.join(sorted(m.line_types)) or 'none defined'}", at, f"{field_name}.type")
            continue
        if len(ln.hexes) < 2:
            out.add("short-line", f"line {name!r} has {len(ln.hexes)} hex; expected at least two", at,
                    f"{field_name}.hexes")
        for h in ln.hexes:
            if h not in grid:
                out.add("hex-off-grid", f"line {name!r} passes hex {_label(m, h)} outside the grid", at,
                        f"{field_name}.hexes")
        for a, b in zip(ln.hexes, ln.hexes[1:]):
            if not grid.adjacent(a, b):
                out.add("line-gap", f"line {name!r} jumps from {_label(m, a)} to {_label(m, b)}, which are not "
                        f"adjacent; expected consecutive hexes to touch", at, f"{field_name}.hexes")
                continue
            side = Hexside.of(a, b)
            features = m.hexsides.get(side, ())
            bridged = m.line_types[ln.code].bridges or any(
                f.code in m.hexside_types and m.hexside_types[f.code].bridge for f in features)
            for feature in features:
                kind = m.hexside_types.get(feature.code)
                if kind is not None and not kind.bridge and _impassable(m, kind) and not bridged:
                    out.add("line-crosses-impassable", f"line {name!r} crosses impassable {feature.code!r} at "
                            f"{_label(m, a)}/{_label(m, b)} without a bridge; expected a bridge feature there or "
                            f"'bridges: true' on line type {ln.code!r}", at, f"{field_name}.hexes")


def _check_points(m: Map, where, out: _Collector, sides: set[str] | None) -> None:
    """Places, victory hexes, supply sources, edges and boxes: on the map, with known sides."""
    groups = [("places", [((p.hex,), p.name, None) for p in m.places]),
              ("victory", [((v.hex,), "victory hex", v.side) for v in m.victory]),
              ("supply", [(s.hexes, f"{s.side} supply source", s.side) for s in m.supply]),
              ("edges", [(e.hexes, f"{e.edge} edge", e.side) for e in m.edges]),
              ("boxes", [(b.entry, f"entry of box {b.id}", b.side) for b in m.boxes])]
    for key, items in groups:
        for i, (hexes, what, side) in enumerate(items):
            at = where((key, i))
            for hex in hexes:
                if hex not in m.grid:
                    out.add("hex-off-grid", f"{what} at {_label(m, hex)} is outside the grid", at, f"{key}[{i}]")
            if sides is not None and side is not None and side not in sides:
                out.add("unknown-side", f"{what} belongs to side {side!r}; expected one of "
                        f"{', '.join(sorted(sides))}", at, f"{key}[{i}].side")
    for box_id, n in Tally(b.id for b in m.boxes).items():
        if n > 1:
            index = [b.id for b in m.boxes].index(box_id, 1 + [b.id for b in m.boxes].index(box_id))
            out.add("duplicate-id", f"box id {box_id!r} is used {n} times; expected unique ids",
                    where(("boxes", index)), f"boxes[{index}].id")


# -- counters and scenarios -----------------------------------------------------------------


def _check_counters(game: Game, out: _Collector) -> None:
    file = game.files.get("counters")
    sides = {s.id for s in game.sides}
    classes = {c for m in game.maps.values() for c in m.unit_classes}
    for side_id, n in Tally(s.id for s in game.sides).items():
        if n > 1:
            out.add("duplicate-id", f"side id {side_id!r} is used {n} times; expected unique ids",
                    (game.files.get("game"), None), "sides")
    for c in game.counters.values():
        at = game.locations.get(("counter", c.id), (file, None))
        if c.side is not None and c.side not in sides:
            out.add("unknown-side", f"counter {c.id!r} has side {c.side!r}; expected one of "
                    f"{', '.join(sorted(sides))}", at, f"{c.id}.side")
        if c.is_marker or c.kind == "chit":   # chits (activation, events) never move
            continue
        if c.side is None:
            out.add("missing-side", f"unit {c.id!r} has no side; expected one of {', '.join(sorted(sides))}",
                    at, f"{c.id}.side")
        if c.unit_class is None:
            out.add("missing-class", f"unit {c.id!r} has no movement class; expected one of "
                    f"{', '.join(sorted(classes))}", at, f"{c.id}.class")
        elif c.unit_class not in classes:
            out.add("unknown-class", f"unit {c.id!r} has class {c.unit_class!r}; the maps know "
                    f"{', '.join(sorted(classes))}", at, f"{c.id}.class")
        if c.steps > 1 and c.back_kind == "none":
            out.add("steps-without-back", f"unit {c.id!r} has {c.steps} steps but no back side; expected a "
                    f"back_kind such as 'reduced'", at, f"{c.id}.back_kind")


def _check_scenarios(game: Game, out: _Collector) -> None:
    sides = {s.id for s in game.sides}
    boxes = {b.id for m in game.maps.values() for b in m.boxes}
    for sid, s in game.scenarios.items():
        file = game.files.get("scenarios", {}).get(sid)

        def where(key) -> tuple:
            return s.locations.get(key, (file, None))

        main = game.maps.get(s.map or "")
        weathers = set(main.weathers) if main else set()
        if s.first_side is not None and s.first_side not in sides:
            out.add("unknown-side", f"scenario's first side {s.first_side!r} is not a side of the game; expected "
                    f"one of {', '.join(sorted(sides))}", where("first_side"), "first_side")
        for t in s.turns:
            if t.weather and weathers and t.weather not in weathers:
                out.add("unknown-weather", f"turn {t.number} has weather {t.weather!r}; the map knows "
                        f"{', '.join(sorted(weathers))}", where("turns"), "turns.weather")
        placed = Tally()
        for deck in game.decks:  # a deck holds every copy of its counters
            for unit in deck.counters:
                if unit in game.counters:
                    placed[unit] += game.counters[unit].count
        for i, p in enumerate(s.setup):
            m = game.maps.get(p.map or s.map or "")
            at = where(("setup", i))
            for unit in p.units:
                placed[unit] += 1
                if unit not in game.counters:
                    out.add("unknown-counter", f"set-up places {unit!r}, which no counter defines; expected an id "
                            f"from the counters file", at, f"setup[{i}].units")
            for hex in ([p.hex] if p.hex else []) + list(p.hexes):
                if m and hex not in m.grid:
                    out.add("hex-off-grid", f"set-up hex {_label(m, hex)} is outside the map", at, f"setup[{i}].hex")
            if p.box and p.box not in boxes:
                out.add("unknown-box", f"set-up names box {p.box!r}; the maps have "
                        f"{', '.join(sorted(boxes)) or 'no boxes'}", at, f"setup[{i}].box")
            if p.area is not None and m is not None:
                _check_area(s, i, p, m, at, out)
        turns = {t.number for t in s.turns}
        for i, r in enumerate(s.reinforcements):
            m = game.maps.get(r.map or s.map or "")
            at = where(("reinforcements", i))
            if r.turn not in turns:
                out.add("turn-out-of-range", f"reinforcements arrive on turn {r.turn}; expected a turn from "
                        f"{min(turns, default=0)} to {max(turns, default=0)}", at, f"reinforcements[{i}].turn")
            if r.side not in sides:
                out.add("unknown-side", f"reinforcements for side {r.side!r}; expected one of "
                        f"{', '.join(sorted(sides))}", at, f"reinforcements[{i}].side")
            for unit in r.units:
                placed[unit] += 1
                counter = game.counters.get(unit)
                if counter is None:
                    out.add("unknown-counter", f"reinforcement {unit!r} is not a defined counter", at,
                            f"reinforcements[{i}].units")
                elif counter.side is not None and counter.side != r.side and r.side in sides:
                    out.add("wrong-side", f"reinforcement {unit!r} is a {counter.side} counter but arrives for "
                            f"{r.side}", at, f"reinforcements[{i}].units")
            for hex in r.entry:
                if m and hex not in m.grid:
                    out.add("hex-off-grid", f"entry hex {_label(m, hex)} is outside the map", at,
                            f"reinforcements[{i}].entry")
            if r.box and r.box not in boxes:
                out.add("unknown-box", f"reinforcement box {r.box!r} is not defined; the maps have "
                        f"{', '.join(sorted(boxes)) or 'no boxes'}", at, f"reinforcements[{i}].box")
            if not r.entry and not r.box:
                out.add("no-entry", "reinforcement has neither entry hexes nor a box", at, f"reinforcements[{i}]")
        _check_scenario_decks(game, s, turns, where, out)
        for unit, n in placed.items():
            counter = game.counters.get(unit)
            if counter and n > counter.count:
                out.add("counter-overused", f"{unit!r} is placed {n} times (decks included) but the counter "
                        f"mix has {counter.count}", (file, None), "setup")


def _check_scenario_decks(game: Game, s, turns: set, where, out: _Collector) -> None:
    """A scenario's ``decks:``: each entry names a deck of the game and counters some deck of the
    game holds (a counter may move to another deck, never into two), on a turn of the scenario."""
    decks = {d.id for d in game.decks}
    in_decks = {unit for d in game.decks for unit in d.counters}
    seen: dict[str, int] = {}
    for i, entry in enumerate(s.decks):
        at = where(("decks", i))
        if entry.box is not None:
            boxes = {b.id for m in game.maps.values() for b in m.boxes}
            if entry.box not in boxes:
                out.add("unknown-box", f"the scenario puts counters in box {entry.box!r}; the maps have "
                        f"{', '.join(sorted(boxes)) or 'no boxes'}", at, f"decks[{i}].box")
        elif entry.deck not in decks:
            out.add("unknown-deck", f"the scenario fills deck {entry.deck!r}; expected a deck of the game: "
                    f"{', '.join(sorted(decks)) or 'none'}", at, f"decks[{i}].deck")
        if entry.turn is not None and entry.turn not in turns:
            out.add("turn-out-of-range", f"counters go into deck {entry.deck!r} on turn {entry.turn}; expected a "
                    f"turn from {min(turns, default=0)} to {max(turns, default=0)}", at, f"decks[{i}].turn")
        for unit in entry.counters:
            if unit not in game.counters:
                out.add("unknown-counter", f"the scenario puts {unit!r} in deck {entry.deck!r}, but no counter "
                        f"defines it", at, f"decks[{i}].counters")
            elif unit not in in_decks:
                out.add("unknown-counter", f"the scenario puts {unit!r} in deck {entry.deck!r}, but no deck of the "
                        f"game holds it (game.yaml decks)", at, f"decks[{i}].counters")
            elif unit in seen:
                out.add("counter-overused", f"the scenario lists {unit!r} in decks[{seen[unit]}] and decks[{i}]; "
                        f"a counter starts in one place", at, f"decks[{i}].counters")
            seen.setdefault(unit, i)
        copies = sum(game.counters[u].count for u in entry.counters if u in game.counters)
        if entry.pick is not None and entry.pick > copies:
            out.add("counter-overused", f"the scenario picks {entry.pick} of {copies} copies; expected at most "
                    f"{copies}", at, f"decks[{i}].pick")


def _check_decks(game: Game, out: _Collector) -> None:
    sides = {s.id for s in game.sides}
    boxes = {b.id for m in game.maps.values() for b in m.boxes}
    decks = {d.id for d in game.decks}
    holder: dict[str, str] = {}
    for i, deck in enumerate(game.decks):
        at = game.locations.get(("deck", i), (game.files.get("game"), None))
        for unit in deck.counters:
            if unit not in game.counters:
                out.add("unknown-counter", f"deck {deck.id!r} holds {unit!r}, which no counter defines", at,
                        f"decks[{i}].counters")
            elif unit in holder:
                out.add("counter-overused", f"{unit!r} is in decks {holder[unit]!r} and {deck.id!r}; a deck "
                        f"holds every copy of a counter", at, f"decks[{i}].counters")
            holder.setdefault(unit, deck.id)
        if deck.box is not None and deck.box not in boxes:
            out.add("unknown-box", f"deck {deck.id!r} sits in box {deck.box!r}; the maps have "
                    f"{', '.join(sorted(boxes)) or 'no boxes'}", at, f"decks[{i}].box")
        if deck.hex is not None and deck.hex not in game.maps[deck.map].grid:
            out.add("hex-off-grid", f"deck {deck.id!r} sits on hex {_label(game.maps[deck.map], deck.hex)}, "
                    f"outside the map", at, f"decks[{i}].hex")
        if deck.send_to is not None and (deck.send_to not in decks or deck.send_to == deck.id):
            out.add("unknown-deck", f"deck {deck.id!r} sends its counters to {deck.send_to!r}; expected another "
                    f"deck: {', '.join(sorted(decks - {deck.id})) or 'none'}", at, f"decks[{i}].send_to")
        if deck.side is not None and deck.side not in sides:
            out.add("unknown-side", f"deck {deck.id!r} belongs to side {deck.side!r}; expected one of "
                    f"{', '.join(sorted(sides))}", at, f"decks[{i}].side")


def _check_area(s, i: int, p, m, at: tuple, out: _Collector) -> None:
    """A placement's hex (or each hex of its choice) lies in its set-up area."""
    try:
        legal = area_hexes(p.area, m, s.unit_hexes(p.map or s.map))
    except AreaError as exc:
        out.add("bad-area", f"set-up area: {exc}", at, f"setup[{i}].area")
        return
    where = p.area.describe(m.format)
    for hex in ([p.hex] if p.hex else []) + list(p.hexes):
        if hex in m.grid and hex not in legal:
            out.add("setup-outside-area", f"{', '.join(p.units)} set up on {_label(m, hex)}, outside the "
                    f"area {where} ({len(legal)} legal hexes)", at, f"setup[{i}].hex")


# -- provenance -----------------------------------------------------------------------------


def _hex_provenance(m: Map) -> dict:
    tally = Tally()
    for hex in m.grid:
        cell = m.hexes.get(hex)
        if cell is None:
            tally["missing"] += 1
        elif cell.source.is_estimated:
            tally["estimated"] += 1
        elif cell.source.is_cited:
            tally["cited"] += 1
        else:
            tally["unsourced"] += 1
    total = len(m.grid)
    return {"total": total, **{k: tally[k] for k in ("cited", "estimated", "unsourced", "missing")}}


def provenance_summary(game: Game) -> dict:
    """How many hexes, hexsides, TEC entries, counters and placements are cited or estimated."""
    def count(items) -> dict:
        tally = Tally("estimated" if s.is_estimated else "cited" if s.is_cited else "unsourced" for s in items)
        return {"total": sum(tally.values()), **{k: tally[k] for k in ("cited", "estimated", "unsourced")}}

    out: dict = {}
    for map_id, m in game.maps.items():
        out[f"map {map_id}: hexes"] = _hex_provenance(m)
        out[f"map {map_id}: hexsides"] = count(f.source for fs in m.hexsides.values() for f in fs)
        out[f"map {map_id}: terrain chart"] = count(
            [t.source for t in m.terrain_types.values()] + [t.source for t in m.hexside_types.values()]
            + [t.source for t in m.line_types.values()])
        out[f"map {map_id}: lines, places, sources"] = count(
            [x.source for x in m.lines] + [x.source for x in m.places] + [x.source for x in m.supply]
            + [x.source for x in m.victory] + [x.source for x in m.boxes])
    out["counters"] = count(c.source for c in game.counters.values())
    if game.decks:
        out["decks"] = count(d.source for d in game.decks)
    for sid, s in game.scenarios.items():
        out[f"scenario {sid}: placements"] = count(
            [p.source for p in s.setup] + [r.source for r in s.reinforcements])
    return out


def format_report(report: Report) -> str:
    """The report as text for people."""
    lines = [f"{f.format()}" for f in report.findings]
    lines.append("")
    lines.append(f"provenance of {report.game}:")
    for what, counts in report.provenance.items():
        total = counts.get("total", 0)
        est = counts.get("estimated", 0)
        pct = f"{100 * est / total:.0f}%" if total else "-"
        extra = "".join(f", {counts[k]} {k}" for k in ("unsourced", "missing") if counts.get(k))
        lines.append(f"  {what}: {total} total, {counts.get('cited', 0)} cited, {est} estimated ({pct}){extra}")
    lines.append("")
    verdict = "clean" if report.ok and not report.warnings else ("ok with warnings" if report.ok else "FAILED")
    lines.append(f"{report.game}: {len(report.errors)} errors, {len(report.warnings)} warnings: {verdict}")
    return "\n".join(lines)
