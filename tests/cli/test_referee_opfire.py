"""``hexforge referee opfire UNITS HEX`` on Grossdeutschland's Kursk set-up (11.4)."""

from __future__ import annotations

import json

import pytest

from toolkit.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_opfire_lists_the_firers_and_the_target(capsys, tmp_path):
    # a Soviet rifle company and its HQ entering 1630, three hexes from the 2Pz tanks at 1428
    code, out, _ = run(capsys, "opfire", "s-1rif-1,s-1rif-hq", "1630", "-g", "grossdeutschland", "-s", "kursk")
    assert code == 0 and "target: s-1rif-1" in out and "g-2pz-5k         1428  range 3" in out
    code, out, err = run(capsys, "opfire", "s-1rif-1", "1630", "-g", "grossdeutschland", "-s", "kursk", "--json",
                         "--png", str(tmp_path / "f.png"))
    data = json.loads(out)
    assert data["command"] == "opfire" and data["targets"] == ["s-1rif-1"] and data["why_none"] is None
    assert {"unit": "g-2pz-5k", "range": 3, "hex": "1428"} in data["firers"] and (tmp_path / "f.png").stat().st_size


def test_opfire_says_why_nobody_may_fire(capsys):
    code, out, _ = run(capsys, "opfire", "s-1rif-1", "1630", "-g", "grossdeutschland", "-s", "kursk",
                       "--how", "advance")
    assert code == 1 and "11.4: a unit advancing after combat" in out
    code, out, _ = run(capsys, "opfire", "s-1rif-1", "1630", "-g", "grossdeutschland", "-s", "kursk",
                       "--weather", "foggy")
    assert code == 1 and "14.1" in out


@pytest.mark.parametrize("args, words", [
    (["opfire", "b-1", "0505", "-g", "tutorial"], "has no opportunity fire question"),
    (["opfire", "s-1rif-1", "99x", "-g", "grossdeutschland"], "bad hex"),
    (["opfire", "nonesuch", "1630", "-g", "grossdeutschland"], "nonesuch"),
])
def test_opfire_bad_input_exits_2_with_a_message(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and words in err and "Traceback" not in err
