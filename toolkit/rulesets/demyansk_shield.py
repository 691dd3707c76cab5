"""Demyansk Shield (Legion Wargames 2017) as referee parts plus the hooks its rules need.

Rules are cited by rulebook section. Data carries the TEC (maps/demyansk-shield/map.yaml); the
parts below carry the movement, ZOC, stacking and supply policy; the hooks carry what data
cannot say:

- woods adds to the other terrain (8.31): ``feature_costs="add"``;
- a road may not be used to enter an enemy ZOC; the unit pays the other terrain but not woods,
  and heavy units pay the road on swamp (8.36c);
- an engineer takes 1 MP off a river crossing next to it and lets heavy units cross a major
  river in Dry/Mud (8.33b, 8.35b); heavy units may not leave swamp off road in Dry/Mud (8.35a);
- +1 MP into an active enemy Strongpoint (14.13); no ZOC into one (3.25, 14.14); no
  infiltration into one (9.23); supply never traces through one (6.22, 14.12);
- ZOC to ZOC only by infiltration (MA 7+, all MP, 8.22, 9.2); no-ZOC band units (3.24);
- strategic movement (+2, armor/recon +4) only along a friendly Supply Road (9.1);
  exploitation at half MA (8.4), ski units only in Frozen (8.44);
- Supply Shortages (-2 MP, no strategic, 6.53); Receiving Replacements (15.23);
- entry from a Map Box through its Entry hexes (9.35a): :func:`reachable_from_box`;
- supply at the moment of combat with airfields, printed Strongpoints and the constructed
  airfield (6.3): :func:`supply`.

Where the rulebook contradicts itself the notes' suggested ruling is the default and the other
reading is an option of :func:`make_ruleset` (see docs/games/demyansk-shield.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from ..hexes import Hex
from ..referee import (MovementMode, MovementRules, Reason, Ruleset, StackingRules, Step,
                       SupplyRules, ZocRules, board_of, reachable)
from ..referee.board import NO
from ..referee.reasons import Code

HEAVY_TYPES = ("armor", "artillery", "rocket artillery", "recon")   # 8.35
BOX_OF_COLOUR = {"red": "nwf", "yellow": "valday", "green": "swf"}   # 9.32-9.33
WET = ("dry", "mud")                                                 # 8.34, 8.35: not Frozen
SP_FEATURE = {"axis": "strongpoint", "soviet": "soviet_strongpoint"}  # printed, by owner (14.11)
SP_MARKER = "m-sp"                                                   # built Axis Strongpoint (14.32)
AIRFIELD_MARKER = "m-airfield"                                       # constructed airfield (14.5)
NON_ACTIVE = ("non_active", "destroyed", "under_construction")       # marker statuses (14.32)

#: Options and their defaults (the notes' suggested rulings; docs/games/demyansk-shield.md).
DEFAULT_OPTIONS = {
    # 3.31 (Soviet armor battalions have no dots) over the 11.41 note ("not ignored for stacking")
    "soviet_armor_battalions_free": True,
    # 3.22 "except those prohibited to its movement": prohibited hexsides only (lake sides in
    # Dry/Mud), or literally, also the swamp hexes heavy units may not enter in Dry/Mud
    "restricted_zoc_into_swamp": False,
    # 6.33 (any friendly airfield supplies all Axis units) vs 6.35 (the constructed airfield
    # supplies defending units only): 6.35 governs the constructed airfield
    "constructed_airfield_limited": True,
    # 8.31 text ("the highest MP cost" of a mixed hex) vs its example (woods added: 2707 = 2 + 1)
    "woods": "add",
    # 11.17 and 11.31 (initial odds of at least 1-3) vs 12.12 ("worse than 1-4 are not allowed")
    "minimum_odds": "1-3",
    # 10.13e (no support from an enemy ZOC) vs 10.32 (may support attacks on adjacent enemies)
    "artillery_in_zoc_supports_adjacent": True,
}


def _enemy(side: str | None) -> str:
    return "soviet" if side == "axis" else "axis"


def _is_heavy(unit) -> bool:
    return unit.type in HEAVY_TYPES


def _markers_at(pos, hex: Hex, counter_id: str) -> list:
    return [u for u in pos.at(hex) if u.counter.id == counter_id or u.id.split("#")[0] == counter_id]


def active_strongpoint_owner(pos, hex: Hex) -> str | None:
    """The side owning an active Strongpoint on ``hex`` (printed or built), else None (14.1)."""
    markers = _markers_at(pos, hex, SP_MARKER)
    if any(not (set(m.status) & set(NON_ACTIVE)) for m in markers):
        return "axis"   # only the Axis builds Strongpoints (14.31)
    destroyed = any(set(m.status) & set(NON_ACTIVE) for m in markers)
    feats = pos.map.features(hex)
    for side, code in SP_FEATURE.items():
        if code in feats and not destroyed:
            return side
    return None


def printed_strongpoint_owner(pos, hex: Hex) -> str | None:
    """The owner of a non-destroyed Strongpoint printed on ``hex`` (6.34), else None."""
    if any(set(m.status) & set(NON_ACTIVE) for m in _markers_at(pos, hex, SP_MARKER)):
        return None
    feats = pos.map.features(hex)
    for side, code in SP_FEATURE.items():
        if code in feats:
            return side
    return None


def _no_zoc_band(unit) -> bool:
    return "no-zoc" in unit.counter.marks or bool(unit.counter.band)


# -- zones of control (3.2) with the Strongpoint exception the shared parts cannot express -----


def zoc_of(pos, rs: "DemyanskShield", side: str) -> list[int]:
    """Per board index, how many units of ``side`` exert a ZOC there (3.21-3.27, 9.34)."""
    key = ("ds-zoc", rs.name, side, pos.current_weather)
    out = pos._cache.get(key)
    if out is not None:
        return out
    board = board_of(pos.map)
    out = [0] * board.n
    weather = pos.current_weather
    for unit in pos.on_map(side):
        if unit.counter.kind != "unit" or unit.type == "air":
            continue   # air units and markers never exert a ZOC (3.27)
        i = board.index[unit.hex]
        out[i] += 1   # a unit always controls its own hex (3.21, 3.24)
        if not rs.exerts_zoc(pos, unit):
            continue
        cls = rs.unit_class(pos, unit) if rs.options["restricted_zoc_into_swamp"] else "foot"
        enter = board.enter_costs(cls, weather)
        sides = board.side_costs(cls, weather)
        for k, j in board.nb[i]:
            if sides.get(k, 0) == NO:
                continue   # not across a hexside prohibited to its movement (3.22)
            if rs.options["restricted_zoc_into_swamp"] and enter[j] == NO and board.terrain[j] != "lake":
                continue
            if active_strongpoint_owner(pos, board.hexes[j]) == _enemy(side):
                continue   # not into an active enemy Strongpoint (3.25, 14.14)
            out[j] += 1
    pos._cache[key] = out
    return out


def in_enemy_zoc(pos, rs: "DemyanskShield", side: str, hex: Hex) -> bool:
    """True if ``hex`` is in the ZOC of a unit of the enemy of ``side``."""
    return zoc_of(pos, rs, _enemy(side))[board_of(pos.map).index[hex]] > 0


# -- supply (6.0) -------------------------------------------------------------------------------


@dataclass
class Supply:
    """Supply of one side at one moment: who is supplied, by which source and route."""

    side: str
    supplied: set = field(default_factory=set)
    unsupplied: set = field(default_factory=set)
    source: dict = field(default_factory=dict)     # unit id -> source hex
    paths: dict = field(default_factory=dict)      # unit id -> [unit hex, ..., source hex]
    reasons: dict = field(default_factory=dict)    # unit id -> Reason
    road: set = field(default_factory=set)         # hexes of the friendly Supply Road network


def _controls_airfield(pos, rs, hex: Hex, side: str) -> bool:
    # 3.12 control from a snapshot: the occupant, else an uncontested ZOC, else its owner (Axis)
    occupants = {u.side for u in pos.at(hex) if not u.counter.is_marker and u.side}
    if occupants:
        return side in occupants
    mine = zoc_of(pos, rs, side)[board_of(pos.map).index[hex]] > 0
    theirs = zoc_of(pos, rs, _enemy(side))[board_of(pos.map).index[hex]] > 0
    if mine != theirs:
        return mine
    return side == "axis"


def _play_rows(pos) -> tuple[int, int]:
    """The rows in play: Scenario 2 uses only the map west of the line 1117-3917 (19.22)."""
    scen = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    area = (scen.options.get("play_area") or {}) if scen else {}
    rows = area.get("rows") if isinstance(area, dict) else None
    return (rows[0], rows[1]) if rows else (pos.map.grid.first_row, pos.map.grid.last_row)


def _sources(pos, rs, side: str) -> dict[Hex, str]:
    """Map supply sources of ``side`` active now -> kind (6.31, 16.14, 19.23)."""
    out: dict[Hex, str] = {}
    scen = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    extra = set((scen.options.get("scenario_supply_sources") or []) if scen else [])
    for src in pos.map.supply:
        if src.side != side or not src.active(pos.turn):
            continue
        if src.kind == "scenario-2" and not extra:
            continue   # 2219 and 2518 are sources in Scenario 2 only (19.23)
        if src.kind == "airfield":
            continue   # airfields are handled with their limits (6.33)
        for h in src.hexes:
            out[h] = src.kind
    return out


def _trace(pos, rs, side: str, sources: list[Hex], limit: int | None, roads: bool):
    """Multi-source search: road stage (one break, 6.23) then at most ``limit`` hexes overland."""
    board = board_of(pos.map)
    weather = pos.current_weather
    enemy_zoc = zoc_of(pos, rs, _enemy(side))
    blocked = bytearray(board.n)
    friendly = bytearray(board.n)
    for u in pos.on_map():
        if u.counter.is_marker or not u.side:
            continue
        i = board.index[u.hex]
        if u.side == side:
            friendly[i] = 1
        else:
            blocked[i] = 1   # enemy combat units (6.24)
    rows = _play_rows(pos)
    for i, h in enumerate(board.hexes):
        if not rows[0] <= h.row <= rows[1]:
            blocked[i] = 1   # outside the scenario's map area (19.22)
        if enemy_zoc[i] and not friendly[i]:
            blocked[i] = 1   # enemy ZOC unless a friendly combat unit is there (6.24)
        if active_strongpoint_owner(pos, h) == _enemy(side):
            blocked[i] = 1   # an active enemy Strongpoint (6.22, 14.12)
    # prohibited hexsides (a lake in Dry or Mud, 6.22 example) and lake hexes in Dry/Mud
    enter = board.enter_costs("foot", weather)
    side_cost = board.side_costs("foot", weather, bridges_ignore=False)
    bad = {k for k, c in side_cost.items() if c == NO}
    for i in range(board.n):
        for k, j in board.nb[i]:
            if enter[j] == NO:
                bad.add(k)
    prev: dict[int, int] = {}
    seeds: dict[int, int] = {}
    queue = deque()
    for h in sources:
        i = board.index.get(h)
        if i is not None and not blocked[i] and i not in seeds:
            seeds[i], prev[i] = 0, -1
            queue.append((i, 0))
    road_hexes: set[int] = set()
    if roads:
        road_links = {k for k, codes in board.line_codes.items() if "road" in codes}
        on_road = {k // 6 for k in road_links}
        while queue:
            i, used = queue.popleft()
            if seeds.get(i) != used:
                continue
            for k, j in board.nb[i]:
                if blocked[j] or k in bad:
                    continue
                if k in road_links:
                    nused = used
                elif i in on_road and j in on_road and used < rs.supply.road_breaks:
                    nused = used + 1   # the one road break of 6.23 (2024 -> 2025)
                else:
                    continue
                if j in seeds and seeds[j] <= nused:
                    continue
                seeds[j], prev[j] = nused, i
                (queue.appendleft if nused == used else queue.append)((j, nused))
        road_hexes = {i for i in seeds if i in on_road}
    dist = {i: 0 for i in seeds}
    queue = deque(seeds)
    while queue:
        i = queue.popleft()
        d = dist[i] + 1
        if limit is not None and d > limit:
            continue
        for k, j in board.nb[i]:
            if j in dist or k in bad:
                continue
            dist[j] = d if not blocked[j] else -d   # a unit's own hex never blocks its own line
            prev[j] = i
            if not blocked[j]:
                queue.append(j)
    return board, dist, prev, {board.hexes[i] for i in road_hexes}


def supply(pos, side: str | None = None, rs: "DemyanskShield | None" = None,
           defending: frozenset | set = frozenset()) -> Supply:
    """Supply of ``side``'s on-map units now: judged at the moment of combat (6.13, 6.41).

    A Supply Route is a Supply Line of at most 7 hexes to a source or to a Supply Road leading
    to one, with one road break (6.21-6.23); enemy units, enemy ZOC without a friendly unit
    and active enemy Strongpoints block it (6.22, 6.24). Sources: map sources (6.31, 16.14;
    2219/2518 in Scenario 2, 19.23), friendly airfields for every Axis unit and for Soviet
    parachute/Abn units (6.33), the constructed airfield for ``defending`` units only (6.35),
    and a non-destroyed printed Strongpoint for the units on it (6.34).
    """
    rs = rs or RULESET
    side = side or pos.side or "axis"
    result = Supply(side=side)
    limit = rs.supply.max_length
    board, dist, prev, road = _trace(pos, rs, side, list(_sources(pos, rs, side)), limit, True)
    result.road = road
    fields = []
    for h, c in pos.map.hexes.items():
        if "airfield" in c.features:
            fields.append((h, "printed"))
    for m in pos.units.values():
        if m.hex is not None and m.id.split("#")[0] == AIRFIELD_MARKER and not set(m.status) & set(NON_ACTIVE):
            fields.append((m.hex, "constructed"))
    friendly_fields = [(h, kind) for h, kind in fields if _controls_airfield(pos, rs, h, side)]
    full = [h for h, kind in friendly_fields
            if kind == "printed" or not rs.options["constructed_airfield_limited"]]
    limited = [h for h, kind in friendly_fields if kind == "constructed" and rs.options["constructed_airfield_limited"]]
    air = _trace(pos, rs, side, full, limit, True) if full else None
    air_limited = _trace(pos, rs, side, limited, limit, True) if limited else None

    def route(found, j):
        _, _, p, _ = found
        path, i = [], j
        while i != -1 and len(path) <= board.n:
            path.append(board.hexes[i])
            i = p.get(i, -1)
        return path

    for unit in pos.on_map(side):
        if unit.counter.is_marker or unit.type == "air":
            continue
        j = board.index[unit.hex]
        airborne = unit.type == "parachute" or "Abn" in unit.counter.name
        found = None
        if printed_strongpoint_owner(pos, unit.hex) == side:
            result.paths[unit.id] = [unit.hex]   # 6.34: a source to the units on it only
        elif j in dist:
            found = (board, dist, prev, road)
        elif air and j in air[1] and (side == "axis" or airborne):
            found = air
        elif air_limited and j in air_limited[1] and unit.id in defending and (side == "axis" or airborne):
            found = air_limited
        elif unit.id not in result.paths:
            result.unsupplied.add(unit.id)
            result.reasons[unit.id] = Reason(
                Code.SUPPLY_NONE, "6.2",
                f"{unit.id} at {pos.map.format(unit.hex)} traces no Supply Route: no source or friendly Supply "
                f"Road within 7 hexes clear of enemy units, enemy ZOC and enemy Strongpoints", unit.hex, (unit.id,))
            continue
        if found is not None:
            result.paths[unit.id] = route(found, j)
        result.supplied.add(unit.id)
        result.source[unit.id] = result.paths[unit.id][-1]
    return result


# -- the ruleset -------------------------------------------------------------------------------


class DemyanskShield(Ruleset):
    """The shared parts plus the Demyansk Shield hooks (module docstring)."""

    def unit_class(self, pos, unit) -> str:
        return "heavy" if _is_heavy(unit) else "foot"

    def exerts_zoc(self, pos, unit) -> bool:
        # 3.24: a no-ZOC band unit exerts one only if stacked with a unit without the band
        if unit.counter.kind != "unit" or unit.type == "air" or unit.hex is None:
            return False
        if not _no_zoc_band(unit):
            return True
        return any(o.side == unit.side and o.counter.kind == "unit" and o.type != "air" and not _no_zoc_band(o)
                   for o in pos.at(unit.hex))

    def stack_points(self, pos, unit) -> Fraction:
        if unit.type == "air" or unit.counter.kind != "unit":
            return Fraction(0)   # air units and markers never count (3.31, 13.13)
        pts = Fraction(unit.counter.front.get("stacking", 1) or 0)
        if (not self.options["soviet_armor_battalions_free"] and unit.side == "soviet" and unit.type == "armor"
                and unit.counter.size == "II" and pts == 0):
            pts = Fraction(1)   # the 11.41-note reading: additional armor is not ignored for stacking
        return pts

    def movement_allowance(self, pos, unit, mode) -> Fraction:
        ma = super().movement_allowance(pos, unit, mode)
        if "shortage" in unit.status:
            ma -= 2   # Soviet Supply Shortages: each unit loses 2 MP (6.53)
        for s in unit.status:
            if s.startswith("entry_cost_"):   # MP spent on the Entry hex (9.35a)
                ma -= Fraction(s[len("entry_cost_"):].replace("_", "/"))
        return max(ma, Fraction(0))

    def can_move(self, pos, unit, mode):
        # the search calls can_move for every mover just before it prices steps: remember the
        # mode so that step_rule can apply the strategic-movement conditions (9.11)
        pos._cache[("ds-mode", unit.id)] = mode.name
        why = super().can_move(pos, unit, mode)
        if why is not None:
            return why
        weather = pos.current_weather
        ids = (unit.id,)
        if unit.value("movement", 0) == 0:
            return Reason(Code.CANNOT_MOVE, "8.0", f"{unit.id} is printed on the map (MA 0) and cannot move",
                          unit.hex, ids)
        if (_is_heavy(unit) and weather in WET and unit.hex is not None and pos.map.terrain(unit.hex) == "swamp"
                and not _road_hex(pos, unit.hex)):
            return Reason(Code.CANNOT_MOVE, "8.35a", f"{unit.id} ({unit.type}) is on swamp without a road in "
                          f"{weather} weather and cannot move until it is Frozen", unit.hex, ids)
        if mode.name == "strategic":
            for s, rule, what in (("shortage", "6.53", "is under Supply Shortages"),
                                  ("air_transported", "7.11", "arrived by air transport this phase"),
                                  ("receiving_replacements", "15.23", "is receiving replacements")):
                if s in unit.status:
                    return Reason(Code.MODE_NOT_ALLOWED, rule, f"{unit.id} {what}: no strategic movement",
                                  unit.hex, ids)
            if _adjacent_enemy(pos, unit):
                return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{unit.id} begins adjacent to an enemy combat unit: "
                              f"no strategic movement", unit.hex, ids)
            if unit.hex not in supply(pos, unit.side, self).road:
                return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{unit.id} at {pos.map.format(unit.hex)} is not on a "
                              f"friendly Supply Road", unit.hex, ids)
        if mode.name == "exploitation":
            if not unit.counter.front.get("em"):
                return Reason(Code.MODE_NOT_ALLOWED, "8.42a", f"{unit.id} has no Exploitation Movement box",
                              unit.hex, ids)
            if unit.type == "ski" and weather != "frozen":
                return Reason(Code.MODE_NOT_ALLOWED, "8.44", f"ski unit {unit.id} may exploit only in Frozen "
                              f"weather", unit.hex, ids)
            if "enemy_rbc" in unit.status:
                return Reason(Code.MODE_NOT_ALLOWED, "8.43", f"{unit.id} attacked a hex that Retreated Before "
                              f"Combat: no exploitation", unit.hex, ids)
        return None

    def step_rule(self, pos, units, step: Step):
        board = board_of(pos.map)
        side = units[0].side
        weather = pos.current_weather
        ids = tuple(u.id for u in units)
        fmt = pos.map.format
        ez_a = in_enemy_zoc(pos, self, side, step.a)
        ez_b = in_enemy_zoc(pos, self, side, step.b)
        k = board.k_of(step.a, step.b)
        road_link = k in board.line_codes and "road" in board.line_codes[k]
        heavy = any(_is_heavy(u) for u in units)
        mode = pos._cache.get(("ds-mode", units[0].id), "normal")
        cost = step.cost
        if mode == "strategic":
            if active_strongpoint_owner(pos, step.b) == _enemy(side):
                return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"strategic movement may not enter the active enemy "
                              f"Strongpoint at {fmt(step.b)}", step.b, ids)
            if step.b not in supply(pos, side, self).road:
                return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{fmt(step.b)} is not part of a friendly Supply Road",
                              step.b, ids)
        # 8.36c: no road rate into an enemy ZOC: the other terrain, without woods; heavy units
        # on a road onto swamp in Dry/Mud pay the road
        if step.used_line and ez_b:
            if heavy and weather in WET and pos.map.terrain(step.b) == "swamp":
                pass
            elif step.terrain is None:
                return Reason(Code.PROHIBITED_TERRAIN, "8.36c", f"the road may not be used to enter the enemy ZOC at "
                              f"{fmt(step.b)} and its terrain is prohibited", step.b, ids)
            else:
                cost = _cost_without_woods(pos, self, units, k, board.index[step.b])
        # 8.35a: heavy units may not leave swamp off road in Dry/Mud
        if (heavy and weather in WET and pos.map.terrain(step.a) == "swamp" and not step.used_line):
            return Reason(Code.PROHIBITED_TERRAIN, "8.35a", f"{ids[0]} may leave swamp at {fmt(step.a)} only along a "
                          f"road in {weather} weather", step.b, ids)
        codes = board.side_codes.get(k, ()) if k is not None else ()
        rivers = [c for c in codes if c in ("river", "major_river")]
        bridged = k in board.bridged
        stop = step.stop
        if rivers and not bridged:
            engineer = _engineer_at(pos, side, (step.a, step.b), units)
            if "major_river" in rivers and heavy and weather in WET and not engineer:
                return Reason(Code.PROHIBITED_HEXSIDE, "8.35b", f"{ids[0]} may cross the unbridged major river into "
                              f"{fmt(step.b)} in {weather} weather only with an engineer there", step.b, ids)
            crossing = max(board.side_costs(self.unit_class(pos, u), weather).get(k, 0) for u in units)
            if engineer and not step.used_line and crossing > 0:
                cost -= min(Fraction(1), board.to_mp(crossing))   # 8.33b: one MP off the crossing
                if any(u.type == "engineer" for u in units):
                    stop = True   # an engineer that crosses at the reduced cost ceases movement
        rows = _play_rows(pos)
        if not rows[0] <= step.b.row <= rows[1]:
            return Reason(Code.OFF_MAP, "19.22", f"{fmt(step.b)} is outside this scenario's map area", step.b, ids)
        # 14.13: +1 MP into an active enemy Strongpoint
        if active_strongpoint_owner(pos, step.b) == _enemy(side):
            cost += 1
        # ZOC (3.25 aware): stop on entry, ZOC to ZOC only by infiltration (8.21, 8.22, 9.2)
        if ez_b:
            stop = True
            if ez_a:
                if not (step.first and all(self.may_infiltrate(pos, u) for u in units)):
                    return Reason(Code.ZOC_TO_ZOC, "8.22", f"may not move directly from enemy ZOC at {fmt(step.a)} "
                                  f"to enemy ZOC at {fmt(step.b)} (only infiltration, 9.2)", step.b, ids)
                if active_strongpoint_owner(pos, step.b) == _enemy(side):
                    return Reason(Code.ZOC_TO_ZOC, "9.23", f"infiltration may not enter the active enemy Strongpoint "
                                  f"at {fmt(step.b)}", step.b, ids)
                ma = min(self.movement_allowance(pos, u, self.mode(mode)) for u in units)
                cost = max(cost, ma - step.spent)   # 9.21: by spending all its MPs
        elif step.stop and not ez_b:
            stop = False   # the shared parts saw a ZOC the Strongpoint exception removes (3.25)
        return Step(step.a, step.b, cost, step.terrain, step.line, step.used_line, int(ez_a), int(ez_b),
                    step.first, step.spent, stop)

    def may_infiltrate(self, pos, unit) -> bool:
        if "receiving_replacements" in unit.status:
            return False   # 15.23
        return Fraction(unit.counter.front.get("movement", 0) or 0) >= 7   # 9.22: printed MA 7+

    def supply_sources(self, pos, side):
        # for the shared supply search (hexforge referee supply): map sources and, for the Axis,
        # printed friendly airfields; :func:`supply` adds the per-unit limits of 6.33-6.35
        out = list(_sources(pos, self, side))
        if side == "axis":
            out += [h for h, c in pos.map.hexes.items() if "airfield" in c.features
                    and _controls_airfield(pos, self, h, side)]
        return out


def _road_hex(pos, hex: Hex) -> bool:
    return any(hex in ln.hexes for ln in pos.map.lines if ln.code == "road")


def _adjacent_enemy(pos, unit) -> bool:
    for n in pos.map.grid.neighbours(unit.hex):
        if any(o.side not in (None, unit.side) and o.counter.kind == "unit" and o.type != "air" for o in pos.at(n)):
            return True
    return False


def _engineer_at(pos, side, hexes, movers) -> bool:
    for h in hexes:
        for u in pos.at(h):
            if u.side == side and u.type == "engineer":
                return True
    return any(u.type == "engineer" for u in movers)


def _cost_without_woods(pos, rs, units, k, j) -> Fraction:
    # 8.36c: woods "cease to be a movement obstacle" for a unit leaving the road into an enemy ZOC
    board = board_of(pos.map)
    weather = pos.current_weather
    worst = 0
    for cls in {rs.unit_class(pos, u) for u in units}:
        worst = max(worst, board.enter_costs(cls, weather, "ignore")[j]
                    + max(0, board.side_costs(cls, weather).get(k, 0)))
    return board.to_mp(worst)


def make_ruleset(**options) -> DemyanskShield:
    """The Demyansk Shield ruleset with ``options`` (see :data:`DEFAULT_OPTIONS`) changed."""
    unknown = set(options) - set(DEFAULT_OPTIONS)
    if unknown:
        from ..errors import RulesError
        raise RulesError(f"unknown Demyansk Shield option(s) {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(DEFAULT_OPTIONS)}")
    opts = {**DEFAULT_OPTIONS, **options}
    return DemyanskShield(
        name="demyansk-shield",
        game="demyansk-shield",
        title="Demyansk Shield (Legion Wargames 2017)",
        movement=MovementRules(
            rule="8.1", terrain_rule="8.31", hexside_rule="8.34", line_rule="8.36", enemy_rule="8.14",
            feature_costs=opts["woods"],  # 8.31 example: woods +1 on top of rough
            lines=("road",),              # the railroad gives no movement (8.36b: bridges only)
            line_into_ezoc=True,          # 8.36c is priced in step_rule (woods ignored, heavy on swamp)
            bridges_ignore_hexsides=True,  # 8.36b
            modes={
                # infiltration is priced in step_rule (the shared shortcut would skip 9.23)
                "normal": MovementMode("normal", infiltration=False),
                "strategic": MovementMode("strategic", rule="9.1", ma_bonus=2,
                                          ma_bonus_by_type={"armor": 4, "recon": 4}, road_only=True,
                                          lines=("road",), near_enemy=False, no_weathers=("mud",),
                                          infiltration=False),
                "exploitation": MovementMode("exploitation", rule="8.4", ma_factor=Fraction(1, 2), round="down",
                                             needs_status="exploit", no_weathers=("mud",),
                                             infiltration=False),
            },
        ),
        zoc=ZocRules(
            rule="8.2", kinds=("unit",), exempt_types=("air",),
            prohibited_class="own" if opts["restricted_zoc_into_swamp"] else "foot",
            stop=True, zoc_to_zoc="allowed",   # 8.22 and infiltration (9.2) are in step_rule
            zoc_to_zoc_rule="8.22", infiltration_rule="9.2", friendly_negates=False,
        ),
        stacking=StackingRules(rule="3.32", limit=7, points_value="stacking", default_points=1,
                               exempt_types=("air",), exempt_kinds=("marker",), when="phase"),
        supply=SupplyRules(rule="6.2", source_kinds=("edge", "scenario-2"), max_length=7, road_lines=("road",),
                           road_breaks=1, enemy_blocks=True, ezoc_blocks=True, friendly_negates=True,
                           hexsides_block=True, trace_class="foot", ladder=("out_of_supply",), ladder_rule="6.4"),
        options=opts,
        needs_python=("8.31 woods", "8.33b engineers", "8.35 heavy units", "8.36c road into ZOC",
                      "3.25 Strongpoints and ZOC", "9.1 Supply Road", "9.2 infiltration", "9.35 map boxes",
                      "6.3 airfields and Strongpoints as sources"),
    )


RULESET = make_ruleset()


# -- map boxes (9.3) ---------------------------------------------------------------------------


def entry_box(unit) -> str:
    """The Map Box a unit enters from: AGN for the Axis, the box of its colour for the Soviet (9.33)."""
    if unit.side == "axis":
        return "agn"
    return BOX_OF_COLOUR.get(unit.counter.front.get("box"), "nwf")


def reachable_from_box(pos, rs: DemyanskShield, unit_ids, mode: str | None = None):
    """Hexes units in a Map Box can reach entering through its Entry hexes (9.35a).

    Returns ``(reach, refusals)``: ``reach`` maps each reachable hex to the MP left, and
    ``refusals`` the Entry hexes that may not be used, with the reason. The Entry hex is the
    first hex entered and costs its terrain (or the road rate if a road leaves the map there);
    an Entry hex holding an enemy combat unit may not be used; the move stops in an enemy ZOC.
    """
    if isinstance(unit_ids, str):
        unit_ids = [unit_ids]
    units = [pos.unit(u) for u in unit_ids]
    boxes = {u.box for u in units}
    if len(boxes) != 1 or None in boxes:
        raise ValueError("units entering together must all be in one Map Box")
    box_id = boxes.pop()
    box = pos.map.box(box_id)
    side = units[0].side
    ids = tuple(u.id for u in units)
    refusals: dict[Hex, Reason] = {}
    wrong = [u for u in units if entry_box(u) != box_id]
    if wrong or box is None or not box.entry:
        why = Reason(Code.CUSTOM, "9.32", f"{ids[0]} may enter only from the {entry_box(units[0]).upper()} box",
                     None, ids)
        return {}, {None: why}
    weather = pos.current_weather
    board = board_of(pos.map)
    out: dict[Hex, Fraction] = {}
    for h in box.entry:
        if any(o.side not in (None, side) and o.counter.kind == "unit" for o in pos.at(h)):
            refusals[h] = Reason(Code.ENEMY_OCCUPIED, "9.35a",
                                 f"entry hex {pos.map.format(h)} holds an enemy combat unit",
                                 h, ids)
            continue
        classes = {rs.unit_class(pos, u) for u in units}
        costs = [board.enter_costs(c, weather, rs.movement.feature_costs)[board.index[h]] for c in classes]
        if NO in costs:
            refusals[h] = Reason(Code.PROHIBITED_TERRAIN, "9.35a", f"entry hex {pos.map.format(h)} is prohibited "
                                 f"terrain now", h, ids)
            continue
        cost = Fraction(max(costs), board.scale)
        if _road_hex(pos, h) and not in_enemy_zoc(pos, rs, side, h):
            road = pos.map.line_types["road"].move.lookup("foot", weather)[1]
            cost = min(cost, Fraction(road))   # entering along the road (9.35a)
        trial = pos.copy()
        for u in units:
            trial.units[u.id].hex, trial.units[u.id].box = h, None
            trial.units[u.id].status.add(f"entry_cost_{str(cost).replace('/', '_')}")
        trial.touch()
        ma = min(rs.movement_allowance(trial, trial.units[u.id], rs.mode(mode)) for u in units)
        if ma < 0 or min(rs.movement_allowance(pos, u, rs.mode(mode)) for u in units) < cost:
            refusals[h] = Reason(Code.NOT_ENOUGH_MP, "9.35a", f"entry hex {pos.map.format(h)} costs {cost} MP",
                                 h, ids)
            continue
        left = Fraction(0) if in_enemy_zoc(pos, rs, side, h) else ma
        out[h] = max(out.get(h, Fraction(-1)), left)
        if left > 0:
            reach = reachable(trial, rs, list(ids), mode)
            for g in reach.hexes():
                out[g] = max(out.get(g, Fraction(-1)), reach.mp_left(g))
    return out, refusals


# -- combat odds (11.5) and retreats (12.3): what the worked examples of 11-13 and 17.0 check ---

#: CRT columns left to right: the columns the text names (1-3, 1-2, 3-2, 2-1, 5-2, 3-1, 5-1, 6-1,
#: 8-1) plus 1-1, 4-1 and 7-1, which the rounding and shift examples need (estimated).
COLUMNS = ("1-3", "1-2", "1-1", "3-2", "2-1", "5-2", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1")
_RATIO = {c: Fraction(int(c.split("-")[0]), int(c.split("-")[1])) for c in COLUMNS}


def initial_odds(attack: int, defence: int) -> str | None:
    """The CRT column of ``attack`` : ``defence`` rounded in the defender's favour (11.52);
    odds above 8-1 use 8-1; None when worse than 1-3 (no column)."""
    if defence <= 0:
        return COLUMNS[-1]
    ratio = Fraction(attack, defence)
    best = None
    for c in COLUMNS:
        if _RATIO[c] <= ratio:
            best = c
    return best


def attack_allowed(attack: int, defence: int, rs: DemyanskShield | None = None) -> Reason | None:
    """None if the initial odds may be declared (11.17, 11.31; option ``minimum_odds``)."""
    rs = rs or RULESET
    floor_ = Fraction(1, 4) if rs.options["minimum_odds"] == "1-4" else Fraction(1, 3)
    if defence and Fraction(attack, defence) < floor_:
        return Reason(Code.CUSTOM, "11.31" if floor_ == Fraction(1, 3) else "12.12",
                      f"initial odds {attack}:{defence} are worse than {rs.options['minimum_odds']}")
    return None


def support_shifts(points: int) -> int:
    """Columns a side's artillery + CAS support points give on the Combat Support Chart (13.23):
    1 point one column and 3 points two (13.2 example, 17.0); 2 points one column (estimated)."""
    return 0 if points <= 0 else 1 if points <= 2 else 2


def final_column(attack: int, defence: int, shifts: int) -> tuple[str, int]:
    """``(column, die roll modifier)`` after ``shifts`` (right positive), net shift capped at
    three columns (11.52); above 8-1 starts at 8-1 (11.52 note); below 1-3 is the 1-3 column
    with +1 on the die (12.12, a flat +1 however far below)."""
    start = initial_odds(attack, defence)
    i = COLUMNS.index(start) if start else -1
    i += max(-3, min(3, shifts))
    if i < 0:
        return COLUMNS[0], 1
    return COLUMNS[min(i, len(COLUMNS) - 1)], 0


def halved_attack(supplied: list[int], halved: list[int]) -> int:
    """Attack strength with the halved units' total halved, fraction dropped (3.51c, 6.42)."""
    return sum(supplied) + sum(halved) // 2


