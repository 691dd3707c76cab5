"""Velikiye Luki 1942-1943 (Vae Victis): the referee's ruleset.

Rules cited as "n.n" are sections of the rulebook; "TEC" is its Terrain Effects Table. The
shared parts carry what data can say (stop on entering a ZOC, +2 MP to leave one, friendly
units do not negate a ZOC for movement, the stacking compositions of rule 5 checked at the end
of each phase, supply of any length blocked by enemy units and by enemy ZOC unless a friendly
unit is there, isolated then unsupplied). Python hooks add the rest:

* movement allowance: 6 MP infantry, 8 MP mechanised/motorised, halved when unsupplied (3.1,
  8.3); the Festung counters never move (1.6);
* road and rail (3.2): infantry always has the road/rail rate; a mechanised unit has it only
  when it moves alone or with infantry and enters no hex holding a friendly mechanised unit;
  the mechanised road rate and the bridge surcharge are options (rulebook conflicts);
* no move from one enemy ZOC to another of the same enemy unit (4.2.1), except ski units
  infiltrating infantry (4.4), which are not stopped by the ZOC they infiltrate;
* the Festung counters lose their ZOC while Velikiye Luki is encircled (4.2.2, 7.1, 7.2, 7.6);
* lakes: infantry may not enter them under the default reading of the TEC's "–" (option);
* the stacking compositions of rule 5 (a reduced division and one cadre make a division
  equivalent, 1.7);
* retreats (6.5.1): :func:`check_retreat` and :func:`retreat_options`, the priorities, the
  step lost per enemy ZOC entered without a friendly unit (4.3) and elimination when no hex
  is open;
* cadres (1.7): :func:`split_division`, :func:`reintegrate` and :func:`lose_step`.

Options (``RULESET.with_options(...)``, else the scenario's ``options``, else the game's,
else :data:`DEFAULTS`) settle the rulebook's conflicts; the defaults follow the reference
notes: ``mech_road_cost`` "1/2" (3.2 example) or "1" (TEC 6); ``bridge_mechanised`` "cancel"
(3.2) or "plus1" (TEC 9); ``lake_infantry`` "prohibited" or "1" (TEC 12's "–").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import RulesError
from ..hexes import Hex, Hexside
from ..referee import (MovementRules, Position, Reason, Ruleset, StackingRules, Step, SupplyRules, Unit,
                       ZocRules, board_of, zoc_counts)
from ..referee.reasons import Code

#: The default of every rule option (the reference notes' suggested rulings).
DEFAULTS = {
    "mech_road_cost": "1/2",
    "bridge_mechanised": "cancel",
    "lake_infantry": "prohibited",
    "first_turn_weather": "overcast",
    "mech_corps_limit": True,
}
_CHOICES = {
    "mech_road_cost": ("1/2", "1"),
    "bridge_mechanised": ("cancel", "plus1"),
    "lake_infantry": ("prohibited", "1"),
    "first_turn_weather": ("overcast", "cloudy"),
    "mech_corps_limit": (True, False),
}

MECH = "mechanised"
FRIENDLY_EDGE = {"german": -1, "soviet": +1}   # 6.5.1: west for the German, east for the Soviet
_NO_ZOC_TYPES = ("hq", "rocket artillery")        # 4.1: combat units only (HQs and MRLs are not)
_ARMOUR_TYPES = ("armour", "mechanised", "flame", "assault gun")


@dataclass
class VelikiyeLuki(Ruleset):
    """The Velikiye Luki ruleset: shared parts plus the hooks listed in the module docstring."""

    needs_python: tuple[str, ...] = (
        "3.1 movement allowance by class; 8.3 unsupplied half MA", "3.2 road/rail for mechanised units",
        "4.2.1 no ZOC to ZOC of the same unit", "4.4 ski infiltration", "4.2.2/7.6 Festung ZOC",
        "TEC 12 lake option", "5 division equivalent (1.7)", "6.5.1 retreats")

    # -- options --------------------------------------------------------------------------

    def with_options(self, **options) -> "VelikiyeLuki":
        """A copy of this ruleset with rule options set (they win over scenario and game)."""
        for name, value in options.items():
            if name not in _CHOICES:
                raise RulesError(f"unknown Velikiye Luki option {name!r}; options: {', '.join(_CHOICES)}")
            if value not in _CHOICES[name]:
                raise RulesError(f"option {name} must be one of {', '.join(map(str, _CHOICES[name]))}, not {value!r}")
        return dataclasses.replace(self, options={**self.options, **options})

    def option(self, pos: Position, name: str):
        """An option's value: this ruleset's, else the scenario's, else the game's, else the default."""
        if name in self.options:
            return self.options[name]
        scenario = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
        for source in (scenario.options if scenario else {}, pos.game.options):
            if name in source:
                return source[name]
        return DEFAULTS[name]

    # -- movement -------------------------------------------------------------------------

    def movement_allowance(self, pos, unit, mode):
        if unit.type == "fortress":
            return Fraction(0)
        ma = Fraction(8 if self.unit_class(pos, unit) == MECH else 6)   # 1.3, 3.1
        if "unsupplied" in unit.status:
            ma /= 2                                                      # 8.3
        return ma

    def can_move(self, pos, unit, mode):
        if unit.type == "fortress":
            return Reason(Code.CANNOT_MOVE, "1.6", f"{unit.id} is a Festung counter of Velikiye Luki and never moves",
                          unit.hex, (unit.id,))
        return super().can_move(pos, unit, mode)

    def step_rule(self, pos, units, step):
        ids = tuple(u.id for u in units)
        fmt = pos.map.format
        stop = step.stop
        owners = self.zoc_owners(pos, units[0].side)
        shared = owners.get(step.a, frozenset()) & owners.get(step.b, frozenset())
        if shared:
            ski = all(self.unit_class(pos, u) == "ski" for u in units)
            foot = all(self.is_infantry(pos, pos.units[e]) for e in shared)
            if not (ski and foot):
                who = ", ".join(sorted(shared))
                why = ("4.4", "ski units infiltrate enemy infantry only") if ski else \
                      ("4.2.1", "only ski units may infiltrate (4.4)")
                return Reason(Code.ZOC_TO_ZOC, why[0], f"may not move directly from {fmt(step.a)} to {fmt(step.b)}: "
                              f"both are in the ZOC of {who}; {why[1]}", step.b, ids)
            # 4.4: infiltrating skiers are stopped only by the ZOC of a unit they were not in
            stop = bool(owners.get(step.b, frozenset()) - owners.get(step.a, frozenset()))
        if (self.option(pos, "lake_infantry") == "prohibited" and pos.map.terrain(step.b) == "lake"
                and any(self.unit_class(pos, u) != MECH for u in units)):
            return Reason(Code.PROHIBITED_TERRAIN, "TEC 12", f"infantry may not enter the lake at {fmt(step.b)} "
                          "(the TEC prints '–'; option lake_infantry)", step.b, ids)
        base = self._terrain_or_line(pos, units, step)
        if base is None:
            return Reason(Code.PROHIBITED_TERRAIN, "TEC", f"{fmt(step.b)} cannot be entered", step.b, ids)
        cost = base + (2 if step.zoc_from else 0)                         # 4.2.1: +2 MP to leave
        if (self.option(pos, "bridge_mechanised") == "plus1" and any(self.unit_class(pos, u) == MECH for u in units)
                and "bridge" in pos.map.hexside_codes(Hexside.of(step.a, step.b))):
            cost += 1                                                     # TEC 9 as printed
        return dataclasses.replace(step, cost=cost, stop=stop)

    def _terrain_or_line(self, pos: Position, units: list[Unit], step: Step) -> Fraction | None:
        """The cheaper of the terrain cost and the road/rail rate this stack may use (3.2)."""
        codes = _line_codes(pos.map).get(Hexside.of(step.a, step.b), ())
        line = self._line_rate(pos, units, step.b, codes) if codes else None
        options = [c for c in (step.terrain, line) if c is not None]
        return min(options) if options else None

    def _line_rate(self, pos: Position, units: list[Unit], entering: Hex, codes) -> Fraction | None:
        moving = {u.id for u in units}
        mech_moving = sum(1 for u in units if self.unit_class(pos, u) == MECH)
        mech_there = any(u.id not in moving and u.side == units[0].side and not u.counter.is_marker
                         and u.counter.kind == "unit" and self.unit_class(pos, u) == MECH
                         for u in pos.at(entering))
        weather = pos.current_weather
        worst = Fraction(0)
        for unit in units:
            cls = self.unit_class(pos, unit)
            if cls == MECH and (mech_moving > 1 or mech_there):
                return None      # 3.2: stacked with, or crossing, another mechanised unit
            best = None
            for code in codes:
                if cls == MECH and code == "road":
                    rate = Fraction(self.option(pos, "mech_road_cost"))
                else:
                    found, rate = pos.map.line_types[code].move.lookup(cls, weather)
                    if not found or rate is None:
                        continue
                best = rate if best is None else min(best, Fraction(rate))
            if best is None:
                return None
            worst = max(worst, Fraction(best))
        return worst

    # -- zones of control -----------------------------------------------------------------

    def is_infantry(self, pos: Position, unit: Unit) -> bool:
        """Infantry in the sense of 4.4: a non-mechanised combat unit (ski, infantry, cadre, Festung)."""
        return self.unit_class(pos, unit) != MECH

    def exerts_zoc(self, pos, unit):
        if unit.counter.kind != "unit" or unit.type in _NO_ZOC_TYPES:
            return False
        if unit.type == "fortress":
            return not encircled(pos, self)                                 # 4.2.2, 7.6
        return True

    def zoc_owners(self, pos: Position, side: str | None) -> dict[Hex, frozenset]:
        """Hex -> the enemy units (of ``side``'s enemies) whose ZOC covers it (4.1)."""
        key = ("vl-zoc-owners", self.name, side, encircled(pos, self))
        cached = pos._cache.get(key)
        if cached is not None:
            return cached
        grid = pos.map.grid
        owners: dict[Hex, set] = {}
        for unit in pos.on_map():
            if unit.side == side or unit.side is None or not self.exerts_zoc(pos, unit):
                continue
            for h in (unit.hex, *grid.neighbours(unit.hex)):
                owners.setdefault(h, set()).add(unit.id)
        frozen = {h: frozenset(v) for h, v in owners.items()}
        pos._cache[key] = frozen
        return frozen

    # -- stacking (5) ---------------------------------------------------------------------

    def stack_category(self, pos, unit):
        size = unit.counter.size
        if unit.side == "german":
            return "de-I" if size == "I" else "de-III"                      # 5.2: III, KG, II alike
        if size == "XX":
            return "su-XX"
        if size == "II" or size == "I":
            return "su-II"
        if _is_cadre(unit) and _cadre_attached(pos, unit):
            return "su-cadre"                                                # 1.7: division equivalent
        return "su-III"                                                      # brigades and regiments

    # -- Velikiye Luki --------------------------------------------------------------------


def _is_cadre(unit: Unit) -> bool:
    return unit.counter.id.startswith("cadre")


def _cadre_attached(pos: Position, unit: Unit) -> bool:
    """True if this cadre pairs with a reduced Soviet division in its hex (1.7: with it, the
    division counts as a full one); each reduced division takes one cadre, lowest ids first."""
    here = pos.at(unit.hex)
    reduced = sum(1 for u in here if u.side == unit.side and u.counter.size == "XX" and u.reduced)
    cadres = sorted(u.id for u in here if u.side == unit.side and _is_cadre(u))
    return unit.id in cadres[:reduced]


_LINES: dict[int, tuple] = {}


def _line_codes(game_map) -> dict[Hexside, tuple[str, ...]]:
    entry = _LINES.get(id(game_map))
    if entry is None or entry[0] is not game_map:
        links = {side: tuple(dict.fromkeys(codes)) for side, codes in game_map.line_links().items()}
        entry = (game_map, links)
        _LINES[id(game_map)] = entry
    return entry[1]


def velikiye_luki_hexes(pos: Position) -> list[Hex]:
    """The city's hexes: where the Festung counters stand, else the place named Velikiye Luki."""
    hexes = sorted({u.hex for u in pos.on_map("german") if u.type == "fortress"})
    if hexes:
        return hexes
    return [p.hex for p in pos.map.places if p.name == "Velikiye Luki"]


def encirclement(pos: Position, rs: Ruleset) -> list[str]:
    """Why Velikiye Luki is not encircled (empty list: it is), per 7.1 and 7.2.

    Encircled: every hex next to the city holds a Soviet unit or lies in a Soviet ZOC with no
    German unit in it (7.1), and the Soviet units next to the city include two fusilier
    divisions or the equivalent (a division counts 3, an infantry regiment or brigade 2: "two
    divisions or three regiments or brigades") plus an armoured regiment or brigade (7.2).
    """
    city = velikiye_luki_hexes(pos)
    if not city:
        return ["Velikiye Luki is not on this map"]
    grid = pos.map.grid
    ring = sorted({n for h in city for n in grid.neighbours(h)} - set(city))
    soviet_zoc = zoc_counts(pos, rs, "soviet")
    board = board_of(pos.map)
    problems = []
    infantry, armour, seen = 0, 0, set()
    for h in ring:
        here = [u for u in pos.at(h) if u.counter.kind == "unit"]
        soviets = [u for u in here if u.side == "soviet"]
        germans = [u for u in here if u.side == "german"]
        if not soviets and (germans or not soviet_zoc[board.index[h]]):
            problems.append(f"{pos.map.format(h)} is neither held by a Soviet unit nor in a Soviet ZOC free of "
                            "German units (7.1)")
        for u in soviets:
            if u.id in seen:
                continue
            seen.add(u.id)
            cls = rs.unit_class(pos, u)
            if u.type in _ARMOUR_TYPES and u.counter.size in ("III", "X"):
                armour += 1
            elif cls != MECH and u.counter.size == "XX":
                infantry += 3
            elif cls != MECH and u.counter.size in ("III", "X") and u.type in ("infantry", "ski"):
                infantry += 2
    if infantry < 6:
        problems.append("fewer than two fusilier divisions or three infantry regiments/brigades next to the city (7.2)")
    if armour < 1:
        problems.append("no armoured regiment or brigade next to the city (7.2)")
    return problems


def encircled(pos: Position, rs: Ruleset) -> bool:
    """True while the Soviet encirclement of Velikiye Luki is in effect (7.1, 7.2)."""
    key = ("vl-encircled", rs.name)
    value = pos._cache.get(key)
    if value is None:
        value = not encirclement(pos, rs)
        pos._cache[key] = value
    return value


# -- cadres (1.7) ----------------------------------------------------------------------------


def _new_cadre(pos: Position, quality: str, hex: Hex) -> str:
    counter_id = f"cadre-{str(quality).lower()}"
    counter = pos.game.counters.get(counter_id)
    if counter is None:
        raise RulesError(f"there is no quality-{quality} cadre counter ({counter_id}) for 1.7")
    n = 1
    while (counter_id if n == 1 else f"{counter_id}#{n}") in pos.units:
        n += 1
    uid = counter_id if n == 1 else f"{counter_id}#{n}"
    pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=hex)
    pos.touch()
    return uid


