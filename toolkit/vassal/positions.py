"""Referee positions from VASSAL tables, and positions written back as .vsav files.

Reading (:func:`table_position`): every piece goes back to its counter through the module
binding (``UnitId``, else its name), its hex or box from its map coordinates, its steps from
its step Layer and ``moved`` from its Mark-when-moved trait. What VASSAL cannot show (the
unit's id among copies, status markers, failed supply checks, a movement mode) travels in
persistent properties of the BasicPiece (``hf*``), which VASSAL keeps unchanged; the visible
Layer wins when a player has flipped the piece since. Pieces the game does not know, pieces off
every grid and zone, and units waiting on the turn track or in the dead pile are listed apart.

Writing (:func:`position_commands`, :func:`write_position`): the module's own palette piece of
each counter, prototypes expanded as VASSAL does, placed at its hex centre or box, stacked,
with the turn tracker set and a chat line carrying side, weather and scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError
from ..game import Counter
from ..io import atomic_path
from ..referee import Position, Unit
from .binding import BOXES_MAP, ModuleBinding, Place, layer_level, level_of_steps, steps_of_level
from .commands import Stream, Table
from .encoding import TAB, Trait, add_piece, decode, encode
from .pieces import expand, plain_text
from .reader import describe_piece
from .savegame import Setup, Stack, setup_commands, vsav_bytes

__all__ = ["TablePosition", "table_position", "piece_place", "decoded", "position_commands", "write_position", "HEADER",
           "check_metadata"]

HEADER = "* hexforge position: "
_TRACKER = "TurnTracker0"   # UniqueIdManager("TurnTracker"): the module's only tracker
_SUPPORTED = ((3, 5), (3, 7))


@dataclass
class TablePosition:
    """A position read from a VASSAL table, with everything that is not a unit on the map.

    ``pieces`` maps VASSAL piece ids to unit ids; ``unknown`` and ``off`` are pieces not
    read into the position (``{"piece", "name", "where", "why"}``); ``waiting`` are unit
    ids on the turn track (``{unit: turn}``), ``dead`` those in the dead pile and ``decks``
    those in a deck (``{unit: deck name}``: a chit cup); ``players`` maps player names to
    sides and ``player_names`` player ids (MovePiece's ``playerId``) to names (PlayerRoster).
    """

    position: Position
    pieces: dict[str, str] = field(default_factory=dict)
    unknown: list[dict] = field(default_factory=list)
    off: list[dict] = field(default_factory=list)
    waiting: dict[str, int] = field(default_factory=dict)
    dead: list[str] = field(default_factory=list)
    decks: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    player_names: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def check_metadata(meta: dict, binding: ModuleBinding, where: str) -> list[str]:
    """Refuse a save of another module, module version or VASSAL version; warnings otherwise."""
    if not meta:
        return ["the file has no savedata: its module and VASSAL version cannot be checked"]
    module, version = meta.get("module"), meta.get("module_version")
    if module is not None and module != binding.info.get("name"):
        raise DataError(f"this is a save of module {module!r}, not of {binding.info.get('name')!r} "
                        f"({binding.where})", path=where)
    if version is not None and version != binding.info.get("version"):
        raise DataError(f"this is a save of version {version!r} of module {module!r}; the module given is "
                        f"version {binding.info.get('version')!r} ({binding.where})", path=where)
    vassal = meta.get("VassalVersion") or ""
    match = re.match(r"(\d+)\.(\d+)", vassal)
    if not match or not _SUPPORTED[0] <= (int(match[1]), int(match[2])) <= _SUPPORTED[1]:
        raise DataError(f"written by VASSAL {vassal or '(no version)'}; hexforge reads saves and logs of "
                        f"VASSAL 3.5 to 3.7", path=where)
    return []


def _header(text: str) -> dict[str, str]:
    fields = {}
    for item in decode(text[len(HEADER):], ";"):
        key, _, value = item.strip().partition("=")
        fields[key] = value
    return fields


def _turn_state(state: str) -> tuple[int | None, int | None]:
    """Turn and phase index of the module's tracker (Turn counter with a Phase list inside)."""
    levels = decode(state, "|")
    if len(levels) < 2:
        return None, None
    counter = decode(levels[1], ";")
    try:
        turn = int(counter[0])
    except (ValueError, IndexError):
        return None, None
    phase = None
    if len(counter) > 4:
        try:
            phase = int(decode(counter[4], ";")[0])
        except (ValueError, IndexError):
            phase = None
    return turn, phase


def _turn_command(turn: int, phase_index: int | None, phases: int) -> str:
    inner = [turn, 0, False, -1]
    if phases:
        inner.append(encode([phase_index or 0, 0, 0, encode(["true"] * phases, ",")], ";"))
    return encode(["TURN" + _TRACKER, encode([0, encode(inner, ";")], "|")], TAB)


def _persistent(basic: Trait) -> dict[str, str]:
    state = decode(basic.state, ";")
    try:
        n = int(state[4]) if len(state) > 4 else 0
    except ValueError:
        return {}
    pairs = state[5:5 + 2 * n]
    return dict(zip(pairs[0::2], pairs[1::2]))


def decoded(binding: ModuleBinding, table: Table, piece) -> tuple[dict, list[Trait]]:
    """``describe_piece`` of a piece and its traits with prototypes expanded (cached per traits)."""
    key = tuple(piece.traits)
    found = table.cache.get(key)
    if found is None:
        found = (describe_piece(piece.traits, binding.prototypes), expand(piece.traits, binding.prototypes))
        if len(table.cache) > 100_000:
            table.cache.clear()
        table.cache[key] = found
    return found


def piece_place(binding: ModuleBinding, table: Table, piece) -> Place:
    """Where a piece of ``table`` is for the game (in a deck, on a hex, in a box...)."""
    if piece.stack in table.decks:
        return Place("deck", label=table.decks[piece.stack])
    return binding.locate(piece.map, piece.x, piece.y) if piece.map else Place("none")


def table_position(binding: ModuleBinding, table: Table, setup: list, *, map_id: str | None = None,
                   ids: dict[str, str] | None = None) -> TablePosition:
    """The position of ``table`` (pieces after the restore commands and any actions).

    ``setup`` are the restore commands (turn tracker, players, hexforge's header line), later
    turn commands last; ``ids`` keeps the unit ids pieces had in an earlier position of the
    same game (a log), so they stay stable as pieces come and go.
    """
    game = binding.game
    header: dict[str, str] = {}
    turn_state = None
    players, names = {}, {}
    for command in setup:
        if command.kind == "chat" and command.fields[0].startswith(HEADER):
            header = _header(command.fields[0])
        elif command.kind == "turn" and command.fields[0] == _TRACKER:
            turn_state = _turn_state(command.fields[1])
        elif command.kind == "player":
            player_id, name, side_name = command.fields
            side = next((s.id for s in game.sides if s.name == side_name or s.id == side_name), None)
            if player_id and name:
                names[player_id] = name
            if name and side:
                players[name] = side
    scenario = header.get("scenario") or None
    if scenario is not None and scenario not in game.scenarios:
        scenario = None
    pieces = []
    for piece in table.pieces.values():
        info, traits = decoded(binding, table, piece)
        counter, _ = binding.counter_of(info["properties"], info["name"])
        pieces.append((piece, info, traits, counter, piece_place(binding, table, piece)))
    map_id = map_id or (game.scenario(scenario).map if scenario else None) or _busiest_map(game, pieces)
    pos = Position(game=game, map_id=map_id, scenario=scenario)
    phases = list(game.turn_phases)
    h_turn = int(header["turn"]) if header.get("turn", "").isdigit() else None
    h_phase = header.get("phase") or None
    pos.turn, pos.phase = h_turn, h_phase
    if turn_state is not None and turn_state[0] is not None:
        h_index = phases.index(h_phase) if h_phase in phases else 0
        if (turn_state[0], turn_state[1] or 0) != (h_turn, h_index if phases else 0):
            pos.turn = turn_state[0]
            index = turn_state[1]
            pos.phase = phases[index] if phases and index is not None and 0 <= index < len(phases) else None
    side = header.get("side")
    pos.side = side if side in pos.sides() else None
    weather = header.get("weather")
    pos.weather = weather if weather and weather in pos.map.weathers else None
    result = TablePosition(pos, players=players, player_names=names, problems=list(table.problems))

    found: list[tuple[str, Counter, dict, list[Trait], Place]] = []
    for piece, info, traits, counter, place in pieces:
        entry = {"piece": piece.id, "name": info["name"], "where": place.describe(game)}
        if counter is None:
            uid = info["properties"].get("UnitId")
            why = f"UnitId {uid!r} is no counter of game {game.id}" if uid else \
                "it has no UnitId and its name is no counter's name"
            result.unknown.append({**entry, "why": why})
            continue
        if place.kind in ("off", "nomap") or (place.kind == "hex" and place.map_id != map_id):
            why = place.label if place.kind != "hex" else f"on map {place.map_id}; the position is of map {map_id}"
            result.off.append({**entry, "counter": counter.id, "why": why})
            continue
        found.append((piece.id, counter, _persistent(traits[-1]), traits, place))
    # ids: the unit id written by hexforge when it is free and of that counter, else counter, counter#2...
    known = {pid: uid for pid, uid in (ids or {}).items() if pid in table.pieces}
    used: set[str] = set(known.values())
    ids = dict(known)
    for piece_id, counter, props, *_ in found:
        if piece_id in ids:
            continue
        uid = props.get("hfUnit")
        if uid and uid not in used and (uid == counter.id or uid.rsplit("#", 1)[0] == counter.id):
            ids[piece_id] = uid
            used.add(uid)
    for piece_id, counter, *_ in found:
        if piece_id not in ids:
            uid, n = counter.id, 1
            while uid in used:
                n += 1
                uid = f"{counter.id}#{n}"
            ids[piece_id] = uid
            used.add(uid)
    for piece_id, counter, props, traits, place in found:
        uid = ids[piece_id]
        result.pieces[piece_id] = uid
        if place.kind == "turn":
            result.waiting[uid] = place.turn
            continue
        if place.kind == "dead":
            result.dead.append(uid)
            continue
        if place.kind == "deck":
            result.decks[uid] = place.label
            continue
        unit = Unit(id=uid, counter=counter, side=props.get("hfSide") or counter.side)
        if place.kind == "hex":
            unit.hex = place.hex
        elif place.kind == "box":
            unit.box = place.box
        level = layer_level(traits)
        steps = counter.steps if level is None else steps_of_level(counter, level)
        written = props.get("hfSteps", "")
        if written.isdigit() and 1 <= int(written) <= counter.steps and \
                level_of_steps(counter, int(written)) == level:
            steps = int(written)
        unit.steps = steps
        unit.status = {s for s in props.get("hfStatus", "").split(",") if s}
        marks = [t for t in traits if t.id == "markmoved;"]
        # markers have no Mark-when-moved trait: their flag travels as a property
        unit.moved = marks[0].state == "true" if marks else props.get("hfMoved") == "true"
        unit.mode = props.get("hfMode") or None
        unit.supply = int(props["hfSupply"]) if props.get("hfSupply", "").isdigit() else 0
        pos.units[uid] = unit
    pos.touch()
    return result


def _busiest_map(game, pieces) -> str:
    """The game map with the most known units on its hexes (a save without hexforge's header line
    says no scenario); the first map when none has any."""
    counts = {map_id: 0 for map_id in game.maps}
    for _, _, _, counter, place in pieces:
        if counter is not None and place.kind == "hex":
            counts[place.map_id] += 1
    return max(counts, key=lambda m: counts[m]) if any(counts.values()) else next(iter(game.maps))


# -- writing -----------------------------------------------------------------------------------

def _placed(binding: ModuleBinding, unit: Unit, map_id: str) -> tuple[str | None, int, int]:
    if unit.hex is not None:
        return binding.point(Place("hex", map_id=map_id, hex=unit.hex))
    if unit.box is not None:
        return binding.point(binding.box_place(unit.box))
    return None, 0, 0


def _piece(binding: ModuleBinding, unit: Unit, where: tuple[str | None, int, int]) -> list[Trait]:
    gpid, palette = binding.slot(unit.counter.id)
    traits = expand(palette, binding.prototypes)
    map_name, x, y = where
    props = {"hfUnit": unit.id, "hfSteps": str(unit.steps)}
    if unit.status:
        props["hfStatus"] = ",".join(sorted(plain_text(s).replace(",", " ") for s in unit.status))
    if unit.side != unit.counter.side:
        props["hfSide"] = unit.side or ""
    if unit.mode:
        props["hfMode"] = plain_text(unit.mode)
    if unit.supply:
        props["hfSupply"] = str(unit.supply)
    if unit.moved and not any(t.id == "markmoved;" for t in traits):
        props["hfMoved"] = "true"
    basic = traits[-1]
    state = [map_name or "null", x, y, gpid, len(props)]
    for key, value in props.items():
        state += [key, value]
    traits[-1] = Trait(basic.type, encode(state, ";"))
    level = level_of_steps(unit.counter, unit.steps)
    out = []
    for trait in traits:
        if trait.id == "emb2;" and level is not None:
            trait = Trait(trait.type, str(level))
        elif trait.id == "markmoved;":
            trait = Trait(trait.type, "true" if unit.moved else "false")
        out.append(trait)
    return out


def position_commands(binding: ModuleBinding, pos: Position) -> list[str]:
    """The restore commands of a save holding ``pos`` (pieces, stacks, boards, turn, header)."""
    game = binding.game
    if pos.game.id != game.id:
        raise DataError(f"the position is of game {pos.game.id}, the module of game {game.id}", path=binding.where)
    stacks: dict[tuple, Stack] = {}
    loose: list[list[Trait]] = []
    for unit in pos.units.values():
        where = _placed(binding, unit, pos.map_id)
        traits = _piece(binding, unit, where)
        if where[0] is None:
            loose.append(traits)
            continue
        layer = 1 if unit.counter.is_marker else 0
        stacks.setdefault((*where, layer), Stack(where[0], where[1], where[2], layer)).pieces.append(traits)
    boards = [(name, name) for name in binding.maps] + ([(BOXES_MAP, BOXES_MAP)] if binding.zones else [])
    commands = setup_commands(Setup(list(stacks.values()), boards), prefix="hfp")
    extra = [add_piece(f"hfl{n + 1}", traits) for n, traits in enumerate(loose)]
    phases = list(game.turn_phases)
    if pos.turn is not None and binding.has_turn_tracker:
        index = phases.index(pos.phase) if pos.phase in phases else 0
        extra.append(_turn_command(pos.turn, index, len(phases)))
    fields = [f"{k}={plain_text(v)}" for k, v in (("scenario", pos.scenario), ("turn", pos.turn),
                                                   ("phase", pos.phase), ("side", pos.side),
                                                   ("weather", pos.weather)) if v is not None]
    extra.append("CHAT" + HEADER + encode(fields, ";"))
    return commands[:-1] + extra + commands[-1:]


def write_position(pos: Position, binding: ModuleBinding, path: str | Path, description: str | None = None) -> Path:
    """Write ``pos`` as a .vsav of the binding's module (atomically: nothing half-written)."""
    commands = position_commands(binding, pos)
    data = vsav_bytes(commands, description=description or f"{binding.game.name}: position from hexforge",
                      module_name=binding.info.get("name", ""), module_version=binding.info.get("version", ""),
                      moduledata=binding.moduledata)
    path = Path(path)
    with atomic_path(str(path)) as tmp:
        Path(tmp).write_bytes(data)
    return path


def stream_table(binding: ModuleBinding, stream: Stream, where: str) -> Table:
    """The table after the restore commands of ``stream``."""
    table = Table(where)
    for command in stream.setup:
        table.apply(command)
    return table

