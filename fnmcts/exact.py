"""Exact values: solve a game (expectimax over chance, best reply for each
player) or evaluate any policy, with exact ``Fraction`` arithmetic.

The tutorial's ``build_tree`` (task 12) is ``solve``: the full game as a DAG,
every state's value computed once. A value is a tuple with one payoff per
player (for Shut the Box: the probability of winning).

>>> from fnmcts.games.shut_the_box import ShutTheBox
>>> game = ShutTheBox(simplified=True)
>>> solution = solve(game)
>>> value(solution, game.start())[0]
Fraction(875, 4251528)
>>> from fnmcts.games.nim import Nim
>>> nim = Nim(heap=21, max_take=3)
>>> value(solve(nim), nim.start())
(Fraction(-1, 1), Fraction(1, 1))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from pyrsistent import pmap

from .protocol import CHANCE, check_state

__all__ = [
    "solve",
    "value",
    "best_moves",
    "best_move",
    "move_values",
    "evaluate_policy",
    "random_policy",
    "optimal_policy",
    "win_probability",
]


def _children(game, state, player):
    if player is CHANCE:
        return [(outcome, p, game.play(state, outcome)) for outcome, p in game.chance_outcomes(state)]
    return [(move, None, game.play(state, move)) for move in game.possible_moves(state)]


def _roots(game, states) -> tuple:
    """The states to evaluate from (default: the start), each checked to be one of ``game``'s."""
    return tuple(check_state(game, s) for s in states) if states else (check_state(game, game.start()),)


def _evaluate(game, roots, combine) -> dict:
    """Post-order over the DAG below ``roots``; ``combine(state, player, kids, values)``."""
    values: dict = {}
    kids_of: dict = {}
    stack = [s for s in roots]
    while stack:
        state = stack[-1]
        if state in values:
            stack.pop()
            continue
        player = game.to_move(state)
        if player is None:
            values[state] = tuple(Fraction(x) for x in game.payoff(state))
            stack.pop()
            continue
        kids = kids_of.get(state)
        if kids is None:
            kids = kids_of[state] = _children(game, state, player)
            if not kids:
                raise ValueError(f"state {state!r} has a player to move but no moves")
            pending = [child for _, _, child in kids if child not in values]
            if pending:
                stack.extend(pending)
                continue
        elif any(child not in values for _, _, child in kids):
            raise ValueError(f"the game has a cycle through {state!r}")
        values[state] = combine(state, player, kids, values)
        del kids_of[state]
        stack.pop()
    return values


def _expectation(kids, values):
    total = None
    for _, p, child in kids:
        v = values[child]
        total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
    return total


def solve(game, *states):
    """The exact value of every state reachable from ``states`` (default: the start)
    under optimal play: each player maximises their own expected payoff.

    Returns an immutable map ``state -> value`` (a ``pmap``); a value is a tuple of
    ``Fraction`` payoffs, one per player.
    """

    def combine(state, player, kids, values):
        if player is CHANCE:
            return _expectation(kids, values)
        return max((values[child] for _, _, child in kids), key=lambda v: v[player])

    return pmap(_evaluate(game, _roots(game, states), combine))


def value(solution, state) -> tuple:
    """The exact value of ``state`` in a ``solve`` or ``evaluate_policy`` result."""
    try:
        return solution[state]
    except KeyError:
        raise KeyError(f"state {state!r} is not in this solution; solve from it first") from None


def move_values(game, solution, state) -> tuple:
    """``((move, value), ...)`` for every possible move at ``state``, in move order."""
    return tuple((move, value(solution, game.play(state, move))) for move in game.possible_moves(state))


def best_moves(game, solution, state) -> tuple:
    """Every move at ``state`` that reaches the optimal value, in move order.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=10, max_take=3, misere=False)
    >>> best_moves(nim, solve(nim), nim.start())
    (2,)
    """
    player = game.to_move(state)
    if player is None or player is CHANCE:
        return ()
    scored = move_values(game, solution, state)
    best = max(v[player] for _, v in scored)
    return tuple(m for m, v in scored if v[player] == best)


def best_move(game, solution, state):
    """The first optimal move at ``state`` (ties: the earliest in move order)."""
    moves = best_moves(game, solution, state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    return moves[0]


def random_policy(game, state) -> tuple:
    """Uniform over the possible moves: ``((move, probability), ...)``."""
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no player has a move at {state!r}: a policy applies where someone moves")
    p = Fraction(1, len(moves))
    return tuple((m, p) for m in moves)


def optimal_policy(solution) -> Callable:
    """The policy that plays the first optimal move of ``solution``."""

    def policy(game, state):
        return ((best_move(game, solution, state), Fraction(1)),)

    return policy


def evaluate_policy(game, policy, *states):
    """The exact value of every state reachable from ``states`` when the players
    follow ``policy`` (a function ``(game, state) -> ((move, probability), ...)``,
    or a tuple of one policy per player).

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> game = ShutTheBox()
    >>> float(value(evaluate_policy(game, random_policy), start_box)[0])  # doctest: +ELLIPSIS
    0.0203...
    """
    policies = policy if isinstance(policy, tuple) else None

    def combine(state, player, kids, values):
        if player is CHANCE:
            return _expectation(kids, values)
        chooser = policies[player] if policies else policy
        weights = dict(chooser(game, state))
        if sum(weights.values()) != 1:
            raise ValueError(f"policy probabilities at {state!r} do not sum to 1")
        weighted = [(m, Fraction(weights.get(m, 0)), child) for m, _, child in kids]
        if sum(p for _, p, _ in weighted) != 1:
            raise ValueError(f"policy at {state!r} chose a move that is not possible")
        return _expectation([k for k in weighted if k[1]], values)

    return pmap(_evaluate(game, _roots(game, states), combine))


def win_probability(game, state=None, policy=None) -> Fraction:
    """The first player's exact chance of a positive payoff... for one-player games
    with payoffs 0/1, simply the value: optimal play, or ``policy`` if given.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> float(win_probability(ShutTheBox()))  # doctest: +ELLIPSIS
    0.0...
    """
    state = game.start() if state is None else state
    solution = solve(game, state) if policy is None else evaluate_policy(game, policy, state)
    return solution[state][0]
