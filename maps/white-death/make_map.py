"""Regenerate map.yaml of White Death from the velikiye-luki map (an estimate, kept reproducible).

The 1991 manual prints no map and names no hex (notes 2.1, 13.1). This script lays a one-mile
grid over the ground of maps/velikiye-luki (2.5 km hexes), resamples that map's estimated
terrain, Lovat, streams, railways and roads onto it, and adds what the manual's text places:
the multi-hex city of Velikiye Luki on both banks with the Citadel and seven bunker hexes, the
four railroads leaving the west edge (17 B), the lakes north of the relief corridor (Scen. II),
the northern swamps, the four standing Lowatj bridges (20). Run from the repository root:
``python3 maps/white-death/make_map.py > maps/white-death/map.yaml``. The shared frame (FRAME)
is what tests/rulesets/white_death/test_map.py checks places against.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from toolkit.hexes import Grid, Hex, Numbering  # noqa: E402
from toolkit.io import load_map  # noqa: E402

MILE = 1.609344
#: White Death hex (col, row) -> km in the velikiye-luki map's frame (x east, y south, from
#: the centre of its hex 0101); both grids are flat-topped with even columns half a hex lower.
FRAME = {"x0": -3.433, "y0": -3.417, "hex_km": MILE, "vl_hex_km": 2.5}
COLS, ROWS = 30, 34
GRID = Grid(1, COLS, 1, ROWS, numbering=Numbering())


def wd_km(h: Hex) -> tuple[float, float]:
    s = FRAME["hex_km"]
    return ((h.col - 1) * s * math.sqrt(3) / 2 + FRAME["x0"],
            (h.row - 1) * s + (s / 2 if h.col % 2 == 0 else 0) + FRAME["y0"])


def vl_km(h: Hex) -> tuple[float, float]:
    s = FRAME["vl_hex_km"]
    return (h.col - 1) * s * math.sqrt(3) / 2, (h.row - 1) * s + (s / 2 if h.col % 2 == 0 else 0)


VL = load_map("maps/velikiye-luki/map.yaml")
VL_HEXES = list(VL.grid)
WD_HEXES = list(GRID)


def nearest(points, hexes, km):
    return min(hexes, key=lambda h: (km(h)[0] - points[0]) ** 2 + (km(h)[1] - points[1]) ** 2)


def chain(points: list[tuple[float, float]]) -> list[Hex]:
    """The WD hexes along a polyline (km), consecutive hexes adjacent."""
    out: list[Hex] = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(math.hypot(x1 - x0, y1 - y0) / 0.3))
        for i in range(n + 1):
            h = nearest((x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n), WD_HEXES, wd_km)
            if out and h == out[-1]:
                continue
            if out and not GRID.adjacent(out[-1], h):
                for g in GRID.line(out[-1], h)[1:-1]:
                    out.append(g)
            out.append(h)
    # drop back-and-forth, then shortcut zig-zags (a hex whose two neighbours touch)
    clean: list[Hex] = []
    for h in out:
        if h in clean:
            clean = clean[:clean.index(h) + 1]
        else:
            clean.append(h)
    i = 1
    while i < len(clean) - 1:
        if GRID.adjacent(clean[i - 1], clean[i + 1]):
            del clean[i]
        else:
            i += 1
    return clean


def fmt(h: Hex) -> str:
    return GRID.format(h)


def ids(hexes) -> str:
    return " ".join(fmt(h) for h in hexes)


def wd(col: int, row: int) -> Hex:
    return Hex(col, row)


def vl_point(text: str) -> tuple[float, float]:
    return vl_km(VL.grid.parse(text))


# -- base terrain resampled ---------------------------------------------------------------
CODE = {"clear": ".", "wooded": "f", "swamp": "s", "heights": "h", "lake": "."}
terrain: dict[Hex, str] = {}
for h in WD_HEXES:
    v = nearest(wd_km(h), VL_HEXES, vl_km)
    terrain[h] = CODE.get(VL.terrain(v), ".")

# the northern swamps (history): rows 1-6 east of the Lowatj become swamp where not forest
for h in WD_HEXES:
    if h.row <= 5 and h.col >= 16 and terrain[h] == "." and (h.col + h.row) % 3:
        terrain[h] = "s"

# -- the Lowatj (river hexes), from the velikiye-luki Lovat hexsides --------------------
lovat = [f for sides in VL.hexsides.values() for f in sides if f.name == "Lovat"]
mid = [((vl_km(f.side.a)[0] + vl_km(f.side.b)[0]) / 2, (vl_km(f.side.a)[1] + vl_km(f.side.b)[1]) / 2)
       for f in lovat]
mid.sort(key=lambda p: p[1])
VLCITY = wd(19, 14)
# through the middle of the city (it lies on both banks in 1942), else the Lovat line
pts = [p for p in mid if not (12.0 < p[1] < 23.0)]
pts.append(wd_km(VLCITY))
pts.sort(key=lambda p: p[1])
pts = [(pts[0][0], -4.0), *pts, (pts[-1][0], 52.0)]
lowatj = [h for h in chain(pts) if h in GRID]

# creeks from the two velikiye-luki streams, plus one estimated creek east of the Lowatj
creeks = []
for name in ("tributary east of Velikiye Luki", "stream at Novosokolniki"):
    feats = [f for sides in VL.hexsides.values() for f in sides if f.name == name]
    p = [((vl_km(f.side.a)[0] + vl_km(f.side.b)[0]) / 2, (vl_km(f.side.a)[1] + vl_km(f.side.b)[1]) / 2)
         for f in feats]
    p.sort(key=lambda q: q[0] if name.startswith("trib") else q[1])
    creeks.append((name, [h for h in chain(p) if h not in lowatj]))
creeks.append(("Kuwschinowka creek (estimated)",
               [h for h in chain([wd_km(wd(29, 6)), wd_km(wd(25, 8)), wd_km(wd(21, 9)), wd_km(wd(20, 9))])
                if h not in lowatj]))

# -- towns ----------------------------------------------------------------------------------
city = [VLCITY, wd(19, 13), wd(19, 15), wd(18, 13), wd(18, 14), wd(20, 13), wd(20, 14)]
bunkers = list(city)            # seven bunker hexes (19): every hex of the city
towns = {
    "Velikiye Luki": city,
    "Nowossokoljniki": [wd(5, 16), wd(6, 15)],
    "Isotcha": [wd(5, 26)],
    "Tschemosjom": [nearest(vl_point("0406"), WD_HEXES, wd_km)],
    "Guschtschino": [wd(10, 22)],
    "Gorki": [nearest(vl_point("0802"), WD_HEXES, wd_km)],
    "Opukhliki": [nearest(vl_point("0518"), WD_HEXES, wd_km)],
    "Maslowo": [wd(5, 8)],
}

# -- railroads ------------------------------------------------------------------------------
NOW = wd(5, 16)
rails = [
    ("Nevel-Leningrad railroad (north)", chain([wd_km(NOW), wd_km(wd(5, 8)), wd_km(wd(5, 1))])),
    ("Nevel-Leningrad railroad (south)", chain([wd_km(NOW), wd_km(wd(5, 26)), wd_km(wd(6, 34))])),
    ("railroad west of Nowossokoljniki", chain([wd_km(NOW), wd_km(wd(1, 16))])),
    ("railroad to the northwest corner", chain([wd_km(wd(5, 8)), wd_km(wd(1, 3))])),
    ("railroad to the southwest (1)", chain([wd_km(wd(5, 26)), wd_km(wd(1, 24))])),
    ("railroad to the southwest (2)", chain([wd_km(wd(5, 26)), wd_km(wd(1, 31))])),
    ("Velikiye Luki-Nowossokoljniki railroad", chain([wd_km(VLCITY), wd_km(wd(18, 15)), wd_km(wd(6, 15))])),
    ("Velikiye Luki-Rzhev railroad", chain([wd_km(VLCITY), wd_km(wd(30, 17))])),
    ("Velikiye Luki-Toropets railroad", chain([wd_km(VLCITY), wd_km(wd(30, 7))])),
    ("Velikiye Luki-Nevel railroad", chain([wd_km(VLCITY), wd_km(wd(17, 22)), wd_km(wd(13, 34))])),
]
roads = [
    ("Velikiye Luki-Nowossokoljniki road", chain([wd_km(VLCITY), wd_km(wd(14, 13)), wd_km(wd(6, 15))])),
    ("Gorki road", chain([wd_km(wd(19, 13)), wd_km(towns["Gorki"][0]), wd_km(wd(17, 1))])),
    ("Toropets road", chain([wd_km(wd(20, 13)), wd_km(wd(30, 12))])),
    ("Nevel road", chain([wd_km(wd(19, 15)), wd_km(wd(18, 24)), wd_km(wd(16, 34))])),
    ("south-east road", chain([wd_km(wd(19, 15)), wd_km(wd(26, 27)), wd_km(wd(30, 29))])),
    ("Nowossokoljniki-Isotcha road", chain([wd_km(NOW), wd_km(wd(7, 22)), wd_km(wd(5, 26))])),
    ("Guschtschino road", chain([wd_km(wd(7, 22)), wd_km(wd(10, 22)), wd_km(wd(16, 17)), wd_km(wd(19, 15))])),
    ("Tschemosjom road", chain([wd_km(NOW), wd_km(towns["Tschemosjom"][0]), wd_km(wd(14, 13))])),
]

# -- lakes north of the relief corridor (Scen. II), as lake hexsides ------------------------
lake_hexes = [wd(11, 16), wd(12, 16), wd(12, 17), wd(13, 17), wd(14, 17), wd(14, 18), wd(15, 18),
              wd(9, 18), wd(10, 18), wd(10, 19)]
lake_full, lake_partial = set(), set()
for h in lake_hexes:
    for n in GRID.neighbours(h):
        if n in GRID:
            (lake_full if n in lake_hexes else lake_partial).add(GRID.hexside(h, n))

# -- features per hex -----------------------------------------------------------------------
line_hexes = {h for _, c in rails + roads for h in c}
for h in line_hexes | {h for c in towns.values() for h in c}:
    if terrain[h] == "s":
        terrain[h] = "."                 # towns and lines on dry ground
features: dict[Hex, list[str]] = {h: [] for h in WD_HEXES}
for _, c in [("Lowatj", lowatj), *creeks]:
    for h in c:
        terrain[h] = "."                 # a watercourse hex costs as the watercourse (Rule 7)
for h in WD_HEXES:
    if terrain[h] == "h":
        terrain[h] = "."
        features[h].append("high_ground")
for c in towns.values():
    for h in c:
        features[h].append("town")
for h in lowatj:
    features[h].append("river")
for _, c in creeks:
    for h in c:
        if "river" not in features[h] and "creek" not in features[h]:
            features[h].append("creek")
for h in bunkers:
    features[h].append("bunker")
bridges = []
road_rail = {}
for name, c in rails + roads:
    for h in c:
        road_rail.setdefault(h, []).append(name)
bridges = [h for h in lowatj if h in road_rail]
# four standing bridges at the start (20): two in the city, the nearest north and south of it
standing = ([h for h in bridges if h in city][:2] + [h for h in bridges if h not in city and 5 < h.row < 13][-1:]
            + [h for h in bridges if h not in city and h.row > 15][:1])
for h in standing:
    features[h].append("bridge")

slopes = set()
for h in WD_HEXES:
    if "high_ground" in features[h]:
        for n in GRID.neighbours(h):
            if n in GRID and "high_ground" not in features[n]:
                slopes.add(GRID.hexside(h, n))

# -- write ----------------------------------------------------------------------------------
out = []
w = out.append
w("""# White Death / Battle for Velikiye Luki, November 1942 (RAW Entertainment, 1991, after GDW 1979): the map.
#
# GENERATED by maps/white-death/make_map.py (an estimate, kept reproducible); edit the script.
# Rules cited as "Rule n" are the manual's rules (reference seeds/battle-for-velikiye-luki-raw-1991.txt).
# The manual prints no map and names no hex (notes 2.1, 13.1): the hex ids are this toolkit's
# own, column then row as a VASSAL HexGrid numbers them (flat-topped hexes in columns, even
# columns half a hex lower, 0101 the north-west corner). One hex is one mile from hexside to
# hexside (Rule 1). The ground is that of maps/velikiye-luki resampled to one-mile hexes: hex
# 1914 of this map lies on 1108 of that one (Velikiye Luki), and every place on both maps lies
# within one of its hexes (2.5 km; tests/rulesets/white_death/test_map.py).
id: main
name: White Death - Velikiye Luki 1942
grid:
  orientation: flat
  shifted: even
  columns: [1, 30]
  rows: [1, 34]
  numbering: {order: colrow, col_digits: 2, row_digits: 2}
  estimated: "the manual gives no grid (notes 2.1): the toolkit's own ids, as a VASSAL HexGrid numbers them"
