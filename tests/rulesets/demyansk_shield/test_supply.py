"""Demyansk Shield supply (6.0), the supply victory questions (16.14, 19.24) and the CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import Unit, check_path, load_position, position_from_scenario
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

from .helpers import DATA, H, one_source_game, position


# -- 6.0 supply ---------------------------------------------------------------------------------


def test_supply_example_6_24():
    pos = load_position(DATA / "supply-6-24.yaml")
    result = ds.supply(pos, "axis")
    assert result.supplied == set(pos.expect["supplied"]["axis"])
    assert H("1732") in result.road and H("1836") in result.road
    assert result.source["ax-ir501"] in {H("1032"), H("1836"), H("2036")}


def test_supply_line_is_at_most_seven_hexes():
    g = one_source_game("2036")
    grid = g.main_map.grid
    seven = next(h for h in grid.ring(H("2036"), 7) if h in grid and g.main_map.terrain(h) != "lake")
    eight = next(h for h in grid.ring(H("2036"), 8) if h in grid and g.main_map.terrain(h) != "lake")
    pos = position(g, weather="frozen", **{"ax-ir27": grid.format(seven), "ax-ir48": grid.format(eight)})
    result = ds.supply(pos, "axis")
    assert result.supplied == {"ax-ir27"} and result.unsupplied == {"ax-ir48"}   # 6.22
    assert result.reasons["ax-ir48"].rule == "6.2"


def test_supply_blocked_by_enemy_zoc_unless_a_friendly_unit_is_there(game):
    g = one_source_game("2036")
    # a straight line 2036 -> 2033 -> 2030; a Soviet unit beside 2034 puts the route in its ZOC
    pos = position(g, weather="frozen", **{"ax-ir27": "2031"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    soviet = {f"so-ski-{i + 1}": g.main_map.grid.format(h) for i, h in enumerate(
        [H("1834"), H("2134"), H("1833"), H("2133"), H("1932"), H("2132")])}
    cut = position(g, weather="frozen", **{"ax-ir27": "2031"}, **soviet)
    assert "ax-ir27" in ds.supply(cut, "axis").unsupplied   # 6.24
    held = position(g, weather="frozen", **{"ax-ir27": "2031", "ax-ir48": "2033", "ax-ir89": "2034",
                                            "ax-ir6": "2035", "ax-ir46": "2032"}, **soviet)
    assert "ax-ir27" in ds.supply(held, "axis").supplied


def test_supply_lake_side_blocks_in_mud_not_when_frozen(game):
    # 6.22: "a prohibited terrain hexside [Example: Lake during Mud weather]"
    m = game.main_map
    side = next(s for s, fs in m.hexsides.items() if any(f.code == "lake" for f in fs))
    g = one_source_game(m.format(side.a))
    frozen = ds.supply(position(g, weather="frozen", **{"ax-ir27": m.format(side.b)}), "axis")
    assert frozen.paths["ax-ir27"] == [side.b, side.a]
    mud = ds.supply(position(g, weather="mud", **{"ax-ir27": m.format(side.b)}), "axis")
    assert "ax-ir27" in mud.unsupplied or len(mud.paths["ax-ir27"]) > 2


def test_road_break_2024_2025():
    # 6.23 design note: the road from Staraya Russa reaches 2025; the pocket road starts at 2024
    # across the Lovat, with no bridge. Keep only those roads and the source 1836: the one road
    # break allowed joins them; without it the pocket road is not a Supply Road.
    g = one_source_game("1836")
    full = load_game("demyansk-shield").main_map
    keep = ("Staraya Russa - Dno road", "Staraya Russa - Ramushevo road", "Ramushevo - Demyansk road")
    g.main_map.lines = [ln for ln in full.lines if ln.name in keep]
    pos = position(g, weather="frozen", **{"ax-ir27": "2317"})
    assert g.main_map.grid.distance(H("2317"), H("2025")) > 7
    result = ds.supply(pos, "axis")
    assert {H("2025"), H("2024"), H("2711")} <= result.road and "ax-ir27" in result.supplied
    no_break = make_ruleset()
    no_break.supply = replace(no_break.supply, road_breaks=0)
    result = ds.supply(pos, "axis", no_break)
    assert H("2024") not in result.road and "ax-ir27" in result.unsupplied


def test_sources_scenario_two_only(game):
    s2 = position_from_scenario(game, "scenario-2")
    s1 = position_from_scenario(game, "scenario-1")
    assert H("2219") in ds.map_sources(s2, RULESET, "axis")   # 19.23
    assert H("2219") not in ds.map_sources(s1, RULESET, "axis")


def test_airfields_supply_every_axis_unit_but_only_soviet_airborne(game):
    # 6.33: cut off near Demyansk's airfield, an Axis unit traces to it; a Soviet rifle unit
    # cannot use a captured airfield, a parachute unit can
    pos = position(game, weather="frozen", **{"ax-ir27": "2811"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    g = one_source_game("2036", airfields=True)
    pos = position(g, weather="frozen", **{"ax-ir27": "2811"})
    result = ds.supply(pos, "axis")
    assert "ax-ir27" in result.supplied and result.source["ax-ir27"] in (H("2711"), H("2912"))
    soviets = position(g, weather="frozen", side="soviet", **{"so-1-87": "2711", "so-204abn": "2710",
                                                               "so-2-87": "2709"})
    res = ds.supply(soviets, "soviet")
    assert "so-204abn" in res.supplied and res.source["so-204abn"] in (H("2711"), H("2912"))
    assert "so-2-87" in res.unsupplied


def test_printed_strongpoint_supplies_only_the_units_on_it(game):
    # 6.34: surround 1811 and 1812; III/26 on the printed Strongpoint is supplied, I/26 next to it is not
    g = one_source_game("2036")
    pos = position(g, weather="frozen", **{"ax-iii26": "1811", "ax-i26": "1812"})
    result = ds.supply(pos, "axis")
    assert "ax-iii26" in result.supplied and result.source["ax-iii26"] == H("1811")
    assert "ax-i26" in result.unsupplied
    pos.units["m-sp"] = Unit("m-sp", g.counters["m-sp"], None, hex=H("1811"), status={"destroyed"})
    pos.touch()
    assert "ax-iii26" in ds.supply(pos, "axis").unsupplied   # a destroyed one is no source


@pytest.mark.parametrize("limited", [True, False])
def test_constructed_airfield_option(game, limited):
    # 6.35 (defending units only) vs 6.33 (any friendly airfield)
    g = one_source_game("2036")
    rs = make_ruleset(constructed_airfield_limited=limited)
    pos = position(g, weather="frozen", **{"ax-ir27": "2611", "m-airfield": "2711"})
    assert ("ax-ir27" in ds.supply(pos, "axis", rs).supplied) is (not limited)
    assert "ax-ir27" in ds.supply(pos, "axis", rs, defending={"ax-ir27"}).supplied


def test_supply_is_judged_at_the_moment_of_combat(game):
    # 6.13, 6.43 note: an advance after an earlier combat cuts a defender off
    g = one_source_game("2036")
    pos = position(g, weather="frozen", **{"ax-ir27": "2031"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    for i, h in enumerate(["1834", "2134", "1833", "2133", "1932", "2132"]):
        pos.units[f"so-ski-{i + 1}"] = Unit(f"so-ski-{i + 1}", g.counters[f"so-ski-{i + 1}"], "soviet", hex=H(h))
    pos.touch()
    assert "ax-ir27" in ds.supply(pos, "axis").unsupplied


# -- 16.14 and 19.24 ------------------------------------------------------------------------------


def test_demyansk_surrounded_ignores_airfields(game):
    # the open map: Demyansk traces by road to the map edge
    assert not ds.demyansk_surrounded(position(game, weather="frozen"))
    # a ring of Soviet units three hexes out cuts every route; the airfield inside does not help
    units = {f"so-180__{i}": game.main_map.format(h) for i, h in enumerate(game.main_map.grid.ring(H("2711"), 3))}
    pos = position(game, weather="frozen", **units)
    assert ds.demyansk_surrounded(pos, RULESET)
    pos.units["so-1-87"] = Unit("so-1-87", game.counters["so-1-87"], "soviet", hex=H("2711"))
    pos.touch()
    assert not ds.demyansk_surrounded(pos)   # Soviet-held: no longer Axis-controlled


def test_bruckenschlag_victory_needs_a_route_to_2219_or_2518(game):
    pos = position_from_scenario(game, "scenario-2")
    open_map = position(game, weather="frozen")
    assert ds.bruckenschlag_won(open_map)
    assert not ds.bruckenschlag_won(pos)   # GT10: the pocket is cut off when the scenario starts
    cut = position(game, weather="frozen", **{f"so-180__{i}": game.main_map.format(h)
                                              for i, h in enumerate(game.main_map.grid.ring(H("2219"), 2)
                                                                    + game.main_map.grid.ring(H("2518"), 2))})
    assert not ds.bruckenschlag_won(cut)


def test_scenario_two_uses_only_the_map_west_of_1117_3917(game):
    pos = position_from_scenario(game, "scenario-2")
    unit = next(u for u in pos.on_map("axis") if u.hex.row == 17 and u.value("movement", 0) > 0)
    outside = Hex(unit.hex.col, 16)
    check = check_path(pos, RULESET, unit.id, [unit.hex, outside])
    assert not check.ok and check.reason.rule == "19.22"
    assert all(u.hex.row >= 17 for u in pos.on_map())
    # the pocket draws on the scenario's own sources 2219 and 2518 (19.23)
    result = ds.supply(pos, "axis")
    assert any(result.source[u] in (H("2219"), H("2518")) for u in result.supplied)


def _surrounded(game, tmp_path, where: str, units: dict) -> Path:
    """A position file: ``units`` (id -> hex) and a Soviet unit on every hex next to ``where``."""
    ring = [game.main_map.format(n) for n in game.main_map.grid.neighbours(H(where))]
    lines = ["game: demyansk-shield", "turn: 3", "side: axis", "weather: frozen", "units:"]
    lines += [f'  {uid}: {{hex: "{h}"}}' for uid, h in units.items()]
    lines += [f'  so-ski-{i + 1}: {{hex: "{h}"}}' for i, h in enumerate(ring)]
    path = tmp_path / "pos.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _cli(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(["referee", "supply", *args])
    return exc.value.code, capsys.readouterr().out


def test_cli_supply_uses_the_game_sources_and_blocks(game, tmp_path, capsys):
    # `hexforge referee supply` runs the same search as ds.supply: III/26, surrounded on its
    # printed Strongpoint 1811, is supplied by it (6.34)
    path = _surrounded(game, tmp_path, "1811", {"ax-iii26": "1811"})
    code, out = _cli(capsys, "-p", str(path), "--json")
    supply = json.loads(out)["supply"]
    assert code == 0
    expected = ds.supply(load_position(path), "axis")
    assert supply["supplied"] == sorted(expected.supplied) == ["ax-iii26"]
    assert supply["paths"]["ax-iii26"] == ["1811"]
    assert "1811  supplied (it stands on its source)" in _cli(capsys, "-p", str(path))[1]


def test_cli_supply_names_the_defending_units(game, tmp_path, capsys):
    # 6.35: the constructed airfield supplies the units defending in the combat being judged
    path = _surrounded(game, tmp_path, "2611", {"ax-ir27": "2611", "m-airfield": "2611"})
    assert json.loads(_cli(capsys, "-p", str(path), "--json")[1])["supply"]["unsupplied"] == ["ax-ir27"]
    code, out = _cli(capsys, "-p", str(path), "--json", "--defending", "ax-ir27")
    assert code == 0 and json.loads(out)["supply"]["supplied"] == ["ax-ir27"]
    assert ds.supply(load_position(path), "axis", defending={"ax-ir27"}).supplied == {"ax-ir27"}
    code, _ = _cli(capsys, "-p", str(path), "--defending", "ax-nobody")
    assert code == 2
