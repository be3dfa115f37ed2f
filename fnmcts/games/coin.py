"""Task 1: flip a coin many times and estimate the probability of winning.

>>> from fnmcts.rng import make_rng
>>> rng = make_rng(1)
>>> [flip_coin(rng) for _ in range(4)]
['heads', 'tails', 'tails', 'heads']
>>> is_win("heads")
True
>>> simulate(10_000, seed=1).estimate
0.4908
"""

from __future__ import annotations

import random

__all__ = ["HEADS", "TAILS", "flip_coin", "is_win", "simulate"]

HEADS = "heads"
TAILS = "tails"


def flip_coin(rng: random.Random) -> str:
    """``'heads'`` or ``'tails'``, each with probability 1/2 (one ``rng.random()``).

    >>> import random
    >>> rng = random.Random(1)
    >>> [flip_coin(rng) for _ in range(3)]
    ['heads', 'tails', 'tails']
    """
    return HEADS if rng.random() < 0.5 else TAILS


def is_win(result: str) -> bool:
    """The tutorial's ``win?``: heads you win.

    >>> is_win("heads"), is_win("tails")
    (True, False)
    """
    return result == HEADS


def simulate(n: int, seed=None, **options):
    """Flip ``n`` coins; the record of wins with its 95% interval.

    >>> record = simulate(1_000, seed=2)
    >>> record.win, record.games, record.estimate, round(record.ci_low, 4), round(record.ci_high, 4)
    (497, 1000, 0.497, 0.4661, 0.5279)
    """
    from ..montecarlo import estimate

    return estimate(flip_coin, n, win=is_win, seed=seed, **options)
