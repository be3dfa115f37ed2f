"""Match statistics and sequential tests: closed forms, properties, and error rates over simulated matches.

The error rates are checked the way they are stated: matches of known
strength (every game drawn from a known distribution whose expected score is
that of H0's Elo, or of H1's) are run through the test until it decides, many
times over, and the share of wrong decisions is compared with ``alpha`` and
``beta``. The slow check runs 10,000 matches a setting; the default run keeps
500 with a margin of three standard deviations.
"""

from __future__ import annotations

import math
from fractions import Fraction
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from statistics import NormalDist

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fnmcts.agents import perfect_agent
from fnmcts.elo import (
    Sprt,
    elo_interval,
    elo_to_score,
    likelihood_of_superiority,
    match_score,
    match_statistics,
    score_interval,
    score_to_elo,
    sprt_scan,
)
from fnmcts.games import Nim
from fnmcts.matches import first_move_agent, random_agent, tournament
from fnmcts.protocol import CHANCE, GameBase

PHI = NormalDist().cdf


@st.composite
def trinomials(draw, most=60):
    return tuple(draw(st.integers(0, most)) for _ in range(3))


@st.composite
def pentanomials(draw, most=40):
    return tuple(draw(st.integers(0, most)) for _ in range(5))


results = st.one_of(trinomials(), pentanomials())


@st.composite
def sprt_tests(draw):
    elo0 = draw(st.integers(-200, 150))
    elo1 = elo0 + draw(st.integers(5, 200))
    alpha = draw(st.sampled_from((0.01, 0.05, 0.1)))
    beta = draw(st.sampled_from((0.01, 0.05, 0.1)))
    return Sprt(elo0, elo1, alpha, beta)


# -- Elo, score, LOS and intervals -----------------------------------------------------------


@given(st.floats(-1500, 1500))
def test_elo_and_score_are_inverse(elo):
    assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo, abs=1e-6)


@given(trinomials())
def test_los_of_games_is_the_classic_formula_with_the_prior(counts):
    losses, _, wins = counts
    assert likelihood_of_superiority(counts) == pytest.approx(PHI((wins - losses) / math.sqrt(wins + losses + 1)))


@given(results)
def test_the_interval_holds_one_half_exactly_when_the_los_is_not_significant(counts):
    low, high = score_interval(counts)
    los = likelihood_of_superiority(counts)
    assume(abs(los - 0.025) > 1e-9 and abs(los - 0.975) > 1e-9)
    assert (low <= 0.5 <= high) == (0.025 <= los <= 0.975)
    stats = match_statistics(counts)
    assert stats.significant == (not low <= 0.5 <= high)
    assert stats.verdict == ("first is stronger" if low > 0.5 else "second is stronger" if high < 0.5 else "not significant")


@given(results, st.sampled_from((0.8, 0.9, 0.95, 0.99)))
def test_the_interval_is_a_range_of_scores_around_the_estimate_and_widens_with_the_level(counts, level):
    low, high = score_interval(counts, level)
    assert 0.0 <= low <= high <= 1.0
    n = sum(counts)
    prior_mean = (match_score(counts) * n + 0.5) / (n + 1)  # the estimate with half a win and half a loss
    assert low <= prior_mean + 1e-12 and prior_mean <= high + 1e-12
    wider = score_interval(counts, min(0.999, level + 0.005))
    assert wider[0] <= low + 1e-12 and high <= wider[1] + 1e-12
    elo, elo_low, elo_high = elo_interval(counts, level)
    assert (elo_low, elo_high) == (score_to_elo(low), score_to_elo(high))
    assert elo == score_to_elo(match_score(counts))


@given(results)
def test_swapping_the_agents_mirrors_every_figure(counts):
    mirrored = tuple(reversed(counts))
    low, high = score_interval(counts)
    mlow, mhigh = score_interval(mirrored)
    assert mlow == pytest.approx(1 - high, abs=1e-12) and mhigh == pytest.approx(1 - low, abs=1e-12)
    assert likelihood_of_superiority(mirrored) == pytest.approx(1 - likelihood_of_superiority(counts), abs=1e-12)


