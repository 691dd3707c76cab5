"""A turn played in VASSAL, judged by the referee: two saves, or one log.

Every unit that moved between hexes gets a verdict: legal, with the path the referee chose
(the cheapest, through any hex the log shows it stopping on) and its cost, or the first
reason it cannot be, with the rule. VASSAL records where a piece was dropped, not the hexes it
crossed, so a move that cannot be made is explained along the best try: the referee's cheapest
path to the reachable hex nearest the destination, then straight on. A log is judged action by
action on the position each move was made from, so an order of moves that is legal is accepted
even when the end position alone would be ambiguous. Then stacking and supply at the end, and
the units that appeared or vanished. Plain data; the CLI prints it and draws it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import RulesError
from ..hexes import Hex
from ..referee import (Code, PathCheck, Position, Reason, check_path, check_stacking, reachable,
                       supply_status)
from ..referee.ruleset import Ruleset
from ..referee.steps import fmt_mp
from .binding import Place
from .vlog import Event, GameRecord

__all__ = ["MoveVerdict", "TurnReport", "judge_saves", "judge_log", "phase_side"]


@dataclass
class MoveVerdict:
    """The verdict on one move: ``units`` from ``start`` through ``stops`` to ``end``.

    ``legal`` is None for moves the referee does not judge (into or out of boxes, markers);
    ``note`` says why. ``route`` is the path judged (the referee's when legal).
    """

    n: int
    units: tuple[str, ...]
    start: Place
    end: Place
    stops: list[Hex] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    legal: bool | None = None
    route: list[Hex] = field(default_factory=list)
    check: PathCheck | None = None
    note: str = ""
    player: str | None = None
    #: each unit's ``moved`` flag before its first leg (VASSAL marks it moved at the drop, and the
    #: referee's minimum-move rule only applies to units that have not moved yet)
    start_moved: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def reason(self) -> Reason | None:
        return self.check.reason if self.check else None

    @property
    def cost(self) -> Fraction | None:
        if self.check is None or not self.check.ok:
            return None
        return self.check.steps[-1]["spent"] if self.check.steps else Fraction(0)

    def to_dict(self, game, fmt) -> dict:
        out = {"n": self.n, "units": list(self.units), "from": self.start.describe(game),
               "to": self.end.describe(game), "legal": self.legal}
        if self.stops:
            out["stops"] = [fmt(h) for h in self.stops]
        if self.actions:
            out["actions"] = self.actions
        if self.player:
            out["player"] = self.player
        if self.note:
            out["note"] = self.note
        if self.check is not None:
            out.update(path=[fmt(h) for h in self.route], ma=fmt_mp(self.check.ma),
                       cost=fmt_mp(self.cost) if self.cost is not None else None,
                       failed_step=self.check.failed_step,
                       reason=self.reason.to_dict(fmt) if self.reason else None,
                       steps=self.check.to_dict(fmt)["steps"])
        return out


@dataclass
class TurnReport:
    """Everything ``hexforge referee turn`` says about a turn."""

    kind: str                      # "saves" or "log"
    files: list[str]
    before: Position
    after: Position
    side: str | None
    phase: str | None
    moves: list[MoveVerdict]
    stacking: list[Reason]
    supply: dict                   # side -> SupplyResult
    appeared: list[dict]
    vanished: list[dict]
    flips: list[dict]
    events: list[Event]
    pieces: list[dict]             # pieces not read: unknown to the game or off every grid
    warnings: list[str]
    players: dict = field(default_factory=dict)   # player name -> side (the PlayerRoster's record)

    @property
    def legal(self) -> bool:
        return not self.stacking and all(m.legal is not False for m in self.moves)

    def to_dict(self) -> dict:
        game = self.after.game
        fmt = self.after.map.format
        return {
            "source": {"kind": self.kind, "files": self.files}, "side": self.side, "phase": self.phase,
            "legal": self.legal, "moves": [m.to_dict(game, fmt) for m in self.moves],
            "stacking": [r.to_dict(fmt) for r in self.stacking],
            "supply": {s: r.to_dict(fmt) for s, r in self.supply.items()},
            "appeared": self.appeared, "vanished": self.vanished, "flips": self.flips,
            "dice": [e.to_dict(game) for e in self.events if e.kind == "dice"],
            "events": [e.to_dict(game) for e in self.events],
            "pieces": self.pieces, "players": self.players, "warnings": self.warnings,
        }


def phase_side(pos: Position, phase: str | None) -> str | None:
    """The side whose phase ``phase`` is, when its name or id is in it ("Soviet movement")."""
    if not phase:
        return None
    words = phase.lower()
    found = [s.id for s in pos.game.sides if s.name.lower() in words or s.id.lower() in words.split()]
    return found[0] if len(found) == 1 else None


def _at(pos: Position, unit_ids, hex: Hex, moved: dict | None = None) -> Position:
    """A copy of ``pos`` with the units on ``hex`` (and their ``moved`` flags from ``moved``)."""
    copy = pos.copy()
    for uid in unit_ids:
        unit = copy.units[uid]
        unit.hex, unit.box = hex, None
        unit.moved = (moved or {}).get(uid, unit.moved)
    copy.touch()
    return copy


def _toward(pos: Position, rs: Ruleset, ids, start: Hex, goal: Hex, moved: dict) -> list[Hex]:
    """The referee's path from ``start`` to ``goal`` (both included), or its best try.

    The best try is the cheapest path to the reachable hex nearest ``goal`` (ties: cheaper),
    then a straight line on, so the first illegal step is where the move really fails.
    """
    grid = pos.map.grid
    reach = reachable(_at(pos, ids, start, moved), rs, list(ids))
    if goal in reach:
        return reach.path(goal)
    if reach.refused or not len(reach):
        return grid.line(start, goal)
    best = min(reach.hexes(), key=lambda h: (grid.distance(h, goal), reach.cost(h), h))
    if grid.distance(best, goal) >= grid.distance(start, goal):
        return grid.line(start, goal)
    return reach.path(best) + grid.line(best, goal)[1:]


def _judge(verdict: MoveVerdict, pos: Position, rs: Ruleset) -> None:
    """Judge ``verdict`` on ``pos`` (the units are put back on the start hex)."""
    try:
        _judge_path(verdict, pos, rs)
    except RulesError as exc:   # one move the referee cannot price does not stop the turn's report
        verdict.legal, verdict.check, verdict.route = None, None, []
        verdict.note = f"the referee could not judge it: {exc}"


def _judge_path(verdict: MoveVerdict, pos: Position, rs: Ruleset) -> None:
    ids = list(verdict.units)
    start = verdict.start.hex
    route = [start]
    for goal in verdict.stops + [verdict.end.hex]:
        route += _toward(pos, rs, ids, route[-1], goal, verdict.start_moved)[1:]
    check = check_path(_at(pos, ids, start, verdict.start_moved), rs, ids, route)
    verdict.route, verdict.check, verdict.legal = check.path, check, check.ok


def _classify(verdict: MoveVerdict, pos: Position) -> bool:
    """Decide whether the referee judges the move; set the note when it does not."""
    start, end = verdict.start, verdict.end
    units = [pos.units[u] for u in verdict.units if u in pos.units]
    if units and all(u.counter.is_marker for u in units):
        verdict.note = "a marker: markers are not moved by the movement rules"
        return False
    if start.kind == "hex" and end.kind == "hex":
        if not units:
            verdict.note = "pieces that are no units of the position (see the pieces not read)"
            return False
        markers = [u.id for u in units if u.counter.is_marker]
        if markers:
            verdict.units = tuple(u for u in verdict.units if u not in markers)
        return True
    what = {"turn": "entered from the turn track (a reinforcement)", "box": "left a box"}
    if start.kind == "hex":
        verdict.note = {"dead": "eliminated (to the dead pile)", "box": f"left the map for box {end.box}",
                        "turn": "put back on the turn track"}.get(end.kind, f"left the map ({end.label})")
    else:
        verdict.note = what.get(start.kind, f"moved from {start.describe(pos.game)}") + \
            ("" if end.kind != "hex" else "; entry is not judged by the movement rules")
    return False


def _reinforcement(pos: Position, counter_id: str):
    """The scenario reinforcement that brings ``counter_id`` (the position's scenario, else the one
    scenario that has it), or None."""
    game = pos.game
    scenarios = [game.scenarios[pos.scenario]] if pos.scenario in game.scenarios else list(game.scenarios.values())
    found = [r for s in scenarios for r in s.reinforcements if counter_id in r.units]
    return found[0] if len({(r.turn, r.entry) for r in found}) == 1 else None


def _entry(verdict: MoveVerdict, pos: Position) -> None:
    """A reinforcement entering the map: its scenario entry in the note; refused before its turn."""
    unit_id = verdict.units[0] if verdict.units else ""
    counter = pos.game.counters.get(unit_id.rsplit("#", 1)[0])
    arrival = _reinforcement(pos, counter.id) if counter else None
    if arrival is None:
        return
    fmt = pos.map.format
    where = f" at {' '.join(fmt(h) for h in arrival.entry)}" if arrival.entry else ""
    rule = arrival.source.rule
    verdict.note += f"; the scenario brings it on turn {arrival.turn}{where}" + (f" (rule {rule})" if rule else "")
    if pos.turn is not None and pos.turn < arrival.turn:
        verdict.legal = False
        reason = Reason(Code.CUSTOM, rule, f"{unit_id} arrives on turn {arrival.turn}, not turn {pos.turn}",
                        verdict.end.hex, verdict.units)
        verdict.check = PathCheck(verdict.units, [verdict.end.hex], Fraction(0), reason=reason, failed_step=0)
        verdict.route = [verdict.end.hex]


def _side_note(verdict: MoveVerdict, pos: Position, side: str | None, players: dict | None = None) -> None:
    sides = {pos.units[u].side for u in verdict.units if u in pos.units}
    notes = [verdict.note] if verdict.note else []
    if side is not None and sides - {side}:
        notes.append(f"a unit of side {', '.join(sorted(str(o) for o in sides - {side}))} moved in side {side}'s phase")
    owner = (players or {}).get(verdict.player or "")
    if owner is not None and sides - {owner}:
        notes.append(f"moved by {verdict.player}, who plays {owner}")
    verdict.note = "; ".join(notes)


def _end_checks(after: Position, rs: Ruleset, side: str | None):
    stacking = check_stacking(after, rs)
    sides = [side] if side else after.sides()
    supply = {s: supply_status(after, rs, s) for s in sides}
    return stacking, supply


def _population(before, after) -> tuple[list[dict], list[dict]]:
    """Units that appeared or vanished between two table positions."""
    game = after.position.game
    appeared, vanished = [], []
    for uid, unit in after.position.units.items():
        if uid not in before.position.units:
            where = game.maps[after.position.map_id].format(unit.hex) if unit.hex else f"box {unit.box}"
            how = f"from the turn {before.waiting[uid]} box" if uid in before.waiting else \
                "not in the earlier position"
            appeared.append({"unit": uid, "where": where, "how": how})
    for uid, unit in before.position.units.items():
        if uid not in after.position.units:
            how = "to the dead pile" if uid in after.dead else \
                f"to the turn {after.waiting[uid]} box" if uid in after.waiting else "deleted"
            vanished.append({"unit": uid, "how": how})
    return appeared, vanished


def _pieces(*tables) -> list[dict]:
    """Pieces not read, once each (a piece the game does not know is in both positions)."""
    seen, out = set(), []
    for label, table in tables:
        for entry in table.unknown + table.off:
            key = (entry["piece"], entry["why"])
            if key not in seen:
                seen.add(key)
                out.append({"file": label, **entry})
    return out


def _side_and_phase(pos: Position, side: str | None, phase: str | None, moved: list[str]) -> tuple:
    phase = phase or pos.phase
    if side is not None and side not in pos.sides():
        raise RulesError(f"unknown side {side!r}; the game has {', '.join(pos.sides())}")
    side = side or phase_side(pos, phase)
    if side is None:
        sides = {pos.units[u].side for u in moved if u in pos.units}
        side = sides.pop() if len(sides) == 1 else None
    return side, phase


def judge_saves(before: GameRecord, after: GameRecord, rs: Ruleset, *, side: str | None = None,
                phase: str | None = None) -> TurnReport:
    """Judge the moves between two saves, each unit alone on the earlier position."""
    b, a = before.end, after.end
    pos = b.position
    if a.position.map_id != pos.map_id:
        raise RulesError(f"the saves are of different maps ({pos.map_id}, {a.position.map_id})")
    moves: list[MoveVerdict] = []
    for uid, unit in pos.units.items():
        later = a.position.units.get(uid)
        if later is None:
            continue
        start = Place("hex", map_id=pos.map_id, hex=unit.hex) if unit.hex else Place("box", box=unit.box)
        end = Place("hex", map_id=pos.map_id, hex=later.hex) if later.hex else Place("box", box=later.box)
        if start != end:
            moves.append(MoveVerdict(len(moves) + 1, (uid,), start, end))
    for uid, turn in b.waiting.items():
        later = a.position.units.get(uid)
        if later is not None and later.hex is not None:
            moves.append(MoveVerdict(len(moves) + 1, (uid,), Place("turn", turn=turn),
                                     Place("hex", map_id=pos.map_id, hex=later.hex)))
    side, phase = _side_and_phase(a.position, side, phase or a.position.phase or pos.phase,
                                  [u for m in moves for u in m.units])
    for verdict in moves:
        if _classify(verdict, pos):
            _judge(verdict, pos, rs)
        elif verdict.start.kind == "turn" and verdict.end.kind == "hex":
            _entry(verdict, a.position)
        _side_note(verdict, pos, side)
    flips = [{"unit": uid, "steps": [unit.steps, a.position.units[uid].steps]}
             for uid, unit in pos.units.items()
             if uid in a.position.units and a.position.units[uid].steps != unit.steps]
    appeared, vanished = _population(b, a)
    stacking, supply = _end_checks(a.position, rs, side)
    return TurnReport("saves", [before.where, after.where], pos, a.position, side, phase, moves, stacking, supply,
                      appeared, vanished, flips, [e for r in (before, after) for e in r.events],
                      _pieces((before.where, b), (after.where, a)),
                      _unique(before.warnings + after.warnings + b.problems + a.problems), {**b.players, **a.players})


def judge_log(record: GameRecord, rs: Ruleset, *, side: str | None = None, phase: str | None = None) -> TurnReport:
    """Judge every move of a log on the position it was made from (see the module docstring)."""
    start = record.start.position
    moved = [u for e in record.events if e.kind == "move" and not e.undone for u in e.units]
    side, phase = _side_and_phase(record.end.position, side, phase or start.phase, moved)
    moves: list[MoveVerdict] = []
    last: dict[str, MoveVerdict] = {}      # unit -> its move so far this phase
    for event in record.events:
        if event.kind == "turn":
            last.clear()
        if event.kind != "move" or event.undone:
            continue
        verdict = MoveVerdict(len(moves) + 1, event.units, event.start, event.end, actions=[event.action],
                              player=event.player,
                              start_moved={u: event.before.units[u].moved for u in event.units
                                           if u in event.before.units})
        earlier = {id(last[u]): last[u] for u in event.units if u in last}
        if len(earlier) == 1 and all(u in last for u in event.units):
            previous = next(iter(earlier.values()))
            if previous.end == event.start and previous.legal is not None and event.end.kind == "hex":
                # the stack goes on: one move through the hex it stopped on
                verdict.start, verdict.stops = previous.start, previous.stops + [event.start.hex]
                verdict.actions = previous.actions + [event.action]
                verdict.start_moved = previous.start_moved
                verdict.n = previous.n if set(previous.units) == set(event.units) else verdict.n
                _judge(verdict, event.before, rs)   # _judge puts the units back on the first start
                _side_note(verdict, event.before, side, record.end.players)
                if verdict.n == previous.n:
                    moves[moves.index(previous)] = verdict
                else:
                    moves.append(verdict)
                for uid in verdict.units:
                    last[uid] = verdict
                continue
        if _classify(verdict, event.before):
            _judge(verdict, event.before, rs)
        elif verdict.start.kind == "turn" and verdict.end.kind == "hex":
            _entry(verdict, event.before)
        _side_note(verdict, event.before, side, record.end.players)
        moves.append(verdict)
        for uid in verdict.units:
            last[uid] = verdict
    flips = [{"action": e.action, "unit": e.units[0], "levels": list(e.levels),
              **({"steps": list(e.steps)} if e.steps else {})}
             for e in record.events if e.kind == "flip" and not e.undone]
    appeared, vanished = _population(record.start, record.end)
    stacking, supply = _end_checks(record.end.position, rs, side)
    return TurnReport("log", [record.where], start, record.end.position, side, phase, moves, stacking, supply,
                      appeared, vanished, flips, record.events,
                      _pieces((record.where + " (start)", record.start), (record.where, record.end)),
                      _unique(record.warnings + record.start.problems + record.end.problems), record.end.players)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
