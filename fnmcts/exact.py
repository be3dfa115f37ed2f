"""Exact values: solve a game (expectimax over chance, best reply for each
player) or evaluate any policy, with exact ``Fraction`` arithmetic.

The tutorial's ``build_tree`` (task 12) is ``solve``: the full game as a DAG,
every state's value computed once. A value is a tuple with one payoff per
player (for Shut the Box: the probability of winning).

One solver serves every game, through the protocol alone: a single iterative
post-order over the DAG asks the game once per state for who moves, the moves or
outcomes and the children; a chance node (or a policy's choice) is summed in
integers over a common denominator, with one ``Fraction`` per player at the end.
A game with a cycle, or a state whose player has no moves, is refused with a
``ValueError`` that names the state. A solution holds at most ``limit``
states (``fnmcts.limits.STATE_LIMIT`` unless told otherwise): a game whose
``size_hint`` says it would hold more is refused before the walk starts, any
other when the walk passes the limit (``TooLarge``, a ``ValueError``).

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
from math import lcm
from typing import Callable

from pyrsistent import pmap

from .limits import GO_ON, STATE_LIMIT, TooLarge, check_states
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


_ZERO = Fraction(0)


def _roots(game, states) -> tuple:
    """The states to evaluate from (default: the start), each checked to be one of ``game``'s."""
    return tuple(check_state(game, s) for s in states) if states else (check_state(game, game.start()),)


def _end_value(raw, ends: dict) -> tuple:
    """A terminal payoff as a tuple of ``Fraction``; equal payoff tuples share one value."""
    if type(raw) is not tuple:
        return tuple(Fraction(x) for x in raw)
    found = ends.get(raw)
    if found is None:
        found = ends[raw] = tuple(x if type(x) is Fraction else Fraction(x) for x in raw)
    return found


