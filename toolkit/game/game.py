"""A whole game: maps, sides, counters, scenarios and the ruleset that referees it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .counters import Counter, Side
from .deck import Deck
from .map import Map
from .provenance import UNSOURCED, Source
from .scenario import Scenario

#: Counter kinds a fog of war may hide.
FOG_KINDS = ("unit", "hq", "leader")


@dataclass(frozen=True)
class FogOfWar:
    """What the VASSAL module hides from the other side: each counter of ``kinds`` gets a Mask
    that its owner sets and the opponent cannot lift; the opponent then sees a blank of the
    side's colour. ``note`` says when the rules let a player look (shown in the module's help).
    """

    kinds: tuple[str, ...] = ("unit", "hq")
    note: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class CounterStyle:
    """How a game's counters look: size, layout name and value formats (data, not code)."""

    size_inches: float = 0.625
    layout: str = "standard"
    values: str = "attack-defence-movement"
    options: dict = field(default_factory=dict)


@dataclass
class Game:
    """Everything one game definition holds."""

    id: str
    name: str
    sides: list[Side] = field(default_factory=list)
    maps: dict[str, Map] = field(default_factory=dict)
    counters: dict[str, Counter] = field(default_factory=dict)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    ruleset: str | None = None
    publisher: str | None = None
    year: int | None = None
    rulebook: str | None = None
    counter_style: CounterStyle = field(default_factory=CounterStyle)
    turn_phases: tuple[str, ...] = ()
    dice: tuple[str, ...] = ("1d6",)
    charts: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    #: Cups and piles of counters drawn at random (command chits...), in file order.
    decks: list[Deck] = field(default_factory=list)
    #: Hidden units in the module (None: every counter shows its face to both sides).
    fog_of_war: FogOfWar | None = None
    #: The folder the game was read from; not part of equality (a copy elsewhere is the same game).
    root: str | None = field(default=None, compare=False)
    #: The files the game was read from (game, maps, counters, scenarios); not part of equality.
    files: dict = field(default_factory=dict, compare=False, repr=False)
    #: Where each datum was read from, ``key -> (file, line)`` (``("counter", id)``...).
    locations: dict = field(default_factory=dict, compare=False, repr=False)

    def side(self, side_id: str) -> Side | None:
        for side in self.sides:
            if side.id == side_id:
                return side
        return None

    @property
    def main_map(self) -> Map:
        """The first map (most games have one)."""
        return next(iter(self.maps.values()))

    def scenario(self, scenario_id: str | None = None) -> Scenario:
        """A scenario by id, or the first one."""
        if scenario_id is None:
            return next(iter(self.scenarios.values()))
        return self.scenarios[scenario_id]
