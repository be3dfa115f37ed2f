"""Match statistics: scores, Elo, likelihood of superiority, intervals and the sequential probability ratio test.

A match's **results** are counts, lowest score first, from the first agent's
side: a trinomial ``(losses, draws, wins)`` of single games (scores 0, 1/2,
1), or a pentanomial of game pairs (each seed played from both sides: the
pair scores 0, 1/2, 1, 3/2 or 2 of 2, counted in five bins). The score of a
match is the mean score per game; Elo is logistic Elo, ``score = 1 / (1 +
10 ** (-elo / 400))``.

Every figure here adds a **prior of half a win and half a loss** (for pairs:
half a lost pair and half a won pair) to the results. With it no figure ever
divides by a zero variance: three wins in three games give a likelihood of
superiority of 0.933 and an interval that holds 1/2, not a certainty. For
games the likelihood of superiority is then ``Phi((W - L) / sqrt(W + L + 1))``
(the classic ``Phi((W - L) / sqrt(W + L))`` of chess engine testing, with
the prior's one game), and the interval is that test inverted: it holds
exactly the scores the test does not reject, so a result is **significant**
(at 95%: two-sided, LOS above 0.975 or below 0.025) exactly when its interval
leaves out 1/2.

>>> print(match_statistics((0, 3, 3)))   # 3 wins, 3 draws, no loss
score 0.750 [0.371, 1.000] over 6 games (+3 =3 -0); Elo +191 [-92, +inf]; LOS 0.933: not significant
>>> print(match_statistics((3, 0, 3)))   # 3 wins, 3 losses
score 0.500 [0.000, 1.000] over 6 games (+3 =0 -3); Elo +0 [-inf, +inf]; LOS 0.500: not significant

The **sequential probability ratio test** (``Sprt``) decides between two
hypotheses on the Elo difference, H0: ``elo0`` and H1: ``elo1``, with error
rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when
H1 holds): after every game (or pair) it compares the log-likelihood ratio
with Wald's bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) /
alpha)``. The ratio is the generalized (profile) likelihood ratio of the
results' bins, each hypothesis fixing the mean score and leaving the rest (the
draw rate, the spread of the pairs) at its most likely: what fishtest's
``LLR_logistic`` computes (the GSPRT of Van den Bergh), with the prior above
as its regularization. fishtest's running tests use a normal approximation of
it, ``N (s1 - s0) (2 s - s0 - s1) / (2 var)``: with the same prior and checked
after every game, over 10,000 simulated matches
of known strength (no draws, H0: 0 against H1: 50 or 100 Elo, alpha = 5%) that
approximation accepted a false H1 in 7.1% and 9.8% of them, since a lucky
start lowers the estimated variance; the likelihood ratio keeps within the
stated rates (a test checks it over 10,000 matches per setting).

>>> test = Sprt(elo0=0, elo1=100, alpha=0.05, beta=0.05)
>>> test.decide((2, 10, 30)), test.decide((20, 20, 20)), test.decide((3, 3, 3))
('H1', 'H0', None)
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

__all__ = [
    "elo_to_score",
    "score_to_elo",
    "check_results",
    "match_score",
    "likelihood_of_superiority",
    "score_interval",
    "elo_interval",
    "MatchStatistics",
    "match_statistics",
    "Sprt",
    "SprtResult",
    "sprt_scan",
    "PRIOR",
]

PRIOR = 0.5
"""The weight of the prior at each end of the scale: half a win and half a loss (pairs: half a won pair and half a lost one)."""


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic Elo).

    >>> elo_to_score(0), round(elo_to_score(100), 4), round(elo_to_score(-100), 4)
    (0.5, 0.6401, 0.3599)
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference of an expected ``score`` (``-inf`` at 0, ``+inf`` at 1).

    >>> round(score_to_elo(0.64), 1), score_to_elo(0.5), score_to_elo(1.0)
    (100.0, 0.0, inf)
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, got {score!r}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def check_results(results) -> tuple:
    """``results`` as a tuple of counts, if it is 3 (games) or 5 (pairs) whole numbers >= 0, else a clear error.

    >>> check_results([1, 2, 3])
    (1, 2, 3)
    >>> check_results((1, 2))
    Traceback (most recent call last):
    ...
    ValueError: results are 3 counts (losses, draws, wins) or 5 (game pairs scoring 0, 1/2, 1, 3/2, 2), got (1, 2)
    """
    try:
        counts = tuple(results)
    except TypeError:
        raise TypeError(f"results are a tuple of counts, got {results!r}") from None
    if len(counts) not in (3, 5):
        raise ValueError(
            f"results are 3 counts (losses, draws, wins) or 5 (game pairs scoring 0, 1/2, 1, 3/2, 2), got {counts!r}"
        )
    for c in counts:
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise ValueError(f"each count of results is a whole number >= 0, got {c!r} in {counts!r}")
    return counts


class _Moments(NamedTuple):
    """The results with the prior: weight ``n``, mean ``s`` and variance ``var`` per sample (game or pair)."""

    n: float
    s: float
    var: float


def _moments(counts) -> _Moments:
    return _from_sums(len(counts) - 1, sum(counts), sum(c * j for j, c in enumerate(counts)),
                      sum(c * j * j for j, c in enumerate(counts)))


def _from_sums(k, count, total, squares) -> _Moments:
    """The moments with the prior from whole-number sums: ``count`` samples, ``total`` and ``squares`` of bin indices."""
    n = count + 2 * PRIOR
    s = (total / k + PRIOR) / n
    var = (squares / (k * k) + PRIOR) / n - s * s
    return _Moments(n, s, var if var > 0.0 else 0.0)


def match_score(results) -> float:
    """The mean score per game of ``results`` (without the prior; 1/2 for no games).

    >>> match_score((1, 2, 3)), match_score((0, 0, 1, 2, 1))
    (0.6666666666666666, 0.75)
    """
    counts = check_results(results)
    n = sum(counts)
    if not n:
        return 0.5
    return sum(c * j for j, c in enumerate(counts)) / ((len(counts) - 1) * n)


def _z(level: float) -> float:
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0.0 < level < 1.0:
        raise ValueError(f"level is a probability between 0 and 1 (0.95 for 95%), got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def likelihood_of_superiority(results) -> float:
    """The probability that the first agent is the stronger, from ``results`` (with the prior).

    ``Phi(z)`` of the score test of 1/2: for games ``z = (W - L) / sqrt(W + L + 1)``.

    >>> round(likelihood_of_superiority((0, 0, 3)), 3), likelihood_of_superiority((5, 90, 5))
    (0.933, 0.5)
    >>> round(likelihood_of_superiority((10, 20, 30)), 4) == round(NormalDist().cdf(20 / 41 ** 0.5), 4)
    True
    """
    m = _moments(check_results(results))
    second = m.var + (m.s - 0.5) ** 2  # the second moment about 1/2: never 0, the prior sits at 0 and 1
    return NormalDist().cdf((m.s - 0.5) * math.sqrt(m.n / second))


def score_interval(results, level: float = 0.95) -> tuple:
    """The interval of the score: every score the test at ``level`` does not reject, given ``results``.

    The scores ``m`` with ``n (s - m)^2 <= z^2 E[(x - m)^2]`` (the variance
    about ``m``): ``s +/- z sd / sqrt(n - z^2)``, clipped to [0, 1], with the
    prior in ``n``, ``s`` and ``sd``; the whole of [0, 1] while ``n <= z^2``.

    >>> [round(x, 3) for x in score_interval((30, 40, 30))]
    [0.423, 0.577]
    >>> score_interval((0, 0, 1))
    (0.0, 1.0)
    """
    m = _moments(check_results(results))
    z = _z(level)
    if m.n <= z * z:
        return (0.0, 1.0)
    half = z * math.sqrt(m.var / (m.n - z * z))
    return (max(0.0, m.s - half), min(1.0, m.s + half))


def elo_interval(results, level: float = 0.95) -> tuple:
    """``(elo, low, high)``: the Elo of the results' score and of its interval's ends.

    >>> [round(x) for x in elo_interval((20, 20, 60))]
    [147, 84, 218]
    """
    low, high = score_interval(results, level)
    return (score_to_elo(match_score(results)), score_to_elo(low), score_to_elo(high))


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


class MatchStatistics(NamedTuple):
    """What a match's results say: score and Elo with their interval, LOS, and whether it is significant.

    ``str()`` is one line; ``verdict`` is ``'first is stronger'``, ``'second
    is stronger'`` or ``'not significant'`` (at ``level``, two-sided).

    >>> stats = match_statistics((10, 30, 60))
    >>> stats.verdict, round(stats.los, 4), [round(x, 3) for x in stats.interval]
    ('first is stronger', 1.0, [0.68, 0.815])
    """

    results: tuple
    score: float
    interval: tuple
    elo: float
    elo_low: float
    elo_high: float
    los: float
    level: float
    verdict: str

    @property
    def pairs(self) -> bool:
        """Whether the results count game pairs (five bins) rather than games."""
        return len(self.results) == 5

    @property
    def games(self) -> int:
        """The games the results count (two a pair)."""
        return sum(self.results) * (2 if self.pairs else 1)

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out 1/2 (the LOS is beyond ``(1 - level) / 2`` from 0 or 1)."""
        return self.verdict != "not significant"

    def counts_text(self) -> str:
        """The results as text: ``+W =D -L`` for games, the five pair counts for pairs."""
        if self.pairs:
            return "pairs " + " ".join(f"{label}:{c}" for label, c in zip(("0", "1/2", "1", "3/2", "2"), self.results))
        losses, draws, wins = self.results
        return f"+{wins} ={draws} -{losses}"

    def __str__(self):
        low, high = self.interval
        verdict = "not significant" if not self.significant else f"significant at {self.level:.0%}: {self.verdict}"
        return (
            f"score {self.score:.3f} [{low:.3f}, {high:.3f}] over {self.games} games ({self.counts_text()}); "
            f"Elo {_signed(self.elo)} [{_signed(self.elo_low)}, {_signed(self.elo_high)}]; LOS {self.los:.3f}: {verdict}"
        )