hex_size: 0.8
scale: "one mile per hex, hexside to hexside (Rule 1); one turn is five days (Rule 5)"
hex_ids: top
north: up
weathers: [clear_frost, thaw, snow]
unit_classes: [ski, leg, draft, wheel, track, motorcycle, horse]
notes: >
  Weather (Rule 16): clear/frost (rivers and lakes frozen), thaw (lakes open, no track, wheel or
  draft crossing of a river except at a bridge), snow (frozen). Mobility categories (Unit
  Counters, p.35; notes 4.2). River and creek hexes cost two numbers, to enter and to leave
  (Rule 7): the TEC below gives the first, game.yaml options.leave_costs the second. Slope
  hexsides have their high side on the hex with the high_ground feature (Rule 12 B).

terrain_types:
  clear:
    name: Clear
    move: {"*": 1, draft: 2, wheel: 2, wheel/snow: 3, draft/snow: 3}
    combat: {defence: {P: 6, L: 5, H: 4}}
    estimated: "TEC missing (notes 3.1); Rule 9 C.2 fixes P = 6 in clear; the rest graded by the text's hints"
  forest:
    name: Forest
    move: {"*": 2, ski: 2, draft: 4, wheel: 4, track: P}
    combat: {defence: {P: 9, L: 8, H: 7}, afv_defence: "-1"}
    blocks_los: true
    colour: "#8fb57a"
    estimated: "TEC missing; Rule 12 A: track-mobile units assault into forest only along a road (read as P off the road); AFV DV -1 (12 C)"
  swamp:
    name: Swamp
    move: {"*": 3, ski: 2, draft: P, wheel: P, track: P, motorcycle: P, draft/clear_frost: 4, draft/snow: 4, wheel/clear_frost: 4, wheel/snow: 4, track/clear_frost: 3, track/snow: 3, motorcycle/clear_frost: 3, motorcycle/snow: 3}
    combat: {defence: {P: 8, L: 7, H: 6}}
    estimated: "named only in the history ('the freeze ... making the northern swamps passable for armored vehicles'): closed to vehicles in thaw, open when frozen"
  town:
    name: Town
    overlay: true
    move: {"*": 1}
    combat: {defence: {P: 10, L: 9, H: 8}, afv_defence: "-1"}
    blocks_los: true
    estimated: "TEC missing; AFV DV -1 (12 C); entrain for weapons and AFVs (Rule 8); no tank fright (14 C.2)"
  high_ground:
    name: High ground
    overlay: true
    move: {"*": 1}
    estimated: "Rule 11 B.3.b gives it an effect on observation only; movement as the hex's terrain"
  creek:
    name: Creek
    overlay: true
    move: {"*": 1, draft: 1, wheel: 2, motorcycle: 2}
    combat: {defence: {P: 7, L: 6, H: 5}}
    colour: "#9cc3df"
    estimated: "cost to enter; Rule 7 fixes draft 1-2 (enter 1, 1 along the creek, leave +2); the other classes estimated"
  river:
    name: River
    overlay: true
    move: {"*": 2, ski: 1, wheel: 3, motorcycle: 3, draft: 2}
    combat: {defence: {P: 8, L: 7, H: 6}}
    colour: "#6aa6d6"
    estimated: "cost to enter; Rule 7 gives dash pairs without numbers; thaw limits in Rule 16 (the ruleset)"
  bridge:
    name: Bridge
    overlay: true
    move: {"*": 1}
    estimated: "a bridge lets units enter and leave a river hex as a road hex (Rule 20); its cost here is unused (the ruleset prices the road)"
  bunker:
    name: Bunker
    overlay: true
    move: {"*": 1}
    combat: {defence: {P: 12, L: 11, H: 10}}
    estimated: "Rule 19: bunkers are counters of strength 10 or 15 in seven hexes of the city; no movement effect; the defence values (12 D: a benefit beyond the town's) estimated, counted while a bunker counter stands in the hex"

