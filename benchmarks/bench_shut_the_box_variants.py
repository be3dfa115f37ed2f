"""The exact solve of every Shut the Box variant: 1 to 12 levers, full or simplified,
three dice rules, three scorings (216 games).

For each variant, measured in the same run (median of 3 on this shared machine):
- ``box_values(game)``: the exact optimum of every box (``Fraction``s);
- ``box_values(game, "random")``: the exact value of random play at every box;
- ``exact_tree(game)``: every state's exact value (boxes, rolls, dice choices), the
  input of the best-move table (``fnmcts.tables.build_tree``).
The baseline: the generic protocol solver, ``fnmcts.exact.solve(game)`` from the
start, on the twelve-lever boxes of each dice rule and scoring (once each: it
takes seconds), and on the nine-lever ones, with its value checked against
``box_values``. Target: every variant's exact solve (optimum and random play)
within a second.

    python benchmarks/run.py variants
    python benchmarks/bench_shut_the_box_variants.py [--quick] [--json] [--rounds R]

The nine-lever baselines run interleaved with ``box_values`` round by round
(``benchmarks/harness.py``); the twelve-lever ones once each.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

from fnmcts.exact import solve  # noqa: E402
from fnmcts.games.shut_the_box import DICE_RULES, SCORINGS, ShutTheBox, box_values, exact_tree  # noqa: E402

TARGET_S = 1.0


def timed(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv=None) -> int:
    bench = Bench("bench_shut_the_box_variants", __doc__, argv, rounds=3)
    worst = {"optimal": (0.0, None), "random": (0.0, None), "tree": (0.0, None)}
    by_levers = {}
    levers_swept = bench.size(range(1, 13), range(1, 5))
    for levers, simplified, dice, scoring in product(levers_swept, (False, True), DICE_RULES, SCORINGS):
        game = ShutTheBox(levers=levers, simplified=simplified, dice=dice, scoring=scoring)
        row = {
            "optimal": timed(lambda: box_values(game)),
            "random": timed(lambda: box_values(game, "random")),
            "tree": timed(lambda: exact_tree(game), repeat=1 if levers > 10 else 3),
        }
        for key, seconds in row.items():
            if seconds > worst[key][0]:
                worst[key] = (seconds, game)
            by_levers[levers] = max(by_levers.get(levers, 0.0), row["optimal"] + row["random"])
    bench.say("levers  slowest optimum + random play over its 18 variants (s)")
    for levers, seconds in by_levers.items():
        bench.say(f"{levers:>6}  {seconds:.3f}")
        bench.figure(f"slowest optimum + random play of the {levers}-lever variants", round(seconds, 4), "s", show=False)
    for key, (seconds, game) in worst.items():
        bench.say(f"slowest {key:<8} {seconds:.3f} s  {game!r}")
    for levers, dice, scoring in [(9, "two", "win"), (9, "low-sum", "sum"), (9, "high-down", "digits")]:
        game = ShutTheBox(levers=bench.size(levers, 6), dice=dice, scoring=scoring)
        kept = {}

        def generic(game=game):
            kept["generic"] = solve(game)[game.start()][0]

        def fast(game=game):
            kept["fast"] = box_values(game)[-1]

        bench.compare(f"{game!r}: the optimum of every box", {"fnmcts.exact.solve through the protocol": generic,
                                                             "box_values": fast}, unit="solves")
        assert kept["generic"] == kept["fast"], game
    if not bench.quick:
        bench.say("\nbaseline: fnmcts.exact.solve through the protocol, from the start (once each)")
        bench.say("game                                                          solve s   box_values s   ratio")
        for dice, scoring in product(DICE_RULES, SCORINGS):
            game = ShutTheBox(levers=12, dice=dice, scoring=scoring)
            started = time.perf_counter()
            reference = solve(game)[game.start()][0]
            generic = time.perf_counter() - started
            fast = timed(lambda: box_values(game))
            assert box_values(game)[-1] == reference, game
            bench.say(f"{game!r:<60}  {generic:7.3f}   {fast:12.3f}   {generic / fast:5.1f}x")
    met = worst["optimal"][0] + worst["random"][0] <= TARGET_S
    bench.target(f"every variant's optimum and random-play value within {TARGET_S:.0f} s", met,
                 f"slowest optimum {worst['optimal'][0]:.3f} s + slowest random {worst['random'][0]:.3f} s; "
                 f"medians of 3")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
