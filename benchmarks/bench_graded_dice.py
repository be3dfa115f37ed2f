"""Graded one-player dice games at the defaults: how often the search's move is exact-best, and what its moves cost.

    python benchmarks/bench_graded_dice.py [--quick] [--json] [--iterations 10000] [--games NAME,...]
        [--decisions N|all] [--options "{'c': 0.2}"] [--seed S]

The games of ``benchmarks/dice_games.py`` (written here as a user writes a
game: keep or throw a roll, stop or roll, pick one of two dice, come near a
target; and two of them with their payoffs squeezed into a tenth of the
range), whose values sit high in the payoff range (0.7-0.95), not near 0.07
as in Shut the Box. Each decision (all of them by default, or ``--decisions``
drawn) is searched once by ``mcts_move`` at ``--iterations`` dives and the
library's defaults (``--options``: other options, for a comparison), a seed
of its own, and the move judged against the exact values
(``fnmcts.exact.solve``): the share of exact-best moves with its 95% Wilson
interval, and the mean loss (the best move's value less the move's, on the
payoff range scaled to [0, 1]) with its 95% interval, and the largest.

Targets (issue 32): at 10,000 dives, an exact-best move at 98% of the
decisions or more, and a mean loss of at most 0.5% of the payoff range, on
every game. ``--quick`` draws 5 decisions of two games at 1,000 dives.
"""

from __future__ import annotations

import ast
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from bench_generated_defaults import Judged, cell, text  # noqa: E402
from dice_games import DICE_GAMES  # noqa: E402

from fnmcts.mcts import DEFAULT_ITERATIONS, mcts_move  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402

BEST_SHARE = 0.98
MEAN_LOSS = 0.005


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=None, help=f"dives a search (default {DEFAULT_ITERATIONS:,})")
        parser.add_argument("--games", default=None, help=f"games, ';' between (default all: {'; '.join(DICE_GAMES)})")
        parser.add_argument("--decisions", default=None, help="decisions drawn a game, or all (default all)")
        parser.add_argument("--options", default="{}", help="options of mcts_move beyond the defaults, a Python dict")
        parser.add_argument("--seed", type=int, default=1, help="the seed of the searches and draws (default 1)")

    bench = Bench("bench_graded_dice", __doc__, argv, options=options)
    args = bench.args
    iterations = args.iterations or bench.size(DEFAULT_ITERATIONS, 1_000)
    names = args.games.split(";") if args.games else bench.size(list(DICE_GAMES), list(DICE_GAMES)[:2])
    wanted = args.decisions if args.decisions is not None else bench.size("all", "5")
    extra = ast.literal_eval(args.options)
    label = "defaults" if not extra else ", ".join(f"{k}={v}" for k, v in extra.items())
    bench.note(f"{label}, {iterations:,} dives a decision, seed {args.seed}")
    met = True
    for name in names:
        judged = Judged(DICE_GAMES[name], every=True)
        states = judged.decisions
        if wanted != "all":
            states = sorted(random.Random(args.seed).sample(states, min(int(wanted), len(states))), key=repr)
        holder = {}

        def run(judged=judged, states=states, holder=holder):
            started, dives, regrets = time.perf_counter(), 0, []
            for k, state in enumerate(states):
                found = mcts_move(judged.game, state, iterations, random.Random(child_seed(args.seed, k)), **extra)
                dives += found.iterations
                regrets.append(judged.regret(state, found.move))
            holder["cell"] = cell(regrets)
            return Measured(time.perf_counter() - started, dives)

        bench.compare(f"{name}: {len(states)} decisions", {label: run}, unit="dives", rounds=1, warmup=0)
        found = holder["cell"]
        bench.figure(f"{name}", text(found))
        bench.result.setdefault("cells", {})[name] = found
        met &= bench.target(f"{name}: exact-best at {BEST_SHARE:.0%} of the decisions or more",
                            found["share"] >= BEST_SHARE, f"{found['best']} of {found['decisions']}")
        met &= bench.target(f"{name}: mean loss at most {MEAN_LOSS:.1%} of the range", found["regret"] <= MEAN_LOSS,
                            f"{found['regret']:.5f}")
    bench.figure("all targets met", met)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
