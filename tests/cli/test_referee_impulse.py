"""``hexforge referee impulse`` and ``hexforge referee analysis`` on White Death, and ``referee
moves`` priced from the impulse in progress."""

from __future__ import annotations

import json

import pytest

from toolkit.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_declare_then_moves_use_the_impulse_mp(capsys, tmp_path):
    p1 = tmp_path / "p1.yaml"
    code, out, _ = run(capsys, "impulse", "-g", "white-death", "-s", "purkayev", "--declare", "4", "--out", str(p1))
    assert code == 0 and "soviet 6, german 10" in out and "next: german impulse" in out
    code, out, _ = run(capsys, "moves", "s-m18-1", "-p", str(p1), "--json")
    assert code == 0 and json.loads(out)["reach"]["ma"] == "4"
    p2 = tmp_path / "p2.yaml"
    code, out, _ = run(capsys, "impulse", "-p", str(p1), "--declare", "10", "--out", str(p2), "--json")
    data = json.loads(out)
    assert data["left"] == {"soviet": 6, "german": 0} and data["next"] == "soviet"


def test_pass_costs_the_options_mp(capsys, tmp_path):
    out_file = tmp_path / "p.yaml"
    code, out, _ = run(capsys, "impulse", "-g", "white-death", "--pass", "--out", str(out_file), "--json")
    assert code == 0 and json.loads(out)["left"]["soviet"] == 9


@pytest.mark.parametrize("args, problem", [
    (["--declare", "11", "--out", "OUT"], "1 to 10"),
    (["--declare", "4"], "--out"),
])
def test_bad_declarations_exit_2_without_writing(capsys, tmp_path, args, problem):
    args = [str(tmp_path / "p.yaml") if a == "OUT" else a for a in args]
    code, out, err = run(capsys, "impulse", "-g", "white-death", *args)
    assert code == 2 and problem in err + out and not list(tmp_path.iterdir())


def test_a_game_without_impulses_is_refused(capsys):
    code, out, err = run(capsys, "impulse", "-g", "tutorial")
    assert code == 2 and "no impulse budget" in err


def test_isolation_and_artillery_overlays(capsys, tmp_path):
    png = tmp_path / "iso.png"
    code, out, _ = run(capsys, "analysis", "isolation", "-g", "white-death", "-s", "woehler", "--side", "german",
                       "--png", str(png), "--dpi", "20")
    assert code == 0 and "g-sich336" in out and "isolated" in out and png.stat().st_size > 1000
    code, out, _ = run(capsys, "analysis", "artillery", "-g", "white-death", "-s", "woehler", "--side", "soviet",
                       "--json")
    data = json.loads(out)
    assert data["kind"] == "artillery" and data["supply"]
    code, out, err = run(capsys, "analysis", "weather", "-g", "white-death")
    assert code == 2 and "isolation, artillery" in err


def test_rail_answers_and_refusals(capsys, tmp_path):
    code, out, _ = run(capsys, "rail", "s-m18-1", "-g", "white-death", "-s", "purkayev", "--json")
    data = json.loads(out)
    assert code == 1 and data["refused"]["rule"] == "8"                   # not on a railroad
    pos = tmp_path / "p.yaml"
    pos.write_text("game: white-death\nscenario: purkayev\nturn: 2\nunits:\n  s-m18-1: {hex: '2816'}\n")
    code, out, _ = run(capsys, "rail", "s-m18-1", "-p", str(pos), "--png", str(tmp_path / "r.png"), "--dpi", "20")
    assert code == 0 and "25 rail SP left" in out and (tmp_path / "r.png").exists()
