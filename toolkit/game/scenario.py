"""Scenarios: turns, weather, set-up, reinforcements and rule options."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hexes import Hex
from .provenance import UNSOURCED, Source


@dataclass(frozen=True)
class Placement:
    """Counters placed together on one hex or in one box at set-up or on arrival.

    ``units`` are counter ids (a counter with ``count > 1`` may be placed that many times).
    ``state`` is a set-up state for every unit listed ("reduced", "cadre", "untried"...).
    """

    units: tuple[str, ...]
    hex: Hex | None = None
    box: str | None = None
    map: str | None = None
    state: str | None = None
    hexes: tuple[Hex, ...] = ()
    source: Source = UNSOURCED


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

    def arriving_units(self) -> list[str]:
        return [u for r in self.reinforcements for u in r.units]
