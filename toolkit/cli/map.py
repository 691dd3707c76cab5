"""``hexforge map GAME``: the map image (PNG) and, on request, a tiled print PDF."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import BuildError
from ..io import default_game, load_game


@click.command("map")
@click.argument("game", required=False)
@click.option("--dpi", type=click.IntRange(20, 1200), default=150, show_default=True,
              help="Resolution: 150 for screen and VASSAL, 300 for print.")
@click.option("--out", "out", type=click.Path(dir_okay=True), default=None,
              help="A .png or .pdf file (one map), or a folder [default: build/GAME/map].")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default=None,
              help="Also write a print PDF tiled on this paper (implies --pdf).")
@click.option("--pdf", "pdf", is_flag=True, help="Also write a print PDF (A4 unless --paper).")
@click.option("--map", "map_id", default=None, help="Only this map (default: every map of the game).")
@click.option("--theme", "theme_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A theme YAML file overriding the default look.")
def command(game: str | None, dpi: int, out: str | None, paper: str | None, pdf: bool,
            map_id: str | None, theme_path: str | None) -> None:
    """Draw the map(s) of GAME as PNG (and a tiled print PDF with --pdf/--paper)."""
    from ..render.mapimage import STRIP_PIXELS, render_map
    from ..render.theme import Theme
    from ..render.tiles import print_pdf

    loaded = load_game(game or default_game())
    maps = list(loaded.maps.values())
    if map_id is not None:
        maps = [m for m in maps if m.id == map_id]
        if not maps:
            raise BuildError(f"game {loaded.id} has no map {map_id!r}; its maps are: {', '.join(loaded.maps)}")
    theme = Theme.load(theme_path) if theme_path else None
    paper = paper or ("a4" if pdf else None)
    target = Path(out) if out else Path("build") / loaded.id / "map"
    single = target.suffix.lower() in (".png", ".pdf")
    if single and len(maps) > 1:
        raise BuildError(f"--out {target} names one file but {loaded.id} has {len(maps)} maps; "
                         "give a folder or --map ID")
    if single and target.suffix.lower() == ".pdf":
        paper = paper or "a4"
    for game_map in maps:
        image = render_map(game_map, dpi=dpi, theme=theme, game=loaded)
        if single:
            png = target if target.suffix.lower() == ".png" else None
            pdf_path = target if target.suffix.lower() == ".pdf" else target.with_name(f"{target.stem}-{paper}.pdf")
        else:
            png = target / f"{game_map.id}.png"
            pdf_path = target / f"{game_map.id}-{paper}.pdf"
        w, h = image.size
        # long renders (many strips or pages) report each one
        progress = (lambda text: click.echo(text, err=True)) if w * h > 4 * STRIP_PIXELS else None
        if png is not None:
            image.save(png, progress)
            click.echo(f"wrote {png} ({w} x {h} px at {dpi} dpi)")
        if paper:
            print_pdf(image, pdf_path, paper=paper, progress=progress)
            click.echo(f"wrote {pdf_path} (tiled on {paper.upper()})")
