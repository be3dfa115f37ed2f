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
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.games import Nim
from fnmcts import parallel
from fnmcts.mcts import batch, mcts_move
from fnmcts.parallel import _step_bytes, kept_pool, make_executor, pulled, served


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


# The channel (``parallel._Channel``): a kept pool's steps go from this thread to the serving workers and back.


@contextmanager
def _within(seconds):
    """Fail (no hang) when the block takes over ``seconds``."""
    def late(signum, frame):
        raise TimeoutError(f"over {seconds} s: a hang")

    before = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


@pytest.fixture
def own_pool():
    pool = make_executor(2, keep=True)
    pool.submit(int).result()  # its workers started
    processes = list(pool._processes.values())
    yield pool
    parallel._halt(pool, processes)  # stopped at once, quietly


@dataclass(frozen=True)
class TrapNim(Nim):
    """Nim whose first playout in the process ``home`` kills the processes ``victims`` (``os.kill``) and waits for
    the pool to see it, whose ``interrupt``-th playout there raises ``KeyboardInterrupt`` (0: never); with
    ``victims`` ``(0,)``, a playout elsewhere kills its own process. A playout takes 1 ms at least."""

    home: int = 0
    victims: tuple = ()
    interrupt: int = 0

    def random_payoff(self, state, rng) -> tuple:
        time.sleep(0.001)  # a playout that costs: each side takes a share of a step
        if os.getpid() != self.home:
            if self.victims == (0,):
                os.kill(os.getpid(), signal.SIGKILL)
        elif self.victims != (0,) and self.victims and not _TRAPPED:
            _TRAPPED.append(1)
            for victim in self.victims:
                os.kill(victim, signal.SIGKILL)
            time.sleep(0.3)
        elif self.interrupt:
            _TRAPPED.append(1)
            if len(_TRAPPED) == self.interrupt:
                raise KeyboardInterrupt
        return super().random_payoff(state, rng)


_TRAPPED: list = []


def test_the_steps_go_on_the_channel_and_its_serves_end_with_the_search(monkeypatch, own_pool):
    game = Nim(heap=60, max_take=3)
    serial = _search(game, batch=8)
    monkeypatch.setattr(batch, "PAYS", 0.0)
    channel = own_pool.fnmcts_channel
    for search in range(2):  # two searches one after the other on the same pool
        pooled = _search(game, batch=8, executor=own_pool)
        assert dict(pooled.tree.pmap()) == dict(serial.tree.pmap()) and pooled.move == serial.move
        assert channel.made == search + 1  # one serve a search on its one slot (2 workers: one here, one there)
        with _within(5):
            channel.serves[0][0].result()  # told to end with the search: it returns


@pytest.mark.parametrize("who", ["a worker killed mid-playout", "a worker killed from here"])
def test_a_worker_lost_mid_search_raises_at_once(monkeypatch, own_pool, who):
    from concurrent.futures.process import BrokenProcessPool

    monkeypatch.setattr(batch, "PAYS", 0.0)
    victims = (0,) if who.endswith("playout") else tuple(own_pool._processes)
    game = TrapNim(heap=60, max_take=3, home=os.getpid(), victims=victims)
    _TRAPPED.clear()
    with _within(20), pytest.raises(BrokenProcessPool):  # (dives enough for the worker to join in, however late)
        mcts_move(game, game.start(), 2_000, random.Random(3), solver=False, batch=8, executor=own_pool)


