"""buildFile.xml in VASSAL 3.7's form, written with lxml (vassal-format.md §2, §3).

Element names are Java class names, attributes are written explicitly and in alphabetical
order (as VASSAL 3.6+ writes them), and piece definitions go in element text, never in
CDATA or attributes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from lxml import etree

from .boards import Zone
from .encoding import Trait, add_piece, encode
from .grid import VassalHexGrid
from .pieces import MARKERS_LAYER, UNITS_LAYER
from .savegame import VASSAL_VERSION

__all__ = ["Slot", "Panel", "Tab", "DeckSpec", "MapSpec", "ModulePlan", "build_xml", "SHUFFLE_OPTIONS", "deck_type",
           "pile_attributes"]

_B = "VASSAL.build."
_M = _B + "module."
_MAP = _M + "map."


@dataclass
class Slot:
    """A PieceSlot: palette entry name, unique gpid, piece chain and cell size."""

    name: str
    gpid: int
    traits: Sequence[Trait]
    size: int


@dataclass
class Panel:
    name: str
    slots: list[Slot]


@dataclass
class Tab:
    """A TabWidget whose entries are panels or further tabs."""

    name: str
    entries: list["Panel | Tab"]


#: Deck ``shuffle`` of the game data -> DrawPile ``shuffle`` (``Deck.ALWAYS``, ``USE_MENU``, ``NEVER``).
SHUFFLE_OPTIONS = {"always": "Always", "menu": "Via right-click Menu", "never": "Never"}


@dataclass
class DeckSpec:
    """One DrawPile: its name, board, board-local centre and cards (CardSlots)."""

    name: str
    board: str
    x: int
    y: int
    size: int
    cards: list[Slot]
    face_down: bool = True
    draw_face_up: bool = False
    shuffle: str = "always"
    shuffle_command: str = "Reshuffle"
    send_to: str | None = None          # the DrawPile name of the reshuffle target
    send_command: str | None = None


@dataclass
class MapSpec:
    """One VASSAL Map with one Board, and its hex grid or its zones."""

    name: str
    board: str
    image: str
    width: int
    height: int
    grid: VassalHexGrid | None = None
    zones: list[Zone] = field(default_factory=list)
    button: str = "Map"
    decks: list[DeckSpec] = field(default_factory=list)


@dataclass
class ModulePlan:
    """Everything the buildFile says, decided from the game by :mod:`.module`."""

    name: str
    version: str
    description: str
    sides: list[str]
    maps: list[MapSpec]
    prototypes: dict[str, list[Trait]]
    palette: Tab
    setups: list[tuple[str, str]]          # (setup name, file in the module)
    charts: list[tuple[str, str]]          # (chart name, image name)
    dice: list[tuple[str, int, int]]       # (name, number of dice, sides)
    turns: int
    phases: list[str]
    next_gpid: int
    help: list[tuple[str, str]] = field(default_factory=list)   # (title, html file in the module)


def _el(parent, tag: str, attrs: dict | None = None, text: str | None = None):
    element = etree.SubElement(parent, tag)
    for name in sorted(attrs or {}):
        element.set(name, str(attrs[name]))
    if text is not None:
        element.text = text
    return element


def _b(value: bool) -> str:
    return "true" if value else "false"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _piece_text(traits: Sequence[Trait]) -> str:
    text = add_piece(None, traits)
    # XML 1.0 cannot hold control characters other than TAB/CR/LF (ESC would break the file)
    if _CONTROL.search(text):
        raise ValueError("a piece definition contains a control character XML cannot hold")
    return text


def _map(root, spec: MapSpec, first: bool) -> None:
    fmt = "$pieceName$ moves $previousLocation$ -> $location$ *"
    m = _el(root, _M + "Map", {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": spec.button,
        "changeFormat": "$message$", "color": "0,0,0", "createFormat": "$pieceName$ created in $location$ *",
        "edgeHeight": "0", "edgeWidth": "0", "hideKey": "", "hotkey": "", "icon": "", "launch": "false",
        "mapName": spec.name, "markMoved": "Always", "markUnmovedHotkey": "", "markUnmovedIcon": "",
        "markUnmovedReport": "", "markUnmovedText": "Mark unmoved" if first else "",
        "markUnmovedTooltip": "Mark all pieces on this map as not moved", "moveKey": "",
        "moveToFormat": fmt, "moveWithinFormat": fmt, "onlyReportChangedLocation": "false", "showKey": "",
        "thickness": "3", "tooltip": f"Show/hide {spec.name}",
    })
    picker = _el(m, _MAP + "BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board",
        "slotHeight": "125", "slotScale": "0.2", "slotWidth": "350", "title": "Choose Boards"})
    board = _el(picker, _MAP + "boardPicker.Board", {"image": spec.image, "name": spec.board, "reversible": "false"})
    grid_ns = _MAP + "boardPicker.board."
    if spec.grid is not None:
        hexgrid = _el(board, grid_ns + "HexGrid", spec.grid.hexgrid_attributes())
        _el(hexgrid, grid_ns + "mapgrid.HexGridNumbering", spec.grid.numbering_attributes())
    else:
        zoned = _el(board, grid_ns + "ZonedGrid")
        for zone in spec.zones:
            _el(zoned, grid_ns + "mapgrid.Zone", {
                "highlightProperty": "", "locationFormat": "$name$", "name": zone.name, "path": zone.path,
                "useHighlight": "false", "useParentGrid": "false"})
        _el(zoned, grid_ns + "mapgrid.ZonedGridHighlighter")
    _el(m, _MAP + "StackMetrics", {
        "bottom": "40,0", "color": "", "disabled": "false", "down": "37,0", "exSepX": "6", "exSepY": "18",
        "top": "38,0", "unexSepX": "2", "unexSepY": "4", "up": "39,0"})
    for name in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                 "StackExpander", "PieceMover", "KeyBufferer"):
        _el(m, _MAP + name)
    _el(m, _MAP + "ImageSaver", {"buttonText": "", "hotkey": "", "icon": "/images/camera.gif",
                                  "tooltip": "Save map as PNG image"})
    _el(m, _MAP + "CounterDetailViewer", {
        "delay": "700", "hotkey": "32,130", "minDisplayPieces": "2", "showgraph": "true", "version": "4",
        "zoomlevel": "1.0"})
    _el(m, _MAP + "Zoomer", {"zoomLevels": "0.25,0.333,0.5,0.625,0.75,1.0,1.25,1.6", "zoomStart": "6"})
    _el(m, _MAP + "HidePiecesButton", {"buttonText": "", "hotkey": "", "tooltip": "Hide all pieces on this map"})
    if first:
        _el(m, _MAP + "GlobalMap", {"buttonText": "", "color": "0,0,0", "hotkey": "79,195",
                                     "scale": "0.19444444", "tooltip": "Show/Hide overview window"})
    _el(m, _MAP + "SelectionHighlighters")
    _el(m, _MAP + "HighlightLastMoved", {"color": "255,0,0", "enabled": "true", "thickness": "2"})
    _el(m, _M + "properties.GlobalProperties")
    _el(m, _MAP + "LayeredPieceCollection", {"description": "", "layerOrder": f"{UNITS_LAYER},{MARKERS_LAYER}",
                                             "property": "Layer"})
    for deck in spec.decks:
        _deck(m, deck)


def pile_attributes(deck: DeckSpec) -> dict[str, str]:
    """The DrawPile's attributes: every one ``DrawPile.getAttributeNames`` lists."""
    sends = deck.send_to is not None
    return {
        "name": deck.name, "description": "", "owningBoard": deck.board, "x": str(deck.x), "y": str(deck.y),
        "width": str(deck.size), "height": str(deck.size),
        "allowMultiple": "false", "drawMultipleMessage": "Draw multiple counters",
        "allowSelect": "false", "drawSpecificMessage": "Draw specific counters",
        "selectDisplayProperty": "$BasicName$", "selectSortProperty": "",
        "faceDown": "Always" if deck.face_down else "Never", "faceFlipHotkey": "",
        "faceUpMessage": "Face up", "faceUpHotkey": "", "faceUpReportFormat": "",
        "faceDownMessage": "Face down", "faceDownHotkey": "", "faceDownFormat": "",
        "drawFaceUp": _b(deck.draw_face_up),
        "shuffle": SHUFFLE_OPTIONS[deck.shuffle], "shuffleCommand": deck.shuffle_command,
        "shuffleFormat": "* $deckName$: $commandName$ *", "shuffleHotkey": "",
        "reversible": "false", "reverseCommand": "Reverse", "reverseFormat": "", "reverseHotkey": "",
        "draw": "true", "color": "0,0,0", "hotkeyOnEmpty": "false", "emptyHotkey": "",
        "reshufflable": _b(sends), "reshuffleCommand": (deck.send_command or "") if sends else "",
        "reshuffleMessage": "* $deckName$: $commandName$ *" if sends else "", "reshuffleHotkey": "",
        "reshuffleTarget": deck.send_to or "",
        "canSave": "false", "saveMessage": "Save Deck", "saveHotkey": "", "saveReportFormat": "",
        "loadMessage": "Load Deck", "loadHotkey": "", "loadReportFormat": "",
        "maxStack": "10", "expressionCounting": "false", "countExpressions": "",
        "restrictOption": "false", "restrictExpression": "", "deckRestrictAccess": "false", "deckOwners": "",
    }


