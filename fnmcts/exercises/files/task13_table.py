"""Exercise 13: the table of optimal moves (the Clojure tutorial, task 13).

With the exact values of exercise 12, write for every box and every roll the
best move to make (any of the best when several tie), then save the table as
text, and take it to the pub.

* ``optimal_moves(values)``: from ``values`` (a dict from every box to its
  probability of winning, as exercise 12's ``solve`` returns), a dict from
  each ``(box, roll)`` with at least one possible move (roll 2 to 12, box not
  empty) to the best box to leave.
* ``table_lines(table)``: the table as lines of text, one per entry, sorted
  as you like, e.g. ``"1 2 3 4 5 6 7 8 9 | 11 | flip 2 9"``.

Copy ``possible_moves`` from exercise 8.
"""


def optimal_moves(values: dict) -> dict:
    """``(box, roll)`` -> the best box to leave."""
    raise NotImplementedError


def table_lines(table: dict) -> list:
    """One line of text per entry of ``table``."""
    raise NotImplementedError
