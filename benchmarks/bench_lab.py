"""Games a second of the lab's batch estimators on Shut the Box, against the plain batch in the same run.

    python benchmarks/bench_lab.py [--quick] [--json] [--rounds R] [--games N]

Contenders interleaved in one run, one core: ``fnmcts.lab.batch_estimate`` with
``plain`` (the baseline), ``antithetic``, ``control`` and ``stratified`` on random
play of the tutorial's box (numpy, the batch extra). Each counts the games it
plays (an antithetic pair is two). Also printed: the variance per game each
measured, beside the exact one (``fnmcts.lab.exact_variances``), so a speed
ratio can be read as games a second at equal precision.
Targets: the batch antithetic and control-variate estimators at >= 0.8x the plain batch's games a second.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

from fnmcts.games.shut_the_box import ShutTheBox  # noqa: E402
from fnmcts.lab import batch_estimate, exact_variances  # noqa: E402

GAMES = 1_000_000
METHODS = ("plain", "antithetic", "control", "stratified")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--games", type=int, default=GAMES, help=f"games per estimate (default {GAMES:,})")

    bench = Bench("bench_lab", __doc__, argv, options=options, rounds=5)
    games = bench.size(bench.args.games, 20_000)
    game = ShutTheBox()
    rng = random.Random(37)
    seen = {}

    def contender(method):
        def run():
            seen[method] = batch_estimate(method, game, games, rng)

        return run

    for method in METHODS:  # the tables are built once per rule set: not inside the timed rounds
        batch_estimate(method, game, 1_000, random.Random(1))
    comparison = bench.compare(f"batch estimators of random play on Shut the Box, {games:,} games each",
                               {f"batch {m}": contender(m) for m in METHODS}, work=games, unit="games")
    ratios = {c["name"].split()[-1]: c["ratio"]["median"] for c in comparison["contenders"]}
    exact = exact_variances(game, methods=("plain", "control", "stratified")).variances
    for method in METHODS:
        record = seen[method]
        measured = record.std_error ** 2 * record.games
        truth = exact.get("stratified" if method == "stratified" else method)
        bench.figure(f"variance per game, batch {method}", round(measured, 6), "",
                     f"exact {truth:.6f}" if truth is not None else "exact: see fnmcts.lab.exact_variances")
    for method in ("antithetic", "control"):
        bench.target(f"batch {method} at >= 0.8x the plain batch's games a second", ratios[method] >= 0.8,
                     f"{ratios[method]:.2f}x, median of {comparison['rounds']} rounds")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
