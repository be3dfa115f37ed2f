"""The solver looks at a decision's children without listing the moves of each: a wide game costs what the dives enter.

Before: the MCTS-Solver asked every child of a decision for its proof, and
finding out whether a child ends listed its moves (``possible_moves``), so a
game of a few hundred moves a state listed hundreds of move lists a dive
(600 dives of a 400-cell game: 73 s with the solver, 7 s without).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts import GameBase, mcts_move


class Claims(GameBase):
    """Two players claim ``claims`` of ``width`` cells in turn; more claimed cells of the first ``width // 3`` wins."""

    num_players = 2

    def __init__(self, width: int, claims: int):
        self.width, self.claims, self.listed = width, claims, 0

    def start(self):
        return ()

    def to_move(self, s):
        return None if len(s) >= self.claims else len(s) % 2

    def possible_moves(self, s):
        self.listed += 1
        return tuple(c for c in range(self.width) if c not in s)

    def play(self, s, m):
        return (*s, m)

    def size_hint(self, s):  # the longest line and the widest state: no random games played to find them
        return None, self.claims - len(s), self.width - len(s)

    def payoff(self, s):
        low = [sum(1 for c in s[p::2] if c < self.width // 3) for p in (0, 1)]
        return (0, 0) if low[0] == low[1] else ((1, -1) if low[0] > low[1] else (-1, 1))


@settings(max_examples=15, deadline=None)
@given(st.integers(40, 80), st.integers(2, 3), st.integers(1, 5), st.integers(0, 2**32))
def test_the_moves_listed_are_those_of_the_states_the_dives_enter(width, claims, dives, seed):
    game = Claims(width, claims)
    mcts_move(game, game.start(), 1, random.Random(seed))  # the game's kind found once (a probe of random lines)
    game.listed = 0
    found = mcts_move(game, game.start(), dives, random.Random(seed))
    entered = sum(1 for state in found.tree.keys() if game.to_move(state) is not None)
    # the decisions the dives entered, and each dive's playout: never a list of every child's moves (width of them)
    assert game.listed <= entered + dives * claims, (game.listed, entered)
