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

import math
from dataclasses import dataclass, replace

from ..hexes import Hex, Hexside
from .lines import LINE_SHARE, TEXTURED_SHARE

__all__ = ["Doubt", "LOW_CONFIDENCE", "Reading", "judge"]

#: Hexes drafted with less confidence than this are listed for a person to decide.
LOW_CONFIDENCE = 0.5
#: How sure a hex is where a road or railway read on the picture stops short of the map's edge.
LINE_END = 0.45
#: How sure a reading is whose doubt other evidence on the picture explains (a sighting common
#: to like hexsides, a line passing a corner, neighbours that agree): just above even odds.
EXPLAINED = 0.55
#: A hexside feature glimpsed but not found on at least this share of the sides between hexes
#: of the same two terrains (of at least SIDE_PEERS such sides) is explained by their fills.
COMMON = 0.07
SIDE_PEERS = 20
COMMON_READERS = ("hexside", "line")
#: A hex a line crosses or runs past, unlike its peers by no more than this (look-vector units: a line's
#: ink across a ring), is doubted no lower than EXPLAINED for it.
PASSING = 40.0
#: How many glimpsed steps past where a line stops it is followed (see :func:`line_ends`).
GLIMPSED_STEPS = 1
#: How sure a hexside feature is whose kind differs from the course it lies on.
KIND_BREAK = 0.45
#: How sure a reading is of one of two kinds the palette draws alike.
ALIKE_SURE = 0.2
#: Palette examples of two kinds closer than this (look-vector units) are drawn alike.
ALIKE = 3.0
#: A hex is compared with the hexes read the same way when at least this many were.
PEERS = 10
#: A look further than PEER_FACTOR times its peers' median distance from the palette, by
#: UNLIKE more, is even odds (look-vector units: 15 is about 7 levels of the printed fill).
PEER_FACTOR = 2.0
UNLIKE = 15.0
#: An overlay whose palette ring is further than this from its base terrain's covers the hex.
COVERS = 100.0
#: A hex unlike its peers (doubted below LONE_UNLIKE for it) whose terrain none of its
#: neighbours has is this sure.
LONE_UNLIKE = 0.8
LONE_SURE = 0.45
#: A hex read without an overlay this many of its six neighbours carry is doubted, this much.
HOLE = 5
HOLE_SURE = 0.45
#: An overlay reading that this many of the six neighbours agree with is doubted no lower than
#: EXPLAINED for the overlay reader's margin.
AGREE = 6
#: Roads and railways: found on this share of their steps and no more, even odds.
LINE_EVEN = 0.82
#: A picture's lines show softly when this share of the links found were seen on fewer than
#: all their steps (sharp renders 0.02-0.05; blurred or JPEG 0.07-0.11).
SOFT = 0.07
#: A line seen on part of its course among trees but not found: how steeply its doubt grows
#: as what was seen nears what it needs (8: even odds only within about 0.05 of it).
LINE_SEEN_POWER = 8.0
#: ... and on a flat fill (2: even odds from about 0.65 of what it needs).
LINE_SEEN_FLAT = 2.0
#: Hexside features: found on this share of their samples and no more, even odds.
SIDE_EVEN = 0.75


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


def _name(base: str, features) -> str:
    return "+".join((base,) + tuple(features))


def closeness(distance: float, scale: float) -> float:
    """1 at no distance, 1/2 at ``scale``."""
    return 1.0 / (1.0 + (distance / scale) ** 2)