def _division(pos: Position, unit_id: str, rule: str) -> Unit:
    unit = pos.unit(unit_id)
    if unit.side != "soviet" or unit.counter.size != "XX" or unit.counter.steps != 3:
        raise RulesError(f"{unit_id} is not a three-step Soviet infantry division ({rule})")
    if unit.hex is None:
        raise RulesError(f"{unit_id} is not on the map ({rule})")
    if unit.moved:
        raise RulesError(f"{unit_id} has moved: this is done at the beginning of its movement ({rule})")
    return unit


def split_division(pos: Position, division_id: str) -> str:
    """1.7.2: a full-strength Soviet division detaches a regiment at the start of its move: it
    is flipped to its reduced side and a cadre of its quality joins it in its hex (0 MP).
    Returns the cadre's unit id."""
    unit = _division(pos, division_id, "1.7.2")
    if unit.reduced:
        raise RulesError(f"{division_id} is not at full strength and cannot detach a regiment (1.7.2)")
    unit.steps -= 1
    return _new_cadre(pos, unit.value("quality"), unit.hex)


def reintegrate(pos: Position, division_id: str, cadre_id: str) -> None:
    """1.7.3: a reduced division takes back a cadre of equal or better quality in its hex at the
    start of its move: it returns to full strength and the cadre leaves the map."""
    unit = _division(pos, division_id, "1.7.3")
    cadre = pos.unit(cadre_id)
    if not _is_cadre(cadre):
        raise RulesError(f"{cadre_id} is not a cadre (1.7.3)")
    if unit.steps != unit.counter.steps - 1:
        raise RulesError(f"{division_id} must be on its reduced side to take back a cadre (1.7.3)")
    if cadre.hex != unit.hex:
        raise RulesError(f"{cadre_id} is not in {division_id}'s hex (1.7.3)")
    if str(cadre.value("quality")) > str(unit.value("quality")):        # "A" is the best
        raise RulesError(f"{cadre_id} (quality {cadre.value('quality')}) is worse than {division_id} "
                         f"(quality {unit.value('quality')}): 1.7.3 needs equal or better")
    unit.steps += 1
    del pos.units[cadre_id]
    pos.touch()


