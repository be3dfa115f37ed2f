"""Pig solved exactly through the generic solver, and MCTS's strength against optimal play.

Measured in the same run (one process, one core), the solve and the walk interleaved
(``benchmarks/harness.py``, 3 rounds):
- ``solve(Pig(goal), limit=None)``: wall and processor time, states, sweeps,
  residual, and the first player's win probability under optimal play beside
  the published value for goal 100: 0.5306 (Neller and Presser, "Optimal Play
  of the Dice Game Pig", The UMAP Journal 25(1), 2004, 25-47);
- the baseline: the protocol walk alone (every state asked once who moves, its
  moves or outcomes, its children: what any solver through the protocol pays the
  game), so the ratio is the solver's own cost;
- MCTS (``mcts_move`` with ITERATIONS dives, the defaults) against the optimal
  policy on a smaller goal, GAMES pairs of games (each game seed from both
  sides), scored by regret accounting (``bench_defaults.pig_match``), beside
  the exact value of optimal against optimal: how much of the optimum MCTS keeps.
Target: the exact solve of Pig to 100 within a minute on one core.

    python benchmarks/bench_pig.py [--goal 100] [--mcts-goal 30] [--quick] [--json] [--rounds R]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_defaults import pig_match  # noqa: E402
from harness import Bench, Measured  # noqa: E402

from fnmcts.exact import solve  # noqa: E402
from fnmcts.games import Pig  # noqa: E402
from fnmcts.games.pig import policy_table  # noqa: E402
from fnmcts.protocol import CHANCE  # noqa: E402

PUBLISHED = 0.5306
"""The first player's win probability under optimal play, goal 100 (Neller and Presser 2004)."""

TARGET_SECONDS = 60.0
ITERATIONS = 1000
GAMES = 100


def protocol_walk(game) -> int:
    """Every state reached from the start, each asked of the game once: the floor of any protocol solver."""
    seen, order = {game.start(): 0}, [game.start()]
    for state in order:
        who = game.to_move(state)
        if who is None:
            game.payoff(state)
            continue
        moves = [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state)
        for move in moves:
            child = game.play(state, move)
            if child not in seen:
                seen[child] = len(order)
                order.append(child)
    return len(order)


def timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--goal", type=int, default=100, help="the goal of the exact solve (default 100)")
        parser.add_argument("--mcts-goal", type=int, default=30, help="the goal of the MCTS games (default 30)")
        parser.add_argument("--games", type=int, default=GAMES, help=f"pairs of MCTS games, each seed from both sides (default {GAMES})")

    bench = Bench("bench_pig", __doc__, argv, options=options, rounds=3)
    goal = bench.size(bench.args.goal, 12)
    mcts_goal = bench.size(bench.args.mcts_goal, 8)
    games = bench.size(bench.args.games, 2)
    game = Pig(goal=goal)
    kept = {}

    def solver():
        solution, _, cpu = timed(lambda: solve(game, limit=None))
        kept["solution"] = solution
        return Measured(cpu)

    def walk():
        states, _, cpu = timed(lambda: protocol_walk(game))
        kept["states"] = states
        return Measured(cpu)

    comparison = bench.compare(f"Pig to {goal}: the exact solve against the protocol walk (processor seconds)",
                               {"the protocol walk alone": walk, "solve(Pig(goal), limit=None)": solver},
                               unit="solves", warmup=0)
    solution, states = kept["solution"], kept["states"]
    cpu = comparison["contenders"][1]["median_seconds"]
    p = (1 + solution[game.start()][0]) / 2
    bench.say(f"Pig to {goal}: {len(solution):,} states (walk: {states:,}), {solution.components:,} cycles "
              f"(largest {solution.largest} states), {solution.iterations:,} sweeps, residual {solution.residual:.2g}")
    bench.figure(f"first player's win probability under optimal play, Pig to {goal}", round(float(p), 6), "",
                 f"published: {PUBLISHED}; difference {p - PUBLISHED:+.6f}" if goal == 100 else "")
    bench.target(f"the exact solve of Pig to {goal} within {TARGET_SECONDS:.0f} s on one core",
                 cpu <= TARGET_SECONDS, f"{cpu:.1f} s processor time, median of {comparison['rounds']}")

    bench.say("the optimal policy: the turn total at which to hold, by your score (rows) and the other's (columns);")
    bench.say("* marks a score pair where some higher turn total rolls again")
    bench.say(policy_table(game, solution, step=max(1, goal // 10)))

    small = Pig(goal=mcts_goal)
    exact = solve(small)
    even = (1 + exact[small.start()][0]) / 2
    found, mwall, _ = timed(lambda: pig_match(games, ITERATIONS, 1, goal=mcts_goal))
    w_low, w_high = found["wins_interval"]
    low, high = found["interval"]
    bench.figure(f"MCTS ({ITERATIONS} dives a move, the defaults) against the optimal policy, Pig to {mcts_goal}, "
                 f"{found['pairs']} pairs of games (regret accounting)", round(found["score"], 4), "",
                 f"95% interval [{low:.4f}, {high:.4f}]; games won {found['wins']}/{found['games']} "
                 f"[{w_low:.3f}, {w_high:.3f}]; exact-best at {found['decisions'] - found['slips']} of "
                 f"{found['decisions']} decisions; optimal against optimal wins {even:.3f} as first, "
                 f"{1 - even:.3f} as second, 0.5 a pair [{mwall:.0f} s]")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