def match_statistics(results, level: float = 0.95) -> MatchStatistics:
    """Score, interval, Elo, likelihood of superiority and verdict of ``results`` (games or pairs).

    >>> print(match_statistics((0, 1, 2, 5, 12)))
    score 0.850 [0.716, 0.951] over 40 games (pairs 0:0 1/2:1 1:2 3/2:5 2:12); Elo +301 [+161, +514]; LOS 1.000: significant at 95%: first is stronger
    """
    counts = check_results(results)
    interval = score_interval(counts, level)
    elo, elo_low, elo_high = elo_interval(counts, level)
    los = likelihood_of_superiority(counts)
    verdict = "first is stronger" if interval[0] > 0.5 else "second is stronger" if interval[1] < 0.5 else "not significant"
    return MatchStatistics(counts, match_score(counts), interval, elo, elo_low, elo_high, los, level, verdict)


# -- the sequential probability ratio test ------------------------------------------------------


class Sprt(NamedTuple):
    """A sequential probability ratio test of H0: Elo ``elo0`` against H1: Elo ``elo1``.

    ``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` that of
    accepting H0 when H1 holds. ``llr(results)`` is the generalized
    log-likelihood ratio; ``decide(results)`` is ``'H1'``, ``'H0'`` or None
    (go on playing).

    >>> test = Sprt(0, 50, 0.05, 0.05)
    >>> [round(x, 3) for x in test.bounds], round(test.llr((10, 20, 30)), 3)
    ([-2.944, 2.944], 3.397)
    >>> Sprt(0, 50, 0.6, 0.5).check()
    Traceback (most recent call last):
    ...
    ValueError: alpha and beta are error rates above 0 with alpha + beta below 1, got alpha=0.6, beta=0.5
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def check(self) -> "Sprt":
        """The test itself if its parameters make sense, else a ``ValueError`` naming the problem."""
        for name in ("elo0", "elo1", "alpha", "beta"):
            x = getattr(self, name)
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise ValueError(f"the SPRT's {name} must be a finite number, got {x!r}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, got elo0={self.elo0}, elo1={self.elo1}")
        if not (0 < self.alpha and 0 < self.beta and self.alpha + self.beta < 1):
            raise ValueError(
                f"alpha and beta are error rates above 0 with alpha + beta below 1, got alpha={self.alpha}, beta={self.beta}"
            )
        return self

    @property
    def bounds(self) -> tuple:
        """Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: H0 below the first, H1 above the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    @property
    def scores(self) -> tuple:
        """The expected scores ``(s0, s1)`` of the two hypotheses."""
        return (elo_to_score(self.elo0), elo_to_score(self.elo1))

    def llr(self, results) -> float:
        """The generalized log-likelihood ratio of H1 over H0 given ``results`` (with the prior)."""
        counts = check_results(results)
        weights = _weights(counts)
        s0, s1 = self.scores
        k = len(counts) - 1
        return _profile(weights, _deltas(k, s0))[0] - _profile(weights, _deltas(k, s1))[0]

    def decide(self, results):
        """``'H1'`` once the ratio reaches the upper bound, ``'H0'`` once it reaches the lower, else None."""
        return _decision(self.llr(results), self.bounds)