def bomber_may_support(pos, defender_hexes: list[Hex]) -> bool:
    """Bombers give CAS only where a Defender hex gives a terrain left shift or holds an
    airfield, town or village (13.25); an active Strongpoint is such terrain (17.0)."""
    types = pos.map.terrain_types
    for h in defender_hexes:
        codes = [pos.map.terrain(h), *pos.map.features(h)]
        if any(c in ("airfield", "town", "village") for c in codes):
            return True
        if any((types[c].combat.get("shift") or 0) < 0 for c in codes if c in types):
            return True
        if active_strongpoint_owner(pos, h):
            return True
    return False


def artillery_may_fire(pos, rs: DemyanskShield, unit_id: str, defender_hexes: list[Hex],
                       attacking: bool = True) -> Reason | None:
    """None if the artillery unit may give Fire Support to this combat (10.13, 10.18, 10.32)."""
    unit = pos.unit(unit_id)
    grid = pos.map.grid
    ids = (unit.id,)
    rng = unit.counter.front.get("range") or 0
    if min(grid.distance(unit.hex, h) for h in defender_hexes) > rng:
        return Reason(Code.CUSTOM, "10.13a", f"{unit.id} (range {rng}) is out of range of the Defender hex",
                      unit.hex, ids)
    if "fired" in unit.status:
        return Reason(Code.CUSTOM, "10.13b", f"{unit.id} is Fired until the Recovery Segment", unit.hex, ids)
    if unit.id not in supply(pos, unit.side, rs).supplied:
        return Reason(Code.CUSTOM, "10.13c", f"{unit.id} is out of supply", unit.hex, ids)
    if in_enemy_zoc(pos, rs, unit.side, unit.hex):
        adjacent = all(grid.distance(unit.hex, h) == 1 for h in defender_hexes)
        if not (attacking and adjacent and rs.options["artillery_in_zoc_supports_adjacent"]):
            return Reason(Code.CUSTOM, "10.13e", f"{unit.id} is in an enemy ZOC", unit.hex, ids)
    return None


