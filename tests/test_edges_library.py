"""Library calls at the edges: a bad argument is named (TypeError/ValueError), a solution prints in one line,
and chance draws keep their table."""

import math
import pickle
import random
from bisect import bisect_right
from fractions import Fraction
from math import lcm

import pytest
from hypothesis import given, settings, strategies as st
from pyrsistent import pmap

import fnmcts
from fnmcts import protocol
from fnmcts.exact import ExactSolution, NotSolved, Solution
from fnmcts.games import GAMES, Nim, Pig, ShutTheBox, TicTacToe
from fnmcts.games.pig import ROLLING


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: fnmcts.solve(None), TypeError, "game must implement the fnmcts game protocol"),
        (lambda: fnmcts.solve("nim"), TypeError, "not the name 'nim'"),
        (lambda: fnmcts.simulate("coin", 10), TypeError, "not the name 'coin'"),
        (lambda: fnmcts.evaluate_policy("nim", fnmcts.random_policy), TypeError, "not the name 'nim'"),
        (lambda: fnmcts.best_move(Nim(), fnmcts.solve(Nim()), {"heap": 99}), ValueError, "a Nim state"),
        (lambda: fnmcts.best_move(Nim(), None, Nim().start()), TypeError, "solution must be what solve"),
        (lambda: fnmcts.best_move(Nim(), fnmcts.solve(Nim(heap=5)), Nim().state(21)), ValueError,
         "is not in this solution"),
        (lambda: fnmcts.montecarlo.wilson_interval(5, 10, z=math.nan), ValueError, "z must be a finite number > 0"),
        (lambda: fnmcts.montecarlo.wilson_interval(5, 10, z=-1.96), ValueError, "z must be a finite number > 0"),
        (lambda: fnmcts.montecarlo.wilson_interval(5, 10, z="1.96"), TypeError, "z must be a number"),
        (lambda: fnmcts.rng.child_seed("a", 0), TypeError, "seed must be an int"),
        (lambda: fnmcts.rng.child_seed(None, 0), TypeError, "seed must be an int"),
        (lambda: fnmcts.rng.child_seed(1, "0"), TypeError, "index must be an int"),
        (lambda: fnmcts.rng.child_seed(1, -1), ValueError, "index must be non-negative"),
        (lambda: fnmcts.save_tree(Nim(), None, "never-written.json"), TypeError, "tree must be a search tree"),
        (lambda: fnmcts.save_tree("nim", {}, "never-written.json"), TypeError, "not the name 'nim'"),
        (lambda: fnmcts.save_ai(None, "never-written.json"), TypeError, "ai must be a QAI"),
        (lambda: fnmcts.save_search(Nim(), None, "never-written.json"), TypeError, "found must be a MoveSearch"),
    ],
)
def test_a_bad_argument_is_named_not_met_deep_inside(call, error, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error, match=words) as caught:
        call()
    assert not isinstance(caught.value, AttributeError)
    assert list(tmp_path.iterdir()) == []  # nothing written for a bad call


def test_a_state_not_solved_is_still_a_key_error_for_old_callers():
    solution = fnmcts.solve(Nim(heap=5))
    with pytest.raises(KeyError):
        fnmcts.value(solution, Nim().state(21))
    assert issubclass(NotSolved, KeyError) and issubclass(NotSolved, ValueError)


@pytest.mark.slow
@pytest.mark.parametrize("game", [Nim(), TicTacToe(), ShutTheBox(), ShutTheBox(simplified=True), Pig(goal=8)])
def test_a_solution_prints_in_one_short_line_for_every_game(game):
    solution = fnmcts.solve(game)
    text = repr(solution)
    assert "\n" not in text and len(text) < 120
    assert f"{len(solution):,} states" in text
    assert isinstance(solution, (ExactSolution, Solution))


def test_an_exact_solution_is_the_pmap_it_was():
    solution = fnmcts.solve(Nim(heap=6))
    plain = pmap(dict(solution))
    assert solution == plain and hash(solution) == hash(plain)
    assert type(solution.set("x", 1)) is type(plain)  # updates give plain pmaps
    assert pickle.loads(pickle.dumps(solution)) == solution
    assert repr(pickle.loads(pickle.dumps(solution))) == repr(solution)


