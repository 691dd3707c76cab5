"""Game definitions: ``load_game`` / ``dump_game`` and where bundled games live.

A game is a ``game.yaml`` (normally ``counters/<game>/game.yaml``) that names its maps,
counter file and scenarios by paths relative to itself::

    id: tutorial
    name: Hexforge Tutorial
    maps: {main: ../../maps/tutorial/map.yaml}
    counters: counters.csv
    scenarios: [scenarios/meeting.yaml]
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import DataError
from ..game.counters import Side
from ..game.deck import SHUFFLES, Deck
from ..game.game import FOG_KINDS, CounterStyle, FogOfWar, Game
from ._atomic import write_text
from ._gamecache import cached_game, clear_game_cache  # noqa: F401  (re-exported by toolkit.io)
from ._source import Fields, dump_yaml, inside, load_yaml, parse_hex, source_dict
from .counters import dump_counters, load_counters
from .maps import dump_map, load_map
from .scenarios import dump_scenario, load_scenario

DEFAULT_GAME = "tutorial"


def data_root() -> Path:
    """The folder holding ``maps/`` and ``counters/``: $HEXFORGE_DATA, the current folder, or
    the checkout this package was installed from."""
    env = os.environ.get("HEXFORGE_DATA")
    if env:
        return Path(env)
    here = Path.cwd()
    if (here / "counters").is_dir() and (here / "maps").is_dir():
        return here
    return Path(__file__).resolve().parents[2]


def bundled_games() -> list[str]:
    """Ids of the games under ``counters/`` of the data root."""
    root = data_root() / "counters"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def default_game() -> str:
    """The game ``hexforge build`` makes when none is named."""
    games = bundled_games()
    for preferred in ("velikiye-luki", DEFAULT_GAME):
        if preferred in games and _complete(preferred):
            return preferred
    return DEFAULT_GAME


def _complete(game_id: str) -> bool:
    # a game becomes the default only once its data declares itself ready
    path = data_root() / "counters" / game_id / "game.yaml"
    try:
        return bool(load_yaml(str(path)).get("default_candidate"))
    except DataError:
        return False


def game_path(name: str) -> Path:
    """``game.yaml`` of a bundled game id, or of a path to a game folder or file."""
    path = Path(name)
    if path.is_file():
        return path
    if (path / "game.yaml").is_file():
        return path / "game.yaml"
    bundled = data_root() / "counters" / name / "game.yaml"
    if bundled.is_file():
        return bundled
    known = ", ".join(bundled_games()) or "none"
    raise DataError(f"no game {name!r}: not a bundled game (bundled: {known}) and no game.yaml at that path",
                    path=name)


def load_game(name: str) -> Game:
    """Load a whole game by bundled id or path: maps, counters and scenarios. A game is
    parsed once per process while its files are unchanged; each call returns its own copy
    (see :mod:`toolkit.io._gamecache`)."""
    path = game_path(name)
    return cached_game((str(path.resolve()), str(data_root().resolve())), lambda: _load_game(path))


def _load_game(path: Path) -> Game:
    base = path.parent
    f = Fields(load_yaml(str(path)), str(path), "", 1)
    game = Game(id=f.id("id"), name=f.str("name", required=True),
                publisher=f.str("publisher"), year=f.int("year", minimum=1800, maximum=3000),
                rulebook=f.str("rulebook"), ruleset=f.str("ruleset"), root=str(base))
    f.raw("default_candidate")
    for i, item in enumerate(f.list("sides", required=True)):
        s = Fields(item, str(path), f"sides[{i}]", f.line_of("sides"))
        game.locations[("side", len(game.sides))] = (str(path), s.line)
        game.sides.append(Side(id=s.str("id", required=True), name=s.str("name", required=True),
                               colour=s.str("colour", "#c8c8c8"), text_colour=s.str("text_colour", "#000000")))
        s.done()
    style = f.sub("counter_style")
    game.counter_style = CounterStyle(size_inches=style.float("size", 0.625, minimum=0.25, maximum=3.0),
                                      layout=style.str("layout", "standard"),
                                      values=style.str("values", "attack-defence-movement"),
                                      options=dict(style.mapping("options")))
    style.done()
    game.turn_phases = tuple(f.words("phases"))
    game.dice = tuple(f.words("dice")) or ("1d6",)
    game.charts = dict(f.mapping("charts"))
    game.options = dict(f.mapping("options"))
    roots = data_roots(base)
    maps = f.mapping("maps", required=True)
    for map_id in maps:
        maps[map_id] = inside(base, maps[map_id], roots, path=str(path), line=maps.line_of(map_id),
                              field=f"maps.{map_id}")
    for map_id, rel in maps.items():
        m = load_map(_join(base, rel))
        if m.id != map_id:
            raise f.error("maps", f"map file {rel} has id {m.id!r}, but game.yaml names it {map_id!r}")
        game.maps[map_id] = m
    counters_file = inside(base, f.str("counters", "counters.csv"), roots, path=str(path),
                           line=f.line_of("counters"), field="counters")
    game.counters = load_counters(_join(base, counters_file))
    for counter_id, line in getattr(game.counters, "lines", {}).items():
        game.locations[("counter", counter_id)] = (_join(base, counters_file), line)
    scenario_files = [inside(base, rel, roots, path=str(path), line=f.line_of("scenarios"), field="scenarios")
                      for rel in f.words("scenarios")]
    for rel in scenario_files:
        scenario = load_scenario(_join(base, rel), game.maps)
        if scenario.id in game.scenarios:
            raise f.error("scenarios", f"two scenario files have the id {scenario.id!r}")
        game.scenarios[scenario.id] = scenario
    for i, item in enumerate(f.list("decks")):
        game.decks.append(_load_deck(Fields(item, str(path), f"decks[{i}]", f.line_of("decks")), game))
        game.locations[("deck", i)] = (str(path), getattr(item, "line", f.line_of("decks")))
    if f.has("fog_of_war"):
        fog = f.sub("fog_of_war")
        kinds = tuple(fog.words("kinds")) or ("unit", "hq")
        for kind in kinds:
            if kind not in FOG_KINDS:
                raise fog.error("kinds", f"expected counter kinds from {', '.join(FOG_KINDS)}; found {kind!r}")
        game.fog_of_war = FogOfWar(kinds=kinds, note=fog.str("note"), source=fog.source())
        fog.done(["notes"])
    ids = [d.id for d in game.decks]
    for deck_id in {d for d in ids if ids.count(d) > 1}:
        raise f.error("decks", f"two decks have the id {deck_id!r}")
    game.files = {"game": str(path), "counters": _join(base, counters_file),
                  "maps": {k: _join(base, v) for k, v in maps.items()},
                  "scenarios": {sid: _join(base, rel) for sid, rel in zip(game.scenarios, scenario_files)}}
    f.done(["notes"])
    return game


def _load_deck(d: Fields, game: Game) -> Deck:
    """One entry of ``decks:``: where it sits (a box, or a hex of a map) and what it holds."""
    box, map_id = d.str("box"), d.str("map")
    hex = None
    if d.has("hex"):
        map_id = map_id or next(iter(game.maps), None)
        if map_id not in game.maps:
            raise d.error("map", f"no map {map_id!r}; expected one of {', '.join(game.maps) or 'none'}")
        hex = parse_hex(d.raw("hex"), game.maps[map_id].grid, d, "hex")
    elif map_id is not None:
        raise d.error("hex", "a deck on a map needs the hex it sits on")
    if (box is None) == (hex is None):
        raise d.error("box", "a deck sits in exactly one place: give `box` or `hex`")
    send_to = d.str("send_to")
    deck = Deck(id=d.str("id", required=True), name=d.str("name", required=True),
                counters=tuple(d.words("counters")), box=box, map=map_id if hex is not None else None, hex=hex,
                face_down=d.bool("face_down", True), draw_face_up=d.bool("draw_face_up", False),
                shuffle=d.str("shuffle", "always", choices=SHUFFLES),
                shuffle_command=d.str("shuffle_command", "Reshuffle"), return_command=d.str("return_command"),
                send_to=send_to, send_command=d.str("send_command", f"Send all to {send_to}" if send_to else None),
                side=d.str("side"), note=d.str("note"), source=d.source())
    d.done(["notes"])
    return deck


def _dump_deck(deck: Deck, game: Game) -> dict:
    out: dict = {"id": deck.id, "name": deck.name}
    if deck.box is not None:
        out["box"] = deck.box
    else:
        grid = game.maps[deck.map].grid
        if deck.map != next(iter(game.maps)):
            out["map"] = deck.map
        out["hex"] = grid.format(deck.hex)
    out["counters"] = list(deck.counters)
    defaults = Deck(id="", name="")
    for name in ("face_down", "draw_face_up", "shuffle", "shuffle_command", "return_command", "send_to",
                 "send_command", "side", "note"):
        if getattr(deck, name) != getattr(defaults, name):
            out[name] = getattr(deck, name)
    if deck.send_to and deck.send_command == f"Send all to {deck.send_to}":
        out.pop("send_command", None)
    out.update(source_dict(deck.source))
    return out
def data_roots(base: Path) -> list[Path]:
    """The folders the files a game.yaml in ``base`` names may be in: its own folder, and the
    ``maps/`` and ``counters/`` of the data root (and of the tree it sits in, when it sits in a
    ``counters/`` folder as bundled games do)."""
    roots = [base, data_root() / "maps", data_root() / "counters"]
    if base.parent.name == "counters":
        roots += [base.parent, base.parent.parent / "maps"]
    return roots


def _join(base: Path, rel) -> str:
    """A file named relative to game.yaml, without ``..`` so messages show a plain path.

    ``rel`` may already be joined to ``base`` (what ``inside`` returns): it is not joined twice
    (a relative game folder such as ``mygame`` would otherwise read ``mygame/mygame/...``).
    """
    rel = os.path.normpath(str(rel))
    prefix = os.path.normpath(str(base))
    if prefix != "." and (rel == prefix or rel.startswith(prefix + os.sep)):
        return rel
    return os.path.normpath(str(base / rel))


def dump_game(game: Game, folder: str) -> Path:
    """Write ``game`` as a self-contained game folder: game.yaml, maps/, counters.csv, scenarios/."""
    folder_path = Path(folder)
    maps = {}
    for map_id, m in game.maps.items():
        rel = f"maps/{map_id}.yaml"
        dump_map(m, str(folder_path / rel))
        maps[map_id] = rel
    dump_counters(game.counters, str(folder_path / "counters.csv"))
    scenarios = []
    for scenario in game.scenarios.values():
        rel = f"scenarios/{scenario.id}.yaml"
        dump_scenario(scenario, game.maps, str(folder_path / rel))
        scenarios.append(rel)
    options = dict(game.options)
    data = {
        "id": game.id, "name": game.name, "publisher": game.publisher, "year": game.year,
        "rulebook": game.rulebook, "ruleset": game.ruleset,
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "text_colour": s.text_colour}
                  for s in game.sides],
        "counter_style": {"size": game.counter_style.size_inches, "layout": game.counter_style.layout,
                          "values": game.counter_style.values, "options": game.counter_style.options},
        "phases": list(game.turn_phases), "dice": list(game.dice), "charts": game.charts, "options": options,
        "maps": maps, "counters": "counters.csv", "scenarios": scenarios,
        "decks": [_dump_deck(d, game) for d in game.decks],
        "fog_of_war": ({"kinds": list(game.fog_of_war.kinds), "note": game.fog_of_war.note,
                        **source_dict(game.fog_of_war.source)} if game.fog_of_war else None),
    }
    data = {k: v for k, v in data.items() if v not in (None, [], {})}
    out = folder_path / "game.yaml"
    write_text(str(out), dump_yaml(data))
    return out
