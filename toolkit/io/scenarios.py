"""Scenario files (YAML): ``load_scenario`` / ``dump_scenario``.

Hex ids are read with the grid of the scenario's map (or the map a placement names).
Weather is given per turn or by turn ranges: ``weather: {1: clear, 3-5: snow}``.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import DataError
from ..game.map import Map
from ..game.areas import SIDES, SetupArea
from ..game.scenario import DeckStart, Placement, Reinforcement, Scenario, Turn
from ._atomic import write_text
from ._source import Fields, YDict, dump_yaml, load_yaml, parse_hex_list, source_dict

MAX_TURNS = 1000


def load_scenario(path: str, maps: dict[str, Map]) -> Scenario:
    """Read a scenario; ``maps`` are the game's maps by id (hexes are parsed with their grids)."""
    path = os.fspath(path)
    f = Fields(load_yaml(path), path, "", 1)
    default_map = f.str("map", next(iter(maps)) if maps else None)
    if default_map not in maps:
        raise f.error("map", f"unknown map {default_map!r}; the game has {', '.join(maps) or 'no maps'}")
    s = Scenario(id=f.str("id", required=True), name=f.str("name", required=True), map=default_map,
                 first_side=f.str("first_side"), victory=f.str("victory"), notes=f.str("notes"),
                 source=f.source())
    s.turns = _turns(f.sub("turns", required=True))
    s.locations["turns"] = (path, f.line_of("turns"))
    s.locations["first_side"] = (path, f.line_of("first_side"))
    s.options = dict(f.mapping("options"))

    def map_of(sub: Fields) -> tuple[str, Map]:
        name = sub.str("map", default_map)
        if name not in maps:
            raise sub.error("map", f"unknown map {name!r}; the game has {', '.join(maps)}")
        return name, maps[name]

    setup = f.list("setup")
    for i, item in enumerate(setup):
        sub = Fields(item, path, f"setup[{i}]", setup.line_of(i) if hasattr(setup, "line_of") else None)
        map_id, m = map_of(sub)
        units = tuple(sub.words("units"))
        if not units:
            raise sub.error("units", "a placement needs at least one counter id")
        hexes = parse_hex_list(sub.raw("hex"), m.grid, sub, "hex") if sub.has("hex") else []
        if len(hexes) > 1:
            raise sub.error("hex", "a placement names one hex; use 'hexes' for a choice of hexes")
        choice = parse_hex_list(sub.raw("hexes"), m.grid, sub, "hexes") if sub.has("hexes") else []
        box = sub.str("box")
        area = _area(sub.sub("area"), m) if sub.has("area") else None
        if not hexes and not box and not choice:
            raise sub.error("hex", "a placement needs a hex, hexes (a set-up area) or a box"
                            + ("; with an area, give the hex chosen in it" if area else ""))
        s.setup.append(Placement(units=units, hex=hexes[0] if hexes else None, box=box,
                                 map=map_id if map_id != default_map else None, state=sub.str("state"),
                                 hexes=tuple(choice), source=sub.source(), area=area))
        s.locations[("setup", i)] = (path, sub.line)
        sub.done(["notes", "side"])
    reinforcements = f.list("reinforcements")
    for i, item in enumerate(reinforcements):
        sub = Fields(item, path, f"reinforcements[{i}]",
                     reinforcements.line_of(i) if hasattr(reinforcements, "line_of") else None)
        map_id, m = map_of(sub)
        units = tuple(sub.words("units"))
        if not units:
            raise sub.error("units", "a reinforcement needs at least one counter id")
        entry = parse_hex_list(sub.raw("entry"), m.grid, sub, "entry") if sub.has("entry") else []
        s.reinforcements.append(Reinforcement(
            turn=sub.int("turn", required=True, minimum=0, maximum=MAX_TURNS), side=sub.str("side", required=True),
            units=units, entry=tuple(entry), box=sub.str("box"),
            map=map_id if map_id != default_map else None, note=sub.str("note"), source=sub.source()))
        s.locations[("reinforcements", i)] = (path, sub.line)
        sub.done(["notes"])
    decks = f.list("decks")
    for i, item in enumerate(decks):
        sub = Fields(item, path, f"decks[{i}]", decks.line_of(i) if hasattr(decks, "line_of") else None)
        counters = tuple(sub.words("counters"))
        if not counters:
            raise sub.error("counters", "a deck entry needs at least one counter id")
        turn = sub.int("turn", minimum=0, maximum=MAX_TURNS) if sub.has("turn") else None
        if sub.has("deck") == sub.has("box"):
            raise sub.error("deck", "a deck entry names exactly one of deck (where the counters start) or box "
                            "(where they wait)")
        if sub.has("box") and turn is not None:
            raise sub.error("turn", "counters waiting in a box have no turn; give the deck they go into")
        pick = sub.int("pick", minimum=1, maximum=100_000) if sub.has("pick") else None
        s.decks.append(DeckStart(deck=sub.str("deck"), counters=counters, turn=turn, box=sub.str("box"), pick=pick,
                                 note=sub.str("note"), source=sub.source()))
        s.locations[("decks", i)] = (path, sub.line)
        sub.done()
    f.done()
    return s


