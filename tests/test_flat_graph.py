"""A game's tables made whole once (``fnmcts.mcts._flat_graph``): a search on kept tables grows the tree a first one grows.

The compiled loop reads a game's tables expanded and flattened once per tables
object (a bounded cache). These properties ask that a search with the cache
warm grows exactly the tree of one with the cache cold and of the Python loop
(the same records, their numbers' types included, and the same generator state
afterwards), on generated table games and built-in games with tables; and that
a returned tree, built on first read, is the tree its own search grew even when
read after a later search continued it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.mcts import _flat_graph
from fnmcts.games import ShutTheBox
from fnmcts.mcts import _kernel, mcts_move, search
from fnmcts.testing import table_games

from spies import runs_of

numba = pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")

BUILT_IN = (ShutTheBox(levers=4), ShutTheBox(levers=5, dice="low-sum"))
"""Built-in games that offer their states as tables (``compiled_graph()``)."""

GAMES = st.one_of(table_games(tables=True), st.sampled_from(BUILT_IN))


@pytest.fixture
def counted(monkeypatch):
    """The kernel from one dive on, with a count of the searches it ran, and the cache of made tables emptied."""
    monkeypatch.setattr(_kernel, "KERNEL_MIN_DIVES", 1)
    _flat_graph._made.cache_clear()
    return runs_of(monkeypatch, _kernel, "_run")


def _grow(game, seed, n, more):
    """A search of ``n`` dives, continued by ``more``, and a move of ``mcts_move`` (at a decision): plain values."""
    rng = random.Random(seed)
    options = dict(solver=False, proofs=0, backup="mean")
    tree = search(game, game.start(), n, rng, **options)
    grown = search(game, game.start(), more, rng, tree=tree, **options)
    records = [{s: repr(r) for s, r in t.items()} for t in (tree, grown)]
    if type(game.to_move(game.start())) is not int:  # chance first (Shut the Box): no move to choose
        return records, rng.getstate()
    found = mcts_move(game, game.start(), n, rng, **options)
    return records + [{s: repr(r) for s, r in found.tree.items()}], found.move, found.children, rng.getstate()


@given(game=GAMES, seed=st.integers(0, 10**6), n=st.integers(1, 400), more=st.integers(0, 200))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
def test_a_warm_cache_grows_the_trees_of_a_cold_one_and_of_the_python_loop(counted, game, seed, n, more):
    _flat_graph._made.cache_clear()
    cold = _grow(game, seed, n, more)
    misses = _flat_graph._made.cache_info().misses
    warm = _grow(game, seed, n, more)
    assert _flat_graph._made.cache_info().misses == misses  # the second searches found the tables made
    with _kernel.switched_off():
        slow = _grow(game, seed, n, more)
    assert cold == warm == slow


@given(game=GAMES, seed=st.integers(0, 10**6), n=st.integers(1, 300), more=st.integers(1, 300))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_tree_read_after_its_continuation_is_the_tree_its_search_grew(counted, game, seed, n, more):
    options = dict(solver=False, proofs=0, backup="mean")
    rng = random.Random(seed)
    first = search(game, game.start(), n, rng, **options)  # built when first read
    later = search(game, game.start(), more, rng, tree=first, **options)
    alone = search(game, game.start(), n, random.Random(seed), **options)
    assert dict(first) == dict(alone) and len(later) >= len(first)
    assert all(repr(first[s]) == repr(r) for s, r in alone.items())


def test_the_kept_tables_are_bounded(counted):
    games = [ShutTheBox(levers=k) for k in range(2, 3 + _flat_graph.KEPT)]  # one more than are kept
    for game in games:
        search(game, game.start(), 50, random.Random(1), solver=False, proofs=0, backup="mean")
    info = _flat_graph._made.cache_info()
    assert info.misses == len(games) and info.currsize == _flat_graph.KEPT and counted and all(counted)


def test_openspiel_tables_warm_and_cold_equal_the_python_loop(counted):
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("tic_tac_toe")
    cold, warm = _grow(game, 7, 1_000, 300), _grow(game, 7, 1_000, 300)
    with _kernel.switched_off():
        slow = _grow(game, 7, 1_000, 300)
    assert cold == warm == slow and counted and all(counted)
