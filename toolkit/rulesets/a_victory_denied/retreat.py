"""Retreat (9.5) and advance after combat (9.6) on the shared retreat search, with the overrun
of lone enemy HQs on the way (9.5.7, 9.6.4, 12.1) and the HQ rules of combat (12.2, 12.3).

9.5: a DR or DR2 retreats 1 or 2 hexes, no MP spent, each hex farther from the start (notes
14.4.6: the retreat ends as many hexes away as it has steps). Of all such paths the retreat
takes those entering the fewest enemy-ZOC hexes (9.5.3), each costing every unit a step,
friendly units or not (9.5.4) except a German motorised unit entering a hex that holds a German
unit; then, as far as possible, (1) each hex entered closer to a friendly supply source (hex
distance to the nearest, notes 14.4.5), then (2) the stacking limit kept in the last hex. A
retreat whose best end breaks the stacking limit goes on one hex at a time within the same
restrictions (9.5.5). An unbridged major river is crossed only on the first hex (the unit starts
next to it), and no major river between two enemy-ZOC hexes (9.5.6). A lone enemy HQ does not
block: the retreating unit enters its hex and the HQ is relocated (9.5.7, 12.6). PVO units
never retreat (9.5.2): :func:`retreat_search` refuses them, and :func:`convert_result` (the
``convert_result`` hook of ``apply_combat``) turns a DR or DR2 on a hex holding one into PVO
step losses, checked by :func:`check_pvo_losses`.

9.6: the attacked hex first; motorised units may go one more hex anywhere (not across an
unbridged major river, and not at all after crossing one into the attacked hex, 9.6.5); enemy
ZOC ignored; PVO units never advance (9.6.6); a lone enemy HQ entered is overrun (9.6.4).
"""

from __future__ import annotations

import dataclasses

from ...errors import IllegalMoveError, RulesError
from ...referee import Reason, board_of
from ...referee.board import NO
from ...referee.combat_retreat import (RetreatAnswer, enemy_at, may_retreat_across, retreating_units, next_retreat_hexes,
                                       plain_advance_options, retreat_step_loss)
from ...referee.reasons import Code
from ...referee.zoc import enemy_zoc
from .hq import _sources, lone_hq
from .movement import MAJOR, unbridged_major

PVO = "pvo"
HQ = "hq"
MOTORISED = "motorised"
#: 9.5.5: how many hexes past its length a retreat may be carried by the stacking limit (a bound
#: on the search; the map never needs more).
MAX_EXTRA = 6


@dataclasses.dataclass
class AvdRetreat(RetreatAnswer):
    """A :class:`~toolkit.referee.RetreatAnswer` with the lone enemy HQs each end's path
    overruns (end hex -> HQ ids, 9.5.7)."""

    overruns: dict = dataclasses.field(default_factory=dict)

    def to_dict(self, fmt) -> dict:
        out = super().to_dict(fmt)
        for end, h in zip(out["ends"], self.hexes()):
            end["overruns"] = list(self.overruns.get(h, ()))
        return out


def _terrain_open(pos, rs, units, b) -> bool:
    board = board_of(pos.map)
    i = board.index[b]
    return all(board.enter_costs(rs.unit_class(pos, u), pos.current_weather, rs.movement.feature_costs)[i] != NO
               for u in units)


def may_retreat_into(rs, pos, units, a, b) -> bool | None:
    """9.5.6, 9.6.5: an unbridged major river only from the hex the units stand on (the first
    hex of a retreat or an advance); a retreat never crosses a major river between two hexes in
    enemy ZOC. None: the movement board decides."""
    if MAJOR not in pos.map.hexside_codes(pos.map.grid.hexside(a, b)):
        return None
    if not rs.advancing:
        ez = enemy_zoc(pos, rs, units[0].side)
        index = board_of(pos.map).index
        if ez[index[a]] and ez[index[b]]:
            return False
    if unbridged_major(pos, a, b):
        return a == units[0].hex and _terrain_open(pos, rs, units, b)
    return None


