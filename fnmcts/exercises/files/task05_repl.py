"""Exercise 5: play from the REPL (the Clojure tutorial, task 5).

In the tutorial you call ``possible_moves`` and ``dice_roll`` by hand, feeding
each result back in, until the game ends. Here you write that loop for a
given list of rolls, under the simplified rules of task 4.

* ``start_box()``: the box at the start of the simplified game (every lever
  up but lever 1).
* ``play_rolls(box, rolls)``: play the rolls in order from ``box``; return the
  list of boxes seen, ``box`` first. Stop after a roll that loses (the list
  then ends with the last box reached) or when the box is empty (a win);
  rolls left over are not played.

For example ``play_rolls(frozenset({2, 3}), [3, 3, 2])`` is
``[frozenset({2, 3}), frozenset({2})]``: the second 3 loses.
Copy your ``possible_moves`` from exercise 4 into this file and use it.
"""


def start_box() -> frozenset:
    """Levers 2 to 9 up."""
    raise NotImplementedError


def play_rolls(box: frozenset, rolls) -> list:
    """The boxes seen while playing ``rolls`` from ``box`` (simplified rules)."""
    raise NotImplementedError
