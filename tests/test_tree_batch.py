"""Deterministic tree-parallel search (``mcts_move(..., batch=k)``, ``fnmcts.mcts.batch``).

``k = 1`` is the plain search draw for draw; for ``k > 1`` the tree depends on the
seed and ``k`` alone (serial, a thread pool, a process pool: the same records); the
pending counts of a step are all taken off by its backups; a batched search plays
a legal move on generated games (chance, repeats, one to three players).
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.games import Nim, TicTacToe
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.mcts import mcts_move, search_options, visits
from fnmcts.mcts._engine import Stats, _ucb1_pick
from fnmcts.mcts._graph import CompiledGraph, mover_into
from fnmcts.mcts._records import ucb1_selector
from fnmcts.mcts.batch import _pending_pick, batch_dives
from fnmcts.protocol import CHANCE
from fnmcts.testing import decision_states, random_games

CASES = dict(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as pool:
        yield pool


def _records(found):
    return dict(found.tree.pmap())


def _same(a, b):
    assert (a.move, a.iterations, a.children, a.proven) == (b.move, b.iterations, b.children, b.proven)
    assert _records(a) == _records(b)


@settings(**CASES)
@given(decision_states(random_games(max_states=5_000), max_depth=20), st.integers(1, 60), st.integers(0, 2**32 - 1))
def test_batch_of_one_is_the_plain_search_draw_for_draw(threads, reached, dives, seed):
    game, state = reached.game, reached.state
    plain_rng, one_rng, pooled_rng = random.Random(seed), random.Random(seed), random.Random(seed)
    plain = mcts_move(game, state, dives, plain_rng)
    _same(plain, mcts_move(game, state, dives, one_rng, batch=1))
    _same(plain, mcts_move(game, state, dives, pooled_rng, batch=1, executor=threads))
    assert plain_rng.getstate() == one_rng.getstate() == pooled_rng.getstate()


@settings(**CASES)
@given(decision_states(random_games(max_states=5_000), max_depth=20), st.sampled_from([2, 4]), st.integers(1, 60),
       st.integers(0, 2**32 - 1))
def test_a_batched_tree_depends_on_the_seed_and_k_alone(threads, reached, k, dives, seed):
    game, state = reached.game, reached.state
    serial = mcts_move(game, state, dives, random.Random(seed), batch=k)
    assert serial.move in game.possible_moves(state)
    assert serial.iterations <= dives
    _same(serial, mcts_move(game, state, dives, random.Random(seed), batch=k, workers=1))
    _same(serial, mcts_move(game, state, dives, random.Random(seed), batch=k, executor=threads))


def _decision(game):
    """The first decision of ``game``: the start, past its first chance outcomes."""
    state = game.start()
    while game.to_move(state) is CHANCE:
        state = game.play(state, game.chance_outcomes(state)[-1][0])
    return state


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("game", [TicTacToe(), ShutTheBox()], ids=["tictactoe", "shut_the_box"])
def test_defaults_of_decisions_and_chance_run_batched_equal_on_threads(threads, k, game):
    state = _decision(game)
    serial = mcts_move(game, state, 200, random.Random(3), batch=k)
    _same(serial, mcts_move(game, state, 200, random.Random(3), batch=k, executor=threads))
    assert serial.move in game.possible_moves(state)


@settings(**CASES)
@given(decision_states(random_games(max_states=5_000), max_depth=20), st.sampled_from([2, 3, 4, 8]),
       st.integers(1, 50), st.integers(0, 2**32 - 1))
def test_every_step_takes_off_the_pending_counts_it_put_on(reached, k, dives, seed):
    game, state = reached.game, reached.state
    g = CompiledGraph(game)
    root = g.node(state)
    stats = Stats(g)
    stats.grow()
    seen, pending = [], {}
    done = batch_dives(g, stats, root, mover_into(game, state), dives, random.Random(seed), k, ucb1_selector(),
                       pending=pending, watch=lambda p: seen.append(dict(p)))
    assert done == dives and stats.N[root] == dives
    selected, backed = seen[0::2], seen[1::2]
    assert [s[root] for s in selected] == [min(k, dives - k * j) for j in range(len(selected))]
    assert all(not b for b in backed) and not pending


def test_a_step_spreads_its_dives_over_the_root_children():
    game = TicTacToe()
    found = mcts_move(game, game.start(), 9, random.Random(1), batch=9, solver=False)
    # the first dive is the root's playout; the eight others, pending at the root, enter eight children in move order
    assert [visits(r) for _, r in found.children] == [1] * 8 + [0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(1, 50)), min_size=1, max_size=6), st.data())
def test_with_nothing_pending_the_pick_is_ucb1s(counts, data):
    K = [None if n is None else data.draw(st.integers(0, n)) / n for n in counts]
    N = list(counts)
    parent = data.draw(st.integers(max(1, sum(n or 0 for n in N)), 400))
    logs = [-math.inf]
    options = tuple(range(len(N)))
    assert _pending_pick(K, N, {}, logs, 1.4)(options, parent) == _ucb1_pick(K, N, [-math.inf], 1.4)(
        options, parent, 0, 0, 0, None)


@pytest.mark.parametrize("batch, error, named", [
    (0, ValueError, "positive"), (-2, ValueError, "positive"), (True, TypeError, "whole"), (2.0, TypeError, "whole"),
    ("4", TypeError, "whole")])
def test_batch_must_be_a_positive_whole_number(batch, error, named):
    with pytest.raises(error, match=named):
        mcts_move(Nim(heap=5), Nim(heap=5).start(), 10, random.Random(0), batch=batch)


@pytest.mark.parametrize("given, named", [
    (dict(rave=10), "rave"), (dict(bounds=True), "bounds"), (dict(rule="tutorial"), "rule"),
    (dict(backup="graph"), "backup"), (dict(root="gumbel"), "root"),
    (dict(seconds=1.0), "seconds"), (dict(max_nodes=20), "max_nodes"), (dict(stop=lambda: False), "stop"),
    (dict(trees=2), "trees"), (dict(chunk_size=8), "chunk_size"), (dict(workers=0), "workers"), (dict(workers=2, executor=object()), "not both")])
def test_an_option_a_batch_does_not_take_is_named(given, named):
    with pytest.raises(ValueError, match=named):
        mcts_move(Nim(heap=5), Nim(heap=5).start(), 10, random.Random(0), batch=4, **given)


@pytest.mark.slow
@pytest.mark.parametrize("k", [2, 4, 16])
def test_a_batched_tree_is_the_same_on_processes(k):
    game = TicTacToe()
    serial = mcts_move(game, game.start(), 400, random.Random(7), batch=k)
    for workers in (2, 4):
        _same(serial, mcts_move(game, game.start(), 400, random.Random(7), batch=k, workers=workers))


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decision_states(random_games(max_states=5_000), max_depth=20), st.sampled_from([2, 4]), st.integers(1, 80),
       st.integers(0, 2**32 - 1))
def test_a_batched_tree_on_generated_games_is_the_same_on_processes(reached, k, dives, seed):
    game, state = reached.game, reached.state
    serial = mcts_move(game, state, dives, random.Random(seed), batch=k)
    _same(serial, mcts_move(game, state, dives, random.Random(seed), batch=k, workers=2))


def test_a_large_game_whose_kind_takes_rave_runs_batched_without_it():
    """RAVE is the default of a large two-player game (``RAVE_K``); a batched search takes none, so the default gives way."""
    class Large(Nim):
        def compiled_graph(self):  # declines: too large to hold as tables
            return None

    game = Large(heap=12)
    assert search_options(game).rave is not None
    batched = mcts_move(game, game.start(), 64, random.Random(3), batch=4)
    assert 0 < batched.iterations <= 64  # (the solver may prove the root sooner)
    assert dict(batched.tree) == dict(mcts_move(game, game.start(), 64, random.Random(3), batch=4, rave=False).tree)
    with pytest.raises(ValueError, match="does not support rave=30"):
        mcts_move(game, game.start(), 64, random.Random(3), batch=4, rave=30)
