"""The ``fnmcts search`` command."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from fnmcts.cli import main
from fnmcts.exact import evaluate_policy, solve, value
from fnmcts.games import ShutTheBox
from fnmcts.mcts import search, ucb1, win_rate
from fnmcts.views import greedy_policy
from fnmcts.rng import make_rng


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.slow
def test_search_json_matches_the_library(capsys):
    status, out, err = run(capsys, "search", "shut-the-box", "--dives", "3000", "--seed", "7", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    game = ShutTheBox()
    tree = search(game, game.start(), 3000, make_rng(7))
    greedy = value(evaluate_policy(game, greedy_policy(tree)), game.start())[0]
    optimum = value(solve(game), game.start())[0]
    assert data["dives"] == 3000
    assert data["win_rate"] == win_rate(tree[game.start()])
    assert Fraction(data["greedy_probability"]) == greedy
    assert data["greedy_value"] == float(greedy)
    assert Fraction(data["optimum_probability"]) == optimum
    assert data["optimum"] == float(optimum)
    assert data["dives_per_s"] > 0
    assert 0 < data["greedy_value"] <= data["optimum"]


@pytest.mark.slow
def test_search_ucb1_and_text(capsys):
    status, out, _ = run(capsys, "search", "shut-the-box", "--dives", "2000", "--seed", "3", "--ucb", "ucb1", "--c", "0.2", "--json")
    assert status == 0
    game = ShutTheBox()
    tree = search(game, game.start(), 2000, make_rng(3), rule="ucb1", c=0.2)  # the command's spelling: UCB1 by name, the kind's backup
    assert json.loads(out)["win_rate"] == win_rate(tree[game.start()])
    status, out, _ = run(capsys, "search", "shut-the-box", "--dives", "500", "--seed", "3")
    assert status == 0
    assert "dives' win rate" in out and "greedy policy (exact)" in out and "dives per second" in out


def test_search_simplified(capsys):
    status, out, _ = run(capsys, "search", "shut-the-box", "--dives", "500", "--seed", "1", "--simplified", "--json")
    data = json.loads(out)
    assert status == 0 and data["rules"] == "simplified"
    assert Fraction(data["optimum_probability"]) == value(solve(ShutTheBox(simplified=True)), ShutTheBox(simplified=True).start())[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["--dives", "-5"],
        ["--dives", "ten"],
        ["--seed", "-1"],
        ["--ucb", "ucb3"],
        ["--z", "-1"],
        ["--c", "nan"],
    ],
)
def test_search_bad_input_is_one_line_and_status_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        status = main(["search", "shut-the-box", *argv])
        raise SystemExit(status)
    _, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_search_expectimax_backup(capsys):
    from functools import partial

    argv = ["search", "shut-the-box", "--dives", "1500", "--seed", "2", "--ucb", "ucb1", "--c", "0.2"]
    status, out, _ = run(capsys, *argv, "--backup", "expectimax", "--json")
    assert status == 0
    data = json.loads(out)
    game = ShutTheBox()
    tree = search(game, game.start(), 1500, make_rng(2), rule=partial(ucb1, c=0.2), backup="expectimax")
    assert data["backup"] == "expectimax"
    assert data["win_rate"] == win_rate(tree[game.start()])
    assert Fraction(data["greedy_probability"]) == value(evaluate_policy(game, greedy_policy(tree)), game.start())[0]


@pytest.mark.slow
def test_search_without_a_seed_reports_the_seed_that_replays_it(capsys):
    import json as _json

    from fnmcts.cli import main as _main

    assert _main(["search", "shut-the-box", "--dives", "300", "--json"]) == 0
    first = _json.loads(capsys.readouterr().out)
    assert isinstance(first["seed"], int)
    assert _main(["search", "shut-the-box", "--dives", "300", "--seed", str(first["seed"]), "--json"]) == 0
    again = _json.loads(capsys.readouterr().out)
    assert (again["win_rate"], again["greedy_value"]) == (first["win_rate"], first["greedy_value"])


def test_search_refuses_the_other_rules_constant(capsys):
    from fnmcts.cli import main as _main

    assert _main(["search", "shut-the-box", "--dives", "10", "--rule", "tutorial", "--c", "1"]) == 2
    assert _main(["search", "shut-the-box", "--dives", "10", "--ucb", "ucb1", "--z", "3"]) == 2
    err = capsys.readouterr().err
    assert "--c" in err and "--z" in err


def test_output_to_a_closed_pipe_is_not_an_error():
    import subprocess
    import sys

    done = subprocess.run(
        f"'{sys.executable}' -m fnmcts solve shut-the-box | true", shell=True, capture_output=True, text=True
    )
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr
