"""``hexforge play``: the server starts on a free port of 127.0.0.1 and answers; bad input is
one clear line and exit 2."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from toolkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _run(args, capsys):
    try:
        main(args)
    except SystemExit as exc:
        return exc.code, capsys.readouterr().err
    return 0, capsys.readouterr().err


def test_the_server_starts_serves_the_game_and_stops(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "toolkit", "play", "tutorial", "--no-browser", "--seed", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        position = json.load(urllib.request.urlopen(url + "api/position", timeout=10))["position"]
        assert position["stage"] == {"turn": 1, "side": "red", "phase": "Movement"} and position["seed"] == 5
        assert b"<title>hexforge play</title>" in urllib.request.urlopen(url, timeout=10).read()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    broken = tmp_path / "game.json"
    broken.write_text('{"format": "hexforge-play", "version": 1, "seed": 1, "events": [], "game": "tutorial", '
                      '"start": {"game": "tutorial", "units": {"r-10": {"hex": "9999"}}}}')
    code, err = _run(["play", "--load", str(broken), "--no-browser"], capsys)
    assert code == 2 and "game.json: start" in err and "units.r-10" in err and "Traceback" not in err
    code, err = _run(["play", "nosuchgame", "--no-browser"], capsys)
    assert code == 2 and err.startswith("error:")
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        code, err = _run(["play", "tutorial", "--no-browser", "--port", str(taken.getsockname()[1])], capsys)
    assert code == 2 and "cannot listen on 127.0.0.1" in err
    position = tmp_path / "p.yaml"
    position.write_text("game: tutorial\nunits: {r-10: {hex: '0905'}}\n")
    code, err = _run(["play", "-s", "crossing", "--load", str(position), "--no-browser"], capsys)
    assert code == 2 and "not both" in err


def test_help_lists_the_options():
    result = CliRunner().invoke(__import__("toolkit.cli", fromlist=["cli"]).cli, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--scenario", "--load", "--port", "--no-browser", "--module", "--seed"):
        assert option in result.output
