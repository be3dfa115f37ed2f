"""``--executor KIND`` on the commands that run many independent pieces: parsed, refused in one line, same results."""

import argparse
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from cli_run import run, run_json
from executor_matrix import BIN, dask_cluster, free_port, need, need_command
from fnmcts.cli import _executor
from fnmcts.cli._common import MAX_WORKERS
from fnmcts.cli._executor import Spec, executor_spec

VERBS = [
    ("simulate", "coin"),
    ("simulate", "shut-the-box"),
    ("tournament", "nim", "random", "random"),
    ("tournament", "any", "random", "random", "--game", "nim(heap=5)"),
    ("train", "nim", "-o", "-"),
    ("search", "nim", "--trees", "4"),
    ("search", "any", "--game", "nim(heap=5)", "--trees", "4"),
    ("move", "tic-tac-toe", "--ai", "mcts", "--trees", "4"),
    ("move", "any", "--game", "nim(heap=5)", "--trees", "4"),
    ("mutate", "nim"),
]
"""A command line of each verb that takes ``--executor``."""


@pytest.mark.parametrize(
    "text, spec",
    [
        ("processes:3", Spec("processes", 3)),
        ("dask:local:2", Spec("dask-local", 2)),
        ("dask:tcp://127.0.0.1:8786", Spec("dask", "tcp://127.0.0.1:8786")),
        ("dask:tcp://scheduler.example:8786/", Spec("dask", "tcp://scheduler.example:8786")),
        ("dask:tls://10.1.2.3:8786", Spec("dask", "tls://10.1.2.3:8786")),
        ("ray", Spec("ray")),
        ("mpi", Spec("mpi")),
    ],
)
def test_each_kind_parses(text, spec):
    assert executor_spec(text) == spec


@given(st.integers(1, MAX_WORKERS), st.integers(1, 65535))
def test_any_count_and_port_parse_to_themselves(workers, port):
    assert executor_spec(f"processes:{workers}") == Spec("processes", workers)
    assert executor_spec(f"dask:local:{workers}") == Spec("dask-local", workers)
    assert executor_spec(f"dask:tcp://host:{port}") == Spec("dask", f"tcp://host:{port}")


@pytest.mark.parametrize("argv", VERBS, ids=lambda argv: " ".join(argv[:2]))
def test_every_verb_that_fans_out_takes_the_option(argv):
    from fnmcts.cli import build

    args = build().parser.parse_args([*argv, "--executor", "dask:local:2"])
    assert args.executor == Spec("dask-local", 2)


@pytest.mark.parametrize(
    "text, line",
    [
        ("spark", "unknown executor 'spark': give processes:N, dask:local:N, dask:tcp://HOST:PORT, ray or mpi"),
        ("processes", "unknown executor 'processes': give processes:N"),
        ("ray:2", "unknown executor 'ray:2'"),
        ("processes:0", "bad executor 'processes:0': expected a positive number, got '0'"),
        ("dask:local:two", "bad executor 'dask:local:two': expected a positive whole number, got 'two'"),
        (f"processes:{MAX_WORKERS + 1}", f"bad executor 'processes:{MAX_WORKERS + 1}': at most {MAX_WORKERS} worker"),
        ("dask:tcp://127.0.0.1:99999", "bad Dask scheduler address 'tcp://127.0.0.1:99999': expected tcp://HOST:PORT"),
        ("dask:tcp://127.0.0.1", "bad Dask scheduler address 'tcp://127.0.0.1'"),
        ("dask:tcp://:8786", "bad Dask scheduler address 'tcp://:8786'"),
        ("dask:http://127.0.0.1:8786", "bad Dask scheduler address 'http://127.0.0.1:8786'"),
        ("dask:tcp://127.0.0.1:port", "bad Dask scheduler address 'tcp://127.0.0.1:port'"),
        ("dask:tcp://127.0.0.1:8786/path", "bad Dask scheduler address 'tcp://127.0.0.1:8786/path'"),
    ],
)
@pytest.mark.slow
def test_a_bad_kind_or_address_is_one_line_and_status_2(capsys, text, line):
    with pytest.raises(argparse.ArgumentTypeError, match="^" + line.replace("(", r"\(").replace("?", r"\?")):
        executor_spec(text)
    code, out, err = run(capsys, "simulate", "coin", "--games", "10", "--executor", text)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and line in err and "Traceback" not in err


def test_workers_and_executor_together_are_refused(capsys):
    code, out, err = run(capsys, "simulate", "coin", "--games", "10", "--workers", "2", "--executor", "processes:2")
    assert (code, out) == (2, "")
    assert err == "fnmcts: error: give --workers N or --executor KIND, not both (--workers N is --executor processes:N)\n"