def test_three_three_nothing_is_not_a_win():
    for counts in ((0, 3, 3), (3, 0, 3), (0, 0, 3)):  # +3 =3 -0, +3 =0 -3, +3 =0 -0
        stats = match_statistics(counts)
        assert not stats.significant and "not significant" in str(stats) and "LOS" in str(stats)
    assert match_statistics((0, 0, 6)).significant  # six wins of six: Phi(6 / sqrt 7) = 0.988
    assert str(match_statistics((0, 0, 0))).startswith("score 0.500 [0.000, 1.000] over 0 games")


def test_bad_results_and_levels_are_named():
    with pytest.raises(ValueError, match="3 counts"):
        match_statistics((1, 2, 3, 4))
    with pytest.raises(ValueError, match="whole number >= 0"):
        likelihood_of_superiority((1, -2, 3))
    with pytest.raises(ValueError, match="level"):
        score_interval((1, 2, 3), level=95)
    with pytest.raises(ValueError, match="between 0 and 1"):
        score_to_elo(1.5)
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt(10, 0).check()
    with pytest.raises(ValueError, match="finite"):
        Sprt(0, math.inf).check()


# -- the likelihood ratio ------------------------------------------------------------------------


@given(sprt_tests(), st.integers(0, 80), st.integers(0, 80))
def test_without_draws_the_ratio_is_walds_with_the_prior(test, losses, wins):
    s0, s1 = test.scores
    wald = (wins + 0.5) * math.log(s1 / s0) + (losses + 0.5) * math.log((1 - s1) / (1 - s0))
    assert test.llr((losses, 0, wins)) == pytest.approx(wald, rel=1e-9, abs=1e-9)


def _trinomial_profile(weights, s):
    """The largest log-likelihood of weighted (loss, draw, win) counts by distributions of mean score ``s``.

    Searched over the draw rate by golden sections (the log-likelihood is
    concave in it): an independent check of the root the module solves for.
    """
    wl, wd, ww = weights
    top = 2 * min(s, 1 - s)

    def loglik(d):
        p = (1 - s - d / 2, d, s - d / 2)
        return sum(w * math.log(q) for w, q in zip(weights, p) if w)

    a, b = 1e-15, top - 1e-15
    if not wd:
        return loglik(a)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        c, e = b - g * (b - a), a + g * (b - a)
        if loglik(c) < loglik(e):
            a = c
        else:
            b = e
    return loglik((a + b) / 2)


@given(sprt_tests(), trinomials())
def test_the_ratio_is_the_profile_likelihood_ratio(test, counts):
    weights = (counts[0] + 0.5, counts[1], counts[2] + 0.5)
    s0, s1 = test.scores
    expected = _trinomial_profile(weights, s1) - _trinomial_profile(weights, s0)
    assert test.llr(counts) == pytest.approx(expected, rel=1e-6, abs=1e-6)


@given(sprt_tests(), results)
def test_swapping_the_agents_and_the_hypotheses_negates_the_ratio(test, counts):
    swapped = Sprt(-test.elo1, -test.elo0, test.alpha, test.beta)
    assert swapped.llr(tuple(reversed(counts))) == pytest.approx(-test.llr(counts), rel=1e-9, abs=1e-9)


@settings(max_examples=40)
@given(sprt_tests(), st.sampled_from((3, 5)), st.randoms(use_true_random=False))
def test_a_scan_decides_where_the_counts_first_decide(test, bins, rng):
    outcomes = [rng.randrange(bins) for _ in range(300)]
    found = sprt_scan(test, outcomes, bins)
    counts = [0] * bins
    for step, j in enumerate(outcomes[: found.samples], 1):
        counts[j] += 1
        llr = test.llr(counts)
        assume(min(abs(llr - bound) for bound in test.bounds) > 1e-9)
        expected = test.decide(counts)
        if step < found.samples:
            assert expected is None
        else:
            assert expected == found.decision and llr == pytest.approx(found.llr, abs=1e-9)
    assert found.results == tuple(counts)


