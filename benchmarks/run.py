"""Run every benchmark (``benchmarks/bench_*.py``), each in its own process, and gather their figures.

    python benchmarks/run.py                         # all of them (more than an hour on two cores)
    python benchmarks/run.py simulate exact          # those whose name contains a word given
    python benchmarks/run.py --quick                 # every benchmark at a small size: a smoke test
    python benchmarks/run.py ladder                  # the decisive-games ladder (hours: run only when named)
    python benchmarks/run.py --json results.json     # every figure, machine-readable, in one file
    python benchmarks/run.py --markdown speed.md     # the Speed table of this run (docs/speed.md), dated
    python benchmarks/run.py --render results.json --markdown -   # that table again from a saved run

Each benchmark runs in a fresh interpreter (so one benchmark's imports and
caches never help the next) and measures its contenders interleaved, round by
round, against a baseline of the same run (``benchmarks/harness.py``); quote
the medians and the ratios. A benchmark not yet on the harness runs as it is,
and its text is kept.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import load_average, markdown_table  # noqa: E402


ON_REQUEST = ("bench_ladder",)
"""Benchmarks whose full size takes hours: a run without words leaves them out unless ``--quick``."""


def benchmarks(words=(), quick: bool = True) -> list:
    """The benchmark files, sorted, keeping those whose name contains one of ``words``.

    With no words, all of them; but those ``ON_REQUEST`` only at the quick size.
    """
    paths = sorted(HERE.glob("bench_*.py"))
    if not words:
        return [p for p in paths if quick or p.stem not in ON_REQUEST]
    return [p for p in paths if any(w in p.stem for w in words)]


def on_harness(path: Path) -> bool:
    """Whether the benchmark at ``path`` measures through the shared harness (takes --quick and --json)."""
    return "from harness import" in path.read_text(encoding="utf-8")


def run_one(path: Path, quick: bool, as_json: bool):
    """Run one benchmark in its own interpreter: ``(exit status, its JSON document or None)``."""
    command = [sys.executable, str(path)]
    harnessed = on_harness(path)
    if harnessed:
        command += (["--quick"] if quick else []) + (["--json"] if as_json else [])
    if as_json and harnessed:
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True)  # the report streams on stderr
        try:
            document = json.loads(done.stdout) if done.returncode == 0 else None
        except json.JSONDecodeError:
            document = None
        if done.returncode == 0 and document is None:
            print(f"{path.stem} printed no JSON document", file=sys.stderr)
            return 1, None
        return done.returncode, document
    done = subprocess.run(command)
    return done.returncode, None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="*", help="run only benchmarks whose name contains one of these")
    parser.add_argument("--quick", action="store_true", help="every benchmark at a small size (a smoke test)")
    parser.add_argument("--json", metavar="FILE", help="write every benchmark's figures to FILE as one JSON document")
    parser.add_argument("--markdown", metavar="FILE", help="write the Speed table of this run to FILE ('-': print it)")
    parser.add_argument("--render", metavar="FILE", help="run nothing: the table of a run saved with --json FILE")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.render:
        saved = json.loads(Path(args.render).read_text(encoding="utf-8"))
        table = markdown_table(saved["benchmarks"])
        if args.markdown and args.markdown != "-":
            Path(args.markdown).write_text(table + "\n", encoding="utf-8")
        else:
            print(table)
        return 0
    paths = benchmarks(args.words, args.quick)
    if not paths:
        parser.error(f"no benchmark's name contains {' or '.join(args.words)}")
    gather = bool(args.json or args.markdown)
    load = load_average()
    print(f"{len(paths)} benchmarks; load average at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
          file=sys.stderr, flush=True)
    documents, failed = [], []
    for path in paths:
        print(f"== {path.stem}", file=sys.stderr, flush=True)
        status, document = run_one(path, args.quick, gather)
        if status != 0:
            failed.append(path.stem)
            print(f"{path.stem} exited with status {status}", file=sys.stderr, flush=True)
        if document is not None:
            documents.append(document)
        print(file=sys.stderr, flush=True)
    if args.json:
        summary = {"load_at_start": load, "load_at_end": load_average(), "quick": args.quick,
                   "failed": failed, "benchmarks": documents}
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.markdown:
        table = markdown_table(documents)
        if args.markdown == "-":
            print(table)
        else:
            Path(args.markdown).write_text(table + "\n", encoding="utf-8")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
