"""A module's decks (DrawPiles and their cards) as hexforge decks and counters.

Each card becomes a counter (kind ``chit``, type ``card``; the copies of one card in a deck
are its ``count``), its face image and its Mask's image kept as the counter's art; each
DrawPile becomes a deck of ``game.yaml`` (the format chit cups use) holding its cards, in the
zone or on the hex where it sits, else in a box of its own. A deck holds every copy of its
cards, so a set-up's deck contents come from the deck, not from the set-up.
"""

from __future__ import annotations

from dataclasses import replace

from ..game import Box, Counter, Deck, Source
from ..vassal.encoding import decode
from ..vassal.pieces import expand
from ..vassal.reader import BUILD, inside_shape
from ._ids import slug, unique

__all__ = ["import_decks", "layer_images", "with_count"]

_FACE_DOWN = {"Never": False, "MenuDefaultUp": False}   # "Always" and "Via right-click Menu" start face down
_SHUFFLE = {"Always": "always", "Never": "never", "Via right-click Menu": "menu"}


def import_decks(importer, game, boards) -> dict[str, str]:
    """Every DrawPile of the module as a deck of ``game`` and its cards as counters.

    Returns card gpid -> counter id (a card a set-up shows outside its deck is reported).
    """
    module = importer.module
    used = set(game.counters)
    by_gpid: dict[str, str] = {}
    decks: list[tuple[Deck, str]] = []
    used_decks: set[str] = set()
    held: set[str] = set()   # counters some deck holds (a deck holds every copy of its counters)
    for vmap in module.maps:
        for pile in vmap["decks"]:
            element = pile["_element"]
            label = f"deck {pile['name']!r}"
            cards: dict[str, str] = {}   # entry name (or unit id) -> counter id, in the deck's order
            returns: set[str | None] = set()   # the Return to Deck command of each card, if it returns here
            for slot in element.iter(BUILD + "widget.CardSlot", BUILD + "widget.PieceSlot"):
                entry = slot.get("entryName", "")
                try:
                    traits = module.piece(slot)
                    piece = module.describe(traits)
                    full = expand(traits, module.prototypes)
                except ValueError as exc:
                    importer.report.append(f"{label}: card {entry!r} not imported: it does not decode ({exc})")
                    continue
                if "piece;" not in piece["traits"]:
                    importer.report.append(f"{label}: card {entry!r} not imported: no BasicPiece")
                    continue
                uid = piece["properties"].get("UnitId")
                key = uid or entry
                if key in cards:   # another copy of the same card
                    counter = game.counters[cards[key]]
                    game.counters[counter.id] = with_count(counter, counter.count + 1)
                    by_gpid[slot.get("gpid", "")] = counter.id
                    continue
                returns.add(_return_command(full, pile["name"]))
                if uid and uid in game.counters and uid not in held:   # hexforge's own module: the palette's unit
                    counter_id = uid
                else:
                    mask = next((decode(t.type[len("obs;"):], ";") for t in full if t.id == "obs;"), [])
                    back = mask[1] if len(mask) > 1 and mask[1] else ""
                    counter_id = unique(uid or slug(entry or piece.get("name"), "card"), used)
                    game.counters[counter_id] = importer.make_counter(counter_id, entry, slot, traits, piece,
                                                                      card_back=back)
                held.add(counter_id)
                cards[key] = counter_id
                by_gpid[slot.get("gpid", "")] = counter_id
            box, map_id, hex = _place(importer, game, boards, vmap, pile)
            deck = Deck(id=unique(slug(pile["name"], "deck"), used_decks), name=pile["name"] or "Deck",
                        counters=tuple(cards.values()), box=box, map=map_id, hex=hex,
                        face_down=_FACE_DOWN.get(pile["face_down"], True), draw_face_up=pile["draw_face_up"],
                        shuffle=_SHUFFLE.get(pile["shuffle"], "always"),
                        shuffle_command=element.get("shuffleCommand") or "Reshuffle",
                        return_command=next(iter(returns)) if len(returns) == 1 else None,
                        source=Source(estimated=f"{label} of map {vmap['name']!r} of {importer.path.name}"))
            decks.append((deck, pile))
            copies = sum(game.counters[c].count for c in cards.values())
            importer.report.append(f"{label}: {copies} cards as {len(cards)} counters (kind chit), deck {deck.id!r}"
                                   + (f" in box {box!r}" if box else ""))
    ids = {d.name: d.id for d, _ in decks}
    for deck, pile in decks:
        target = ids.get(pile["send_to"]) if pile["send_to"] else None
        if pile["send_to"] and target is None:
            importer.report.append(f"deck {deck.name!r}: sends its cards to deck {pile['send_to']!r}, which "
                                   "does not exist: not imported")
        if target is not None:
            command = pile["_element"].get("reshuffleCommand") or f"Send all to {target}"
            deck = replace(deck, send_to=target, send_command=command)
        game.decks.append(deck)
    return by_gpid


def _return_command(full, deck_name: str) -> str | None:
    """The command of a card's Return to Deck trait when it returns the card to ``deck_name``."""
    for trait in full:
        if trait.id == "return;":
            fields = decode(trait.type[len("return;"):], ";") + [""] * 8
            target = fields[7] if fields[5] == "2" and fields[6] != "true" else fields[2]
            if target.strip('{}" ') == deck_name and fields[0]:
                return fields[0]
    return None


def layer_images(full) -> list[str]:
    """The images of the first Layer (``emb2``) of an expanded chain, in level order."""
    for trait in full:
        if trait.id == "emb2;":
            fields = decode(trait.type[len("emb2;"):], ";")
            return [i for i in (decode(fields[15], ",") if len(fields) > 15 else []) if i]
    return []


def with_count(counter: Counter, count: int) -> Counter:
    return replace(counter, count=count)


def _place(importer, game, boards, vmap, pile):
    """``(box, map, hex)`` of a DrawPile: its zone, else its hex, else a new box named after it."""
    x, y = pile["x"], pile["y"]
    try:
        x, y = int(x), int(y)
    except (TypeError, ValueError):
        x = y = None
    found = None
    if x is not None:
        on_map = [b for b in boards if b.map_name == vmap["name"]]
        named = next((b for b in on_map if pile["board"] and b.board["name"] == pile["board"]), None)
        if named is not None:                  # placed relative to its board
            found = (named, x, y)
        else:                                  # placed on the map, past its edge margins
            edge = vmap.get("edge", (0, 0))
            found = importer._board_at(vmap["name"], x + edge[0], y + edge[1], boards, {})
    if found is not None:
        board, bx, by = found
        for _, path, box_id in board.zones:
            if inside_shape(path, bx, by):
                return box_id, None, None
        if board.converted is not None and (board.grid_zone is None or inside_shape(board.grid_zone, bx, by)):
            v = board.converted.vassal
            try:
                hex = board.converted.grid.parse(v.label(*v.snap(bx, by)))
            except Exception:
                hex = None
            if hex is not None and hex in board.converted.grid:
                return None, board.map_id, hex
    first = next(iter(game.maps.values()))
    box_id = unique(slug(pile["name"], "deck"), importer.used_boxes)
    first.boxes.append(Box(id=box_id, name=pile["name"] or box_id,
                           source=Source(estimated=f"the place of deck {pile['name']!r} on map {vmap['name']!r}")))
    return box_id, None, None
