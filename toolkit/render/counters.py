"""Counter images: one face of one counter, drawn from its data in its game's layout.

``render_counter`` is the public entry (VASSAL piece images use it at 75 px); print sheets
use ``render_face`` which can extend the art past the cut line (bleed). Each face is drawn
at a multiple of the target size and reduced, so lines and text stay smooth at 75 px.

Layout element kinds (see ``counter_layouts``): ``band``, ``mark_band``, ``size``,
``symbol``, ``name``, ``formation``, ``values``, ``value``, ``marks``, ``steps``, ``dots``
and ``bar``. Faces: ``front``, and for the back the counter's ``back_kind`` (``reduced``,
``untried``, ``fired``, ``used``, ``cadre``, ``blank``, ``none``, ``marker``).
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass

from PIL import Image, ImageColor, ImageDraw

from ..errors import DataError, HexforgeError
from ..game import Counter, Game
from .counter_layouts import resolve_layout
from .fonts import font
from .nato import draw_symbol, size_mark

#: faces ``state`` may ask for, besides a counter's own back kind
FACES = ("front", "full", "back", "reduced", "untried", "fired", "used", "cadre", "blank", "none", "marker")
#: the word printed across the values of a spent side
_BANNERS = {"fired": "FIRED", "used": "USED", "untried": None, "cadre": "CADRE"}
#: other names under which a value may be printed
_SYNONYMS = {
    "defence": ("defense", "def"), "defense": ("defence", "def"), "attack": ("att", "atk"),
    "movement": ("ma", "move", "mp"), "strength": ("combat", "str", "cs"), "combat": ("strength",),
    "quality": ("q",), "range": ("rng",), "stacking": ("stack",),
}
_WHITE, _BLACK = "#ffffff", "#000000"


@dataclass
class _Ctx:
    """What every element drawer needs: the canvas, its scale and the face being drawn."""

    draw: ImageDraw.ImageDraw
    side: float          # counter side in canvas pixels
    ox: float            # offset of the counter's top-left (bleed) in canvas pixels
    oy: float
    game: Game
    counter: Counter
    layout: dict
    face: str
    values: dict
    bg: str
    fg: str

    def box(self, frac) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = frac
        s = self.side
        return self.ox + x0 * s, self.oy + y0 * s, self.ox + x1 * s, self.oy + y1 * s


def render_counter(game: Game, counter: Counter, *, back: bool = False, px: int = 75,
                   state: str | None = None) -> Image.Image:
    """One face of ``counter`` as a ``px`` x ``px`` RGB image (no bleed).

    ``back`` picks the back side (drawn as the counter's ``back_kind``); ``state`` forces a
    face by name (``front``, ``back``, ``reduced``, ``untried``, ``fired``, ``used``, ``cadre``, ``blank``).
    """
    return render_face(game, counter, px, back=back, state=state, edge=True)


def render_face(game: Game, counter: Counter, px: int, *, back: bool = False, state: str | None = None,
                bleed: int = 0, edge: bool = False) -> Image.Image:
    """A face of ``px`` pixels a side plus ``bleed`` pixels of background on every edge.

    ``edge`` draws the layout's thin dark border (screen pieces); print art has none, since
    there the cut line is the edge.
    """
    if px < 8:
        raise DataError(f"counter image size {px} px is too small to draw (at least 8)", field="px")
    face = _face(counter, back, state)
    art = _art(game, counter, face)
    if art is not None:
        return art.resize((px + 2 * bleed, px + 2 * bleed), Image.LANCZOS)
    for name in ("colour", "text_colour", "band"):
        value = getattr(counter, name)
        if value:
            _rgb(value, f"counter {counter.id!r}")
    layout = _layout(game.counter_style.layout, game.counter_style.options)
    # supersample small images more: antialiasing matters most at 75 px
    factor = 4 if px <= 100 else 3 if px <= 160 else 2
    total = px + 2 * bleed
    canvas = Image.new("RGB", (total * factor, total * factor))
    draw = ImageDraw.Draw(canvas)
    bg, fg = _colours(game, counter, layout)
    draw.rectangle([0, 0, canvas.width, canvas.height], fill=bg)
    ctx = _Ctx(draw=draw, side=px * factor, ox=bleed * factor, oy=bleed * factor, game=game, counter=counter,
               layout=layout, face=face, values=_face_values(counter, face), bg=bg, fg=fg)
    try:
        if counter.kind in ("marker", "chit"):
            _draw_marker(ctx)
        else:
            _draw_unit(ctx)
    except (ValueError, TypeError, KeyError) as exc:
        if isinstance(exc, HexforgeError):
            raise
        # a layout override with a bad colour or box: say where, not a traceback
        raise DataError(f"counter {counter.id!r} cannot be drawn in layout {layout['name']!r}: "
                        f"{type(exc).__name__}: {exc}", field="counter_style") from exc
    border = layout.get("border", 0)
    if border and edge:
        w = max(1, round(border * ctx.side * 0.5))
        draw.rectangle([0, 0, canvas.width - 1, canvas.height - 1], outline=_shade(bg, 0.55), width=w)
    # a box average of whole pixel blocks: exact antialiasing, no ringing, and fast
    return canvas.reduce(factor)


_LAYOUT_CACHE: dict[tuple[str, str], dict] = {}


def _layout(name: str, options: dict) -> dict:
    """The resolved layout, shared read-only between faces (resolving copies the whole layout)."""
    key = (name, json.dumps(options, sort_keys=True, default=str))
    layout = _LAYOUT_CACHE.get(key)
    if layout is None:
        if len(_LAYOUT_CACHE) > 64:
            _LAYOUT_CACHE.clear()
        layout = _LAYOUT_CACHE[key] = resolve_layout(name, options)
    return layout


def _face(counter: Counter, back: bool, state: str | None) -> str:
    if state is not None:
        if state not in FACES:
            raise DataError(f"unknown counter state {state!r}; expected one of {', '.join(FACES)}", field="state")
        if state == "back":
            return counter.back_kind
        return "front" if state == "full" else state
    if not back:
        return "front"
    return counter.back_kind


def _art(game: Game, counter: Counter, face: str) -> Image.Image | None:
    """The counter's own image for this face (imported piece art), or None to draw it."""
    name = counter.image if face == "front" else counter.back_image
    if not name:
        return None
    from pathlib import Path

    path = Path(game.root or ".") / name
    try:
        with Image.open(path) as image:
            if image.width * image.height > 16_000_000:
                raise DataError(f"counter {counter.id!r}: image {name} is {image.width}x{image.height} pixels, "
                                "too large for a counter")
            return image.convert("RGB")
    except (OSError, Image.DecompressionBombError) as exc:
        raise DataError(f"counter {counter.id!r}: cannot read its image {name}: {exc}") from None


def _face_values(counter: Counter, face: str) -> dict:
    if face == "front":
        return dict(counter.front)
    if face in ("reduced", "cadre", "untried", "marker"):
        return dict(counter.back)
    return {}


def _colours(game: Game, counter: Counter, layout: dict) -> tuple[str, str]:
    side = game.side(counter.side) if counter.side else None
    if counter.kind in ("marker", "chit") and not side:
        bg = counter.colour or "#f4f1e8"
    else:
        bg = counter.colour or (side.colour if side else "#d8d8d8")
    fg = counter.text_colour or layout.get("text_colour") or (side.text_colour if side else _BLACK)
    if abs(_luminance(fg) - _luminance(bg)) < 0.4:
        fg = _contrast(bg)
    return bg, fg


# ---------------------------------------------------------------- units

def _draw_unit(ctx: _Ctx) -> None:
    layout = ctx.layout
    own = {e.get("value") for e in layout["elements"] if e["kind"] in ("value", "dots", "bar")}
    for element in layout["elements"]:
        kind = element["kind"]
        drawer = _DRAWERS.get(kind)
        if drawer is None:
            raise DataError(f"layout {layout['name']!r} has an element of unknown kind {kind!r}",
                            field="counter_style.layout")
        if ctx.face in ("blank", "none") and kind in ("values", "value", "dots", "bar", "steps", "marks"):
            continue
        if kind == "values":
            _values(ctx, element, own)
        else:
            drawer(ctx, element)
    if ctx.face == "reduced" and layout.get("reduced", {}).get("stripe"):
        # the "has suffered a loss" mark: a corner triangle, visible even on a stack's top counter
        x0, y0, x1, y1 = ctx.box([0.82, 0.0, 1.0, 0.18])
        ctx.draw.polygon([(x0, y0), (x1, y0), (x1, y1)], fill=layout["reduced"]["stripe"],
                         outline=_shade(ctx.bg, 0.6))


def _band(ctx: _Ctx, element: dict) -> None:
    if ctx.counter.band:
        ctx.draw.rectangle(ctx.box(element["box"]), fill=ctx.counter.band)


def _mark_band(ctx: _Ctx, element: dict) -> None:
    if element["mark"] in ctx.counter.marks:
        ctx.draw.rectangle(ctx.box(element["box"]), fill=element.get("colour", "#f2d21b"))


def _size(ctx: _Ctx, element: dict) -> None:
    if ctx.face == "cadre":
        _text_fit(ctx, "CADRE", ctx.box(element["box"]), 0.13, bold=True, fill=ctx.fg)
        return
    text = size_mark(ctx.counter.size)
    suffix = element.get("suffix_value")
    if suffix and _lookup(ctx.counter.front, suffix) is not None:
        text = f"{text} {_lookup(ctx.counter.front, suffix)}".strip()
    if text:
        _text_fit(ctx, text, ctx.box(element["box"]), element.get("size", 0.13), bold=True, fill=ctx.fg)


def _symbol(ctx: _Ctx, element: dict) -> None:
    layout, counter = ctx.layout, ctx.counter
    fill = layout.get("symbol_fill", _WHITE)
    source = element.get("fill_from") or ""
    if source == "band" and counter.band:
        fill = counter.band
    elif source.startswith("value:") and _lookup(counter.front, source[6:]):
        fill = _print_colour(str(_lookup(counter.front, source[6:])))
    elif source == "formation_colour":
        colours = ctx.game.counter_style.options.get("formation_colours") or {}
        fill = colours.get(counter.formation, fill)
    by_class = element.get("fill_by_class") or {}
    if counter.unit_class in by_class:
        fill = by_class[counter.unit_class]
    line = _BLACK if fill else ctx.fg
    if fill and _luminance(fill) < 0.35:
        line = _WHITE
    box = ctx.box(element["box"])
    silhouette = bool(layout.get("silhouettes"))
    draw_symbol(ctx.draw, box, counter.type, colour=line, fill=fill, width=ctx.side * element.get("line", 0.032),
                frame=not (silhouette and counter.size is None), silhouette=silhouette)


def _name(ctx: _Ctx, element: dict) -> None:
    fill = ctx.fg
    if element.get("on_band") and ctx.counter.band:
        fill = _contrast(ctx.counter.band)
    # a back may print another designation (Demyansk's von Borries, 3.45)
    name = str(ctx.values.get("name") or ctx.counter.name) if ctx.face != "front" else ctx.counter.name
    _text_fit(ctx, name, ctx.box(element["box"]), element.get("size", 0.14), bold=True, fill=fill)


def _formation(ctx: _Ctx, element: dict) -> None:
    if not ctx.counter.formation:
        return
    fill = _contrast(ctx.counter.band) if ctx.counter.band else ctx.fg
    _text_fit(ctx, ctx.counter.formation, ctx.box(element["box"]), element.get("size", 0.11), bold=False, fill=fill)


def _value(ctx: _Ctx, element: dict) -> None:
    value = _lookup(ctx.values, element["value"])
    if value is None and ctx.face == "untried" and _lookup(ctx.counter.front, element["value"]) is not None:
        value = "?"
    if value is None:
        return
    box = ctx.box(element["box"])
    shape = element.get("shape", "plain")
    x0, y0, x1, y1 = box
    lw = max(1, round(ctx.side * 0.018))
    fill = ctx.fg
    if shape == "box":
        ctx.draw.rectangle(box, fill=_WHITE, outline=_BLACK, width=lw)
        fill = _BLACK
    elif shape == "circle":
        r = min(x1 - x0, y1 - y0) / 2
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        ctx.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=_WHITE, outline=_BLACK, width=lw)
        fill = _BLACK
    elif shape in ("triangle-white", "triangle-black"):
        dark = shape == "triangle-black"
        ctx.draw.polygon([((x0 + x1) / 2, y0), (x1, y1), (x0, y1)], fill=_BLACK if dark else _WHITE,
                         outline=_BLACK)
        fill = _WHITE if dark else _BLACK
        box = (x0 + (x1 - x0) * 0.2, y0 + (y1 - y0) * 0.35, x1 - (x1 - x0) * 0.2, y1)
    elif shape == "flag":
        ctx.draw.line([(x0, y0), (x0, y1)], fill=ctx.fg, width=lw)
        ctx.draw.rectangle([x0 + lw, y0, x1, y0 + (y1 - y0) * 0.75], fill=_WHITE, outline=_BLACK)
        fill = _BLACK
        box = (x0 + lw, y0, x1, y0 + (y1 - y0) * 0.75)
    for mark, colour in (element.get("colour_if_mark") or {}).items():
        if mark in ctx.counter.marks:
            fill = colour
    _text_fit(ctx, str(value), box, element.get("size", 0.14), bold=True, fill=fill)


