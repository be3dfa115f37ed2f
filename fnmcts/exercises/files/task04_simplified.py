"""Exercise 4: simplified Shut the Box (the Clojure tutorial, task 4).

The simplified rules: after the roll, if the lever with the roll's number is
up, flip it down and carry on; if it is already down (or there is no such
lever: 10, 11, 12), the game is lost. Two dice never roll a 1, so lever 1
starts down.

* ``possible_moves(box, roll)``: the set of boxes the roll can lead to. A
  set with one box (the roll's lever flipped down) when the roll can be
  played; the empty set when it is a loss. Always a set, either way.

For example, with levers 1, 3 and 6 down, a roll of 9 gives the set holding
the box without 9, and a roll of 6 gives the empty set.
"""


def possible_moves(box: frozenset, roll: int) -> set:
    """The boxes ``roll`` can lead to from ``box`` under the simplified rules (zero or one)."""
    raise NotImplementedError
