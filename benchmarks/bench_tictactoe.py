"""Tic-tac-toe: the built-in game's search speed, and the default MCTS agent's strength.

    python benchmarks/bench_tictactoe.py [--games 200] [--iterations 10000] [--workers 2] [--decisions all|N]
                                         [--quick] [--json] [--rounds R]

* speed: ``mcts_move`` (UCB1, no solver) from the empty board on the built-in
  ``TicTacToe`` and on the tic-tac-toe a user writes (``bench_engine.py``'s
  ``UserTicTacToe``, the README's user version), the same dives, interleaved
  round by round (``benchmarks/harness.py``); target: the built-in game at least
  as fast as the user's. Also the exact solve of each.

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

import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import UserTicTacToe  # noqa: E402  (the README's user version)
from harness import Bench  # noqa: E402

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


def speed(bench) -> None:
    user = UserTicTacToe()
    dives = bench.size(20_000, 2_000)
    comparison = bench.compare(
        f"mcts_move, {dives:,} dives from the empty board (UCB1, no solver)",
        {"the user's tic-tac-toe (bench_engine.py)": lambda: mcts_move(user, user.start(), dives, random.Random(1),
                                                                       solver=False),
         "built-in TicTacToe": lambda: mcts_move(GAME, GAME.start(), dives, random.Random(1), solver=False)},
        work=dives, unit="dives",
    )
    ratio = comparison["contenders"][1]["ratio"]
    bench.target("the built-in TicTacToe at least as fast as the user's", ratio["median"] >= 1.0,
                 f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    bench.compare("the exact solve (5,478 boards)", {"solve(user's tic-tac-toe)": lambda: solve(user),
                                                     "solve(TicTacToe())": lambda: solve(TicTacToe())},
                  unit="solves")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--decisions", default="all")
        parser.add_argument("--seed", type=int, default=1)

    bench = Bench("bench_tictactoe", __doc__, argv, options=options)
    args = bench.args
    speed(bench)
    games = bench.size(args.games, 2)
    iterations = bench.size(args.iterations, 200)
    decisions = bench.size(args.decisions, "20")
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(_game, [(i, args.seed, iterations) for i in range(games)], chunksize=4))
        losses = sum(1 for _, mine in results if mine < 0)
        draws = sum(1 for _, mine in results if mine == 0)
        wins = sum(1 for _, mine in results if mine > 0)
        low, high = wilson_interval(losses, games)
        bench.say(f"\ntic-tac-toe: mcts_agent({iterations:,}) against a perfect player, {games} games "
                  f"(half with each side first), seed {args.seed}")
        bench.figure("MCTS losses against a perfect player", losses, f"of {games} games",
                     f"wins {wins}, draws {draws}; loss rate 95% CI [{low:.4f}, {high:.4f}]")
        for first in (True, False):
            side = [mine for f, mine in results if f == first]
            bench.say(
                f"  MCTS {'first (X)' if first else 'second (O)'}: {sum(m > 0 for m in side)} wins, "
                f"{sum(m == 0 for m in side)} draws, {sum(m < 0 for m in side)} losses"
            )
        bench.say(f"  ({time.perf_counter() - started:.0f} s)")

        states = _decisions()
        if decisions != "all":
            states = random.Random(args.seed).sample(states, int(decisions))
        solution = _SOLUTION
        jobs = [(s, child_seed(args.seed, i), iterations, best_moves(GAME, solution, s)) for i, s in enumerate(states)]
        started = time.perf_counter()
        checked = list(pool.map(_decision, jobs, chunksize=16))
        wrong = [s for s, ok, _ in checked if not ok]
        mean_dives = sum(n for _, _, n in checked) / len(checked)
        bench.figure(f"decisions where mcts_move({iterations:,}) plays an exact best move",
                     len(states) - len(wrong), f"of {len(states):,}",
                     f"mean dives run {mean_dives:,.0f}: the solver stops once the position is proven; "
                     f"{time.perf_counter() - started:.0f} s")
        for s in wrong[:20]:
            bench.say(f"  not best at {s}")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