def _marks(ctx: _Ctx, element: dict) -> None:
    marks = [m for m in ctx.counter.marks if m in ("*", "at-dot", "•")]
    if not marks:
        return
    x0, y0, x1, y1 = ctx.box(element["box"])
    cell = (y1 - y0) / len(marks)
    for i, mark in enumerate(marks):
        cy = y0 + cell * (i + 0.5)
        cx = (x0 + x1) / 2
        if mark == "*":
            f = font(min(cell, x1 - x0) * 1.5, bold=True)
            ctx.draw.text((cx, cy + cell * 0.25), "*", fill=ctx.fg, font=f, anchor="mm")
        else:
            r = min(cell, x1 - x0) * 0.28
            ctx.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ctx.fg)


def _steps(ctx: _Ctx, element: dict) -> None:
    total = ctx.counter.steps
    if total < 2:
        return
    # a cadre is the last step, whatever the unit had at full strength
    remaining = {"reduced": total - 1, "cadre": 1}.get(ctx.face, total)
    x0, y0, x1, y1 = ctx.box(element["box"])
    vertical = element.get("vertical", False)
    length = (y1 - y0) if vertical else (x1 - x0)
    across = (x1 - x0) if vertical else (y1 - y0)
    r = min(length / total / 2 * 0.8, across * 0.4)
    for i in range(total):
        along = (i + 0.5) * length / total
        cx, cy = ((x0 + x1) / 2, y0 + along) if vertical else (x0 + along, (y0 + y1) / 2)
        shape = [cx - r, cy - r, cx + r, cy + r]
        if i < remaining:
            ctx.draw.ellipse(shape, fill=ctx.fg)
        else:
            ctx.draw.ellipse(shape, outline=ctx.fg, width=max(1, round(r * 0.3)))


