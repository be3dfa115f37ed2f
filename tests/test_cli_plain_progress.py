"""A long command says how far it is on a standard error that is not a terminal: plain lines, never a bar."""

import json

import pytest

import fnmcts.cli._output as output
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
