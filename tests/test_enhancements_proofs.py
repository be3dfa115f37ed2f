"""Shallow proofs (``proofs=d``), an option of the one descent: every proof is the exact value, the engine equals
the phases draw for draw, and on tic-tac-toe the proofs find the one safe reply that 100 dives alone miss."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import best_moves, solve, value
from fnmcts.games import Nim, Pig, TicTacToe
from fnmcts.mcts import mcts_agent, mcts_move, search, search_options, uct, ucb, ucb1
from fnmcts.views import trace
from fnmcts.mcts._search import _repeat_uct
from fnmcts.mcts.enhancements import ProvingGame, forced_win, shallow_proof, with_proofs
from fnmcts.protocol import CHANCE

from small_games import TableGame, custom_rule, cyclic_table_games, search_games, table_games


def _same(found, exact, tie=1e-9):
    """A proof equals the exact value (within ``tie``: the exact values of games whose states repeat are floats)."""
    return len(found) == len(exact) and all(abs(f - x) <= tie for f, x in zip(found, exact))


def _states(game, limit=20_000):
    """Every state reachable from the start (at most ``limit``)."""
    seen, todo = {game.start()}, [game.start()]
    while todo and len(seen) < limit:
        state = todo.pop()
        who = game.to_move(state)
        if who is None:
            continue
        steps = [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state)
        for step in steps:
            after = game.play(state, step)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(table_games(), cyclic_table_games()), st.integers(1, 6))
@example(TableGame((("move", 1, (1, 2)), ("move", 0, (2, 5)), ("chance", ((5, Fraction(1, 5)), (0, Fraction(4, 5)))),
                    ("move", 0, (4,)), ("move", 0, (5,)), ("end", (1, -1))), 2, repeats=True), 1)  # exact: 1.0000000000000002
@pytest.mark.slow
def test_every_shallow_proof_is_the_exact_value(game, depth):
    exact = solve(game)
    for state in _states(game):
        found = shallow_proof(game, state, depth)
        if found is not None:
            assert _same(found, value(exact, state)), (state, found, value(exact, state))


@pytest.mark.parametrize("game", [TicTacToe(), Nim(heap=9, max_take=3), Nim(heap=8, max_take=2, misere=False)])
def test_shallow_proofs_on_whole_games_are_exact_and_find_every_short_win(game):
    exact = solve(game)
    low, high = -1, 1
    for state in _states(game):
        who = game.to_move(state)
        found = shallow_proof(game, state, 3)
        if found is not None:
            assert tuple(found) == tuple(value(exact, state))
        if who is not None and forced_win(game, state, who, 1):  # a win at once is always found
            assert found is not None and found[who] == high
        if found is not None and who is not None and found[who] == low:  # a proven loss: every move loses
            assert all(value(exact, game.play(state, m))[who] == low for m in game.possible_moves(state))


games = search_games()
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3), custom_rule)),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
        "proofs": st.integers(1, 4),
    }
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_with_proofs_equals_the_phases_draw_for_draw(game, opts, seed, dives):
    state = game.start()
    by_phases = random.Random(seed)
    expected = _repeat_uct(game, state, dives, by_phases, **opts)
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, **opts)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 60))
def test_every_value_proven_with_proofs_is_exact(game, opts, seed, dives):
    state = game.start()
    tree = search(game, state, dives, random.Random(seed), **opts)
    exact = solve(game)
    for s, rec in dict(tree).items():
        if "proven" in rec:
            assert _same(rec["proven"], value(exact, s)), (s, rec, value(exact, s))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 40))
def test_proofs_one_dive_at_a_time_and_continued_grow_the_same_tree(game, opts, seed, n1, n2):
    state = game.start()
    whole = search(game, state, n1 + n2, random.Random(seed), **opts)
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(n1 + n2):
        tree, _ = uct(game, tree, state, rng, opts["rule"], backup=opts["backup"], solver=opts["solver"],
                      proofs=opts["proofs"])
    assert dict(tree) == dict(whole)
    rng = random.Random(seed)
    first = search(game, state, n1, rng, **opts)
    assert dict(search(game, state, n2, rng, tree=dict(first), **opts)) == dict(whole)


def test_the_trace_with_proofs_is_the_search():
    game = TicTacToe()
    t = trace(game, game.start(), 60, random.Random(3), rule="ucb1", proofs=3)
    assert t.tree(60) == search(game, game.start(), 60, random.Random(3), rule="ucb1", proofs=3)
    assert t.dive(60).path.leaf is not None  # a dive replays through the same view


# After X's corner only the centre keeps the draw, after the centre only a corner. 100 dives
# alone play a losing reply in about a third of the searches after the corner (the figures of
# benchmarks/bench_vs_mctsbot.py); with proofs of 4 plies every losing reply is proven lost
# (X forks within 4 plies of it), so the search cannot choose one.
@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 4, 1])
def test_with_proofs_100_dives_keep_the_draw_after_every_first_move(first):
    game = TicTacToe()
    exact = solve(game)
    state = game.play(game.start(), first)
    good = best_moves(game, exact, state)
    moves = [mcts_move(game, state, 100, random.Random(seed), proofs=4).move for seed in range(20)]
    assert all(m in good for m in moves), moves


def test_proofs_are_checked_and_carried_by_every_way_in():
    game = TicTacToe()
    assert search_options(proofs=3).proofs == 3 and search_options().proofs == 0
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="proofs is a depth in plies"):
            search_options(proofs=bad)
    with pytest.raises(ValueError, match="one or two players"):
        with_proofs(_ThreePlayers(), 2, 0)
    state = (1, 2, 0, 0, 0, 0, 0, 0, 0)  # X wins by force
    agent = mcts_agent(50, proofs=5)
    assert agent(game, state, random.Random(1)) in best_moves(game, solve(game), state)
    tree, _ = uct(game, pmap(), game.start(), random.Random(1), proofs=2)
    assert len(tree) == 1
    assert mcts_move(game, game.start(), 40, random.Random(1), proofs=2, workers=2).move in range(9)
    assert with_proofs(game, 0, game.start()) is game
    view = with_proofs(game, 3, game.start())
    assert isinstance(view, ProvingGame) and view == with_proofs(game, 3, game.start())
    assert view.to_move(game.start()) == 0  # the root is never ended


def test_in_pig_a_roll_of_one_can_always_come_so_nothing_is_proven():
    # a proof needs every outcome of the dice: in Pig the turn ends at the goal by itself, and
    # before it a roll of 1 may always come, so no player forces a win from any state
    game = Pig(goal=10)
    states = _states(game)
    assert len(states) > 1_000
    assert all(shallow_proof(game, state, 4) is None for state in states)


class _ThreePlayers:
    num_players = 3

    def start(self):
        return 0

    def to_move(self, state):
        return None


def test_proofs_given_as_options_reach_the_one_dive_and_search_paths_alike():
    # ``uct`` and ``search`` resolve options given alone once and keep them for the next call:
    # the proofs must come along that way too
    game = TicTacToe()
    options = search_options(game, proofs=3)
    tree, rng = pmap(), random.Random(1)
    for _ in range(80):
        tree, _ = uct(game, tree, game.start(), rng, options=options)
    expected = _repeat_uct(game, game.start(), 80, random.Random(1), proofs=3)
    assert dict(tree) == dict(expected)
    for _ in range(2):
        assert dict(search(game, game.start(), 80, random.Random(1), options=options)) == dict(expected)
    assert dict(search(game, game.start(), 80, random.Random(1))) != dict(expected)


def test_the_proofs_a_move_rests_on_are_in_its_result():
    """A tree continued from a proven root runs no dive, and the move rests on proofs the shallow proofs make at sight
    (a roll that always ends the game): ``found.proven`` names them, so the move is seen to be a proven win."""
    from fnmcts.testing.games import TableGame as Table

    one = Fraction(1)
    game = Table(table=(("move", 0, (6, 1, 2, 6)), ("chance", ((6, one),)), ("chance", ((6, one / 3), (4, 2 * one / 3))),
                        ("chance", ((6, 5 * one / 7), (1, 2 * one / 7))), ("move", 0, (5, 5)),
                        ("chance", ((6, one / 3), (4, 2 * one / 3))), ("end", (1,))),
                 num_players=1, repeats=True, span=None, tables=True)
    options = dict(solver=True, proofs=2, rule="tutorial", root="gumbel")
    earlier = search(game, 0, 2, random.Random(1094), **options)
    found = mcts_move(game, 0, 11, random.Random(1093), tree=earlier, final="mean", **options)
    assert found.iterations == 0  # the root was proven by the earlier search
    child = game.play(0, found.move)
    proof = found.proven.get(child, game.payoff(child) if game.to_move(child) is None else None)
    assert proof == (one,)
