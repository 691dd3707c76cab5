"""The configurable parts every ruleset is built from: plain data, set per game.

A game's ruleset composes one of each (:class:`MovementRules`, :class:`ZocRules`,
:class:`StackingRules`, :class:`SupplyRules`, :class:`LosRules`, :class:`CommandRules`) and
overrides hook methods of :class:`~toolkit.referee.ruleset.Ruleset` where data is not enough.
Each part cites its rule (``rule="8.1"``) so every refusal can name it. Numbers are exact
(:class:`fractions.Fraction` or int); ``None`` means "no limit" unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Union

Number = Union[int, Fraction]


@dataclass(frozen=True)
class MovementMode:
    """A way of moving other than the normal one: strategic, exploitation, road column...

    The allowance is ``printed MA * ma_factor + ma_bonus`` (``ma_bonus_by_type`` overrides the
    bonus for a counter type), rounded by ``round`` ("down", "up" or "exact"). ``road_only``
    makes every step follow a line link (of ``lines``, all lines if empty) and pay
    ``line_rate`` per hex if given; ``enter_ezoc=False`` forbids entering an enemy ZOC;
    ``start_in_ezoc=False`` forbids starting in one; ``near_enemy=False`` forbids starting or
    ending adjacent to an enemy combat unit. ``weathers``/``no_weathers`` allow or forbid the
    mode by weather; ``types`` and ``classes`` limit it to counter types or movement classes;
    ``needs_status`` requires a status marker (e.g. "exploit"). ``stacking`` names the key of
    :attr:`StackingRules.limit_by_mode` that applies to units moving this way.
    """

    name: str
    rule: str | None = None
    ma_factor: Number = 1
    ma_bonus: Number = 0
    ma_bonus_by_type: dict = field(default_factory=dict)
    round: str = "down"
    road_only: bool = False
    lines: tuple[str, ...] = ()
    line_rate: Number | None = None
    enter_ezoc: bool = True
    start_in_ezoc: bool = True
    near_enemy: bool = True
    weathers: tuple[str, ...] = ()
    no_weathers: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    needs_status: str | None = None
    stacking: str | None = None
    infiltration: bool = True


@dataclass(frozen=True)
class MovementRules:
    """Movement: costs come from the map's Terrain Effects Chart (terrain x class x weather).

    - ``ma_value``: the counter value holding the movement allowance (back side when reduced).
    - ``feature_costs``: how an overlay feature's cost combines with the base terrain: "max"
      (the highest applies), "add" (extra cost) or "ignore".
    - ``lines``: line codes whose rate may replace terrain costs (None: every line type).
      A line rate applies only between two consecutive hexes of the same line.
    - ``line_alone_classes``: movement classes that lose the line rate when more than one unit
      moves together (``line_alone_rule`` cited).
    - ``line_into_ezoc`` / ``line_out_of_ezoc``: False forbids the line rate for a step that
      enters / leaves an enemy ZOC hex (the terrain cost is paid instead).
    - ``bridges_ignore_hexsides``: a line with ``bridges`` cancels the hexside features it
      crosses, for any unit crossing there (not only those paying the line rate).
    - ``minimum_move``: a unit that has not moved may always move one hex, into terrain it may
      enter, whatever the cost.
    - ``cannot_move``: status markers that forbid moving (``cannot_move_rule`` cited).
    - ``status_ma``: status marker -> factor on the allowance (e.g. ``{"out_of_supply": 1/2}``).
    - ``modes``: the extra movement modes by name; "normal" is always there.
    """

    rule: str | None = None
    terrain_rule: str | None = None
    hexside_rule: str | None = None
    line_rule: str | None = None
    ma_value: str = "movement"
    feature_costs: str = "max"
    lines: tuple[str, ...] | None = None
    line_alone_classes: tuple[str, ...] = ()
    line_alone_rule: str | None = None
    line_into_ezoc: bool = True
    line_out_of_ezoc: bool = True
    bridges_ignore_hexsides: bool = True
    minimum_move: bool = False
    minimum_move_rule: str | None = None
    enemy_rule: str | None = None
    cannot_move: tuple[str, ...] = ()
    cannot_move_rule: str | None = None
    status_ma: dict = field(default_factory=dict)
    status_ma_round: str = "down"
    modes: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ZocRules:
    """Zones of control and their effect on movement.

    - Who exerts: units of ``kinds`` whose counter type is not in ``exempt_types``.
    - Where: the six adjacent hexes, except across hexsides whose feature code is in
      ``blocked_hexsides`` (unless ``bridged_carry`` and a bridging line crosses there), and
      except hexes/hexsides prohibited to movement class ``prohibited_class`` (the special value
      ``"own"`` uses the exerting unit's class).
    - Effect: ``stop`` (entering ends the move), ``enter_cost`` / ``leave_cost`` extra MP,
      ``zoc_to_zoc``: "allowed", "forbidden", "one-hex" (only as a whole move of one hex), or
      "same-unit" (forbidden only between two hexes in the ZOC of one and the same enemy unit).
    - ``infiltration_min_ma`` / ``infiltration_types``: units that may move directly ZOC to ZOC
      from their start hex by spending all their MP (then stop); modes with
      ``infiltration=False`` never infiltrate. ``step_rule`` sees such steps (``step.infiltration``).
    - ``friendly_negates``: a friendly unit in the hex cancels the enemy ZOC for movement.
    - ``sticky``: a unit starting in an enemy ZOC may not leave it.
    """

    rule: str | None = None
    kinds: tuple[str, ...] = ("unit",)
    exempt_types: tuple[str, ...] = ("hq",)
    blocked_hexsides: tuple[str, ...] = ()
    bridged_carry: bool = False
    prohibited_class: str | None = None
    stop: bool = True
    enter_cost: Number = 0
    leave_cost: Number = 0
    zoc_to_zoc: str = "allowed"
    zoc_to_zoc_rule: str | None = None
    infiltration_min_ma: int | None = None
    infiltration_types: tuple[str, ...] = ()
    infiltration_rule: str | None = None
    friendly_negates: bool = False
    sticky: bool = False


@dataclass(frozen=True)
class StackingRules:
    """Stacking: points per unit, limits per hex, allowed compositions, and when it is checked.

    - Points: the counter value ``points_value`` if printed, else ``points_by_type`` (counter
      type), else ``points_by_size`` (unit size), else ``default_points``; times
      ``reduced_factor`` when reduced; 0 for ``exempt_types`` and ``exempt_kinds``.
    - Limit: ``limit_by_terrain`` (terrain or feature code of the hex, the highest that
      applies), else ``limit``; units moving in a mode with a ``stacking`` key use
      ``limit_by_mode[key]`` instead (the lower of the two). None: no points limit.
    - ``compositions``: if given, a stack must fit one of them; each maps a category (the unit
      size, or type if ``category_by == "type"``) to the most units of it, "*" for any other.
    - ``enemy_together``: False forbids enemy units in one hex.
    - ``when``: "move" (end of each move), "phase" (end of phase) or "always".
    """

    rule: str | None = None
    limit: Number | None = None
    limit_by_terrain: dict = field(default_factory=dict)
    limit_by_mode: dict = field(default_factory=dict)
    points_value: str | None = "stacking"
    points_by_type: dict = field(default_factory=dict)
    points_by_size: dict = field(default_factory=dict)
    default_points: Number = 1
    reduced_factor: Number = 1
    exempt_types: tuple[str, ...] = ()
    exempt_kinds: tuple[str, ...] = ("marker",)
    compositions: tuple[dict, ...] = ()
    category_by: str = "size"
    composition_rule: str | None = None
    enemy_together: bool = False
    when: str = "move"


@dataclass(frozen=True)
class SupplyRules:
    """Supply: sources, the path rules, and the status ladder over consecutive failures.

    - Sources: the map's supply sources of the side active this turn (of ``source_kinds``, all
      if None), plus hexes of own units whose counter type is in ``source_types``.
    - Path: at most ``max_length`` hexes overland (None: any length), not counting the unit's
      hex; unlimited along ``road_lines`` (line codes; None: every line; () none) reached from a
      source, with up to ``road_breaks`` overland hexes between two road stretches.
    - Blocking: enemy-occupied hexes (``enemy_blocks``); enemy-ZOC hexes (``ezoc_blocks``)
      unless a friendly unit is there (``friendly_negates``); hexsides whose type
      ``blocks_supply`` unless a bridging line crosses; hexes and hexsides prohibited to
      movement class ``trace_class`` in the current weather.
    - ``ladder``: the status after 1, 2, ... consecutive failed checks ("out_of_supply",
      "isolated"...); the last one repeats. ``ladder_rule`` is cited.
    """

    rule: str | None = None
    source_kinds: tuple[str, ...] | None = None
    source_types: tuple[str, ...] = ()
    max_length: int | None = None
    road_lines: tuple[str, ...] | None = ()
    road_breaks: int = 0
    enemy_blocks: bool = True
    ezoc_blocks: bool = True
    friendly_negates: bool = True
    hexsides_block: bool = True
    trace_class: str | None = None
    ladder: tuple[str, ...] = ("out_of_supply",)
    ladder_rule: str | None = None


@dataclass(frozen=True)
class LosRules:
    """Line of sight: blocked by intermediate hexes whose terrain or feature ``blocks_los``.

    ``along_hexside`` says what happens when the line runs exactly along a hexside: "either"
    (blocked if the hexes on either side block) or "both" (blocked only if both do).
    ``max_range`` limits it (None: any range).
    """

    rule: str | None = None
    along_hexside: str = "both"
    max_range: int | None = None


@dataclass(frozen=True)
class CommandRules:
    """Command range: units of the HQ's side within ``radius`` hexes (or the HQ counter's
    value ``range_value``), counted without regard to terrain, enemies or ZOC; with
    ``same_formation`` only units of the HQ's formation count."""

    rule: str | None = None
    hq_types: tuple[str, ...] = ("hq",)
    radius: int | None = None
    range_value: str = "command"
    same_formation: bool = False


