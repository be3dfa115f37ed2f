"""MCTS iterations per second on games written outside fnmcts, through the protocol only.

    python benchmarks/bench_engine.py [--iterations N] [--quick] [--json] [--rounds R]

Two games are written in this file, as a user would write them (frozen
dataclasses with the protocol's methods, nothing from fnmcts's game modules):
tic-tac-toe, and a take-away game (one pile of 21, take any number, taking the
last loses: the shape of OpenSpiel's ``nim``). On each, in the same run:

* a plain mutable-node UCT through the same protocol (nodes with parent
  pointers, one child expanded per iteration, random rollouts calling the
  game's methods): the baseline of the ratios;
* fnmcts's ``mcts_move`` (UCB1, c = sqrt 2, no solver): the engine every game
  gets, on the game's compiled graph (walked whole, and the dives compiled
  with Numba when it is installed: ``fnmcts.mcts._kernel``; the walk is timed
  with the search);
* the same search with the compiled loop switched off (the Python loop: the
  same tree);
* on the take-away game, OpenSpiel's Python ``MCTSBot`` (random rollouts, no
  solver) on its own ``nim`` with the same shape, when ``pyspiel`` is importable
  (``pip install open_spiel``); skipped otherwise.

The contenders run in interleaved rounds (``benchmarks/harness.py``); ratios
are the median of the per-round ratios to the baseline, with their range.
Target: fnmcts at least 2x the plain UCT on the user's tic-tac-toe.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.mcts._kernel import switched_off  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_mcts_nim import openspiel_mcts  # noqa: E402  (the same peer)
from harness import Bench  # noqa: E402

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@dataclass(frozen=True)
class UserTicTacToe:
    """Tic-tac-toe as a user writes it: a 9-tuple, 1 for X, 2 for O."""

    num_players = 2

    def start(self):
        return (0,) * 9

    def _winner(self, board):
        for a, b, c in LINES:
            if board[a] and board[a] == board[b] == board[c]:
                return board[a]
        return 0

    def to_move(self, board):
        if self._winner(board) or 0 not in board:
            return None
        return 0 if board.count(1) == board.count(2) else 1

    def possible_moves(self, board):
        if self.to_move(board) is None:
            return ()
        return tuple(i for i, x in enumerate(board) if not x)

    def chance_outcomes(self, board):
        return ()

    def play(self, board, move):
        mark = 1 if board.count(1) == board.count(2) else 2
        return board[:move] + (mark,) + board[move + 1 :]

    def payoff(self, board):
        w = self._winner(board)
        return (1, -1) if w == 1 else (-1, 1) if w == 2 else (0, 0)

    def state_to_json(self, board):
        return list(board)

    def state_from_json(self, data):
        return tuple(data)


@dataclass(frozen=True)
class TakeAway:
    """One pile; take any number; taking the last loses. A state: (pile, player to move)."""

    pile: int = 21
    num_players = 2

    def start(self):
        return (self.pile, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(range(1, state[0] + 1))

    def chance_outcomes(self, state):
        return ()

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        # the player to move at an empty pile did not take the last: they win
        return (1, -1) if state[1] == 0 else (-1, 1)

    def state_to_json(self, state):
        return list(state)

    def state_from_json(self, data):
        return tuple(data)


# -- the baseline: plain mutable-node UCT through the protocol ----------------------------


class _Node:
    __slots__ = ("state", "parent", "mover", "untried", "children", "visits", "value")

    def __init__(self, game, state, parent, mover):
        self.state, self.parent, self.mover = state, parent, mover
        self.untried = list(game.possible_moves(state))
        self.children = []
        self.visits = 0
        self.value = 0.0


def plain_uct(game, state, iterations, rng, c=math.sqrt(2)):
    """UCT on mutable nodes, every step through the game's methods; the most visited move."""
    root = _Node(game, state, None, 1 - game.to_move(state))
    moves = {}
    for _ in range(iterations):
        node = root
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda ch: ch.value / ch.visits + c * math.sqrt(log_n / ch.visits))
        if node.untried:
            move = node.untried.pop(0)
            child = _Node(game, game.play(node.state, move), node, game.to_move(node.state))
            moves[child] = move
            node.children.append(child)
            node = child
        s = node.state
        while game.to_move(s) is not None:
            options = game.possible_moves(s)
            s = game.play(s, options[int(rng.random() * len(options))])
        payoff = game.payoff(s)
        while node is not None:
            node.visits += 1
            node.value += (payoff[node.mover] + 1) / 2
            node = node.parent
    return moves[max(root.children, key=lambda ch: ch.visits)]


def _python(call):
    """``call()`` with the compiled loop switched off: ``dives`` in Python (the same tree)."""
    with switched_off():
        return call()


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=20_000)

    bench = Bench("bench_engine", __doc__, argv, options=options)
    n = bench.size(bench.args.iterations, 1_000)
    for game in (UserTicTacToe(), TakeAway(21)):
        state = game.start()
        contenders = {
            "plain mutable-node UCT through the protocol": lambda: plain_uct(game, state, n, random.Random(1)),
            "fnmcts mcts_move (UCB1, no solver)": lambda: mcts_move(game, state, n, random.Random(1), solver=False),
            "the same search, the Python loop": lambda: _python(
                lambda: mcts_move(game, state, n, random.Random(1), solver=False)),
        }
        if isinstance(game, TakeAway):
            spiel = openspiel_mcts(game.pile)
            if spiel is None:
                bench.note("OpenSpiel MCTSBot: skipped (pip install open_spiel)")
            else:
                contenders["OpenSpiel MCTSBot on its nim (same shape)"] = lambda: spiel(n)
        comparison = bench.compare(f"{type(game).__name__}: {n:,} iterations a move", contenders, work=n,
                                   unit="iterations")
        if isinstance(game, UserTicTacToe):
            ratio = comparison["contenders"][1]["ratio"]
            bench.target("fnmcts at least 2x a plain mutable-node UCT on a user's tic-tac-toe", ratio["median"] >= 2,
                         f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
            python = comparison["contenders"][2]["ratio"]
            bench.figure("the user's tic-tac-toe: the same search in the Python loop",
                         f"{python['median']:.2f}x [{python['low']:.2f}, {python['high']:.2f}]", "the plain UCT")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
