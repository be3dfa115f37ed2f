"""The search core on this tree against a base revision: the same trees, and speed no worse.

    python benchmarks/bench_core_ab.py [--base REV] [--workloads a,b] [--quick] [--json] [--rounds R] [--calls]

A change to ``fnmcts/mcts/`` that only reshapes the code (the one-core
issue's rule) must grow the same trees and run no slower. This benchmark runs
each workload below on this tree and on ``--base`` (default ``main``,
exported with ``git archive`` into a temporary folder), each in a child
process of this Python with the tree on ``PYTHONPATH`` that warms up (imports,
the compiled twin's cache) and then times its own work; the two are
interleaved round by round (``benchmarks/harness.py``), base first, and the
ratio is the base's time over this tree's (above 1: this tree is faster).
Each child also prints a digest of what it grew (moves, visit counts, values):
the benchmark fails if the two trees differ in one. With ``--calls`` each
workload runs once on each tree under cProfile instead, and the benchmark
prints its count of Python calls on both: a figure no load changes (on a
shared machine a plain loop's time varies by a third from run to run).

The workloads, with the defaults unless named:

- ``search`` of 2,000 dives on tic-tac-toe (the engine, or its compiled twin);
- ``mcts_move`` of 2,000 dives on tic-tac-toe (MCTS-Solver and proofs), and on
  the user tic-tac-toe (a game through the protocol alone);
- ``search`` of 2,000 dives on Shut the Box (chance), on the compiled twin where it
  runs and in the Python loop (``search_chance_py``), ``mcts_move`` on Nim 21;
- ``mcts_move`` with RAVE (``rave=30``) and with score bounds on tic-tac-toe;
- 300 one-dive ``uct`` steps on tic-tac-toe, every tree kept (the readable step);
- ``mcts_move(..., batch=16)`` on tic-tac-toe, one worker.
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench, Measured, export_package as export  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

SLOWER = 0.95
"""A workload is slower on this tree when every round is, and its median ratio is below this: a round's noise on
this machine is a few hundredths either way."""

WORKLOADS = ("search", "move", "move_user", "search_chance", "search_chance_py", "move_nim", "move_rave", "move_bounds",
             "uct_steps", "move_batch")


def _workload(name: str, dives: int):
    """``(run, digest)``: a function of a seed that does the work once, and one that reads its result."""
    from fnmcts import mcts
    from fnmcts.games.nim import Nim
    from fnmcts.games.shut_the_box import ShutTheBox
    from fnmcts.games.tictactoe import TicTacToe
    from fnmcts.rng import make_rng

    sys.path.append(str(HERE))  # after fnmcts is imported: bench_engine's own path insert cannot change it
    from bench_engine import UserTicTacToe

    def counts(tree):
        return sorted((repr(s), repr(r)) for s, r in tree.items())[:200]

    def searched(game, **options):
        return lambda seed: mcts.search(game, game.start(), dives, make_rng(seed), **options), counts

    def moved(game, **options):
        def digest(found):
            return [repr(found.move), counts(found.tree)]
        return lambda seed: mcts.mcts_move(game, game.start(), dives, make_rng(seed), **options), digest

    def stepped(seed):
        game, rng, tree, trees = TicTacToe(), make_rng(seed), mcts.Tree(), []
        for _ in range(dives // 6):
            tree, _result = mcts.uct(game, tree, game.start(), rng)
            trees.append(tree)
        return trees[-1]

    return {
        "search": lambda: searched(TicTacToe()),
        "move": lambda: moved(TicTacToe()),
        "move_user": lambda: moved(UserTicTacToe()),
        "search_chance": lambda: searched(ShutTheBox()),
        "search_chance_py": lambda: (lambda seed: _python(searched(ShutTheBox())[0], seed), counts),
        "move_nim": lambda: moved(Nim(heap=21, max_take=3, misere=False)),
        "move_rave": lambda: moved(TicTacToe(), rave=30),
        "move_bounds": lambda: moved(TicTacToe(), bounds=True),
        "uct_steps": lambda: (stepped, counts),
        "move_batch": lambda: moved(TicTacToe(), batch=16),
    }[name]()


def _python(run, seed):
    """``run(seed)`` with the compiled loop switched off: ``dives`` in Python (the same tree)."""
    from fnmcts.mcts._kernel import switched_off

    with switched_off():
        return run(seed)


def work(name: str, dives: int, repeats: int, calls: bool = False) -> dict:
    """``{"seconds", "runs", "digest", "calls"}`` of the workload ``name`` on the ``fnmcts`` this process imports;
    ``calls``: the Python calls it made (cProfile's count, which no load changes; its seconds then mean little)."""
    import fnmcts

    assert Path(fnmcts.__file__).resolve().parent.parent == Path(os.environ["PYTHONPATH"]).resolve(), fnmcts.__file__
    run, digest = _workload(name, dives)
    run(0)  # imports, first calls and the compiled twin's cache: untimed
    profile = cProfile.Profile() if calls else None
    started = time.perf_counter()
    if profile is not None:
        profile.enable()
    results = [run(seed) for seed in range(1, repeats + 1)]
    if profile is not None:
        profile.disable()
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "runs": repeats, "digest": json.dumps([digest(r) for r in results], default=repr),
            "calls": pstats.Stats(profile).total_calls if profile is not None else None}


