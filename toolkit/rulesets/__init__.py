"""Referee rulesets of the bundled games, one module or package per game, each exposing ``RULESET``.

They are registered as entry points of the group ``hexforge.rulesets`` in pyproject.toml;
:func:`toolkit.referee.get_ruleset` finds them (with an in-package fallback when the entry
points are not installed). Emitted plugins (``hexforge build``) register the same way.
"""

from __future__ import annotations

from ..referee.registry import GROUP, available, get_ruleset, register

__all__ = ["GROUP", "available", "get_ruleset", "register"]
