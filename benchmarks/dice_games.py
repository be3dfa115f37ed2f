"""Graded one-player dice games, written against the protocol the way a user writes one: the ground of the issue 32 figures.

Each pays a score spread over its payoff range, so the values of its states
sit high in it (0.7 to 0.95 of the range), far from Shut the Box's (near 0.07),
on which the chance defaults were first tuned. All are small enough to solve
exactly (``fnmcts.exact.solve``):

* ``KeepOrThrow(rolls, sides, limit)``: roll a die ``rolls`` times; keep each
  roll (it adds to the total) or throw it away; the payoff is ``total /
  limit``, 0 above ``limit``. ``KeepOrThrow(6, 6, 13)`` is the issue's example.
* ``StopOrRoll(sides, limit, rolls)``: roll and add, or stop and take the total;
  above ``limit`` the game ends paying 0; at most ``rolls`` rolls.
* ``PickADie(rounds, sides, limit)``: each round two dice are rolled and one of
  them is kept (or neither); the payoff is ``total / limit``, 0 above it.
* ``NearTarget(rolls, sides, target)``: keep or throw each roll; the payoff is
  ``1 - |total - target| / target`` on the range ``(-1, 1)`` (a miss below 0
  is paid too), so the values sit high in a range twice as wide.

>>> from fnmcts.exact import solve, value
>>> game = KeepOrThrow(6, 6, 13)
>>> round(float(value(solve(game), game.start())[0]), 4)
0.9323
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fnmcts.protocol import CHANCE, GameBase

__all__ = ["KeepOrThrow", "StopOrRoll", "PickADie", "NearTarget", "Squeezed", "DICE_GAMES"]


def _die(sides):
    p = Fraction(1, sides)
    return tuple((face, p) for face in range(1, sides + 1))


@dataclass(frozen=True)
class KeepOrThrow(GameBase):
    """Roll ``rolls`` times; keep each roll or throw it; paid ``total / limit``, 0 above ``limit``.

    A state is ``(rolls left, total, the die to decide on or None)``.
    """

    rolls: int = 6
    sides: int = 6
    limit: int = 13
    num_players = 1

    def start(self):
        return (self.rolls, 0, None)

    def to_move(self, state):
        left, total, die = state
        if die is not None:
            return 0
        return CHANCE if left and total <= self.limit else None

    def possible_moves(self, state):
        return ("keep", "throw") if state[2] is not None else ()

    def chance_outcomes(self, state):
        return _die(self.sides) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        left, total, die = state
        if die is None:
            return (left - 1, total, move)
        return (left, total + die if move == "keep" else total, None)

    def payoff(self, state):
        total = state[1]
        return (Fraction(total, self.limit) if total <= self.limit else Fraction(0),)


@dataclass(frozen=True)
class StopOrRoll(GameBase):
    """Roll and add, or stop and take ``total / limit``; above ``limit`` the game pays 0; at most ``rolls`` rolls.

    A state is ``(rolls done, total, rolling)``: ``rolling`` says the die is in the air.
    """

    sides: int = 6
    limit: int = 20
    rolls: int = 8
    num_players = 1

    def start(self):
        return (0, 0, True)

    def to_move(self, state):
        done, total, rolling = state
        if total > self.limit or (not rolling and done < 0):
            return None
        if rolling:
            return CHANCE
        return None if done >= self.rolls else 0

    def possible_moves(self, state):
        return ("stop", "roll") if self.to_move(state) == 0 else ()

    def chance_outcomes(self, state):
        return _die(self.sides) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        done, total, rolling = state
        if rolling:
            return (done + 1, total + move, False)
        if move == "stop":
            return (-1, total, False)
        return (done, total, True)

    def payoff(self, state):
        total = state[1]
        return (Fraction(total, self.limit) if total <= self.limit else Fraction(0),)


@dataclass(frozen=True)
class PickADie(GameBase):
    """``rounds`` rounds of two dice: keep one of them, or neither; paid ``total / limit``, 0 above ``limit``.

    A state is ``(rounds left, total, the two dice or None)``; a move is the
    index of the die kept, 0 or 1, or 2 for neither.
    """

    rounds: int = 5
    sides: int = 6
    limit: int = 17
    num_players = 1

    def start(self):
        return (self.rounds, 0, None)

    def to_move(self, state):
        left, total, dice = state
        if dice is not None:
            return 0
        return CHANCE if left and total <= self.limit else None

    def possible_moves(self, state):
        return (0, 1, 2) if state[2] is not None else ()

    def chance_outcomes(self, state):
        if self.to_move(state) is not CHANCE:
            return ()
        p = Fraction(1, self.sides * self.sides)
        return tuple(((a, b), p) for a in range(1, self.sides + 1) for b in range(1, self.sides + 1))

    def play(self, state, move):
        left, total, dice = state
        if dice is None:
            return (left - 1, total, move)
        return (left, total + (dice[move] if move < 2 else 0), None)

    def payoff(self, state):
        total = state[1]
        return (Fraction(total, self.limit) if total <= self.limit else Fraction(0),)


@dataclass(frozen=True)
class NearTarget(GameBase):
    """Keep or throw each of ``rolls`` rolls; paid ``1 - |total - target| / target`` on the range (-1, 1)."""

    rolls: int = 7
    sides: int = 6
    target: int = 16
    num_players = 1

    def start(self):
        return (self.rolls, 0, None)

    def to_move(self, state):
        left, total, die = state
        if die is not None:
            return 0
        return CHANCE if left and total < 2 * self.target else None

    def possible_moves(self, state):
        return ("keep", "throw") if state[2] is not None else ()

    def chance_outcomes(self, state):
        return _die(self.sides) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        left, total, die = state
        if die is None:
            return (left - 1, total, move)
        return (left, total + die if move == "keep" else total, None)

    def payoff(self, state):
        return (max(Fraction(-1), 1 - Fraction(abs(state[1] - self.target), self.target)),)

    def payoff_range(self):
        return (-1, 1)





@dataclass(frozen=True)
class Squeezed(GameBase):
    """``game`` (one player, payoffs in (0, 1)) with every payoff moved into the band ``(low, high)`` of its range.

    The same decisions and the same best moves, with values packed into a tenth
    of the range (by default): where a constant of exploration fixed on the whole
    range explores ten times too much.
    """

    game: GameBase
    low: Fraction = Fraction(45, 100)
    high: Fraction = Fraction(55, 100)
    num_players = 1

    def start(self):
        return self.game.start()

    def to_move(self, state):
        return self.game.to_move(state)

    def possible_moves(self, state):
        return self.game.possible_moves(state)

    def chance_outcomes(self, state):
        return self.game.chance_outcomes(state)

    def play(self, state, move):
        return self.game.play(state, move)

    def payoff(self, state):
        low, high = self.game.payoff_range()
        x = (Fraction(self.game.payoff(state)[0]) - low) / (high - low)
        return (self.low + (self.high - self.low) * x,)

    def payoff_range(self):
        return (0, 1)


DICE_GAMES = {
    "keep-or-throw 6d6 to 13": KeepOrThrow(6, 6, 13),
    "keep-or-throw 8d4 to 15": KeepOrThrow(8, 4, 15),
    "keep-or-throw 5d10 to 24": KeepOrThrow(5, 10, 24),
    "stop-or-roll d6 to 20": StopOrRoll(6, 20, 8),
    "stop-or-roll d10 to 30": StopOrRoll(10, 30, 6),
    "pick-a-die 5 rounds to 17": PickADie(5, 6, 17),
    "near-target 7d6 at 16": NearTarget(7, 6, 16),
    "keep-or-throw 6d6 to 13, squeezed": Squeezed(KeepOrThrow(6, 6, 13)),
    "stop-or-roll d6 to 20, squeezed": Squeezed(StopOrRoll(6, 20, 8)),
}
"""The graded dice games of the figures, by name."""
