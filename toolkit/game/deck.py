"""A deck: counters drawn from a cup or a pile (command chits, a pool of elite units)."""

from __future__ import annotations

from dataclasses import dataclass

from ..hexes import Hex
from .provenance import UNSOURCED, Source

SHUFFLES = ("always", "menu", "never")


@dataclass(frozen=True)
class Deck:
    """Counters kept together, usually face down, and drawn one at a time.

    It sits in a map box (``box``) or on a hex of a map (``map``, ``hex``). ``counters`` are
    counter ids; each puts all the copies its counter mix has (``count``) into the deck.
    ``shuffle`` is ``always`` (every draw is random: a cup), ``menu`` (drawn from the top, with
    a reshuffle command) or ``never``. ``return_command`` gives every counter of the deck a
    command that puts it back; ``send_to`` names another deck that this one's counters can be
    sent to all at once (``send_command``).
    """

    id: str
    name: str
    counters: tuple[str, ...] = ()
    box: str | None = None
    map: str | None = None
    hex: Hex | None = None
    face_down: bool = True
    draw_face_up: bool = False
    shuffle: str = "always"
    shuffle_command: str = "Reshuffle"
    return_command: str | None = None
    send_to: str | None = None
    send_command: str | None = None
    side: str | None = None
    note: str | None = None
    source: Source = UNSOURCED
