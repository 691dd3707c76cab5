"""``hexforge terrain draft GAME``: terrain, hexsides and roads drafted from a picture of the map."""

from __future__ import annotations

from pathlib import Path

import click

from ..io import default_game, dump_map, load_game


@click.group("terrain")
def command() -> None:
    """Terrain data from pictures of the map."""


@command.command("draft")
@click.argument("game", required=False)
@click.option("--image", help="The picture (a scan, a board image); default: the map's own board image, "
                              "else hexforge's render of the map.")
@click.option("--palette", help="A YAML file: terrain -> colour (or list of colours).")
@click.option("--learn", help="Example hexes named by hand: 0104=woods,0612=swamp,0505=clear+town.")
@click.option("--ref", "refs", multiple=True, help="HEX=X,Y: a hex centre's pixel on the picture; give two "
                                                   "to register a scaled or turned scan.")
@click.option("--map", "map_id", help="The map to draft (default: the game's first).")
@click.option("--dpi", default=100, show_default=True, help="DPI of a hexforge render given as --image (or drawn).")
@click.option("-o", "--out", "out", help="The terrain (map) file to write; default: the map's file when it has "
                                         "no terrain yet, else MAP.draft.yaml beside it.")
def draft(game, image, palette, learn, refs, map_id, dpi, out) -> None:
    """Draft every hex's terrain (estimated, with a confidence) and list the hexes to check by eye."""
    from ..draft import LOW_CONFIDENCE, apply_draft, draft_terrain
    from ..draft.doubt import explain
    from ..draft.palette import terrain_name
    from ..draft.picture import prepare

    loaded = load_game(game or default_game())
    game_map = loaded.maps[map_id] if map_id else loaded.main_map
    had_terrain = bool(game_map.hexes)
    picture = prepare(game_map, image=image, palette=palette, learn=learn, refs=refs, dpi=dpi, game=loaded)
    result = draft_terrain(game_map, picture.image, picture.layout, picture.palette,
                           labels=picture.labels)
    drafted = apply_draft(game_map, result, picture.name)
    map_file = Path(loaded.files["maps"][game_map.id])
    target = Path(out) if out else (map_file if not had_terrain else map_file.with_suffix(".draft.yaml"))
    dump_map(drafted, str(target))
    fmt = game_map.grid.format
    low = result.low()
    click.echo(f"drafted {len(result.hexes)} hexes of map {game_map.id} from {picture.name} "
               f"({'; '.join(picture.palette.origin)}): {len(result.hexsides)} hexside features, "
               f"{len(result.links)} road/rail links; wrote {target}")
    if result.missing:
        click.echo(f"{len(result.missing)} hexes are not wholly on the picture and have no terrain: "
                   + " ".join(fmt(h) for h in result.missing[:20]) + (" ..." if len(result.missing) > 20 else ""))
    for note in result.skipped:
        click.echo(f"not drafted: {note}")
    click.echo(f"{len(low)} hexes below confidence {LOW_CONFIDENCE} (decide these by eye):")
    for hex in low:
        d = result.hexes[hex]
        other = f" or {terrain_name(d.runner_up)}" if d.runner_up else ""
        why = explain(d.doubts, LOW_CONFIDENCE, game_map.grid.format_hexside)
        shown = int(d.confidence * 100) / 100  # below 0.5 shows below 0.50
        click.echo(f"  {fmt(hex)}: {terrain_name(d.terrain)}{other} ({shown:.2f})" + (f"; {why}" if why else ""))
