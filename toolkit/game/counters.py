"""Counters: units and markers as printed, one record per distinct counter."""

from __future__ import annotations

from dataclasses import dataclass, field

from .provenance import UNSOURCED, Source


@dataclass(frozen=True)
class Side:
    """A side of the game (German, Soviet, ...) with its counter colours."""

    id: str
    name: str
    colour: str = "#c8c8c8"
    text_colour: str = "#000000"


@dataclass(frozen=True)
class Counter:
    """One counter design; ``count`` copies of it exist in the box.

    ``front`` and ``back`` hold the printed values by name (``attack``, ``defence``,
    ``movement``, ``quality``, ``range``, ``stacking``...); numbers are ints, the rest text.
    ``back_kind`` says what the back side is: ``reduced``, ``untried``, ``fired``, ``cadre``,
    ``used``, ``blank`` or ``none``. ``unit_class`` picks the movement-cost column of the TEC.
    Markers have ``kind == "marker"``.
    """

    id: str
    side: str | None
    name: str
    kind: str = "unit"
    type: str = "infantry"
    size: str | None = None
    formation: str | None = None
    unit_class: str | None = None
    front: dict = field(default_factory=dict)
    back: dict = field(default_factory=dict)
    back_kind: str = "none"
    steps: int = 1
    count: int = 1
    colour: str | None = None
    text_colour: str | None = None
    band: str | None = None
    marks: tuple[str, ...] = ()
    note: str | None = None
    source: Source = UNSOURCED
    #: Art for the front and back faces (image files relative to the game folder), used
    #: instead of drawing the counter; imported modules keep their piece images this way.
    image: str | None = None
    back_image: str | None = None

    @property
    def is_marker(self) -> bool:
        return self.kind == "marker"

    def value(self, name: str, default=None, *, back: bool = False):
        """A printed value of the front (or back) side."""
        return (self.back if back else self.front).get(name, default)
