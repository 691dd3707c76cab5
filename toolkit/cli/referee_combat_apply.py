"""``hexforge referee combat ... --apply``: apply the rolled result and write the new position.

The owners' choices come as options (``--loss UNIT=N``, ``--retreat ROLE=HEX[,HEX...]`` or
``ROLE@FROM=...`` for one stack of several, ``--advance UNITS`` or ``UNIT=HEX``, ``--no-retreat
ROLE[=N]``, ``--zoc-retreat ROLE[=N]``, ``--before-combat defender[=N]``, ``--choice NAME:KEY=VALUE``); they are
checked by :func:`toolkit.referee.apply_combat` before anything is written (a bad choice exits 2
with the rule; the ``--out`` file is written atomically or not at all).
"""

from __future__ import annotations

import click

from ..errors import RulesError
from ..referee import apply_combat, dump_position
from ._referee_options import stacked, units_arg


def apply_options(func):
    options = [
        click.option("--apply", "apply", is_flag=True,
                     help="apply the rolled result (with --seed/--roll; a fresh logged seed otherwise)"),
        click.option("--loss", "loss", multiple=True, metavar="UNIT=N",
                     help="steps UNIT loses (the owner's choice; ZOC steps of its retreat included); repeatable"),
        click.option("--retreat", "retreat", multiple=True, metavar="ROLE[@FROM]=HEX[,HEX...]|box:BOX",
                     help="where ROLE (attacker/defender) retreats: the end hex, or the path, or box:BOX (a Map "
                          "Box from its Entry hex, Demyansk 12.32); @FROM for the stack in hex FROM when the side "
                          "stands in several hexes; repeatable"),
        click.option("--advance", "advance", multiple=True, metavar="UNITS|UNIT=HEX",
                     help="attacking units that advance into the vacated hex (UNIT=HEX: that hex of the "
                          "defender's retreat path); repeatable"),
        click.option("--choice", "choice", multiple=True, metavar="NAME:KEY=VALUE",
                     help="a game's own owner choice (relocate:HQ=HEX: where an overrun HQ goes, A Victory "
                          "Denied 12.6; advance:HQ=HEX: an HQ advancing with its stack, 12.4; "
                          "special:ROLE=KIND: the supports a '*' result spends, Demyansk 12.23); repeatable"),
        click.option("--no-retreat", "no_retreat", multiple=True, metavar="ROLE[=N]",
                     help="ROLE (attacker/defender) tries No Retreat instead of its retreat, with the die N "
                          "(default: rolled from the combat's seed); games with the option (Demyansk 12.42)"),
        click.option("--zoc-retreat", "zoc_retreat", multiple=True, metavar="ROLE[=N]",
                     help="ROLE (attacker/defender), with no other retreat, tries one through an enemy ZOC, with the "
                          "die N (default: rolled from the combat's seed); games with the option (Demyansk 12.43)"),
        click.option("--before-combat", "before_combat", metavar="defender[=N]",
                     help="the defender tries Retreat Before Combat with the die N (default: rolled from the "
                          "combat's seed): a pass retreats (--retreat) with no combat, a fail applies the roll; "
                          "games with the option (Demyansk 11.42)"),
        click.option("--out", "out", type=click.Path(dir_okay=False), help="write the resulting position file"),
    ]
    return stacked(options)(func)


def _hex(pos, text, what):
    from .referee_combat import _hex as parse
    try:
        return parse(pos, text.strip())
    except RulesError as exc:
        raise RulesError(f"{what}: {exc}") from None


