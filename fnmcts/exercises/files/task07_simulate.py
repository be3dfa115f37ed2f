"""Exercise 7: Monte Carlo simulation of Shut the Box (the Clojure tutorial, task 7).

Play the simplified game (task 4) from beginning to end many times and count
the wins, as the coin and the darts of task 1 did: the fraction of games won
estimates the probability of winning.

* ``simulate(n, rng, box=None)``: play ``n`` games from ``box`` (``None``:
  the simplified start, every lever up but 1) with dice from ``rng``; return
  the fraction of games won.

The tutorial asks for n = 1,000,000 from the start: write your estimate down.
Copy your ``play_game`` from exercise 6.
"""

import random


def simulate(n: int, rng: random.Random, box=None) -> float:
    """The fraction of ``n`` simplified games won from ``box``."""
    raise NotImplementedError
