"""Map themes as data: colours, widths, fonts and the style of each well-known terrain.

A theme is a YAML file (``themes/default.yaml`` is the default). Terrain codes differ per game,
so a terrain type finds its style by name: its code or name is matched against each style's
name and aliases. Unknown types fall back to ``TerrainType.colour`` (or a colour made from the
code) with a hatch whose angle also comes from the code, so each one reads in greyscale.
"""

from __future__ import annotations

import colorsys
import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from PIL import ImageColor

from ..errors import DataError
from ..game import HexsideType, LineType, TerrainType
from ..io._source import load_yaml

__all__ = ["Theme", "TerrainStyle", "HexsideStyle", "LineStyle", "rgb"]

THEME_DIR = Path(__file__).with_name("themes")

RGB = tuple[int, int, int]


def rgb(colour) -> RGB:
    """An (r, g, b) tuple from a colour name, ``#rrggbb`` text or a tuple."""
    if isinstance(colour, (tuple, list)):
        return tuple(int(c) for c in colour[:3])  # type: ignore[return-value]
    value = ImageColor.getrgb(str(colour))
    return value[:3]  # type: ignore[return-value]


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", str(text).strip().lower())


@dataclass(frozen=True)
class TerrainStyle:
    """How one terrain type is drawn: base fill and a symbol painted on it."""

    key: str
    fill: RGB
    symbol: str | None = None
    ink: RGB = (60, 60, 60)
    accent: RGB = (120, 120, 120)
    water: RGB | None = None
    shore: RGB | None = None
    hatch_angle: int = 45
    full: bool = False   # water from hexside to hexside (a river's band), its bank on the hexsides


@dataclass(frozen=True)
class HexsideStyle:
    """How one hexside feature is drawn; ``width`` is a fraction of the hex size."""

    key: str
    colour: RGB
    width: float
    edge: RGB | None = None
    ticks: bool = False

    @property
    def water(self) -> bool:
        return self.key in ("river", "lake")

    def drawn_width(self, size: float) -> float:
        """Pixels across the feature as the map draws it, its edge included, on hexes ``size``
        pixels across (the drafter reads features by this width)."""
        w = max(1.0, self.width * size)
        if self.edge is None:
            return w
        return w + max(1.5, 0.016 * size) * 2 if self.key == "river" else w + 2


@dataclass(frozen=True)
class LineStyle:
    """How one line type (road, track, railway) is drawn; sizes are fractions of the hex size."""

    key: str
    colour: RGB
    width: float
    casing: RGB | None = None
    dash: tuple[float, float] | None = None
    ties: float | None = None
    tie_spacing: float = 0.11


