"""OpenSpiel's dots_and_boxes on keys, compiled with Numba: the rules a search on ``from_openspiel("dots_and_boxes")``
runs on (``openspiel.COMPILED_RULES``).

A key holds one bit per line, bit ``a`` for OpenSpiel's action ``a`` (the
horizontal lines row by row, then the vertical ones), then one bit per box, row
by row, set when the second player (player 1) completed it (clear for a box not
completed yet or the first player's), then the player to move (clear at the
end). That is what the adapter's state of the game is made of: OpenSpiel's
picture shows the lines drawn (not by whom) and each box's owner, beside the
player to move, so two histories are one state exactly when they have one key.
Drawing a line that completes a box (or two) scores it for the player who drew
it, who moves again; the game ends when every line is drawn, won by the player
with more boxes (OpenSpiel's returns 1 and -1, 0 and 0 for a draw).

The rules of a board are made once a process (``_board``): the search compiles
the functions it is given once, and each board's tables are constants of its
machine code (``cache=True`` keeps it on disk). Imported only when a search asks
(it imports Numba).

>>> rules = rules_for({"num_rows": 1, "num_cols": 1, "utility_margin": False})
>>> kids, moves = np.zeros(rules.width, np.int64), np.zeros(rules.width, np.int64)
>>> m = rules.step(0, kids, moves)
>>> m, moves[:m].tolist(), [rules.mover(k) for k in kids[:m].tolist()]
(4, [0, 1, 2, 3], [1, 1, 1, 1])
>>> end = key_after(np.array([0, 2, 1, 3], np.int64), 1, 1)  # player 0, 1, 0 and 1: player 1 closes the box
>>> end == 0b1_1111, rules.step(end, kids, moves), rules.payoffs[1]
(True, -2, (-1.0, 1.0))
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ._connect_four_rules import Rules

__all__ = ["Rules", "rules_for", "key_after", "key_after_for", "key_bits"]

_jit = numba.njit(cache=True, nogil=True)

_PAYOFFS = ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
"""OpenSpiel's returns at the end: the first player has more boxes, the second, as many."""

_DEFAULTS = {"num_rows": 2, "num_cols": 2, "utility_margin": False}
"""OpenSpiel's parameters of dots_and_boxes and their defaults."""


def key_bits(rows: int, cols: int) -> int:
    """The bits of a key of a board of ``rows`` by ``cols`` boxes: its lines, its boxes and the player to move.

    >>> key_bits(3, 3), key_bits(4, 4), key_bits(4, 5)
    (34, 57, 70)
    """
    return (rows + 1) * cols + rows * (cols + 1) + rows * cols + 1


def rules_for(parameters: dict):
    """The ``Rules`` of dots_and_boxes at OpenSpiel's ``parameters``, or None where they are not modelled.

    The parameters: ``num_rows``, ``num_cols``, ``utility_margin``; None: a board whose key needs more than 63 bits,
    returns of the margin of boxes
    (``utility_margin``), or a parameter it does not know. Its ``key`` and ``states`` are None: the adapter reads a
    state's key from its history (``key_after_for``) and makes the states itself (``openspiel._rules_of``).

    >>> rules = rules_for({"num_rows": 3, "num_cols": 3, "utility_margin": False})
    >>> rules.width, rules.payoffs, rules.states
    (24, ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)), None)
    >>> rules_for({"num_rows": 3, "num_cols": 3, "utility_margin": True}), rules_for({"num_rows": 4, "num_cols": 5})
    (None, None)
    """
    board = _size(parameters)
    return None if board is None else _board(*board)[0]


def key_after_for(parameters: dict):
    """``key_after`` on the board of OpenSpiel's ``parameters``, a function of an array of actions.

    None where ``rules_for`` gives None.

    >>> key_after_for({"num_rows": 3, "num_cols": 3})(np.array([0, 12], np.int64)) == 1 | 1 << 12
    True
    """
    board = _size(parameters)
    return None if board is None else _board(*board)[1]


