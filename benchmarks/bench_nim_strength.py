"""Strength of the Nim agents, measured against the exact solver.

For every winning position of one-heap Nim with N = 2..30 and K = 3, misère and
normal play, each agent chooses a move (``--repeats`` times, each with its own
child seed); the figure is the share of those moves that are optimal according
to ``fnmcts.exact``. Columns split the heaps into 2-14 and 15-30.

The baseline, measured in the same run, is a plain mutable-node UCT: the
notebook's MonteCarloTreeSearch (Node objects with parent pointers, UCB with
c = 1 over the root's visit count, random rollouts, the most visited root move),
ported here as the peer it is. Rows also show the milliseconds a move and the
ratio to that baseline at 3,000 iterations.

Flat Monte Carlo has a limit that sampling only approaches: the exact value of
random play after each first move. The row "flat MC, infinite trials" computes
that limit exactly (``exact.evaluate_policy`` with ``random_policy``), so its
failures are proven, not sampled.

    python benchmarks/bench_nim_strength.py                 # the strength table of docs/nim.md (a few minutes)
    python benchmarks/bench_nim_strength.py --quick         # a smoke run: small budgets, a few heaps
    python benchmarks/bench_nim_strength.py --json          # the figures as one JSON document

The speed comparison (``benchmarks/harness.py``): the notebook's UCT and fnmcts's MCTS
at 3,000 iterations choose a move at the same winning positions, interleaved round
by round.
"""

from __future__ import annotations

import math
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.games.nim import subtraction_mover_wins  # noqa: E402
from fnmcts.agents import (  # noqa: E402
    exact_agent,
    montecarlo_agent,
    montecarlo_perfect_agent,
    perfect_agent,
    random_agent,
)
from fnmcts.exact import best_moves, evaluate_policy, random_policy, solve  # noqa: E402
from fnmcts.games import Nim  # noqa: E402
from fnmcts.rng import child_rng  # noqa: E402

K = 3
HEAPS = range(2, 31)
SPLIT = 14  # columns: 2..14 and 15..30


# -- the baseline: the notebook's mutable-node UCT ----------------------------------------


class _Node:
    """The notebook's Node: mutable, with a parent pointer (benchmark peer only)."""

    __slots__ = ("value", "visits", "heap", "move", "untried", "children", "parent")

    def __init__(self, parent, heap, move):
        self.value = 0.0
        self.visits = 0
        self.heap = heap
        self.move = move
        self.untried = list(range(1, min(K, heap) + 1))
        self.children = []
        self.parent = parent


def _random_rollout(heap, misere, rng) -> int:
    """+1 when the player to move at ``heap`` wins a random playout, else -1."""
    mover = 0
    player = 0
    while heap:
        top = K if heap > K else heap
        heap -= 1 + int(rng.random() * top) if top > 1 else 1
        player = 1 - player
    last_taker = 1 - player
    winner = player if misere else last_taker
    return 1 if winner == mover else -1


def notebook_uct_move(iterations, misere, heap, rng, c=1.0):
    """The notebook's MCTSAgent: ``iterations`` runs, then the most visited root move."""
    root = _Node(None, heap, None)
    for _ in range(iterations):
        node = root
        while True:
            if node.untried:
                move = node.untried.pop(0)
                child = _Node(node, node.heap - move, move)
                node.children.append(child)
                node = child
                break
            if not node.children:
                break
            log_root = math.log(root.visits)
            node = max(
                node.children,
                key=lambda ch: ch.value / (ch.visits + 1e-9) + c * math.sqrt(log_root / (ch.visits + 1e-9)),
            )
        value = -_random_rollout(node.heap, misere, rng)
        factor = 1
        while node is not None:
            node.visits += 1
            node.value += value * factor
            factor = -factor
            node = node.parent
    return max(root.children, key=lambda ch: ch.visits).move


def notebook_uct_agent(iterations):
    def agent(game, state, rng):
        return notebook_uct_move(iterations, game.misere, state["heap"], rng)

    return agent


# -- flat Monte Carlo's exact infinite-trial limit ---------------------------------------


def flat_limit_agent(game, state, rng=None):
    """The move flat Monte Carlo converges to: the best exact value of random play after it."""
    me = game.to_move(state)
    kids = {m: game.play(state, m) for m in game.possible_moves(state)}
    values = evaluate_policy(game, random_policy, *kids.values(), opponent=random_policy)
    best_move, best = None, None
    for move, child in kids.items():  # first on ties, as montecarlo_agent
        if best is None or values[child][me] > best:
            best_move, best = move, values[child][me]
    return best_move


# -- measuring --------------------------------------------------------------------------------


def positions():
    """``(misere, heap, game, state, optimal moves)`` for every winning position."""
    out = []
    for misere in (True, False):
        game = Nim(heap=max(HEAPS), max_take=K, misere=misere)
        solution = solve(game, *(game.state(n) for n in HEAPS))
        for n in HEAPS:
            state = game.state(n)
            if solution[state][0] > 0:
                assert subtraction_mover_wins(n, K, misere)
                out.append((misere, n, game, state, frozenset(best_moves(game, solution, state))))
    return out


