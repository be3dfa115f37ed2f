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

import pickle
import sys

from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.matches import random_agent, tournament
from fnmcts.mcts import mcts_agent, mcts_move
from fnmcts.montecarlo import simulate
from fnmcts.qlearning import evaluate, train
from fnmcts.rng import make_rng


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