def test_a_worker_lost_on_the_kept_pool_leaves_the_next_search_a_new_pool(monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    monkeypatch.setattr(batch, "PAYS", 0.0)
    game = Nim(heap=60, max_take=3)
    trap = TrapNim(heap=60, max_take=3, home=os.getpid(), victims=(0,))
    with _within(20), pytest.raises(BrokenProcessPool):
        mcts_move(trap, trap.start(), 2_000, random.Random(3), solver=False, batch=8, workers=2)
    with _within(60):
        assert dict(_search(game, batch=8, workers=2).tree.pmap()) == dict(_search(game, batch=8).tree.pmap())


@pytest.mark.parametrize("where", ["executor", "workers"])
def test_ctrl_c_mid_search_leaves_the_pool_for_the_next_search(monkeypatch, own_pool, where):
    monkeypatch.setattr(batch, "PAYS", 0.0)
    how = {"executor": own_pool} if where == "executor" else {"workers": 2}
    game = Nim(heap=60, max_take=3)
    _TRAPPED.clear()
    with _within(20), pytest.raises(KeyboardInterrupt):
        _search(TrapNim(heap=60, max_take=3, home=os.getpid(), interrupt=3), batch=8, **how)
    with _within(60):  # the interrupted step's replies, late, are never taken for this search's
        for _ in range(2):
            assert dict(_search(game, batch=8, **how).tree.pmap()) == dict(_search(game, batch=8).tree.pmap())


def test_two_threads_at_once_on_one_pool_each_get_their_own_results(own_pool):
    def calls(offset):
        with served(own_pool):
            return [pulled(own_pool, _slow_double, 0.0005, lambda job: _slow_double(0.0005, job),
                           [offset + j for j in range(12)], 2) for _ in range(15)]

    with _within(60), ThreadPoolExecutor(2) as threads:
        found = list(threads.map(calls, [0, 100]))
    assert found == [[[2 * (offset + j) for j in range(12)]] * 15 for offset in (0, 100)]


def test_a_step_too_large_for_the_channel_goes_through_the_pool(own_pool):
    jobs = [bytes([i]) * 1000 for i in range(40)]  # over STEP_BYTES pickled
    assert _step_bytes(1, jobs) is None and _step_bytes(1, jobs[:3]) is not None
    with served(own_pool):
        assert pulled(own_pool, _concat, b"y", lambda job: b"y" + job, jobs, 2) == [b"y" + job for job in jobs]
    assert own_pool.fnmcts_channel.made == 0


def test_a_serve_of_other_work_is_ended_and_the_step_played_without_it(own_pool):
    channel = own_pool.fnmcts_channel
    with _within(20):
        doubled = pulled(own_pool, _slow_double, 0.001, lambda job: 2 * job, list(range(8)), 2)
        assert doubled == [2 * j for j in range(8)]
        first = channel.serves[0][0]
        assert pulled(own_pool, _concat, b"a", lambda job: b"a" + job, [b"b", b"c"], 2) == [b"ab", b"ac"]
        first.result()  # told to end: its work is another
        with served(own_pool):
            assert pulled(own_pool, _concat, b"a", lambda job: b"a" + job, [b"b"] * 9, 2) == [b"ab"] * 9
    assert channel.made == 2


def _concat(value, job):
    return value + job


def test_replies_of_older_steps_are_never_taken_for_this_one(own_pool):
    channel = own_pool.fnmcts_channel
    with _within(20), served(own_pool):
        pulled(own_pool, _slow_double, 0.0, lambda job: 2 * job, [1], 2)  # its serve started
        stale = [(0, "stale"), (1, "stale")]
        for token in (1, time.monotonic_ns()):  # as a step interrupted before, or just now, would have left them
            channel.there[0][0].send((token, stale))
        assert pulled(own_pool, _slow_double, 0.0, lambda job: 2 * job, [5, 6], 2) == [10, 12]
        # read and dropped: what is left is this step's own reply, unread when this process played both jobs first
        # (the worker answers a step after it ends, then the next step drains it), never a stale one
        left = []
        while channel.here[0].poll(0.2):
            left.append(channel.here[0].recv())
        assert all(pairs != stale for _, pairs in left), left


def test_a_reply_too_large_for_the_channel_comes_back_as_its_serves_result(own_pool):
    value = bytes(range(256)) * 100  # a worker's reply over STEP_BYTES
    with _within(20), served(own_pool):
        for _ in range(3):
            found = pulled(own_pool, _concat, value, lambda job: value + job, [b"a", b"b"], 2)
            assert found == [value + b"a", value + b"b"]


def test_a_serve_left_over_on_a_slot_never_plays_another_serves_steps(own_pool):
    stray = own_pool.submit(parallel._serve, 0, -5, _concat, b"wrong")  # as one whose start a Ctrl-C cut off
    time.sleep(0.1)  # it holds the slot
    with _within(20), served(own_pool):
        while not stray.done():  # the steps go on: the serves started meanwhile leave the slot to it, which leaves
            doubled = pulled(own_pool, _slow_double, 0.0005, lambda job: _slow_double(0.0005, job), list(range(8)), 2)
            assert doubled == [2 * j for j in range(8)]
        assert stray.result() is None  # it heard none of its own and left
        for _ in range(5):  # a serve holds the slot again
            assert pulled(own_pool, _slow_double, 0.0, lambda job: 2 * job, [1, 2], 2) == [2, 4]
        assert not own_pool.fnmcts_channel.serves[0][0].done()


def test_steps_for_a_serve_not_started_yet_never_fill_its_pipe(own_pool):
    busy = [own_pool.submit(time.sleep, 0.4) for _ in range(2)]  # every worker busy: the serve waits its turn
    time.sleep(0.05)
    with _within(20), served(own_pool):
        for _ in range(30):
            assert pulled(own_pool, _slow_double, 0.0, lambda job: 2 * job, [1, 2, 3], 2) == [2, 4, 6]
            assert own_pool.fnmcts_channel.serves[0][5] <= parallel.UNANSWERED
        for done in busy:
            done.result()
        for _ in range(5):
            assert pulled(own_pool, _slow_double, 0.0, lambda job: 2 * job, [1, 2, 3], 2) == [2, 4, 6]
