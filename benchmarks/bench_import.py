"""The cost of ``import fnmcts``: a fresh interpreter that imports it, against a bare interpreter.

    python benchmarks/bench_import.py [--quick] [--json] [--rounds R]

Contenders, interleaved round by round (``benchmarks/harness.py``), each a new
process of this Python (``-c``), timed from start to exit:

* a bare interpreter (``pass``): the baseline;
* ``import fnmcts``;
* ``import fnmcts`` and a first call that needs the Shut the Box tables
  (``simulate(ShutTheBox(), 1, seed=1)``): what a first use pays.

Target: ``import fnmcts`` under 3 times a bare interpreter. The modules an
import must not load (multiprocessing, concurrent.futures, tqdm, pyspiel,
numpy) are listed after the run, from a child that imported fnmcts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("multiprocessing", "concurrent.futures", "tqdm", "pyspiel", "numpy", "distributed", "matplotlib")


def run(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def main(argv=None) -> int:
    bench = Bench("bench_import", __doc__, argv, rounds=15)
    comparison = bench.compare(
        "a new interpreter, start to exit",
        {"bare interpreter (pass)": lambda: run("pass"),
         "import fnmcts": lambda: run("import fnmcts"),
         "import fnmcts, then simulate Shut the Box once": lambda: run(
             "import fnmcts, fnmcts.games; fnmcts.simulate(fnmcts.games.ShutTheBox(), 1, seed=1)")},
        unit="starts",
    )
    times = bench.times_the_baseline(comparison, "a bare interpreter")
    bench.target("import fnmcts under 3x a bare interpreter", times < 3,
                 f"{times:.2f}x (median of the per-round ratios)")
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, json, fnmcts; print(json.dumps(sorted(sys.modules)))"],
        check=True, cwd=ROOT, capture_output=True, text=True,
    )
    modules = set(json.loads(loaded.stdout))
    heavy = [name for name in HEAVY if name in modules]
    bench.figure("modules import fnmcts loads", len(modules))
    bench.figure("heavy modules it loads", ", ".join(heavy) or "none", "", "of " + ", ".join(HEAVY))
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