@dataclass
class Theme:
    """A map theme: the parsed YAML plus resolvers from game data to styles."""

    data: dict
    name: str = "default"
    _terrain_cache: dict = field(default_factory=dict, repr=False)

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> "Theme":
        """Read a theme file; :class:`DataError` names the file if it is unreadable."""
        path = Path(path)
        data = load_yaml(str(path))   # the guarded reader: regular files, size, depth, no aliases
        if not isinstance(data, dict):
            raise DataError("a theme must be a mapping", path=str(path))
        base = {} if path.resolve() == (THEME_DIR / "default.yaml").resolve() else _default_data()
        merged = _merge(base, data)
        try:
            theme = cls(merged, name=str(merged.get("name", path.stem)))
            theme._check()
        except (ValueError, TypeError, KeyError) as exc:
            raise DataError(f"bad theme value: {exc}", path=str(path)) from exc
        return theme

    @classmethod
    def default(cls) -> "Theme":
        """The bundled default theme."""
        return cls(_default_data(), name="default")

    def _check(self) -> None:
        rgb(self.paper)
        for section in ("terrain", "hexsides", "lines"):
            for key, style in self.data.get(section, {}).items():
                for name in ("fill", "colour", "ink", "accent", "water", "shore", "casing", "edge"):
                    if name in style:
                        rgb(style[name])

    # -- plain values ----------------------------------------------------------------------

    def get(self, section: str, key: str, default=None):
        return self.data.get(section, {}).get(key, default)

    @property
    def paper(self) -> RGB:
        return rgb(self.data.get("paper", "#ffffff"))

    @property
    def ink(self) -> RGB:
        return rgb(self.data.get("ink", "#000000"))

    # -- terrain ---------------------------------------------------------------------------

    def terrain_style(self, terrain: TerrainType) -> TerrainStyle:
        """The style of a terrain type: matched by code or name, overridden by its colour."""
        cache_key = (terrain.code, terrain.name, terrain.colour)
        cached = self._terrain_cache.get(cache_key)
        if cached is not None:
            return cached
        styles = self.data.get("terrain", {})
        key = _match(styles, terrain.code, terrain.name)
        if key is None:
            fill = rgb(terrain.colour) if terrain.colour else _generated_colour(terrain.code)
            ink = tuple(max(0, int(c * 0.55)) for c in fill)
            style = TerrainStyle(key="other", fill=fill, symbol="hatch", ink=ink, accent=ink,
                                 hatch_angle=_hash(terrain.code) % 4 * 45)
        else:
            raw = styles[key]
            fill = rgb(terrain.colour) if terrain.colour else rgb(raw["fill"])
            style = TerrainStyle(
                key=key, fill=fill, symbol=raw.get("symbol"), ink=rgb(raw.get("ink", "#3c3c3c")),
                accent=rgb(raw.get("accent", raw.get("ink", "#787878"))),
                # a full water (a river's band) is the type's colour from bank to bank
                water=fill if raw.get("full") else rgb(raw["water"]) if "water" in raw else None,
                shore=rgb(raw["shore"]) if "shore" in raw else None, full=bool(raw.get("full", False)))
        self._terrain_cache[cache_key] = style
        return style

    def hexside_style(self, kind: HexsideType) -> HexsideStyle:
        """The style of a hexside feature; rivers take their width from ``kind.width``."""
        styles = self.data.get("hexsides", {})
        key = _match(styles, kind.code, kind.name) or ("bridge" if kind.bridge else "other")
        raw = styles.get(key) or {"colour": "#6a3d8f", "width": 0.035}
        width = raw.get("width", 0.04)
        widths = raw.get("widths")
        if widths:
            width = widths.get(kind.width, widths.get("minor", width))
            if key == "river" and _norm(kind.code) in ("stream", "creek", "brook"):
                width = min(width, widths.get("stream", width))
        return HexsideStyle(key=key, colour=rgb(raw["colour"]), width=float(width),
                            edge=rgb(raw["edge"]) if "edge" in raw else None,
                            ticks=bool(raw.get("ticks", False)))

    def line_style(self, kind: LineType) -> LineStyle:
        """The style of a line type: railways by ``kind.rail``, the rest by code or name."""
        styles = self.data.get("lines", {})
        key = "rail" if kind.rail else (_match(styles, kind.code, kind.name) or "road")
        if key == "rail" and not kind.rail:
            key = "track"  # a 'rail' name without the rail flag is still not drawn with ties
        raw = styles[key]
        dash = raw.get("dash")
        return LineStyle(key=key, colour=rgb(raw["colour"]), width=float(raw["width"]),
                         casing=rgb(raw["casing"]) if "casing" in raw else None,
                         dash=(float(dash[0]), float(dash[1])) if dash else None,
                         ties=float(raw["ties"]) if "ties" in raw else None,
                         tie_spacing=float(raw.get("tie_spacing", 0.11)))


def _match(styles: dict, code: str, name: str) -> str | None:
    """The style key for a type: its name, then its code, then a word of its name, equal to an alias.

    The name wins over the code because codes are terse and clash ("c" is clear in one game
    and city in another).
    """
    names = tuple((key, tuple(map(str, raw.get("aliases", ())))) for key, raw in styles.items())
    return _match_names(names, code, name)


@lru_cache(maxsize=4096)
def _match_names(styles: tuple, code: str, name: str) -> str | None:
    """:func:`_match` on ``(key, aliases)`` pairs (every map render of a theme asks the same)."""
    table = [(key, {_norm(key)} | {_norm(a) for a in aliases}) for key, aliases in styles]
    for wanted in (_norm(name), _norm(code)):
        for key, names in table:
            if wanted in names:
                return key
    for text in (name, code):
        words = _norm(re.sub(r"[^\w\s-]", " ", text)).split()
        for key, names in table:
            if any(len(n) >= 3 and n in words for n in names):
                return key
    return None


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest()[:4], "big")


def _generated_colour(code: str) -> RGB:
    """A muted, light colour made from the code (same code, same colour, every run)."""
    h = _hash(code)
    hue = (h % 360) / 360
    r, g, b = colorsys.hls_to_rgb(hue, 0.78, 0.35)
    return int(r * 255), int(g * 255), int(b * 255)


@lru_cache(maxsize=1)
def _default_parsed() -> dict:
    return yaml.safe_load((THEME_DIR / "default.yaml").read_text(encoding="utf-8"))


def _default_data() -> dict:
    # parsed once per process; each theme gets its own copy to change
    return _copy(_default_parsed())


def _copy(data):
    """A deep copy of parsed YAML (dicts, lists and scalars), several times faster than
    copy.deepcopy, which every map render paid for."""
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out
