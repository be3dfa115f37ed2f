"""Monte Carlo: repeated trials, simulated games, estimates with 95% intervals.

A trial is a function of an ``rng``; ``estimate`` runs it ``n`` times and
returns a ``Simulation`` record: the win and loss counts, the estimate and its
95% Wilson score interval. ``simulate`` does the same for whole games of the
protocol, played by an agent (random play by default).

>>> from fnmcts.games.coin import flip_coin, is_win
>>> record = estimate(flip_coin, 10_000, win=is_win, seed=1)
>>> record.games, record.win
(10000, 4908)
>>> record.ci_low < 0.5 < record.ci_high
True
"""

from __future__ import annotations

import math
import random
from functools import partial
from typing import Callable

from pyrsistent import PRecord, field

from .parallel import DEFAULT_CHUNK, check_count, run_chunks
from .play import playout
from .protocol import check_state
from .rng import resolve_seed

__all__ = [
    "Simulation",
    "Z95",
    "wilson_interval",
    "estimate",
    "simulate",
    "playout",
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
    """
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


class Simulation(PRecord):
    """An immutable record of a simulation: counts, estimate, 95% interval, seed."""

    win = field(type=int, mandatory=True)
    loss = field(type=int, mandatory=True)
    games = field(type=int, mandatory=True)
    estimate = field(type=float, mandatory=True)
    ci_low = field(type=float, mandatory=True)
    ci_high = field(type=float, mandatory=True)
    seed = field(mandatory=True)

    @classmethod
    def of(cls, win: int, games: int, seed=None) -> "Simulation":
        """The record of ``win`` wins in ``games`` games.

        >>> Simulation.of(3, 4).loss
        1
        """
        low, high = wilson_interval(win, games)
        return cls(
            win=win,
            loss=games - win,
            games=games,
            estimate=win / games if games else 0.0,
            ci_low=low,
            ci_high=high,
            seed=seed,
        )

    def merge(self, other: "Simulation") -> "Simulation":
        """The record of both simulations together."""
        return Simulation.of(self.win + other.win, self.games + other.games, self.seed)

    def to_json(self) -> dict:
        """A plain dict for ``json.dumps``."""
        return {k: self[k] for k in ("games", "win", "loss", "estimate", "ci_low", "ci_high", "seed")} | {
            "wins": self.win,
            "losses": self.loss,
        }


def _trial_chunk(trial, win, size, rng) -> int:
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
) -> Simulation:
    """Run ``trial(rng)`` ``n`` times; count the results for which ``win`` holds.

    The trials are cut into chunks of ``chunk_size``, each with its own child
    seed of ``seed`` (an ``rng``, if given instead, supplies that seed): the same
    seed gives the same record on one worker or many.
    """
    check_count(n, "the number of trials")
    base = resolve_seed(seed, rng)
    counts = run_chunks(partial(_trial_chunk, trial, win), n, base, chunk_size, executor, progress)
    return Simulation.of(sum(counts), n, base)


def _game_chunk(game, state, agent, size, rng) -> int:
    if agent is None and hasattr(game, "random_wins"):
        return game.random_wins(state, size, rng)
    if agent is None and hasattr(game, "random_payoff"):
        return sum(1 for _ in range(size) if game.random_payoff(state, rng)[0] > 0)
    wins = 0
    for _ in range(size):
        if game.payoff(playout(game, state, rng, agent))[0] > 0:
            wins += 1
    return wins


def simulate(
    game,
    n: int,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    state=None,
    agent=None,
    executor=None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Play ``n`` games of ``game`` from ``state`` (default: the start); count wins.

    A win is a positive payoff to the first player (for Shut the Box: an empty
    box). ``agent`` chooses the moves (default: uniformly at random, through the
    game's fast kernel where it has one). Same seed, same record, whatever the
    executor.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> simulate(ShutTheBox(), 20_000, seed=5).games
    20000
    """
    check_count(n, "the number of games")
    base = resolve_seed(seed, rng)
    start = check_state(game, game.start() if state is None else state)
    fn = partial(_game_chunk, game, start, agent)
    counts = run_chunks(fn, n, base, chunk_size, executor, progress)
    return Simulation.of(sum(counts), n, base)
