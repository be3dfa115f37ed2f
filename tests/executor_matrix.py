"""The four chunked workloads of fnmcts, run on one executor: the matrix of tests/test_parallel_executors.py.

``workloads(executor)`` runs ``simulate``, a tournament, a Q-learning
evaluation and a root-parallel ``mcts_move`` on ``executor`` (``None``: this
process, chunk by chunk) and returns their results by name; an executor of any
kind must give exactly ``workloads(None)``. Everything sent to the executor is
a function of fnmcts itself, so a worker that can import fnmcts (a process
started by ``dask worker``, a Ray actor, an MPI rank) can run it.

Run as a script under ``mpiexec -n 3 python -m mpi4py.futures`` with a file
name, it runs the workloads on an ``MPIPoolExecutor`` (the other ranks are its
workers) and writes them to that file with pickle.
"""

import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.matches import random_agent, tournament
from fnmcts.mcts import mcts_agent, mcts_move
from fnmcts.montecarlo import simulate
from fnmcts.qlearning import evaluate, train
from fnmcts.rng import make_rng

BIN = Path(sys.executable).parent


def workloads(executor):
    """``{name: result}`` for the four workloads on ``executor`` (``None``: serial, the same chunks)."""
    board = TicTacToe()
    search = Nim(heap=22, max_take=3)
    root = {"workers": 1} if executor is None else {"executor": executor}
    return {
        "simulate": simulate(ShutTheBox(), 6_000, seed=3, chunk_size=1_000, executor=executor),
        "tournament": tournament(
            board, mcts_agent(20, reuse=True), random_agent, 16, seed=3, chunk_size=4, executor=executor
        ),
        "evaluation": evaluate(train(300, seed=1, game=Nim(heap=7)), games=60, seed=2, chunk_size=15, executor=executor),
        "mcts_move": mcts_move(search, search.start(), 3_000, make_rng(7), chunk_size=1_000, solver=False, **root),
    }


def need(module: str, install: str):
    """``module`` imported; else a skip, or a failure under CI (whose slow step installs everything)."""
    import pytest

    try:
        return __import__(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is missing under CI: {install}")
        pytest.skip(f"{module} is not installed: {install}")


def need_command(name: str, install: str) -> str:
    """The path of the command ``name``; else a skip, or a failure under CI."""
    import pytest

    path = shutil.which(name) or (str(BIN / name) if (BIN / name).exists() else None)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing under CI: {install}")
        pytest.skip(f"{name} is not on PATH: {install}")
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(processes) -> None:
    """Stop ``processes`` (started in sessions of their own) and their children; killed if still there after 10 s."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


@contextmanager
def dask_cluster(dask: str, log_path, workers: int = 2):
    """A Dask cluster started as a user starts one, its address given: ``dask scheduler``, ``dask worker ADDRESS``.

    The scheduler listens on a free port of 127.0.0.1; each worker is a process of
    its own with one thread. Every process is stopped on leaving, however.
    """
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    started = []
    with open(log_path, "w") as log:
        try:
            scheduler = [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
            started.append(subprocess.Popen(scheduler, stdout=log, stderr=log, start_new_session=True))
            for _ in range(workers):
                worker = [dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"]
                started.append(subprocess.Popen(worker, stdout=log, stderr=log, start_new_session=True))
            yield address
        finally:
            stop(started)


def _main(path):
    from mpi4py import MPI
    from mpi4py.futures import MPIPoolExecutor

    with MPIPoolExecutor() as executor:
        results = workloads(executor)
        results["world"] = MPI.COMM_WORLD.Get_size()  # this rank and the executor's workers
    with open(path, "wb") as out:
        pickle.dump(results, out)


if __name__ == "__main__":
    _main(sys.argv[1])
