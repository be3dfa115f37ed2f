"""The ``fnmcts simulate`` command: text, JSON, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fnmcts.cli import main
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.montecarlo import simulate


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", ["coin", "darts", "shut-the-box"])
def test_json_is_exactly_one_object_with_the_counts(capsys, game):
    code, out, err = run(capsys, "simulate", game, "--games", "20000", "--seed", "3", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["games"] == 20000
    assert payload["wins"] + payload["losses"] == 20000
    assert payload["ci_low"] <= payload["estimate"] <= payload["ci_high"]


def test_simulate_agrees_with_the_library(capsys):
    code, out, _ = run(capsys, "simulate", "shut-the-box", "--simplified", "--games", "300000", "--seed", "8", "--json")
    assert code == 0
    record = simulate(ShutTheBox(simplified=True), 300_000, seed=8)
    assert json.loads(out)["wins"] == record.win


def test_workers_do_not_change_the_result(capsys):
    args = ("simulate", "shut-the-box", "--games", "120000", "--seed", "4", "--json")
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
        (["simulate", "coin", "--games", "-5"], "non-negative"),
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


def test_python_dash_m_and_help_work():
    result = subprocess.run(
        [sys.executable, "-m", "fnmcts", "simulate", "coin", "--games", "100", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["games"] == 100
    helped = subprocess.run([sys.executable, "-m", "fnmcts", "simulate", "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "shut-the-box" in helped.stdout
