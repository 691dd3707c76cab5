"""Test saves and logs written with the module's own commands, as VASSAL 3.7 writes them.

A log is the restore command of a position (hexforge's writer) followed by one ``LOG<TAB>``
command per player action; an action's commands are a compound (``LogCommand`` nesting, as in
``BasicLogger.write``): MovePiece ``M/`` per piece, ChangePiece ``D/`` for a flip, the
auto-report and dice reports as chat.
"""

from __future__ import annotations

import io
import zipfile

from toolkit.referee import Position
from toolkit.vassal.binding import ModuleBinding, Place, level_of_steps
from toolkit.vassal.commands import parse
from toolkit.vassal.encoding import ESC, Trait, chain_state, decode, encode
from toolkit.vassal.positions import position_commands, stream_table, table_position
from toolkit.vassal.savegame import metadata_xml, obfuscate, vsav_bytes


def zip_stream(text: str, *, module: str, version: str, vassal: str = "3.7.26", obfuscated: bool = True) -> bytes:
    savedata = metadata_xml(root_children=[("version", version), ("VassalVersion", vassal),
                                           ("dateSaved", "1"), ("description", "test")],
                            module=[("name", module), ("version", version), ("VassalVersion", vassal)])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", obfuscate(text) if obfuscated else text.encode())
        zf.writestr("savedata", savedata)
    return buffer.getvalue()


class LogBuilder:
    """Record actions on a position's table; ``bytes()`` is the .vlog."""

    def __init__(self, binding: ModuleBinding, pos: Position, player: str = "Alice",
                 player_id: str = "u7f3a9") -> None:
        self.binding = binding
        self.player, self.player_id = player, player_id
        self.setup = position_commands(binding, pos)
        side = binding.game.side(pos.side) if pos.side else None
        if side is not None:   # PlayerRoster's restore command: the side this player took
            self.setup.insert(-1, encode(["PLAYER", player_id, player, side.name], "\t"))
        stream = parse(encode(self.setup, ESC), "setup")
        self.table = stream_table(binding, stream, "setup")
        start = table_position(binding, self.table, stream.setup)
        self.piece = {uid: pid for pid, uid in start.pieces.items()}
        self.actions: list[list[str]] = []
        self.map_id = pos.map_id

    def _point(self, where) -> tuple[str, int, int]:
        if isinstance(where, str):
            return self.binding.point(self.binding.box_place(where))
        return self.binding.point(Place("hex", map_id=self.map_id, hex=where))

    def move(self, units, where, chat: bool = True) -> "LogBuilder":
        """Drag ``units`` (a list: one stack) to a hex (Hex) or a box (its id)."""
        map_name, x, y = self._point(where)
        commands, under = [], None
        for uid in units:
            piece = self.table.pieces[self.piece[uid]]
            commands.append("M/" + encode([piece.id, map_name, x, y, under, piece.map, piece.x, piece.y, None,
                                           self.player_id], "/"))
            under = piece.id
        self._apply(commands)
        moved = []
        for uid in units:   # Mark-when-moved, as PieceMover does (the state is taken after the move)
            piece = self.table.pieces[self.piece[uid]]
            traits = [Trait(t.type, "true") if t.id == "markmoved;" else t for t in piece.traits]
            moved.append("D/" + encode([piece.id, chain_state(traits), chain_state(piece.traits)], "/"))
        report = ["CHAT* " + ", ".join(units) + " moves"] if chat else []
        self._apply(moved)
        self.actions.append(commands + moved + report)
        return self

    def flip(self, unit: str, steps: int) -> "LogBuilder":
        piece = self.table.pieces[self.piece[unit]]
        counter = self.binding.game.counters[unit.split("#")[0]]
        level = level_of_steps(counter, steps)
        traits = [Trait(t.type, str(level)) if t.id == "emb2;" else t for t in piece.traits]
        return self._action(["D/" + encode([piece.id, chain_state(traits), chain_state(piece.traits)], "/")])

    def roll(self, die: str, *results: int) -> "LogBuilder":
        report = f"*** {die} = {','.join(map(str, results))} *** <{self.player}>"
        return self._action(["CHAT" + report, "MutableProperty\t" + encode([die + "_result", "", str(results[0])],
                                                                           "\t")])

    def chat(self, text: str) -> "LogBuilder":
        return self._action([f"CHAT<{self.player}> - {text}"])

    def undo(self) -> "LogBuilder":
        """Take back the last action, as BasicLogger.undo logs it (its inverse between UNDO markers)."""
        last = self.actions[-1]
        inverse = []
        for command in reversed(last):
            if command.startswith("M/"):
                f = decode(command[2:], "/")
                inverse.append("M/" + encode([f[0], f[5], f[6], f[7], f[8], f[1], f[2], f[3], f[4], f[9]], "/"))
            elif command.startswith("D/"):
                f = decode(command[2:], "/")
                inverse.append("D/" + encode([f[0], f[2], f[1]], "/"))
        return self._action(["UNDO\ttrue"] + inverse + ["UNDO\tfalse"])

    def _apply(self, commands: list[str]) -> None:
        stream = parse(encode(["begin_save", "end_save", encode(["LOG\t" + c for c in commands], ESC)], ESC), "x")
        for command in stream.actions[0]:
            self.table.apply(command)

    def _action(self, commands: list[str]) -> "LogBuilder":
        self._apply(commands)
        self.actions.append(commands)
        return self

    def text(self) -> str:
        logged = [encode(["LOG\t" + c for c in action], ESC) for action in self.actions]
        return encode(self.setup + logged, ESC)

    def bytes(self, **kw) -> bytes:
        info = self.binding.info
        return zip_stream(self.text(), module=info["name"], version=info["version"], **kw)

    def save(self) -> bytes:
        """The position at this point as a .vsav (restore commands only), as File > Save writes it."""
        info = self.binding.info
        end = table_position(self.binding, self.table, parse(encode(self.setup, ESC), "x").setup)
        return vsav_bytes(position_commands(self.binding, end.position), description="after",
                          module_name=info["name"], module_version=info["version"])