hexside_types:
  slope:
    name: Slope
    move: {"*": 0, draft: 1, wheel: 1}
    width: line
    estimated: "Rule 12 B and 11 B.3 give slopes combat and sight effects; the draft and wheel climbing cost is estimated"
  lake_full:
    name: Full lake hexside
    move: {"*": 1, track/thaw: P, wheel/thaw: P, draft/thaw: P, motorcycle/thaw: P, "*/thaw": P, ski/thaw: P}
    width: major
    estimated: "Rule 13: crossed at TEC cost when frozen (clear/frost, snow), AFVs roll for the ice; in thaw no AFV may cross a full lake hexside (nobody else either, estimated)"
  lake_partial:
    name: Partial lake hexside
    move: {"*": 1, "*/thaw": 2}
    width: minor
    estimated: "Rule 13: a hexside with some lake; in thaw AFVs may cross with an ice roll"

line_types:
  road:
    name: Road
    move: {"*": 1/2, draft: 1}
    estimated: "road rate missing from the TEC; 'MPs or fractions thereof' (Rule 6 A) allows halves"
  rail:
    name: Railroad
    rail: true
    move: {"*": 1/2, draft: 1}
    rule: "8"
    notes: "railroads are roads for normal movement (Rule 8); rail movement is the ruleset's"
  river:
    name: Watercourse
    estimated: "the course of a river or creek through its hexes (drawn, and the order that gives each hex its two banks); no movement rate"

