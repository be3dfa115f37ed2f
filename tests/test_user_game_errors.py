"""A user's broken game through every verb: one named error, a verdict, never a raw traceback or a hang.

The corpus (``tests/broken_games.py``): a hook that raises, returns None, a
list, a payoff of the wrong length or out of range; chance probabilities that
do not sum to 1; play that goes round a cycle; states that grow and never end;
a size beyond every limit. Each runs through every verb of the library
(``search``, ``mcts_move``, ``solve``, ``evaluate_policy``, ``simulate``,
``tournament``, ``play_game``, ``count``, ``train``, ``check_game``) and of the
command line (in a subprocess, as a user runs it): a ``GameError`` naming the
hook and the state, a ``NoEnd`` with its line, a ``TooLarge``, or, on the
command line, one line and exit status 1 (2 for a refusal). The regular run
takes a sample that covers every fault and every verb; the whole matrix is
``slow``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fnmcts
from broken_games import FAULTS, HOOKS, Faulty, Injected, expected
from fnmcts import GameError, GameBase
from fnmcts import qlearning
from fnmcts.agents import random_agent
from fnmcts.exact import random_policy
from fnmcts.limits import NoEnd, TooLarge
from fnmcts.protocol import shown
from fnmcts.testing import check_game
from fnmcts.testing.counts import count
from small_games import ListCountdown

VERBS = {
    "search": lambda g: fnmcts.search(g, g.start(), 300, random.Random(1)),
    "mcts_move": lambda g: fnmcts.mcts_move(g, g.start(), 300, random.Random(1)),
    "solve": lambda g: fnmcts.solve(g),
    "evaluate_policy": lambda g: fnmcts.evaluate_policy(g, random_policy, opponent=random_policy),
    "simulate": lambda g: fnmcts.simulate(g, 300, seed=1),
    "tournament": lambda g: fnmcts.tournament(g, random_agent, random_agent, 30, seed=1),
    "play_game": lambda g: fnmcts.matches.play_game(g, random_agent, random_agent, seed=1, verbose=True),
    "count": lambda g: count(g),
    "train": lambda g: qlearning.train(100, seed=1, game=g),
}
"""Every verb of the library that walks a game, called as a user calls it."""

RUNS = [(game, verb) for game in FAULTS for verb in VERBS]


def _sample(runs):
    """Every fault but growth (seconds a run: the slow matrix has it) and every verb, cheaply: fault i with verbs i, i + 4."""
    names = list(VERBS)
    picked = []
    for i, game in enumerate(FAULTS):
        if game.fault != "grow":
            picked += [(game, names[i % len(names)]), (game, names[(i + 4) % len(names)])]
    return picked


SAMPLE = _sample(RUNS)


def _id(run):
    game, verb = run
    return f"{game.fault}-{game.hook}-{verb}"


def assert_verdict(game, verb):
    """Run ``verb`` on ``game``: it does what ``broken_games.expected`` says, and says it naming what it must."""
    want = expected(game, verb)
    if want == "fine":
        VERBS[verb](game)
        return
    with pytest.raises((GameError, NoEnd, TooLarge)) as raised:
        VERBS[verb](game)
    error = raised.value
    kind, _, hook = want.partition(":")
    assert type(error).__name__ == kind, f"{verb} on {game}: {error!r}"
    if kind == "GameError":
        assert error.hook == hook
        assert str(error).startswith(f"the game's {hook}(") and shown(error.state) in str(error)
        assert isinstance(error.state, (tuple, list)), error.state  # the state the hook failed at, named
        if game.fault == "raise":
            assert isinstance(error.__cause__, Injected)  # chained to what the hook raised
    elif kind == "NoEnd":
        assert str(error).startswith("no end") and error.line, str(error)
        if game.fault == "loop":
            assert error.cycle > 0 and "a cycle through" in str(error)
            state = error.start
            for move in error.line:  # the line replays: its last plies come back where they began
                state = game.play(state, move)
            back = error.start
            for move in error.line[: len(error.line) - error.cycle]:
                back = game.play(back, move)
            assert state == back


@pytest.mark.parametrize("run", SAMPLE, ids=_id)
def test_a_broken_game_gets_one_named_verdict_from_every_verb(run):
    assert_verdict(*run)


@pytest.mark.slow
@pytest.mark.parametrize("run", RUNS, ids=_id)
def test_every_broken_game_through_every_verb(run):
    assert_verdict(*run)


def test_the_sample_covers_every_fault_and_every_verb():
    assert {game for game, _ in SAMPLE} | {Faulty("grow", "none")} == set(FAULTS)
    assert {verb for _, verb in SAMPLE} == set(VERBS)


@pytest.mark.slow
@pytest.mark.parametrize("game", FAULTS, ids=lambda game: f"{game.fault}-{game.hook}")
def test_check_game_reports_each_fault_as_a_law_that_fails(game):
    if game.fault == "huge":
        assert check_game(game, max_examples=10)  # a size hint beyond the limits is no fault of the rules
        return  # (a list for a payoff, which the verbs read as a tuple, fails the law that asks for a tuple)
    with pytest.raises(AssertionError) as raised:
        check_game(game, max_examples=20)
    assert str(raised.value).startswith("game law '")


# -- any hook, raising at any call ---------------------------------------------------------------


class RaiseAt(GameBase):
    """``Faulty``'s sound game whose ``hook`` raises ``Injected`` from its ``k``-th call on (a hook that breaks for good).

    (An optional probe, which tries the game once to choose defaults, may
    pass over one failure: the walk meets the next.)
    """

    num_players = 2

    def __init__(self, hook, k):
        self.inner, self.hook, self.k, self.calls = Faulty("none", "none"), hook, k, 0

    def _call(self, hook, *args):
        if hook == self.hook:
            self.calls += 1
            if self.calls >= self.k:
                raise Injected(f"call {self.k} of {hook}")
        return getattr(self.inner, hook)(*args)

    def start(self):
        return self.inner.start()

    def to_move(self, state):
        return self._call("to_move", state)

    def possible_moves(self, state):
        return self._call("possible_moves", state)

    def chance_outcomes(self, state):
        return self._call("chance_outcomes", state)

    def play(self, state, move):
        return self._call("play", state, move)

    def payoff(self, state):
        return self._call("payoff", state)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(HOOKS), st.integers(1, 80), st.sampled_from(sorted(VERBS)))
def test_any_hook_raising_at_any_call_is_a_game_error_naming_it(hook, k, verb):
    game = RaiseAt(hook, k)
    try:
        VERBS[verb](game)
    except GameError as error:
        assert error.hook == hook and isinstance(error.__cause__, Injected), (verb, repr(error))
        assert str(error).startswith(f"the game's {hook}(") and f"raised Injected: call {k} of {hook}" in str(error)
    else:
        assert game.calls < k  # it finished: the k-th call never came


# -- the command line: one line, exit 1, never a traceback -------------------------------------

CLI = {
    "solve": [],
    "simulate": ["--games", "200"],
    "search": ["--dives", "200"],
    "count": [],
    "tournament": ["random", "random", "--games", "10"],
    "move": ["--state", '[5, 0, "take", []]', "--ai", "mcts", "--dives", "200"],  # a search: walks the game
    "check": ["--examples", "10"],
    "train": ["--games", "50", "-o", "{tmp}/q.json"],
    "table": ["-o", "{tmp}/table.json"],
}
"""Each verb's command line for a game of ``broken_games`` (``{tmp}``: a folder of the test's own)."""

CLI_RUNS = [(game, verb) for game in FAULTS for verb in CLI]


def _cli_id(run):
    game, verb = run
    return f"{game.fault}-{game.hook}-{verb}"


def _spec(game) -> str:
    return f"broken_games:Faulty(fault={game.fault!r}, hook={game.hook!r})"


def run_cli(verb, game, tmp_path):
    """``(exit status, standard error)`` of ``fnmcts VERB SPEC ...`` in a subprocess, the tests folder importable."""
    args = [a.replace("{tmp}", str(tmp_path)) for a in CLI[verb]]
    spec = _spec(game)
    argv = [sys.executable, "-m", "fnmcts", verb, spec, *args]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parent))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stderr


def assert_cli_verdict(game, verb, tmp_path):
    status, err = run_cli(verb, game, tmp_path)
    assert "Traceback" not in err, err
    want = expected(game, "solve" if verb in ("solve", "count", "table") else "search")
    if verb == "check":  # the law checker's own report: a failing law, exit 1; or a refusal, exit 2
        assert status in (0, 1, 2), err
        return
    if want == "fine" or (game.fault == "list" and game.hook == "play" and verb in ("simulate", "tournament")):
        assert status in (0, 2), err  # done, or refused as a usage error (a verb that does not take this game)
        return
    lines = err.strip().splitlines()
    if want == "TooLarge":
        assert status == 2 and lines[-1].startswith("fnmcts: error: "), err
        return
    assert status == 1, err
    assert len(lines) == 1 and lines[0].startswith("fnmcts: error: "), err
    if "--state" in CLI[verb]:  # where to look next: below the state the line gave, or the walk from the start
        assert "(at or below the state given with --state " in lines[0], err
    else:
        assert "fnmcts check " in lines[0], err
    if want.startswith("GameError:"):
        assert f"the game's {want.partition(':')[2]}(" in lines[0], err
    else:
        assert lines[0].startswith("fnmcts: error: no end"), err


CLI_SAMPLE = [(Faulty("raise", "payoff"), "solve"), (Faulty("range", "payoff"), "search"),
              (Faulty("loop", "none"), "count")]


@pytest.mark.slow
@pytest.mark.parametrize("run", CLI_SAMPLE, ids=_cli_id)
def test_the_command_line_says_a_broken_game_in_one_line_with_exit_1(run, tmp_path):
    assert_cli_verdict(*run, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("run", CLI_RUNS, ids=_cli_id)
def test_every_broken_game_through_every_command(run, tmp_path):
    assert_cli_verdict(*run, tmp_path)


class _ListStart(ListCountdown):
    """Take 1 or 2 from a heap of 4, the state a list: a user's first try, before reading that states are immutable."""

    def possible_moves(self, state):
        return tuple(m for m in (1, 2) if m <= state[0])

    def play(self, state, move):
        return [state[0] - move, 1 - state[1]]