def key_after(actions, num_rows: int = 2, num_cols: int = 2) -> int:
    """The key after OpenSpiel's ``actions`` (an array of legal ones) from the start.

    On a board of ``num_rows`` by ``num_cols`` boxes (OpenSpiel's default size unless given).

    >>> key = key_after(np.array([0, 6, 7, 2], np.int64))  # lines 0, 6, 7, then the second player's 2 closes box 0
    >>> key == 1 | 1 << 6 | 1 << 7 | 1 << 2 | 1 << 12 | 1 << 16  # its lines, box 0 the second's, who moves again
    True
    """
    return _board(num_rows, num_cols)[1](np.asarray(actions, np.int64))


def _size(parameters: dict):
    """``(rows, cols)`` of the board OpenSpiel's ``parameters`` name, or None where the rules do not model it."""
    given = {**_DEFAULTS, **parameters}
    if set(given) != set(_DEFAULTS) or given["utility_margin"]:
        return None
    rows, cols = given["num_rows"], given["num_cols"]
    if type(rows) is not int or type(cols) is not int or rows < 1 or cols < 1 or key_bits(rows, cols) > 63:
        return None
    return rows, cols


def _tables(rows: int, cols: int):
    """``(sides, count, others, owns)``: each box's four lines as bits; for each line, how many boxes it borders (1
    or 2), for each of them the bits of its other three lines, and the bit of its owner (set when the second player
    completes it).

    >>> sides, count, others, owns = _tables(1, 2)  # lines 0-3 horizontal, 4-6 vertical; box 0: lines 0, 2, 4, 5
    >>> bin(sides[0]), count.tolist(), bin(others[0, 0]), bin(owns[0, 0])
    ('0b110101', [1, 1, 1, 1, 1, 2, 1], '0b110100', '0b10000000')
    """
    horizontal = (rows + 1) * cols
    lines = horizontal + rows * (cols + 1)
    sides = np.zeros(rows * cols, np.int64)
    count, others, owns = np.zeros(lines, np.int64), np.zeros((lines, 2), np.int64), np.zeros((lines, 2), np.int64)
    for r in range(rows):
        for c in range(cols):
            left = horizontal + r * (cols + 1) + c
            four = (r * cols + c, (r + 1) * cols + c, left, left + 1)  # top, bottom, left, right
            sides[r * cols + c] = every = sum(1 << line for line in four)
            for line in four:
                t = count[line]
                others[line, t], owns[line, t] = every ^ (1 << line), 1 << (lines + r * cols + c)
                count[line] = t + 1
    return sides, count, others, owns


_DE_BRUIJN = 0x03F79D71B4CA8B09
"""A de Bruijn sequence of 64 bits: a single bit times it has a distinct top 6 bits for each place (``_place``)."""

_PLACES = np.array(sorted(range(64), key=lambda i: (((1 << i) * _DE_BRUIJN) % 2**64) >> 58), np.int64)
"""The place of a single bit, by the top 6 bits of the bit times ``_DE_BRUIJN``."""


@_jit
def _place(bit):
    """The place of ``bit``, a single bit below the 63rd: which line it is.

    >>> [_place(1 << i) for i in (0, 1, 23, 62)]
    [0, 1, 23, 62]
    """
    return _PLACES[((bit * _DE_BRUIJN) >> 58) & 63]


@_jit
def _drawn(key, line, turn, count, others, owns):
    """The key after ``line`` is drawn at ``key`` (before the end's player is cleared): a box it closes is the
    mover's, who moves again; else the turn passes."""
    after = key | (1 << line)
    closed = False
    for t in range(count[line]):
        if key & others[line, t] == others[line, t]:
            closed = True
            if key & turn:
                after |= owns[line, t]
    return after if closed else after ^ turn


@_jit
def _outcome(key, lines, boxes):
    """The end's outcome: 0 when the first player has more boxes, 1 the second, 2 as many."""
    owned, second = (key >> lines) & ((1 << boxes) - 1), 0
    while owned:
        owned &= owned - 1
        second += 1
    return 0 if 2 * second < boxes else 1 if 2 * second > boxes else 2


