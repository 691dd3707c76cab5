"""``hexforge map``: files where asked, one clear line and exit 2 for bad input."""

from __future__ import annotations

import pytest
from PIL import Image

from toolkit.cli import main


def _run(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_map_writes_png_and_pdf(tmp_path, capsys):
    code, out, err = _run(["map", "tutorial", "--dpi", "60", "--out", str(tmp_path), "--paper", "letter"], capsys)
    assert code == 0, err
    with Image.open(tmp_path / "main.png") as im:
        assert round(im.info["dpi"][0]) == 60
    assert (tmp_path / "main-letter.pdf").read_bytes().startswith(b"%PDF")
    assert "main.png" in out


def test_out_file_names_the_png(tmp_path, capsys):
    code, _, err = _run(["map", "tutorial", "--dpi", "40", "--out", str(tmp_path / "x.png")], capsys)
    assert code == 0, err
    assert (tmp_path / "x.png").exists() and not list(tmp_path.glob("*.pdf"))


@pytest.mark.parametrize("argv,message", [
    (["map", "tutorial", "--map", "nope"], "no map 'nope'"),
    (["map", "no-such-game"], "no-such-game"),
    (["map", "tutorial", "--dpi", "5"], "dpi"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys, tmp_path):
    code, out, err = _run(argv + ["--out", str(tmp_path)], capsys)
    assert code == 2
    assert message in err and "Traceback" not in err
