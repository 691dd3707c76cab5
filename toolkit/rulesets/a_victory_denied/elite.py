"""The Soviet 10 (9.4.3) modelled exactly: the combat stops, a red unit is drawn from the Soviet
Elite Division Cup and stacked with an attacking unit, the odds are recalculated with it (the
shifts stay) and the die is rolled again; another 10 draws again; a unit that cannot be stacked
with any attacker, or an empty cup, reads row 9. Under the Minsk +1 (14.0) a natural 9 or 10
draws.

``assess_combat`` counts a Soviet 10 as a reroll on the same column (the chart's ``reroll``):
the drawn unit is not known before the draw. :func:`elite_distribution` is the rule's own
distribution over the cup's contents: each unit in the cup equally likely (a cup: every draw is
random), stacked where the attacker gains most (the highest column; the attacker's choice,
taken as his best: estimated), exact fractions over the d10 and the draws.

The cup is the ``elite-cup`` deck of game.yaml: its counters that the position does not hold
elsewhere, plus the position's units in the ``elite-cup`` box.
"""

from __future__ import annotations

from fractions import Fraction

from ...errors import RulesError
from ...referee import Unit, assess_combat
from ...referee.stacking import stack_reasons

CUP = "elite-cup"
ROW_9 = 9


def cup_units(pos) -> list[str]:
    """Counter ids in the Elite Division Cup (one entry per counter; module docstring)."""
    deck = next((d for d in pos.game.decks if d.id == CUP), None)
    out = [u.counter.id for u in pos.units.values() if u.box == CUP and u.hex is None]
    held = {u.counter.id for u in pos.units.values()}
    if deck is not None:
        out += [c for c in deck.counters if c not in held]
    return sorted(out)


def _placements(pos, rs, attackers, counter_id):
    """Hexes of attacking combat units where a unit of ``counter_id`` may stack (5.1-5.3)."""
    probe = Unit(id="elite-draw", counter=pos.game.counters[counter_id], side="soviet")
    out = []
    for h in sorted({u.hex for u in attackers if u.counter.kind == "unit"}):
        probe.hex = h
        if not stack_reasons(pos, rs, h, [*pos.at(h), probe]):
            out.append(h)
    return out


def elite_distribution(pos, rs, attacker_ids, defender_hex, context=None) -> dict:
    """The 9.4.3 distribution of a Soviet attack (module docstring): ``distribution`` (result
    text -> Fraction, summing to 1), ``results`` (text -> CombatResult), ``draw`` (the chance of
    at least one draw), ``cup`` (the counters in the cup)."""
    context = {k: v for k, v in dict(context or {}).items() if k != "activated"}    # a drawn unit is not activated
    first = assess_combat(pos, rs, attacker_ids, defender_hex, context=context)
    if not first.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in first.refusals))
    if first.side != "soviet" or context.get("fixed"):
        raise RulesError("9.4.3 is the Soviet attacker's d10: not a German or a fixed-column attack")
    chart = first.chart
    drm = first.drm
    cup = cup_units(pos)
    results: dict = {}
    memo: dict = {}

    def read(row: int, column: str) -> dict:
        res = chart.result(row, chart.columns.index(column))
        results.setdefault(res.text, res)
        return {res.text: Fraction(1)}

    def column_with(placed: tuple) -> tuple[str, list]:
        work = pos.copy()
        ids = list(first.attackers)
        for n, (cid, h) in enumerate(placed):
            uid = f"{cid}#drawn{n}"
            work.units[uid] = Unit(id=uid, counter=pos.game.counters[cid], side="soviet", hex=h)
            ids.append(uid)
        work.touch()
        a = assess_combat(work, rs, ids, defender_hex, context=context)
        return a.column, [work.unit(u) for u in ids]

    def dist(placed: tuple) -> dict:
        if placed in memo:
            return memo[placed]
        column, attackers = column_with(placed) if placed else (first.column, pos.units_of(first.attackers))
        out: dict = {}

        def add(part: dict, p: Fraction) -> None:
            for text, q in part.items():
                out[text] = out.get(text, Fraction(0)) + p * q
        left = list(cup)
        for cid, _ in placed:
            left.remove(cid)
        for natural in range(1, 11):
            if natural < 10 and natural + drm < 10:
                add(read(natural + drm, column), Fraction(1, 10))
                continue
            if not left:                                   # no red unit left: row 9
                add(read(ROW_9, column), Fraction(1, 10))
                continue
            for cid in sorted(set(left)):
                p = Fraction(1, 10) * Fraction(left.count(cid), len(left))
                work = pos.copy()
                for n, (c, h) in enumerate(placed):
                    work.units[f"{c}#drawn{n}"] = Unit(id=f"{c}#drawn{n}", counter=pos.game.counters[c],
                                                       side="soviet", hex=h)
                work.touch()
                hexes = _placements(work, rs, [a for a in attackers if a.hex is not None], cid)
                if not hexes:                              # cannot be stacked: row 9
                    add(read(ROW_9, column), p)
                    continue
                best = max(hexes, key=lambda h: chart.columns.index(column_with((*placed, (cid, h)))[0]))
                add(dist(tuple(sorted((*placed, (cid, best))))), p)
        memo[placed] = out
        return out

    distribution = dist(())
    triggers = sum(1 for n in range(1, 11) if n == 10 or n + drm >= 10)
    return {"distribution": distribution, "results": results, "draw": Fraction(triggers, 10) if cup else Fraction(0),
            "cup": cup, "column": first.column}