@dataclass(frozen=True)
class RandomShift:
    """A die roll each side makes before the CRT roll that shifts the column (VV quality, 6.2.8).

    ``chart`` names a game chart with ``columns`` (best first) and ``rows`` (die -> a signed
    shift per column). Each side in ``sides`` rolls ``dice`` on the column of the best
    ``value`` among its units; a side's positive shift is in its own favour, so a defender's
    -1 is one column right for the attacker.
    """

    name: str
    chart: str
    value: str
    rule: str | None = None
    dice: str = "1d6"
    sides: tuple[str, ...] = ("attacker", "defender")


@dataclass(frozen=True)
class SupportRules:
    """One kind of combat support: artillery points, air missions, supporting units.

    Each point shifts ``shift`` columns in its side's favour; with ``chart`` (a game chart
    mapping points to columns, "3+" for "3 or more") the points of every kind sharing the
    chart are added per side, read on it and netted, attacker minus defender. ``max_points``
    caps one side's points of this kind in one combat. With ``unit_types`` the support comes
    from on-map units of those types (the support names the unit), within ``range_value``
    hexes of a defender hex (counter value; None: any range), not marked ``spent_status``,
    worth ``points_value`` (counter value) or 1 point. ``sides``: "attacker", "defender".
    ``adds="strength"``: no shift; the points are added to the supported side's strength
    total before the odds (Grossdeutschland 10.2: an artillery unit's attack strength).
    ``spent_on``: when a support unit takes ``spent_status``: "use" (by every combat it gives)
    or "special" (only by a special result, ``*``, of its side: with several such kinds taking
    part the owner chooses one, ``CombatRules.special_rule``, Demyansk 12.23); ``spent_rule``
    the rule that spends it (Demyansk 10.41 Fired, 13.14 Flown).
    """

    rule: str | None = None
    shift: int = 1
    chart: str | None = None
    max_points: int | None = None
    unit_types: tuple[str, ...] = ()
    points_value: str | None = None
    range_value: str | None = "range"
    spent_status: str | None = None
    sides: tuple[str, ...] = ("attacker", "defender")
    adds: str | None = None
    spent_on: str = "use"
    spent_rule: str | None = None


