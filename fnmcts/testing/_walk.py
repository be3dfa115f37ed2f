"""What every checker of ``fnmcts.testing`` shares: the steps of a walk, replaying one, and calling the game's code.

A *step* is a player's move or a chance outcome alike: ``choices(game, state)``
lists them in the game's order (the moves, or the chance outcomes without
their probabilities). Every call into the game's own code from a checker goes
through ``game_call``, so an exception of any type raised there, an
``AssertionError`` included, is reported as the game's (``GameRaised``, with the
call, the move and the state), never mistaken for a law's own verdict.
"""

from __future__ import annotations

import copy

from ..protocol import CHANCE

__all__ = ["DEFAULT_MAX_STEPS", "GameRaised", "game_call", "choices", "fresh", "replay", "short"]

DEFAULT_MAX_STEPS = 1000
"""The default playthrough bound: every playthrough ends within this many steps
(moves and chance outcomes alike); walks drawn by the strategies are no longer."""


class GameRaised(AssertionError):
    """The game's own code raised an exception (of any type) where a checker called it.

    It is an ``AssertionError``, so a law that meets it fails; its text names the
    call, its move and the exception.

    >>> from fnmcts.games.nim import Nim
    >>> try:
    ...     game_call("play with the listed move 9", Nim(heap=3).play, Nim(heap=3).start(), 9)
    ... except GameRaised as error:
    ...     print(error)
    play with the listed move 9 raised ValueError: illegal move 9: take 1..3 from 3
    """


def game_call(what: str, function, *args):
    """``function(*args)`` (code of the game), turning any exception it raises into a ``GameRaised`` naming ``what``.

    An ``AssertionError`` of the game's own is the game's failure too, not a
    law's verdict; a ``GameRaised`` from a nested call passes through as it is.

    >>> game_call("the sum", sum, (1, 2))
    3
    >>> def broken(state):
    ...     assert state > 0, "unreachable"
    >>> try:
    ...     game_call("to_move at 0", broken, 0)
    ... except GameRaised as error:
    ...     print(error)
    to_move at 0 raised AssertionError: unreachable
    """
    try:
        return function(*args)
    except GameRaised:
        raise
    except Exception as error:
        raise GameRaised(f"{what} raised {type(error).__name__}: {error}") from error


def fresh(state):
    """A deep copy of ``state`` equal to it, so a checker cannot change the walk's states; else ``state`` itself.

    A state whose copy is not equal to it (an object without value equality)
    is handed over as it is: ``law_hash_consistent`` reports that.

    >>> state = (1, [2])
    >>> twin = fresh(state)
    >>> twin == state, twin[1] is state[1]
    (True, False)
    """
    if _atomic(state):  # immutable all the way down: no law can change it, so no copy to make and compare
        return state
    try:
        twin = copy.deepcopy(state)
        return twin if twin == state else state
    except Exception:
        return state


_ATOMS = frozenset({int, str, bytes, bool, float, type(None)})


def _atomic(value, depth: int = 4) -> bool:
    """True for a value immutable all the way down: an int, str, bytes, bool, float or None, or a tuple or
    frozenset (of exactly these types, not a subclass) of such values, nested at most ``depth`` deep.

    ``copy.deepcopy`` hands back such a tuple itself, and a frozenset as an equal one.

    >>> _atomic((0, 1, (2, "x"))), _atomic((0, [1])), _atomic(frozenset({(1, 2)}))
    (True, False, True)
    """
    kind = type(value)
    if kind in _ATOMS:
        return True
    if (kind is tuple or kind is frozenset) and depth > 0:
        return all(type(x) in _ATOMS or _atomic(x, depth - 1) for x in value)
    return False


def choices(game, state) -> tuple:
    """The steps at ``state``: the moves, or the chance outcomes; empty at the end, or where the game fails.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> choices(Nim(heap=5), Nim(heap=5).start()), choices(ShutTheBox(), frozenset({1}))[:3]
    ((1, 2, 3), (2, 3, 4))
    """
    try:
        who = game.to_move(state)
        if who is None:
            return ()
        if who is CHANCE:
            return tuple(outcome for outcome, _ in game.chance_outcomes(state))
        return tuple(game.possible_moves(state))
    except Exception:
        return ()


def replay(game, path, state=None):
    """The state that the moves (and chance outcomes) of ``path`` lead to from ``state`` (default: the start).

    >>> from fnmcts.games.nim import Nim
    >>> replay(Nim(heap=10), (3, 3, 1))["heap"]
    3
    """
    state = game.start() if state is None else state
    for move in path:
        state = game.play(state, move)
    return state


def short(moves, limit: int = 12) -> str:
    """``moves`` as a tuple's text, cut after ``limit`` with how many there are.

    >>> print(short(range(3)), short(range(20), limit=2))
    (0, 1, 2) (0, 1, ... (20 in all))
    """
    moves = tuple(moves)
    if len(moves) <= limit:
        return repr(moves)
    return repr(moves[:limit])[:-1] + f", ... ({len(moves)} in all))"
