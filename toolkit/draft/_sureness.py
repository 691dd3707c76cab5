"""How sure a reading is: one reader's :class:`Doubt` about a hex, the :class:`Reading` of a
hex's terrain, and what every doubt module shares (the listing threshold, a doubt explained)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..hexes import Hexside

#: Hexes drafted with less confidence than this are listed for a person to decide.
LOW_CONFIDENCE = 0.5
#: How sure a reading is whose doubt other evidence on the picture explains (a sighting common
#: to like hexsides, a line passing a corner, neighbours that agree): just above even odds.
EXPLAINED = 0.55


@dataclass(frozen=True)
class Doubt:
    """One reader's doubt about a hex: the reader (``terrain``, ``overlay``, ``hexside``,
    ``line``, ``line end``, ...), how sure its reading is, what the reading could be (the read
    one first) and, for a hexside or a line, the hexside."""

    reader: str
    confidence: float
    candidates: tuple[str, ...] = ()
    side: Hexside | None = None
    #: The reader's own evidence (distances to the nearest examples, shares of samples).
    evidence: tuple = ()


@dataclass(frozen=True)
class Reading:
    """What the terrain readers made of one hex: the base terrain (its confidence, distance
    to the nearest palette example and runner-up), the overlays (the same), whether the
    overlays were judged against drawings with the hex's roads (``in_context``) and whether
    a road or railway may cross the hex (``crossed``)."""

    base: str
    base_sure: float
    base_distance: float
    base_runner: str | None
    features: tuple[str, ...]
    features_sure: float
    features_distance: float
    features_runner: tuple[str, ...] | None
    in_context: bool = False
    crossed: bool = False

    @property
    def terrain(self) -> tuple[str, tuple[str, ...]]:
        return self.base, self.features


def terrain_name(base: str, features) -> str:
    return "+".join((base,) + tuple(features))


def closeness(distance: float, scale: float) -> float:
    """1 at no distance, 1/2 at ``scale``."""
    return 1.0 / (1.0 + (distance / scale) ** 2)


def explained(doubt: Doubt) -> Doubt:
    """The doubt, no lower than :data:`EXPLAINED`: other evidence on the picture explains it."""
    return replace(doubt, confidence=max(doubt.confidence, EXPLAINED))