def line_sureness(found: float | None, seen: float, textured: bool = False, soft: bool = False) -> float:
    """How sure a road or railway reading across a hexside is: one found on all its samples,
    or seen on none, is sure; found on no more than :data:`LINE_EVEN` of them, or just the
    share it needs, about even odds (a third of the lines found on 0.8 were no line or
    another). A line seen on part of its course but not found is doubted the nearer what was
    seen comes to what it needs: on a ``soft`` picture (see :func:`soft_lines`) from about
    two thirds of it; on a sharp one from about nine tenths on a flat fill, and where trees or
    marsh symbols fill a hex (``textured``: their dark strokes look like lines) only when it
    nearly reaches it. Calibrated on the bundled maps: on sharp pictures a stroke seen on
    0.4-0.65 of its steps on a flat fill was never a missed line (0 of 260 sides), one among
    trees seen on 0.7 was on 11 sides of 406 (where the line's course stops, and
    :func:`line_ends` lists the gap); on soft pictures they were on 5 of 20 and 22 of 55."""
    needed = TEXTURED_SHARE if textured else LINE_SHARE
    if found is not None:
        even = max(needed, LINE_EVEN)
        return 1.0 if even >= 1.0 else min(1.0, max(0.0, 0.45 + 0.55 * (found - even) / (1.0 - even)))
    power = 1.0 if soft else LINE_SEEN_POWER if textured else LINE_SEEN_FLAT
    return 1.0 - 0.76 * min(1.0, seen / needed) ** power


def glimpsed(side_doubts: dict) -> set[Hexside]:
    """Hexsides where a line was seen on at least half of what it needs but not found."""
    return {side for side, doubts in side_doubts.items()
            if any(d.reader == "line" and d.evidence and d.evidence[0] is None
                   and d.evidence[1] >= 0.5 * (TEXTURED_SHARE if d.evidence[2] else LINE_SHARE) for d in doubts)}


def soft_lines(links: dict) -> bool:
    """Whether the picture's roads and railways show softly (blurred, compressed): more than
    :data:`SOFT` of the links found were seen on fewer than all their steps."""
    shares = [share for codes in links.values() for share in codes.values()]
    return bool(shares) and sum(1 for share in shares if share < 1.0) >= SOFT * len(shares)


def resoften(draft) -> None:
    """On a picture whose lines show softly, the line doubts again (see :func:`line_sureness`)."""
    if not soft_lines(draft.links):
        return
    for side, doubts in draft.side_doubts.items():
        for i, d in enumerate(doubts):
            if d.reader == "line" and d.evidence:
                doubts[i] = replace(d, confidence=round(line_sureness(*d.evidence, soft=True), 3))
        draft.side_confidence[side] = min(d.confidence for d in doubts)


def side_sureness(share: float | None, sure: float, needed: float) -> float:
    """The hexside reader's sureness, and for a feature found on few more samples than it
    needs no more than even odds at :data:`SIDE_EVEN` (a false ford read on 0.7 of them)."""
    if share is None:
        return sure
    return min(sure, max(0.0, 0.5 * (share - needed) / (SIDE_EVEN - needed)))


def alike(palette) -> dict[tuple, tuple]:
    """Kinds the palette draws alike: terrain -> the other terrains whose examples look the
    same (within :data:`ALIKE`), ring and centre."""
    vectors: dict[tuple, list] = {}
    for terrain, ring, centre in palette.examples:
        vectors.setdefault(terrain, []).append(ring + centre)
    out: dict[tuple, tuple] = {}
    terrains = list(vectors)
    for i, a in enumerate(terrains):
        for b in terrains[i + 1:]:
            near = min(math.dist(u, v) for u in vectors[a] for v in vectors[b] if len(u) == len(v))
            if near < ALIKE:
                out[a] = out.get(a, ()) + (b,)
                out[b] = out.get(b, ()) + (a,)
    return out


def covers(palette) -> set[tuple]:
    """Overlays drawn over a whole hex (woods): terrains with one overlay whose ring looks
    further than :data:`COVERS` from its base terrain's ring."""
    rings: dict[tuple, list] = {}
    for terrain, ring, _ in palette.examples:
        rings.setdefault(terrain, []).append(ring)
    return {t for t, vs in rings.items() if len(t[1]) == 1 and (t[0], ()) in rings
            and min(math.dist(u, v) for u in vs for v in rings[(t[0], ())] if len(u) == len(v)) > COVERS}


