"""A policy's value in a game of two players: scored against a named opponent, optimal unless told.

Before, ``evaluate_policy(game, policy)`` let ``policy`` play both sides, so a
policy learned by self-play could be scored above the optimum (a dice race:
0.6107 against 0.5954). And ``win_probability`` returned an expected payoff
from -1 to 1 on games of two players.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts.exact import (
    OPTIMAL,
    evaluate_policy,
    expected_payoff,
    optimal_policy,
    random_policy,
    solve,
    win_probability,
)
from fnmcts.games import Nim, Pig, TicTacToe
from fnmcts.mcts import search
from fnmcts.views import greedy_policy

from small_games import table_games


@st.composite
def fixed_policies(draw):
    """A deterministic policy: at each state, the move its own drawn index picks."""
    picks = draw(st.lists(st.integers(0, 3), min_size=20, max_size=20))

    def policy(game, state):
        moves = game.possible_moves(state)
        return ((moves[picks[hash(state) % len(picks)] % len(moves)], Fraction(1)),)

    return policy


@pytest.mark.slow
@given(table_games(players=2), fixed_policies(), st.integers(0, 1))
def test_no_policy_is_worth_more_than_the_optimum_against_the_default_opponent(game, policy, player):
    if game.to_move(0) is None:
        return
    optimum = solve(game)[0][player]
    assert evaluate_policy(game, policy, player=player)[0][player] <= optimum
    assert evaluate_policy(game, optimal_policy(solve(game)), player=player)[0][player] == optimum


@given(table_games(players=2), fixed_policies(), fixed_policies())
def test_a_named_opponent_is_the_tuple_of_the_two_policies(game, policy, other):
    if game.to_move(0) is None:
        return
    assert evaluate_policy(game, policy, opponent=other) == evaluate_policy(game, (policy, other))
    assert evaluate_policy(game, policy, opponent=other, player=1) == evaluate_policy(game, (other, policy))


def test_a_learned_policy_is_scored_against_optimal_play_not_against_itself():
    # a dice race: the greedy policy of a search, self-play against the default
    game = Pig(goal=12)
    start = game.start()
    optimum = solve(game)[start][0]
    found = None
    for seed in range(1, 40):
        policy = greedy_policy(search(game, start, 300, random.Random(seed)))
        itself = evaluate_policy(game, policy, opponent=policy)[start][0]
        scored = evaluate_policy(game, policy)[start][0]
        assert scored <= optimum + 1e-12  # never above the optimum
        if itself > optimum + 1e-9:
            found = (itself, scored)
            break
    assert found is not None  # self-play does flatter some learned policy above the optimum


@pytest.mark.slow
@given(table_games(players=2), fixed_policies(), st.integers(0, 1))
def test_win_probability_is_a_probability(game, policy, player):
    # zero-sum payoffs of 1, 0 and -1: a player's expected payoff is its chance of winning less its chance of losing
    if game.to_move(0) is None:
        return
    for plays in (None, (policy, random_policy), (random_policy, policy), (policy, policy)):
        mine = win_probability(game, policy=plays, player=player)
        theirs = win_probability(game, policy=plays, player=1 - player)
        assert 0 <= mine <= 1 and 0 <= theirs <= 1 and mine + theirs <= 1
        assert expected_payoff(game, policy=plays, player=player) == mine - theirs
    # one policy plays the named seat, the opponent the other: the same as the tuple
    assert win_probability(game, policy=policy, player=player) == win_probability(
        game, policy=tuple(policy if i == player else optimal_policy(solve(game)) for i in (0, 1)), player=player)


@pytest.mark.slow
def test_win_probability_of_the_built_in_games():
    nim = Nim(heap=6, max_take=3)  # misère: the first player wins
    assert (win_probability(nim), win_probability(nim, player=1)) == (1, 0)
    ttt = TicTacToe()  # a draw: nobody wins under optimal play
    assert win_probability(ttt) == win_probability(ttt, player=1) == 0
    # random against random on tic-tac-toe: X wins 737/1260 of games (a count over all 255,168 games, weighted)
    x_wins = win_probability(ttt, policy=random_policy, opponent=random_policy)
    o_wins = win_probability(ttt, policy=random_policy, opponent=random_policy, player=1)
    assert round(float(x_wins), 4) == 0.5849 and round(float(o_wins), 4) == 0.2881
    pig = Pig(goal=10)
    payoff = solve(pig)[pig.start()][0]
    assert win_probability(pig) == pytest.approx((1 + payoff) / 2, abs=1e-12)


def test_bad_arguments_are_named():
    nim = Nim(heap=5)
    with pytest.raises(TypeError, match="policy must be a function"):
        evaluate_policy(nim, None)
    with pytest.raises(TypeError, match="opponent must be a function"):
        evaluate_policy(nim, random_policy, opponent=3)
    with pytest.raises(ValueError, match="opponent is 'optimal' or a policy"):
        evaluate_policy(nim, random_policy, opponent="perfect")
    with pytest.raises(TypeError, match="one policy and its opponent=, not both"):
        evaluate_policy(nim, (random_policy, random_policy), opponent=random_policy)
    with pytest.raises(ValueError, match="one per player: 2 for this game, got 1"):
        evaluate_policy(nim, (random_policy,))
    with pytest.raises(ValueError, match="player is the seat the policy plays, 0 to 1"):
        evaluate_policy(nim, random_policy, player=2)
    with pytest.raises(TypeError, match="opponent= goes with a policy"):
        win_probability(nim, opponent=random_policy)
    assert OPTIMAL == "optimal"
