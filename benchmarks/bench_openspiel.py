"""fnmcts's MCTS against OpenSpiel's MCTSBot on OpenSpiel's own games, at the same budget.

    python benchmarks/bench_openspiel.py [--game tic_tac_toe] [--iterations 1000] [--games 100] [--seed 1]
    python benchmarks/run.py openspiel

Both agents play OpenSpiel's game (``fnmcts.openspiel.from_openspiel``): fnmcts's
``mcts_move`` (UCB1 with c = sqrt 2 on payoffs rescaled to [0, 1], MCTS-Solver,
random playouts: its defaults) and OpenSpiel's Python ``MCTSBot`` (UCT with
c = sqrt 2 on returns in [-1, 1], its solver on, one random rollout per
evaluation: ``open_spiel.python.algorithms.mcts``), each with the same number of
iterations (simulations) a move. ``--games`` games with each side first; the
table gives fnmcts's wins, draws and losses with 95% Wilson intervals, and the
speed of each side (iterations a second while deciding; both stop early once
their solver proves the root, so the iterations actually run are counted).
Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``); skipped otherwise.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.montecarlo import wilson_interval  # noqa: E402
from fnmcts.protocol import CHANCE, sample_outcome  # noqa: E402


def _bot(game, iterations, seed):
    """OpenSpiel's MCTSBot on ``game``'s native game, seeded: returns ``decide(native_state) -> (action, iterations)``."""
    import numpy as np
    from open_spiel.python.algorithms import mcts as spiel_mcts

    random_state = np.random.RandomState(seed)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = spiel_mcts.MCTSBot(game.native, math.sqrt(2), iterations, evaluator, solve=True, random_state=random_state)

    def decide(native):
        root = bot.mcts_search(native)
        return root.best_child().action, root.explore_count

    return decide


def play_one(game, iterations, fnmcts_player, seed):
    """One game: fnmcts is player ``fnmcts_player``; returns (fnmcts's payoff, its [seconds, iterations], OpenSpiel's)."""
    rng = random.Random(seed)
    bot = _bot(game, iterations, seed)
    mine, theirs = [0.0, 0], [0.0, 0]
    state = game.start()
    while (who := game.to_move(state)) is not None:
        if who is CHANCE:
            move = sample_outcome(game, state, rng)
        elif who == fnmcts_player:
            started = time.perf_counter()
            found = mcts_move(game, state, iterations, rng)
            mine[0] += time.perf_counter() - started
            mine[1] += found.iterations
            move = found.move
        else:
            started = time.perf_counter()
            move, ran = bot(game.native_state(state))
            theirs[0] += time.perf_counter() - started
            theirs[1] += ran
        state = game.play(state, move)
    return game.payoff(state)[fnmcts_player], mine, theirs


def _interval(count, games) -> str:
    low, high = wilson_interval(count, games)
    return f"{count:>3} ({count / games:.2f}, 95% CI [{low:.2f}, {high:.2f}])"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tic_tac_toe", help="an OpenSpiel game string (default tic_tac_toe)")
    parser.add_argument("--iterations", type=int, default=1000, help="iterations a move, both sides (default 1000)")
    parser.add_argument("--games", type=int, default=100, help="games with each side first (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args, _ = parser.parse_known_args(argv)
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): skipped")
        return 0
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(args.game)
    print(f"fnmcts mcts_move against OpenSpiel's MCTSBot on {game.spec}: {args.iterations:,} iterations a move, "
          f"{args.games} games with each side first (seed {args.seed})")
    rows = []
    for side in (0, 1):
        results, mine, theirs = [], [0.0, 0], [0.0, 0]
        per_move_mine, per_move_theirs = [], []
        for i in range(args.games):
            pay, m, t = play_one(game, args.iterations, side, args.seed * 1_000_003 + side * 10_007 + i)
            results.append(pay)
            mine = [mine[0] + m[0], mine[1] + m[1]]
            theirs = [theirs[0] + t[0], theirs[1] + t[1]]
            if m[1]:
                per_move_mine.append(m[1] / m[0])
            if t[1]:
                per_move_theirs.append(t[1] / t[0])
        wins = sum(p > 0 for p in results)
        losses = sum(p < 0 for p in results)
        draws = len(results) - wins - losses
        rows.append((side, wins, draws, losses, mine, theirs, per_move_mine, per_move_theirs))
        first = "fnmcts first" if side == 0 else "OpenSpiel first"
        print(f"\n{first} ({args.games} games): fnmcts wins {_interval(wins, args.games)}, "
              f"draws {_interval(draws, args.games)}, losses {_interval(losses, args.games)}")
        print(f"  fnmcts    {mine[1]:>10,} iterations in {mine[0]:7.2f} s: {mine[1] / max(mine[0], 1e-9):>9,.0f} it/s "
              f"(median of games {statistics.median(per_move_mine) if per_move_mine else 0:,.0f})")
        print(f"  OpenSpiel {theirs[1]:>10,} iterations in {theirs[0]:7.2f} s: "
              f"{theirs[1] / max(theirs[0], 1e-9):>9,.0f} it/s "
              f"(median of games {statistics.median(per_move_theirs) if per_move_theirs else 0:,.0f})")
    total = 2 * args.games
    wins = sum(r[1] for r in rows)
    draws = sum(r[2] for r in rows)
    losses = sum(r[3] for r in rows)
    mine_rate = statistics.median(rows[0][6] + rows[1][6]) if rows[0][6] + rows[1][6] else 0
    theirs_rate = statistics.median(rows[0][7] + rows[1][7]) if rows[0][7] + rows[1][7] else 0
    print(f"\nall {total} games: fnmcts wins {_interval(wins, total)}, draws {_interval(draws, total)}, "
          f"losses {_interval(losses, total)}")
    if theirs_rate:
        print(f"speed, medians over games: fnmcts {mine_rate:,.0f} it/s, OpenSpiel {theirs_rate:,.0f} it/s "
              f"(fnmcts / OpenSpiel: {mine_rate / theirs_rate:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
