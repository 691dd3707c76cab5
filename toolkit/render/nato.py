"""NATO unit-type symbols and size marks, drawn with pillow into a box.

A symbol is a list of primitives in the frame's own coordinates (0..1 across, 0..1 down), so
one description serves every size. ``draw_symbol`` draws the frame and the primitives;
``canonical_type`` maps the spellings games use ("armor", "panzer", "Pz", "rocket artillery",
"MRL") to one name. Unknown types draw an empty frame with the type's initials, never fail.
"""

from __future__ import annotations

from PIL import ImageDraw

from .fonts import font

# primitive: (kind, *params); coordinates are fractions of the frame
_X = [("line", 0, 0, 1, 1), ("line", 0, 1, 1, 0)]
_OVAL = [("stadium", 0.2, 0.27, 0.8, 0.73)]
_DOT = [("dot", 0.5, 0.5, 0.15)]
_DIAG = [("line", 0, 1, 1, 0)]

SYMBOLS: dict[str, list[tuple]] = {
    "infantry": _X,
    "armour": _OVAL,
    "mechanised": _X + _OVAL,
    "motorised": _X + [("line", 0.5, 0, 0.5, 1)],
    "reconnaissance": _DIAG,
    "armoured reconnaissance": _DIAG + _OVAL,
    # horse cavalry: the reconnaissance diagonal with a horseshoe in the lower corner
    "cavalry": _DIAG + [("arc", 0.6, 0.52, 0.84, 0.98, 180, 360), ("line", 0.6, 0.75, 0.6, 0.86),
                        ("line", 0.84, 0.75, 0.84, 0.86)],
    "motorcycle": _DIAG + [("ring", 0.36, 0.84, 0.08), ("ring", 0.64, 0.84, 0.08)],
    "artillery": _DOT,
    "self-propelled artillery": _OVAL + [("dot", 0.5, 0.5, 0.11)],
    "rocket artillery": [("dot", 0.5, 0.7, 0.12), ("line", 0.5, 0.58, 0.5, 0.14),
                         ("poly", 0.38, 0.34, 0.5, 0.1, 0.62, 0.34)],
    "anti-tank": [("line", 0, 1, 0.5, 0), ("line", 0.5, 0, 1, 1)],
    "tank destroyer": _OVAL + [("line", 0.28, 0.7, 0.5, 0.3), ("line", 0.5, 0.3, 0.72, 0.7)],
    "assault gun": _OVAL + [("line", 0.5, 0.5, 1, 0.5), ("dot", 0.5, 0.5, 0.09)],
    "engineer": [("lines", 0.22, 0.7, 0.22, 0.32, 0.78, 0.32, 0.78, 0.7), ("line", 0.5, 0.32, 0.5, 0.7)],
    "bridging engineer": [("lines", 0.22, 0.7, 0.22, 0.32, 0.78, 0.32, 0.78, 0.7),
                          ("line", 0.5, 0.32, 0.5, 0.7), ("arc", 0.2, 0.75, 0.8, 1.25, 180, 360)],
    "ski": _X + [("lines", 0.3, 0.85, 0.64, 0.85, 0.72, 0.75)],
    "mountain": _X + [("poly", 0.36, 1, 0.5, 0.72, 0.64, 1)],
    "airborne": _X + [("arc", 0.28, 0.74, 0.5, 1.02, 180, 360), ("arc", 0.5, 0.74, 0.72, 1.02, 180, 360)],
    "hq": [("text", "HQ")],
    "anti-aircraft": [("arc", 0.15, 0.5, 0.85, 1.5, 180, 360)],
    "machine-gun": [("line", 0.5, 0.9, 0.5, 0.12), ("poly", 0.36, 0.36, 0.5, 0.1, 0.64, 0.36),
                    ("line", 0.38, 0.74, 0.62, 0.74)],
    "mortar": [("ring", 0.5, 0.78, 0.1), ("line", 0.5, 0.68, 0.5, 0.14),
               ("poly", 0.38, 0.36, 0.5, 0.1, 0.62, 0.36)],
    "security": [("text", "SEC")],
    "police": [("text", "POL")],
    "heavy weapons": _X + [("dot", 0.5, 0.5, 0.12)],
    "observation": [("tri", 0.5, 0.3, 0.68, 0.72, 0.32, 0.72)],
    "flame": _OVAL + [("text", "F")],
    "air attack": [("plane",), ("text_low", "A")],
    "air bomber": [("plane",), ("text_low", "B")],
    "air": [("plane",)],
    "fortress": [("battlements",)],
    "supply": [("line", 0, 0.68, 1, 0.68)],
}

