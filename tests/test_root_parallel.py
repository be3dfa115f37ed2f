"""Root-parallel MCTS and evaluations on executors: same seed, same result, whatever the workers."""

from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from hypothesis import example, given, settings, strategies as st

from fnmcts.agents import make_agent
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.mcts import mcts_agent, mcts_move, ucb1, visits
from fnmcts.views import trace
from fnmcts.mcts._options import DEFAULT_C
from fnmcts.parallel import iter_chunks, worker_pool
from fnmcts.matches import random_agent, tournament
from fnmcts.qlearning import evaluate, train, win_rate_against
from fnmcts.rng import child_rng, make_rng


class _NoPool:
    """An executor that must not be used."""

    def map(self, *args, **kwargs):
        raise AssertionError("a small job used the pool")


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(1, 900), st.integers(0, 10_000), st.sampled_from([100, 300, 1000]), st.booleans())
@example(36, 125, 100, False)  # its root's children count 37 visits in 36 dives: one dive passed two of them
def test_the_result_depends_on_the_seed_and_the_chunks_not_the_workers(iterations, seed, chunk, solver):
    game = Nim(heap=17, max_take=3, misere=False)
    state = game.start()
    one = mcts_move(game, state, iterations, make_rng(seed), workers=1, chunk_size=chunk, solver=solver)
    with ThreadPoolExecutor(3) as threads:
        assert mcts_move(game, state, iterations, make_rng(seed), executor=threads, chunk_size=chunk, solver=solver) == one
    assert visits(one.tree[state]) == one.iterations and (solver or one.iterations == iterations)
    # the search runs on a graph keyed by state: a record counts every dive whose path passed through its
    # state, from whichever parent (17 -> 16 -> 15 -> 14 passes two children of the root), so the root's
    # children may count more visits than there were dives; the root-parallel counts are the chunks' sums
    seed63 = make_rng(seed).getrandbits(63)
    through = [0] * len(one.children)
    for index, size in iter_chunks(iterations, chunk):
        alone = mcts_move(game, state, size, child_rng(seed63, index), solver=solver)
        for j, n in enumerate(_dives_through_children(game, state, alone.iterations, child_rng(seed63, index), solver)):
            through[j] += n
        if state in alone.proven:  # the chunks after the first (in order) to prove the root are dropped
            break
    assert [visits(rec) for _, rec in one.children] == through
    alone = mcts_move(game, state, iterations, make_rng(seed), solver=solver)
    assert [visits(rec) for _, rec in alone.children] == _dives_through_children(
        game, state, alone.iterations, make_rng(seed), solver
    )


def _dives_through_children(game, state, dives, rng, solver):
    """Per child of ``state``, in move order: how many of ``dives`` dives of the phases pass through it."""
    t = trace(game, state, dives, rng, rule=partial(ucb1, c=DEFAULT_C), solver=solver, exact=0, memory=None)
    paths = [{s for s, _ in t.dive(k).path.nodes} for k in range(1, dives + 1)]
    return [sum(game.play(state, move) in path for path in paths) for move in game.possible_moves(state)]


def test_processes_give_the_same_search_and_small_jobs_pay_for_no_pool():
    game = Nim(heap=22, max_take=3)
    found = mcts_move(game, game.start(), 4_000, make_rng(5), workers=2, chunk_size=1_000)
    assert found == mcts_move(game, game.start(), 4_000, make_rng(5), workers=1, chunk_size=1_000)
    assert found.move == 1  # to 21 = 1 mod 4
    small = mcts_move(game, game.start(), 500, make_rng(5), executor=_NoPool(), chunk_size=1_000)
    assert small == mcts_move(game, game.start(), 500, make_rng(5), workers=4, chunk_size=1_000)


def test_what_a_root_parallel_search_refuses():
    game = Nim(heap=9)
    with pytest.raises(ValueError, match="seconds= is not supported"):
        mcts_move(game, game.start(), 100, make_rng(1), workers=2, seconds=1)
    with pytest.raises(TypeError, match="give the search a budget"):
        mcts_move(game, game.start(), rng=make_rng(1), workers=2)
    with pytest.raises(ValueError, match="workers must be a positive"):
        mcts_move(game, game.start(), 100, make_rng(1), workers=0)
    with pytest.raises(ValueError, match="the game is over"):
        mcts_move(game, game.state(0, 1), 100, make_rng(1), workers=2)


def test_evaluations_and_tournaments_on_executors_match_for_any_workers():
    ai = train(300, seed=1, game=Nim(heap=7))
    chunked = evaluate(ai, games=120, seed=2, chunk_size=25)
    with ThreadPoolExecutor(2) as threads:
        assert evaluate(ai, games=120, seed=2, executor=threads, chunk_size=25) == chunked
    with worker_pool(2) as pool:
        assert win_rate_against(ai, random_agent, 120, 5, executor=pool, chunk_size=25) == win_rate_against(
            ai, random_agent, 120, 5, chunk_size=25
        )
        game = Nim(heap=12)
        agent = mcts_agent(60, reuse=True)
        assert tournament(game, agent, make_agent("perfect", game=game), 30, seed=3, executor=pool, chunk_size=10) == (
            tournament(game, agent, make_agent("perfect", game=game), 30, seed=3, chunk_size=10)
        )


def test_a_dask_client_runs_the_root_parallel_search():
    distributed = pytest.importorskip("distributed")
    game = ShutTheBox()
    state = game.play(game.start(), 9)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        remote = mcts_move(game, state, 3_000, make_rng(7), executor=client, chunk_size=1_000, solver=False)
    assert remote == mcts_move(game, state, 3_000, make_rng(7), workers=1, chunk_size=1_000, solver=False)
