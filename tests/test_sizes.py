"""Sizes are checked up front: work and memory beyond the limits are refused at once, saying what would fit."""

from __future__ import annotations

import time

import pytest

from fnmcts.cli import main
from fnmcts.exact import evaluate_policy, random_policy, solve
from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.limits import STATE_LIMIT, WORK_LIMIT, TooLarge, check_states, check_work
from fnmcts.montecarlo import simulate
from fnmcts.matches import random_agent, tournament


def run(capsys, *argv):
    """The command's exit code, output, errors and processor seconds (this process's: the machine may be shared)."""
    started = time.process_time()
    code = main(list(argv))
    seconds = time.process_time() - started
    captured = capsys.readouterr()
    return code, captured.out, captured.err, seconds


@pytest.mark.parametrize(
    "argv, fits",
    [
        (["train", "piles", "--piles", "100,100,100,100,100", "-o", "q.json"], "--no-exact"),
        (["train", "nim", "--heap", "1000000", "-o", "q.json"], "at most 3,333 games fit"),
        (["move", "nim", "--state", "1000000", "--ai", "mcts"], "--force"),
        (["move", "nim", "--state", "1000000000000", "--ai", "mcts"], "--force"),
        (["simulate", "coin", "--games", "99999999999999999999999999"], "at most 10,000,000,000 trials fit"),
        (["tournament", "piles", "perfect", "random", "--piles", ",".join(map(str, range(1, 2001)))], "--force"),
        (["move", "nim", "--state", "1000000", "--ai", "exact"], "--ai perfect"),
        (["tournament", "nim", "mcts", "random", "--heap", "2000"], "--dives 833 or fewer"),
    ],
)
def test_the_issues_oversized_commands_are_refused_at_once_saying_what_fits(capsys, tmp_path, monkeypatch, argv, fits):
    monkeypatch.chdir(tmp_path)
    code, out, err, seconds = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("fnmcts: error: ") and err.count("\n") == 1 and fits in err
    assert seconds < 5  # refused up front, not after the work (hours of it): processor time, not a loaded wall clock
    assert list(tmp_path.iterdir()) == []


def test_force_goes_past_the_work_check(capsys):
    # MCTS-Solver proves this position long before its budget: the estimate is a bound, --force trusts the person
    argv = ["move", "tic-tac-toe", "--state", "010001002", "--ai", "mcts", "--dives", "1e9", "--seed", "1"]
    code, out, err, _ = run(capsys, *argv)
    assert code == 2 and "--dives 277,777,777 or fewer would fit one move of mcts" in err
    code, out, err, _ = run(capsys, *argv, "--force")
    assert code == 0 and out == "mcts: O at 6\n"


def test_train_without_the_exact_report_handles_a_game_too_large_to_solve(capsys, tmp_path):
    code, out, err, _ = run(capsys, "train", "piles", "--piles", "60,60,60,60", "--games", "20", "--eval-games", "5",
                            "--seed", "1", "--no-exact", "-o", str(tmp_path / "q.json"))
    assert code == 0, err
    assert "optimal moves  not measured (--no-exact)" in out and "vs random      " in out
    assert (tmp_path / "q.json").stat().st_size > 0


def test_the_exact_solver_refuses_up_front_by_the_games_hint():
    started = time.process_time()  # this process's seconds: a loaded machine does not count
    with pytest.raises(TooLarge, match="about a heap of 99,999"):
        solve(Nim(heap=10**6))
    with pytest.raises(TooLarge, match="at most 100,000"):
        evaluate_policy(Piles((99, 99, 99)), random_policy, opponent=random_policy)
    assert time.process_time() - started < 1


def test_the_exact_solver_stops_at_its_limit_for_a_game_without_a_hint():
    game = ShutTheBox()
    assert game.size_hint(game.start()) == (None, None, None)
    with pytest.raises(TooLarge, match="more than 100 states"):
        solve(game, limit=100)
    assert len(solve(game, limit=None)) > 100


def test_the_limits_apply_to_the_library_entry_points():
    with pytest.raises(TooLarge):
        simulate(Nim(heap=1000), WORK_LIMIT)
    with pytest.raises(TooLarge):
        tournament(TicTacToe(), random_agent, random_agent, WORK_LIMIT, seed=1)
    assert check_work(WORK_LIMIT + 1, limit=None) == WORK_LIMIT + 1
    assert check_states(Nim(heap=STATE_LIMIT), Nim(heap=STATE_LIMIT).start(), limit=None) == 2 * (STATE_LIMIT + 1)
    assert simulate(Nim(heap=5), 10, seed=1, limit=None).games == 10


def test_the_agents_and_the_law_checker_meet_the_solvers_limit():
    from fnmcts.agents import make_agent

    with pytest.raises(TooLarge):
        make_agent("exact", game=Piles((70, 70, 70)))


@pytest.mark.slow
def test_the_lookup_table_and_training_check_their_whole_work(capsys, tmp_path):
    from fnmcts.qlearning import train
    from fnmcts.tables import lookup_table

    code, out, err, seconds = run(capsys, "table", "shut-the-box", "--kind", "lookup", "--games", "1e9",
                                  "-o", str(tmp_path / "t.txt"))
    assert code == 2 and "--force" in err and seconds < 5 and list(tmp_path.iterdir()) == []
    with pytest.raises(TooLarge, match="all boxes together"):
        lookup_table(10**8, seed=1)
    with pytest.raises(TooLarge):
        train(10**6, seed=1, game=Nim(heap=10**4))
    assert len(train(10, seed=1, game=Nim(heap=10**4), limit=None).q) > 0
