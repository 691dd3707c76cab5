"""``build_module``: a game's VASSAL module, build/GAME/GAME.vmod.

The steps: images (maps from the map renderer, counters from the counter renderer, the
boxes board and the charts drawn here), the plan (maps with derived hex grids, prototypes,
palettes with unique gpids, one saved setup per scenario), buildFile.xml, and the zip,
written to a temporary file and renamed so a failure leaves nothing half-written.
"""

from __future__ import annotations

import io
import os
import random
import re
import time
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from PIL import Image

from ..errors import BuildError, HexforgeError
from ..game import Counter, Game, Scenario
from ..io import atomic_path
from .boards import boxes_board, chart_images, dead_pile_zone, deck_back_image, moved_image, turn_zone
from .buildfile import DeckSpec, MapSpec, ModulePlan, Panel, Slot, Tab, build_xml, deck_type
from .grid import derive_grid, raw_index
from .helppage import help_html
from .pieces import (MOVED_IMAGE, PieceDesign, cadre_of, counter_piece, expand, image_names, obscurable,
                     plain_text, prototypes, return_to_deck, safe_name, step_faces, unique_name, with_position)
from .savegame import VASSAL_VERSION, DeckState, Setup, Stack, metadata_xml, setup_commands, vsav_bytes

__all__ = ["build_module", "BOXES_MAP", "DEFAULT_DPI"]

BOXES_MAP = "Turn track and boxes"
DEFAULT_DPI = 150
MODULE_VERSION = "1.0"

Progress = Callable[[str], None]


@dataclass
class _Images:
    files: dict[str, bytes] = field(default_factory=dict)

    def add(self, name: str, image: Image.Image, compress: int = 6) -> None:
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=compress)
        self.files[name] = buffer.getvalue()


def _renderers(render_map, render_counter):
    if render_map is None or render_counter is None:
        try:
            from .. import render
            render_map = render_map or render.render_map
            render_counter = render_counter or render.render_counter
        except (ImportError, AttributeError) as exc:
            raise BuildError(f"the VASSAL module needs the map and counter renderers (toolkit.render): {exc}") from exc
    return render_map, render_counter


def _dice(game: Game) -> list[tuple[str, int, int]]:
    out = []
    for text in game.dice:
        match = re.fullmatch(r"\s*(\d*)\s*[dD]\s*(\d+)\s*", str(text))
        if not match:
            raise BuildError(f"{game.id}: dice {text!r} is not of the form NdS (1d6, 2d6, d10)")
        n, sides = int(match[1] or 1), int(match[2])
        if not (1 <= n <= 20 and 2 <= sides <= 1000):
            raise BuildError(f"{game.id}: dice {text!r} is out of range")
        out.append((f"{n}d{sides}", n, sides))
    return out


def _captions(game: Game) -> dict[int, str]:
    """Date and weather of each turn, from the scenario with the most turns. Where scenarios
    date a turn differently ("10th Morning", "1st Morning"), the words they share at the end
    ("Morning") stand for the date: one turn track serves every scenario."""
    scenarios = sorted(game.scenarios.values(), key=lambda s: -len(s.turns))
    if not scenarios:
        return {}
    dates: dict[int, set] = {}
    for scenario in scenarios:
        for t in scenario.turns:
            dates.setdefault(t.number, set()).add(t.date)
    out = {}
    for t in scenarios[0].turns:
        date = t.date
        if date and len(dates[t.number]) > 1:
            words = [str(d or "").split() for d in dates[t.number]]
            shared = []
            for column in zip(*(reversed(w) for w in words)):
                if len(set(column)) > 1:
                    break
                shared.insert(0, column[0])
            date = " ".join(shared)
        out[t.number] = " - ".join(x for x in (date, t.weather) if x)
    return out