#: Most hexes ``within`` may reach: far beyond any map, small enough to stay quick.
MAX_WITHIN = 100


def _area(a: Fields, m: Map) -> SetupArea:
    """An ``area:`` mapping: one reference, ``within: N``, ``north_of: LINE`` (or south/east/west)."""
    grid = m.grid
    refs = [k for k in ("hexes", "hex", "place", "terrain", "unit") if a.has(k)]
    sides = [f"{side}_of" for side in SIDES if a.has(f"{side}_of")]
    if len(refs) > 1:
        raise a.error(refs[1], f"an area has one reference; found {' and '.join(refs)}")
    if len(sides) > 1:
        raise a.error(sides[1], f"an area names one side of one line; found {' and '.join(sides)}")
    hexes = parse_hex_list(a.raw("hexes"), grid, a, "hexes") if a.has("hexes") else []
    one = parse_hex_list(a.raw("hex"), grid, a, "hex") if a.has("hex") else []
    if len(one) > 1:
        raise a.error("hex", "an area's hex is one hex; use 'hexes' for several")
    within = a.int("within", 0, minimum=0, maximum=MAX_WITHIN)
    if within and not refs:
        raise a.error("within", "within N hexes of what? give hex, hexes, place, terrain or unit")
    if not refs and not sides:
        raise a.error("hex", "an area needs one of hexes, hex, place, terrain, unit or north_of/south_of/"
                             "east_of/west_of")
    side_of = (sides[0][:-3], a.str(sides[0])) if sides else None
    area = SetupArea(hexes=tuple(hexes), hex=one[0] if one else None, place=a.str("place"),
                     terrain=a.str("terrain"), unit=a.str("unit"), within=within, side_of=side_of,
                     source=a.source())
    a.done(["notes"])
    return area


def area_to_dict(area: SetupArea, fmt) -> dict[str, Any]:
    """An area as plain data in the file format (the inverse of reading ``area:``)."""
    out: dict[str, Any] = {}
    if area.hexes:
        out["hexes"] = " ".join(fmt(h) for h in area.hexes)
    if area.hex is not None:
        out["hex"] = fmt(area.hex)
    for key in ("place", "terrain", "unit"):
        if getattr(area, key):
            out[key] = getattr(area, key)
    if area.within:
        out["within"] = area.within
    if area.side_of:
        out[f"{area.side_of[0]}_of"] = area.side_of[1]
    return {**out, **source_dict(area.source)}


