"""The shared harness of fnmcts's benchmarks: contenders interleaved, medians, ratios with their spread.

A benchmark file builds a ``Bench`` from its docstring and command line, then
asks it to ``compare`` contenders: callables that each do the same work
(``work`` units: games, dives, iterations, solves). The harness runs them in
rounds, every contender once a round, the order reversed every other round
(A B C, C B A, A B C, ...), so a change of load during the run falls on all
of them alike instead of on whichever ran last. It reports, for each
contender, the median time and rate, and against the baseline (the first
contender unless named) the median of the per-round ratios with their range:
a ratio measured in one round compares two runs a few seconds apart.

Every benchmark takes the same options:

    --quick       a small size and two rounds: a smoke test that the benchmark runs (the test suite runs it)
    --json        print one JSON document on standard output (the human report goes to standard error)
    --rounds N    rounds of each comparison (default: the benchmark's own, usually 5)

The load average is printed at the start and beside every comparison: on a
shared machine it says how far to trust the absolute rates (the ratios hold
better). ``python benchmarks/run.py`` runs every benchmark and can render the
README's Speed table from one run (``--markdown``).

>>> bench = Bench("demo", argv=["--rounds", "3"], out=io.StringIO())
>>> result = bench.compare("sum of a range", {"builtin sum": lambda: sum(range(1000)),
...                                           "a loop": lambda: _loop_sum(1000)}, work=1000, unit="numbers")
>>> [c["name"] for c in result["contenders"]], len(result["contenders"][1]["seconds"])
(['builtin sum', 'a loop'], 3)
>>> result["contenders"][0]["ratio"]["median"]
1.0
"""

from __future__ import annotations

import argparse
import datetime
import gc
import io  # noqa: F401  (the doctest writes its report into an io.StringIO)
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass

__all__ = ["Bench", "Measured", "load_average", "markdown_table", "interleaved_order", "export_package"]


@dataclass(frozen=True)
class Measured:
    """What a contender measured itself: ``seconds`` of the part that counts, and the ``work`` done in them.

    A contender returns one when only part of its call is the thing compared
    (the decisions of one player in a whole game, a child process's own timer)
    or when the work done is known only afterwards (iterations actually run).
    """

    seconds: float
    work: float | None = None


def load_average() -> tuple:
    """The 1, 5 and 15 minute load averages (``(nan, nan, nan)`` where the system has none).

    >>> len(load_average())
    3
    """
    try:
        return tuple(round(x, 2) for x in os.getloadavg())
    except (AttributeError, OSError):
        return (float("nan"),) * 3


def interleaved_order(names: list, rounds: int) -> list:
    """The order of the runs: every name once a round, every other round reversed (ABBA...).

    >>> interleaved_order(["a", "b", "c"], 3)
    [['a', 'b', 'c'], ['c', 'b', 'a'], ['a', 'b', 'c']]
    """
    return [list(names) if r % 2 == 0 else list(reversed(names)) for r in range(rounds)]


