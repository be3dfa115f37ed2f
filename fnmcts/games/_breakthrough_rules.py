"""OpenSpiel's breakthrough on a 6 by 6 board as rules on keys, compiled with Numba: what its adapter's
``compiled_rules()`` gives the search (``fnmcts.openspiel.COMPILED_RULES``).

OpenSpiel's board has row 0 on top (its picture's row "6"): black (player 0,
first to move) starts on rows 0 and 1 and moves down, white (player 1) starts
on rows 4 and 5 and moves up. A piece steps one row forward, straight onto an
empty cell or diagonally onto an empty cell or an opponent's piece, which it
captures. Reaching the far row or capturing the opponent's last piece wins;
there are no draws (a player not yet beaten always has a move: a piece with
none has one of its own diagonally ahead, which has none either, and so on up
to the far row).

An action is OpenSpiel's number ``((row * 6 + column) * 6 + direction) * 2 +
capture``: directions 0 to 2 are black's (forward and a column to the left,
straight, to the right), 3 to 5 white's likewise, and ``capture`` is 1 for a
diagonal step onto an opponent's piece. The legal actions, from-cell by
from-cell in reading order and direction by direction, come out in ascending
order, as OpenSpiel lists them.

A key holds the 36 cells in base 3, cell ``row * 6 + column`` the digit of
``3 ** cell`` (0 empty, 1 black, 2 white), plus ``3 ** 36`` when white is to
move: a move adds and takes away powers of 3. The search reads it as bitboards
(bit ``row * 6 + column``), decoded a row of six digits at a time from a table.

>>> kids, moves = np.zeros(432, np.int64), np.zeros(432, np.int64)
>>> m = step(START, kids, moves)
>>> m, moves[:4].tolist(), int(mover(START)), int(mover(kids[0]))
(16, [74, 76, 84, 86], 0, 1)
>>> key_after(np.array([74], np.int64)) == int(kids[0])
True
"""

from __future__ import annotations

import numba
import numpy as np

from ._connect_four_rules import Rules

__all__ = ["RULES", "START", "rules_for", "step", "mover", "decisive", "key_after"]

_jit = numba.njit(cache=True, nogil=True)

_ROWS = _COLUMNS = 6
_CELLS = _ROWS * _COLUMNS
_ROW_DIGITS = 3**_COLUMNS  # a row's six cells, one base-3 number
_WHITE = 3**_CELLS  # the key's part that says white is to move
_POW3 = np.array([3**i for i in range(_CELLS)], np.int64)
_FULL = (1 << _CELLS) - 1
_ROW = np.array([((1 << _COLUMNS) - 1) << (_COLUMNS * r) for r in range(_ROWS)], np.int64)
_LEFT = sum(1 << (_COLUMNS * r) for r in range(_ROWS))  # column 0
_RIGHT = _LEFT << (_COLUMNS - 1)  # the last column
_NOT_LEFT, _NOT_RIGHT = _FULL ^ _LEFT, _FULL ^ _RIGHT
_STEP = np.array([_COLUMNS - 1, _COLUMNS, _COLUMNS + 1, -_COLUMNS - 1, -_COLUMNS, -_COLUMNS + 1], np.int64)
"""A direction's step from a cell to the cell it leads to (black's three, then white's)."""


