"""Every edge the issue found, fixed: each a one-line usage error (exit 2) or a runtime failure (exit 1)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fnmcts.cli import main
from fnmcts.files import check_target, write_atomically
from fnmcts.games import GAMES, Nim, Piles
from fnmcts.io import load_ai

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line_usage_error(code, out, err, *words):
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("fnmcts: error: ") and err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err


def test_a_read_only_output_file_is_refused_not_replaced(capsys, tmp_path):
    target = tmp_path / "table.txt"
    target.write_text("keep me\n")
    target.chmod(0o444)
    one_line_usage_error(*run(capsys, "table", "shut-the-box", "-o", str(target)), "read-only")
    assert target.read_text() == "keep me\n" and list(tmp_path.iterdir()) == [target]
    with pytest.raises(ValueError, match="read-only"):
        write_atomically(target, "new")


def test_an_output_name_ending_in_a_slash_is_a_folder_name_not_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_line_usage_error(*run(capsys, "table", "shut-the-box", "-o", "newfile/"), "ends with '/'")
    one_line_usage_error(*run(capsys, "train", "nim", "--heap", "5", "--games", "5", "-o", "newfile/"), "ends with '/'")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="ends with '/'"):
        check_target("newfile/")


def test_an_empty_box_is_typed_as_a_dash_not_as_nothing(capsys):
    one_line_usage_error(*run(capsys, "solve", "shut-the-box", "--box", ""), "'-' for the empty box")
    code, out, _ = run(capsys, "solve", "shut-the-box", "--box", "-")
    assert code == 0 and "from box -" in out


def test_move_refuses_a_lever_twice_as_solve_does(capsys):
    one_line_usage_error(*run(capsys, "move", "shut-the-box", "--state", '{"box": [1, 1, 2], "roll": 3}'), "once")
    one_line_usage_error(*run(capsys, "solve", "shut-the-box", "--box", "112"), "distinct")


@pytest.mark.parametrize(
    "argv",
    [
        ("move", "nim", "--state", '{"heap": 5, "playr": 2}'),
        ("move", "piles", "--state", '{"piles": [1, 2], "player": 1, "extra": 0}'),
        ("move", "shut-the-box", "--state", '{"box": [1, 2], "roll": 3, "rolls": 4}'),
    ],
)
def test_unknown_keys_in_a_state_object_are_named_not_ignored(capsys, argv):
    one_line_usage_error(*run(capsys, *argv), "has no")


@pytest.mark.parametrize(
    "argv",
    [
        ("simulate", "coin", "--seed", "1"),
        ("simulate", "darts", "--seed", "1", "--json"),
        ("simulate", "nim", "--seed", "1"),
        ("tournament", "nim", "random", "random"),
        ("train", "nim", "-o", "q.json"),
    ],
)
@pytest.mark.parametrize("games", ["0", "-3"])
def test_a_count_of_games_below_one_is_refused_in_one_line(capsys, tmp_path, monkeypatch, argv, games):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:  # argparse's own error
        main([*argv, "--games", games])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "argument --games: expected a positive" in err and repr(games) in err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("dives", ["0", "-1"])
def test_explore_refuses_a_page_of_no_dives_in_one_line(capsys, tmp_path, monkeypatch, dives):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:  # argparse's own error
        main(["explore", "nim", "-o", "x.html", "--dives", dives])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "argument --dives: expected a positive" in err and repr(dives) in err
    assert list(tmp_path.iterdir()) == []  # no page of nothing written


def test_a_full_disk_is_a_runtime_failure_exit_1_and_the_old_file_stays(capsys, tmp_path, monkeypatch):
    target = tmp_path / "q.json"
    target.write_text("old")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = run(capsys, "train", "nim", "--heap", "5", "--games", "10", "--seed", "1", "-o", str(target))
    assert code == 1 and "No space left on device" in err and err.count("\n") == 1
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["q.json"]


def test_a_deeply_nested_q_table_is_a_clear_error_in_the_library_and_the_cli(capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        load_ai(deep, GAMES)
    one_line_usage_error(*run(capsys, "move", "piles", "--ai", "q", "--q-table", str(deep), "--state", "1,2"),
                         "nested too deeply")


def test_a_closed_standard_output_is_a_clear_failure():
    proc = subprocess.run(
        [sys.executable, "-c", "import os, sys; os.close(1); sys.stdout = None; from fnmcts.cli import main; "
         "sys.exit(main(['solve', 'shut-the-box']))"],
        capture_output=False, stderr=subprocess.PIPE, text=True, env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 1 and proc.stderr == (
        "fnmcts: error: standard output is closed: nothing can be printed (give it >/dev/null instead of >&-)\n")


def test_players_are_numbered_from_1_in_all_json_output(capsys):
    code, out, _ = run(capsys, "move", "nim", "--state", '{"heap": 5, "player": 2}', "--json")
    assert code == 0 and json.loads(out)["state"] == {"heap": 5, "player": 2}
    code, out, _ = run(capsys, "solve", "nim", "--state", '{"heap": 0, "player": 2}', "--heap", "5", "--json")
    data = json.loads(out)
    # player 2 is to move at an empty heap: player 1 took the last item and, misere, lost
    assert code == 0 and data["state"]["player"] == 2 and data["won"] == 2
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--json")
    assert json.loads(out)["to_move"] == 1
    assert Nim().state_from_json(Nim().state_to_json(Nim().state(3, 1))) == Nim().state(3, 1)
    assert Piles().state_to_json(Piles().start())["player"] == 1
    one_line_usage_error(*run(capsys, "move", "nim", "--state", '{"heap": 5, "player": 0}'), "1 or 2")
