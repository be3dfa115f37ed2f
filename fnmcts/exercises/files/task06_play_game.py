"""Exercise 6: play the game automatically (the Clojure tutorial, task 6).

Under the simplified rules of task 4 there is no choice to make, so the
computer can play a whole game alone:

1. if every lever is down, the game is a win;
2. otherwise roll the dice and get the possible moves;
3. no possible move: a loss; else play on from the new box.

* ``play_game(box, rng)``: play from ``box`` to the end with dice rolled from
  ``rng`` (a ``random.Random``); return ``"win"`` or ``"loss"``.

Wins from the start are rare: try a box with one lever left, such as
``frozenset({7})``, which should win about one game in six.
Copy your ``dice_roll`` (exercise 3) and ``possible_moves`` (exercise 4).
"""

import random


def play_game(box: frozenset, rng: random.Random) -> str:
    """``"win"`` or ``"loss"``: one game from ``box`` under the simplified rules."""
    raise NotImplementedError
