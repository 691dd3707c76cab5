"""Large VASSAL modules written the way VASSAL's editor writes them, for the reader benchmark.

Published modules of 50-150 MB (their public sources carry no licence that lets hexforge
keep them) have hundreds of piece slots of long trait chains built on dozens of
prototypes, decks of cards, several maps, zones, hundreds of images and saved setups of
thousands of pieces. :func:`make_module` writes one with those proportions, seeded, so the
benchmark measures the reader on the same shape every run.
"""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from PIL import Image

from toolkit.vassal.encoding import ESC, Trait, add_piece, encode
from toolkit.vassal.savegame import obfuscate

B = "VASSAL.build."
_BOARD = (2400, 1800)        # the hex map's board image (pixels)
_DX, _DY, _X0, _Y0 = 60.0, 69.0, 40, 35


def _noise_image(rnd: random.Random, size: tuple[int, int], kind: str) -> bytes:
    """A picture that compresses like a scanned counter or card (noise over flat colour)."""
    base = Image.new("RGB", size, tuple(rnd.randrange(256) for _ in range(3)))
    noise = Image.frombytes("RGB", (size[0], size[1] // 2), rnd.randbytes(size[0] * (size[1] // 2) * 3))
    base.paste(noise, (0, size[1] // 4))
    out = io.BytesIO()
    if kind == "jpg":
        base.save(out, "JPEG", quality=85)
    else:
        base.save(out, "PNG", compress_level=1)
    return out.getvalue()


def _traits(rnd: random.Random, n: int, images: list[str]) -> list[Trait]:
    """``n`` decorators of the kinds published modules use most, with realistic fields."""
    kinds = [
        lambda i: Trait("emb2;" + encode(["Activate", 128, "A", "Flip", 128, "", "", 128, "", "", "", 1, False, 0, 0,
                                          encode(rnd.sample(images, 2), ","), encode(["", "+ flipped"], ","), True,
                                          f"Layer {i}", "", "", False, "", 1, 1, True, "", "70,130", "", "", "1.0",
                                          "", True], ";"), "1"),
        lambda i: Trait("mark;" + encode([f"Prop{i}", f"Class{i}"], ","), encode([str(rnd.randrange(99)), "x"], ",")),
        lambda i: Trait("report;" + encode([encode(["70,130", "82,130"], ","), f"* $location$: $oldPieceName$ {i}",
                                            "", "", "", False], ";"), "-1"),
        lambda i: Trait("macro;" + encode([f"Macro {i}", "", "77,130", "", "", encode(["65,130", "66,130"], ","),
                                           False, "", 1, ""], ";"), ""),
        lambda i: Trait("calcProp;" + encode([f"Calc{i}", "{Prop1 + 2 * Prop2}", ""], ";"), ""),
        lambda i: Trait("PROP;" + encode([f"Dyn{i}", False, 0, 10, True, encode(["Increase,73,130,1"], ",")], ";"),
                        str(rnd.randrange(10))),
        lambda i: Trait("globalkey;" + encode([f"Global {i}", "71,130", "72,130", "{CurrentMap == \"Main\"}", -1, False,
                                               False, "", "", ""], ";"), ""),
        lambda i: Trait("sendto;" + encode([f"Send {i}", "83,130", "Main", "", 0, 0, "", "", 0, 0, 1, 1, "Send",
                                            "Z", "Reserve", "", "", ""], ";"), ";;"),
        lambda i: Trait("label;" + encode(["76,130", f"Label {i}", 10, "0,0,0", "255,255,255", "t", 0, "c", 0, 0,
                                           "c", "c", "$pieceName$ ($label$)", "Dialog", 0, 0, "TextLabel"], ";"),
                        f"text {i}"),
        lambda i: Trait("hideCmd;" + encode([f"Hidden {i}"], ";"), ""),
        lambda i: Trait("setprop;" + encode([f"Dyn{i}", False, 0, 10, True, ""], ";"), str(i)),
    ]
    return [kinds[(i + rnd.randrange(3)) % len(kinds)](i) for i in range(n)]


def _basic(image: str, name: str, state: str = "null;0;0;;0") -> Trait:
    return Trait("piece;" + encode(["", "", image, name], ";"), state)


def _slot(tag: str, name: str, gpid: int, traits: list[Trait]) -> str:
    return (f'<{B}widget.{tag} entryName="{escape(name)}" gpid="{gpid}" height="60" width="60">'
            f'{escape(add_piece(None, traits))}</{B}widget.{tag}>')


def _placed(traits: list[Trait], map_name: str, x: int, y: int, gpid: int) -> list[Trait]:
    basic = traits[-1]
    return traits[:-1] + [Trait(basic.type, encode([map_name, x, y, gpid, 0], ";"))]


def make_module(path: Path, *, slots: int = 780, setups: int = 4, pieces: int = 3000, cards: int = 220,
                images_mb: float = 60.0, seed: int = 1) -> dict:
    """Write a module of about ``images_mb`` of images to ``path``; returns what it holds."""
    rnd = random.Random(seed)
    images: dict[str, bytes] = {"board.jpg": _noise_image(rnd, _BOARD, "jpg"),
                                "boxes.png": _noise_image(rnd, (900, 600), "png")}
    counter_images, card_images = [], []
    total = sum(map(len, images.values()))
    n = 0
    while total < images_mb * 1e6 or len(card_images) < 2:
        n += 1
        if n % 3:
            name, data = f"counter_{n}.png", _noise_image(rnd, (96, 96), "png")
            counter_images.append(name)
        else:
            name, data = f"card_{n}.jpg", _noise_image(rnd, (260, 380), "jpg")
            card_images.append(name)
        images[name] = data
        total += len(data)
    # prototypes: a few dozen, each of 8-30 traits, some using others
    protos = {}
    for p in range(40):
        chain = _traits(rnd, rnd.randrange(8, 30), counter_images)
        if p and rnd.random() < 0.4:
            chain.insert(0, Trait(f"prototype;Proto {rnd.randrange(p)}", ""))
        protos[f"Proto {p}"] = chain + [_basic("", "")]
    proto_xml = "".join(f'<{B}module.PrototypeDefinition description="" name="{n}">{escape(add_piece(None, t))}'
                        f'</{B}module.PrototypeDefinition>' for n, t in protos.items())
    # the palette: piece slots of 20-60 traits behind two or three prototypes
    designs, palette = [], []
    for s in range(slots):
        chain = ([Trait(f"prototype;Proto {rnd.randrange(40)}", "") for _ in range(rnd.randrange(2, 4))]
                 + _traits(rnd, rnd.randrange(20, 60), counter_images)
                 + [Trait("mark;" + encode(["Side", "UnitId"], ","), encode([rnd.choice(["Red", "Blue"]), f"u{s}"], ","))]
                 + [_basic(counter_images[s % len(counter_images)], f"Unit {s}")])
        designs.append((s + 1, chain))
        palette.append(_slot("PieceSlot", f"Unit {s}", s + 1, chain))
    panels = "".join(f'<{B}widget.PanelWidget entryName="Folder {i}" nColumns="8">{"".join(palette[i::8])}'
                     f'</{B}widget.PanelWidget>' for i in range(8))
    # decks of cards (a Mask and a Return to Deck each)
    deck_xml, card_designs = [], []
    for d in range(4):
        deck_cards = []
        for c in range(cards // 4):
            gpid = 10_000 + d * 1000 + c
            chain = [Trait("obs;" + encode(["72,130", "back.png", "Hide", "P", "Card", "player:", "Peek", "Face down",
                                             True, "", ""], ";"), "null;"),
                     Trait("return;" + encode(["Discard", "82,195", "", "Select", "Discard", 2, False,
                                               f"Deck {d} Discard"], ";"), "")] + _traits(rnd, 12, card_images) + [
                _basic(card_images[(d * 97 + c) % len(card_images)], f"Card {d}-{c}")]
            card_designs.append((gpid, chain))
            deck_cards.append(_slot("CardSlot", f"Card {d}-{c}", gpid, chain))
        for name, contents in ((f"Deck {d}", "".join(deck_cards)), (f"Deck {d} Discard", "")):
            deck_xml.append(f'<{B}module.map.DrawPile allowMultiple="false" allowSelect="false" draw="true" '
                            f'faceDown="Always" name="{name}" owningBoard="" reshufflable="false" shuffle="Always" '
                            f'x="{100 + 150 * d}" y="{100 + 300 * (name.endswith("Discard"))}">{contents}'
                            f'</{B}module.map.DrawPile>')
    images["back.png"] = _noise_image(rnd, (260, 380), "png")
    grid = (f'<{B}module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" '
            f'dx="{_DX}" dy="{_DY}" edgesLegal="false" sideways="false" snapTo="true" visible="true" x0="{_X0}" '
            f'y0="{_Y0}"><{B}module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" '
            f'fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="0" hType="N" '
            f'locationFormat="$gridLocation$" rotateText="0" sep="" stagger="true" vDescend="false" vDrawOff="0" '
            f'vLeading="1" vOff="0" vType="N" visible="true"/></{B}module.map.boardPicker.board.HexGrid>')
    zones = "".join(f'<{B}module.map.boardPicker.board.mapgrid.Zone highlightProperty="" locationFormat="$name$" '
                    f'name="Box {z}" path="{z * 150},0;{z * 150 + 150},0;{z * 150 + 150},300;{z * 150},300" '
                    f'useHighlight="false" useParentGrid="false"/>' for z in range(6))

    def vmap(name, board, extra=""):
        return (f'<{B}module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="{name}" '
                f'edgeHeight="0" edgeWidth="0" launch="false" mapName="{name}" markMoved="Always">'
                f'<{B}module.map.BoardPicker title="Choose Boards">{board}</{B}module.map.BoardPicker>'
                f'<{B}module.map.StackMetrics/><{B}module.map.PieceMover/>{extra}</{B}module.Map>')

    maps = (vmap("Main", f'<{B}module.map.boardPicker.Board image="board.jpg" name="Main board" reversible="false">'
                         f'{grid}</{B}module.map.boardPicker.Board>')
            + vmap("Boxes", f'<{B}module.map.boardPicker.Board image="boxes.png" name="Boxes" reversible="false">'
                            f'<{B}module.map.boardPicker.board.ZonedGrid>{zones}'
                            f'</{B}module.map.boardPicker.board.ZonedGrid></{B}module.map.boardPicker.Board>',
                   "".join(deck_xml)))
    setup_files = {}
    for s in range(setups):
        commands = ["begin_save"]
        for p in range(pieces):
            gpid, chain = designs[rnd.randrange(len(designs))]
            if p % 5 == 4:
                x, y = rnd.randrange(10, 890), rnd.randrange(10, 290)
                commands.append(add_piece(f"s{s}p{p}", _placed(chain, "Boxes", x, y, gpid)))
            else:
                x, y = rnd.randrange(40, _BOARD[0] - 40), rnd.randrange(40, _BOARD[1] - 40)
                commands.append(add_piece(f"s{s}p{p}", _placed(chain, "Main", x, y, gpid)))
        for d in range(4):   # the decks, each holding its cards (a Deck is not a BasicPiece)
            ids = []
            for c, (gpid, chain) in enumerate(card_designs[d * (cards // 4):(d + 1) * (cards // 4)]):
                ids.append(f"s{s}c{d}-{c}")
                commands.append(add_piece(ids[-1], _placed(chain, "Boxes", 100 + 150 * d, 100, gpid)))
            kind = encode([False, "255,255,255", 260, 380, "Always", "Always", False, False, False, "Reshuffle", "",
                           "", f"Deck {d}", "", "", "", False, True], ";")   # Deck.getType's first fields
            commands.append(add_piece(f"s{s}d{d}", [Trait("deck;" + kind, encode(["Boxes", 100 + 150 * d, 100, True,
                                                                                   encode(ids, ",")], ";"))]))
        commands += ["MainBoardPicker\tMain board\t0\t0", "BoxesBoardPicker\tBoxes\t0\t0", "end_save"]
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("savedGame", obfuscate(encode(commands, ESC), key=0x4d))
        setup_files[f"Scenario {s}"] = (f"setup{s}.vsav", inner.getvalue())
    setup_xml = "".join(f'<{B}module.PredefinedSetup file="{f}" isMenu="false" name="{n}" useFile="true"/>'
                        for n, (f, _) in setup_files.items())
    xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
           f'<{B}GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.26" description="" name="Synthetic" '
           f'nextPieceSlotId="20000" version="1.0">\n<{B}module.BasicCommandEncoder/>\n'
           f'<{B}module.PlayerRoster buttonText="Retire"><entry>Red</entry><entry>Blue</entry>'
           f'</{B}module.PlayerRoster>\n{maps}\n'
           f'<{B}module.PrototypesContainer>{proto_xml}</{B}module.PrototypesContainer>\n'
           f'<{B}module.PieceWindow hidden="false" text="Pieces"><{B}widget.TabWidget entryName="Counters">'
           f'{panels}</{B}widget.TabWidget></{B}module.PieceWindow>\n{setup_xml}\n'
           f'<{B}module.DiceButton name="1d6" nDice="1" nSides="6"/>\n</{B}GameModule>\n')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:   # as 7z -mx1 does
        zf.writestr("buildFile.xml", xml)
        zf.writestr("moduledata", '<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1.0</version>'
                                  '<VassalVersion>3.7.26</VassalVersion><name>Synthetic</name></data>')
        for name, data in images.items():
            zf.writestr("images/" + name, data)
        for file, data in setup_files.values():
            zf.writestr(file, data)
    return {"images": len(images), "slots": slots, "cards": cards, "setups": setups,
            "setup_pieces": setups * (pieces + cards)}