def major_river_benefit(pos, attackers: dict[Hex, list[str]], defender_hexes: list[Hex]) -> bool:
    """True if the defender gets the major-river hexside benefit (11.22b): one Defender hex faces
    only non-artillery attackers coming across a major river."""
    grid, m = pos.map.grid, pos.map
    for d in defender_hexes:
        facing = [a for a, ids in attackers.items() if grid.adjacent(a, d)
                  and any(pos.unit(u).type not in ("artillery", "rocket artillery") for u in ids)]
        if facing and all("major_river" in m.hexside_codes(grid.hexside(a, d)) for a in facing):
            return True
    return False


def retreat_destinations(pos, rs: DemyanskShield, unit_ids, defender_hex: Hex | None = None,
                         hexes: tuple[int, ...] = (1, 2), source: Hex | None = None) -> dict[Hex, list[Hex]]:
    """Where a normal retreat of ``unit_ids`` (as a stack) may end: hex -> path (12.3).

    Each hex entered is farther from the Defender hex; no enemy units, no hexside prohibited to
    the units' movement, no vacant hex in an enemy ZOC on the way or at the end (a friendly
    occupied one is allowed, 12.35), and the end may not break stacking (12.33). Map-printed
    units and heavy units stuck in swamp cannot retreat (12.33, 8.35a). With ``source`` (the
    Supply Source the units traced to for this combat), ends farther from it are dropped unless
    no other end exists (12.37).
    """
    if isinstance(unit_ids, str):
        unit_ids = [unit_ids]
    units = [pos.unit(u) for u in unit_ids]
    start = units[0].hex
    side = units[0].side
    origin = defender_hex or start
    if any(u.value("movement", 0) == 0 for u in units):
        return {}
    weather = pos.current_weather
    if any(_is_heavy(u) for u in units) and weather in WET and pos.map.terrain(start) == "swamp" \
            and not _road_hex(pos, start):
        return {}
    board = board_of(pos.map)
    grid = pos.map.grid
    classes = {rs.unit_class(pos, u) for u in units}
    movers = set(unit_ids)

    def friendly(h):
        return any(o.side == side and o.counter.kind == "unit" and o.id not in movers for o in pos.at(h))

    def enemy(h):
        return any(o.side not in (None, side) and o.counter.kind == "unit" and o.type != "air" for o in pos.at(h))

    def passable(a, b):
        k = board.k_of(a, b)
        for c in classes:
            if board.enter_costs(c, weather)[board.index[b]] == NO and not (k in board.line_codes):
                return False
            if board.side_costs(c, weather).get(k, 0) == NO:
                return False
        return True

    out: dict[Hex, list[Hex]] = {}
    frontier = [[start]]
    for length in range(1, max(hexes) + 1):
        nxt = []
        for path in frontier:
            here = path[-1]
            for n in grid.neighbours(here):
                if n in path or grid.distance(origin, n) <= grid.distance(origin, here):
                    continue
                if enemy(n) or not passable(here, n):
                    continue
                if in_enemy_zoc(pos, rs, side, n) and not friendly(n):
                    continue
                nxt.append(path + [n])
        for path in nxt:
            end = path[-1]
            if length in hexes and end not in out:
                total = sum((rs.stack_points(pos, o) for o in pos.at(end) if o.side == side and o.id not in movers),
                            Fraction(0)) + sum((rs.stack_points(pos, u) for u in units), Fraction(0))
                if total <= (rs.stacking.limit or total):
                    out[end] = path
        frontier = nxt
    if source is not None and out:
        before = grid.distance(start, source)
        closer = {h: p for h, p in out.items() if grid.distance(h, source) <= before}
        if closer:
            out = closer
    return out


