"""Turns played in VASSAL judged by the referee: logs move by move, two saves, stacking, supply.

The moves are chosen on the bundled scenarios' set-ups and their verdicts come from the
rulebooks: Velikiye Luki (TEC 1 clear 1 MP, TEC 2 wooded 1 MP for infantry, TEC 3 swamp 2 and
+2 for a major river; 4.2.1 entering an enemy ZOC ends movement; 3.1 no more than the MA),
Demyansk Shield (8.31 rough 2 + woods 1; 8.1 the MA; 3.32 seven stacking points per hex,
checked at the end of the phase), the tutorial (T.6 two units per hex at the end of each move).
"""

from fractions import Fraction

from toolkit.hexes import Hex
from toolkit.referee import position_from_scenario, ruleset_for
from toolkit.vassal.turn import judge_log, judge_saves, phase_side
from toolkit.vassal.vlog import read_game
from vassal_logs import LogBuilder


def _log(binding, log, tmp_path, name="t.vlog"):
    path = tmp_path / name
    path.write_bytes(log.bytes())
    return read_game(binding, path)


def _save(binding, data, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(data)
    return read_game(binding, path)


def _h(pos, text):
    return pos.map.grid.parse(text)


def test_velikiye_luki_log_legal_and_illegal_moves(bound, tmp_path):
    binding = bound("velikiye-luki")
    pos = position_from_scenario(binding.game)
    rs = ruleset_for(binding.game)
    log = LogBuilder(binding, pos)
    log.move(["bf31"], _h(pos, "1101"))          # wooded: 1 MP (TEC 2)
    log.move(["df28"], _h(pos, "1115"))          # clear 1 + wooded 1, ends in jager3's ZOC (4.2.1)
    log.move(["ab146"], _h(pos, "1014"))         # onto jager3: blocked by the ZOC first
    report = judge_log(_log(binding, log, tmp_path), rs)
    by_unit = {m.units: m for m in report.moves}
    bf31 = by_unit[("bf31",)]
    assert bf31.legal and bf31.cost == 1 and [pos.map.format(h) for h in bf31.route] == ["1001", "1101"]
    df28 = by_unit[("df28",)]
    assert df28.legal and df28.cost == 2 and [pos.map.format(h) for h in df28.route] == ["1316", "1215", "1115"]
    ab146 = by_unit[("ab146",)]
    assert ab146.legal is False and ab146.reason.code.value == "zoc-stop" and ab146.reason.rule == "4.2.1"
    assert report.side == "soviet" and not report.legal


def test_velikiye_luki_move_beyond_the_movement_allowance(bound, tmp_path):
    binding = bound("velikiye-luki")
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos).move(["bf31"], _h(pos, "1009"))   # 8 hexes from 1001, MA 6
    [move] = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game)).moves
    assert move.legal is False and move.reason.code.value == "not-enough-mp" and move.reason.rule == "3.1"
    assert move.route[0] == _h(pos, "1001") and move.route[-1] == _h(pos, "1009")


def test_velikiye_luki_major_river_and_swamp(bound, tmp_path):
    binding = bound("velikiye-luki")
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos).move(["bf31"], _h(pos, "902"))    # swamp 2 + major river 2
    [move] = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game)).moves
    assert move.legal and move.cost == 4 and move.check.ma == 6


def test_demyansk_shield_log_legal_illegal_and_stacking_at_the_end(bound, tmp_path):
    binding = bound("demyansk-shield")
    pos = position_from_scenario(binding.game)
    rs = ruleset_for(binding.game)
    log = LogBuilder(binding, pos)
    log.move(["so-130"], _h(pos, "2005"))        # rough 2 + woods 1 = 3 of 4 MP (8.31)
    log.move(["so-245"], _h(pos, "2105"))        # 2103 -> 2105: two rough-woods hexes, 6 MP > 4 (8.1)
    log.move(["so-84"], _h(pos, "1319"))         # onto so-180: 4 + 4 points > 7 (3.32), legal to enter
    report = judge_log(_log(binding, log, tmp_path), rs)
    by_unit = {m.units: m for m in report.moves}
    assert by_unit[("so-130",)].legal and by_unit[("so-130",)].cost == 3
    so245 = by_unit[("so-245",)]
    assert so245.legal is False and so245.reason.code.value == "not-enough-mp" and so245.reason.rule == "8.1"
    assert by_unit[("so-84",)].legal                  # stacking is judged at the end of the phase
    [over] = report.stacking
    assert over.code.value == "stacking-limit" and over.rule == "3.32" and over.hex == _h(pos, "1319")
    assert not report.legal


