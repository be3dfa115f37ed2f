"""Reading a finished tree: greedy moves and policies, backed-up values, top children, lines.

>>> from fnmcts.games.nim import Nim
>>> game = Nim(heap=5, max_take=3)
>>> tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0)})
>>> greedy_move(game, tree, game.start())
2
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from pyrsistent import pmap

from ..protocol import CHANCE
from ._graph import mover_into as _mover
from ._graph import rescaler
from ._records import EMPTY_RECORD, mean, record, visits, win_rate  # noqa: F401 (record: doctests)

__all__ = [
    "dives_win_rate",
    "greedy_move",
    "greedy_policy",
    "backed_up_values",
    "top_children",
    "principal_variation",
]


def dives_win_rate(tree, state) -> float:
    """The tutorial's measure: the share of dives from ``state`` that were won.

    >>> dives_win_rate(pmap({frozenset({7}): record(win=1, loss=3)}), frozenset({7}))
    0.25
    """
    return win_rate(tree.get(state, EMPTY_RECORD))


def _estimate(rec) -> float:
    """A record's estimate: its ``'value'`` if it keeps one, else its mean payoff."""
    v = rec.get("value")
    return mean(rec) if v is None else v


def _child_key(rec):
    """Greedy order: the best value (or mean) first, then more visits; unvisited last."""
    n = visits(rec)
    return (_estimate(rec), n) if n else (-1.0, 0)


def greedy_move(game, tree, state, values=None):
    """The move at decision ``state`` whose child has the best record in ``tree``.

    The best mean payoff (a record's ``'value'`` where it keeps one) wins; ties
    go to more visits, then to the first move in the game's order; unvisited
    children rank last. With ``values`` (a map state -> estimated value for the
    mover into it, e.g. ``backed_up_values``), the best value wins instead,
    unvalued children last.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> game = ShutTheBox()
    >>> state = game.play(frozenset({1, 2, 3}), 3)
    >>> tree = pmap({frozenset({1, 2}): record(1, 9), frozenset({3}): record(2, 8)})
    >>> sorted(greedy_move(game, tree, state))
    [3]
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no move to choose at {state!r}")
    best, best_key = None, None
    for move in moves:
        child = game.play(state, move)
        rec = tree.get(child, EMPTY_RECORD)
        if values is not None:
            v = values.get(child)
            key = (v, visits(rec)) if v is not None else (-math.inf, 0)
        else:
            key = _child_key(rec)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def greedy_policy(tree, values=None) -> Callable:
    """The policy read off ``tree``, for ``exact.evaluate_policy``.

    At a decision with at least one visited child: the ``greedy_move`` (with
    probability 1). Where the tree knows none of the children, the search's own
    default policy: uniformly random.

    >>> from fnmcts.exact import evaluate_policy, value
    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> from fnmcts.mcts import search
    >>> game = ShutTheBox()
    >>> tree = search(game, start_box, 2_000, make_rng(1))
    >>> float(value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]) > 0.0203
    True
    """

    def policy(game, state):
        moves = game.possible_moves(state)
        known = values if values is not None else tree
        if not any(game.play(state, m) in known for m in moves):
            p = Fraction(1, len(moves))
            return tuple((m, p) for m in moves)
        return ((greedy_move(game, tree, state, values), Fraction(1)),)

    return policy


def backed_up_values(game, tree):
    """Expectimax over the tree: each stored state's estimated value for its mover.

    The tree's records are sampled under exploration; this backs them up with
    the game's exact chance probabilities instead. A stored state's value: at a
    decision, the best child that is stored or terminal (its complement when
    another player decides); at a chance node, the outcomes weighted by their
    probabilities; at the end, the payoff rescaled to [0, 1]. Where nothing
    below is known (no stored or terminal child), the state's own mean stands
    in. Returns an immutable map (a ``pmap``) state -> float.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> tree = pmap({frozenset({2}): record(win=1, loss=0)})
    >>> backed_up_values(ShutTheBox(), tree)[frozenset({2})] == 1 / 36
    True
    """
    rescale = rescaler(game)
    values: dict = {}

    def estimate(state, mover, fallback, pending):
        """The value of ``state`` for ``mover``, or None while a stored child is pending."""
        player = game.to_move(state)
        if player is None:
            return float(rescale(game.payoff(state))[mover])
        if player is CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                v = estimate(game.play(state, outcome), mover, fallback, pending)
                if v is None:
                    return None
                total += float(p) * v
            return total
        best = None
        for move in game.possible_moves(state):
            child = game.play(state, move)
            if child in tree:
                v = values.get((child, player))
                if v is None:
                    pending.append((child, player))
                    continue
            elif game.to_move(child) is None:
                v = float(rescale(game.payoff(child))[player])
            else:
                continue
            best = v if best is None or v > best else best
        if pending:
            return None
        if best is None:
            return fallback
        return best if player == mover else 1.0 - best

    for root in tree:
        stack = [(root, _mover(game, root))]
        while stack:  # depth first, without recursion: a deep tree needs no recursion limit
            key = stack[-1]
            if key in values:
                stack.pop()
                continue
            state, mover = key
            pending: list = []
            v = estimate(state, mover, mean(tree[state]), pending)
            if v is None:
                fresh = [k for k in pending if k not in values and k not in stack]
                if not fresh:
                    raise ValueError(f"the tree has a cycle through {state!r}")
                stack.extend(fresh)
                continue
            values[key] = v
            stack.pop()
    # each state's value for the player who moved into it: for a finished state, the
    # player whose choice reached it (the state cannot say), where a parent is stored
    by_parent = {state: v for (state, mover), v in values.items() if mover != _mover(game, state)}
    out = {}
    for state in tree:
        if game.to_move(state) is None and state in by_parent:
            out[state] = by_parent[state]
        else:
            out[state] = values[(state, _mover(game, state))]
    return pmap(out)


def top_children(game, tree, state, k: int = 5) -> tuple:
    """The ``k`` most visited moves at decision ``state``: ``((move, record), ...)``.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0)})
    >>> [(m, visits(r)) for m, r in top_children(game, tree, game.start(), k=2)]
    [(2, 4), (1, 3)]
    """
    scored = [(move, tree.get(game.play(state, move), EMPTY_RECORD)) for move in game.possible_moves(state)]
    order = sorted(range(len(scored)), key=lambda i: (-visits(scored[i][1]), i))
    return tuple(scored[i] for i in order[:k])


def principal_variation(game, tree, state, limit: int = 50) -> tuple:
    """The most visited line from ``state``: ``((move, record), ...)``.

    At a chance node the most likely outcome is followed (record: the state
    after it, if stored). Stops at the end of the game, where the tree knows no
    child, or after ``limit`` steps.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=3, max_take=3)
    >>> tree = pmap({game.state(1, 1): record(3, 0), game.state(0, 0): record(0, 3)})
    >>> [m for m, _ in principal_variation(game, tree, game.start())]
    [2, 1]
    """
    line = []
    for _ in range(limit):
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            outcome = max(game.chance_outcomes(state), key=lambda op: op[1])[0]
            state = game.play(state, outcome)
            line.append((outcome, tree.get(state, EMPTY_RECORD)))
            continue
        move, rec = top_children(game, tree, state, k=1)[0]
        if visits(rec) == 0:
            break
        line.append((move, rec))
        state = game.play(state, move)
    return tuple(line)