def lose_step(pos: Position, unit_id: str) -> str | None:
    """One step lost (1.3, 1.7.1): flip, or for a three-step division on its back replace it
    by a cadre of the same quality (returns the cadre's id); a last step eliminates."""
    unit = pos.unit(unit_id)
    if unit.counter.steps == 3 and unit.side == "soviet" and unit.steps == 2:
        hex = unit.hex
        del pos.units[unit_id]
        pos.touch()
        return _new_cadre(pos, unit.value("quality"), hex)
    unit.steps -= 1
    if unit.steps <= 0:
        unit.steps = 0
        pos.place(unit_id, None, "eliminated")
    else:
        pos.touch()
    return None


# -- retreats (6.5.1) ---------------------------------------------------------------------


@dataclass
class RetreatCheck:
    """The verdict on a retreat path: legal or the first bad step, and the steps lost in ZOC."""

    units: tuple[str, ...]
    path: list[Hex]
    losses: int = 0
    reason: Reason | None = None
    failed_step: int | None = None
    eliminated: bool = False
    steps: list = field(default_factory=list)     # {"hex", "zoc", "loss"}

    @property
    def ok(self) -> bool:
        return self.reason is None


def _retreat_key(pos: Position, rs: Ruleset, side: str, movers: set, h: Hex) -> tuple:
    """Lower is better: (in an enemy ZOC not cancelled by a friend, columns from the friendly
    edge, minus the distance to the nearest enemy unit) — the three priorities of 6.5.1."""
    friends = [u for u in pos.at(h) if u.side == side and u.id not in movers and u.counter.kind != "marker"]
    in_zoc = bool(rs.zoc_owners(pos, side).get(h)) and not friends
    towards = -FRIENDLY_EDGE[side] * h.col
    enemies = [u.hex for u in pos.on_map() if u.side not in (side, None) and u.counter.kind == "unit"]
    nearest = min((pos.map.grid.distance(h, e) for e in enemies), default=99)
    return (int(in_zoc), towards, -nearest)


