"""Sampling: repeated trials of a function of an ``rng``, counted, with 95% intervals.

The game-free half of Monte Carlo. A trial is a function of an ``rng``;
``estimate`` runs it ``n`` times, in chunks with child seeds (the same seed
gives the same record on one worker or many), and returns a ``Simulation``
record: the win and loss counts, the estimate and its 95% Wilson score
interval (``wilson_interval``), the payoff sums and the mean's own interval
(``mean_interval``). Nothing here knows a game: ``fnmcts.montecarlo`` plays
whole games of the protocol on top of it and re-exports every name below, and
the tutorial's coin and darts trials (``fnmcts.games.coin``,
``fnmcts.games.darts``) run on it from the game layer.

>>> six = estimate(lambda rng: rng.random() * 6 < 1, 6_000, seed=2)  # a die showing a six
>>> six.win, six.loss, [round(x, 4) for x in (six.ci_low, six.ci_high)]
(983, 5017, [0.1547, 0.1734])
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import partial
from typing import Callable

from pyrsistent import field

from .limits import WORK_LIMIT, check_work
from .parallel import DEFAULT_CHUNK, Interrupted, WorkerLost, check_count, chunks_done, interrupted, run_chunks
from .rng import resolve_seed
from .values import FixedRecord

__all__ = [
    "Simulation",
    "Z95",
    "wilson_interval",
    "mean_interval",
    "estimate",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Sound near 0 and 1, where the normal approximation fails (the simplified
    Shut the Box is won about twice in 10,000 games).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> wilson_interval(5, 10, z=float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: z must be a finite number > 0 (1.96 for 95%), got nan
    """
    _check_z(z)
    for name, count in (("wins", wins), ("games", games)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {count!r}")
    if wins > games:
        raise ValueError(f"wins ({wins}) cannot exceed games ({games})")
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    # at p = 0 and p = 1 the interval ends exactly at 0 or 1; rounding must not move it
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return (low, high)


def _check_z(z) -> None:
    """A ``ValueError`` (``TypeError`` for a non-number) unless ``z`` is a finite number above 0."""
    if isinstance(z, bool) or not isinstance(z, (int, float)):
        raise TypeError(f"z must be a number (1.96 for 95%), got {type(z).__name__}: {z!r}")
    if not (0 < z < math.inf):
        raise ValueError(f"z must be a finite number > 0 (1.96 for 95%), got {z!r}")


def mean_interval(
    total: float, sum_squares: float, games: int, low: float = 0.0, high: float = 1.0, z: float = Z95
) -> tuple[float, float]:
    """A 95% interval for the mean of ``games`` payoffs in ``[low, high]``, from their sums.

    The normal interval ``mean +/- z * s / sqrt(games)``, with ``s**2`` the
    sample variance ``(sum_squares - total**2 / games) / (games - 1)``, clipped
    to ``[low, high]``: the mean of bounded payoffs is asymptotically normal,
    and the payoffs cannot leave their range. With fewer than two games there
    is no variance to estimate and the interval is the whole range. Like every
    normal interval it is too narrow for a handful of games, or when nearly
    every game pays the same (all the same: no width at all); there the Wilson
    interval of the win share (``wilson_interval``) is the sound figure. The
    variance comes from raw sums, so it loses about ``sqrt(eps)`` times the
    payoff to rounding: negligible unless the range lies far from 0 and the
    payoffs barely vary.

    >>> [round(x, 4) for x in mean_interval(50.0, 50.0, 100)]  # 50 payoffs of 1, 50 of 0
    [0.4015, 0.5985]
    >>> mean_interval(3.0, 5.0, 1, -1, 5)
    (-1.0, 5.0)
    """
    _check_z(z)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, got {games!r}")
    if not low < high:
        raise ValueError(f"the payoff range must have low < high, got {(low, high)!r}")
    low, high = float(low), float(high)
    if games < 2:
        return (low, high)
    mean = total / games
    variance = max(0.0, (sum_squares - total * mean) / (games - 1))
    half = z * math.sqrt(variance / games)
    return (min(high, max(low, mean - half)), max(low, min(high, mean + half)))


def _range_of(payoffs) -> tuple[float, float]:
    """``payoffs`` as a checked ``(low, high)`` pair of floats."""
    try:
        low, high = payoffs
    except (TypeError, ValueError):
        raise ValueError(f"payoff_range must be a pair (low, high), got {payoffs!r}") from None
    if not low < high:
        raise ValueError(f"payoff_range must have low < high, got {payoffs!r}")
    return (float(low), float(high))


def _whole(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return value


def _interval_fields() -> tuple:
    """The ``estimate``, ``ci_low`` and ``ci_high`` fields of a record that reports an estimate with its 95% interval.

    Declared in a record's body as ``estimate, ci_low, ci_high = _interval_fields()``, so each such
    record (``Simulation``, ``fnmcts.tables.LookupEntry``) types the three alike and keeps its order.

    >>> Simulation._declared_fields[2:6]
    ('games', 'estimate', 'ci_low', 'ci_high')
    """
    return tuple(field(type=float, mandatory=True) for _ in range(3))


class Simulation(FixedRecord):
    """An immutable record of a simulation: counts, estimate, 95% interval, seed.

    ``win``, ``draw`` and ``loss`` count the games (or trials) by player 1's
    rescaled payoff (above, at or below the middle of ``payoff_range``);
    ``graded`` counts those that paid neither extreme (every draw is one).
    ``estimate`` is the share of wins, ``ci_low``/``ci_high`` its 95% Wilson
    interval. ``total`` and ``sum_squares`` are the sums of player 1's payoffs
    and of their squares; ``mean`` is the mean payoff and ``mean_low`` /
    ``mean_high`` its 95% interval (``mean_interval``). Build one with
    ``Simulation.of``.

    >>> payoffs = (1, 1, 0.75, 0.5, 0.5, 0.25, 0, 0)  # three wins, two draws, three losses
    >>> record = Simulation.of(3, 8, draw=2, total=sum(payoffs), sum_squares=sum(x * x for x in payoffs), graded=4)
    >>> record.loss, record.estimate, record.mean
    (3, 0.375, 0.5)
    >>> [round(x, 3) for x in (record.mean_low, record.mean_high)]
    [0.222, 0.778]
    """

    win = field(type=int, mandatory=True)
    loss = field(type=int, mandatory=True)
    games = field(type=int, mandatory=True)
    estimate, ci_low, ci_high = _interval_fields()
    seed = field(mandatory=True)
    draw = field(type=int, initial=0)
    graded = field(type=int, initial=0)
    total = field(type=float, initial=0.0)
    sum_squares = field(type=float, initial=0.0)
    payoff_range = field(type=tuple, initial=(0.0, 1.0))

    @classmethod
    def of(
        cls,
        win: int,
        games: int,
        seed=None,
        *,
        draw: int = 0,
        total: float | None = None,
        sum_squares: float | None = None,
        graded: int | None = None,
        payoff_range: tuple = (0, 1),
    ) -> "Simulation":
        """The record of ``win`` wins and ``draw`` draws in ``games`` games.

        ``total`` and ``sum_squares`` are the sums of player 1's payoffs and
        of their squares; without them every win paid the top of
        ``payoff_range``, every loss the bottom and every draw the middle.
        ``graded`` (default: the draws) counts the games that paid neither
        extreme.

        >>> Simulation.of(3, 4).loss
        1
        >>> record = Simulation.of(5, 10, draw=2, payoff_range=(-1, 1))
        >>> record.loss, record.total, record.mean
        (3, 2.0, 0.2)
        """
        low, high = _range_of(payoff_range)
        ci_low, ci_high = wilson_interval(win, games)
        loss = games - win - _whole(draw, "draw")
        if loss < 0:
            raise ValueError(f"wins ({win}) and draws ({draw}) cannot exceed games ({games})")
        if (total is None) != (sum_squares is None):
            raise ValueError("give total and sum_squares together, or neither")
        if total is None:
            top, bottom = Fraction(payoff_range[1]), Fraction(payoff_range[0])
            middle = (top + bottom) / 2
            total = float(win * top + loss * bottom + draw * middle)
            sum_squares = float(win * top * top + loss * bottom * bottom + draw * middle * middle)
        graded = draw if graded is None else _whole(graded, "graded")
        if not draw <= graded <= games:
            raise ValueError(f"graded games ({graded}) must be at least the draws ({draw}) and at most the games")
        return cls(
            win=win,
            loss=loss,
            games=games,
            estimate=win / games if games else 0.0,
            ci_low=ci_low,
            ci_high=ci_high,
            seed=seed,
            draw=draw,
            graded=graded,
            total=float(total),
            sum_squares=float(sum_squares),
            payoff_range=(low, high),
        )

    @property
    def mean(self) -> float:
        """The mean payoff of player 1 (the middle of the range before any game).

        >>> Simulation.of(1, 4, payoff_range=(-1, 1)).mean
        -0.5
        """
        if self.games == 0:
            return (self.payoff_range[0] + self.payoff_range[1]) / 2
        return self.total / self.games

    @property
    def mean_low(self) -> float:
        """The lower end of the mean payoff's 95% interval (``mean_interval``).

        >>> Simulation.of(0, 1).mean_low
        0.0
        """
        return mean_interval(self.total, self.sum_squares, self.games, *self.payoff_range)[0]

    @property
    def mean_high(self) -> float:
        """The upper end of the mean payoff's 95% interval (``mean_interval``).

        >>> Simulation.of(0, 1).mean_high
        1.0
        """
        return mean_interval(self.total, self.sum_squares, self.games, *self.payoff_range)[1]

    def merge(self, other: "Simulation") -> "Simulation":
        """The record of both simulations together (the seed is this one's).

        Counts add exactly; the payoff sums add as floats, this record's first.

        >>> a = Simulation.of(3, 4, seed=1)
        >>> b = Simulation.of(1, 4, draw=2, seed=2)
        >>> merged = a.merge(b)
        >>> merged.win, merged.draw, merged.loss, merged.total, merged.seed
        (4, 2, 2, 5.0, 1)
        """
        if self.payoff_range != other.payoff_range:
            raise ValueError(
                f"cannot merge records of payoff ranges {self.payoff_range!r} and {other.payoff_range!r}"
            )
        return Simulation.of(
            self.win + other.win,
            self.games + other.games,
            self.seed,
            draw=self.draw + other.draw,
            total=self.total + other.total,
            sum_squares=self.sum_squares + other.sum_squares,
            graded=self.graded + other.graded,
            payoff_range=self.payoff_range,
        )

    def to_json(self) -> dict:
        """A plain dict for ``json.dumps``: every field, the mean and its interval.

        >>> data = Simulation.of(3, 4, seed=7).to_json()
        >>> data["wins"], data["draws"], data["losses"], data["mean"], data["seed"]
        (3, 0, 1, 0.75, 7)
        """
        keys = ("games", "win", "draw", "loss", "estimate", "ci_low", "ci_high", "seed", "graded", "total")
        return {k: self[k] for k in keys} | {
            "sum_squares": self.sum_squares,
            "payoff_range": list(self.payoff_range),
            "mean": self.mean,
            "mean_low": self.mean_low,
            "mean_high": self.mean_high,
            "wins": self.win,
            "draws": self.draw,
            "losses": self.loss,
        }


class _Batch:
    """A batch kernel ``count(size, rng) -> wins`` in the place of a trial (picklable when ``count`` is)."""

    __slots__ = ("count",)

    def __init__(self, count):
        self.count = count

    def __reduce__(self):
        return (_Batch, (self.count,))


def _trial_chunk(trial, win, size, rng) -> int:
    if isinstance(trial, _Batch):  # a batch kernel: the wins of ``size`` trials at once
        return int(trial.count(size, rng))
    if win is None:
        return sum(1 for _ in range(size) if trial(rng))
    return sum(1 for _ in range(size) if win(trial(rng)))


def estimate(
    trial: Callable[[random.Random], object],
    n: int,
    *,
    win: Callable[[object], bool] | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
    executor=None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
    limit: int | None = WORK_LIMIT,
    batch: Callable | None = None,
) -> Simulation:
    """Run ``trial(rng)`` ``n`` times; count the results for which ``win`` holds.

    The trials are cut into chunks of ``chunk_size``, each with its own child
    seed of ``seed`` (an ``rng``, if given instead, supplies that seed): the same
    seed gives the same record on one worker or many. A trial pays 1 when it
    wins and 0 when it does not, so the mean is the estimate. Ctrl-C raises
    ``Interrupted`` whose ``partial`` is the record of the chunks finished.
    More than ``limit`` trials (``fnmcts.limits.WORK_LIMIT``) is refused up
    front (``TooLarge``; ``limit=None`` goes on). ``batch``: a function
    ``(size, rng) -> wins`` that runs ``size`` trials at once (vectorised, e.g.
    ``fnmcts.games.coin.count_heads``), used for every chunk in place of the
    trial: the same distribution, other draws.

    >>> record = estimate(lambda rng: rng.random(), 1_000, win=lambda x: x < 0.5, seed=3)
    >>> record.win + record.loss, record.mean == record.estimate
    (1000, True)
    >>> estimate(5, 10)
    Traceback (most recent call last):
    ...
    TypeError: estimate(trial, n, ...): trial is a function of a random.Random that plays one trial (lambda rng: rng.random() < 0.5), got 5
    """
    if batch is None and not callable(trial):
        raise TypeError(f"estimate(trial, n, ...): trial is a function of a random.Random that plays one trial "
                        f"(lambda rng: rng.random() < 0.5), got {trial!r}")
    if win is not None and not callable(win):
        raise TypeError(f"win must be a function of a trial's result that says whether it won, got {win!r}")
    check_count(n, "the number of trials")
    check_work(n, what="trials", limit=limit)
    base = resolve_seed(seed, rng)
    if batch is not None:
        trial, win = _Batch(batch), None
    try:
        counts = run_chunks(partial(_trial_chunk, trial, win), n, base, chunk_size, executor, progress)
    except (Interrupted, WorkerLost) as stop:
        counts = chunks_done(stop)
        done = min(n, len(counts) * chunk_size)  # every chunk is whole but the last
        raise interrupted(stop, Simulation.of(sum(counts), done, base)) from None
    return Simulation.of(sum(counts), n, base)
