"""Counts of the built-in games by combinatorics, without playing them: the independent side of their goldens.

Each function returns the numbers a ``count`` of the game must give, from a
formula over the game's rules rather than a walk through its states:

* one-heap Nim (take 1..k): after ``d`` moves the heap is any ``x`` with
  ``heap - k*d <= x <= heap - d``; the histories are the compositions of
  ``heap - x`` into ``d`` parts of 1..k;
* multi-pile Nim: a pile vector ``v`` is reached in ``d`` moves when ``d``
  lies between the number of piles touched and the objects taken; the
  histories interleave one composition per pile (a multinomial);
* Shut the Box: a box is reachable when the levers down split into rolls
  (groups summing to 2..12); each box but the empty one has 11 rolled states.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product
from math import comb, factorial


@cache
def compositions(n: int, parts: int, most: int) -> int:
    """The ways to write ``n`` as an ordered sum of ``parts`` whole numbers in 1..``most``."""
    if parts == 0:
        return 1 if n == 0 else 0
    return sum(compositions(n - first, parts - 1, most) for first in range(1, min(most, n) + 1))


def nim(heap: int, most: int, misere: bool) -> dict:
    """Per ply: states, histories, games; the outcomes; all states."""
    plies, histories, games = [], [], []
    for d in range(heap + 1):
        low, high = max(0, heap - most * d), heap - d
        plies.append(high - low + 1)
        histories.append(sum(compositions(heap - x, d, most) for x in range(low, high + 1)))
        games.append(compositions(heap, d, most))
    # at the end the player to move is d % 2; misere: that player wins (the other took the last)
    first = sum(g for d, g in enumerate(games) if (d % 2 == 0) == misere)
    states = len({(x, d % 2) for d in range(heap + 1) for x in range(max(0, heap - most * d), heap - d + 1)})
    return {"plies": plies, "histories": histories, "games": games, "states": states,
            "outcomes": {"player 1 wins": first, "player 2 wins": sum(games) - first}}


def piles(start: tuple, misere: bool) -> dict:
    """Per ply: states, histories, games; the outcomes; all states."""
    total = sum(start)
    plies, histories, games = [0] * (total + 1), [0] * (total + 1), [0] * (total + 1)
    states = 0
    for v in product(*(range(s + 1) for s in start)):
        taken = [s - x for s, x in zip(start, v)]
        fewest, most = sum(1 for t in taken if t), sum(taken)
        states += 2 if most > fewest else 1
        for d in range(fewest, most + 1):
            plies[d] += 1
            ways = 0  # the moves per pile k_i (>= 1 where something is taken), interleaved
            for ks in product(*(range(1, t + 1) if t else (0,) for t in taken)):
                if sum(ks) == d:
                    ways += factorial(d) // prod_factorials(ks) * prod(comb(t - 1, k - 1) if t else 1
                                                                       for t, k in zip(taken, ks))
            histories[d] += ways
            if not any(v):
                games[d] += ways
    first = sum(g for d, g in enumerate(games) if (d % 2 == 0) == misere)
    return {"plies": plies, "histories": histories, "games": games, "states": states,
            "outcomes": {"player 1 wins": first, "player 2 wins": sum(games) - first}}


def prod(values) -> int:
    result = 1
    for x in values:
        result *= x
    return result


def prod_factorials(ks) -> int:
    return prod(factorial(k) for k in ks)


def shut_the_box_states(levers: int) -> int:
    """The states of the full two-dice game: reachable boxes, and 11 rolled states for each but the empty box."""

    @cache
    def splits(down: frozenset) -> bool:
        """True when ``down`` is a union of disjoint groups, each summing to 2..12 (one roll each)."""
        if not down:
            return True
        lowest = min(down)  # the group holding the lowest lever: try each
        rest = sorted(down - {lowest})
        for size in range(len(rest) + 1):
            for others in combinations(rest, size):
                if 2 <= lowest + sum(others) <= 12 and splits(down - {lowest, *others}):
                    return True
        return False

    levers_up = range(1, levers + 1)
    boxes = sum(1 for size in range(levers + 1) for down in combinations(levers_up, size) if splits(frozenset(down)))
    return boxes + 11 * (boxes - 1)
