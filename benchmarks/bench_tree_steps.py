"""Stepping through a search one dive at a time: the speed of a dive per call and the memory a kept tree costs.

    python benchmarks/bench_tree_steps.py [--records 1000] [--dives 300] [--quick] [--json] [--rounds R]

On tic-tac-toe from the empty board (the built-in ``TicTacToe`` and the one a
user writes, ``bench_engine.py``'s ``UserTicTacToe``), in interleaved rounds:

* the baseline: one batched ``search`` of 1,000 dives from the empty board;
* ``uct(game, tree, state, rng)``, one dive per call, continuing a tree of
  ``--records`` records (1,000), each tree kept;
* ``search(game, state, 1, rng, tree=t)``, the same one dive per call;
* ``phases.uct(game, tree, state, rng)``, the readable four phases (select,
  expand, simulate, backup on the records, reading the tree through the walk
  it carries), the same one dive per call: the step ``uct`` runs (issue 34),
  so the two rows measure the same code.

Targets: one dive per call at least 25% of the batched rate; at most 5 KB of
new memory per dive. The memory of a dive is the bytes reachable from the new
tree and not from the old one: a walk over ``gc.get_referents`` from each tree
(types, modules, functions and code objects are not followed), summing
``sys.getsizeof`` of every object the new tree reaches that the old one does
not; the figure is the mean over the dives, so 1,000 kept trees cost about a
thousand times it beyond the first.

Before issue 20 (main at e9a3fa4, measured the same way on a quiet machine):
``search(game, state, 1, rng, tree=t)`` ran at 0.5% of the batched rate and
made 410.5 KB of new memory a dive (no record shared); ``uct`` ran at 9.9%
and made 3.5 KB a dive.
"""

from __future__ import annotations

import gc
import random
import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import UserTicTacToe  # noqa: E402
from harness import Bench  # noqa: E402

from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.mcts import phases, search, ucb, uct  # noqa: E402
from fnmcts.mcts._search import _Work  # noqa: E402
from fnmcts.mcts.phases import _Walk  # noqa: E402

BEFORE = {
    "search": "0.5% of the batched rate, 410.5 KB a dive",
    "uct": "9.9% of the batched rate, 3.5 KB a dive",
}
"""Today's figures before issue 20 (main at e9a3fa4): what the new figures are printed beside."""

_NOT_FOLLOWED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                 types.CodeType, _Work, _Walk)
"""Not followed: code, the search's working copy and the phases' walk, which move from each tree to the next."""


def reachable(root, stop=frozenset()) -> tuple:
    """``(ids, bytes)``: the objects reachable from ``root`` that are not in ``stop``, and their sizes summed.

    >>> ids, size = reachable((1, (2, 3)))
    >>> len(ids), size == sys.getsizeof((1, (2, 3))) + sys.getsizeof((2, 3)) + sum(map(sys.getsizeof, (1, 2, 3)))
    (5, True)
    """
    seen, stack, size = set(), [root], 0
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or key in stop or isinstance(obj, _NOT_FOLLOWED):
            continue
        seen.add(key)
        size += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return seen, size


def new_bytes(trees) -> float:
    """The mean bytes each tree of ``trees`` reaches that the tree before it does not."""
    total = 0
    for old, new in zip(trees, trees[1:]):
        ids, _ = reachable(old)
        total += reachable(new, ids)[1]
    return total / max(1, len(trees) - 1)


