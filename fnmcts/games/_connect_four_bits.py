"""Connect Four's board as bits, shared by the game (``connect_four``) and its compiled rules (``_connect_four_rules``).

Each column takes ``H`` bits: its ``ROWS`` cells from the bottom up and one free bit above them.
"""

from __future__ import annotations

__all__ = ["COLUMNS", "ROWS", "H", "fours"]

COLUMNS, ROWS = 7, 6
"""The board: 7 columns of 6 rows."""

H = ROWS + 1
"""Bits per column: the rows and one free bit above them."""


def fours(board, empty) -> int:
    """The cells of ``empty`` where a disc would give ``board`` (one player's discs) four in a row.

    >>> full = sum(((1 << ROWS) - 1) << (H * c) for c in range(COLUMNS))
    >>> fours(0b111, full ^ 0b111) == 0b1000  # three up column 0: the cell above
    True
    """
    found = (board << 1) & (board << 2) & (board << 3)  # up: the three below
    for shift in (H, H - 1, H + 1):  # across, the two diagonals: three of four cells on the line, either side
        pair = (board << shift) & (board << 2 * shift)
        found |= pair & (board << 3 * shift)
        found |= pair & (board >> shift)
        pair = (board >> shift) & (board >> 2 * shift)
        found |= pair & (board << shift)
        found |= pair & (board >> 3 * shift)
    return found & empty
