"""Counter layouts as data: where each printed element of a counter goes, per game style.

A layout is a plain dict. ``elements`` lists what is drawn, in order; each element has a
``kind`` (see ``toolkit.render.counters`` for the kinds) and a ``box`` ``[x0, y0, x1, y1]`` in
fractions of the counter's side, origin top left. Text sizes (``size``) are fractions of the
side too, so one layout serves 75 px VASSAL pieces and 300 DPI print alike.

Element kinds and their keys:

- ``band``: the counter's ``band`` colour over the box; ``mark_band``: ``colour`` over the box
  when the counter has ``mark`` (``no-zoc``).
- ``size``: the size mark (``suffix_value`` appends a value, e.g. a mobility letter).
- ``symbol``: the NATO symbol; ``fill_from`` ``band``, ``value:<name>`` (a colour in a value) or
  ``formation_colour`` (``counter_style.options.formation_colours``); ``fill_by_class`` maps
  movement classes to fills; ``line`` is the line width.
- ``name`` (``on_band`` for text over the band), ``formation``.
- ``values``: the game's values format (or ``format``); ``colours`` per value; ``frames``
  ``{value: {"class": {cls: shape}, "mark": {mark: shape}, "value": {name: shape}}}`` draws a
  ``box`` or ``circle`` round a value. Values with their own element are left out of it.
- ``value``: one named value, ``shape`` ``plain|box|circle|triangle-white|triangle-black|flag``,
  ``colour_if_mark``.
- ``marks`` (``*`` armoured asterisk, ``at-dot``), ``steps`` (pips; ``vertical``), ``dots``
  (a value as dots, e.g. stacking), ``bar`` (a value as a bar against ``max_value``).

Top-level keys: ``border`` (screen pieces' edge width), ``symbol_fill``, ``silhouettes``
(tank outlines for armoured types), ``text_colour``, ``reduced`` (``stripe`` colour of the
corner mark, ``value_colour`` of back values).

A game picks a layout by name in ``counter_style.layout`` and may adjust it in
``counter_style.options.layout`` (see :func:`resolve_layout`), so each game describes its
own counter style without code. The seed games' layouts follow the counter descriptions in
their rulebooks (cited per layout); where the rulebook is silent the choice is marked
``estimated``.
"""

from __future__ import annotations

import copy

from ..errors import DataError

_RED, _GREEN = "#c0141c", "#0b7a2a"

STANDARD = {
    "name": "standard",
    "description": "size mark over a NATO symbol, designation, attack-defence-movement along the bottom",
    "estimated": "a common hex-and-counter arrangement; used where a game's counters are not described",
    "border": 0.018,
    "symbol_fill": "#ffffff",
    "reduced": {"stripe": "#ffffff"},
    "elements": [
        {"kind": "band", "box": [0.0, 0.0, 1.0, 0.07]},
        {"kind": "mark_band", "mark": "no-zoc", "colour": "#f2d21b", "box": [0.0, 0.0, 0.07, 1.0]},
        {"kind": "steps", "box": [0.07, 0.06, 0.22, 0.2]},
        {"kind": "size", "box": [0.24, 0.05, 0.76, 0.2]},
        {"kind": "value", "value": "range", "shape": "box", "box": [0.78, 0.05, 0.96, 0.22]},
        {"kind": "symbol", "box": [0.24, 0.21, 0.76, 0.53]},
        {"kind": "marks", "box": [0.78, 0.3, 0.97, 0.5]},
        {"kind": "name", "box": [0.04, 0.53, 0.96, 0.68], "size": 0.15},
        {"kind": "values", "box": [0.03, 0.68, 0.97, 0.97], "size": 0.27},
    ],
}

VELIKIYE_LUKI_VV = {
    "name": "velikiye-luki-vv",
    "description": "Vae Victis Velikiye Luki: strength and quality letter, colour code box, steps; "
                   "no printed MA (movement class colour)",
    "rule": "1.3",
    "estimated": "positions on the counter; the rulebook lists the fields but its diagram is lost",
    "border": 0.018,
    "symbol_fill": "#ffffff",
    "reduced": {"stripe": "#ffffff"},
    "elements": [
        {"kind": "band", "box": [0.0, 0.0, 0.16, 1.0]},
        {"kind": "mark_band", "mark": "no-zoc", "colour": "#f2d21b", "box": [0.0, 0.9, 1.0, 1.0]},
        {"kind": "value", "value": "entry", "box": [0.74, 0.04, 0.97, 0.2], "size": 0.13},
        {"kind": "size", "box": [0.26, 0.04, 0.74, 0.19]},
        {"kind": "symbol", "box": [0.24, 0.2, 0.78, 0.5],
         "fill_by_class": {"foot": "#c9dcff", "leg": "#c9dcff", "infantry": "#c9dcff",
                           "mech": "#ffc9c9", "motorised": "#ffc9c9", "mechanised": "#ffc9c9"}},
        {"kind": "name", "box": [0.18, 0.5, 0.98, 0.64], "size": 0.14},
        {"kind": "values", "box": [0.2, 0.64, 0.68, 0.94], "size": 0.3},
        # a grey quality letter marks a special capacity (ski, engineer...), 1.3
        {"kind": "value", "value": "quality", "shape": "box", "box": [0.68, 0.66, 0.94, 0.92], "size": 0.22,
         "colour_if_mark": {"special": "#8c8c8c"}, "rule": "6.2.8"},
        {"kind": "marks", "box": [0.78, 0.22, 0.98, 0.5]},
        {"kind": "steps", "box": [0.02, 0.04, 0.15, 0.3], "vertical": True},
    ],
}

