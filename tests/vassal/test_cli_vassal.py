"""``hexforge vassal GAME`` and ``hexforge vassal inspect FILE``: exit codes, output, no tracebacks."""

import json

import pytest

import toolkit.render
from toolkit.cli import main
from vassal_fakes import fake_render_counter, fake_render_map


@pytest.fixture
def fake_renderers(monkeypatch):
    monkeypatch.setattr(toolkit.render, "render_map", fake_render_map, raising=False)
    monkeypatch.setattr(toolkit.render, "render_counter", fake_render_counter, raising=False)


def _run(capsys, *args):
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_vassal_game_writes_the_module_and_inspect_reads_it(tmp_path, capsys, fake_renderers):
    code, out, err = _run(capsys, "vassal", "tutorial", "--out", str(tmp_path), "-q")
    assert code == 0, err
    vmod = tmp_path / "tutorial" / "tutorial.vmod"
    assert vmod.exists() and str(vmod) in out
    code, out, _ = _run(capsys, "vassal", "inspect", str(vmod))
    assert code == 0 and "0505" in out and "0 problems" in out
    code, out, _ = _run(capsys, "vassal", "inspect", str(vmod), "--json")
    report = json.loads(out)
    assert code == 0 and report["setups"][0]["starts"] is True


def test_explicit_build_subcommand_is_the_same(tmp_path, capsys, fake_renderers):
    code, _, err = _run(capsys, "vassal", "build", "tutorial", "--out", str(tmp_path), "-q")
    assert code == 0, err
    assert (tmp_path / "tutorial" / "tutorial.vmod").exists()


@pytest.mark.parametrize("content", [b"not a zip", None])
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, content):
    path = tmp_path / "bad.vmod"
    if content is not None:
        path.write_bytes(content)
    code, out, err = _run(capsys, "vassal", "inspect", str(path))
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err
    code, _, err = _run(capsys, "vassal", "no-such-game")
    assert code == 2 and "Traceback" not in err


def test_problems_exit_1(tmp_path, capsys):
    import zipfile
    path = tmp_path / "p.vmod"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", '<VASSAL.build.GameModule name="x"/>')
    code, out, _ = _run(capsys, "vassal", "inspect", str(path))
    assert code == 1 and "moduledata" in out
