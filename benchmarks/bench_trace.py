"""A trace of a search: the memory its dives and trees hold, and what keeping them costs in speed.

    python benchmarks/bench_trace.py [--dives 10000] [--quick] [--json] [--rounds R]

Memory, each figure measured in a fresh interpreter (so no earlier allocation
is reused): a ``trace`` of ``--dives`` dives (10,000) of tic-tac-toe from the
empty board, every tree kept, with the exact values beside its states, as
``fnmcts explore`` builds it. Two measures: the bytes ``tracemalloc`` sees
held after the trace is built (the game's own tables and the imports are made
before, by a trace of 20 dives), and the growth of the resident memory (RSS,
``/proc/self/statm``) over the same build, without tracemalloc. Target: a
trace of 10,000 dives fits in 100 MB, by both. Beside them: the library's
up-front estimate (``trace_bytes``, which ``trace`` refuses a budget by; it
counts the dives and trees, not the exact solution, which the solver's own
limit bounds) and, on five games at 2,000 dives without exact values, the
estimate against the bytes held (the estimate is an upper bound: a test
checks it at 400 dives).

Speed, in interleaved rounds on tic-tac-toe: ``uct`` one dive at a time
keeping every tree (the baseline: the phases, what a learner runs at the
REPL), ``trace`` (the same dives, each kept with its path, playout and
changes), and one batched ``search`` (nothing kept).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench  # noqa: E402

from fnmcts.games import Nim, Pig, ShutTheBox, TicTacToe  # noqa: E402
from fnmcts.mcts import search, uct  # noqa: E402
from fnmcts.views import trace, trace_bytes  # noqa: E402

GAMES = {
    "TicTacToe()": TicTacToe,
    "ShutTheBox()": ShutTheBox,
    "Nim(heap=21)": lambda: Nim(heap=21),
    "Pig(goal=20)": lambda: Pig(goal=20),
    "ShutTheBox(levers=12)": lambda: ShutTheBox(levers=12),
}


def _rss() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        import os

        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(game_name: str, dives: int, how: str) -> dict:
    """In this interpreter: the bytes a trace of ``dives`` holds, by ``how`` ('tracemalloc' or 'rss')."""
    import gc
    import tracemalloc

    from fnmcts.rng import make_rng

    game = GAMES[game_name]()
    exact = how != "tracemalloc-no-exact"
    trace(game, game.start(), 20, make_rng(2), exact=0)  # imports, the game's own tables
    gc.collect()
    if how.startswith("tracemalloc"):
        tracemalloc.start()
    before = _rss()
    kept = trace(game, game.start(), dives, make_rng(1), memory=None, **({} if exact else {"exact": 0}))
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] if how.startswith("tracemalloc") else _rss() - before
    return {"bytes": held, "dives": len(kept), "states": len(kept.tree()), "estimate": trace_bytes(game, game.start(), dives)}


def _measured(game_name: str, dives: int, how: str) -> dict:
    """``measure`` in a fresh interpreter."""
    done = subprocess.run([sys.executable, __file__, "--measure", game_name, str(dives), how],
                          capture_output=True, text=True, check=True, timeout=3_600)
    return json.loads(done.stdout)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        print(json.dumps(measure(argv[1], int(argv[2]), argv[3])))
        return 0

    def options(parser):
        parser.add_argument("--dives", type=int, default=10_000)

    bench = Bench("bench_trace", __doc__, argv, options=options, rounds=3)
    dives = bench.size(bench.args.dives, 300)
    mb = 10**6

    held = _measured("TicTacToe()", dives, "tracemalloc")
    rss = _measured("TicTacToe()", dives, "rss")
    bench.figure(f"TicTacToe(): bytes a trace of {dives:,} dives holds (tracemalloc)", round(held["bytes"] / mb, 1), "MB",
                 f"{held['bytes'] / dives:,.0f} bytes a dive; {held['states']:,} states in the last tree")
    bench.figure(f"TicTacToe(): resident memory a trace of {dives:,} dives adds (RSS)", round(rss["bytes"] / mb, 1), "MB")
    bench.figure(f"TicTacToe(): the up-front estimate for {dives:,} dives (trace_bytes)", round(held["estimate"] / mb, 1), "MB")
    bench.target(f"a trace of {dives:,} dives of tic-tac-toe fits in 100 MB (held and RSS)",
                 held["bytes"] <= 100 * mb and rss["bytes"] <= 100 * mb,
                 f"{held['bytes'] / mb:.1f} MB held, {rss['bytes'] / mb:.1f} MB RSS")
    others = bench.size(2_000, 100)
    for name in ("TicTacToe()", "ShutTheBox()", "Nim(heap=21)", "Pig(goal=20)", "ShutTheBox(levers=12)"):
        m = _measured(name, others, "tracemalloc-no-exact")
        bench.figure(f"{name}: bytes a dive held, against the estimate ({others:,} dives, no exact values)",
                     round(m["bytes"] / others), "bytes", f"estimate {m['estimate'] / others:,.0f} bytes a dive")
        bench.target(f"{name}: the estimate bounds the bytes held", m["bytes"] <= m["estimate"],
                     f"{m['bytes'] / others:,.0f} of {m['estimate'] / others:,.0f} bytes a dive")

    game = TicTacToe()
    start = game.start()
    speed = bench.size(2_000, 100)

    def by_uct():
        t, r, kept = {}, random.Random(1), []
        for _ in range(speed):
            t, _ = uct(game, t, start, r)
            kept.append(t)
        return t

    def by_trace():
        return trace(game, start, speed, random.Random(1), exact=0).tree()

    def by_search():
        return search(game, start, speed, random.Random(1), rule="tutorial")  # uct's and trace's rule

    def same(last):
        if not (last["uct, one dive a call, every tree kept"] == last["trace (exact values off)"]
                == last["one batched search"]):
            raise AssertionError("uct, trace and search grew different trees from the same seed")

    comparison = bench.compare(
        f"TicTacToe(): {speed:,} dives from the empty board",
        {"uct, one dive a call, every tree kept": by_uct, "trace (exact values off)": by_trace,
         "one batched search": by_search},
        work=speed, unit="dives", check=same,
    )
    ratio = comparison["contenders"][1]["ratio"]
    bench.figure("trace against uct one dive a call (dives a second)", round(ratio["median"], 2), "x",
                 f"[{ratio['low']:.2f}, {ratio['high']:.2f}]")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