def child(tree: Path, name: str, dives: int, repeats: int, digests: dict, calls: dict | None = None) -> Measured:
    """The workload run in a new process whose ``fnmcts`` is the one under ``tree``; its digest kept by tree, and
    with ``calls`` (a dict) its count of calls too (``work``)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--child", name, "--dives", str(dives), "--repeats", str(repeats)]
                          + (["--calls"] if calls is not None else []), env=env, capture_output=True, text=True, cwd=tree)
    if done.returncode:
        raise RuntimeError(f"{name} on {tree} failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout)
    digests.setdefault(str(tree), set()).add(result["digest"])
    if calls is not None:
        calls[str(tree)] = result["calls"]
    return Measured(result["seconds"], result["runs"])


def _options(parser) -> None:
    parser.add_argument("--base", default="main", help="the revision to compare")
    parser.add_argument("--calls", action="store_true",
                        help="count each workload's Python calls on both trees, once, in place of the timed rounds "
                             "(cProfile: no load changes a count)")
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="the workloads to run, by name, comma-separated")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--child" in argv:  # a child: run one workload on the fnmcts of PYTHONPATH, print its seconds and digest
        sys.path.remove(str(HERE))
        value = lambda flag: argv[argv.index(flag) + 1]  # noqa: E731
        print(json.dumps(work(value("--child"), int(value("--dives")), int(value("--repeats")), "--calls" in argv)))
        return 0
    bench = Bench("bench_core_ab", __doc__, argv, rounds=5,
                  options=_options)
    dives, repeats = bench.size(2_000, 120), bench.size(5, 1)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        if not export(bench.args.base, base):
            bench.note(f"no revision {bench.args.base!r} to compare with (git archive failed): nothing measured")
            return bench.finish()
        same, slower = True, []
        names = [w for w in bench.args.workloads.split(",") if w]
        unknown = sorted(set(names) - set(WORKLOADS))
        if unknown:
            bench.note(f"no workload {unknown[0]!r}: the workloads are {', '.join(WORKLOADS)}")
            return 2
        for name in names:
            if name == "move_batch" and not (base / "fnmcts" / "mcts" / "batch.py").exists():
                bench.note(f"move_batch: the base {bench.args.base} has no batch= (fnmcts/mcts/batch.py): skipped")
                continue
            digests = {}
            if bench.args.calls:  # once each: a count of calls is the same in every round and under any load
                counted = {}
                for tree in (base, ROOT):
                    child(tree, name, dives, repeats, digests, counted)
                bench.note(f"{name}: {counted[str(base)]:,} calls on {bench.args.base}, {counted[str(ROOT)]:,} on this "
                           f"tree: {counted[str(ROOT)] / counted[str(base)]:.3f}x")
                same = same and len({d for ds in digests.values() for d in ds}) == 1
                continue
            comparison = bench.compare(
                f"{name}: {dives:,} dives, {repeats} seeds",
                {f"base ({bench.args.base})": lambda name=name: child(base, name, dives, repeats, digests),
                 "this tree": lambda name=name: child(ROOT, name, dives, repeats, digests)},
                unit="runs", warmup=0,
            )
            ratio = comparison["contenders"][1]["ratio"]
            if ratio["high"] < 1 and ratio["median"] < SLOWER:  # every round slower, and by more than the noise
                slower.append(f"{name} {ratio['median']:.2f}x")
            same = same and len(digests) == 2 and len({d for ds in digests.values() for d in ds}) == 1
        bench.target("the same trees on both revisions, every workload and seed", same,
                     "the same" if same else "the trees differ")
        bench.target(f"no workload slower in every round and below {SLOWER}x at the median", not slower,
                     ", ".join(slower) or f"none, load {os.getloadavg()[0]:.2f}")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
