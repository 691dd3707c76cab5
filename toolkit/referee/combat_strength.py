"""What a combat adds up to before the CRT: the units' strengths with the Terrain Effects
Chart's combat effects and status factors, and the column shifts and DRMs of terrain,
hexsides, statuses and weather, each as a :class:`Modifier` citing its rule.

Used by :mod:`.combat`; the TEC's combat effects are the ``combat`` mappings of the map's
terrain and hexside types (``shift``, ``drm``, ``attack``, ``attack_from``, ``defence``,
with ``when``, ``combine`` and ``weathers`` conditions; docs/referee.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..hexes import Hex
from .reasons import Reason
from .ruleset import _round

#: Modifier kinds: a column shift (+ is the attacker's favour), a die-roll modifier, a change of
#: a side's strength, a random shift rolled before the CRT, or a note (no value).
KINDS = ("shift", "drm", "attack", "defence", "random", "note")


@dataclass(frozen=True)
class Modifier:
    """One reason the combat is not the bare odds: ``kind`` (see :data:`KINDS`), ``value``
    (columns, die pips or strength points), the rule cited, a sentence, where and who."""

    kind: str
    value: Fraction | int
    rule: str | None
    text: str
    hex: Hex | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    def to_dict(self, fmt=None) -> dict:
        where = None
        if self.hex is not None:
            where = fmt(self.hex) if fmt else f"{self.hex[0]},{self.hex[1]}"
        value = self.value
        value = str(value) if isinstance(value, Fraction) and value.denominator != 1 else int(value)
        return {"code": self.kind, "kind": self.kind, "value": value, "rule": self.rule, "hex": where,
                "units": list(self.units), "side": self.side, "text": self.text}

    def __str__(self) -> str:
        rule = f" [rule {self.rule}]" if self.rule else ""
        return f"{self.text}{rule}"


@dataclass(frozen=True)
class Support:
    """A support committed to a combat: ``kind`` (a key of ``CombatRules.supports``), the
    ``side`` giving it ("attacker" or "defender"), ``points``, or an on-map ``unit`` giving it,
    and the HQ it is allocated ``via`` (games whose HQs allocate support)."""

    kind: str
    side: str = "attacker"
    points: int = 1
    unit: str | None = None
    via: str | None = None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "side": self.side, "points": self.points, "unit": self.unit, "via": self.via}


@dataclass
class Combat:
    """One proposed combat as the hooks see it: the units, hexes, supports and context."""

    pos: object
    rs: object
    attackers: list
    defenders: list
    defender_hex: Hex
    supports: tuple = ()
    context: dict = field(default_factory=dict)
    #: attacker id -> hexside feature codes crossed into the defender hex(es) (bridge rule applied)
    crossing: dict = field(default_factory=dict)
    #: every defender hex (several in a multi-hex attack); ``defender_hex`` is the first
    defender_hexes: tuple = ()
    #: (attacker id, defender hex) -> the codes crossed into that hex
    crossing_by_hex: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.defender_hexes:
            self.defender_hexes = (self.defender_hex,)

    def all_cross(self, code: str) -> set:
        """Attackers to which a hexside feature applies when it counts only if every attacker
        crosses it (11.22b): those attacking a defender hex whose every adjacent attacker
        crosses ``code`` into it."""
        grid = self.pos.map.grid
        out = set()
        for d in self.defender_hexes:
            facing = [u for u in self.attackers if u.hex is not None and grid.adjacent(u.hex, d)]
            if facing and all(code in self.crossing_by_hex.get((u.id, d), ()) for u in facing):
                out |= {u.id for u in facing}
        return out

    @property
    def attacker_side(self) -> str | None:
        return self.attackers[0].side if self.attackers else None

    @property
    def attacker_hexes(self) -> list[Hex]:
        return list(dict.fromkeys(u.hex for u in self.attackers if u.hex is not None))

    def statuses(self, unit, role: str) -> set:
        key = ("status", unit.id, role)
        cache = self.context.setdefault("_cache", {})
        if key not in cache:
            cache[key] = set(self.rs.combat_status(self.pos, unit, role, self))
        return cache[key]


def parse_effect(value) -> tuple[str, Fraction] | None:
    """A strength effect as written in the TEC: ``("factor", 1/2)`` for "half", "x2", "double";
    ``("add", n)`` for "+1", "-1", 2. None for anything else."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Fraction)):
        return "add", Fraction(value)
    text = str(value).strip().lower()
    if text in ("half", "halved", "1/2"):
        return "factor", Fraction(1, 2)
    if text in ("double", "doubled"):
        return "factor", Fraction(2)
    if text in ("third", "1/3"):
        return "factor", Fraction(1, 3)
    m = re.fullmatch(r"[x×*]\s*(\d+(?:/\d+)?)", text)
    if m:
        return "factor", Fraction(m[1])
    m = re.fullmatch(r"([+-]\s*\d+)", text)
    if m:
        return "add", Fraction(m[1].replace(" ", ""))
    return None


