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
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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


def main() -> int:
    worst = {"optimal": (0.0, None), "random": (0.0, None), "tree": (0.0, None)}
    by_levers = {}
    for levers, simplified, dice, scoring in product(range(1, 13), (False, True), DICE_RULES, SCORINGS):
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
    print("levers  slowest optimum + random play over its 18 variants (s)")
    for levers, seconds in by_levers.items():
        print(f"{levers:>6}  {seconds:.3f}")
    for key, (seconds, game) in worst.items():
        print(f"slowest {key:<8} {seconds:.3f} s  {game!r}")
    print()
    print("baseline: fnmcts.exact.solve through the protocol, from the start (once each)")
    print("game                                                          solve s   box_values s   ratio")
    for levers, dice, scoring in [(9, "two", "win"), (9, "low-sum", "sum"), (9, "high-down", "digits")] + [
        (12, dice, scoring) for dice, scoring in product(DICE_RULES, SCORINGS)
    ]:
        game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
        started = time.perf_counter()
        reference = solve(game)[game.start()][0]
        generic = time.perf_counter() - started
        fast = timed(lambda: box_values(game))
        assert box_values(game)[-1] == reference, game
        print(f"{game!r:<60}  {generic:7.3f}   {fast:12.3f}   {generic / fast:5.1f}x")
    met = worst["optimal"][0] + worst["random"][0] <= TARGET_S
    print()
    print(
        f"target: every variant's optimum and random-play value within {TARGET_S:.0f} s: "
        f"{'met' if met else 'not met'} (slowest optimum {worst['optimal'][0]:.3f} s + slowest random "
        f"{worst['random'][0]:.3f} s); medians of 3 on a shared two-core machine"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
