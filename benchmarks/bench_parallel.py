"""Speedup on 2 cores: simulate (10,000,000 games), a tournament, a root-parallel search; the same on Dask.

    python benchmarks/bench_parallel.py [--quick] [--json] [--rounds R] [--scale S] [--no-dask] [--jobs simulate,tournament,root]

Each job runs several ways, interleaved round by round (``benchmarks/harness.py``),
its result checked equal across the ways that must agree (same seed, same result,
whatever runs it):

- in this process (``executor=None``);
- a process pool of 2 workers (``fnmcts.parallel.worker_pool(2)``), made once;
- a Dask ``distributed.LocalCluster`` of 2 worker processes (one thread each),
  started by the benchmark (its start-up time reported as its overhead).

Jobs: ``simulate(ShutTheBox(), 10_000_000)`` in chunks of 50,000; a tournament
of 400 games of ``mcts_agent(300, solver=False)`` against a random player on
Nim(21) in chunks of 25; and the root-parallel search: ``mcts_move`` of
100,000 dives on tic-tac-toe, no solver, with ``workers=2`` (the library's own
pool, started at the first call and kept for the process; the default split of
``ROOT_TREES`` independent trees, each one worker's task for its whole share)
against a plain in-process search of the same 100,000 dives (one tree; the
baseline), against the same trees grown one after the other here
(``workers=1``, the same move and dives: checked), and against the old split of
20 trees of 5,000 dives (``chunk_size=5000``), where every tree regrows from
the root.
Job ``short``: searches of about a second, where root-parallel search must not
lose: ``mcts_move`` of 40,000 dives on the user's tic-tac-toe
(``bench_engine.UserTicTacToe``, the default options: the solver proves the root
sooner) and of 10,000 dives on OpenSpiel's connect_four through
``fnmcts.openspiel.from_openspiel``: the plain search (baseline) against
``workers=2`` with the default split (under ``ROOT_TREE_MIN`` dives a tree: one
tree, here) and against the split forced to 2 trees (``trees=2``).
Job ``overhead``: what each further tree of a root-parallel search costs. On
the user's tic-tac-toe (default options), ``workers=2``, the kept pool warm:
2 one-dive trees (``trees=2``) against 200 one-dive trees, the game and
options sent once per worker (``run_chunks``'s ``Shared``) and, interleaved
with it, sent with every tree as before (``fnmcts.parallel.shared`` made to
answer ``None`` for that contender alone); the per-tree figure is
(median of 200 trees - median of 2) / 198, and the same on OpenSpiel's
connect_four, whose game costs more to unpickle.
Job ``batch``: tree-parallel search (``mcts_move(..., batch=16)``) on
OpenSpiel's connect_four (``from_openspiel``), the solver off, ``--batch-dives``
dives (default 2,000): ``batch=16`` on 1 worker (the baseline: its playouts
run here), ``batch=16`` on 2 workers (the kept pool; the same tree, checked)
and the plain search, once with costly playouts (``rollout=decisive_agent``,
run in place on OpenSpiel's state, a few ms each) and once with the default
random ones (shorter than a round trip to a worker).
Targets: >= 1.7x on 2 cores for simulate and the tournament, >= 1.6x for the
root-parallel search over the plain search; ``workers=2`` on a short search at
least 0.95x the plain search.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

from fnmcts.games import Nim, ShutTheBox, TicTacToe  # noqa: E402
from fnmcts.matches import random_agent, tournament  # noqa: E402
from fnmcts.mcts import mcts_agent, mcts_move  # noqa: E402
from fnmcts.mcts._search import ROOT_TREES  # noqa: E402
from fnmcts.montecarlo import simulate  # noqa: E402
from fnmcts.parallel import worker_pool  # noqa: E402
from fnmcts.rng import make_rng  # noqa: E402


JOBS = ("simulate", "tournament", "root", "short", "overhead", "batch")


def _same(results: dict, names) -> None:
    values = [results[n] for n in names if n in results]
    if any(v != values[0] for v in values[1:]):
        raise AssertionError(f"the same seed gave different results: {dict(zip(names, values))}")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--scale", type=float, default=1.0, help="scale every job's size (default 1)")
        parser.add_argument("--batch-dives", type=int, default=2_000, help="dives of job batch (default 2,000)")
        parser.add_argument("--no-dask", action="store_true", help="skip the Dask column")
        parser.add_argument("--jobs", default=",".join(JOBS),
                            help=f"the jobs to run, comma-separated (default: all of {','.join(JOBS)})")

    bench = Bench("bench_parallel", __doc__, argv, options=options, rounds=3)
    jobs = [j.strip() for j in bench.args.jobs.split(",") if j.strip()]
    unknown = sorted(set(jobs) - set(JOBS))
    if unknown or not jobs:
        print(f"bench_parallel: --jobs takes some of {', '.join(JOBS)}, got {bench.args.jobs!r}", file=sys.stderr)
        return 2
    scale = bench.size(bench.args.scale, 0.01)
    client = cluster = None
    sim = match = root = None
    if not bench.args.no_dask and not bench.quick and ("simulate" in jobs or "tournament" in jobs):
        try:
            import distributed

            started = time.perf_counter()
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=40)
            client = distributed.Client(cluster)
            bench.figure("Dask LocalCluster of 2 worker processes started in", round(time.perf_counter() - started, 2),
                         "s", "its overhead, once")
        except ImportError:
            bench.note("distributed is not installed: the Dask column is skipped (pip install -e '.[dask]')")
    try:
        with worker_pool(2) as pool:
            ways = {"in this process": None, "2 processes": pool}
            if client is not None:
                ways["Dask, 2 processes"] = client
            games = max(1000, int(10_000_000 * scale))
            sim = None if "simulate" not in jobs else bench.compare(
                f"simulate Shut the Box, {games:,} games in chunks of 50,000",
                {name: (lambda ex=ex: simulate(ShutTheBox(), games, seed=1, chunk_size=50_000, executor=ex))
                 for name, ex in ways.items()},
                work=games, unit="games", check=lambda r: _same(r, list(ways)),
            )
            nim21 = Nim(heap=21, max_take=3)
            matches = max(20, int(400 * scale))
            match = None if "tournament" not in jobs else bench.compare(
                f"tournament, {matches} games of mcts_agent(300) against random on Nim(21), chunks of 25",
                {name: (lambda ex=ex: tournament(nim21, mcts_agent(300, solver=False), random_agent, matches,
                                                 seed=1, executor=ex, chunk_size=25))
                 for name, ex in ways.items()},
                work=matches, unit="games", check=lambda r: _same(r, list(ways)),
            )
        ttt = TicTacToe()
        dives = max(10_000, int(100_000 * scale))
        chunk = 5_000

        def search(**how):
            return mcts_move(ttt, ttt.start(), dives, make_rng(1), solver=False, **how)

        root = None if "root" not in jobs else bench.compare(
            f"mcts_move, {dives:,} dives on tic-tac-toe from the start, no solver",
            {"plain search in this process": lambda: search(),
             f"the same {ROOT_TREES} trees one after the other (workers=1)": lambda: search(workers=1),
             f"{-(-dives // chunk)} trees of {chunk:,} dives (chunk_size={chunk}), workers=2": lambda: search(
                 workers=2, chunk_size=chunk),
             f"root-parallel, workers=2 ({ROOT_TREES} trees, the default)": lambda: search(workers=2)},
            work=dives, unit="dives",
            check=lambda r: _same({k: (v.move, v.iterations) for k, v in r.items() if "default" in k or "one after" in k},
                                  [k for k in r if "default" in k or "one after" in k]),
        )
        shorts = [] if "short" not in jobs else _short_searches(bench, scale)
        if "overhead" in jobs:
            _tree_overhead(bench, scale)
        batches = [] if "batch" not in jobs else _batched(bench, bench.size(bench.args.batch_dives, 64))
    finally:
        if client is not None:
            client.close()
            cluster.close()
    for comparison, goal in ((sim, 1.7), (match, 1.7), (root, 1.6)):
        if comparison is None:
            continue
        row = comparison["contenders"][-1] if comparison is root else comparison["contenders"][1]
        ratio = row["ratio"]
        bench.target(f">= {goal}x on 2 cores: {comparison['title']}", ratio["median"] >= goal,
                     f"{row['name']}: {ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    for comparison in batches:
        row = comparison["contenders"][1]
        ratio = row["ratio"]
        bench.target(f">= 1.6x dives/s on 2 workers: {comparison['title']}", ratio["median"] >= 1.6,
                     f"{row['name']}: {ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    for comparison in shorts:
        row = comparison["contenders"][1]
        ratio = row["ratio"]
        bench.target(f">= 0.95x the plain search: {comparison['title']}", ratio["median"] >= 0.95,
                     f"{row['name']}: {ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    return bench.finish()


def _short_searches(bench, scale) -> list:
    """Searches of about a second: root-parallel ``workers=2`` against the plain search (job ``short``)."""
    from bench_engine import UserTicTacToe

    games = [("the user's tic-tac-toe (bench_engine.py), the default options", UserTicTacToe(), 40_000)]
    try:
        import pyspiel

        from fnmcts.openspiel import from_openspiel

        games.append(("OpenSpiel's connect_four (from_openspiel)", from_openspiel(pyspiel.load_game("connect_four")),
                      10_000))
    except ImportError:
        bench.note("pyspiel is not installed: connect_four is skipped (pip install -e '.[openspiel]')")
    out = []
    for title, game, dives in games:
        dives = max(1_000, int(dives * scale))

        def search(game=game, dives=dives, **how):
            return mcts_move(game, game.start(), dives, make_rng(1), **how)

        search(workers=2, trees=2)  # the kept pool started and its workers warm, outside the rounds
        out.append(bench.compare(
            f"mcts_move, {dives:,} dives on {title}",
            {"plain search in this process": search,
             "root-parallel, workers=2 (the default split)": lambda search=search: search(workers=2),
             "root-parallel, workers=2, trees=2": lambda search=search: search(workers=2, trees=2)},
            work=dives, unit="dives",
            check=lambda r: _same({k: (v.move, v.iterations) for k, v in r.items() if "default" in k}, [
                k for k in r if "default" in k]),
        ))
    return out


def _batched(bench, dives) -> list:
    """Job ``batch``: ``batch=16`` on 1 and 2 workers and the plain search, connect_four, two kinds of playout."""
    try:
        from fnmcts.openspiel import from_openspiel

        game = from_openspiel("connect_four")
    except ImportError:
        bench.note("OpenSpiel is not installed: job batch is skipped (pip install 'fnmcts[openspiel]')")
        return []
    from fnmcts.mcts.enhancements import decisive_agent

    out = []
    for playouts, rollout in (("decisive playouts (rollout=decisive_agent)", decisive_agent),
                              ("random playouts (the default)", None)):
        def run(rollout=rollout, **given):
            return lambda: mcts_move(game, game.start(), dives, make_rng(1), solver=False, rollout=rollout, **given)

        run(batch=16, workers=2)()  # the kept pool started, outside the rounds
        out.append(bench.compare(
            f"connect_four, {dives:,} dives, solver off, {playouts}",
            {"batch=16, 1 worker": run(batch=16, workers=1), "batch=16, 2 workers": run(batch=16, workers=2),
             "plain search (no batch)": run()},
            work=dives, unit="dives",
            check=lambda r: _same({k: dict(v.tree.pmap()) for k, v in r.items() if k.startswith("batch")},
                                  [k for k in r if k.startswith("batch")])))
    return out


def _sent_per_chunk(call):
    """``call()`` with the chunk function sent whole with every chunk (before ``Shared``)."""
    from fnmcts import parallel

    kept = parallel.shared
    parallel.shared = lambda fn, executor: None
    try:
        return call()
    finally:
        parallel.shared = kept


def _tree_overhead(bench, scale) -> None:
    """Job ``overhead``: the cost of each further one-dive tree on 2 workers, game and options sent once or per tree."""
    from bench_engine import UserTicTacToe

    games = [("the user's tic-tac-toe", UserTicTacToe())]
    try:
        import pyspiel

        from fnmcts.openspiel import from_openspiel

        games.append(("OpenSpiel's connect_four", from_openspiel(pyspiel.load_game("connect_four"))))
    except ImportError:
        bench.note("pyspiel is not installed: connect_four is skipped")
    many = max(20, int(200 * scale))
    for title, game in games:
        def trees(k, game=game):
            return mcts_move(game, game.start(), k, make_rng(1), workers=2, trees=k)

        trees(many)  # the kept pool started and its workers warm, outside the rounds
        found = bench.compare(
            f"root-parallel one-dive trees on {title}, workers=2", {
                "2 trees": lambda: trees(2),
                f"{many} trees, game and options sent once per worker": lambda: trees(many),
                f"{many} trees, sent with every tree (before)": lambda: _sent_per_chunk(lambda: trees(many))},
            work=1, unit="calls",
            check=lambda r: _same({k: (v.move, v.iterations) for k, v in r.items() if "trees," in k},
                                  [k for k in r if "trees," in k]),
        )
        rows = found["contenders"]
        for row in rows[1:]:  # per round: (that round's call - that round's 2 trees) / the further trees
            each = sorted((s - b) / (many - 2) * 1000 for s, b in zip(row["seconds"], rows[0]["seconds"]))
            bench.figure(f"{title}: each further tree, {row['name'].split(', ', 1)[1]}",
                         round(each[len(each) // 2], 3), "ms", f"range over rounds [{each[0]:.3f}, {each[-1]:.3f}]")


if __name__ == "__main__":
    sys.exit(main())