def test_no_scheduler_at_the_address_is_one_line(capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(_executor, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    code, out, err = run(capsys, "simulate", "coin", "--games", "10", "--executor", f"dask:{address}")
    assert (code, out) == (2, "")
    assert err.startswith(f"fnmcts: error: no Dask scheduler answers at {address} (") and err.count("\n") == 1


@pytest.mark.parametrize("kind, package", [("mpi", "mpi4py"), ("ray", "ray")])
def test_a_missing_package_or_mpiexec_is_one_line(capsys, monkeypatch, kind, package):
    """Without its package the kind names the extra; mpi outside mpiexec says how to start it."""
    monkeypatch.setitem(sys.modules, package, None)  # as if it were not installed
    code, out, err = run(capsys, "simulate", "coin", "--games", "10", "--executor", kind)
    assert (code, out) == (2, "")
    assert err == f"fnmcts: error: --executor needs {'mpi4py (and an MPI such as OpenMPI)' if kind == 'mpi' else 'Ray'}: " \
                  f"pip install 'fnmcts[cluster]'\n"


@pytest.mark.slow  # mpi4py comes with the cluster extra, which CI installs for the slow step
def test_mpi_outside_mpiexec_says_how_to_start_it():
    need("mpi4py", "pip install 'fnmcts[cluster]'")
    done = subprocess.run([str(BIN / "fnmcts"), "simulate", "coin", "--games", "10", "--executor", "mpi"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith(
        "fnmcts: error: --executor mpi runs under mpiexec: mpiexec -n 3 python -m mpi4py.futures -m fnmcts ... --executor mpi\n"
    )


@pytest.mark.slow
def test_processes_give_what_workers_give(capsys):
    argv = ("simulate", "shut-the-box", "--games", "120000", "--seed", "5")
    serial = run_json(capsys, *argv)
    assert run_json(capsys, *argv, "--executor", "processes:2") == serial == run_json(capsys, *argv, "--workers", "2")
    argv = ("tournament", "tic-tac-toe", "mcts", "random", "--games", "300", "--seed", "2", "--iterations", "10")
    assert run_json(capsys, *argv, "--executor", "processes:2") == run_json(capsys, *argv)


@pytest.mark.slow
def test_train_evaluates_on_the_executor_with_the_same_figures_on_any(capsys, tmp_path):
    argv = ("train", "nim", "--heap", "9", "--games", "2000", "--seed", "4", "-o", str(tmp_path / "q.json"),
            "--eval-games", "300")
    one, two = (run_json(capsys, *argv, "--executor", kind) for kind in ("processes:1", "processes:2"))
    assert one == two and one["vs_random"]["games"] == 600 and 0 < one["vs_random"]["wins"] < 600


@pytest.mark.slow
def test_a_dask_cluster_started_by_hand_runs_the_commands(capsys, tmp_path):
    """``dask scheduler`` and two ``dask worker ADDRESS`` processes; simulate, tournament and train reach them."""
    need("distributed", "pip install 'fnmcts[dask]'")
    dask = need_command("dask", "pip install 'fnmcts[dask]'")
    simulate = ("simulate", "shut-the-box", "--games", "120000", "--seed", "5")
    tournament = ("tournament", "tic-tac-toe", "mcts", "random", "--games", "300", "--seed", "2", "--iterations", "10")
    train = ("train", "nim", "--heap", "9", "--games", "2000", "--seed", "4", "-o", str(tmp_path / "q.json"),
             "--eval-games", "300", "--force")
    expected = [run_json(capsys, *simulate), run_json(capsys, *tournament),
                run_json(capsys, *train, "--executor", "processes:2")]
    with dask_cluster(dask, tmp_path / "cluster.log") as address:
        for argv, want in zip((simulate, tournament, train), expected):
            assert run_json(capsys, *argv, "--executor", f"dask:{address}") == want
        local = run_json(capsys, *simulate, "--executor", "dask:local:2")
    assert local == expected[0]


@pytest.mark.slow
def test_ray_and_mpi_from_the_command_line_give_the_serial_record(capsys):
    need("ray", "pip install 'fnmcts[cluster]'")
    need("mpi4py", "pip install 'fnmcts[cluster]'")
    mpiexec = need_command("mpiexec", "apt-get install openmpi-bin libopenmpi-dev")
    argv = ("simulate", "shut-the-box", "--games", "120000", "--seed", "5", "--json")
    serial = run_json(capsys, *argv[:-1])
    ray = subprocess.run([str(BIN / "fnmcts"), *argv, "--executor", "ray"], capture_output=True, text=True, timeout=300)
    assert ray.returncode == 0, ray.stderr
    assert json.loads(ray.stdout) == serial
    command = [mpiexec, "-n", "3", "--oversubscribe", *(["--allow-run-as-root"] if os.geteuid() == 0 else [])]
    mpi = subprocess.run([*command, sys.executable, "-m", "mpi4py.futures", "-m", "fnmcts", *argv, "--executor", "mpi"],
                         capture_output=True, text=True, timeout=300)
    assert mpi.returncode == 0, mpi.stdout + mpi.stderr
    assert json.loads(mpi.stdout) == serial


@pytest.mark.slow
def test_the_scoreboard_scores_the_same_moves_on_an_executor():
    """``bench_scoreboard.py --executor``: the same cells as in one process (their times aside)."""
    import re

    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "bench_scoreboard.py")

    def cells(*extra):
        done = subprocess.run([sys.executable, script, "--quick", "--no-speed", *extra],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        lines = [re.sub(r"\(\d+\.\d s\)", "", line) for line in done.stdout.splitlines() if " dives " in line]
        assert len(lines) == 8  # 2 games x 2 variants x 2 budgets
        return lines

    assert cells("--executor", "processes:2") == cells()
    refused = subprocess.run([sys.executable, script, "--quick", "--executor", "processes:2", "--workers", "2"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and refused.stderr.strip().splitlines()[-1].startswith(
        "bench_scoreboard: give --workers N or --executor KIND, not both")