def _integer_weights(probabilities) -> tuple:
    """``(denominator, weights)``: the probabilities as integers over one common denominator.

    >>> _integer_weights([Fraction(1, 4), Fraction(1, 6), 0])
    (12, [3, 2, 0])
    """
    ratios = [(p if type(p) is Fraction else Fraction(p)).as_integer_ratio() for p in probabilities]
    denominator = lcm(*(m for _, m in ratios))
    return denominator, [n * (denominator // m) for n, m in ratios]


def _chance_weights(outcomes, seen: dict) -> tuple:
    """``_integer_weights`` of a chance node's outcomes, worked out once per outcome tuple."""
    hit = seen.get(id(outcomes))
    if hit is not None and hit[0] is outcomes:
        return hit[1]
    found = _integer_weights([p for _, p in outcomes])
    if type(outcomes) is tuple:  # immutable: the same object always means the same weights
        seen[id(outcomes)] = (outcomes, found)  # holding it keeps its id from being reused
    return found


def _policy_weights(chooser, game, state, moves) -> tuple:
    """``_integer_weights`` of the probabilities ``chooser`` gives ``moves`` at ``state``."""
    chosen = dict(chooser(game, state))
    denominator, weights = _integer_weights(chosen.values())
    if sum(weights) != denominator:
        raise ValueError(f"policy probabilities at {state!r} do not sum to 1")
    by_move = dict(zip(chosen, weights))
    weights = [by_move.get(move, 0) for move in moves]
    if sum(weights) != denominator:
        raise ValueError(f"policy at {state!r} chose a move that is not possible")
    return denominator, weights


def _expectation(values, denominator: int, weights) -> tuple:
    """The mean of ``values`` (tuples of ``Fraction``) with weights ``weights / denominator``.

    Integer numerators over a common denominator, one ``Fraction`` per player at
    the end; a single child with all the weight gives its own value.

    >>> _expectation([(Fraction(1, 2),), (Fraction(1, 3),)], 4, [1, 3])
    (Fraction(3, 8),)
    """
    if denominator in weights and weights.count(0) == len(weights) - 1:  # one child has all the weight
        return values[weights.index(denominator)]
    result = []
    for i in range(len(values[0])):
        numerators, denominators = [], []
        for v, w in zip(values, weights):
            if w:
                n, m = v[i].as_integer_ratio()
                if n:
                    numerators.append(w * n)
                    denominators.append(m)
        common = lcm(*denominators)
        total = 0
        for n, m in zip(numerators, denominators):
            total += n * (common // m)
        result.append(Fraction(total, common * denominator) if total else _ZERO)
    return tuple(result)


def _best(values, player) -> tuple:
    """The first of ``values`` with the highest payoff for ``player``.

    >>> _best([(Fraction(1, 3),), (Fraction(1, 2),), (Fraction(1, 2), 0)], 0)
    (Fraction(1, 2),)
    """
    best = values[0]
    if len(values) == 1:
        return best
    top = best[player]
    tn, td = top.as_integer_ratio()
    for v in values:
        x = v[player]
        if x is not top:
            n, d = x.as_integer_ratio()
            if n * td > tn * d:
                best, top, tn, td = v, x, n, d
    return best


def _walk(game, roots, chooser, limit: int | None = None) -> dict:
    """A dict ``state -> value`` for every state below ``roots``.

    The players follow ``chooser``, a function ``(game, state, player, moves) ->
    (denominator, weights)``, or play a best reply when it is ``None``. An iterative post-order over the game's DAG: each state's moves or outcomes
    and its children are asked of the game once, and its value is worked out
    once its children's are known. A frame is ``[state, player, iterator over the
    children, denominator, weights, the children's values so far]``; while a
    state is being worked out ``values`` maps it to its frame (a list), so
    meeting it again below itself means a cycle. More than ``limit`` states is
    a ``TooLarge`` error.
    """
    check_states(game, *roots, limit=limit)
    limit = float("inf") if limit is None else limit
    to_move, moves_of, outcomes_of, play, payoff = (
        game.to_move, game.possible_moves, game.chance_outcomes, game.play, game.payoff)
    values: dict = {}
    get = values.get
    ends: dict = {}
    weights_seen: dict = {}

    def expand(state):
        """A terminal state's value, else the frame that works out its value."""
        player = to_move(state)
        if player is None:
            return _end_value(payoff(state), ends)
        if player is CHANCE:
            outcomes = outcomes_of(state)
            if not outcomes:
                raise ValueError(f"chance node {state!r} has no outcomes")
            denominator, weights = _chance_weights(outcomes, weights_seen)
            return [state, player, iter([play(state, o) for o, _ in outcomes]), denominator, weights, []]
        moves = moves_of(state)
        if not moves:
            raise ValueError(f"state {state!r} has a player to move ({player!r}) but no possible moves")
        children = iter([play(state, m) for m in moves])
        if chooser is None:
            return [state, player, children, 0, None, []]
        denominator, weights = chooser(game, state, player, moves)
        return [state, player, children, denominator, weights, []]

    for root in roots:
        if root in values:
            continue
        node = values[root] = expand(root)
        stack = [node] if type(node) is list else []
        while stack:
            frame = stack[-1]
            got = frame[5]
            for child in frame[2]:
                v = get(child)
                if v is None:
                    v = values[child] = expand(child)
                    if len(values) > limit:
                        raise TooLarge(
                            f"the exact solution of {game!r} holds more than {limit:,} states, the limit{GO_ON}"
                        )
                    if type(v) is list:
                        stack.append(v)
                        break
                elif type(v) is list:
                    raise ValueError(f"the game has a cycle through {child!r}")
                got.append(v)
            else:
                stack.pop()
                weights = frame[4]
                v = values[frame[0]] = (
                    _best(got, frame[1]) if weights is None else _expectation(got, frame[3], weights))
                if stack:
                    stack[-1][5].append(v)
    return values


def solve(game, *states, limit: int | None = STATE_LIMIT):
    """The exact value of every state reachable from ``states`` (default: the start) under optimal play.

    Each player maximises their own expected payoff.

    Returns an immutable map ``state -> value`` (a ``pmap``); a value is a tuple of
    ``Fraction`` payoffs, one per player. Ties keep the first best move's value.
    A cycle, or a player with no moves, is a ``ValueError`` naming the state;
    a solution of more than ``limit`` states a ``TooLarge`` (``None``: no limit).

    >>> from fnmcts.games.nim import Nim
    >>> solve(Nim(heap=2, max_take=2))[Nim(heap=2, max_take=2).start()]
    (Fraction(1, 1), Fraction(-1, 1))
    """
    return pmap(_walk(game, _roots(game, states), None, limit))


def value(solution, state) -> tuple:
    """The exact value of ``state`` in a ``solve`` or ``evaluate_policy`` result.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> value(solve(nim), nim.start())
    (Fraction(1, 1), Fraction(-1, 1))
    >>> value(solve(nim), nim.state(9, 0))
    Traceback (most recent call last):
    ...
    KeyError: "state pmap({...}) is not in this solution; solve from it first"
    """
    try:
        return solution[state]
    except KeyError:
        raise KeyError(f"state {state!r} is not in this solution; solve from it first") from None


def move_values(game, solution, state) -> tuple:
    """``((move, value), ...)`` for every possible move at ``state``, in move order.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> [(move, v[0]) for move, v in move_values(nim, solve(nim), nim.start())]
    [(1, Fraction(1, 1)), (2, Fraction(-1, 1)), (3, Fraction(-1, 1))]
    """
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
    """The first optimal move at ``state`` (ties: the earliest in move order).

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> best_move(nim, solve(nim), nim.start())
    1
    """
    moves = best_moves(game, solution, state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    return moves[0]


def random_policy(game, state) -> tuple:
    """Uniform over the possible moves: ``((move, probability), ...)``.

    >>> from fnmcts.games.nim import Nim
    >>> random_policy(Nim(heap=6, max_take=3), Nim(heap=6, max_take=3).start())
    ((1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3)))
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no player has a move at {state!r}: a policy applies where someone moves")
    p = Fraction(1, len(moves))
    return tuple((m, p) for m in moves)


def optimal_policy(solution) -> Callable:
    """The policy that plays the first optimal move of ``solution``.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> policy = optimal_policy(solve(nim))
    >>> policy(nim, nim.start())
    ((1, Fraction(1, 1)),)
    >>> value(evaluate_policy(nim, (policy, random_policy)), nim.start())
    (Fraction(1, 1), Fraction(-1, 1))
    """

    def policy(game, state):
        return ((best_move(game, solution, state), Fraction(1)),)

    return policy


def evaluate_policy(game, policy, *states, limit: int | None = STATE_LIMIT):
    """The exact value of every state reachable from ``states`` when the players follow ``policy``.

    ``policy`` is a function ``(game, state) -> ((move, probability), ...)``, or
    a tuple of one policy per player. Returns an immutable map ``state -> value``
    (a ``pmap``), as ``solve`` does, with the same ``limit``.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> game = ShutTheBox()
    >>> float(value(evaluate_policy(game, random_policy), start_box)[0])  # doctest: +ELLIPSIS
    0.0203...
    """
    policies = policy if isinstance(policy, tuple) else None

    def chooser(game, state, player, moves):
        return _policy_weights(policies[player] if policies else policy, game, state, moves)

    return pmap(_walk(game, _roots(game, states), chooser, limit))


def win_probability(game, state=None, policy=None) -> Fraction:
    """The first player's exact expected payoff at ``state`` (default: the start), a ``Fraction``.

    Under optimal play, or under ``policy`` if given. For a one-player game
    paying 1 for a win and 0 for a loss (Shut the Box) this is the probability
    of winning; for a two-player game it is a payoff in ``payoff_range``.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> win_probability(ShutTheBox(levers=4)), win_probability(ShutTheBox(levers=4), policy=random_policy)
    (Fraction(2293, 15552), Fraction(6857, 46656))
    >>> win_probability(Nim(heap=6, max_take=3))
    Fraction(1, 1)
    """
    state = game.start() if state is None else state
    solution = solve(game, state) if policy is None else evaluate_policy(game, policy, state)
    return solution[state][0]