def zoc_retreat_possible(pos, rs: DemyanskShield, unit_ids, defender_hex: Hex | None = None) -> Reason | None:
    """None if units with no normal retreat may try a retreat through an enemy ZOC (12.43):
    all units eligible (not artillery or rocket artillery, not map-printed) and a vacant enemy
    ZOC hex to enter first."""
    if isinstance(unit_ids, str):
        unit_ids = [unit_ids]
    units = [pos.unit(u) for u in unit_ids]
    ids = tuple(unit_ids)
    if retreat_destinations(pos, rs, unit_ids, defender_hex):
        return Reason(Code.CUSTOM, "12.43a", "a normal retreat exists", units[0].hex, ids)
    bad = [u.id for u in units if u.type in ("artillery", "rocket artillery") or u.value("movement", 0) == 0]
    if bad:
        return Reason(Code.CUSTOM, "12.43b", f"{', '.join(bad)} may not retreat through an enemy ZOC: eliminated",
                      units[0].hex, ids)
    side = units[0].side
    origin = defender_hex or units[0].hex
    grid = pos.map.grid
    for n in grid.neighbours(units[0].hex):
        if n in grid and grid.distance(origin, n) > grid.distance(origin, units[0].hex) and not any(
                o.side not in (None, side) and o.counter.kind == "unit" for o in pos.at(n)):
            return None
    return Reason(Code.CUSTOM, "12.32", "no hex to retreat into", units[0].hex, ids)