@settings(max_examples=40)
@given(sprt_tests(), st.sampled_from((3, 5)), st.randoms(use_true_random=False), st.integers(0, 60))
def test_a_scan_goes_on_from_where_it_stopped_exactly(test, bins, rng, cut):
    outcomes = [rng.randrange(bins) for _ in range(200)]
    whole = sprt_scan(test, outcomes, bins)
    first = sprt_scan(test, outcomes[:cut], bins)
    if first.decision is not None:
        assert first == whole
        with pytest.raises(ValueError, match="decided already"):
            sprt_scan(test, outcomes, bins, start=first)
        return
    rest = sprt_scan(test, outcomes[cut:], bins, start=first)
    assert (rest.decision, first.samples + rest.samples, rest.llr, rest.results, rest.roots) == (
        whole.decision, whole.samples, whole.llr, whole.results, whole.roots)


# -- error rates over simulated matches of known strength -----------------------------------


def _games(rng, score, draws):
    """Endless game bins (0 loss, 1 draw, 2 win) of a player of expected ``score`` and draw rate ``draws``."""
    win, loss = score - draws / 2, 1 - score - draws / 2
    assert win >= 0 and loss >= 0
    while True:
        u = rng.random()
        yield 2 if u < win else 0 if u < win + loss else 1


def _pairs(rng, score, draws, bias):
    """Endless pair bins (0..4): each pair's seed favours the first player by ``+/- bias`` in both of its games."""
    for sign in (1, -1):
        assert draws / 2 <= min(score + sign * bias, 1 - score - sign * bias)
    while True:
        b = bias if rng.random() < 0.5 else -bias
        total = 0
        for edge in (b, -b):  # first player in the first game, second in the other
            win, loss = score + edge - draws / 2, 1 - score - edge - draws / 2
            u = rng.random()
            total += 2 if u < win else 0 if u < win + loss else 1
        yield total


SETTINGS = {  # name: (elo0, elo1, bins, draws, bias)
    "games without draws": (0, 100, 3, 0.0, 0.0),
    "games, 40% draws": (0, 100, 3, 0.4, 0.0),
    "pairs, 30% draws, seeds favour the first player": (-50, 50, 5, 0.3, 0.1),
}


def _error_rates(setting, matches, seed):
    elo0, elo1, bins, draws, bias = SETTINGS[setting]
    test = Sprt(elo0, elo1, 0.05, 0.05)
    rates = []
    for k, (truth, wrong) in enumerate(((elo0, "H1"), (elo1, "H0"))):
        rng = random.Random(seed * 2 + k)
        score = elo_to_score(truth)
        errors = 0
        for _ in range(matches):
            stream = _games(rng, score, draws) if bins == 3 else _pairs(rng, score, draws, bias)
            errors += sprt_scan(test, stream, bins).decision == wrong
        rates.append(errors / matches)
    return test, rates


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS)
def test_the_stated_error_rates_hold_over_500_simulated_matches(setting):
    test, (false_h1, false_h0) = _error_rates(setting, 500, seed=1)
    # 500 matches: a rate of 0.05 is measured within 0.03 (three standard deviations) of itself
    assert false_h1 <= test.alpha + 0.03, (setting, false_h1)
    assert false_h0 <= test.beta + 0.03, (setting, false_h0)


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS)
def test_the_stated_error_rates_hold_within_one_percent_over_10000_simulated_matches(setting):
    test, (false_h1, false_h0) = _error_rates(setting, 10_000, seed=2)
    assert false_h1 <= test.alpha + 0.01, (setting, false_h1)
    assert false_h0 <= test.beta + 0.01, (setting, false_h0)


# -- tournaments: pairs, the SPRT, the statistics they print -------------------------------


