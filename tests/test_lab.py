"""The Monte Carlo lab (``fnmcts.lab``): estimators against exact variances, anytime-valid intervals.

Every measured variance is compared with the exact one computed through the
game protocol: the log of a sample variance of ``R`` replicated estimates has
standard deviation about ``sqrt(2 / (R - 1) + kurtosis / R)``, so a measured
reduction factor (a ratio of two independent sample variances) lies within
``3.29`` of those (two-sided 0.001) of the exact factor, seeds fixed.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fnmcts import lab
from fnmcts.exact import evaluate_policy, random_policy, value, win_probability
from fnmcts.protocol import CHANCE, GameBase
from fnmcts.games.coin import Coin
from fnmcts.games.darts import Darts
from fnmcts.games.pig import Pig
from fnmcts.games.shut_the_box import ShutTheBox, largest_first
from fnmcts.sampling import mean_interval

STB_RANDOM_PLAY = 0.020393
Z = 3.29  # two-sided 0.001


def _replicates(method, game, n, count, seed):
    rng = random.Random(seed)
    return [lab.estimate_with(method, game, n, rng).estimate for _ in range(count)]


def _log_variance(xs) -> tuple:
    """The log of the sample variance of ``xs`` and its standard error (normal theory plus the kurtosis)."""
    r = len(xs)
    mean = sum(xs) / r
    m2 = sum((x - mean) ** 2 for x in xs) / r
    m4 = sum((x - mean) ** 4 for x in xs) / r
    kurtosis = m4 / (m2 * m2) - 3 if m2 > 0 else 0.0
    return math.log(m2 * r / (r - 1)), math.sqrt(2 / (r - 1) + max(0.0, kurtosis) / r)


def _check_factor(game, method, n, count, seed, exact):
    plain_log, plain_se = _log_variance(_replicates("plain", game, n, count, seed))
    method_log, method_se = _log_variance(_replicates(method, game, n, count, seed + 1))
    measured = plain_log - method_log
    expected = math.log(exact.variances["plain"] / exact.variances[method])
    assert abs(measured - expected) <= Z * math.hypot(plain_se, method_se), (
        f"{method}: measured factor {math.exp(measured):.3f}, exact {math.exp(expected):.3f}")


# --- exact variances -----------------------------------------------------------------------------

def test_exact_value_of_random_play_is_the_solver_s():
    exact = lab.exact_variances(ShutTheBox(), methods=("plain",))
    assert round(exact.value, 6) == STB_RANDOM_PLAY
    assert exact.variances["plain"] == pytest.approx(STB_RANDOM_PLAY * (1 - STB_RANDOM_PLAY), abs=1e-6)


def test_importance_sampling_cuts_the_variance_of_random_play_more_than_threefold():
    factors = lab.variance_factors(ShutTheBox(), ("importance",))
    assert factors["importance"] >= 3


class Retry(GameBase):
    """Flip until something happens: half the time flip again (the state repeats), else pay 3 or -1 evenly."""

    num_players = 1

    def start(self):
        return "flip"

    def to_move(self, state):
        return CHANCE if state == "flip" else None

    def possible_moves(self, state):
        return ()

    def chance_outcomes(self, state):
        return (("flip", Fraction(1, 2)), (3, Fraction(1, 4)), (-1, Fraction(1, 4))) if state == "flip" else ()

    def play(self, state, move):
        return move

    def payoff(self, state):
        return (state,)

    def payoff_range(self):
        return (-1, 3)

    def may_repeat(self):
        return True


def test_a_game_whose_states_repeat_gets_its_plain_variance_by_iteration():
    exact = lab.exact_variances(Retry())  # 3 or -1 evenly in the end: mean 1, second moment 5
    assert exact.value == pytest.approx(1, abs=1e-9) and dict(exact.variances) == pytest.approx({"plain": 4}, abs=1e-9)
    pig = lab.exact_variances(Pig(goal=10))
    p = win_probability(Pig(goal=10), policy=random_policy, opponent=random_policy)
    assert pig.value == pytest.approx(2 * float(p) - 1, abs=1e-9)
    assert pig.variances["plain"] == pytest.approx(1 - pig.value ** 2, abs=1e-9)  # payoffs +-1: E[Y^2] = 1


@pytest.mark.slow  # 6,000 games of Pig
def test_pig_s_measured_variance_matches_its_exact_variance():
    exact = lab.exact_variances(Pig(goal=10))
    log_variance, error = _log_variance(_replicates("plain", Pig(goal=10), 40, 150, seed=10))
    assert abs(log_variance - math.log(exact.variances["plain"] / 40)) <= Z * error


def test_a_policy_of_pig_gets_its_exact_variance():
    def hold_at_4(game, state):  # roll until the turn's total reaches 4, then hold
        moves = game.possible_moves(state)
        return ((("hold" if state[3] >= 4 and "hold" in moves else "roll"), 1),)

    exact = lab.exact_variances(Pig(goal=10), hold_at_4)
    solver = evaluate_policy(Pig(goal=10), (hold_at_4, hold_at_4), Pig(goal=10).start())
    assert exact.value == pytest.approx(float(value(solver, Pig(goal=10).start())[0]), abs=1e-9)
    assert exact.variances["plain"] == pytest.approx(1 - exact.value ** 2, abs=1e-9)


def test_coin_variances_are_the_closed_forms():
    exact = lab.exact_variances(Coin())
    assert exact.value == 0.5 and exact.variances["plain"] == 0.25
    assert exact.variances["antithetic"] == 0.0  # heads and tails in every pair: no variance left
    assert exact.variances["stratified"] == 0.0
    # three flips, won on two heads or more: Cov(Y, H) = 3/8, Var(H) = 3/4, so the control leaves 1/4 - 3/16
    # and the first flip splits 1/4 into two strata of variance 3/16 each
    three = lab.exact_variances(Coin(3))
    assert three.variances["control"] == pytest.approx(1 / 16)
    assert three.variances["stratified"] == pytest.approx(3 / 16)
    assert three.variances["antithetic"] == 0.0  # every face turned over turns the majority over


def test_darts_variances_match_a_count_of_the_grid():
    size = 10
    game = Darts(size)
    xs = [(2 * i + 1 - size) / size for i in range(size)]  # the centres, in floats: no value on the circle itself
    hits = [[1 if x * x + y * y < 1 else 0 for y in xs] for x in xs]
    p = sum(map(sum, hits)) / size**2
    exact = lab.exact_variances(game)
    assert exact.value == pytest.approx(p)
    assert exact.variances["plain"] == pytest.approx(p * (1 - p))
    mirror = [size // 2 - 1 - i if i < size // 2 else 3 * size // 2 - 1 - i for i in range(size)]
    pair = [(hits[i][j] + hits[mirror[i]][mirror[j]]) / 2 for i in range(size) for j in range(size)]
    assert exact.variances["antithetic"] == pytest.approx(2 * sum((x - p) ** 2 for x in pair) / size**2)
    columns = [sum(row) / size for row in hits]
    assert exact.variances["stratified"] == pytest.approx(sum(c * (1 - c) for c in columns) / size)
    assert 4 * exact.value == pytest.approx(float(game.pi_value()))


@pytest.mark.slow
@pytest.mark.parametrize("method", ["antithetic", "control", "stratified", "importance"])
def test_measured_factor_matches_the_exact_factor_on_a_small_box(method):
    game = ShutTheBox(levers=4)
    _check_factor(game, method, 40, 150, seed=37, exact=lab.exact_variances(game))


@pytest.mark.slow  # the protocol path, a game at a time
@pytest.mark.parametrize("method", ["antithetic", "stratified", "control"])
def test_measured_factor_matches_the_exact_factor_on_darts(method):
    game = Darts(8)
    _check_factor(game, method, 40, 150, seed=11, exact=lab.exact_variances(game))


@pytest.mark.slow
@pytest.mark.parametrize("method", ["antithetic", "control", "stratified", "importance"])
def test_measured_factor_matches_the_exact_factor_on_the_tutorial_box(method):
    game = ShutTheBox()
    _check_factor(game, method, 100, 300, seed=2026, exact=lab.exact_variances(game, methods=("plain", method)))


@pytest.mark.slow
def test_the_factor_check_can_fail():
    game = ShutTheBox(levers=4)
    exact = lab.exact_variances(game)
    wrong = exact.set("variances", exact.variances.set("importance", exact.variances["plain"] / 4))
    with pytest.raises(AssertionError, match="importance"):
        _check_factor(game, "importance", 40, 150, seed=37, exact=wrong)


@pytest.mark.slow
def test_common_random_numbers_on_exact_variances():
    game = ShutTheBox(levers=6)
    difference, independent, common = lab.exact_difference_variances(game, largest_first, random_policy)
    a = lab.exact_variances(game, largest_first, methods=("plain",))
    b = lab.exact_variances(game, methods=("plain",))
    assert difference == pytest.approx(a.value - b.value)
    assert independent == pytest.approx(a.variances["plain"] + b.variances["plain"])
    assert common < independent
    rng = random.Random(5)
    crn = [lab.common_random_numbers(game, largest_first, random_policy, 40, rng).estimate for _ in range(150)]
    ind = [lab.common_random_numbers(game, largest_first, random_policy, 40, rng, common=False).estimate
           for _ in range(150)]
    (lc, sc), (li, si) = _log_variance(crn), _log_variance(ind)
    assert abs((li - lc) - math.log(independent / common)) <= Z * math.hypot(sc, si)


@pytest.mark.slow
def test_a_binary_payoff_bounds_what_common_numbers_can_do():
    # Y_a - Y_b is non-zero with probability at least |d|: Var >= |d| (1 - |d|) under any coupling
    difference, independent, common = lab.exact_difference_variances(ShutTheBox(), largest_first, random_policy)
    d = abs(difference)
    assert common >= d * (1 - d) - 1e-12
    assert independent / common < 5


# --- the estimators ------------------------------------------------------------------------------

@pytest.mark.parametrize("method", lab.METHODS)
def test_a_game_without_the_hook_gets_an_error_naming_it(method):
    if method == "plain":
        assert lab.estimate_with(method, Pig(goal=10), 20, random.Random(1)).games == 20
        return
    with pytest.raises(TypeError, match=lab.HOOKS[method]):
        lab.estimate_with(method, Pig(goal=10), 20, random.Random(1))


def test_bad_input_gets_clear_errors():
    game = ShutTheBox(levers=4)
    with pytest.raises(ValueError, match="method must be one of"):
        lab.estimate_with("magic", game, 10, random.Random(1))
    with pytest.raises(TypeError, match="rng must be a random.Random"):
        lab.plain(game, 10, 3)
    with pytest.raises(ValueError, match="n must be a whole number"):
        lab.plain(game, 1, random.Random(1))
    with pytest.raises(ValueError, match="allocation"):
        lab.stratified(game, 100, random.Random(1), allocation="best")
    class Looping(Pig):  # states that repeat, undeclared: the walk finds the cycle and says so
        def may_repeat(self):
            return False

    with pytest.raises(ValueError, match="repeats a state"):
        lab.exact_variances(Looping(goal=10), methods=("plain",))
    with pytest.raises(ValueError, match="methods must be among"):
        lab.exact_variances(game, methods=("magic",))


def test_a_map_that_breaks_the_probabilities_is_refused():
    class Lopsided(Darts):
        def antithetic_outcome(self, state, outcome):
            return self.chance_outcomes(state)[0][0]  # every coordinate to the first centre

    with pytest.raises(ValueError, match="bijection"):
        lab.exact_variances(Lopsided(4), methods=("antithetic",))


@settings(max_examples=20, deadline=None)
@given(method=st.sampled_from(["plain", "antithetic", "stratified"]), seed=st.integers(0, 2**32))
def test_estimates_stay_in_the_payoff_range_and_repeat_with_the_seed(method, seed):
    game = ShutTheBox(levers=3, scoring="sum")
    first = lab.estimate_with(method, game, 40, random.Random(seed))
    assert -6 <= first.ci_low <= first.estimate <= first.ci_high <= 0
    assert lab.estimate_with(method, game, 40, random.Random(seed)) == first


@settings(max_examples=20, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_importance_and_control_estimates_are_unbiased_in_form(rng):
    game = ShutTheBox(levers=3)
    record = lab.importance(game, 20, rng)
    assert record.estimate >= 0 and record.std_error >= 0 and record.games == 20
    record = lab.control_variate(game, 20, rng)
    assert record.ci_low <= record.ci_high and record.games == 20


def test_the_optimal_allocation_plays_n_games_and_covers_the_value():
    game = ShutTheBox(levers=4)
    exact = lab.exact_variances(game, methods=("plain",)).value
    record = lab.stratified(game, 2_000, random.Random(4), allocation="optimal")
    assert record.games == 2_000
    assert abs(record.estimate - exact) <= Z * record.std_error


# --- anytime-valid intervals ---------------------------------------------------------------------

def _covered_at_stop(p, eps, runs, seed, anytime):
    """How many of ``runs`` Bernoulli(p) streams cover p when stopped at the first half-width below eps."""
    covered = 0
    for r in range(runs):
        rng = random.Random(seed + r)
        draws = iter(lambda: 1.0 if rng.random() < p else 0.0, None)
        if anytime:
            for low, high in lab.anytime_intervals(draws):
                if (high - low) / 2 < eps:
                    break
        else:
            total = 0.0
            for t, x in enumerate(draws, start=1):
                total += x
                low, high = mean_interval(total, total, t)  # x * x == x for a 0/1 payoff
                if t >= 30 and (high - low) / 2 < eps:
                    break
        covered += low <= p <= high
    return covered


def _binomial_tail(k, n, p=0.95):
    """P(X <= k) for X ~ Binomial(n, p), summed in logs (the binomial coefficients of 2,000 overflow a float)."""
    def log_term(i):
        return (math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                + i * math.log(p) + (n - i) * math.log(1 - p))

    return math.fsum(math.exp(log_term(i)) for i in range(k + 1))


def _optional_stopping(runs, eps, seed):
    """The confidence sequence's coverage under stopping at a half-width below ``eps`` is not rejected; the fixed-n one's is."""
    anytime = _covered_at_stop(STB_RANDOM_PLAY, eps, runs, seed, anytime=True)
    fixed = _covered_at_stop(STB_RANDOM_PLAY, eps, runs, seed, anytime=False)
    print(f"covered at the stop, of {runs} runs: confidence sequence {anytime}, fixed-n normal interval {fixed}")
    assert _binomial_tail(anytime, runs) > 0.01, anytime
    assert _binomial_tail(fixed, runs) < 0.01, fixed


def test_the_confidence_sequence_survives_optional_stopping_where_the_fixed_n_interval_fails():
    _optional_stopping(200, 0.02, 1)


def test_the_binomial_tail_is_the_closed_form():
    assert _binomial_tail(2, 2) == pytest.approx(1.0)
    assert _binomial_tail(0, 3) == pytest.approx(0.05**3)
    assert _binomial_tail(1875, 2_000) < 0.01 < _binomial_tail(1890, 2_000)  # mean 1,900, sd 9.7


@pytest.mark.slow
def test_optional_stopping_over_two_thousand_runs():
    _optional_stopping(2_000, 0.01, 10_000)


@settings(max_examples=30, deadline=None)
@given(xs=st.lists(st.floats(-2, 3), min_size=1, max_size=60))
def test_the_sequence_stays_in_range_and_only_narrows(xs):
    seq = lab.confidence_sequence(xs, -2, 3)
    assert len(seq) == len(xs)
    for (a, b), (c, d) in zip(seq, seq[1:]):
        assert -2 <= a <= b <= 3
        assert (c, d) == pytest.approx((max(a, c), min(b, d))) or c > b or d < a  # intersected, or reset


def test_run_until_stops_below_eps_and_covers():
    record = lab.run_until(ShutTheBox(levers=4), 0.03, random.Random(8))
    assert (record.ci_high - record.ci_low) / 2 < 0.03
    exact = lab.exact_variances(ShutTheBox(levers=4), methods=("plain",)).value
    assert record.ci_low <= exact <= record.ci_high
    capped = lab.run_until(ShutTheBox(levers=4), 1e-6, random.Random(8), max_games=50)
    assert capped.games == 50
    with pytest.raises(ValueError, match="eps"):
        lab.run_until(ShutTheBox(levers=4), 0, random.Random(8))
    with pytest.raises(ValueError, match="outside the range"):
        lab.confidence_sequence([0.5, 2.0])


@settings(max_examples=50, deadline=None)
@given(n=st.integers(0, 500), shares=st.lists(st.floats(0, 10), min_size=1, max_size=12), floor=st.integers(0, 3))
def test_an_allocation_plays_exactly_n_games(n, shares, floor):
    assume(n >= floor * len(shares))
    parts = lab._allocate(n, shares, floor)
    assert sum(parts) == n and min(parts) >= floor


# --- the batch path ------------------------------------------------------------------------------

def _variance_with_error(units) -> tuple:
    """The sample variance of ``units`` and its standard error, ``sqrt((m4 - m2^2) / n)``."""
    import numpy as np

    centred = units - units.mean()
    m2, m4 = float((centred**2).mean()), float((centred**4).mean())
    return m2 * units.size / (units.size - 1), math.sqrt(max(0.0, m4 - m2 * m2) / units.size)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stb", Coin(3), Coin(5), Darts(), Darts(8)], ids=str)
@pytest.mark.parametrize("method", ["plain", "antithetic", "control", "stratified"])
def test_the_batch_path_has_the_exact_variances(method, game):
    import numpy as np

    if game == "stb":
        game = ShutTheBox(levers=6) if method == "antithetic" else ShutTheBox()  # pairs' exact walk: a smaller box
    exact = lab.exact_variances(game, methods=("plain", method))
    arrays = game.lab_batch(method, 200_000, random.Random(37))
    if method == "plain":
        units, per_game = arrays[0], 1
    elif method == "antithetic":
        units, per_game = (arrays[0] + arrays[1]) / 2, 2
    elif method == "control":
        ys, cs = arrays
        units, per_game = ys - np.cov(ys, cs)[0, 1] / cs.var(ddof=1) * cs, 1
    else:
        ys, strata = arrays
        units, per_game = ys - (np.bincount(strata, weights=ys) / np.bincount(strata))[strata], 1
    variance, error = _variance_with_error(units)
    name = "stratified" if method == "stratified" else method
    assert abs(per_game * variance - exact.variances[name]) <= Z * per_game * error + 1e-12, (variance, exact.variances[name])
    record = lab.batch_estimate(method, game, 200_000, random.Random(37))
    assert abs(record.estimate - exact.value) <= Z * record.std_error + 1e-12
    assert record.games == 200_000


def test_the_batch_path_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="batch path has the methods"):
        lab.batch_estimate("importance", ShutTheBox(), 100, random.Random(1))
    with pytest.raises(TypeError, match="lab_batch"):
        lab.batch_estimate("plain", Pig(goal=10), 100, random.Random(1))
    with pytest.raises(ValueError, match="does not play its rules"):
        lab.batch_estimate("plain", ShutTheBox(dice="high-down"), 100, random.Random(1))


@pytest.mark.parametrize("method", lab.BATCH_METHODS)
def test_batch_where_it_can_plays_in_numpy_where_the_rules_allow_and_game_by_game_elsewhere(method):
    two_dice, one_die = ShutTheBox(levers=4), ShutTheBox(levers=4, dice="high-down")
    assert lab.estimate_with(method, two_dice, 200, random.Random(3), batch=True).batch
    assert lab.estimate_with(method, two_dice, 200, random.Random(3), batch=True) == lab.batch_estimate(
        method, two_dice, 200, random.Random(3)).set(batch=True)
    if method == "stratified":  # the one-die rule starts with the player's choice, not a roll: no strata there
        with pytest.raises(ValueError, match="no strata at its start"):
            lab.estimate_with(method, one_die, 200, random.Random(3), batch=True)
        return
    by_game = lab.estimate_with(method, one_die, 200, random.Random(3), batch=True)
    assert not by_game.batch and by_game == lab.estimate_with(method, one_die, 200, random.Random(3))
    assert not lab.estimate_with("importance", two_dice, 200, random.Random(3), batch=True).batch


@pytest.mark.slow
def test_a_pair_couples_only_chance_nodes_of_the_same_kind():
    # under the one-die rule the two games of a pair may roll one die and two dice at the same turn: those rolls are
    # drawn apart, and the exact variance of the pairs follows the same rule (within the sampling interval)
    game = ShutTheBox(levers=4, dice="high-down")
    exact = lab.exact_variances(game, methods=("plain", "antithetic"))
    assert sorted(exact.variances) == ["antithetic", "plain"]
    rng = random.Random(11)
    import numpy as np

    estimates = np.array([lab.antithetic(game, 2, rng).estimate for _ in range(3000)])  # two pairs: four games each
    variance, error = _variance_with_error(estimates)
    assert abs(4 * variance - exact.variances["antithetic"]) <= Z * 4 * error
    assert exact.variances["antithetic"] != exact.variances["plain"]


# --- the command line ----------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["antithetic", "control", "stratified", "importance"])
def test_simulate_with_a_method_prints_the_interval_as_today(capsys, method):
    from cli_run import run, run_json

    code, out, err = run(capsys, "simulate", "shut-the-box", "--levers", "4", "--method", method,
                         "--games", "400", "--seed", "3")
    assert code == 0, err
    line = next(l for l in out.splitlines() if l.startswith("95% CI"))
    low, high = (float(x) for x in line.split("[")[1].rstrip("]").split(","))
    data = run_json(capsys, "simulate", "shut-the-box", "--levers", "4", "--method", method, "--games", "400",
                    "--seed", "3")
    assert data["method"].startswith(method) and data["seed"] == 3
    assert (round(data["ci_low"], 4), round(data["ci_high"], 4)) == (round(low, 4), round(high, 4))
    assert low <= data["estimate"] <= high


def test_simulate_compare_prints_every_method_beside_the_exact_factors(capsys):
    from cli_run import run

    code, out, err = run(capsys, "simulate", "shut-the-box", "--levers", "4", "--method", "compare",
                         "--games", "600", "--seed", "2")
    assert code == 0, err
    exact = lab.variance_factors(ShutTheBox(levers=4))
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert set(rows) == set(lab.METHODS)
    for method, row in rows.items():
        assert f"({exact[method]:.2f})" in row


def test_simulate_with_a_method_refuses_a_typo(capsys):
    from cli_run import run

    code, out, err = run(capsys, "simulate", "shut-the-box", "--method", "antithetc")
    assert code == 2 and "antithetc" in err