def zoc_retreat_drm(pos, unit_ids, storm: bool = False) -> int:
    """DRM on the Retreat Options Table for a retreat through an enemy ZOC (12.44b)."""
    units = [pos.unit(u) for u in ([unit_ids] if isinstance(unit_ids, str) else unit_ids)]
    return (1 if all(u.counter.front.get("em") for u in units) else 0) + (1 if storm else 0)


def no_retreat_drm(pos, unit_ids) -> int | None:
    """DRM for No Retreat (12.42), or None if the units are not eligible: eligible on a
    Strongpoint, town, airfield, hill or friendly Entry hex; Axis +1 if all are on an active
    printed Strongpoint, +1 if an SS unit is in the force (artillery support disregarded)."""
    units = [pos.unit(u) for u in ([unit_ids] if isinstance(unit_ids, str) else unit_ids)]
    m = pos.map
    side = units[0].side

    def eligible(u):
        codes = [m.terrain(u.hex), *m.features(u.hex)]
        if active_strongpoint_owner(pos, u.hex) == side or any(c in ("town", "airfield", "hill") for c in codes):
            return True
        return any(u.hex in b.entry and b.side == side for b in m.boxes)

    if not any(eligible(u) for u in units):
        return None
    drm = 0
    if side == "axis" and all(printed_strongpoint_owner(pos, u.hex) == "axis" for u in units):
        drm += 1
    if side == "axis" and any(u.counter.colour == "#262626" for u in units if u.type not in ("artillery",)):
        drm += 1
    return drm


