"""Exercise 1: Monte Carlo darts (the Clojure tutorial, task 1).

Throw darts at a square board from -1 to 1 on both axes with a circle of
radius 1 drawn inside it. A dart wins when it lands inside the circle. The
fraction of winning darts estimates the circle's share of the square, pi / 4:
multiply it by 4 and a familiar number appears.

Write three functions (``rng`` is a ``random.Random``; call ``rng.random()``
where the tutorial calls ``rand``):

* ``throw_dart(rng)``: one dart, a pair ``(x, y)``. Draw x first, then y, each
  as ``rng.random()`` times 2 minus 1.
* ``is_win(throw)``: is the dart inside the circle, ``x**2 + y**2 < 1``?
* ``simulate(n, rng)``: throw ``n`` darts; return the fraction that won.

Check your work with ``fnmcts exercise check 1 THIS_FILE``.
"""

import random


def throw_dart(rng: random.Random):
    """One dart: ``(x, y)``, each uniform on [-1, 1), x drawn first."""
    raise NotImplementedError


def is_win(throw) -> bool:
    """True when the dart ``(x, y)`` lands inside the circle of radius 1."""
    raise NotImplementedError


def simulate(n: int, rng: random.Random) -> float:
    """Throw ``n`` darts; the fraction inside the circle."""
    raise NotImplementedError
