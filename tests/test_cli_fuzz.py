"""A fuzz test of the command line: whatever a person types, no traceback, and a usage error changes nothing.

Hypothesis draws argument lists (commands, games, options, numbers of every
shape, states, piles, boxes, paths) and lines of standard input for the
interactive loops, and runs ``fnmcts.cli.main`` in this process. Every run
ends with a known exit status (0 done, 1 a runtime failure, 2 a usage error,
130 interrupted: a run still going after a second is stopped as Ctrl-C
would stop it); a usage error prints one line on standard error, nothing on
standard output, and leaves every file as it was.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fnmcts.cli import main
from fnmcts.parallel import Interrupted

COMMANDS = ("simulate", "solve", "move", "play", "tournament", "train", "table", "search", "bogus", "")
GAMES = ("coin", "darts", "shut-the-box", "tic-tac-toe", "nim", "piles", "chess", "")
AGENTS = ("random", "perfect", "montecarlo", "mcts", "exact", "q", "nobody")
OPTIONS = (
    "--games", "--seed", "--heap", "--max-take", "--piles", "--state", "--box", "--ai", "--dives", "--trials",
    "--c", "--z", "--dives", "--eval-games", "--alpha", "--epsilon", "--kind", "--policy", "--hints", "--rule",
    "--final", "--backup", "--ucb", "-o", "--q-table", "--workers", "--json", "--simplified", "--misere", "--normal",
    "--force", "--no-exact", "--first", "--second", "--no-solver", "--help-me", "-x",
)

numbers = st.one_of(
    st.integers(-10, 40).map(str),
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1e6", "1_000", "0x10", "1e400", "-0", "3.0", "½", "٣", " 7 ", "", "nan", "1e", "00"]),
)
states = st.one_of(
    st.sampled_from(['{"heap": 5}', '{"heap": 5, "player": 3}', '{"box": [1, 1], "roll": 7}', '{"box": []}',
                     '{"piles": [1, 2], "x": 1}', "[" * 50, "010001002", "012012012", "1,3,5,7", "[2, 0]", "-",
                     '{"box": [1, 2], "roll": 13}', "null", "{}", "[]", '"str"', "5"]),
    st.text(alphabet="0123456789,[]{}\": -abx", max_size=12),
)
paths = st.sampled_from(["out.txt", "old.txt", "ro.txt", "dir/", "missing/x.txt", "", "-", "dir", ".", "/dev/null"])
values = st.one_of(numbers, states, paths, st.sampled_from(AGENTS + GAMES + ("visits", "lookup", "random", "tutorial")))
words = st.one_of(st.sampled_from(OPTIONS), values)


@st.composite
def argvs(draw):
    command = draw(st.sampled_from(COMMANDS))
    argv = [command] if command else []
    if draw(st.booleans()):
        argv.append(draw(st.sampled_from(GAMES)))
    if command == "tournament":
        argv += draw(st.lists(st.sampled_from(AGENTS), max_size=2))
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from(OPTIONS))
        argv.append(option)
        if draw(st.integers(0, 4)):
            argv.append(draw(values))
    if draw(st.integers(0, 9)) == 0:  # now and then a word anywhere
        argv.insert(draw(st.integers(0, len(argv))), draw(words))
    return argv


boxes = st.one_of(st.sampled_from(["-", "", "123", "112", "0", "10", "1,2", "987654321", "a"]),
                  st.text(alphabet="0123456789-,", max_size=6))
piles = st.one_of(st.sampled_from(["1,3,5,7", "0,0", "1,,2", "-1", "100,100,100,100,100", "2 4", ""]),
                  st.lists(st.integers(-2, 12), max_size=4).map(lambda ps: ",".join(map(str, ps))))


@st.composite
def shaped(draw):
    """A command line of the right shape (a command, its game, its own options) with drawn values."""
    pick = draw(st.sampled_from(["simulate", "solve-box", "solve", "move", "play", "train", "table", "tournament"]))
    if pick == "simulate":
        argv = ["simulate", draw(st.sampled_from(GAMES)), "--games", draw(numbers), "--seed", draw(numbers)]
    elif pick == "solve-box":
        argv = ["solve", "shut-the-box", "--box", draw(boxes)]
    elif pick == "solve":
        argv = ["solve", draw(st.sampled_from(["nim", "piles", "tic-tac-toe"])), "--state", draw(states)]
    elif pick == "move":
        argv = ["move", draw(st.sampled_from(["nim", "piles", "tic-tac-toe", "shut-the-box"])),
                "--state", draw(states), "--ai", draw(st.sampled_from(AGENTS)), "--seed", "1"]
    elif pick == "play":
        argv = ["play", draw(st.sampled_from(["nim", "piles", "tic-tac-toe", "shut-the-box"])), "--seed", "1"]
    elif pick == "train":
        game = draw(st.sampled_from(["nim", "piles"]))
        size = ["--heap", draw(numbers)] if game == "nim" else ["--piles", draw(piles)]
        argv = ["train", game, *size, "--games", draw(numbers), "--eval-games", "3", "-o", draw(paths)]
    elif pick == "table":
        argv = ["table", "shut-the-box", "-o", draw(paths), "--games", draw(numbers)]
    else:
        argv = ["tournament", draw(st.sampled_from(["nim", "piles", "tic-tac-toe"])),
                *draw(st.lists(st.sampled_from(AGENTS), min_size=2, max_size=2)), "--games", draw(numbers)]
    if draw(st.booleans()):
        argv.append(draw(st.sampled_from(("--json", "--force", "--simplified", "--normal", "--dives"))))
    return argv


stdin_lines = st.lists(st.one_of(numbers, st.sampled_from(["q", "flip 1 2", "2 4", "x", "", "1", "3"])), max_size=6)


def _snapshot(folder) -> dict:
    return {
        entry.name: (entry.stat().st_mode, entry.read_bytes() if entry.is_file() else None)
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
    }


def _stop(signum, frame):
    raise Interrupted(None, signal.SIGINT)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "old.txt").write_text("old\n")
    (tmp_path / "ro.txt").write_text("read-only\n")
    (tmp_path / "ro.txt").chmod(0o444)
    (tmp_path / "dir").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(argv, lines):
    out, err = io.StringIO(), io.StringIO()
    saved_stdin, sys.stdin = sys.stdin, io.StringIO("".join(f"{line}\n" for line in lines))
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:  # argparse: --help, usage errors
                code = exit_.code
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
          database=None)
@pytest.mark.slow
@given(argv=st.one_of(argvs(), shaped()), lines=stdin_lines)
def test_any_command_line_ends_cleanly_and_a_usage_error_changes_nothing(workdir, argv, lines):
    if "--workers" in argv:  # worker pools are tested with real signals elsewhere; here, one process
        argv = [a for a in argv if a != "--workers"]
    before = _snapshot(workdir)
    code, out, err = _run(argv, lines)
    event(f"exit {code}")
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    assert code in (0, 1, 2, 130), (argv, code, err)
    if code == 2:
        assert out == "", (argv, out)
        assert err.count("\n") == 1 and ": error: " in err, (argv, err)
        assert _snapshot(workdir) == before, argv
    for leftover in workdir.iterdir():  # no temporary file is ever left behind
        assert not leftover.name.endswith(".tmp"), (argv, leftover)
    if os.path.exists(workdir / "ro.txt"):
        assert (workdir / "ro.txt").read_text() == "read-only\n"
