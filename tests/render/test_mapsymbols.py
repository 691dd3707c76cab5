"""The small signs a map draws for an airfield or fort sharing its hex: which symbols become
signs (a pure function the drafter calls too), and the sign itself."""

from __future__ import annotations

from toolkit.io import load_game
from toolkit.render import Theme, render_map, sign_split, sign_tile


def test_which_symbols_become_signs():
    # a sign needs another place symbol in its hex: a settlement or another sign
    assert sign_split(["town", "airfield"]) == (1,)
    assert sign_split(["trees", "village", "airfield"]) == (2,)
    assert sign_split(["town", "fort", "airfield"]) == (1, 2)
    # two signs alone: the first keeps its whole symbol
    assert sign_split(["fort", "airfield"]) == (1,)
    assert sign_split(["airfield"]) == ()
    assert sign_split(["trees", "fort"]) == ()
    assert sign_split(["town", "village"]) == ()
    assert sign_split([None, "town"]) == ()


def test_the_renderer_signs_what_sign_split_says():
    game = load_game("demyansk-shield")
    m = game.maps["main"]
    scene = render_map(m, dpi=60, game=game).scene
    theme = Theme.default()
    expected = []
    for h in m.grid:
        cell = m.hexes.get(h)
        if cell is None:
            continue
        styles = [theme.terrain_style(m.terrain_types[c]) for c in (cell.terrain, *cell.features)]
        expected += [(h, styles[n]) for n in sign_split([s.symbol for s in styles])]
    assert sorted(scene.sign_hexes, key=str) == sorted(expected, key=str)
    assert {m.format(h) for h, _ in expected} == {"2711", "2912"}


def test_a_sign_tile_is_rimmed_with_the_paper():
    theme = Theme.default()
    m = load_game("white-death").maps["main"]
    tile = sign_tile(theme.terrain_style(m.terrain_types["bunker"]), 64, theme.paper)
    assert tile.mode == "RGBA" and tile.width == tile.height < 64
    assert sign_tile(theme.terrain_style(m.terrain_types["town"]), 64, theme.paper) is None
    # the outermost pixels that show are the rim, in the paper's colour
    alpha = tile.getchannel("A")
    row = tile.height // 2
    first = next(x for x in range(tile.width) if alpha.getpixel((x, row)) > 0)
    assert tile.getpixel((first, row))[:3] == tuple(theme.paper[:3])