def roll_elite(pos, rs, attacker_ids, defender_hex, context=None, *, seed=None, rolls=None, place=None) -> dict:
    """Resolve a Soviet attack by 9.4.3 (module docstring): roll the d10 (``rolls``: the naturals
    to use, in order, else from ``seed``); on a 10 (a 9 or 10 under the Minsk +1) draw a counter
    from the cup (seeded), stack it with an attacker (``place``: counter id -> hex, the Soviet
    player's choice; else where the odds gain most), recalculate and roll again; no room or an
    empty cup: row 9. Returns ``position`` (the drawn units on the map with the attackers),
    ``assessment`` and ``roll`` to hand to ``apply_combat``, ``drawn`` and the ``log``."""
    import random
    import secrets

    from ...referee import roll_combat
    if seed is None and not rolls:
        seed = secrets.randbelow(2 ** 31)
    rng = random.Random(seed)
    given = list(rolls or [])
    context = dict(context or {})
    work = pos.copy()
    ids = list(attacker_ids if not isinstance(attacker_ids, str) else [attacker_ids])
    a = assess_combat(work, rs, ids, defender_hex, context=context)
    if not a.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in a.refusals))
    if a.side != "soviet" or context.get("fixed"):
        raise RulesError("9.4.3 is the Soviet attacker's d10: not a German or a fixed-column attack")
    log, drawn = [], []
    fmt = work.map.format
    for _ in range(64):
        natural = given.pop(0) if given else rng.randint(1, 10)
        if not 1 <= natural <= 10:
            raise RulesError(f"a d10 roll is 1-10, not {natural}")
        if natural < 10 and natural + a.drm < 10:
            final = roll_combat(work, rs, a, roll=natural, seed=seed)
            break
        cup = cup_units(work)
        cid = rng.choice(cup) if cup else None
        hexes = _placements(work, rs, work.units_of(a.attackers), cid) if cid else []
        if not hexes:
            log.append(f"d10 {natural}: " + (f"drew {cid}, which cannot be stacked with an attacker" if cid else
                                             "the Elite Division Cup is empty") + ": row 9 (9.4.3)")
            final = roll_combat(work, rs, a, roll=ROW_9 - a.drm, seed=seed)
            break
        chosen = (place or {}).get(cid)
        if chosen is not None:
            chosen = chosen if not isinstance(chosen, str) else work.map.grid.parse(chosen)
            if chosen not in hexes:
                raise RulesError(f"{cid} may be stacked in {' '.join(fmt(h) for h in hexes) or 'no hex'} (9.4.3, "
                                 f"5.1-5.3), not {fmt(chosen)}")

        def column(h):
            trial = work.copy()
            trial.units[cid] = Unit(id=cid, counter=work.game.counters[cid], side="soviet", hex=h)
            trial.touch()
            return _column_index(assess_combat(trial, rs, [*a.attackers, cid], defender_hex, context=_with(context, cid)))
        hex_ = chosen if chosen is not None else max(hexes, key=column)
        unit = work.units.get(cid) or Unit(id=cid, counter=work.game.counters[cid], side="soviet")
        unit.hex, unit.box = hex_, None
        work.units[cid] = unit
        work.touch()
        drawn.append(cid)
        context = _with(context, cid)
        a = assess_combat(work, rs, [*a.attackers, cid], defender_hex, context=context)
        log.append(f"d10 {natural}: combat stops; drew {cid} from the Elite Division Cup, stacked in {fmt(hex_)}: "
                   f"{a.ratio} -> {a.column}, rolled again (9.4.3)")
    else:
        raise RulesError("more than 64 draws: the cup cannot hold that many")
    return {"position": work, "assessment": a, "roll": final, "drawn": drawn, "log": [*log, final.log],
            "seed": seed}


def _column_index(a) -> int:
    return a.chart.columns.index(a.column)


def _with(context: dict, uid: str) -> dict:
    """The context with a drawn unit counted among the activated units (it joins the attack)."""
    if context.get("activated") is None:
        return context
    return {**context, "activated": [*context["activated"], uid]}
