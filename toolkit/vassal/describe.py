"""Pieces decoded and described: every trait kind of VASSAL 3.7, a decoding budget per file,
and what a piece is (name, images, properties, layer, problems) from its trait chain.

A piece's types repeat across a file (every copy of a counter, every card of a deck), so what
they say is worked out once per design (:class:`_Design`) and each copy only has its state
split and read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import DataError
from .encoding import Trait, decode, parse_add_piece, split_chain, split_states
from .pieces import expand

__all__ = ["KNOWN_TRAITS", "DecodeBudget", "decode_piece", "describe_piece", "describe_text"]

#: Every trait id of BasicCommandEncoder's factories (VASSAL 3.7; checked against its source),
#: with the old ``emb;`` and ``nonRect;`` and the non-decorators ``piece;`` and ``deck;``.
KNOWN_TRAITS = frozenset(
    "piece; emb2; emb; mark; PROP; prototype; label; obs; hide; delete; clone; report; macro; immob; sendto; "
    "return; markmoved; rotate; footprint; calcProp; setprop; setpieceprop; globalkey; globalhotkey; "
    "placemark; replace; hideCmd; restrict; submenu; menuSeparator; table; translate; AreaOfEffect; nonRect2; "
    "nonRect; pivot; button; playSound; deselect; locCommand; border; propertysheet; mat; matPiece; basicName; "
    "cmt; locmsg; attach; deck;".split())

#: Trait ids without a ``;`` (Deselect, TranslatableMessage): their types run on into their first
#: field (``deselectDeselect;88,130;...``), so they are known by their prefix.
_BARE_IDS = ("deselect", "locmsg")

#: Characters of piece text decoded per file: decoding is linear (:func:`split_chain`), so this
#: only bounds a file that repeats huge pieces; a real module decodes a few million.
_MAX_CHARS = 10**9
_MAX_PIECES = 100_000  # pieces, slots and prototypes decoded per file (large modules have ~10,000)


class DecodeBudget:
    """How much piece decoding one file may ask for (crafted files cannot make it run for minutes)."""

    def __init__(self, where: str) -> None:
        self.where, self.left, self.pieces = where, _MAX_CHARS, _MAX_PIECES

    def chain(self, type_text: str, state: str) -> list[Trait]:
        """:func:`split_chain`, charged to this file's budget."""
        self._charge(type_text, state)
        return split_chain(type_text, state)

    def states(self, type_text: str, state: str, count: int) -> list[str]:
        """:func:`split_states` of a piece whose types were split before, charged like :meth:`chain`."""
        self._charge(type_text, state)
        return split_states(state, count)

    def _charge(self, type_text: str, state: str) -> None:
        self.pieces -= 1
        if self.pieces < 0:
            raise DataError(f"more than {_MAX_PIECES:,} pieces to decode in one file", path=self.where)
        self.left -= len(type_text) + len(state)
        if self.left < 0:
            raise DataError(f"more than {_MAX_CHARS:,} characters of pieces to decode in one file",
                            path=self.where)


def decode_piece(text: str, budget: DecodeBudget) -> tuple[str, list[Trait]]:
    """``(id, traits)`` of a piece's AddPiece text (a PieceSlot's), charged to ``budget``;
    ValueError if it does not decode."""
    piece_id, type_text, state = parse_add_piece(text)
    return piece_id, budget.chain(type_text, state)


def _prototype_names(traits: list[Trait]) -> list[str]:
    return [decode(t.type[len("prototype;"):], ";")[0] for t in traits if t.id == "prototype;"]


def _missing_prototypes(traits: list[Trait], prototypes: dict[str, list[Trait]]) -> list[str]:
    """Prototype names used (also inside prototypes) that have no definition (each prototype
    looked at once, so nesting and fan-out cost no more than the definitions' size)."""
    missing: list[str] = []
    seen: set[str] = set()
    todo = _prototype_names(traits)
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        if name not in prototypes:
            missing.append(name)
        else:
            todo += _prototype_names(prototypes[name])
    return missing


@dataclass(frozen=True)
class _Design:
    """What a piece's types and its prototypes say, whatever its state: shared by every copy
    of a piece (a save repeats a few hundred designs thousands of times). State sources are
    ``(index of the piece's own trait, None)`` or ``(None, a prototype definition's state)``."""

    own: int   # the piece's own traits (before its prototypes are expanded)
    used: tuple[str, ...]
    trait_ids: tuple[str, ...]
    problems: tuple[str, ...]
    basic: tuple[int | None, str] | None
    name: str = ""
    image: str = ""
    images: tuple[str, ...] = ()
    marks: tuple[tuple[list[str], int | None, list[str] | None], ...] = ()   # keys, own index or values; innermost first
    layers: tuple[tuple[list[str], bool, tuple[int | None, str]], ...] = ()   # names, images match, state
    states: dict = field(default_factory=dict, compare=False)   # own mark and layer states -> _read_states