def _dots(ctx: _Ctx, element: dict) -> None:
    n = _lookup(ctx.counter.front, element["value"])
    if not isinstance(n, int) or n <= 0:
        return
    x0, y0, x1, y1 = ctx.box(element["box"])
    r = min((x1 - x0) / max(n, 3) / 2 * 0.75, (y1 - y0) * 0.35)
    for i in range(n):
        cx, cy = x0 + r * 1.3 + i * r * 2.6, (y0 + y1) / 2
        ctx.draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ctx.fg)


def _bar(ctx: _Ctx, element: dict) -> None:
    full = _lookup(ctx.counter.front, element.get("max_value", element["value"]))
    now = _lookup(ctx.values, element["value"])
    if not isinstance(full, int) or full <= 0 or not isinstance(now, int):
        return
    x0, y0, x1, y1 = ctx.box(element["box"])
    lw = max(1, round(ctx.side * 0.012))
    ctx.draw.rectangle([x0, y0, x1, y1], outline=ctx.fg, width=lw)
    top = y1 - (y1 - y0) * min(1.0, now / full)
    ctx.draw.rectangle([x0 + lw, top, x1 - lw, y1 - lw], fill="#2f9e44")


def _values(ctx: _Ctx, element: dict, own: set) -> None:
    box = ctx.box(element["box"])
    banner = _BANNERS.get(ctx.face)
    if ctx.face in ("fired", "used") or (ctx.face == "cadre" and not ctx.values):
        _banner(ctx, banner, box)
        return
    fmt = element.get("format") or ctx.game.counter_style.values
    runs = format_values(fmt, ctx.values, exclude=own, unknown="?" if ctx.face == "untried" else None,
                         reference=ctx.counter.front)
    if not runs:
        return
    colour = ctx.fg
    if ctx.face == "reduced" and ctx.layout.get("reduced", {}).get("value_colour"):
        colour = ctx.layout["reduced"]["value_colour"]
    colours = element.get("colours") or {}
    frames = element.get("frames") or {}
    x0, y0, x1, y1 = box
    size = element.get("size", 0.26) * ctx.side
    framed = [_frame_for(ctx.counter, frames.get(name)) if name else None for _, name in runs]
    while True:
        pad = size * 0.22
        f = font(size, bold=True, family="condensed" if len(runs) > 5 else "sans")
        widths = [f.getlength(text) + (2 * pad if frame else 0) for (text, _), frame in zip(runs, framed)]
        if sum(widths) <= (x1 - x0) * 0.98 or size < 6:
            break
        size *= 0.92
    x = (x0 + x1 - sum(widths)) / 2
    cy = (y0 + y1) / 2
    for (text, name), width, frame in zip(runs, widths, framed):
        fill = colours.get(name, colour) if name else colour
        if frame:
            fx0, fy0, fx1, fy1 = x + pad * 0.35, cy - size * 0.56, x + width - pad * 0.35, cy + size * 0.56
            lw = max(1, round(size * 0.08))
            if frame == "circle":
                r = max(fx1 - fx0, fy1 - fy0) / 2
                mx = (fx0 + fx1) / 2
                ctx.draw.ellipse([mx - r, cy - r, mx + r, cy + r], outline=fill, width=lw)
            else:
                ctx.draw.rectangle([fx0, fy0, fx1, fy1], outline=fill, width=lw)
        ctx.draw.text((x + width / 2, cy), text, fill=fill, font=f, anchor="mm")
        x += width


