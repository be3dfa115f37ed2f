"""A worker lost mid-run: one clear line, the chunks finished kept (as on Ctrl-C), status 1, no traceback."""

import json
import os
import subprocess
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

import pytest

from cli_run import run
from executor_matrix import BIN, need
from fnmcts.parallel import WorkerLost, lost_worker, make_executor, run_chunks


class _DiesAfter:
    """An executor whose worker dies after ``finished`` chunks: ``map`` gives their results, then the pool breaks."""

    def __init__(self, finished: int, error=None):
        self.finished = finished
        self.error = error or BrokenProcessPool("A process in the process pool was terminated abruptly.")

    def map(self, fn, items):
        for i, item in enumerate(items):
            if i == self.finished:
                raise self.error
            yield fn(item)


def _size(size, rng):
    return size


def test_the_chunks_finished_before_the_loss_are_kept_in_order():
    with pytest.raises(WorkerLost) as lost:
        run_chunks(_size, 10, seed=1, chunk_size=4, executor=_DiesAfter(2))
    assert lost.value.partial == (4, 4)
    assert str(lost.value) == ("a worker was lost (BrokenProcessPool: A process in the process pool was terminated "
                               "abruptly.); 2 chunks finished before it")


def test_any_other_error_of_a_chunk_is_not_a_lost_worker():
    with pytest.raises(ValueError, match="a bug"):
        run_chunks(_size, 10, seed=1, chunk_size=4, executor=_DiesAfter(1, ValueError("a bug")))
    assert lost_worker(ValueError("a bug")) is None


def test_dask_s_and_ray_s_words_for_a_dead_worker_are_lost_workers():
    killed_worker = type("KilledWorker", (Exception,), {})  # distributed.scheduler.KilledWorker, by its name
    crashed = type("WorkerCrashedError", (RuntimeError,), {})  # ray.exceptions.WorkerCrashedError
    assert lost_worker(killed_worker("attempted to run task chunk-3 on 4 different workers")) == \
        "KilledWorker: attempted to run task chunk-3 on 4 different workers"
    assert lost_worker(crashed()) == "WorkerCrashedError"


@contextmanager
def _executor_of(executor):
    yield executor


LINE = ("fnmcts: error: a worker was lost (BrokenProcessPool: A process in the process pool was terminated "
        "abruptly.); 2 chunks finished before it: the result above is partial")


def test_simulate_prints_the_games_finished_and_one_line(capsys, monkeypatch):
    monkeypatch.setattr("fnmcts.cli.simulate.open_executor", lambda args: _executor_of(_DiesAfter(2)))
    code, out, err = run(capsys, "simulate", "coin", "--games", "120000", "--seed", "3")
    assert code == 1 and err.strip().splitlines() == [LINE]
    assert out.startswith("PARTIAL RESULT (a worker was lost): the work done so far\n")
    assert "games     100,000" in out


def test_the_partial_json_is_a_whole_run_of_the_chunks_finished(capsys, monkeypatch):
    whole = run(capsys, "simulate", "coin", "--games", "100000", "--seed", "3", "--json")[1]
    monkeypatch.setattr("fnmcts.cli.simulate.open_executor", lambda args: _executor_of(_DiesAfter(2)))
    code, out, err = run(capsys, "simulate", "coin", "--games", "120000", "--seed", "3", "--json")
    shown = json.loads(out)
    assert code == 1 and err.strip().splitlines() == [LINE]
    assert shown.pop("partial") is True and shown.pop("worker_lost").startswith("BrokenProcessPool")
    assert shown == json.loads(whole)  # the two chunks finished are a run of 100,000 games with the seed


def _dies_at_two(size, rng):
    if size == 2:
        os._exit(7)  # the worker process dies at once, as one killed or out of memory does
    return size


@pytest.mark.slow
def test_a_worker_that_dies_in_a_real_pool_keeps_the_chunks_before_it():
    with make_executor(1) as pool, pytest.raises(WorkerLost) as lost:
        run_chunks(_dies_at_two, 10, seed=1, chunk_size=4, executor=pool)
    assert lost.value.partial == (4, 4) and lost.value.cause.startswith("BrokenProcessPool")