""")
w("terrain:\n  - estimated: >-\n      resampled from the velikiye-luki map's terrain (nearest 2.5 km hex): clear, wooded (forest),\n"
  "      swamp, heights (high ground); the northern swamps added east of the Lowatj in rows 01-05\n"
  "    legend: {\".\": clear, f: forest, s: swamp}\n    rows:\n")
w("      #     " + " ".join(f"{c:02d}" for c in range(1, COLS + 1)) + "\n")
for r in range(1, ROWS + 1):
    w(f'      "{r:02d}": "' + "  ".join(terrain[Hex(c, r)] for c in range(1, COLS + 1)) + '"\n')
groups: dict[tuple, list[Hex]] = {}
for h in WD_HEXES:
    if features[h]:
        groups.setdefault(tuple(features[h]), []).append(h)
why = {
    "town": "the towns of the text (notes 2.4) where the velikiye-luki map puts them; the others on the estimated railroads",
    "river": "the Lowatj as river hexes (Rule 7, 20), along the velikiye-luki map's Lovat and through the city",
    "creek": "creek hexes along the velikiye-luki map's streams, and one estimated creek north-east of the city",
    "high_ground": "the velikiye-luki map's heights",
    "bunker": "Rule 19: seven bunker hexes in Velikiye Luki; which seven is estimated (every city hex)",
    "bridge": "Rule 20: four standing Lowatj bridges at the start of Scen. I; placed where the estimated roads and railroads cross",
}
for key in sorted(groups):
    note = "; ".join(why[k] for k in key)
    w(f"  - hexes: \"{ids(groups[key])}\"\n    features: [{', '.join(key)}]\n    estimated: \"{note}\"\n")

w("\nhexsides:\n")
w(f"  - feature: slope\n    sides: \"{' '.join(GRID.format_hexside(s) for s in sorted(slopes))}\"\n"
  "    estimated: \"round every high-ground hex; the high side is the high-ground hex (Rule 12 B)\"\n")
w(f"  - feature: lake_full\n    name: lakes north of the relief corridor\n    sides: \"{' '.join(GRID.format_hexside(s) for s in sorted(lake_full))}\"\n"
  "    estimated: \"'lakes to the north' of the relief drive from the Guschtschino-Tschemosjom line (Scen. II)\"\n")
w(f"  - feature: lake_partial\n    name: lake shores north of the relief corridor\n    sides: \"{' '.join(GRID.format_hexside(s) for s in sorted(lake_partial))}\"\n"
  "    estimated: \"the shores of the same lakes: hexsides with some lake (Rule 13)\"\n")

w("\nlines:\n")
w(f"  - {{type: river, name: Lowatj, hexes: \"{ids(lowatj)}\", estimated: \"north to south, as the velikiye-luki Lovat\"}}\n")
for name, c in creeks:
    note = ("a creek (Rule 7) north-east of the city; no velikiye-luki stream there" if "estimated" in name
            else "a creek (Rule 7), along the velikiye-luki map's stream")
    w(f"  - {{type: river, name: \"{name.replace(' (estimated)', '')}\", hexes: \"{ids(c)}\", estimated: \"{note}\"}}\n")
for name, c in rails:
    w(f"  - {{type: rail, name: \"{name}\", hexes: \"{ids(c)}\", estimated: \"Rule 8, 17 B; the course is estimated\"}}\n")
for name, c in roads:
    w(f"  - {{type: road, name: \"{name}\", hexes: \"{ids(c)}\", estimated: \"all roads run through Velikiye Luki (intro); course estimated\"}}\n")

w("\nplaces:\n")
for name, c in towns.items():
    kind = "city" if name == "Velikiye Luki" else "town"
    # one entry per town (its label); the city is its hex and the six round it (town feature)
    w(f"  - {{name: \"{name}\", hex: \"{fmt(c[0])}\", kind: {kind}, estimated: \"named in the text; hex from the velikiye-luki map or the railroads\"}}\n")
w(f"  - {{name: Citadel, hex: \"{fmt(wd(18, 14))}\", kind: village, estimated: \"the old fortress on the west bank of the Lowatj\"}}\n")

south_edge = [h for h in GRID.edge_hexes("south")]
se = [h for h in south_edge if h.col >= 26]
lw_s = lowatj[-1]
german_south = [h for h in south_edge if lw_s.col < h.col <= lw_s.col + 10]
north_east = [h for h in GRID.edge_hexes("north") if h.col > lowatj[0].col]
german_edges_south = [h for h in south_edge if h.col < 26]
w(f"""
supply:
  - {{side: soviet, edge: east, kind: edge, rule: "15 B"}}
  - {{side: soviet, hexes: "{ids(se)}", kind: edge, note: "the extreme south-eastern edge (15 B)", estimated: "which south-edge hexes are 'extreme south-eastern' is estimated (columns 26-30)"}}
  - {{side: german, edge: west, kind: edge, rule: "15 B"}}
  - {{side: german, edge: north, kind: edge, rule: "15 B"}}
  - {{side: german, hexes: "{ids(german_edges_south)}", kind: edge, rule: "15 B", note: "all other edges"}}
  - {{side: soviet, edge: east, kind: rail, rule: "8", note: "rail movement traces to the east edge only"}}
  - {{side: german, edge: west, kind: rail, rule: "8"}}
  - {{side: german, edge: north, kind: rail, rule: "8"}}
  - {{side: german, edge: south, kind: rail, rule: "8"}}

