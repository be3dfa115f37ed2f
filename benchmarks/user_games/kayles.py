"""Kayles as a user writes it from its rules, for ``fnmcts mutate`` (plain Python, nothing of fnmcts's games).

A row of pins; a player knocks down one pin or two neighbours; whoever knocks
down the last pin wins. A state: (the pins, 1 standing and 0 down; the player to move).
"""

from dataclasses import dataclass

from fnmcts import GameBase


@dataclass(frozen=True)
class Kayles(GameBase):
    """Kayles on a row of ``pins`` pins: knock one down, or two side by side; the last to knock wins."""

    pins: int = 8
    num_players = 2

    def start(self):
        return ((1,) * self.pins, 0)

    def to_move(self, state):
        row, player = state
        if 1 not in row:
            return None
        return player

    def possible_moves(self, state):
        row, _ = state
        singles = [(i,) for i in range(len(row)) if row[i] == 1]
        pairs = [(i, i + 1) for i in range(len(row) - 1) if row[i] == 1 and row[i + 1] == 1]
        return tuple(singles + pairs)

    def play(self, state, move):
        row, player = state
        if any(row[i] != 1 for i in move):
            raise ValueError(f"pin {move} is already down")
        knocked = list(row)
        for i in move:
            knocked[i] = 0
        return (tuple(knocked), 1 - player)

    def payoff(self, state):
        _, player = state
        # the player to move has nothing left to knock: the other one knocked the last pin
        return (-1, 1) if player == 0 else (1, -1)

    def state_to_json(self, state):
        return [list(state[0]), state[1]]

    def state_from_json(self, data):
        return (tuple(data[0]), data[1])

    def move_to_json(self, move):
        return list(move)

    def move_from_json(self, data):
        return tuple(data)