@_jit
def _step(key, kids, moves, lines, boxes, sides, count, others, owns):
    """``step`` on a board of ``lines`` lines and ``boxes`` boxes (``_tables``): the lines not drawn, lowest first;
    one that closes a box (its box's three other sides drawn) scores it, any other passes the turn."""
    every, turn = (1 << lines) - 1, 1 << (lines + boxes)
    free = every & ~key
    if free == 0:
        return -1 - _outcome(key, lines, boxes)
    closing = 0
    for b in range(boxes):
        side = sides[b] & ~key
        if side & (side - 1) == 0:  # (a box's one free side, or none once closed)
            closing |= side
    passed, left, m = key ^ turn, free, 0
    while left:
        bit = left & -left
        left ^= bit
        line = _place(bit)
        if bit & closing:
            after = _drawn(key, line, turn, count, others, owns)
            kids[m] = after & ~turn if free == bit else after  # (the last line closes a box: the end, no one to move)
        else:
            kids[m] = passed | bit
        moves[m] = line
        m += 1
    return m


@_jit
def _decisive(key, kids, m, chosen, lines, boxes, count, others, owns):
    """``decisive`` on a board of ``lines`` lines and ``boxes`` boxes (``_tables``)."""
    every, turn = (1 << lines) - 1, 1 << (lines + boxes)
    player, two, n = 1 if key & turn else 0, every & ~key, 0
    two &= two - 1  # (the free lines but the lowest)
    if two & (two - 1):  # three lines or more left: no move ends the game or leaves one line, all safe
        for j in range(m):
            chosen[j] = j
        return m
    for j in range(m):  # winning: the last line, closing boxes enough
        if kids[j] & every == every and _outcome(kids[j], lines, boxes) == player:
            chosen[n] = j
            n += 1
    if n:
        return n
    for j in range(m):  # safe: an end, the mover's turn again, or the opponent has no last line that wins
        kid = kids[j]
        free = every & ~kid
        if free & (free - 1) == 0 and free and (1 if kid & turn else 0) != player:
            if _outcome(_drawn(kid, _place(free), turn, count, others, owns), lines, boxes) == 1 - player:
                continue
        chosen[n] = j
        n += 1
    if n == 0:
        for j in range(m):
            chosen[j] = j
        n = m
    return n


@_jit
def _key_after(actions, lines, boxes, count, others, owns):
    """The key after ``actions`` from the start (the end's player cleared)."""
    every, turn, key = (1 << lines) - 1, 1 << (lines + boxes), 0
    for line in actions:
        key = _drawn(key, line, turn, count, others, owns)
    return key & ~turn if key & every == every else key


@lru_cache(maxsize=16)
def _board(rows: int, cols: int):
    """``(Rules, key_after)`` of a board of ``rows`` by ``cols`` boxes: functions made once a process, their
    tables constants of their machine code.

    >>> _board(3, 3) is _board(3, 3), _board(3, 3)[0].width
    (True, 24)
    """
    sides, count, others, owns = _tables(rows, cols)
    lines, boxes = count.shape[0], rows * cols
    turn = 1 << (lines + boxes)

    @_jit
    def step(key, kids, moves):
        """``-1 - outcome`` at the end (0: the first player has more boxes, 1: the second, 2: a draw), else
        OpenSpiel's legal actions (the lines not drawn, in order) and the keys after them, written in order."""
        return _step(key, kids, moves, lines, boxes, sides, count, others, owns)

    @_jit
    def mover(key):
        """The player to move at ``key`` (not at an end)."""
        return 1 if key & turn else 0

    @_jit
    def decisive(key, kids, moves, m, chosen):
        """``OpenSpielGame._decisive_choices`` on a key: the places among the ``m`` moves ``step`` wrote of those
        that end the game won by the mover, else of those after which the mover moves again, the game ends or the
        opponent cannot win with the last line, else of all, written to ``chosen`` in order; their number."""
        return _decisive(key, kids, m, chosen, lines, boxes, count, others, owns)

    @_jit
    def key_after(actions):
        """The key after OpenSpiel's ``actions`` (an array of legal ones) from the start."""
        return _key_after(actions, lines, boxes, count, others, owns)

    return Rules(step, mover, _PAYOFFS, None, None, lines, None, decisive), key_after
