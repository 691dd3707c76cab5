"""``hexforge import vmod``, ``hexforge terrain draft`` and ``hexforge validate --against`` end to end."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
from toolkit.cli import main

sys.path.insert(0, str(ROOT / "tests" / "vassal"))
from vassal_fakes import FAKES  # noqa: E402


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.fixture(scope="module")
def tutorial_module(tmp_path_factory):
    from toolkit.io import load_game
    from toolkit.render import render_map
    from toolkit.vassal import build_module

    out = tmp_path_factory.mktemp("module")
    [path] = build_module(load_game("tutorial"), out, lambda message: None, dpi=100,
                          render_map=render_map, render_counter=FAKES["render_counter"])
    return path


def test_import_then_draft_then_validate_then_build(capsys, tutorial_module, tmp_path):
    game = tmp_path / "kessel"
    code, out, err = run(capsys, "import", "vmod", str(tutorial_module), "-o", str(game))
    assert code == 0 and err == ""
    assert "wrote" in out and "counters" in out and "not mapped" in out
    code, out, _ = run(capsys, "validate", str(game))
    assert code == 1 and "hex-without-terrain" in out  # terrain starts empty
    learn = ("0101=clear,0301=woods,0104=rough,0701=hills,1104=swamp,0806=lake,0505=town,0503=clear+village,"
             "0602/0702=river,0405>0505=road")   # a hexside and a road named by hand too
    code, out, err = run(capsys, "terrain", "draft", str(game), "--learn", learn)
    assert code == 0 and "drafted" in out and "decide these by eye" in out
    text = (game / "maps" / "kessel-crossing.yaml").read_text()
    assert "drafted from kessel-crossing-map_main.png" in text and "confidence" in text
    from toolkit.io import load_game
    drafted = load_game(str(game)).main_map
    fmt = drafted.grid.format_hexside
    rivers = {fmt(s) for s, fs in drafted.hexsides.items() if any(f.code == "river" for f in fs)}
    assert {"0602/0702", "0603/0703", "0604/0704", "0605/0706"} <= rivers  # the river runs on, found
    roads = {fmt(s) for s, codes in drafted.line_links().items() if "road" in codes}
    assert {"0205/0305", "0305/0405"} <= roads  # (into the town, 0405/0505, its symbols hide the road)
    assert drafted.hexside_types["river"].source.is_estimated
    # the board image checked against the data drafted from it: they agree but for a handful of
    # hexes (the legend band, which VASSAL's grid covers too, and the draft's own slips, which
    # the check, judging each hex by all the others, catches)
    board = next((game / "maps").glob("*.png"))
    code, out, err = run(capsys, "validate", str(game), "--against", str(board), "--overlay", str(tmp_path / "o.png"))
    mismatched = re.findall(r"hex (\d{4}): the data says", out)
    assert 0 < len(mismatched) <= 8, out
    assert Image.open(tmp_path / "o.png").size == Image.open(board).size
    code, out, err = run(capsys, "vassal", str(game), "--out", str(tmp_path / "build"), "-q")
    assert code == 0, err
    [module] = (tmp_path / "build").glob("*/*.vmod")
    code, out, err = run(capsys, "vassal", "inspect", str(module))
    assert code == 0 and "0 problems" in out and "setup" in out


def test_validate_against_finds_changed_hexes(capsys, tmp_path):
    from toolkit.io import load_game
    from toolkit.render import render_map

    folder = tmp_path / "game"
    shutil.copytree(ROOT / "counters" / "tutorial", folder)
    text = (ROOT / "maps" / "tutorial" / "map.yaml").read_text()
    changed = text.replace('"06": ". . . w w . . l l . . ."', '"06": ". . . w w . . l l . w ."')
    assert changed != text
    (folder / "map.yaml").write_text(changed)
    game_yaml = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(game_yaml.replace("../../maps/tutorial/map.yaml", "map.yaml"))
    game = load_game("tutorial")
    picture = tmp_path / "map.png"
    render_map(game.main_map, dpi=120, game=game).save(picture)
    code, out, err = run(capsys, "validate", str(folder), "--against", str(picture), "--dpi", "120",
                         "--overlay", str(tmp_path / "o.png"))
    assert code == 1
    assert "hex 1106: the data says woods, map.png shows clear" in out and "(terrain-mismatch)" in out
    assert (tmp_path / "o.png").is_file()


@pytest.mark.parametrize("args, message", [
    (["import", "vmod", "nowhere.vmod"], "file not found"),
    (["terrain", "draft", "tutorial", "--image", "nowhere.png"], "picture not found"),
    (["terrain", "draft", "tutorial", "--learn", "0101"], "is not HEX=TERRAIN"),
    (["terrain", "draft", "tutorial", "--ref", "0101=1,2"], "exactly two reference hexes"),
    (["validate", "tutorial", "--against", "nowhere.png"], "picture not found"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    if args[:2] == ["terrain", "draft"]:
        shutil.copytree(ROOT / "counters" / "tutorial", tmp_path / "g")
        shutil.copy(ROOT / "maps" / "tutorial" / "map.yaml", tmp_path / "g" / "map.yaml")
        gy = (tmp_path / "g" / "game.yaml").read_text().replace("../../maps/tutorial/map.yaml", "map.yaml")
        (tmp_path / "g" / "game.yaml").write_text(gy)
        args = [args[0], args[1], str(tmp_path / "g"), *args[3:]]
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_game_folder_named_relative_to_the_current_folder(capsys, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "counters" / "tutorial", tmp_path / "mygame")
    shutil.copy(ROOT / "maps" / "tutorial" / "map.yaml", tmp_path / "mygame" / "map.yaml")
    gy = (tmp_path / "mygame" / "game.yaml").read_text().replace("../../maps/tutorial/map.yaml", "map.yaml")
    (tmp_path / "mygame" / "game.yaml").write_text(gy)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", "mygame")
    assert code == 0 and err == "", err