# -- victory checks that are supply questions (16.14, 19.24) -------------------------------------

MAP_EDGE_SOURCES = ("1032", "1836", "2036")   # 16.14


def traces_to_map_edge(pos, hex: Hex, rs: DemyanskShield | None = None) -> bool:
    """True if an Axis Supply Route runs from ``hex`` to an Axis map-edge source (16.14):
    airfields and Strongpoints do not count."""
    rs = rs or RULESET
    board, dist, _, _ = _trace(pos, rs, "axis", [pos.map.grid.parse(h) for h in MAP_EDGE_SOURCES],
                               rs.supply.max_length, True)
    return dist.get(board.index[hex], -1) >= 0


def demyansk_surrounded(pos, rs: DemyanskShield | None = None) -> bool:
    """16.14: Demyansk 2711 is still under Axis control but traces no Axis Supply Route to a
    map-edge source. Control from a snapshot: not Soviet-occupied (3.12)."""
    rs = rs or RULESET
    demyansk = pos.map.grid.parse("2711")
    if any(u.side == "soviet" and u.counter.kind == "unit" for u in pos.at(demyansk)):
        return False
    return not traces_to_map_edge(pos, demyansk, rs)


def bruckenschlag_won(pos, rs: DemyanskShield | None = None) -> bool:
    """19.24: an Axis Supply Route joins a west map-edge source to 2219 or 2518."""
    rs = rs or RULESET
    return any(traces_to_map_edge(pos, pos.map.grid.parse(h), rs) for h in ("2219", "2518"))


