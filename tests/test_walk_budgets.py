"""Budgets and refusals: every walk stops with a verdict, what would not fit is refused before it starts.

Also the protocol as documented (``describe_move`` gets the state, every text
hook answers text), the exit of a script that kept a tree, OpenSpiel
parameters that cannot start a game, and where ``module:attribute`` looks.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fnmcts
from fnmcts import CHANCE, GameBase, GameError
from fnmcts.agents import random_agent
from fnmcts.games import Nim, Pig
from fnmcts.io import load_ai
from fnmcts.limits import MAX_PLIES, NoEnd, TooLarge, check_file_memory, cycle_found, no_end, ply_budget
from fnmcts.matches import playout
from fnmcts.testing import check_game, law_text_hooks
from fnmcts.testing.counts import count

from cli_run import TAKE_AWAY


@dataclass(frozen=True)
class Bounce(GameBase):
    """Take 1 or add 1 (below ``top``): random play ends, but states repeat and the game does not say so."""

    top: int = 4
    num_players = 2

    def start(self):
        return (2, 0)

    def to_move(self, state):
        return None if state[0] == 0 else state[1]

    def possible_moves(self, state):
        return ("take", "add") if state[0] < self.top else ("take",)

    def play(self, state, move):
        return (state[0] - 1 if move == "take" else state[0] + 1, 1 - state[1])

    def payoff(self, state):
        return (1, -1) if state[1] == 1 else (-1, 1)


@pytest.mark.parametrize("solver", [False, True])
def test_a_search_that_goes_round_an_undeclared_cycle_is_a_verdict_not_a_crash(solver):
    # the compiled loop wrote past its path array here (a segmentation fault), the Python loop never ended
    game = Bounce()
    with pytest.raises(NoEnd) as raised:
        fnmcts.search(game, game.start(), 2_000, random.Random(1), solver=solver)
    error = raised.value
    assert error.cycle > 0 and "may_repeat()" in str(error)
    # the line's last plies come back where they began
    assert _replay(game, error.start, error.line) == _replay(game, error.start, error.line[: -error.cycle])


def _replay(game, state, line):
    for move in line:
        state = game.play(state, move)
    return state


@dataclass(frozen=True)
class Counter(GameBase):
    """A counter that only goes up: play never ends, no state comes back (``step``: how far a move goes)."""

    step: int = 1
    num_players = 2

    def start(self):
        return 0

    def to_move(self, state):
        return state % 2

    def possible_moves(self, state):
        return (self.step,)

    def play(self, state, move):
        return state + move

    def payoff(self, state):
        return (1, -1)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 300), st.randoms(use_true_random=False))
def test_play_that_never_ends_is_a_no_end_at_its_budget_showing_the_line(budget, rng):
    game = Counter()
    with pytest.raises(NoEnd) as raised:
        playout(game, game.start(), rng, max_plies=budget)
    error = raised.value
    assert error.plies == budget and len(error.line) == budget and error.cycle == 0
    assert f"no end within {budget:,} plies" in str(error) and "a new state every ply" in str(error)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(0, 6))
def test_a_cycle_is_shown_by_its_shortest_line(size, entry):
    # states 0 .. entry - 1 lead to a ring of `size` states; random play goes round it for ever
    @dataclass(frozen=True)
    class Ring(GameBase):
        def start(self):
            return 0

        def to_move(self, state):
            return 0

        def possible_moves(self, state):
            return ("on",)

        def play(self, state, move):
            return state + 1 if state < entry + size - 1 else entry

        def payoff(self, state):
            return (1,)

    error = no_end(Ring(), 0, 1_000)
    assert error.cycle == size and len(error.line) == entry + size  # the way in, then once round, nothing more
    assert cycle_found(Ring(), 0, entry).line == error.line


def test_the_budget_is_the_games_own_bound_when_it_is_longer():
    assert ply_budget(Nim(heap=50_000), Nim(heap=50_000).start()) == 50_000
    assert ply_budget(Pig(goal=20_000), Pig(goal=20_000).start()) == 100 * Pig(goal=20_000).fewest_moves(
        Pig(goal=20_000).start())
    assert ply_budget(Counter(), 0) == MAX_PLIES and ply_budget(Counter(), 0, None) is None
    # a long legal game is played out, not cut short: Nim of 12,000 taken one at a time
    end = playout(Nim(heap=12_000, max_take=1), Nim(heap=12_000, max_take=1).start(), random.Random(1))
    assert end["heap"] == 0


@pytest.mark.parametrize("verb", ["simulate", "tournament", "play_game", "solve", "count", "train"])
def test_every_walk_takes_its_budget_from_the_caller(verb):
    game = Counter()
    runs = {
        "simulate": lambda: fnmcts.simulate(game, 3, seed=1, max_plies=50),
        "tournament": lambda: fnmcts.tournament(game, random_agent, random_agent, 2, seed=1, max_plies=50),
        "play_game": lambda: fnmcts.matches.play_game(game, random_agent, random_agent, seed=1, max_plies=50),
        "solve": lambda: fnmcts.solve(game, max_plies=50),
        "count": lambda: count(game, max_plies=50),
        "train": lambda: fnmcts.qlearning.train(3, seed=1, game=game, max_plies=50),
    }
    with pytest.raises(NoEnd, match="no end within 50 plies"):
        runs[verb]()


# -- sizes refused up front ----------------------------------------------------------------------


def test_a_count_the_size_hint_puts_past_its_limit_is_refused_at_once():
    with pytest.raises(TooLarge, match=r"would find up to 2,000,000,002 states .* limit=None goes on regardless"):
        count(Nim(heap=10**9))
    assert count(Nim(heap=10**9), 3).plies[-1].ply == 3  # a depth is counted: the limit is for a count to the end


def test_a_q_table_too_large_for_memory_is_refused_before_it_is_read(tmp_path):
    table = tmp_path / "q.json"
    table.write_text(json.dumps({"format": "fnmcts-q-table", "version": 1, "q": [[0, 0, 0.5]] * 10_000}))
    with pytest.raises(TooLarge, match=r"reading the Q table .* memory= \(bytes\) sets another budget"):
        load_ai(table, memory=10**5)
    with pytest.raises(ValueError) as read:  # within the budget it is read, and judged on what it holds
        load_ai(table, memory=10**9)
    assert not isinstance(read.value, TooLarge)
    assert check_file_memory(tmp_path / "missing.json") == 0  # the reader says what is wrong with a missing file


def test_check_refuses_what_would_not_fit_in_memory_and_names_the_limit_that_fits():
    from fnmcts.cli.check import _refuse_memory
    from fnmcts.testing import estimate_check

    estimate = estimate_check(Nim(heap=20), budget=0.5)
    assert 0 < estimate.state_bytes < 100_000
    _refuse_memory("Nim()", estimate, 200_000, budget=10**12)  # fits: nothing said
    with pytest.raises(TooLarge, match=r"--exact-limit [\d,]+ fits, or --no-exact"):
        _refuse_memory("Nim()", estimate, 200_000, budget=estimate.state_bytes * 1_000)


# -- the protocol as documented --------------------------------------------------------------------


@dataclass(frozen=True)
class Roll(GameBase):
    """A die, then keep it or roll again once: ``describe_move`` reads the roll from the state it is given."""

    def start(self):
        return ("roll", 0, 0)

    def to_move(self, state):
        return CHANCE if state[0] == "roll" else (0 if state[0] == "choose" else None)

    def chance_outcomes(self, state):
        return tuple((face, Fraction(1, 6)) for face in range(1, 7)) if state[0] == "roll" else ()

    def possible_moves(self, state):
        return ("keep", "again") if state[0] == "choose" and state[2] == 0 else ("keep",) if state[0] == "choose" else ()

    def play(self, state, move):
        if state[0] == "roll":
            return ("choose", move, state[2])
        return ("done", state[1], 1) if move == "keep" else ("roll", 0, 1)

    def payoff(self, state):
        return (Fraction(state[1], 6),)

    def describe_move(self, state, move):
        return f"{move} the {state[1]}"


def test_the_transcript_gives_describe_move_the_state_the_move_is_played_at():
    record = fnmcts.matches.play_game(Roll(), random_agent, random_agent, seed=3, verbose=True)
    lines = [line for line in record.transcript if line.startswith("Player 1: ")]
    assert lines and all(line.split()[-1].rstrip(".") in "123456" for line in lines)
    assert check_game(Roll(), laws=["text_hooks"], max_examples=20) == ("text_hooks",)


def test_a_text_hook_that_answers_no_text_fails_its_law():
    class Silent(Roll):
        def render(self, state):
            return None

    with pytest.raises(AssertionError, match="render at .* returned None, not text"):
        law_text_hooks(Silent(), Silent().start())
    with pytest.raises(AssertionError, match="game law 'text_hooks' fails"):
        check_game(Silent(), laws=["text_hooks"], max_examples=10)


def test_a_tree_alive_at_interpreter_exit_says_nothing():
    # trees held in module globals die while the interpreter exits, after the search modules' globals: the working
    # copy a returned tree carries must need nothing of those modules then (it once had a weakref callback that did)
    code = (
        "import random, fnmcts\n"
        "from fnmcts.games.nim import Nim\n"
        "tree = fnmcts.search(Nim(heap=12), Nim(heap=12).start(), 200, random.Random(1))\n"
        "step, _ = fnmcts.mcts.uct(Nim(heap=12), tree, Nim(heap=12).start(), random.Random(2))\n"
        "print(len(step))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert int(done.stdout) > 1


# -- OpenSpiel parameters that load but cannot start a game --------------------------------------

BAD_OPENSPIEL = ["clobber(rows=0)", "dots_and_boxes(num_cols=0)", "checkers(rows=0)",
                 "oware(num_houses_per_player=-1)", "catch(columns=0)"]


@pytest.mark.parametrize("spec", BAD_OPENSPIEL)
def test_an_openspiel_parameter_that_cannot_start_its_game_is_a_one_line_value_error(spec, capfd):
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    with pytest.raises(ValueError) as raised:
        from_openspiel(spec)
    message = str(raised.value)
    assert "\n" not in message and spec in message
    assert capfd.readouterr().err == ""  # OpenSpiel's own printing kept off the terminal


# -- where module:attribute looks ----------------------------------------------------------------


@pytest.mark.slow
def test_a_game_of_your_own_is_found_on_pythonpath_from_any_folder(tmp_path):
    home, elsewhere = tmp_path / "games", tmp_path / "elsewhere"
    home.mkdir(), elsewhere.mkdir()
    (home / "takeaway_home.py").write_text(TAKE_AWAY)
    env = dict(os.environ, PYTHONPATH=str(home))
    found = subprocess.run([sys.executable, "-m", "fnmcts", "solve", "takeaway_home:TakeAway(stones=5)"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120)
    assert found.returncode == 0 and "wins" in found.stdout, found.stderr
    env.pop("PYTHONPATH")
    missed = subprocess.run([sys.executable, "-m", "fnmcts", "solve", "takeaway_home:TakeAway"],
                            capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120)
    assert missed.returncode == 2
    assert "the current folder, then PYTHONPATH, then the installed packages" in missed.stderr


def test_a_text_hook_that_answers_blank_text_says_blank_not_that_it_is_no_text():
    class Blank(Roll):
        def render(self, state):
            return "  "

    with pytest.raises(AssertionError, match="render at .* returned '  ', blank text: say something a person can read"):
        law_text_hooks(Blank(), Blank().start())
