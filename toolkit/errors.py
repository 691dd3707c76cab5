"""The one error hierarchy of hexforge.

::

    HexforgeError (ValueError)
     +-- HexError               a hex id, hexside or grid argument is malformed or off the grid
     +-- DataError              a data file is unreadable or malformed (names file, line, field)
     |    +-- UnsafeInputError  an untrusted archive or document tried something dangerous
     +-- RulesError             a referee question cannot be answered (unknown unit, ruleset)
     |    +-- IllegalMoveError  a move, path or stack breaks a rule (carries the reasons)
     +-- BuildError             an output could not be produced

Every message says what, where and why, so the CLI can print it as is.
"""

from __future__ import annotations


class HexforgeError(ValueError):
    """Base class of every error hexforge raises on purpose."""


class HexError(HexforgeError):
    """A hex id, hexside or grid argument is malformed or outside the grid."""


class DataError(HexforgeError):
    """A game data file is unreadable or malformed.

    ``path``, ``line`` and ``field`` locate the problem; ``str(error)`` reads
    ``path:line: field: problem``.
    """

    def __init__(self, problem: str, *, path: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.problem = problem
        self.path = path
        self.line = line
        self.field = field
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path:
            where = str(self.path)
            if self.line:
                where += f":{self.line}"
            where += ": "
        if self.field:
            where += f"{self.field}: "
        return where + self.problem


class UnsafeInputError(DataError):
    """An untrusted file (module, save, archive) tried path traversal, a bomb or entity expansion."""


class RulesError(HexforgeError):
    """A referee question cannot be answered: unknown unit, hex or ruleset."""


class IllegalMoveError(RulesError):
    """A move, path or stack breaks a rule. ``reasons`` holds the machine-readable causes."""

    def __init__(self, message: str, reasons: list | None = None) -> None:
        self.reasons = list(reasons or [])
        super().__init__(message)


class BuildError(HexforgeError):
    """An output (image, sheet, module, plugin) could not be produced."""
