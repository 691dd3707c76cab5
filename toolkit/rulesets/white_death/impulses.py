"""The impulse budget (Rule 5): each side has 10 MP a turn and spends them in impulses of 1 to
10 MP that alternate between the sides, the Soviet side first; a side with MP left takes its
impulses one after another once the other has none. Plain data kept in ``Position.state``
under ``impulses`` so that a position file carries it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import RulesError
from ...referee import Position, Reason
from ...referee.reasons import Code

SIDES = ("soviet", "german")
FIRST = "soviet"          # Rule 5: the Soviet side always takes the first impulse


@dataclass(frozen=True)
class Budget:
    """MP left per side this turn and the impulses declared so far, in order."""

    left: dict = field(default_factory=lambda: {"soviet": 10, "german": 10})
    impulses: tuple = ()          # ((side, mp), ...)
    per_turn: int = 10

    # -- questions -----------------------------------------------------------------------

    def next_side(self) -> str | None:
        """Whose impulse comes next: the Soviet first, then alternating; a side out of MP is
        skipped; None when both are out (the turn ends)."""
        open_sides = [s for s in SIDES if self.left[s] > 0]
        if not open_sides:
            return None
        if len(open_sides) == 1:
            return open_sides[0]
        if not self.impulses:
            return FIRST
        last = self.impulses[-1][0]
        return "german" if last == "soviet" else "soviet"

    @property
    def current(self) -> tuple[str, int] | None:
        """The impulse in progress (the last declared), or None before the first."""
        return self.impulses[-1] if self.impulses else None

    def count(self, side: str) -> int:
        """How many impulses ``side`` has taken this turn."""
        return sum(1 for s, _ in self.impulses if s == side)

    def may_assault(self, side: str) -> Reason | None:
        """Rule 5: the Soviet must spend 3 MP, or all MP he has left, in an impulse to
        assault in it; the German may assault with 1 MP (notes case 55)."""
        cur = self.current
        if cur is None or cur[0] != side:
            return Reason(Code.CUSTOM, "5", f"no {side} impulse is in progress", None, ())
        if side != "soviet":
            return None
        mp = cur[1]
        had = self.left[side] + mp
        if mp >= 3 or mp == had:
            return None
        return Reason(Code.CUSTOM, "5", f"a Soviet impulse of {mp} MP (of {had} left) may not assault: "
                      "the Soviet must expend 3 MP or all remaining MP", None, ())

    def reinforcements_turn(self, side: str, turn: int) -> int:
        """Rule 17: a turn's reinforcements appear at the start of the side's second impulse,
        or next turn if its first impulse spent all 10 MP (notes case 56)."""
        own = [mp for s, mp in self.impulses if s == side]
        return turn + 1 if own and own[0] >= self.per_turn else turn

    # -- changes ---------------------------------------------------------------------------

    def declare(self, side: str, mp: int, passing: bool = False) -> "Budget":
        """The budget after ``side`` declares an impulse of ``mp`` MP (Decision Phase); a pass
        (``passing``) may cost 0 MP when the rule option says so."""
        if side not in SIDES:
            raise RulesError(f"unknown side {side!r}; the sides are {', '.join(SIDES)}")
        expected = self.next_side()
        if expected is None:
            raise RulesError("both sides have spent their MP: the turn is over (Rule 5)")
        if side != expected:
            raise RulesError(f"it is the {expected} side's impulse, not the {side} side's (Rule 5)")
        if isinstance(mp, bool) or not isinstance(mp, int) or not (0 if passing else 1) <= mp <= self.per_turn:
            raise RulesError(f"an impulse spends 1 to {self.per_turn} MP, not {mp!r} (Rule 5)")
        if mp > self.left[side]:
            raise RulesError(f"the {side} side has only {self.left[side]} MP left this turn, not {mp} (Rule 5)")
        return Budget({**self.left, side: self.left[side] - mp}, (*self.impulses, (side, mp)), self.per_turn)

    def new_turn(self) -> "Budget":
        return Budget({s: self.per_turn for s in SIDES}, (), self.per_turn)

    # -- state -------------------------------------------------------------------------------

    def to_state(self) -> dict:
        return {"left": dict(self.left), "impulses": [[s, mp] for s, mp in self.impulses]}

    @classmethod
    def from_state(cls, data: dict | None, per_turn: int = 10) -> "Budget":
        if not data:
            return cls({s: per_turn for s in SIDES}, (), per_turn)
        try:
            left = {s: int(data.get("left", {}).get(s, per_turn)) for s in SIDES}
            impulses = tuple((str(s), int(mp)) for s, mp in data.get("impulses", []))
        except (AttributeError, TypeError, ValueError):
            raise RulesError("state.impulses: expected {left: {soviet: N, german: N}, impulses: [[side, MP], ...]}") \
                from None
        for s, n in left.items():
            if not 0 <= n <= per_turn:
                raise RulesError(f"state.impulses.left.{s}: {n} is not 0 to {per_turn}")
        for n, (s, mp) in enumerate(impulses):
            if s not in SIDES or not 0 <= mp <= per_turn:
                raise RulesError(f"state.impulses.impulses[{n}]: expected [soviet|german, 0-{per_turn}], "
                                 f"not [{s}, {mp}]")
        return cls(left, impulses, per_turn)


def budget_of(pos: Position) -> Budget:
    """The impulse budget a position carries (a fresh turn if none)."""
    per_turn = int(pos.game.options.get("mp_per_turn", 10))
    return Budget.from_state(pos.state.get("impulses"), per_turn)


def set_budget(pos: Position, budget: Budget) -> None:
    pos.state["impulses"] = budget.to_state()
    pos.touch()
