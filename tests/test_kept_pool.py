"""The kept worker pool: started once, used again, stopped on an interruption, never shared with a forked child."""

from __future__ import annotations

import os
import random

import pytest

from fnmcts import parallel
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.protocol import CHANCE
from fnmcts.mcts import mcts_move
from fnmcts.parallel import kept_pool, run_chunks


def _sizes(size, rng):
    return size


def _pid(size, rng):
    return os.getpid()


def test_a_kept_pool_is_started_once_and_used_again():
    with kept_pool(2) as first:
        pids = set(run_chunks(_pid, 40, seed=1, chunk_size=1, executor=first))
    with kept_pool(2) as second:
        again = set(run_chunks(_pid, 40, seed=1, chunk_size=1, executor=second))
    assert second is first
    assert again <= {p.pid for p in parallel._KEPT[2][2]} and pids <= {p.pid for p in parallel._KEPT[2][2]}
    assert os.getpid() not in pids


def test_one_worker_is_no_pool():
    with kept_pool(1) as none, kept_pool(None) as neither:
        assert none is None and neither is None


def test_an_interruption_stops_the_kept_workers_and_the_next_call_starts_anew():
    with kept_pool(2) as pool:
        processes = list(parallel._KEPT[2][2])
    with pytest.raises(KeyboardInterrupt):
        with kept_pool(2) as same:
            assert same is pool
            raise KeyboardInterrupt
    assert all(not p.is_alive() for p in processes)
    assert 2 not in parallel._KEPT
    with kept_pool(2) as fresh:
        assert fresh is not pool
        assert run_chunks(_sizes, 10, seed=1, chunk_size=4, executor=fresh) == (4, 4, 2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_forked_child_makes_its_own_pool():
    with kept_pool(2) as parent_pool:
        pass
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: a pool of its own, not its parent's
        try:
            with kept_pool(2) as own:
                ok = own is not parent_pool and run_chunks(_sizes, 4, seed=1, chunk_size=2, executor=own) == (2, 2)
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(child, 0)
    os.close(read)
    assert answer == b"1"
    with kept_pool(2) as still:
        assert still is parent_pool


def test_root_parallel_search_uses_the_kept_pool_and_gives_what_one_worker_gives():
    game = Nim(heap=25, max_take=3)
    one = mcts_move(game, game.start(), 8_000, random.Random(3), workers=1, chunk_size=2_000, solver=False)
    two = mcts_move(game, game.start(), 8_000, random.Random(3), workers=2, chunk_size=2_000, solver=False)
    pool = parallel._KEPT[2][1]
    again = mcts_move(game, game.start(), 8_000, random.Random(3), workers=2, chunk_size=2_000, solver=False)
    assert parallel._KEPT[2][1] is pool
    assert (one.move, one.iterations, one.children) == (two.move, two.iterations, two.children) == (
        again.move, again.iterations, again.children)


@pytest.mark.parametrize("game, solver", [(Nim(heap=30, max_take=4), True), (TicTacToe(), True),
                                          (ShutTheBox(levers=6), False)], ids=repr)
@pytest.mark.slow
def test_a_worker_keeps_the_compiled_graph_and_the_search_stays_the_same(game, solver):
    """The kept pool's workers build a game's graph once and use it for every later chunk and call."""
    state = game.start() if game.to_move(game.start()) is not CHANCE else game.play(game.start(), 7)
    fresh = mcts_move(game, state, 6_000, random.Random(8), workers=1, chunk_size=1_000, solver=solver)
    for _ in range(2):  # the second call finds the graphs the first one built
        kept = mcts_move(game, state, 6_000, random.Random(8), workers=2, chunk_size=1_000, solver=solver)
        assert (kept.move, kept.iterations, kept.children) == (fresh.move, fresh.iterations, fresh.children)


def _quick_or_until_halted(size, rng):
    """Chunk of size 2: at once; else wait until its run is halted (at most 30 s): the seconds it waited."""
    import time

    if size == 2:
        return "quick"
    started = time.perf_counter()
    while not parallel.halted() and time.perf_counter() - started < 30:
        time.sleep(0.005)
    return time.perf_counter() - started


def test_a_chunk_its_run_drops_is_halted_in_the_kept_workers():
    import time

    with kept_pool(2) as pool:
        run_chunks(_sizes, 4, seed=1, chunk_size=1, executor=pool)  # both workers up
        started = time.perf_counter()
        found = run_chunks(_quick_or_until_halted, 3, seed=1, chunk_size=2, executor=pool,
                           until=lambda result: result == "quick")
        assert found == ("quick",)
        # the dropped chunk stops once halted: both workers are free again (two chunks that sleep run
        # in two processes), long before its 30 s
        assert len(set(run_chunks(_pid_after_a_nap, 2, seed=1, chunk_size=1, executor=pool))) == 2
        assert time.perf_counter() - started < 10
        assert run_chunks(_halted_now, 4, seed=2, chunk_size=1, executor=pool) == (False,) * 4  # a later run: not


def _pid_after_a_nap(size, rng):
    import time

    time.sleep(0.3)
    return os.getpid()


def _halted_now(size, rng):
    return parallel.halted()
