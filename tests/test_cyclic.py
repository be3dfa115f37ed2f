"""Games whose states repeat: the exact solver against an independent linear-system solution.

The solver iterates inside each cycle; here the values it finds are checked
against exact ``Fraction`` arithmetic: the linear system of the policy it
plays (every state's value in terms of its children's, solved by Gaussian
elimination), and the optimality of that policy in the exact values (no move
is better for the player who has it). A game that ends with probability 1
whatever the players do has one solution of those equations, so together they
say the solver's values are right.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts import exact as exact
from fnmcts.exact import Solution, best_moves, evaluate_policy, random_policy, solve
from fnmcts.protocol import CHANCE, may_repeat
from small_games import TableGame, cyclic_table_games, table_games

TOLERANCE = 1e-9


def reachable(game) -> list:
    seen, stack = {game.start()}, [game.start()]
    while stack:
        state = stack.pop()
        for child in children(game, state):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return sorted(seen)


def children(game, state) -> list:
    who = game.to_move(state)
    if who is None:
        return []
    if who is CHANCE:
        return [game.play(state, o) for o, _ in game.chance_outcomes(state)]
    return [game.play(state, m) for m in game.possible_moves(state)]


def linear_values(game, weights_of) -> dict:
    """Exact values when every state's value is ``sum(w * child's value)``: ``weights_of(state)`` gives the
    ``(child, weight)`` pairs of a state that is not an end. Gaussian elimination over ``Fraction``."""
    states = reachable(game)
    unknown = [s for s in states if game.to_move(s) is not None]
    at = {s: k for k, s in enumerate(unknown)}
    players = game.num_players
    n = len(unknown)
    # rows: v_s - sum w v_child = sum w payoff(child) over the ends
    rows = []
    for s in unknown:
        row = [Fraction(0)] * n + [Fraction(0)] * players
        row[at[s]] += 1
        for child, w in weights_of(s):
            if child in at:
                row[at[child]] -= w
            else:
                for q, x in enumerate(game.payoff(child)):
                    row[n + q] += w * Fraction(x)
        rows.append(row)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        top = rows[c]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c] / top[c]
                rows[r] = [a - f * b for a, b in zip(rows[r], top)]
    values = {s: tuple(rows[at[s]][n + q] / rows[at[s]][at[s]] for q in range(players)) for s in unknown}
    for s in states:
        if s not in at:
            values[s] = tuple(Fraction(x) for x in game.payoff(s))
    return values


def chance_weights(game, state) -> list:
    return [(game.play(state, o), Fraction(p)) for o, p in game.chance_outcomes(state)]


def assert_close(found, expected):
    assert len(found) == len(expected)
    for a, b in zip(found, expected):
        assert abs(float(a) - float(b)) <= TOLERANCE, (found, expected)


def assert_optimal(game, solution):
    """The solver's values are those of its own policy, solved exactly, and no move beats that policy."""
    chosen = {}
    for s in solution:
        who = game.to_move(s)
        if who is not None and who is not CHANCE:
            chosen[s] = game.play(s, best_moves(game, solution, s)[0])

    def weights_of(s):
        return [(chosen[s], Fraction(1))] if s in chosen else chance_weights(game, s)

    exact_values = linear_values(game, weights_of)
    assert set(exact_values) == set(solution)
    for s, v in exact_values.items():
        assert_close(solution[s], v)
    for s, child in chosen.items():
        who = game.to_move(s)
        for other in children(game, s):
            assert exact_values[other][who] <= exact_values[s][who] + TOLERANCE, (s, other)


@pytest.mark.slow
@settings(max_examples=150)
@given(cyclic_table_games())
def test_solve_equals_the_linear_system_of_an_optimal_policy(game):
    solution = solve(game)
    assert isinstance(solution, Solution)
    assert solution.residual <= solution.tolerance
    assert_optimal(game, solution)


@settings(max_examples=100)
@given(cyclic_table_games(players=2))
def test_every_component_solved_by_value_tuples_agrees(game):
    fast = solve(game)
    with pytest.MonkeyPatch.context() as patch:  # the general sweeps, one tuple a state, for every component
        patch.setattr(exact, "_constant_sum", lambda ops, players: None)
        general = solve(game)
    assert set(fast) == set(general)
    for s in fast:
        assert_close(fast[s], general[s])
    assert_optimal(game, general)


@settings(max_examples=100)
@given(cyclic_table_games())
def test_random_play_equals_its_linear_system(game):
    values = evaluate_policy(game, random_policy, opponent=random_policy)

    def weights_of(s):
        if game.to_move(s) is CHANCE:
            return chance_weights(game, s)
        moves = game.possible_moves(s)
        return [(game.play(s, m), Fraction(1, len(moves))) for m in moves]

    expected = linear_values(game, weights_of)
    assert set(values) == set(expected)
    for s, v in expected.items():
        assert_close(values[s], v)


@pytest.mark.slow
@settings(max_examples=100)
@given(table_games())
def test_a_game_that_may_repeat_but_does_not_keeps_exact_fractions(game):
    declared = TableGame(game.table, game.num_players, True)
    assert may_repeat(declared) and not may_repeat(game)
    solution = solve(declared)
    assert solution == solve(game)
    assert solution.iterations == 0 and solution.components == 0 and solution.residual == 0
    assert all(type(x) is Fraction for v in solution.values() for x in v)


