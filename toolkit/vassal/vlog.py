"""Saves and logs read into referee positions and events (the layout is in docs/vassal-logs.md).

:func:`read_game` reads a .vsav or .vlog against a :class:`~.binding.ModuleBinding`: the
position of its restore commands (``start``), one :class:`Event` per change a logged action
made, in order, each with the position it was made from, and the position at the end. An
action is one thing a player did (a drag, a key command, a die roll, an undo); every piece
that changed place in it is grouped with the others that went from the same place to the same
place (a stack moving), a Layer level that changed is a flip, and the chat of the action is
kept (dice buttons report as chat: ``*** 1d6 = 4 *** <player>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..referee import Position
from .binding import ModuleBinding, Place, layer_level
from .commands import Command, Stream, parse, read_stream
from .positions import TablePosition, check_metadata, decoded, piece_place, stream_table, table_position

__all__ = ["Event", "GameRecord", "read_game"]

_DICE = re.compile(r"^\*+ (?P<name>.+?) = (?P<result>[0-9][0-9, ]*) \*+ <(?P<player>[^>]*)>\s*$")


@dataclass
class Event:
    """One thing that happened in a logged action.

    ``kind``: "move" (``units`` went from ``start`` to ``end``), "flip" (``levels`` of the
    step Layer, old and new; ``steps`` left, old and new), "add" or "remove" (a piece created
    or deleted), "dice" (``die`` rolled ``dice`` by ``player``), "chat" (``text``), "turn"
    (the turn tracker moved to ``text``), "undo" (the action took back earlier ones; the
    events it reverts get ``undone``). ``before`` is the position the action was made from.
    """

    action: int
    kind: str
    units: tuple[str, ...] = ()
    pieces: tuple[str, ...] = ()
    start: Place | None = None
    end: Place | None = None
    levels: tuple[int, int] | None = None
    steps: tuple[int, int] | None = None
    die: str = ""
    dice: tuple[int, ...] = ()
    player: str | None = None
    text: str = ""
    undone: bool = False
    before: Position | None = field(default=None, repr=False, compare=False)

    def to_dict(self, game) -> dict:
        out = {"action": self.action, "kind": self.kind}
        if self.units:
            out["units"] = list(self.units)
        if self.start is not None:
            out["from"] = self.start.describe(game)
        if self.end is not None:
            out["to"] = self.end.describe(game)
        if self.levels:
            out["levels"] = list(self.levels)
        if self.steps:
            out["steps"] = list(self.steps)
        if self.kind == "dice":
            out.update(die=self.die, dice=list(self.dice))
        if self.player:
            out["player"] = self.player
        if self.text:
            out["text"] = self.text
        if self.undone:
            out["undone"] = True
        return out


@dataclass
class GameRecord:
    """A save or log read for the referee: start and end positions and the events between."""

    where: str
    start: TablePosition
    end: TablePosition
    events: list[Event]
    metadata: dict
    warnings: list[str]

    @property
    def is_log(self) -> bool:
        return bool(self.events)


def _levels(binding: ModuleBinding, table) -> dict[str, int | None]:
    return {pid: layer_level(decoded(binding, table, p)[1]) for pid, p in table.pieces.items()}


def read_game(binding: ModuleBinding, path: str | Path, data: bytes | None = None) -> GameRecord:
    """Read a .vsav or .vlog of the binding's module (guarded; clear errors for bad files)."""
    where = str(path)
    text, meta = read_stream(path, data)
    warnings = check_metadata(meta, binding, where)
    stream: Stream = parse(text, where)
    table = stream_table(binding, stream, where)
    context: list[Command] = list(stream.setup)
    start = table_position(binding, table, context)
    ids = dict(start.pieces)
    current = start
    events: list[Event] = []
    players = dict(start.players)
    for n, action in enumerate(stream.actions, start=1):
        before_places = {pid: (p.map, p.x, p.y, piece_place(binding, table, p)) for pid, p in table.pieces.items()}
        before_levels = _levels(binding, table)
        before_ids = dict(current.pieces)
        pos_before = current.position
        own: list[Event] = []
        undo = any(c.kind == "undo" for c in action)
        mover = None
        for command in action:
            table.apply(command)
            if command.kind == "move" and command.fields[9]:
                mover = command.fields[9]   # GameModule.getActiveUserId(): named by PLAYER commands
            elif command.kind == "turn":
                context.append(command)
            elif command.kind == "player":
                context.append(command)
        changed = any(c.kind in ("move", "change", "add", "remove") for c in action)
        current = table_position(binding, table, context, ids=ids)
        ids.update(current.pieces)
        mover = current.player_names.get(mover, mover) if mover else None
        players.update(current.players)
        for command in action:
            if command.kind == "chat":
                match = _DICE.match(command.fields[0])
                if match:
                    dice = tuple(int(d) for d in re.split(r"[ ,]+", match["result"].strip()) if d)
                    own.append(Event(n, "dice", die=match["name"], dice=dice, player=match["player"],
                                     text=command.fields[0]))
                elif not changed:
                    own.append(Event(n, "chat", text=command.fields[0]))
            elif command.kind == "turn":
                own.append(Event(n, "turn", text=_turn_text(current.position)))
        groups: dict[tuple, list[str]] = {}
        for pid, piece in table.pieces.items():
            old = before_places.get(pid)
            if old is not None and old[:3] != (piece.map, piece.x, piece.y):
                start_place, end_place = old[3], piece_place(binding, table, piece)
                if start_place != end_place:
                    groups.setdefault((start_place, end_place), []).append(pid)
        for (start_place, end_place), pids in groups.items():
            units = tuple(ids[p] for p in pids if p in ids)
            own.append(Event(n, "move", units=units, pieces=tuple(pids), start=start_place, end=end_place,
                             player=mover))
        after_levels = _levels(binding, table)
        for pid, level in after_levels.items():
            old = before_levels.get(pid)
            if pid in before_levels and old != level and level is not None and pid in ids:
                uid = ids[pid]
                unit_before = pos_before.units.get(uid)
                unit_after = current.position.units.get(uid)
                steps = (unit_before.steps, unit_after.steps) if unit_before and unit_after else None
                own.append(Event(n, "flip", units=(uid,), pieces=(pid,), levels=(old or 1, level), steps=steps,
                                 player=mover))
        for pid in table.pieces.keys() - before_places.keys():
            own.append(Event(n, "add", units=(ids[pid],) if pid in ids else (), pieces=(pid,), player=mover))
        for pid in before_places.keys() - table.pieces.keys():
            own.append(Event(n, "remove", units=(before_ids[pid],) if pid in before_ids else (), pieces=(pid,),
                             player=mover))
        if undo:
            touched = {p for e in own for p in e.pieces}
            for earlier in reversed(events):
                if earlier.kind in ("move", "flip", "add", "remove") and not earlier.undone and \
                        touched & set(earlier.pieces):
                    action_n = earlier.action
                    for e in events:
                        if e.action == action_n and e.kind in ("move", "flip", "add", "remove"):
                            e.undone = True
                    break
            own = [Event(n, "undo", units=tuple(u for e in own for u in e.units), pieces=tuple(touched))]
        for event in own:
            event.before = pos_before
        events += own
    current.players.update(players)
    return GameRecord(where, start, current, events, meta, warnings)


def _turn_text(pos: Position) -> str:
    return f"turn {pos.turn}" + (f", {pos.phase}" if pos.phase else "")
