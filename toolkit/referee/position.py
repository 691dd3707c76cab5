"""A position: units on hexes and in boxes with their state, plus side, phase, weather, turn.

Positions are plain data. Change units through :meth:`Position.place` (or call
:meth:`Position.touch` after editing a :class:`Unit` directly) so that derived data the
referee caches per position (occupancy, zones of control) is rebuilt.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..errors import RulesError
from ..game import Counter, Game, Map
from ..hexes import Hex


@dataclass
class Unit:
    """One unit in play: a counter instance with where it is and what state it is in.

    ``steps`` are the steps left (full strength is ``counter.steps``); ``status`` holds status
    markers ("out_of_supply", "isolated", "exploit", "pinned", ...); ``supply`` counts the
    consecutive failed supply checks so far; ``mode`` is a movement mode in effect from an
    earlier move (e.g. "road" under a road-move marker).
    """

    id: str
    counter: Counter
    side: str | None
    hex: Hex | None = None
    box: str | None = None
    steps: int | None = None
    status: set = field(default_factory=set)
    moved: bool = False
    mode: str | None = None
    supply: int = 0

    def __post_init__(self) -> None:
        if self.steps is None:
            self.steps = self.counter.steps

    @property
    def reduced(self) -> bool:
        return self.steps < self.counter.steps

    @property
    def type(self) -> str:
        return self.counter.type

    def value(self, name: str, default=None):
        """A printed value, from the back side when the unit is reduced and the back has it."""
        if self.reduced and name in self.counter.back:
            return self.counter.back[name]
        return self.counter.front.get(name, default)


@dataclass
class Position:
    """Units of a game on one map at one moment of play."""

    game: Game
    map_id: str
    units: dict[str, Unit] = field(default_factory=dict)
    side: str | None = None
    phase: str | None = None
    weather: str | None = None
    turn: int | None = None
    scenario: str | None = None
    #: Game state a ruleset keeps beyond the units (plain data: an impulse budget, bridges
    #: built or blown...), carried by a position file's ``state:``.
    state: dict = field(default_factory=dict)
    #: Known answers carried by a position file (``expect:``), for tests.
    expect: dict = field(default_factory=dict, compare=False)
    #: Bumped on every change; the referee keys its caches on it.
    version: int = field(default=0, compare=False)
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def map(self) -> Map:
        return self.game.maps[self.map_id]

    @property
    def current_weather(self) -> str:
        return self.weather or self.map.weathers[0]

    def unit(self, unit_id: str) -> Unit:
        """The unit with id ``unit_id``; :class:`RulesError` naming close ids if unknown."""
        try:
            return self.units[unit_id]
        except KeyError:
            near = [u for u in self.units if unit_id.lower() in u.lower()][:5]
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise RulesError(f"no unit {unit_id!r} in this position{hint}") from None

    def units_of(self, unit_ids) -> list[Unit]:
        """The units named by ``unit_ids``: one id or several (a stack)."""
        if isinstance(unit_ids, str):
            unit_ids = [unit_ids]
        return [self.unit(u) for u in unit_ids]

    def touch(self) -> None:
        """Forget derived data after units were edited in place."""
        self.version += 1
        self._cache.clear()

    def cached(self, kind: str, rs, side, build):
        """Derived data of this position for ruleset ``rs`` (built once until the next change).

        Keyed by the ruleset object itself, so two rulesets of one name never share data."""
        key = (kind, id(rs), side)
        entry = self._cache.get(key)
        if entry is None or entry[0] is not rs:
            entry = (rs, build())
            self._cache[key] = entry
        return entry[1]

    def place(self, unit_id: str, hex: Hex | None = None, box: str | None = None) -> None:
        """Put a unit on ``hex`` (or in ``box``, or off the map with neither)."""
        unit = self.unit(unit_id)
        if hex is not None and hex not in self.map.grid:
            raise RulesError(f"hex {self.map.format(hex)} is not on map {self.map_id}")
        old = unit.hex
        unit.hex, unit.box = hex, (None if hex is not None else box)
        # derived data that can follow one move (ZOC arrays) is updated, not rebuilt
        keep = [(key, entry) for key, entry in self._cache.items()
                if isinstance(entry, tuple) and len(entry) == 2 and hasattr(entry[1], "follow")]
        self.touch()
        for key, (rs, value) in keep:
            if value.follow(self, unit, old):
                self._cache[key] = (rs, value)

    def on_map(self, side: str | None = None) -> list[Unit]:
        """Units on hexes (of ``side`` if given), in id order."""
        return [u for u in self.units.values() if u.hex is not None and (side is None or u.side == side)]

    def at(self, hex: Hex) -> list[Unit]:
        """Units on ``hex`` (markers included)."""
        return self.occupancy().get(hex, [])

    def occupancy(self) -> dict[Hex, list[Unit]]:
        """Hex -> units on it, cached until the position changes."""
        occ = self._cache.get("occupancy")
        if occ is None:
            occ = {}
            for unit in self.units.values():
                if unit.hex is not None:
                    occ.setdefault(unit.hex, []).append(unit)
            self._cache["occupancy"] = occ
        return occ

    def sides(self) -> list[str]:
        return [s.id for s in self.game.sides]

    def enemies_of(self, side: str | None) -> list[str]:
        return [s for s in self.sides() if s != side]

    def copy(self) -> "Position":
        """An independent copy (units copied, game shared)."""
        units = {k: Unit(id=u.id, counter=u.counter, side=u.side, hex=u.hex, box=u.box, steps=u.steps,
                         status=set(u.status), moved=u.moved, mode=u.mode, supply=u.supply)
                 for k, u in self.units.items()}
        return Position(game=self.game, map_id=self.map_id, units=units, side=self.side, phase=self.phase,
                        weather=self.weather, turn=self.turn, scenario=self.scenario,
                        state=copy.deepcopy(self.state))


def counter_of(game: Game, unit_id: str) -> Counter | None:
    """The counter of a unit id: the id itself, or ``counter#n`` for the n-th copy."""
    counter = game.counters.get(unit_id)
    if counter is None and "#" in unit_id:
        counter = game.counters.get(unit_id.rsplit("#", 1)[0])
    return counter


