"""``hexforge validate GAME|PATH``: the map terrain and game data validator."""

from __future__ import annotations

import json
import sys

import click

from ..io import default_game, load_game
from ..validate import format_report, validate_game


@click.command("validate")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON for tools.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def command(game: str | None, as_json: bool, strict: bool) -> None:
    """Check a game's data (bundled id or path): exit 0 clean, 1 findings, 2 unreadable."""
    loaded = load_game(game or default_game())
    report = validate_game(loaded)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(format_report(report))
    failed = not report.ok or (strict and report.warnings)
    sys.exit(1 if failed else 0)