FRAGILE = '''
import multiprocessing
import os
from dataclasses import dataclass
from fnmcts import GameBase

PLAYS = [0]

@dataclass(frozen=True)
class Fragile(GameBase):
    """Take 1 or 2 of 5 stones; a worker process dies in its second chunk of 50,000 games (275,000 plays)."""
    num_players = 2
    def start(self): return (5, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return tuple(m for m in (1, 2) if m <= state[0])
    def play(self, state, move):
        if multiprocessing.parent_process() is not None:
            PLAYS[0] += 1
            if PLAYS[0] > 275_000:
                os._exit(9)
        return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)
'''


@pytest.mark.slow
@pytest.mark.parametrize("json_flag", [False, True])
def test_a_worker_killed_mid_simulation_ends_the_command_with_one_line(tmp_path, json_flag):
    (tmp_path / "fragile.py").write_text(FRAGILE)
    argv = [str(BIN / "fnmcts"), "simulate", "fragile:Fragile", "--games", "200000", "--seed", "1", "--workers", "2"]
    done = subprocess.run([*argv, *(["--json"] if json_flag else [])], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1 and lines[0].startswith("fnmcts: error: a worker was lost (BrokenProcessPool: "), lines
    assert lines[0].endswith("finished before it: the result above is partial")
    finished = int(lines[0].split("); ")[1].split()[0])
    if json_flag:
        shown = json.loads(done.stdout)
        assert shown["partial"] is True and shown["games"] == 50_000 * finished < 200_000
    else:
        assert done.stdout.startswith("PARTIAL RESULT (a worker was lost)")
        assert f"games     {50_000 * finished:,}" in done.stdout


def _coin(rng):
    return rng.random() < 0.5


@pytest.mark.parametrize("workload", ["simulate", "estimate", "tournament"])
def test_each_chunked_workload_keeps_its_own_record_of_the_chunks_finished(workload):
    """The partial of a lost worker is the call's own record, equal to a whole run of the chunks finished."""
    from fnmcts.games.nim import Nim
    from fnmcts.matches import random_agent, tournament
    from fnmcts.montecarlo import simulate
    from fnmcts.sampling import estimate

    game = Nim(heap=7)
    run = {
        "simulate": lambda n, **kw: simulate(game, n, seed=5, chunk_size=40, **kw),
        "estimate": lambda n, **kw: estimate(_coin, n, win=bool, seed=5, chunk_size=40, **kw),
        "tournament": lambda n, **kw: tournament(game, random_agent, random_agent, n, seed=5, chunk_size=40, **kw),
    }[workload]
    with pytest.raises(WorkerLost) as lost:
        run(200, executor=_DiesAfter(3))
    assert lost.value.partial == run(120, executor=_DiesAfter(3))  # three chunks: no loss before the fourth
    assert str(lost.value).endswith("; 3 chunks finished before it")


@pytest.mark.slow
def test_a_dask_worker_killed_mid_chunk_keeps_the_chunks_before_it():
    """A Dask worker that dies in a chunk (the scheduler told to retry it nowhere else): ``KilledWorker``, kept chunks."""
    need("distributed", "pip install 'fnmcts[dask]'")
    import dask
    import distributed

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, dashboard_address=None, silence_logs=50
    ) as cluster, distributed.Client(cluster) as client, pytest.raises(WorkerLost) as lost:
        run_chunks(_dies_at_two, 10, seed=1, chunk_size=4, executor=client)
    # a chunk finished on the worker but not yet fetched dies with it (its result was held there): a prefix is kept
    assert lost.value.partial in ((), (4,), (4, 4)) and lost.value.cause.startswith("KilledWorker"), lost.value
    assert str(lost.value).endswith(f"; {len(lost.value.partial)} chunk{'' if len(lost.value.partial) == 1 else 's'} "
                                    "finished before it")
