"""Connect Four as a user writes it from its rules, for ``fnmcts mutate`` (plain Python, nothing of fnmcts's games).

Players drop discs into columns; a disc falls to the lowest free cell; four in
a row (across, up or diagonally) wins; a full board is a draw. A state: the
board as a tuple of columns, each the tuple of its discs from the bottom
(1 and 2), and the player to move follows from the number of discs.
"""

from dataclasses import dataclass

from fnmcts import GameBase


def lines(columns, rows, length):
    """Every run of ``length`` cells in a row, as ((column, row), ...)."""
    found = []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((c + k * dc, r + k * dr) for k in range(length))
                if all(0 <= x < columns and 0 <= y < rows for x, y in cells):
                    found.append(cells)
    return tuple(found)


@dataclass(frozen=True)
class ConnectFour(GameBase):
    """Connect ``length`` on ``columns`` x ``rows`` (the real game: 7 x 6, four)."""

    columns: int = 7
    rows: int = 6
    length: int = 4
    num_players = 2

    def start(self):
        return ((),) * self.columns

    def _cell(self, board, c, r):
        column = board[c]
        return column[r] if r < len(column) else 0

    def winner(self, board):
        for line in lines(self.columns, self.rows, self.length):
            first = self._cell(board, *line[0])
            if first and all(self._cell(board, c, r) == first for c, r in line[1:]):
                return first
        return 0

    def to_move(self, board):
        if self.winner(board) or all(len(column) == self.rows for column in board):
            return None
        discs = sum(len(column) for column in board)
        return discs % 2

    def possible_moves(self, board):
        if self.to_move(board) is None:
            return ()
        return tuple(c for c in range(self.columns) if len(board[c]) < self.rows)

    def play(self, board, move):
        if len(board[move]) >= self.rows:
            raise ValueError(f"column {move} is full")
        disc = 1 if sum(len(column) for column in board) % 2 == 0 else 2
        return board[:move] + (board[move] + (disc,),) + board[move + 1:]

    def payoff(self, board):
        w = self.winner(board)
        return (1, -1) if w == 1 else (-1, 1) if w == 2 else (0, 0)

    def state_to_json(self, board):
        return [list(column) for column in board]

    def state_from_json(self, data):
        return tuple(tuple(column) for column in data)