@dataclass(frozen=True)
class CombatRules:
    """Combat: who may attack, the strengths, the odds, the shifts and DRMs, and the CRT.

    - CRT: the game chart ``crt`` (``columns``, ``rows`` of die -> results, ``dice``,
      ``kind`` "odds" or "differential", see docs/referee.md).
    - Strengths: counter values ``attack_value`` / ``defence_value`` (back side when reduced);
      ``attack_status`` / ``defence_status`` map a status to a factor (out of supply: 1/2),
      ``no_attack_status`` forbids attacking. The TEC's combat effects (``attack: half``
      for units attacking across a hexside or into a hex, ``attack_from`` for the attacker's
      own hex, ``defence: "+1"`` / ``"x2"`` for the defender's hex) apply too. Units with the
      same factor are added before it is applied (``halve_together``; ``"hex"``: only units of
      one hex, A Victory Denied 9.3.1), each total rounded by ``strength_round`` ("down", "up",
      "exact"). ``strength_fallback`` names the value a counter without ``attack_value`` /
      ``defence_value`` uses for both (one combat strength, A Victory Denied 2.2.2);
      ``status_round`` rounds the units of a status their own way (Grossdeutschland 5.3: Low
      Supply "up", Out of Supply "down"). The ruleset hook ``combat_dice`` may replace the
      chart's dice for one combat (night, a bridge: 3d6).
    - Odds: the highest column not above attack : defence (difference for a differential
      CRT), i.e. rounded in the defender's favour. Below the first column ``below_table``
      "first" (read the first column), "below" (shifts count from one column left of the
      first) or "refuse"; ``minimum_odds`` (odds like "1-3") refuses worse initial odds. Above the last column reads the last.
    - Shifts: TEC ``shift`` of the defender's hex (``hex_terrain`` "best": the best for the
      defender, types marked ``combine: add`` on top; or "add"; types marked
      ``when: ruleset`` are left to the ruleset's hook) plus hexside shifts
      (``hexside_applies`` "any" attacker crossing, or "all" attackers crossing), status
      shifts of the defender (``status_shift``), ``weather_shift``, supports (``supports``),
      the ruleset's ``combat_modifiers`` hook. The fixed net shift is capped at ``max_shift``;
      then ``random_shifts``; a final column left of the table is the first column, with
      ``below_drm`` added to the die when given. ``weather_drm`` and TEC ``drm`` add to the die.
    - ``multi_hex``: None (one defender hex per attack), "all-adjacent" (several, every attacker
      next to every one of them) or "any-adjacent"; not in ``multi_hex_not_weathers``.
    - ``context_keys``: the situational facts (not on the map) the hooks read from the
      combat's ``context``, with their allowed values.
    - ``adjacent``: attackers must be next to the defender (units of ``ranged_types`` within
      their ``range_value`` instead); ``across_prohibited``: False
      refuses an attack across a hexside the attacker may not cross.
    """

    rule: str | None = None
    crt: str = "combat_results"
    attack_value: str = "attack"
    defence_value: str = "defence"
    adjacent: bool = True
    multi_hex: str | None = None
    multi_hex_rule: str | None = None
    multi_hex_not_weathers: tuple[str, ...] = ()
    ranged_types: tuple[str, ...] = ()
    range_value: str = "range"
    across_prohibited: bool = True
    odds_rule: str | None = None
    below_table: str = "first"
    minimum_odds: str | None = None
    minimum_rule: str | None = None
    max_shift: int | None = None
    shift_rule: str | None = None
    below_drm: int | None = None
    terrain_rule: str | None = None
    hex_terrain: str = "best"
    hexside_applies: str = "any"
    halve_together: bool | str = True
    strength_fallback: str | None = None
    status_round: dict = field(default_factory=dict)
    strength_round: str = "down"
    strength_rule: str | None = None
    attack_status: dict = field(default_factory=dict)
    defence_status: dict = field(default_factory=dict)
    no_attack_status: tuple[str, ...] = ()
    status_shift: dict = field(default_factory=dict)
    status_rule: str | None = None
    weather_shift: dict = field(default_factory=dict)
    weather_drm: dict = field(default_factory=dict)
    weather_rule: str | None = None
    random_shifts: tuple[RandomShift, ...] = ()
    supports: dict = field(default_factory=dict)
    #: situational facts not on the map that the ruleset's hooks read from ``context`` (a Stuka
    #: mission, Timoshenko, an event chit): key -> the values allowed (empty: any); the CLI's
    #: ``--context KEY=VALUE`` accepts only these (:func:`~toolkit.referee.check_combat_context`);
    #: None: undeclared, every key passes (a ruleset written before the declaration)
    context_keys: dict | None = None
    #: the rule of a special result (``*``) spending the supports of ``spent_on="special"``
    special_rule: str | None = None

    def strength(self, unit, role: str):
        """The printed ``role`` ("attack" or "defence") strength of ``unit`` (0 if none)."""
        value = unit.value(self.attack_value if role == "attack" else self.defence_value)
        if value is None and self.strength_fallback:
            value = unit.value(self.strength_fallback)
        return 0 if value is None else value


