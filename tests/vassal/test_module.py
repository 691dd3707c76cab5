"""The written module: container, buildFile rules, grids, pieces, palettes and setups."""

import zipfile

import pytest
from lxml import etree

from toolkit.errors import BuildError
from toolkit.vassal import build_module, inspect
from toolkit.vassal.grid import derive_grid
from toolkit.vassal.module import BOXES_MAP

from vassal_fakes import BUNDLED, FAKES, fake_render_map

B = "VASSAL.build."


def _xml(path):
    with zipfile.ZipFile(path) as zf:
        return zf.read("buildFile.xml"), zf


def test_container_has_moduledata_buildfile_and_every_image(built):
    game, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        data = zf.read("buildFile.xml")
        moduledata = etree.fromstring(zf.read("moduledata"))
    root = etree.fromstring(data)
    assert root.tag == B + "GameModule" and root.get("VassalVersion") == "3.7.26"
    assert [c.tag for c in moduledata] == ["version", "extra1", "extra2", "VassalVersion", "dateSaved",
                                           "description", "name"]
    assert moduledata.findtext("name") == root.get("name") == game.name
    assert moduledata.findtext("version") == root.get("version")
    images = {e.get("image") for e in root.iter(B + "module.map.boardPicker.Board")}
    images |= {e.get("fileName") for e in root.iter(B + "widget.Chart")}
    assert images and all(f"images/{name}" in names for name in images)
    for setup in root.iter(B + "module.PredefinedSetup"):
        assert setup.get("file") in names and setup.get("useFile") == "true"


def test_piece_definitions_are_escaped_text_never_cdata_with_unique_gpids(built):
    _, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        data = zf.read("buildFile.xml")
    assert b"CDATA" not in data
    root = etree.fromstring(data)
    slots = list(root.iter(B + "widget.PieceSlot"))
    gpids = [int(s.get("gpid")) for s in slots]
    assert len(gpids) == len(set(gpids)) and int(root.get("nextPieceSlotId")) > max(gpids)
    assert all(s.text.startswith("+/null/") and "\t" in s.text for s in slots)
    names = {p.get("name") for p in root.iter(B + "module.PrototypeDefinition")}
    for slot in slots:
        for token in slot.text.split("\t"):
            if token.startswith("prototype;"):
                assert token[len("prototype;"):].rstrip("\\") in names


def test_every_map_has_the_components_vassal_needs(built):
    _, path = built("tutorial")
    root = etree.fromstring(_xml(path)[0])
    required = ["PieceMover", "MenuDisplayer", "KeyBufferer", "ForwardToKeyBuffer", "ForwardToChatter",
                "StackExpander", "MapCenterer", "Scroller", "CounterDetailViewer", "Zoomer", "StackMetrics"]
    maps = list(root.iter(B + "module.Map"))
    assert [m.get("mapName") for m in maps][-1] == BOXES_MAP
    for m in maps:
        tags = {c.tag.rsplit(".", 1)[-1] for c in m}
        assert set(required) <= tags


_INTEGER = {"x0", "y0", "gpid", "width", "height", "nextPieceSlotId", "edgeWidth", "edgeHeight", "nDice", "nSides",
            "plus", "addToTotal", "keepCount", "zoomStart", "thickness", "fontSize", "hOff", "vOff", "hLeading",
            "vLeading", "hDrawOff", "vDrawOff", "rotateText", "exSepX", "exSepY", "unexSepX", "unexSepY",
            "slotWidth", "slotHeight", "nColumns", "delay", "minDisplayPieces", "length", "start", "incr",
            "loopLimit", "defaultWidth", "version"}
_DOUBLE = {"dx", "dy", "scale", "slotScale", "zoomlevel"}
_BOOLEAN = {"snapTo", "visible", "sideways", "stagger", "reversible", "launch", "allowMultiple", "hidden",
            "fixed", "vert", "isMenu", "useFile", "prompt", "reportTotal", "sortDice", "keepDice", "loop",
            "fwdOnly", "configFirst", "configList", "disabled", "showgraph", "enabled", "useParentGrid",
            "useHighlight", "cornersLegal", "edgesLegal", "dotsVisible", "hDescend", "vDescend",
            "onlyReportChangedLocation", "lockAdd", "lockDice", "lockPlus", "lockSides"}


