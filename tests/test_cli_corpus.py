"""Command lines run as a new user runs them: real processes, broken games of a user's own, OpenSpiel's parameters,
paths, closed streams, signals and typos (tests/cli_corpus.py).

Whatever a line asks, its run obeys the same rules: no traceback, no run past
60 s, every non-zero exit with exactly one line on standard error that names
the problem (the hook, for a hook that raised), no partial or temporary file
left behind. The regular suite runs a sample of every kind of line; the
broad corpus (hundreds of lines) is marked slow.
"""

from __future__ import annotations

import random
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

import cli_corpus
from cli_corpus import Line, prepare, problems, run_line

SAMPLE = [
    Line(("search", "broken_games:PlayRaise", "--dives", "300", "--seed", "1"), expect="play"),
    Line(("solve", "broken_games:PayoffNone")),
    Line(("simulate", "broken_games:NeverEnds", "--games", "300", "--seed", "1"), expect="no end"),
    Line(("count", "broken_games:Grows"), expect="no end"),
    Line(("playthrough", "broken_games:PossibleMovesRaise", "--seed", "1"), expect="possible_moves"),
    Line(("move", "broken_games:ReadsState", "--ai", "random", "--seed", "1")),
    Line(("count", "openspiel:nim(pile_sizes=1;x)")),
    Line(("explore", "nim(heap=4)", "--dives", "5", "-o", "missing/page.html"), expect="missing"),
    Line(("search", "nim", "--dvies", "10"), expect="did you mean --dives?"),
    Line(("simulate", "coin", "--games", "10"), close=1, expect="standard output is closed"),
    Line(("explore", "tic-tac-toe", "--dives", "3000", "-o", "out/page.html"), signal=signal.SIGTERM, delay=2.5),
]
"""One line of each kind the corpus holds: broken hooks on several verbs, a game that never ends and one that
grows, a bad OpenSpiel parameter, a missing folder, a typo, a closed standard output, SIGTERM while a page is made."""


def _run_all(lines, folder, workers: int = 2) -> list:
    def one(numbered):
        number, line = numbered
        place = folder / f"run{number}"
        place.mkdir()
        prepare(place)
        ran = run_line(line, place)
        return ran, problems(ran)

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, enumerate(lines)))


def _report(results) -> str:
    return "\n".join(f"{ran.line} -> {ran.status} in {ran.seconds:.1f} s: {found}\n    {ran.err[-500:]!r}"
                     for ran, found in results if found)


@pytest.mark.slow
def test_a_sample_of_the_corpus_obeys_the_rules(tmp_path):
    results = _run_all(SAMPLE, tmp_path)
    assert _report(results) == ""
    statuses = [ran.status for ran, _ in results]
    assert statuses[:9] == [1, 1, 1, 1, 1, 0, 2, 2, 2] and statuses[9] == 1  # the game's failures are 1, usage 2
    assert statuses[10] in (143, 0, -signal.SIGTERM)


def test_the_rules_catch_what_they_are_for(tmp_path):
    """``problems`` finds a traceback, a second line, a line that names nothing and a temporary file."""
    from cli_corpus import Ran

    line = Line(("count", "nim"))
    assert problems(Ran(line, 1, "", "Traceback (most recent call last):\n  ...\nValueError: x\n", 1.0, [], tmp_path))
    assert problems(Ran(line, 1, "", "fnmcts: error: the game's play(3) raised ValueError\nmore\n", 1.0, [], tmp_path))
    assert problems(Ran(line, 2, "", "fnmcts: error: x\n", 1.0, [], tmp_path))
    assert problems(Ran(line, 0, "", "", 1.0, ["out/.page.html.x1.tmp"], tmp_path))
    assert problems(Ran(line, None, "", "", 60.0, [], tmp_path))
    assert not problems(Ran(line, 1, "", "fnmcts: error: the game's play(3) raised ValueError: x\n", 1.0, [], tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("part", ["broken", "openspiel", "paths", "typos", "streams", "signals"])
def test_the_corpus_obeys_the_rules(tmp_path, part):
    lines = {"broken": cli_corpus.broken_lines, "openspiel": cli_corpus.openspiel_lines,
             "paths": cli_corpus.path_lines, "typos": cli_corpus.typo_lines, "streams": cli_corpus.stream_lines,
             "signals": lambda: cli_corpus.signal_lines(random.Random(33), 33)}[part]()
    results = _run_all(lines, tmp_path)
    assert _report(results) == ""
    assert len(results) == len(lines)
