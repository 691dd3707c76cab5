"""Antitank fire at an AFV transiting an enemy ZOC (Rule 3 A, notes case 8), resolved: the units
:func:`~.activity.transit_fire` lists fire at the AFV in the hex it exits (non-phasing fire, as
in the defensive fire phase), on the antitank table; a loss makes it check morale there, and
:func:`~.activity.transit_outcome` says whether it goes on, stops or routs."""

from __future__ import annotations

from fractions import Fraction

from ...errors import RulesError
from ...hexes import Hex
from . import units as U
from .activity import transit_outcome
from .fire import defence_value, fire_value, isolated_units
from .fire_tables import fire_table
from .shots import Shot, chain

__all__ = ["transit_odds"]


def transit_odds(pos, rs, afv_id: str, exited: Hex, firers) -> tuple[dict[str, Fraction], Shot]:
    """``({"continue", "stop", "rout", "eliminated"} -> probability, the shot)`` of the
    antitank fire of ``firers`` (unit ids) at ``afv_id`` leaving ``exited`` (exact, sums to 1)."""
    work = pos.copy()
    afv = work.unit(afv_id)
    if not U.is_afv(afv):
        raise RulesError(f"{afv_id} is not an AFV unit: only AFVs transit enemy ZOCs (Rule 3 A)")
    afv.hex = exited
    work.touch()
    shooters = work.units_of(list(firers))
    side = shooters[0].side if shooters else None
    iso = isolated_units(work, rs, side) if side else set()
    total, mods = Fraction(0), []
    for f in shooters:
        value, fmods, _ = fire_value(work, rs, f, "antitank", assaulting=False, target_hex=exited,
                                     assault_hex=exited, isolated=f.id in iso)
        total += value
        mods += fmods
    dv, dmods = defence_value(work, afv, "antitank", assault_hex=None, assaulting=False)
    table = fire_table(work.game, "antitank_fire")
    shot = Shot(afv, "antitank", table, total, dv, table.column_of(total, dv), modifiers=mods + dmods,
                firers=tuple(f.id for f in shooters), isolated=afv.id in isolated_units(work, rs, afv.side))
    chain(work, [shot], "transit")
    out: dict[str, Fraction] = {}
    for text, p in shot.outcomes.items():
        o = shot.details[text]
        key = "eliminated" if o.eliminated else transit_outcome(work, rs, o.lost, o.check)
        out[key] = out.get(key, Fraction(0)) + p
    return out, shot
