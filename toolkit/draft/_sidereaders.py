"""What a map's hexside features are read with on a picture: their colours (learned or the
theme's), how much of each a pixel shows, features drawn one over the other and the shapes of
those drawn alike."""

from __future__ import annotations

from ._sideprofile import side_ink, side_reach
from ._sideshapes import side_shapes
from .sample import colour_distance

#: A feature drawn with edges and a middle narrower than this (picture pixels) is mixed with its
#: edges by a picture's blur (a stream's middle, 2-3 pixels at 60-80 pixels a hex).
THIN = 4.0


def side_readers(game_map, theme, size: float, correction, learned=None, grid_rgb=(74, 74, 68),
                 skipped=None) -> tuple[list, dict, dict]:
    """What :func:`read_hexside` reads a map's hexside features with on a picture ``size``
    pixels a hex, needing ``correction``: ``(sides, alphas, shapes)``, the features as ``(code,
    colour, edge, width)`` (two features drawn one over the other among them, see
    :func:`side_combos`), how much of each a pixel shows (:func:`side_ink`) and the shapes of
    those drawn alike (:func:`side_shapes`). ``learned``: colours learned on the picture
    (``("side", code) -> RGB``; they win over the theme's). Bridges and features drawn like the
    grid are not read: a line for each goes to ``skipped``."""
    learned = learned or {}
    sides = []
    for code, kind in game_map.hexside_types.items():
        style = theme.hexside_style(kind)
        if kind.bridge:
            why = "bridges are not drafted"
        elif style.key in MARK_KEYS:
            continue   # a mark across a river's band (see side_marks)
        elif colour_distance(style.colour, grid_rgb) < 60:
            why = "drawn too like the grid lines to tell apart"
        else:
            got = learned.get(("side", code))
            sides.append((code, got or style.colour, None if got else style.edge, style.drawn_width(size) / size))
            continue
        if skipped is not None:
            skipped.append(f"hexside type {code!r}: {why}")
    # a river through a lake's narrows is read as a river of another shape (its colours the theme's)
    drawn = {s[0]: s for s in sides}
    sides += [(combo, *drawn[over][1:]) for combo, over in
              side_combos(game_map, [s for s in sides if not learned.get(("side", s[0]))], theme)]
    # a thin feature blurred shows the mix of its colour and edges (a stream's middle: a few pixels)
    blurred = {}
    for code, colour, edge, width in sides:
        style = theme.hexside_style(game_map.hexside_types[code if isinstance(code, str) else code[-1]])
        if edge is not None and style.width * size < THIN:
            blurred[code] = blurred_colour(colour, edge, max(1.0, style.width * size), width * size)
    rivals = {c for code, colour, edge, _ in sides for c in (colour, edge, blurred.get(code)) if c is not None}
    alphas = {code: side_ink(colour, edge, correction, blurred.get(code), rivals) for code, colour, edge, _ in sides}
    # features drawn alike (two lake side kinds) are told apart by their shape along the side,
    # drawn by hexforge like the palette's terrains (where their colours are the theme's, not
    # learned on the picture); so is a lake side alone, whose width runs from its corners to
    # its broad middle (and a river drawn over one)
    alike = [s for s in sides if not learned.get(("side", s[0]))
             and (sum(1 for o in sides if (o[1], o[2]) == (s[1], s[2])) > 1 or side_reach(s[0], sides)[1])]
    shapes = side_shapes(game_map, alike, size, theme, grid_rgb, sides) if alike else {}
    return sides, alphas, shapes


#: The hexside styles drawn as a mark across a river's band, not along the side: a ford's
#: stepping stones (read by :mod:`._sidemarks`).
MARK_KEYS = ("ford",)


def side_marks(game_map, theme, learned=None) -> list[tuple]:
    """The map's hexside features drawn as a mark across a river's band (a ford's stepping
    stones): ``(code, colour, edge)``, the colour learned on the picture where it was."""
    learned = learned or {}
    out = []
    for code, kind in game_map.hexside_types.items():
        style = theme.hexside_style(kind)
        if style.key in MARK_KEYS and not kind.bridge:
            out.append((code, learned.get(("side", code)) or style.colour, style.edge))
    return out


def blurred_colour(colour, edge, width: float, drawn: float):
    """The colour a feature ``width`` pixels wide in ``colour``, ``drawn`` pixels wide with its
    ``edge``, takes where blur mixes the two (None where it has no edge)."""
    if edge is None or drawn <= width:
        return None
    return tuple(round((colour[i] * width + edge[i] * (drawn - width)) / drawn) for i in range(3))


def side_combos(game_map, sides, theme) -> list[tuple[tuple[str, str], str]]:
    """Two water features that may share a hexside, drawn one over the other (a river through
    a lake's narrows): ``((under, over), over)`` for each pair of ``sides`` (``(code, colour,
    edge, width)``) of a lake kind and a river kind. The map draws the wider first, so the
    river lies over the lake and the lake shows only where it is wider: read in the river's
    colours, as a river of another shape (see :func:`side_shapes`)."""
    styles = {code: theme.hexside_style(game_map.hexside_types[code]) for code, _, _, _ in sides}
    out = []
    for under, _, _, _ in sides:
        for over, _, _, _ in sides:
            if styles[under].key == "lake" and styles[over].key == "river" and styles[over].width < styles[under].width:
                out.append(((under, over), over))
    return out