def retreat_loss(rs, pos, units, hex) -> int:
    """9.5.4: a step for each unit entering an enemy-ZOC hex, friendly units there or not,
    except a German motorised unit entering a hex that holds a German unit."""
    side = units[0].side
    if not enemy_zoc(pos, rs, side)[board_of(pos.map).index[hex]]:
        return 0
    movers = {u.id for u in units}
    friend = any(u.side == side and u.id not in movers and not u.counter.is_marker for u in pos.at(hex))
    return sum(1 for u in units if u.counter.kind != HQ and
               not (friend and side == "german" and u.counter.unit_class == MOTORISED))


def _overstacked(pos, rs, units, end) -> bool:
    from ...referee.stacking import stack_reasons
    ids = {u.id for u in units}
    there = [u for u in pos.at(end) if u.id not in ids and u.side == units[0].side] + units
    return any(ids & set(r.units) for r in stack_reasons(pos, rs, end, there) if r.code != Code.STACKING_ENEMY)


def retreat_search(rs, pos, unit_ids, length, from_hex=None) -> AvdRetreat:
    """The ends of a retreat of ``length`` hexes by the 9.5 restrictions (module docstring):
    only the paths that rank best; ``lengths`` is the length they have (more than asked when
    the stacking limit carried the retreat on, 9.5.5)."""
    units = retreating_units(pos, unit_ids)
    pvo = [u.id for u in units if u.type == PVO]
    if pvo:
        raise RulesError(f"{', '.join(pvo)}: PVO units never retreat; a DR costs a single PVO unit a step, a DR2 "
                         "two (two PVO units: one each), and the other units ignore it (9.5.2)")
    asked = length if isinstance(length, int) else max(int(x) for x in length)
    if asked < 1:
        raise RulesError(f"a retreat is at least one hex, not {length!r}")
    ids = tuple(u.id for u in units)
    start = units[0].hex
    side = units[0].side
    grid = pos.map.grid
    sources = _sources(pos, rs, side)

    def near(h) -> int:
        return min((grid.distance(h, s) for s in sources), default=0)

    def extend(cands, steps):
        for _ in range(steps):
            cands = [(path + [b], lost + retreat_step_loss(pos, rs, units, b), closer and near(b) < near(path[-1]))
                     for path, lost, closer in cands
                     for b in next_retreat_hexes(pos, rs, ids, path, start, ranked=False)]
        return cands

    def key(cand):
        path, lost, closer = cand
        return lost, not closer, _overstacked(pos, rs, units, path[-1])

    cands, extra = extend([([start], 0, True)], asked), 0
    while cands:
        best = min(key(c) for c in cands)
        cands = [c for c in cands if key(c) == best]
        if not best[2]:
            break
        if extra == MAX_EXTRA:
            cands = []
            break
        cands, extra = extend(cands, 1), extra + 1            # 9.5.5: one more hex
    answer = AvdRetreat(ids, start, from_hex or start, (asked + extra,))
    for path, lost, _ in cands:
        if path[-1] not in answer.paths:
            answer.paths[path[-1]] = path
            answer.losses[path[-1]] = lost
            hqs = [hq.id for h in path[1:] if (hq := lone_hq(pos, side, h)) is not None]
            if hqs:
                answer.overruns[path[-1]] = hqs
    if not answer.paths:
        answer.eliminated = True
        answer.reason = Reason(Code.RETREAT_BLOCKED, "9.5.8", f"no legal retreat of {asked} hex(es) from "
                               f"{pos.map.format(start)} (enemy units, the map edge, major rivers or the stacking "
                               "limit): the retreating units are eliminated", start, ids)
    return answer


