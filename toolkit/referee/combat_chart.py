"""The Combat Results Table as data: columns (odds or differential), rows by die roll, dice,
and the result codes read as steps lost, retreats and special results for each side.

Plain logic over a game's ``charts`` mapping; no position, no ruleset. A chart reads::

    combat_results:
      rule: "6.3"
      kind: odds              # or differential (columns "-2", "0", "+3"...); default: from the labels
      dice: 1d6               # 1d6, d10, 2d6, 3d6 (default: the game's first dice); or by the
                              # attacker's side: {german: 1d6, soviet: d10}
      reroll: {soviet: [10]}  # rolls that are rolled again (a list: for every side)
      numbers: steps          # "requirements": each number is a step or an extra retreat hex (VV)
      sides: positional       # "attacker/defender" cells; "prefixed": A.../D... parts (default)
      retreat: 1              # hexes of an "R" (a list [1, 2] when the owner chooses)
      columns: ["1/3", ..., "8/1"]
      rows: {1: [...], 2: [...], "7+": [...]}   # roll labels: n, "a-b", "n+", "<=n"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product

from ..errors import DataError

__all__ = ["CombatChart", "CombatResult", "SideResult", "chart_of", "dice_distribution", "parse_dice",
           "parse_result"]

_DICE = re.compile(r"\s*(\d*)\s*[dD]\s*(\d+)\s*")
_RATIO = re.compile(r"\s*(\d+(?:\.\d+)?)\s*[-/:]\s*(\d+(?:\.\d+)?)\s*")
_DIFF = re.compile(r"\s*(?:<=|≤|>=|≥)?\s*([+-]?\d+)\s*(?:\+|\.\..*|to.*)?\s*")


def parse_dice(text: str) -> tuple[int, int]:
    """``(count, sides)`` of a dice text such as ``1d6``, ``d10``, ``2d6``, ``3d6``."""
    match = _DICE.fullmatch(str(text))
    if not match:
        raise ValueError(f"dice {text!r} is not of the form NdS (1d6, d10, 2d6, 3d6)")
    n, sides = int(match[1] or 1), int(match[2])
    if not (1 <= n <= 10 and 2 <= sides <= 100):
        raise ValueError(f"dice {text!r} is out of range (1-10 dice of 2-100 sides)")
    return n, sides


@lru_cache(maxsize=64)
def dice_distribution(text: str) -> dict[int, Fraction]:
    """The exact distribution of the sum of ``text`` dice: roll -> probability (sums to 1)."""
    n, sides = parse_dice(text)
    counts: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = sides ** n
    return {roll: Fraction(ways, whole) for roll, ways in sorted(counts.items())}


@dataclass(frozen=True)
class SideResult:
    """What a result does to one side: ``steps`` lost, ``retreat`` hexes (a tuple when the
    owner chooses among lengths), ``requirements`` (each one step or one more retreat hex, the
    owner's choice, VV 6.4), ``eliminated``, ``exchange`` (lose as many steps as the other
    side), ``special`` (a ``*``), ``units`` whole units eliminated (the owner's choice) and
    ``half_units`` (half the units, rounded down, eliminated)."""

    steps: int = 0
    retreat: tuple[int, ...] = ()
    requirements: int = 0
    eliminated: bool = False
    exchange: bool = False
    special: bool = False
    units: int = 0
    half_units: bool = False

    @property
    def empty(self) -> bool:
        return self == SideResult()

    def to_dict(self) -> dict:
        return {"steps": self.steps, "retreat": list(self.retreat), "requirements": self.requirements,
                "eliminated": self.eliminated, "exchange": self.exchange, "special": self.special,
                "units": self.units, "half_units": self.half_units, "text": self.describe()}

    def describe(self) -> str:
        if self.empty:
            return "no effect"
        parts = []
        if self.eliminated:
            parts.append("eliminated")
        if self.exchange:
            parts.append("loses as many steps as the other side (exchange)")
        if self.half_units:
            parts.append("half its units eliminated (rounded down)")
        if self.units:
            parts.append(f"{self.units} unit{'s' if self.units > 1 else ''} eliminated (owner's choice)")
        if self.steps:
            parts.append(f"loses {self.steps} step{'s' if self.steps > 1 else ''}")
        if self.retreat:
            hexes = " or ".join(str(r) for r in self.retreat)
            parts.append(f"retreats {hexes} hex{'es' if self.retreat != (1,) else ''}")
        if self.requirements:
            n = self.requirements
            parts.append(f"{'then ' if self.retreat else ''}{n} {'more ' if self.retreat else ''}"
                         f"step{'s' if n > 1 else ''} lost or hex{'es' if n > 1 else ''} retreated (owner's choice)")
        if self.special:
            parts.append("special result")
        return ", ".join(parts)


@dataclass(frozen=True)
class CombatResult:
    """A CRT cell read: its ``text`` and what it does to the ``attacker`` and ``defender``."""

    text: str
    attacker: SideResult = field(default_factory=SideResult)
    defender: SideResult = field(default_factory=SideResult)

    def side(self, role: str) -> SideResult:
        return self.attacker if role == "attacker" else self.defender

    def to_dict(self) -> dict:
        return {"text": self.text, "attacker": self.attacker.to_dict(), "defender": self.defender.to_dict()}


#: One-letter results after the A/D of a side (Grossdeutschland 10.4): C casualties (one step),
#: D decimated (one unit eliminated), P pulverized (half the units eliminated).
_LETTERS = {"C": {"steps": 1}, "D": {"units": 1}, "P": {"half_units": True}}


def _side(body: str, numbers: str, retreat: tuple[int, ...]) -> SideResult:
    body = body.strip()
    if body in ("", "-", "–", "—", "0", "NE"):
        return SideResult()
    special = "*" in body
    body = body.replace("*", "")
    if body in ("E", "X", "EL", "ELIM"):
        return SideResult(eliminated=True, special=special)
    if body in _LETTERS:
        return SideResult(special=special, **_LETTERS[body])
    m = re.fullmatch(r"(\d*)(R)?(\d*)", body)
    if not m:
        raise ValueError(f"cannot read {body!r}")
    before, has_r, after = m[1], bool(m[2]), m[3]
    if numbers == "requirements":
        reqs = int(before or 0) + int(after or 0)
        return SideResult(retreat=(1,) if has_r else (), requirements=reqs, special=special)
    steps = int(before or 0)
    if has_r:
        hexes = (int(after),) if after else retreat
        return SideResult(steps=steps, retreat=hexes, special=special)
    return SideResult(steps=steps + int(after or 0), special=special)


def parse_result(text: str, numbers: str = "steps", sides: str = "prefixed",
                 retreat: tuple[int, ...] = (1,)) -> CombatResult:
    """Read one CRT cell. ``positional``: ``attacker/defender`` (VV "1/R2", "-/R"); ``prefixed``:
    parts led by A or D ("A1/DR", "AR", "DE", "EX" for an exchange, "NE" or "-" for nothing)."""
    raw = str(text).strip()
    if sides == "positional":
        parts = raw.split("/")
        if len(parts) != 2:
            raise ValueError(f"result {raw!r} is not attacker/defender")
        return CombatResult(raw, _side(parts[0], numbers, retreat), _side(parts[1], numbers, retreat))
    if raw.upper() in ("", "-", "–", "NE", "NO EFFECT"):
        return CombatResult(raw)
    if raw.upper() in ("EX", "EXCHANGE"):
        return CombatResult(raw, SideResult(exchange=True), SideResult(eliminated=True))
    attacker, defender = SideResult(), SideResult()
    for part in re.split(r"[/ ,]+", raw):
        if not part:
            continue
        who, body = part[0].upper(), part[1:]
        if who == "A":
            attacker = _side(body, numbers, retreat)
        elif who == "D":
            defender = _side(body, numbers, retreat)
        else:
            raise ValueError(f"result part {part!r} of {raw!r} does not start with A or D")
    return CombatResult(raw, attacker, defender)


def _roll_label(label) -> tuple[int | None, int | None]:
    """``(low, high)`` of a row label: n, "a-b", "n+", "<=n" (None: open)."""
    text = str(label).strip().replace("≤", "<=").replace("–", "-")
    if re.fullmatch(r"-?\d+", text):
        return int(text), int(text)
    m = re.fullmatch(r"(-?\d+)\s*-\s*(-?\d+)", text)
    if m:
        return int(m[1]), int(m[2])
    m = re.fullmatch(r"(-?\d+)\s*\+", text)
    if m:
        return int(m[1]), None
    m = re.fullmatch(r"<=\s*(-?\d+)|(-?\d+)\s*-", text)
    if m:
        return None, int(m[1] or m[2])
    raise ValueError(f"row label {label!r} is not a roll (n, a-b, n+, <=n)")


@dataclass
class CombatChart:
    """A CRT read from game data. ``bounds[i]`` is the least odds (a Fraction) or difference
    (an int) of column ``i``; ``rows`` hold ``(low, high, results)`` by roll."""

    name: str
    rule: str | None
    kind: str
    dice: str
    columns: list[str]
    bounds: list
    rows: list[tuple[int | None, int | None, list[CombatResult]]]
    estimated: str | None = None
    dice_by_side: dict = field(default_factory=dict)
    reroll: dict = field(default_factory=dict)

    def dice_for(self, side: str | None) -> str:
        """The dice the attacker of ``side`` rolls on this table."""
        return self.dice_by_side.get(side, self.dice)

    def rerolls_for(self, side: str | None) -> tuple[int, ...]:
        """Rolls the attacker of ``side`` rolls again (they never read a row)."""
        return tuple(self.reroll.get(side, self.reroll.get("*", ())))

    def ways(self, side: str | None, dice: str | None = None) -> tuple[dict[int, int], int]:
        """``(roll -> ways, total ways)`` of the attacker's dice (``dice`` replacing them, with
        no reroll), rolls to reroll left out (a reroll until another value: the others keep
        their relative odds)."""
        cache = self.__dict__.setdefault("_ways", {})
        key = (side, dice)
        if key not in cache:
            text = dice or self.dice_for(side)
            n, sides = parse_dice(text)
            skip = set() if dice else set(self.rerolls_for(side))
            ways = {roll: int(p * sides ** n) for roll, p in dice_distribution(text).items() if roll not in skip}
            cache[key] = (ways, sum(ways.values()))
        return cache[key]

    @property
    def low_roll(self) -> int:
        return min(lo if lo is not None else hi for lo, hi, _ in self.rows)

    @property
    def high_roll(self) -> int:
        return max(hi if hi is not None else lo for lo, hi, _ in self.rows)

    def column_of(self, attack: Fraction, defence: Fraction) -> int | None:
        """The column of ``attack`` against ``defence`` rounded in the defender's favour: the
        highest column whose odds (or difference) does not exceed them; None if below the first."""
        if self.kind == "odds":
            if defence <= 0:
                return len(self.columns) - 1
            value = Fraction(attack) / Fraction(defence)
        else:
            value = Fraction(attack) - Fraction(defence)
        best = None
        for i, bound in enumerate(self.bounds):
            if bound <= value:
                best = i
        return best

    def ratio_text(self, attack: Fraction, defence: Fraction) -> str:
        def num(x):
            return str(x) if Fraction(x).denominator == 1 else str(Fraction(x))
        if self.kind == "odds":
            return f"{num(attack)}:{num(defence)}"
        diff = Fraction(attack) - Fraction(defence)
        return f"{num(attack)}-{num(defence)} = {'+' if diff >= 0 else ''}{num(diff)}"

    def row_index(self, roll: int) -> int:
        """The row a modified ``roll`` reads; rolls beyond the table read its first/last row."""
        for i, (lo, hi, _) in enumerate(self.rows):
            if (lo is None or roll >= lo) and (hi is None or roll <= hi):
                return i
        if roll < self.low_roll:
            return min(range(len(self.rows)), key=lambda i: self.rows[i][0] if self.rows[i][0] is not None
                       else -10 ** 9)
        return max(range(len(self.rows)), key=lambda i: self.rows[i][1] if self.rows[i][1] is not None
                   else 10 ** 9)

    def result(self, roll: int, column: int) -> CombatResult:
        return self.rows[self.row_index(roll)][2][column]


def _bounds(columns: list[str], kind: str) -> list:
    out = []
    for label in columns:
        if kind == "odds":
            m = _RATIO.fullmatch(str(label).replace("≤", "").replace("<=", ""))
            if not m:
                raise ValueError(f"column {label!r} is not odds like 1/2, 3-1 or 3:2")
            out.append(Fraction(m[1]) / Fraction(m[2]))
        else:
            m = _DIFF.fullmatch(str(label))
            if not m:
                raise ValueError(f"column {label!r} is not a difference like -2, 0, +3")
            out.append(int(m[1]))
    if any(b >= a for a, b in zip(out[1:], out)):
        raise ValueError(f"columns {columns} are not in increasing order")
    return out


def _kind(columns: list[str]) -> str:
    return "odds" if all(_RATIO.fullmatch(str(c)) for c in columns) else "differential"


def chart_of(game, name: str = "combat_results") -> CombatChart:
    """The CRT ``name`` of ``game`` (cached on the game object); :class:`DataError` naming the
    game file and the field when the chart is missing or malformed."""
    cache = game.__dict__.setdefault("_combat_charts", {})
    if name in cache:
        return cache[name]
    where = f"{game.root}/game.yaml" if game.root else f"game {game.id}"
    data = game.charts.get(name)
    if not isinstance(data, dict):
        raise DataError(f"game {game.id} has no combat results table (charts.{name} with columns and rows)",
                        path=where, field=f"charts.{name}")
    field_ = f"charts.{name}"
    try:
        columns = [str(c) for c in data.get("columns") or []]
        if not columns:
            raise ValueError("columns are missing")
        kind = str(data.get("kind") or _kind(columns))
        if kind not in ("odds", "differential"):
            raise ValueError(f"kind must be odds or differential, not {kind!r}")
        bounds = _bounds(columns, kind)
        raw_dice = data.get("dice") or (game.dice[0] if game.dice else "1d6")
        by_side = {}
        if isinstance(raw_dice, dict):
            by_side = {str(k): str(v) for k, v in raw_dice.items()}
            for text in by_side.values():
                parse_dice(text)
            dice = next(iter(by_side.values()))
        else:
            dice = str(raw_dice)
            parse_dice(dice)
        raw_reroll = data.get("reroll") or {}
        if isinstance(raw_reroll, (list, tuple)):
            raw_reroll = {"*": raw_reroll}
        if not isinstance(raw_reroll, dict):
            raise ValueError("reroll must be a list of rolls or a mapping of side to rolls")
        reroll = {str(k): tuple(int(r) for r in (v if isinstance(v, (list, tuple)) else [v]))
                  for k, v in raw_reroll.items()}
        for side, rolls in reroll.items():
            text = by_side.get(side, dice)
            n, faces = parse_dice(text)
            if set(range(n, n * faces + 1)) <= set(rolls):
                raise ValueError(f"reroll for {side} leaves no roll of {text}")
        numbers = str(data.get("numbers", "steps"))
        if numbers not in ("steps", "requirements"):
            raise ValueError(f"numbers must be steps or requirements, not {numbers!r}")
        sides = str(data.get("sides", "prefixed"))
        if sides not in ("positional", "prefixed"):
            raise ValueError(f"sides must be positional or prefixed, not {sides!r}")
        retreat = data.get("retreat", 1)
        retreat = tuple(int(r) for r in retreat) if isinstance(retreat, (list, tuple)) else (int(retreat),)
        raw_rows = data.get("rows")
        if not isinstance(raw_rows, dict) or not raw_rows:
            raise ValueError("rows must map each roll to its results")
        rows = []
        for label, cells in raw_rows.items():
            if not isinstance(cells, (list, tuple)) or len(cells) != len(columns):
                raise ValueError(f"row {label!r} must have {len(columns)} results, one per column")
            lo, hi = _roll_label(label)
            try:
                results = [parse_result(c, numbers, sides, retreat) for c in cells]
            except ValueError as exc:
                raise ValueError(f"row {label!r}: {exc}") from None
            rows.append((lo, hi, results))
    except (ValueError, TypeError) as exc:
        raise DataError(str(exc), path=where, field=field_) from None
    chart = CombatChart(name, data.get("rule"), kind, dice, columns, bounds, rows, data.get("estimated"),
                        by_side, reroll)
    cache[name] = chart
    return chart


def shift_distribution(parts: list[dict[int, Fraction]]) -> dict[int, Fraction]:
    """The distribution of the sum of independent shifts, each a value -> probability map."""
    out: dict[int, Fraction] = {0: Fraction(1)}
    for dist in parts:
        nxt: dict[int, Fraction] = {}
        for (a, p), (b, q) in product(out.items(), dist.items()):
            nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        out = nxt
    return out
