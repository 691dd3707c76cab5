"""The terrain readers' doubts about each hex: their own margins, a look unlike its peers' (the
hexes read the same way on this picture), two kinds the palette draws alike, an overlay read
where a line crosses, a hole in a region; and neighbours that agree with a reading."""

from __future__ import annotations

import math

from ..hexes import Hex
from ._sureness import Doubt, Reading, closeness, explained, terrain_name

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
        read = terrain_name(*r.terrain)
        base_names = (r.base,) + ((r.base_runner,) if r.base_runner else ())
        overlay_names = (read,) + ((terrain_name(r.base, r.features_runner),) if r.features_runner is not None else ())
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
                                (read,) + tuple(terrain_name(*t) for t in drawn_alike[r.terrain])))
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
        out[hex] = [explained(d) if d.reader == "overlay" else d for d in out[hex]]
    for hex in (bases_agree(readings, grid) if grid is not None else ()):
        out[hex] = [explained(d) if d.reader == "terrain" else d for d in out[hex]]
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
            read = terrain_name(*r.terrain)
            out[hex] = Doubt("overlay around it", HOLE_SURE,
                             (read,) + tuple(terrain_name(r.base, tuple(sorted(r.features + (f,)))) for f in missing))
    return out
