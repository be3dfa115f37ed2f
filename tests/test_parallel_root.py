"""Root-parallel search as a fixed number of independent trees: each tree one task, the same move on any workers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.games import Nim, TicTacToe
from fnmcts.mcts import mcts_move, visits
from fnmcts.mcts import _search
from fnmcts.mcts._search import ROOT_TREES
from fnmcts.rng import child_rng, make_rng


class _Counting:
    """A thread executor that records the size of every task it is handed (a task is a tree)."""

    def __init__(self, threads):
        self.pool = ThreadPoolExecutor(threads)
        self.sizes = []

    def map(self, fn, jobs, **kwargs):
        jobs = list(jobs)
        self.sizes.extend(job[3] for job in jobs)  # run_chunks' jobs: (fn, seed, index, size)
        return self.pool.map(fn, jobs)


@st.composite
def splits(draw):
    """A budget and a split of it: ``("trees", T)`` or ``("chunk_size", C)``."""
    iterations = draw(st.integers(2, 600))
    if draw(st.booleans()):
        return iterations, "trees", draw(st.integers(1, 5))
    return iterations, "chunk_size", draw(st.integers(1, iterations))


@settings(max_examples=8, deadline=None)
@given(splits(), st.integers(0, 2**32), st.integers(1, 4), st.booleans())
def test_each_tree_is_one_task_of_its_whole_share_and_the_workers_change_nothing(split, seed, threads, solver):
    iterations, how, value = split
    game = Nim(heap=13, max_take=3, misere=False)
    state = game.start()
    size = -(-iterations // value) if how == "trees" else value
    expected = [min(size, iterations - start) for start in range(0, iterations, size)]
    counting = _Counting(threads)
    with counting.pool:
        found = mcts_move(game, state, iterations, make_rng(seed), executor=counting, solver=solver, **{how: value})
    here = mcts_move(game, state, iterations, make_rng(seed), workers=1, solver=solver, **{how: value})
    assert found == here
    if len(expected) > 1:
        assert counting.sizes == expected  # one task a tree, in tree order, its whole share at once
    else:
        assert counting.sizes == []  # one tree: searched here, no executor
    if how == "trees":  # trees=T is the split chunk_size=ceil(iterations / T)
        assert here == mcts_move(game, state, iterations, make_rng(seed), workers=1, solver=solver, chunk_size=size)
    # the children's sums are the trees' own searches, tree by tree, each on its child seed, up to the first
    # tree (in tree order) that proves the root: the trees after it are dropped
    seed63 = make_rng(seed).getrandbits(63)
    sums, ran = [0] * len(here.children), 0
    for index, n in enumerate(expected):
        alone = mcts_move(game, state, n, child_rng(seed63, index), solver=solver)
        ran += alone.iterations
        for j, (_, record) in enumerate(alone.children):
            sums[j] += visits(record)
        if state in alone.proven:
            break
    assert [visits(record) for _, record in here.children] == sums
    assert here.iterations == ran


def test_the_default_split_is_a_fixed_number_of_trees_whatever_the_workers(monkeypatch):
    monkeypatch.setattr(_search, "ROOT_TREE_MIN", 1_000)  # the rule at a small scale: trees of at least 1,000 dives
    game = TicTacToe()
    default = mcts_move(game, game.start(), 3_001, make_rng(4), workers=2, solver=False)
    assert default == mcts_move(game, game.start(), 3_001, make_rng(4), workers=1, trees=ROOT_TREES, solver=False)
    assert default == mcts_move(game, game.start(), 3_001, make_rng(4), workers=3, solver=False)
    assert default.iterations == 3_001 and visits(default.tree[game.start()]) == 3_001


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 3_500), st.integers(0, 2**32), st.integers(1, 3), st.integers(1, 3), st.booleans())
def test_a_default_split_makes_no_tree_under_root_tree_min_dives(iterations, seed, threads, workers, solver):
    """Fewer dives than ``ROOT_TREES`` trees of ``ROOT_TREE_MIN`` make fewer trees; one is the plain search, no pool."""
    game = Nim(heap=13, max_take=3, misere=False)
    trees = max(1, min(ROOT_TREES, iterations // 1_000))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_search, "ROOT_TREE_MIN", 1_000)  # the rule at a small scale: trees of at least 1,000 dives
        counting = _Counting(threads)
        with counting.pool:
            found = mcts_move(game, game.start(), iterations, make_rng(seed), solver=solver, executor=counting)
        assert found == mcts_move(game, game.start(), iterations, make_rng(seed), solver=solver, workers=workers)
        if trees == 1:  # one tree: the plain search, as without workers, and no task handed out
            assert found == mcts_move(game, game.start(), iterations, make_rng(seed), solver=solver)
            assert counting.sizes == []
        else:
            assert found == mcts_move(game, game.start(), iterations, make_rng(seed), solver=solver, workers=1,
                                      trees=trees)
            size = -(-iterations // trees)
            assert counting.sizes == [min(size, iterations - start) for start in range(0, iterations, size)]


def test_a_split_given_twice_or_badly_is_refused():
    game = Nim(heap=9)
    with pytest.raises(ValueError, match="trees= .* or chunk_size= .*not both"):
        mcts_move(game, game.start(), 100, make_rng(1), workers=2, trees=2, chunk_size=50)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="trees must be a positive whole number"):
            mcts_move(game, game.start(), 100, make_rng(1), workers=2, trees=bad)
    with pytest.raises(ValueError, match="chunk_size must be a positive whole number"):
        mcts_move(game, game.start(), 100, make_rng(1), workers=2, chunk_size=0)
