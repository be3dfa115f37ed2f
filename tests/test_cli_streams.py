"""Standard streams at the command line: closed ones, full ones, readers that go away, and ``-o -``.

Every verb started with a closed standard output or input ends with one line
and exit status 1 (in the process, each verb; as a real ``>&-`` and ``<&-``,
two verbs here and every verb in the slow corpus, tests/test_cli_corpus.py);
``-o -`` sends the file to standard output on every verb that writes one,
the report then on standard error; an exception escaping a command is one line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run, write_user_game
from fnmcts.cli import main

ROOT = Path(__file__).resolve().parent.parent

# every verb, with arguments that would run it
VERB_LINES = {
    "tour": ("tour", "--task", "1", "--no-pause"),
    "plot": ("plot", "nim(heap=5)", "--json", "--dives", "50"),
    "simulate": ("simulate", "coin", "--games", "10"),
    "solve": ("solve", "nim"),
    "table": ("table", "nim(heap=3)", "-o", "-"),
    "search": ("search", "nim", "--dives", "50"),
    "explore": ("explore", "nim(heap=4)", "--dives", "5", "-o", "-"),
    "play": ("play", "nim", "--ai", "random"),
    "tournament": ("tournament", "nim", "random", "random", "--games", "2"),
    "move": ("move", "nim", "--state", "5", "--ai", "random"),
    "train": ("train", "nim", "--heap", "4", "--games", "10", "-o", "-"),
    "check": ("check", "nim(heap=4)", "--examples", "2"),
    "count": ("count", "nim(heap=4)"),
    "mutate": ("mutate", "nim(heap=10, max_take=4, misere=False)", "--no-laws", "--golden", "nim 10, take 1-4",
               "--operators", "payoff_players"),
    "playthrough": ("playthrough", "nim", "--seed", "1"),
    "exercise": ("exercise", "show", "4"),
}


def test_the_verbs_listed_are_every_verb():
    from fnmcts.cli import build

    assert set(VERB_LINES) == set(build().parser._subparsers._group_actions[0].choices)


@pytest.mark.slow
@pytest.mark.parametrize("stream, said", [("stdout", "standard output"), ("stdin", "standard input")])
@pytest.mark.parametrize("verb", sorted(VERB_LINES))
def test_a_closed_standard_stream_ends_every_verb_with_one_line_and_status_1(capsys, monkeypatch, verb, stream, said):
    monkeypatch.setattr(sys, stream, None)  # what Python sets when the process starts with the descriptor closed
    code = main(list(VERB_LINES[verb]))
    monkeypatch.undo()
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"fnmcts: error: {said} is closed")


def _real(argv, close: int, cwd):
    """``python -m fnmcts ARGV`` started with descriptor ``close`` closed, as a shell's ``>&-`` or ``<&-`` does."""
    return subprocess.run(
        [sys.executable, "-m", "fnmcts", *argv], cwd=cwd, stdout=None if close == 1 else subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=None if close == 0 else subprocess.DEVNULL, text=True, timeout=120,
        preexec_fn=lambda: os.close(close), env=os.environ | {"PYTHONPATH": str(ROOT)},
    )


