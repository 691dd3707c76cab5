"""Finding rulesets: entry points of the group ``hexforge.rulesets``, plus registered ones."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from ..errors import RulesError
from .ruleset import Ruleset

GROUP = "hexforge.rulesets"
_REGISTERED: dict[str, Ruleset] = {}
#: In-package fallback when the distribution's entry points are not installed.
_BUNDLED = {
    "tutorial": "toolkit.rulesets.tutorial:RULESET",
    "velikiye-luki": "toolkit.rulesets.velikiye_luki:RULESET",
    "grossdeutschland": "toolkit.rulesets.grossdeutschland:RULESET",
    "a-victory-denied": "toolkit.rulesets.a_victory_denied:RULESET",
    "white-death": "toolkit.rulesets.white_death:RULESET",
    "demyansk-shield": "toolkit.rulesets.demyansk_shield:RULESET",
}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` findable by name in this process (wins over entry points)."""
    if not isinstance(ruleset, Ruleset):
        raise RulesError(f"register() needs a Ruleset, not {type(ruleset).__name__}")
    _REGISTERED[ruleset.name] = ruleset
    return ruleset


_ENTRY_POINTS: dict[str, str] | None = None


def _entry_points() -> dict[str, str]:
    """Name -> target of the group's entry points, read once per process (reading the installed
    distributions' metadata takes milliseconds a call); :func:`refresh` reads them again."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        found: dict[str, str] = {}
        for ep in entry_points(group=GROUP):
            # an installed plugin (built by hexforge build) wins over the bundled module
            if ep.name not in found or found[ep.name].startswith("toolkit."):
                found[ep.name] = ep.value
        _ENTRY_POINTS = found
    return _ENTRY_POINTS


def refresh() -> None:
    """Read the entry points again (after installing a ruleset plugin into this process's path)."""
    global _ENTRY_POINTS
    _ENTRY_POINTS = None
    importlib.invalidate_caches()


def available() -> list[str]:
    """Names of every ruleset that can be asked for (some may fail to load)."""
    return sorted(set(_REGISTERED) | set(_entry_points()) | set(_BUNDLED))


def _load(target: str, name: str) -> Ruleset:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise RulesError(f"ruleset {name!r} is declared at {target} but module {exc.name} is not installed") from None
    value = getattr(module, attr or "RULESET", None)
    if not isinstance(value, Ruleset):
        raise RulesError(f"ruleset {name!r}: {target} is not a Ruleset")
    return value


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``: registered, else an installed entry point, else bundled."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    eps = _entry_points()
    for target in (eps.get(name), _BUNDLED.get(name)):
        if target:
            try:
                return _load(target, name)
            except RulesError:
                if target == _BUNDLED.get(name) or name not in _BUNDLED:
                    raise
    raise RulesError(f"no ruleset {name!r}; available: {', '.join(available()) or 'none'}")


def plugin_game_dir(name: str):
    """The game folder an installed plugin ruleset ``name`` carries (``GAME_DIR``), or None."""
    target = _entry_points().get(name)
    if not target or target.startswith("toolkit."):
        return None
    try:
        module = importlib.import_module(target.partition(":")[0])
    except ImportError:
        return None
    return getattr(module, "GAME_DIR", None)


def ruleset_for(game) -> Ruleset:
    """The ruleset a game names (``ruleset:`` in game.yaml, else the game id)."""
    try:
        return get_ruleset(game.ruleset or game.id)
    except RulesError as exc:
        where = getattr(game, "files", {}).get("game")
        if not where:
            raise
        raise RulesError(f"{where}: {'ruleset' if game.ruleset else 'id'}: {exc}") from None
