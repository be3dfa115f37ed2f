"""Connect Four: drop discs into 7 columns of 6 rows; four in a row (across, up, or diagonally) wins.

A state is the pair ``(x, mask)`` of bitboards (Python ints): ``mask`` has a
bit for every disc, ``x`` for player 0's (X's). Column ``c``'s row ``r`` (0 at
the bottom) is bit ``7 * c + r``: each column keeps a seventh bit free, so no
line wraps from one column to the next. X (player 0) moves first, so whose turn
it is follows from the number of discs. A move is a column with room, and
moves come in increasing column order. The payoff is ``(1, -1)`` when X has
four in a row, ``(-1, 1)`` for O and ``(0, 0)`` for a full board without one.

``key(state)`` is one 49-bit number per state (``x + mask`` plus the bottom
bit of each column): ``compiled_rules`` gives the search these keys and the
rules on them, compiled, so a plain search runs the game in machine code
(``fnmcts.mcts._rules_kernel``).

>>> game = ConnectFour()
>>> state = game.start()
>>> for column in (3, 3, 4, 4, 5, 5):
...     state = game.play(state, column)
>>> print(game.render(state))
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . O O O .
. . . X X X .
0 1 2 3 4 5 6
>>> game.to_move(state), game.possible_moves(state)
(0, (0, 1, 2, 3, 4, 5, 6))
>>> state = game.play(state, 6)
>>> game.to_move(state), game.payoff(state)
(None, (1, -1))
>>> game.state(game.key(state)) == state
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..protocol import GameBase, _state_text
from ._connect_four_bits import COLUMNS, ROWS, H, fours

__all__ = ["ConnectFour", "COLUMNS", "ROWS"]

_H = H  # bits per column: the rows and one free bit above them
_BOTTOM = sum(1 << (_H * c) for c in range(COLUMNS))  # the bottom cell of every column
_FULL = _BOTTOM * ((1 << ROWS) - 1)  # every cell of the board
_TOPS = tuple(1 << (_H * c + ROWS - 1) for c in range(COLUMNS))  # each column's top cell
_BOTTOMS = tuple(1 << (_H * c) for c in range(COLUMNS))
_COLUMN = tuple(((1 << ROWS) - 1) << (_H * c) for c in range(COLUMNS))
_CELLS = COLUMNS * ROWS
_PAYOFFS = ((1, -1), (-1, 1), (0, 0))  # X won, O won, a draw (the index ``outcome`` gives)
_ALL = tuple(range(COLUMNS))
_MOVES = tuple(tuple(c for c in range(COLUMNS) if not room >> c & 1) for room in range(1 << COLUMNS))


def four(board) -> bool:
    """Whether ``board`` (one player's discs) holds four in a row, across, up or diagonally.

    >>> four(0b1111), four(1 | 1 << 7 | 1 << 14 | 1 << 21), four(0b111)
    (True, True, False)
    """
    for shift in (1, _H, _H - 1, _H + 1):  # up, across, the two diagonals
        pairs = board & (board >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


_fours = fours  # the cells of four (``_connect_four_bits``; the compiled rules compile the same function)


def _decisive_columns(mine, theirs, mask, moves) -> tuple:
    """``decisive_agent``'s columns to draw from: those making four, else those after which the opponent cannot make
    four at once (a full board ends the game: safe), else ``moves``, in column order."""
    empty = _FULL ^ mask
    playable = (mask + _BOTTOM) & _FULL
    wins = _fours(mine, empty) & playable
    if wins:
        return tuple(c for c in moves if wins & _COLUMN[c])
    threats = _fours(theirs, empty)  # the opponent's cells of four (the cell a move fills is no longer playable)

    def safe(c):  # after the disc in column c: the cells playable are the others' and the one above it
        disc = playable & _COLUMN[c]
        return not threats & ((playable ^ disc) | (disc << 1 & _COLUMN[c]))

    return tuple(filter(safe, moves)) or moves


def _full_columns(mask) -> int:
    """The full columns of ``mask`` as 7 bits (bit ``c``: column ``c`` is full)."""
    return sum(1 << c for c in range(COLUMNS) if mask & _TOPS[c])


def _outcome(x, mask):
    """0 if X has four in a row, 1 if O has, 2 for a full board without one, None while the game goes on."""
    if mask.bit_count() & 1:  # X moved last: only X can have just made four
        if four(x):
            return 0
    elif mask and four(x ^ mask):
        return 1
    return 2 if mask == _FULL else None


@dataclass(frozen=True)
class ConnectFour(GameBase):
    """Connect Four on 7 columns of 6 rows; X (player 0) moves first; a full board without four in a row draws.

    >>> game = ConnectFour()
    >>> game.num_players, game.possible_moves(game.start())
    (2, (0, 1, 2, 3, 4, 5, 6))
    """

    num_players = 2
    name = "connect-four"

    def start(self) -> tuple:
        """The empty board: no disc of X's, no disc at all.

        >>> ConnectFour().start()
        (0, 0)
        """
        return (0, 0)

    def check_state(self, state):
        """``state`` if it is a position of legal play, else a ``ValueError`` naming the problem.

        >>> ConnectFour().check_state((1, 1))
        (1, 1)
        >>> ConnectFour().check_state((0, 1))
        Traceback (most recent call last):
        ...
        ValueError: X has 0 discs and O has 1: X moves first, so X has as many discs as O or one more
        """
        if (not isinstance(state, tuple) or len(state) != 2 or any(type(b) is not int for b in state)
                or state[1] & ~_FULL or state[0] & ~state[1] or state[0] < 0):
            raise ValueError(f"a connect-four state is a pair (X's discs, all discs) of bitboards, got {state!r}")
        x, mask = state
        if any(mask & (b << 1) and not mask & b for b in (1 << (_H * c + r) for c in range(COLUMNS) for r in range(5))):
            raise ValueError(f"a disc floats above an empty cell in {state!r}")
        xs, os = x.bit_count(), (x ^ mask).bit_count()
        if xs not in (os, os + 1):
            raise ValueError(f"X has {xs} discs and O has {os}: X moves first, so X has as many discs as O or one more")
        if four(x) and four(x ^ mask):
            raise ValueError(f"both X and O have four in a row in {state!r}: the game ends at the first")
        return state

    def to_move(self, state):
        """0 (X) or 1 (O), whoever is to move, or ``None`` when the game is over.

        >>> ConnectFour().to_move((0, 0)), ConnectFour().to_move((1, 1)), ConnectFour().to_move((15, 15 | 128))
        (0, 1, None)
        """
        x, mask = state
        if _outcome(x, mask) is not None:
            return None
        return mask.bit_count() & 1

    def possible_moves(self, state) -> tuple:
        """The columns with room, in increasing order (none when the game is over).

        >>> ConnectFour().possible_moves((21, 0b111111))
        (1, 2, 3, 4, 5, 6)
        """
        x, mask = state
        if _outcome(x, mask) is not None:
            return ()
        return _MOVES[_full_columns(mask)]

    def play(self, state, move) -> tuple:
        """The board after the player to move drops a disc into column ``move``.

        >>> ConnectFour().play((0, 0), 3)
        (2097152, 2097152)
        >>> ConnectFour().play((21, 0b111111), 0)
        Traceback (most recent call last):
        ...
        ValueError: illegal move 0: column 0 is full; the columns with room are 1 2 3 4 5 6
        """
        x, mask = state
        if type(move) is not int or not 0 <= move < COLUMNS or mask & _TOPS[move] or _outcome(x, mask) is not None:
            raise ValueError(self._illegal(state, move))
        disc = (mask + _BOTTOMS[move]) & _COLUMN[move]
        return (x if mask.bit_count() & 1 else x | disc), mask | disc

    def _illegal(self, state, move) -> str:
        moves = self.possible_moves(state)
        if not moves:
            return f"illegal move {move!r}: the game is over at {state!r}"
        columns = " ".join(map(str, moves))
        if type(move) is int and 0 <= move < COLUMNS:
            return f"illegal move {move}: column {move} is full; the columns with room are {columns}"
        return f"illegal move {move!r}: a move is a column with room, one of {columns}"

    def payoff(self, state) -> tuple:
        """``(1, -1)`` when X has four in a row, ``(-1, 1)`` when O has, ``(0, 0)`` for a full board without.

        >>> ConnectFour().payoff((15, 15 | 128))
        (1, -1)
        """
        found = _outcome(*state)
        if found is None:
            raise ValueError(f"the game is not over at {state!r}")
        return _PAYOFFS[found]

    def random_payoff(self, state, rng) -> tuple:
        """The payoff after uniformly random play from ``state`` (a fast kernel).

        Draws as ``playout`` with ``random_agent`` does: one ``rng.random()``
        per move, none when only one column has room.

        >>> import random
        >>> ConnectFour().random_payoff((15, 15 | 128), random.Random(0))  # over already
        (1, -1)
        """
        rnd = rng.random
        x, mask = state
        found = _outcome(x, mask)
        while found is None:
            moves = _MOVES[_full_columns(mask)]
            move = moves[0] if len(moves) == 1 else moves[int(rnd() * len(moves))]
            disc = (mask + _BOTTOMS[move]) & _COLUMN[move]
            if not mask.bit_count() & 1:
                x |= disc
            mask |= disc
            found = _outcome(x, mask)
        return _PAYOFFS[found]

    def decisive_payoff(self, state, rng) -> tuple:
        """The payoff after decisive and anti-decisive play from ``state`` (a fast kernel, on the bitboards).

        Draws as ``playout`` with ``fnmcts.mcts.enhancements.decisive_agent``
        does: at each move one ``rng.random()`` (none when one column is left to
        draw from) among the columns that make four, else those after which the
        opponent cannot make four at once, else all.

        >>> import random
        >>> from fnmcts.matches import playout
        >>> from fnmcts.mcts.enhancements import decisive_agent
        >>> game = ConnectFour()
        >>> all(game.decisive_payoff(game.start(), random.Random(k)) ==
        ...     game.payoff(playout(game, game.start(), random.Random(k), decisive_agent)) for k in range(5))
        True
        """
        return self._decisive_play(state, rng, None)

    def decisive_played(self, state, rng) -> tuple:
        """``(payoff, moves)`` of ``decisive_payoff``'s game (the same draws): its payoff and each decision's
        ``(player, move)``, as RAVE counts them.

        >>> import random
        >>> payoff, moves = ConnectFour().decisive_played((0, 0), random.Random(2))
        >>> payoff == ConnectFour().decisive_payoff((0, 0), random.Random(2)), [p for p, _ in moves][:4]
        (True, [0, 1, 0, 1])
        """
        played = []
        return self._decisive_play(state, rng, played), tuple(played)

    def _decisive_play(self, state, rng, played) -> tuple:
        rnd = rng.random
        x, mask = state
        found = _outcome(x, mask)
        while found is None:
            player = mask.bit_count() & 1
            moves = _MOVES[_full_columns(mask)]
            if len(moves) > 1:
                mine = x ^ mask if player else x
                moves = _decisive_columns(mine, mine ^ mask, mask, moves)
            move = moves[0] if len(moves) == 1 else moves[int(rnd() * len(moves))]
            if played is not None:
                played.append((player, move))
            disc = (mask + _BOTTOMS[move]) & _COLUMN[move]
            if not player:
                x |= disc
            mask |= disc
            found = _outcome(x, mask)
        return _PAYOFFS[found]

    def key(self, state) -> int:
        """The state as one number below 2**49 (``x + mask`` plus the bottom bit of each column); ``state`` inverts it.

        >>> ConnectFour().key((0, 0)) == sum(1 << (7 * c) for c in range(7))
        True
        """
        x, mask = state
        return x + mask + _BOTTOM

    def state(self, key) -> tuple:
        """The state whose ``key`` is ``key``: in each column the highest bit marks the height, the bits below X's discs.

        >>> game = ConnectFour()
        >>> game.state(game.key((2097152, 2097152)))
        (2097152, 2097152)
        """
        x = mask = 0
        for c in range(COLUMNS):
            column = (key >> (_H * c)) & ((1 << _H) - 1)
            top = column.bit_length() - 1
            x |= (column ^ (1 << top)) << (_H * c)
            mask |= ((1 << top) - 1) << (_H * c)
        return x, mask

    def compiled_rules(self):
        """The rules on keys, compiled (``fnmcts.games._connect_four_rules.RULES``), or None without Numba.

        >>> rules = ConnectFour().compiled_rules()
        >>> rules is None or rules.payoffs == ((1, -1), (-1, 1), (0, 0))
        True
        """
        try:
            from ._connect_four_rules import RULES
        except ImportError:
            return None
        return RULES

    def describe_move(self, state, move) -> str:
        """The mark of the player to move and the column, e.g. ``"X in column 3"``.

        >>> ConnectFour().describe_move((0, 0), 3), ConnectFour().describe_move(None, 3)
        ('X in column 3', 'column 3')
        """
        player = None if state is None else self.to_move(state)
        return f"column {move}" if player is None else f"{'XO'[player]} in column {move}"

    def transcript_line(self, player, move, after) -> str:
        """The transcript line for ``player`` (0 or 1) dropping a disc into column ``move``.

        >>> ConnectFour().transcript_line(0, 3, (2097152, 2097152))
        'Player 1 (X) plays 3.'
        """
        return f"Player {player + 1} ({'XO'[player]}) plays {move}."

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)``: about 4.5 * 10**12 positions, the empty cells left, seven columns.

        >>> ConnectFour().size_hint(ConnectFour().start())
        (4531985219092, 42, 7)
        """
        return (4_531_985_219_092, _CELLS - state[1].bit_count(), COLUMNS)

    def player_name(self, player) -> str:
        """How a person is told who ``player`` (0 or 1) is: the player number and the mark.

        >>> ConnectFour().player_name(1)
        'Player 2 (O)'
        """
        return f"Player {player + 1} ({'XO'[player]})"

    def rows(self, state) -> list:
        """The board as 6 strings of 7 cells, the top row first: ``X``, ``O`` or ``.``.

        >>> ConnectFour().rows((2097152, 2097152))[-1]
        '...X...'
        """
        x, mask = state
        return ["".join(".XO"[(1 if x >> b & 1 else 2) if mask >> b & 1 else 0]
                        for b in (_H * c + r for c in range(COLUMNS))) for r in reversed(range(ROWS))]

    def render(self, state) -> str:
        """A picture of the board, the top row first, with the column numbers under it.

        >>> print(ConnectFour().render((2097152, 2097152)).splitlines()[-2])
        . . . X . . .
        """
        return "\n".join([" ".join(row) for row in self.rows(state)] + [" ".join(map(str, _ALL))])

    def state_to_json(self, state) -> list:
        """The board as a list of 6 strings (``rows``), the top row first.

        >>> ConnectFour().state_to_json((2097152, 2097152))[-1]
        '...X...'
        """
        return self.rows(state)

    def state_from_json(self, data) -> tuple:
        """The board whose JSON form is ``data`` (6 strings of 7 cells, ``X``, ``O`` or ``.``, the top row first), checked.

        >>> ConnectFour().state_from_json(["." * 7] * 5 + ["...X..."])
        (2097152, 2097152)
        """
        if (not isinstance(data, list) or len(data) != ROWS
                or not all(isinstance(row, str) and len(row) == COLUMNS and set(row.upper()) <= set(".XO")
                           for row in data)):
            raise ValueError(f"a connect-four state in JSON is a list of 6 rows of 7 cells (X, O or .), the top row"
                             f" first, got {data!r}")
        x = mask = 0
        for r, row in enumerate(reversed(data)):
            for c, cell in enumerate(row.upper()):
                if cell != ".":
                    mask |= 1 << (_H * c + r)
                    x |= (cell == "X") << (_H * c + r)
        return self.check_state((x, mask))

    def parse_state(self, text: str) -> tuple:
        """The board written as 42 cells (``X``, ``O``, ``.``), row by row from the top, or as a JSON list of rows.

        Letters are case-insensitive; spaces and line breaks are ignored.

        >>> ConnectFour().parse_state("." * 35 + "...X...")
        (2097152, 2097152)
        >>> ConnectFour().parse_state("X")
        Traceback (most recent call last):
        ...
        ValueError: write a connect-four state as 42 cells (X, O or .) row by row from the top, or a JSON list of 6 rows; got 'X'
        """
        stripped = _state_text(text)
        if stripped.startswith("["):
            try:
                data = json.loads(stripped)
            except ValueError:
                data = None
        else:
            cells = "".join(stripped.split())
            data = [cells[i:i + COLUMNS] for i in range(0, len(cells), COLUMNS)] if len(cells) == _CELLS else None
        if data is None:
            raise ValueError("write a connect-four state as 42 cells (X, O or .) row by row from the top, or a JSON"
                             f" list of 6 rows; got {text!r}")
        return self.state_from_json(data)

    def parse_move(self, state, text: str) -> int:
        """The column typed as ``text`` (a number 0-6), if it has room at ``state``.

        >>> ConnectFour().parse_move((0, 0), " 3 ")
        3
        >>> ConnectFour().parse_move((21, 0b111111), "0")
        Traceback (most recent call last):
        ...
        ValueError: type the number of a column with room: 1, 2, 3, 4, 5 or 6
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is typed as text, got {type(text).__name__}")
        moves = self.possible_moves(state)
        if not moves:
            raise ValueError(f"the game is over at {state!r}: no move to type")
        columns = ", ".join(map(str, moves[:-1])) + (" or " if len(moves) > 1 else "") + str(moves[-1])
        stripped = text.strip()
        if not (stripped.isascii() and stripped.isdigit()) or int(stripped) not in moves:
            raise ValueError(f"type the number of a column with room: {columns}")
        return int(stripped)
