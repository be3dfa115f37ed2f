"""Exercise 14: agents for Nim (the Nim notebook: single-heap Nim, taking the last stick loses).

One heap of sticks; the players take turns removing 1 to ``max_take`` sticks
(never more than are left); whoever takes the last stick loses. The notebook's
first two agents:

* ``random_agent(heap, max_take, rng)``: how many sticks to take, uniformly at
  random among the legal numbers.
* ``perfect_agent(heap, max_take)``: a winning number to take whenever the
  heap allows a win (leave the opponent a losing heap), any legal number when
  it does not. Hint: with ``max_take`` 3, the heaps 1, 5, 9, ... lose for the
  player to move.
"""

import random


def random_agent(heap: int, max_take: int, rng: random.Random) -> int:
    """A legal number of sticks to take, uniformly at random."""
    raise NotImplementedError


def perfect_agent(heap: int, max_take: int) -> int:
    """A winning number of sticks to take (misère: the last stick loses), else any legal one."""
    raise NotImplementedError