@settings(max_examples=50)
@given(cyclic_table_games(), st.data())
def test_a_cycle_is_still_an_error_in_a_game_that_does_not_declare_it(game, data):
    undeclared = TableGame(game.table, game.num_players, False)
    try:
        solve(undeclared)
    except ValueError as error:
        assert "cycle" in str(error) and "may_repeat" in str(error)
    else:  # no cycle is reachable from the start: both solvers agree exactly
        assert solve(game) == solve(undeclared)


def test_players_who_can_keep_play_going_forever_are_refused():
    # 0 and 1 hand the move to each other for ever if both like; 2 ends the game
    table = (("move", 0, (1, 2)), ("move", 1, (0, 2)), ("end", (1, -1)))
    with pytest.raises(ValueError, match=r"play can go on forever from [01]"):
        solve(TableGame(table, 2, True))
    # a chance node that never leads out
    loop = (("chance", ((0, Fraction(1)),)), ("end", (1, -1)))
    with pytest.raises(ValueError, match="play can never leave the cycle through 0"):
        solve(TableGame(loop, 2, True))


def test_a_reroll_until_decided_is_worth_its_odds():
    # a die: 6 wins for player 0, 4 or 5 for player 1, anything else rolls again
    table = (
        ("chance", ((1, Fraction(1, 6)), (2, Fraction(1, 3)), (0, Fraction(1, 2)))),
        ("end", (1, -1)),
        ("end", (-1, 1)),
    )
    solution = solve(TableGame(table, 2, True))
    assert_close(solution[0], (Fraction(-1, 3), Fraction(1, 3)))
    assert solution.components == 1 and solution.largest == 1 and solution.iterations <= 3


def test_tolerance_and_sweeps_are_checked_and_reported():
    table = (("chance", ((1, Fraction(1, 100)), (0, Fraction(99, 100)))), ("end", (1,)))
    game = TableGame(table, 1, True)
    for bad in (0, -1.0, float("nan"), "1e-9", True):
        with pytest.raises(ValueError, match="tolerance must be a positive number"):
            solve(game, tolerance=bad)
    with pytest.raises(ValueError, match="max_sweeps must be a positive whole number"):
        solve(game, max_sweeps=0)
    solution = solve(game, tolerance=1e-6)
    assert solution.tolerance == 1e-6 and abs(solution[0][0] - 1) <= 1e-6


def test_a_solution_is_an_immutable_map_that_pickles():
    table = (("chance", ((1, Fraction(1, 2)), (0, Fraction(1, 2)))), ("end", (1,)))
    solution = solve(TableGame(table, 1, True))
    with pytest.raises(AttributeError):
        solution.residual = 1.0
    copy = pickle.loads(pickle.dumps(solution))
    assert copy == solution and copy.iterations == solution.iterations and copy.residual == solution.residual
    assert dict(copy.items()) == dict(solution.items()) and "Solution(2 states" in repr(solution)


# -- Monte Carlo tree search and Q-learning on games whose states repeat ----------------------------

from functools import partial  # noqa: E402
import random  # noqa: E402

from hypothesis import HealthCheck  # noqa: E402
from pyrsistent import pmap  # noqa: E402

from fnmcts.mcts import mcts_move, search, uct, ucb, ucb1  # noqa: E402
from fnmcts.qlearning import train, optimal_move_rate  # noqa: E402

OPTIONS = st.fixed_dictionaries(
    {
        "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3))),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cyclic_table_games(), OPTIONS, st.integers(0, 2**32), st.integers(1, 100))
def test_search_on_a_game_that_repeats_equals_the_phases(game, opts, seed, dives):
    """The engine against ``uct`` (the phases of ``fnmcts.mcts.phases``) one dive at a time, draw for draw."""
    state = game.start()
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, rule=opts["rule"], backup=opts["backup"], solver=opts["solver"])
    one_at_a_time = pmap()
    check = random.Random(seed)
    for _ in range(dives):
        one_at_a_time, _ = uct(game, one_at_a_time, state, check, opts["rule"], backup=opts["backup"],
                               solver=opts["solver"])
    assert one_at_a_time == tree
    assert rng.random() == check.random()  # the same draws


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cyclic_table_games(), st.integers(0, 2**32), st.integers(1, 300))
def test_every_proof_in_a_game_that_repeats_is_its_value(game, seed, iterations):
    solution = solve(game)
    tree = search(game, game.start(), iterations, random.Random(seed), solver=True)
    for s, rec in tree.items():
        if "proven" in rec:
            assert_close(rec["proven"], solution[s])
    if game.to_move(game.start()) not in (None, CHANCE):
        found = mcts_move(game, game.start(), iterations, random.Random(seed))
        assert found.move in game.possible_moves(game.start())
        for s, v in found.proven.items():
            assert_close(v, solution[s])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cyclic_table_games(players=2), st.integers(0, 2**32))
def test_q_learning_trains_on_a_game_that_repeats(game, seed):
    ai = train(200, seed=seed, game=game)
    assert ai == train(200, seed=seed, game=game)
    winning = [s for s, v in solve(game).items() if game.to_move(s) not in (None, CHANCE) and v[game.to_move(s)] > 0]
    if winning:
        assert 0 <= optimal_move_rate(ai) <= 1
