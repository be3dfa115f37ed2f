"""What shallow proofs (``proofs=d``) cost a dive: proofs 2, 3 and 4 against none, on three games without chance.

    python benchmarks/bench_proofs.py [--quick] [--json] [--rounds N] [--dives N] [--positions N] [--depths 0,2,3,4]
    python benchmarks/run.py proofs

A search with ``proofs=d`` asks, at every state a dive or a playout meets (but
the root), whether a player forces a win within ``d`` plies
(``fnmcts.mcts.enhancements.shallow_proof``). The answers are kept per game
value, shared by every search of an equal game (``prover_of``), and a game
that offers its tables (``compiled_graph()``: OpenSpiel's tic_tac_toe) has
them worked out on the tables, for every state at once.

On OpenSpiel's tic_tac_toe (when OpenSpiel is installed), the built-in
TicTacToe and Connect Four on a 4x4 board (the scoreboard's), ``mcts_move``
searches ``--dives`` dives from each of ``--positions`` positions (the start
and the positions a few seeded random games pass through), with each depth of
``--depths``; the contenders are interleaved, and the ratio is each depth's
rate of dives over the rate without proofs in the same round (above 1: faster).
Two regimes:

* **in a match**: the proofs kept from the calls before (a player's moves, one
  game after another: what ``bench_vs_mctsbot`` pays once warm);
* **afresh**: every kept proof dropped before each search (the first search of
  a process, or one on a game never searched before: what the proofs cost at
  most).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench  # noqa: E402

from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.mcts import enhancements, mcts_move  # noqa: E402
from fnmcts.protocol import CHANCE  # noqa: E402


def _games() -> dict:
    """name -> game: OpenSpiel's tic_tac_toe when installed, the built-in TicTacToe, Connect Four 4x4."""
    from bench_scoreboard import ConnectFour

    games = {}
    try:
        from fnmcts.openspiel import from_openspiel

        games["OpenSpiel tic_tac_toe"] = from_openspiel("tic_tac_toe")
    except ImportError:
        pass
    games["TicTacToe"] = TicTacToe()
    games["Connect Four 4x4"] = ConnectFour()
    return games


def positions(game, count, seed=1) -> list:
    """The start, then positions of seeded random games (every other decision of each), ``count`` in all."""
    rng, found = random.Random(seed), [game.start()]
    while len(found) < count:
        state, ply = game.start(), 0
        while len(found) < count and (who := game.to_move(state)) is not None:
            if who is CHANCE:
                raise ValueError("a game without chance is measured here")
            moves = game.possible_moves(state)
            state, ply = game.play(state, moves[int(rng.random() * len(moves))]), ply + 1
            if ply % 2 == 0 and game.to_move(state) is not None and state not in found:
                found.append(state)
    return found


def forget_proofs() -> None:
    """Drop every proof kept for any game (the proofs of the next search are worked out afresh)."""
    enhancements.prover_of.cache_clear()


def searches(game, states, dives, depth, afresh):
    """A contender: one ``mcts_move`` of ``dives`` dives from each state (seeds 0, 1, ...), ``proofs=depth``."""
    def run():
        for k, state in enumerate(states):
            if afresh:
                forget_proofs()
            mcts_move(game, state, dives, random.Random(k), proofs=depth)
    return run


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--dives", type=int, default=100, help="dives a search (default 100)")
        parser.add_argument("--positions", type=int, default=8, help="positions searched a round (default 8)")
        parser.add_argument("--depths", default="0,2,3,4", help="the proofs' depths compared, 0 first (default 0,2,3,4)")

    bench = Bench("bench_proofs", __doc__, argv, options=options)
    args = bench.args
    depths = [int(d) for d in args.depths.split(",")]
    if not depths or depths[0] != 0:
        depths = [0] + [d for d in depths if d != 0]
    dives = bench.size(args.dives, 20)
    count = bench.size(args.positions, 2)
    for name, game in _games().items():
        if bench.quick and name == "Connect Four 4x4":
            continue
        states = positions(game, count)
        for afresh in (False, True):
            regime = "afresh (every kept proof dropped before each search)" if afresh else "in a match (proofs kept)"
            contenders = {("no proofs" if d == 0 else f"proofs={d}"): searches(game, states, dives, d, afresh)
                          for d in depths}
            bench.compare(f"{name}: {dives} dives from each of {len(states)} positions, {regime}", contenders,
                          work=dives * len(states), unit="dives")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
