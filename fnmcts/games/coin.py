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

__all__ = ["HEADS", "TAILS", "flip_coin", "is_win", "count_heads", "simulate"]

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


def count_heads(n: int, rng: random.Random) -> int:
    """Heads in ``n`` flips at once (numpy, the batch extra): ``flip_coin``'s distribution, other draws.

    >>> import random
    >>> 4_800 < count_heads(10_000, random.Random(1)) < 5_200
    True
    """
    from ._vector import generator

    return int((generator(rng).random(n) < 0.5).sum())


def simulate(n: int, seed=None, batch: bool = False, **options):
    """Flip ``n`` coins; the record of wins with its 95% interval (``batch=True``: ``count_heads`` per chunk).

    >>> record = simulate(1_000, seed=2)
    >>> record.win, record.games, record.estimate, round(record.ci_low, 4), round(record.ci_high, 4)
    (497, 1000, 0.497, 0.4661, 0.5279)
    >>> simulate(1_000_000, seed=2, batch=True).ci_low < 0.5 < simulate(1_000_000, seed=2, batch=True).ci_high
    True
    """
    from ..sampling import estimate

    return estimate(flip_coin, n, win=is_win, seed=seed, batch=count_heads if batch else None, **options)
