"""The step-by-step check of a given path, naming the first illegal step, and where a move may
end under the stacking rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..hexes import Hex
from .movement import move_start, moving_units, reachable
from .position import Position, Unit
from .reasons import Code, Reason
from .ruleset import Ruleset
from .steps import StepPricer, fmt_mp, priced


@dataclass
class PathCheck:
    """The verdict on a given path: legal or the first illegal step, with costs per step."""

    units: tuple[str, ...]
    path: list[Hex]
    ma: Fraction
    steps: list[dict] = field(default_factory=list)   # {"hex", "cost", "spent", "mp_left"}
    reason: Reason | None = None
    failed_step: int | None = None   # 1-based index into path of the refused hex

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_dict(self, fmt) -> dict:
        return {"units": list(self.units), "path": [fmt(h) for h in self.path], "ma": fmt_mp(self.ma),
                "legal": self.ok, "failed_step": self.failed_step,
                "reason": self.reason.to_dict(fmt) if self.reason else None,
                "steps": [{"hex": fmt(s["hex"]), "cost": fmt_mp(s["cost"]), "spent": fmt_mp(s["spent"]),
                           "mp_left": fmt_mp(s["mp_left"])} for s in self.steps]}


def check_path(pos: Position, rs: Ruleset, unit_ids, path: list[Hex], mode: str | None = None) -> PathCheck:
    """Walk ``path`` (starting at the units' hex, or the first hex after it) step by step.

    Returns the costs of the legal steps and, at the first illegal one, the reason (rule, hex,
    units). Also refuses a path that ends where it may not (enemy hex) or that goes on after a
    step that ends movement (enemy ZOC).
    """
    units = moving_units(pos, unit_ids)
    m = rs.mode(mode)
    start, why = move_start(pos, units, m, rs)
    ids = tuple(u.id for u in units)
    path = list(path)
    if start is not None and (not path or path[0] != start):
        path = [start, *path]
    result = PathCheck(ids, path, Fraction(0))
    if why is not None:
        result.reason, result.failed_step = why, 0
        return result
    result = priced(pos, rs, units, m, lambda ctx: _walk(ctx, result, path, start, mode))
    # a ruleset whose legality depends on the whole path (river banks) says so last
    refuse = getattr(rs, "path_refusal", None)
    if result.reason is None and refuse is not None:
        got = refuse(pos, units, path)
        if got is not None:
            result.reason, result.failed_step = got
    return result


def _walk(ctx: StepPricer, result: PathCheck, path: list[Hex], start: Hex, mode: str | None) -> PathCheck:
    """The step-by-step walk of :func:`check_path` at the pricer's scale."""
    pos, rs, m, units, board, ids = ctx.pos, ctx.rs, ctx.mode, ctx.units, ctx.board, result.units
    result.ma = ctx.ma
    result.steps = []
    s = board.index[start]
    if ctx.ez[s] and (rs.zoc.sticky or not m.start_in_ezoc) and len(path) > 1:
        result.reason = Reason(Code.ZOC_STICKY if rs.zoc.sticky else Code.MODE_NOT_ALLOWED,
                               rs.zoc.rule if rs.zoc.sticky else m.rule,
                               f"{ids[0]} starts in an enemy ZOC and may not leave it this way", start, ids)
        result.failed_step = 0
        return result
    g, i, stopped = 0, s, False
    for n, hex in enumerate(path[1:], start=1):
        j = board.index.get(hex)
        if j is None:
            result.reason = Reason(Code.OFF_MAP, None, f"{board.map.format(hex)} is not on the map", hex, ids)
        elif stopped and ctx.ez[i]:
            result.reason = Reason(Code.ZOC_STOP, rs.zoc.rule,
                                   f"the move had to end at {board.map.format(board.hexes[i])} "
                                   f"(entering enemy ZOC ends movement)", hex, ids)
        elif stopped:
            why = ("a unit moving more than its MP allow moves one hex only" if g > ctx.ma_scaled
                   else "the step into it ends the move")
            result.reason = Reason(Code.MOVE_ENDED, rs.movement.minimum_move_rule or rs.movement.rule,
                                   f"the move had to end at {board.map.format(board.hexes[i])} ({why})", hex, ids)
        else:
            k = board.k_of(board.hexes[i], hex)
            if k is None:
                result.reason = Reason(Code.NOT_ADJACENT, None, f"{board.map.format(hex)} is not next to "
                                       f"{board.map.format(board.hexes[i])}", hex, ids)
            else:
                got = ctx.step(i, k, j, g, s)
                if isinstance(got, Reason):
                    result.reason = got
                else:
                    ng, stopped = got
                    spent = min(ng, ctx.ma_scaled) if stopped else ng
                    result.steps.append({"hex": hex, "cost": board.to_mp(ng - g), "spent": board.to_mp(ng),
                                         "mp_left": Fraction(0) if stopped else ctx.ma - board.to_mp(spent)})
                    g, i = ng, j
        if result.reason is not None:
            result.failed_step = n
            return result
    if len(path) > 1:
        why = end_stacking(pos, rs, units, path[-1], mode)
        if why is not None:
            result.reason, result.failed_step = why, len(path) - 1
    return result


def end_stacking(pos: Position, rs: Ruleset, units: list[Unit], dest: Hex, mode: str | None = None) -> Reason | None:
    """Why ``units`` may not end a move on ``dest`` under the stacking rules (None if they may).

    Only when the ruleset checks stacking at the end of each move (``when`` "move" or
    "always"), and only for violations the moving units take part in.
    """
    if rs.stacking.when not in ("move", "always"):
        return None
    from .stacking import stack_reasons
    movers = {u.id for u in units}
    there = [u for u in pos.at(dest) if u.id not in movers] + list(units)
    key = mode if mode and rs.mode(mode).stacking else None
    for reason in stack_reasons(pos, rs, dest, there, key):
        if movers & set(reason.units):
            return reason
    return None


def destinations(pos: Position, rs: Ruleset, unit_ids, mode: str | None = None) -> list[Hex]:
    """The reachable hexes where the units may also end their move (stacking checked when the
    ruleset checks it at the end of each move)."""
    reach = reachable(pos, rs, unit_ids, mode)
    units = moving_units(pos, unit_ids)
    return [h for h in reach.hexes() if end_stacking(pos, rs, units, h, mode) is None]
