"""Kayles: knock down one pin or two neighbouring pins from rows of pins; whoever knocks down the last one wins.

Dudeney's and Loyd's game (Winning Ways, chapter 4): pins stand in rows; a
move knocks down one pin, or two pins side by side, from one row, which may
split it in two. The player who cannot move loses (normal play). Both players
have the same moves, so Kayles is impartial and a position with several rows
is a *sum* of one-row games: the ``components`` hook gives the rows, and
``fnmcts.grundy`` xors their values.

A state is ``(rows, player)``: the lengths of the rows still standing, in
increasing order, and the player to move (0 or 1). A move is ``(length, left,
count)``: knock down ``count`` (1 or 2) pins from the pin ``left`` (from 0) of a
row of ``length`` pins; the pins on either side become rows of their own.

>>> game = Kayles(5)
>>> state = game.play(game.start(), (5, 1, 2))  # the 2nd and 3rd of five pins: rows of 1 and 2 remain
>>> state
((1, 2), 1)
>>> game.components(state)
(((1,), 1), ((2,), 1))
>>> print(game.render(state))
| ||
"""

from __future__ import annotations

from dataclasses import dataclass

from ..protocol import GameBase

__all__ = ["Kayles"]


def _rows(value) -> tuple:
    """Row lengths as a tuple in increasing order, empty rows dropped, checked."""
    rows = (value,) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(rows, (tuple, list)) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rows):
        raise ValueError(f"Kayles pins are a number of pins or a tuple of row lengths, got {value!r}")
    if any(r < 0 for r in rows):
        raise ValueError(f"a row has 0 pins or more, got {value!r}")
    return tuple(sorted(r for r in rows if r))


@dataclass(frozen=True)
class Kayles(GameBase):
    """Kayles with rows of ``pins`` (a number: one row; or a tuple of row lengths); the last to move wins.

    >>> Kayles(4).possible_moves(Kayles(4).start())
    ((4, 0, 1), (4, 0, 2), (4, 1, 1), (4, 1, 2), (4, 2, 1), (4, 2, 2), (4, 3, 1))
    """

    pins: tuple = (10,)
    num_players = 2
    can_draw = False  # the last to move wins: every game has a winner

    def __post_init__(self):
        object.__setattr__(self, "pins", _rows(self.pins))

    def start(self) -> tuple:
        """The rows of ``pins``, player 0 to move.

        >>> Kayles((3, 0, 1)).start()
        ((1, 3), 0)
        """
        return (self.pins, 0)

    def row(self, n: int, player: int = 0) -> tuple:
        """The state of one row of ``n`` pins with ``player`` to move (any row length, whatever the start).

        >>> Kayles().row(4), Kayles().row(0, 1)
        (((4,), 0), ((), 1))
        """
        return (_rows(n), player)

    def to_move(self, state):
        """The player to move, or ``None`` when no pin stands.

        >>> Kayles(2).to_move(((2,), 1)), Kayles(2).to_move(((), 1))
        (1, None)
        """
        rows, player = state
        return player if rows else None

    def possible_moves(self, state) -> tuple:
        """Every ``(length, left, count)`` for each distinct row length, in increasing order.

        >>> Kayles().possible_moves(((1, 1, 2), 0))
        ((1, 0, 1), (2, 0, 1), (2, 0, 2), (2, 1, 1))
        """
        rows, _ = state
        return tuple(
            (length, left, count)
            for length in sorted(set(rows))
            for left in range(length)
            for count in (1, 2)
            if left + count <= length
        )

    def play(self, state, move) -> tuple:
        """The rows after ``move``: the chosen row replaced by what stands left and right of the gap.

        >>> Kayles().play(((3, 5), 0), (5, 2, 1))
        ((2, 2, 3), 1)
        >>> Kayles().play(((3,), 0), (4, 0, 1))
        Traceback (most recent call last):
        ...
        ValueError: illegal move (4, 0, 1) at ((3,), 0): no row of 4 pins
        """
        rows, player = state
        if player not in (0, 1) or not rows:
            raise ValueError(f"illegal move {move!r} at {state!r}: the game is over")
        try:
            length, left, count = move
        except (TypeError, ValueError):
            raise ValueError(f"a Kayles move is (row length, first pin from 0, 1 or 2 pins), got {move!r}") from None
        if length not in rows:
            raise ValueError(f"illegal move {move!r} at {state!r}: no row of {length} pins")
        if count not in (1, 2) or not isinstance(left, int) or left < 0 or left + count > length:
            raise ValueError(f"illegal move {move!r} at {state!r}: knock down 1 or 2 pins inside the row")
        rest = list(rows)
        rest.remove(length)
        return (_rows(rest + [left, length - left - count]), 1 - player)

    def payoff(self, state) -> tuple:
        """``(-1, 1)`` when player 0 cannot move at the end (player 1 knocked down the last pin), else ``(1, -1)``.

        >>> Kayles().payoff(((), 0)), Kayles().payoff(((), 1))
        ((-1, 1), (1, -1))
        """
        rows, player = state
        if rows:
            raise ValueError(f"the game is not over at {state!r}")
        return (-1, 1) if player == 0 else (1, -1)

    def components(self, state) -> tuple:
        """One state per row, each with the same player to move: Kayles is the sum of its rows.

        >>> Kayles().components(((2, 3), 1)), Kayles().components(((4,), 0))
        ((((2,), 1), ((3,), 1)), (((4,), 0),))
        """
        rows, player = state
        if len(rows) <= 1:
            return (state,)
        return tuple(((r,), player) for r in rows)

    def describe_move(self, state, move) -> str:
        """``"knock down pin 3 of a row of 5"`` or ``"knock down pins 3-4 of a row of 5"`` (pins from 1).

        >>> Kayles().describe_move(None, (5, 2, 2))
        'knock down pins 3-4 of a row of 5'
        """
        length, left, count = move
        pins = f"pin {left + 1}" if count == 1 else f"pins {left + 1}-{left + 2}"
        return f"knock down {pins} of a row of {length}"

    def render(self, state) -> str:
        """The rows as ``|`` pins, separated by a space; "no pins left" at the end.

        >>> Kayles().render(((1, 3), 0)), Kayles().render(((), 1))
        ('| |||', 'no pins left')
        """
        return " ".join("|" * r for r in state[0]) or "no pins left"

    def size_hint(self, state) -> tuple:
        """``(None, length, branching)``: at most one move per pin, at most ``2 * pins - 1`` moves at a state.

        >>> Kayles(5).size_hint(Kayles(5).start())
        (None, 5, 9)
        """
        rows, _ = state
        return (None, sum(rows), sum(2 * r - 1 for r in set(rows)))

    def state_to_json(self, state) -> dict:
        """``{"rows": [...], "player": 1 or 2}`` (players numbered from 1, as every text does).

        >>> Kayles().state_to_json(((1, 3), 0))
        {'rows': [1, 3], 'player': 1}
        """
        rows, player = state
        return {"rows": list(rows), "player": player + 1}

    def state_from_json(self, data) -> tuple:
        """The state whose JSON form is ``data``.

        >>> Kayles().state_from_json({"rows": [3, 1], "player": 2})
        ((1, 3), 1)
        """
        from ..protocol import json_player

        if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
            raise ValueError(f"a Kayles state in JSON is {{'rows': [lengths], 'player': 1 or 2}}, got {data!r}")
        return (_rows(data["rows"]), json_player(data, ("rows", "player"), "a Kayles state"))
