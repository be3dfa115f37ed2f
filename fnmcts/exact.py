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
other when the walk passes the limit (``TooLarge``, a ``ValueError``). Memory
is checked the same way before it is spent: the states the solution would hold
at once times the bytes a state costs, measured on a sample of the game's own
states (``fnmcts.limits.check_solve``), against ``memory`` bytes (default
``fnmcts.limits.memory_budget()``).

A game whose states may repeat (Pig: two pig-outs in a row bring the scores
back) says so through its ``may_repeat()`` hook; it is solved one strongly
connected component of its state graph at a time, in reverse topological
order (Tarjan's algorithm, iteratively: no recursion limit). A state on no
cycle keeps its exact ``Fraction`` value; inside a cyclic component the values
are floats, found by value iteration accelerated by policy iteration: a sweep
in depth-first post-order needs guesses only for the targets of the back edges
(a feedback vertex set: in Pig one state per score pair), and the policy of
each sweep is evaluated exactly by a linear solve on those guesses. Iteration
stops when a sweep changes no guess by more than ``tolerance``; the result, a
``Solution``, reports the sweeps and the residual.

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

import random
from collections.abc import Mapping
from fractions import Fraction
from math import isfinite, lcm
from typing import Callable

from pyrsistent import PMap, pmap

from .limits import MAX_PLIES, STATE_LIMIT, MemoryWatch, TooLarge, check_solve, cycle_found, memory_refusal, no_end
from .limits import ply_budget
from .matches import playout
from .protocol import CHANCE, called, check_state, checked_play, checked_start, game_text, guarded, may_repeat, payoff_range
from .protocol import _asked, _refuse_class, valid_moves, valid_outcomes, valid_payoff, valid_player
from .values import MapOver

__all__ = [
    "TOLERANCE",
    "MAX_SWEEPS",
    "Solution",
    "ExactSolution",
    "solve",
    "value",
    "best_moves",
    "best_move",
    "move_values",
    "evaluate_policy",
    "random_policy",
    "optimal_policy",
    "win_probability",
    "expected_payoff",
    "OPTIMAL",
]


_ZERO = Fraction(0)

TOLERANCE = 1e-12
"""The default tolerance of a cyclic component: iteration stops when no guess moves by more."""

MAX_SWEEPS = 10_000
"""The most sweeps one cyclic component may take before the solver gives up (a ``ValueError``)."""


_PROTOCOL = ("start", "to_move", "possible_moves", "play", "payoff")


def check_game(game):
    """``game`` if it is a game value (the protocol's methods), else a ``TypeError`` naming the argument.

    A game's name is not a game: the message says how to make the built-in one.

    >>> check_game("nim")
    Traceback (most recent call last):
    ...
    TypeError: game must be a game value, not the name 'nim' (a built-in game by its name: fnmcts.games.GAMES[name]())
    >>> check_game(None)
    Traceback (most recent call last):
    ...
    TypeError: game must implement the fnmcts game protocol (start, to_move, possible_moves, play, payoff), got None
    """
    if isinstance(game, str):
        raise TypeError(f"game must be a game value, not the name {game!r} (a built-in game by its name: "
                        "fnmcts.games.GAMES[name]())")
    missing = [name for name in ("start", "to_move", "possible_moves", "play", "payoff")
               if not callable(getattr(game, name, None))]
    if missing:
        raise TypeError(f"game must implement the fnmcts game protocol ({', '.join(_PROTOCOL)}), got {game!r}")
    _refuse_class(game)
    return game


def _roots(game, states) -> tuple:
    """The states to evaluate from (default: the start), each checked to be one of ``game``'s."""
    check_game(game)
    return tuple(check_state(game, s) for s in states) if states else (checked_start(game),)


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


def _played(game, state, steps) -> list:
    """The states ``steps`` (moves or outcomes) lead to from ``state``: a ``GameError`` for a ``play`` that raises or returns None.

    (A state that is not hashable fails where the walk looks it up; ``_unhashed`` names it then.)
    """
    play = game.play
    try:
        children = [play(state, step) for step in steps]
    except Exception:
        for step in steps:
            checked_play(game, state, step)
        raise
    if None in children:
        checked_play(game, state, steps[children.index(None)])
    return children


def _too_deep(game, stack, plies):
    """The ``NoEnd`` of a walk whose line (its stack of frames, each at its child in hand) passed ``plies`` plies."""
    frames = stack[1:]
    line = [frame[6][len(frame[5])] for frame in frames[:-1]]
    return no_end(game, frames[0][0], plies, line=line, reached=frames[-1][0])


def _unhashed(game, state, error):
    """Raise the ``GameError`` of a child of ``state`` that is no state (not hashable), else ``error`` itself."""
    player = game.to_move(state)
    steps = [o for o, _ in game.chance_outcomes(state)] if player is CHANCE else game.possible_moves(state)
    for step in steps:
        checked_play(game, state, step)
    raise error


def _walk(game, roots, chooser, limit: int | None = None, memory: int | None = None,
          max_plies: int | None = MAX_PLIES) -> dict:
    """A dict ``state -> value`` for every state below ``roots``.

    The players follow ``chooser``, a function ``(game, state, player, moves) ->
    (denominator, weights)``, or play a best reply when it is ``None``. An
    iterative post-order over the game's DAG: each state's moves or outcomes
    and its children are asked of the game once, and its value is worked out
    once its children's are known.

    A state is looked up once per move that reaches it: the first look-up puts
    a new list in its place (``setdefault``), which becomes the state's frame,
    ``[state, player, iterator over the children, denominator, weights, the
    children's values so far]``, until its value replaces it (at once for a
    terminal state). So meeting a list below the state itself means a cycle, and
    no list outlives its state's frame: the garbage collector, which looks at
    every list still alive again and again, has fewer to look at. More than
    ``limit`` states, or more than the memory budget holds (``memory`` bytes,
    default ``fnmcts.limits.memory_budget()``), is a ``TooLarge`` error: up front
    when the game's size hint shows it, else when the walk passes it. A line
    deeper than ``max_plies`` (``fnmcts.limits.ply_budget``) is a ``NoEnd``.
    Each state is checked as the walk first meets it (``fnmcts.protocol``'s
    ``valid_*``: who moves, the moves, the probabilities, the payoff, the
    children): a failure of the game's own code is a ``GameError``.
    """
    estimate, watch, deepest = _walk_budgets(game, roots, limit, memory, max_plies)
    limit = estimate.cap
    players, (low, high) = getattr(game, "num_players", 1), payoff_range(game)
    to_move, moves_of, outcomes_of, payoff = game.to_move, game.possible_moves, game.chance_outcomes, game.payoff
    values: dict = {}
    setdefault = values.setdefault
    ends: dict = {}
    weights_seen: dict = {}
    # the roots are the children of a frame that is never valued: one loop expands every state
    top = [None, None, iter(roots), 0, (), []]
    stack = [top]
    spare = []  # what a look-up puts in when the state is new: its frame to be
    while stack:
        frame = stack[-1]
        got = frame[5]
        for child in frame[2]:
            try:
                v = setdefault(child, spare)
            except TypeError as error:  # a child that is no state
                _unhashed(game, frame[0], error)
            if v is spare:  # a new state: its value if it is terminal, else its frame
                cell, spare = spare, []
                held = len(values)
                if frame is not top and (held > limit or not held & 4095 and watch.exceeded()):
                    raise memory_refusal(game, held, estimate)  # the limit counts the states below the roots
                player = valid_player(game, child, called("to_move", to_move, child), players)
                if player is None:
                    raw = called("payoff", payoff, child)
                    v = ends.get(raw) if type(raw) is tuple else None
                    v = values[child] = v if v is not None else _end_value(
                        valid_payoff(game, child, raw, players, low, high), ends)
                else:
                    if player is CHANCE:
                        cell += _chance_frame(game, child, called("chance_outcomes", outcomes_of, child), weights_seen)
                    else:
                        cell += _decision_frame(game, child, player, called("possible_moves", moves_of, child), chooser)
                    stack.append(cell)
                    if deepest is not None and len(stack) > deepest + 1:
                        raise _too_deep(game, stack, deepest)
                    if not len(stack) & 4095 and watch.exceeded():  # a deep line of states that keep growing
                        raise memory_refusal(game, held + len(stack), estimate)
                    break
            elif type(v) is list:  # a state on the walk's own line: play goes round a cycle
                raise cycle_found(game, stack[1][0], child)
            got.append(v)
        else:
            stack.pop()
            if not stack:
                break  # the roots' frame: every root is valued
            v = values[frame[0]] = _frame_value(frame, got)
            stack[-1][5].append(v)
    return values


def _walk_budgets(game, roots, limit, memory, max_plies) -> tuple:
    """``(estimate, memory watch, deepest ply or None)`` of a walk below ``roots``, after one random game from each."""
    estimate = check_solve(game, *roots, limit=limit, memory=memory)
    watch = MemoryWatch(estimate.budget)
    deepest = max((ply_budget(game, root, max_plies) or 0) for root in roots) if max_plies is not None else None
    if max_plies is not None:  # one random game from each root first: a game that never ends says so at once
        for root in roots:
            playout(game, root, random.Random(0), max_plies=max_plies)
    return estimate, watch, deepest


def _chance_frame(game, state, outcomes, weights_seen: dict) -> tuple:
    """``(state, CHANCE, children, denominator, weights, [], outcomes)``: a chance node's frame."""
    hit = weights_seen.get(id(outcomes))
    weights = hit[1] if hit is not None and hit[0] is outcomes else _chance_weights(
        valid_outcomes(game, state, outcomes), weights_seen)
    steps = [o for o, _ in outcomes]
    return (state, CHANCE, iter(_played(game, state, steps)), *weights, [], steps)


def _decision_frame(game, state, player, moves, chooser) -> tuple:
    """``(state, player, children, denominator, weights or None, [], moves)``: a decision's frame (None: best reply)."""
    moves = valid_moves(game, state, moves, player)
    children = iter(_played(game, state, moves))
    if chooser is None:
        return (state, player, children, 0, None, [], moves)
    return (state, player, children, *chooser(game, state, player, moves), [], moves)


def _frame_value(frame, got) -> tuple:
    """The value of a frame's state from its children's ``got``: the best reply, or their weighted mean."""
    weights = frame[4]
    if weights is None:
        return got[0] if len(got) == 1 else _best(got, frame[1])
    return _expectation(got, frame[3], weights)


# -- games whose states may repeat ---------------------------------------------------------------

NEWTON_LIMIT = 64
"""Components with more back-edge targets than this iterate by plain value iteration (no linear solve)."""


class Solution(MapOver):
    """The values of a game whose states may repeat: an immutable map ``state -> value`` and a report.

    ``iterations``: the sweeps made over the cyclic components, in all;
    ``residual``: the largest change of a guess in the last sweep of any
    component (0 with no cycle); ``tolerance``: the bound it met;
    ``components``: the cyclic components solved by iteration; ``largest``: the
    states of the largest one. A value on no cycle (nor above one) is exact
    (``Fraction``); the others are floats.

    >>> solution = Solution({"a": (Fraction(1, 2),)}, iterations=3, residual=1e-16)
    >>> solution["a"], len(solution), solution.iterations, "b" in solution
    ((Fraction(1, 2),), 1, 3, False)
    """

    __slots__ = ("_map", "iterations", "residual", "tolerance", "components", "largest")

    def __init__(self, values, iterations=0, residual=0.0, tolerance=TOLERANCE, components=0, largest=0):
        for name, v in (("_map", dict(values)), ("iterations", iterations), ("residual", float(residual)),
                        ("tolerance", float(tolerance)), ("components", components), ("largest", largest)):
            object.__setattr__(self, name, v)

    def __setattr__(self, name, v):
        raise AttributeError("a Solution is immutable")

    def __reduce__(self):
        return (Solution, (self._map, self.iterations, self.residual, self.tolerance, self.components,
                           self.largest))

    def __repr__(self):
        return (f"Solution({len(self._map)} states, iterations={self.iterations}, "
                f"residual={self.residual:.3g}, components={self.components}, largest={self.largest})")


class ExactSolution(PMap):
    """What ``solve`` returns for a game whose states never repeat: the ``pmap`` ``state -> value``, shown in one line.

    Every value is exact (``Fraction`` payoffs). It is a ``pmap`` in every way
    (equal to, and hashing as, the same pmap; updates return plain pmaps); only
    its ``repr`` is short, as a ``Tree``'s is, so a large game does not fill the
    screen (``dict(solution)`` shows every value).

    >>> from fnmcts.games.nim import Nim
    >>> solution = solve(Nim(heap=4, max_take=2))
    >>> solution, isinstance(solution, PMap), solution == pmap(dict(solution))
    (ExactSolution(8 states), True, True)
    """

    __slots__ = ()  # no slot of its own: a fresh pmap becomes an ExactSolution by taking on its class

    def __repr__(self):
        return f"ExactSolution({len(self):,} state{'' if len(self) == 1 else 's'})"

    __str__ = __repr__

    def __reduce__(self):
        return (_exact_solution, (dict(self),))


def _exact_solution(values) -> ExactSolution:
    """The ``ExactSolution`` of the mapping ``values`` (a new pmap taking on the class)."""
    plain = pmap(values) if values else pmap({}, pre_size=8)
    plain.__class__ = ExactSolution
    return plain


def _check_iteration(tolerance, max_sweeps):
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not tolerance > 0 \
            or not isfinite(tolerance):
        raise ValueError(f"tolerance must be a positive number, got {tolerance!r}")
    if isinstance(max_sweeps, bool) or not isinstance(max_sweeps, int) or max_sweeps < 1:
        raise ValueError(f"max_sweeps must be a positive whole number, got {max_sweeps!r}")


def _float_mean(values, denominator, weights) -> tuple:
    """The weighted mean of value tuples in floats (some of them floats already)."""
    total = [0.0] * len(values[0])
    for v, w in zip(values, weights):
        if w:
            for q, x in enumerate(v):
                total[q] += w * float(x)
    return tuple(t / denominator for t in total)


def _combine(values, player, weights) -> tuple:
    """A settled state's value from its children's: the best for ``player``, or the weighted mean."""
    if weights is None:
        return _best(values, player)
    denominator, w = weights
    if any(type(v[0]) is float for v in values):
        return _float_mean(values, denominator, w)
    return _expectation(values, denominator, w)


def _linear_step(rows, change, m):
    """``d`` with ``(I - R) d = change`` (one column per player), or None when ``I - R`` is singular.

    >>> _linear_step([[0.5]], [[1.0, -1.0]], 1)
    [[2.0, -2.0]]
    """
    a = [[(1.0 if r == c else 0.0) - (rows[r][c] if rows[r] is not None else 0.0) for c in range(m)]
         + list(change[r]) for r in range(m)]
    width = len(a[0])
    for c in range(m):
        pivot = max(range(c, m), key=lambda r: abs(a[r][c]))
        if abs(a[pivot][c]) < 1e-12:
            return None
        a[c], a[pivot] = a[pivot], a[c]
        top = a[c]
        inverse = 1.0 / top[c]
        for r in range(m):
            if r != c and a[r][c]:
                factor = a[r][c] * inverse
                row = a[r]
                for k in range(c, width):
                    row[k] -= factor * top[k]
    return [[x / a[r][r] for x in a[r][m:]] for r in range(m)]


def _check_ends(states, members, ops, n):
    """Refuse a component in which the players can keep play going forever (never ending with probability 1).

    The largest set of its states from which play can stay inside it: a
    decision with some move into the set, a chance node (or a policy's choice)
    with every outcome in it. It must be empty.
    """
    inside = [True] * n
    changed = True
    while changed:
        changed = False
        for k in range(n):
            if inside[k]:
                expect, _, inner, _, leaves = ops[k]
                if expect:
                    stays = not leaves and all(inside[kl] for kl, _ in inner)
                else:
                    stays = any(inside[kl] for kl in inner)
                if not stays:
                    inside[k] = False
                    changed = True
    for k in range(n):
        if inside[k]:
            raise ValueError(
                f"play can go on forever from {states[members[k]]!r}: the players can keep it in a cycle "
                "(a game that may repeat must end with probability 1 whatever the players do)"
            )


def _floats(v, cache: dict) -> tuple:
    """``v`` as a tuple of floats (converted once per value object: equal payoffs share one)."""
    if type(v[0]) is float:
        return v
    hit = cache.get(id(v))
    if hit is None or hit[0] is not v:
        hit = cache[id(v)] = (v, tuple(float(x) for x in v))  # holding v keeps its id from being reused
    return hit[1]


def _plan(members, where, kids, kind, weights, value, cache):
    """The ops of a component's members: ``(expect, player, inner, constant, leaves)``.

    ``inner``: the children inside the component (local indices; with their
    probabilities at a chance node or a policy's choice); ``constant``: what
    the children outside add (the best of them for ``player`` at a decision,
    else their probability-weighted sum), None when there are none;
    ``leaves``: some child outside has a positive probability.
    """
    ops, players = [], 0
    for node in members:
        w = weights[node]
        player = kind[node]
        inner, outs = [], []
        if w is None:
            for j in kids[node]:
                kl = where[j]
                if kl >= 0:
                    inner.append(kl)
                else:
                    outs.append(_floats(value[j], cache))
            constant = None
            for v in outs:
                if constant is None or v[player] > constant[player]:
                    constant = v
            ops.append((False, player, inner, constant, bool(outs)))
        else:
            denominator = w[0]
            constant = None
            for j, x in zip(kids[node], w[1]):
                if not x:
                    continue
                p = x / denominator
                kl = where[j]
                if kl >= 0:
                    inner.append((kl, p))
                else:
                    v = _floats(value[j], cache)
                    constant = [p * a for a in v] if constant is None else [c + p * a for c, a in zip(constant, v)]
            ops.append((True, player, inner, None if constant is None else tuple(constant), constant is not None))
        if constant is not None:
            players = len(constant)
    return ops, players


def _constant_sum(ops, players):
    """The sum of every payoff tuple leaving a component, when one number can stand for each state's
    value (one player; or two whose payoffs add up to one constant: values ``(v, c - v)``), else None."""
    if players == 1:
        return 0.0
    if players != 2:
        return None
    total = None
    for expect, _, _, constant, _ in ops:
        if constant is not None:
            t = constant[0] + constant[1]
            if total is None:
                total = t
            elif abs(t - total) > 1e-12 * (1.0 + abs(total)):
                return None
    return total


def _sweeps_scalar(ops, n, target, tolerance, max_sweeps):
    """``(sweeps, residual, values)`` of a component with one back-edge target, one number a state.

    Player 0 (or the only player) maximises the number, player 1 minimises it
    (their payoff is the constant sum minus it). A sweep values the members in
    post-order from a guess ``x`` at the target and finds ``y`` there;
    ``row[k]`` is how member ``k``'s value moves with ``x`` under the sweep's
    choices, so the next guess solves ``x' = y + row * (x' - x)``: the exact
    value of those choices (policy iteration), unless that jump failed to
    shrink the residual, then a plain step ``x' = y``. Values is None when
    ``max_sweeps`` did not suffice.
    """
    scalar = _scalar_ops(ops)
    x, previous, failures, jumped = 0.0, None, 0, False
    residual = float("inf")
    for sweep in range(1, max_sweeps + 1):
        cur, row = _sweep_scalar(scalar, n, target, x)
        y = cur[target]
        residual = abs(y - x)
        if residual <= tolerance:
            return sweep, residual, cur
        if failures < 20 and jumped and residual >= previous[0]:
            failures += 1  # the jump did not help: a plain step from where it started
            x, jumped = previous[1], False
            continue
        previous = (residual, y)
        slope = row[target]
        if failures < 20 and slope < 1.0 - 1e-12:
            x, jumped = x + (y - x) / (1.0 - slope), True
        else:
            x, jumped = y, False
    return max_sweeps, residual, None


def _scalar_ops(ops) -> list:
    """``[(expect, maximise, inner, constant), ...]``: a component's plan with one number a state (player 0's)."""
    scalar = []
    for expect, player, inner, constant, _ in ops:
        c = None if constant is None else constant[0]
        scalar.append((expect, player == 0, inner, 0.0 if expect and c is None else c))
    return scalar


def _sweep_scalar(scalar, n, target, x) -> tuple:
    """``(values, slopes)``: one sweep of a component in post-order from the guess ``x`` at ``target``."""
    cur = [0.0] * n
    row = [0.0] * n
    cur[target] = x
    row[target] = 1.0
    for k in range(n):
        expect, maximise, inner, c = scalar[k]
        if expect:
            r = 0.0
            for kl, p in inner:
                c += p * cur[kl]
                r += p * row[kl]
            cur[k] = c
            row[k] = r
        else:
            r = 0.0
            if maximise:
                for kl in inner:
                    v = cur[kl]
                    if c is None or v > c:
                        c, r = v, row[kl]
            else:
                for kl in inner:
                    v = cur[kl]
                    if c is None or v < c:
                        c, r = v, row[kl]
            cur[k] = c
            row[k] = r
    return cur, row


def _sweeps_vector(ops, n, targets, players, tolerance, max_sweeps):
    """``(sweeps, residual, values)`` of any component: value tuples, a row of slopes per back-edge target.

    As ``_sweeps_scalar``, with ``m`` guesses: the jump solves ``(I - R) d = y -
    x`` (``_linear_step``); with more than ``NEWTON_LIMIT`` targets, plain steps.
    """
    m = len(targets)
    unit = [[1.0 if c == f else 0.0 for c in range(m)] for f in range(m)]
    newton = m <= NEWTON_LIMIT
    zero = (0.0,) * players
    x = [zero] * m
    previous, failures, jumped = None, 0, False
    residual = float("inf")
    for sweep in range(1, max_sweeps + 1):
        cur, row = _sweep_vector(ops, n, targets, x, unit, players, newton)
        y = [cur[k] for k in targets]
        residual = max(abs(a - b) for yf, xf in zip(y, x) for a, b in zip(yf, xf))
        if residual <= tolerance:
            return sweep, residual, cur
        step = None
        if newton and failures < 20:
            if jumped and residual >= previous[0]:
                failures += 1  # the jump did not help: a plain step from where it started
                x, jumped = previous[1], False
                continue
            step = _linear_step([row[k] for k in targets], [[a - b for a, b in zip(yf, xf)] for yf, xf in zip(y, x)], m)
        previous = (residual, y)
        if step is None:
            x, jumped = y, False
        else:
            x, jumped = [tuple(a + d for a, d in zip(xf, df)) for xf, df in zip(x, step)], True
    return max_sweeps, residual, None


def _sweep_vector(ops, n, targets, x, unit, players, newton) -> tuple:
    """``(values, slopes)``: one sweep of a component in post-order from the guesses ``x`` at ``targets``."""
    m = len(targets)
    cur = [None] * n
    row = [None] * n
    for f, k in enumerate(targets):
        cur[k] = x[f]
        row[k] = unit[f]
    for k in range(n):
        expect, player, inner, constant, _ = ops[k]
        if expect:
            acc = list(constant) if constant is not None else [0.0] * players
            racc = None
            for kl, p in inner:
                v = cur[kl]
                for q in range(players):
                    acc[q] += p * v[q]
                r = row[kl]
                if r is not None and newton:
                    if racc is None:
                        racc = [p * a for a in r]
                    else:
                        for c in range(m):
                            racc[c] += p * r[c]
            cur[k] = tuple(acc)
            row[k] = racc
        else:
            best, brow = constant, None
            for kl in inner:
                v = cur[kl]
                if best is None or v[player] > best[player]:
                    best, brow = v, row[kl]
            cur[k] = best
            row[k] = brow
    return cur, row


def _iterate(states, members, back, where, kids, kind, weights, value, tolerance, max_sweeps, report, cache):
    """Value the states of one cyclic component (``members`` in depth-first post-order), in floats."""
    n = len(members)
    for k, node in enumerate(members):
        where[node] = k
    ops, players = _plan(members, where, kids, kind, weights, value, cache)
    for node in members:
        where[node] = -1
    if not players:
        raise ValueError(f"play can never leave the cycle through {states[members[-1]]!r}: the game does not end")
    _check_ends(states, members, ops, n)
    targets = [k for k, node in enumerate(members) if back[node]]
    total = _constant_sum(ops, players) if len(targets) == 1 else None
    if total is not None:
        sweeps, residual, cur = _sweeps_scalar(ops, n, targets[0], tolerance, max_sweeps)
        if cur is not None:
            cur = [(v,) for v in cur] if players == 1 else [(v, total - v) for v in cur]
    else:
        sweeps, residual, cur = _sweeps_vector(ops, n, targets, players, tolerance, max_sweeps)
    if cur is None:
        raise ValueError(
            f"the values of the cycle through {states[members[-1]]!r} did not settle within {max_sweeps} "
            f"sweeps (residual {residual:.3g} > tolerance {tolerance:.3g})"
        )
    for k, node in enumerate(members):
        value[node] = cur[k]
    report[0] += sweeps
    report[1] = max(report[1], residual)
    report[2] += 1
    report[3] = max(report[3], n)


def _walk_repeating(game, roots, chooser, tolerance, max_sweeps, limit=None, memory=None) -> Solution:
    """``state -> value`` for every state below ``roots`` of a game whose states may repeat.

    First the graph: states interned to integers in the order they are found,
    each asked of the game once (who moves, the moves or outcomes, the
    children). Then Tarjan's strongly connected components, iteratively, on the
    integers: ``num`` is the discovery order, ``low`` the lowest ``num`` a node
    reaches through its subtree and one edge to a node whose component is still
    open; a node whose ``low`` is its own ``num`` closes a component, made of
    the nodes finished since it was discovered and not yet placed
    (``finished``, in post-order). A component of one node without a self-loop
    is settled exactly as in ``_walk``; a cyclic one is iterated
    (``_iterate``). Components close in reverse topological order, so every
    state below a component is settled first. More than ``limit`` states, or
    more than the memory budget holds, is a ``TooLarge`` error (as in ``_walk``).
    """
    index, states, kind, kids, weights, value = _graph(game, roots, chooser, limit, memory)
    report = _settle(states, index, roots, kind, kids, weights, value, tolerance, max_sweeps)
    return Solution(dict(zip(states, value)), report[0], report[1], tolerance, report[2], report[3])


def _graph(game, roots, chooser, limit, memory) -> tuple:
    """``(index, states, kind, kids, weights, value)``: the states below ``roots`` as integers, each asked once.

    ``kind[i]`` is who moves (None at an end), ``kids[i]`` the children's
    integers, ``weights[i]`` a chance node's or a policy's ``(denominator,
    weights)`` (None: a best reply), ``value[i]`` an end's value (else None).
    """
    estimate = check_solve(game, *roots, limit=limit, memory=memory)
    limit = estimate.cap
    watch = MemoryWatch(estimate.budget)
    players, (low, high) = getattr(game, "num_players", 1), payoff_range(game)
    to_move, moves_of, outcomes_of, play, payoff = (
        game.to_move, game.possible_moves, game.chance_outcomes, game.play, game.payoff)
    index: dict = {}
    states: list = []
    for root in roots:
        if root not in index:
            index[root] = len(states)
            states.append(root)
    get = index.get
    kind, kids, weights, value = [], [], [], []
    ends: dict = {}
    weights_seen: dict = {}
    i = 0
    while i < len(states):
        state = states[i]
        player = valid_player(game, state, called("to_move", to_move, state), players)
        if player is None:
            kind.append(None)
            kids.append(())
            weights.append(None)
            value.append(_end_value(valid_payoff(game, state, called("payoff", payoff, state), players, low, high),
                                    ends))
            i += 1
            continue
        if player is CHANCE:
            outcomes = valid_outcomes(game, state, called("chance_outcomes", outcomes_of, state))
            weights.append(_chance_weights(outcomes, weights_seen))
            children = _played(game, state, [o for o, _ in outcomes])
        else:
            moves = valid_moves(game, state, called("possible_moves", moves_of, state), player)
            children = _played(game, state, moves)
            weights.append(None if chooser is None else chooser(game, state, player, moves))
        ks = []
        for child in children:
            try:
                j = get(child)
            except TypeError as error:  # a child that is no state
                _unhashed(game, state, error)
            if j is None:
                j = index[child] = len(states)
                states.append(child)
                if j >= limit or not j & 4095 and watch.exceeded():
                    raise memory_refusal(game, j, estimate)
            ks.append(j)
        kind.append(player)
        kids.append(ks)
        value.append(None)
        i += 1
    return index, states, kind, kids, weights, value


def _settle(states, index, roots, kind, kids, weights, value, tolerance, max_sweeps) -> list:
    """``[sweeps, residual, cyclic components, largest]``: ``value`` filled, each component settled as it closes."""
    size = len(states)
    num = [-1] * size
    low = [0] * size
    on_path = [False] * size
    back = [False] * size
    where = [-1] * size
    finished: list = []
    report = [0, 0.0, 0, 0]
    cache: dict = {}
    counter = 0
    for root in roots:
        r = index[root]
        if num[r] >= 0 or value[r] is not None:
            continue
        num[r] = low[r] = counter
        counter += 1
        on_path[r] = True
        path, positions = [r], [0]
        while path:
            i = path[-1]
            ks = kids[i]
            position = positions[-1]
            if position < len(ks):
                positions[-1] = position + 1
                j = ks[position]
                if value[j] is not None:
                    continue  # a finished game, or a state already settled
                nj = num[j]
                if nj < 0:
                    num[j] = low[j] = counter
                    counter += 1
                    on_path[j] = True
                    path.append(j)
                    positions.append(0)
                    continue
                if on_path[j]:
                    back[j] = True
                if nj < low[i]:
                    low[i] = nj
                continue
            path.pop()
            positions.pop()
            on_path[i] = False
            li, ni = low[i], num[i]
            if path:
                parent = path[-1]
                if li < low[parent]:
                    low[parent] = li
            if li != ni:
                finished.append(i)
            elif (not finished or num[finished[-1]] < ni) and not back[i]:
                value[i] = _combine([value[j] for j in kids[i]], kind[i], weights[i])
            else:
                cut = len(finished)
                while cut and num[finished[cut - 1]] > ni:
                    cut -= 1
                members = finished[cut:] + [i]
                del finished[cut:]
                _iterate(states, members, back, where, kids, kind, weights, value, tolerance, max_sweeps, report,
                         cache)
    return report


@guarded
def solve(game, *states, limit: int | None = STATE_LIMIT, tolerance: float = TOLERANCE,
          max_sweeps: int = MAX_SWEEPS, memory: int | None = None, max_plies: int | None = MAX_PLIES):
    """The exact value of every state reachable from ``states`` (default: the start) under optimal play.

    Each player maximises their own expected payoff.

    Returns an immutable map ``state -> value`` (an ``ExactSolution``: a ``pmap``
    shown in one line, ``ExactSolution(5,478 states)``); a value is a tuple of
    ``Fraction`` payoffs, one per player. Ties keep the first best move's value.
    A cycle, or a player with no moves, is a ``ValueError`` naming the state;
    a solution of more than ``limit`` states a ``TooLarge`` (``None``: no limit).
    Memory is checked before it is spent (``fnmcts.limits.check_solve``): a
    solution that would hold more than ``memory`` bytes (default
    ``fnmcts.limits.memory_budget()``) is refused up front when the game's size
    hint shows it, else its walk stops (``TooLarge``) before it holds more; a
    ``MemoryError`` on the way is a ``TooLarge`` too. A line longer than
    ``max_plies`` plies (the game's own bound when longer: ``fnmcts.limits``;
    None: no budget) is a ``NoEnd``, a failure of the game's own code (a hook
    that raises, a payoff out of range, probabilities that do not sum to 1) a
    ``GameError``.

    >>> from fnmcts.games.nim import Nim
    >>> solve(Nim(heap=2, max_take=2))[Nim(heap=2, max_take=2).start()]
    (Fraction(1, 1), Fraction(-1, 1))
    >>> solve(Nim(heap=5000, max_take=3), memory=100_000)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: the exact solution from this state would hold up to 10,002 states and a frontier of 15,000 at about ... bytes each, ... bytes; the memory budget of 100,000 bytes holds about ... states; memory= (bytes) sets another budget

    A game whose states may repeat (its ``may_repeat()`` is True) gets a
    ``Solution`` instead: the same map, floats inside its cycles (iterated until
    no guess moves by more than ``tolerance``; at most ``max_sweeps`` sweeps a
    cycle), and a report of the sweeps and the residual. A die rolled again
    and again: 6 wins for the first player, 4 or 5 for the second, anything
    else rolls again, so the first player wins a third of the time (1/3 - 2/3):

    >>> from fnmcts.protocol import GameBase
    >>> class Toss(GameBase):
    ...     num_players = 2
    ...     def may_repeat(self): return True
    ...     def start(self): return 0
    ...     def to_move(self, s): return None if s >= 3 else CHANCE if s == 1 else 0
    ...     def possible_moves(self, s): return ("toss",)
    ...     def chance_outcomes(self, s): return ((3, Fraction(1, 6)), (4, Fraction(1, 3)), (0, Fraction(1, 2)))
    ...     def play(self, s, m): return 1 if m == "toss" else m
    ...     def payoff(self, s): return (1, -1) if s == 3 else (-1, 1)
    >>> solution = solve(Toss())
    >>> [round(x, 12) for x in solution[0]], solution.iterations, solution.residual <= solution.tolerance
    ([-0.333333333333, 0.333333333333], 2, True)
    """
    _check_iteration(tolerance, max_sweeps)
    roots = _roots(game, states)
    return _solved(game, roots, None, limit, tolerance, max_sweeps, memory, max_plies)


def _solved(game, roots, chooser, limit, tolerance, max_sweeps, memory, max_plies=MAX_PLIES):
    """The walk of ``solve`` or ``evaluate_policy``, a ``MemoryError`` on the way turned into ``TooLarge``."""
    try:
        if may_repeat(game):
            return _walk_repeating(game, roots, chooser, tolerance, max_sweeps, limit, memory)
        return _exact_solution(_walk(game, roots, chooser, limit, memory, max_plies))
    except MemoryError:
        raise TooLarge(
            f"the exact solution of {game_text(game)} ran out of memory before the budget its estimate allowed "
            f"(the machine has less free than it had); memory= (bytes) sets a smaller budget"
        ) from None


class NotSolved(KeyError, ValueError):
    """A state that is not in a solution: a ``KeyError`` (a map's missing key) and a ``ValueError`` (a bad argument).

    >>> str(NotSolved("state 3 is not in this solution")), isinstance(NotSolved("x"), ValueError)
    ('state 3 is not in this solution', True)
    """

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def value(solution, state) -> tuple:
    """The exact value of ``state`` in a ``solve`` or ``evaluate_policy`` result.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> value(solve(nim), nim.start())
    (Fraction(1, 1), Fraction(-1, 1))
    >>> value(solve(nim), nim.state(9, 0))
    Traceback (most recent call last):
    ...
    fnmcts.exact.NotSolved: state pmap({...}) is not in this solution; solve from it first
    """
    if not isinstance(solution, Mapping):
        game = "; value takes no game: value(solve(game), state)" if hasattr(solution, "to_move") else ""
        raise TypeError(f"solution must be what solve or evaluate_policy returns (a map state -> value), "
                        f"got {type(solution).__name__}{game}")
    sample = next(iter(solution.items()), None)
    if sample is not None and isinstance(sample[1], Mapping):  # a record per state: an MCTS tree, not values
        raise TypeError(f"value reads what solve or evaluate_policy returns, got a search tree "
                        f"({type(solution).__name__}): tree[state] is the state's record, "
                        f"fnmcts.mcts.mean(tree[state]) its mean payoff for the player who moved into it")
    try:
        return solution[state]
    except KeyError:
        other = sample is not None and _unlike(sample[0], state)
        raise NotSolved(f"state {state!r} is not in this solution; "
                        + (f"it is not shaped as its states ({sample[0]!r}): a state of another game? "
                           f"value(solve(its game), state)" if other else "solve from it first")) from None
    except TypeError:  # a state that cannot be a key (a list, a dict): no state of any game
        shown = f", such as {sample[0]!r}" if sample is not None else ""
        raise NotSolved(f"state {state!r} is not in this solution: a state is a hashable value{shown}, "
                        f"not a {type(state).__name__}") from None


def _unlike(known, state) -> bool:
    """Whether ``state`` cannot be a state of the game ``known`` is from: another type, keys or length.

    >>> _unlike((0, 0), (1, 2)), _unlike((0, 0), (1, 2, 3)), _unlike(pmap({"heap": 1}), pmap({"heap": 2})), _unlike(1, "a")
    (False, True, False, True)
    """
    if type(known) is not type(state):
        return True
    if isinstance(known, Mapping):
        return set(known) != set(state)
    return isinstance(known, (tuple, list, str)) and len(known) != len(state)


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
    check_game(game)
    state = check_state(game, state)
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
    moves = _asked(game, "possible_moves", state)  # Nim for Nim(), a state of another game: said so
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


OPTIMAL = "optimal"
"""``evaluate_policy``'s default opponent: the first optimal move of the exact solution at every state."""


def _check_policy(policy, what="policy"):
    if not callable(policy):
        raise TypeError(f"{what} must be a function (game, state) -> ((move, probability), ...), got {policy!r}")


def _seats(game, policy, opponent, player, roots, limit, tolerance, max_sweeps, memory=None):
    """One policy per player: ``policy`` for ``player``, ``opponent`` for the others (a tuple as given)."""
    players = getattr(game, "num_players", 1)
    if isinstance(policy, tuple):
        if opponent is not OPTIMAL and opponent != OPTIMAL:
            raise TypeError("give one policy per player as a tuple, or one policy and its opponent=, not both")
        if len(policy) != players:
            raise ValueError(f"a tuple of policies has one per player: {players} for this game, got {len(policy)}")
        for i, p in enumerate(policy):
            _check_policy(p, f"policy {i}")
        return policy
    _check_policy(policy)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player is the seat the policy plays, 0 to {players - 1} in this game, got {player!r}")
    if players == 1:
        return (policy,)
    if isinstance(opponent, str):
        if opponent != OPTIMAL:
            raise ValueError(f"opponent is {OPTIMAL!r} or a policy, got {opponent!r}")
        opponent = optimal_policy(solve(game, *roots, limit=limit, tolerance=tolerance, max_sweeps=max_sweeps,
                                        memory=memory))
    else:
        _check_policy(opponent, "opponent")
    return tuple(policy if i == player else opponent for i in range(players))


@guarded
def evaluate_policy(game, policy, *states, opponent=OPTIMAL, player: int = 0, limit: int | None = STATE_LIMIT,
                    tolerance: float = TOLERANCE, max_sweeps: int = MAX_SWEEPS, memory: int | None = None,
                    max_plies: int | None = MAX_PLIES):
    """The exact value of every state reachable from ``states`` when the players follow ``policy``.

    ``policy`` is a function ``(game, state) -> ((move, probability), ...)``, or
    a tuple of one policy per player. Returns an immutable map ``state -> value``
    (a ``pmap``), as ``solve`` does, with the same ``limit``, ``memory`` and
    ``max_plies`` (a ``Solution`` for a game whose states may repeat, with
    ``tolerance`` and ``max_sweeps`` as there).

    In a game of two or more players one ``policy`` plays for ``player`` (the
    first, 0, unless told) and the others play ``opponent``: ``'optimal'``
    (the default: the first optimal move of the exact solution at every
    state, so no policy is worth more than the optimum to its player) or a
    policy; ``opponent=policy`` is self-play, ``opponent=random_policy`` play
    against random moves.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> game = ShutTheBox()
    >>> float(value(evaluate_policy(game, random_policy), start_box)[0])  # doctest: +ELLIPSIS
    0.0203...
    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)      # misère: the first player wins by taking 1, then again to 1 mod 4
    >>> value(evaluate_policy(nim, random_policy), nim.start())   # against optimal play: wins 1/3 * 1/3
    (Fraction(-7, 9), Fraction(7, 9))
    >>> value(evaluate_policy(nim, random_policy, opponent=random_policy), nim.start())  # both at random
    (Fraction(-2, 27), Fraction(2, 27))
    """
    _check_iteration(tolerance, max_sweeps)
    roots = _roots(game, states)
    policies = _seats(game, policy, opponent, player, roots, limit, tolerance, max_sweeps, memory)

    def chooser(game, state, player, moves):
        return _policy_weights(policies[player], game, state, moves)

    return _solved(game, roots, chooser, limit, tolerance, max_sweeps, memory, max_plies)


class _Wins:
    """``game`` paying 1 to each player at the top of its payoff range and 0 to the others (``win_probability``)."""

    def __init__(self, game):
        self._game = game
        self._top = payoff_range(game)[1]

    def __getattr__(self, name):
        return getattr(self._game, name)

    def payoff(self, state):
        return tuple(1 if x == self._top else 0 for x in self._game.payoff(state))

    def payoff_range(self):
        return (0, 1)


def _one_player_value(game, state, policy, opponent, player, wins):
    state = game.start() if state is None else check_state(game, state)
    if policy is None:
        if opponent != OPTIMAL:
            raise TypeError("opponent= goes with a policy: without one, every player plays optimally")
        solution = solve(game, state)
        policy = tuple(optimal_policy(solution) for _ in range(getattr(game, "num_players", 1)))
        opponent = OPTIMAL
    players = getattr(game, "num_players", 1)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player is 0 to {players - 1} in this game, got {player!r}")
    if not isinstance(policy, tuple):
        policy = _seats(game, policy, opponent, player, (state,), STATE_LIMIT, TOLERANCE, MAX_SWEEPS)
    values = evaluate_policy(_Wins(game) if wins else game, policy, state)
    return values[state][player]


def win_probability(game, state=None, policy=None, *, player: int = 0, opponent=OPTIMAL):
    """The probability that ``player`` (the first, 0) wins from ``state`` (default: the start).

    A win is the best payoff there is (the top of ``payoff_range``). Under
    optimal play by everyone (each player's first optimal move), or with
    ``policy`` playing for ``player`` against ``opponent`` (optimal unless
    told, as in ``evaluate_policy``), or with a tuple of one policy per player. Exact (a ``Fraction``) for a game whose
    states do not repeat. The expected payoff is ``expected_payoff``: this
    function returned it for games of two players before (a payoff from -1 to
    1, not a probability).

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> win_probability(ShutTheBox(levers=4)), win_probability(ShutTheBox(levers=4), policy=random_policy)
    (Fraction(2293, 15552), Fraction(6857, 46656))
    >>> nim = Nim(heap=6, max_take=3)
    >>> win_probability(nim), win_probability(nim, player=1)
    (Fraction(1, 1), Fraction(0, 1))
    >>> win_probability(nim, policy=random_policy), win_probability(nim, policy=random_policy, opponent=random_policy)
    (Fraction(1, 9), Fraction(25, 54))
    """
    return _one_player_value(game, state, policy, opponent, player, True)


def expected_payoff(game, state=None, policy=None, *, player: int = 0, opponent=OPTIMAL):
    """``player``'s (the first, 0) expected payoff from ``state`` (default: the start), as ``win_probability`` plays.

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=6, max_take=3)
    >>> expected_payoff(nim), expected_payoff(nim, policy=random_policy, opponent=random_policy)
    (Fraction(1, 1), Fraction(-2, 27))
    """
    return _one_player_value(game, state, policy, opponent, player, False)
