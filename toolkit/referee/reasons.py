"""Why the referee says no: a machine-readable code plus rule, hex, unit and human text."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..errors import IllegalMoveError
from ..hexes import Hex


class Code(str, Enum):
    """Every kind of refusal the shared parts can give; a ruleset may also use ``CUSTOM``."""

    OFF_MAP = "off-map"
    NOT_ADJACENT = "not-adjacent"
    NOT_ON_MAP = "not-on-map"                  # the unit is in a box or eliminated
    UNKNOWN_UNIT = "unknown-unit"
    CANNOT_MOVE = "cannot-move"                # status forbids movement (isolated, pinned...)
    NOT_ENOUGH_MP = "not-enough-mp"
    PROHIBITED_TERRAIN = "prohibited-terrain"
    PROHIBITED_HEXSIDE = "prohibited-hexside"
    ENEMY_OCCUPIED = "enemy-occupied"
    ZOC_STOP = "zoc-stop"                      # moving on after entering an enemy ZOC
    MOVE_ENDED = "move-ended"                  # moving on after a step that ends the move (minimum move)
    ZOC_TO_ZOC = "zoc-to-zoc"                  # directly from one enemy ZOC hex to another
    ZOC_ENTRY = "zoc-entry"                    # this move (mode) may not enter enemy ZOC at all
    ZOC_STICKY = "zoc-sticky"                  # may not leave enemy ZOC
    MODE_ROAD_ONLY = "mode-road-only"          # the movement mode must follow a road
    MODE_NOT_ALLOWED = "mode-not-allowed"      # the movement mode is not allowed now/for this unit
    STACK_SPLIT = "stack-split"                # units moving together did not start together
    STACKING_LIMIT = "stacking-limit"
    STACKING_COMPOSITION = "stacking-composition"
    STACKING_ENEMY = "stacking-enemy"          # friendly and enemy units in one hex
    SUPPLY_NONE = "supply-none"                # no supply path
    LOS_BLOCKED = "los-blocked"
    SETUP_AREA = "setup-area"                  # a unit set up outside its scenario's area
    NO_DEFENDER = "no-defender"                # no enemy unit in the hex attacked
    CANNOT_ATTACK = "cannot-attack"            # the unit may not attack (status, no strength, side)
    ODDS_TOO_LOW = "odds-too-low"              # initial odds below the game's minimum
    SUPPORT_REFUSED = "support-refused"        # a support may not be given to this combat
    RETREAT_BLOCKED = "retreat-blocked"        # no retreat path: the units are eliminated
    COMBAT_CHOICE = "combat-choice"            # an owner's choice of losses is missing or does not fit the result
    RETREAT_ILLEGAL = "retreat-illegal"        # the retreat end hex named is not a legal end
    ADVANCE_ILLEGAL = "advance-illegal"        # an advance after combat the rules do not allow
    CUSTOM = "custom"


@dataclass(frozen=True)
class Reason:
    """One refusal: ``code``, the rule cited (e.g. ``"T.6"``), where, who, and a sentence.

    ``hex`` is the hex where the rule bites (the hex entered, the over-stacked hex); ``units``
    names the units concerned (one mover, or the units of a stack).
    """

    code: Code
    rule: str | None
    text: str
    hex: Hex | None = None
    units: tuple[str, ...] = ()

    def to_dict(self, fmt=None) -> dict:
        """JSON form; ``fmt`` formats a hex as its printed id (default ``"col,row"``)."""
        where = None
        if self.hex is not None:
            where = fmt(self.hex) if fmt else f"{self.hex[0]},{self.hex[1]}"
        return {"code": self.code.value, "rule": self.rule, "hex": where,
                "units": list(self.units), "text": self.text}

    def __str__(self) -> str:
        rule = f" [rule {self.rule}]" if self.rule else ""
        return f"{self.text}{rule}"


def refusal(code: Code, rule, text: str, hex=None, units=()) -> IllegalMoveError:
    """The error to raise for one refusal: its :class:`Reason` as message and ``reasons``."""
    reason = Reason(code, rule, text, hex, tuple(units))
    return IllegalMoveError(str(reason), [reason])
