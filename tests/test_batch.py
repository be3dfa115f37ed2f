"""The batch path of simulate: random play in numpy arrays, equal in distribution to the reference loop.

The exact distribution of the end of random play is worked out here through the
protocol alone (every move equally likely, chance by its probabilities, in
``Fraction``s), independently of the batch tables; the batch frequencies must
lie within five standard errors of it, with fixed seeds.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy", reason="the batch path needs numpy: pip install 'fnmcts[batch]'")

from fnmcts.exact import evaluate_policy, random_policy  # noqa: E402
from fnmcts.games import Nim  # noqa: E402
from fnmcts.games import coin, darts  # noqa: E402
from fnmcts.games.shut_the_box import DICE_RULES, SCORINGS, ShutTheBox  # noqa: E402
from fnmcts.montecarlo import simulate  # noqa: E402
from fnmcts.parallel import worker_pool  # noqa: E402
from fnmcts.protocol import CHANCE  # noqa: E402


def end_distribution(game, state) -> dict:
    """``payoff -> exact probability`` at the end of uniformly random play from ``state``."""

    @lru_cache(maxsize=None)
    def dist(s):
        who = game.to_move(s)
        if who is None:
            return ((game.payoff(s)[0], Fraction(1)),)
        if who is CHANCE:
            branches = [(p, game.play(s, o)) for o, p in game.chance_outcomes(s)]
        else:
            moves = game.possible_moves(s)
            branches = [(Fraction(1, len(moves)), game.play(s, m)) for m in moves]
        out = {}
        for p, child in branches:
            for x, q in dist(child):
                out[x] = out.get(x, 0) + p * q
        return tuple(out.items())

    return dict(dist(state))


def assert_close(frequencies: dict, exact: dict, n: int):
    assert set(frequencies) <= set(exact), f"payoffs random play never ends with: {set(frequencies) - set(exact)}"
    for x, p in exact.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        seen = frequencies.get(x, 0) / n
        assert abs(seen - float(p)) <= 5 * sigma + 1e-12, (x, seen, float(p))


def _frequencies(payoffs) -> dict:
    values, counts = __import__("numpy").unique(payoffs, return_counts=True)
    return {int(v) if float(v).is_integer() else float(v): int(c) for v, c in zip(values, counts)}


@pytest.mark.parametrize("game", [ShutTheBox(), ShutTheBox(simplified=True), ShutTheBox(scoring="sum"),
                                  ShutTheBox(levers=6, dice="low-sum", scoring="digits"),
                                  ShutTheBox(levers=7, dice="high-down")], ids=repr)
@pytest.mark.slow
def test_the_end_of_random_play_has_its_exact_distribution(game):
    n = 200_000
    exact = end_distribution(game, game.start())
    payoffs = game.random_batch(game.start(), n, random.Random(11))
    assert_close(_frequencies(payoffs), exact, n)


@settings(max_examples=25)
@given(levers=st.integers(1, 5), simplified=st.booleans(), dice=st.sampled_from(DICE_RULES),
       scoring=st.sampled_from(SCORINGS), data=st.data())
def test_every_rule_set_and_box_ends_as_random_play_does(levers, simplified, dice, scoring, data):
    game = ShutTheBox(levers=levers, simplified=simplified, dice=dice, scoring=scoring)
    box = frozenset(data.draw(st.sets(st.integers(1, levers)), label="box"))
    n = 20_000
    payoffs = game.random_batch(box, n, random.Random(data.draw(st.integers(0, 2**32), label="seed")))
    assert_close(_frequencies(payoffs), end_distribution(game, box), n)


def test_simulate_with_batch_finds_the_exact_value_of_random_play():
    game = ShutTheBox()
    exact = float(evaluate_policy(game, random_policy)[game.start()][0])  # 0.0203...
    record = simulate(game, 1_000_000, seed=1, batch=True)
    assert record.games == 1_000_000 and record.ci_low <= exact <= record.ci_high
    scored = ShutTheBox(scoring="sum")
    mean = float(evaluate_policy(scored, random_policy)[scored.start()][0])
    record = simulate(scored, 400_000, seed=2, batch=True)
    assert record.mean_low <= mean <= record.mean_high


def test_the_same_seed_gives_the_same_record_on_any_workers():
    game = ShutTheBox(dice="low-sum", scoring="sum")
    serial = simulate(game, 300_000, seed=4, batch=True, chunk_size=50_000)
    with worker_pool(2) as pool:
        pooled = simulate(game, 300_000, seed=4, batch=True, chunk_size=50_000, executor=pool)
    assert serial == pooled == simulate(game, 300_000, seed=4, batch=True, chunk_size=50_000)


def test_a_state_inside_a_turn_goes_the_reference_way():
    game = ShutTheBox()
    rolled = game.play(game.start(), 7)
    assert game.random_batch(rolled, 10, random.Random(1)) is None
    assert simulate(game, 2_000, seed=1, state=rolled, batch=True) == simulate(game, 2_000, seed=1, state=rolled)


def test_batch_without_a_hook_or_with_an_agent_is_refused():
    with pytest.raises(ValueError, match="has none"):
        simulate(Nim(heap=7), 10, seed=1, batch=True)
    with pytest.raises(ValueError, match="random play only"):
        simulate(ShutTheBox(), 10, seed=1, batch=True, agent=lambda game, state, rng: game.possible_moves(state)[0])


def test_coin_and_darts_in_batches():
    heads = coin.simulate(1_000_000, seed=3, batch=True)
    assert heads.ci_low <= 0.5 <= heads.ci_high and heads.games == 1_000_000
    hits = darts.simulate(1_000_000, seed=3, batch=True)
    assert hits.ci_low <= math.pi / 4 <= hits.ci_high
    assert coin.simulate(100_000, seed=5, batch=True) == coin.simulate(100_000, seed=5, batch=True)
