"""What the game laws cost a mutant: ``check_game`` on this tree against a base revision, interleaved.

    python benchmarks/bench_check_laws.py [--base REV] [--quick] [--json] [--rounds R]

A mutation run (``fnmcts mutate``) checks the laws once a mutant, so the
time of one ``check_game`` at its default 100 examples a law is the time a
mutant costs. This benchmark times it on the user tic-tac-toe
(``bench_engine.UserTicTacToe``, a 9-tuple, no fast kernels), which passes
every law as a surviving mutant does, and on a fixed sample of that game's
mutants (``fnmcts.testing.mutate.mutant_game``, every fifth), most of which a
law kills: their mean time is the time a mutant takes. Each workload runs on
this tree and on ``--base`` (default ``main``, exported with ``git archive``
into a temporary folder), in a child process of this Python with the tree on
``PYTHONPATH`` that times its own work; the two are interleaved round by round
(``benchmarks/harness.py``), base first, and the ratio is the base's time over
this tree's (2.0: twice as fast). The children also print each mutant's
verdict (the law that failed, or none): the benchmark fails if the two trees
disagree on one. Target: under 2 s a check of the game on a quiet machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench, Measured, export_package as export  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent


def work(name: str, size: int, examples: int) -> dict:
    """``{"seconds": ..., "verdicts": [...]}`` of the workload ``name``, on the ``fnmcts`` this process imports."""
    import fnmcts
    from fnmcts.testing import check_game
    from fnmcts.testing.mutate import mutant_game, mutants

    assert Path(fnmcts.__file__).resolve().parent.parent == Path(os.environ["PYTHONPATH"]).resolve(), fnmcts.__file__
    sys.path.append(str(HERE))  # after fnmcts is imported: bench_engine's own path insert cannot change it
    from bench_engine import UserTicTacToe

    game = UserTicTacToe()
    check_game(game, laws=["payoff_in_range"], max_examples=1)  # imports and first calls, untimed
    if name == "check":
        games = [game] * size
    else:
        games = [mutant_game(game, i) for i in range(0, len(mutants(game)), 5)][: 4 * size]
    verdicts = []
    started = time.perf_counter()
    for each in games:
        try:
            check_game(each, max_examples=examples)
            verdicts.append(None)
        except AssertionError as error:
            law, *rest = str(error).split("\n")  # the law's line names the game by its repr (an address)
            verdicts.append(" ".join([law.split(" fails for ")[0], *rest]))
    return {"seconds": time.perf_counter() - started, "verdicts": verdicts, "games": len(games)}


def child(tree: Path, name: str, size: int, examples: int, verdicts: dict) -> Measured:
    """The workload run in a new process whose ``fnmcts`` is the one under ``tree``; its verdicts kept by tree."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--child", name, "--size", str(size), "--examples", str(examples)],
                          env=env,
                          capture_output=True, text=True, check=True, cwd=tree)
    result = json.loads(done.stdout)
    verdicts.setdefault(str(tree), []).append(result["verdicts"])
    return Measured(result["seconds"], result["games"])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--child" in argv:  # a child: run one workload on the fnmcts of PYTHONPATH, print its seconds and verdicts
        sys.path.remove(str(HERE))
        name, size = argv[argv.index("--child") + 1], int(argv[argv.index("--size") + 1])
        print(json.dumps(work(name, size, int(argv[argv.index("--examples") + 1]))))
        return 0
    bench = Bench("bench_check_laws", __doc__, argv, rounds=5,
                  options=lambda parser: parser.add_argument("--base", default="main", help="the revision to compare"))
    size, examples = 1, bench.size(100, 3)  # check_game's default examples a law; a smoke run: 3
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        if not export(bench.args.base, base):
            bench.note(f"no revision {bench.args.base!r} to compare with (git archive failed): nothing measured")
            return bench.finish()
        agree = True
        for name in ("check", "mutants") if not bench.quick else ("check",):
            verdicts = {}
            comparison = bench.compare(
                "check_game of the user tic-tac-toe" if name == "check" else "check_game of its sampled mutants",
                {f"base ({bench.args.base})": lambda name=name: child(base, name, size, examples, verdicts),
                 "this tree": lambda name=name: child(ROOT, name, size, examples, verdicts)},
                unit="checks", warmup=0,
            )
            ours = comparison["contenders"][1]
            bench.figure(f"{name}: seconds a check on this tree (median)", round(1 / ours["rate"], 3), "s")
            runs = [json.dumps(run) for tree in verdicts.values() for run in tree]
            agree = agree and len(verdicts) == 2 and len(set(runs)) == 1
            if name == "mutants":
                killed = sum(v is not None for v in next(iter(verdicts.values()))[0])
                bench.figure("mutants sampled, killed by the laws (both trees)", killed, "",
                             f"of {len(next(iter(verdicts.values()))[0])}")
            if name == "check":
                seconds = 1 / ours["rate"]
                bench.target("a check of the user tic-tac-toe under 2 s (quiet machine)", seconds < 2,
                             f"{seconds:.2f} s median, load {os.getloadavg()[0]:.2f}")
        bench.target("the same verdict on every mutant and run, on both trees", agree,
                     "agree" if agree else "the verdicts differ")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
