"""Game pieces as VASSAL trait chains: prototypes, counters and markers (vassal-format.md §4).

A counter's PieceSlot is ``prototype;<side> side``, ``prototype;<type> type``,
``prototype;Unit``, a Marker with the values the referee reads back, the step Layer when
the counter has more than one face, and the BasicPiece. The Layer has one level per face
(:func:`step_faces`): a two-sided counter flips in a loop (Ctrl+F); a three-step one (full,
reduced, cadre) loses a step with Ctrl+F and regains one with Ctrl+R, without looping.
Behaviour shared by every unit (delete, dead pile, movement trail, moved marker) lives in
the ``Unit`` prototype and the chat reports of the steps in ``Two-sided``/``Multi-step``,
so changing it, a side or a unit type is one edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..errors import DataError
from ..game import Counter, Game
from .encoding import CTRL, Trait, decode, encode, key

__all__ = [
    "FLIP", "STEP_LOSS", "STEP_GAIN", "DELETE", "ELIMINATE", "TRAIL", "MOVED", "UNIT_PROTOTYPE",
    "STEP_PROTOTYPE", "MULTI_STEP_PROTOTYPE", "MARKER_PROTOTYPE", "PieceDesign", "basic_piece", "layer",
    "marker", "prototype", "prototypes", "counter_piece", "step_faces", "cadre_of", "expand", "side_prototype",
    "type_prototype", "safe_name", "plain_text", "unique_name", "image_names", "with_position", "MASK",
    "RETURN", "obscurable", "return_to_deck",
]

FLIP = key("F", CTRL)
STEP_LOSS = FLIP  # a multi-step counter's "lose a step" is its flip: the same key acts on every unit
STEP_GAIN = key("R", CTRL)
DELETE = key("D", CTRL)
ELIMINATE = key("E", CTRL)
TRAIL = key("T", CTRL)
MOVED = key("M", CTRL)
MASK = key("H", CTRL)
RETURN = key("R", 195)  # Ctrl+Shift+R

UNIT_PROTOTYPE = "Unit"
STEP_PROTOTYPE = "Two-sided"
MULTI_STEP_PROTOTYPE = "Multi-step"
MARKER_PROTOTYPE = "Marker"
UNITS_LAYER = "Units"
MARKERS_LAYER = "Markers"
MOVED_IMAGE = "moved.png"

_UNSAFE = re.compile(r"[;,/\\\t\n\r\x1b$'\"]")


def safe_name(text: str) -> str:
    """A name safe in every VASSAL nesting level and property expression."""
    return _UNSAFE.sub(" ", str(text)).strip() or "unnamed"


_CONTROL_OR_BACKSLASH = re.compile(r"[\x00-\x1f\x7f\\]")


def plain_text(text: object) -> str:
    """Free text (a name, a property value) made safe for VASSAL's encoder.

    VASSAL does not escape backslashes, so a token ending in one escapes the delimiter that
    follows it at the next level out and the piece no longer decodes; control characters
    cannot go in XML. Backslashes become ``/`` and control characters spaces.
    """
    value = str(text)
    if not _CONTROL_OR_BACKSLASH.search(value):
        return value
    return _CONTROL_OR_BACKSLASH.sub(lambda m: "/" if m[0] == "\\" else " ", value)


def unique_name(name: str, used: set[str], pattern: str = "{name} ({n})") -> str:
    """``name``, or ``pattern`` with the first free ``n`` from 2 if ``name`` is taken; it joins ``used``."""
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = pattern.format(name=name, n=n)
    used.add(candidate)
    return candidate


def basic_piece(image: str, name: str, *, map_id: str | None = None, x: int = 0, y: int = 0,
                gpid: str | int = "") -> Trait:
    """``piece;;;image;name`` with state ``map;x;y;gpid;0``."""
    return Trait("piece;" + encode(["", "", image, plain_text(name)], ";"),
                 encode([map_id or "null", x, y, gpid, 0], ";"))


def layer(images: Sequence[str], level_names: Sequence[str], *, name: str = "Step",
          command: str = "Flip", keystroke: str = FLIP, level: int = 1, loop: bool = True,
          down_command: str = "", down_keystroke: str = "") -> Trait:
    """An always-active Layer (``emb2``, §4.4): the increase key shows the next level.

    By default it loops (a two-sided counter flips back and forth); a multi-level Layer
    gives ``loop=False`` and a decrease command to step back.
    """
    fields = [
        "", 128, "A", command, 128, "", down_command, 128, "", "", "", 1, False, 0, 0,
        encode(images, ","), encode(level_names, ","), loop, name, "", "", False, "", 1,
        1, True, "", keystroke, down_keystroke, "", "1.0", "", True,
    ]
    return Trait("emb2;" + encode(fields, ";"), str(level))


def marker(props: dict[str, object]) -> Trait:
    """Static properties (``mark;``): names and values as comma lists."""
    return Trait("mark;" + encode(list(props), ","), encode([_text(v) for v in props.values()], ","))


def prototype(name: str) -> Trait:
    return Trait("prototype;" + encode([name], ";"), "")


def report(keystrokes: Sequence[str], message: str) -> Trait:
    return Trait("report;" + encode([encode(keystrokes, ","), message, "", "", "", False], ";"), "-1")


def delete() -> Trait:
    return Trait("delete;" + encode(["Delete", DELETE, ""], ";"), "")


def send_to_zone(command: str, keystroke: str, map_name: str, zone: str, description: str) -> Trait:
    fields = [command, keystroke, map_name, "", 0, 0, "", "", 0, 0, 1, 1, description, "Z", zone, "", "", ""]
    return Trait("sendto;" + encode(fields, ";"), ";;")


def obscurable(back_image: str, mask_name: str, description: str = "Face down") -> Trait:
    """A Mask (``obs;``): hidden, the piece shows ``back_image`` and is called ``mask_name``.

    A face-down deck hides its pieces through this trait (a piece without it shows its face).
    Fields as ``Obscurable.myGetType`` writes them: key, image, command, display style
    (``P``: the owner may peek), mask name, access, peek command, description, auto-peek,
    deal key, deal expression.
    """
    fields = [MASK, back_image, "Hide", "P", plain_text(mask_name), "player:", "Peek", plain_text(description), True,
              "", ""]
    return Trait("obs;" + encode(fields, ";"), "null;")


def return_to_deck(command: str, deck_name: str) -> Trait:
    """A Return to Deck command (``return;``, version 2) that puts the piece back in the named deck."""
    fields = [plain_text(command), RETURN, safe_name(deck_name), "Select destination", plain_text(command), 2,
              False, safe_name(deck_name)]
    return Trait("return;" + encode(fields, ";"), "")


def footprint() -> Trait:
    fields = [TRAIL, "Movement trail", False, False, 10, "255,255,255", "0,0,0", 100, 50, 20, 30,
              "1.0", "", "", "", "Movement trail"]  # the 16 fields VASSAL 3.7.26 writes
    return Trait("footprint;" + encode(fields, ";"), "false;;0;false")


def mark_moved(x_offset: int, y_offset: int) -> Trait:
    fields = [MOVED_IMAGE, x_offset, y_offset, "Mark moved", MOVED, "", False, "Mark piece as moved", "",
              "Mark piece as unmoved", ""]
    return Trait("markmoved;" + encode(fields, ";"), "false")


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return plain_text(value)


_EMPTY_PIECE = Trait("piece;;;;", "null;0;0;;0")


def side_prototype(side_id: str) -> str:
    return safe_name(f"{side_id} side")


def type_prototype(unit_type: str) -> str:
    return safe_name(f"{unit_type} type")


def prototypes(game: Game, *, dead_map: str, dead_zone: str, px: int) -> dict[str, list[Trait]]:
    """Every PrototypeDefinition of the module, by name, each ending in an empty BasicPiece."""
    unit = [
        delete(),
        send_to_zone("Eliminate", ELIMINATE, dead_map, dead_zone, "Send to the dead pile"),
        footprint(),
        mark_moved(px // 2 - 14, -px // 2 - 4),
        marker({"Layer": UNITS_LAYER}),
        _EMPTY_PIECE,
    ]
    result = {UNIT_PROTOTYPE: unit,
              STEP_PROTOTYPE: [report([FLIP], "* $location$: $oldPieceName$ flipped to $newPieceName$"),
                               _EMPTY_PIECE],
              MARKER_PROTOTYPE: [delete(), marker({"Layer": MARKERS_LAYER}), _EMPTY_PIECE]}
    if any(len(step_faces(c)) > 2 for c in game.counters.values()):
        result[MULTI_STEP_PROTOTYPE] = [
            report([STEP_LOSS], "* $location$: $oldPieceName$ loses a step, now $newPieceName$"),
            report([STEP_GAIN], "* $location$: $oldPieceName$ regains a step, now $newPieceName$"),
            _EMPTY_PIECE]
    for side in game.sides:
        result[side_prototype(side.id)] = [marker({"Side": side.id, "SideName": side.name}), _EMPTY_PIECE]
    for counter in game.counters.values():
        if not counter.is_marker:
            result.setdefault(type_prototype(counter.type), [marker({"Type": counter.type}), _EMPTY_PIECE])
    return result


@dataclass(frozen=True)
class PieceDesign:
    """One counter's piece: its traits (palette form, prototypes unexpanded) and its images.

    ``faces`` are the counter's steps as renderer states (``front``, ``back``, ``cadre``), one
    Layer level each, and ``images`` their ``images/`` names in the same order.
    """

    counter: Counter
    traits: tuple[Trait, ...]
    faces: tuple[str, ...]
    images: tuple[str, ...]

    def level(self, state: str | None) -> int | None:
        """The Layer level a scenario's set-up ``state`` asks for (None: the palette's own)."""
        if state is None or len(self.faces) < 2:
            return None
        if state in ("front", "full"):
            return 1
        if state in self.faces:
            return self.faces.index(state) + 1
        if state in ("reduced", self.counter.back_kind):
            return 2
        return None  # a marker's value ("overcast", "5"): not a face


def step_faces(counter: Counter) -> tuple[str, ...]:
    """The faces a counter shows as it loses steps, as renderer states.

    A counter with a back shows it after its first loss; a counter of three or more steps
    (rule 1.7.1 of Velikiye Luki: full, reduced, then a cadre) ends on its cadre face.
    """
    faces = ["front"]
    if _has_back(counter):
        faces.append("back")
        if counter.steps >= 3 and counter.back_kind != "cadre":
            faces.append("cadre")
    return tuple(faces)


def image_names(counters: Sequence[Counter]) -> dict[str, tuple[str, ...]]:
    """Unique ``images/`` names, one per :func:`step_faces` face, for every counter id."""
    used: set[str] = set()
    result = {}
    for counter in counters:
        stem = unique_name(re.sub(r"[^A-Za-z0-9_.-]", "_", counter.id) or "counter", used, "{name}_{n}")
        result[counter.id] = tuple(f"c_{stem}.png" if face == "front" else f"c_{stem}_{face}.png"
                                   for face in step_faces(counter))
    return result


def cadre_of(game: Game, counter: Counter) -> Counter | None:
    """The cadre counter that replaces ``counter`` on its last step, if the game has one.

    A cadre is a one-step unit of the same side whose id or name says "cadre"; where there
    are several (Velikiye Luki has one per quality), the one whose printed words (quality,
    not numbers) match the counter's wins.
    """
    if "cadre" not in step_faces(counter):
        return None
    words = {k: v for k, v in counter.front.items() if isinstance(v, str)}
    best, best_score = None, -1
    for other in game.counters.values():
        if (other.side != counter.side or other.is_marker or other.steps != 1 or other.id == counter.id
                or "cadre" not in f"{other.id} {other.name}".lower()):
            continue
        score = sum(other.front.get(k) == v for k, v in words.items())
        if score > best_score:
            best, best_score = other, score
    return best


def _has_back(counter: Counter) -> bool:
    return counter.back_kind not in ("none", "blank", "") or counter.steps > 1


def _properties(counter: Counter, cadre: Counter | None) -> dict[str, object]:
    props: dict[str, object] = {
        "UnitId": counter.id, "Kind": counter.kind, "Formation": counter.formation or "",
        "Size": counter.size or "", "UnitClass": counter.unit_class or "", "Steps": counter.steps,
        "BackKind": counter.back_kind,
    }
    if counter.is_marker:
        props["Type"] = counter.type
    for name, value in counter.front.items():
        props[safe_name(name)] = value
    for name, value in counter.back.items():
        props["back_" + safe_name(name)] = value
    if cadre is not None:
        props["CadreId"] = cadre.id
        for name, value in cadre.front.items():
            props["cadre_" + safe_name(name)] = value
    return props


def _level_name(counter: Counter, face: str) -> str:
    if face == "front":
        return ""
    if face == "back":
        return f"+ ({counter.back_kind if counter.back_kind not in ('none', 'blank', '') else 'reduced'})"
    return f"+ ({face})"


def counter_piece(counter: Counter, images: Sequence[str], cadre: Counter | None = None) -> PieceDesign:
    """The palette piece of ``counter`` (prototypes unexpanded, not on a map).

    ``images`` has one name per :func:`step_faces` face; ``cadre`` (see :func:`cadre_of`)
    adds the values of the last step as ``cadre_*`` properties.
    """
    faces = step_faces(counter)
    if len(images) != len(faces):
        raise ValueError(f"counter {counter.id!r} has {len(faces)} faces but {len(images)} images")
    traits: list[Trait] = []
    if counter.is_marker:
        traits.append(prototype(MARKER_PROTOTYPE))
    else:
        if counter.side:
            traits.append(prototype(side_prototype(counter.side)))
        traits.append(prototype(type_prototype(counter.type)))
        traits.append(prototype(UNIT_PROTOTYPE))
    # the step reports sit outside the Layer they report, so they see its old and new names
    if len(faces) == 2:
        traits.append(prototype(STEP_PROTOTYPE))
    elif len(faces) > 2:
        traits.append(prototype(MULTI_STEP_PROTOTYPE))
    traits.append(marker(_properties(counter, cadre)))
    names = [plain_text(_level_name(counter, face)) for face in faces]
    if len(faces) == 2:
        traits.append(layer(images, names))
    elif len(faces) > 2:
        # no loop: a cadre does not flip back to full strength; a step is regained with Ctrl+R
        traits.append(layer(images, names, command="Lose a step", keystroke=STEP_LOSS, loop=False,
                            down_command="Regain a step", down_keystroke=STEP_GAIN))
    traits.append(basic_piece(images[0], counter.name))
    return PieceDesign(counter, tuple(traits), faces, tuple(images))


MAX_PROTOTYPE_DEPTH = 20
MAX_EXPANDED_TRAITS = 10_000   # a piece of VASSAL's own modules has a few dozen


def expand(traits: Sequence[Trait], definitions: dict[str, list[Trait]], depth: int = 0) -> list[Trait]:
    """The chain with every ``prototype;`` trait replaced by its definition (as VASSAL clones).

    An unknown prototype is dropped, as VASSAL does (silently there; the reader reports it).
    Expansion is bounded: prototypes nested more than :data:`MAX_PROTOTYPE_DEPTH` deep or a
    piece of more than :data:`MAX_EXPANDED_TRAITS` traits is a :class:`DataError` (a crafted
    module's fan-out would otherwise grow without bound).
    """
    out: list[Trait] = []
    _expand(traits, definitions, depth, out, [0])
    return out


def _expand(traits: Sequence[Trait], definitions: dict[str, list[Trait]], depth: int, out: list[Trait],
            seen: list[int]) -> None:
    if depth > MAX_PROTOTYPE_DEPTH:
        raise DataError(f"prototypes nest more than {MAX_PROTOTYPE_DEPTH} deep (a prototype that uses itself?)")
    for trait in traits:
        seen[0] += 1   # every trait visited, kept or not: empty prototypes cannot fan out for free
        if seen[0] > MAX_EXPANDED_TRAITS:
            raise DataError(f"a piece expands to more than {MAX_EXPANDED_TRAITS:,} traits through its prototypes")
        if trait.id == "prototype;":
            name = decode(trait.type[len("prototype;"):], ";")[0]
            definition = definitions.get(name)
            if definition is not None:
                _expand(definition[:-1], definitions, depth + 1, out, seen)
            continue
        out.append(trait)


def with_position(traits: Sequence[Trait], map_id: str, x: int, y: int, gpid: str | int,
                  level: int | None = None) -> list[Trait]:
    """A copy of the chain placed on a map (and with its Layer at ``level``, if given)."""
    out = list(traits)
    inner = out[-1]
    state = decode(inner.state, ";")
    state[0:4] = [map_id, str(x), str(y), str(gpid)]
    out[-1] = Trait(inner.type, encode(state, ";"))
    if level is not None:
        out = [Trait(t.type, str(level)) if t.id == "emb2;" else t for t in out]
    return out
