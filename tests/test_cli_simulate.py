"""The ``fnmcts simulate`` command: text, JSON, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fnmcts.cli import main
from fnmcts.cli.simulate import report_text
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.games.tictactoe import TicTacToe
from fnmcts.montecarlo import Simulation, simulate


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", ["coin", "darts", "shut-the-box", "tic-tac-toe"])
def test_json_is_exactly_one_object_with_the_counts(capsys, game):
    code, out, err = run(capsys, "simulate", game, "--games", "20000", "--seed", "3", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["games"] == 20000
    assert payload["wins"] + payload["draws"] + payload["losses"] == 20000
    assert payload["ci_low"] <= payload["estimate"] <= payload["ci_high"]
    assert payload["mean_low"] <= payload["mean"] <= payload["mean_high"]


SHUT_THE_BOX_TEXT = """\
Shut the Box, full rules, random play
games     20,000
wins      409
losses    19,591
estimate  0.02045
95% CI    [0.0185786, 0.0225056]
seed      3
"""

SHUT_THE_BOX_JSON = {
    "ci_high": 0.022505584746243444, "ci_low": 0.018578597035166497, "estimate": 0.02045, "games": 20000,
    "loss": 19591, "losses": 19591, "rules": "full", "seed": 3, "win": 409, "wins": 409,
}


def test_shut_the_box_reports_exactly_as_before_draws_were_counted(capsys):
    code, out, _ = run(capsys, "simulate", "shut-the-box", "--games", "20000", "--seed", "3")
    assert code == 0 and out == SHUT_THE_BOX_TEXT
    _, out, _ = run(capsys, "simulate", "shut-the-box", "--games", "20000", "--seed", "3", "--json")
    payload = json.loads(out)
    assert {k: payload[k] for k in SHUT_THE_BOX_JSON} == SHUT_THE_BOX_JSON  # every old figure, unchanged
    assert payload["draws"] == 0 and payload["mean"] == payload["estimate"]


@pytest.mark.slow
def test_tic_tac_toe_reports_draws_and_the_mean_payoff(capsys):
    code, out, _ = run(capsys, "simulate", "tic-tac-toe", "--games", "30000", "--seed", "5")
    assert code == 0
    record = simulate(TicTacToe(), 30_000, seed=5)
    assert record.draw > 0
    assert out == report_text(record, "Tic-tac-toe, random play, X (player 1) moves first") + "\n"
    lines = dict(line.split(None, 1) for line in out.splitlines()[1:] if not line.startswith("95%"))
    assert lines["draws"] == f"{record.draw:,}" and lines["wins"] == f"{record.win:,}"
    assert lines["mean"].startswith(f"{record.mean:.6g}  (payoff in [-1, 1], 95% CI [")
    _, out, _ = run(capsys, "simulate", "tic-tac-toe", "--games", "30000", "--seed", "5", "--json")
    assert json.loads(out) == json.loads(json.dumps(record.to_json())) | {"deprecated_keys": ["win", "draw", "loss"]}


def test_report_of_a_score_names_the_range_and_the_interval():
    payoffs = (1, 1, 0.5, 0.25, 0)  # two wins, a draw, two losses (one of them graded)
    record = Simulation.of(2, 5, seed=1, draw=1, total=sum(payoffs), sum_squares=sum(x * x for x in payoffs), graded=2)
    text = report_text(record, "a score")
    assert "draws     1\n" in text and "(share of wins)" in text
    low, high = record.mean_low, record.mean_high
    assert f"mean      0.55  (payoff in [0, 1], 95% CI [{low:.6g}, {high:.6g}])" in text
    assert text.endswith("seed      1")


def test_simulate_agrees_with_the_library(capsys):
    code, out, _ = run(capsys, "simulate", "shut-the-box", "--simplified", "--games", "300000", "--seed", "8", "--json")
    assert code == 0
    record = simulate(ShutTheBox(simplified=True), 300_000, seed=8)
    assert json.loads(out)["wins"] == record.win


@pytest.mark.slow
@pytest.mark.parametrize("game, games", [("shut-the-box", "120000"), ("tic-tac-toe", "60000")])
def test_workers_do_not_change_the_result(capsys, game, games):
    args = ("simulate", game, "--games", games, "--seed", "4", "--json")
    _, one, _ = run(capsys, *args)
    _, two, _ = run(capsys, *args, "--workers", "2")
    assert json.loads(one) == json.loads(two)


def test_text_output_names_estimate_interval_and_counts(capsys):
    code, out, _ = run(capsys, "simulate", "darts", "--games", "1e4", "--seed", "1")
    assert code == 0
    for word in ("games", "wins", "losses", "estimate", "95% CI", "pi"):
        assert word in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["simulate", "coin", "--games", "-5"], "expected a positive whole number, got '-5'"),
        (["simulate", "coin", "--games", "many"], "whole number"),
        (["simulate", "coin", "--games", "2.5"], "whole number"),
        (["simulate", "chess"], "invalid choice"),
        (["simulate", "coin", "--speed", "9"], "unrecognized"),
        (["simulate", "coin", "--seed", "x"], "seed"),
        (["simulate"], "required"),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(capsys, argv, fragment):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    _, err = capsys.readouterr()
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.slow
def test_python_dash_m_and_help_work():
    result = subprocess.run(
        [sys.executable, "-m", "fnmcts", "simulate", "coin", "--games", "100", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["games"] == 100
    helped = subprocess.run([sys.executable, "-m", "fnmcts", "simulate", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "shut-the-box" in helped.stdout and "tic-tac-toe" in helped.stdout
