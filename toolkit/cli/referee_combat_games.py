"""``hexforge referee combat`` options that only some games have: White Death's split barrages,
rocket payment and weapons units' fire (``--barrage-split``, ``--barrage-sp``,
``--weapons-fire``), A Victory Denied's elite draws
(``--place``, the ruleset's ``roll_with_draws``) and Grossdeutschland's anti-aircraft against
an air event chit (``--air``, the ruleset's ``air_defence`` and ``roll_air_defence``). Each is
refused, naming the game that has it, where the ruleset does not."""

from __future__ import annotations

from fractions import Fraction

import click

from ..errors import RulesError
from ._referee_options import stacked

__all__ = ["air_json", "air_question", "air_text", "barrage", "fresh_seed", "game_options", "places",
           "roll_with_draws", "weapons_fire"]


def game_options(func):
    options = [
        click.option("--barrage-split", "barrage_split", metavar="N,N[,...]",
                     help="games with split barrages (White Death 11 B.2.a): the barrage values of the separate "
                          "attacks, adding up to the whole barrage"),
        click.option("--barrage-sp", "barrage_sp", type=int, metavar="2|3",
                     help="games with barrage supply (White Death 15 A.2-3): the supply points paid for the barrage "
                          "impulse, 3 for German rockets at full value (default 2)"),
        click.option("--weapons-fire", "weapons_fire", multiple=True, metavar="UNIT=antitank|conventional",
                     help="games with weapons units (White Death 10 D): the one fire a weapons unit gives "
                          "(default: antitank when it has it and an AFV is fired at); repeatable"),
        click.option("--place", "place", multiple=True, metavar="UNIT=HEX",
                     help="games whose roll draws units into the attack (A Victory Denied 9.4.3): where a drawn unit "
                          "is stacked (default: where the odds gain most); repeatable"),
        click.option("--air", "air", metavar="CHIT",
                     help="games with anti-aircraft (Grossdeutschland 10.7): the air event chit whose DRM --drm "
                          "declares; the AA units of the other side roll to nullify it"),
    ]
    return stacked(options)(func)


def fresh_seed() -> int:
    import secrets
    return secrets.randbelow(2 ** 31)


def barrage(rs, split, sp) -> dict:
    """``--barrage-split`` and ``--barrage-sp`` as the context keys the game declares for them."""
    keys = rs.combat.context_keys or {}
    out = {}
    for option, key, value in (("--barrage-split", "barrage_attacks", split), ("--barrage-sp", "barrage_sp", sp)):
        if value is None:
            continue
        if key not in keys:
            raise RulesError(f"{option} is for games whose barrages are split and paid for (White Death); "
                             f"{rs.name} has none")
        out[key] = value
    if split is not None:
        parts = [t.strip() for t in split.replace(" ", ",").split(",") if t.strip()]
        try:
            out["barrage_attacks"] = [Fraction(t) for t in parts]
        except (ValueError, ZeroDivisionError):
            raise RulesError(f"bad --barrage-split {split!r}: expected barrage values N,N (e.g. 60,20)") from None
        if not parts or any(v <= 0 for v in out["barrage_attacks"]):
            raise RulesError(f"bad --barrage-split {split!r}: expected barrage values above 0, N,N (e.g. 60,20)")
    return out


def weapons_fire(pos, texts) -> dict:
    """``--weapons-fire UNIT=antitank|conventional`` as the ``weapons_fire`` context (White Death 10 D)."""
    out = {}
    for text in texts:
        uid, eq, kind = text.partition("=")
        if not eq or kind.strip() not in ("antitank", "conventional") or not uid.strip():
            raise RulesError(f"bad --weapons-fire {text!r}: expected UNIT=antitank or UNIT=conventional")
        pos.unit(uid.strip())
        out[uid.strip()] = kind.strip()
    return out


def places(pos, rs, texts) -> dict:
    """``--place UNIT=HEX`` (a drawn unit's hex), for games whose roll draws units."""
    from .referee_combat import _hex
    if texts and getattr(rs, "roll_with_draws", None) is None:
        raise RulesError(f"--place is for games whose roll draws units into the attack (A Victory Denied 9.4.3); "
                         f"{rs.name} draws none")
    out = {}
    for text in texts:
        uid, eq, where = text.partition("=")
        if not eq or not uid.strip() or not where.strip():
            raise RulesError(f"bad --place {text!r}: expected UNIT=HEX, e.g. s-100id=1637")
        if uid.strip() not in pos.game.counters:
            raise RulesError(f"bad --place {text!r}: no counter {uid.strip()!r} in {pos.game.id}")
        out[uid.strip()] = _hex(pos, where.strip())
    return out


def roll_with_draws(pos, rs, a, ctx, seed, roll, placed):
    """The ruleset's roll that may draw units into the attack (A Victory Denied 9.4.3: a Soviet
    10 draws from the Elite Division Cup), or None when it has none or it does not apply."""
    hook = getattr(rs, "roll_with_draws", None)
    if hook is None:
        return None
    return hook(pos, a, ctx, seed=seed if seed is not None else fresh_seed(), roll=roll, place=placed or None)


def air_question(pos, rs, chit, a, drm, assess_with, declared) -> dict | None:
    """With ``--air CHIT``: the AA chances against the chit (10.7) and the attack without the
    chit's DRM (``assess_with(modifiers)``), the whole distribution mixed by the chance the chit
    stands; None without ``--air``."""
    if chit is None:
        return None
    if getattr(rs, "air_defence", None) is None:
        raise RulesError(f"--air is for games with anti-aircraft against air event chits (Grossdeutschland 10.7); "
                         f"{rs.name} has none")
    if not drm:
        raise RulesError(f"--air {chit}: declare the chit's die-roll modifier with --drm")
    chance = rs.air_defence(pos, chit, a.defender_hex)
    rest = [m for m in declared if m["kind"] != "drm"]
    without = assess_with(rest)
    stands = chance["stands"]
    mixed: dict = {}
    if a.legal and without.legal:
        for each, p in ((a, stands), (without, 1 - stands)):
            for text, q in each.distribution.items():
                mixed[text] = mixed.get(text, Fraction(0)) + p * q
    expected = {role: stands * a.expected_steps[role] + (1 - stands) * without.expected_steps[role]
                for role in ("attacker", "defender")} if mixed else {}
    return {"chit": chit, "chance": chance, "without": without, "context": {"modifiers": rest},
            "distribution": {t: q for t, q in mixed.items() if q}, "expected": expected, "rolled": None}


def air_text(sky) -> list[str]:
    c = sky["chance"]
    lines = [f"AA against {sky['chit']} (10.7): the chit stands {c['stands']} ({float(c['stands']) * 100:.1f}%)"]
    lines += [f"  {r['unit']} {r['dice']} at {r['distance']} hex(es): nullifies {r['nullifies']}" for r in c["rolls"]]
    if sky["distribution"]:
        lines.append("  with the AA rolls:")
        for text, p in sorted(sky["distribution"].items(), key=lambda kv: -kv[1]):
            lines.append(f"  {text:8s} {str(p):>7s} {float(p) * 100:5.1f}%")
        e = sky["expected"]
        lines.append(f"  expected steps lost: attacker {e['attacker']}, defender {e['defender']}")
    if sky["rolled"]:
        lines += sky["rolled"]["log"]
    return lines


def air_json(sky) -> dict:
    c = sky["chance"]
    out = {"chit": sky["chit"], "stands": str(c["stands"]),
           "rolls": [{**r, "nullifies": str(r["nullifies"])} for r in c["rolls"]],
           "distribution": {t: str(p) for t, p in sky["distribution"].items()},
           "expected_steps": {k: str(v) for k, v in sky["expected"].items()}}
    if sky["rolled"]:
        out["rolled"] = sky["rolled"]
    return out