@dataclass(frozen=True)
class HighRoll(GameBase):
    """Each player rolls a die in turn (one move: 'roll'); the higher roll wins, equal rolls draw."""

    num_players: int = 2

    def start(self):
        return ()

    def to_move(self, state):
        if len(state) == 4:
            return None
        return CHANCE if len(state) % 2 else len(state) // 2

    def possible_moves(self, state):
        return ("roll",) if self.to_move(state) in (0, 1) else ()

    def chance_outcomes(self, state):
        return tuple((face, Fraction(1, 6)) for face in range(1, 7)) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        return state + (move,)

    def payoff(self, state):
        a, b = state[1], state[3]
        return (0, 0) if a == b else (1, -1) if a > b else (-1, 1)


def test_a_pair_rolls_the_same_dice_from_both_sides():
    """The dice decide HighRoll alone: with the same dice from both sides, every pair scores exactly 1."""
    record = tournament(HighRoll(), first_move_agent, first_move_agent, 200, seed=3, paired=True)
    assert record.pairs == (0, 0, 100, 0, 0)
    assert record.games == 200 and record.wins[1] == record.wins[2]
    unpaired = tournament(HighRoll(), first_move_agent, first_move_agent, 200, seed=3)
    assert "pairs" not in unpaired and unpaired.wins[1] + unpaired.wins[2] + unpaired.draws == 200


def test_pairs_cancel_the_first_players_advantage():
    game = Nim(heap=22, max_take=3)  # the first player wins with perfect play
    alone = tournament(game, perfect_agent, perfect_agent, 20, seed=1)
    paired = tournament(game, perfect_agent, perfect_agent, 20, seed=1, paired=True)
    assert alone.statistics().verdict == "first is stronger"
    assert paired.pairs == (0, 0, 10, 0, 0) and paired.statistics().score == 0.5
    assert paired.summary() == "Agent 1 wins 10 games. Agent 2 wins 10 games."


def test_an_sprt_tournament_stops_at_the_first_pair_that_decides():
    game = Nim(heap=11, max_take=3)
    test = Sprt(0, 150, 0.05, 0.05)
    found = tournament(game, perfect_agent, random_agent, 2_000, seed=4, sprt=test, chunk_size=10)
    pairs = found.games // 2
    assert found.sprt.decision == "H1" and found.sprt.results == found.pairs and found.sprt.samples == pairs
    assert test.decide(found.pairs) == "H1"
    # the same seed without the test plays the same pairs: one pair fewer was not decided yet
    shorter = tournament(game, perfect_agent, random_agent, 2 * (pairs - 1), seed=4, paired=True, chunk_size=10)
    assert test.decide(shorter.pairs) is None
    same = tournament(game, perfect_agent, random_agent, 2 * pairs, seed=4, paired=True, chunk_size=10)
    assert same.pairs == found.pairs
    with ThreadPoolExecutor(2) as pool:
        pooled = tournament(game, perfect_agent, random_agent, 2_000, seed=4, sprt=test, chunk_size=10, executor=pool)
    assert pooled == found
    assert "H1 accepted" in str(found) and "LOS" in str(found)


def test_an_sprt_tournament_that_runs_out_of_games_says_so():
    found = tournament(Nim(heap=9), random_agent, random_agent, 40, seed=2, sprt=(-20, 20, 0.05, 0.05), paired=False)
    assert found.games == 40 and found.sprt.decision is None and "pairs" not in found
    assert "undecided" in str(found) and found.to_json()["sprt"]["decision"] is None


def test_tournament_options_are_checked():
    with pytest.raises(ValueError, match="even"):
        tournament(Nim(), random_agent, random_agent, 11, seed=1, paired=True)
    with pytest.raises(TypeError, match="elo0, elo1, alpha, beta"):
        tournament(Nim(), random_agent, random_agent, 10, seed=1, sprt=(0, 1, 2, 3, 4))
    with pytest.raises(ValueError, match="elo0 < elo1"):
        tournament(Nim(), random_agent, random_agent, 10, seed=1, sprt=(5, 0, 0.05, 0.05))
    with pytest.raises(TypeError, match="paired"):
        tournament(Nim(), random_agent, random_agent, 10, seed=1, paired="yes")