def hex_doubts(readings: dict[Hex, Reading], palette, grid=None) -> dict[Hex, list[Doubt]]:
    """The terrain readers' doubts about each hex: their own margins, a look unlike its peers'
    (the hexes read the same way on this picture), two kinds drawn alike, an overlay read
    where a road or railway crosses the hex, and (given the ``grid``) a look unlike its peers'
    read as a terrain no neighbour has, a hole in a region; a margin explained where all the
    neighbours agree with the reading (see :func:`regions_agree`, :func:`bases_agree`)."""
    drawn_alike = alike(palette)
    covering = covers(palette)
    peers: dict[tuple, list[float]] = {}
    for r in readings.values():
        for key in (("terrain", r.terrain), ("terrain",)):
            peers.setdefault(key, []).append(r.base_distance)
        for key in (("overlay", r.in_context, r.terrain), ("overlay", r.in_context)):
            peers.setdefault(key, []).append(r.features_distance)
    # a reading too rare to have peers of its own is compared with every hex read alike
    # (terrain; overlays with or without roads drawn in)
    typical = {key: sorted(v)[len(v) // 2] for key, v in peers.items() if len(v) >= PEERS}
    for key in list(peers):
        if key not in typical and key[:-1] in typical and len(key) > 1:
            typical[key] = typical[key[:-1]]
    out: dict[Hex, list[Doubt]] = {}
    for hex, r in readings.items():
        read = _name(*r.terrain)
        base_names = (r.base,) + ((r.base_runner,) if r.base_runner else ())
        overlay_names = (read,) + ((_name(r.base, r.features_runner),) if r.features_runner is not None else ())
        # no overlay read away from roads: the margin over the nearest overlay counts half (at
        # any margin it was right on the bundled maps, 243 hexes below 0.5; an overlay drawn
        # faintly leaves the hex unlike its peers instead)
        overlay_sure = r.features_sure if r.features or r.in_context else 0.5 + 0.5 * r.features_sure
        doubts = [Doubt("terrain", round(r.base_sure, 3), base_names, evidence=(round(r.base_distance, 1),)),
                  Doubt("overlay", round(overlay_sure, 3), overlay_names,
                        evidence=(round(r.features_distance, 1), r.in_context, r.crossed, round(r.features_sure, 3)))]
        # a look much further from the palette than its peers' shows something the palette
        # does not draw (a symbol it does not know, two overlays where it draws one)
        for reader, key, distance, names in (("terrain", ("terrain", r.terrain), r.base_distance, base_names),
                                             ("overlay", ("overlay", r.in_context, r.terrain),
                                              r.features_distance, overlay_names)):
            if key in typical:
                beyond = distance - PEER_FACTOR * typical[key]
                if beyond > 0:
                    doubts.append(Doubt(f"{reader} unlike its peers", round(closeness(beyond, UNLIKE), 3), names,
                                        evidence=(round(distance, 1), round(typical[key], 1))))
        unlike = [d for d in doubts if d.reader == "terrain unlike its peers"]
        if unlike and unlike[0].confidence < LONE_UNLIKE and grid is not None:
            near = [readings.get(n) for n in grid.neighbours(hex)]
            if None not in near and all(n.base != r.base for n in near):
                # unlike its peers and unlike every neighbour: a symbol's colour read as the
                # fill (a hill's contours, compressed, read as a village's fill)
                doubts.append(Doubt("terrain unlike its peers and neighbours", LONE_SURE,
                                    base_names + tuple(sorted({n.base for n in near} - set(base_names))),
                                    evidence=unlike[0].evidence))
        if r.terrain in drawn_alike:
            doubts.append(Doubt("drawn alike", ALIKE_SURE,
                                (read,) + tuple(_name(*t) for t in drawn_alike[r.terrain])))
        if r.features and (r.in_context or r.crossed):
            # an overlay read where a road or railway crosses the hex (or may: a line seen on
            # part of its course, broken by an id's knock-out or a name): the drawing in
            # context matches the roads' course only roughly, so a person should look at a
            # symbol; not at an overlay covering the whole hex (woods): a line changes too
            # little of it to mislead the reader's margin
            half = not all((r.base, (f,)) in covering for f in r.features)
            doubts.append(Doubt("overlay by a line", round(r.features_sure * (0.5 if half else 1.0), 3),
                                overlay_names))
        out[hex] = doubts
    for hex, doubt in (region_holes(readings, grid) if grid is not None else {}).items():
        out[hex].append(doubt)
    for hex in (regions_agree(readings, grid) if grid is not None else ()):
        out[hex] = [_explained(d) if d.reader == "overlay" else d for d in out[hex]]
    for hex in (bases_agree(readings, grid) if grid is not None else ()):
        out[hex] = [_explained(d) if d.reader == "terrain" else d for d in out[hex]]
    return out


def regions(readings: dict[Hex, Reading], grid) -> set[str]:
    """Overlays drawn as regions on this picture (woods, a pocket's hatching, not a village):
    most hexes read with them have at least three neighbours read with them too."""
    carried: dict[str, list[int]] = {}
    for hex, r in readings.items():
        for f in r.features:
            near = [readings.get(n) for n in grid.neighbours(hex)]
            carried.setdefault(f, []).append(sum(1 for n in near if n is not None and f in n.features))
    return {f for f, counts in carried.items() if sum(1 for k in counts if k >= 3) * 2 > len(counts)}


def bases_agree(readings: dict[Hex, Reading], grid) -> set[Hex]:
    """Hexes read as the base terrain all six of their neighbours were read as."""
    out = set()
    for hex, r in readings.items():
        near = [readings.get(n) for n in grid.neighbours(hex)]
        if len(near) == 6 and None not in near and all(n.base == r.base for n in near):
            out.add(hex)
    return out


def regions_agree(readings: dict[Hex, Reading], grid) -> set[Hex]:
    """Hexes whose overlay reading, where it differs from the runner-up's, agrees with at least
    :data:`AGREE` of their six neighbours on every overlay in question, each one drawn as a
    region (see :func:`regions`): a region's hatching read inside the region, or its absence
    read outside it, is as its neighbours show (a village missed beside no other village is
    not)."""
    regional = regions(readings, grid)
    out = set()
    for hex, r in readings.items():
        if r.features_runner is None:
            continue
        near = [readings.get(n) for n in grid.neighbours(hex)]
        if len(near) < 6 or None in near:
            continue
        differ = set(r.features) ^ set(r.features_runner)
        agree = {f: sum(1 for n in near if (f in n.features) == (f in r.features)) for f in differ}
        if differ and differ <= regional and min(agree.values()) >= AGREE:
            out.add(hex)
    return out


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
            doubts = [_explained(d) if d.reader in UNLIKE_READERS and d.evidence[0] <= PASSING else d
                      for d in doubts]
        out[hex] = combine(r.terrain, doubts, r.base_runner, r.features_runner)
    return out


UNLIKE_READERS = ("terrain unlike its peers", "overlay unlike its peers")


def _explained(doubt: Doubt) -> Doubt:
    return replace(doubt, confidence=max(doubt.confidence, EXPLAINED))


def lines_past(grid, links: dict) -> set[Hex]:
    """Hexes a road or railway runs past without entering: found between two of their
    neighbours (a line drawn between those two centres may cut across the hex's ring)."""
    out = set()
    for side in links:
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            out.add(c)
    return out


def region_holes(readings: dict[Hex, Reading], grid) -> dict[Hex, Doubt]:
    """Hexes read without an overlay that at least :data:`HOLE` of their six neighbours carry
    (one fewer where the hex has an overlay of its own): a region (woods, a pocket) seldom has
    a hole one hex wide, and a symbol drawn over a region's hex (a city in a pocket) may hide
    the region's mark."""
    out: dict[Hex, Doubt] = {}
    for hex, r in readings.items():
        near = [readings.get(n) for n in grid.neighbours(hex)]
        if len(near) < 6 or None in near:
            continue
        counts: dict[str, int] = {}
        for n in near:
            for f in n.features:
                counts[f] = counts.get(f, 0) + 1
        # a hole, or a notch where an overlay drawn over the hex may hide the region's mark
        missing = sorted(f for f, k in counts.items()
                         if f not in r.features and (k >= HOLE or k >= HOLE - 1 and r.features))
        if missing:
            read = _name(*r.terrain)
            out[hex] = Doubt("overlay around it", HOLE_SURE,
                             (read,) + tuple(_name(r.base, tuple(sorted(r.features + (f,)))) for f in missing))
    return out


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


def kind_breaks(grid, hexsides: dict) -> dict[Hexside, Doubt]:
    """Hexside features whose kind breaks their course: read as a kind that none of the features
    meeting it at either end has (a river read as a major river on one side, where a lake's
    shore and the river share the side and widen the band)."""
    doubts: dict[Hexside, Doubt] = {}
    for side, (code, _) in hexsides.items():
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            ends.append({hexsides[s][0] for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in hexsides})
        kinds = set().union(*ends) if ends else set()
        if len(ends) == 2 and all(ends) and code not in kinds:
            doubts[side] = Doubt("hexside", KIND_BREAK, (code,) + tuple(sorted(kinds)), side)
    return doubts


def common_sightings(draft, readings: dict[Hex, Reading], sides, readers=COMMON_READERS) -> None:
    """Hexside features (and roads and railways) glimpsed but not found, on as many sides
    between hexes read alike (the same two terrains) as :data:`COMMON` of them or more,
    doubted no lower than :data:`EXPLAINED`: what shows along or across that many sides is the
    fills' own grain (a water fill's compression noise, a forest's strokes), not a feature
    missed. ``sides`` are the hexsides read."""
    pair = {side: tuple(sorted((readings[side.a].base, readings[side.b].base))) for side in sides}
    counts: dict[tuple, int] = {}
    for side in sides:
        counts[pair[side]] = counts.get(pair[side], 0) + 1

    def glimpse(side, d) -> bool:
        return d.reader in readers and bool(d.evidence) and d.evidence[0] is None and side in pair
    seen: dict[tuple, list[float]] = {}
    for side, doubts in draft.side_doubts.items():
        for d in doubts:
            if glimpse(side, d):
                seen.setdefault((d.reader, pair[side]), []).append(d.evidence[1])
    for side, doubts in draft.side_doubts.items():
        for i, d in enumerate(doubts):
            if glimpse(side, d) and counts[pair[side]] >= SIDE_PEERS:
                alike = sum(1 for p in seen[(d.reader, pair[side])] if p >= d.evidence[1])
                if alike >= COMMON * counts[pair[side]]:
                    doubts[i] = _explained(d)
        if doubts and side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def explained_glimpses(grid, draft) -> None:
    """Roads and railways seen on part of a step but not found, doubted no lower than
    :data:`EXPLAINED` where a line found on a hexside beside that step (sharing a corner
    with it) explains the stroke: a curved line passes the corner of the hex beside its
    course. (Where a line really turned there, it would stop short: :func:`line_ends` lists
    that.)"""
    for side, doubts in draft.side_doubts.items():
        beside = [Hexside.of(h, c) for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b))
                  for h in (side.a, side.b)]
        if not any(b in draft.links for b in beside):
            continue
        for i, d in enumerate(doubts):
            if d.reader == "line" and d.evidence and d.evidence[0] is None:
                doubts[i] = _explained(d)
        if side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def course_doubts(grid, draft) -> None:
    """Hexside features found along all their samples but doubted by the reader (a kind of
    like colour close on width, a colour showing faintly), explained where the course runs on
    in the same kind at both ends, its sides there doubted the same way: the doubt is the
    picture's (a blur over the whole course), not this side's (a ford's pale middle among a
    stream's sure sides stays listed)."""
    def unsure(side) -> bool:
        return any(d.reader == "hexside" and d.evidence and d.evidence[0] is not None and d.evidence[0] >= 1.0
                   and d.confidence < LOW_CONFIDENCE for d in draft.side_doubts.get(side, ()))
    relieved = []
    for side in draft.side_doubts:
        if side not in draft.hexsides or not unsure(side):
            continue
        code = draft.hexsides[side][0]
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            on = [s for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in draft.hexsides]
            ends.append(len(on) == 1 and draft.hexsides[on[0]][0] == code and unsure(on[0]))
        if len(ends) == 2 and all(ends):
            relieved.append(side)
    for side in relieved:
        doubts = draft.side_doubts[side]
        doubts[:] = [_explained(d) if d.reader == "hexside" and d.evidence and d.evidence[0] is not None else d
                     for d in doubts]
        if side in draft.side_confidence:
            draft.side_confidence[side] = min(d.confidence for d in doubts)