def position_from_scenario(game: Game, scenario: str | None = None, turn: int | None = None,
                           side: str | None = None) -> Position:
    """The position of a scenario's set-up at ``turn`` (default the first turn).

    Units placed on a hex are on the map; units in a box are in it; reinforcements of turns up
    to ``turn`` are placed on their (first) entry hex or box, later ones are left out. Copies
    of a counter placed more than once get ids ``counter#2``, ``counter#3``...
    """
    if not game.scenarios:
        where = game.files.get("game", game.id)
        raise RulesError(f"{where}: scenarios: game {game.id} has no scenario to set up (give a position "
                         f"file with -p instead)")
    if scenario is not None and scenario not in game.scenarios:
        raise RulesError(f"game {game.id} has no scenario {scenario!r}; it has {', '.join(game.scenarios)}")
    scen = game.scenario(scenario)
    first_turn = scen.turns[0].number if scen.turns else 1
    turn = first_turn if turn is None else turn
    map_id = scen.map or next(iter(game.maps))
    pos = Position(game=game, map_id=map_id, side=side or scen.first_side, turn=turn,
                   weather=scen.weather(turn), scenario=scen.id)
    seen: dict[str, int] = {}

    def add(counter_id: str, hex: Hex | None, box: str | None, state: str | None) -> None:
        counter = game.counters.get(counter_id)
        if counter is None:
            raise RulesError(f"scenario {scen.id} places unknown counter {counter_id!r}")
        seen[counter_id] = seen.get(counter_id, 0) + 1
        uid = counter_id if seen[counter_id] == 1 else f"{counter_id}#{seen[counter_id]}"
        unit = Unit(id=uid, counter=counter, side=counter.side, hex=hex, box=box)
        if state in ("reduced", "cadre", "depleted"):
            unit.steps = max(1, counter.steps - 1)
        elif state:
            unit.status.add(state)
        pos.units[uid] = unit

    for placement in scen.setup:
        if placement.map not in (None, map_id):
            continue
        for cid in placement.units:
            hex = placement.hex or (placement.hexes[0] if placement.hexes else None)
            add(cid, hex, None if hex else placement.box, placement.state)
    for rf in scen.reinforcements:
        if rf.turn <= turn and rf.map in (None, map_id):
            for cid in rf.units:
                add(cid, rf.entry[0] if rf.entry else None, None if rf.entry else rf.box, None)
    return pos
