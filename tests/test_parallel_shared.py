"""A chunk's function (the game and options it carries) is unpickled once per worker, not once per chunk.

``run_chunks`` on an executor of other processes pickles the function once and
sends its bytes with the first chunks of a window, the token alone with the
others; a worker keeps what it loaded. ``Counted`` counts its unpicklings in a
file, whichever process unpickles it.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from fnmcts import parallel
from fnmcts.parallel import Shared, Unknown, kept_pool, run_chunks


def _loaded(kind, path):
    """A ``kind`` (``Counted``, ``CountedAgent``) unpickled: one more line, the process's id, in the file ``path``."""
    with open(path, "a") as out:
        out.write(f"{os.getpid()}\n")
    return kind(path)


class Counted:
    """A chunk function whose every unpickling adds a line to the file ``path``."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return _loaded, (type(self), self.path)

    def __call__(self, size, rng):
        return os.getpid(), size, rng.random()


def _loaders(path) -> list:
    """The ids of the processes that unpickled, in order, once per unpickling."""
    if not os.path.exists(path):
        return []
    with open(path) as lines:
        return [int(line) for line in lines]


def _loads(path) -> int:
    return len(_loaders(path))


def _draws(results):
    return [r[1:] for r in results]


@pytest.mark.parametrize("kind", ["processes", "pool"])
def test_each_worker_unpickles_the_function_once_for_many_chunks(tmp_path, kind):
    path = str(tmp_path / "loads")
    serial = run_chunks(Counted(path), 40, seed=5, chunk_size=1)
    make = {"processes": ProcessPoolExecutor, "pool": multiprocessing.Pool}[kind]
    with make(2) as executor:
        ran = run_chunks(Counted(path), 40, seed=5, chunk_size=1, executor=executor)
    assert _draws(ran) == _draws(serial)
    assert 1 <= _loads(path) <= 2  # before: 40, once a chunk


def test_a_worker_that_never_got_the_function_is_sent_it_and_the_result_holds(tmp_path, monkeypatch):
    path = str(tmp_path / "loads")
    serial = run_chunks(Counted(path), 12, seed=2, chunk_size=1)
    monkeypatch.setattr(parallel, "_workers_of", lambda executor: 0)  # every chunk sent as a token alone
    with ProcessPoolExecutor(2) as executor:
        ran = run_chunks(Counted(path), 12, seed=2, chunk_size=1, executor=executor)
    assert _draws(ran) == _draws(serial)
    assert 1 <= _loads(path) <= 2


def test_a_kept_pool_loads_the_same_function_once_across_calls(tmp_path):
    path = str(tmp_path / "loads")
    with kept_pool(2) as pool:
        first = run_chunks(Counted(path), 20, seed=1, chunk_size=1, executor=pool)
        loaders = _loaders(path)
        again = run_chunks(Counted(path), 20, seed=1, chunk_size=1, executor=pool)
    assert _draws(first) == _draws(again) and 1 <= len(loaders) <= 2
    # a worker the first call never reached loads it in the second (a busy machine can give one worker every
    # chunk); none loads it twice
    everyone = _loaders(path)
    assert everyone[: len(loaders)] == loaders and len(set(everyone)) == len(everyone) <= 2


def test_threads_and_this_process_share_the_function_as_it_is(tmp_path):
    path = str(tmp_path / "loads")
    with ThreadPoolExecutor(2) as threads:
        ran = run_chunks(Counted(path), 10, seed=1, chunk_size=1, executor=threads)
    assert _draws(ran) == _draws(run_chunks(Counted(path), 10, seed=1, chunk_size=1))
    assert _loads(path) == 0


def test_an_unknown_token_asks_for_the_function_and_a_process_keeps_a_few():
    assert parallel._call((Shared(None, "no such token"), 1, 0, 1, 0)) == Unknown()
    blobs = [Shared(parallel.pickle.dumps(f)) for f in (abs, len, repr, str, hash, id)]
    for shared in blobs:
        assert shared.loaded() is not None
    assert len(parallel._SHARED) <= parallel.SHARED_KEEPS
    assert blobs[-1].without().loaded() is id and blobs[0].without().loaded() is None  # the oldest went first


class CountedAgent(Counted):
    """A random playout agent whose every unpickling adds a line to the file ``path``."""

    def __call__(self, game, state, rng):
        moves = game.possible_moves(state)
        return moves[int(rng.random() * len(moves))]


class SlowCountedAgent(CountedAgent):
    """``CountedAgent`` taking a fifth of a millisecond a move (the same moves)."""

    def __call__(self, game, state, rng):
        time.sleep(0.0002)
        return super().__call__(game, state, rng)


@pytest.mark.parametrize("given", ["executor", "workers"])
def test_a_batched_search_sends_its_game_and_rollout_once_per_worker(tmp_path, given, monkeypatch):
    from fnmcts.games import Nim
    from fnmcts.mcts import batch, mcts_move

    # every step sent (Nim's playouts are far under batch.PAYS: its steps would stay here after the first), each a
    # few milliseconds long (SlowCountedAgent): on the kept pool's channel a step does not wait for a worker whose
    # serve has not started, and 15 steps of bare Nim playouts end before it does
    monkeypatch.setattr(batch, "PAYS", 0.0)

    path = str(tmp_path / "loads")
    game = Nim(heap=15, max_take=3)
    serial = mcts_move(game, game.start(), 120, __import__("random").Random(4), batch=8, solver=False,
                       rollout=SlowCountedAgent(path))
    with (ProcessPoolExecutor(2) if given == "executor" else kept_pool(2)) as executor:
        list(executor.map(abs, [1, 2]))  # the workers started
        before = _loads(path)
        how = {"executor": executor} if given == "executor" else {"workers": 2}
        pooled = mcts_move(game, game.start(), 120, __import__("random").Random(4), batch=8, solver=False,
                           rollout=SlowCountedAgent(path), **how)
    assert dict(pooled.tree.pmap()) == dict(serial.tree.pmap()) and pooled.move == serial.move
    assert 1 <= _loads(path) - before <= 2  # 15 steps of 2 groups: up to 30 on executor= before



@pytest.mark.slow
def test_a_function_of_main_reaches_dask_worker_processes(monkeypatch):
    """Dask sends a function of ``__main__`` (a notebook's) by value (cloudpickle); shared once, it still goes so."""
    distributed = pytest.importorskip("distributed")
    import __main__

    def draw(size, rng):
        return rng.random()

    draw.__module__, draw.__qualname__ = "__main__", "fnmcts_test_draw"  # importable here alone, as in a notebook
    monkeypatch.setattr(__main__, "fnmcts_test_draw", draw, raising=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        ran = run_chunks(draw, 8, seed=1, chunk_size=1, executor=client)
    assert ran == run_chunks(draw, 8, seed=1, chunk_size=1)


def test_the_callers_share_runs_with_quick_thread_switches_and_the_default_comes_back():
    """While the caller plays its share beside an executor, the executor's threads that pickle and send the items get
    the interpreter within HAND_OFF_SWITCH (at the default 5 ms, 8 playouts here and 8 on a worker took 33 ms against
    25 ms); without an executor, and after the call, the interval is the caller's own."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from fnmcts.parallel import HAND_OFF_SWITCH, mapped_shared

    seen = []
    before = sys.getswitchinterval()
    with ThreadPoolExecutor(1) as pool:
        assert mapped_shared(pool, lambda v, x: v + x, 1, [2], lambda: seen.append(sys.getswitchinterval())) == [3]
    mapped_shared(None, lambda v, x: v + x, 1, [2], lambda: seen.append(sys.getswitchinterval()))
    # the interpreter keeps the interval in whole microseconds: 2e-05 reads back as 1.99...e-05
    assert seen == [pytest.approx(min(before, HAND_OFF_SWITCH), abs=1e-6), before]
    assert sys.getswitchinterval() == before
