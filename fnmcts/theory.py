"""Closed forms for the Nim family: who wins, and the winning moves.

Two classical results, written as pure functions and checked by the tests
against ``fnmcts.exact`` over every state up to a size:

* **The subtraction game** (one heap, take 1..K). Under normal play (taking the
  last item wins, the 21 game and the blog) the player to move loses exactly
  when ``heap % (K + 1) == 0``; under misère play (taking the last item loses,
  the notebook) exactly when ``heap % (K + 1) == 1``. The winning move restores
  that remainder: take ``heap % (K + 1)`` (normal) or ``(heap - 1) % (K + 1)``
  (misère) when it is not zero.
* **Multi-pile Nim** (Bouton). Under normal play the player to move loses
  exactly when the nim-sum (the XOR of the piles) is 0. Under misère play the
  same holds while some pile has 2 or more objects; when every pile has 0 or 1,
  the player to move loses exactly when an odd number of piles is left.

A position is a "mover" win or an "other" win: the player to move wins, or the
other player does, under perfect play. The end of a game is a position too
(nobody can move): under misère play its mover has won, under normal play lost.

>>> subtraction_winner(21, 3, misere=True), subtraction_winning_moves(22, 3, misere=True)
('other', (1,))
>>> nim_sum((1, 3, 5, 7)), piles_winner((1, 3, 5, 7), misere=True)
(0, 'other')
>>> piles_winning_moves((1, 3, 5, 6), misere=True)
((0, 1), (1, 1), (2, 1))
"""

from __future__ import annotations

from functools import reduce
from operator import xor

from .protocol import check_state

__all__ = [
    "MOVER",
    "OTHER",
    "subtraction_mover_wins",
    "subtraction_winner",
    "subtraction_winning_moves",
    "nim_sum",
    "piles_mover_wins",
    "piles_winner",
    "piles_winning_moves",
    "has_closed_form",
    "mover_wins",
    "winner",
    "winning_moves",
]

MOVER = "mover"
"""The player to move wins under perfect play."""

OTHER = "other"
"""The player who just moved (the other one) wins under perfect play."""


