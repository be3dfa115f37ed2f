"""Simulated games per second through the public ``simulate`` (tasks 7 and 8).

Baselines measured in the same run, on one core:
- a plain-Python bitmask loop with ``random.randint`` dice, the obvious hand-written version;
- the reference ``play_game`` over frozenset boxes, game by game.
Target: at least 1,000,000 simplified games a second through ``simulate``
(and the same for the full game). Prints the median of several repeats.

    python benchmarks/bench_simulate.py
"""

from __future__ import annotations

import random
import statistics
import time

from fnmcts.games.shut_the_box import ShutTheBox, play_game
from fnmcts.montecarlo import simulate


def plain_bitmask_simplified(n: int, rng: random.Random) -> int:
    """Hand-written simplified game: levers 2..9 as bits, two randint dice."""
    randint = rng.randint
    wins = 0
    for _ in range(n):
        box = 0b111111110  # levers 2..9 (bit k = lever k)
        while box:
            bit = 1 << (randint(1, 6) + randint(1, 6))
            if box & bit:
                box ^= bit
            else:
                break
        else:
            wins += 1
    return wins


def rate(fn, n: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(n)
        times.append(time.perf_counter() - start)
    return n / statistics.median(times)


def main(repeats: int = 5) -> dict:
    n = 1_000_000
    figures = {}
    simplified, full = ShutTheBox(simplified=True), ShutTheBox()
    figures["simulate simplified"] = rate(lambda k: simulate(simplified, k, seed=1), n, repeats)
    figures["simulate full"] = rate(lambda k: simulate(full, k, seed=1), n, repeats)
    figures["baseline: plain bitmask loop, simplified"] = rate(
        lambda k: plain_bitmask_simplified(k, random.Random(1)), n // 2, repeats
    )
    figures["baseline: play_game over frozensets, full"] = rate(
        lambda k: [play_game(full.start(), rng) for rng in [random.Random(1)] for _ in range(k)], n // 10, repeats
    )
    baseline = figures["baseline: plain bitmask loop, simplified"]
    width = max(map(len, figures))
    print(f"{'':{width}}  games/s (median of {repeats})  ratio to the plain bitmask loop")
    for name, value in figures.items():
        print(f"{name:{width}}  {value:>12,.0f}  {value / baseline:6.2f}x")
    target = 1_000_000
    for name in ("simulate simplified", "simulate full"):
        verdict = "met" if figures[name] >= target else "NOT met"
        print(f"target {target:,} games/s for {name}: {verdict}")
    return figures


if __name__ == "__main__":
    main()