class _Planner:
    """Decides every name, gpid, position and file of the module."""

    def __init__(self, game: Game, dpi: int, render_map, render_counter) -> None:
        self.game = game
        self.dpi = dpi
        self.render_map = render_map
        self.render_counter = render_counter
        self.images = _Images()
        self.px = max(24, round(game.counter_style.size_inches * dpi))
        self.maps: list[MapSpec] = []
        self.layouts: dict[str, tuple[MapSpec, object]] = {}   # game map id -> (spec, layout)
        self.gpid = 0
        self.designs: dict[str, PieceDesign] = {}
        self.home_gpid: dict[str, int] = {}

    def _next_gpid(self) -> int:
        self.gpid += 1
        return self.gpid

    # -- images ------------------------------------------------------------------------------

    def draw(self, progress: Progress) -> None:
        used: set[str] = {BOXES_MAP}
        for n, (map_id, game_map) in enumerate(self.game.maps.items()):
            progress(f"vassal: map {game_map.name}")
            rendered = self.render_map(game_map, dpi=self.dpi, game=self.game)
            file = f"map_{re.sub(r'[^A-Za-z0-9_.-]', '_', map_id)}.png"
            if hasattr(rendered, "write_png"):
                # drawn strip by strip straight into the PNG: a monster map never sits whole in memory
                buffer = io.BytesIO()
                rendered.write_png(buffer, progress, level=3)
                self.images.files[file] = buffer.getvalue()
                width, height = rendered.size
            else:
                image = rendered.image
                self.images.add(file, image.convert("RGB"), compress=3)
                width, height = image.size
            grid = derive_grid(rendered.layout, width, height)
            name = unique_name(plain_text(game_map.name or map_id), used)
            spec = MapSpec(name=name, board=name, image=file, width=width, height=height, grid=grid,
                           button="Map" if n == 0 else name)
            self.maps.append(spec)
            self.layouts[map_id] = (spec, rendered.layout)
        progress(f"vassal: {len(self.game.counters)} counters")
        self.names = image_names(list(self.game.counters.values()))
        for counter in self.game.counters.values():
            names = self.names[counter.id]
            cadre = cadre_of(self.game, counter)
            for face, name in zip(step_faces(counter), names):
                self.images.add(name, self._face(counter, face, cadre))
            self.designs[counter.id] = counter_piece(counter, names, cadre)
        self._fog_of_war()
        self.turns = max([len(s.turns) for s in self.game.scenarios.values()]
                         + [r.turn for s in self.game.scenarios.values() for r in s.reinforcements] + [0])
        board = boxes_board(self.game, self.turns, self.px, _captions(self.game))
        self.images.add("boxes.png", board.image)
        self.zones = {z.name: z for z in board.zones}
        self.boxes = MapSpec(name=BOXES_MAP, board=BOXES_MAP, image="boxes.png", width=board.image.width,
                             height=board.image.height, zones=board.zones, button="Boxes")
        self.maps.append(self.boxes)
        self.charts = []
        for n, (name, image) in enumerate(chart_images(self.game)):
            file = f"chart_{n + 1}.png"
            self.images.add(file, image)
            self.charts.append((name, file))
        self.images.add(MOVED_IMAGE, moved_image())
        self.deck_names: dict[str, str] = {}
        self.deck_specs: dict[str, tuple] = {}      # deck id -> (its MapSpec, its DeckSpec)
        self.card_slots: dict[str, list] = {}       # counter id -> the CardSlots of its copies
        used_decks: set[str] = set()
        for deck in self.game.decks:
            self.deck_names[deck.id] = unique_name(safe_name(deck.name), used_decks)
            if deck.face_down:
                side = self.game.side(deck.side) if deck.side else None
                self.images.add(self._deck_back(deck), deck_back_image(deck.name, self.px, side.colour if side else None))

    def _fog_of_war(self) -> None:
        """Fog of war by VASSAL's own means: a Mask on every counter of the hidden kinds, which
        its owner sets and opponents cannot lift (GlobalOptions nonOwnerUnmaskable="Never")."""
        fog = self.game.fog_of_war
        if fog is None:
            return
        for side in self.game.sides:
            self.images.add(_fog_back(side.id), deck_back_image(side.name, self.px, side.colour))
        for counter in self.game.counters.values():
            side = self.game.side(counter.side) if counter.side else None
            if counter.kind in fog.kinds and side is not None:
                design = self.designs[counter.id]
                mask = obscurable(_fog_back(side.id), f"{side.name} unit", "Hidden from the enemy")
                self.designs[counter.id] = replace(design, traits=(mask,) + design.traits)

    @staticmethod
    def _deck_back(deck) -> str:
        return f"deck_{re.sub(r'[^A-Za-z0-9_.-]', '_', deck.id)}.png"

    def _face(self, counter: Counter, face: str, cadre: Counter | None) -> Image.Image:
        if face == "front":
            return self.render_counter(self.game, counter, back=False, px=self.px)
        if face == "back":
            return self.render_counter(self.game, counter, back=True, px=self.px)
        # the last step: the counter's own face in that state, printed with the cadre's values
        drawn = replace(counter, back=dict(cadre.front)) if cadre is not None else counter
        return self.render_counter(self.game, drawn, back=True, px=self.px, state=face)

    # -- palettes ----------------------------------------------------------------------------

    def palette(self) -> Tab:
        game = self.game
        units = [c for c in game.counters.values() if not c.is_marker]
        markers = [c for c in game.counters.values() if c.is_marker]

        def slot(counter: Counter) -> Slot:
            gpid = self._next_gpid()
            self.home_gpid.setdefault(counter.id, gpid)
            return Slot(plain_text(counter.name), gpid, self.designs[counter.id].traits, self.px)

        tabs: list[Tab | Panel] = []
        sides = [s.id for s in game.sides] + sorted({c.side for c in units if c.side} - {s.id for s in game.sides})
        for side_id in sides + [None]:
            members = [c for c in units if c.side == side_id]
            if not members:
                continue
            formations: dict[str, list[Counter]] = {}
            for c in members:
                formations.setdefault(c.formation or "Other units", []).append(c)
            side = game.side(side_id) if side_id else None
            tabs.append(Tab(plain_text(side.name if side else (side_id or "No side")),
                            [Panel(plain_text(f), [slot(c) for c in cs]) for f, cs in formations.items()]))
        reinforcements: list[Panel] = []
        for scenario in game.scenarios.values():
            by_turn: dict[int, list[Counter]] = {}
            for r in scenario.reinforcements:
                for unit in r.units:
                    if unit in game.counters:
                        by_turn.setdefault(r.turn, []).append(game.counters[unit])
            for turn in sorted(by_turn):
                label = f"Turn {turn}" if len(game.scenarios) == 1 else f"{scenario.name}: turn {turn}"
                reinforcements.append(Panel(plain_text(label), [slot(c) for c in by_turn[turn]]))
        if reinforcements:
            tabs.append(Tab("Reinforcements", reinforcements))
        if markers:
            tabs.append(Panel("Markers", [slot(c) for c in markers]))
        return Tab("Counters", tabs)

    # -- decks -------------------------------------------------------------------------------

    def decks(self) -> None:
        """A DrawPile on its map for every deck of the game, holding every copy of its counters."""
        for deck in self.game.decks:
            if deck.box is not None:
                zone = next((z for z in self.zones.values() if z.box == deck.box), None)
                if zone is None:
                    raise BuildError(f"{self.game.id}: deck {deck.id!r} sits in unknown box {deck.box!r}")
                spec, (x, y) = self.boxes, zone.centre
            else:
                if deck.map not in self.layouts:
                    raise BuildError(f"{self.game.id}: deck {deck.id!r} names unknown map {deck.map!r}")
                spec, layout = self.layouts[deck.map]
                x, y = spec.grid.centre(*raw_index(layout, deck.hex))
            name = self.deck_names[deck.id]
            wrap = []
            if deck.face_down:
                wrap.append(obscurable(self._deck_back(deck), f"{name} counter"))
            if deck.return_command:
                wrap.append(return_to_deck(deck.return_command, name))
            cards = []
            for counter_id in deck.counters:
                counter = self.game.counters.get(counter_id)
                if counter is None:
                    raise BuildError(f"{self.game.id}: deck {deck.id!r} holds unknown counter {counter_id!r}")
                for _ in range(counter.count):
                    cards.append(Slot(plain_text(counter.name), self._next_gpid(),
                                      tuple(wrap) + self.designs[counter_id].traits, self.px))
                    self.card_slots.setdefault(counter_id, []).append(cards[-1])
            send_to = self.deck_names.get(deck.send_to) if deck.send_to else None
            if deck.send_to and send_to is None:
                raise BuildError(f"{self.game.id}: deck {deck.id!r} sends to unknown deck {deck.send_to!r}")
            spec.decks.append(DeckSpec(name=name, board=spec.board, x=x, y=y, size=self.px, cards=cards,
                                       face_down=deck.face_down, draw_face_up=deck.draw_face_up,
                                       shuffle=deck.shuffle, shuffle_command=plain_text(deck.shuffle_command),
                                       send_to=send_to, send_command=plain_text(deck.send_command or "")))
            self.deck_specs[deck.id] = (spec, spec.decks[-1])

    def deck_states(self, scenario: Scenario, place_card) -> list[DeckState]:
        """Every deck as the scenario starts it (``scenario.decks``; docs/vassal-decks.md): a named
        deck holds the counters listed for it, a deck no entry names its own counters less those
        the scenario lists elsewhere; counters listed with a ``turn`` wait on that turn's box of
        the turn track, those listed with a ``box`` in that box (``place_card``); an entry with
        ``pick`` takes that many of its copies, chosen with a generator seeded by the scenario
        (a build repeats itself)."""
        named = {e.deck for e in scenario.decks if e.box is None}
        listed = {c for e in scenario.decks for c in e.counters}
        holds: dict[str, list] = {d.id: [] if d.id in named else
                                  [s for c in d.counters if c not in listed for s in self._slots_of(c, scenario)]
                                  for d in self.game.decks}
        for n, entry in enumerate(scenario.decks):
            slots = [s for c in entry.counters for s in self._slots_of(c, scenario)]
            if entry.pick is not None:
                if entry.pick > len(slots):
                    raise BuildError(f"{self.game.id}: scenario {scenario.id} picks {entry.pick} of {len(slots)} "
                                     f"copies of {', '.join(entry.counters)}")
                chosen = set(random.Random(f"{scenario.id}:{n}").sample(range(len(slots)), entry.pick))
                slots = [s for i, s in enumerate(slots) if i in chosen]
            if entry.box is not None:
                zone = self._box_zone(entry.box, scenario)
            elif entry.turn is not None:
                zone = self._turn_box(entry.turn, scenario, "deck counters")
            elif entry.deck not in holds:
                raise BuildError(f"{self.game.id}: scenario {scenario.id} fills unknown deck {entry.deck!r}")
            else:
                holds[entry.deck] += slots
                continue
            for slot in slots:
                place_card(slot, *zone.centre)
        proto = self.proto_definitions
        states = []
        for deck in self.game.decks:
            spec, pile = self.deck_specs[deck.id]
            cards = [with_position(expand(slot.traits, proto), spec.name, pile.x, pile.y, slot.gpid)
                     for slot in holds[deck.id]]
            states.append(DeckState(deck_type(pile), spec.name, pile.x, pile.y, pile.face_down, cards))
        return states

    def _turn_box(self, turn: int, scenario: Scenario, what: str):
        zone = self.zones.get(turn_zone(turn))
        if zone is None:
            raise BuildError(f"{self.game.id}: scenario {scenario.id}: {what} on turn {turn} are beyond the turn track")
        return zone

    def _slots_of(self, counter_id: str, scenario: Scenario) -> list:
        slots = self.card_slots.get(counter_id)
        if not slots:
            raise BuildError(f"{self.game.id}: scenario {scenario.id} puts {counter_id!r} in a deck, but no deck "
                             f"of the game holds it")
        return slots

    # -- setups ------------------------------------------------------------------------------

    def setup(self, scenario: Scenario) -> Setup:
        game = self.game
        stacks: dict[tuple[str, int, int, int], Stack] = {}
        proto = self.proto_definitions

        def place(counter_id: str, map_name: str, x: int, y: int, state: str | None, where: str) -> None:
            counter = game.counters.get(counter_id)
            if counter is None:
                raise BuildError(f"{game.id}: scenario {scenario.id}: {where} names unknown counter {counter_id!r}")
            design = self.designs[counter_id]
            traits = with_position(expand(design.traits, proto), map_name, x, y, self.home_gpid[counter_id],
                                   design.level(state))
            layer = 1 if counter.is_marker else 0
            key = (map_name, x, y, layer)
            stacks.setdefault(key, Stack(map_name, x, y, layer)).pieces.append(traits)

        for placement in scenario.setup:
            where = "set-up"
            if placement.box:
                zone = self._turn_track_zone(placement) or self._box_zone(placement.box, scenario)
                for unit in placement.units:
                    place(unit, BOXES_MAP, *zone.centre, placement.state, where)
                continue
            spec, layout = self._map_for(placement.map or scenario.map, scenario)
            hexes = [placement.hex] if placement.hex is not None else list(placement.hexes)
            if not hexes:
                raise BuildError(f"{game.id}: scenario {scenario.id}: a set-up entry for "
                                 f"{', '.join(placement.units)} has neither a hex nor a box")
            for i, unit in enumerate(placement.units):
                x, y = spec.grid.centre(*raw_index(layout, hexes[i % len(hexes)]))
                place(unit, spec.name, x, y, placement.state, where)
        # Reinforcements whose data names a box wait in that box (one stack per turn, spread
        # over the box so that each turn's group stays apart); the others wait on the turn
        # track box of their turn.
        in_boxes: dict[str, list] = {}
        for r in scenario.reinforcements:
            if r.box:
                in_boxes.setdefault(r.box, []).append(r)
                continue
            zone = self._turn_box(r.turn, scenario, "reinforcements")
            for unit in r.units:
                place(unit, BOXES_MAP, *zone.centre, None, f"turn {r.turn} reinforcements")
        for box_id, arrivals in in_boxes.items():
            zone = self._box_zone(box_id, scenario)
            turns = sorted({r.turn for r in arrivals})
            for r in arrivals:
                spot = zone.spot(turns.index(r.turn), len(turns))
                for unit in r.units:
                    place(unit, BOXES_MAP, *spot, None, f"turn {r.turn} reinforcements in {zone.name}")
        turn_markers = [c for c in game.counters.values() if c.is_marker and c.type == "turn"]
        placed = {unit for p in scenario.setup for unit in p.units}
        if turn_markers and turn_zone(1) in self.zones and not placed & {c.id for c in turn_markers}:
            place(turn_markers[0].id, BOXES_MAP, *self.zones[turn_zone(1)].centre, None, "turn marker")
        decks = None
        if scenario.decks:
            def place_card(slot, x, y):
                traits = with_position(expand(slot.traits, proto), BOXES_MAP, x, y, slot.gpid)
                stacks.setdefault((BOXES_MAP, x, y, 1), Stack(BOXES_MAP, x, y, 1)).pieces.append(traits)
            decks = self.deck_states(scenario, place_card)
        boards = [(spec.name, spec.board) for spec in self.maps]
        return Setup(list(stacks.values()), boards, decks)

    def _map_for(self, map_id: str | None, scenario: Scenario):
        if map_id is None:
            return next(iter(self.layouts.values()))
        if map_id not in self.layouts:
            raise BuildError(f"{self.game.id}: scenario {scenario.id} names unknown map {map_id!r}")
        return self.layouts[map_id]

    def _turn_track_zone(self, placement):
        """The turn box for a marker the data puts on the game's own turn track at turn N."""
        box = next((b for m in self.game.maps.values() for b in m.boxes if b.id == placement.box), None)
        if box is None or not re.search(r"turn", f"{box.id} {box.name}", re.I) or not str(placement.state).isdigit():
            return None
        return self.zones.get(turn_zone(int(placement.state)))

    def _box_zone(self, box_id: str, scenario: Scenario):
        for zone in self.zones.values():
            if zone.box == box_id:
                return zone
        raise BuildError(f"{self.game.id}: scenario {scenario.id} places units in unknown box {box_id!r}")

    # -- the whole plan ----------------------------------------------------------------------

    def plan(self, progress: Progress) -> tuple[ModulePlan, dict[str, bytes]]:
        dead_name, dead_id = dead_pile_zone(self.game)
        dead_name = next(z.name for z in self.zones.values()
                         if (z.box == dead_id if dead_id else z.box is None and z.turn is None and z.name == dead_name))
        self.proto_definitions = prototypes(self.game, dead_map=BOXES_MAP, dead_zone=dead_name, px=self.px)
        palette = self.palette()
        self.decks()
        setups, files = [], {}
        stamp = _stamp_ms()
        for n, scenario in enumerate(self.game.scenarios.values()):
            progress(f"vassal: setup {scenario.name}")
            commands = setup_commands(self.setup(scenario), prefix=f"hf{n + 1}p")
            file = f"setup_{re.sub(r'[^A-Za-z0-9_.-]', '_', scenario.id)}.vsav"
            files[file] = vsav_bytes(commands, description=scenario.name, module_name=self.game.name,
                                     module_version=MODULE_VERSION, saved_at_ms=stamp)
            setups.append((plain_text(scenario.name), file))
        help_file = f"help/{re.sub(r'[^A-Za-z0-9_.-]', '_', self.game.id)}.html"
        files[help_file] = help_html(self.game, self.deck_names).encode("utf-8")
        plan = ModulePlan(
            name=self.game.name, version=MODULE_VERSION,
            description=f"{self.game.name}: generated by hexforge from the game's data",
            sides=[s.name for s in self.game.sides], maps=self.maps, prototypes=self.proto_definitions,
            palette=palette, setups=setups, charts=self.charts, dice=_dice(self.game), turns=self.turns,
            phases=list(self.game.turn_phases), next_gpid=self.gpid + 1,
            help=[(f"{plain_text(self.game.name)}: scenarios, cups and fog of war", help_file)],
        )
        return plan, files


