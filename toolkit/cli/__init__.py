"""The ``hexforge`` command: thin click commands that parse, call the library and print.

Each command group lives in its own module of this package (``validate``, ``build``, ``map``,
``counters``, ``vassal``, ``referee``); this module assembles them and turns library errors
into one clear line and an exit code, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from ..errors import DataError, HexforgeError

#: command name -> module of this package that defines ``command``
COMMANDS = {
    "validate": "validate",
    "build": "build",
    "map": "map",
    "counters": "counters",
    "vassal": "vassal",
    "referee": "referee",
    "play": "play",
    "import": "importer",
    "terrain": "terrain",
}


class _LazyGroup(click.Group):
    """Imports a command's module only when that command runs (keeps start-up fast)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = COMMANDS.get(name)
        if module is None:
            return None
        try:
            return importlib.import_module(f"{__name__}.{module}").command
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(__name__):
                return None
            raise


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hexforge")
def cli() -> None:
    """hexforge: maps, counter sheets, VASSAL modules and a rules referee for hex wargames."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: exit 2 with one line on any hexforge error."""
    try:
        cli.main(args=argv, prog_name="hexforge", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except DataError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except HexforgeError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    sys.exit(0)
