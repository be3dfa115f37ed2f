"""Closed forms, for any game that has one: who wins, and the winning moves.

A game with a closed form answers the optional hooks ``winning_moves(state)``
and ``mover_wins(state)`` (see ``fnmcts.protocol``); a game without one answers
``None`` (the default of ``GameBase``). The closed forms themselves live with
their games: the subtraction game's mod (K + 1) rule in ``fnmcts.games.nim``,
Bouton's rule and the nim-sum in ``fnmcts.games.piles``. The tests check them
against ``fnmcts.exact`` over every state up to a size.

A position is a "mover" win or an "other" win: the player to move wins, or the
other player does, under perfect play.

>>> from fnmcts.games import Nim
>>> game = Nim(heap=21, max_take=3, misere=True)
>>> winner(game, game.start()), winning_moves(game, game.state(22))
('other', (1,))
"""

from __future__ import annotations

from .protocol import MOVER, OTHER, _hook, check_state

__all__ = [
    "MOVER",
    "OTHER",
    "has_closed_form",
    "closed_form_moves",
    "mover_wins",
    "winner",
    "winning_moves",
]


def closed_form_moves(game, state):
    """The closed form's winning moves at ``state``, or ``None`` when ``game`` has no closed form.

    The ``winning_moves`` hook of the game (default ``None``); unlike
    ``winning_moves`` it neither checks ``state`` nor raises.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> closed_form_moves(Nim(), Nim().state(6)), closed_form_moves(ShutTheBox(), ShutTheBox().start())
    ((1,), None)
    """
    try:
        return _hook(game, "winning_moves")(state)
    except TypeError:
        check_state(game, state)  # Nim for Nim(), or a state of another game: said so
        raise


def has_closed_form(game) -> bool:
    """True when ``game`` answers ``winning_moves`` (one-heap Nim, multi-pile Nim, a user's game).

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> has_closed_form(Nim()), has_closed_form(ShutTheBox())
    (True, False)
    """
    return closed_form_moves(game, game.start()) is not None


def _no_closed_form(game):
    return TypeError(f"no closed form for {type(game).__name__}: use fnmcts.exact (solve, best_moves)")


def mover_wins(game, state) -> bool:
    """True when the player to move at ``state`` of ``game`` wins under perfect play.

    The end of a game is a position too: under misère play its mover has won,
    under normal play lost. A ``TypeError`` for a game without a closed form.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> mover_wins(game, game.start()), mover_wins(game, game.state(22))
    (False, True)
    """
    check_state(game, state)
    verdict = _hook(game, "mover_wins")(state)
    if verdict is None:
        raise _no_closed_form(game)
    return verdict


def winner(game, state) -> str:
    """``"mover"`` or ``"other"``: who wins from ``state`` under perfect play.

    >>> from fnmcts.games import Piles
    >>> winner(Piles((1, 3, 5, 7)), Piles((1, 3, 5, 7)).start())
    'other'
    """
    return MOVER if mover_wins(game, state) else OTHER


def winning_moves(game, state) -> tuple:
    """The winning moves at ``state`` of ``game``, in the game's move order (``()`` when lost).

    A ``TypeError`` for a game without a closed form.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=False)
    >>> winning_moves(game, game.start())
    (1,)
    """
    check_state(game, state)
    moves = closed_form_moves(game, state)
    if moves is None:
        raise _no_closed_form(game)
    return moves