def _open_hexes(pos: Position, rs: Ruleset, units: list[Unit], at: Hex, visited: set) -> list[Hex]:
    side = units[0].side
    out = []
    for n in pos.map.grid.neighbours(at):
        if n in visited:
            continue
        if any(u.side not in (side, None) and not u.counter.is_marker for u in pos.at(n)):
            continue                                  # 6.5.1: never into an enemy-occupied hex
        if not _passable(pos, rs, units, n):
            continue
        out.append(n)
    return out


def _passable(pos: Position, rs: Ruleset, units: list[Unit], h: Hex) -> bool:
    if pos.map.terrain(h) == "lake" and rs.option(pos, "lake_infantry") == "prohibited":
        return all(rs.unit_class(pos, u) == MECH for u in units)
    return True


def retreat_options(pos: Position, rs: "VelikiyeLuki", unit_ids, path: list[Hex] | None = None) -> list[Hex]:
    """The hexes the next retreat step may enter after ``path`` (the start hex first): those
    open to the units that rank best by the priorities of 6.5.1. Empty: eliminated."""
    units = [pos.unit(u) for u in ([unit_ids] if isinstance(unit_ids, str) else unit_ids)]
    path = list(path or [units[0].hex])
    movers = {u.id for u in units}
    open_ = _open_hexes(pos, rs, units, path[-1], set(path))
    if not open_:
        return []
    keys = {h: _retreat_key(pos, rs, units[0].side, movers, h) for h in open_}
    best = min(keys.values())
    return [h for h in open_ if keys[h] == best]


