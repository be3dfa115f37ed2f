"""A brute-force oracle for small games, written apart from ``fnmcts.exact``: the exact value of every state.

``oracle(game)`` walks every state the start reaches (at most ``limit``) and
values each for the player to move as the protocol means it: at the end the
payoff, at a chance node the outcomes' values weighted by their
probabilities, at a decision the first child in move order with the highest
payoff for the player to move. A game whose states never repeat is valued by
plain recursion over the states in an order where children come first
(exact ``Fraction`` arithmetic); a game whose states repeat (one or two
players) by value iteration, every state's value recomputed from the last
sweep's until no value moves by more than ``tolerance`` (floats; play ends
with probability 1 whatever the players do, so the iteration converges).
Nothing here is shared with ``fnmcts.exact``: tests/test_search_property.py
checks the two agree.
"""

from __future__ import annotations

from fractions import Fraction

from fnmcts.protocol import CHANCE

__all__ = ["oracle", "graph", "TooLarge"]


class TooLarge(Exception):
    """The game has more states than the oracle was allowed to walk."""


def graph(game, limit: int = 5_000) -> dict:
    """``state -> (kind, steps)``: kind ``'end'`` (steps: the payoff), ``'chance'`` (steps: ``((child, p), ...)``)
    or the player to move (steps: the children in move order), for every state the start reaches.

    >>> from fnmcts.games import Nim
    >>> len(graph(Nim(heap=3, max_take=2)))  # heaps 3, 2 and 1 with the player to move, 1 and 0 with either
    6
    """
    found, stack = {}, [game.start()]
    while stack:
        state = stack.pop()
        if state in found:
            continue
        if len(found) >= limit:
            raise TooLarge(f"more than {limit} states")
        player = game.to_move(state)
        if player is None:
            found[state] = ("end", tuple(Fraction(x) for x in game.payoff(state)))
            continue
        if player is CHANCE:
            steps = tuple((game.play(state, o), Fraction(p)) for o, p in game.chance_outcomes(state))
            found[state] = ("chance", steps)
            stack.extend(child for child, _ in steps)
        else:
            steps = tuple(game.play(state, m) for m in game.possible_moves(state))
            found[state] = (player, steps)
            stack.extend(steps)
    return found


def _value(kind, steps, values):
    if kind == "end":
        return steps
    if kind == "chance":
        total = None
        for child, p in steps:
            v = values[child]
            total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
        return total
    best = None
    for child in steps:
        v = values[child]
        if best is None or v[kind] > best[kind]:
            best = v
    return best


def _children_first(nodes) -> list:
    """The states in an order where every state comes after the states its steps lead to."""
    order, done = [], set()
    for root in nodes:
        if root in done:
            continue
        stack = [(root, False)]
        while stack:
            state, leaving = stack.pop()
            if leaving:
                if state not in done:
                    done.add(state)
                    order.append(state)
                continue
            if state in done:
                continue
            stack.append((state, True))
            kind, steps = nodes[state]
            if kind != "end":
                stack.extend((c if kind != "chance" else c[0], False) for c in steps if
                             (c if kind != "chance" else c[0]) not in done)
    return order


def oracle(game, limit: int = 5_000, tolerance: float = 1e-13, max_sweeps: int = 200_000) -> dict:
    """``state -> value`` (one payoff per player) of every state the start of ``game`` reaches.

    >>> from fnmcts.games import Nim

    Normal play: a heap of 4 taking 1 to 3 is lost for the first player (any take leaves 1 to 3 to win):

    >>> game = Nim(heap=4, max_take=3, misere=False)
    >>> oracle(game)[game.start()]
    (Fraction(-1, 1), Fraction(1, 1))
    """
    nodes = graph(game, limit)
    if not game.may_repeat():
        values = {}
        for state in _children_first(nodes):
            values[state] = _value(*nodes[state], values)
        return values
    if getattr(game, "num_players", 1) > 2:
        raise ValueError("value iteration is defined here for one or two players")
    players = len(next(steps for kind, steps in nodes.values() if kind == "end"))
    values = {s: tuple(float(x) for x in steps) if kind == "end" else (0.0,) * players
              for s, (kind, steps) in nodes.items()}
    floats = {s: (kind, tuple((c, float(p)) for c, p in steps) if kind == "chance" else steps)
              for s, (kind, steps) in nodes.items() if kind != "end"}
    for _ in range(max_sweeps):
        new = dict(values)
        change = 0.0
        for state, (kind, steps) in floats.items():
            v = _value(kind, steps, values)
            change = max(change, max(abs(a - b) for a, b in zip(v, values[state])))
            new[state] = v
        values = new
        if change <= tolerance:
            return values
    raise ValueError(f"value iteration did not settle in {max_sweeps} sweeps")
