"""The Sprague-Grundy value of an impartial game: memoised pure recursion in a few lines.

In an *impartial* game both players have the same moves from every position,
and whoever cannot move loses (normal play): Nim, Kayles, the subtraction
games. Sprague and Grundy showed that every such position is worth a Nim heap
of some size, its Grundy value:

* the value of a position is the ``mex`` (minimum excludant: the least whole
  number not among them) of the values of the positions one move away; an
  end, with no move, is worth 0;
* the value of a sum of independent games (a move is made in one of them) is
  the ``nim_sum`` (bitwise xor) of their values.

The player to move wins exactly when the value is not 0. ``grundy`` is those
two rules, written as a recursion over the protocol and memoised for the
length of one call (a game says it is a sum with the ``components(state)``
hook: Kayles splits a row of pins in two):

>>> from fnmcts.games.kayles import Kayles
>>> [grundy(Kayles(n)) for n in range(12)]  # OEIS A002186: 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> from fnmcts.games.nim import Nim
>>> [grundy(Nim(heap=h, max_take=3, misere=False)) for h in range(9)]  # a subtraction game: h mod 4
[0, 1, 2, 3, 0, 1, 2, 3, 0]
"""

from __future__ import annotations

from functools import cache, reduce
from operator import xor

from .protocol import CHANCE, components, game_text

__all__ = ["mex", "nim_sum", "grundy", "grundy_values"]


def mex(values) -> int:
    """The minimum excludant: the least whole number (0, 1, 2, ...) not among ``values``.

    >>> mex([]), mex([0, 1, 3]), mex({1, 2})
    (0, 2, 0)
    """
    seen = set(values)
    n = 0
    while n in seen:
        n += 1
    return n


def nim_sum(values) -> int:
    """The xor of ``values``: the Grundy value of a sum of games worth ``values``.

    >>> nim_sum([1, 2, 3]), nim_sum([5]), nim_sum([])
    (0, 5, 0)
    """
    return reduce(xor, values, 0)


def grundy(game, state=None) -> int:
    """The Sprague-Grundy value of ``state`` (default: the start) in the impartial ``game``.

    The recursion, memoised for this call only: the ``nim_sum`` of the values
    of the state's ``components`` when it has more than one, else the ``mex``
    of its children's values. A chance node is a ``ValueError`` (the theory
    is for games without chance); so is a game too deep for the recursion
    (``grundy_values`` on growing states keeps it shallow).

    >>> from fnmcts.games.kayles import Kayles
    >>> game = Kayles((3, 4))
    >>> grundy(game), nim_sum([grundy(Kayles(3)), grundy(Kayles(4))])
    (2, 2)
    """
    return grundy_values(game, [game.start() if state is None else state])[0]


def grundy_values(game, states) -> tuple:
    """The Grundy values of ``states`` in ``game``, in order, with one memo shared by all of them.

    Solving growing states in order (rows of 0, 1, 2, ... pins) keeps the
    recursion shallow: each new state finds the smaller ones already known.

    >>> from fnmcts.games.kayles import Kayles
    >>> game = Kayles()
    >>> grundy_values(game, [game.row(n) for n in range(70, 74)])  # OEIS A002186: a(70..73)
    (6, 7, 4, 1)
    """

    @cache
    def value(state) -> int:
        parts = components(game, state)
        if len(parts) > 1:
            return nim_sum([value(part) for part in parts])
        who = game.to_move(state)
        if who is CHANCE:
            raise ValueError(f"grundy values are for games without chance; chance moves at {state!r}")
        return mex([value(game.play(state, move)) for move in game.possible_moves(state)])

    try:
        return tuple(value(state) for state in states)
    except RecursionError:
        raise ValueError(
            f"{game_text(game)} is too deep for the recursion: give grundy_values states of growing size, "
            "so that each finds the smaller ones known"
        ) from None
