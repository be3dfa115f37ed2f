"""Task 1, continued: throw darts at a circle inscribed in a square; estimate pi.

A throw is a point ``(x, y)`` uniform on the square [-1, 1] x [-1, 1]; it wins
when it lands inside the unit circle, which happens with probability pi / 4.

>>> from fnmcts.rng import make_rng
>>> throw_dart(make_rng(3))
(-0.5240707458162173, 0.08845845059190371)
>>> is_win((0.5, 0.5)), is_win((0.9, 0.9))
(True, False)
>>> record = simulate(100_000, seed=1)
>>> round(4 * record.estimate, 3)
3.141
"""

from __future__ import annotations

import random

__all__ = ["throw_dart", "is_win", "count_hits", "simulate", "pi_estimate"]


def throw_dart(rng: random.Random) -> tuple[float, float]:
    """A dart ``(x, y)``: ``rand`` scaled by 2 and shifted by -1, twice.

    >>> import random
    >>> throw_dart(random.Random(3))
    (-0.5240707458162173, 0.08845845059190371)
    """
    return (rng.random() * 2 - 1, rng.random() * 2 - 1)


def is_win(throw: tuple[float, float]) -> bool:
    """Inside the circle: ``x**2 + y**2 < 1``.

    >>> is_win((0.5, 0.5)), is_win((0.9, 0.9)), is_win((1.0, 0.0))
    (True, False, False)
    """
    x, y = throw
    return x * x + y * y < 1


def count_hits(n: int, rng: random.Random) -> int:
    """Hits in ``n`` darts thrown at once (numpy, the batch extra): ``throw_dart``'s distribution, other draws.

    >>> import random
    >>> 7_700 < count_hits(10_000, random.Random(1)) < 8_000  # pi / 4 = 0.785...
    True
    """
    from ._vector import generator

    x, y = generator(rng).random((2, n)) * 2 - 1
    return int((x * x + y * y < 1).sum())


def simulate(n: int, seed=None, batch: bool = False, **options):
    """Throw ``n`` darts; the record of hits with its 95% interval (``batch=True``: ``count_hits`` per chunk).

    >>> record = simulate(1_000, seed=2)
    >>> record.win, record.games, record.estimate
    (783, 1000, 0.783)
    >>> round(4 * simulate(1_000_000, seed=2, batch=True).estimate, 2)
    3.14
    """
    from ..sampling import estimate

    return estimate(throw_dart, n, win=is_win, seed=seed, batch=count_hits if batch else None, **options)


def pi_estimate(record) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of pi from a darts record: four times the hit rate.

    >>> from fnmcts.sampling import Simulation
    >>> pi_estimate(Simulation.of(785, 1000))[0]
    3.14
    """
    return (4 * record.estimate, 4 * record.ci_low, 4 * record.ci_high)