def round_strength(value: Fraction, how: str) -> Fraction:
    """``value`` rounded "down", "up" or kept ("exact")."""
    return _round(value, how)


def _applies(effects: dict, weather: str) -> bool:
    weathers = effects.get("weathers")
    if weathers and weather not in weathers:
        return False
    return weather not in (effects.get("not_weathers") or ())


def _rule(t) -> str | None:
    return t.source.rule if t is not None else None


def hex_codes(m, hex: Hex) -> list[str]:
    """Terrain and feature codes of a hex (base terrain first)."""
    base = m.terrain(hex)
    return ([base] if base else []) + list(m.features(hex))


def crossings(pos, attackers, defender_hexes) -> tuple[dict, dict]:
    """``(attacker id -> codes, (attacker id, hex) -> codes)``: the hexside features each
    attacker attacks across into the defender hex(es); a hexside type with ``bridge`` on the
    side replaces the other features of that side (its own combat effect applies instead)."""
    m = pos.map
    grid = m.grid
    union, by_hex = {}, {}
    for u in attackers:
        union[u.id] = ()
        for d in defender_hexes:
            if u.hex is None or not grid.adjacent(u.hex, d):
                continue
            codes = m.hexside_codes(grid.hexside(u.hex, d))
            bridges = [c for c in codes if c in m.hexside_types and m.hexside_types[c].bridge]
            by_hex[(u.id, d)] = tuple(bridges or codes)
            union[u.id] = tuple(dict.fromkeys(union[u.id] + by_hex[(u.id, d)]))
    return union, by_hex


def strengths(combat: Combat) -> tuple[Fraction, Fraction, list[Modifier], list[Reason]]:
    """``(attack, defence, modifiers, refusals)`` of a combat (see :class:`CombatRules`)."""
    pos, rs = combat.pos, combat.rs
    cr = rs.combat
    m = pos.map
    weather = pos.current_weather
    mods: list[Modifier] = []
    refusals: list[Reason] = []
    # -- attack ------------------------------------------------------------------------------
    items = []
    all_cross = {}
    for u in combat.attackers:
        value, factor, reasons, how = _status_factor(combat, u, "attacker")
        for code in combat.crossing.get(u.id, ()):
            t = m.hexside_types.get(code)
            if t is None or "attack" not in t.combat or not _applies(t.combat, weather):
                continue
            if cr.hexside_applies == "all":
                if code not in all_cross:
                    all_cross[code] = combat.all_cross(code)
                if u.id not in all_cross[code]:
                    continue
            factor, value = _attacker_effect(u, t, "attack", "across", cr, factor, value, reasons, mods)
        into = [d for d in combat.defender_hexes if u.hex is not None and m.grid.adjacent(u.hex, d)] \
            or list(combat.defender_hexes[:1])
        into_codes = list(dict.fromkeys(c for d in into for c in hex_codes(m, d)))
        for code, key, what in ([(c, "attack", "into") for c in into_codes] +
                                [(c, "attack_from", "from") for c in hex_codes(m, u.hex)]):
            t = m.terrain_types.get(code)
            if t is None or key not in t.combat or not _applies(t.combat, weather):
                continue
            factor, value = _attacker_effect(u, t, key, what, cr, factor, value, reasons, mods)
        items.append((u, value, factor, reasons, how))
    attack, more = _sum_groups("attack", "attacker", items, cr, cr.strength_rule)
    mods += more
    # -- defence ----------------------------------------------------------------------------
    items = []
    for u in combat.defenders:
        value, factor, reasons, how = _status_factor(combat, u, "defender")
        items.append((u, value, factor, reasons, how))
    defence, more = _sum_groups("defence", "defender", items, cr, cr.status_rule)
    mods += more
    factors, adds = [], []
    for code in dict.fromkeys(c for d in combat.defender_hexes for c in hex_codes(m, d)):
        t = m.terrain_types.get(code)
        if t is None or "defence" not in t.combat or not _applies(t.combat, weather):
            continue
        eff = parse_effect(t.combat["defence"])
        if eff:
            (factors if eff[0] == "factor" else adds).append((eff[1], t))
    chosen = [max(factors, key=lambda x: x[0])] if factors and cr.hex_terrain == "best" else factors
    for f, t in chosen:
        got = round_strength(defence * f, cr.strength_round)
        mods.append(Modifier("defence", got - defence, _rule(t) or cr.terrain_rule,
                             f"defender in {t.name.lower()}: defence {defence} x {f} = {got}",
                             combat.defender_hex, (), "defender"))
        defence = got
    if adds:
        chosen = [max(adds, key=lambda x: x[0])] if cr.hex_terrain == "best" else adds
        for a, t in chosen:
            mods.append(Modifier("defence", a, _rule(t) or cr.terrain_rule,
                                 f"defender in {t.name.lower()}: {_signed(a)} defence", combat.defender_hex, (),
                                 "defender"))
            defence += a
    return attack, defence, mods, refusals


