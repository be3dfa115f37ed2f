"""The compiled loop (``fnmcts.mcts._kernel``) equals ``_engine.dives`` in Python, draw for draw.

Every test runs a search twice: once as it runs (the kernel where it applies)
and once with the kernel switched off, and asks for the same tree, the same
records (their numbers' types included), the same moves and the same generator
state afterwards. The kernel's set-up threshold is lowered to one dive, so the
generated games and short searches run through it too.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.games import Nim, TicTacToe
from fnmcts.mcts import _kernel, mcts_move, search, ucb
from fnmcts.mcts._graph import EVERY_NODE, CompiledGraph
from fnmcts.testing import decision_states, random_games

from small_games import cyclic_table_games, search_games, table_games
from spies import runs_of

numba = pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")


@pytest.fixture
def counted(monkeypatch):
    """The kernel from one dive on, with a count of the searches it ran."""
    monkeypatch.setattr(_kernel, "KERNEL_MIN_DIVES", 1)
    monkeypatch.setattr(_kernel, "RULES_MIN_DIVES", 1)
    return runs_of(monkeypatch, _kernel, "_run")


def _python(monkeypatch, call):
    """``call()`` with the kernel off: ``dives`` in Python."""
    with _kernel.switched_off():
        return call()


def _same_records(a, b):
    assert dict(a) == dict(b)
    for state, rec in b.items():  # the same numbers, of the same types (a whole-number score stays whole)
        assert repr(a[state]) == repr(rec)


def test_numba_is_installed_with_the_test_extra():
    # the test extra installs the fast extra: without it the properties below would test nothing
    assert _kernel.available()


@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(0, 1_300))
@settings(max_examples=30, deadline=None)
def test_the_compiled_draw_is_cpythons_random(seed, draws):
    import numpy as np

    from fnmcts.mcts._compiled import rnd

    rng = random.Random(seed)
    state = rng.getstate()
    mt, pos = np.array(state[1][:624], np.uint64), np.array([state[1][624]], np.int64)
    got = [rnd(mt, pos) for _ in range(draws)]  # past the twist at 312 draws, and again
    assert got == [rng.random() for _ in range(draws)]
    assert (tuple(int(x) for x in mt) + (int(pos[0]),)) == rng.getstate()[1]


@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(0, 700), gauss=st.booleans())
@settings(max_examples=30, deadline=None)
def test_a_generator_goes_into_the_compiled_draws_and_back_whole(seed, draws, gauss):
    from fnmcts.mcts._compiled import rnd, rng_in, rng_out

    rng, twin = random.Random(seed), random.Random(seed)
    if gauss:  # (a normal draw kept for the next call: the third part of the state)
        rng.gauss(0, 1), twin.gauss(0, 1)
    mt, pos = rng_in(rng)
    got = [rnd(mt, pos) for _ in range(draws)]
    rng_out(rng, mt, pos)
    assert got == [twin.random() for _ in range(draws)]
    assert rng.getstate() == twin.getstate()
    assert rng.random() == twin.random() and rng.gauss(0, 1) == twin.gauss(0, 1)


@given(game=search_games(), seed=st.integers(0, 10**6), n=st.integers(1, 700),
       rule=st.sampled_from(("ucb1", "tutorial")), c=st.sampled_from((0.2, 1.0, 2**0.5, 2.0)),
       more=st.integers(0, 300))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@pytest.mark.slow
def test_search_equals_the_python_loop(counted, monkeypatch, game, seed, n, rule, c, more):
    options = dict(solver=False, rule=rule, **({"c": c} if rule == "ucb1" else {"z": c}))

    def grow():
        rng = random.Random(seed)
        tree = search(game, game.start(), n, rng, **options)
        grown = search(game, game.start(), more, rng, tree=tree, **options) if more else tree
        return tree.pmap(), grown.pmap(), rng.getstate()

    fast, slow = grow(), _python(monkeypatch, grow)
    _same_records(fast[0], slow[0])
    _same_records(fast[1], slow[1])
    assert fast[2] == slow[2]


def _solved(game, n) -> bool:
    """Whether the compiled loop takes a search of ``n`` dives of ``game`` with the solver on: one or two players, no
    chance, states that do not repeat, and a graph of ``n`` nodes at most (a search walks as many as it dives)."""
    from fnmcts.mcts._engine import started
    from fnmcts.mcts._kernel import complete

    graph, _, root = started(game)
    return getattr(game, "num_players", 1) <= 2 and not getattr(game, "may_repeat", bool)() and \
        complete(graph, root, n) and -2 not in graph.kind


@given(game=search_games(), seed=st.integers(0, 10**6), n=st.integers(1, 700),
       rule=st.sampled_from(("ucb1", "tutorial")), c=st.sampled_from((0.2, 1.0, 2**0.5)),
       more=st.integers(0, 300), until=st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
def test_the_solver_equals_the_python_loop(counted, monkeypatch, game, seed, n, rule, c, more, until):
    # MCTS-Solver in the compiled loop: the same choices, proofs, stops and draws as ``Solver`` in Python
    options = dict(solver=True, backup="mean", proofs=0, rule=rule, **({"c": c} if rule == "ucb1" else {"z": c}))
    if until:
        options["until_proven"] = True

    def grow():
        rng = random.Random(seed)
        tree = search(game, game.start(), n, rng, **options)
        grown = search(game, game.start(), more, rng, tree=tree, **options) if more else tree
        return tree.pmap(), grown.pmap(), rng.getstate()

    counted.clear()
    fast = grow()
    ran = any(counted)
    slow = _python(monkeypatch, grow)
    _same_records(fast[0], slow[0])
    _same_records(fast[1], slow[1])
    assert fast[2] == slow[2]
    if n > 1 and _solved(game, n):
        assert ran  # the compiled solver took it (a search of one dive is one step of the tutorial's ``uct``)


@given(reached=decision_states(random_games(players=(1, 2), max_states=3_000, chance=False,
                                           repeats=False), max_depth=20),
       seed=st.integers(0, 2**32 - 1), n=st.integers(2, 3_000), until=st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
def test_the_compiled_solver_takes_generated_games_deep_in_them(counted, monkeypatch, reached, seed, n, until):
    # the generator's games of one or two players without chance, searched from a state deep in them, equal
    game, state = reached.game, reached.state

    def grow():
        rng = random.Random(seed)
        return search(game, state, n, rng, solver=True, proofs=0, until_proven=until).pmap(), rng.getstate()

    counted.clear()
    fast = grow()
    assert counted and all(counted) or not _solved(game, n)
    slow = _python(monkeypatch, grow)
    _same_records(fast[0], slow[0])
    assert fast[1] == slow[1]


@pytest.mark.parametrize("game, n", [(Nim(21, 3, misere=True), 2_500), (Nim(9, 4, misere=False), 700),
                                     (TicTacToe(), 6_000)], ids=repr)
def test_mcts_move_with_the_solver_equals_the_python_loop(counted, monkeypatch, game, n):
    def move():
        rng = random.Random(3)
        found = mcts_move(game, game.start(), n, rng, proofs=0)
        return found.move, found.children, found.iterations, dict(found.tree), rng.getstate()

    counted.clear()
    assert move() == _python(monkeypatch, move)
    assert counted and all(counted)


@given(game=table_games(), seed=st.integers(0, 10**6), n=st.integers(14, 500))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_kernel_runs_on_every_acyclic_game(counted, game, seed, n):
    counted.clear()
    search(game, game.start(), n, random.Random(seed), solver=False, backup="mean")  # (chance games: expectimax by default)
    assert counted and all(counted)


@given(game=search_games(), seed=st.integers(0, 10**6), n=st.integers(14, 500), more=st.integers(0, 100))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
def test_the_counts_held_back_read_as_they_are_written(counted, game, seed, n, more):
    rng, tree = random.Random(seed), None
    for dives in (n, more) if more else (n,):  # (more: a search continued from the counts held back)
        counted.clear()
        tree = search(game, game.start(), dives, rng, tree=tree, solver=False, backup="mean")
    stats = tree._work.stats
    if counted != [True]:  # (the loop did not run the last dives: nothing held)
        return
    assert stats.held is not None
    nodes = range(len(stats.graph))
    held = [repr(stats.counts(i)) for i in nodes]  # read from the loop's arrays
    assert stats.held is not None
    assert stats.N is stats.__dict__["N"] and stats.held is None and stats.E is stats.S  # written, once read
    assert [repr(stats.counts(i)) for i in nodes] == held


@pytest.mark.slow
@given(game=cyclic_table_games(), seed=st.integers(0, 10**6))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_games_that_repeat_stay_in_python(counted, game, seed):
    counted.clear()
    search(game, game.start(), 50, random.Random(seed), solver=False)
    if game.may_repeat():
        assert not counted


@pytest.mark.parametrize("game, n", [(Nim(21, 3, misere=True), 2_500), (Nim(9, 4, misere=False), 700),
                                     (TicTacToe(), 6_000)], ids=repr)  # (a graph is walked whole for as many dives)
def test_mcts_move_equals_the_python_loop(counted, monkeypatch, game, n):
    def move():
        rng = random.Random(3)
        found = mcts_move(game, game.start(), n, rng, solver=False)
        return found.move, found.children, found.iterations, dict(found.tree), rng.getstate()

    assert move() == _python(monkeypatch, move)
    assert counted and all(counted)


def test_the_tutorial_rule_on_shut_the_box_equals_the_python_loop(counted, monkeypatch):
    from fnmcts.games.shut_the_box import ShutTheBox, start_box

    def grow():
        rng = random.Random(5)
        return search(ShutTheBox(), start_box, 3_000, rng, rule=ucb).pmap(), rng.getstate()

    fast, slow = grow(), _python(monkeypatch, grow)
    _same_records(fast[0], slow[0])
    assert fast[1] == slow[1] and counted and all(counted)


def test_what_the_kernel_does_not_take_runs_in_python(counted):
    class Counting(random.Random):  # a generator of the user's: its own draws, so Python's loop
        pass

    game = Nim(11, 3)
    search(game, game.start(), 600, Counting(1), solver=False)
    search(game, game.start(), 600, random.Random(1), bounds=True)  # score bounds: the Python loop
    search(game, game.start(), 600, random.Random(1), solver=False, rule=lambda rec, parent_visits: 0.5)
    assert not counted
    search(game, game.start(), 600, random.Random(1), solver=False)
    assert counted == [True]


def test_a_graph_too_large_to_complete_is_remembered_by_the_tree_that_carries_it(monkeypatch):
    monkeypatch.setattr(_kernel, "COMPLETE_LIMIT", 20)
    walks = []
    real = _kernel.complete
    monkeypatch.setattr(_kernel, "complete", lambda *a: walks.append(a[2]) or real(*a))
    game = Nim(40, 3)
    tree = None
    for _ in range(3):  # the returned tree carries its graph, and the graph what its walk ran out of
        tree = search(game, game.start(), 600, random.Random(1), solver=False, tree=tree)
    # two walks, each once, given up on, not walked again: the game's from its start (``whole_graph``, kept per game
    # value) and the graph's of the tree from its root
    assert walks == [20, 20]
    search(game, game.start(), 600, random.Random(1), solver=False)
    assert walks == [20, 20, 20]  # a new search, a new graph, walked; the game's walk that ran out is remembered
    graph = CompiledGraph(game)
    assert not real(graph, graph.node(game.start()), 20) and real(graph, 0, 200)


def test_a_game_whose_hook_gives_no_tables_is_not_walked(counted, monkeypatch):
    class Big(Nim):  # a game that says its graph is too large to hold
        def compiled_graph(self):
            return None

    walks = []
    monkeypatch.setattr(_kernel, "complete", lambda *a: walks.append(a) or True)
    game = Big(30, 3)
    search(game, game.start(), 600, random.Random(1), solver=False)
    assert walks == [] and counted == []


@pytest.mark.slow
@pytest.mark.parametrize("proofs, rule", [(0, "ucb1"), (4, "ucb1"), (2, "tutorial")])
def test_openspiel_tables_and_the_proofs_view_equal_the_python_loop(counted, monkeypatch, proofs, rule):
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("tic_tac_toe")  # tables; with proofs, the view's tables with the proven states as ends

    def grow():
        rng = random.Random(3)
        return search(game, game.start(), 1_500, rng, solver=False, proofs=proofs, rule=rule).pmap(), rng.getstate()

    fast, slow = grow(), _python(monkeypatch, grow)
    _same_records(fast[0], slow[0])
    assert fast[1] == slow[1] and counted and all(counted)


def test_a_search_runs_on_after_a_walk_that_gave_up(monkeypatch):
    # issue 32: a walk that gave up interned about a thousand nodes the working lists had not taken
    # in, and the Python loop then indexed past them (IndexError at the first search of the game)
    from small_games import Connect

    game, state = Connect(), ((0,), (1, 0), (0,), (1,))

    def move():
        rng = random.Random(1)
        found = mcts_move(game, state, 1_000, rng, solver=False)
        return found.move, found.children, dict(found.tree), rng.getstate()

    walked = move()
    assert walked == _python(monkeypatch, move)


@given(limit=st.integers(1, 300), heap=st.integers(5, 60), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_the_working_lists_cover_the_graph_whether_or_not_the_walk_completes(limit, heap, seed):
    from fnmcts.mcts._engine import Stats

    game = TicTacToe() if heap > 50 else Nim(heap, 3)
    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_kernel, "COMPLETE_LIMIT", limit)
        _kernel.run(graph, stats, root, 1, 600, random.Random(seed), 1, 2 ** 0.5)
    assert stats.known == len(graph) <= len(stats.N) and len(stats.K or stats.N) == len(stats.N)


def test_switching_the_loop_off_holds_for_this_thread_alone():
    # issue 34: switched_off() once flipped a module global, for every thread of the process
    import threading

    seen = []
    with _kernel.switched_off():
        other = threading.Thread(target=lambda: seen.append(bool(_kernel._kernel())))
        other.start()
        other.join()
        seen.append(bool(_kernel._kernel()))
    seen.append(bool(_kernel._kernel()))
    assert seen == [True, False, True]


@given(reached=decision_states(random_games(max_states=3_000), max_depth=20), seed=st.integers(0, 2**32 - 1),
       solver=st.booleans(), compiled=st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_searches_on_a_game_s_kept_whole_graph_grow_the_trees_of_their_own_graphs(reached, seed, solver, compiled):
    """A game with no hook of its own is walked once (``whole_graph``) for its searches long enough, from any root: the
    same trees as a search on a graph of its own (``graph=``), and a second search walks nothing."""
    game, root = reached.game, reached.state
    n = _kernel.KERNEL_MIN_DIVES
    with contextlib.nullcontext() if compiled else _kernel.switched_off():
        own = search(game, root, n, random.Random(seed), solver=solver, graph=CompiledGraph(game))
        shared = search(game, root, n, random.Random(seed), solver=solver)
    _same_records(shared, own)
    kept = _kernel.whole_graph(game, n)
    if kept is None:  # a game of more states than the dives pay for: each search walks its own
        return
    assert kept.whole_from == (EVERY_NODE, len(kept)) and root in kept.index
    walks = []
    real = _kernel.complete
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_kernel, "complete", lambda *a: (not isinstance(a[0].whole_from, tuple) and walks.append(a)) or real(*a))
        again = search(game, root, n, random.Random(seed), solver=solver)
    _same_records(again, own)
    assert walks == [] and _kernel.whole_graph(game, n) is kept  # not walked again


def test_a_game_kept_whole_is_walked_once_and_a_larger_one_not_again_for_as_many_dives(monkeypatch):
    walks = []
    real = _kernel.complete
    monkeypatch.setattr(_kernel, "complete",
                        lambda *a: (not isinstance(a[0].whole_from, tuple) and walks.append(a[2])) or real(*a))  # the walks made
    _kernel._whole.cache_clear()
    small, large = Nim(heap=30, max_take=3), Nim(heap=5_000, max_take=3)  # 10,000 states
    for _ in range(3):
        search(small, small.start(), 600, random.Random(1), solver=False)
    assert walks == [8192]  # 8 nodes a dive, rounded up to a power of 2: the 62 states, once
    for _ in range(2):
        search(large, large.start(), 600, random.Random(1), solver=False)
    assert walks == [8192, 8192, 600, 600]  # the walk from the start ran out, once; each graph's own
    search(large, large.start(), 2_000, random.Random(1), solver=False)
    assert walks == [8192, 8192, 600, 600, 16_384]  # more dives pay for a longer walk: every state, kept
    assert len(_kernel.whole_graph(large, 2_000)) == 10_000 and _kernel.whole_graph(large, 600) is None


def test_a_root_off_the_kept_whole_graph_is_searched_on_a_graph_that_reaches_it():
    """Nim's full heap with the second player to move is no state of the game from its start: a search from it gets a
    graph of its own, and a tree grown on the kept graph and continued from it expands it first (a crash of the
    compiled loop, which read the new root unexpanded, before)."""
    game = Nim(heap=12, max_take=3)
    off = game.state(12, 1)
    kept = search(game, game.start(), 600, random.Random(1), solver=False)
    assert _kernel.whole_graph(game, 600) is not None and off not in _kernel.whole_graph(game, 600).index
    own = search(game, off, 600, random.Random(2), solver=False, graph=CompiledGraph(game))
    _same_records(search(game, off, 600, random.Random(2), solver=False), own)
    continued = search(game, off, 600, random.Random(2), solver=False, tree=kept)
    fresh = search(game, off, 600, random.Random(2), solver=False, tree=kept, graph=CompiledGraph(game))
    _same_records(continued, fresh)


class _BrokenAtOne(Nim):
    """Nim whose ``possible_moves`` fails at a heap of 1: a user's game with a bug deep in it."""

    def possible_moves(self, state):
        if state["heap"] == 1:
            raise ZeroDivisionError("a bug at heap 1")
        return super().possible_moves(state)


def test_a_game_that_fails_deep_in_its_walk_is_not_kept_and_its_search_fails_as_on_a_graph_of_its_own():
    from fnmcts.protocol import GameError

    game = _BrokenAtOne(heap=15, max_take=3)
    assert _kernel.whole_graph(game, 600) is None  # the walk met the bug: not kept, not walked again
    raised = []
    for graph in (None, CompiledGraph(game)):
        with pytest.raises(GameError) as caught:
            search(game, game.start(), 600, random.Random(1), solver=False, graph=graph)
        raised.append(str(caught.value))
    assert raised[0] == raised[1] and "possible_moves" in raised[0] and "a bug at heap 1" in raised[0]
