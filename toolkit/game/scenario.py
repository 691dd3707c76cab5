"""Scenarios: turns, weather, set-up, reinforcements and rule options."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hexes import Hex
from .areas import SetupArea
from .provenance import UNSOURCED, Source


@dataclass(frozen=True)
class Placement:
    """Counters placed together on one hex or in one box at set-up or on arrival.

    ``units`` are counter ids (a counter with ``count > 1`` may be placed that many times).
    ``state`` is a set-up state for every unit listed ("reduced", "cadre", "untried"...).
    ``area`` is where the rules let them set up; ``hex`` is then the hex chosen in it.
    """

    units: tuple[str, ...]
    hex: Hex | None = None
    box: str | None = None
    map: str | None = None
    state: str | None = None
    hexes: tuple[Hex, ...] = ()
    source: Source = UNSOURCED
    area: SetupArea | None = None


@dataclass(frozen=True)
class Reinforcement:
    """Counters that arrive on a turn, at an entry hex (or any of several) or in a box."""

    turn: int
    side: str
    units: tuple[str, ...]
    entry: tuple[Hex, ...] = ()
    box: str | None = None
    map: str | None = None
    note: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class DeckStart:
    """Where a scenario puts some of the counters of the game's decks at the start: in deck
    ``deck``, or waiting in box ``box`` (a player's hand); with ``turn``, waiting on the turn
    track and going into the deck on that turn (a battalion's chit that comes with it). With
    ``pick``, only that many of the listed counters' copies, chosen at random when the module
    is built (the others are not in the game): "place 30 random blue chits in the cup"."""

    deck: str | None
    counters: tuple[str, ...]
    turn: int | None = None
    box: str | None = None
    pick: int | None = None
    note: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class Turn:
    """One game turn with its date and weather."""

    number: int
    date: str | None = None
    weather: str | None = None
    source: Source = UNSOURCED


@dataclass
class Scenario:
    """One playable situation of a game."""

    id: str
    name: str
    turns: list[Turn] = field(default_factory=list)
    first_side: str | None = None
    map: str | None = None
    setup: list[Placement] = field(default_factory=list)
    reinforcements: list[Reinforcement] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    #: The decks' contents at the start (empty: every deck holds all its counters). A named deck
    #: holds what its entries list; a deck no entry names its own counters less those listed
    #: elsewhere; a counter of a named deck that no entry lists is set aside (not in the game).
    decks: list[DeckStart] = field(default_factory=list)
    victory: str | None = None
    notes: str | None = None
    source: Source = UNSOURCED
    #: Where each datum was read from, ``key -> (file, line)``, for messages; not part of equality.
    locations: dict = field(default_factory=dict, compare=False, repr=False)

    def weather(self, turn: int) -> str | None:
        for t in self.turns:
            if t.number == turn:
                return t.weather
        return None

    def placed_units(self) -> list[str]:
        """Every counter id the set-up places, with repeats."""
        return [u for p in self.setup for u in p.units]

    def unit_hexes(self, map_id: str | None = None) -> dict[str, Hex]:
        """The hex each counter sets up on (its first placement) on ``map_id`` (default: the
        scenario's map); what a set-up area "within N hexes of a unit" measures from."""
        out: dict[str, Hex] = {}
        for p in self.setup:
            if (p.map or self.map) == (map_id or self.map) and p.hex is not None:
                for unit in p.units:
                    out.setdefault(unit, p.hex)
        return out

    def arriving_units(self) -> list[str]:
        return [u for r in self.reinforcements for u in r.units]
