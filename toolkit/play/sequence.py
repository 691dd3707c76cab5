"""The sequence of play: which side acts in which phase of a turn, read from the game's data.

A game lists its phases in ``game.yaml`` (``phases:``). Where a phase's name names a side
("Soviet movement"), that side acts in it and the list is one whole game turn; where no phase
names a side ("Movement", "Combat"), the list is one side's player turn and is repeated for
every side, the scenario's first side first. A game with no phases gets one "Movement" and
one "Combat" phase per side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..game import Game

__all__ = ["Stage", "stages", "next_stage", "named_side", "is_movement", "is_combat", "is_supply"]

_DEFAULT_PHASES = ("Movement", "Combat")


@dataclass(frozen=True)
class Stage:
    """One phase of one turn: the turn number, the side that acts, and the phase's name."""

    turn: int
    side: str | None
    phase: str

    def to_dict(self) -> dict:
        return {"turn": self.turn, "side": self.side, "phase": self.phase}


def named_side(game: Game, phase: str) -> str | None:
    """The side a phase's name names ("Soviet movement" -> "soviet"), or None."""
    words = set(re.findall(r"[a-z0-9-]+", phase.lower()))
    for side in game.sides:
        if side.id.lower() in words or (side.name and side.name.lower() in words):
            return side.id
    return None


def stages(game: Game, first_side: str | None) -> list[tuple[str | None, str]]:
    """One game turn as ``(side, phase)`` pairs, in order."""
    phases = list(game.turn_phases) or list(_DEFAULT_PHASES)
    sides = [s.id for s in game.sides]
    if first_side in sides:
        sides = sides[sides.index(first_side):] + sides[:sides.index(first_side)]
    named = [named_side(game, p) for p in phases]
    if any(named):
        out, side = [], sides[0] if sides else None
        for phase, who in zip(phases, named):
            side = who or side
            out.append((side, phase))
        return out
    return [(side, phase) for side in (sides or [None]) for phase in phases]


def next_stage(game: Game, first_side: str | None, stage: Stage) -> Stage:
    """The stage after ``stage`` (the next turn's first stage after the last one)."""
    order = stages(game, first_side)
    try:
        i = order.index((stage.side, stage.phase))
    except ValueError:     # a phase this game does not list (a loaded position): start the turn
        i = len(order) - 1
    if i + 1 < len(order):
        side, phase = order[i + 1]
        return Stage(stage.turn, side, phase)
    side, phase = order[0]
    return Stage(stage.turn + 1, side, phase)


#: Phases of activation games (chit-pull, formation activation) where units both move and fight.
_ACTIVATION = r"activation|execution"


def is_movement(phase: str | None) -> bool:
    """Units move in this phase (its name says movement; "Strategic" movement, exploitation and
    the activation of chit-pull games count too)."""
    return bool(phase) and re.search(rf"mov|strategic|exploit|{_ACTIVATION}", phase, re.I) is not None


def is_combat(phase: str | None) -> bool:
    """Units attack in this phase (its name says combat or attack, or it is an activation)."""
    return bool(phase) and re.search(rf"combat|attack|assault|{_ACTIVATION}", phase, re.I) is not None


def is_supply(phase: str | None) -> bool:
    return bool(phase) and re.search(r"supply", phase, re.I) is not None