def _row_table(colour):
    """The cells of ``colour`` (1 black, 2 white) in each row of six base-3 digits, as six bits."""
    digits = np.arange(_ROW_DIGITS)
    bits = np.zeros(_ROW_DIGITS, np.int64)
    for c in range(_COLUMNS):
        bits |= ((digits // 3**c) % 3 == colour).astype(np.int64) << c
    return bits


_BLACK_ROW, _WHITE_ROW = _row_table(1), _row_table(2)

START = sum(3**i for i in range(2 * _COLUMNS)) + 2 * sum(3**i for i in range(_CELLS - 2 * _COLUMNS, _CELLS))
"""The key at the start: black on the top two rows, white on the bottom two, black to move."""


@_jit
def _split(key):
    """``(black, white, player)`` of ``key``: the bitboards and the player to move."""
    black = white = 0
    for r in range(_ROWS):
        digits = key % _ROW_DIGITS
        key //= _ROW_DIGITS
        black |= _BLACK_ROW[digits] << (_COLUMNS * r)
        white |= _WHITE_ROW[digits] << (_COLUMNS * r)
    return black, white, key


@_jit
def _targets(mine, theirs, player):
    """``(left, straight, right)``: the cells ``player``'s pieces ``mine`` step to in each of its directions, in
    OpenSpiel's order (a row forward and a column towards column a, straight, towards column f), captures among
    them (a step straight ahead takes nothing)."""
    empty = _FULL ^ (mine | theirs)
    if player == 0:  # (down OpenSpiel's rows: a row is ``_COLUMNS`` bits)
        return (((mine & _NOT_LEFT) << (_COLUMNS - 1)) & _FULL & ~mine, (mine << _COLUMNS) & empty,
                ((mine & _NOT_RIGHT) << (_COLUMNS + 1)) & _FULL & ~mine)
    return (((mine & _NOT_LEFT) >> (_COLUMNS + 1)) & ~mine, (mine >> _COLUMNS) & empty,
            ((mine & _NOT_RIGHT) >> (_COLUMNS - 1)) & ~mine)


@_jit
def step(key, kids, moves):
    """``-1 - outcome`` at the end (0: black won, 1: white won), else the legal actions and their keys, written in
    OpenSpiel's order; their number."""
    black, white, player = _split(key)
    if black & _ROW[_ROWS - 1] or white == 0:
        return -1
    if white & _ROW[0] or black == 0:
        return -2
    if player == 0:
        mine, theirs, digit, turn = black, white, 1, _WHITE
    else:
        mine, theirs, digit, turn = white, black, 2, -_WHITE
    left, straight, right = _targets(mine, theirs, player)
    if player == 0:  # the cells each direction steps from
        froms = (left >> (_COLUMNS - 1), straight >> _COLUMNS, right >> (_COLUMNS + 1))
    else:
        froms = (left << (_COLUMNS + 1), straight << _COLUMNS, right << (_COLUMNS - 1))
    movable = froms[0] | froms[1] | froms[2]
    base = 6 * player  # the action's part for the direction: 2 * (3 * player + o)
    m = 0
    for cell in range(_CELLS):
        if not (movable >> cell) & 1:
            if not movable >> cell:
                break
            continue
        off = key - digit * _POW3[cell] + turn
        if (froms[0] >> cell) & 1:
            to = cell + _STEP[3 * player]
            capture = (theirs >> to) & 1
            moves[m] = 12 * cell + base + capture
            kids[m] = off + (digit - capture * (3 - digit)) * _POW3[to]  # (a capture: the other's digit made ``digit``)
            m += 1
        if (froms[1] >> cell) & 1:
            moves[m] = 12 * cell + base + 2
            kids[m] = off + digit * _POW3[cell + _STEP[3 * player + 1]]
            m += 1
        if (froms[2] >> cell) & 1:
            to = cell + _STEP[3 * player + 2]
            capture = (theirs >> to) & 1
            moves[m] = 12 * cell + base + 4 + capture
            kids[m] = off + (digit - capture * (3 - digit)) * _POW3[to]
            m += 1
    return m


@_jit
def mover(key):
    """The player to move at ``key``: 0 (black) or 1 (white)."""
    return key // _WHITE


@_jit
def _wins_at_once(mine, theirs, player):
    """Whether ``player`` (pieces ``mine``) to move has a move that wins: a step onto the far row, or the capture of
    the opponent's last piece."""
    left, straight, right = _targets(mine, theirs, player)
    steps = left | straight | right
    if steps & _ROW[_ROWS - 1 if player == 0 else 0]:
        return True
    return theirs & (theirs - 1) == 0 and (left | right) & theirs != 0


@_jit
def decisive(key, kids, moves, m, chosen):
    """``OpenSpielGame._decisive_choices`` on a key: the places among the ``m`` moves ``step`` wrote of those that
    win at once, else of those after which the opponent cannot win at once, else of all, written to ``chosen`` in
    move order; their number.

    >>> kids, moves, chosen = np.zeros(432, np.int64), np.zeros(432, np.int64), np.zeros(432, np.int64)
    >>> def choice(actions):
    ...     key = key_after(np.array(actions, np.int64))
    ...     return moves[chosen[:decisive(key, kids, moves, step(key, kids, moves), chosen)]].tolist()
    >>> line = [98, 354, 172, 428, 253]  # black's pawn takes on c2: it takes on b1 or d1 next, unless taken
    >>> choice(line), choice(line + [306])  # white's b1c2* and d1c2*; then (white's a2a3) black's c2b1* and c2d1*
    ([383, 403], [313, 317])
    """
    black, white, player = _split(key)
    mine, theirs = (black, white) if player == 0 else (white, black)
    goal, last = _ROW[_ROWS - 1 if player == 0 else 0], theirs & (theirs - 1) == 0
    n = 0
    for j in range(m):
        a = moves[j]
        to = a // 12 + _STEP[(a % 12) >> 1]
        if (goal >> to) & 1 or (a & 1 and last):
            chosen[n] = j
            n += 1
    if n:
        return n
    for j in range(m):
        a = moves[j]
        cell = a // 12
        to = cell + _STEP[(a % 12) >> 1]
        if not _wins_at_once(theirs & ~(1 << to), mine ^ (1 << cell) ^ (1 << to), 1 - player):
            chosen[n] = j
            n += 1
    if n == 0:
        for j in range(m):
            chosen[j] = j
        n = m
    return n


@_jit
def key_after(actions):
    """The key after OpenSpiel's ``actions`` (an array of legal ones) from the start: each takes the mover's piece
    from its cell to the cell its direction leads to, whatever stood there.

    >>> key_after(np.array([], np.int64)) == START, int(mover(key_after(np.array([74, 254], np.int64))))
    (True, 0)
    """
    key = START
    for a in actions:
        player = key // _WHITE
        cell = a // 12
        to = cell + _STEP[(a % 12) >> 1]
        was = (key // _POW3[to]) % 3
        key += (player + 1) * (_POW3[to] - _POW3[cell]) - was * _POW3[to] + (1 - 2 * player) * _WHITE
    return key


def _key(state) -> int:
    """The key of an OpenSpiel state of the adapter (its history replayed)."""
    return int(key_after(np.array(state.history, np.int64)))


RULES = Rules(step, mover, ((1.0, -1.0), (-1.0, 1.0)), None, _key, 2 * 6 * _CELLS, None, decisive)
"""Breakthrough's ``Rules`` on the 6 by 6 board (its ``width``: OpenSpiel's 432 distinct actions); the adapter
makes the states (``states`` is None)."""


def rules_for(parameters: dict):
    """``RULES`` where OpenSpiel's ``parameters`` make the 6 by 6 board, else None.

    On a larger board the key would pass 64 bits; a smaller one is not modelled.

    >>> rules_for({"rows": 6, "columns": 6}) is RULES, rules_for({"rows": 8, "columns": 8})
    (True, None)
    """
    return RULES if (parameters.get("rows"), parameters.get("columns")) == (_ROWS, _COLUMNS) else None
