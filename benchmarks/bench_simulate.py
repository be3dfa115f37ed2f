"""Simulated games per second through the public ``simulate`` (tasks 7 and 8), and its batch path.

    python benchmarks/bench_simulate.py [--quick] [--json] [--rounds R]

Contenders interleaved in one run, on one core:
- a plain-Python bitmask loop with ``random.randint`` dice, the obvious hand-written version (the baseline);
- ``simulate`` of the simplified and of the full game (the game's own kernel, draw for draw the reference loop);
- ``simulate(..., batch=True)`` of the full game: random play in numpy arrays (the ``batch`` extra);
- a C bitmask loop of the full game (random play, two dice, a xorshift generator), compiled with the
  machine's ``gcc -O2`` when the benchmark starts (skipped without gcc): the floor any Python path is
  measured against; its own clock times its loop;
- the reference ``play_game`` over frozenset boxes, game by game.
Targets: at least 1,000,000 simplified games a second through ``simulate`` (and the same for the
full game); the batch path within 8x of the C loop.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

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


C_LOOP = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint64_t s;
static inline uint64_t next(void) { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 2685821657736338717ULL; }
static inline double uniform(void) { return (next() >> 11) * (1.0 / 9007199254740992.0); }
static int count[512][13], kids[512][13][16];
int main(int argc, char **argv) {
    long n = atol(argv[1]), wins = 0;
    s = strtoull(argv[2], 0, 10) * 2654435761ULL + 1;
    for (int m = 0; m < 512; m++)
        for (int sub = 1; sub < 512; sub++) {
            if ((m & sub) != sub) continue;
            int sum = 0;
            for (int b = 0; b < 9; b++) if (sub >> b & 1) sum += b + 1;
            if (sum <= 12) kids[m][sum][count[m][sum]++] = m ^ sub;
        }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long g = 0; g < n; g++) {
        int m = 511;
        while (m) {
            int roll = (int)(uniform() * 6) + (int)(uniform() * 6) + 2, c = count[m][roll];
            if (!c) break;
            m = kids[m][roll][(int)(uniform() * c)];
        }
        wins += !m;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%ld %.9f\n", wins, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return 0;
}
"""
"""Random play of the full game (levers 1 to 9 as bits, two dice), the same rules as ``simulate``'s."""


def c_loop(folder: Path):
    """The C loop, compiled into ``folder`` with gcc -O2: ``run(n, seed) -> Measured``, or None without gcc."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    source, binary = folder / "stb.c", folder / "stb"
    source.write_text(C_LOOP)
    subprocess.run([gcc, "-O2", "-o", str(binary), str(source)], check=True)

    def run(n: int, seed: int) -> Measured:
        done = subprocess.run([str(binary), str(n), str(seed)], check=True, capture_output=True, text=True)
        wins, seconds = done.stdout.split()
        return Measured(float(seconds), n)

    return run


def main(argv=None) -> int:
    bench = Bench("bench_simulate", __doc__, argv)
    n = bench.size(1_000_000, 20_000)
    simplified, full = ShutTheBox(simplified=True), ShutTheBox()
    loop, frozen = n // 2, n // 10
    with tempfile.TemporaryDirectory() as folder:
        c = c_loop(Path(folder))
        contenders = {
            "plain bitmask loop, simplified": lambda: plain_bitmask_simplified(loop, random.Random(1)),
            "simulate, simplified": lambda: simulate(simplified, n, seed=1),
            "simulate, full": lambda: simulate(full, n, seed=1),
            "simulate(batch=True), full": lambda: simulate(full, n, seed=1, batch=True),
            "play_game over frozensets, full": lambda: [play_game(full.start(), rng)
                                                         for rng in [random.Random(1)] for _ in range(frozen)],
        }
        if c is not None:
            contenders["C bitmask loop, full (gcc -O2)"] = lambda: c(10 * n, 1)
        else:
            bench.note("gcc is not on this machine: the C loop is skipped")
        comparison = bench.compare(
            f"Shut the Box, games simulated by random play ({n:,} a call; the loops {loop:,} and {frozen:,}, C {10 * n:,})",
            contenders,
            work=n, works={"plain bitmask loop, simplified": loop, "play_game over frozensets, full": frozen},
            unit="games",
        )
    rows = {row["name"]: row for row in comparison["contenders"]}
    rates = {name: row["rate"] for name, row in rows.items()}
    for name in ("simulate, simplified", "simulate, full"):
        bench.target(f"1,000,000 games/s for {name}", rates[name] >= 1_000_000, f"{rates[name]:,.0f} games/s")
    if c is not None:
        c_name = "C bitmask loop, full (gcc -O2)"
        times = rows[c_name]["ratio"]["median"] / rows["simulate(batch=True), full"]["ratio"]["median"]
        bench.figure("the C loop / simulate(batch=True), full game", round(times, 2), "x",
                     f"the reference path: {rates[c_name] / rates['simulate, full']:.1f}x")
        bench.target("simulate(batch=True) within 8x of the C loop", times <= 8, f"{times:.2f}x slower")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