#: ``Deck.getType`` field by field: the DrawPile attribute each comes from (``DrawPile.setAttribute``
#: copies it into the pile's template Deck, whose type a new game's Deck takes). Hotkeys are
#: all empty here and NamedHotKeyConfigurer writes an empty key as ""; a string array attribute
#: ("" here) is written back as "" (StringArrayConfigurer); no DeckGlobalKeyCommand: "".
DECK_TYPE_FIELDS = (
    "draw", "color", "width", "height", "faceDown", "shuffle", "allowMultiple", "allowSelect", "reversible",
    "reshuffleCommand", "reshuffleTarget", "reshuffleMessage", "name", "shuffleFormat", "reverseFormat",
    "faceDownFormat", "drawFaceUp", "canSave", "shuffleHotkey", "reshuffleHotkey", "maxStack", "countExpressions",
    "expressionCounting", None, "hotkeyOnEmpty", "emptyHotkey", "selectDisplayProperty", "selectSortProperty",
    "restrictOption", "restrictExpression", "shuffleCommand", "reverseCommand", "reverseHotkey",
    "drawMultipleMessage", "drawSpecificMessage", "faceUpMessage", "faceDownMessage", "faceUpHotkey",
    "faceUpReportFormat", "faceFlipHotkey", "faceDownHotkey", "saveMessage", "saveHotkey", "saveReportFormat",
    "loadMessage", "loadHotkey", "loadReportFormat", "deckRestrictAccess", "deckOwners")