@pytest.mark.parametrize("game_id", BUNDLED)
def test_attribute_values_have_the_form_vassal_parses(built, game_id):
    """Integers without a decimal point, doubles, true/false, key strokes as code,modifiers (§2)."""
    import re
    _, path = built(game_id)
    root = etree.fromstring(_xml(path)[0])
    seen = set()
    for element in root.iter():
        for name, value in element.attrib.items():
            where = f"{element.tag.rsplit('.', 1)[-1]}@{name}={value!r}"
            if (name == "version" and element is root) or (name == "prompt" and "TurnLevel" in element.tag):
                continue  # the module's own version and a turn level's prompt are free text
            if name in _INTEGER:
                assert re.fullmatch(r"-?\d+", value), where
            elif name in _DOUBLE:
                assert re.fullmatch(r"-?\d+(\.\d+)?", value), where
            elif name in _BOOLEAN:
                assert value in ("true", "false"), where
            elif name.endswith(("hotkey", "Hotkey", "Key")) or name in ("top", "bottom", "up", "down"):
                assert re.fullmatch(r"(\d+,\d+(,.+)?)?", value), where
            elif name in ("color", "backgroundcolor"):
                assert re.fullmatch(r"(\d{1,3},\d{1,3},\d{1,3})?", value), where
            seen.add(name)
    assert {"x0", "dx", "snapTo", "hotkey", "gpid", "color"} <= seen
    moduledata = etree.fromstring(zipfile.ZipFile(path).read("moduledata"))
    assert moduledata.findtext("description") == root.get("description")


def test_hex_grid_attributes_are_derived_from_the_layout(built):
    game, path = built("tutorial")
    root = etree.fromstring(_xml(path)[0])
    grid = next(root.iter(B + "module.map.boardPicker.board.HexGrid"))
    rendered = fake_render_map(game.main_map, dpi=60, game=game)
    expected = derive_grid(rendered.layout, rendered.image.width, rendered.image.height)
    assert dict(grid.attrib) == expected.hexgrid_attributes()
    numbering = grid[0]
    assert dict(numbering.attrib) == expected.numbering_attributes()


def test_turn_tracker_dice_charts_inventory_and_roster(built):
    game, path = built("tutorial")
    root = etree.fromstring(_xml(path)[0])
    level = next(root.iter(B + "module.turn.CounterTurnLevel"))
    phases = next(root.iter(B + "module.turn.ListTurnLevel"))
    assert level.get("start") == "1" and phases.get("list") == ",".join(game.turn_phases)
    assert [d.get("name") for d in root.iter(B + "module.DiceButton")] == ["1d6"]
    assert any(c.get("chartName") == "Terrain Effects Chart" for c in root.iter(B + "widget.Chart"))
    assert next(root.iter(B + "module.Inventory")).get("groupBy") == "SideName,Formation"
    assert [e.text for e in next(root.iter(B + "module.PlayerRoster"))] == [s.name for s in game.sides]


def test_palettes_by_side_formation_and_reinforcement_turn(built):
    game, path = built("tutorial")
    report = inspect(path)
    root = etree.fromstring(_xml(path)[0])
    top = next(root.iter(B + "widget.TabWidget"))
    tabs = [c.get("entryName") for c in top]
    assert tabs == ["Blue", "Red", "Reinforcements", "Markers"]
    blue = top[0]
    assert [p.get("entryName") for p in blue] == ["1st Div"]
    reinforcements = [p.get("entryName") for p in top[2]]
    assert reinforcements == ["Turn 2", "Turn 3"]
    counter_ids = {p["properties"].get("UnitId") for p in report["pieces"]}
    assert counter_ids == set(game.counters)


def test_pieces_carry_properties_the_referee_reads(built):
    game, path = built("tutorial")
    report = inspect(path)
    piece = next(p for p in report["pieces"] if p["properties"].get("UnitId") == "b-1")
    props = piece["properties"]
    assert (props["Side"], props["Type"], props["attack"], props["back_attack"]) == ("blue", "infantry", "4", "2")
    assert {"delete;", "sendto;", "footprint;", "markmoved;", "report;", "emb2;"} <= set(piece["traits"])
    assert piece["prototypes"] == ["blue side", "infantry type", "Unit", "Two-sided"]
    ski = next(p for p in report["pieces"] if p["properties"].get("UnitId") == "r-12")
    assert "report;" not in ski["traits"] and "emb2;" not in ski["traits"]  # one-sided: nothing to flip


