"""``hexforge referee turn``: text, JSON and PNG answers, exit codes, bad files without tracebacks."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from toolkit.cli import main
from toolkit.hexes import Hex
from toolkit.referee import position_from_scenario


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", "turn", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


@pytest.fixture()
def files(bound, built, tmp_path):
    from vassal_logs import LogBuilder
    binding = bound("tutorial")
    _, module = built("tutorial")
    pos = position_from_scenario(binding.game, side="blue")    # Alice plays blue
    log = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3)).roll("1d6", 6).move(["b-3"], Hex(12, 8))
    (tmp_path / "turn.vlog").write_bytes(log.bytes())
    (tmp_path / "before.vsav").write_bytes(LogBuilder(binding, pos).save())
    good = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3))
    (tmp_path / "after.vsav").write_bytes(good.save())
    return tmp_path, str(module)


def test_a_log_in_text_and_json(capsys, files):
    folder, module = files
    code, out, _ = run(capsys, str(folder / "turn.vlog"), "--module", module)
    assert code == 1
    assert "move 1: b-2 0503 -> 0603: legal, path 0503 0603, cost 1 of 4 MP [action 1]" in out
    assert "move 2: b-3 0608 -> 1208: ILLEGAL at step" in out and "dice [action 2]: 1d6 = 6" in out
    assert out.rstrip().endswith("the turn is NOT legal")
    code, out, _ = run(capsys, str(folder / "turn.vlog"), "--module", module, "--json", "--side", "blue")
    data = json.loads(out)
    assert data["schema"] == 1 and data["command"] == "turn" and data["game"] == "tutorial"
    assert data["turn"]["source"]["kind"] == "log" and data["turn"]["side"] == "blue"
    assert [m["legal"] for m in data["turn"]["moves"]] == [True, False]
    assert data["turn"]["players"] == {"Alice": "blue"}


def test_two_saves_and_the_picture(capsys, files):
    folder, module = files
    png = folder / "turn.png"
    code, out, err = run(capsys, str(folder / "before.vsav"), str(folder / "after.vsav"), "-m", module,
                         "--png", str(png), "--dpi", "60")
    assert code == 0 and "the turn is legal" in out and "wrote" in err
    with Image.open(png) as image:
        colours = {c for _, c in image.convert("RGB").getcolors(maxcolors=1 << 24)}
    assert (0x13, 0x8a, 0x36) in colours           # the green arrow is drawn


def test_bad_input_is_one_line_and_exit_2(capsys, files, tmp_path, monkeypatch):
    folder, module = files
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"not a zip")
    code, _, err = run(capsys, str(bad), "-m", module)
    assert code == 2 and err.startswith("error:") and "not a zip" in err and "Traceback" not in err
    code, _, err = run(capsys, str(folder / "before.vsav"), "-m", module)
    assert code == 2 and "holds no logged moves" in err
    code, _, err = run(capsys, str(folder / "turn.vlog"), "-m", module, "--side", "green")
    assert code == 2 and "unknown side 'green'" in err
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, str(folder / "turn.vlog"))      # no module given, none built in ./build
    assert code == 2 and "hexforge build tutorial" in err


def test_vassal_save_and_position_round_trip(capsys, built, tmp_path):
    from toolkit.referee import load_position

    game, module = built("velikiye-luki")
    with pytest.raises(SystemExit) as exc:
        main(["vassal", "save", "-g", "velikiye-luki", "-m", str(module), "-o", str(tmp_path / "s.vsav")])
    assert exc.value.code == 0 and "wrote" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["vassal", "position", str(tmp_path / "s.vsav"), "-m", str(module), "-o", str(tmp_path / "p.yaml")])
    assert exc.value.code == 0
    back = load_position(tmp_path / "p.yaml", game)
    pos = position_from_scenario(game)
    assert {u: (v.hex, v.box, v.steps) for u, v in back.units.items()} == \
        {u: (v.hex, v.box, v.steps) for u, v in pos.units.items()}
    with pytest.raises(SystemExit) as exc:
        main(["vassal", "save", "-m", str(module), "-o", str(tmp_path / "x.vsav")])
    assert exc.value.code == 2


@pytest.mark.slow
def test_velikiye_luki_turn_on_the_real_module(capsys, tmp_path):
    """The whole path with the real map renderer's grid: build the module, play a log, judge and draw it."""
    from toolkit.io import load_game
    from toolkit.vassal import ModuleBinding, build_module
    from vassal_logs import LogBuilder

    game = load_game("velikiye-luki")
    [module] = build_module(game, tmp_path / "vl", dpi=100)
    binding = ModuleBinding(game, module)
    pos = position_from_scenario(game)
    grid = pos.map.grid
    log = LogBuilder(binding, pos).move(["df28"], grid.parse("1115")).move(["ab146"], grid.parse("1014"))
    (tmp_path / "t.vlog").write_bytes(log.bytes())
    code, out, _ = run(capsys, str(tmp_path / "t.vlog"), "-m", str(module), "--png", str(tmp_path / "t.png"))
    assert code == 1
    assert "move 1: df28 1316 -> 1115: legal, path 1316 1215 1115, cost 2 of 6 MP" in out
    assert "move 2: ab146 1314 -> 1014: ILLEGAL at step 3: the move had to end at 1114" in out
    with Image.open(tmp_path / "t.png") as image:
        colours = {c for _, c in image.convert("RGB").getcolors(maxcolors=1 << 24)}
    assert (0x13, 0x8a, 0x36) in colours and (0xd0, 0x1c, 0x1c) in colours