# -- 2GRC exit (5.34), air transport (7.1) and Airdrop (7.2) ---------------------------------------

GRC_EXITS = ("4027", "4031")   # 5.34a


def grc_exit(pos, rs: DemyanskShield, unit_id: str, mode: str | None = None) -> Reason | None:
    """None if a 2GRC unit can leave the map this move: reach 4027 or 4031 with 1 MP left (or
    start there), at full strength (5.34). Strategic movement may be used; supply is not needed."""
    unit = pos.unit(unit_id)
    ids = (unit.id,)
    if unit.counter.formation != "2GRC":
        return Reason(Code.CUSTOM, "5.34", f"{unit.id} is not a 2GRC unit", unit.hex, ids)
    if unit.reduced:
        return Reason(Code.CUSTOM, "5.34", f"{unit.id} must be at full strength to exit", unit.hex, ids)
    exits = [pos.map.grid.parse(h) for h in GRC_EXITS]
    reach = reachable(pos, rs, unit.id, mode)
    if reach.refused:
        return reach.refused
    ma = reach.ma
    if unit.hex in exits and ma >= 1:
        return None
    if any(h in reach and reach.mp_left(h) >= 1 for h in exits):
        return None
    return Reason(Code.NOT_ENOUGH_MP, "5.34", f"{unit.id} cannot reach 4027 or 4031 with 1 MP left to exit",
                  unit.hex, ids)