def course_gaps(grid, hexsides: dict, sides) -> dict[Hexside, Doubt]:
    """Hexsides read without a feature where a course of one kind stops at both its ends (a
    river drawn as a curve that leaves the side for the hex beside it, so the hexside reader
    finds too little of it there): rivers seldom end twice on one side. ``sides`` are the
    hexsides read."""
    doubts: dict[Hexside, Doubt] = {}
    for side in sides:
        if side in hexsides:
            continue
        ends = []
        for c in set(grid.neighbours(side.a)) & set(grid.neighbours(side.b)):
            kinds = [hexsides[s][0] for s in (Hexside.of(side.a, c), Hexside.of(side.b, c)) if s in hexsides]
            ends.append(kinds[0] if len(kinds) == 1 else None)
        if len(ends) == 2 and ends[0] is not None and ends[0] == ends[1]:
            doubts[side] = Doubt("hexside", KIND_BREAK, ("no feature", ends[0]), side)
    return doubts


def line_ends(grid, links: dict, hexes, glimpsed=frozenset(), sighted=None) -> dict[Hex, float]:
    """Hexes where a road or railway read on the picture is doubtful, with how sure they are.

    Lines run on to the map's edge or into a town nearly always: where one stops inside the
    map, a step was most often missed or a stray one read. Listed: the end, the hex the line
    would run on to (straight on, across a side where a line was ``glimpsed``: seen on part
    of its course, not found, or to the map's edge beside it) and, where another line passes
    there or through the end, that line's next hexes (the two may share a course), any hex beside the end the
    same line passes through (a branch missed), and for a spur off a line the hex it leaves.
    A step read as two lines of like colours, the weaker on fewer than all its samples, is
    listed too. Given the hexsides where a line was ``sighted`` at all (seen on any of its
    samples, or found), straight on is listed only across one of them: on a sharp picture a
    line missed there leaves a trace (of 219 hexes straight on from an end across a side where
    nothing was seen, 16 were wrong, each where another line runs on, or on a soft picture)."""
    ends: dict[tuple[str, Hex], list[Hex]] = {}
    for side, codes in links.items():
        for code in codes:
            ends.setdefault((code, side.a), []).append(side.b)
            ends.setdefault((code, side.b), []).append(side.a)
    doubted: dict[Hex, float] = {}
    # (line, end, the hex it came from, how many glimpsed steps beyond the last one found)
    todo = [(code, hex, others[0], 0) for (code, hex), others in ends.items() if len(others) == 1]
    while todo:
        code, hex, back, beyond = todo.pop()
        near = grid.neighbours(hex)
        if len(near) < 6 or any(n not in hexes for n in near) or beyond and (code, hex) in ends:
            continue
        doubted[hex] = LINE_END
        if not beyond and len(ends[(code, back)]) >= 3:  # a spur off a line
            doubted[back] = LINE_END
        on = grid.neighbour(hex, grid.direction(back, hex))
        # straight on, across a side where a stroke was glimpsed, or to the map's edge beside it
        straight = beyond or sighted is None or Hexside.of(hex, on) in sighted
        runs_on = {n for n in near if n != back and (n == on and straight or Hexside.of(hex, n) in glimpsed
                                                     or len(grid.neighbours(n)) < 6)}
        for n in near:
            if n in runs_on or n != back and (code, n) in ends:
                doubted[n] = LINE_END
            # a stroke glimpsed on from the end: the line may run on unread past that hex too
            # (a minor road lost under a hex id and a name, on to the road it meets)
            if n in runs_on and Hexside.of(hex, n) in glimpsed and beyond < GLIMPSED_STEPS:
                todo.append((code, n, hex, beyond + 1))
        # running on into another line, it may share that line's course (drawn beside it):
        # the other line's next hexes from there are doubtful too
        for (other, o_hex), o_next in ends.items():
            if (o_hex in runs_on or o_hex == hex) and other != code:
                for n in o_next:
                    doubted[n] = LINE_END
    for side, codes in links.items():
        if len(codes) > 1 and min(codes.values()) < 1.0:
            doubted[side.a] = doubted[side.b] = LINE_END
    return doubted