def _whole(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


def _piles(piles) -> tuple:
    try:
        piles = tuple(piles)
    except TypeError:
        raise TypeError(f"piles must be a sequence of whole numbers, got {piles!r}") from None
    for p in piles:
        _whole("every pile", p, 0)
    return piles


# -- the subtraction game: one heap, take 1..K ---------------------------------


def subtraction_mover_wins(heap: int, max_take: int, misere: bool = True) -> bool:
    """True when the player to move wins the one-heap game under perfect play.

    >>> [subtraction_mover_wins(n, 3, misere=True) for n in range(1, 7)]
    [False, True, True, True, False, True]
    >>> [subtraction_mover_wins(n, 3, misere=False) for n in range(1, 7)]
    [True, True, True, False, True, True]
    """
    _whole("heap", heap, 0)
    _whole("max_take", max_take, 1)
    return heap % (max_take + 1) != (1 if misere else 0)


def subtraction_winner(heap: int, max_take: int, misere: bool = True) -> str:
    """``"mover"`` or ``"other"``: who wins the one-heap game from ``heap``.

    >>> subtraction_winner(21, 3, misere=False), subtraction_winner(24, 5, misere=False)
    ('mover', 'other')
    """
    return MOVER if subtraction_mover_wins(heap, max_take, misere) else OTHER


def subtraction_winning_moves(heap: int, max_take: int, misere: bool = True) -> tuple:
    """The moves that win from ``heap`` (at most one), ``()`` from a lost position.

    The notebook's PerfectAgent: leave ``1 mod (K + 1)`` under misère play; the
    21 game's strategy: leave ``0 mod (K + 1)`` under normal play.

    >>> subtraction_winning_moves(21, 3, misere=False), subtraction_winning_moves(10, 3, misere=False)
    ((1,), (2,))
    >>> subtraction_winning_moves(21, 3, misere=True)
    ()
    """
    _whole("heap", heap, 0)
    _whole("max_take", max_take, 1)
    take = (heap - 1 if misere else heap) % (max_take + 1)
    return (take,) if heap and take else ()


# -- multi-pile Nim: nim-sum and Bouton's misère rule ----------------------------


def nim_sum(piles) -> int:
    """The XOR of the pile sizes.

    >>> nim_sum((1, 3, 5, 7)), nim_sum((3, 5))
    (0, 6)
    """
    return reduce(xor, _piles(piles), 0)


def piles_mover_wins(piles, misere: bool = True) -> bool:
    """True when the player to move wins multi-pile Nim from ``piles``.

    >>> piles_mover_wins((1, 3, 5, 7), misere=True), piles_mover_wins((1, 1), misere=True)
    (False, True)
    >>> piles_mover_wins((1, 1), misere=False), piles_mover_wins((1, 1, 1), misere=True)
    (False, False)
    """
    piles = _piles(piles)
    if misere and all(p <= 1 for p in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def piles_winner(piles, misere: bool = True) -> str:
    """``"mover"`` or ``"other"``: who wins multi-pile Nim from ``piles``.

    >>> piles_winner((1, 3, 5, 7)), piles_winner((1, 3, 5, 6))
    ('other', 'mover')
    """
    return MOVER if piles_mover_wins(piles, misere) else OTHER


def piles_winning_moves(piles, misere: bool = True) -> tuple:
    """Every move ``(pile, count)`` that wins from ``piles``, in move order.

    Normal play: make the nim-sum 0 (take ``p - (p ^ s)`` from a pile ``p``
    with ``p ^ s < p``). Misère play (Bouton): the same while two or more piles
    have 2 or more; with exactly one such pile, cut it to 0 or 1 so that an odd
    number of 1-piles is left; with none, take a 1-pile when their number is even.

    >>> piles_winning_moves((3, 4, 5), misere=False)
    ((0, 2),)
    >>> piles_winning_moves((1, 1, 4), misere=True), piles_winning_moves((1, 1, 4), misere=False)
    (((2, 3),), ((2, 4),))
    >>> piles_winning_moves((1, 1, 0, 1, 1), misere=True)
    ((0, 1), (1, 1), (3, 1), (4, 1))
    """
    piles = _piles(piles)
    big = [i for i, p in enumerate(piles) if p >= 2]
    if misere and not big:
        count = sum(piles)
        return tuple((i, 1) for i, p in enumerate(piles) if p == 1) if count % 2 == 0 else ()
    if misere and len(big) == 1:
        (b,) = big
        ones = sum(1 for i, p in enumerate(piles) if p == 1 and i != b)
        return ((b, piles[b]),) if ones % 2 == 1 else ((b, piles[b] - 1),)
    s = nim_sum(piles)
    return tuple((i, p - (p ^ s)) for i, p in enumerate(piles) if (p ^ s) < p)


# -- the same on game values -------------------------------------------------------


def _kind(game) -> str:
    from .games.nim import Nim
    from .games.piles import Piles

    if isinstance(game, Nim):
        return "nim"
    if isinstance(game, Piles):
        return "piles"
    raise TypeError(f"no closed form for {type(game).__name__}: use fnmcts.exact (solve, best_moves)")


def has_closed_form(game) -> bool:
    """True for the games this module knows (one-heap Nim, multi-pile Nim).

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> has_closed_form(Nim()), has_closed_form(ShutTheBox())
    (True, False)
    """
    try:
        _kind(game)
    except TypeError:
        return False
    return True


def mover_wins(game, state) -> bool:
    """True when the player to move at ``state`` of ``game`` wins under perfect play.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> mover_wins(game, game.start()), mover_wins(game, game.state(22))
    (False, True)
    """
    check_state(game, state)
    if _kind(game) == "nim":
        return subtraction_mover_wins(state["heap"], game.max_take, game.misere)
    return piles_mover_wins(state["piles"], game.misere)


def winner(game, state) -> str:
    """``"mover"`` or ``"other"``: who wins from ``state`` under perfect play.

    >>> from fnmcts.games import Piles
    >>> winner(Piles((1, 3, 5, 7)), Piles((1, 3, 5, 7)).start())
    'other'
    """
    return MOVER if mover_wins(game, state) else OTHER


def winning_moves(game, state) -> tuple:
    """The winning moves at ``state`` of ``game``, in the game's move order.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=False)
    >>> winning_moves(game, game.start())
    (1,)
    """
    check_state(game, state)
    if _kind(game) == "nim":
        return subtraction_winning_moves(state["heap"], game.max_take, game.misere)
    return piles_winning_moves(state["piles"], game.misere)
