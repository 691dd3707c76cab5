"""``hexforge import vmod MODULE [-o DIR]``: a game folder from a VASSAL module."""

from __future__ import annotations

import click


@click.group("import")
def command() -> None:
    """Make a hexforge game from what already exists (a VASSAL module)."""


@command.command("vmod")
@click.argument("module", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out_dir", help="The new game folder (default: ./<game id>); must not exist or be empty.")
def vmod(module: str, out_dir: str | None) -> None:
    """Import MODULE.vmod: maps with their images, grids, counters with their art, set-ups, zones."""
    from ..importer import import_vmod

    result = import_vmod(module, out_dir)
    c = result.counts
    click.echo(f"wrote {result.folder}: {c['maps']} maps ({c['hexes']} hexes), {c['counters']} counters, "
               f"{c['boxes']} boxes, {c['scenarios']} scenarios")
    if result.report:
        click.echo(f"not mapped ({len(result.report)}, also in {result.folder / 'import-report.txt'}):")
        for line in result.report:
            click.echo(f"  - {line}")
    click.echo("terrain is empty: next, `hexforge terrain draft " + str(result.folder) + " --learn HEX=TERRAIN,...`")
