"""The one-player chance constant (``CHANCE_C``) on a graded dice game, judged against exact values.

``c = 0.2``, fitted to Shut the Box (values near 0.07), failed on games whose
values sit high in the payoff range: in a keep-or-throw dice game a move whose
one playout busted (value 0) beside a sibling worth 0.8 came back only after
about ``e^((0.8/0.2)^2)`` dives. docs/scoreboard.md has the figures that chose
``c = 1.0``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from fnmcts.exact import solve, value
from fnmcts.mcts import mcts_move
from fnmcts.mcts._options import CHANCE_C, kind_defaults
from fnmcts.protocol import CHANCE, GameBase


@dataclass(frozen=True)
class KeepOrThrow(GameBase):
    """Roll a die ``rolls`` times, keep each roll or throw it; paid ``total / limit``, 0 above ``limit``."""

    rolls: int = 4
    sides: int = 6
    limit: int = 10
    num_players = 1

    def start(self):
        return (self.rolls, 0, None)

    def to_move(self, state):
        left, total, die = state
        if die is not None:
            return 0
        return CHANCE if left and total <= self.limit else None

    def possible_moves(self, state):
        return ("keep", "throw")

    def chance_outcomes(self, state):
        return tuple((face, Fraction(1, self.sides)) for face in range(1, self.sides + 1))

    def play(self, state, move):
        left, total, die = state
        if die is None:
            return (left - 1, total, move)
        return (left, total + die if move == "keep" else total, None)

    def payoff(self, state):
        total = state[1]
        return (Fraction(total, self.limit) if total <= self.limit else Fraction(0),)


def test_the_defaults_find_the_exact_best_move_of_a_graded_dice_game():
    # Four rolls of a die, each kept or thrown, paid total / 10 (0 above 10; the game of
    # benchmarks/dice_games.py, written again here: the tests stand alone). The constant
    # before (c = 0.2) missed the best move at 21 of these 180 decisions at 2,000 dives with
    # these seeds (losses up to 0.15 of the range): a move that busted once was hardly tried
    # again beside one worth 0.8.
    game = KeepOrThrow()
    assert kind_defaults(game) == {"c": CHANCE_C, "backup": "expectimax"}
    table = solve(game)
    decisions = sorted(s for s in table if game.to_move(s) not in (None, CHANCE))
    assert len(decisions) == 180
    missed = []
    for k, state in enumerate(decisions):
        values = {m: value(table, game.play(state, m))[0] for m in game.possible_moves(state)}
        move = mcts_move(game, state, 2_000, random.Random(k)).move
        if values[move] != max(values.values()):
            missed.append((state, move))
    assert missed == []
