"""Simulated games per second through the public ``simulate`` (tasks 7 and 8).

    python benchmarks/bench_simulate.py [--quick] [--json] [--rounds R]

Contenders interleaved in one run, on one core:
- a plain-Python bitmask loop with ``random.randint`` dice, the obvious hand-written version (the baseline);
- ``simulate`` of the simplified and of the full game;
- the reference ``play_game`` over frozenset boxes, game by game.
Target: at least 1,000,000 simplified games a second through ``simulate``
(and the same for the full game).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

from fnmcts.games.shut_the_box import ShutTheBox, play_game  # noqa: E402
from fnmcts.montecarlo import simulate  # noqa: E402


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


def main(argv=None) -> int:
    bench = Bench("bench_simulate", __doc__, argv)
    n = bench.size(1_000_000, 20_000)
    simplified, full = ShutTheBox(simplified=True), ShutTheBox()
    loop, frozen = n // 2, n // 10
    comparison = bench.compare(
        f"Shut the Box, games simulated by random play ({n:,} a call; the loops {loop:,} and {frozen:,})",
        {
            "plain bitmask loop, simplified": lambda: plain_bitmask_simplified(loop, random.Random(1)),
            "simulate, simplified": lambda: simulate(simplified, n, seed=1),
            "simulate, full": lambda: simulate(full, n, seed=1),
            "play_game over frozensets, full": lambda: [play_game(full.start(), rng)
                                                         for rng in [random.Random(1)] for _ in range(frozen)],
        },
        work=n, works={"plain bitmask loop, simplified": loop, "play_game over frozensets, full": frozen},
        unit="games",
    )
    rates = {row["name"]: row["rate"] for row in comparison["contenders"]}
    for name in ("simulate, simplified", "simulate, full"):
        bench.target(f"1,000,000 games/s for {name}", rates[name] >= 1_000_000, f"{rates[name]:,.0f} games/s")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