def deck_type(deck: DeckSpec) -> str:
    """The type of the Deck VASSAL makes from this DrawPile (``Deck.getType``: ``deck;`` and 49
    fields); a saved game writes it in the Deck's AddPiece. Needs the hotkeys, arrays and
    colour of :func:`pile_attributes` as they are (empty, empty, opaque black)."""
    attrs = pile_attributes(deck)
    for name in ("shuffleHotkey", "reshuffleHotkey", "emptyHotkey", "reverseHotkey", "faceUpHotkey",
                 "faceFlipHotkey", "faceDownHotkey", "saveHotkey", "loadHotkey", "countExpressions", "deckOwners"):
        if attrs[name]:
            raise ValueError(f"deck {deck.name}: {name} {attrs[name]!r} has no Deck.getType encoding here")
    return "deck;" + encode(["" if name is None else attrs[name] for name in DECK_TYPE_FIELDS], ";")


def _deck(parent, deck: DeckSpec) -> None:
    """A DrawPile with every attribute ``DrawPile.getAttributeNames`` lists, then its CardSlots."""
    pile = _el(parent, _MAP + "DrawPile", pile_attributes(deck))
    for card in deck.cards:
        _el(pile, _B + "widget.CardSlot",
            {"entryName": card.name, "gpid": str(card.gpid), "height": str(card.size), "width": str(card.size)},
            _piece_text(card.traits))


def _slot(parent, slot: Slot) -> None:
    _el(parent, _B + "widget.PieceSlot",
        {"entryName": slot.name, "gpid": str(slot.gpid), "height": str(slot.size), "width": str(slot.size)},
        _piece_text(slot.traits))


def _widget(parent, entry: "Panel | Tab") -> None:
    if isinstance(entry, Tab):
        tab = _el(parent, _B + "widget.TabWidget", {"description": "", "entryName": entry.name})
        for child in entry.entries:
            _widget(tab, child)
    else:
        panel = _el(parent, _B + "widget.PanelWidget", {
            "description": "", "entryName": entry.name, "fixed": "false", "nColumns": "6", "scale": "1.0",
            "vert": "false"})
        for slot in entry.slots:
            _slot(panel, slot)


