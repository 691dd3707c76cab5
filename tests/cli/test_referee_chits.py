"""``hexforge referee chit`` and ``hexforge referee oos`` on A Victory Denied's campaign."""

from __future__ import annotations

import json

import pytest

from toolkit.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_chit_human_and_json(capsys):
    code, out, _ = run(capsys, "chit", "c-22a", "-g", "a-victory-denied")
    assert code == 0 and out.startswith("c-22a activates HQs s-hq-22a and 2 units")
    code, out, _ = run(capsys, "chit", "c-3pzg", "-g", "a-victory-denied", "--seed", "XXXIX=g-19pz", "--json")
    data = json.loads(out)
    assert data["command"] == "chit" and set(data["units"]) == {"g-19pz", "g-18mot", "g-14mot", "g-900lehr"}
    code, out, _ = run(capsys, "chit", "c-9a", "-g", "a-victory-denied", "--hq", "g-hq-9a", "--json")
    data = json.loads(out)
    assert code == 0 and data["hqs"][0] == "g-hq-9a" and "g-161id" in data["units"]


def test_chit_of_an_hq_off_the_map_activates_nothing(capsys):
    code, out, _ = run(capsys, "chit", "c-24a", "-g", "a-victory-denied")     # 24 A waits in the Reserve
    assert code == 1 and "activates nothing" in out


def test_oos_lists_the_candidates(capsys):
    code, out, _ = run(capsys, "oos", "3", "-g", "a-victory-denied", "-t", "1", "--json")
    assert json.loads(out)["choose"] == 0                                         # none on turn 1 (10.1.3)
    code, out, _ = run(capsys, "oos", "3", "-g", "a-victory-denied", "-t", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["choose"] == 3 and data["rule"] == "10.1"
    assert "g-7pz" in data["candidates"] and "g-31id" not in data["candidates"]   # not in the pocket


@pytest.mark.parametrize("args, words", [
    (["chit", "c-9a", "-g", "tutorial"], "has no command chits"),
    (["oos", "2", "-g", "tutorial"], "has no player-chosen Out of Supply"),
    (["chit", "nonesuch", "-g", "a-victory-denied"], "not a command chit"),
    (["chit", "c-3pzg", "-g", "a-victory-denied", "--seed", "XXXIX"], "expected CORPS=UNIT"),
    (["chit", "c-3pzg", "-g", "a-victory-denied", "--seed", "XXXIX=g-20pz"], "not an active motorised unit"),
])
def test_bad_input_exits_2_without_a_traceback(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and words in err and "Traceback" not in err