@dataclass(frozen=True)
class RetreatRules:
    """Retreats and advances after combat (:func:`~toolkit.referee.retreat_options`).

    - ``away``: each hex entered must be farther from the defender hex than the one before
      ("farther"), or not nearer ("not-nearer"), or any hex (None).
    - ``enemy_zoc``: entering a vacant enemy-ZOC hex (one without a friendly unit if
      ``friendly_negates``) is "forbidden", costs a step ("loss") or is "allowed".
    - ``stacking_end``: a retreat ending over the stacking limit (or outside the stacking
      compositions) is not a legal end (True, "forbidden"), eliminates the retreating units
      that end there ("eliminate", Demyansk 12.33), or is allowed and reported for the end
      of the phase (False or "phase", VV 5.1/6.5.1: the owner then eliminates a unit).
    - Terrain: a retreat never enters an enemy-held hex (enemy units of ``ignore_types``, e.g.
      air units, do not count), nor terrain or a hexside prohibited to the retreating units'
      movement classes (the movement board's costs).
    - ``advance``: hexes an advance may cover ("retreat": along the defeated units' path, as
      far as they retreated; or a number, 1 = the vacated hex only); ``advance_zoc_stop``
      stops an advance on entering an enemy ZOC (the first; 2 = the second ZOC hex);
      ``advance_ignore_zoc_classes`` are movement classes that are never stopped;
      ``advance_stacking``: an advance may not end over the stacking limit (True, Demyansk
      12.56), may (False), or None: as ``StackingRules.when`` says ("move"/"always": checked
      like a move's end; "phase": left to the end of the phase); ``no_advance_types`` never
      advance (Demyansk 12.57 artillery); ``advance_per_hex``: side -> how many units may
      advance from one attacking hex (Demyansk 12.52: one Soviet unit).
    - Order and options: ``attacker_first`` applies the attacker's part of a result before
      the defender's (Demyansk 12.21; not with an exchange); ``retreat_needs_occupier``: the
      defender does not retreat when no attacking unit that could advance is left (12.38,
      ``occupier_rule``); ``reduced_attacker_loss``: the attacker loses one step fewer when
      the defender had fewer steps than its numeric loss (12.25); ``no_retreat_chart``: a
      game chart (rows of rolls -> "pass", "pass/N" (pass losing N more steps), "fail",
      "fail/N") rolled with ``no_retreat_dice`` by a side that declares No Retreat, the
      ruleset's ``no_retreat`` hook deciding eligibility and the DRM (Demyansk 12.42);
      ``zoc_retreat_rule``: a stack with no legal retreat may try one through a vacant enemy
      ZOC hex on the same chart (one hex into the ZOC, a step lost, the roll: a pass goes on to
      a second hex out of enemy ZOC or friendly-held, a fail is eliminated; the ``zoc_retreat``
      hook decides eligibility and the DRM; Demyansk 12.43-12.44);
      ``before_combat_rule``: the defender may roll the same chart as an attack is declared
      (the ``retreat_before_combat`` hook decides eligibility and the DRM): a pass retreats
      ``before_combat_retreat`` hexes and there is no combat (the attacker may advance), a fail
      defends (Demyansk 11.42); ``one_option_rule``: a side tries at most one of Retreat
      Before Combat and No Retreat in a combat (12.41); ``box_rule``: the rule of a retreat into a
      Map Box from its Entry hex (the ruleset's optional ``retreat_boxes(pos, units)`` names the
      boxes; Demyansk 12.32).
    """

    rule: str | None = None
    ignore_types: tuple[str, ...] = ()
    away: str | None = "farther"
    enemy_zoc: str = "forbidden"
    friendly_negates: bool = True
    stacking_end: bool | str = True
    stacking_rule: str | None = None
    advance: object = 1
    advance_rule: str | None = None
    advance_zoc_stop: int | None = None
    advance_ignore_zoc_classes: tuple[str, ...] = ()
    advance_stacking: bool | None = None
    no_advance_types: tuple[str, ...] = ()
    advance_per_hex: dict = field(default_factory=dict)
    attacker_first: bool = False
    retreat_needs_occupier: bool = False
    occupier_rule: str | None = None
    reduced_attacker_loss: str | None = None
    no_retreat_chart: str | None = None
    no_retreat_dice: str = "1d6"
    no_retreat_rule: str | None = None
    zoc_retreat_rule: str | None = None
    before_combat_rule: str | None = None
    before_combat_retreat: tuple[int, ...] = (1,)
    one_option_rule: str | None = None
    box_rule: str | None = None