def test_tutorial_order_of_moves_legal_in_a_log_not_from_the_end_position(bound, tmp_path):
    binding = bound("tutorial")
    rs = ruleset_for(binding.game)
    pos = position_from_scenario(binding.game)
    pos.units["b-5"].hex = Hex(5, 3)     # b-2 and b-5 fill 0503 (two units, T.6)
    pos.touch()
    log = LogBuilder(binding, pos)
    log.move(["b-2"], Hex(6, 3))          # b-2 leaves 0503 ...
    log.move(["b-1"], Hex(5, 4))          # ... b-1 passes ...
    log.move(["b-1"], Hex(5, 3))          # ... and stops in 0503: two units again, legal in this order
    record = _log(binding, log, tmp_path)
    report = judge_log(record, rs)
    b1 = next(m for m in report.moves if m.units == ("b-1",))
    assert b1.legal and b1.stops == [Hex(5, 4)] and b1.actions == [2, 3] and len(report.moves) == 2
    # VASSAL marked b-1 moved after its first leg; the whole move is judged as from before it
    assert record.events[2].before.units["b-1"].moved and b1.start_moved == {"b-1": False}
    assert report.legal
    # from the two saves alone, b-1's move is judged on the first position, where 0503 is full
    before = _save(binding, LogBuilder(binding, pos).save(), tmp_path, "before.vsav")
    after = _save(binding, log.save(), tmp_path, "after.vsav")
    saves = judge_saves(before, after, rs)
    b1 = next(m for m in saves.moves if m.units == ("b-1",))
    assert b1.legal is False and b1.reason.code.value == "stacking-limit" and b1.reason.rule == "T.6"


def test_tutorial_turn_with_an_unsupplied_unit(bound, tmp_path):
    binding = bound("tutorial")
    rs = ruleset_for(binding.game)
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos).move(["r-12"], Hex(6, 2))
    report = judge_log(_log(binding, log, tmp_path), rs)
    [move] = report.moves
    assert move.legal and report.side == "red"
    assert report.supply["red"].unsupplied == {"r-12"}
    assert report.supply["red"].status["r-12"] == "out_of_supply"


def test_saves_list_units_that_appeared_vanished_and_flipped(bound, tmp_path):
    binding = bound("tutorial")
    rs = ruleset_for(binding.game)
    pos = position_from_scenario(binding.game)
    before = _save(binding, LogBuilder(binding, pos).save(), tmp_path, "before.vsav")
    log = LogBuilder(binding, pos).move(["b-5"], "eliminated").flip("b-1", 1).move(["b-2"], Hex(6, 3))
    after = _save(binding, log.save(), tmp_path, "after.vsav")
    report = judge_saves(before, after, rs)
    notes = {m.units: m for m in report.moves}
    assert notes[("b-5",)].legal is None and "left the map for box eliminated" in notes[("b-5",)].note
    assert notes[("b-2",)].legal
    assert report.flips == [{"unit": "b-1", "steps": [2, 1]}]
    assert report.appeared == [] and report.vanished == []
    # the scenario's turn 2 reinforcement arrives from the turn track
    setup = read_game(binding, _module_setup(binding, tmp_path))
    arrived = setup.end.position.copy()
    arrived.units["b-4"] = type(arrived.units["b-1"])(id="b-4", counter=binding.game.counters["b-4"], side="blue",
                                                     hex=Hex(1, 5))
    after2 = _save(binding, _save_of(binding, arrived), tmp_path, "after2.vsav")
    report = judge_saves(setup, after2, rs)
    entry = next(m for m in report.moves if m.units == ("b-4",))
    assert entry.legal is None and "turn track" in entry.note
    assert {"unit": "b-4", "where": "0105", "how": "from the turn 2 box"} in report.appeared


def _module_setup(binding, tmp_path):
    import zipfile
    with zipfile.ZipFile(binding.where) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".vsav"))
        path = tmp_path / "setup.vsav"
        path.write_bytes(zf.read(name))
    return path


def _save_of(binding, pos):
    from toolkit.vassal.positions import position_commands
    from toolkit.vassal.encoding import ESC, encode
    from vassal_logs import zip_stream
    return zip_stream(encode(position_commands(binding, pos), ESC), module=binding.info["name"],
                      version=binding.info["version"])


def test_undone_moves_are_not_judged(bound, tmp_path):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos).move(["b-3"], Hex(12, 8)).undo().move(["b-3"], Hex(7, 8))
    report = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game))
    assert [(m.units, m.legal) for m in report.moves] == [(("b-3",), True)]
    assert report.moves[0].end.hex == Hex(7, 8)


