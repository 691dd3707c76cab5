"""Command (7): which units a drawn command chit activates.

An HQ chit (a Soviet HQ's own chit, or a 9th Army chit naming any German HQ) activates that HQ,
every HQ of its side within its Command Range (one level, 7.2.2) and every combat unit within
range of an active HQ (7.3), distance in hexes, terrain, units and ZOC ignored (7.3.6); the
German 2nd/3rd Panzer Group motorised units never answer to HQs (7.3.3). A Panzer Group chit
(Guderian is the 2nd's) activates, per Panzer Corps, one chosen unit and every motorised unit of
the corps within 3 hexes of an active one, chained (7.4). Units in the Minsk Pocket are inert
until released (estimated, notes 14.4.10).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import RulesError
from ...referee import Position, Reason, Unit
from ...referee.reasons import Code
from .ruleset import in_pocket, is_motorised

PANZER_GROUPS = ("2nd Panzer Group", "3rd Panzer Group")
CHAIN = 3   # 7.4: within 3 hexes of an activated unit of the corps


@dataclass(frozen=True)
class Activation:
    """The HQs and combat units one chit activates, or why none."""

    chit: str
    hqs: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    refused: Reason | None = None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self, fmt=None) -> dict:
        return {"chit": self.chit, "hqs": list(self.hqs), "units": list(self.units),
                "refused": self.refused.to_dict(fmt) if self.refused else None, "notes": list(self.notes)}


def chit_activates(pos: Position, chit_id: str) -> str:
    """What a command chit activates, as its counter prints it: an HQ id or a formation."""
    counter = pos.game.counters.get(chit_id)
    if counter is None or counter.type != "command chit":
        raise RulesError(f"{chit_id!r} is not a command chit of {pos.game.id}")
    return str(counter.front.get("activates") or "")


def _panzer_unit(unit: Unit) -> bool:
    return unit.counter.formation in PANZER_GROUPS and is_motorised(unit) and unit.counter.kind == "unit"


def _active(pos: Position, unit: Unit, rs=None) -> bool:
    if unit.hex is None:
        return False
    return not in_pocket(pos, unit.hex) or (rs is not None and rs.option(pos, "pocket_units") == "active")


def activate_hq_chit(pos: Position, rs, chit_id: str, hq_id: str | None = None) -> Activation:
    """The activation of a Soviet HQ chit, or of a 9th Army chit on the German HQ ``hq_id`` (7.2.2)."""
    target = chit_activates(pos, chit_id)
    chit = pos.game.counters[chit_id]
    if chit.side == "german":
        if target != "9th Army":
            raise RulesError(f"{chit_id} is a Panzer Group chit: use activate_panzer_group")
        if hq_id is None:
            raise RulesError("a 9th Army chit activates the German HQ the German player picks: give its id")
    else:
        if hq_id not in (None, target):
            raise RulesError(f"{chit_id} activates {target}, not {hq_id}")
        hq_id = target
    counter = pos.game.counters.get(str(hq_id).split("#")[0])
    if counter is None or counter.kind != "hq" or counter.side != chit.side:
        raise RulesError(f"{hq_id!r} is not a {chit.side} HQ")
    hq = pos.units.get(hq_id)
    if hq is None:
        return Activation(chit_id, refused=Reason(Code.CUSTOM, "7.1", f"{hq_id} is not on the map: the chit "
                                                   "activates nothing (estimated, notes 14.4.11)", None, (hq_id,)))
    if not _active(pos, hq, rs):
        where = "in the Minsk Pocket" if hq.hex is not None else "not on the map"
        return Activation(chit_id, refused=Reason(Code.CUSTOM, "7.1", f"{hq_id} is {where}: the chit activates "
                                                   "nothing (estimated, notes 14.4.10-11)", hq.hex, (hq_id,)))
    grid = pos.map.grid
    hqs = [hq] + [u for u in pos.on_map(hq.side) if u.counter.kind == "hq" and u.id != hq.id and _active(pos, u, rs)
                  and grid.distance(hq.hex, u.hex) <= _range(hq)]
    units = sorted({u.id for u in pos.on_map(hq.side) for h in hqs
                    if u.counter.kind == "unit" and _active(pos, u, rs) and not _panzer_unit(u)
                    and grid.distance(h.hex, u.hex) <= _range(h)})
    notes = [f"{h.id} activated within {hq.id}'s range ({_range(hq)}), no further chaining (7.2.2)" for h in hqs[1:]]
    return Activation(chit_id, tuple(h.id for h in hqs), tuple(units), None, tuple(notes))


def _range(hq: Unit) -> int:
    value = hq.value("command")
    if not isinstance(value, int):
        raise RulesError(f"{hq.id} prints no Command Range")
    return value


def panzer_corps(pos: Position, group: str, rs=None) -> dict[str, list[str]]:
    """The on-map, active motorised units of a Panzer Group by Panzer Corps (7.4)."""
    out: dict[str, list[str]] = {}
    for u in pos.on_map("german"):
        if u.counter.formation == group and _panzer_unit(u) and _active(pos, u, rs):
            out.setdefault(str(u.counter.front.get("corps")), []).append(u.id)
    return {k: sorted(v) for k, v in sorted(out.items())}


def activate_panzer_group(pos: Position, rs, chit_id: str, seeds: dict[str, str]) -> Activation:
    """A Panzer Group (or Guderian) chit: per corps, the chosen seed and its chain (7.4).

    ``seeds`` maps a Panzer Corps to the unit the German player picks; a corps he names no
    seed for stays inactive (he need not activate every corps, notes 14.4.18).
    """
    group = chit_activates(pos, chit_id)
    if group not in PANZER_GROUPS:
        raise RulesError(f"{chit_id} is not a Panzer Group chit")
    corps = panzer_corps(pos, group, rs)
    grid = pos.map.grid
    active: list[str] = []
    notes = []
    for name, seed in seeds.items():
        if name not in corps:
            raise RulesError(f"{group} has no active unit of corps {name!r}; corps: {', '.join(corps) or 'none'}")
        if seed not in corps[name]:
            raise RulesError(f"{seed!r} is not an active motorised unit of {name} corps ({', '.join(corps[name])})")
        chain, frontier = {seed}, [seed]
        while frontier:
            here = pos.units[frontier.pop()].hex
            for other in corps[name]:
                if other not in chain and grid.distance(here, pos.units[other].hex) <= CHAIN:
                    chain.add(other)
                    frontier.append(other)
        left = sorted(set(corps[name]) - chain)
        if left:
            notes.append(f"{name}: {', '.join(left)} more than {CHAIN} hexes from the chain of {seed} stay inactive")
        active.extend(sorted(chain))
    return Activation(chit_id, (), tuple(active), None, tuple(notes))


def hqs_out_of_range(pos: Position, rs, side: str) -> list[str]:
    """HQs of ``side`` removed at the End of Turn Phase: no friendly combat unit within their
    Command Range (4.2, 12.5)."""
    grid = pos.map.grid
    units = [u for u in pos.on_map(side) if u.counter.kind == "unit"]
    return sorted(h.id for h in pos.on_map(side) if h.counter.kind == "hq"
                  and not any(grid.distance(h.hex, u.hex) <= _range(h) for u in units))
