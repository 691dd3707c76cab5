"""``hexforge referee combat`` on every bundled game but White Death (its combat is its own
branch's): an attack made from each game's first scenario set-up (the first unit of the side to
move, in id order, that can move next to an enemy and attack it legally, its HQ moving up
when it must be in the HQ's range) is answered with its
reasons and the exact distribution, and a seeded roll logs the seed; the referee plugin
``hexforge build`` emits carries the same combat and retreat rules."""

from __future__ import annotations

import functools
import json
from fractions import Fraction

import pytest

from toolkit.cli import main
from toolkit.io import load_game
from toolkit.referee import (assess_combat, build_plugin, destinations, dump_position, position_from_scenario,
                             ruleset_for)
from toolkit.referee.plugin import load_plugin_ruleset

GAMES = ["tutorial", "velikiye-luki", "demyansk-shield", "grossdeutschland", "a-victory-denied"]


@functools.lru_cache(maxsize=None)
def _an_attack(game_id):
    """A position one legal move after the set-up, the mover next to an enemy it may attack."""
    game = load_game(game_id)
    pos = position_from_scenario(game)
    rs = ruleset_for(game)
    grid = pos.map.grid
    enemies = sorted({v.hex for v in pos.on_map() if v.side not in (pos.side, None) and not v.counter.is_marker})
    for u in sorted(pos.on_map(pos.side), key=lambda u: u.id):
        if u.counter.is_marker:
            continue
        for h in destinations(pos, rs, u.id):
            for target in (e for e in enemies if grid.adjacent(h, e)):
                moved = pos.copy()
                moved.unit(u.id).hex = h
                moved.touch()
                a = assess_combat(moved, rs, [u.id], target)
                if a.legal:
                    return moved, rs, u.id, target
                # a unit beyond its HQ's activation range (Grossdeutschland 10.0): the HQ moves up too
                hqs = [x.id for x in moved.on_map(u.side) if x.type == "hq" and x.id != u.id
                       and x.counter.formation == u.counter.formation] if a.refusals else []
                for hq in hqs:
                    near = min(destinations(moved, rs, hq), key=lambda d: (grid.distance(d, h), d), default=None)
                    if near is not None:
                        moved.unit(hq).hex = near
                        moved.touch()
                        if assess_combat(moved, rs, [u.id], target).legal:
                            return moved, rs, u.id, target
    raise AssertionError(f"{game_id}: no unit can move next to an enemy and attack it")


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.mark.parametrize("game_id", GAMES)
def test_combat_answers_with_reasons_and_the_distribution(game_id, capsys, tmp_path):
    pos, rs, attacker, target = _an_attack(game_id)
    path = tmp_path / "pos.yaml"
    dump_position(pos, path)
    hex_text = pos.map.format(target)
    code, out, err = run(capsys, "combat", attacker, hex_text, "-p", str(path), "--json")
    assert code == 0, err
    c = json.loads(out)["combat"]
    assert c["legal"] and c["refusals"] == [] and c["attackers"] == [attacker]
    assert c["ratio"] and c["odds"] and c["column"] and c["crt"]["rule"]
    probs = {k: Fraction(v) for k, v in c["distribution"].items()}
    assert sum(probs.values()) == 1 and all(p > 0 for p in probs.values())
    assert set(probs) == set(c["results"]) and {"attacker", "defender"} <= set(c["expected_steps"])
    for m in c["modifiers"]:                                     # every shift and change says why
        assert m["text"] and m["kind"] in ("shift", "drm", "attack", "defence", "random", "note")
    code, out, _ = run(capsys, "combat", attacker, hex_text, "-p", str(path), "--seed", "7")
    lines = out.splitlines()
    assert code == 0 and f"-> {c['odds']}" in lines[0] and any("expected steps lost" in x for x in lines)
    assert lines[-1].startswith(f"combat {attacker} -> {hex_text}") and lines[-1].endswith("[seed 7]")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_emitted_plugin_carries_combat(game_id, tmp_path):
    game = load_game(game_id)
    build_plugin(game, tmp_path, lambda m: None)
    [config] = (tmp_path / "referee").glob("hexforge_referee_*/ruleset.json")
    data = json.loads(config.read_text())
    assert data["combat"]["crt"] and "rule" in data["retreat"]
    loaded = load_plugin_ruleset(config)
    bundled = ruleset_for(game)
    assert loaded.combat == bundled.combat and loaded.retreat == bundled.retreat
    pos, _, attacker, target = _an_attack(game_id)
    ours, theirs = assess_combat(pos, bundled, [attacker], target), assess_combat(pos, loaded, [attacker], target)
    assert (theirs.column, theirs.distribution, theirs.expected_steps) == \
        (ours.column, ours.distribution, ours.expected_steps)