def grown(game, records: int):
    """A tree of at least ``records`` records from the empty board, and the generator that grew it."""
    rng = random.Random(2)
    tree = search(game, game.start(), 1, rng, rule=ucb)
    while len(tree) < records:
        tree = search(game, game.start(), 100, rng, tree=tree, rule=ucb)
    return tree, rng


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--records", type=int, default=1_000)
        parser.add_argument("--dives", type=int, default=300)

    bench = Bench("bench_tree_steps", __doc__, argv, options=options)
    records = bench.size(bench.args.records, 200)
    steps = bench.size(bench.args.dives, 30)
    batch = bench.size(1_000, 200)
    big = bench.size(10_000, 6_000)  # enough dives to walk the 5,478 states whole: the compiled loop, with Numba
    for game in (TicTacToe(), UserTicTacToe()):
        name = type(game).__name__
        start = game.start()
        tree, rng = grown(game, records)

        def batched():
            return search(game, start, batch, random.Random(1), rule=ucb)

        def one_by_uct():
            t, r = tree, random.Random(3)
            for _ in range(steps):
                t, _ = uct(game, t, start, r)
            return t

        def one_by_search():
            t, r = tree, random.Random(3)
            for _ in range(steps):
                t = search(game, start, 1, r, tree=t, rule=ucb)
            return t

        def one_by_phases():
            t, r = tree, random.Random(3)
            for _ in range(steps):
                t, _ = phases.uct(game, t, start, r)
            return t

        def compiled():
            return search(game, start, big, random.Random(1), rule=ucb)

        comparison = bench.compare(
            f"{name}: one dive per call on a tree of {len(tree):,} records, against a batched search",
            {f"search of {batch:,} dives from the empty board": batched,
             "uct, one dive per call": one_by_uct,
             "search(game, state, 1, rng, tree=t), one dive per call": one_by_search,
             f"search of {big:,} dives (the graph walked whole, the compiled loop)": compiled,
             "phases.uct (the readable four phases), one dive per call": one_by_phases},
            works={f"search of {batch:,} dives from the empty board": batch,
                   f"search of {big:,} dives (the graph walked whole, the compiled loop)": big},
            work=steps, unit="dives",
            check=lambda last: _same(last["uct, one dive per call"],
                                     last["search(game, state, 1, rng, tree=t), one dive per call"],
                                     last["phases.uct (the readable four phases), one dive per call"]),
        )
        rows = comparison["contenders"]
        for row, key in zip(rows[1:3], ("uct", "search")):
            ratio = row["ratio"]
            bench.target(f"{name}: {row['name']} at least 25% of the batched rate", ratio["median"] >= 0.25,
                         f"{ratio['median']:.1%} [{ratio['low']:.1%}, {ratio['high']:.1%}]; before: {BEFORE[key]}")
        ratio = rows[4]["ratio"]
        bench.figure(f"{name}: the readable phases.uct, one dive per call, against the batched rate",
                     f"{ratio['median']:.1%} [{ratio['low']:.1%}, {ratio['high']:.1%}]",
                     note="the target uct must meet on the phases before it runs them (issue 34): 25%")
        rate = {row["name"]: row["ratio"]["median"] for row in rows}  # rates relative to the 1,000-dive search
        bench.figure(f"{name}: uct's one dive per call against the {big:,}-dive search (the compiled loop when "
                     "Numba is installed)", f"{rate['uct, one dive per call'] / rate[rows[3]['name']]:.1%}",
                     note="the other way of counting: a search long enough to walk the graph runs compiled")
        for key, step, copy in (("uct", lambda t, r: uct(game, t, start, r)[0], lambda t: [dict(t._walk), t._walk.moves]),
                                ("search", lambda t, r: search(game, start, 1, r, tree=t, rule=ucb),
                                 lambda t: [t._work.graph, t._work.stats])):
            kept, r = [tree], random.Random(4)
            for _ in range(bench.size(100, 10)):
                kept.append(step(kept[-1], r))
            per_dive = new_bytes(kept)
            held = [t for t in kept if (t._walk if key == "uct" else t._work) is not None]
            bench.figure(f"{name}: trees holding a working copy after {len(kept) - 1} dives by {key}", len(held),
                         note="the copy moves to the tree each call returns: only the newest holds it")
            bench.target(f"{name}: one working copy among the kept trees ({key})", held == kept[-1:], f"{len(held)}")
            bench.figure(f"{name}: the working copy's size ({key})", round(reachable(copy(held[-1]))[1] / 1024, 1),
                         "KB", note="held once, by the newest tree; not counted in the memory a dive")
            bench.figure(f"{name}: new memory a dive by {key} (tree of {len(tree):,} records)", round(per_dive / 1024, 2),
                         "KB", f"before: {BEFORE[key]}")
            bench.target(f"{name}: at most 5 KB of new memory a dive by {key}", per_dive <= 5 * 1024,
                         f"{per_dive / 1024:.2f} KB")
    return bench.finish()


def _same(a, b, c):
    if not a == b == c:
        raise AssertionError("uct, search of one dive and phases.uct grew different trees from the same generator")


if __name__ == "__main__":
    sys.exit(main())
