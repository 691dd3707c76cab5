"""What the rules ask of a White Death unit: personnel, weapons or AFV (Unit Counters, p.35),
its strength, size and formation, and the special abilities its counter marks."""

from __future__ import annotations

from fractions import Fraction

from ...referee import Unit

WEAPONS_CLASSES = ("L", "H")
#: Mobility categories that may not cross a river in thaw except at a bridge (Rule 16 B).
THAW_RIVER_CLASSES = ("track", "wheel", "draft")


def defence_class(unit: Unit) -> str:
    return str(unit.counter.front.get("defence", "P"))


def is_afv(unit: Unit) -> bool:
    """AFV units print a defence number instead of P, L or H (Rule 10, p.38)."""
    return defence_class(unit).isdigit()


def is_weapons(unit: Unit) -> bool:
    return defence_class(unit) in WEAPONS_CLASSES


def is_personnel(unit: Unit) -> bool:
    return defence_class(unit) == "P"


def is_bunker(unit: Unit) -> bool:
    return unit.type == "bunker"


def is_artillery(unit: Unit) -> bool:
    """Any unit with a range and a barrage factor (Rule 11), whatever its symbol."""
    front = unit.counter.front
    return bool(front.get("range")) and bool(front.get("barrage"))


def strength(unit: Unit) -> int:
    """Strength points now (steps are SP in this game)."""
    return int(unit.steps)


def marked(unit: Unit, mark: str) -> bool:
    return mark in unit.counter.marks


def size(unit: Unit) -> str:
    return unit.counter.size or ""


def formation(unit: Unit) -> str:
    return unit.counter.formation or unit.id


def battalion_of(unit: Unit) -> str:
    """A German company's parent battalion (its id without the company number), for the
    battalion equivalent of "all of the companies of a single battalion" (Rule 4 A)."""
    return unit.id.rsplit("-", 1)[0]


def fraction(value) -> Fraction:
    """A printed factor as an exact number ("1/2", "*1" for defensive-only fire)."""
    text = str(value).lstrip("*").strip() or "0"
    return Fraction(text)
