"""Rule options as data: the mixin behind ``with_options`` and ``option`` of the rulesets whose
rulebook conflicts are options (Velikiye Luki, A Victory Denied)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..errors import RulesError


class RuleOptions:
    """``with_options(**values)`` checks names and values against ``OPTION_CHOICES``;
    ``option(pos, name)`` reads the ruleset's own value, else the scenario's ``options``, else
    the game's, else ``OPTION_DEFAULTS``. ``OPTIONS_OF`` names the game in error messages."""

    OPTION_DEFAULTS: ClassVar[dict] = {}
    OPTION_CHOICES: ClassVar[dict] = {}
    OPTIONS_OF: ClassVar[str] = ""

    def with_options(self, **options):
        """A copy of this ruleset with rule options set (they win over scenario and game)."""
        for name, value in options.items():
            if name not in self.OPTION_CHOICES:
                raise RulesError(f"unknown {self.OPTIONS_OF} option {name!r}; options: "
                                 f"{', '.join(self.OPTION_CHOICES)}")
            if value not in self.OPTION_CHOICES[name]:
                raise RulesError(f"option {name} must be one of "
                                 f"{', '.join(map(str, self.OPTION_CHOICES[name]))}, not {value!r}")
        return dataclasses.replace(self, options={**self.options, **options})

    def option(self, pos, name: str):
        """An option's value: this ruleset's, else the scenario's, else the game's, else the default."""
        if name in self.options:
            return self.options[name]
        scenario = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
        for source in (scenario.options if scenario else {}, pos.game.options):
            if name in source:
                return source[name]
        return self.OPTION_DEFAULTS[name]
