"""Ctrl-C obeyed by ``fnmcts check``: SIGINT at random moments of a check, the time until the process has ended.

    python benchmarks/bench_check_interrupt.py [--quick] [--json] [--tries N] [--game SPEC]

Each try starts ``fnmcts check GAME`` (default ``tic-tac-toe``, 200 walks a
law: a check of about a minute) in its own process group, as a terminal runs
a job, waits a random time (uniform over 0.2-6 s from the start, seeded: every
phase of a check is hit, from the start-up and the time estimate to hypothesis's
walks, the exact solver and the agents' law), sends SIGINT to the group as
Ctrl-C does, and measures the time from the signal to the end of the process.
A try is obeyed when the process ended within 1 s with status 130 and one line
on standard error (no traceback, nothing "ignored"); once the check has begun
(after the start-up and the game's import) the walks done are reported too,
counted apart. Target: 30 of 30 tries obeyed.

The contender timed by the harness is a try itself (start, signal, end), so
the report carries the load; the figure that counts is the obedience count
and the worst time from the signal to the end.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 1.0  # seconds from Ctrl-C to the end of the process


def _terminal_job():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background shell ignores SIGINT: a terminal's job hears it


def one_try(game: str, examples: int, delay: float) -> dict:
    """Run ``fnmcts check GAME``, send SIGINT after ``delay`` seconds; what happened."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fnmcts", "check", game, "--examples", str(examples), "--force"], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_terminal_job, env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    time.sleep(delay)
    if process.poll() is not None:
        out, err = process.communicate()
        return {"delay": delay, "finished_first": True, "seconds": 0.0, "status": process.returncode, "ok": True}
    sent = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
    seconds = time.perf_counter() - sent
    lines = err.strip().splitlines()
    said = [line for line in lines if line.strip() and not line.startswith("fnmcts: checking ")]  # not the estimate
    ok = (seconds <= LIMIT and process.returncode == 130 and len(said) == 1 and "Traceback" not in err
          and "Exception ignored" not in err)
    return {"delay": round(delay, 3), "seconds": round(seconds, 3), "status": process.returncode, "ok": ok,
            "reported": "walks checked" in out or "walks checked" in err,
            "stderr": err[-400:] if not ok else "", "stdout": out[-300:] if not ok else ""}


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--tries", type=int, default=None, help="signals sent (default 30; quick: 2)")
        parser.add_argument("--game", default="tic-tac-toe", help="the game checked (default tic-tac-toe)")
        parser.add_argument("--examples", type=int, default=200, help="walks a law (default 200)")

    bench = Bench("bench_check_interrupt", __doc__, argv, options=options, rounds=1)
    tries = bench.args.tries or bench.size(30, 2)
    rng = random.Random(20261125)
    delays = [rng.uniform(0.2, bench.size(6.0, 1.5)) for _ in range(tries)]
    results = []

    def contender():
        result = one_try(bench.args.game, bench.args.examples, delays[len(results) % len(delays)])
        results.append(result)
        return Measured(result["seconds"], 1)

    bench.compare(f"Ctrl-C to the end of fnmcts check {bench.args.game}", {"a try": contender},
                  unit="tries", rounds=tries, warmup=0)
    signalled = [r for r in results if not r.get("finished_first")]
    obeyed = sum(r["ok"] for r in results)
    worst = max((r["seconds"] for r in signalled), default=0.0)
    times = sorted(r["seconds"] for r in signalled)
    bench.figure("tries", len(results))
    bench.figure("obeyed within 1 s (status 130, one line)", obeyed)
    bench.figure("of which reported the walks done (the check had begun)", sum(r["ok"] and r["reported"] for r in results))
    bench.figure("median seconds from Ctrl-C to the end", times[len(times) // 2] if times else 0.0, "s")
    bench.figure("worst seconds from Ctrl-C to the end", worst, "s")
    for result in results:
        if not result["ok"]:
            bench.note(f"not obeyed: {result}")
    bench.target(f"Ctrl-C obeyed in {len(results)} of {len(results)} tries", obeyed == len(results),
                 f"{obeyed} of {len(results)}, worst {worst:.2f} s")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