def _weights(counts) -> list:
    """The counts as floats with the prior at both ends."""
    weights = [float(c) for c in counts]
    weights[0] += PRIOR
    weights[-1] += PRIOR
    return weights


def _deltas(k, s) -> tuple:
    """``a_i - s`` for the ``k + 1`` bins' scores ``a_i = i / k``."""
    return tuple(j / k - s for j in range(k + 1))


def _profile(weights, d, x=0.0) -> tuple:
    """``(sum w_i log(1 + x d_i), x)``: the log-likelihood the results lose when their mean is held at ``s``.

    The most likely distribution on the bins with mean ``s`` (``d = _deltas(k, s)``, ``d_i = a_i - s``,
    ``a_i`` the bin's score) puts ``w_i / (N (1 + x d_i))`` on bin ``i``, ``x``
    the root of ``sum w_i d_i / (1 + x d_i) = 0`` (Owen's empirical likelihood;
    Van den Bergh's note on the multinomial MLE): the log-likelihood of the
    results under it falls short of the empirical one by the sum returned.
    Newton's method from ``x`` (a nearby root: the last one), kept inside the
    bracket where every ``1 + x d_i`` is positive; the prior's weight at both
    ends keeps the root inside it for any ``0 < s < 1``.
    """
    lo, hi = -1.0 / d[-1], -1.0 / d[0]
    if not lo < x < hi:
        x = 0.0
    for _ in range(200):
        f = fp = 0.0
        for w, di in zip(weights, d):
            if w:
                q = di / (1.0 + x * di)
                f += w * q
                fp -= w * q * q
        if f > 0.0:
            lo = x
        elif f < 0.0:
            hi = x
        else:
            break
        step = x - f / fp
        if not lo < step < hi:
            step = 0.5 * (lo + hi)
        if step == x:
            break
        x = step
    return sum(w * math.log1p(x * di) for w, di in zip(weights, d) if w), x