def _frame_for(counter: Counter, spec: dict | None) -> str | None:
    if not spec:
        return None
    for mark, shape in (spec.get("mark") or {}).items():
        if mark in counter.marks:
            return shape
    for name, shape in (spec.get("value") or {}).items():
        if _lookup(counter.front, name) not in (None, 0, "", "0", "no"):
            return shape
    return (spec.get("class") or {}).get(counter.unit_class)


def _banner(ctx: _Ctx, word: str | None, box) -> None:
    if not word:
        return
    x0, y0, x1, y1 = box
    ctx.draw.rectangle([x0, y0 + (y1 - y0) * 0.1, x1, y1 - (y1 - y0) * 0.1], fill=_WHITE)
    _text_fit(ctx, word, (x0, y0, x1, y1), 0.22, bold=True, fill="#b00000")


def format_values(fmt: str, values: dict, *, exclude: set = frozenset(), unknown: str | None = None,
                  reference: dict | None = None) -> list[tuple[str, str | None]]:
    """The printed values of ``fmt`` as runs ``(text, value name or None for separators)``.

    ``fmt`` names values joined by separators (``attack-defence-movement``); alternatives are
    separated by ``|`` and the first whose values are all present wins
    (``attack-defence-movement|strength-movement``). Missing values drop out with their
    separator, unless ``unknown`` is given and ``reference`` has the value (untried sides
    print ``?``). Names in ``exclude`` are drawn elsewhere by the layout and are skipped.
    """
    alternatives = [a for a in fmt.split("|") if a.strip()]
    if not alternatives:
        return []
    parsed = [re.findall(r"[A-Za-z_]+|[^A-Za-z_]+", a.strip()) for a in alternatives]

    def present(name: str) -> bool:
        return _lookup(values, name) is not None or (unknown is not None and _lookup(reference or {}, name) is not None)

    def names(tokens):
        return [t for t in tokens if t[0].isalpha() or t[0] == "_"]

    chosen = next((t for t in parsed if all(present(n) for n in names(t) if n not in exclude)), None)
    if chosen is None:
        chosen = max(parsed, key=lambda t: sum(present(n) for n in names(t) if n not in exclude))
    runs: list[tuple[str, str | None]] = []
    pending_sep = None
    for token in chosen:
        if token[0].isalpha() or token[0] == "_":
            if token in exclude or not present(token):
                pending_sep = None if not runs else pending_sep
                continue
            value = _lookup(values, token)
            if pending_sep and runs:
                runs.append((pending_sep, None))
            pending_sep = None
            runs.append((str(value) if value is not None else unknown, token))
        else:
            pending_sep = token
    return runs