DEMYANSK_SHIELD = {
    "name": "demyansk-shield",
    "description": "Demyansk Shield: attack-defence-MA with exploitation box around the MA, stacking dots, "
                   "unit-type box coloured by group, yellow no-ZOC band, untried backs",
    "rule": "2.24",
    "estimated": "positions on the counter; the full layout is on the Player Aid Card, not in the text",
    "border": 0.018,
    "symbol_fill": "#ffffff",
    "reduced": {"stripe": "#ffffff"},
    "elements": [
        {"kind": "mark_band", "mark": "no-zoc", "colour": "#f2d21b", "box": [0.0, 0.0, 1.0, 0.09], "rule": "3.24"},
        {"kind": "dots", "value": "stacking", "box": [0.04, 0.08, 0.24, 0.2], "rule": "3.31"},
        {"kind": "size", "box": [0.26, 0.07, 0.74, 0.21]},
        {"kind": "value", "value": "range", "shape": "plain", "box": [0.76, 0.07, 0.96, 0.21], "size": 0.14},
        # the unit-type box takes the colour in the counter's ``box`` value (red/yellow/green groups, 9.33)
        {"kind": "symbol", "box": [0.24, 0.22, 0.76, 0.52], "fill_from": "value:box", "rule": "9.33"},
        {"kind": "value", "value": "support", "shape": "circle", "box": [0.78, 0.28, 0.97, 0.47], "size": 0.13},
        {"kind": "marks", "box": [0.02, 0.28, 0.22, 0.47]},
        {"kind": "name", "box": [0.04, 0.52, 0.96, 0.67], "size": 0.14},
        {"kind": "values", "box": [0.03, 0.67, 0.97, 0.97], "size": 0.26,
         "frames": {"movement": {"mark": {"exploit": "box"}, "value": {"em": "box", "exploit": "box"}}},
         "rule": "8.42"},
    ],
}

GROSSDEUTSCHLAND = {
    "name": "grossdeutschland",
    "description": "Famous Divisions: Grossdeutschland: company counters with a battalion colour band, red attack, "
                   "green defence, MA lower right framed by movement class, ranges in triangles",
    "rule": "2.3",
    "estimated": "positions on the counter; the counter diagram is missing from the text",
    "border": 0.018,
    "symbol_fill": "#ffffff",
    "reduced": {"stripe": "#ffffff"},
    "elements": [
        {"kind": "band", "box": [0.0, 0.0, 1.0, 0.14], "rule": "2.3"},
        {"kind": "formation", "box": [0.04, 0.0, 0.96, 0.14], "size": 0.11},
        {"kind": "size", "box": [0.24, 0.15, 0.7, 0.27]},
        {"kind": "value", "value": "fire_range", "shape": "triangle-black", "box": [0.04, 0.16, 0.22, 0.36],
         "size": 0.11, "rule": "11.3"},
        {"kind": "symbol", "box": [0.24, 0.27, 0.7, 0.54]},
        {"kind": "value", "value": "range", "shape": "triangle-white", "box": [0.74, 0.44, 0.96, 0.66],
         "size": 0.11, "rule": "10.2"},
        {"kind": "value", "value": "command", "shape": "flag", "box": [0.74, 0.17, 0.97, 0.35], "size": 0.12,
         "rule": "6.0"},
        {"kind": "marks", "box": [0.04, 0.38, 0.22, 0.54]},
        {"kind": "name", "box": [0.04, 0.54, 0.96, 0.68], "size": 0.13},
        {"kind": "values", "box": [0.03, 0.68, 0.97, 0.97], "size": 0.27,
         "colours": {"attack": _RED, "defence": _GREEN}, "rule": "10.1",
         "frames": {"movement": {"class": {"tracked": "box", "wheeled": "circle"}}}},
    ],
}

