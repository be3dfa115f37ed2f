"""OpenSpiel's hex on keys, compiled with Numba: what ``from_openspiel("hex(...)").compiled_rules()`` gives the search.

OpenSpiel's hex: a board of ``num_rows`` by ``num_cols`` cells, action ``c``
the cell ``row * num_cols + col``; black (player 0) moves first, each move a
stone on an empty cell; black wins by joining the north edge (row 0) to the
south edge, white by joining the west edge (column 0) to the east edge. Cell
``c``'s neighbours are ``c - num_cols``, ``c - num_cols + 1``, ``c + 1``,
``c + num_cols``, ``c + num_cols - 1`` and ``c - 1`` (those on the board).

A key holds each cell in two bits: bit ``c``, a black stone there; bit ``32 +
c``, a white one (``num_rows * num_cols`` at most 31: a key fits 63 bits). A
larger board, of at most 63 cells (hex 7x7), has keys of two words
(``Rules.words``): black's stones in the first, white's in the second. The
player to move is the parity of the stones. Edges and neighbours are read on
whole bit masks: a player's stones joined to an edge are grown from it a ring
of neighbours at a time, so a win, and every cell that would win at once, is a
handful of shifts a ring. Imported only when a search asks for the rules (it
imports Numba; ``cache=True`` keeps the machine code).

>>> rules = rules_for({"board_size": 3, "num_rows": 3, "num_cols": 3})
>>> kids, moves = np.zeros(9, np.int64), np.zeros(9, np.int64)
>>> rules.step(0, kids, moves), moves.tolist() == list(range(9)), int(kids[4]) == key_after(np.array([4]))
(9, True, True)
>>> rules.step(int(key_after(np.array([1, 0, 4, 2, 7]))), kids, moves)  # black down the middle column: over
-1
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ._connect_four_rules import Rules

__all__ = ["rules_for", "key_after", "key_pair_after", "key_after_for", "mover", "mover_two", "PAYOFFS", "ONE_WORD",
           "MOST_CELLS"]

_jit = numba.njit(cache=True, nogil=True)
_inline = numba.njit(cache=True, nogil=True, inline="always")  # (compiled into its caller, as if written there)

_WHITE = 32  # white's bit of cell c: bit 32 + c
_LOW = (1 << _WHITE) - 1  # black's bits

ONE_WORD = 31
"""The most cells of a board whose key is one word: two bits a cell (black's in bits 0-31, white's in 32-62)."""

MOST_CELLS = 63
"""The most cells a board may have: its key of two words, black's stones and white's, a bit a cell in each."""

PAYOFFS = ((1.0, -1.0), (-1.0, 1.0))
"""OpenSpiel's returns at hex's two ends: black won (``step`` gives -1), white won (-2)."""

_MODELLED = {"board_size", "num_rows", "num_cols", "string_rep", "plain_obs_tensor", "swap"}
"""OpenSpiel's parameters of hex the rules read or may ignore (the text of a state and the observations, not the
rules); ``swap`` must be off."""


@_jit
def _count(x):
    """The set bits of ``x``, below bit 63 (a key).

    >>> _count(0b1011 | 1 << 62)
    4
    """
    x = x - ((x >> 1) & 0x1555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


@_jit
def mover(key):
    """The player to move at ``key``: black (0) after an even number of stones.

    >>> mover(0), mover(int(key_after(np.array([3])))), mover(int(key_after(np.array([3, 0]))))
    (0, 1, 0)
    """
    return _count(key) & 1


@_jit
def _ring(x, cols, full, west, east):
    """``x`` and the cells next to its cells (a mask of cells, the board ``cols`` wide, ``full`` every cell)."""
    inner_e, inner_w = x & ~east, x & ~west  # (no neighbour east of the east edge, west of the west edge)
    return (x | (x >> cols) | (inner_e >> (cols - 1)) | (inner_e << 1) | (x << cols) | (inner_w << (cols - 1))
            | (inner_w >> 1)) & full


@_jit
def _reach(stones, edge, cols, full, west, east):
    """The cells of ``stones`` joined to ``edge``: those on it, grown through ``stones`` a ring at a time."""
    reach = stones & edge
    while True:
        grown = _ring(reach, cols, full, west, east) & stones
        if grown == reach:
            return reach
        reach = grown


@_jit
def _winning(stones, empty, one, other, cols, full, west, east):
    """The cells of ``empty`` whose stone would join edge ``one`` to edge ``other`` through ``stones``: each on or
    next to what reaches ``one``, and on or next to what reaches ``other`` (OpenSpiel's win: the new stone's
    neighbours joined to either edge)."""
    to_one = _ring(_reach(stones, one, cols, full, west, east), cols, full, west, east) | one
    to_other = _ring(_reach(stones, other, cols, full, west, east), cols, full, west, east) | other
    return empty & to_one & to_other


@_inline
def _ended(black, white, stones, cols, full, north, south, west, east):
    """-1 once black has joined north and south, -2 once white has joined west and east, else 0: only the stones of
    the player who moved last (black after an odd number of ``stones``) may have won: both rules' ``step``'s test."""
    if stones & 1:
        if _reach(black, north, cols, full, west, east) & south:
            return -1
    elif stones and _reach(white, west, cols, full, west, east) & east:
        return -2
    return 0


@_inline
def _decisive(black, white, moves, m, chosen, cols, full, north, south, west, east):
    """``decisive`` on black's stones and white's, of the one-word rules (``_board``) and the two-word ones."""
    empty = full & ~(black | white)
    if _count(black | white) & 1 == 0:  # black to move
        wins = _winning(black, empty, north, south, cols, full, west, east)
        threats = _winning(white, empty, west, east, cols, full, west, east) if not wins else 0
    else:
        wins = _winning(white, empty, west, east, cols, full, west, east)
        threats = _winning(black, empty, north, south, cols, full, west, east) if not wins else 0
    k = 0
    if wins:
        for j in range(m):
            if (wins >> moves[j]) & 1:
                chosen[k] = j
                k += 1
        return k
    if threats and threats & (threats - 1) == 0:  # one winning cell for the opponent: only taking it is safe
        for j in range(m):
            if (threats >> moves[j]) & 1:
                chosen[0] = j
                return 1
    for j in range(m):
        chosen[j] = j
    return m


@_jit
def mover_two(key):
    """The player to move at a key of two words (``key_pair_after``).

    >>> mover_two(np.array([1, 0])), mover_two(np.array([1, 2]))
    (1, 0)
    """
    return _count(key[0] | key[1]) & 1


@_jit
def key_pair_after(actions):
    """The key of two words after OpenSpiel's ``actions`` from the start: black's stones, white's.

    >>> key_pair_after(np.array([0, 4, 48], np.int64)).tolist() == [1 | 1 << 48, 1 << 4]
    True
    """
    key = np.zeros(2, np.int64)
    for t in range(actions.shape[0]):
        key[t & 1] |= 1 << actions[t]
    return key


def key_after_for(parameters: dict):
    """``key_after`` for a board of at most ``ONE_WORD`` cells at OpenSpiel's ``parameters``, else ``key_pair_after``.

    >>> key_after_for({"board_size": 7}) is key_pair_after, key_after_for({"board_size": 5}) is key_after
    (True, True)
    """
    size = parameters.get("board_size", 11)
    rows, cols = parameters.get("num_rows", size), parameters.get("num_cols", size)
    return key_after if rows * cols <= ONE_WORD else key_pair_after


@_jit
def key_after(actions):
    """The key after OpenSpiel's ``actions`` (cells) from the start, in turn from black (any board: a cell's bits are
    the same on every board).

    >>> key_after(np.array([0, 4, 2], np.int64)) == (1 | 1 << 2 | 1 << (32 + 4))
    True
    """
    key = 0
    for a in actions:
        key |= 1 << (a + _WHITE * (_count(key) & 1))
    return key


@lru_cache(maxsize=16)
def _board(rows: int, cols: int) -> Rules:
    """The ``Rules`` of the board ``rows`` by ``cols``: ``step`` and ``decisive`` compiled with the board's masks
    (made once a board: the search compiles its loop's calls of them once a board too, ``_rules_kernel``)."""
    n = rows * cols
    full = (1 << n) - 1
    north = (1 << cols) - 1
    south = north << (n - cols)
    west = sum(1 << (r * cols) for r in range(rows))
    east = west << (cols - 1)

    if n > ONE_WORD:
        return _two_words(n, cols, full, north, south, west, east)

    @_jit
    def step(key, kids, moves):
        """``-1`` once black has joined north and south, ``-2`` once white has joined west and east, else the empty
        cells in order and the keys after the mover's stone on each."""
        black, white = key & _LOW, key >> _WHITE
        stones = _count(key)
        end = _ended(black, white, stones, cols, full, north, south, west, east)
        if end:
            return end
        taken = black | white
        stone = 1 << (_WHITE * (stones & 1))
        m = 0
        for c in range(n):
            if not (taken >> c) & 1:
                kids[m] = key | (stone << c)
                moves[m] = c
                m += 1
        return m

    @_jit
    def decisive(key, kids, moves, m, chosen):
        """``OpenSpielGame._decisive_choices`` on a key: the places among the ``m`` moves ``step`` wrote of those
        that win at once, else of those after which the opponent cannot win at once, else of all, written to
        ``chosen``; their number. The opponent's winning cells stay theirs whatever the mover plays but the cell
        played: a move is safe when it takes the opponent's only one, or when they have none (every move)."""
        return _decisive(key & _LOW, key >> _WHITE, moves, m, chosen, cols, full, north, south, west, east)

    return Rules(step, mover, PAYOFFS, None, None, n, None, decisive)


def _two_words(n, cols, full, north, south, west, east) -> Rules:
    """``_board``'s ``Rules`` of a board of ``n`` cells (at most ``MOST_CELLS``), on keys of two words."""

    @_jit
    def step(key, kids, moves):
        """``_board``'s ``step`` on a key of two words, black's stones and white's, ``kids`` a row of two a move."""
        black, white = key[0], key[1]
        stones = _count(black | white)
        end = _ended(black, white, stones, cols, full, north, south, west, east)
        if end:
            return end
        taken, side = black | white, stones & 1
        m = 0
        for c in range(n):
            if not (taken >> c) & 1:
                kids[m, 0], kids[m, 1] = black, white
                kids[m, side] |= 1 << c
                moves[m] = c
                m += 1
        return m

    @_jit
    def decisive(key, kids, moves, m, chosen):
        """``_decisive`` at a key of two words."""
        return _decisive(key[0], key[1], moves, m, chosen, cols, full, north, south, west, east)

    return Rules(step, mover_two, PAYOFFS, None, None, n, None, decisive, 2)


def rules_for(parameters: dict) -> Rules | None:
    """Hex's ``Rules`` at OpenSpiel's ``parameters`` (its game's ``get_parameters()``), or None where not modelled.

    None: the swap rule on, a board of more than ``MOST_CELLS`` cells (its key would not fit) or less than 2
    rows or columns (OpenSpiel joins no edges across one row), a parameter unknown here. The states' keys are
    ``key_after_for(parameters)`` of their actions (two words past ``ONE_WORD`` cells, ``Rules.words``); ``states``
    and ``key`` are the game's to give (``openspiel._rules_of``).

    >>> rules_for({"board_size": 5, "num_rows": 5, "num_cols": 5, "swap": False}).width
    25
    >>> rules_for({"board_size": 7, "num_rows": 7, "num_cols": 7}).words, rules_for({"board_size": 5}).words
    (2, 1)
    >>> rules_for({"board_size": 8, "num_rows": 8, "num_cols": 8}), rules_for({"board_size": 5, "swap": True})
    (None, None)
    """
    if set(parameters) - _MODELLED or parameters.get("swap", False):
        return None
    size = parameters.get("board_size", 11)
    rows, cols = parameters.get("num_rows", size), parameters.get("num_cols", size)
    if not (type(rows) is int and type(cols) is int and rows >= 2 and cols >= 2 and rows * cols <= MOST_CELLS):
        return None
    return _board(rows, cols)
