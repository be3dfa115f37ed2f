"""MCTS on Shut the Box (task 11): dives per second and the learning curve.

    python benchmarks/bench_mcts_shut_the_box.py [--seed S] [--quick] [--json] [--rounds R]

Speed: ``uct`` one dive at a time on the persistent tree, and the batched
``search``, beside a baseline measured in the same run: the tutorial's
algorithm written plainly in Python with a mutable dict (frozenset boxes,
``possible_moves`` sets, ``max`` by ucb), as one would port the Clojure. The
contenders run in interleaved rounds (``benchmarks/harness.py``). Target: the
batched ``search`` at least 4x the baseline.

Learning: after 1,000 / 10,000 / 100,000 dives, the dives' own win rate (the
tutorial's measure), the exact win probability of the greedy policy read off
the tree (``exact.evaluate_policy``), the same for the expectimax read-off
(``backed_up_values``: the tree's states backed up with the exact dice
probabilities), and the optimum (``exact.solve``), for the faithful rule, for
UCB1 with a small exploration constant, and for UCB1 with the expectimax
backup (every record keeps a value backed up with the dice probabilities). The
tutorial gives no figure for either (its task 11 asks only that 10,000 dives win
more often than 1,000, and more often than random play).
"""

from __future__ import annotations

import math
import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench  # noqa: E402

from pyrsistent import pmap  # noqa: E402

from fnmcts.exact import evaluate_policy, random_policy, solve, value  # noqa: E402
from fnmcts.games.shut_the_box import ShutTheBox, dice_roll, play_game, possible_moves, start_box  # noqa: E402
from fnmcts.tutorial import uct  # noqa: E402
from fnmcts.mcts import search, ucb, ucb1, win_rate  # noqa: E402
from fnmcts.views import backed_up_values, greedy_policy  # noqa: E402


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


def _python(call):
    """``call()`` with the compiled loop switched off: ``dives`` in Python (the same tree)."""
    from fnmcts.mcts._kernel import switched_off

    with switched_off():
        return call()


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--seed", type=int, default=1)

    bench = Bench("bench_mcts_shut_the_box", __doc__, argv, options=options)
    seed = bench.args.seed
    game = ShutTheBox()
    one_by_one, batched, slow = bench.size(20_000, 2_000), bench.size(100_000, 5_000), bench.size(30_000, 2_000)

    def baseline():
        tree, rng = {}, random.Random(seed)
        for _ in range(one_by_one):
            _plain_uct(tree, start_box, rng)
        return tree

    def stepped():
        tree, rng = pmap(), random.Random(seed)
        for _ in range(one_by_one):
            tree, _ = uct(tree, start_box, rng)
        return tree

    contenders = {
        "plain mutable-dict port of the tutorial": baseline,
        "uct, one dive at a time, persistent tree": stepped,
        "search, batched": lambda: search(game, start_box, batched, random.Random(seed), rule=ucb),
        "search, batched, the Python loop": lambda: _python(
            lambda: search(game, start_box, batched, random.Random(seed), rule=ucb)),
        "search, ucb1 c=0.2, expectimax backup": lambda: search(game, start_box, slow, random.Random(seed),
                                                                rule=partial(ucb1, c=0.2), backup="expectimax",
                                                                solver=False),
    }
    works = {"search, batched": batched, "search, batched, the Python loop": batched,
             "search, ucb1 c=0.2, expectimax backup": slow}
    comparison = bench.compare("Shut the Box MCTS speed",
                               contenders, work=one_by_one, works=works, unit="dives")
    ratio = comparison["contenders"][2]["ratio"]
    bench.target("Shut the Box: batched search at least 4x the mutable-dict port of the tutorial's uct",
                 ratio["median"] >= 4, f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    python = comparison["contenders"][3]["ratio"]
    bench.figure("Shut the Box: the batched search in the Python loop",
                 f"{python['median']:.2f}x [{python['low']:.2f}, {python['high']:.2f}]", "the mutable-dict port")

    optimum = value(solve(game), start_box)[0]
    random_value = value(evaluate_policy(game, random_policy), start_box)[0]
    bench.say(f"\nLearning curve, seed {seed}: optimum {float(optimum):.6f}, random play {float(random_value):.6f}")
    bench.say(f"  {'rule':<30} {'dives':>8} {'win rate':>9} {'greedy':>9} {'% opt':>6} {'expectimax':>10} {'% opt':>6} {'states':>6}")
    for name, rule, backup in (
        ("tutorial ucb z=2", ucb, "mean"),
        ("ucb1 c=0.2", partial(ucb1, c=0.2), "mean"),
        ("ucb1 c=0.2, expectimax backup", partial(ucb1, c=0.2), "expectimax"),
    ):
        tree, rng, done = pmap(), random.Random(seed), 0
        for dives in bench.size((1_000, 10_000, 100_000), (1_000,)):
            tree = search(game, start_box, dives - done, rng, tree=tree, rule=rule, backup=backup, solver=False)
            done = dives
            greedy = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
            backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree))), start_box)[0]
            bench.say(
                f"  {name:<30} {dives:>8,} {win_rate(tree[start_box]):>9.4f} {float(greedy):>9.6f} "
                f"{float(greedy / optimum):>6.1%} {float(backed):>10.6f} {float(backed / optimum):>6.1%} {len(tree):>6}"
            )
            bench.figure(f"{name}, {dives:,} dives: greedy policy / optimum", round(float(greedy / optimum), 4),
                         show=False)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
