"""Connect Four's rules on keys, compiled with Numba: what ``ConnectFour.compiled_rules()`` gives the search.

A key (``ConnectFour.key``) holds, in each column's 7 bits, X's discs below a
marker bit at the column's height. The marker is where the next disc of the
column goes, so a move adds that bit once (an O disc) or twice (an X disc:
the marker moves up and X's disc stays below it). Imported only when a search
asks for the rules (it imports Numba; ``cache=True`` keeps the machine code).

>>> from fnmcts.games.connect_four import ConnectFour
>>> game = ConnectFour()
>>> kids, moves = np.zeros(7, np.int64), np.zeros(7, np.int64)
>>> step(game.key(game.start()), kids, moves), moves.tolist() == list(range(7))
(7, True)
>>> [game.state(k) for k in kids[:2].tolist()] == [game.play(game.start(), 0), game.play(game.start(), 1)]
True
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from ._connect_four_bits import fours

__all__ = ["RULES", "Rules", "step", "mover", "states", "decisive", "key_after"]

_jit = numba.njit(cache=True, nogil=True)

_H = 7  # bits per column
_COLUMNS, _ROWS = 7, 6
_HEIGHT = np.array([0] + [v.bit_length() - 1 for v in range(1, 128)], np.int64)  # a column's marker bit
_TOP = np.array([1 << (_H * c + _ROWS) for c in range(_COLUMNS)], np.int64)  # a full column's marker


class Rules(NamedTuple):
    """A game's rules on keys (``compiled_rules()``): what the compiled search (``fnmcts.mcts._rules_kernel``) reads.

    ``step(key, kids, moves)``: at the end of the game ``-1 - o`` (``payoffs[o]``
    the payoff), else the number of moves, each move and the key it leads to
    written to ``moves`` and ``kids`` in the game's move order; ``mover(key)``:
    the player to move; ``states(keys)``: the states of an array of keys, a list (or None: the search makes each
    new state from the state it was first reached from, by ``played(state, move, mover)`` where given, ``mover``
    the player to move after it or -1 at an end, else by the game's ``play``); ``key(state)``: a state's key;
    ``width``: the most moves of a state (the moves are 0 to ``width - 1``: RAVE counts them so);
    ``decisive(key, kids, moves, m, chosen)``: ``decisive_agent``'s choice among the ``m`` moves ``step`` wrote,
    their places written to ``chosen`` in order, their number returned (None: no decisive playouts compiled);
    ``words``: the int64 words of a key, 1 or 2 (two: a key is an array of two, ``kids`` a row of two a move, and
    ``key(state)`` a pair; OpenSpiel's hex on boards of 32 to 63 cells).

    >>> RULES.width, RULES.payoffs[2], RULES.key((0, 0)) == sum(1 << (7 * c) for c in range(7))
    (7, (0, 0), True)
    """

    step: object
    mover: object
    payoffs: tuple
    states: object
    key: object
    width: int
    played: object = None
    decisive: object = None
    words: int = 1


@_jit
def _split(key):
    """``(x, mask, discs)`` of ``key``: X's discs, every disc and their number."""
    x = mask = discs = 0
    for c in range(_COLUMNS):
        col = (key >> (_H * c)) & 127
        h = _HEIGHT[col]
        x |= (col ^ (1 << h)) << (_H * c)
        mask |= ((1 << h) - 1) << (_H * c)
        discs += h
    return x, mask, discs


@_jit
def _four(board):
    """Whether ``board`` holds four in a row (``connect_four.four``)."""
    for shift in (1, _H, _H - 1, _H + 1):
        pairs = board & (board >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@_jit
def step(key, kids, moves):
    """``-1 - outcome`` at the end (0: X won, 1: O won, 2: a draw), else the moves and their keys, written in order."""
    x, mask, discs = _split(key)
    if discs & 1:
        if _four(x):
            return -1
    elif discs and _four(x ^ mask):
        return -2
    if discs == _COLUMNS * _ROWS:
        return -3
    markers = key - x
    twice = 2 if discs & 1 == 0 else 1  # X to move: its disc and the marker both go up by the new bit
    m = 0
    for c in range(_COLUMNS):
        bit = markers & (127 << (_H * c))
        if bit != _TOP[c]:
            kids[m] = key + twice * bit
            moves[m] = c
            m += 1
    return m


@_jit
def mover(key):
    """The player to move at ``key``: the parity of the discs."""
    return _split(key)[2] & 1


@_jit
def _split_all(keys):
    xs, masks = np.empty(keys.shape[0], np.int64), np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        xs[i], masks[i], _ = _split(keys[i])
    return xs, masks


def states(keys) -> list:
    """The states ``(x, mask)`` of an array of keys.

    >>> states(np.array([sum(1 << (7 * c) for c in range(7))]))
    [(0, 0)]
    """
    xs, masks = _split_all(keys)
    return list(zip(xs.tolist(), masks.tolist()))


def _key(state) -> int:
    x, mask = state
    return x + mask + 0x40810204081  # the bottom bit of each column


@_jit
def key_after(columns):
    """The key after the discs dropped in ``columns`` (an array of column numbers) from the start, in turn from X.

    >>> from fnmcts.games.connect_four import ConnectFour
    >>> game = ConnectFour()
    >>> key_after(np.array([3, 3, 2], np.int64)) == game.key(game.play(game.play(game.play(game.start(), 3), 3), 2))
    True
    """
    key = 0
    for c in range(_COLUMNS):
        key += 1 << (_H * c)
    kids, moves = np.empty(_COLUMNS, np.int64), np.empty(_COLUMNS, np.int64)
    for column in columns:
        m = step(key, kids, moves)
        for j in range(m):
            if moves[j] == column:
                key = kids[j]
                break
    return key


_BOTTOM = sum(1 << (_H * c) for c in range(_COLUMNS))
_FULL = _BOTTOM * ((1 << _ROWS) - 1)  # every cell of the board
_COLUMN = np.array([((1 << _ROWS) - 1) << (_H * c) for c in range(_COLUMNS)], np.int64)


_fours = _jit(fours)  # (the game's, compiled: the bits past 64 a shift drops are never in ``empty``)


@_jit
def decisive(key, kids, moves, m, chosen):
    """``connect_four._decisive_columns`` on a key: the places among the ``m`` moves ``step`` wrote of those that
    make four, else of those after which the opponent cannot make four at once, else of all, written to ``chosen``;
    their number.

    >>> from fnmcts.games.connect_four import ConnectFour
    >>> game, kids, moves, chosen = ConnectFour(), np.zeros(7, np.int64), np.zeros(7, np.int64), np.zeros(7, np.int64)
    >>> state = game.start()
    >>> for column in (0, 1, 0, 1, 0):  # X threatens four up column 0: O must block there
    ...     state = game.play(state, column)
    >>> key = game.key(state)
    >>> m = step(key, kids, moves)
    >>> n = decisive(key, kids, moves, m, chosen)
    >>> moves[chosen[:n]].tolist()
    [0]
    """
    x, mask, discs = _split(key)
    mine = x ^ mask if discs & 1 else x
    empty, playable = _FULL ^ mask, (mask + _BOTTOM) & _FULL
    wins = _fours(mine, empty) & playable
    n = 0
    if wins:
        for j in range(m):
            if wins & _COLUMN[moves[j]]:
                chosen[n] = j
                n += 1
        return n
    threats = _fours(mine ^ mask, empty)
    for j in range(m):
        column = _COLUMN[moves[j]]
        disc = playable & column
        if not threats & ((playable ^ disc) | ((disc << 1) & column)):
            chosen[n] = j
            n += 1
    if n == 0:
        for j in range(m):
            chosen[j] = j
        n = m
    return n


RULES = Rules(step, mover, ((1, -1), (-1, 1), (0, 0)), states, _key, _COLUMNS, None, decisive)
"""Connect Four's ``Rules``."""
