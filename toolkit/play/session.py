"""A game in play: a start position and the events since, each checked by the referee.

Every change is an event, a plain JSON-ready dict (hexes as printed ids): ``move``, ``phase``
(with the units that arrived and the supply judged on the way), ``combat`` (the assessment and
the seeded roll) and ``loss``. The position after each event is kept, so undo restores the
exact earlier position; undo goes back only within the current phase. A session is saved as
its start, its seed and its events (:mod:`.savefile`); loading replays the events through the
same checks, so a file edited to cheat is refused.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import IllegalMoveError, RulesError
from ..game import Game
from ..hexes import Hex
from ..referee import (Position, Ruleset, apply_supply, check_path, check_stacking,
                       position_from_scenario, reachable, supply_status)
from ..referee.steps import fmt_mp
from . import sequence
from .sequence import Stage

__all__ = ["Session", "Refusal", "refuse"]


@dataclass(frozen=True)
class Refusal:
    """Why the session (not a rule of the game) refuses an action: it is not this side's
    phase, the unit moved already, a replay is still running. Same JSON shape as a Reason."""

    code: str
    text: str
    rule: str | None = None
    hex: Hex | None = None
    units: tuple[str, ...] = ()

    def to_dict(self, fmt=None) -> dict:
        where = fmt(self.hex) if (self.hex is not None and fmt) else None
        return {"code": self.code, "rule": self.rule, "hex": where, "units": list(self.units), "text": self.text}

    def __str__(self) -> str:
        return self.text + (f" [rule {self.rule}]" if self.rule else "")


def refuse(*reasons) -> IllegalMoveError:
    """The error an action raises when refused: its message and the reasons behind it."""
    return IllegalMoveError("; ".join(str(r) for r in reasons), list(reasons))


@dataclass
class Session:
    """One game being played: ``states[i]`` is the position after ``events[:i]``."""

    game: Game
    rs: Ruleset
    game_name: str
    seed: int
    states: list[Position]
    events: list[dict] = field(default_factory=list)
    #: Events of a loaded file not yet replayed (step through them with :meth:`step`).
    pending: list[dict] = field(default_factory=list)
    _replaying: bool = field(default=False, repr=False, compare=False)

    # -- starting ----------------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game, rs: Ruleset, *, scenario: str | None = None, turn: int | None = None,
            seed: int | None = None, game_name: str | None = None) -> "Session":
        """A session at a scenario's set-up, at the first phase of its first side."""
        return cls.from_position(position_from_scenario(game, scenario, turn=turn), rs, seed=seed,
                                 game_name=game_name)

    @classmethod
    def from_position(cls, pos: Position, rs: Ruleset, *, seed: int | None = None,
                      game_name: str | None = None) -> "Session":
        """A session starting at ``pos`` (its phase defaults to the first of its side's turn)."""
        pos = pos.copy()
        order = sequence.stages(pos.game, cls._first_side(pos))
        named = {(side, phase.lower()): phase for side, phase in order}
        if pos.phase is not None and (pos.side, pos.phase.lower()) in named:
            pos.phase = named[(pos.side, pos.phase.lower())]      # "movement" in a file is "Movement"
        if pos.phase is None:
            pos.side, pos.phase = next(((s, p) for s, p in order if s == pos.side or pos.side is None), order[0])
        if pos.turn is None:
            pos.turn = 1
        pos.touch()
        seed = random.SystemRandom().randrange(2 ** 31) if seed is None else seed
        return cls(game=pos.game, rs=rs, game_name=game_name or pos.game.id, seed=seed, states=[pos])

    @staticmethod
    def _first_side(pos: Position) -> str | None:
        """The side that starts each turn: the scenario's ``first_side``; for a position without
        a scenario, the game's first scenario's, else the side to move in ``pos``."""
        game = pos.game
        scen = game.scenarios.get(pos.scenario) if pos.scenario else None
        if scen is None and game.scenarios:
            scen = next(iter(game.scenarios.values()))
        return (scen.first_side if scen else None) or pos.side

    @property
    def first_side(self) -> str | None:
        """The side that starts each turn of this game (fixed by the start position)."""
        return self._first_side(self.start)

    # -- reading -----------------------------------------------------------------------------

    @property
    def pos(self) -> Position:
        """The current position (do not edit it; act through the session)."""
        return self.states[-1]

    @property
    def start(self) -> Position:
        return self.states[0]

    @property
    def stage(self) -> Stage:
        pos = self.pos
        return Stage(pos.turn or 1, pos.side, pos.phase or "")

    @property
    def fmt(self):
        return self.pos.map.format

    def can_undo(self) -> bool:
        """An event of the current phase exists (phase changes are not undone)."""
        return bool(self.events) and self.events[-1]["type"] != "phase"

    def roll_seed(self) -> int:
        """The seed of the next roll: fixed by the game's seed and the event number, so a
        replayed game rolls the same dice and an undone roll comes out the same again."""
        return random.Random(f"{self.seed}:{len(self.events)}").randrange(2 ** 31)

    # -- acting ------------------------------------------------------------------------------

    def _ready(self) -> None:
        if self.pending and not self._replaying:
            raise refuse(Refusal("replay-pending", f"{len(self.pending)} event(s) of the loaded game are "
                                 "still to be replayed; step through them or finish the replay first"))

    def _movers(self, unit_ids) -> list:
        pos = self.pos
        ids = [unit_ids] if isinstance(unit_ids, str) else list(unit_ids)
        if not ids:
            raise RulesError("no unit given to move")
        units = pos.units_of(ids)
        if not sequence.is_movement(pos.phase):
            raise refuse(Refusal("not-movement-phase", f"units move only in a movement phase; this is the "
                                 f"{pos.phase} phase", units=tuple(ids)))
        for u in units:
            if pos.side is not None and u.side != pos.side:
                raise refuse(Refusal("not-phasing-side", f"{u.id} is a {u.side} unit; only {pos.side} units "
                                     f"move in the {pos.phase} phase", units=(u.id,)))
            if u.moved:
                raise refuse(Refusal("already-moved", f"{u.id} has moved this phase (undo its move to move "
                                     f"it again)", units=(u.id,)))
        return units

    def plan(self, unit_ids, dest: Hex, mode: str | None = None) -> list[Hex]:
        """The path a move to ``dest`` is asked along: the cheapest one when ``dest`` is
        reachable, else the straight hex line (so the referee names the first bad step)."""
        units = self.pos.units_of(unit_ids)
        reach = reachable(self.pos, self.rs, [u.id for u in units], mode)
        if dest in reach:
            return reach.path(dest)
        start = units[0].hex
        if start is None:
            return [dest]
        return self.pos.map.grid.line(start, dest)

    def move(self, unit_ids, path: list[Hex], mode: str | None = None) -> dict:
        """Move units along ``path`` (starting at their hex or the hex after); refused with the
        referee's reason (:class:`IllegalMoveError`) and the position unchanged if illegal."""
        self._ready()
        units = self._movers(unit_ids)
        ids = [u.id for u in units]
        if mode is not None and mode not in self.rs.movement.modes:
            raise RulesError(f"unknown movement mode {mode!r}; this game has "
                             f"{', '.join(self.rs.movement.modes) or 'none'}")
        result = check_path(self.pos, self.rs, ids, list(path), mode=mode)
        if not result.ok:
            raise refuse(result.reason)
        if len(result.path) < 2:
            raise refuse(Refusal("no-move", "the path does not leave the units' hex", units=tuple(ids)))
        new = self.pos.copy()
        dest = result.path[-1]
        for uid in ids:
            new.units[uid].hex, new.units[uid].box, new.units[uid].moved = dest, None, True
        last = result.steps[-1]
        event = {"type": "move", **self.stage.to_dict(), "units": ids, "path": [self.fmt(h) for h in result.path],
                 "mode": mode, "spent": fmt_mp(last["spent"]), "mp_left": fmt_mp(last["mp_left"])}
        return self._push(new, event)

    def next_phase(self) -> dict:
        """End the phase: check stacking when the rules check it at the end of a phase, then
        go on to the next phase (arrivals on a new turn, supply where the phase judges it)."""
        self._ready()
        pos, game = self.pos, self.game
        if self.rs.stacking.when == "phase":
            found = check_stacking(pos, self.rs)
            if found:
                raise refuse(*found)
        before = self.stage
        after = sequence.next_stage(game, self.first_side, before)
        new = pos.copy()
        new.turn, new.side, new.phase = after.turn, after.side, after.phase
        event: dict = {"type": "phase", "from": before.to_dict(), "to": after.to_dict()}
        if after.turn != before.turn:
            event["arrived"] = self._arrivals(new, before.turn, after.turn)
            from .combat import spent_statuses
            spent = spent_statuses(self.rs)
            for unit in new.units.values():     # units that gave support are ready again (docs/play.md)
                unit.status -= spent
            scen = game.scenarios.get(new.scenario) if new.scenario else None
            weather = scen.weather(after.turn) if scen else None
            if weather:
                new.weather = weather
            event["weather"] = new.current_weather
        if sequence.is_movement(after.phase):
            for unit in new.units.values():
                unit.moved = False
        new.touch()
        judged = self._supply_sides(before, after)
        if judged:
            event["supply"] = {}
            for side in judged:
                result = supply_status(new, self.rs, side)
                apply_supply(new, self.rs, result)
                new.touch()
                event["supply"][side] = {"unsupplied": sorted(result.unsupplied),
                                         "status": {u: result.status[u] for u in sorted(result.unsupplied)}}
        return self._push(new, event)

    def _supply_sides(self, before: Stage, after: Stage) -> list[str]:
        """Sides whose supply is judged on entering ``after``: the side a supply phase names
        (every side if it names none); in a game without a supply phase, the side whose player
        turn starts (docs/play.md)."""
        sides = self.pos.sides()
        if sequence.is_supply(after.phase):
            named = sequence.named_side(self.game, after.phase)
            return [named] if named else sides
        has_supply_phase = any(sequence.is_supply(p) for p in self.game.turn_phases)
        if not has_supply_phase and after.side != before.side and after.side in sides:
            return [after.side]
        return []

    def _arrivals(self, new: Position, old_turn: int, turn: int) -> list[str]:
        """Place the scenario's reinforcements of turns after ``old_turn`` up to ``turn``."""
        if not new.scenario or new.scenario not in self.game.scenarios:
            return []
        then = position_from_scenario(self.game, new.scenario, turn=old_turn)
        now = position_from_scenario(self.game, new.scenario, turn=turn)
        arrived = []
        for uid, unit in now.units.items():
            if uid not in then.units and uid not in new.units:
                new.units[uid] = unit
                arrived.append(uid)
        return sorted(arrived)

    def loss(self, unit_id: str, steps: int = 1) -> dict:
        """A unit loses ``steps`` steps (a combat result); at none left it is eliminated."""
        self._ready()
        unit = self.pos.unit(unit_id)
        if unit.hex is None and unit.box is None:
            raise refuse(Refusal("eliminated", f"{unit_id} is already eliminated", units=(unit_id,)))
        if steps < 1:
            raise RulesError(f"a loss is at least one step, not {steps}")
        new = self.pos.copy()
        u = new.units[unit_id]
        left = u.steps - steps
        if left <= 0:
            u.hex, u.box = None, None
        else:
            u.steps = left
        event = {"type": "loss", **self.stage.to_dict(), "unit": unit_id, "steps": steps,
                 "eliminated": left <= 0}
        return self._push(new, event)

    def record(self, event: dict, new: Position | None = None) -> dict:
        """Add an event built elsewhere (a combat roll), with the position after it."""
        self._ready()
        return self._push(new if new is not None else self.pos.copy(), {**event, **self.stage.to_dict()})

    def _push(self, new: Position, event: dict) -> dict:
        new.touch()
        event = {"n": len(self.events) + 1, **event}
        self.events.append(event)
        self.states.append(new)
        return event

    def undo(self) -> dict:
        """Take back the last event of this phase; the position is the one before it, exactly."""
        if self.pending:
            raise refuse(Refusal("replay-pending", "finish the replay before undoing"))
        if not self.events:
            raise refuse(Refusal("nothing-to-undo", "nothing has happened yet"))
        if not self.can_undo():
            raise refuse(Refusal("phase-ended", "undo goes back only within the current phase; the last "
                                 f"event ended the {self.events[-1]['from']['phase']} phase"))
        self.states.pop()
        return self.events.pop()

    # -- replaying ---------------------------------------------------------------------------

    def apply(self, event: dict) -> dict:
        """Replay one recorded event through the same checks; the new event must match it."""
        kind = event.get("type")
        grid = self.pos.map.grid
        if kind == "move":
            mode = event.get("mode")
            if mode is not None and not isinstance(mode, str):
                raise RulesError(f"mode: expected a movement mode's name, found {mode!r}")
            got = self.move(event_ids(event, "units"), [grid.parse(h) for h in event_ids(event, "path")], mode)
            keys = ("path", "spent")
        elif kind == "phase":
            got = self.next_phase()
            keys = ("to",)
        elif kind == "loss":
            steps = event.get("steps", 1)
            if not isinstance(steps, int) or isinstance(steps, bool):
                raise RulesError(f"steps: expected a whole number, found {steps!r}")
            got = self.loss(event_ids(event, "unit", one=True)[0], steps)
            keys = ("unit",)
        elif kind == "combat":
            from .combat import replay_combat
            got = replay_combat(self, event)
            keys = ("dice", "result")
        elif kind in ("retreat", "advance"):
            from . import combat
            path = event_ids(event, "path") if event.get("path") else []
            box = event.get("box")
            if box is not None and not isinstance(box, str):
                raise RulesError(f"box: expected a box id, found {box!r}")
            dest = grid.parse(path[-1]) if path and box is None else None
            if kind == "retreat":
                got = combat.retreat(self, event_ids(event, "units"), dest, box)
            else:
                got = combat.advance(self, event_ids(event, "units"), dest)
            keys = ("path",)
        else:
            raise RulesError(f"unknown event type {kind!r}")
        for key in keys:
            if got.get(key) != event.get(key):
                self.states.pop()
                self.events.pop()
                raise RulesError(f"the recorded {key} {event.get(key)!r} does not match the referee's "
                                 f"{got.get(key)!r}")
        return got

    def step(self) -> dict | None:
        """Replay the next pending event of a loaded game (None when there is none)."""
        if not self.pending:
            return None
        self._replaying = True
        try:
            got = self.apply(self.pending[0])
        finally:
            self._replaying = False
        self.pending = self.pending[1:]
        return got


def event_ids(event: dict, key: str, one: bool = False) -> list[str]:
    """An event's list of ids (or one id): :class:`RulesError` naming the field if malformed."""
    value = event.get(key)
    if one and isinstance(value, str):
        return [value]
    if one or not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        what = "an id" if one else "a list of ids"
        raise RulesError(f"{key}: expected {what}, found {value!r}")
    return value