def choices(pos, loss, retreat, advance) -> dict:
    """The keyword arguments of :func:`apply_combat` from the option texts."""
    losses = {}
    for text in loss:
        uid, eq, n = text.partition("=")
        if not eq or not uid.strip() or not n.strip().isdigit() or int(n) < 1:
            raise RulesError(f"bad --loss {text!r}: expected UNIT=N with N steps (1 or more)")
        pos.unit(uid.strip())
        losses[uid.strip()] = losses.get(uid.strip(), 0) + int(n)
    retreats: dict = {}
    for text in retreat:
        left, eq, right = text.partition("=")
        role, _, start = left.partition("@")
        role = role.strip()
        if not eq or role not in ("attacker", "defender") or not right.strip():
            raise RulesError(f"bad --retreat {text!r}: expected attacker=HEX or defender=HEX[,HEX...] "
                             "(optionally ROLE@FROM=...)")
        if right.strip().startswith("box:"):            # into a Map Box (Demyansk 12.32)
            where = right.strip()[4:]
            if pos.map.box(where) is None:
                raise RulesError(f"--retreat {text!r}: no box {where!r} on the map; it has "
                                 f"{', '.join(b.id for b in pos.map.boxes)}")
        else:
            hexes = [_hex(pos, h, f"--retreat {text!r}") for h in right.replace(" ", ",").split(",") if h.strip()]
            where = hexes[0] if len(hexes) == 1 else hexes
        if start:
            entry = retreats.setdefault(role, {})
            if not isinstance(entry, dict):
                raise RulesError(f"--retreat {text!r}: give every {role} stack as {role}@FROM=...")
            entry[_hex(pos, start, f"--retreat {text!r}")] = where
        else:
            if role in retreats:
                raise RulesError(f"--retreat {text!r}: the {role} retreat is given twice")
            retreats[role] = where
    advances: dict = {}
    for text in advance:
        uid, eq, where = text.partition("=")
        if eq:
            pos.unit(uid.strip())
            advances[uid.strip()] = _hex(pos, where, f"--advance {text!r}")
        else:
            for u in units_arg(text):
                pos.unit(u)
                advances.setdefault(u, None)
    return {"losses": losses, "retreats": retreats, "advance": advances}


def _no_retreat(texts, option="--no-retreat") -> dict:
    out = {}
    for text in texts:
        role, eq, die = text.partition("=")
        role = role.strip()
        if role not in ("attacker", "defender") or (eq and not die.strip().isdigit()):
            raise RulesError(f"bad {option} {text!r}: expected attacker or defender, optionally =N (the die)")
        out[role] = int(die) if eq else None
    return out


def game_choices(texts) -> dict:
    """``--choice NAME:KEY=VALUE`` -> ``{NAME: {KEY: VALUE}}`` (the ruleset reads the values)."""
    out: dict = {}
    for text in texts:
        left, eq, value = text.partition("=")
        name, colon, key = left.partition(":")
        if not eq or not colon or not name.strip() or not key.strip() or not value.strip():
            raise RulesError(f"bad --choice {text!r}: expected NAME:KEY=VALUE, e.g. relocate:s-hq-16a=2811")
        out.setdefault(name.strip(), {})[key.strip()] = value.strip()
    return out


def run(pos, rs, assessment, rolled, loss, retreat, advance, out, choice=(), no_retreat=(), zoc_retreat=(),
        before_combat=None):
    """Apply ``rolled`` with the owners' choices; write ``out`` when given. The outcome."""
    before = _no_retreat([before_combat] if before_combat else [], "--before-combat")
    if set(before) - {"defender"}:
        raise RulesError(f"bad --before-combat {before_combat!r}: Retreat Before Combat is the defender's "
                         "(defender or defender=N)")
    outcome = apply_combat(pos, rs, assessment, rolled, **choices(pos, loss, retreat, advance),
                           choices=game_choices(choice), no_retreat=_no_retreat(no_retreat),
                           zoc_retreat=_no_retreat(zoc_retreat, "--zoc-retreat"), before_combat=before or None)
    if out:
        dump_position(outcome.position, out)
    return outcome


def text(outcome, out) -> list[str]:
    lines = outcome.log[1:] or ["no unit is affected"]
    if out:
        lines.append(f"wrote {out}")
    return lines


def check_usage(apply, loss, retreat, advance, out, choice=(), no_retreat=(), zoc_retreat=(),
                before_combat=None) -> None:
    if not apply and (loss or retreat or advance or out or choice or no_retreat or zoc_retreat or before_combat):
        raise RulesError("--loss, --retreat, --advance, --choice, --no-retreat, --zoc-retreat, --before-combat and "
                         "--out need --apply")