#: other spellings -> the name in SYMBOLS
ALIASES = {
    "inf": "infantry", "rifle": "infantry", "fusilier": "infantry", "jager": "infantry",
    "jäger": "infantry", "grenadier": "infantry", "guards infantry": "infantry", "marsch": "infantry",
    "submachinegun": "infantry", "commando": "infantry", "infantry (leg)": "infantry",
    "armor": "armour", "tank": "armour", "panzer": "armour", "pz": "armour", "afv": "armour",
    "mechanized": "mechanised", "mech": "mechanised", "panzergrenadier": "mechanised",
    "armored infantry": "mechanised", "armoured infantry": "mechanised",
    "motorized": "motorised", "motorised infantry": "motorised", "motorized infantry": "motorised",
    "mot": "motorised", "recon": "reconnaissance", "recce": "reconnaissance",
    "armored reconnaissance": "armoured reconnaissance", "horse": "cavalry", "cav": "cavalry",
    "kradschützen": "motorcycle", "motor cycle": "motorcycle",
    "field artillery": "artillery", "arty": "artillery", "heavy artillery": "artillery",
    "mountain artillery": "artillery", "sp artillery": "self-propelled artillery",
    "rocket": "rocket artillery", "mrl": "rocket artillery", "nebelwerfer": "rocket artillery",
    "katyusha": "rocket artillery", "antitank": "anti-tank", "at": "anti-tank",
    "assault-gun": "assault gun", "stug": "assault gun", "sturm": "assault gun",
    "pioneer": "engineer", "engineers": "engineer", "construction": "engineer", "eng": "engineer",
    "bridge": "bridging engineer", "ski infantry": "ski", "mountain infantry": "mountain",
    "parachute": "airborne", "paratroopers": "airborne", "parachute infantry": "airborne",
    "fallschirmjäger": "airborne", "abn": "airborne", "headquarters": "hq", "qg": "hq",
    "antiaircraft": "anti-aircraft", "aa": "anti-aircraft", "flak": "anti-aircraft", "pvo": "anti-aircraft",
    "heavy antiaircraft": "anti-aircraft", "light flak": "anti-aircraft",
    "machinegun": "machine-gun", "machine gun": "machine-gun", "mg": "machine-gun",
    "heavy infantry": "heavy weapons", "schwere": "heavy weapons",
    "sicherung": "security", "flame tank": "flame", "flamethrower": "flame",
    "attack": "air attack", "bomber": "air bomber", "stuka": "air attack", "aircraft": "air",
    "garrison": "fortress", "festung": "fortress",
}

#: types a tank silhouette replaces in layouts that use silhouettes (BfVL, AVD option)
ARMOURED = {"armour", "assault gun", "tank destroyer", "flame", "self-propelled artillery"}

#: size codes as games write them -> the mark printed above the symbol
SIZE_MARKS = {
    "team": "Ø", "squad": "●", "section": "●●", "platoon": "●●●", "company": "I", "battalion": "II",
    "regiment": "III", "brigade": "X", "division": "XX", "corps": "XXX", "army": "XXXX",
    "kampfgruppe": "KG", "battle group": "KG", "group": "KG",
}


def canonical_type(unit_type: str | None) -> str:
    """The SYMBOLS name for a unit type as a game spells it (case and spelling tolerant)."""
    key = (unit_type or "infantry").strip().lower()
    if key in SYMBOLS:
        return key
    return ALIASES.get(key, key)


def known_types() -> list[str]:
    """Every type name (and alias) that draws a specific symbol."""
    return sorted(set(SYMBOLS) | set(ALIASES))


def size_mark(size: str | None) -> str:
    """The printed size mark for a size code: "III", "XX", "KG", "II+"; "" for none."""
    if not size:
        return ""
    text = size.strip()
    return SIZE_MARKS.get(text.lower(), text)


