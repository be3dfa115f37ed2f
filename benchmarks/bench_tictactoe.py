"""Tic-tac-toe strength: the default MCTS agent against a perfect player, and at every decision.

    python benchmarks/bench_tictactoe.py [--games 200] [--iterations 10000] [--workers 2] [--decisions all|N]

* 200 games (by default) of ``mcts_agent()`` (its default budget: 10,000 dives a move,
  MCTS-Solver on) against ``exact_agent`` (a perfect player: the first optimal move of
  the exact solution), half of them with each side first; every game's result, with a
  95% interval of the MCTS agent's loss rate.
* every decision of the game (the 4,520 states where a player is to move, or a seeded
  sample of N): does ``mcts_move`` at the default budget play one of the exact best moves
  (``fnmcts.exact.best_moves``)?

Games and decisions run in worker processes (``--workers``), one child seed per game or
decision, so the result for a seed does not depend on the number of workers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fnmcts.agents import exact_agent  # noqa: E402
from fnmcts.exact import best_moves, solve  # noqa: E402
from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.mcts import DEFAULT_ITERATIONS, mcts_agent, mcts_move  # noqa: E402
from fnmcts.montecarlo import wilson_interval  # noqa: E402
from fnmcts.matches import play_game  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402

GAME = TicTacToe()
_SOLUTION = solve(GAME)  # every worker solves once, at import


def _decisions():
    seen, stack, out = {GAME.start()}, [GAME.start()], []
    while stack:
        state = stack.pop()
        if GAME.to_move(state) is None:
            continue
        out.append(state)
        for move in GAME.possible_moves(state):
            child = GAME.play(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return sorted(out)


def _game(args):
    index, seed, iterations = args
    agent = mcts_agent(iterations)
    perfect = partial(exact_agent, solution=_SOLUTION)
    first = index % 2 == 0  # MCTS moves first in even games
    players = (agent, perfect) if first else (perfect, agent)
    record = play_game(GAME, players[0], players[1], seed=child_seed(seed, index))
    mine = record.payoff[0 if first else 1]
    return first, mine


def _decision(args):
    state, seed, iterations, best = args
    found = mcts_move(GAME, state, iterations, random.Random(seed))
    return state, found.move in best, found.iterations


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--decisions", default="all")
    parser.add_argument("--seed", type=int, default=1)
    args, _ = parser.parse_known_args(argv)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(_game, [(i, args.seed, args.iterations) for i in range(args.games)], chunksize=4))
        losses = sum(1 for _, mine in results if mine < 0)
        draws = sum(1 for _, mine in results if mine == 0)
        wins = sum(1 for _, mine in results if mine > 0)
        low, high = wilson_interval(losses, args.games)
        print(
            f"tic-tac-toe: mcts_agent({args.iterations:,}) against a perfect player, {args.games} games "
            f"(half with each side first), seed {args.seed}"
        )
        print(f"  MCTS wins {wins}, draws {draws}, loses {losses} (loss rate 95% CI [{low:.4f}, {high:.4f}])")
        for first in (True, False):
            side = [mine for f, mine in results if f == first]
            print(
                f"  MCTS {'first (X)' if first else 'second (O)'}: {sum(m > 0 for m in side)} wins, "
                f"{sum(m == 0 for m in side)} draws, {sum(m < 0 for m in side)} losses"
            )
        print(f"  ({time.perf_counter() - started:.0f} s)")

        states = _decisions()
        if args.decisions != "all":
            states = random.Random(args.seed).sample(states, int(args.decisions))
        solution = _SOLUTION
        jobs = [
            (s, child_seed(args.seed, i), args.iterations, best_moves(GAME, solution, s)) for i, s in enumerate(states)
        ]
        started = time.perf_counter()
        checked = list(pool.map(_decision, jobs, chunksize=16))
        wrong = [s for s, ok, _ in checked if not ok]
        mean_dives = sum(n for _, _, n in checked) / len(checked)
        print(
            f"\nevery decision ({len(states):,}): mcts_move({args.iterations:,}) plays an exact best move in "
            f"{len(states) - len(wrong):,} of {len(states):,}; mean dives run {mean_dives:,.0f} "
            f"(the solver stops once the position is proven) ({time.perf_counter() - started:.0f} s)"
        )
        for s in wrong[:20]:
            print("  not best at", s)
    return 0


if __name__ == "__main__":
    main()