def _lookup(values: dict, name: str):
    if name in values:
        return values[name]
    for other in _SYNONYMS.get(name, ()):
        if other in values:
            return values[other]
    return None


_DRAWERS = {
    "band": _band, "mark_band": _mark_band, "size": _size, "symbol": _symbol, "name": _name,
    "formation": _formation, "values": _values, "value": _value, "marks": _marks, "steps": _steps,
    "dots": _dots, "bar": _bar,
}


# ---------------------------------------------------------------- markers

def _draw_marker(ctx: _Ctx) -> None:
    counter, draw = ctx.counter, ctx.draw
    values = ctx.values if ctx.face not in ("front",) else counter.front
    label = str(values.get("label") or values.get("name") or counter.name)
    if ctx.face in ("blank",):
        return
    if ctx.face == "fired" or ctx.face == "used":
        label = f"{counter.name} {_BANNERS[ctx.face]}"
    if counter.band:
        draw.rectangle(ctx.box([0.0, 0.0, 1.0, 0.12]), fill=counter.band)
    number = values.get("value")
    if number is not None:
        _text_fit(ctx, label, ctx.box([0.06, 0.1, 0.94, 0.36]), 0.16, bold=True, fill=ctx.fg)
        _text_fit(ctx, str(number), ctx.box([0.08, 0.36, 0.92, 0.9]), 0.46, bold=True, fill=ctx.fg)
        return
    _wrapped(ctx, label.upper(), ctx.box([0.07, 0.1, 0.93, 0.9]), fill=ctx.fg)


