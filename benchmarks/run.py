"""Run every benchmark (``benchmarks/bench_*.py``) and print its figures.

    python benchmarks/run.py            # all of them
    python benchmarks/run.py simulate   # those whose name contains "simulate"

Each benchmark measures its baseline in the same run and prints ratios, so the
figures mean the same on a busy machine; quote medians.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    here = Path(__file__).parent
    for path in sorted(here.glob("bench_*.py")):
        if argv and not any(word in path.stem for word in argv):
            continue
        print(f"== {path.stem}", flush=True)
        try:
            runpy.run_path(str(path), run_name="__main__")
        except SystemExit as done:  # a benchmark may end with sys.exit(main())
            if done.code not in (None, 0):
                print(f"{path.stem} exited with status {done.code}")
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
