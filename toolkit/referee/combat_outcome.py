"""What :func:`~toolkit.referee.apply_combat` returns: the new position, the steps lost, the
eliminations, retreats, advances, the rolls of the retreat options, and the log."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hexes import Hex
from .combat import CombatRoll
from .position import Position
from .reasons import Reason

__all__ = ["CombatOutcome"]


@dataclass
class CombatOutcome:
    """A combat applied: the new ``position``, the ``roll``, the steps each unit lost
    (``losses``, ZOC steps of a retreat included), the ``eliminated`` units, each retreating
    unit's path (start first), each advancing unit's hex, and the ``log`` lines."""

    position: Position
    roll: CombatRoll
    losses: dict[str, int] = field(default_factory=dict)
    eliminated: list[str] = field(default_factory=list)
    retreats: dict[str, list[Hex]] = field(default_factory=dict)
    advances: dict[str, Hex] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    #: stacking violations left for the end of the phase (``RetreatRules.stacking_end`` "phase")
    stacking: list[Reason] = field(default_factory=list)
    #: role -> its No Retreat roll (:class:`~toolkit.referee.combat_options.NoRetreatRoll`)
    no_retreat: dict = field(default_factory=dict)
    #: role -> its roll to retreat through an enemy ZOC (the same class)
    zoc_retreat: dict = field(default_factory=dict)
    #: the defender's Retreat Before Combat roll (the same class), None when not tried
    before_combat: object = None
    #: unit -> the Map Box it retreated into (``RetreatRules.box_rule``, Demyansk 12.32)
    boxes: dict = field(default_factory=dict)

    def steps_lost(self) -> int:
        """Steps that left the map: every step lost plus the steps of the eliminated units."""
        return sum(self.losses.values())

    def to_dict(self, fmt) -> dict:
        return {"roll": self.roll.to_dict(), "losses": dict(self.losses), "eliminated": list(self.eliminated),
                "retreats": {u: [fmt(h) for h in p] for u, p in self.retreats.items()},
                "advances": {u: fmt(h) for u, h in self.advances.items()}, "log": list(self.log),
                "stacking": [r.to_dict(fmt) for r in self.stacking],
                "no_retreat": {role: {"roll": t.roll, "drm": t.drm, "modified": t.modified, "outcome": t.outcome,
                                      "steps": t.steps, "rule": t.rule} for role, t in self.no_retreat.items()},
                "zoc_retreat": {role: {"roll": t.roll, "drm": t.drm, "modified": t.modified, "outcome": t.outcome,
                                       "rule": t.rule} for role, t in self.zoc_retreat.items()},
                "boxes": dict(self.boxes),
                "before_combat": None if self.before_combat is None else {
                    "roll": self.before_combat.roll, "drm": self.before_combat.drm,
                    "modified": self.before_combat.modified, "outcome": self.before_combat.outcome,
                    "rule": self.before_combat.rule}}
