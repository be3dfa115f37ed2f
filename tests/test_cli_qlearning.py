"""The ``fnmcts train`` command: output, the saved Q table, errors, exit codes."""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.cli import main
from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.qlearning import ai_to_text, evaluate, train
from fnmcts.rng import child_seed
from fnmcts.games import GAMES
from fnmcts.qlearning import ai_from_json
from fnmcts.tutorial import load_ai  # the games of fnmcts.games.GAMES

from cli_run import run

REPORT_KEYS = {"games", "optimal_move_rate", "win_rate_vs_random", "win_rate_vs_perfect"}


@pytest.mark.slow
def test_train_piles_saves_the_library_result_and_reports_it(capsys, tmp_path):
    path = tmp_path / "q.json"
    code, out, err = run(
        capsys, "train", "piles", "--games", "800", "--seed", "3", "-o", str(path), "--eval-games", "100", "--json"
    )
    assert code == 0, err
    payload = json.loads(out)  # exactly one JSON object
    assert REPORT_KEYS <= set(payload)
    ai = train(800, seed=3, game=Piles((1, 3, 5, 7)))
    assert load_ai(path) == ai
    report = evaluate(ai, games=100, seed=child_seed(3, 1))
    assert payload["games"] == 800
    for key in ("optimal_move_rate", "win_rate_vs_random", "win_rate_vs_perfect"):
        assert payload[key] == report[key]
    assert payload["vs_random"]["games"] == 200
    # misère [1, 3, 5, 7] is lost for the first player: perfect play never loses it
    assert payload["vs_perfect"]["wins_first"] == 0


def test_train_nim_takes_the_game_options(capsys, tmp_path):
    path = tmp_path / "nim.json"
    args = ("train", "nim", "--heap", "10", "--max-take", "2", "--normal", "--games", "500", "--seed", "1")
    code, out, _ = run(capsys, *args, "-o", str(path), "--eval-games", "50", "--json")
    assert code == 0
    assert load_ai(path).game == Nim(heap=10, max_take=2, misere=False)
    assert json.loads(out)["rules"] == "normal"
    assert load_ai(path) == train(500, seed=1, game=Nim(heap=10, max_take=2, misere=False))


def test_train_piles_options_and_text_output(capsys, tmp_path):
    path = tmp_path / "q.json"
    code, out, _ = run(
        capsys, "train", "piles", "--piles", "2,3", "--alpha", "0.3", "--epsilon", "0.2",
        "--games", "300", "--seed", "2", "-o", str(path), "--eval-games", "20",
    )
    assert code == 0
    ai = load_ai(path)
    assert (ai.game, ai.alpha, ai.epsilon) == (Piles((2, 3)), 0.3, 0.2)
    for words in ("Done training", "optimal moves", "winning states", "vs random", "vs perfect", str(path)):
        assert words in out


def test_the_same_seed_writes_the_same_file(capsys, tmp_path):
    for name in ("a.json", "b.json"):
        run(capsys, "train", "piles", "--games", "300", "--seed", "9", "-o", str(tmp_path / name), "--eval-games", "10")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.json"]  # no temporary files left


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--piles", "1,x"], "piles are whole numbers"),
        (["--piles", "0,0"], "at least one pile"),
        (["--piles", "1,-3"], "non-negative"),
        (["--alpha", "2"], "expected a number in [0, 1]"),
        (["--epsilon", "nope"], "expected a number in [0, 1]"),
        (["--games", "-5"], "expected a positive whole number, got '-5'"),
        (["--misere", "--normal"], "not allowed with"),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(capsys, tmp_path, argv, message):
    code, out, err = run(capsys, "train", "piles", *argv, "-o", str(tmp_path / "q.json"))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "q.json").exists()


def _no_training(monkeypatch):
    import fnmcts.cli.qlearning as command

    def refuse(*args, **kwargs):
        raise AssertionError("training started before the output target was checked")

    monkeypatch.setattr(command, "train", refuse)


@pytest.mark.parametrize(
    "target, message",
    [
        (lambda tmp: tmp / "missing" / "q.json", "does not exist"),
        (lambda tmp: tmp / "file.txt" / "q.json", "is a file, not a folder"),
        (lambda tmp: tmp, "is a directory"),
        (lambda tmp: tmp / "pipe", "not a regular file"),
        (lambda tmp: "", "the output file name is empty"),
    ],
)
def test_a_bad_output_target_fails_before_training(capsys, tmp_path, monkeypatch, target, message):
    (tmp_path / "file.txt").write_text("keep")
    os.mkfifo(tmp_path / "pipe")
    _no_training(monkeypatch)
    code, out, err = run(capsys, "train", "piles", "--games", "10", "-o", str(target(tmp_path)))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert ".tmp" not in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["file.txt", "pipe"] and (tmp_path / "file.txt").read_text() == "keep"


def test_a_dash_prints_the_q_table_and_reports_on_stderr(capsys):
    code, out, err = run(capsys, "train", "nim", "--heap", "9", "--games", "400", "--seed", "5", "-o", "-",
                         "--eval-games", "30", "--json")
    assert code == 0
    ai = train(400, seed=5, game=Nim(heap=9))
    assert ai_from_json(json.loads(out), GAMES) == ai  # standard output is the Q table alone
    assert out == ai_to_text(ai)
    report = json.loads(err)  # and the report, one JSON object, on standard error
    assert report["output"] == "-" and report["seed"] == 5 and report["q_entries"] == len(ai.q)
    code, out, err = run(capsys, "train", "nim", "--heap", "9", "--games", "400", "--seed", "5", "-o", "-",
                         "--eval-games", "30")
    assert code == 0 and out == ai_to_text(ai) and "written to standard output" in err


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(1, 40))  # --games 0 is refused (test_edges)
def test_the_seed_given_is_the_seed_used_and_reported(seed, games):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["train", "piles", "--piles", "1,2", "--games", str(games), "--seed", str(seed), "-o", "-",
                     "--eval-games", "3", "--json"])
    assert code == 0
    assert out.getvalue() == ai_to_text(train(games, seed=seed, game=Piles((1, 2))))
    report = json.loads(err.getvalue())
    assert report["seed"] == seed and report["eval_seed"] == child_seed(seed, 1)


