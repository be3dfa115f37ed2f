"""What checking a user's game costs: the verbs on this tree against a base revision, interleaved.

    python benchmarks/bench_game_checks.py [--base REV] [--quick] [--json] [--rounds R]

Every verb now checks what a game returns where a walk first meets a state
(``fnmcts.protocol.GameError``) and counts the plies of every line of play
(``fnmcts.limits.NoEnd``). This benchmark runs the same work on this tree and
on ``--base`` (default ``main``; the revision is exported with ``git archive``
into a temporary folder), each in a child process of this Python with the
tree on ``PYTHONPATH``, timing its own work: the two are interleaved round by
round (``benchmarks/harness.py``), the base first, so the ratio is this tree's
time over the base's (1.10: ten percent slower).

The games are written as a user writes them, without fast kernels, so the
protocol is called on every ply: ``Race`` (take 1, 2 or 3 from 40; a die then
may take one more), solved, counted, searched, simulated, played in a
tournament and learned by Q-learning; and tic-tac-toe searched (a built-in
game: the graph, the compiled loop). Target: no verb more than 10% slower.
Without git or the base revision the benchmark says so and measures nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured, export_package as export  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ROLL = "roll"


def race_game():
    """``Race(heap)``, made in the child once ``fnmcts`` is importable from the tree under test."""
    from fnmcts import CHANCE, GameBase

    @dataclass(frozen=True)
    class Race(GameBase):
        heap: int = 40
        num_players = 2

        def start(self):
            return (self.heap, 0, "take")

        def to_move(self, state):
            heap, player, phase = state
            if heap == 0:
                return None
            return CHANCE if phase == ROLL else player

        def possible_moves(self, state):
            return () if state[2] == ROLL else tuple(m for m in (1, 2, 3) if m <= state[0])

        def chance_outcomes(self, state):
            return ((0, Fraction(1, 2)), (1, Fraction(1, 2))) if state[2] == ROLL else ()

        def play(self, state, move):
            heap, player, phase = state
            if phase == ROLL:
                return (max(0, heap - move), 1 - player, "take")
            left = heap - move
            return (left, player, ROLL) if left else (0, 1 - player, "take")

        def payoff(self, state):
            return (-1, 1) if state[1] == 0 else (1, -1)

    return Race


def work(name: str, size: int) -> float:
    """Seconds of the workload ``name`` at ``size``, on the ``fnmcts`` this process imports."""
    import random

    import fnmcts
    from fnmcts import qlearning

    assert Path(fnmcts.__file__).resolve().parent.parent == Path(os.environ["PYTHONPATH"]).resolve(), fnmcts.__file__
    from fnmcts.agents import random_agent
    from fnmcts.games import TicTacToe
    from fnmcts.testing.counts import count

    race = race_game()()
    runs = {
        "solve": lambda: [fnmcts.solve(race_game()(heap=40 + k)) for k in range(size)],
        "count": lambda: [count(race_game()(heap=40 + k)) for k in range(size)],
        "search": lambda: fnmcts.search(race, race.start(), 2_000 * size, random.Random(1)),
        "simulate": lambda: fnmcts.simulate(race, 2_000 * size, seed=1),
        "tournament": lambda: fnmcts.tournament(race, random_agent, random_agent, 500 * size, seed=1),
        "train": lambda: qlearning.train(200 * size, seed=1, game=race),
        "search tic-tac-toe": lambda: fnmcts.search(TicTacToe(), TicTacToe().start(), 2_000 * size, random.Random(1)),
    }
    started = time.perf_counter()
    runs[name]()
    return time.perf_counter() - started


WORKLOADS = ("solve", "count", "search", "simulate", "tournament", "train", "search tic-tac-toe")


def child(tree: Path, name: str, size: int) -> Measured:
    """The workload run in a new process whose ``fnmcts`` is the one under ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--child", name, "--size", str(size)], env=env,
                          capture_output=True, text=True, check=True, cwd=tree)
    return Measured(json.loads(done.stdout)["seconds"], 1)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--child" in argv:  # a child: run one workload on the fnmcts of PYTHONPATH, print its seconds
        sys.path.remove(str(ROOT))  # this file's own tree stays out of the way: the child's fnmcts is PYTHONPATH's
        name, size = argv[argv.index("--child") + 1], int(argv[argv.index("--size") + 1])
        print(json.dumps({"seconds": work(name, size)}))
        return 0
    bench = Bench("bench_game_checks", __doc__, argv, rounds=5,
                  options=lambda parser: parser.add_argument("--base", default="main", help="the revision to compare"))
    size = bench.size(3, 1)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        if not export(bench.args.base, base):
            bench.note(f"no revision {bench.args.base!r} to compare with (git archive failed): nothing measured")
            return bench.finish()
        worst = 1.0
        for name in WORKLOADS if not bench.quick else WORKLOADS[:1]:  # a smoke run: one verb, no warm-up
            comparison = bench.compare(
                f"{name} of a user's game" if "tic" not in name else name,
                {f"base ({bench.args.base})": lambda name=name: child(base, name, size),
                 "this tree": lambda name=name: child(ROOT, name, size)},
                unit="runs", warmup=0 if bench.quick else 1,
            )
            ratio = 1 / comparison["contenders"][1]["ratio"]["median"]  # this tree's time over the base's
            worst = max(worst, ratio)
            bench.figure(f"{name}: this tree's time over the base's", round(ratio, 3), "x")
        bench.target("no verb more than 10% slower than the base", worst <= 1.10, f"the slowest at {worst:.3f}x")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