@pytest.mark.slow
@pytest.mark.parametrize("close, said", [(1, "standard output"), (0, "standard input")])
def test_a_really_closed_stream_is_one_line_and_status_1_to_the_end_of_the_process(tmp_path, close, said):
    # the regression of 7469ee2: console() flushed a standard output that was None, after main's one line
    done = _real(["simulate", "coin", "--games", "10"], close, tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [done.stderr.strip()] and f"{said} is closed" in done.stderr


def test_a_full_disk_under_standard_output_is_one_line_and_status_1(tmp_path):
    done = subprocess.run([sys.executable, "-m", "fnmcts", "table", "nim", "-o", "-"], cwd=tmp_path,
                          stdout=open("/dev/full", "w"), stderr=subprocess.PIPE, text=True, timeout=120,
                          env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["fnmcts: error: cannot write standard output: No space left on device"]


def test_a_reader_that_goes_away_ends_quietly(tmp_path):
    program = subprocess.Popen([sys.executable, "-m", "fnmcts", "table", "nim(heap=30)", "-o", "-", "--json"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=os.environ | {"PYTHONPATH": str(ROOT)})
    program.stdout.close()  # the reader is gone before the first line, as `| head -0` leaves it
    err = program.stderr.read().decode()
    program.wait(timeout=120)
    assert program.returncode == 0 and err == ""  # quietly, as cat does: no report, no "Exception ignored"


# -- -o -: the file on standard output, the report on standard error -----------------------------


@pytest.mark.parametrize("argv, starts", [
    (("explore", "nim(heap=4)", "--dives", "5", "--seed", "1"), "<!DOCTYPE html>"),
    (("playthrough", "nim(heap=4)", "--seed", "1"), "fnmcts playthrough\n"),
    (("table", "nim(heap=3)"), "# exact values of Nim(heap=3"),
    (("train", "nim", "--heap", "4", "--games", "20", "--seed", "1", "--no-exact"), '{"'),
])
def test_dash_writes_the_file_to_standard_output_and_no_file_named_dash(capsys, tmp_path, monkeypatch, argv, starts):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv, "-o", "-")
    assert code == 0 and out.startswith(starts), (out[:200], err)
    assert "standard output" in err  # the report, out of the file's way
    assert list(tmp_path.iterdir()) == []
    code, out, err = run(capsys, *argv, "-o", "-", "--json")  # the report as JSON: on standard error too
    assert code == 0 and out.startswith(starts) and json.loads(err.strip().splitlines()[-1])


@pytest.mark.slow
def test_dash_draws_a_plot_as_svg_on_standard_output(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "plot", "nim(heap=4)", "--dives", "20", "--points", "2", "--seed", "1", "-o", "-")
    assert code == 0 and out.startswith("<?xml") and out.rstrip().endswith("</svg>")
    assert err.startswith("wrote standard output (search on") and list(tmp_path.iterdir()) == []


def test_a_playthrough_written_to_dash_is_the_playthrough_printed(capsys):
    assert run(capsys, "playthrough", "pig", "--seed", "3", "-o", "-")[1] == run(capsys, "playthrough", "pig", "--seed", "3")[1]


# -- any exception escaping a command: one line --------------------------------------------------

RAISING = '''
from dataclasses import dataclass
from fnmcts import GameBase

@dataclass(frozen=True)
class Raising(GameBase):
    num_players = 2
    def start(self): return (3, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return (1, 2)
    def play(self, state, move):
        if state[0] == 1:
            raise RuntimeError("no stones to take")
        return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (1, -1)
'''


def test_a_users_game_that_raises_is_one_line_naming_the_hook_and_status_1(capsys, tmp_path, monkeypatch):
    (tmp_path / "raising_game.py").write_text(RAISING)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "count", "raising_game:Raising")
    assert code == 1 and err.count("\n") == 1, err
    assert "RuntimeError" in err and "no stones to take" in err and "play" in err
    assert "fnmcts check raising_game:Raising" in err


def test_the_traceback_is_shown_when_the_environment_asks(capsys, tmp_path, monkeypatch):
    (tmp_path / "raising_game2.py").write_text(RAISING)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FNMCTS_TRACEBACK", "1")
    code, _, err = run(capsys, "count", "raising_game2:Raising")
    assert code == 1 and "Traceback (most recent call last)" in err and err.rstrip().splitlines()[-1].startswith("fnmcts: error:")


def test_an_exception_inside_fnmcts_is_one_line_naming_where(capsys, monkeypatch):
    from fnmcts.cli import _failure

    monkeypatch.setattr("fnmcts.cli.simulate.report_text", _failure.check_hint)  # a call with the wrong arguments
    code, _, err = run(capsys, "simulate", "coin", "--games", "10")
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("fnmcts: error: TypeError: check_hint() takes 1 positional argument but 3 were given (")
    assert "simulate.py:" in err and "FNMCTS_TRACEBACK=1 shows the traceback" in err
