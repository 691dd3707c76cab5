"""The Terrain Effects Chart as text: one source for the printed map and the VASSAL chart.

Pure logic, no drawing: cost cells (fractions, ``P`` for prohibited, ``+n`` for hexsides,
a dash where the chart is silent, ``other`` for an overlay that leaves the cost to the hex's
other terrain), combat effects as words, and the chart itself as rows of strings by unit
class and weather, with one column per class where the weather changes nothing. The map
legend (:mod:`toolkit.render._maplegend`) and the module's chart
(:mod:`toolkit.vassal.boards`) both draw from :func:`tec`, so they always agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .game import Map
from .game.terrain import ANY, CostTable

__all__ = ["cost_text", "combat_text", "TecColumn", "TecRow", "Tec", "tec", "MISSING", "PROHIBITED",
           "OTHER"]

PROHIBITED = "P"
OTHER = "other"
#: the cell where the chart says nothing: an en dash, or a hyphen in ``plain`` text
MISSING = "\u2013"
_PLAIN_MISSING = "-"
_VULGAR = {Fraction(1, 2): "\u00bd", Fraction(1, 3): "\u2153", Fraction(2, 3): "\u2154",
           Fraction(1, 4): "\u00bc", Fraction(3, 4): "\u00be"}


def cost_text(found: bool, cost: Fraction | int | None, *, hexside: bool = False, plain: bool = False) -> str:
    """One TEC cell from ``CostTable.lookup``'s ``(found, cost)``.

    ``P`` is prohibited, a dash means the chart is silent; a hexside cost is the extra to
    cross, written ``+n``. Fractions print as ``1½`` (``plain``: ``1 1/2``, ASCII only).
    """
    if not found:
        return _PLAIN_MISSING if plain else MISSING
    if cost is None:
        return PROHIBITED
    value = Fraction(cost)
    whole, part = divmod(abs(value), 1)
    if not part:
        text = str(whole)
    elif plain or part not in _VULGAR:
        text = (f"{whole} " if whole else "") + f"{part.numerator}/{part.denominator}"
    else:
        text = (str(whole) if whole else "") + _VULGAR[part]
    if value < 0:
        text = "-" + text
    return "+" + text if hexside and value >= 0 else text


def combat_text(effects: dict) -> str:
    """Combat effects as written, keys made readable (``no_retreat: true`` -> ``no retreat``)."""
    parts = []
    for key, value in effects.items():
        name = str(key).replace("_", " ")
        if key == "when" and value == "ruleset":
            continue                      # a condition the ruleset checks: nothing to print
        if key == "weathers" and isinstance(value, (list, tuple)):
            parts.append("in " + "/".join(str(v) for v in value))
            continue
        if value is True:
            parts.append(name)
        elif value is False:
            parts.append(f"not {name}")
        elif isinstance(value, dict):   # by case (White Death: defence by P/L/H), not a dict's repr
            parts.append(f"{name} " + " / ".join(f"{str(k).replace('_', ' ')} {v}" for k, v in value.items()))
        elif value is not None:
            parts.append(f"{name} {str(value).replace('_', ' ')}")
    return ", ".join(parts)


@dataclass(frozen=True)
class TecColumn:
    """A cost column: a unit class in a weather (``*`` class: every unit).

    ``by_weather`` is False when the class has this one column because the weather changes
    none of its costs; the label is then just the class.
    """

    unit_class: str
    weather: str
    by_weather: bool = False

    @property
    def label(self) -> str:
        name = "all" if self.unit_class == ANY else self.unit_class
        return f"{name} {self.weather}" if self.by_weather else name


@dataclass(frozen=True)
class TecRow:
    """One line of the chart.

    ``kind`` is ``terrain``, ``feature`` (an overlay terrain), ``hexside`` or ``line``;
    ``data`` is the TerrainType, HexsideType or LineType drawn (for swatches); ``rule`` is
    the cited rule, None where the data is estimated.
    """

    kind: str
    name: str
    costs: tuple[str, ...]
    combat: str
    rule: str | None
    data: object


@dataclass(frozen=True)
class Tec:
    columns: tuple[TecColumn, ...]
    rows: tuple[TecRow, ...]
    note: str


def _columns(maps: list[Map], tables: list[CostTable]) -> tuple[TecColumn, ...]:
    classes = list(dict.fromkeys(c for m in maps for c in m.unit_classes)) or [ANY]
    weathers = list(dict.fromkeys(w for m in maps for w in m.weathers)) or ["clear"]
    out: list[TecColumn] = []
    for cls in classes:
        first = weathers[0]
        extra = [w for w in weathers[1:] if any(t.lookup(cls, w) != t.lookup(cls, first) for t in tables)]
        out += [TecColumn(cls, w, by_weather=bool(extra)) for w in [first] + extra]
    return tuple(out)


def _ma_share(t, col) -> str | None:
    """A chart cell printed as a share of the MA ("H", "ALL"), most specific key first."""
    shares = getattr(t, "move_ma", None) or {}
    for key in (f"{col.unit_class}/{col.weather}", col.unit_class, f"*/{col.weather}", "*"):
        if key in shares:
            return shares[key]
    return None


def tec(maps: Iterable[Map], *, plain: bool = False) -> Tec:
    """The Terrain Effects Chart of ``maps`` (each type once, in map order).

    Columns: for each unit class its first weather, plus every other weather that changes
    one of its costs. ``plain`` writes ASCII cells (``1/2``, ``-``).
    """
    maps = list(maps)
    seen: set[tuple[str, str]] = set()
    features: list[tuple[str, object]] = []
    for m in maps:
        for kind, types in (("terrain", m.terrain_types), ("hexside", m.hexside_types), ("line", m.line_types)):
            for t in types.values():
                if (kind, t.code) not in seen:
                    seen.add((kind, t.code))
                    features.append((kind, t))
    features.sort(key=lambda kt: ("terrain", "hexside", "line").index(kt[0]))
    columns = _columns(maps, [t.move for _, t in features])
    crossed = any(m.hexside_types for m in maps)
    rows = []
    for kind, t in features:
        cells = []
        for col in columns:
            found, cost = t.move.lookup(col.unit_class, col.weather)
            overlay = kind == "terrain" and t.overlay
            share = _ma_share(t, col) if kind == "terrain" else None
            cells.append(share or (OTHER if overlay and not found else
                                   cost_text(found, cost, hexside=kind == "hexside", plain=plain)))
        if kind == "line":
            combat = "bridges rivers" if t.bridges and crossed else ""
        else:
            combat = combat_text(t.combat)
        row_kind = "feature" if kind == "terrain" and t.overlay else kind
        rows.append(TecRow(row_kind, t.name, tuple(cells), combat, t.source.rule, t))
    dash = _PLAIN_MISSING if plain else MISSING
    note = f"MP to enter; +n to cross a hexside; {PROHIBITED} prohibited; {dash} not given"
    if any(r.kind == "feature" for r in rows):
        note += f"; {OTHER}: as the hex's other terrain"
    return Tec(columns, tuple(rows), note)