@pytest.mark.parametrize("game_id", BUNDLED)
def test_every_setup_puts_every_unit_where_the_scenario_says(built, game_id):
    game, path = built(game_id)
    report = inspect(path)
    assert report["problems"] == []
    assert len(report["setups"]) == len(game.scenarios)
    for scenario, setup in zip(game.scenarios.values(), report["setups"]):
        assert setup["starts"] and setup["begins"]
        placed = {}
        for piece in setup["pieces"]:
            placed.setdefault(piece["properties"]["UnitId"], []).append(piece["location"])
        for placement in scenario.setup:
            if placement.box:
                box = next(b for m in game.maps.values() for b in m.boxes if b.id == placement.box)
                wanted = {box.name}
                if "turn" in box.name.lower() and str(placement.state).isdigit():
                    wanted = {f"Turn {placement.state}"}  # the game's turn track is the module's
            else:
                spec = game.maps[placement.map or scenario.map or next(iter(game.maps))]
                hexes = [placement.hex] if placement.hex is not None else placement.hexes
                wanted = {spec.grid.format(h) for h in hexes}
            for unit in placement.units:
                assert placed[unit] and set(placed[unit]) & wanted, (scenario.id, unit, placed[unit], wanted)
        boxes = {b.id: b.name for m in game.maps.values() for b in m.boxes}
        for r in scenario.reinforcements:
            for unit in r.units:
                wanted = boxes[r.box] if r.box else f"Turn {r.turn}"
                assert wanted in placed[unit], (unit, placed[unit])


def test_reinforcements_wait_in_the_box_their_data_names(built):
    game, path = built("demyansk-shield")
    scenario = game.scenarios["scenario-1"]
    setup = inspect(path)["setups"][0]
    where = {p["properties"]["UnitId"]: (p["location"], p["x"], p["y"]) for p in setup["pieces"]}
    boxes = {b.id: b.name for m in game.maps.values() for b in m.boxes}
    spots = {}
    for r in scenario.reinforcements:
        assert r.box
        for unit in r.units:
            location, x, y = where[unit]
            assert location == boxes[r.box] and not location.startswith("Turn")
            spots.setdefault((r.box, r.turn), set()).add((x, y))
    # one stack per box and turn, and different turns in one box stay apart
    assert all(len(points) == 1 for points in spots.values())
    agn = [next(iter(points)) for (box, _), points in sorted(spots.items()) if box == "agn"]
    assert len(agn) == len(set(agn)) > 1


def test_one_turn_marker_and_on_the_turn_the_data_gives(built):
    _, path = built("velikiye-luki")
    for setup in inspect(path)["setups"]:
        turn = [p["location"] for p in setup["pieces"] if p["properties"]["UnitId"] == "turn"]
        assert turn == ["Turn 1"]  # the data puts it on its turn track at 1; no second marker added


def test_reinforcements_without_a_box_wait_on_the_turn_track(built):
    game, path = built("tutorial")
    setup = inspect(path)["setups"][0]
    where = {p["properties"]["UnitId"]: p["location"] for p in setup["pieces"]}
    for r in game.scenario().reinforcements:
        assert r.box is None and all(where[u] == f"Turn {r.turn}" for u in r.units)


def test_the_module_file_gets_the_permissions_open_would_give(built):
    import os
    _, path = built("tutorial")
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_reduced_set_up_state_starts_on_the_back(tmp_path, tutorial):
    import copy
    from dataclasses import replace
    game = copy.deepcopy(tutorial)
    scenario = game.scenario()
    scenario.setup[0] = replace(scenario.setup[0], state="reduced")
    [path] = build_module(game, tmp_path, lambda m: None, dpi=60, **FAKES)
    pieces = inspect(path)["setups"][0]["pieces"]
    b1 = next(p for p in pieces if p["properties"]["UnitId"] == "b-1")
    assert b1["layer"] == 2 and b1["name"].endswith("(reduced)")


def test_a_failing_renderer_leaves_no_module(tmp_path, tutorial):
    def broken(game, counter, *, back=False, px=75):
        raise OSError("disk full")
    with pytest.raises(BuildError, match="disk full"):
        build_module(tutorial, tmp_path, lambda m: None, render_map=fake_render_map, render_counter=broken)
    assert list(tmp_path.iterdir()) == []


def test_bad_dice_are_named(tmp_path, tutorial):
    import copy
    game = copy.deepcopy(tutorial)
    game.dice = ("2d6", "three dice")
    with pytest.raises(BuildError, match="three dice"):
        build_module(game, tmp_path, lambda m: None, **FAKES)


def test_with_the_real_renderers(tmp_path, tutorial):
    pytest.importorskip("toolkit.render.mapimage")
    pytest.importorskip("toolkit.render.counters")
    [path] = build_module(tutorial, tmp_path, lambda m: None, dpi=75)
    report = inspect(path)
    assert report["problems"] == []
    pieces = {p["properties"]["UnitId"]: p["location"] for p in report["setups"][0]["pieces"]}
    assert pieces["b-1"] == "0505" and pieces["r-14"] == "1206"


