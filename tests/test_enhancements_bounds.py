"""Score bounds (Cazenave and Saffidine), an option of the one descent: the engine equals the phases draw
for draw, every bound brackets the exact value, and where MCTS-Solver proves a state the bounds agree."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import solve, value
from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.mcts import mcts_move, mean, phases, search, search_options, uct, ucb, ucb1
from fnmcts.views import trace
from fnmcts.mcts._search import _repeat_uct

from small_games import BUILTIN_GAMES, TableGame, custom_rule, cyclic_table_games, search_games, table_games


games = search_games()
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3), custom_rule)),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_with_bounds_equals_the_phases_draw_for_draw(game, opts, seed, dives):
    state = game.start()
    by_phases = random.Random(seed)
    expected = _repeat_uct(game, state, dives, by_phases, bounds=True, **opts)
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, bounds=True, **opts)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 40))
def test_bounds_one_dive_at_a_time_and_continued_on_a_read_tree_grow_the_same_tree(game, opts, seed, n1, n2):
    state = game.start()
    whole = search(game, state, n1 + n2, random.Random(seed), bounds=True, **opts)
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(n1 + n2):
        tree, _ = uct(game, tree, state, rng, opts["rule"], backup=opts["backup"], solver=opts["solver"], bounds=True)
    assert dict(tree) == dict(whole)
    rng = random.Random(seed)
    first = search(game, state, n1, rng, bounds=True, **opts)
    again = search(game, state, n2, rng, tree=dict(first), bounds=True, **opts)  # a dict: bounds read from records
    assert dict(again) == dict(whole)


def _brackets(low, exact, high, tie=0):
    return all(lo - tie <= x <= hi + tie for lo, x, hi in zip(low, exact, high))


def _check_sound(game, tree, tie=0):
    exact = solve(game)
    for s, rec in dict(tree).items():
        if "bounds" in rec:
            low, high = rec["bounds"]
            assert _brackets(low, value(exact, s), high, tie), (s, rec["bounds"], value(exact, s))
        if "proven" in rec and "bounds" in rec and rec["bounds"][0] == rec["bounds"][1]:
            assert rec["proven"] == rec["bounds"][0]  # where both prove, the same value


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.sampled_from(BUILTIN_GAMES), table_games()), options, st.integers(0, 2**32), st.integers(1, 300))
def test_every_bound_brackets_the_exact_value(game, opts, seed, dives):
    """On acyclic games the exact values are fractions: the bounds hold them exactly, and a state whose
    bounds meet has its exact value; with the solver on, its proofs are the same values."""
    tree = search(game, game.start(), dives, random.Random(seed), bounds=True, **opts)
    _check_sound(game, tree)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cyclic_table_games(), st.booleans(), st.integers(0, 2**32), st.integers(1, 300))
def test_bounds_stay_sound_in_games_whose_states_repeat(game, solver, seed, dives):
    """The exact solver's values of a game with cycles are floats (within its tolerance): the bounds,
    exact fractions, bracket them within 1e-9."""
    tree = search(game, game.start(), dives, random.Random(seed), bounds=True, solver=solver, rule="ucb1")
    _check_sound(game, tree, tie=1e-9)


def _graded_game():
    """Two decisions and a chance node paying a score in [0, 1] (a graded game, not a win or a loss)."""
    table = [
        ("move", 0, (1, 2, 3)),
        ("chance", ((4, Fraction(1, 2)), (5, Fraction(1, 2)))),  # 3/8 on average
        ("move", 0, (6, 7)),  # 5/8 at best
        ("end", (Fraction(1, 8),)),
        ("end", (Fraction(1, 4),)),
        ("end", (Fraction(1, 2),)),
        ("end", (Fraction(5, 8),)),
        ("end", (Fraction(3, 8),)),
    ]
    return TableGame(tuple(table), num_players=1)


@pytest.mark.slow
@pytest.mark.parametrize("game", [TicTacToe(), ShutTheBox(levers=5), _graded_game()], ids=["tic-tac-toe", "shut-the-box-5", "graded"])
def test_bounds_solve_and_stay_sound_on_tic_tac_toe_and_graded_games(game):
    tree = search(game, game.start(), 3_000, random.Random(1), bounds=True, solver=False)
    _check_sound(game, tree)
    root = tree[game.start()]
    low, high = root["bounds"]
    assert all(lo <= hi for lo, hi in zip(low, high))
    if not isinstance(game, TicTacToe):  # small enough to be solved outright in 3,000 dives
        assert low == high == value(solve(game), game.start())


@pytest.mark.slow
def test_bounds_solve_draws_the_solver_leaves_open():
    """MCTS-Solver proves a decision when a child wins or every child is proven; bounds also when the
    open children cannot beat a proven draw. On tic-tac-toe, the same dives solve more states so."""
    game = TicTacToe()
    tree = search(game, game.start(), 5_000, random.Random(3), bounds=True)
    proven = sum(1 for r in dict(tree).values() if "proven" in r)
    solved = sum(1 for r in dict(tree).values() if "bounds" in r and r["bounds"][0] == r["bounds"][1])
    assert solved > proven
    _check_sound(game, tree)


def test_the_bounds_option_is_checked_and_carried_by_every_way_in():
    with pytest.raises(TypeError, match="bounds must be True or False"):
        search_options(bounds="yes")
    assert search_options(bounds=True).bounds is True and search_options().bounds is False
    game = Nim(heap=9, max_take=3)
    found = mcts_move(game, game.start(), 500, random.Random(2), bounds=True)
    assert "bounds" in found.tree[game.start()]
    t = trace(game, game.start(), 50, random.Random(5), rule="ucb1", bounds=True)
    assert t.tree(50) == search(game, game.start(), 50, random.Random(5), rule="ucb1", bounds=True)
    assert t.dive(50).path.end in ("new", "terminal", "proven")


def _reachable(game, rng, plies):
    state = game.start()
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(list(game.possible_moves(state))))
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([TicTacToe(), Nim(heap=9, max_take=3), Piles((1, 2, 2))]), st.randoms(use_true_random=False),
       st.integers(0, 5), st.integers(20, 400))
@pytest.mark.slow
def test_a_move_chosen_under_bounds_is_never_one_they_show_worse_and_exact_best_once_the_root_is_solved(
        game, rng, plies, dives):
    state = _reachable(game, rng, plies)
    if game.to_move(state) is None or len(game.possible_moves(state)) < 2:
        return
    player = game.to_move(state)
    found = mcts_move(game, state, dives, random.Random(rng.random()), bounds=True)
    exact = solve(game, state)
    best = max(exact[game.play(state, m)][player] for m in game.possible_moves(state))
    low, high = found.tree[state]["bounds"]
    if low == high:  # solved by its bounds: the search stops there and plays a move worth it
        assert exact[game.play(state, found.move)][player] == best == low[player]
        assert found.iterations <= dives


@pytest.mark.parametrize("state, seed", [((0, 2, 0, 0, 0, 1, 0, 1, 2), (1, 1328)), ((2, 0, 1, 1, 0, 0, 0, 0, 0), (1, 3534))])
def test_the_two_tic_tac_toe_decisions_once_lost_under_bounds_are_draws(state, seed):
    # the scoreboard's draw: the root's bounds met at a draw, yet the most visited child, a loss, was played
    from fnmcts.rng import child_seed

    game = TicTacToe()
    found = mcts_move(game, state, 1000, random.Random(child_seed(*seed)), bounds=True)
    assert solve(game, state)[game.play(state, found.move)] == (0, 0)


@pytest.mark.slow
def test_deriving_bounds_through_a_web_of_chance_nodes_reads_a_bounded_part_of_it():
    # A generated game whose states are chance nodes three times in four, rolls leading back and on: each dive
    # derived the bounds of its path through the whole web of chance nodes below (thousands of states, every
    # dive), more than 380,000 calls for the property's few dives. One derivation now reads at most
    # phases.BOUNDS_WALK states not stored, the rest the whole range (sound: the exact value lies in it), in the
    # engine as in the phases, draw for draw.
    from fnmcts.testing.games import SeededGame

    from test_search_property import CALLS_BASE, CALLS_PER_DIVE, calls_at_most

    game = SeededGame(seed=19872654, num_players=2, depth=20, width=224, branching=3, chance=77, stops=3, outcomes=4,
                      payoffs=((-1, 1), (-1, 1), (1, -1), (1, -1), (1, -1)), shrink=True, skip=1, repeats=True)
    with calls_at_most(CALLS_BASE + CALLS_PER_DIVE * 30):
        tree = search(game, game.start(), 30, random.Random(1), bounds=True)
    assert tree == _repeat_uct(game, game.start(), 30, random.Random(1), bounds=True)
    exact = solve(game)
    for state, rec in tree.items():
        if rec.get("bounds") is None:  # a state stored by the last dives: its bounds come with its next
            continue
        low, high = rec["bounds"]
        assert all(lo - 1e-9 <= x <= hi + 1e-9 for lo, x, hi in zip(low, exact[state], high))
