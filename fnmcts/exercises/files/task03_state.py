"""Exercise 3: the game state (the Clojure tutorial, task 3).

A state of Shut the Box is a box (which of the nine levers are up) and a dice
roll. Choose a representation: here a box is a ``frozenset`` of the levers
still up (hashable, so it can be a key of a dict later), and a roll is the
dice's total, an ``int`` from 2 to 12.

* ``state_count()``: how many states are there (every box with every roll
  two dice can make)?
* ``sample_box()``: the box with levers 1, 3 and 6 already down.
* ``sample_state()``: that box with the dice showing a 5 and a 3, as a pair
  ``(box, roll)``.
* ``dice_roll(rng)``: a random roll of two six-sided dice (the sum), with
  ``rng.randint`` or ``rng.random`` of the ``random.Random`` you are given.
  Roll each die: a 7 must come up six times as often as a 12.
"""

import random


def state_count() -> int:
    """The number of (box, roll) states."""
    raise NotImplementedError


def sample_box() -> frozenset:
    """Levers 1, 3 and 6 down: the frozenset of the levers still up."""
    raise NotImplementedError


def sample_state():
    """``(sample_box(), roll)`` for dice showing 5 and 3."""
    raise NotImplementedError


def dice_roll(rng: random.Random) -> int:
    """The total of two six-sided dice."""
    raise NotImplementedError