A_VICTORY_DENIED = {
    "name": "a-victory-denied",
    "description": "A Victory Denied: attack-defence-MA (motorised) or combat-MA; white numbers on the front, "
                   "yellow on the reduced back; ID stripe; symbol coloured by Panzer Corps",
    "rule": "2.2.2",
    "estimated": "positions on the counter",
    "border": 0.018,
    "symbol_fill": "#ffffff",
    "reduced": {"value_colour": "#ffd21f"},
    "text_colour": "#ffffff",
    "elements": [
        {"kind": "band", "box": [0.0, 0.56, 1.0, 0.68], "rule": "2.2.1"},
        {"kind": "value", "value": "entry", "box": [0.74, 0.03, 0.97, 0.18], "size": 0.13, "rule": "2.2.3"},
        {"kind": "size", "box": [0.26, 0.04, 0.74, 0.18]},
        {"kind": "symbol", "box": [0.24, 0.19, 0.76, 0.5], "fill_from": "formation_colour", "rule": "7.4"},
        {"kind": "steps", "box": [0.04, 0.05, 0.2, 0.18]},
        {"kind": "name", "box": [0.04, 0.555, 0.96, 0.685], "size": 0.12, "on_band": True},
        {"kind": "values", "box": [0.03, 0.69, 0.97, 0.97], "size": 0.27},
        {"kind": "marks", "box": [0.78, 0.22, 0.97, 0.45]},
    ],
}

BFVL_COMPUTER = {
    "name": "bfvl",
    "description": "Battle for Velikiye Luki (computer game): formation at the top centre, identification at the "
                   "base, size with mobility letter, AFVs as silhouettes without size, strength bar on the right",
    "rule": "p.35",
    "estimated": "proportions of the on-screen counter",
    "border": 0.018,
    "symbol_fill": None,
    "silhouettes": True,
    "reduced": {"stripe": "#ffffff"},
    "elements": [
        {"kind": "formation", "box": [0.04, 0.03, 0.96, 0.2], "size": 0.14},
        {"kind": "size", "box": [0.22, 0.2, 0.62, 0.33], "suffix_value": "mobility"},
        {"kind": "symbol", "box": [0.16, 0.33, 0.84, 0.68]},
        {"kind": "bar", "value": "strength", "max_value": "strength", "box": [0.88, 0.2, 0.96, 0.8]},
        {"kind": "name", "box": [0.04, 0.7, 0.96, 0.86], "size": 0.15},
        {"kind": "values", "box": [0.04, 0.84, 0.96, 0.98], "size": 0.13},
    ],
}

MARKER = {
    "name": "marker",
    "description": "markers: the name in large bold letters over an icon for known markers",
    "border": 0.018,
}

LAYOUTS: dict[str, dict] = {layout["name"]: layout for layout in
                            (STANDARD, VELIKIYE_LUKI_VV, DEMYANSK_SHIELD, GROSSDEUTSCHLAND, A_VICTORY_DENIED,
                             BFVL_COMPUTER)}

#: other names games may use for the same layouts
ALIASES = {
    "default": "standard", "nato": "standard",
    "vv": "velikiye-luki-vv", "velikiye-luki": "velikiye-luki-vv", "vae-victis": "velikiye-luki-vv",
    "demyansk": "demyansk-shield", "gd": "grossdeutschland", "famous-divisions": "grossdeutschland",
    "avd": "a-victory-denied", "battle-for-velikiye-luki": "bfvl", "computer": "bfvl", "raw": "bfvl",
}


def layout_names() -> list[str]:
    """Names of the shipped layouts."""
    return sorted(LAYOUTS)


def resolve_layout(name: str, options: dict | None = None) -> dict:
    """The layout ``name`` with a game's overrides applied (a fresh copy, safe to change).

    ``options["layout"]`` may hold top-level keys to replace (``border``, ``symbol_fill``,
    ``reduced``...), ``elements`` as ``{kind: {key: value}}`` to adjust the element of that kind
    (``{kind: null}`` removes it), and ``add`` as a list of extra elements.
    """
    key = ALIASES.get(name, name)
    if key not in LAYOUTS:
        raise DataError(f"unknown counter layout {name!r}; shipped layouts: {', '.join(layout_names())}",
                        field="counter_style.layout")
    layout = copy.deepcopy(LAYOUTS[key])
    overrides = (options or {}).get("layout") or {}
    if not isinstance(overrides, dict):
        raise DataError("expected a mapping of layout overrides", field="counter_style.options.layout")
    for top, value in overrides.items():
        if top in ("elements", "add"):
            continue
        layout[top] = value
    for kind, change in (overrides.get("elements") or {}).items():
        matches = [e for e in layout["elements"] if e["kind"] == kind or e.get("value") == kind]
        if not matches:
            raise DataError(f"layout {key!r} has no element {kind!r} to adjust",
                            field="counter_style.options.layout.elements")
        for element in matches:
            if change is None:
                layout["elements"].remove(element)
            else:
                element.update(change)
    for extra in overrides.get("add") or []:
        if not isinstance(extra, dict) or "kind" not in extra or "box" not in extra:
            raise DataError("each added element needs a kind and a box", field="counter_style.options.layout.add")
        layout["elements"].append(dict(extra))
    return layout
