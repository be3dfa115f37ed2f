"""Edges of the commands a new user met: each one a clear message, or the output the flag promises."""

from __future__ import annotations

import json
import re

import pytest

from fnmcts.matches import tournament
from fnmcts.agents import random_agent
from fnmcts.games import Nim, TicTacToe
from fnmcts.montecarlo import wilson_interval

from cli_run import run


@pytest.mark.parametrize("argv", [
    ["simulate", "coin", "--games", "١٠"],
    ["move", "nim", "--state", "١٠", "--ai", "random"],
    ["simulate", "coin", "--seed", "٣"],
    ["tournament", "nim", "random", "random", "--games", "۵"],
])
def test_digits_of_other_scripts_are_not_numbers(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "digits other than 0-9" in err and "Traceback" not in err


def test_a_typed_move_with_other_digits_is_asked_again(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("٢\n2\n"))
    code, out, _ = run(capsys, "play", "nim", "--heap", "5", "--ai", "random", "--seed", "1")
    assert "digits other than 0-9 are not read as numbers" in out
    assert code == 0


@pytest.mark.parametrize("command", [["simulate", "coin"], ["tournament", "nim", "random", "random"]])
def test_a_number_of_workers_that_cannot_fit_is_refused_with_what_fits(capsys, command):
    code, _, err = run(capsys, *command, "--workers", "99999999999999999999")
    assert code == 2 and "Traceback" not in err and "OverflowError" not in err
    assert "at most" in err and "worker processes" in err


def test_check_refuses_zero_steps_and_no_agents_as_usage_errors(capsys):
    code, _, err = run(capsys, "check", "--game", "nim", "--max-steps", "0")
    assert code == 2 and "--max-steps" in err and "game law" not in err
    code, _, err = run(capsys, "check", "--game", "nim", "--agents", "")
    assert code == 2 and "--agents names at least one agent" in err
    code, _, err = run(capsys, "check", "--game", "nim", "--agents", " , ")
    assert code == 2


def test_check_json_names_the_failing_law_path_state_and_problem(capsys):
    code, out, _ = run(capsys, "check", "--game", "small_games:BROKEN_DICE", "--examples", "20", "--json")
    assert code == 1
    report = json.loads(out)
    assert report["passed"] is False
    assert (report["law"], report["path"], report["state"], report["state_json"]) == ("chance_probabilities", [0], "1", 1)
    assert report["problem"] == "the probability of 0 must be exact (a Fraction), got float 0.5"
    assert f"game law {report['law']!r} fails" in report["failure"]


def test_move_help_lists_only_the_options_that_apply(capsys):
    code, out, _ = run(capsys, "move", "shut-the-box", "--help")
    assert code == 0 and "--q-table" not in out and "--reuse-tree" not in out and "--dives" in out
    code, out, _ = run(capsys, "move", "nim", "--help")
    assert "--q-table" in out and "--reuse-tree" not in out  # one move: no tree to keep
    code, out, _ = run(capsys, "play", "nim", "--help")
    assert "--reuse-tree" in out


def test_simulate_json_names_each_count_once_and_marks_the_old_names(capsys):
    code, out, _ = run(capsys, "simulate", "coin", "--games", "100", "--seed", "1", "--json")
    payload = json.loads(out)
    assert payload["deprecated_keys"] == ["win", "draw", "loss"]
    for old, new in (("win", "wins"), ("draw", "draws"), ("loss", "losses")):
        assert payload[old] == payload[new]  # the same count, under its old name for one release
    current = {k: v for k, v in payload.items() if k not in payload["deprecated_keys"] + ["deprecated_keys"]}
    assert len(set(map(str, current.values()))) >= 1 and "wins" in current and "win" not in current


def test_a_table_written_to_a_json_file_is_json(capsys, tmp_path):
    # --json is what the command prints (a summary); the file's own name says its format
    target = tmp_path / "best.json"
    code, out, _ = run(capsys, "table", "shut-the-box", "-o", str(target), "--json", "--levers", "4")
    assert code == 0
    summary, written = json.loads(out), json.loads(target.read_text())
    assert written["kind"] == "best-move" and written["row_count"] == len(written["rows"]) == summary["rows"]
    start = [r for r in written["rows"] if r["box"] == [1, 2, 3, 4] and r["roll"] == 7][0]
    from fnmcts.tables import best_move_table

    row = best_move_table(levers=4)[(frozenset({1, 2, 3, 4}), 7)]
    assert start["flip"] == list(row.flip) and start["probability"] == f"{row.probability.numerator}/{row.probability.denominator}"
    code, _, _ = run(capsys, "table", "shut-the-box", "-o", str(tmp_path / "best.txt"), "--json", "--levers", "4")
    assert not (tmp_path / "best.txt").read_text().startswith("{")  # a text file: the text table
    code, _, _ = run(capsys, "table", "shut-the-box", "-o", str(tmp_path / "lookup.JSON"), "--kind", "lookup",
                     "--games", "50", "--levers", "3")
    lookup = json.loads((tmp_path / "lookup.JSON").read_text())
    assert lookup["kind"] == "lookup" and lookup["row_count"] == 8 and {"wins", "exact"} <= set(lookup["rows"][0])


def test_tournament_prints_player_1_s_share_with_an_interval(capsys):
    code, out, _ = run(capsys, "tournament", "nim", "random", "random", "--games", "50", "--seed", "1", "--json")
    payload = json.loads(out)
    record = tournament(Nim(), random_agent, random_agent, 50, 1)
    assert payload["player1_score"] == record.wins[1] / 50
    assert payload["player1_score_ci"] == list(wilson_interval(record.wins[1], 50))
    code, out, _ = run(capsys, "tournament", "tic-tac-toe", "random", "random", "--games", "50", "--seed", "1")
    assert "Player 1 scores" in out and "95% CI [" in out and "a draw is half a point" in out
    payload = json.loads(run(capsys, "tournament", "tic-tac-toe", "random", "random", "--games", "50", "--seed", "1",
                             "--json")[1])
    record = tournament(TicTacToe(), random_agent, random_agent, 50, 1)
    assert payload["player1_score"] == (record.wins[1] + record.draws / 2) / 50
    low, high = payload["player1_score_ci"]
    assert low < payload["player1_score"] < high


@pytest.mark.parametrize("argv", [
    ["tournament", "pig", "random", "random", "--goal", "99999999999", "--games", "1"],
    ["tournament", "pig", "random", "random", "--goal", "1000000", "--games", "100000"],
])
def test_a_pig_too_long_to_play_is_refused_up_front(capsys, argv):
    """Pig has no longest game, but none is shorter than the goal in rolls of 6: that much play is counted."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "steps of play, beyond the limit" in err and "--force" in err


def test_a_pig_of_the_usual_size_still_plays(capsys):
    code, out, err = run(capsys, "tournament", "pig", "random", "random", "--goal", "30", "--games", "20", "--seed", "1")
    assert code == 0 and "Player 1 wins" in out, err


@pytest.mark.parametrize("argv, said", [
    (["search", "nim", "--dvies", "100"], "fnmcts search nim: error: unrecognized arguments: --dvies 100 "
                                           "(did you mean --dives?)"),
    (["simulate", "coin", "--gmaes", "10", "--sed", "3"], "fnmcts simulate coin: error: unrecognized arguments: "
     "--gmaes 10 --sed 3 (--gmaes: did you mean --games?; --sed: did you mean --seed?)"),
    (["count", "nim(heap=3)", "--depht", "2"], "fnmcts count: error: unrecognized arguments: --depht 2 "
                                              "(did you mean --depth?)"),
    (["solve", "nim(heap=3)", "--jsno"], "fnmcts solve nim(heap=3): error: unrecognized arguments: --jsno "
                                        "(did you mean --json?)"),
])
@pytest.mark.slow
def test_a_mistyped_flag_gets_the_nearest_flag_of_its_verb(capsys, argv, said):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err == said + " (see --help)\n"


def test_a_flag_nothing_is_near_gets_no_guess(capsys):
    code, _, err = run(capsys, "search", "nim", "--frobnicate")
    assert code == 2 and err == "fnmcts search nim: error: unrecognized arguments: --frobnicate (see --help)\n"


@pytest.mark.parametrize("verb", ["play", "move", "solve", "tournament", "simulate", "search", "table", "train"])
def test_per_game_help_names_the_game_as_the_first_argument_not_the_old_flag(capsys, verb):
    code, out, _ = run(capsys, verb, "--help")
    said = re.sub(r"\s+", " ", out)
    assert code == 0 and "--game SPEC:" not in said and "GAME is a built-in game's name, openspiel:NAME(params)" in said
