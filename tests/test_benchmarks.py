"""The benchmarks cannot rot: every one runs at its quick size, and the shared harness does what it says."""

from __future__ import annotations

import doctest
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

NOT_YET_ON_THE_HARNESS: set = set()
"""Benchmarks still timing on their own: each leaves this set when it moves onto benchmarks/harness.py."""


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


harness = _module("harness")
run = _module("run")

ALL = [p.stem for p in sorted(BENCHMARKS.glob("bench_*.py"))]
HARNESSED = [name for name in ALL if run.on_harness(BENCHMARKS / f"{name}.py")]


def test_every_benchmark_is_on_the_harness_or_known_not_yet():
    assert ALL, "no benchmark found"
    stray = sorted(set(ALL) - set(HARNESSED) - NOT_YET_ON_THE_HARNESS)
    assert not stray, f"benchmarks that time on their own: {stray}; measure them through benchmarks/harness.py"
    moved = sorted(NOT_YET_ON_THE_HARNESS & set(HARNESSED))
    assert not moved, f"{moved} now use the harness: take them out of NOT_YET_ON_THE_HARNESS"


@pytest.mark.slow
@pytest.mark.parametrize("name", HARNESSED)
def test_benchmark_runs_quick_and_reports_json(name):
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), "--quick", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    document = json.loads(done.stdout)
    assert document["benchmark"] == name and document["quick"] is True
    assert len(document["load_at_start"]) == 3
    assert document["comparisons"] or document["notes"], "a benchmark that measures nothing"
    for comparison in document["comparisons"]:
        baselines = [c for c in comparison["contenders"] if c["baseline"]]
        assert len(baselines) == 1 and baselines[0]["ratio"]["median"] == 1
        for contender in comparison["contenders"]:
            assert len(contender["seconds"]) == comparison["rounds"] >= 1
            assert contender["rate"] > 0 and math.isfinite(contender["rate"])
            ratio = contender["ratio"]
            assert 0 < ratio["low"] <= ratio["median"] <= ratio["high"]
    assert document["comparisons"][0]["title"] in done.stderr, "the human report goes to standard error"


@pytest.mark.slow
def test_the_harness_doctests():
    failures, tried = doctest.testmod(harness, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0


@given(st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=5, unique=True), st.integers(1, 8))
def test_interleaved_order_runs_everyone_once_a_round_alternating(names, rounds):
    order = harness.interleaved_order(names, rounds)
    assert len(order) == rounds
    for r, one in enumerate(order):
        assert sorted(one) == sorted(names)
        assert one == (names if r % 2 == 0 else names[::-1])


@settings(max_examples=20)
@given(st.lists(st.floats(0.001, 0.01), min_size=2, max_size=2), st.floats(0.5, 4), st.integers(1, 4))
def test_ratios_are_per_round_rates_against_the_baseline(base_times, speedup, rounds):
    """Fake contenders that report their own seconds: the ratio is exactly the speed-up given."""
    import io
    bench = harness.Bench("t", argv=["--rounds", str(rounds)], out=io.StringIO())
    calls = {"base": 0, "fast": 0}

    def seconds_of(name):  # round r of either contender: the same base time, whatever the order in the round
        t = base_times[calls[name] % 2]
        calls[name] += 1
        return t

    def baseline():
        return harness.Measured(seconds_of("base"))

    def contender():
        return harness.Measured(seconds_of("fast") / speedup, work=2)  # twice the work in 1/speedup of the time

    from unittest import mock

    with mock.patch.object(harness.gc, "collect", lambda: 0):  # a full collection a call: seconds in a test's heap
        result = bench.compare("fake", {"base": baseline, "fast": contender}, work=1, warmup=0)
    ratio = result["contenders"][1]["ratio"]
    assert ratio["low"] == pytest.approx(2 * speedup, rel=1e-3)
    assert ratio["high"] == pytest.approx(2 * speedup, rel=1e-3)
    assert result["contenders"][0]["ratio"] == {"median": 1.0, "low": 1.0, "high": 1.0}


@pytest.mark.slow
def test_a_check_that_fails_stops_the_comparison():
    import io
    bench = harness.Bench("t", argv=["--rounds", "1"], out=io.StringIO())

    def differ(results):
        raise AssertionError(f"disagree: {results}")

    with pytest.raises(AssertionError, match="disagree"):
        bench.compare("x", {"a": lambda: 1, "b": lambda: 2}, check=differ)


def test_a_bad_baseline_or_no_contender_is_refused():
    import io
    bench = harness.Bench("t", argv=[], out=io.StringIO())
    with pytest.raises(ValueError, match="baseline 'z'"):
        bench.compare("x", {"a": lambda: 1}, baseline="z")
    with pytest.raises(ValueError, match="at least one contender"):
        bench.compare("x", {})


def test_run_refuses_a_word_that_names_no_benchmark(capsys):
    with pytest.raises(SystemExit) as stop:
        run.main(["no-such-benchmark-word"])
    assert stop.value.code == 2
    assert "no benchmark's name contains no-such-benchmark-word" in capsys.readouterr().err


@pytest.mark.slow
def test_run_gathers_json_and_the_markdown_table(tmp_path):
    out, table = tmp_path / "all.json", tmp_path / "speed.md"
    done = subprocess.run([sys.executable, str(BENCHMARKS / "run.py"), "simulate", "--quick", "--json", str(out),
                           "--markdown", str(table)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(out.read_text())
    assert [d["benchmark"] for d in summary["benchmarks"]] == ["bench_simulate"] and summary["failed"] == []
    text = table.read_text()
    assert text.startswith("Measured ") and "| bench_simulate |" in text and "(baseline)" in text


def test_run_renders_the_table_of_a_saved_run_again(tmp_path, capsys):
    saved = tmp_path / "run.json"
    document = {"benchmark": "bench_x", "date": "2026-01-01 00:00 UTC", "load_at_start": [1.0, 1.0, 1.0],
                "comparisons": [], "targets": [{"target": "fast", "met": False, "measured": "0.5x"}]}
    saved.write_text(json.dumps({"benchmarks": [document]}))
    assert run.main(["--render", str(saved), "--markdown", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Measured 2026-01-01 00:00 UTC") and "| bench_x | fast | **no** | 0.5x |" in out


@pytest.mark.slow
def test_the_core_ab_counts_calls_on_both_trees_and_checks_their_trees():
    """``bench_core_ab --calls``: a count of calls on the base and on this tree, and the trees compared, no rounds."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_core_ab.py"), "--quick", "--json", "--calls",
                           "--workloads", "move_nim,search"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    document = json.loads(done.stdout)
    assert document["comparisons"] == [], "--calls times nothing"
    counted = [note for note in document["notes"] if " calls on " in note]
    assert [note.split(":")[0] for note in counted] == ["move_nim", "search"]
    for note in counted:
        base, here = (int(part.split()[-1].replace(",", "")) for part in
                      (note.split(" calls on ")[0], note.split(" calls on ")[1].split(", ")[1].split(" on ")[0]))
        assert base > 0 and here > 0
    assert "the same trees on both revisions, every workload and seed: met" in done.stderr