def air_transport(pos, rs: DemyanskShield, unit_ids, airfield: Hex, storm: bool = False) -> Reason | None:
    """None if Axis units in the AGN box may be flown to ``airfield`` this Air Transport Phase
    (7.11-7.17): from GT5, not in Mud or Storm, at most 2 stacking points of infantry, engineer or
    Untried units, to a friendly airfield not in an enemy ZOC nor under construction, within
    stacking limits."""
    units = [pos.unit(u) for u in ([unit_ids] if isinstance(unit_ids, str) else unit_ids)]
    ids = tuple(u.id for u in units)
    where = pos.map.format(airfield)
    if (pos.turn or 0) < 5:
        return Reason(Code.CUSTOM, "7.15", "air transport begins on GT5", airfield, ids)
    if pos.current_weather == "mud" or storm:
        return Reason(Code.CUSTOM, "7.16", "no air transport in Mud or Storm", airfield, ids)
    for u in units:
        if u.side != "axis" or u.box != "agn":
            return Reason(Code.CUSTOM, "7.11", f"{u.id} is not an Axis unit in the AGN box", airfield, ids)
        if u.type not in ("infantry", "engineer") and u.counter.back_kind != "untried":
            return Reason(Code.CUSTOM, "7.14", f"{u.id} ({u.type}) may not be air transported", airfield, ids)
    points = sum((rs.stack_points(pos, u) for u in units), Fraction(0))
    if points > 2:
        return Reason(Code.CUSTOM, "7.13", f"{points} stacking points exceed the 2 of one Air Transport Phase",
                      airfield, ids)
    markers = _markers_at(pos, airfield, AIRFIELD_MARKER)
    printed = "airfield" in pos.map.features(airfield)
    if not printed and not markers:
        return Reason(Code.CUSTOM, "7.11", f"{where} is not an airfield", airfield, ids)
    if not printed and all(set(m.status) & set(NON_ACTIVE) for m in markers):
        return Reason(Code.CUSTOM, "7.17", f"the airfield at {where} is under construction", airfield, ids)
    if not _controls_airfield(pos, rs, airfield, "axis"):
        return Reason(Code.CUSTOM, "7.11", f"the airfield at {where} is not friendly", airfield, ids)
    if in_enemy_zoc(pos, rs, "axis", airfield):
        return Reason(Code.CUSTOM, "7.11", f"the airfield at {where} is in an enemy ZOC", airfield, ids)
    there = sum((rs.stack_points(pos, o) for o in pos.at(airfield) if o.side == "axis"), Fraction(0))
    if there + points > (rs.stacking.limit or 0):
        return Reason(Code.STACKING_LIMIT, "7.11", f"flying in would overstack {where}", airfield, ids)
    return None


def airdrop(pos, rs: DemyanskShield, unit_id: str, hex: Hex, storm: bool = False) -> Reason | None:
    """None if the Soviet Airdrop unit may drop on ``hex`` (7.22-7.23): from GT5, not in Storm,
    from the Valday box, onto a hex with no enemy unit or active Strongpoint, not in enemy ZOC."""
    unit = pos.unit(unit_id)
    ids = (unit.id,)
    where = pos.map.format(hex)
    if unit.type != "parachute" or unit.counter.back_kind != "marker":   # its back is the Airdrop mode (3.45)
        return Reason(Code.CUSTOM, "7.21", f"{unit.id} is not the Airdrop unit", hex, ids)
    if (pos.turn or 0) < 5 or storm:
        return Reason(Code.CUSTOM, "7.22", "Airdrop is allowed from GT5 and not in Storm", hex, ids)
    if unit.box != "valday":
        return Reason(Code.CUSTOM, "7.23a", f"{unit.id} must start in the Valday box", hex, ids)
    if any(o.side == "axis" and o.counter.kind == "unit" for o in pos.at(hex)) or active_strongpoint_owner(pos, hex):
        return Reason(Code.CUSTOM, "7.23b", f"{where} holds an enemy unit or an active Strongpoint", hex, ids)
    if in_enemy_zoc(pos, rs, "soviet", hex):
        return Reason(Code.CUSTOM, "7.23b", f"{where} is in an enemy ZOC", hex, ids)
    return None


def defender_must_retreat(result_has_retreat: bool, attackers_left: int) -> bool:
    """12.38: no defender retreat when no attacking unit is left that could occupy the hex."""
    return result_has_retreat and attackers_left > 0


def grc_delay_turns(required_by: int | None, completed_in: int | None) -> int:
    """Turns the 2GRC exit was late (5.34b): counted from the turn the 2GRC Table required it
    through GT8 when it never completes (the GT8 Recovery Phase counts too)."""
    if required_by is None:
        return 0
    last = 8 if completed_in is None else completed_in - 1
    return max(0, min(last, 8) - required_by + 1)


def grc_penalty(scenario: str, required_by: int | None, completed_in: int | None) -> dict:
    """What a late 2GRC exit costs: Scenario 3 loses 6 VP per turn; Scenario 1 needs one more
    victory location per turn (5.34b, 19.14a3)."""
    late = grc_delay_turns(required_by, completed_in)
    if scenario == "scenario-1":
        return {"locations_needed": 5 + late}
    return {"vp": -6 * late}
