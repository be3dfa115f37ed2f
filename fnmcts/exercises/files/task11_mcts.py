"""Exercise 11: Monte Carlo tree search (the Clojure tutorial, task 11).

Random play wins about 2% of the games; a strategy can do better. MCTS grows
a tree of boxes, each with a record of wins and losses, one dive at a time.

The rating of a record with ``w`` wins and ``l`` losses in ``n = w + l``
games is the tutorial's upper confidence bound, with z = 2:
``(w + z * sqrt(w * l / n)) / n``, infinity when ``n`` is 0 (a node never
tried must be tried) and, by the rule of three, ``3 / n`` when ``w`` is 0.

* ``ucb(record)``: that rating of a record, a dict such as
  ``{"win": 23, "loss": 77}`` (a missing key counts 0).
* ``uct(tree, box, rng)``: one dive from ``box``. The tree is a map from boxes
  to records; do not change the tree you are given: build and return a new
  one. If ``box`` is not in the tree, play one random game from it (exercise
  8's ``play_game``) and add it with the record of that game. Otherwise roll
  the dice: no possible move is a loss; else dive into the move with the
  highest ``ucb`` rating. Add the result to ``box``'s record on the way back.
  Return the pair ``(new_tree, result)``, result ``"win"`` or ``"loss"``.
  (An empty box is a win, with no game to play.)

Run a thousand dives from the full box, keeping the tree from dive to dive,
then ten thousand: playing the move of the best record wins more often than
random play. Learning has occurred.
"""

import math
import random


def ucb(record) -> float:
    """The tutorial's upper confidence bound of a record of wins and losses (z = 2)."""
    raise NotImplementedError


def uct(tree, box: frozenset, rng: random.Random):
    """One dive from ``box``: ``(new_tree, result)``; ``tree`` itself unchanged."""
    raise NotImplementedError