def check_retreat(pos: Position, rs: "VelikiyeLuki", unit_ids, path: list[Hex]) -> RetreatCheck:
    """Check a retreat ``path`` (hexes after the start hex, or starting with it) under 6.5.1.

    Each step must enter an open hex (not enemy-occupied, not impassable) that ranks best by
    the priorities; a step into an enemy ZOC without a friendly unit costs the stack one step
    (4.3). If no hex is open the stack is eliminated (``eliminated``, with the reason).
    """
    units = [pos.unit(u) for u in ([unit_ids] if isinstance(unit_ids, str) else unit_ids)]
    ids = tuple(u.id for u in units)
    start = units[0].hex
    if any(u.hex != start for u in units):
        raise RulesError("retreating units must start in one hex")
    path = list(path)
    if path and path[0] == start:
        path = path[1:]
    result = RetreatCheck(ids, [start, *path])
    side = units[0].side
    movers = set(ids)
    fmt = pos.map.format
    walked = [start]
    for n, h in enumerate(path, start=1):
        choices = retreat_options(pos, rs, ids, walked)
        if not choices and not _open_hexes(pos, rs, units, walked[-1], set(walked)):
            result.eliminated = True
            result.reason = Reason(Code.CUSTOM, "6.5.1", f"no hex is open to retreat from {fmt(walked[-1])}: "
                                   "the retreating units are eliminated", walked[-1], ids)
        elif h not in choices:
            why = _why_not(pos, rs, units, walked, h, choices)
            result.reason = Reason(Code.CUSTOM, "6.5.1", why, h, ids)
        if result.reason is not None:
            result.failed_step = n
            return result
        friends = [u for u in pos.at(h) if u.side == side and u.id not in movers and u.counter.kind != "marker"]
        zoc = bool(rs.zoc_owners(pos, side).get(h))
        loss = int(zoc and not friends)
        result.losses += loss
        result.steps.append({"hex": h, "zoc": zoc, "loss": loss})
        walked.append(h)
    if not path and not retreat_options(pos, rs, ids, walked):
        result.eliminated = True
        result.reason = Reason(Code.CUSTOM, "6.5.1", f"no hex is open to retreat from {fmt(start)}: the "
                               "retreating units are eliminated", start, ids)
    return result