def _turns(t: Fields) -> list[Turn]:
    count = t.int("count", required=True, minimum=1, maximum=MAX_TURNS)
    first = t.int("first", 1, minimum=0, maximum=MAX_TURNS)
    dates = t.words("dates") if t.has("dates") else []
    if dates and len(dates) != count:
        t.raw("dates")
        raise t.error("dates", f"expected {count} dates (one per turn), found {len(dates)}")
    weather: dict[int, str] = {}
    table = t.mapping("weather")
    for key, value in table.items():
        line = table.line_of(key) if isinstance(table, YDict) else t.line
        text = str(key)
        try:
            lo, _, hi = text.partition("-")
            turns = range(int(lo), int(hi or lo) + 1)
            if not turns:
                raise ValueError(text)  # "5-3": a range runs from low to high
        except ValueError:
            raise DataError(f"weather key {text!r} must be a turn or a range such as 3-5", path=t.path, line=line,
                            field=f"{t.field_name('weather')}.{text}") from None
        for n in turns:
            if not first <= n < first + count:
                raise DataError(f"turn {n} is outside turns {first}-{first + count - 1}", path=t.path, line=line,
                                field=f"{t.field_name('weather')}.{text}")
            weather[n] = str(value)
    source = t.source()
    t.done(["notes"])
    dates = [None if d == "-" else d for d in dates]
    return [Turn(number=n, date=dates[n - first] if dates else None, weather=weather.get(n), source=source)
            for n in range(first, first + count)]


def scenario_to_dict(s: Scenario, maps: dict[str, Map]) -> dict[str, Any]:
    """The scenario as plain data in the file format (the inverse of :func:`load_scenario`)."""
    def fmt(map_id: str | None, hexes) -> str:
        grid = maps[map_id or s.map].grid
        return " ".join(grid.format(h) for h in hexes)

    first = s.turns[0].number if s.turns else 1
    turns: dict[str, Any] = {"first": first, "count": len(s.turns)}
    if any(t.date for t in s.turns):
        turns["dates"] = [t.date or "-" for t in s.turns]
    weather = {t.number: t.weather for t in s.turns if t.weather}
    if weather:
        turns["weather"] = weather
    if s.turns:
        turns.update(source_dict(s.turns[0].source))
    out: dict[str, Any] = {"id": s.id, "name": s.name, "map": s.map, "first_side": s.first_side,
                           **source_dict(s.source), "turns": turns}
    if s.victory:
        out["victory"] = s.victory
    if s.notes:
        out["notes"] = s.notes
    if s.options:
        out["options"] = dict(s.options)
    out["setup"] = []
    for p in s.setup:
        item: dict[str, Any] = {"units": list(p.units)}
        if p.hex is not None:
            item["hex"] = fmt(p.map, [p.hex])
        if p.hexes:
            item["hexes"] = fmt(p.map, p.hexes)
        for key in ("box", "map", "state"):
            if getattr(p, key):
                item[key] = getattr(p, key)
        if p.area is not None:
            item["area"] = area_to_dict(p.area, maps[p.map or s.map].grid.format)
        out["setup"].append({**item, **source_dict(p.source)})
    out["reinforcements"] = []
    for r in s.reinforcements:
        item = {"turn": r.turn, "side": r.side, "units": list(r.units)}
        if r.entry:
            item["entry"] = fmt(r.map, r.entry)
        for key in ("box", "map", "note"):
            if getattr(r, key):
                item[key] = getattr(r, key)
        out["reinforcements"].append({**item, **source_dict(r.source)})
    if s.decks:
        out["decks"] = []
        for d in s.decks:
            item = {"deck": d.deck} if d.deck is not None else {"box": d.box}
            item["counters"] = list(d.counters)
            for key in ("turn", "pick", "note"):
                if getattr(d, key) is not None:
                    item[key] = getattr(d, key)
            out["decks"].append({**item, **source_dict(d.source)})
    return out


def dump_scenario(s: Scenario, maps: dict[str, Map], path: str) -> None:
    """Write a scenario file (atomically)."""
    write_text(path, dump_yaml(scenario_to_dict(s, maps)))