def _decision(llr, bounds):
    if llr >= bounds[1]:
        return "H1"
    if llr <= bounds[0]:
        return "H0"
    return None


class SprtResult(NamedTuple):
    """Where a sequential test stopped: ``decision`` (``'H1'``, ``'H0'`` or None: undecided), after ``samples``, at ``llr``.

    ``results`` are the counts it stopped at (with those it started from);
    ``roots`` where the next step's root search starts (``sprt_scan(...,
    start=result)`` goes on exactly as one scan of all the outcomes).

    >>> result = sprt_scan(Sprt(0, 200), [2, 2, 2])
    >>> result.decision, result.samples, result.results, round(result.llr, 3)
    (None, 3, (0, 0, 3), 1.098)
    """

    test: Sprt
    decision: object
    samples: int
    llr: float
    results: tuple
    roots: tuple = (0.0, 0.0)

    def __str__(self):
        low, high = self.test.bounds
        what = {
            "H1": f"H1 accepted: Elo {self.test.elo1:g} or more rather than {self.test.elo0:g}",
            "H0": f"H0 accepted: Elo {self.test.elo0:g} or less rather than {self.test.elo1:g}",
            None: "undecided (the games ran out first)",
        }[self.decision]
        return (
            f"SPRT({self.test.elo0:g}, {self.test.elo1:g}, alpha={self.test.alpha:g}, beta={self.test.beta:g}): "
            f"{what}; LLR {self.llr:.2f} in [{low:.2f}, {high:.2f}]"
        )


