"""Monte Carlo records, intervals, seeds, chunks and executors."""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, strategies as st

from fnmcts.games import coin, darts
from fnmcts.games.nim import Nim
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.montecarlo import Simulation, estimate, playout, simulate, wilson_interval
from fnmcts.parallel import chunks, make_executor
from fnmcts.exact import evaluate_policy, random_policy


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_wilson_interval_contains_the_estimate_and_stays_in_range(a, b):
    wins, games = min(a, b), max(a, b)
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= high <= 1
    if games:
        assert low <= wins / games <= high


def test_wilson_interval_matches_a_hand_computation():
    # p = 0.5, n = 100, z = 1.96: centre 0.5, half width 1.96*sqrt(.25/100 + 1.96^2/40000)/(1 + 1.96^2/100)
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 100 + z * z / 40000) / (1 + z * z / 100)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)


@given(st.integers(0, 1000), st.integers(0, 1000))
def test_records_add_up(w, extra):
    record = Simulation.of(w, w + extra, seed=3)
    assert record.win + record.loss == record.games
    assert record.merge(record).games == 2 * record.games
    with pytest.raises(AttributeError):
        record.win = 0  # immutable
    assert set(record.to_json()) >= {"games", "wins", "estimate", "ci_low", "ci_high"}


@given(st.integers(0, 3000), st.integers(1, 700))
def test_chunks_cover_the_trials_in_order(n, size):
    parts = chunks(n, size)
    assert sum(s for _, s in parts) == n
    assert [i for i, _ in parts] == list(range(len(parts)))
    assert all(s == size for _, s in parts[:-1])


def test_same_seed_same_record_whatever_the_executor():
    game = ShutTheBox()
    serial = simulate(game, 30_000, seed=9, chunk_size=4_000)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate(game, 30_000, seed=9, chunk_size=4_000, executor=pool)
    with make_executor(2) as pool:
        processes = simulate(game, 30_000, seed=9, chunk_size=4_000, executor=pool)
    assert serial == threaded == processes


def test_estimate_is_reproducible_and_seed_sensitive():
    a = estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=5)
    assert a == estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=5)
    assert a.seed == 5
    assert a != estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=6)


def test_an_rng_supplies_the_seed_and_is_consumed():
    rng = random.Random(4)
    first = estimate(coin.flip_coin, 100, win=coin.is_win, rng=rng)
    second = estimate(coin.flip_coin, 100, win=coin.is_win, rng=rng)
    assert first.seed != second.seed
    with pytest.raises(ValueError, match="not both"):
        estimate(coin.flip_coin, 1, seed=1, rng=random.Random(1))


def test_progress_reports_every_trial():
    seen = []
    simulate(ShutTheBox(), 10_500, seed=1, chunk_size=1_000, progress=seen.append)
    assert sum(seen) == 10_500 and len(seen) == 11


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_bad_counts_are_named(bad):
    with pytest.raises((TypeError, ValueError), match="number of"):
        simulate(ShutTheBox(), bad, seed=1)


@pytest.mark.parametrize("bad", [-3, "x", 1.5])
def test_bad_seeds_are_named(bad):
    with pytest.raises((TypeError, ValueError), match="seed"):
        coin.simulate(10, seed=bad)


def test_coin_is_fair_within_five_sigma():
    n = 400_000
    record = coin.simulate(n, seed=2017)
    assert abs(record.win - n / 2) < 5 * math.sqrt(n / 4)


def test_darts_estimate_pi_within_five_sigma():
    n = 400_000
    record = darts.simulate(n, seed=2017)
    p = math.pi / 4
    assert abs(record.estimate - p) < 5 * math.sqrt(p * (1 - p) / n)
    estimate_, low, high = darts.pi_estimate(record)
    assert low < estimate_ < high


def test_two_player_simulation_counts_first_player_wins_against_the_exact_value():
    game = Nim(heap=7, max_take=3)
    exact = float(evaluate_policy(game, random_policy)[game.start()][0])  # expected payoff of player 1
    p_win = (1 + exact) / 2
    n = 40_000
    record = simulate(game, n, seed=1)
    assert abs(record.estimate - p_win) < 5 * math.sqrt(p_win * (1 - p_win) / n)


@given(st.randoms(use_true_random=False))
def test_playout_ends_at_a_terminal_state(rng):
    game = Nim(heap=12, max_take=4)
    end = playout(game, game.start(), rng)
    assert game.to_move(end) is None and end["heap"] == 0
