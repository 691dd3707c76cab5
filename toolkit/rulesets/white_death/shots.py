"""The exact outcome of fire at each target unit, and of all of them together (Rules 9-11, 14).

Targets are resolved one at a time in the order given ("each unit targeted within it, one at a
time", Resolve): the fire table's die, the half-strength cap (9 C.4, 11 B.2.b), elimination,
then the morale check the result calls for (14 A, tank fright 14 C.2) with the hex's running
count of routed and eliminated units (14 C.4, 14 C.7). The chain is summed exactly over every
die, so each target's outcome distribution and the whole fire's (strength points lost, units
out of the fight) are Fractions adding up to 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...referee.combat_chart import dice_distribution
from . import units as U
from .fire import is_garrison
from .fire_tables import FireResult, FireTable
from .morale import FAIL_EFFECT, check_odds, morale_check

__all__ = ["Outcome", "Shot", "chain", "outcome_of"]


@dataclass(frozen=True)
class Outcome:
    """What one target suffers: the table ``cell``, strength points ``lost`` (the rout's
    included), the morale ``check`` ("pass", "fail", "rout", "exempt" or None), the hexes it
    ``retreat``s, whether it is ``eliminated`` and whether it is ``out`` of the fight (left
    the hex, or may not assault / fire defensively)."""

    text: str
    cell: str
    lost: int = 0
    check: str | None = None
    retreat: int = 0
    eliminated: bool = False
    out: bool = False


@dataclass
class Shot:
    """Fire at one target unit: the table, the fire value and defence value, the column read,
    the die-roll modifier, the modifiers behind them; ``outcomes`` is filled by :func:`chain`."""

    unit: object
    kind: str                       # conventional, antitank, barrage, morale (tank fright alone)
    table: FireTable | None
    fire: Fraction = Fraction(0)
    defence: Fraction | None = None
    column: int | None = None
    attacks: tuple = ()             # barrage: the columns of the attacks run on the hex
    drm: int = 0
    modifiers: list = field(default_factory=list)
    firers: tuple = ()
    fright: bool = False
    isolated: bool = False
    assaulting: bool = False        # the target is an assaulting unit (defensive fire)
    outcomes: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)

    @property
    def ratio(self) -> str:
        if self.table is None:
            return "-"
        if self.kind == "barrage":
            return " + ".join(self.table.columns[c] if c is not None else "0" for c in self.attacks) or "-"
        return self.table.ratio_text(self.fire, self.defence)

    @property
    def column_text(self) -> str | None:
        if self.table is None:
            return None
        if self.kind == "barrage":
            return self.ratio
        return self.table.columns[self.column] if self.column is not None else f"<{self.table.columns[0]}"

    def cells(self) -> dict[FireResult, Fraction]:
        """The fire's results on this target before morale (barrage: the attacks' losses summed)."""
        if self.table is None:
            return {FireResult("-"): Fraction(1)}
        if self.kind != "barrage":
            return self.table.distribution(self.column, self.drm)
        total: dict[int, Fraction] = {0: Fraction(1)}
        for col in self.attacks:
            nxt: dict[int, Fraction] = {}
            for cell, p in self.table.distribution(col, self.drm).items():
                for lost, q in total.items():
                    nxt[lost + cell.lost] = nxt.get(lost + cell.lost, Fraction(0)) + p * q
            total = nxt
        return {FireResult(f"{n} SP" if n else "-", n): p for n, p in total.items()}

    def to_dict(self, fmt) -> dict:
        return {"unit": self.unit.id, "hex": fmt(self.unit.hex) if self.unit.hex else None, "table": self.kind,
                "fire": str(self.fire), "defence": None if self.defence is None else str(self.defence),
                "ratio": self.ratio, "column": self.column_text, "drm": self.drm,
                "firers": list(self.firers), "tank_fright": self.fright, "isolated": self.isolated,
                "modifiers": [m.to_dict(fmt) for m in self.modifiers],
                "distribution": {k: str(v) for k, v in self.outcomes.items()},
                "outcomes": {k: {"lost": o.lost, "check": o.check, "retreat": o.retreat,
                                 "eliminated": o.eliminated, "out": o.out} for k, o in self.details.items()}}


def cap_loss(shot: Shot, lost: int, strength: int) -> int:
    """9 C.4 and 11 B.2.b: never more than half the remaining strength (rounded down, notes
    13.2) unless the strength is 1; bunkers and antitank fire are not capped."""
    if shot.kind in ("conventional", "barrage") and not U.is_bunker(shot.unit) and strength > 1:
        return min(lost, strength // 2)
    return lost


def outcome_of(pos, shot: Shot, cell: FireResult, check: str | None, phase: str) -> Outcome:
    """The outcome of ``cell`` on ``shot``'s target followed by morale ``check`` (None when no
    check is taken) in fire ``phase`` ("assault", "defensive", "barrage")."""
    unit = shot.unit
    strength = U.strength(unit)
    lost = cap_loss(shot, cell.lost, strength)
    head = cell.text if shot.kind != "morale" else "tank fright"
    capped = f" (capped at half of {strength}, 9 C.4)" if lost < cell.lost else ""
    if is_garrison(unit) and (lost or check in ("fail", "rout")):
        why = "a loss" if lost else f"a {'failed' if check == 'fail' else 'routed'} check it cannot retreat from"
        return Outcome(f"{head} -> garrison eliminated ({why}, p.35)", cell.text, 1, check, 0, True, True)
    if lost >= strength and lost:
        return Outcome(f"{head} -> eliminated", cell.text, strength, None, 0, True, True)
    parts = [f"-{lost} SP{capped}"] if lost else []
    if check is None:
        text = f"{head} -> " + (", ".join(parts) if parts else "no effect")
        return Outcome(text, cell.text, lost)
    if check == "exempt":
        return Outcome(f"{head} -> {', '.join(parts + ['no check (bunker)'])}", cell.text, lost, "exempt")
    if check == "pass":
        return Outcome(f"{head} -> {', '.join(parts + ['passes'])}", cell.text, lost, "pass")
    if check == "rout":
        extra = 0 if U.is_afv(unit) else 1
        if lost + extra >= strength:
            return Outcome(f"{head} -> {', '.join(parts + ['routs'])}: eliminated", cell.text, strength, "rout", 0,
                           True, True)
        more = ", -1 SP" if extra else ""
        return Outcome(f"{head} -> {', '.join(parts + ['routs'])}{more}, retreats 2", cell.text, lost + extra,
                       "rout", 2, False, True)
    effect = FAIL_EFFECT[phase]
    retreat = 2 if phase == "assault" else 0
    return Outcome(f"{head} -> {', '.join(parts + ['fails'])}: {effect}", cell.text, lost, "fail", retreat,
                   False, True)


def needs_check(shot: Shot, cell: FireResult, lost: int) -> bool:
    if shot.kind == "conventional":
        return cell.mc or shot.fright
    return bool(lost) or shot.fright       # antitank (14 A.1), barrage (14 A.2), fright alone


def check_for(pos, shot: Shot, cell: FireResult, routed: int, eliminated: int):
    base = cell.lost if shot.kind == "conventional" else cap_loss(shot, cell.lost, U.strength(shot.unit))
    what = {"conventional": f"{cell.text}: +{base}", "antitank": f"{base} SP lost to antitank fire",
            "barrage": f"{base} SP lost to the barrage"}.get(shot.kind, "")
    return morale_check(pos, shot.unit, base, fright=shot.fright, isolated=shot.isolated, routed=routed,
                        eliminated=eliminated, assaulting=shot.assaulting, base_text=what)


def chain(pos, shots: list[Shot], phase: str) -> dict[tuple, Fraction]:
    """Resolve ``shots`` in order over every die; fills each shot's ``outcomes`` / ``details``
    and returns the joint distribution of ``(strength points lost, units out)``."""
    # state: (lost, out, ((hex, routed, eliminated), ...))
    states: dict[tuple, Fraction] = {(0, 0, ()): Fraction(1)}
    for shot in shots:
        hx = shot.unit.hex
        shot.outcomes, shot.details = {}, {}
        cells = shot.cells()
        nxt: dict[tuple, Fraction] = {}
        for (lost, out, hexes), p in states.items():
            here = dict((h, (r, e)) for h, r, e in hexes)
            routed, elim = here.get(hx, (0, 0))
            for cell, q in cells.items():
                strength = U.strength(shot.unit)
                capped = cap_loss(shot, cell.lost, strength)
                if capped >= strength or (is_garrison(shot.unit) and capped) or not needs_check(shot, cell, capped):
                    checks = {None: Fraction(1)}
                else:
                    mc = check_for(pos, shot, cell, routed, elim)
                    checks = {"exempt": Fraction(1)} if mc.exempt else check_odds(pos.game, mc)
                for check, c in checks.items():
                    o = outcome_of(pos, shot, cell, check, phase)
                    w = p * q * c
                    shot.details.setdefault(o.text, o)
                    shot.outcomes[o.text] = shot.outcomes.get(o.text, Fraction(0)) + w
                    r2, e2 = (routed, elim + 1) if o.eliminated else (routed + (o.check == "rout"), elim)
                    here2 = dict(here)
                    here2[hx] = (r2, e2)
                    key = (lost + o.lost, out + o.out, tuple(sorted((h, r, e) for h, (r, e) in here2.items())))
                    nxt[key] = nxt.get(key, Fraction(0)) + w
        states = nxt
    joint: dict[tuple, Fraction] = {}
    for (lost, out, _), p in states.items():
        joint[(lost, out)] = joint.get((lost, out), Fraction(0)) + p
    return joint


def die_odds() -> dict[int, Fraction]:
    return dict(dice_distribution("1d6"))