def measure(agent, cases, repeats, seed):
    """Per case: the share of ``repeats`` moves that are optimal; and the seconds a move."""
    shares, start, moves = {}, time.perf_counter(), 0
    for index, (misere, n, game, state, optimal) in enumerate(cases):
        good = 0
        for r in range(repeats):
            move = agent(game, state, child_rng(seed, index * 1000 + r))
            good += move in optimal
            moves += 1
        shares[(misere, n)] = good / repeats
    return shares, (time.perf_counter() - start) / moves


def _share(shares, misere=None, low=None, high=None):
    picked = [
        v for (m, n), v in shares.items()
        if (misere is None or m == misere) and (low is None or n >= low) and (high is None or n <= high)
    ]
    return sum(picked) / len(picked) if picked else None


def rows(quick: bool):
    from fnmcts.mcts import mcts_agent

    mc_budgets = (100, 1_000) if quick else (100, 1_000, 10_000)
    mcts_budgets = (100, 1_000) if quick else (100, 1_000, 3_000, 10_000)
    uct_budgets = (500, 3_000) if quick else (500, 3_000, 10_000)
    out = [("random", "-", random_agent, None)]
    out += [("flat Monte Carlo", f"{b:,} trials", partial(montecarlo_agent, trials=b), None) for b in mc_budgets]
    out.append(("flat Monte Carlo, infinite trials (exact limit)", "inf", flat_limit_agent, 1))
    out += [
        ("MC, perfect-opponent rollouts", f"{b:,} trials", partial(montecarlo_perfect_agent, trials=b), None)
        for b in (100, 1_000)
    ]
    out += [("notebook UCT (mutable nodes), baseline", f"{b:,} iterations", notebook_uct_agent(b), None)
            for b in uct_budgets]
    out += [("fnmcts MCTS, UCB1, no solver", f"{b:,} iterations", mcts_agent(b, solver=False), None)
            for b in mcts_budgets]
    out += [("fnmcts MCTS (default: UCB1 + MCTS-Solver)", f"{b:,} iterations", mcts_agent(b), None)
            for b in mcts_budgets]
    out += [("perfect (closed form)", "-", perfect_agent, 1), ("exact (value agent)", "-", exact_agent, 1)]
    return out


def reliable_up_to(shares, misere):
    """The largest heap H such that every winning heap up to H was always right."""
    best = "-"
    for n in HEAPS:
        if (misere, n) not in shares:
            continue
        if shares[(misere, n)] < 1:
            break
        best = n
    return best


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--repeats", type=int, default=5, help="moves per position for stochastic agents")
        parser.add_argument("--seed", type=int, default=1)

    bench = Bench("bench_nim_strength", __doc__, argv, options=options)
    args = bench.args
    repeats = bench.size(args.repeats, 1)
    cases = positions()
    if bench.quick:
        cases = cases[::6]
    bench.say(
        f"winning positions: {len(cases)} (N = 2..30, K = {K}, misère and normal); "
        f"{repeats} move(s) each per stochastic agent; seed {args.seed}"
    )
    from fnmcts.mcts import mcts_agent

    speed_budget = bench.size(3_000, 300)
    bench.compare(
        f"a move at each of the {len(cases)} winning positions, {speed_budget:,} iterations",
        {"notebook UCT (mutable nodes)": lambda: Measured(measure(notebook_uct_agent(speed_budget), cases, 1,
                                                                  args.seed)[1]),
         "fnmcts MCTS, UCB1, no solver": lambda: Measured(measure(mcts_agent(speed_budget, solver=False), cases, 1,
                                                                  args.seed)[1])},
        unit="moves", warmup=0,
    )
    results = []
    for label, budget, agent, fixed in rows(bench.quick):
        shares, seconds = measure(agent, cases, fixed or repeats, args.seed)
        results.append((label, budget, shares, seconds))
        bench.figure(f"{label} {budget}: share of optimal moves", round(_share(shares), 4), "",
                     f"{seconds * 1000:.2f} ms a move")

    baseline = next(r for r in results if r[0].startswith("notebook UCT") and r[1].startswith("3,000"))
    base_ms = baseline[3] * 1000
    bench.say()
    bench.say("| agent | budget | misère 2-14 | misère 15-30 | normal 2-14 | normal 15-30 | all | reliable up to N (misère / normal) | ms a move | time vs baseline |")
    bench.say("|---|---|---|---|---|---|---|---|---|---|")
    for label, budget, shares, seconds in results:
        cells = [
            _share(shares, True, None, SPLIT),
            _share(shares, True, SPLIT + 1, None),
            _share(shares, False, None, SPLIT),
            _share(shares, False, SPLIT + 1, None),
            _share(shares),
        ]
        ms = seconds * 1000
        bench.say(
            f"| {label} | {budget} | " + " | ".join("-" if c is None else f"{c:.3f}" for c in cells)
            + f" | {reliable_up_to(shares, True)} / {reliable_up_to(shares, False)}"
            + f" | {ms:.2f} | {ms / base_ms:.2f}x |"
        )
    limit = next(r for r in results if r[1] == "inf")[2]
    for misere in (True, False):
        wrong = [n for (m, n), v in sorted(limit.items()) if m == misere and v < 1]
        rule = "misère" if misere else "normal"
        bench.say(f"\nflat Monte Carlo's exact limit chooses a losing move ({rule}) at winning N = {wrong}")
    bench.say(f"baseline: notebook UCT at 3,000 iterations, {_share(baseline[2]):.3f} of moves optimal, "
              f"{base_ms:.2f} ms a move")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
