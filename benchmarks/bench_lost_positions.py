"""Lost positions with a longer defence: how often the search gives up at once, with and without tables and proofs.

    python benchmarks/bench_lost_positions.py [--quick] [--json] [--iterations N] [--connect N] [--seed S]
    python benchmarks/run.py lost_positions

A position is *lost* for the player to move when its exact value
(``fnmcts.exact.solve``) is the worst payoff there is for them; it has a
*longer defence* when some move leaves the opponent no move that wins at
once. A search that has proven the position lost still has to move, and the
rule (``mcts_move``: the longest forced line to the loss) is that it makes the
opponent work: a move after which the opponent wins at once, where another
move holds on, is an *immediate loss*, the give-up this benchmark counts.

Every such position of tic-tac-toe, and ``--connect`` of Connect-3 on a 4x4
board with gravity (drawn with ``--seed``), each searched once by
``mcts_move`` with ``--iterations`` dives (default ``DEFAULT_ITERATIONS``, the
agent's) and a seed of its own:

* tic-tac-toe written in Python (no tables): the defaults (no proofs), and
  shallow proofs of 4 plies (``proofs=4``, worked out through the protocol);
* OpenSpiel's ``tic_tac_toe`` (it offers its tables): the defaults (there:
  shallow proofs of 4 plies on the tables), and ``proofs=0``;
* Connect-3 (no tables): the defaults, and ``proofs=4``.

Beside the immediate losses, the moves that are not the exact longest
defence (the winner hurries, the loser holds on: plain minimax depths).
Target (issue 32): no immediate loss at the defaults, with and without tables.
"""

from __future__ import annotations

import random
import sys
import time
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from bench_scoreboard import ConnectFour  # noqa: E402

from fnmcts.exact import solve  # noqa: E402
from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.mcts import DEFAULT_ITERATIONS, mcts_move  # noqa: E402
from fnmcts.protocol import payoff_range  # noqa: E402
from fnmcts.rng import child_seed, make_rng  # noqa: E402


def _openspiel_tic_tac_toe():
    from fnmcts.openspiel import from_openspiel

    return from_openspiel("tic_tac_toe")


def _connect3():
    return ConnectFour(rows=4, columns=4, connect=3)


GAMES = {
    "tic-tac-toe (no tables)": (TicTacToe, ({}, {"proofs": 4})),
    "openspiel tic_tac_toe (tables)": (_openspiel_tic_tac_toe, ({}, {"proofs": 0})),
    "connect-3 4x4 (no tables)": (_connect3, ({}, {"proofs": 4})),
}
"""The games: a function making each, and the options searched (the first: the defaults)."""


class Lost:
    """A game solved, its lost positions with a longer defence, and what each move leads to."""

    def __init__(self, game):
        self.game = game
        self.low, self.high = payoff_range(game)
        self.values = solve(game)
        self.depth = _depths(game, self.values)

    def wins_at_once(self, state, player) -> bool:
        """Whether ``player`` (to move at ``state``) has a move that ends the game with their best payoff."""
        game = self.game
        for move in game.possible_moves(state):
            after = game.play(state, move)
            if game.to_move(after) is None and game.payoff(after)[player] == self.high:
                return True
        return False

    def loses_at_once(self, state, move) -> bool:
        """Whether ``move`` ends the game lost for its player, or leaves the next player a win at once."""
        game = self.game
        player = game.to_move(state)
        after = game.play(state, move)
        other = game.to_move(after)
        if other is None:
            return game.payoff(after)[player] == self.low
        return other != player and self.wins_at_once(after, other)

    def positions(self) -> list:
        """The lost positions with a longer defence, in a fixed order (by their move texts)."""
        game, found = self.game, []
        for state, value in self.values.items():
            player = game.to_move(state)
            if player is None or value[player] != self.low:
                continue
            moves = game.possible_moves(state)
            if any(not self.loses_at_once(state, m) for m in moves) and any(self.loses_at_once(state, m) for m in moves):
                found.append(state)
        return sorted(found, key=repr)

    def longest(self, state) -> set:
        """The moves of the exact longest defence at lost ``state``."""
        game = self.game
        plies = {m: self.depth(game.play(state, m)) for m in game.possible_moves(state)}
        top = max(plies.values())
        return {m for m, p in plies.items() if p == top}


def _depths(game, values):
    """``state -> plies`` to the end when the winner hurries and the loser (or a drawing side) holds on."""

    @lru_cache(maxsize=None)
    def depth(state):
        player = game.to_move(state)
        if player is None:
            return 0
        low, high = payoff_range(game)
        best = values[state][player]
        lines = [depth(game.play(state, m)) for m in game.possible_moves(state)
                 if values[game.play(state, m)][player] == best]
        middle = (low + high) / 2
        return 1 + (min(lines) if best > middle else max(lines))

    return depth


def _judge(lost, positions, options, iterations, seed):
    """``(immediate losses, not the longest defence, dives run, seconds)`` of one search per position."""
    game = lost.game
    at_once = not_longest = dives = 0
    started = time.perf_counter()
    for k, state in enumerate(positions):
        found = mcts_move(game, state, iterations, make_rng(child_seed(seed, k)), **options)
        dives += found.iterations
        at_once += lost.loses_at_once(state, found.move)
        not_longest += found.move not in lost.longest(state)
    return at_once, not_longest, dives, time.perf_counter() - started


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=None, help=f"dives a search (default {DEFAULT_ITERATIONS})")
        parser.add_argument("--connect", type=int, default=None, help="Connect-3 positions drawn (default 300)")
        parser.add_argument("--seed", type=int, default=1, help="the seed of the draws and searches (default 1)")

    bench = Bench("bench_lost_positions", __doc__, argv, options=options)
    args = bench.args
    iterations = args.iterations or bench.size(DEFAULT_ITERATIONS, 1_000)
    connect = args.connect if args.connect is not None else bench.size(300, 0)
    met = True
    for name, (make, variants) in GAMES.items():
        if "openspiel" in name:
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                bench.note(f"{name}: skipped (OpenSpiel is not installed: pip install fnmcts[openspiel])")
                continue
        if "connect" in name and not connect:
            continue
        lost = Lost(make())
        positions = lost.positions()
        if "connect" in name:
            positions = sorted(random.Random(args.seed).sample(positions, min(connect, len(positions))), key=repr)
        elif bench.quick:
            positions = positions[:10]
        bench.say(f"\n{name}: {len(positions)} lost positions with a longer defence, {iterations:,} dives a search")
        for k, opts in enumerate(variants):
            label = "defaults" if not opts else ", ".join(f"{o}={v}" for o, v in opts.items())
            holder = {}

            def run(opts=opts, holder=holder):
                holder["found"] = _judge(lost, positions, opts, iterations, args.seed)
                return Measured(holder["found"][3], len(positions))

            bench.compare(f"{name}, {label}", {label: run}, work=len(positions), unit="positions", rounds=1, warmup=0)
            at_once, not_longest, dives, _ = holder["found"]
            bench.figure(f"{name}, {label}: immediate losses", at_once, f"of {len(positions)}")
            bench.figure(f"{name}, {label}: not the longest defence", not_longest, f"of {len(positions)}",
                         note=f"{dives / len(positions):,.0f} dives a search on average")
            if k == 0:
                met &= bench.target(f"no immediate loss at the defaults on {name}", at_once == 0,
                                    f"{at_once} of {len(positions)}")
    bench.figure("all targets met", met)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
