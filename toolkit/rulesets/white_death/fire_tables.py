"""White Death's fire tables as data (game.yaml ``charts``): the conventional and antitank
tables (odds columns, Rules 9 C and 10 C) and the Barrage Table (value columns, 11 B), each
one d6 (notes 11.8) to a result, and the morale thresholds (14).

Plain logic over the game's charts; no position. A table reads::

    conventional_fire:
      rule: "9 C"
      dice: 1d6
      kind: odds            # or "value" (the barrage: columns are ranges of the total value)
      below: "-"            # the result below the first column
      columns: ["1:2", ..., "6:1"]      # barrage: ["1-4", ..., "20-29", "60+"]
      rows: {1: ["MC", "MC1", ...], ..., "7+": [...]}

Cells: ``-`` (no effect, a miss), ``MC`` (a morale check), ``MCn`` (n strength points lost and
+n on the check), ``n`` (n strength points lost; antitank and barrage).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import DataError
from ...referee.combat_chart import _bounds, _roll_label, dice_distribution, parse_dice

__all__ = ["FireResult", "FireTable", "fire_table", "morale_limits"]

_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)|(\+))?\s*")


@dataclass(frozen=True)
class FireResult:
    """One cell: ``text``, strength points ``lost``, and whether a morale check follows
    (``mc``; for ``MCn`` cells the DRM is ``lost``)."""

    text: str
    lost: int = 0
    mc: bool = False

    @property
    def empty(self) -> bool:
        return not self.lost and not self.mc


def _cell(text) -> FireResult:
    raw = str(text).strip()
    if raw in ("-", "–", "", "0"):
        return FireResult("-")
    m = re.fullmatch(r"MC\s*(\d*)", raw, re.I)
    if m:
        return FireResult(raw, int(m[1] or 0), True)
    if raw.isdigit():
        return FireResult(raw, int(raw))
    raise ValueError(f"cell {raw!r} is not -, MC, MCn or a number of strength points")


@dataclass
class FireTable:
    """A fire table read from game data; quacks like the shared ``CombatChart`` where the
    combat answer prints one (``name``, ``rule``, ``kind``, ``estimated``, ``dice_for``)."""

    name: str
    rule: str | None
    kind: str
    dice: str
    columns: list[str]
    bounds: list
    rows: list[tuple[int | None, int | None, list[FireResult]]]
    below: FireResult
    estimated: str | None = None
    title: str = ""
    extra: dict = field(default_factory=dict)

    def dice_for(self, side) -> str:
        return self.dice

    def rerolls_for(self, side) -> tuple:
        return ()

    def column_of(self, fire: Fraction, defence: Fraction | None = None) -> int | None:
        """The column of ``fire`` (against ``defence`` on an odds table) rounded in the
        defender's favour (9 C.3): the highest column not above it; None below the first."""
        value = Fraction(fire) if self.kind == "value" else (
            Fraction(fire) / Fraction(defence) if defence else None)
        if value is None:
            return len(self.columns) - 1
        best = None
        for i, bound in enumerate(self.bounds):
            if bound <= value:
                best = i
        return best

    def ratio_text(self, fire: Fraction, defence: Fraction | None = None) -> str:
        def num(x):
            x = Fraction(x)
            return str(x.numerator) if x.denominator == 1 else str(x)
        return num(fire) if self.kind == "value" else f"{num(fire)}:{num(defence)}"

    def result(self, roll: int, column: int | None) -> FireResult:
        """The cell a modified ``roll`` reads in ``column`` (None: below the table); rolls
        beyond the rows read the first or last row."""
        if column is None:
            return self.below
        lows = [lo for lo, _, _ in self.rows if lo is not None]
        for lo, hi, cells in self.rows:
            if (lo is None or roll >= lo) and (hi is None or roll <= hi):
                return cells[column]
        return self.rows[0][2][column] if lows and roll < min(lows) else self.rows[-1][2][column]

    def distribution(self, column: int | None, drm: int = 0) -> dict[FireResult, Fraction]:
        """Each result of ``column`` with its exact probability over the die plus ``drm``."""
        out: dict[FireResult, Fraction] = {}
        for roll, p in dice_distribution(self.dice).items():
            cell = self.result(roll + drm, column)
            out[cell] = out.get(cell, Fraction(0)) + p
        return out


def _value_bounds(columns: list[str]) -> list[int]:
    out = []
    for label in columns:
        m = _RANGE.fullmatch(str(label))
        if not m:
            raise ValueError(f"column {label!r} is not a range of values like 20-29 or 60+")
        out.append(int(m[1]))
    if any(b >= a for a, b in zip(out[1:], out)):
        raise ValueError(f"columns {columns} are not in increasing order")
    return out


def fire_table(game, name: str) -> FireTable:
    """The table ``name`` of ``game``'s charts (cached on the game); :class:`DataError` naming
    the file and field when it is missing or malformed."""
    cache = game.__dict__.setdefault("_white_death_tables", {})
    if name in cache:
        return cache[name]
    where = f"{game.root}/game.yaml" if game.root else f"game {game.id}"
    data = game.charts.get(name)
    if not isinstance(data, dict):
        raise DataError(f"game {game.id} has no {name.replace('_', ' ')} table (charts.{name})", path=where,
                        field=f"charts.{name}")
    try:
        columns = [str(c) for c in data.get("columns") or []]
        if not columns:
            raise ValueError("columns are missing")
        kind = str(data.get("kind", "odds"))
        if kind not in ("odds", "value"):
            raise ValueError(f"kind must be odds or value, not {kind!r}")
        bounds = _value_bounds(columns) if kind == "value" else _bounds(columns, "odds")
        dice = str(data.get("dice", "1d6"))
        parse_dice(dice)
        rows = []
        raw_rows = data.get("rows")
        if not isinstance(raw_rows, dict) or not raw_rows:
            raise ValueError("rows must map each roll to its results")
        for label, cells in raw_rows.items():
            if not isinstance(cells, (list, tuple)) or len(cells) != len(columns):
                raise ValueError(f"row {label!r} must have {len(columns)} results, one per column")
            lo, hi = _roll_label(label)
            try:
                rows.append((lo, hi, [_cell(c) for c in cells]))
            except ValueError as exc:
                raise ValueError(f"row {label!r}: {exc}") from None
        below = _cell(data.get("below", "-"))
    except (ValueError, TypeError) as exc:
        raise DataError(str(exc), path=where, field=f"charts.{name}") from None
    table = FireTable(name, data.get("rule"), kind, dice, columns, bounds, rows, below, data.get("estimated"),
                      str(data.get("title") or name.replace("_", " ")),
                      {k: v for k, v in data.items() if k not in ("columns", "rows")})
    cache[name] = table
    return table


def morale_limits(game) -> tuple[int, int]:
    """``(pass, fail)``: a modified roll up to morale + pass passes, up to morale + fail fails,
    above routs (14: 0 and 2)."""
    data = game.charts.get("morale") or {}
    return int(data.get("pass", 0)), int(data.get("fail", 2))
