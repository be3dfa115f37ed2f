"""The protocol functions, randomness, exact values and the public API."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st
from pyrsistent import PMap

import fnmcts
from fnmcts import protocol as protocol
from fnmcts.exact import best_moves, evaluate_policy, random_policy, solve, value
from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.rng import DICE_PROBABILITIES, ROLL_OF_36, child_seed, dice_roll, make_rng


def test_public_api_is_curated_and_importable():
    assert len(fnmcts.__all__) == len(set(fnmcts.__all__))
    for name in fnmcts.__all__:
        assert hasattr(fnmcts, name), name
    for name in ("simulate", "solve", "possible_moves", "play", "CHANCE", "GAMES"):
        assert name in fnmcts.__all__
    for name in ("ShutTheBox", "Nim", "Piles"):  # the game classes: fnmcts.games (the top level: deprecated)
        assert name in fnmcts.games.__all__ and name not in fnmcts.__all__


def test_dice_probabilities_are_the_two_dice_sums():
    counts = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    assert dict(DICE_PROBABILITIES) == {s: Fraction(c, 36) for s, c in counts.items()}
    assert sum(p for _, p in DICE_PROBABILITIES) == 1
    assert Counter(ROLL_OF_36) == counts


@given(st.integers(0, 2**40))
def test_dice_roll_is_the_generic_chance_draw(seed):
    # the fast dice_roll and the protocol's generic sampler pick the same roll
    game = ShutTheBox()
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(20):
        assert dice_roll(a) == protocol.GameBase.sample_outcome(game, start_box, b)


def test_dice_frequencies_within_five_sigma():
    rng, n = make_rng(1), 360_000
    counts = Counter(dice_roll(rng) for _ in range(n))
    for total, p in DICE_PROBABILITIES:
        p = float(p)
        assert abs(counts[total] - n * p) < 5 * (n * p * (1 - p)) ** 0.5


def test_seeds_are_explicit_and_reproducible():
    assert make_rng(5).random() == make_rng(5).random()
    rng = random.Random(1)
    assert make_rng(rng=rng) is rng
    with pytest.raises(TypeError):
        make_rng(rng="not an rng")
    with pytest.raises(ValueError):
        make_rng(-1)


@given(st.integers(0, 2**63), st.integers(0, 10_000))
def test_child_seeds_are_deterministic_and_distinct(seed, index):
    assert child_seed(seed, index) == child_seed(seed, index)
    assert child_seed(seed, index) != child_seed(seed, index + 1)
    assert 0 <= child_seed(seed, index) < 2**63


def test_global_random_module_is_never_touched():
    random.seed(123)
    expected = random.random()
    random.seed(123)
    fnmcts.simulate(ShutTheBox(), 2_000, seed=1)
    fnmcts.simulate(Nim(heap=9), 200, seed=1)
    assert random.random() == expected


def test_chance_is_a_named_singleton():
    assert repr(fnmcts.CHANCE) == "CHANCE"
    assert protocol._Chance() is fnmcts.CHANCE
    import pickle

    assert pickle.loads(pickle.dumps(fnmcts.CHANCE)) is fnmcts.CHANCE


def test_generic_sampler_rejects_bad_probabilities():
    class Bad(protocol.GameBase):
        def chance_outcomes(self, state):
            return (("a", Fraction(1, 2)), ("b", Fraction(1, 3)))

    with pytest.raises(protocol.GameError, match=r"chance_outcomes\(None\) returned probabilities that sum to 5/6, not 1"):
        Bad().sample_outcome(None, random.Random(0))


@st.composite
def nim_games(draw):
    return Nim(heap=draw(st.integers(0, 25)), max_take=draw(st.integers(1, 6)), misere=draw(st.booleans()))


@given(nim_games())
def test_solved_values_satisfy_their_recursion(game):
    solution = solve(game)
    for state, v in solution.items():
        player = game.to_move(state)
        if player is None:
            assert v == game.payoff(state)
        else:
            children = [solution[game.play(state, m)] for m in game.possible_moves(state)]
            assert v[player] == max(c[player] for c in children)
            assert sum(v) == 0


@given(nim_games())
def test_subtraction_game_values_follow_the_mod_rule(game):
    # normal play: the mover loses exactly when heap % (K+1) == 0;
    # misere: exactly when heap % (K+1) == 1 (taking the last item loses)
    solution = solve(game)
    state = game.start()
    losing = game.heap % (game.max_take + 1) == (1 if game.misere else 0)
    if game.heap == 0:
        return
    assert (value(solution, state)[0] == -1) == losing
    if not losing:
        for move in best_moves(game, solution, state):
            assert (game.heap - move) % (game.max_take + 1) == (1 if game.misere else 0)


def test_piles_values_follow_boutons_rule():
    game = Piles((1, 3, 5, 7))
    solution = solve(game)
    for state, v in solution.items():
        piles = state["piles"]
        if not any(piles):
            continue
        nim_sum = 0
        for p in piles:
            nim_sum ^= p
        if all(p <= 1 for p in piles):
            mover_wins = (sum(piles) % 2 == 0)  # misere endgame: leave an odd number of ones
        else:
            mover_wins = nim_sum != 0
        assert (v[state["player"]] == 1) == mover_wins


@pytest.mark.slow
def test_shut_the_box_optimal_beats_random_and_values_are_probabilities():
    game = ShutTheBox()
    optimal = value(solve(game), start_box)[0]
    random_play = value(evaluate_policy(game, random_policy), start_box)[0]
    assert 0 < random_play < optimal < 1
    assert isinstance(optimal, Fraction)


def test_solutions_are_immutable_maps():
    solution = solve(Nim(heap=5))
    assert isinstance(solution, PMap)
    with pytest.raises(KeyError, match="not in this solution"):
        value(solution, Nim(heap=9).start())


def test_policy_errors_are_named():
    game = Nim(heap=3)

    def greedy_but_wrong(game, state):
        return ((99, Fraction(1)),)

    with pytest.raises(ValueError, match="not possible"):
        evaluate_policy(game, greedy_but_wrong)


@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.booleans())
def test_piles_moves_take_from_one_pile(piles, misere):
    game = Piles(tuple(piles), misere)
    state = game.start()
    for i, j in game.possible_moves(state):
        after = game.play(state, (i, j))["piles"]
        assert sum(piles) - sum(after) == j
        assert [k for k in range(len(piles)) if after[k] != piles[k]] == [i]
    assert len(game.possible_moves(state)) == sum(piles)


def test_bad_game_parameters_are_named():
    with pytest.raises(ValueError, match="max_take"):
        Nim(heap=5, max_take=0)
    with pytest.raises(TypeError, match="heap"):
        Nim(heap="21")
    with pytest.raises(ValueError, match="non-negative"):
        Piles((1, -3))
    with pytest.raises(ValueError, match="illegal move"):
        Nim(heap=2).play(Nim(heap=2).start(), 3)
    with pytest.raises(ValueError, match="illegal move"):
        Piles((1, 2)).play(Piles((1, 2)).start(), (0, 2))


@given(st.lists(st.integers(0, 5), min_size=1, max_size=4), st.booleans(), st.integers(0, 1), st.integers(0, 2**32))
def test_piles_random_payoff_kernel_is_the_random_playout(piles, misere, player, seed):
    from fnmcts.montecarlo import playout

    game = Piles(tuple(piles), misere)
    state = game.state(tuple(piles), player)
    a, b = random.Random(seed), random.Random(seed)
    if game.to_move(state) is None:
        return
    assert game.random_payoff(state, a) == game.payoff(playout(game, state, b))
    assert a.random() == b.random()  # the same draws consumed


@given(nim_games(), st.integers(0, 1), st.integers(0, 2**32))
def test_nim_random_payoff_kernel_is_the_random_playout(game, player, seed):
    from fnmcts.montecarlo import playout

    state = game.state(game.heap, player)
    if game.to_move(state) is None:
        return
    a, b = random.Random(seed), random.Random(seed)
    assert game.random_payoff(state, a) == game.payoff(playout(game, state, b))
    assert a.random() == b.random()
