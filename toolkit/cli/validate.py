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
@click.option("--against", "against", help="A picture of the map: every hex whose terrain differs from it is a "
                                           "terrain-mismatch finding.")
@click.option("--ref", "refs", multiple=True, help="With --against: HEX=X,Y, a hex centre's pixel (give two).")
@click.option("--dpi", default=100, show_default=True, help="With --against: DPI of a hexforge render.")
@click.option("--overlay", "overlay_path", help="With --against: the PNG marking the mismatches "
                                                "(default: GAME-against.png).")
@click.option("--map", "map_id", help="With --against: the map the picture shows (default: the first).")
def command(game: str | None, as_json: bool, strict: bool, against: str | None, refs: tuple[str, ...],
            dpi: int, overlay_path: str | None, map_id: str | None) -> None:
    """Check a game's data (bundled id, folder or map file): exit 0 clean, 1 findings, 2 unreadable."""
    target = game or default_game()
    try:
        report = _validate(target)
        if against:
            _against(target, report, against, refs, dpi, overlay_path, map_id, quiet=as_json)
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


def _against(target, report: Report, picture_file, refs, dpi, overlay_path, map_id, quiet) -> None:
    from ..draft import LOW_CONFIDENCE, draft_terrain
    from ..draft.against import mismatch_findings, mismatch_overlay, mismatches
    from ..draft.picture import prepare

    game = load_game(target)
    game_map = game.maps[map_id] if map_id else game.main_map
    picture = prepare(game_map, image=picture_file, refs=refs, dpi=dpi, game=game, against=True)
    draft = draft_terrain(game_map, picture.image, picture.layout, picture.palette,
                          labels=picture.labels)
    found = mismatches(game_map, draft, picture.palette if picture.palette.native else None)
    report.findings += mismatch_findings(game_map, found, picture.name)
    out = Path(overlay_path or f"{game.id}-against.png")
    unsure = sum(1 for m in found if m.confidence < LOW_CONFIDENCE)
    caption = (f"{len(found)} of {len(draft.hexes)} hexes differ from {picture.name}: {len(found) - unsure} "
               f"sure (red), {unsure} unsure (amber: look at the picture)")
    from ..io import atomic_path
    with atomic_path(str(out)) as tmp:
        mismatch_overlay(picture.image, picture.layout, game_map, found, caption).save(tmp, format="PNG")
    if not quiet:
        click.echo(f"checked {len(draft.hexes)} hexes against {picture.name}: {len(found)} differ; "
                   f"overlay {out}")


def _validate(target: str) -> Report:
    path = Path(target)
    if path.is_file() and path.name != "game.yaml" and path.suffix in (".yaml", ".yml"):
        data = load_yaml(str(path))
        if isinstance(data, dict) and "grid" in data:  # a map file on its own
            return validate_map(load_map(str(path)), str(path))
    return validate_game(load_game(target))