def _fog_back(side_id: str) -> str:
    return f"fog_{re.sub(r'[^A-Za-z0-9_.-]', '_', side_id)}.png"


def _stamp_ms() -> int:
    """The save time written into the module: SOURCE_DATE_EPOCH if set, so builds can be reproduced."""
    return int(os.environ.get("SOURCE_DATE_EPOCH", time.time())) * 1000


def _self_check(game: Game, path: Path) -> None:
    """Read the module back as a player's VASSAL would: anything it would warn about fails the build."""
    from .reader import inspect

    problems = inspect(path)["problems"]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise BuildError(f"{game.id}: the VASSAL module does not read back cleanly: {'; '.join(problems[:3])}{more}")


def build_module(game: Game, out_dir: Path, progress: Progress = lambda message: None, *,
                 render_map=None, render_counter=None, dpi: int = DEFAULT_DPI,
                 timings: dict | None = None) -> list[Path]:
    """Write ``out_dir/<game id>.vmod`` and return its path in a list (a build step).

    ``render_map``/``render_counter`` default to :mod:`toolkit.render`'s; ``timings``, if
    given, receives the seconds spent on ``images``, ``xml`` and ``zip`` (the zip time includes
    reading the module back: a module VASSAL would warn about is not written).
    """
    timings = timings if timings is not None else {}
    render_map, render_counter = _renderers(render_map, render_counter)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        start = time.perf_counter()
        planner = _Planner(game, dpi, render_map, render_counter)
        planner.draw(progress)
        timings["images"] = time.perf_counter() - start
        start = time.perf_counter()
        plan, setup_files = planner.plan(progress)
        build = build_xml(plan)
        stamp = str(_stamp_ms())
        moduledata = metadata_xml(root_children=[
            ("version", plan.version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
            ("dateSaved", stamp), ("description", plan.description), ("name", plan.name)])
        timings["xml"] = time.perf_counter() - start
    except HexforgeError:
        raise
    except (ValueError, KeyError, OSError) as exc:
        raise BuildError(f"{game.id}: the VASSAL module could not be built: {exc}") from exc
    start = time.perf_counter()
    target = out_dir / f"{game.id}.vmod"
    with atomic_path(str(target)) as tmp:  # a module that fails its self-check is never written
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("moduledata", moduledata)
            zf.writestr("buildFile.xml", build)
            for name, data in planner.images.files.items():
                zf.writestr(zipfile.ZipInfo("images/" + name, time.gmtime(int(stamp) // 1000)[:6]), data,
                            compress_type=zipfile.ZIP_STORED)
            for name, data in setup_files.items():
                zf.writestr(name, data, compress_type=zipfile.ZIP_STORED)
        _self_check(game, Path(tmp))
    timings["zip"] = time.perf_counter() - start
    progress(f"vassal: {target.name} ({target.stat().st_size // 1024} KB, {len(plan.setups)} setups)")
    return [target]
