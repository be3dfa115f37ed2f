"""MCTS on Shut the Box (task 11): dives per second and the learning curve.

    python benchmarks/bench_mcts_shut_the_box.py [--repeats R] [--seed S]

Speed: ``uct`` one dive at a time on the persistent tree, and the batched
``search``, beside a baseline measured in the same run: the tutorial's
algorithm written plainly in Python with a mutable dict (frozenset boxes,
``possible_moves`` sets, ``max`` by ucb), as one would port the Clojure.
Medians of a few repeats; ratios against the baseline.

Learning: after 1,000 / 10,000 / 100,000 dives, the dives' own win rate (the
tutorial's measure), the exact win probability of the greedy policy read off
the tree (``exact.evaluate_policy``), the same for the expectimax read-off
(``backed_up_values``: the tree's states backed up with the exact dice
probabilities), and the optimum (``exact.solve``), for the faithful rule, for
UCB1 with a small exploration constant, and for UCB1 with the expectimax
backup (every record keeps a value backed up with the dice probabilities). The tutorial's own Clojure
solution does about 25,000 dives/s and reaches a dive win rate of about 0.056
after 100,000 dives.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyrsistent import pmap  # noqa: E402

from fnmcts.exact import evaluate_policy, random_policy, solve, value  # noqa: E402
from fnmcts.games.shut_the_box import ShutTheBox, dice_roll, play_game, possible_moves, start_box  # noqa: E402
from fnmcts.tutorial import uct  # noqa: E402
from fnmcts.mcts import backed_up_values, greedy_policy, search, ucb, ucb1, win_rate  # noqa: E402


# -- the baseline: the tutorial's uct, ported plainly with a mutable dict ---------------------


def _plain_ucb(rec):
    w, l = rec
    n = w + l
    if n == 0:
        return math.inf
    if w == 0:
        return 3 / n
    return (w + 2 * math.sqrt(w * l / n)) / n


def _plain_uct(tree, box, rng):
    if box not in tree:
        result = play_game(box, rng)
        tree[box] = (1, 0) if result == "win" else (0, 1)
        return result
    if not box:
        result = "win"
    else:
        moves = possible_moves(box, dice_roll(rng))
        if not moves:
            result = "loss"
        else:
            best = max(moves, key=lambda b: _plain_ucb(tree.get(b, (0, 0))))
            result = _plain_uct(tree, best, rng)
    w, l = tree[box]
    tree[box] = (w + 1, l) if result == "win" else (w, l + 1)
    return result


def _median(fn, repeats):
    return statistics.median(fn() for _ in range(repeats))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args, _ = parser.parse_known_args(argv)  # run.py passes its own words along
    game = ShutTheBox()

    def baseline_rate(n=20_000):
        tree, rng = {}, random.Random(args.seed)
        started = time.perf_counter()
        for _ in range(n):
            _plain_uct(tree, start_box, rng)
        return n / (time.perf_counter() - started)

    def uct_rate(n=20_000):
        tree, rng = pmap(), random.Random(args.seed)
        started = time.perf_counter()
        for _ in range(n):
            tree, _ = uct(tree, start_box, rng)
        return n / (time.perf_counter() - started)

    def search_rate(n=100_000, **options):
        started = time.perf_counter()
        search(game, start_box, n, random.Random(args.seed), **options)
        return n / (time.perf_counter() - started)

    def expectimax_rate():
        return search_rate(30_000, rule=partial(ucb1, c=0.2), backup="expectimax")

    print(f"Shut the Box MCTS speed, median of {args.repeats}")
    base = _median(baseline_rate, args.repeats)
    for name, rate in (
        ("plain mutable-dict port of the tutorial (baseline)", base),
        ("uct, one dive at a time, persistent tree", _median(uct_rate, args.repeats)),
        ("search, batched (transient, frozen at the end)", _median(search_rate, args.repeats)),
        ("search, ucb1 c=0.2, expectimax backup", _median(expectimax_rate, args.repeats)),
    ):
        print(f"  {name:<52} {rate:>10,.0f} dives/s   x{rate / base:.2f}")
    print("  (the tutorial's Clojure solution: about 25,000 dives/s)")

    optimum = value(solve(game), start_box)[0]
    random_value = value(evaluate_policy(game, random_policy), start_box)[0]
    print()
    print(f"Learning curve, seed {args.seed}: optimum {float(optimum):.6f}, random play {float(random_value):.6f}")
    print(f"  {'rule':<30} {'dives':>8} {'win rate':>9} {'greedy':>9} {'% opt':>6} {'expectimax':>10} {'% opt':>6} {'states':>6}")
    for name, rule, backup in (
        ("tutorial ucb z=2", ucb, "mean"),
        ("ucb1 c=0.2", partial(ucb1, c=0.2), "mean"),
        ("ucb1 c=0.2, expectimax backup", partial(ucb1, c=0.2), "expectimax"),
    ):
        tree, rng, done = pmap(), random.Random(args.seed), 0
        for dives in (1_000, 10_000, 100_000):
            tree = search(game, start_box, dives - done, rng, tree=tree, rule=rule, backup=backup)
            done = dives
            greedy = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
            backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree))), start_box)[0]
            print(
                f"  {name:<30} {dives:>8,} {win_rate(tree[start_box]):>9.4f} {float(greedy):>9.6f} "
                f"{float(greedy / optimum):>6.1%} {float(backed):>10.6f} {float(backed / optimum):>6.1%} {len(tree):>6}"
            )
    return 0


if __name__ == "__main__":
    main()  # no sys.exit: benchmarks/run.py runs the benchmarks one after another
