"""``hexforge referee``: human and JSON answers, exit codes, bad input without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.cli import main

POSITIONS = Path(__file__).resolve().parents[1] / "data" / "positions"


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_moves_human_and_json(capsys):
    code, out, _ = run(capsys, "moves", "b-1", "-g", "tutorial")
    assert code == 0 and out.startswith("b-1 at 0505, 4 MP:")
    code, out, _ = run(capsys, "moves", "b-2", "-p", str(POSITIONS / "tutorial-zoc.yaml"), "--json")
    data = json.loads(out)
    assert data["schema"] == 1 and data["command"] == "moves" and data["reach"]["count"] == 8
    assert {h["hex"] for h in data["reach"]["hexes"]} == {"0803", "0802", "0703", "0704", "0903", "0904",
                                                          "0902", "1003"}
    stop = next(h for h in data["reach"]["hexes"] if h["hex"] == "0704")
    assert stop["stops"] and stop["mp_left"] == "0" and stop["path"] == ["0804", "0803", "0704"]
    assert stop["can_end"]


def test_moves_marks_hexes_where_the_move_may_not_end(capsys):
    code, out, _ = run(capsys, "moves", "b-5", "-p", str(POSITIONS / "tutorial-stacking.yaml"), "--json")
    kessel = next(h for h in json.loads(out)["reach"]["hexes"] if h["hex"] == "0505")
    assert kessel["can_end"] is False


def test_path_legal_and_illegal(capsys):
    code, out, _ = run(capsys, "path", "b-1", "0605", "0705", "0805", "-p", str(POSITIONS / "tutorial-zoc-stop.yaml"))
    assert code == 0 and "legal" in out
    code, out, _ = run(capsys, "path", "b-3", "0607", "0707", "-g", "tutorial", "--json")
    data = json.loads(out)
    assert code == 1 and data["check"]["legal"] is False and data["check"]["failed_step"] == 2
    assert data["check"]["reason"] == {"code": "prohibited-hexside", "rule": "T.4", "hex": "0707", "units": ["b-3"],
                                       "text": "crossing the river hexside into 0707 is prohibited"}


def test_stack_moves_together(capsys):
    code, out, _ = run(capsys, "path", "b-3,b-4", "0205", "0305", "-p", str(POSITIONS / "tutorial-mech-stack.yaml"),
                       "--json")
    data = json.loads(out)
    assert code == 0 and [s["cost"] for s in data["check"]["steps"]] == ["1", "1"]


def test_stacking_and_check(capsys):
    code, out, _ = run(capsys, "stacking", "-p", str(POSITIONS / "tutorial-stacking.yaml"))
    assert code == 1 and "0404 holds 3 stacking points" in out and "[rule T.6]" in out
    code, out, _ = run(capsys, "check", "-p", str(POSITIONS / "tutorial-supply-cut.yaml"), "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["supply"]["blue"]["unsupplied"] == ["b-1"]
    assert data["supply"]["blue"]["status"]["b-1"] == "out_of_supply"


def test_supply_human(capsys):
    code, out, _ = run(capsys, "supply", "-p", str(POSITIONS / "tutorial-supply-zoc.yaml"))
    assert code == 0 and "blue: 2 supplied, 1 not" in out and "b-3" in out and "NOT supplied" in out


@pytest.mark.parametrize("args, message", [
    (["moves", "zz", "-g", "tutorial"], "no unit 'zz'"),
    (["path", "b-1", "xx", "-g", "tutorial"], "bad hex"),
    (["moves", "b-1", "--mode", "warp", "-g", "tutorial"], "no movement mode"),
    (["moves", "b-1", "-g", "no-such-game"], "no-such-game"),
    (["supply", "--side", "green", "-g", "tutorial"], "unknown side"),
    (["moves", "b-1", "-p", "/nonexistent/p.yaml"], "p.yaml"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_png_draws_the_answer(capsys, tmp_path):
    from PIL import Image
    out = tmp_path / "moves.png"
    code, _, err = run(capsys, "moves", "b-3", "-g", "tutorial", "--png", str(out), "--dpi", "40")
    assert code == 0 and "wrote" in err
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 200
    plain = tmp_path / "plain.png"
    from toolkit import render
    from toolkit.io import load_game
    game = load_game("tutorial")
    render.render_map(game.main_map, dpi=40, game=game).save(plain)
    with Image.open(out) as a, Image.open(plain) as b:
        assert a.size == b.size and a.tobytes() != b.tobytes()   # the overlay changed the map
