"""Where a batched search (``mcts_move(..., batch=k)``) plays a step's playouts, and with which code.

On the kept pool (``workers=``) the calling process and the workers each take
the next playout left from one shared counter (``fnmcts.parallel.pulled``); on
any other executor the calling process plays the first group of a step while
the executor plays the others; a step whose groups hold less than ``batch.PAYS`` seconds of
playouts (as last measured here) runs here whole. Neither changes the tree. A
playout runs the game's own kernel (``random_payoff``) wherever it runs: in
the plain search, in a batch here and on a worker. ``Pickling`` stands in for a
process pool: every call and item goes through ``pickle`` both ways.
"""

from __future__ import annotations

import math
import os
import pickle
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.games import Nim
from fnmcts.mcts import batch, mcts_move
from fnmcts.parallel import kept_pool, pulled


class Pickling:
    """An executor of ``_max_workers`` workers that pickles what it runs, as processes do; it counts its maps."""

    _max_workers = 3

    def __init__(self):
        self.maps = []

    def map(self, fn, items):
        items = list(items)
        self.maps.append(len(items))
        return [pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(fn))(pickle.loads(pickle.dumps(item)))))
                for item in items]


def _kernel_ran(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


@dataclass(frozen=True)
class KernelNim(Nim):
    """Nim whose random-play kernel adds one byte to the file ``path`` each time it runs, in any process."""

    path: str = ""

    def random_payoff(self, state, rng) -> tuple:
        with open(self.path, "ab") as out:
            out.write(b"x")
        return super().random_payoff(state, rng)


def _search(game, **how):
    return mcts_move(game, game.start(), 96, random.Random(3), solver=False, **how)


@pytest.mark.parametrize("pays", [0.0, math.inf])
def test_where_a_step_plays_does_not_change_the_tree(monkeypatch, pays):
    game = Nim(heap=60, max_take=3)
    serial = _search(game, batch=8)
    monkeypatch.setattr(batch, "PAYS", pays)
    pool = Pickling()
    pooled = _search(game, batch=8, executor=pool)
    assert dict(pooled.tree.pmap()) == dict(serial.tree.pmap()) and pooled.move == serial.move
    if pays == 0:  # every step: 3 groups, the first played here, the other 2 sent
        assert len(pool.maps) == 96 // 8 and set(pool.maps) == {2}
    else:  # the first step is sent (nothing measured yet); then every step is cheaper than a round trip
        assert pool.maps == [2]


def test_the_same_kernel_plays_here_in_a_batch_and_on_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "PAYS", 0.0)
    counts = []
    for how in ({}, {"batch": 8}, {"batch": 8, "executor": Pickling()}):
        path = str(tmp_path / f"kernel{len(counts)}")
        found = _search(KernelNim(heap=60, max_take=3, path=path), **how)
        counts.append((_kernel_ran(path), found.iterations))
    assert all(ran > 0.5 * dives for ran, dives in counts)  # a playout each dive but those that reach the end
    assert counts[1] == counts[2]  # the batch's playouts, wherever they run


@pytest.mark.parametrize("workers", [2, 4])
def test_steps_taken_from_a_shared_counter_grow_the_same_tree(monkeypatch, workers):
    game = Nim(heap=60, max_take=3)
    serial = _search(game, batch=8)
    monkeypatch.setattr(batch, "PAYS", 0.0)
    runs = []
    monkeypatch.setattr(batch, "pulled", lambda *args: runs.append(pulled(*args)) or runs[-1])
    pooled = _search(game, batch=8, workers=workers)
    assert dict(pooled.tree.pmap()) == dict(serial.tree.pmap()) and pooled.move == serial.move
    assert len(runs) == 96 // 8 and None not in runs  # every step through the counter


def _slow_double(pause, job):
    time.sleep(pause)
    return 2 * job


def test_the_side_that_is_free_takes_the_next_job():
    here = []

    def slow_here(job):  # this process is 15 times slower than the worker: it should play few of the 16
        here.append(job)
        return _slow_double(0.03, job)

    with kept_pool(2) as pool:
        assert pulled(pool, _slow_double, 0.002, slow_here, list(range(16)), 2) == [2 * j for j in range(16)]
    assert len(here) < 8  # a fixed split plays 8 here


def test_jobs_nobody_took_are_played_here():
    with kept_pool(2) as pool:
        def seized(job):  # another call takes the counter over at this process's first job
            pool.fnmcts_pulls.get_obj()[0] = -1
            return _slow_double(0.0, job)

        assert pulled(pool, _slow_double, 0.001, seized, list(range(12)), 2) == [2 * j for j in range(12)]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=30), st.integers(2, 3))
def test_results_come_back_in_the_jobs_order(jobs, parts):
    with kept_pool(2) as pool:
        assert pulled(pool, _slow_double, 0.0, lambda job: 2 * job, jobs, parts) == [2 * j for j in jobs]


@pytest.mark.parametrize("make", [lambda: None, Pickling, lambda: ThreadPoolExecutor(1)])
def test_other_executors_keep_their_own_split(make):
    assert pulled(make(), _slow_double, 0.0, abs, [1, 2], 2) is None