def build_xml(plan: ModulePlan) -> bytes:
    """The buildFile.xml bytes of ``plan``."""
    root = etree.Element(_B + "GameModule")
    for name, value in sorted({
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION, "description": plan.description,
        "name": plan.name, "nextPieceSlotId": str(plan.next_gpid), "version": plan.version,
    }.items()):
        root.set(name, value)
    _el(root, _M + "BasicCommandEncoder")
    doc = _el(root, _M + "Documentation")
    _el(doc, _M + "documentation.HelpFile", {"fileName": "/help/Intro.html", "fileType": "resource",
                                              "title": "Vassal Quick Start", "vassalDoc": "vassal"})
    for title, file in plan.help:
        _el(doc, _M + "documentation.HelpFile", {"fileName": file, "fileType": "archive", "title": title})
    roster = _el(root, _M + "PlayerRoster", {"buttonText": "Retire", "buttonToolTip": "Switch sides"})
    for side in plan.sides:
        _el(roster, "entry", text=side)
    _el(root, _M + "GlobalOptions", {
        "autoReport": "Always", "nonOwnerUnmaskable": "Never", "playerIdFormat": "$PlayerName$",
        "promptString": "Opponents can unmask my pieces"})
    _el(root, _M + "Chatter")
    _el(root, _M + "KeyNamer")
    for i, spec in enumerate(plan.maps):
        _map(root, spec, first=i == 0)
    protos = _el(root, _M + "PrototypesContainer")
    for name, traits in plan.prototypes.items():
        _el(protos, _M + "PrototypeDefinition", {"description": "", "name": name}, _piece_text(traits))
    window = _el(root, _M + "PieceWindow", {
        "defaultWidth": "0", "description": "", "hidden": "false", "hotkey": "", "icon": "", "name": "Counters",
        "scale": "1.0", "text": "Counters", "tooltip": "Show/Hide the counter palettes"})
    _widget(window, plan.palette)
    for name, n, sides in plan.dice:
        _el(root, _M + "DiceButton", {
            "addToTotal": "0", "hotkey": "", "icon": "", "keepCount": "1", "keepDice": "false",
            "keepOption": ">", "lockAdd": "false", "lockDice": "false", "lockPlus": "false", "lockSides": "false",
            "nDice": str(n), "nSides": str(sides), "name": name, "plus": "0", "prompt": "false",
            "reportFormat": "** $name$ = $result$ *** <$PlayerName$>", "reportTotal": "false",
            "sortDice": "false", "text": name, "tooltip": f"Roll {name}"})
    if plan.turns:
        tracker = _el(root, _M + "turn.TurnTracker", {
            "buttonText": "Turn", "description": "", "fwdOnly": "false", "hotkey": "", "icon": "",
            "length": "-1", "lengthStyle": "Maximum", "name": "Turn", "nexthotkey": "", "prevhotkey": "",
            "reportFormat": "* <$PlayerId$> Turn Updated from $oldTurn$ to $newTurn$",
            "turnFormat": "Turn $level1$ - $level2$" if plan.phases else "Turn $level1$"})
        level = _el(tracker, _M + "turn.CounterTurnLevel", {
            "incr": "1", "loop": "false", "loopLimit": "-1", "name": "Turn", "property": "Turn", "start": "1",
            "turnFormat": "$value$"})
        if plan.phases:
            _el(level, _M + "turn.ListTurnLevel", {
                "configFirst": "false", "configList": "false", "list": encode(plan.phases, ","),
                "name": "Phase", "property": "Phase", "prompt": "", "turnFormat": "$value$"})
    for name, file in plan.setups:
        _el(root, _M + "PredefinedSetup", {"description": "", "file": file, "isMenu": "false", "name": name,
                                           "useFile": "true"})
    _el(root, _M + "Inventory", {
        "groupBy": "SideName,Formation", "hotkey": "", "icon": "", "include": '{Layer=="Units"}',
        "leafFormat": "$PieceName$ ($LocationName$)", "name": "Order of battle",
        "nonLeafFormat": "$PropertyValue$", "text": "OOB", "tooltip": "Show the units and where they are"})
    if plan.charts:
        charts = _el(root, _M + "ChartWindow", {"description": "", "hotkey": "", "icon": "", "name": "Charts",
                                                "text": "Charts", "tooltip": "Show the charts and tables"})
        tab = _el(charts, _B + "widget.TabWidget", {"description": "", "entryName": "Charts"})
        for name, image in plan.charts:
            _el(tab, _B + "widget.Chart", {"chartName": name, "description": "", "fileName": image})
    _el(root, _M + "properties.GlobalProperties")
    _el(root, _M + "properties.GlobalTranslatableMessages")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)
