"""Tic-tac-toe: three in a row wins, a full board without a line is a draw.

A state is a tuple of 9 cells, row by row (cells 0..8): 0 empty, 1 X, 2 O. X
(player 0) moves first, so whose turn it is follows from the counts. A move is
the index of an empty cell; moves come in increasing cell order. The payoff is
``(1, -1)`` when X has three in a row, ``(-1, 1)`` for O and ``(0, 0)`` for a
draw.

>>> game = TicTacToe()
>>> state = game.start()
>>> for cell in (4, 0, 2, 6, 3):
...     state = game.play(state, cell)
>>> print(game.render(state))
O | 1 | X
X | X | 5
O | 7 | 8
>>> game.to_move(state), game.possible_moves(state)
(1, (1, 5, 7, 8))
>>> for cell in (5, 1, 7, 8):
...     state = game.play(state, cell)
>>> state, game.to_move(state), game.payoff(state)
((2, 1, 1, 1, 1, 2, 2, 2, 1), None, (0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import not_

from ..protocol import GameBase, _state_json, _state_text

__all__ = ["TicTacToe", "LINES", "SYMMETRIES", "EMPTY", "X", "O"]

EMPTY, X, O = 0, 1, 2
"""The contents of a cell: empty, an X (player 0's mark) or an O (player 1's)."""

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
"""The 8 lines of three cells: rows, columns, diagonals."""

_ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # cell i of the board turned a quarter clockwise holds cell _ROTATE[i]
_MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)  # left and right swapped


def _then(first, second) -> tuple:
    """The cell map of ``first`` followed by ``second``."""
    return tuple(first[second[i]] for i in range(9))


_TURNS = ((0, 1, 2, 3, 4, 5, 6, 7, 8), _ROTATE, _then(_ROTATE, _ROTATE), _then(_then(_ROTATE, _ROTATE), _ROTATE))
SYMMETRIES = _TURNS + tuple(_then(turn, _MIRROR) for turn in _TURNS)
"""The 8 symmetries of the board (4 turns, each with and without a mirror) as cell maps: ``image[i] = board[m[i]]``."""

_SYMBOLS = {EMPTY: ".", X: "X", O: "O"}
_PAYOFFS = {X: (1, -1), O: (-1, 1), EMPTY: (0, 0)}
_DIGITS = {"0": EMPTY, "1": X, "2": O}
_LETTERS = {"X": X, "O": O, ".": EMPTY, "-": EMPTY, "_": EMPTY, "0": EMPTY}
_FORMS = (
    "9 cells row by row, 0 empty, 1 X, 2 O: '1,2,1,1,2,2,0,1,0', '121122010', "
    "the JSON list [1, 2, 1, 1, 2, 2, 0, 1, 0], or 'XOXXOO.X.' (., -, _ or 0 for an empty cell)"
)


def _lines_of(board) -> set:
    """The marks (X, O) that fill a line of ``board``."""
    return {board[a] for a, b, c in LINES if board[a] != EMPTY and board[a] == board[b] == board[c]}


def _known(field, table) -> bool:
    """True when ``field`` (a typed cell, or a JSON number) is a key of ``table``, letters in either case."""
    if isinstance(field, str):
        return field.upper() in table
    return type(field) is int and field in table


def winner(board) -> int:
    """The mark with three in a row on ``board``: ``X`` (1), ``O`` (2), or ``EMPTY`` (0) for none.

    The eight lines are written out, the centre's four first: no loop, no line
    looked at twice (the search calls it for every board it meets).

    >>> winner((1, 1, 1, 2, 2, 0, 0, 0, 0)), winner((1, 2, 1, 1, 2, 2, 0, 1, 0))
    (1, 0)
    """
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = board
    if b4 and (b0 == b4 == b8 or b2 == b4 == b6 or b1 == b4 == b7 or b3 == b4 == b5):
        return b4
    if b0 and (b0 == b1 == b2 or b0 == b3 == b6):
        return b0
    if b8 and (b6 == b7 == b8 or b2 == b5 == b8):
        return b8
    return EMPTY


_CELLS = tuple(range(9))


def _status(board) -> tuple:
    """``(player to move or None, empty cells, winning mark)`` of ``board``.

    X moves first and the players alternate, so the player to move is the parity
    of the marks on the board.
    """
    line = winner(board)
    empty = tuple(compress(_CELLS, map(not_, board)))
    if line != EMPTY or not empty:
        return None, (), line
    return (len(empty) + 1) & 1, empty, line


@dataclass(frozen=True)
class TicTacToe(GameBase):
    """Tic-tac-toe on a 3x3 board; X (player 0) moves first; a full board without a line draws.

    >>> game = TicTacToe()
    >>> end = (1, 2, 1, 1, 2, 2, 2, 1, 1)
    >>> game.to_move(end), game.payoff(end)
    (None, (0, 0))
    """

    num_players = 2
    name = "tic-tac-toe"

    def start(self) -> tuple:
        """The empty board.

        >>> TicTacToe().start()
        (0, 0, 0, 0, 0, 0, 0, 0, 0)
        """
        return (EMPTY,) * 9

    def check_state(self, state):
        """``state`` if it is a position of legal play, else a ``ValueError`` naming the problem.

        >>> TicTacToe().check_state((1, 2, 1, 1, 2, 2, 0, 1, 0))
        (1, 2, 1, 1, 2, 2, 0, 1, 0)
        >>> TicTacToe().check_state((1, 1, 0, 0, 0, 0, 0, 0, 0))
        Traceback (most recent call last):
        ...
        ValueError: X has 2 marks and O has 0: X moves first, so X has as many marks as O or one more
        """
        if not isinstance(state, tuple) or len(state) != 9:
            raise ValueError(f"a tic-tac-toe state is a tuple of 9 cells (0 empty, 1 X, 2 O), got {state!r}")
        bad = [cell for cell in state if type(cell) is not int or cell not in (EMPTY, X, O)]
        if bad:
            raise ValueError(f"a cell is 0 (empty), 1 (X) or 2 (O), got {bad[0]!r} in {state!r}")
        xs, os = state.count(X), state.count(O)
        if xs not in (os, os + 1):
            raise ValueError(
                f"X has {xs} marks and O has {os}: X moves first, so X has as many marks as O or one more"
            )
        lines = _lines_of(state)
        if lines == {X, O}:
            raise ValueError(f"both X and O have three in a row in {state!r}: the game ends at the first line")
        if X in lines and xs != os + 1:
            raise ValueError(f"X has three in a row in {state!r}, but O has moved since: the game ended there")
        if O in lines and xs != os:
            raise ValueError(f"O has three in a row in {state!r}, but X has moved since: the game ended there")
        return state  # the caller's object: trees and tables find it by identity

    def to_move(self, state):
        """0 (X) or 1 (O), whoever is to move, or ``None`` when the game is over.

        >>> TicTacToe().to_move((1, 0, 0, 0, 0, 0, 0, 0, 0)), TicTacToe().to_move((1, 1, 1, 2, 2, 0, 0, 0, 0))
        (1, None)
        """
        if winner(state) or EMPTY not in state:
            return None
        return (state.count(EMPTY) + 1) & 1

    def possible_moves(self, state) -> tuple:
        """The empty cells in increasing order (none when the game is over).

        >>> TicTacToe().possible_moves((1, 2, 1, 1, 2, 2, 0, 1, 0))
        (6, 8)
        """
        return _status(state)[1]

    def play(self, state, move) -> tuple:
        """The board after the player to move puts a mark in cell ``move``.

        >>> TicTacToe().play((1, 0, 0, 0, 0, 0, 0, 0, 0), 4)
        (1, 0, 0, 0, 2, 0, 0, 0, 0)
        >>> TicTacToe().play((1, 0, 0, 0, 0, 0, 0, 0, 0), 0)
        Traceback (most recent call last):
        ...
        ValueError: illegal move 0: cell 0 is taken; the empty cells are 1 2 3 4 5 6 7 8
        """
        if type(move) is not int or not 0 <= move <= 8 or state[move] != EMPTY or winner(state):
            player, empty, _ = _status(state)
            if isinstance(move, bool) or not isinstance(move, int) or move not in empty:
                raise ValueError(self._illegal(state, move, player, empty))
        return state[:move] + ((X if state.count(EMPTY) & 1 else O),) + state[move + 1 :]

    @staticmethod
    def _illegal(state, move, player, empty) -> str:
        if player is None:
            return f"illegal move {move!r}: the game is over at {state!r}"
        cells = " ".join(map(str, empty))
        if isinstance(move, int) and not isinstance(move, bool) and 0 <= move <= 8:
            return f"illegal move {move}: cell {move} is taken; the empty cells are {cells}"
        return f"illegal move {move!r}: a move is an empty cell, one of {cells}"

    def payoff(self, state) -> tuple:
        """``(1, -1)`` when X has a line, ``(-1, 1)`` when O has, ``(0, 0)`` for a full board without one.

        >>> TicTacToe().payoff((2, 1, 1, 1, 1, 2, 2, 2, 1)), TicTacToe().payoff((2, 2, 2, 1, 1, 0, 1, 0, 0))
        ((0, 0), (-1, 1))
        """
        player, _, line = _status(state)
        if player is not None:
            raise ValueError(f"the game is not over at {state!r}")
        return _PAYOFFS[line]

    def random_payoff(self, state, rng) -> tuple:
        """The payoff after uniformly random play from ``state`` (a fast kernel).

        Draws as ``playout`` with ``random_agent`` does: one ``rng.random()`` per
        move, none when only one cell is empty.

        >>> import random
        >>> TicTacToe().random_payoff((1, 2, 1, 1, 2, 2, 0, 1, 0), random.Random(0))  # O plays 8, X 6
        (1, -1)
        """
        rnd = rng.random
        player, empty, line = _status(state)
        while player is not None:
            move = empty[0] if len(empty) == 1 else empty[int(rnd() * len(empty))]
            state = state[:move] + ((X if player == 0 else O),) + state[move + 1 :]
            player, empty, line = _status(state)
        return _PAYOFFS[line]

    def describe_move(self, state, move) -> str:
        """The mark of the player to move and the cell, e.g. ``"X at 4"`` (``"cell 4"`` without a state).

        >>> TicTacToe().describe_move((1, 0, 0, 0, 0, 0, 0, 0, 0), 4), TicTacToe().describe_move(None, 4)
        ('O at 4', 'cell 4')
        """
        player = None if state is None else _status(state)[0]
        return f"cell {move}" if player is None else f"{'XO'[player]} at {move}"

    def transcript_line(self, player, move, after) -> str:
        """The transcript line for ``player`` (0 or 1) marking cell ``move`` to reach ``after``.

        >>> TicTacToe().transcript_line(0, 4, (0, 0, 0, 0, 1, 0, 0, 0, 0))
        'Player 1 (X) plays 4.'
        """
        return f"Player {player + 1} ({'XO'[player]}) plays {move}."

    def symmetries(self, state) -> tuple:
        """The distinct images of the board under its 8 rotations and reflections, ``state`` first.

        >>> TicTacToe().symmetries((1, 0, 0, 0, 0, 0, 0, 0, 0))  # a corner: the four corners
        ((1, 0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 1, 0, 0))
        >>> len(TicTacToe().symmetries((1, 2, 0, 0, 0, 0, 0, 0, 0)))
        8
        """
        images = []
        for cells in SYMMETRIES:
            image = tuple(state[i] for i in cells)
            if image not in images:
                images.append(image)
        return tuple(images)

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)``: at most the 5,478 legal boards, nine moves, nine choices.

        >>> TicTacToe().size_hint(TicTacToe().start())
        (5478, 9, 9)
        """
        empty = sum(1 for cell in state if cell == EMPTY)
        return (5478, empty, empty)

    def player_name(self, player) -> str:
        """How a person is told who ``player`` (0 or 1) is: the player number and the mark.

        >>> TicTacToe().player_name(0), TicTacToe().player_name(1)
        ('Player 1 (X)', 'Player 2 (O)')
        """
        return f"Player {player + 1} ({'XO'[player]})"

    def render(self, state) -> str:
        """A picture of the board in 3 lines: X, O, and the cell number of each empty cell.

        >>> print(TicTacToe().render((1, 2, 1, 1, 2, 2, 0, 1, 0)))
        X | O | X
        X | O | O
        6 | X | 8
        """
        cells = [_SYMBOLS[c] if c != EMPTY else str(i) for i, c in enumerate(state)]
        return "\n".join(" | ".join(cells[row : row + 3]) for row in (0, 3, 6))

    def state_to_json(self, state) -> list:
        """The board as a list of 9 numbers.

        >>> TicTacToe().state_to_json((1, 2, 0, 0, 0, 0, 0, 0, 0))
        [1, 2, 0, 0, 0, 0, 0, 0, 0]
        """
        return list(state)

    def state_from_json(self, data) -> tuple:
        """The board whose JSON form is ``data`` (a list of 9 numbers), checked.

        >>> TicTacToe().state_from_json([1, 2, 0, 0, 0, 0, 0, 0, 0])
        (1, 2, 0, 0, 0, 0, 0, 0, 0)
        """
        if not isinstance(data, list):
            raise ValueError(f"a tic-tac-toe state in JSON is a list of 9 cells (0 empty, 1 X, 2 O), got {data!r}")
        return self.check_state(tuple(data))

    def parse_state(self, text: str) -> tuple:
        """The board written as ``text``: ``"1,2,1,1,2,2,0,1,0"``, ``"121122010"``, a JSON list or ``"XOXXOO.X."``.

        Letters are case-insensitive; ``.``, ``-``, ``_`` or ``0`` mark an empty
        cell; spaces and line breaks between cells are ignored. The board is
        checked (``check_state``).

        >>> game = TicTacToe()
        >>> game.parse_state("1,2,1,1,2,2,0,1,0") == game.parse_state("xoxxoo.x.") == (1, 2, 1, 1, 2, 2, 0, 1, 0)
        True
        >>> game.parse_state("12")
        Traceback (most recent call last):
        ...
        ValueError: write a tic-tac-toe state as 9 cells row by row, ... got '12'
        """
        stripped = _state_text(text)
        if stripped.startswith("["):
            fields = _state_json(text, _FORMS)
            tables = [{0: EMPTY, 1: X, 2: O}]
        else:
            fields = [f.strip() for f in stripped.split(",")] if "," in stripped else list("".join(stripped.split()))
            tables = [_DIGITS, _LETTERS]
        for table in tables:
            if isinstance(fields, list) and len(fields) == 9 and all(_known(f, table) for f in fields):
                return self.check_state(tuple(table[f.upper() if isinstance(f, str) else f] for f in fields))
        raise ValueError(f"write a tic-tac-toe state as {_FORMS}; got {text!r}")

    def parse_move(self, state, text: str) -> int:
        """The cell typed as ``text`` (a number 0-8), if it is empty at ``state``.

        >>> TicTacToe().parse_move((1, 2, 1, 1, 2, 2, 0, 1, 0), " 8 ")
        8
        >>> TicTacToe().parse_move((1, 2, 1, 1, 2, 2, 0, 1, 0), "7")
        Traceback (most recent call last):
        ...
        ValueError: type the number of an empty cell: 6 or 8
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is typed as text, got {type(text).__name__}")
        empty = self.possible_moves(state)
        if not empty:
            raise ValueError(f"the game is over at {state!r}: no move to type")
        cells = ", ".join(map(str, empty[:-1])) + (" or " if len(empty) > 1 else "") + str(empty[-1])
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()) or int(stripped) not in empty:
            raise ValueError(f"type the number of an empty cell: {cells}")
        return int(stripped)