def _wrapped(ctx: _Ctx, text: str, box, fill: str) -> None:
    """``text`` on up to three lines, as large as fits ``box``."""
    words = text.split()
    x0, y0, x1, y1 = box
    best = None
    for lines_n in range(1, min(3, len(words)) + 1):
        lines = _split(words, lines_n)
        size = (y1 - y0) / lines_n / 1.15
        f = font(size, bold=True, family="condensed")
        widest = max(f.getlength(line) for line in lines)
        if widest > (x1 - x0):
            size *= (x1 - x0) / widest
        if best is None or size > best[0]:
            best = (size, lines)
    size, lines = best
    f = font(size, bold=True, family="condensed")
    step = size * 1.12
    top = (y0 + y1) / 2 - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        ctx.draw.text(((x0 + x1) / 2, top + i * step), line, fill=fill, font=f, anchor="mm")


def _split(words: list[str], n: int) -> list[str]:
    """Words into ``n`` lines of balanced length."""
    if n == 1:
        return [" ".join(words)]
    best, best_cost = [" ".join(words)], None
    for cuts in itertools.combinations(range(1, len(words)), n - 1):
        bounds = (0, *cuts, len(words))
        lines = [" ".join(words[a:b]) for a, b in zip(bounds, bounds[1:])]
        cost = max(len(line) for line in lines)
        if best_cost is None or cost < best_cost:
            best, best_cost = lines, cost
    return best


# ---------------------------------------------------------------- text and colour helpers

def _text_fit(ctx: _Ctx, text: str, box, size_frac: float, *, bold: bool, fill: str) -> None:
    """Draw ``text`` centred in ``box`` at ``size_frac`` of the side, smaller or condensed if needed."""
    x0, y0, x1, y1 = box
    size = min(size_frac * ctx.side, (y1 - y0) * 0.95)
    family = "sans"
    f = font(size, bold=bold, family=family)
    width = f.getlength(text)
    if width > (x1 - x0):
        family = "condensed"
        f = font(size, bold=bold, family=family)
        width = f.getlength(text)
        if width > (x1 - x0):
            size *= (x1 - x0) / width
            f = font(size, bold=bold, family=family)
    ctx.draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, fill=fill, font=f, anchor="mm")


def _rgb(colour: str, where: str = "") -> tuple[int, int, int]:
    try:
        return ImageColor.getrgb(colour)[:3]
    except ValueError as exc:
        prefix = f"{where}: " if where else ""
        raise DataError(f"{prefix}cannot read colour {colour!r}: expected #rrggbb or a colour name") from exc


def _luminance(colour: str) -> float:
    r, g, b = (c / 255 for c in _rgb(colour))
    return 0.299 * r + 0.587 * g + 0.114 * b


#: softer print colours for the plain colour names data files use
_PRINT_COLOURS = {"red": "#e0474c", "yellow": "#f2d21b", "green": "#4caf50", "blue": "#4a86d8",
                  "grey": "#9a9a9a", "gray": "#9a9a9a", "black": "#262626", "purple": "#9b59b6",
                  "brown": "#8b5a2b", "orange": "#f39c12", "white": "#ffffff"}


def _print_colour(name: str) -> str:
    colour = _PRINT_COLOURS.get(name.strip().lower(), name)
    _rgb(colour)  # fail early, naming the colour
    return colour


def _contrast(colour: str) -> str:
    return _BLACK if _luminance(colour) > 0.55 else _WHITE


def _shade(colour: str, factor: float) -> str:
    r, g, b = _rgb(colour)
    return "#%02x%02x%02x" % (int(r * factor), int(g * factor), int(b * factor))