def _design(traits: list[Trait], prototypes: dict[str, list[Trait]] | None) -> _Design:
    problems = []
    used = _prototype_names(traits)
    if prototypes is not None:
        missing = _missing_prototypes(traits, prototypes)
        problems += [f"prototype {name!r} does not exist" for name in missing]
        full = expand(traits, prototypes)
    else:
        full = traits
    own = {id(t): i for i, t in enumerate(traits)}

    def source(trait: Trait) -> tuple[int | None, str]:
        i = own.get(id(trait))
        return (i, "") if i is not None else (None, trait.state)

    ids = tuple(t.id for t in full)
    problems += [f"unknown trait {t.id!r}" for t in full if t.id not in KNOWN_TRAITS and not t.type.startswith(_BARE_IDS)]
    if not full or ids[-1] != "piece;":
        # VASSAL builds a piece only on a BasicPiece (a Stack or a Deck is never wrapped in traits)
        problems.append("the innermost trait is not a BasicPiece")
        return _Design(len(traits), tuple(used), ids, tuple(problems), None)
    basic = full[-1]
    _, _, image, name = (decode(basic.type[len("piece;"):], ";") + ["", "", "", ""])[:4]
    marks = tuple((decode(t.type[len("mark;"):], ","), own.get(id(t)), None if id(t) in own else decode(t.state, ","))
                  for t in reversed(full) if t.id == "mark;")
    images = [image] if image else []
    layers = []
    for trait in full:
        if trait.id == "emb2;":
            fields = decode(trait.type[len("emb2;"):], ";")
            names = decode(fields[16], ",") if len(fields) > 16 else []
            level_images = decode(fields[15], ",") if len(fields) > 15 else []
            images += [i for i in level_images if i]
            layers.append((names, len(level_images) == len(names), source(trait)))
            if len(level_images) != len(names):
                problems.append(f"a Layer has {len(level_images)} images but {len(names)} level names")
        elif trait.id == "markmoved;":
            moved = decode(trait.type[len("markmoved;"):], ";")[0]
            if moved and "/" not in moved:  # a bare name is looked up in images/
                images.append(moved)
    return _Design(len(traits), tuple(used), ids, tuple(problems), source(basic), name, image, tuple(images), marks,
                   tuple(layers))


def describe_piece(traits: list[Trait], prototypes: dict[str, list[Trait]] | None,
                   designs: dict | None = None) -> dict:
    """Name, image, properties, layer level and problems of one decoded piece.

    ``designs`` (a dict kept for one set of ``prototypes``, as :class:`Module` keeps one)
    caches what the piece's types say, so each copy of a piece only decodes its state.
    """
    key = tuple(t.type for t in traits)
    design = designs.get(key) if designs is not None else None
    if design is None:
        design = _design(traits, prototypes)
        if designs is not None:
            designs[key] = design
    return _describe(design, [t.state for t in traits])


def describe_text(type_text: str, state_text: str, prototypes: dict[str, list[Trait]] | None, designs: dict,
                   budget: DecodeBudget) -> dict:
    """The :func:`describe_piece` of a piece still encoded: a design seen before (the same type
    text) only has its state split, and no trait objects are built."""
    design = designs.get(type_text)
    if design is None:
        traits = budget.chain(type_text, state_text)
        design = designs[type_text] = _design(traits, prototypes)
        return _describe(design, [t.state for t in traits])
    return _describe(design, budget.states(type_text, state_text, design.own))


def _read_states(design: _Design, state) -> tuple[dict, str, int | None, list[str]]:
    """The properties, name, Layer level and Layer problems a piece's states give."""
    properties: dict[str, str] = {}
    for keys, index, values in design.marks:
        if index is not None:
            values = decode(state((index, "")), ",")
        for k, v in zip(keys, values + [""] * len(keys)):
            properties.setdefault(k, v)
    name, level, problems = design.name, None, []
    for names, matching, src in design.layers:
        try:
            level = int(state(src).split(";")[0] or "1")
        except ValueError:
            level = 1
        if matching and names and not 0 < abs(level) <= len(names):
            problems.append(f"a Layer is at level {level} of {len(names)}")
        if 0 < level <= len(names) and names[level - 1]:
            label = names[level - 1]
            if label.startswith("+"):
                name = name + label[1:]
            elif label.endswith("+"):
                name = label[:-1] + name
            else:
                name = label
    return properties, name, level, problems


def _describe(design: _Design, states: list[str]) -> dict:
    def state(src: tuple[int | None, str]) -> str:
        return states[src[0]] if src[0] is not None else src[1]

    problems = list(design.problems)
    if design.basic is None:
        return {"name": "", "image": "", "images": [], "properties": {}, "prototypes": list(design.used),
                "traits": list(design.trait_ids), "layer": None, "problems": problems}
    own = tuple(states[index] for _, index, _ in design.marks if index is not None) + tuple(
        states[src[0]] for _, _, src in design.layers if src[0] is not None)
    found = design.states.get(own)
    if found is None:   # copies of a piece mostly keep their design's values and levels: read once
        found = _read_states(design, state)
        if len(design.states) < 64:
            design.states[own] = found
    properties, name, level, layer_problems = found
    problems += layer_problems
    out = {"name": name, "image": design.image, "images": list(design.images), "properties": dict(properties),
           "prototypes": list(design.used), "traits": list(design.trait_ids), "layer": level, "problems": problems}
    fields = decode(state(design.basic), ";")
    if len(fields) >= 4:
        out["map"] = None if fields[0] == "null" else fields[0]
        out["gpid"] = fields[3]
        try:
            out["x"], out["y"] = int(fields[1]), int(fields[2])
        except ValueError:
            problems.append(f"position {fields[1]!r},{fields[2]!r} is not a number")
    return out
