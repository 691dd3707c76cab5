"""Corrupted saves and logs through ``referee turn`` and ``vassal position`` (issue 14's reader).

The default slice (16 inputs, the same seeded mix of stream and archive corruptions and of
the three commands as the long run's first 16) names the game with ``-g`` in most cases so it
runs in about 3 s; ``--fuzz-long`` runs 60 inputs, each finding its game by the module's name.

Same acceptable outcomes as test_fuzz.py: an answer (exit 0 or 1) or a clear error naming a file
(exit 2); never a traceback, a hang or a file read outside the place. Archives are corrupted as a
whole (fuzz_harness.mutate_archive) and, more usefully for the command parser, their plain
command stream is corrupted and zipped again with valid metadata.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from fuzz_harness import Place, Tally, mutate_archive, mutate_text, run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vassal"))


@pytest.fixture(scope="module")
def turn_files(tmp_path_factory):
    """The tutorial's module (stand-in images), a log of a few actions and the save before it."""
    from vassal_fakes import FAKES
    from vassal_logs import LogBuilder

    from toolkit.hexes import Hex
    from toolkit.io import load_game
    from toolkit.referee import position_from_scenario
    from toolkit.vassal import ModuleBinding, build_module

    out = tmp_path_factory.mktemp("fuzz-turn")
    game = load_game("tutorial")
    [module] = build_module(game, out, lambda m: None, dpi=40, **FAKES)
    binding = ModuleBinding(game, module)
    pos = position_from_scenario(game)
    log = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3)).roll("1d6", 4).flip("b-1", 1)
    log.move(["b-3"], Hex(9, 8)).undo().move(["b-1", "b-hq"], Hex(5, 4))
    return module.read_bytes(), log.bytes(), LogBuilder(binding, pos).save(), log.text(), binding.info


def _zip_stream(text: str, info: dict) -> bytes:
    from vassal_logs import zip_stream
    return zip_stream(text, module=info["name"], version=info["version"],
                      obfuscated=bool(len(text) % 2))


def test_fuzz_saves_and_logs_through_referee_turn(tmp_path, turn_files, request):
    module, vlog, vsav, text, info = turn_files
    long = request.config.getoption("--fuzz-long")
    n = 60 if long else 16
    rnd = random.Random(14)
    place = Place(tmp_path)
    tally = Tally()
    for case in range(n):
        place.reset()
        (place.root / "m.vmod").write_bytes(module)
        if rnd.random() < 0.6:
            mutated, what = mutate_text(text, rnd)
            data = _zip_stream(mutated, info)
            what = f"stream {what}"
        else:
            data, what = mutate_archive(rnd.choice([vlog, vsav]), rnd)
        (place.root / "x.vlog").write_bytes(data)
        (place.root / "before.vsav").write_bytes(vsav)
        log, before, mod = (str(place.root / name) for name in ("x.vlog", "before.vsav", "m.vmod"))
        args = rnd.choice([["referee", "turn", log, "-m", mod, "--json"],
                           ["referee", "turn", before, log, "-m", mod],
                           ["vassal", "position", log, "-m", mod, "-o", str(place.out / "p.yaml")]])
        if not long and case % 8:
            # the default slice names the game for 7 cases in 8: finding it by the module's name
            # loads every bundled game (most of a case's time); cases 0 and 8 still go that way
            args += ["-g", "tutorial"]
        tally.add(f"case {case} {what[:60]} | {' '.join(args[:2])}",
                  run_cli(args, place, writes_out=args[1] == "position"))
    print(f"\nfuzz turn: {tally.summary()}")
    assert not tally.failures, "\n".join(tally.failures[:5])
