"""Tree-parallel search: dives a second of ``mcts_move(..., batch=16)`` on 1 and 2 workers, OpenSpiel connect_four.

    python benchmarks/bench_batch.py [--quick] [--json] [--rounds R] [--dives N]

One search of ``--dives`` dives (default 4,000) from connect_four's start
(``fnmcts.openspiel.from_openspiel``), the solver off (per-dive figures), each
way interleaved round by round (``benchmarks/harness.py``):

- ``batch=16, workers=1``: the batched search with its playouts run here (the baseline);
- ``batch=16, workers=2``: the same search, its playouts on the library's kept pool of 2 processes;
- the plain search (no batch), for scale: what a step of 16 costs against 16 dives one at a time.

The two batched ways must grow the same tree (checked: the tree depends on the
seed and the batch alone). Twice: with the game's own playouts (OpenSpiel's
kernel, ``random_payoff``), and with playouts through the protocol
(``rollout=random_agent``), the costlier of the two.
Target (issue 38): ``batch=16`` on 2 workers >= 1.6x the dives a second of 1 worker.

Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``); skipped otherwise.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

from fnmcts.matches import random_agent  # noqa: E402
from fnmcts.mcts import mcts_move  # noqa: E402

BATCH = 16
GOAL = 1.6


def _same_tree(results: dict) -> None:
    trees = {name: dict(found.tree.pmap()) for name, found in results.items() if name.startswith("batch=")}
    first = next(iter(trees.values()))
    if any(tree != first for tree in trees.values()):
        raise AssertionError(f"batch={BATCH} grew different trees on different workers: {sorted(trees)}")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--dives", type=int, default=4_000, help="dives of each search (default 4,000)")

    bench = Bench("bench_batch", __doc__, argv, options=options, rounds=5)
    try:
        from fnmcts.openspiel import from_openspiel

        game = from_openspiel("connect_four")
    except ImportError:
        bench.note("OpenSpiel is not installed: skipped (pip install 'fnmcts[openspiel]')")
        return bench.finish()
    state = game.start()
    dives = bench.size(bench.args.dives, 64)
    found = []
    for playouts, rollout in (("OpenSpiel's kernel playouts", None), ("protocol playouts", random_agent)):
        def run(**given):
            return lambda: mcts_move(game, state, dives, random.Random(1), solver=False, rollout=rollout, **given)

        found.append(bench.compare(
            f"connect_four, {dives:,} dives, solver off, {playouts}",
            {f"batch={BATCH}, 1 worker": run(batch=BATCH, workers=1),
             f"batch={BATCH}, 2 workers": run(batch=BATCH, workers=2),
             "plain search (no batch)": run()},
            work=dives, unit="dives", check=_same_tree))
    for comparison in found:
        row = comparison["contenders"][1]
        ratio = row["ratio"]
        bench.target(f">= {GOAL}x dives/s on 2 workers: {comparison['title']}", ratio["median"] >= GOAL,
                     f"{row['name']}: {ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
