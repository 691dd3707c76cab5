"""``hexforge validate GAME|PATH``: the map terrain and game data validator.

GAME is a bundled game id, a game folder or its game.yaml; PATH may also be a single map file.
Exit status: 0 clean (warnings allowed unless ``--strict``), 1 findings, 2 unreadable input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import DataError
from ..io import default_game, load_game, load_map
from ..io._source import load_yaml
from ..validate import Report, format_report, validate_game, validate_map


@click.command("validate")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON for tools.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def command(game: str | None, as_json: bool, strict: bool) -> None:
    """Check a game's data (bundled id, folder or map file): exit 0 clean, 1 findings, 2 unreadable."""
    target = game or default_game()
    try:
        report = _validate(target)
    except DataError as exc:
        if not as_json:
            raise  # the CLI's main prints it as one line and exits 2
        error = {"path": exc.path, "line": exc.line, "field": exc.field, "problem": exc.problem}
        click.echo(json.dumps({"game": target, "ok": False, "error": error}, indent=2))
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(format_report(report))
    failed = not report.ok or (strict and report.warnings)
    sys.exit(1 if failed else 0)


def _validate(target: str) -> Report:
    path = Path(target)
    if path.is_file() and path.name != "game.yaml" and path.suffix in (".yaml", ".yml"):
        data = load_yaml(str(path))
        if isinstance(data, dict) and "grid" in data:  # a map file on its own
            return validate_map(load_map(str(path)), str(path))
    return validate_game(load_game(target))
