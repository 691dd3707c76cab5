"""``hexforge build [GAME]``: every output of a game into build/GAME/."""

from __future__ import annotations

import click

from ..build import STEPS, build_game
from ..io import default_game, load_game


@click.command("build")
@click.argument("game", required=False)
@click.option("--out", "out_root", default="build", show_default=True, help="Folder that receives build/GAME.")
@click.option("--only", "only", multiple=True, type=click.Choice(list(STEPS)), help="Run only these steps.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def command(game: str | None, out_root: str, only: tuple[str, ...], quiet: bool) -> None:
    """Build the map, counters, VASSAL module and referee plugin of GAME (default: the bundled default)."""
    loaded = load_game(game or default_game())
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    target, files = build_game(loaded, out_root, list(only) or None, progress)
    click.echo(f"built {loaded.id} into {target}/ ({len(files)} files); see {target}/report.txt")
