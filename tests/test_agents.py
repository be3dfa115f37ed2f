"""Agents: legal moves, optimal where theory says so, Monte Carlo against exact limits."""

import math
import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts import theory
from fnmcts.agents import (
    AGENTS,
    exact_agent,
    make_agent,
    montecarlo_agent,
    montecarlo_perfect_agent,
    perfect_agent,
    perfect_opponent_rollout,
    random_agent,
    win_rates,
)
from fnmcts.exact import best_moves, evaluate_policy, random_policy, solve
from fnmcts.games import Nim, Piles, ShutTheBox
from fnmcts.matches import playout
from fnmcts.tutorial import evaluate_position


@st.composite
def nim_positions(draw):
    game = Nim(heap=30, max_take=draw(st.integers(1, 6)), misere=draw(st.booleans()))
    return game, game.state(draw(st.integers(1, 30)), draw(st.integers(0, 1)))


@st.composite
def pile_positions(draw):
    piles = tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=4)))
    if not any(piles):
        piles = piles[:-1] + (1,)
    game = Piles(piles, misere=draw(st.booleans()))
    return game, game.state(piles, draw(st.integers(0, 1)))


positions = st.one_of(nim_positions(), pile_positions())


def _twins(rng):
    """Two independent generators in the same state, seeded from the drawn ``rng``."""
    seed = rng.getrandbits(64)
    return random.Random(seed), random.Random(seed)


@pytest.mark.slow
@given(positions, st.randoms(use_true_random=False))
def test_random_agent_plays_a_legal_move(position, rng):
    game, state = position
    assert random_agent(game, state, rng) in game.possible_moves(state)


@given(positions, st.randoms(use_true_random=False))
def test_perfect_agent_wins_from_every_winning_position(position, rng):
    game, state = position
    move = perfect_agent(game, state, rng)
    exact = best_moves(game, solve(game, state), state)
    if theory.mover_wins(game, state):
        assert move == exact[0]  # the first winning move, as the notebook's loop
    else:
        assert move in game.possible_moves(state)


@given(positions, st.randoms(use_true_random=False))
def test_exact_agent_plays_an_optimal_move(position, rng):
    game, state = position
    assert exact_agent(game, state, rng) == best_moves(game, solve(game, state), state)[0]
    assert exact_agent(game, state, rng, ties="random") in best_moves(game, solve(game, state), state)


@pytest.mark.slow
def test_exact_and_perfect_agents_play_shut_the_box_by_the_exact_solver():
    from pyrsistent import pmap

    game = ShutTheBox()
    state = pmap({"box": game.start(), "roll": 9})
    solution = solve(game)
    assert exact_agent(game, state) == best_moves(game, solution, state)[0]
    assert exact_agent(game, state, solution=solution) == exact_agent(game, state)
    # no closed form: the perfect agent plays the exact solver's first optimal move
    assert perfect_agent(game, state, random.Random(1)) == best_moves(game, solution, state)[0]
    assert make_agent("perfect", game=game)(game, state, random.Random(1)) == best_moves(game, solution, state)[0]
    assert make_agent("exact", game=game).keywords["solution"] == solution
    with pytest.raises(ValueError, match="ties"):
        exact_agent(Nim(), Nim().start(), ties="best")


