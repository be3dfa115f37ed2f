"""Exercise 12: the full tree, solved exactly (the Clojure tutorial, task 12).

The game is small (512 boxes, 11 rolls), so every probability can be computed
exactly instead of estimated. Think of two players: the dice choose a roll,
then the player chooses a move. A box's value is the sum over the 11 rolls of
the roll's probability times the value after it; the value after a roll is the
value of the best move, or 0 when no move is possible. An empty box is worth 1.
Work from small boxes up (a move only ever removes levers), or recursively,
remembering the boxes already solved.

* ``roll_probability(roll)``: the chance that two dice add up to ``roll``
  (3/36 for a 4; 0 for a roll that cannot happen).
* ``solve()``: a dict from every box (all 512) to its probability of winning
  with the best play. Use ``fractions.Fraction`` for exact values, or floats.

Write down the value of the full box.
"""

from fractions import Fraction


def roll_probability(roll: int):
    """The probability that two six-sided dice add up to ``roll``."""
    raise NotImplementedError


def solve() -> dict:
    """Every box -> its probability of winning under optimal play."""
    raise NotImplementedError