def test_a_state_that_is_not_hashable_is_named_so_where_the_commands_check_it():
    # fnmcts solve/search/move on a user's list state said "not a state of _ListStart(): [4, 0]", its own start, no reason
    from fnmcts.protocol import check_state

    with pytest.raises(ValueError, match=r"\[4, 0\] is not hashable .*a state is an immutable value"):
        check_state(_ListStart(), [4, 0])
    with pytest.raises(ValueError, match=r"\(to_move raised IndexError: tuple index out of range\)"):
        check_state(_ListStart(), ())


class _Repeats(GameBase):
    """Take 1 or 2 from a heap of 4, the move 1 listed twice."""

    num_players = 2

    def start(self):
        return (4, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(m for m in (1, 1, 2) if m <= state[0])

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)


@pytest.mark.parametrize("verb", ["solve", "search", "mcts_move", "evaluate_policy", "count"])
def test_a_move_listed_twice_is_a_game_error_naming_it(verb):
    # solve, count and table of a user's game whose possible_moves repeated a move answered as if it were two moves
    with pytest.raises(GameError, match=r"possible_moves\(\(4, 0\)\) returned the move 1 twice"):
        VERBS[verb](_Repeats())


def test_training_on_a_start_that_is_not_hashable_is_a_game_error_naming_start():
    # fnmcts train on a user's list state ended in "TypeError: unhashable type: 'list' (qlearning.py:468, in node)"
    with pytest.raises(GameError, match=r"start\(\) returned \[4, 0\], which is not hashable"):
        VERBS["train"](_ListStart())


class _NoPlayerCount:
    """Take 1 or 2 from 5, the last taker wins, written without ``num_players`` (fnmcts then counts 1)."""

    def start(self):
        return (5, 0)

    def to_move(self, s):
        return s[1] if s[0] else None

    def possible_moves(self, s):
        return tuple(m for m in (1, 2) if m <= s[0])

    def play(self, s, m):
        return (s[0] - m, 1 - s[1])

    def payoff(self, s):
        return (-1, 1) if s[1] == 0 else (1, -1)


@pytest.mark.parametrize("verb", ["search", "solve", "simulate", "count"])
def test_a_game_without_num_players_is_told_to_give_it(verb):
    with pytest.raises(GameError, match=r"the game has no num_players, so fnmcts counts 1 player: give its class "
                                        r"num_players = 2"):
        VERBS[verb](_NoPlayerCount())


def test_a_game_with_num_players_gets_no_such_hint():
    wrong = type("OnePlayer", (_NoPlayerCount,), {"num_players": 1})()
    with pytest.raises(GameError) as error:
        fnmcts.solve(wrong)
    assert "num_players" in str(error.value) and "has no num_players" not in str(error.value)