def sprt_scan(test: Sprt, outcomes, bins: int = 3, start=None) -> SprtResult:
    """Feed ``outcomes`` (bin indices, lowest score 0) to ``test`` one at a time; stop at the first decision.

    ``bins`` is 3 for games (0 loss, 1 draw, 2 win) or 5 for pairs. ``start``:
    the counts already seen, or an undecided ``SprtResult`` to go on from
    (its counts and its roots: the scan then goes on exactly as one scan of
    all the outcomes would, float for float). The same decisions as
    ``test.decide`` on the counts after each outcome (a property checks it),
    each step starting its root search from the last one's.

    >>> result = sprt_scan(Sprt(0, 100), [2, 2, 1, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    >>> result.decision, result.samples, result.results
    ('H1', 15, (1, 1, 13))
    >>> print(result)
    SPRT(0, 100, alpha=0.05, beta=0.05): H1 accepted: Elo 100 or more rather than 0; LLR 3.01 in [-2.94, 2.94]
    >>> first = sprt_scan(Sprt(0, 100), [2, 2, 1, 2, 0])
    >>> rest = sprt_scan(Sprt(0, 100), [2] * 13, start=first)
    >>> rest.decision, first.samples + rest.samples, rest.results, rest.llr == result.llr
    ('H1', 15, (1, 1, 13), True)
    """
    test = test.check()
    if bins not in (3, 5):
        raise ValueError(f"bins is 3 (games) or 5 (pairs), got {bins!r}")
    resumed = None
    if isinstance(start, SprtResult):
        if start.decision is not None:
            raise ValueError(f"the test was decided already ({start.decision}): nothing to go on from")
        if start.test != test:
            raise ValueError(f"start is a result of another test: {start.test}")
        resumed, start = start, start.results
    counts = [0] * bins if start is None else list(check_results(start))
    if len(counts) != bins:
        raise ValueError(f"start has {len(counts)} counts, the outcomes {bins}")
    weights = _weights(counts)
    s0, s1 = test.scores
    bounds = test.bounds
    d0, d1 = _deltas(bins - 1, s0), _deltas(bins - 1, s1)
    if resumed is None:
        (l0, x0), (l1, x1) = _profile(weights, d0), _profile(weights, d1)
        llr = l0 - l1
    else:  # where the last scan stopped, as it stopped
        (x0, x1), llr = resumed.roots, resumed.llr
    decision, seen = None, 0
    for j in outcomes:
        if not (type(j) is int and 0 <= j < bins):
            raise ValueError(f"an outcome is a bin index 0..{bins - 1}, got {j!r}")
        counts[j] += 1
        weights[j] += 1.0
        seen += 1
        (l0, x0), (l1, x1) = _profile(weights, d0, x0), _profile(weights, d1, x1)
        llr = l0 - l1
        decision = _decision(llr, bounds)
        if decision is not None:
            break
    return SprtResult(test, decision, seen, llr, tuple(counts), (x0, x1))
