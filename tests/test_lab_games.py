"""The tutorial's coin and darts as games of the Monte Carlo lab: their hooks, exact values and the command line.

``fnmcts.games.coin.Coin`` and ``fnmcts.games.darts.Darts`` carry the lab's
hooks (an antithetic map, a control feature, strata, a batch path); the
properties below hold for every size and every state, and the exact values
are counts of the outcomes, worked out here without the lab.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts import lab
from fnmcts.games.coin import HEADS, TAILS, Coin
from fnmcts.games.darts import Darts
from fnmcts.protocol import CHANCE

Z = 3.29  # two-sided 0.001

flips = st.integers(0, 4).map(lambda k: 2 * k + 1)
sizes = st.integers(1, 20).map(lambda k: 2 * k)


@st.composite
def coin_states(draw):
    game = Coin(draw(flips))
    faces = draw(st.lists(st.sampled_from((HEADS, TAILS)), max_size=game.flips - 1))
    return game, tuple(faces)


@st.composite
def darts_states(draw):
    game = Darts(draw(sizes))
    centres = [x for x, _ in game.chance_outcomes(game.start())]
    return game, tuple(draw(st.lists(st.sampled_from(centres), max_size=1)))


def _is_probability_preserving_involution(game, state):
    outcomes = dict(game.chance_outcomes(state))
    for outcome, p in outcomes.items():
        image = game.antithetic_outcome(state, outcome)
        assert image in outcomes and outcomes[image] == p
        assert game.antithetic_outcome(state, image) == outcome
    assert {game.antithetic_outcome(state, o) for o in outcomes} == set(outcomes)


# --- the hooks, for every size and state ----------------------------------------------------------

@given(coin_states())
def test_the_coin_s_mirror_is_an_involution_keeping_the_probabilities(case):
    game, state = case
    _is_probability_preserving_involution(game, state)
    assert all(game.antithetic_outcome(state, o) != o for o, _ in game.chance_outcomes(state))


@given(darts_states())
def test_the_darts_mirror_is_an_involution_pairing_near_with_far(case):
    game, state = case
    _is_probability_preserving_involution(game, state)
    for x, _ in game.chance_outcomes(state):
        image = game.antithetic_outcome(state, x)
        assert (image > 0) == (x > 0) and abs(image) == 1 - abs(x)


@given(st.one_of(coin_states(), darts_states()))
def test_strata_are_the_next_outcomes_with_their_probabilities(case):
    game, state = case
    strata = game.strata(state)
    assert sum(p for p, _ in strata) == 1
    assert [(p, s) for p, s in strata] == [(p, game.play(state, o)) for o, p in game.chance_outcomes(state)]


@given(st.one_of(coin_states(), darts_states()))
def test_the_control_feature_is_a_bounded_feature_of_the_outcome(case):
    game, state = case
    for outcome, _ in game.chance_outcomes(state):
        value = game.control_feature(state, outcome)
        expected = (1.0 if outcome == HEADS else 0.0) if isinstance(game, Coin) else float(outcome) ** 2
        assert value == expected and 0 <= value <= 1


@given(coin_states())
def test_a_coin_game_is_won_on_a_majority_of_heads(case):
    game, _ = case
    for faces in product((HEADS, TAILS), repeat=game.flips):
        state = game.start()
        for face in faces:
            assert game.to_move(state) is CHANCE
            state = game.play(state, face)
        assert game.to_move(state) is None and game.chance_outcomes(state) == ()
        assert game.payoff(state) == (int(faces.count(HEADS) > game.flips // 2),)


@settings(max_examples=20)
@given(sizes)
def test_the_grid_s_exact_value_is_its_count_and_tends_to_pi(size):
    game = Darts(size)
    inside = sum(1 for i in range(size) for j in range(size)
                 if (2 * i + 1 - size) ** 2 + (2 * j + 1 - size) ** 2 < size * size)
    assert game.pi_value() == Fraction(4 * inside, size * size)
    assert abs(float(game.pi_value()) - math.pi) <= 4 * math.pi / size  # the cells the circle crosses, at most


def test_bad_sizes_and_moves_get_clear_errors():
    for bad in (0, 2, -1, 1.0, True, "3"):
        with pytest.raises(ValueError, match="flips must be an odd whole number"):
            Coin(bad)
    for bad in (0, 3, -2, 4.0, True):
        with pytest.raises(ValueError, match="size must be an even whole number"):
            Darts(bad)
    with pytest.raises(ValueError, match="'heads' or 'tails'"):
        Coin().play((), "edge")
    with pytest.raises(ValueError, match="'heads' or 'tails'"):
        Coin().play((HEADS,), HEADS)
    with pytest.raises(ValueError, match="cell centres"):
        Darts(4).play((), Fraction(1, 3))
    with pytest.raises(ValueError, match="strata"):
        Darts(4).strata((Fraction(1, 4), Fraction(1, 4)))
    with pytest.raises(ValueError, match="method must be"):
        Darts(4).lab_batch("importance", 10, random.Random(1))
    with pytest.raises(TypeError, match="proposal"):
        lab.importance(Coin(), 10, random.Random(1))


# --- the batch path -----------------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(game=st.one_of(flips.map(Coin), sizes.map(Darts)), n=st.integers(4, 200), rng=st.randoms(use_true_random=False))
def test_the_batch_path_deals_the_strata_in_turn_and_mirrors_pairs(game, n, rng):
    payoffs, strata = game.lab_batch("stratified", n, rng)
    counts = [int((strata == k).sum()) for k in range(int(strata.max()) + 1)]
    assert payoffs.shape == (n,) and max(counts) - min(counts) <= 1
    first, second = game.lab_batch("antithetic", n, rng)
    assert first.shape == second.shape == (n // 2,)
    if isinstance(game, Coin):
        assert ((first + second) == 1).all()  # the majority turns over with every face
    payoffs, control = game.lab_batch("control", n, rng)
    assert set(payoffs.tolist()) <= {0.0, 1.0} and control.shape == (n,)


@pytest.mark.parametrize("game", [Coin(3), Darts()], ids=repr)
def test_the_batch_measured_factors_match_the_exact_ones(game):
    exact = lab.exact_variances(game)
    rng = random.Random(2026)
    plain = lab.batch_estimate("plain", game, 100_000, rng)
    for method in ("control", "stratified") + (("antithetic",) if isinstance(game, Darts) else ()):
        record = lab.batch_estimate(method, game, 100_000, rng)
        assert abs(record.estimate - exact.value) <= Z * record.std_error
        # a sample variance of 10^5 bounded payoffs: log-variance error about sqrt(2 / n) plus the kurtosis'
        measured = (plain.std_error / record.std_error) ** 2
        expected = exact.variances["plain"] / exact.variances[method]
        assert abs(math.log(measured / expected)) <= Z * math.sqrt(2 * 6 / 100_000), (method, measured, expected)


# --- the command line ---------------------------------------------------------------------------

def test_simulate_coin_antithetic_is_exact(capsys):
    from cli_run import run, run_json

    code, out, err = run(capsys, "simulate", "coin", "--method", "antithetic", "--games", "1000", "--seed", "1")
    assert code == 0, err
    assert "95% CI    [0.5, 0.5]" in out and "Coin, one flip, heads wins (antithetic)" in out
    data = run_json(capsys, "simulate", "coin", "--method", "stratified", "--games", "1000", "--seed", "1")
    assert data["estimate"] == 0.5 and data["games"] == 1000 and data["seed"] == 1


@pytest.mark.parametrize("method", ["antithetic", "control", "stratified"])
def test_simulate_darts_with_a_method_covers_the_grid_s_value(capsys, method):
    from cli_run import run_json

    data = run_json(capsys, "simulate", "darts", "--method", method, "--games", "20000", "--seed", "4")
    value = float(Darts().pi_value()) / 4
    assert data["method"].startswith(method) and data["ci_low"] <= value <= data["ci_high"]
    assert data["ci_high"] - data["ci_low"] <= 2 * 1.96 * math.sqrt(0.17 / 20_000) * 1.01  # no wider than plain's


def test_simulate_darts_compare_prints_each_method_beside_its_exact_factor(capsys):
    from cli_run import run

    code, out, err = run(capsys, "simulate", "darts", "--method", "compare", "--games", "20000", "--seed", "2")
    assert code == 0, err
    exact = lab.variance_factors(Darts())
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert set(rows) == {"plain", "antithetic", "control", "stratified"}
    for method, row in rows.items():
        assert f"({exact[method]:.2f})" in row


def test_simulate_a_method_the_game_lacks_is_one_line(capsys):
    from cli_run import run

    code, out, err = run(capsys, "simulate", "coin", "--method", "importance", "--games", "100")
    assert code != 0 and "proposal" in err and "Traceback" not in err
    assert "Coin has not" in err and err.count("\n") == 1
