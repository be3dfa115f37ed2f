"""A long command says how far it is on a standard error that is not a terminal: plain lines, never a bar."""

import json

import pytest

import fnmcts.cli._output as output
import fnmcts.cli._progress as progress
from cli_run import run


@pytest.mark.parametrize("argv", [
    ("tournament", "nim(heap=6)", "random", "random", "--games", "30", "--seed", "1", "--json"),
    ("simulate", "nim(heap=6)", "--games", "30", "--seed", "1", "--json"),
])
def test_progress_lines_go_to_stderr_plain_and_json_stays_clean(capsys, monkeypatch, argv):
    monkeypatch.setattr(output, "PLAIN_PROGRESS_SECONDS", 0.0)  # a line at every step: as a long run has them
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert json.loads(out)["games"] == 30 and len(out.strip().splitlines()) == 1
    lines = err.strip().splitlines()
    assert lines and "\r" not in err and "\x1b" not in err
    assert all(line.startswith("fnmcts: ") and " of 30 games (" in line for line in lines), err
    assert ": 30 of 30 games (100%) after " in lines[-1]


def test_a_short_run_on_a_log_says_nothing(capsys):
    code, out, err = run(capsys, "tournament", "nim(heap=6)", "random", "random", "--games", "30", "--seed", "1")
    assert code == 0 and err == ""



@pytest.mark.parametrize("game", ["nim(heap=30)", "shut-the-box(levers=4)"])  # a decision first; a roll first
def test_a_short_search_on_a_log_says_it_is_still_running_once_it_runs_long(capsys, monkeypatch, game):
    monkeypatch.setattr(output, "PLAIN_PROGRESS_SECONDS", 0.0)  # as a slow game's search, past 30 s
    code, out, err = run(capsys, "search", game, "--dives", "300", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["dives"] == 300 and len(out.strip().splitlines()) == 1
    lines = err.strip().splitlines()
    assert lines and "\r" not in err and all(line.startswith("fnmcts: dives: ") for line in lines), err


@pytest.mark.parametrize("game", [("nim(heap=30)",), ("shut-the-box(levers=4)",), ("shut-the-box", "--levers", "4")])
def test_a_short_search_on_a_terminal_shows_its_progress_only_once_it_runs_long(capsys, monkeypatch, game):
    monkeypatch.setattr(output, "_is_terminal", lambda stream: True)
    code, out, err = run(capsys, "search", *game, "--dives", "300", "--seed", "1", "--json")
    assert code == 0 and err == ""  # under two seconds: nothing
    monkeypatch.setattr(progress, "LATE_PROGRESS_SECONDS", 0.0)  # as a slow game's search, past two seconds
    code, again, err = run(capsys, "search", *game, "--dives", "300", "--seed", "1", "--json")
    assert code == 0 and "dives" in err and "\r" in err, err
    timing = {"dives_per_second": 0, "dives_per_s": 0, "seconds": 0}  # the search itself is the same
    assert {**json.loads(again), **timing} == {**json.loads(out), **timing}