def _status_factor(combat: Combat, u, role: str) -> tuple[Fraction, Fraction, list, str]:
    """``(printed strength, factor, reasons, rounding)`` of ``u`` as ``role``: the product of
    the factors of its statuses (``attack_status`` / ``defence_status``), each noted with the
    status rule, and the rounding of the first status with its own (``status_round``)."""
    cr = combat.rs.combat
    attacking = role == "attacker"
    table = cr.attack_status if attacking else cr.defence_status
    value = Fraction(_num(cr.strength(u, "attack" if attacking else "defence")))
    factor = Fraction(1)
    reasons: list[tuple[str, str | None]] = []
    statuses = combat.statuses(u, role)
    for status, f in table.items():
        if status in statuses:
            factor *= Fraction(f)
            reasons.append((status.replace("_", " "), cr.status_rule))
    how = next((cr.status_round[st] for st in cr.status_round if st in statuses and st in table), cr.strength_round)
    return value, factor, reasons, how


def _sum_groups(kind: str, side: str, items: list, cr, rule: str | None) -> tuple[Fraction, list[Modifier]]:
    """The total of ``items`` (unit, value, factor, reasons): units with the same factor are
    added before it applies (``halve_together``; ``"hex"``: per hex; else each unit alone), each total rounded by
    ``strength_round``; a :class:`Modifier` for every factor other than 1."""
    groups: dict[tuple, list] = {}
    for u, value, factor, reasons, how in items:
        if cr.halve_together == "hex":
            key = (factor, how, u.hex or ())
        else:
            key = (factor, how) if cr.halve_together else (factor, how, u.id)
        groups.setdefault(key, []).append((u, value, reasons))
    total, mods = Fraction(0), []
    for key, members in sorted(groups.items(), key=lambda kv: (-kv[0][0], kv[0][1:])):
        factor, how = key[0], key[1]
        subtotal = sum((v for _, v, _ in members), Fraction(0))
        got = round_strength(subtotal * factor, how)
        total += got
        if factor != 1:
            ids = tuple(u.id for u, _, _ in members)
            names = ", ".join(dict.fromkeys(r for _, _, rs in members for r, _ in rs))
            cited = next((r for _, _, rs in members for _, r in rs if r), rule)
            rounded = f" (rounded {how})" if got != subtotal * factor else ""
            mods.append(Modifier(kind, got - subtotal, cited, f"{kind} of {', '.join(ids)} ({names}): "
                                 f"{subtotal} x {factor} = {got}{rounded}", members[0][0].hex, ids, side))
    return total, mods


