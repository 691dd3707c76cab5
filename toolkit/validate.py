"""Findings about a game's data: errors, warnings and a provenance summary.

``validate_game(game)`` never raises for bad content; it returns a :class:`Report` whose
findings each name the file, the line where known, the field, and what was expected.
(Unreadable files raise :class:`~toolkit.errors.DataError` from the loader instead.)
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import asdict, dataclass, field

from .game import Game, Map

ERROR = "error"
WARNING = "warning"


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

    def to_dict(self) -> dict:
        return {"game": self.game, "ok": self.ok, "errors": len(self.errors), "warnings": len(self.warnings),
                "findings": [asdict(f) for f in self.findings], "provenance": self.provenance}


class _Collector:
    def __init__(self, report: Report) -> None:
        self.report = report

    def add(self, severity: str, code: str, message: str, file=None, line=None, field=None) -> None:
        self.report.findings.append(Finding(severity, code, message, file, line, field))


def validate_game(game: Game) -> Report:
    """Check a loaded game: map terrain, TEC, lines, hexsides, counters and scenarios."""
    report = Report(game.id)
    out = _Collector(report)
    for map_id, m in game.maps.items():
        _check_map(m, game.files.get("maps", {}).get(map_id), out)
    _check_counters(game, out)
    _check_scenarios(game, out)
    report.provenance = provenance_summary(game)
    return report


def validate_map(m: Map, file: str | None = None) -> Report:
    """Check one map on its own."""
    report = Report(m.id)
    _check_map(m, file, _Collector(report))
    report.provenance = {"hexes": _hex_provenance(m)}
    return report


def _where(m: Map, key, file):
    path, line = m.locations.get(key, (file, None))
    return path or file, line


def _check_map(m: Map, file: str | None, out: _Collector) -> None:
    grid = m.grid
    fmt = grid.format
    known_terrain = m.terrain_types
    # terrain per hex
    for hex, cell in m.hexes.items():
        path, line = _where(m, ("hex", hex), file)
        if hex not in grid:
            out.add("error", "hex-off-grid", f"hex {fmt(hex)} is outside the grid "
                    f"(columns {grid.first_col}-{grid.last_col}, rows {grid.first_row}-{grid.last_row})",
                    path, line, "terrain")
        if cell.terrain not in known_terrain:
            out.add("error", "unknown-terrain", f"hex {fmt(hex)} has unknown terrain {cell.terrain!r}; expected one of "
                    f"{', '.join(sorted(known_terrain))}", path, line, "terrain")
        elif known_terrain[cell.terrain].overlay:
            out.add("error", "overlay-as-base", f"hex {fmt(hex)} uses overlay {cell.terrain!r} as its base terrain",
                    path, line, "terrain")
        for feature in cell.features:
            if feature not in known_terrain:
                out.add("error", "unknown-terrain", f"hex {fmt(hex)} has unknown feature {feature!r}",
                        path, line, "terrain")
    missing = [h for h in grid if h not in m.hexes]
    if missing:
        sample = ", ".join(fmt(h) for h in missing[:12]) + (" ..." if len(missing) > 12 else "")
        out.add("error", "hex-without-terrain", f"{len(missing)} grid hexes have no terrain: {sample}",
                file, None, "terrain")
    # TEC gaps: every base terrain must price every unit class in every weather
    used = Tally(c.terrain for c in m.hexes.values())
    used.update(f for c in m.hexes.values() for f in c.features)
    for code, terrain in known_terrain.items():
        if terrain.overlay and not terrain.move:
            pass  # an overlay without costs leaves movement to the base terrain
        else:
            for unit_class in m.unit_classes:
                for weather in m.weathers:
                    found, _ = terrain.move.lookup(unit_class, weather)
                    if not found:
                        out.add("error", "tec-gap", f"terrain {code!r} gives no cost for unit class {unit_class!r} "
                                f"in weather {weather!r}", file, None, f"terrain_types.{code}.move")
        if code not in used:
            out.add("warning", "unused-terrain", f"terrain type {code!r} is defined but no hex uses it",
                    file, None, f"terrain_types.{code}")
    for code, side_type in m.hexside_types.items():
        for unit_class in m.unit_classes:
            for weather in m.weathers:
                found, _ = side_type.move.lookup(unit_class, weather)
                if not found:
                    out.add("error", "tec-gap", f"hexside {code!r} gives no cost for unit class {unit_class!r} "
                            f"in weather {weather!r}", file, None, f"hexside_types.{code}.move")
    for code, line_type in m.line_types.items():
        for unit_class in m.unit_classes:
            for weather in m.weathers:
                found, _ = line_type.move.lookup(unit_class, weather)
                if not found:
                    out.add("warning", "tec-gap", f"line {code!r} gives no cost for unit class {unit_class!r} in "
                            f"weather {weather!r} (it will not speed that class)", file, None,
                            f"line_types.{code}.move")
    # hexsides
    used_sides = Tally()
    for side, features in m.hexsides.items():
        for feature in features:
            used_sides[feature.code] += 1
            path, line = _where(m, ("hexside", side, feature.code), file)
            label = f"{fmt(side.a)}/{fmt(side.b)}"
            if not grid.adjacent(side.a, side.b):
                out.add("error", "hexside-not-adjacent", f"hexside {label}: the hexes are not adjacent",
                        path, line, "hexsides")
            elif side.a not in grid and side.b not in grid:
                out.add("error", "hex-off-grid", f"hexside {label} lies outside the grid", path, line, "hexsides")
            if feature.code not in m.hexside_types:
                out.add("error", "unknown-hexside", f"hexside {label} has unknown feature {feature.code!r}; "
                        f"expected one of {', '.join(sorted(m.hexside_types))}", path, line, "hexsides")
        codes = [f.code for f in features]
        bridges = [c for c in codes if m.hexside_types.get(c) and m.hexside_types[c].bridge]
        if bridges and len(bridges) == len(codes):
            path, line = _where(m, ("hexside", side, codes[0]), file)
            out.add("warning", "bridge-over-nothing", f"hexside {fmt(side.a)}/{fmt(side.b)} has a bridge but "
                    f"nothing to cross", path, line, "hexsides")
    for code in m.hexside_types:
        if not used_sides[code]:
            out.add("warning", "unused-hexside", f"hexside type {code!r} is defined but no hexside uses it",
                    file, None, f"hexside_types.{code}")
    # lines
    for i, ln in enumerate(m.lines):
        path, line = _where(m, ("line", i), file)
        name = ln.name or f"{ln.code} #{i + 1}"
        if ln.code not in m.line_types:
            out.add("error", "unknown-line", f"line {name!r} has unknown type {ln.code!r}; expected one of "
                    f"{', '.join(sorted(m.line_types))}", path, line, f"lines[{i}].type")
            continue
        if len(ln.hexes) < 2:
            out.add("error", "short-line", f"line {name!r} needs at least two hexes", path, line, f"lines[{i}].hexes")
        for h in ln.hexes:
            if h not in grid:
                out.add("error", "hex-off-grid", f"line {name!r} passes hex {fmt(h)} outside the grid",
                        path, line, f"lines[{i}].hexes")
        for a, b in zip(ln.hexes, ln.hexes[1:]):
            if not grid.adjacent(a, b):
                out.add("error", "line-gap", f"line {name!r} jumps from {fmt(a)} to {fmt(b)}, which are not adjacent",
                        path, line, f"lines[{i}].hexes")
                continue
            side = grid.hexside(a, b)
            for feature in m.hexsides.get(side, ()):
                kind = m.hexside_types.get(feature.code)
                if kind is None:
                    continue
                impassable = all(c is None for c in kind.move.costs.values()) and kind.move.costs
                bridged = m.line_types[ln.code].bridges or any(
                    m.hexside_types.get(f.code) and m.hexside_types[f.code].bridge for f in m.hexsides[side])
                if impassable and not bridged:
                    out.add("error", "line-crosses-impassable", f"line {name!r} crosses impassable {feature.code!r} "
                            f"at {fmt(a)}/{fmt(b)} without a bridge", path, line, f"lines[{i}].hexes")
    # places, sources, edges, boxes
    checks = [("places", [(p.hex, p.name) for p in m.places]),
              ("victory", [(v.hex, "victory hex") for v in m.victory]),
              ("supply", [(h, f"{s.side} supply source") for s in m.supply for h in s.hexes]),
              ("edges", [(h, f"{e.edge} edge") for e in m.edges for h in e.hexes]),
              ("boxes", [(h, f"entry of box {b.id}") for b in m.boxes for h in b.entry])]
    for key, items in checks:
        for hex, what in items:
            if hex not in grid:
                out.add("error", "hex-off-grid", f"{what} at {fmt(hex)} is outside the grid", file, None, key)
    box_ids = Tally(b.id for b in m.boxes)
    for box_id, n in box_ids.items():
        if n > 1:
            out.add("error", "duplicate-id", f"box id {box_id!r} is used {n} times", file, None, "boxes")


def _check_counters(game: Game, out: _Collector) -> None:
    file = game.files.get("counters")
    sides = {s.id for s in game.sides}
    classes = set()
    for m in game.maps.values():
        classes.update(m.unit_classes)
    for c in game.counters.values():
        if c.side is not None and c.side not in sides:
            out.add("error", "unknown-side", f"counter {c.id!r} has side {c.side!r}; the game's sides are "
                    f"{', '.join(sorted(sides))}", file, None, f"{c.id}.side")
        if c.is_marker:
            continue
        if c.side is None:
            out.add("error", "missing-side", f"unit {c.id!r} has no side", file, None, f"{c.id}.side")
        if c.unit_class is None:
            out.add("warning", "missing-class", f"unit {c.id!r} has no movement class", file, None, f"{c.id}.class")
        elif c.unit_class not in classes:
            out.add("error", "unknown-class", f"unit {c.id!r} has class {c.unit_class!r}; the maps know "
                    f"{', '.join(sorted(classes))}", file, None, f"{c.id}.class")
        if c.steps > 1 and c.back_kind == "none":
            out.add("warning", "steps-without-back", f"unit {c.id!r} has {c.steps} steps but no back side",
                    file, None, f"{c.id}.back_kind")


def _check_scenarios(game: Game, out: _Collector) -> None:
    for sid, s in game.scenarios.items():
        file = game.files.get("scenarios", {}).get(sid)
        main = game.maps.get(s.map or "")
        boxes = {b.id for m in game.maps.values() for b in m.boxes}
        placed = Tally()
        weathers = set(main.weathers) if main else set()
        for t in s.turns:
            if t.weather and weathers and t.weather not in weathers:
                out.add("error", "unknown-weather", f"turn {t.number} has weather {t.weather!r}; the map knows "
                        f"{', '.join(sorted(weathers))}", file, None, "turns.weather")
        for i, p in enumerate(s.setup):
            m = game.maps.get(p.map or s.map or "")
            for unit in p.units:
                placed[unit] += 1
                if unit not in game.counters:
                    out.add("error", "unknown-counter", f"set-up places {unit!r}, which no counter defines",
                            file, None, f"setup[{i}].units")
            for hex in ([p.hex] if p.hex else []) + list(p.hexes):
                if m and hex not in m.grid:
                    out.add("error", "hex-off-grid", f"set-up hex {m.grid.format(hex)} is outside the map",
                            file, None, f"setup[{i}].hex")
            if p.box and p.box not in boxes:
                out.add("error", "unknown-box", f"set-up names box {p.box!r}; the maps have "
                        f"{', '.join(sorted(boxes)) or 'no boxes'}", file, None, f"setup[{i}].box")
        turns = {t.number for t in s.turns}
        for i, r in enumerate(s.reinforcements):
            m = game.maps.get(r.map or s.map or "")
            if r.turn not in turns:
                out.add("error", "turn-out-of-range", f"reinforcements arrive on turn {r.turn}, outside the "
                        f"scenario's turns", file, None, f"reinforcements[{i}].turn")
            for unit in r.units:
                placed[unit] += 1
                if unit not in game.counters:
                    out.add("error", "unknown-counter", f"reinforcement {unit!r} is not a defined counter",
                            file, None, f"reinforcements[{i}].units")
            for hex in r.entry:
                if m and hex not in m.grid:
                    out.add("error", "hex-off-grid", f"entry hex {m.grid.format(hex)} is outside the map",
                            file, None, f"reinforcements[{i}].entry")
            if r.box and r.box not in boxes:
                out.add("error", "unknown-box", f"reinforcement box {r.box!r} is not defined", file, None,
                        f"reinforcements[{i}].box")
            if not r.entry and not r.box:
                out.add("warning", "no-entry", "reinforcement has neither entry hexes nor a box",
                        file, None, f"reinforcements[{i}]")
        for unit, n in placed.items():
            counter = game.counters.get(unit)
            if counter and n > counter.count:
                out.add("error", "counter-overused", f"{unit!r} is placed {n} times but the counter mix has "
                        f"{counter.count}", file, None, "setup")


def _hex_provenance(m: Map) -> dict:
    tally = Tally()
    for hex in m.grid:
        cell = m.hexes.get(hex)
        if cell is None:
            tally["missing"] += 1
        elif cell.source.is_estimated:
            tally["estimated"] += 1
        elif cell.source.rule:
            tally["cited"] += 1
        else:
            tally["unsourced"] += 1
    total = len(m.grid)
    return {"total": total, **{k: tally[k] for k in ("cited", "estimated", "unsourced", "missing")}}


def provenance_summary(game: Game) -> dict:
    """How many hexes, hexsides, TEC entries, counters and placements are cited or estimated."""
    def count(items) -> dict:
        tally = Tally("estimated" if s.is_estimated else "cited" if s.rule else "unsourced" for s in items)
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