def draw_symbol(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], unit_type: str | None, *,
                colour: str = "#000000", fill: str | None = "#ffffff", width: float = 2,
                frame: bool = True, silhouette: bool = False) -> None:
    """Draw the NATO symbol of ``unit_type`` into ``box`` (x0, y0, x1, y1 in pixels).

    ``fill`` colours the inside of the frame (None leaves the counter colour); ``width`` is the
    line width in pixels; ``silhouette`` draws a tank outline instead of the oval for armoured
    types, as computer-game and silhouette counter sets do.
    """
    x0, y0, x1, y1 = box
    w = max(1, round(width))
    name = canonical_type(unit_type)
    if frame:
        draw.rectangle(box, fill=fill, outline=colour, width=w)
    elif fill:
        draw.rectangle(box, fill=fill)
    if silhouette and name in ARMOURED:
        _tank(draw, box, colour)
        return
    primitives = SYMBOLS.get(name)
    if primitives is None:
        initials = "".join(word[0] for word in name.replace("-", " ").split())[:3].upper() or "?"
        primitives = [("text", initials)]
    # inset so lines meet the frame cleanly instead of poking through its corners
    inset = w / 2
    fx0, fy0, fx1, fy1 = x0 + inset, y0 + inset, x1 - inset, y1 - inset
    fw, fh = fx1 - fx0, fy1 - fy0

    def pt(u: float, v: float) -> tuple[float, float]:
        return fx0 + u * fw, fy0 + v * fh

    for prim in primitives:
        kind, args = prim[0], prim[1:]
        if kind == "line":
            draw.line([pt(args[0], args[1]), pt(args[2], args[3])], fill=colour, width=w)
        elif kind == "lines":
            pts = [pt(args[i], args[i + 1]) for i in range(0, len(args), 2)]
            draw.line(pts, fill=colour, width=w, joint="curve")
        elif kind in ("poly", "tri"):
            pts = [pt(args[i], args[i + 1]) for i in range(0, len(args), 2)]
            if kind == "poly":
                draw.polygon(pts, fill=colour, outline=colour)
            else:
                draw.polygon(pts, outline=colour, width=w)
        elif kind == "stadium":
            a, b = pt(args[0], args[1]), pt(args[2], args[3])
            radius = (b[1] - a[1]) / 2
            draw.rounded_rectangle([a, b], radius=radius, outline=colour, width=w)
        elif kind in ("dot", "ring"):
            cx, cy = pt(args[0], args[1])
            r = args[2] * fh * (1.0 if kind == "dot" else 1.2)
            if kind == "dot":
                draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
            else:
                draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(1, w * 2 // 3))
        elif kind == "arc":
            a, b = pt(args[0], args[1]), pt(args[2], args[3])
            # clip arcs that reach below the frame (anti-aircraft dome) to the frame
            draw.arc([a, b], args[4], args[5], fill=colour, width=w)
        elif kind == "text":
            size = fh * (0.62 if len(args[0]) <= 2 else 0.5)
            f = font(min(size, fw / (0.62 * len(args[0]) + 0.2)), bold=True, family="condensed")
            draw.text((fx0 + fw / 2, fy0 + fh / 2), args[0], fill=colour, font=f, anchor="mm")
        elif kind == "text_low":
            # a type code in the lower right corner (air units: A attack, B bomber)
            f = font(fh * 0.4, bold=True, family="condensed")
            draw.text((fx0 + fw * 0.88, fy0 + fh * 0.74), args[0], fill=colour, font=f, anchor="mm")
        elif kind == "plane":
            _plane(draw, (fx0, fy0, fx1, fy1), colour)
        elif kind == "battlements":
            step = fw / 7
            pts = []
            for i in range(7):
                top = fy0 + fh * (0.3 if i % 2 == 0 else 0.48)
                pts += [(fx0 + i * step, top), (fx0 + (i + 1) * step, top)]
            draw.line(pts, fill=colour, width=w)
    if frame:
        # redraw the frame so arcs (the anti-aircraft dome) never hide its edge
        draw.rectangle(box, outline=colour, width=w)


def _tank(draw: ImageDraw.ImageDraw, box, colour: str) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(u, v):
        return x0 + u * w, y0 + v * h

    hull = [p(0.12, 0.62), p(0.88, 0.62), p(0.8, 0.86), p(0.2, 0.86)]
    turret = [p(0.32, 0.62), p(0.36, 0.42), p(0.6, 0.42), p(0.64, 0.62)]
    draw.polygon(hull, fill=colour)
    draw.polygon(turret, fill=colour)
    draw.rectangle([p(0.58, 0.47), p(0.92, 0.53)], fill=colour)


def _plane(draw: ImageDraw.ImageDraw, box, colour: str) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(u, v):
        return x0 + u * w, y0 + v * h

    draw.polygon([p(0.47, 0.1), p(0.53, 0.1), p(0.55, 0.85), p(0.45, 0.85)], fill=colour)   # fuselage
    draw.polygon([p(0.18, 0.36), p(0.82, 0.36), p(0.82, 0.46), p(0.18, 0.46)], fill=colour)  # wings
    draw.polygon([p(0.38, 0.76), p(0.62, 0.76), p(0.62, 0.84), p(0.38, 0.84)], fill=colour)  # tail