@pytest.mark.parametrize("orientation, shifted, cols, rows", [
    ("pointy", "odd", "descending", "ascending"),
    ("flat", "odd", "descending", "descending"),
])
def test_other_grid_shapes_end_to_end(tmp_path, tutorial, orientation, shifted, cols, rows):
    import copy
    from dataclasses import replace
    game = copy.deepcopy(tutorial)
    game_map = game.main_map
    game_map.grid = replace(game_map.grid, orientation=orientation, shifted=shifted, col_direction=cols,
                            row_direction=rows)
    [path] = build_module(game, tmp_path, lambda m: None, dpi=60, **FAKES)
    report = inspect(path)
    assert report["problems"] == []
    grid = report["maps"][0]["boards"][0]["grid"]["attributes"]
    assert grid["sideways"] == ("true" if orientation == "pointy" else "false")
    hexes = {p["properties"]["UnitId"]: p.get("hex") for p in report["setups"][0]["pieces"]}
    for placement in game.scenario().setup:
        for unit in placement.units:
            assert hexes[unit] == game_map.grid.format(placement.hex)


def test_a_module_that_would_not_read_back_cleanly_is_not_written(tmp_path, tutorial, monkeypatch):
    from toolkit.vassal import module
    real = module.prototypes

    def without_unit(*args, **kwargs):
        defs = real(*args, **kwargs)
        del defs["Unit"]
        return defs
    monkeypatch.setattr(module, "prototypes", without_unit)
    with pytest.raises(BuildError, match="prototype 'Unit' does not exist"):
        build_module(tutorial, tmp_path, lambda m: None, **FAKES)
    assert list(tmp_path.iterdir()) == []


def test_three_step_division_sets_up_on_its_cadre_face(tmp_path):
    import copy
    from dataclasses import replace
    from toolkit.io import load_game
    game = copy.deepcopy(load_game("velikiye-luki"))
    scenario = next(iter(game.scenarios.values()))
    i = next(i for i, p in enumerate(scenario.setup) if "dfg21" in p.units)
    scenario.setup[i] = replace(scenario.setup[i], units=("dfg21",), state="cadre")
    [path] = build_module(game, tmp_path, lambda m: None, dpi=60, **FAKES)
    report = inspect(path)
    assert report["problems"] == []
    slot = next(p for p in report["pieces"] if p["properties"]["UnitId"] == "dfg21")
    assert {"c_dfg21.png", "c_dfg21_back.png", "c_dfg21_cadre.png"} <= set(slot["images"])
    assert "Multi-step" in slot["prototypes"]
    piece = next(p for p in report["setups"][0]["pieces"] if p["properties"]["UnitId"] == "dfg21")
    assert piece["layer"] == 3 and piece["name"] == "21 DFG (cadre)"
    with zipfile.ZipFile(path) as zf:
        assert "images/c_dfg21_cadre.png" in zf.namelist()


def test_names_with_delimiters_quotes_and_backslashes_survive_every_nesting_level(tmp_path, tutorial):
    """A name goes through ';', TAB (many levels), '/' and ESC encoders and XML: it must decode back.

    VASSAL does not escape backslashes, so a name ending in one would swallow the next
    delimiter; such names get '/' instead, and control characters a space.
    """
    import copy
    from dataclasses import replace
    game = copy.deepcopy(tutorial)
    names = {"b-1": "A/B; 1,2 'q'", "b-2": "'quoted'", "b-3": "\\lead", "r-10": "trail\\", "r-11": 'x<&>"y',
             "r-13": "tab\there\x1b!"}
    for counter_id, name in names.items():
        game.counters[counter_id] = replace(game.counters[counter_id], name=name)
    [path] = build_module(game, tmp_path, lambda m: None, dpi=40, **FAKES)
    report = inspect(path)
    assert report["problems"] == []
    wanted = {"b-1": "A/B; 1,2 'q'", "b-2": "'quoted'", "b-3": "/lead", "r-10": "trail/", "r-11": 'x<&>"y',
              "r-13": "tab here !"}
    slots = {p["properties"]["UnitId"]: p["name"] for p in report["pieces"]}
    placed = {p["properties"]["UnitId"]: p["name"] for p in report["setups"][0]["pieces"]}
    for counter_id, name in wanted.items():
        assert slots[counter_id] == name
        if counter_id in placed:
            assert placed[counter_id] == name