def advance_search(rs, pos, unit_ids, vacated_hex, path=None, hexes=None) -> list:
    """9.6: the attacked hex, then for motorised units one more hex next to it (module docstring)."""
    units = retreating_units(pos, unit_ids)
    if any(u.type == PVO for u in units):
        return []                                             # 9.6.6
    ask = dataclasses.replace(rs, advancing=True)
    first = plain_advance_options(pos, ask, unit_ids, vacated_hex, hexes=1)
    if not first or not all(u.counter.unit_class == MOTORISED for u in units):
        return first
    if unbridged_major(pos, units[0].hex, vacated_hex):
        return first                                          # 9.6.5: crossed on the first hex: stop
    grid = pos.map.grid
    side = units[0].side
    more = [n for n in grid.neighbours(vacated_hex) if n in grid and n != units[0].hex
            and not enemy_at(pos, rs, side, n) and may_retreat_across(pos, ask, units, vacated_hex, n)]
    return first + sorted(more)


def _pvo_conversion(pos, assessment, result):
    """``(PVO steps, PVO ids left out, pvo units)`` of 9.5.2 for ``result`` on the defenders, or None."""
    d = result.defender
    if not d.retreat or d.eliminated:
        return None
    units = [pos.unit(u) for u in assessment.defenders if pos.unit(u).counter.kind == "unit"]
    pvo = [u for u in units if u.type == PVO]
    if not pvo:
        return None
    length = max(d.retreat)
    if length == 1 and all(u.reduced for u in pvo) and len(pvo) < len(units):
        return 0, tuple(u.id for u in pvo), pvo          # reduced PVO + non-PVO, DR: the non-PVO retreats
    return min(length, sum(u.steps for u in pvo)), (), pvo


def convert_result(rs, pos, assessment, result):
    """9.5.2: PVO units never retreat. A DR costs a single PVO a step and the other units ignore
    it; a DR2 costs a single PVO two steps (two PVO units: one each) and the others ignore it; a
    reduced PVO with a non-PVO unit: a DR goes to the non-PVO unit (the PVO is left out), a DR2
    eliminates the PVO. A lone reduced PVO on a DR loses its step (notes 9.9, inference). The
    result's own steps are lost as usual, by the owner's choice (read before them). ``apply_combat``'s
    ``convert_result`` hook: ``(result, staying, note)``; :func:`check_pvo_losses` checks who lost."""
    conv = _pvo_conversion(pos, assessment, result)
    if conv is None:
        return result, (), None
    steps, staying, pvo = conv
    if staying:
        return result, staying, (f"{', '.join(staying)}: reduced PVO with a non-PVO unit: the DR goes to the "
                                 "non-PVO unit (9.5.2)")
    d = dataclasses.replace(result.defender, steps=result.defender.steps + steps, retreat=())
    return (dataclasses.replace(result, defender=d), (),
            f"PVO units never retreat: the {'DR2' if max(result.defender.retreat) == 2 else 'DR'} costs "
            f"{' and '.join(u.id for u in pvo[:2])} {steps} step(s) and the other units ignore it (9.5.2)")


def check_pvo_losses(before, outcome, assessment) -> None:
    """9.5.2: the steps a retreat became are the PVO units' (two PVO units on a DR2: one each);
    an allocation that gives them to another unit is refused (``after_combat``)."""
    conv = _pvo_conversion(before, assessment, outcome.roll.result)
    if conv is None or not conv[0]:
        return
    steps, _, pvo = conv
    lost = {u.id: outcome.losses.get(u.id, 0) for u in pvo}
    ok = sum(lost.values()) >= steps
    if steps == 2 and len(pvo) >= 2:
        ok = ok and sum(1 for n in lost.values() if n >= 1) >= 2
    if not ok:
        reason = Reason(Code.COMBAT_CHOICE, "9.5.2", f"the retreat is {steps} PVO step(s): "
                        + ("two PVO units lose one step each" if steps == 2 and len(pvo) >= 2 else
                           f"{' or '.join(u.id for u in pvo)} loses them")
                        + f", not the other units (losses given: {', '.join(f'{u} {n}' for u, n in outcome.losses.items()) or 'none'})",
                        assessment.defender_hex, tuple(u.id for u in pvo))
        raise IllegalMoveError(str(reason), [reason])
