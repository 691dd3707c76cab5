"""The End of Turn Phase (3.5) on a position: what the referee clears, flips and completes.

3.5 removes "all information markers (except road movement)"; read literally that would also
strip Debarked, Riding Tanks and the supply ladder, which are states, not information. The
notes' ruling A25 keeps them: only Pinned and Overrun go. Fired artillery flips back unless it
is Out of Supply (5.3 keeps it fired until supply is restored; B94). The activation chits go
back into the cup with the next turn's :meth:`.Activation.for_turn`.
"""

from __future__ import annotations

from .engineers import complete_pontoons

#: A25: the information statuses 3.5 clears; Road Move, Debarked, Riding Tanks, supply stay.
CLEARED = ("pinned", "overrun")
#: 5.3: a battery out of supply stays on its fired side.
KEEPS_FIRED = ("out_of_supply", "step_loss")


def end_of_turn(pos) -> dict[str, list[str]]:
    """Apply 3.5 to ``pos``: Pinned and Overrun cleared, fired artillery unflipped (not when out
    of supply), pontoons under construction completed, the turn advanced. Returns the unit ids
    each step touched (``cleared``, ``unflipped``, ``completed``)."""
    cleared, unflipped = [], []
    for unit in pos.units.values():
        gone = unit.status.intersection(CLEARED)
        if gone:
            unit.status.difference_update(gone)
            cleared.append(unit.id)
        if "fired" in unit.status and not unit.status.intersection(KEEPS_FIRED):
            unit.status.discard("fired")
            unflipped.append(unit.id)
    completed = complete_pontoons(pos)
    if pos.turn is not None:
        pos.turn += 1
    pos.touch()
    return {"cleared": cleared, "unflipped": unflipped, "completed": completed}