@given(nim_positions(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_nim_playout_kernel_is_the_generic_playout(position, which, rng):
    """The integer kernel draws exactly as the agents do, so it returns the same winner."""
    game, state = position
    rollout = [(random_agent, random_agent), (perfect_agent, random_agent), (random_agent, perfect_agent),
               (perfect_agent, perfect_agent)][which]
    rng, twin = _twins(rng)
    end = playout(game, state, twin, rollout)
    winner = 0 if game.payoff(end)[0] > 0 else 1
    perfect = tuple(a is perfect_agent for a in rollout)
    assert game.rollout_payoff(state, rng, perfect) == game.payoff(end)
    assert (0 if game.payoff(end)[0] > 0 else 1) == winner
    assert rng.getstate() == twin.getstate()


@given(nim_positions(), st.randoms(use_true_random=False))
def test_win_rates_kernel_and_generic_path_agree(position, rng):
    game, state = position
    rng, twin = _twins(rng)
    slow_random = partial(random_agent)  # not the registered function: takes the generic path
    assert win_rates(game, state, rng, trials=5) == win_rates(game, state, twin, trials=5, rollout=slow_random)


def _limit(game, state, policy) -> dict:
    """The exact win probability of the mover after each move, others following ``policy``."""
    me = game.to_move(state)
    children = {m: game.play(state, m) for m in game.possible_moves(state)}
    values = evaluate_policy(game, policy, *children.values(), **({} if isinstance(policy, tuple) else {"opponent": policy}))
    return {m: (values[c][me] + 1) / 2 for m, c in children.items()}


def _perfect_policy(game, state):
    win = theory.winning_moves(game, state)
    return ((win[0], Fraction(1)),) if win else random_policy(game, state)


def _within(estimate, p, trials, sigmas=5):
    return abs(estimate - float(p)) <= sigmas * math.sqrt(float(p * (1 - p)) / trials) + 1e-12


@pytest.mark.parametrize("game", [Nim(heap=9, misere=False), Nim(heap=11, misere=True), Piles((1, 2, 3))])
def test_win_rates_match_the_exact_random_play_limit(game):
    state = game.start()
    exact = _limit(game, state, random_policy)
    for move, rate in win_rates(game, state, random.Random(7), trials=4000):
        assert _within(rate, exact[move], 4000), (move, rate, exact[move])


@pytest.mark.slow
@pytest.mark.parametrize("game", [Nim(heap=13, misere=True), Piles((2, 3, 4), misere=False)])
def test_perfect_opponent_win_rates_match_the_exact_limit(game):
    state = game.start()
    me = game.to_move(state)
    policies = tuple(random_policy if p == me else _perfect_policy for p in range(2))
    exact = _limit(game, state, policies)
    rates = win_rates(game, state, random.Random(3), trials=4000, rollout=perfect_opponent_rollout(game, me))
    for move, rate in rates:
        assert _within(rate, exact[move], 4000), (move, rate, exact[move])
        if move not in theory.winning_moves(game, state):
            assert rate == exact[move] == 0  # a perfect opponent never lets a losing move win


def _check_limit_best_move(misere, trials, sigmas=6):
    """Where the limit's best move leads the runner-up by ``sigmas`` standard deviations
    of a difference of two estimates, ``trials`` playouts a move find it."""
    checked = 0
    for n in range(2, 16):
        game = Nim(heap=n, misere=misere)
        limit = _limit(game, game.start(), random_policy)
        ranked = sorted(limit.values(), reverse=True)
        if len(ranked) > 1 and ranked[0] - ranked[1] < sigmas * math.sqrt(0.5 / trials):
            continue
        best = max(limit, key=limit.get)
        assert montecarlo_agent(game, game.start(), random.Random(n), trials=trials) == best, n
        checked += 1
    return checked


@pytest.mark.parametrize("misere", [True, False])
def test_montecarlo_picks_the_limit_best_move_when_the_gap_is_clear(misere):
    assert _check_limit_best_move(misere, 4000) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("misere", [True, False])
def test_montecarlo_picks_the_limit_best_move_with_many_trials(misere):
    assert _check_limit_best_move(misere, 200_000) >= 8


def test_flat_monte_carlo_limit_is_wrong_for_every_winning_21_game_heap_from_14():
    """The 21 game (normal play, K = 3): infinitely many trials still choose a losing move
    from every winning heap of 14..30 (at 31 the limit happens to be right again)."""
    for n in range(14, 31):
        game = Nim(heap=n, max_take=3, misere=False)
        if not theory.mover_wins(game, game.start()):
            continue
        limit = _limit(game, game.start(), random_policy)
        assert max(limit, key=limit.get) not in theory.winning_moves(game, game.start()), n
    for n in range(2, 14):  # ... and right below 14
        game = Nim(heap=n, max_take=3, misere=False)
        if theory.mover_wins(game, game.start()):
            limit = _limit(game, game.start(), random_policy)
            assert max(limit, key=limit.get) in theory.winning_moves(game, game.start()), n


def test_montecarlo_perfect_finds_the_winning_move():
    for n in range(2, 25):
        game = Nim(heap=n, misere=True)
        state = game.start()
        win = theory.winning_moves(game, state)
        if not win:
            continue
        me = game.to_move(state)
        policies = tuple(random_policy if p == me else _perfect_policy for p in range(2))
        p = _limit(game, state, policies)[win[0]]
        # the winning move wins a playout with probability p, a losing one never:
        # with this many trials, the chance that the winning move wins none is below 1e-9
        trials = 1 if p == 1 else math.ceil(math.log(1e-9) / math.log(1 - float(p)))
        assert trials < 5000
        assert montecarlo_perfect_agent(game, state, random.Random(n), trials=trials) == win[0]


def test_evaluate_position_is_reliable_below_10_items():
    for n in range(1, 10):
        if n % 4:
            assert evaluate_position(n, 10_000, seed=n) == n % 4
    assert evaluate_position(5, 100, seed=1) == evaluate_position(5, 100, rng=random.Random(1))
    with pytest.raises(ValueError):
        evaluate_position(0, 10)
    with pytest.raises(ValueError):
        evaluate_position(5, 10, seed=1, rng=random.Random(1))


def test_same_seed_same_move():
    game = Nim(heap=21, misere=False)
    a = montecarlo_agent(game, game.start(), random.Random(5), trials=300)
    b = montecarlo_agent(game, game.start(), random.Random(5), trials=300)
    assert a == b


def test_registry_names_and_errors():
    assert {"random", "perfect", "montecarlo", "montecarlo-perfect", "mcts", "exact", "q"} <= set(AGENTS)
    assert make_agent("random") is random_agent
    assert make_agent("exact") is exact_agent
    game = Nim(heap=7)
    assert make_agent("montecarlo-perfect", trials=50)(game, game.start(), random.Random(1)) == 2
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("alphazero")
    with pytest.raises(TypeError, match="option"):
        make_agent("random", trials=5)
    with pytest.raises(ValueError, match="trials"):
        make_agent("montecarlo", trials=0)
    with pytest.raises(ValueError, match="q_table"):
        make_agent("q")


def test_mcts_through_the_registry():
    pytest.importorskip("fnmcts.mcts")
    game = Nim(heap=6, max_take=3, misere=True)
    agent = make_agent("mcts", iterations=2000)
    assert agent(game, game.start(), random.Random(1)) == 1  # leave 5 = 1 mod 4


def test_montecarlo_plays_shut_the_box_against_the_exact_values():
    """One player, dice: the Monte Carlo agent's win rates estimate the exact random-play values."""
    from pyrsistent import pmap

    game = ShutTheBox(simplified=False)
    state = pmap({"box": frozenset({1, 2, 3, 4}), "roll": 5})
    trials = 3000
    rates = dict(win_rates(game, state, random.Random(2), trials=trials))
    children = {m: game.play(state, m) for m in game.possible_moves(state)}
    exact = evaluate_policy(game, random_policy, *children.values(), opponent=random_policy)
    for move, child in children.items():
        assert _within(rates[move], exact[child][0], trials), move
    assert montecarlo_agent(game, state, random.Random(2), trials=trials) in game.possible_moves(state)


@pytest.mark.parametrize("seed", range(4))
def test_default_mcts_agent_finds_the_bouton_move_on_a_hard_piles_position(seed):
    # (1, 3, 5, 6): only (0, 1), (1, 1) and (2, 1) win; 1,000 iterations used to miss them
    from fnmcts.agents import mcts_agent
    from fnmcts.theory import winning_moves

    game = Piles((1, 3, 5, 7))
    state = game.state((1, 3, 5, 6))
    assert mcts_agent()(game, state, random.Random(seed)) in winning_moves(game, state)
