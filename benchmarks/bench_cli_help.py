"""The cost of ``fnmcts --help``: a new process that prints the help, against a bare interpreter.

    python benchmarks/bench_cli_help.py [--quick] [--json] [--rounds R]

Contenders, interleaved round by round (``benchmarks/harness.py``), each a new
process timed from start to exit:

* a bare interpreter (``python -c pass``): the baseline;
* ``fnmcts --help`` (the console script beside this Python, else ``python -m fnmcts``);
* ``fnmcts search nim --help``: a verb's help, which builds that verb's parser.

Target: ``fnmcts --help`` at most 3 times a bare interpreter (the median of
the per-round ratios), so a class's first command answers at once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _fnmcts() -> list:
    """The command that runs fnmcts: the console script installed beside this Python, else ``python -m fnmcts``."""
    script = Path(sys.executable).parent / "fnmcts"
    return [str(script)] if script.exists() else [sys.executable, "-m", "fnmcts"]


def run(argv: list) -> None:
    subprocess.run(argv, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def main(argv=None) -> int:
    bench = Bench("bench_cli_help", __doc__, argv, rounds=7)
    fnmcts = _fnmcts()
    comparison = bench.compare(
        "a new process, start to exit",
        {"bare interpreter (pass)": lambda: run([sys.executable, "-c", "pass"]),
         "fnmcts --help": lambda: run([*fnmcts, "--help"]),
         "fnmcts search nim --help": lambda: run([*fnmcts, "search", "nim", "--help"])},
        unit="starts",
    )
    times = bench.times_the_baseline(comparison, "a bare interpreter")
    bench.target("fnmcts --help at most 3x a bare interpreter", times <= 3,
                 f"{times:.2f}x (median of the per-round ratios)")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
