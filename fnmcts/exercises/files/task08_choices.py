"""Exercise 8: Shut the Box with a choice (the Clojure tutorial, task 8).

The real rules: after the roll, flip down any set of levers still up whose
numbers add up to the roll (a 6: the 6; or 1 and 5; or 2 and 4; or 1, 2 and 3).
No such set: the game is lost. The player (the computer, for now) chooses
among the possible moves at random.

* ``levers_for_roll(roll)``: every set of levers from 1 to 9 that adds up to
  ``roll`` (a collection of tuples or sets; the empty set of levers adds up to
  0). Filter the power set of the nine levers, once, not at every move.
* ``possible_moves(box, roll)``: the set of every box the roll can lead to
  (zero, one or more), each box being ``box`` less the levers flipped.
* ``play_game(box, rng)``: one game from ``box`` to the end under these rules,
  choosing each move uniformly at random; ``"win"`` or ``"loss"``.

Then simulate a million games from the full box again (exercise 7) and write
the probability down.
"""

import random


def levers_for_roll(roll: int):
    """The sets of levers 1..9 adding up to ``roll``."""
    raise NotImplementedError


def possible_moves(box: frozenset, roll: int) -> set:
    """The boxes ``roll`` can lead to from ``box`` under the full rules."""
    raise NotImplementedError


def play_game(box: frozenset, rng: random.Random) -> str:
    """One game from ``box`` with random choices: ``"win"`` or ``"loss"``."""
    raise NotImplementedError
