"""Sizes checked up front: how much work and memory a call asks for, refused before it starts.

A game tells its own size through the optional ``size_hint(state)`` hook of
``GameBase``: upper bounds ``(states, length, branching)`` of the game from
``state`` (the states the exact solver would hold, the moves of the longest
game, the most moves at one state), each ``None`` when unknown. The checks
here turn those bounds into estimates and refuse what would not fit, with a
``TooLarge`` error (a ``ValueError``) that says what would:

* ``STATE_LIMIT`` states for an exact solution (``fnmcts.exact``): about a
  gigabyte of exact fractions at most;
* ``WORK_LIMIT`` steps of play (games times their length, times the moves
  listed at each step where agents look at them all): hours on one core.

Every check takes ``limit=None`` to go on regardless (the command line's
``--force``).

>>> from fnmcts.games import Nim
>>> check_states(Nim(heap=10**6), Nim(heap=10**6).start())
Traceback (most recent call last):
...
fnmcts.limits.TooLarge: the exact solution from this state would hold up to 2,000,002 states; the limit is 200,000 (about a heap of 99,999); limit=None goes on regardless
>>> check_work(10**30, what="games")
Traceback (most recent call last):
...
fnmcts.limits.TooLarge: 1,000,000,000,000,000,000,000,000,000,000 games would take about 1e+30 steps of play, beyond the limit of 1e+10 (hours of work): at most 10,000,000,000 games fit; limit=None goes on regardless
"""

from __future__ import annotations

__all__ = [
    "STATE_LIMIT",
    "WORK_LIMIT",
    "TooLarge",
    "GO_ON",
    "size_hint",
    "check_states",
    "check_work",
    "play_work",
]

STATE_LIMIT = 200_000
"""States an exact solution may hold unless told otherwise."""

WORK_LIMIT = 10**10
"""Steps of play (moves played, or moves looked at) a call may take unless told otherwise."""


class TooLarge(ValueError):
    """Work or memory beyond a limit, refused before it starts; the message says what would fit.

    >>> isinstance(TooLarge("too big"), ValueError)
    True
    """


def size_hint(game, state) -> tuple:
    """``(states, length, branching)`` upper bounds from ``state`` by the game's hook; ``None`` each when unknown.

    >>> from fnmcts.games import Piles
    >>> size_hint(Piles((1, 2)), Piles((1, 2)).start())
    (12, 3, 3)
    >>> size_hint(object(), None)
    (None, None, None)
    """
    hook = getattr(game, "size_hint", None)
    if hook is None:
        return (None, None, None)
    states, length, branching = hook(state)
    return (states, length, branching)


GO_ON = "; limit=None goes on regardless"
"""How every ``TooLarge`` message ends: what a caller changes to go on."""


def _fits(hint) -> str:
    return f" ({hint})" if hint else ""


def check_states(game, *states, limit: int | None = STATE_LIMIT, fits: str | None = None) -> int | None:
    """The states an exact solution from ``states`` would hold (by the game's hint), or ``TooLarge``.

    ``None`` when the game gives no hint (the solver then counts as it goes);
    ``limit=None`` checks nothing. ``fits`` says what would fit, else the
    game's own ``size_fits(limit)`` hook does when it has one.

    >>> from fnmcts.games import Nim
    >>> check_states(Nim(heap=21), Nim(heap=21).start())
    44
    """
    counts = [size_hint(game, state)[0] for state in states]
    if any(c is None for c in counts) or not counts:
        return None
    total = sum(counts)
    if limit is not None and total > limit:
        if fits is None:
            hook = getattr(game, "size_fits", None)
            fits = hook(limit) if hook is not None else None
        where = "this state" if len(states) == 1 else f"these {len(states)} states"
        raise TooLarge(
            f"the exact solution from {where} would hold up to {total:,} states; "
            f"the limit is {limit:,}{_fits(fits)}{GO_ON}"
        )
    return total


def check_work(games: int, length: int | None = 1, per_move: int | None = 1, *, limit: int | None = WORK_LIMIT,
               what: str = "games", go_on: str = GO_ON) -> int | None:
    """``games * length * per_move`` steps of play, or ``TooLarge`` saying how many ``what`` would fit.

    ``None`` when a factor is unknown; ``limit=None`` checks nothing.
    ``go_on`` ends the message (how to go on regardless).

    >>> check_work(1000, 21, 3)
    63000
    """
    if length is None or per_move is None:
        return None
    steps = games * max(1, length) * max(1, per_move)
    if limit is not None and steps > limit:
        most = limit // (max(1, length) * max(1, per_move))
        fit = f"at most {most:,} {what} fit" if most else "not even one fits"
        noun = what[:-1] if games == 1 and what.endswith("s") else what
        raise TooLarge(f"{games:,} {noun} would take about {steps:.2g} steps of play, beyond the limit of "
                       f"{limit:.0e} (hours of work): {fit}{go_on}")
    return steps


def play_work(game, state, *, per_move: int = 1) -> tuple:
    """``(length, cost)``: the longest game from ``state`` and the cost of one move (``per_move`` times the branching).

    An agent that lists every move pays the branching at each move; a search
    agent pays its budget of playouts (``per_move``), each a game long.

    >>> from fnmcts.games import Nim
    >>> play_work(Nim(heap=21), Nim(heap=21).start(), per_move=100)
    (21, 300)
    """
    _, length, branching = size_hint(game, state)
    if length is None:
        return (None, None)
    return (length, per_move * (branching or 1))
