"""How sure a draft is of each hex: every reader's doubt, and their combination in one place.

Each reader (base terrain, overlays, hexsides, roads and railways) says how sure it is of its
own reading; a hex is as sure as the least sure reading inside it or on its sides, and is
listed for a person below :data:`LOW_CONFIDENCE`. Besides the readers' own margins, a reading
is doubted where its evidence says the palette cannot judge it: a hex that looks unlike every
other hex read the same way on this picture (a symbol the palette does not know, two overlays
where the palette draws one), two kinds the palette draws alike, a hexside feature of a kind
none of the features at its ends has, a road or railway that stops inside the map.
"""

from __future__ import annotations

from ..hexes import Hex, Hexside
from ._linedoubt import (GLIMPSED_STEPS, LINE_END, LINE_EVEN, LINE_SEEN_FLAT, LINE_SEEN_POWER, SOFT,
                         explained_glimpses, glimpsed, line_ends, line_sureness, lines_past, resoften, soft_lines)
from ._sidedoubt import (COMMON, COMMON_READERS, KIND_BREAK, SIDE_EVEN, SIDE_PEERS, common_sightings,
                         course_doubts, course_gaps, kind_breaks, side_sureness)
from ._sureness import EXPLAINED, LOW_CONFIDENCE, Doubt, Reading, closeness, explained
from ._terraindoubt import (AGREE, ALIKE, ALIKE_SURE, COVERS, HOLE, HOLE_SURE, LONE_SURE, LONE_UNLIKE, PEER_FACTOR,
                            PEERS, UNLIKE, alike, bases_agree, covers, hex_doubts, region_holes, regions, regions_agree)

# the readers' doubts live in the private modules above; their names stay public here
__all__ = ["Doubt", "LOW_CONFIDENCE", "Reading", "judge", "combine", "explain",
           "EXPLAINED", "closeness", "explained",
           "hex_doubts", "alike", "covers", "regions", "bases_agree", "regions_agree", "region_holes",
           "AGREE", "ALIKE", "ALIKE_SURE", "COVERS", "HOLE", "HOLE_SURE", "LONE_SURE", "LONE_UNLIKE",
           "PEER_FACTOR", "PEERS", "UNLIKE", "PASSING", "UNLIKE_READERS",
           "line_sureness", "glimpsed", "soft_lines", "resoften", "explained_glimpses", "lines_past", "line_ends",
           "GLIMPSED_STEPS", "LINE_END", "LINE_EVEN", "LINE_SEEN_FLAT", "LINE_SEEN_POWER", "SOFT",
           "side_sureness", "kind_breaks", "common_sightings", "course_doubts", "course_gaps",
           "COMMON", "COMMON_READERS", "KIND_BREAK", "SIDE_EVEN", "SIDE_PEERS"]

#: A hex a line crosses or runs past, unlike its peers by no more than this (look-vector units: a line's
#: ink across a ring), is doubted no lower than EXPLAINED for it.
PASSING = 40.0


def judge(grid, draft, readings: dict[Hex, Reading], palette, more: dict | None = None) -> dict[Hex, tuple]:
    """Every reader's doubts combined, hex by hex: ``hex -> (confidence, runner-up terrain,
    sides' confidence, doubts least sure first)`` (see :func:`combine`). ``draft`` holds the
    hexsides, links and the doubts read along and across each hexside (``side_doubts``,
    ``side_confidence``: revised here where the whole picture says more, see :func:`resoften`
    and :func:`kind_breaks`); ``readings`` what the terrain readers made of each hex; ``more``
    further doubts per hex (the comparison with hexforge's drawings)."""
    resoften(draft)
    # on a sharp picture a line stopping short is followed straight on only where a stroke shows
    sighted = None if soft_lines(draft.links) else set(draft.links) | {
        side for side, doubts in draft.side_doubts.items()
        if any(d.reader == "line" and d.evidence and d.evidence[1] > 0 for d in doubts)}
    doubted = line_ends(grid, draft.links, readings, glimpsed(draft.side_doubts), sighted)
    explained_glimpses(grid, draft)
    read = {Hexside.of(h, o) for h in readings for o in grid.neighbours(h) if o in readings}
    common_sightings(draft, readings, read)
    course_doubts(grid, draft)
    for side, doubt in {**kind_breaks(grid, draft.hexsides), **course_gaps(grid, draft.hexsides, read)}.items():
        draft.side_doubts.setdefault(side, []).append(doubt)
    out: dict[Hex, tuple] = {}
    passed = lines_past(grid, draft.links)
    for hex, doubts in hex_doubts(readings, palette, grid).items():
        r = readings[hex]
        doubts.extend((more or {}).get(hex, ()))
        for o in grid.neighbours(hex):
            doubts.extend(draft.side_doubts.get(Hexside.of(hex, o), ()) if o in readings else ())
        if hex in doubted:
            doubts.append(Doubt("line end", doubted[hex]))
        if hex in passed or r.crossed:  # a line's ink may make its look unlike its peers'
            doubts = [explained(d) if d.reader in UNLIKE_READERS and d.evidence[0] <= PASSING else d
                      for d in doubts]
        out[hex] = combine(r.terrain, doubts, r.base_runner, r.features_runner)
    return out


UNLIKE_READERS = ("terrain unlike its peers", "overlay unlike its peers")


def combine(terrain, doubts: list[Doubt], base_runner, overlay_runner):
    """``(confidence, runner-up terrain, sides' confidence, doubts least sure first)`` of a
    hex from its readers' doubts: as sure as the least sure of them (the terrain and overlays
    read inside it, the hexsides and lines read along and across its sides)."""
    doubts = sorted((d for d in doubts if d.confidence < 1.0 or d.side is None), key=lambda d: d.confidence)
    confidence = doubts[0].confidence if doubts else 1.0
    sides_sure = min([d.confidence for d in doubts if d.side is not None or d.reader == "line end"] + [1.0])
    terrain_sure = min([d.confidence for d in doubts if d.reader.startswith("terrain")] + [1.0])
    overlay_sure = min([d.confidence for d in doubts if d.reader.startswith("overlay")] + [1.0])
    runner_up = ((base_runner, ()) if terrain_sure <= overlay_sure and base_runner is not None
                 else (terrain[0], overlay_runner) if overlay_runner is not None else None)
    return round(confidence, 3), runner_up, round(sides_sure, 3), tuple(doubts)


def explain(doubts, threshold: float = LOW_CONFIDENCE, side_name=str) -> str:
    """Why a hex is listed: each reading below ``threshold``, with what it could be
    (``overlay by a line: clear+village or clear+town; hexside 0304/0405: river or no feature``)."""
    parts = []
    for d in doubts:
        if d.confidence >= threshold:
            continue
        what = f"{d.reader} {side_name(d.side)}" if d.side is not None else d.reader
        part = f"{what}: {' or '.join(dict.fromkeys(d.candidates))}" if d.candidates else what
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)
