"""Combat arithmetic the text gives (1.3, 9.2-9.3, 13.2): halving and quartering rounded down
after adding a stack's strengths, the odds column rounded down, shifts in the rule's order, the
legality of an attack, and the dice of each side. The CRT body is estimated data in game.yaml
``charts.combat_results`` (branch combat's CombatRules reads it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor
from typing import Iterable

#: CRT columns (9.3.2-9.3.6): no column below 1-1, 10-1 for anything higher.
COLUMNS = ("1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1")


def halve(value: int | Fraction) -> int:
    """Half, rounded down (1.3): 5 -> 2."""
    return floor(Fraction(value) / 2)


def quarter(value: int | Fraction) -> int:
    """A quarter, rounded down (1.3): 3 -> 0."""
    return floor(Fraction(value) / 4)


def stack_strength(strengths: Iterable[int], halvings: int = 0) -> int:
    """Strengths of units in one hex sharing one modifier: added up, then halved ``halvings``
    times, rounded down once (1.3, 9.3.1: two 3s halved are 3, not 2)."""
    total = Fraction(sum(strengths))
    return floor(total / 2 ** halvings)


def odds_column(attack: int | Fraction, defence: int | Fraction) -> int | None:
    """Column index of the ratio rounded down to a CRT column (9.3.2); None below 1-1.

    A defence of 0 is the 10-1 column (9.3.7).
    """
    attack, defence = Fraction(attack), Fraction(defence)
    if defence <= 0:
        return len(COLUMNS) - 1
    ratio = attack / defence
    if ratio < 1:
        return None
    if ratio < Fraction(3, 2):
        return 0
    if ratio < 2:
        return 1
    return min(floor(ratio), 10)


@dataclass(frozen=True)
class ColumnResult:
    """The final column of an attack, or why it is not possible; ``steps`` explains each shift."""

    legal: bool
    column: str | None
    odds: str | None
    steps: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {"legal": self.legal, "column": self.column, "odds": self.odds, "steps": list(self.steps)}


def combat_column(attack: int, defence: int, *, terrain_shifts: int = 0, stuka: str | None = None,
                  timoshenko: bool = False, turn1_german: bool = False) -> ColumnResult:
    """The CRT column after shifts in the rulebook's order.

    Terrain shifts left first (9.3.3); below 1-1 after them the attack is not possible (9.3.6);
    then a Stuka, 2 right attacking or 2 left defending (9.3.4); Timoshenko 1 right (9.3.5); the
    German turn-1 bonus 2 right, after all others (9.3.5); capped at 10-1 (9.3.6). A defence
    rounded down to 0 is resolved on 10-1 without terrain shifts (9.3.7). Below 1-1 after a
    defensive Stuka is clamped to 1-1 (estimated: the text has no lower column; notes 14.4.2).
    """
    base = odds_column(attack, defence)
    if base is None:
        return ColumnResult(False, None, None, (f"{attack}:{defence} is below 1-1: no attack (9.3.2, 9.3.6)",))
    steps = [f"{attack}:{defence} is {COLUMNS[base]} (9.3.2)"]
    col = base
    if Fraction(defence) <= 0:
        steps.append("defence 0: the 10-1 column, terrain ignored (9.3.7)")
    elif terrain_shifts:
        col -= terrain_shifts
        if col < 0:
            steps.append(f"{terrain_shifts} terrain shift(s) left: below 1-1, the attack is not possible (9.3.6)")
            return ColumnResult(False, None, COLUMNS[base], tuple(steps))
        steps.append(f"{terrain_shifts} left for terrain: {COLUMNS[col]} (9.3.3)")
    if stuka == "attack":
        col += 2
        steps.append("Stuka attacking: 2 right (9.3.4)")
    elif stuka == "defence":
        col -= 2
        steps.append("Stuka defending: 2 left (9.3.4)")
    if timoshenko:
        col += 1
        steps.append("Timoshenko activation: 1 right (9.3.5)")
    if turn1_german:
        col += 2
        steps.append("German attack on turn 1: 2 right, after all others (9.3.5)")
    if col > len(COLUMNS) - 1:
        col = len(COLUMNS) - 1
        steps.append("capped at 10-1 (9.3.6)")
    if col < 0:
        col = 0
        steps.append("clamped to 1-1 (estimated: no column below 1-1)")
    return ColumnResult(True, COLUMNS[col], COLUMNS[base], tuple(steps))


def attack_die(side: str) -> int:
    """Sides of the attacker's combat die: d6 German, d10 Soviet (9.2)."""
    return 6 if side == "german" else 10


def art_attacks(roll: int) -> int:
    """Soviet artillery attacks from the ART chit's d6: half the roll, rounded down (13.2)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1-6, not {roll}")
    return halve(roll)
