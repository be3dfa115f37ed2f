"""Pig as a user writes it from its rules, for ``fnmcts mutate`` (plain Python, nothing of fnmcts's games).

Two players race to ``target`` points. On a turn a player rolls a die as often
as they like: a 1 loses the turn's points and ends the turn, any other face
adds to them; holding banks them (once there are some) and ends the turn. A state: (the two scores,
the turn's points, the player to move, True while the die is in the air).
"""

from dataclasses import dataclass
from fractions import Fraction

from fnmcts import CHANCE, GameBase

ROLL, HOLD = "roll", "hold"


@dataclass(frozen=True)
class Pig(GameBase):
    """Pig to ``target`` points with a six-sided die."""

    target: int = 10
    num_players = 2

    def start(self):
        return ((0, 0), 0, 0, False)

    def may_repeat(self):
        return True  # a 1 rolled by both players in turn comes back to the same state

    def to_move(self, state):
        scores, _, player, rolling = state
        if max(scores) >= self.target:
            return None
        if rolling:
            return CHANCE
        return player

    def possible_moves(self, state):
        if self.to_move(state) is None or state[3]:
            return ()
        return (ROLL, HOLD) if state[1] > 0 else (ROLL,)  # holding nothing would pass the turn for ever

    def chance_outcomes(self, state):
        if not state[3] or max(state[0]) >= self.target:
            return ()
        return tuple((face, Fraction(1, 6)) for face in range(1, 7))

    def play(self, state, move):
        scores, turn, player, rolling = state
        if rolling:
            if move == 1:
                return (scores, 0, 1 - player, False)
            turn = turn + move
            if scores[player] + turn >= self.target:  # the target reached: banked at once
                return (self._banked(scores, player, turn), 0, 1 - player, False)
            return (scores, turn, player, False)
        if move == ROLL:
            return (scores, turn, player, True)
        if move == HOLD and turn > 0:
            return (self._banked(scores, player, turn), 0, 1 - player, False)
        raise ValueError(f"unknown move {move!r}")

    def _banked(self, scores, player, turn):
        banked = list(scores)
        banked[player] += turn
        return tuple(banked)

    def payoff(self, state):
        scores = state[0]
        return (1, -1) if scores[0] >= self.target else (-1, 1)

    def state_to_json(self, state):
        return [list(state[0]), state[1], state[2], state[3]]

    def state_from_json(self, data):
        return (tuple(data[0]), data[1], data[2], data[3])