def _draw_as_before(outcomes, rng):
    """The draw of the past, worked out per call: Fractions over their common denominator, then bisect."""
    ratios = [Fraction(p) for _, p in outcomes]
    denominator = lcm(*(r.denominator for r in ratios))
    total, cumulative = 0, []
    for r in ratios:
        total += r.numerator * (denominator // r.denominator)
        cumulative.append(total)
    return outcomes[bisect_right(cumulative, rng.random() * denominator)][0]


@st.composite
def outcome_tuples(draw):
    weights = draw(st.lists(st.integers(1, 50), min_size=1, max_size=8))
    total = sum(weights)
    return tuple((f"o{i}", Fraction(w, total)) for i, w in enumerate(weights))


class _Chance(fnmcts.GameBase):
    """A game whose one chance node returns the tuple it is given (the same tuple each time, or a copy)."""

    def __init__(self, outcomes, fresh=False):
        self.outcomes, self.fresh = outcomes, fresh

    def chance_outcomes(self, state):
        return tuple(list(self.outcomes)) if self.fresh else self.outcomes


@settings(max_examples=60, deadline=None)
@given(outcome_tuples(), st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_sample_outcome_draws_what_it_drew_before(outcomes, rng, fresh, kept):
    seed = rng.getrandbits(32)
    game, tables = _Chance(outcomes, fresh), {} if kept else None
    new, old = random.Random(seed), random.Random(seed)
    assert [protocol.sample_outcome(game, "s", new, tables) for _ in range(30)] == [
        _draw_as_before(outcomes, old) for _ in range(30)
    ]


def test_the_draw_table_is_worked_out_once_per_outcome_tuple_in_the_callers_tables(monkeypatch):
    calls = []
    real = protocol._cumulative
    monkeypatch.setattr(protocol, "_cumulative", lambda probabilities: calls.append(1) or real(probabilities))
    game, rng, tables = Pig(goal=20), random.Random(3), {}
    faces = [protocol.sample_outcome(game, (0, 0, 0, 0, ROLLING), rng, tables) for _ in range(1000)]
    assert len(calls) == 1 and set(faces) == {1, 2, 3, 4, 5, 6} and len(tables) == 1
    protocol.sample_outcome(game, (0, 0, 0, 0, ROLLING), rng)
    assert len(calls) == 2  # no tables given: nothing kept after the call
    denominator, cumulative = protocol._draw_table(game.chance_outcomes((0, 0, 0, 0, ROLLING)), None)
    assert (denominator, cumulative) == (6, (1, 2, 3, 4, 5, 6)) and isinstance(cumulative, tuple)


def test_full_draw_tables_start_again_rather_than_working_out_every_draw(monkeypatch):
    monkeypatch.setattr(protocol, "_MAX_TABLES", 8)
    rng, tables = random.Random(5), {}
    for k in range(20):  # a game that makes new outcome tuples on every call fills the tables
        protocol._draw_table(((k, Fraction(1, 2)), (-k, Fraction(1, 2))), None, tables)
    assert 0 < len(tables) <= 8
    calls = []
    real = protocol._cumulative
    monkeypatch.setattr(protocol, "_cumulative", lambda probabilities: calls.append(1) or real(probabilities))
    game = Pig(goal=20)
    faces = [protocol.sample_outcome(game, (0, 0, 0, 0, ROLLING), rng, tables) for _ in range(200)]
    assert len(calls) == 1 and set(faces) == {1, 2, 3, 4, 5, 6}


def test_a_list_of_outcomes_is_not_kept_so_changing_it_changes_the_draws():
    outcomes = [("a", Fraction(1, 2)), ("b", Fraction(1, 2))]
    game = _Chance(outcomes)
    assert protocol.sample_outcome(game, "s", random.Random(0)) == "b"  # random.Random(0).random() is 0.84
    outcomes[0] = ("a", Fraction(9, 10))
    outcomes[1] = ("b", Fraction(1, 10))
    assert protocol.sample_outcome(game, "s", random.Random(0)) == "a"


def test_probabilities_that_do_not_sum_to_1_are_still_refused():
    game = _Chance((("a", Fraction(1, 2)), ("b", Fraction(1, 3))))
    with pytest.raises(protocol.GameError, match="sum to 5/6, not 1"):
        protocol.sample_outcome(game, "s", random.Random(0))
    with pytest.raises(protocol.GameError, match="sum to 5/6, not 1"):  # and again: a bad table is never kept
        protocol.sample_outcome(game, "s", random.Random(0))


@pytest.mark.parametrize(
    "parse",
    [
        lambda: protocol.parse_state(Nim(), "١٠"),
        lambda: protocol.parse_state(GAMES["piles"](), "١,٣"),
        lambda: protocol.parse_state(Nim(), "1٠"),
        lambda: protocol.parse_move(Nim(), Nim().start(), "١"),
        lambda: protocol.parse_move(Nim(), Nim().start(), "２"),  # fullwidth 2
    ],
)
def test_digits_of_other_scripts_are_not_numbers_in_the_library(parse):
    with pytest.raises(ValueError, match="digits other than 0-9"):
        parse()


def test_ascii_digits_still_parse():
    assert protocol.parse_state(Nim(), "10") == Nim().state(10)
    assert protocol.parse_move(Nim(), Nim().start(), "2") == 2