def terrain_modifiers(combat: Combat) -> list[Modifier]:
    """Column shifts and DRMs of the defender's hex, the attackers' hexes and the hexsides crossed."""
    pos, cr = combat.pos, combat.rs.combat
    m = pos.map
    weather = pos.current_weather
    out: list[Modifier] = []
    for key in ("shift", "drm"):
        best, added = [], []
        for dh, code in [(d, c) for d in combat.defender_hexes for c in hex_codes(m, d)]:
            t = m.terrain_types.get(code)
            if t is None or key not in t.combat or not _applies(t.combat, weather):
                continue
            when = t.combat.get("when")
            if when == "ruleset":
                continue
            if when == "attacker_lower" and all(code in hex_codes(m, h) for h in combat.attacker_hexes):
                continue
            (added if t.combat.get("combine") == "add" or cr.hex_terrain == "add" else best).append(
                (int(t.combat[key]), t, dh))
        for h in combat.attacker_hexes:
            for code in hex_codes(m, h):
                t = m.terrain_types.get(code)
                if (t is not None and key in t.combat and t.combat.get("when") == "attacker_or_defender_in_hex"
                        and _applies(t.combat, weather)
                        and not any(code in hex_codes(m, d) for d in combat.defender_hexes)):
                    best.append((int(t.combat[key]), t, h))
        chosen = added + ([min(best, key=lambda x: x[0])] if best else [])
        for value, t, where in chosen:
            if value:
                place = "defender in" if where in combat.defender_hexes else "attacker in"
                out.append(Modifier(key, value, _rule(t) or cr.terrain_rule,
                                    f"{place} {t.name.lower()}: {_shift_text(key, value)}", where, (), "defender"))
        # hexsides: "any" attacker crossing (the defender's best), or only when "all" cross
        sides: dict[str, list] = {}
        for u in combat.attackers:
            for code in combat.crossing.get(u.id, ()):
                sides.setdefault(code, []).append(u)
        found = []
        for code, units in sides.items():
            t = m.hexside_types.get(code)
            if t is None or key not in t.combat or not _applies(t.combat, weather):
                continue
            if cr.hexside_applies == "all":
                units = [u for u in units if u.id in combat.all_cross(code)]
                if not units:
                    continue
            found.append((int(t.combat[key]), t, units))
        if found:
            value, t, units = min(found, key=lambda x: x[0])
            if value:
                out.append(Modifier(key, value, _rule(t) or cr.terrain_rule,
                                    f"attack across {t.name.lower()}: {_shift_text(key, value)}",
                                    units[0].hex, tuple(u.id for u in units), "defender"))
    return out


def status_weather_modifiers(combat: Combat) -> list[Modifier]:
    """Shifts for the defenders' statuses and the weather's shifts and DRMs."""
    cr = combat.rs.combat
    out = []
    for status, value in cr.status_shift.items():
        hit = [u.id for u in combat.defenders if status in combat.statuses(u, "defender")]
        if hit:
            out.append(Modifier("shift", int(value), cr.status_rule,
                                f"defender {', '.join(hit)} {status.replace('_', ' ')}: {_shift_text('shift', value)}",
                                combat.defender_hex, tuple(hit), "attacker" if value > 0 else "defender"))
    weather = combat.pos.current_weather
    for key, table in (("shift", cr.weather_shift), ("drm", cr.weather_drm)):
        if weather in table and table[weather]:
            out.append(Modifier(key, int(table[weather]), cr.weather_rule,
                                f"{weather} weather: {_shift_text(key, table[weather])}"))
    return out


def _num(value) -> Fraction:
    if isinstance(value, bool) or value is None:
        return Fraction(0)
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def _attacker_effect(u, t, key: str, what: str, cr, factor, value, reasons: list, mods: list):
    """One TEC combat effect ``t.combat[key]`` on an attacking unit (``what``: across, into,
    from): a factor (noted in ``reasons``, applied by the caller's halving) or a strength
    modifier (added to ``mods`` and to the value, never below 0). Returns the new factor and value."""
    eff = parse_effect(t.combat[key])
    if eff and eff[0] == "factor":
        reasons.append((f"{what} {t.name.lower()}", _rule(t) or cr.terrain_rule))
        return factor * eff[1], value
    if eff:
        mods.append(Modifier("attack", eff[1], _rule(t) or cr.terrain_rule,
                             f"{u.id} attacks {what} {t.name.lower()}: {_signed(eff[1])} attack",
                             u.hex, (u.id,), "attacker"))
        return factor, max(Fraction(0), value + eff[1])
    return factor, value


def _signed(value) -> str:
    return f"+{value}" if value >= 0 else str(value)


def shift_text(kind: str, value) -> str:
    """"1 column right", "2 columns left", "+1 on the die"."""
    value = int(value)
    if kind == "drm":
        return f"{_signed(value)} on the die"
    n = abs(value)
    return f"{n} column{'s' if n != 1 else ''} {'right' if value > 0 else 'left'}"


_shift_text = shift_text
