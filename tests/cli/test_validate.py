"""``hexforge validate``: exit codes 0/1/2, one-line errors without tracebacks, and --json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from datafiles import BROKEN, ROOT, edit
from toolkit.cli import main

TUTORIAL = ROOT / "counters" / "tutorial"


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["validate", *args])
    out, err = capsys.readouterr()
    return info.value.code, out, err


def test_clean_game_exits_0(capsys):
    code, out, err = run(capsys, str(TUTORIAL))
    assert code == 0 and err == ""
    assert out.strip().endswith("tutorial: 0 errors, 0 warnings: clean")
    assert "map main: hexes: 120 total, 120 cited, 0 estimated (0%)" in out


def test_bundled_game_by_id(capsys):
    code, out, _ = run(capsys, "tutorial")
    assert code == 0 and "provenance of tutorial" in out


def test_findings_exit_1_and_name_file_and_line(capsys, game_copy):
    edit(game_copy / "map.yaml", '"05": "r . . . t', '"05": "r . . . x')
    code, out, _ = run(capsys, str(game_copy))
    assert code == 1
    line = next(ln for ln in out.splitlines() if "unknown-terrain" in ln)
    assert line.startswith(f"{game_copy / 'map.yaml'}:")
    assert "error: hex 0505 has unknown terrain 'x'; expected one of" in line
    assert out.strip().endswith("FAILED")


def test_warnings_pass_unless_strict(capsys, game_copy):
    edit(game_copy / "map.yaml", "terrain_types:\n", 'terrain_types:\n  marsh: {name: Marsh, move: {"*": 2}}\n')
    code, out, _ = run(capsys, str(game_copy))
    assert code == 0 and "ok with warnings" in out and "unused-terrain" in out
    code, _, _ = run(capsys, "--strict", str(game_copy))
    assert code == 1


BROKEN_INPUTS = ["bad-yaml.yaml", "nul-byte.yaml", "invalid-utf8.yaml", "billion-laughs.yaml", "deep.yaml",
                 "bad-hex.yaml", "empty.yaml", "huge-number.yaml"]


@pytest.mark.parametrize("name", BROKEN_INPUTS)
def test_broken_map_files_exit_2_with_one_line(capsys, name):
    code, out, err = run(capsys, str(BROKEN / name))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {BROKEN / name}")
    assert "Traceback" not in err


def test_broken_file_inside_a_game_exits_2(capsys, game_copy):
    shutil.copy(BROKEN / "counters-duplicate-id.csv", game_copy / "counters.csv")
    code, out, err = run(capsys, str(game_copy))
    assert code == 2
    assert err.strip() == f"error: {game_copy / 'counters.csv'}:4: id: duplicate counter id 'b-1' (first on line 2)"


def test_unknown_game_exits_2(capsys):
    code, _, err = run(capsys, "no-such-game")
    assert code == 2 and "no game 'no-such-game'" in err and len(err.strip().splitlines()) == 1


def test_json_report_schema(capsys, game_copy):
    edit(game_copy / "scenarios" / "crossing.yaml", "units: [b-2]", "units: [b-99]")
    code, out, _ = run(capsys, "--json", str(game_copy))
    assert code == 1
    data = json.loads(out)
    assert set(data) == {"game", "ok", "errors", "warnings", "findings", "provenance"}
    assert data["game"] == "tutorial" and data["ok"] is False and data["errors"] == 1
    finding = data["findings"][0]
    assert finding == {"severity": "error", "code": "unknown-counter", "message": finding["message"],
                       "file": str(game_copy / "scenarios" / "crossing.yaml"), "line": 13,
                       "field": "setup[1].units"}
    for counts in data["provenance"].values():
        assert {"total", "cited", "estimated", "unsourced"} <= set(counts)


def test_json_on_clean_and_unreadable_input(capsys):
    code, out, _ = run(capsys, "--json", str(TUTORIAL))
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run(capsys, "--json", str(BROKEN / "bad-hex.yaml"))
    assert code == 2
    assert json.loads(out) == {"game": str(BROKEN / "bad-hex.yaml"), "ok": False,
                               "error": {"path": str(BROKEN / "bad-hex.yaml"), "line": 7, "field": "places[0].hex",
                                         "problem": "bad hex id '0799x': expected CCRR, e.g. '0712'"}}


def test_a_map_file_alone(capsys):
    code, out, _ = run(capsys, str(ROOT / "maps" / "tutorial" / "map.yaml"))
    assert code == 0 and out.strip().endswith("main: 0 errors, 0 warnings: clean")


@pytest.mark.parametrize("module", ["toolkit", "toolkit.cli"])
def test_python_dash_m_runs_the_command(module):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", module, "validate", str(BROKEN / "nul-byte.yaml")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"error: {BROKEN / 'nul-byte.yaml'}:2: binary data (NUL byte) in a text file"
