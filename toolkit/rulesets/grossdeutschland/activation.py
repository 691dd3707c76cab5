"""The chit-pull order of the Activation Phase (2.5, 3.4, 6.0) as referee state.

One cup holds both sides' HQ activation chits. A chit drawn activates its battalion once this
turn (or is passed); the Division HQ chit activates any one battalion not yet activated. An
HQ activates the units of its own battalion within its activation range (the white flag,
counted from the HQ's hex excluded to the unit's included, ignoring terrain, enemies and ZOC);
no unit is activated twice in a turn. A battalion without its HQ on the map may activate one
stack (one hex). Reinforcements entering this turn are always in range.

Options: ``division_hq_range_from`` (A8) measures a Division HQ activation from the Division
HQ ("division") or from the battalion's own HQ ("battalion"); ``passed_by_division`` (A10)
lets the Division HQ activate a battalion that passed; ``preselect_turns`` (A11) grants the
scenario's pre-selected chits on the first turn only ("first") or every turn ("every").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...errors import RulesError
from ...referee import Reason
from ...referee.reasons import Code
from .ruleset import DIVISION_HQ, PAID, RIDING

DIVISION = "Division"


class ActivationError(RulesError):
    """An action the Activation Phase does not allow now (drawing from an empty cup...)."""


def chits_of(pos) -> list[str]:
    """The scenario's HQ activation chits (its ``options.activation_chits``)."""
    scenario = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    chits = list((scenario.options if scenario else {}).get("activation_chits", []))
    for cid in chits:
        if cid not in pos.game.counters:
            raise RulesError(f"scenario {pos.scenario} names activation chit {cid!r}, which no counter defines")
    return chits


