"""Where a datum comes from: a rule of the rulebook, or an estimate with a note."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """Provenance of one datum.

    ``rule`` cites the rulebook ("8.1", "TEC"); ``estimated`` is the note explaining an
    estimate. A datum with neither is unsourced, which the validator reports.
    """

    rule: str | None = None
    estimated: str | None = None

    @property
    def is_estimated(self) -> bool:
        return self.estimated is not None

    @property
    def is_cited(self) -> bool:
        return self.rule is not None and self.estimated is None

    def describe(self) -> str:
        if self.estimated is not None:
            return f"estimated ({self.estimated})"
        if self.rule is not None:
            return f"rule {self.rule}"
        return "unsourced"


UNSOURCED = Source()