def _loop_sum(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def _spread(values: list) -> dict:
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


class Bench:
    """One benchmark's run: its options, its comparisons, its targets, and their report (text or JSON).

    ``options(parser)`` may add the benchmark's own arguments to the parser;
    they are in ``bench.args``. ``bench.quick`` says a smoke run was asked for:
    choose sizes with ``bench.size(full, quick)``.
    """

    def __init__(self, name: str, doc: str | None = None, argv=None, options=None, rounds: int = 5, out=None):
        summary = (doc or name).strip().splitlines()[0]
        parser = argparse.ArgumentParser(prog=name, description=summary)
        parser.add_argument("--quick", action="store_true", help="a small size and two rounds (a smoke test)")
        parser.add_argument("--json", action="store_true", help="print one JSON document on standard output")
        parser.add_argument("--rounds", type=int, default=None, help=f"rounds of each comparison (default {rounds})")
        if options is not None:
            options(parser)
        self.args = parser.parse_args(sys.argv[1:] if argv is None else argv)
        if self.args.rounds is not None and self.args.rounds < 1:
            parser.error("--rounds must be at least 1")
        self.name = name
        self.quick = self.args.quick
        self.rounds = self.args.rounds or (2 if self.quick else rounds)
        self._out = out if out is not None else (sys.stderr if self.args.json else sys.stdout)
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.result = {
            "benchmark": name,
            "summary": summary,
            "date": self.started.strftime("%Y-%m-%d %H:%M UTC"),
            "quick": self.quick,
            "rounds": self.rounds,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cores": os.cpu_count(),
            "load_at_start": load_average(),
            "comparisons": [],
            "figures": [],
            "targets": [],
            "notes": [],
        }
        load = self.result["load_at_start"]
        self.say(f"{name}: {summary}")
        self.say(f"  {self.result['date']}, Python {self.result['python']}, {os.cpu_count()} cores, "
                 f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}{' (quick)' if self.quick else ''}")

    # -- sizes and output ---------------------------------------------------------------

    def size(self, full, quick):
        """``quick`` in a smoke run, else ``full``."""
        return quick if self.quick else full

    def say(self, text: str = "") -> None:
        """A line of the human report (standard output, or standard error under ``--json``)."""
        print(text, file=self._out, flush=True)

    def note(self, text: str) -> None:
        """A remark kept with the results (and printed)."""
        self.result["notes"].append(text)
        self.say(text)

    # -- measuring ----------------------------------------------------------------------

    def compare(self, title: str, contenders: dict, *, work: float = 1, unit: str = "runs", baseline: str | None = None,
                rounds: int | None = None, warmup: int = 1, check=None, works: dict | None = None) -> dict:
        """Time ``contenders`` (name -> callable of no argument) in interleaved rounds; report and return the figures.

        Each call does ``work`` units (``works`` may give a contender its own);
        a call that returns a ``Measured`` gives its own seconds and work.
        ``warmup`` untimed calls of each come first (imports, caches a first
        call fills). ``check(results)`` receives every contender's last result
        by name and may raise when they disagree (the same seed must give the
        same answer, whoever computes it). The ratio is the contender's rate over
        the baseline's in the same round: above 1, faster than the baseline.
        """
        names = list(contenders)
        if not names:
            raise ValueError("compare needs at least one contender")
        base = baseline if baseline is not None else names[0]
        if base not in contenders:
            raise ValueError(f"the baseline {base!r} is not among the contenders {names}")
        works = dict(works or {})
        rounds = rounds or self.rounds
        load_before = load_average()
        last = {}
        for _ in range(warmup):
            for name in names:
                last[name] = contenders[name]()
        seconds = {name: [] for name in names}
        done = {name: [] for name in names}
        cpu = {name: [] for name in names}
        for order in interleaved_order(names, rounds):
            for name in order:
                gc.collect()
                wall, proc = time.perf_counter(), time.process_time()
                value = contenders[name]()
                wall, proc = time.perf_counter() - wall, time.process_time() - proc
                if isinstance(value, Measured):
                    wall = value.seconds
                    amount = value.work if value.work is not None else works.get(name, work)
                else:
                    amount = works.get(name, work)
                seconds[name].append(wall)
                cpu[name].append(proc)
                done[name].append(amount)
                last[name] = value
        if check is not None:
            check(last)
        load_after = load_average()
        rates = {n: [w / max(s, 1e-12) for w, s in zip(done[n], seconds[n])] for n in names}
        rows = []
        for name in names:
            ratios = [r / b for r, b in zip(rates[name], rates[base])]
            rows.append({
                "name": name,
                "baseline": name == base,
                "work": works.get(name, work),
                "seconds": [round(s, 6) for s in seconds[name]],
                "cpu_seconds": [round(s, 6) for s in cpu[name]],
                "median_seconds": statistics.median(seconds[name]),
                "rate": statistics.median(rates[name]),
                "ratio": {k: round(v, 4) for k, v in _spread(ratios).items()},
            })
        comparison = {"title": title, "unit": unit, "rounds": rounds, "baseline": base,
                      "load_before": load_before, "load_after": load_after, "contenders": rows}
        self.result["comparisons"].append(comparison)
        self._report(comparison)
        return comparison

    def _report(self, comparison: dict) -> None:
        rows = comparison["contenders"]
        width = max(len(r["name"]) for r in rows)
        unit = comparison["unit"]
        self.say(f"\n{comparison['title']}  ({comparison['rounds']} interleaved rounds; load "
                 f"{comparison['load_before'][0]:.2f} -> {comparison['load_after'][0]:.2f})")
        self.say(f"  {'':{width}}  {'median s':>10}  {unit + '/s':>14}  ratio to the baseline (range over rounds)")
        for r in rows:
            ratio = r["ratio"]
            spread = "baseline" if r["baseline"] else \
                f"{ratio['median']:6.2f}x  [{ratio['low']:.2f}, {ratio['high']:.2f}]"
            self.say(f"  {r['name']:{width}}  {r['median_seconds']:10.4f}  {_rate(r['rate']):>14}  {spread}")

    def figure(self, name: str, value, unit: str = "", note: str = "", show: bool = True) -> None:
        """A measured figure that is not a speed ratio (a strength, a count, a probability); ``show`` prints it."""
        self.result["figures"].append({"name": name, "value": value, "unit": unit, "note": note})
        if not show:
            return
        shown = f"{value:,.4g}" if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else value
        self.say(f"  {name}: {shown}{' ' + unit if unit else ''}{'  (' + note + ')' if note else ''}")

    def target(self, what: str, met: bool, measured: str) -> bool:
        """Record and print whether a target was met; ``measured`` says the figure it was judged on."""
        self.result["targets"].append({"target": what, "met": bool(met), "measured": measured,
                                       "quick": self.quick})
        verdict = "met" if met else "NOT met"
        self.say(f"target {what}: {verdict} ({measured}){' [quick run: sizes too small to judge]' if self.quick else ''}")
        return bool(met)

    def times_the_baseline(self, comparison: dict, what: str) -> float:
        """Report each contender's median time as times the baseline's, ``what`` naming the baseline; the first's.

        The figure returned is the first contender's: the median of its per-round
        ratios to the baseline, as a slowdown (2.0: twice the baseline's time).

        >>> bench = Bench("demo", argv=["--rounds", "3"], out=io.StringIO())
        >>> import time  # a 20 ms sleep: slower than a short sum however loaded the machine
        >>> result = bench.compare("sums", {"short": lambda: sum(range(10)), "long": lambda: time.sleep(0.02)})
        >>> bench.times_the_baseline(result, "a short sum") > 1
        True
        """
        bare = comparison["contenders"][0]["median_seconds"]
        for row in comparison["contenders"][1:]:
            self.figure(f"{row['name']}: times {what}", round(row["median_seconds"] / bare, 2), "x",
                        f"per round [{1 / row['ratio']['high']:.2f}, {1 / row['ratio']['low']:.2f}]")
        return 1 / comparison["contenders"][1]["ratio"]["median"]

    def finish(self) -> int:
        """Print the JSON document under ``--json``; the exit status (0)."""
        self.result["load_at_end"] = load_average()
        self.result["seconds"] = round((datetime.datetime.now(datetime.timezone.utc) - self.started).total_seconds(), 2)
        if self.args.json:
            json.dump(self.result, sys.stdout, indent=1)
            sys.stdout.write("\n")
            sys.stdout.flush()
        return 0



def export_package(base: str, into) -> bool:
    """The ``fnmcts`` package of git revision ``base`` written under the folder ``into``; False without git or it.

    For the benchmarks that time this tree against an earlier one, each in a process of its own.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     export_package("no-such-revision", folder)
    False
    """
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    try:
        archive = subprocess.run(["git", "-C", str(root), "archive", base, "fnmcts"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return (Path(into) / "fnmcts" / "__init__.py").is_file()

def _rate(rate: float) -> str:
    if rate >= 100:
        return f"{rate:,.0f}"
    if rate >= 1:
        return f"{rate:,.2f}"
    return f"{rate:.3g}"


def markdown_table(results: list) -> str:
    """The Speed table of the README: every comparison of ``results`` (benchmarks' JSON documents), dated.

    >>> doc = {"benchmark": "bench_demo", "date": "2026-01-01 00:00 UTC", "load_at_start": (1.0, 1.0, 1.0),
    ...        "comparisons": [{"title": "sums", "unit": "numbers", "load_before": (1.5, 1, 1), "load_after": (2.5, 1, 1),
    ...          "contenders": [{"name": "a", "baseline": True, "rate": 1000.0, "ratio": {"median": 1.0, "low": 1.0, "high": 1.0}},
    ...                         {"name": "b", "baseline": False, "rate": 2500.0, "ratio": {"median": 2.5, "low": 2.1, "high": 2.9}}]}]}
    >>> print(markdown_table([doc]))
    Measured 2026-01-01 00:00 UTC by `python benchmarks/run.py` (one run; load average 1.00 at its start).
    <BLANKLINE>
    | benchmark | comparison | contender | rate | ratio to the baseline (range) |
    |---|---|---|---|---|
    | bench_demo | sums (load 1.5-2.5) | a (baseline) | 1,000 numbers/s | 1.00 |
    | | | b | 2,500 numbers/s | 2.50 [2.10, 2.90] |
    """
    if not results:
        return "No benchmark results."
    first = results[0]
    lines = [
        f"Measured {first['date']} by `python benchmarks/run.py` (one run; load average "
        f"{first['load_at_start'][0]:.2f} at its start).",
        "",
        "| benchmark | comparison | contender | rate | ratio to the baseline (range) |",
        "|---|---|---|---|---|",
    ]
    targets = []
    for doc in results:
        shown_bench = doc["benchmark"]
        targets += [(doc["benchmark"], t) for t in doc.get("targets", [])]
        for comparison in doc.get("comparisons", []):
            load = f"load {comparison['load_before'][0]:.1f}-{comparison['load_after'][0]:.1f}"
            shown_title = f"{comparison['title']} ({load})"
            for row in comparison["contenders"]:
                ratio = row["ratio"]
                cell = "1.00" if row["baseline"] else \
                    f"{ratio['median']:.2f} [{ratio['low']:.2f}, {ratio['high']:.2f}]"
                name = f"{row['name']} (baseline)" if row["baseline"] else row["name"]
                lines.append(f"| {shown_bench} | {shown_title} | {name} | {_rate(row['rate'])} {comparison['unit']}/s "
                             f"| {cell} |")
                shown_bench = shown_title = ""
    if targets:
        lines += ["", "| benchmark | target | met | measured |", "|---|---|---|---|"]
        lines += [f"| {bench} | {t['target']} | {'yes' if t['met'] else '**no**'} | {t['measured']} |"
                  for bench, t in targets]
    return "\n".join(lines)
