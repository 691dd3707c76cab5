"""What the map planner shapes once and shares between the maps of one grid drawn at one size
(edge bands, id cells and rooms, id labels): a map drawn after another draws what it draws
alone."""

from __future__ import annotations

import random
from dataclasses import replace

from toolkit.game import HexsideFeature, HexsideType, HexTerrain, Line, LineType, Map, MapEdge, Place, TerrainType
from toolkit.hexes import Grid, Hex, Hexside
from toolkit.render import render_map


def _map(seed: int) -> Map:
    grid = Grid(1, 10, 1, 8)
    types = {"o": TerrainType("o", "Open"), "f": TerrainType("f", "Forest"), "w": TerrainType("w", "Lake")}
    rng = random.Random(seed)
    hexes = {h: HexTerrain(rng.choice("ooofw")) for h in grid}
    sides = [Hexside.of(Hex(4, r), Hex(5, r)) for r in range(2, 7)]
    return Map(id="share", name="Share", grid=grid, terrain_types=types,
               hexside_types={"river": HexsideType("river", "River", width="major")},
               line_types={"road": LineType("road", "Road")},
               hexes=hexes, hexsides={s: [HexsideFeature(s, "river")] for s in sides},
               lines=[Line("road", tuple(grid.line(Hex(1, 4), Hex(10, 4))))],
               places=[Place("Crossing", Hex(5, 4), "town")],
               edges=[MapEdge("south", "red", ()), MapEdge("west", "blue", ())], hex_size_inches=0.6)


def _drawn(image) -> tuple:
    scene = image.scene
    return image.image.tobytes(), scene.id_boxes, scene.place_boxes


def test_a_map_drawn_after_another_of_its_grid_draws_what_it_draws_alone():
    from toolkit.render import _mapedges, _mapids

    first, second = _map(1), _map(2)
    _mapedges._EDGE_BANDS.clear()
    _mapids._ID_GEOMETRY.clear()
    _mapids.grid_labels.cache_clear()
    alone = _drawn(render_map(second, dpi=150))
    bands, cells = len(_mapedges._EDGE_BANDS), len(_mapids._ID_GEOMETRY)
    assert bands == 2 and cells   # a band per edge, the ids' cells and rooms
    _mapedges._EDGE_BANDS.clear()
    _mapids._ID_GEOMETRY.clear()
    render_map(first, dpi=150)
    after = render_map(second, dpi=150)
    assert len(_mapedges._EDGE_BANDS) == bands   # the first map's bands served the second
    assert len(_mapids._ID_GEOMETRY) == cells
    assert _drawn(after) == alone
    # another size: shaped anew
    render_map(replace(second, hex_size_inches=0.5), dpi=150)
    assert len(_mapedges._EDGE_BANDS) == 2 * bands
