"""``hexforge vassal GAME`` writes the module; ``hexforge vassal inspect FILE`` reads one back.

One click group: its first argument is either the ``inspect`` subcommand or a game, which
runs the ``build`` subcommand (``hexforge vassal tutorial`` == ``hexforge vassal build tutorial``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..io import default_game, load_game


class _GameOrCommand(click.Group):
    """A group whose bare ``GAME`` argument means ``build GAME``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and not args[0].startswith("-")):
            args = ["build", *args]
        return super().parse_args(ctx, args)


@click.group("vassal", cls=_GameOrCommand)
def command() -> None:
    """Write a game's VASSAL 3.7 module (vassal GAME) or read a module or save (vassal inspect FILE)."""


@command.command("build")
@click.argument("game", required=False)
@click.option("--out", "out_root", default="build", show_default=True, help="Folder that receives GAME/GAME.vmod.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
def build(game: str | None, out_root: str, quiet: bool) -> None:
    """Write build/GAME/GAME.vmod for a bundled game id or a game folder."""
    from ..vassal import build_module

    loaded = load_game(game or default_game())
    progress = (lambda message: None) if quiet else (lambda message: click.echo(f"  {message}", err=True))
    timings: dict = {}
    files = build_module(loaded, Path(out_root) / loaded.id, progress, timings=timings)
    spent = ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
    click.echo(f"wrote {files[0]} ({spent})")


@command.command("inspect")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--module", "module", type=click.Path(dir_okay=False),
              help="For a .vsav: the module it belongs to (gives hexes and checks prototypes).")
@click.option("--json", "as_json", is_flag=True, help="Print everything as JSON.")
def inspect_command(file: str, module: str | None, as_json: bool) -> None:
    """Read a .vmod or .vsav back: exit 0 clean, 1 problems found, 2 unreadable."""
    from ..vassal import inspect

    report = inspect(file, module=module)
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(_summary(report))
    sys.exit(1 if report.get("problems") else 0)


def _pieces(pieces: list[dict]) -> list[str]:
    lines = []
    for p in pieces:
        where = p.get("location") or (f"{p.get('map')} ({p.get('x')},{p.get('y')})" if p.get("map") else "-")
        unit = p.get("properties", {}).get("UnitId", "")
        lines.append(f"    {where:>12}  {p.get('name', '')}" + (f"  [{unit}]" if unit else ""))
    return lines


def _summary(report: dict) -> str:
    lines = []
    if report["kind"] == "module":
        lines.append(f"{report['name']} {report['version']} (VASSAL {report['VassalVersion']}): {report['file']}")
        for m in report["maps"]:
            for b in m["boards"]:
                grid = b["grid"]
                kind = (f"hex grid dx={grid['attributes'].get('dx')} dy={grid['attributes'].get('dy')}"
                        if grid else f"{len(b['zones'])} zones")
                kind += "".join(f", zone {z['name']!r} with a hex grid dx={z['grid']['attributes'].get('dx')}"
                                for z in b["zones"] if z.get("grid"))
                lines.append(f"  map {m['name']!r}: board {b['name']!r} {b['width']}x{b['height']}, {kind}")
        lines.append(f"  {len(report['prototypes'])} prototypes, {len(report['pieces'])} palette pieces")
        for d in report.get("decks", []):
            lines.append(f"  deck {d['name']!r} on {d['map']!r} at {d.get('location') or '-'}: {len(d['cards'])} "
                         f"counters, face down {d['face_down']}, shuffle {d['shuffle']}")
        for setup in report["setups"]:
            lines.append(f"  setup {setup['name']!r} ({setup['file']}): {len(setup.get('pieces', []))} pieces"
                         + ("" if setup.get("starts") else " - does not start the game"))
            lines += _pieces(setup.get("pieces", []))
    else:
        lines.append(f"saved game {report['file']}: {len(report['pieces'])} pieces"
                     + ("" if report["starts"] else " (no end_save: does not start a game)"))
        lines += _pieces(report["pieces"])
    problems = report.get("problems", [])
    lines.append(f"{len(problems)} problems" + (":" if problems else ""))
    lines += [f"  - {p}" for p in problems]
    return "\n".join(lines)


command.add_command(__import__(f"{__package__}.vassal_positions", fromlist=["save"]).save)  # `vassal save`
command.add_command(__import__(f"{__package__}.vassal_positions", fromlist=["position"]).position)