def _why_not(pos, rs, units, walked, h, choices) -> str:
    fmt = pos.map.format
    if h not in pos.map.grid or not pos.map.grid.adjacent(walked[-1], h):
        return f"{fmt(h)} is not next to {fmt(walked[-1])}"
    if h in walked:
        return f"the retreat may not go back into {fmt(h)}"
    if any(u.side not in (units[0].side, None) and not u.counter.is_marker for u in pos.at(h)):
        return f"{fmt(h)} holds an enemy unit"
    if not _passable(pos, rs, units, h):
        return f"{fmt(h)} is impassable to the retreating units"
    better = ", ".join(fmt(c) for c in choices)
    return f"the retreat priorities (outside enemy ZOC, towards the friendly edge, away from the enemy) " \
           f"lead to {better}, not {fmt(h)}"


RULESET = VelikiyeLuki(
    name="velikiye-luki",
    game="velikiye-luki",
    title="Velikiye Luki 1942-1943 (Vae Victis)",
    movement=MovementRules(
        rule="3.1", terrain_rule="TEC", hexside_rule="TEC", line_rule="3.2", enemy_rule="6.5.1",
        feature_costs="ignore",             # TEC 4-5: village and city cost as the other terrain
        bridges_ignore_hexsides=True,       # 3.2: a bridge cancels the river's MP
    ),
    zoc=ZocRules(
        rule="4.2.1", kinds=("unit",), exempt_types=_NO_ZOC_TYPES,
        stop=True, leave_cost=2, zoc_to_zoc="allowed", zoc_to_zoc_rule="4.2.1",
        friendly_negates=False,             # 4.2.1: not for movement
    ),
    stacking=StackingRules(
        rule="5.1", points_value=None, default_points=1, limit=None,
        exempt_types=("hq", "fortress"), exempt_kinds=("marker", "hq"),    # 5.1: HQs and markers free
        compositions=(
            {"su-XX": 1, "su-cadre": 1, "su-III": 1},   # 5.1: a division (or equivalent) + X/III
            {"su-XX": 1, "su-cadre": 1, "su-II": 1},    # ... or + a battalion
            {"su-III": 3, "su-II": 1},                  # up to three regiments/brigades + a battalion
            {"su-III": 2, "su-II": 2},                  # two regiments/brigades + two battalions
            {"de-III": 3, "de-I": 1},                   # 5.2: three regiments, KG or battalions + a company
        ),
        composition_rule="5.1", when="phase",
    ),
    supply=SupplyRules(
        rule="8.1", max_length=None, road_lines=(), enemy_blocks=True, ezoc_blocks=True,
        friendly_negates=True, hexsides_block=False, trace_class=MECH,
        ladder=("isolated", "unsupplied"), ladder_rule="8.3",
    ),
)