edges:
  - {{edge: east, side: soviet, rule: "15 B"}}
  - {{edge: south, side: soviet, hexes: "{ids(se)}", note: "15 B", estimated: "the extreme south-east: columns 26-30"}}
  - {{edge: west, side: german, rule: "15 B"}}
  - {{edge: north, side: german, rule: "15 B"}}
  - {{edge: south, side: german, hexes: "{ids(german_edges_south)}", rule: "15 B"}}

boxes:
{{mp_track}}  - {{id: supply-track, name: Supply points, note: "general German, Velikiye Luki and Soviet pools (Rule 15 A, D)", rule: "15"}}
  - {{id: soviet-reinforcements, name: Soviet reinforcements, side: soviet, rule: "17"}}
  - {{id: german-reinforcements, name: German reinforcements, side: german, rule: "17"}}
  - {{id: eliminated, name: Eliminated units, estimated: "a dead pile; the manual prints none"}}
""")
text = "".join(out)
track = "".join(f"  - {{id: {side}-mp-{n}, name: {side.title()} MP {n}, side: {side}, rule: \"5\""
                + (f", note: \"the {side} impulse MP track: MP left this turn\"" if n == 10 else "") + "}\n"
                for side in ("soviet", "german") for n in range(10, -1, -1))
sys.stdout.write(text.replace("{mp_track}", track))
# entry areas for the scenarios (printed to stderr for the scenario files)
print("NE", ids(north_east), file=sys.stderr)
print("S", ids(german_south), file=sys.stderr)
print("SE", ids(se), file=sys.stderr)
print("LOWATJ", ids(lowatj), file=sys.stderr)
print("BRIDGES", ids(standing), "ALL", ids(bridges), file=sys.stderr)