def test_phase_side_reads_the_side_from_the_phase_name(bound):
    pos = position_from_scenario(bound("velikiye-luki").game)
    assert phase_side(pos, "Soviet movement") == "soviet" and phase_side(pos, "German combat") == "german"
    assert phase_side(pos, "End of turn") is None and phase_side(pos, None) is None


def test_report_to_dict_is_json_ready(bound, tmp_path):
    import json
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3)).roll("1d6", 3).move(["b-3"], Hex(12, 8))
    data = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game)).to_dict()
    json.dumps(data)
    assert data["legal"] is False and data["dice"][0]["dice"] == [3]
    legal, illegal = data["moves"]
    assert legal["legal"] and legal["path"] == ["0503", "0603"] and legal["cost"] == str(Fraction(1))
    assert illegal["reason"]["code"] and illegal["failed_step"] >= 1


def test_a_unit_moved_by_the_other_player_is_noted(bound, tmp_path):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)          # Alice plays red (the side to move)
    log = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3))
    [move] = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game), side="red").moves
    assert move.legal and "a unit of side blue moved in side red's phase" in move.note
    assert "moved by Alice, who plays red" in move.note


def test_a_piece_the_game_does_not_know_is_listed_not_judged(bound, tmp_path):
    from toolkit.vassal.binding import Place
    from toolkit.vassal.encoding import add_piece, encode, parse_add_piece, split_chain, Trait
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    log = LogBuilder(binding, pos)
    piece_id, type_text, state = parse_add_piece(log.setup[1])
    # no UnitId and a name no counter has
    stray = add_piece("stray1", [Trait(t.type.rsplit(";", 1)[0] + ";Mystery", t.state.replace("hfUnit;", "hfX;"))
                                 if t.id == "piece;" else
                                 Trait(t.type.replace("UnitId", "Other"), t.state) if t.id == "mark;" else t
                                 for t in split_chain(type_text, state)])
    log.setup.insert(-1, stray)
    log._apply([stray])
    x, y = log.table.pieces["stray1"].x, log.table.pieces["stray1"].y
    map_name, cx, cy = binding.point(Place("hex", map_id=pos.map_id, hex=Hex(6, 5)))
    log.actions.append(["M/" + encode(["stray1", map_name, cx, cy, None, map_name, x, y, None, "u7f3a9"], "/")])
    report = judge_log(_log(binding, log, tmp_path), ruleset_for(binding.game))
    [move] = report.moves
    assert move.legal is None and move.units == () and "no units" in move.note
    assert any(p["piece"] == "stray1" for p in report.pieces) and report.legal


def _waiting(log, binding, unit, turn):
    """Put ``unit``'s palette piece on the turn-``turn`` box of the log's start, as the module's set-up does."""
    from toolkit.vassal.binding import Place
    from toolkit.vassal.encoding import add_piece, encode
    from toolkit.vassal.pieces import expand, with_position
    gpid, traits = binding.slot(unit)
    map_name, x, y = binding.point(Place("turn", turn=turn))
    piece = add_piece("w1", with_position(expand(traits, binding.prototypes), map_name, x, y, gpid))
    stack = "+/" + encode(["ws1", "stack", encode([map_name, x, y, "w1", "@@0"], ";")], "/")
    log.setup[-1:-1] = [piece, stack]
    log._apply([piece, stack])
    log.piece[unit] = "w1"


def test_a_reinforcement_before_its_turn_is_refused_by_the_scenario_rule(bound, tmp_path):
    binding = bound("tutorial")
    rs = ruleset_for(binding.game)
    pos = position_from_scenario(binding.game, turn=1)          # b-4 arrives on turn 2 at 0105 (T.9)
    log = LogBuilder(binding, pos)
    _waiting(log, binding, "b-4", 2)
    log.move(["b-4"], Hex(1, 5))
    [early] = judge_log(_log(binding, log, tmp_path), rs).moves
    assert early.legal is False and early.reason.rule == "T.9" and "arrives on turn 2, not turn 1" in early.reason.text
    on_time = position_from_scenario(binding.game, turn=2)
    del on_time.units["b-4"]
    log = LogBuilder(binding, on_time)
    _waiting(log, binding, "b-4", 2)
    log.move(["b-4"], Hex(1, 5))
    [entry] = judge_log(_log(binding, log, tmp_path, "t2.vlog"), rs).moves
    assert entry.legal is None and "the scenario brings it on turn 2 at 0105 (rule T.9)" in entry.note
