"""Pig solved exactly through the generic solver, and MCTS's strength against optimal play.

Measured in the same run (one process, one core):
- ``solve(Pig(goal), limit=None)``: wall and processor time, states, sweeps,
  residual, and the first player's win probability under optimal play beside
  the published value for goal 100: 0.5306 (Neller and Presser, "Optimal Play
  of the Dice Game Pig", The UMAP Journal 25(1), 2004, 25-47);
- the baseline: the protocol walk alone (every state asked once who moves, its
  moves or outcomes, its children: what any solver through the protocol pays the
  game), so the ratio is the solver's own cost;
- MCTS (``mcts_agent(ITERATIONS)``) against the optimal policy on a smaller
  goal, GAMES games on each side, beside the exact value of optimal against
  optimal: how much of the optimum MCTS keeps.
Target: the exact solve of Pig to 100 within a minute on one core.

    python benchmarks/bench_pig.py [GOAL] [MCTS_GOAL]
"""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fnmcts.agents import exact_agent  # noqa: E402
from fnmcts.exact import solve  # noqa: E402
from fnmcts.games import Pig  # noqa: E402
from fnmcts.games.pig import policy_table  # noqa: E402
from fnmcts.mcts import mcts_agent  # noqa: E402
from fnmcts.montecarlo import wilson_interval  # noqa: E402
from fnmcts.matches import tournament  # noqa: E402
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


def main(goal: int = 100, mcts_goal: int = 30) -> int:
    game = Pig(goal=goal)
    states, walk_wall, walk_cpu = timed(lambda: protocol_walk(game))
    solution, wall, cpu = timed(lambda: solve(game, limit=None))
    p = (1 + solution[game.start()][0]) / 2
    print(f"Pig to {goal}: {len(solution):,} states (walk: {states:,}), {solution.components:,} cycles "
          f"(largest {solution.largest} states), {solution.iterations:,} sweeps, residual {solution.residual:.2g}")
    print(f"  solve: {wall:.1f} s wall, {cpu:.1f} s processor; the protocol walk alone {walk_wall:.1f} s wall, "
          f"{walk_cpu:.1f} s processor (solve / walk: {cpu / walk_cpu:.2f}x processor)")
    print(f"  first player wins with probability {p:.6f} under optimal play"
          + (f" (published: {PUBLISHED}; difference {p - PUBLISHED:+.6f})" if goal == 100 else ""))
    print(f"  target: within {TARGET_SECONDS:.0f} s on one core: {'met' if cpu <= TARGET_SECONDS else 'not met'} "
          f"({cpu:.1f} s processor time; the machine is shared, so wall time is noisier)")

    print("the optimal policy: the turn total at which to hold, by your score (rows) and the other's (columns);")
    print("* marks a score pair where some higher turn total rolls again")
    print(policy_table(game, solution, step=max(1, goal // 10)))

    small = Pig(goal=mcts_goal)
    exact = solve(small)
    optimal = partial(exact_agent, solution=exact)
    even = (1 + exact[small.start()][0]) / 2
    mcts = mcts_agent(ITERATIONS)
    (first, second), mwall, _ = timed(lambda: (
        tournament(small, mcts, optimal, GAMES, seed=1),
        tournament(small, optimal, mcts, GAMES, seed=2),
    ))
    won = first.wins[1] + second.wins[2]
    low, high = wilson_interval(won, 2 * GAMES)
    print(f"MCTS ({ITERATIONS} dives a move) against the optimal policy, Pig to {mcts_goal}, {GAMES} games a side: "
          f"won {won} of {2 * GAMES} ({won / (2 * GAMES):.3f}, 95% CI [{low:.3f}, {high:.3f}]); "
          f"as first {first.wins[1]}, as second {second.wins[2]}; optimal against optimal wins "
          f"{even:.3f} as first, {1 - even:.3f} as second (0.5 a side on average) [{mwall:.0f} s]")
    return 0


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:] if a.isdigit()][:2]  # run.py passes its own words through
    sys.exit(main(*args))
