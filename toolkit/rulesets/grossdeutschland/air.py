"""Anti-aircraft against a blue Airstrike or Strafing event chit (10.7), exactly: the opposing
player rolls for each of his units on the map printed "AA" or "Flak" (counter mark ``aa``) two
dice, three for a "Lt" one (mark ``lt``); a total greater than the number of hexes from that
unit to the combat hex nullifies the chit. :func:`air_chance` is the chance the chit stands;
:func:`air_distribution` the combat's distribution with the chit's declared DRM in force with
that chance and not otherwise (exact fractions over the AA rolls and the CRT dice).

"The number of hexes between" the AA unit and the combat hex is read as the hex distance (a unit
next to the combat hex is 1 away; estimated: the text gives no example). The chit's DRM is the
one the players declare (``--drm``), as for every event chit."""

from __future__ import annotations

from fractions import Fraction

from ...errors import RulesError
from ...referee import assess_combat
from ...referee.combat_chart import dice_distribution

AIR_CHITS = ("airstrike", "strafing")


def _air_chit(pos, chit_id: str):
    counter = pos.game.counters.get(chit_id)
    if counter is None or counter.type != "blue event" or not any(k in chit_id for k in AIR_CHITS):
        raise RulesError(f"{chit_id!r} is not a blue Airstrike or Strafing event chit (10.7)")
    return counter


def air_chance(pos, chit_id: str, combat_hex) -> dict:
    """``{"stands": Fraction, "rolls": [{"unit", "dice", "distance", "nullifies"}]}``: each AA or
    Flak unit of the side that did not draw ``chit_id`` and its chance to nullify it (10.7)."""
    drawer = _air_chit(pos, chit_id).side
    grid = pos.map.grid
    rolls = []
    stands = Fraction(1)
    for unit in sorted(pos.on_map(), key=lambda u: u.id):
        if unit.side in (drawer, None) or "aa" not in unit.counter.marks:
            continue
        dice = "3d6" if "lt" in unit.counter.marks else "2d6"
        distance = grid.distance(unit.hex, combat_hex)
        p = sum((q for total, q in dice_distribution(dice).items() if total > distance), Fraction(0))
        stands *= 1 - p
        rolls.append({"unit": unit.id, "dice": dice, "distance": distance, "nullifies": p})
    return {"stands": stands, "rolls": rolls}


def air_distribution(pos, rs, attacker_ids, defender_hex, chit_id: str, drm: int, context=None) -> dict:
    """The combat's distribution with the air chit ``chit_id`` giving ``drm`` when it stands
    (10.7): ``distribution`` (result text -> Fraction), ``stands`` and the AA ``rolls``."""
    chance = air_chance(pos, chit_id, defender_hex)
    context = dict(context or {})
    base = assess_combat(pos, rs, attacker_ids, defender_hex, context=context)
    declared = [*context.get("modifiers", ()), {"kind": "drm", "value": int(drm), "rule": "10.3, 10.7",
                                                  "text": f"{chit_id} ({drm:+d}) standing"}]
    hit = assess_combat(pos, rs, attacker_ids, defender_hex, context={**context, "modifiers": declared})
    if not base.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in base.refusals))
    out: dict = {}
    for a, p in ((hit, chance["stands"]), (base, 1 - chance["stands"])):
        for text, q in a.distribution.items():
            out[text] = out.get(text, Fraction(0)) + p * q
    return {"distribution": {t: q for t, q in out.items() if q}, "results": {**base.results, **hit.results},
            "stands": chance["stands"], "rolls": chance["rolls"]}


def roll_air_defence(pos, chit_id: str, combat_hex, seed) -> dict:
    """Roll each AA or Flak unit's dice against ``chit_id`` (10.7) from ``seed`` (one stream per
    unit, replayable): ``{"stands": bool, "rolls": [{"unit", "dice", "distance", "total",
    "nullifies"}], "log": [...]}``; the first total greater than the distance nullifies the chit."""
    import random
    chance = air_chance(pos, chit_id, combat_hex)
    out, log, stands = [], [], True
    for r in chance["rolls"]:
        n, sides = (int(x) for x in r["dice"].split("d"))
        rng = random.Random(f"{seed}/aa/{r['unit']}")
        total = sum(rng.randint(1, sides) for _ in range(n))
        hit = total > r["distance"]
        stands = stands and not hit
        out.append({"unit": r["unit"], "dice": r["dice"], "distance": r["distance"], "total": total,
                    "nullifies": hit})
        log.append(f"AA {r['unit']} {r['dice']} {total} against {r['distance']} hex(es): "
                   f"{'the chit is nullified' if hit else 'misses'} (10.7)")
    log.append(f"{chit_id} {'stands' if stands else 'is nullified'} (10.7) [seed {seed}]")
    return {"stands": stands, "rolls": out, "log": log}
