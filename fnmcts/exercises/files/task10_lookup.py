"""Exercise 10: a look-up table (the Clojure tutorial, task 10).

Which move is best? The one from which the chance of winning is highest. A
first table: for every box, the probability of winning from it when every
later choice is made at random, estimated by simulation (exercise 8's rules).

* ``all_boxes()``: every box, all 2**9 = 512 of them (the empty box too).
* ``win_probability(box, n, rng)``: the fraction of ``n`` random games from
  ``box`` that are won (the ``simulate`` of exercise 7, from any box).
* ``lookup_table(n, rng)``: a dict from every box to ``win_probability(box, n,
  rng)``.

Then show the table's probability beside each choice in ``play_game_user``
(exercise 9): the game gives you hints.
"""

import random


def all_boxes():
    """The 512 boxes: every subset of the levers 1..9, as frozensets."""
    raise NotImplementedError


def win_probability(box: frozenset, n: int, rng: random.Random) -> float:
    """The fraction of ``n`` random games won from ``box``."""
    raise NotImplementedError


def lookup_table(n: int, rng: random.Random) -> dict:
    """Every box -> its estimated probability of winning under random play."""
    raise NotImplementedError