def test_without_a_seed_the_run_draws_one_and_reports_it(capsys, tmp_path):
    path = tmp_path / "q.json"
    args = ("train", "piles", "--piles", "2,3", "--games", "300", "-o", str(path), "--eval-games", "40")
    code, out, _ = run(capsys, *args, "--json")
    assert code == 0
    payload = json.loads(out)
    seed = payload["seed"]
    assert isinstance(seed, int) and seed >= 0 and payload["eval_seed"] == child_seed(seed, 1)
    # the reported seeds reproduce the run: the same table, the same evaluation
    ai = train(300, seed=seed, game=Piles((2, 3)))
    assert load_ai(path) == ai
    report = evaluate(ai, games=40, seed=child_seed(seed, 1))
    assert payload["vs_random"] == dict(report["vs_random"]) and payload["vs_perfect"] == dict(report["vs_perfect"])
    code, again, _ = run(capsys, *args, "--json")
    assert json.loads(again)["seed"] != seed  # a fresh seed each time (two equal 63-bit draws: 2**-63)
    code, text, _ = run(capsys, *args)
    shown = int(text.split("seed ")[1].split()[0])
    assert f"--seed {shown} repeats this run" in text and load_ai(path) == train(300, seed=shown, game=Piles((2, 3)))


def test_the_report_counts_evaluation_games_per_side(capsys, tmp_path):
    code, out, _ = run(capsys, "train", "nim", "--heap", "6", "--games", "100", "--seed", "1",
                       "-o", str(tmp_path / "q.json"), "--eval-games", "25", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["eval_games_per_side"] == 25 and "eval_games" not in payload
    assert payload["vs_random"]["games"] == payload["vs_perfect"]["games"] == 2 * 25
    for opponent in ("vs_random", "vs_perfect"):
        assert payload[opponent]["wins_first"] <= 25 and payload[opponent]["wins_second"] <= 25


@pytest.mark.parametrize("game", ["piles", "nim"])
def test_help_shows_the_defaults(capsys, game):
    with pytest.raises(SystemExit) as exit_:
        main(["train", game, "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for shown in ("--games N training games of self-play (default 10000)", "(default 0.5)", "(default 0.1)",
                  "2 * M per opponent (default 1000)", "- for standard output", "eval_games_per_side"):
        assert shown in text
    assert ("(default 1,3,5,7)" if game == "piles" else "take 1..K (default 3)") in text


@pytest.mark.parametrize("argv, message", [(["--heap", "0"], "positive"), (["--max-take", "0"], "positive"),
                                           (["--heap", "x"], "whole number")])
def test_bad_nim_arguments_get_one_line_and_status_2(capsys, tmp_path, argv, message):
    code, out, err = run(capsys, "train", "nim", *argv, "-o", str(tmp_path / "q.json"))
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "q.json").exists()


def test_output_is_required(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "piles", "--games", "10"])
    assert exit_.value.code == 2
    assert "-o" in capsys.readouterr().err


def test_training_drives_the_progress_bar(capsys, tmp_path, monkeypatch):
    from contextlib import contextmanager

    import fnmcts.cli.qlearning as command

    seen = []

    @contextmanager
    def recording_bar(total, desc, enabled=None):
        seen.append((total, desc))
        yield seen.append

    monkeypatch.setattr(command, "progress_bar", recording_bar)
    code, _, _ = run(capsys, "train", "piles", "--games", "250", "--seed", "1", "-o", str(tmp_path / "q.json"),
                     "--eval-games", "10")
    assert code == 0
    second = seen.index((40, "Evaluation game"))  # both sides against both opponents, 10 games each
    assert seen[0] == (250, "Playing training game") and sum(seen[1:second]) == 250
    assert seen[second + 1:] == [1] * 40


def test_a_game_without_winning_states_reports_no_rate(capsys, tmp_path):
    # Misère [1]: the player to move must take the last object and lose, so no
    # reachable state is a win and there is no optimal-move rate to measure.
    code, out, _ = run(capsys, "train", "piles", "--piles", "1", "--games", "10", "--seed", "1",
                       "-o", str(tmp_path / "q.json"), "--eval-games", "5", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["optimal_move_rate"] is None and payload["winning_states"] == 0
    assert payload["vs_random"]["wins_first"] == 0 and payload["vs_random"]["wins_second"] == 5


def test_a_signal_before_training_begins_stops_the_command_cleanly_and_writes_nothing(capsys, tmp_path, monkeypatch):
    # the handler's Interrupted carries no partial when it lands before train's loop began (or as it returned)
    import signal

    import fnmcts.cli.qlearning as command
    from fnmcts.parallel import Interrupted

    def stopped(*args, **kwargs):
        raise Interrupted(None, signal.SIGTERM)

    monkeypatch.setattr(command, "train", stopped)
    path = tmp_path / "q.json"
    path.write_text("old table\n")
    code, out, err = run(capsys, "train", "piles", "--games", "50", "--seed", "1", "-o", str(path))
    assert code == 143, err
    assert "Traceback" not in err and "unpack" not in err and "interrupted by SIGTERM" in err, err
    assert path.read_text() == "old table\n" and [p.name for p in tmp_path.iterdir()] == ["q.json"]