@dataclass
class Activation:
    """One turn's Activation Phase: the cup, the drawn chits and who has been activated.

    ``battalion`` is the battalion the chit in play activates (None: none chosen yet, as after
    drawing the Division HQ chit); ``activated`` maps each battalion activated this turn to the
    chit that did it; ``units`` are the units activated this turn.
    """

    cup: list[str]
    side_first: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)
    chit: str | None = None
    battalion: str | None = None
    activated: dict = field(default_factory=dict)
    passed: set = field(default_factory=set)
    units: set = field(default_factory=set)
    stack_hex: object = None

    # -- building the cup -----------------------------------------------------------------

    @classmethod
    def for_turn(cls, pos, rs, preselected=(), eliminated=()) -> "Activation":
        """The cup of the position's turn: the scenario's chits, less the battalions
        ``eliminated`` in an earlier turn (3.5); ``preselected`` chits are taken out face up
        first, as the scenario allows (18.1-21.1; A11)."""
        chits = [c for c in chits_of(pos) if _battalion(pos, c)[1] not in set(eliminated)]
        scenario = pos.game.scenarios[pos.scenario]
        rule = scenario.options.get("preselected_chits") or {}
        preselected = list(preselected)
        if preselected:
            first = scenario.turns[0].number if scenario.turns else 1
            if rs.option(pos, "preselect_turns") == "first" and pos.turn not in (None, first):
                raise ActivationError(f"chits are pre-selected on the first turn only (turn {first}; option "
                                      f"preselect_turns)")
            if len(preselected) > int(rule.get("count", 0)):
                raise ActivationError(f"scenario {scenario.id} lets {rule.get('side', 'no side')} pre-select "
                                      f"{rule.get('count', 0)} chit(s), not {len(preselected)}")
            for cid in preselected:
                if cid not in chits:
                    raise ActivationError(f"{cid} is not in this turn's cup")
                if pos.game.counters[cid].side != rule.get("side"):
                    raise ActivationError(f"{cid} is not a {rule.get('side')} chit; only {rule.get('side')} "
                                          f"pre-selects in {scenario.id}")
        return cls(cup=[c for c in chits if c not in preselected], side_first=preselected)

    # -- drawing --------------------------------------------------------------------------

    def draw(self, pos, chit: str | None = None, rng: random.Random | None = None) -> str:
        """Draw the next chit: a pre-selected one first, else ``chit`` (as drawn in play) or
        one at random. Ends the activation in play."""
        self.finish()
        if self.side_first:
            chit = chit or self.side_first[0]
            if chit not in self.side_first:
                raise ActivationError(f"the pre-selected chits {', '.join(self.side_first)} come first")
            self.side_first.remove(chit)
        else:
            if not self.cup:
                raise ActivationError("the cup is empty: the Activation Phase is over (3.4)")
            if chit is None:
                chit = (rng or random).choice(sorted(self.cup))
            if chit not in self.cup:
                raise ActivationError(f"{chit} is not in the cup")
            self.cup.remove(chit)
        self.drawn.append(chit)
        self.chit = chit
        side, battalion = _battalion(pos, chit)
        self.battalion = None if battalion == DIVISION else battalion
        if self.battalion in self.activated:
            self.battalion = None                         # 6.0: already activated by the Division HQ
        return chit

    def choose(self, pos, rs, battalion: str) -> None:
        """The Division HQ chit in play activates ``battalion`` (3.4, 6.0)."""
        if self.chit is None or _battalion(pos, self.chit)[1] != DIVISION:
            raise ActivationError("only a Division HQ chit lets the player choose a battalion")
        if battalion in self.activated:
            raise ActivationError(f"battalion {battalion} has already been activated this turn (6.0)")
        if battalion in self.passed and not rs.option(pos, "passed_by_division"):
            raise ActivationError(f"battalion {battalion} passed this turn (option passed_by_division)")
        side = pos.game.counters[self.chit].side
        if not any(u.side == side and u.counter.formation == battalion for u in pos.units.values()):
            raise ActivationError(f"{side} has no battalion {battalion}")
        self.battalion = battalion

    def pass_(self, pos) -> None:
        """The owner passes the chit in play: its battalion is not activated now (6.0)."""
        if self.battalion is not None and self.battalion not in self.activated:
            self.passed.add(self.battalion)
        self.chit, self.battalion, self.stack_hex = None, None, None

    def finish(self) -> None:
        """The activation in play is over (its chit stays in the discard pile)."""
        self.chit, self.battalion, self.stack_hex = None, None, None

    @property
    def over(self) -> bool:
        return not self.cup and not self.side_first

    # -- who may act ----------------------------------------------------------------------

    def may_activate(self, pos, rs, unit_id: str) -> Reason | None:
        """None if the chit in play may activate ``unit_id`` now, else why not (6.0)."""
        unit = pos.unit(unit_id)
        ids = (unit_id,)
        if self.chit is None or self.battalion is None:
            return Reason(Code.CUSTOM, "6.0", "no battalion is activated now: draw a chit (or choose the Division "
                          "HQ's battalion)", unit.hex, ids)
        side = pos.game.counters[self.chit].side
        if unit.side != side:
            return Reason(Code.CUSTOM, "6.0", f"{unit_id} is not a {side} unit", unit.hex, ids)
        host = rs.carrier(pos, unit) if RIDING in unit.status else None
        if host is not None:            # 9.5: a rider "is only activated when that Tracked unit is activated"
            if unit_id in self.units:
                return Reason(Code.CUSTOM, "6.0", f"{unit_id} has already been activated this turn", unit.hex, ids)
            why = self.may_activate(pos, rs, host.id) if host.id not in self.units else None
            if why is not None:
                return Reason(Code.CUSTOM, "9.5", f"{unit_id} rides {host.id} and is activated only with it: "
                              f"{why.text}", unit.hex, ids)
            return None
        if unit.counter.formation != self.battalion:
            return Reason(Code.CUSTOM, "6.0", f"{unit_id} belongs to battalion {unit.counter.formation}, not "
                          f"{self.battalion}: no HQ activates units of another battalion", unit.hex, ids)
        if unit_id in self.units:
            return Reason(Code.CUSTOM, "6.0", f"{unit_id} has already been activated this turn", unit.hex, ids)
        if unit.hex is None:
            return None                                   # 6.0 note: entering this turn, always in range
        hq = self._hq(pos, rs)
        if hq is None:
            if self.stack_hex is not None and unit.hex != self.stack_hex:
                return Reason(Code.CUSTOM, "2.4", f"battalion {self.battalion} has no HQ on the map: only the stack "
                              f"in {pos.map.format(self.stack_hex)} may be activated", unit.hex, ids)
            return None
        if hq.id == unit_id:
            return None                                   # 9.0: the HQ itself moves
        reach = hq.value(rs.command.range_value)
        distance = pos.map.grid.distance(hq.hex, unit.hex)
        if not isinstance(reach, int) or distance > reach:
            return Reason(Code.CUSTOM, "6.0", f"{unit_id} is {distance} hexes from {hq.id}, beyond its activation "
                          f"range of {reach}", unit.hex, ids)
        return None

    def may_attack(self, pos, rs, unit_id: str) -> Reason | None:
        """None if ``unit_id``, activated now, may attack: it must still be within its HQ's
        activation range at the time of the attack (10.0; checked again at declaration, A9)."""
        unit = pos.unit(unit_id)
        if unit_id not in self.units or unit.counter.formation != self.battalion:
            return Reason(Code.CUSTOM, "6.0", f"{unit_id} has not been activated by the chit in play", unit.hex,
                          (unit_id,))
        hq = self._hq(pos, rs)
        if hq is None or hq.id == unit_id or unit.hex is None:
            return None
        reach = hq.value(rs.command.range_value)
        distance = pos.map.grid.distance(hq.hex, unit.hex)
        if not isinstance(reach, int) or distance > reach:
            return Reason(Code.CUSTOM, "10.0", f"{unit_id} is {distance} hexes from {hq.id}, beyond its activation "
                          f"range of {reach}, at the time of the attack", unit.hex, (unit_id,))
        return None

    def activate(self, pos, rs, unit_id: str) -> None:
        """Mark ``unit_id`` activated by the chit in play (refused with the reason)."""
        why = self.may_activate(pos, rs, unit_id)
        if why is not None:
            raise ActivationError(why.text)
        unit = pos.unit(unit_id)
        carried = [u for u in _riders(pos, rs, unit) if u.id not in self.units]
        for u in (unit, *carried):                  # 9.5: the riders are activated with their carrier
            self.units.add(u.id)
            u.status -= set(PAID)                   # 9.5: a mount or dismount is paid per activation
        pos.touch()
        self.activated.setdefault(self.battalion, self.chit)
        if self._hq(pos, rs) is None and self.stack_hex is None:
            self.stack_hex = pos.unit(unit_id).hex

    def _hq(self, pos, rs):
        """The unit whose range counts for the activation in play (A8), or None."""
        side = pos.game.counters[self.chit].side
        on_map = [u for u in pos.on_map(side) if u.type in rs.command.hq_types]
        own = next((u for u in on_map if u.type != DIVISION_HQ and u.counter.formation == self.battalion), None)
        if _battalion(pos, self.chit)[1] == DIVISION and rs.option(pos, "division_hq_range_from") == "division":
            return next((u for u in on_map if u.type == DIVISION_HQ), own)
        return own

    def to_dict(self) -> dict:
        return {"cup": sorted(self.cup), "preselected": list(self.side_first), "drawn": list(self.drawn),
                "chit": self.chit, "battalion": self.battalion, "activated": dict(self.activated),
                "passed": sorted(self.passed), "units": sorted(self.units)}


def _riders(pos, rs, carrier) -> list:
    from .movement import riders
    return riders(rs, pos, carrier)


def _battalion(pos, chit: str) -> tuple[str | None, str]:
    """(side, battalion) of an activation chit; the battalion of the Division HQ chit is "Division"."""
    counter = pos.game.counters.get(chit)
    if counter is None or counter.kind != "chit":
        raise ActivationError(f"{chit!r} is not an activation chit")
    return counter.side, counter.name
