"""Speedup on 2 cores: simulate (10,000,000 games), a tournament, a root-parallel search; the same on Dask.

Each job runs three ways, its result checked equal every time (same seed, same
result, whatever runs it):

- serial: in this process (``executor=None``; for the search, ``workers=1``:
  the same chunks, one after the other);
- a process pool of 2 workers (``fnmcts.parallel.worker_pool(2)``), made once;
- a Dask ``distributed.LocalCluster`` of 2 worker processes (one thread each),
  started by the benchmark (its start-up time reported as its overhead).

Jobs: ``simulate(ShutTheBox(), 10_000_000)`` in chunks of 50,000; a tournament
of 400 games of ``mcts_agent(300, solver=False)`` against a random player on
Nim(21) in chunks of 25; ``mcts_move`` on Nim(heap=60, normal) with 400,000
dives, no solver, in chunks of 5,000. Target: >= 1.7x on 2 cores. The machine
is shared: medians of ``REPEATS`` runs, and the load average is printed.

    python benchmarks/bench_parallel.py [SCALE [REPEATS]]   # SCALE 1 (the sizes above), REPEATS 3
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from fnmcts.games import Nim, ShutTheBox
from fnmcts.mcts import mcts_agent, mcts_move
from fnmcts.montecarlo import simulate
from fnmcts.parallel import worker_pool
from fnmcts.matches import random_agent, tournament
from fnmcts.rng import make_rng

REPEATS = 3


def jobs(scale: float = 1.0):
    nim21, nim60 = Nim(heap=21, max_take=3), Nim(heap=60, max_take=3, misere=False)
    games = int(10_000_000 * scale)
    dives = int(400_000 * scale)
    matches = int(400 * scale)
    return {
        f"simulate Shut the Box, {games:,} games": lambda ex: simulate(
            ShutTheBox(), games, seed=1, chunk_size=50_000, executor=ex
        ),
        f"tournament, {matches} games of mcts_agent(300) vs random on Nim(21)": lambda ex: tournament(
            nim21, mcts_agent(300, solver=False), random_agent, matches, seed=1, executor=ex, chunk_size=25
        ),
        f"root-parallel mcts_move, {dives:,} dives on Nim(60)": lambda ex: mcts_move(
            nim60, nim60.start(), dives, make_rng(1), solver=False, chunk_size=5_000,
            **({"workers": 1} if ex is None else {"executor": ex}),
        ),
    }


def timed(fn, executor):
    started = time.perf_counter()
    result = fn(executor)
    return time.perf_counter() - started, result


def main(scale: float = 1.0, repeats: int = REPEATS) -> None:
    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()[0]:.2f}", flush=True)
    cluster = client = None
    try:
        import distributed

        started = time.perf_counter()
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
        client = distributed.Client(cluster)
        dask_start = time.perf_counter() - started
        print(f"Dask LocalCluster of 2 worker processes started in {dask_start:.2f} s (its overhead, once)", flush=True)
    except ImportError:
        print("distributed is not installed: the Dask column is skipped (pip install -e '.[dask]')")
    try:
        with worker_pool(2) as pool:
            for name, fn in jobs(scale).items():
                serial, pooled, dasked = [], [], []
                reference = None
                for _ in range(repeats):
                    t, result = timed(fn, None)
                    serial.append(t)
                    reference = result if reference is None else reference
                    assert result == reference
                    t, result = timed(fn, pool)
                    pooled.append(t)
                    assert result == reference, "the pool changed the result"
                    if client is not None:
                        t, result = timed(fn, client)
                        dasked.append(t)
                        assert result == reference, "Dask changed the result"
                s, p = statistics.median(serial), statistics.median(pooled)
                line = f"{name}: serial {s:.2f} s, 2 processes {p:.2f} s ({s / p:.2f}x)"
                if dasked:
                    d = statistics.median(dasked)
                    line += f", Dask 2 processes {d:.2f} s ({s / d:.2f}x; {d - p:+.2f} s against the pool)"
                print(line + f"; load {os.getloadavg()[0]:.2f}", flush=True)
    finally:
        if client is not None:
            client.close()
            cluster.close()


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0, int(sys.argv[2]) if len(sys.argv) > 2 else REPEATS)
