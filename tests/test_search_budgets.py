"""The tree as a value (``Tree``) and the budgets of a search: dives, seconds, a stop signal, a bound on the tree."""

import time
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st
from pyrsistent import pmap

from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.games.shut_the_box import start_box
from fnmcts.tutorial import uct as tutorial_uct
from fnmcts.mcts import Tree, mcts_move, record, search, uct, visits
from fnmcts.mcts._engine import Stats
from fnmcts.mcts._graph import CompiledGraph
from fnmcts.mcts._search import _prune
from fnmcts.rng import make_rng

records = st.builds(record, st.integers(0, 50), st.integers(0, 50))
maps = st.dictionaries(st.integers(-20, 20), records, max_size=12)


@given(maps, maps)
def test_tree_is_equal_to_and_hashes_like_its_pmap(a, b):
    tree = Tree(a)
    assert tree == pmap(a) and pmap(a) == tree and tree == a
    assert hash(tree) == hash(pmap(a))
    assert (Tree(a) == Tree(b)) == (pmap(a) == pmap(b))
    assert dict(tree.update(b)) == {**a, **b}
    for key in b:
        assert tree.set(key, b[key])[key] == b[key]
        assert key not in tree.discard(key)
    assert tree == Tree(a)  # nothing above changed it


def test_tree_keeps_the_pmap_operations_and_the_tutorial_uct():
    tree, result = tutorial_uct(pmap(), start_box, make_rng(1))
    assert isinstance(tree, Tree) and result == "loss"
    tree, _ = tutorial_uct(tree, start_box, make_rng(2))
    assert visits(tree[start_box]) == 2
    evolver = tree.evolver()
    evolver[frozenset({1})] = record(1, 0)
    assert Tree(evolver.persistent())[frozenset({1})] == record(1, 0)
    with pytest.raises(AttributeError):
        tree.x = 1
    import pickle

    assert pickle.loads(pickle.dumps(tree)) == tree


@pytest.mark.slow
def test_a_big_tree_prints_as_one_line_and_renders_as_a_small_table():
    tree = Tree({i: record(i, 10_000 - i) for i in range(10_000)}, root=5)
    text = repr(tree)
    assert text == "Tree(10,000 states, root 5: Record(win=5, loss=9995))"
    tree = search(ShutTheBox(), start_box, 2_000, make_rng(1))
    assert repr(tree) == f"Tree({len(tree)} states, root {start_box!r}: {tree[start_box]!r})"
    html = tree._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == 6 and f"{len(tree):,}" in html
    assert repr(Tree()) == "Tree(0 states)"


def test_no_budget_or_a_bad_one_is_named():
    game = Nim(heap=5)
    with pytest.raises(TypeError, match=r"iterations= \(search and mcts_move take it after the state\), seconds= or both"):
        search(game, game.start(), rng=make_rng(1))
    with pytest.raises(ValueError, match="seconds must be a positive"):
        search(game, game.start(), rng=make_rng(1), seconds=-1)
    with pytest.raises(ValueError, match="max_nodes must be at least 2"):
        mcts_move(game, game.start(), 10, make_rng(1), max_nodes=1)
    with pytest.raises(TypeError, match="max_nodes must be a whole number"):
        search(game, game.start(), 10, make_rng(1), max_nodes=2.5)


def test_seconds_end_the_search_and_the_first_budget_reached_wins():
    game = ShutTheBox()
    started = time.perf_counter()
    tree = search(game, start_box, rng=make_rng(1), seconds=0.2, rule="tutorial")
    assert time.perf_counter() - started >= 0.2 / 2  # the finish's share kept back is at most half the time left
    ran = visits(tree[start_box]) if start_box in tree else 0  # none, if the set-up outlasted 0.2 s on a loaded machine
    assert tree == search(game, start_box, ran, make_rng(1), rule="tutorial")  # the search of the dives it ran
    assert visits(search(game, start_box, 50, make_rng(1), seconds=30)[start_box]) == 50
    found = mcts_move(Nim(heap=60, max_take=3), Nim(heap=60, max_take=3).start(), rng=make_rng(1), seconds=0.2)
    assert found.iterations > 0


def test_a_move_searched_on_a_clock_that_ran_out_still_runs_a_dive():
    """``seconds=`` counts from the call; however little time is given, ``mcts_move`` has searched before it chooses."""
    game = Nim(heap=60, max_take=3)
    found = mcts_move(game, game.start(), rng=make_rng(1), seconds=1e-9)
    assert found.iterations == 1
    assert search(game, game.start(), rng=make_rng(1), seconds=1e-9) == search(game, game.start(), 0, make_rng(1))


@pytest.mark.slow
def test_the_search_stops_at_the_first_reading_of_the_clock_past_its_deadline(monkeypatch):
    """On a clock that moves 10 ms a reading (whatever the machine's load), no dive starts after the deadline.

    The clock starts when the search is called (reading 0); the dives keep back for the finish as long as the
    set-up took (reading 0 to the first chunk's, reading 1), so their deadline is 0.2 s less that.
    """
    import fnmcts.mcts._search as searching

    readings = []

    def clock():
        readings.append(len(readings) * 0.01)
        return readings[-1]

    monkeypatch.setattr(searching, "time", SimpleNamespace(perf_counter=clock))
    tree = search(ShutTheBox(levers=6), ShutTheBox(levers=6).start(), rng=make_rng(1), seconds=0.2)
    deadline = readings[0] + 0.2 - (readings[1] - readings[0])
    assert visits(tree[ShutTheBox(levers=6).start()]) > 0
    assert readings[-1] >= deadline > readings[-2]


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.integers(1, 20), st.integers(0, 10_000), st.sampled_from(["mean", "expectimax"]))
def test_a_stopped_search_is_the_search_of_the_dives_it_ran(stop_after, seed, backup):
    """``stop`` ends the search between dives; the tree so far is exactly a shorter search's."""
    game = ShutTheBox(levers=6)
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > stop_after

    tree = search(game, game.start(), 10**9, make_rng(seed), stop=stop, backup=backup)
    done = visits(tree[game.start()])
    assert 0 < done < 10**9
    assert tree == search(game, game.start(), done, make_rng(seed), backup=backup)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 60), st.integers(1, 600), st.integers(0, 10_000), st.booleans())
def test_a_bounded_tree_never_exceeds_its_bound(max_nodes, dives, seed, solver):
    game = TicTacToe()
    tree = search(game, game.start(), dives, make_rng(seed), max_nodes=max_nodes, solver=solver)
    assert 1 <= len(tree) <= max_nodes
    assert visits(tree[game.start()]) == dives
    found = mcts_move(game, game.start(), dives, make_rng(seed), max_nodes=max_nodes)
    assert len(found.tree) <= max_nodes and found.move in game.possible_moves(game.start())


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 300), st.integers(0, 10_000))
def test_a_bound_the_tree_never_reaches_changes_nothing(dives, seed):
    game = Nim(heap=12, max_take=3)
    free = search(game, game.start(), dives, make_rng(seed))
    assert search(game, game.start(), dives, make_rng(seed), max_nodes=len(free) + 1) == free


@settings(max_examples=20, deadline=None)
@given(st.integers(20, 400), st.integers(0, 10_000), st.integers(1, 40))
def test_pruning_drops_leaves_and_keeps_the_tree_connected(dives, seed, keep):
    """Leaves go first: every kept state keeps a parent, so the root still reaches it."""
    game = Nim(heap=15, max_take=3, misere=False)
    tree = search(game, game.start(), dives, make_rng(seed))
    graph = CompiledGraph(game)
    stats = Stats(graph)
    for state, rec in tree.items():
        i = graph.node(state)
        stats.grow()
        stats.set(i, [visits(rec), rec["win"], rec["win"], 0, None])
    for i in range(len(graph.states)):
        if visits(tree[graph.states[i]]) > 1:  # as the search left it: a state dived through is expanded
            graph.expand(i)
            stats.grow()
    root = graph.node(game.start())
    _prune(stats, root, keep)
    kept = {graph.states[i] for i, n in enumerate(stats.N) if n is not None}
    assert game.start() in kept and len(kept) == min(keep, len(tree))
    for state in kept - {game.start()}:  # a Nim state's parent: one to three more matches, the other player
        parents = [game.state(state["heap"] + k, 1 - state["player"]) for k in (1, 2, 3)]
        assert any(p in kept for p in parents)


def test_uct_and_search_return_trees_rooted_where_they_ran():
    game = Nim(heap=7)
    tree, _ = uct(game, pmap(), game.start(), make_rng(1))
    assert isinstance(tree, Tree) and tree.root == game.start()
    assert search(game, game.start(), 10, make_rng(1)).root == game.start()


# -- a proven root ends a search that asks it to (issue 32) -------------------------------------------


@given(st.integers(0, 10**6), st.integers(1, 400), st.sampled_from([{}, {"bounds": True}, {"solver": False}]))
def test_a_search_until_proven_is_the_search_of_the_dives_that_ran(seed, n, options):
    import random

    from hypothesis import assume

    game = Nim(heap=9, max_take=3)
    state = game.start()
    stopped = search(game, state, n, random.Random(seed), until_proven=True, **options)
    ran = visits(stopped[state])
    kept = stopped[state].get("bounds")
    proven = stopped[state].get("proven") is not None or (kept is not None and kept[0] == kept[1])
    assume(ran)
    assert ran == n or proven  # only a proof ends it early
    assert stopped == search(game, state, ran, random.Random(seed), **options)  # the same dives up to the proof
    if proven and ran < n:
        more = search(game, state, n, random.Random(seed), **options)
        assert visits(more[state]) == n  # without it every dive runs (a dive at a proven root: uct's)


def test_the_commands_say_a_root_is_proven_and_stop_there(capsys):
    from cli_run import run, run_json

    data = run_json(capsys, "search", "nim", "--heap", "6", "--dives", "5000", "--seed", "1")
    assert data["proven"] == [1, -1] and data["root_visits"] < 5000 and data["best_move"] == "take 1"
    code, out, _ = run(capsys, "search", "nim", "--heap", "6", "--dives", "5000", "--seed", "1")
    assert code == 0 and f"{data['root_visits']:,} dives of 5,000 (the root is proven)" in out
    assert "(proven: the value (1, -1))" in out
    data = run_json(capsys, "search", "shut-the-box", "--levers", "4", "--dives", "100000", "--seed", "1")
    assert data["proven"] == [pytest.approx(data["optimum"])] and data["dives"] < 100_000
    code, out, _ = run(capsys, "search", "shut-the-box", "--levers", "4", "--dives", "100000", "--seed", "1")
    assert "the search proved the root and stopped" in out and "(the root is proven)" in out
    data = run_json(capsys, "search", "shut-the-box", "--levers", "4", "--dives", "3000", "--seed", "1", "--no-solver")
    assert data["proven"] is None and data["dives"] == 3_000


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 1e-2), st.floats(1e-3, 1.0), st.integers(1, 10**6))
def test_a_chunk_never_runs_past_the_deadline_at_the_pace_of_the_last(pace, seconds, dives):
    """At a steady pace a search ends within one dive of its deadline (the first chunk, 16 dives, aside).

    A dive starts while the clock is short of the deadline, so one dive may end past it; never a chunk.
    """
    from unittest import mock

    import fnmcts.mcts._search as searching

    now = [0.0]
    with mock.patch.object(searching, "time", SimpleNamespace(perf_counter=lambda: now[0])):
        budget = searching._Budget(dives, seconds, None)
        done, chunks = 0, 0
        while k := budget.take():
            now[0] += k * pace  # the chunk's dives, each ``pace`` seconds
            budget.spent(k)
            done, chunks = done + k, chunks + 1
    first = min(16, dives) * pace
    assert now[0] <= max(seconds - min(seconds / 10, 0.005) + pace, first) + 1e-9 * (1 + now[0])
    share = min(seconds / 10, 0.005)  # the finish's share (the set-up took no time here)
    assert done == dives or now[0] >= seconds - share  # it stops at its dives or its deadline, not before


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 1e-3), st.floats(0.0, 1e-3), st.floats(0.01, 1.0), st.integers(1, 10**6))
def test_chunks_with_a_fixed_cost_end_by_the_deadline_in_a_few_chunks(pace, fixed, seconds, dives):
    """A chunk costing ``fixed`` seconds besides ``pace`` a dive (a compiled call's set-up and write-back): the
    search stops within a chunk of one dive past its deadline, runs no chunk whose fixed cost alone would pass it,
    uses the time it is given (no more than the fixed part of a chunk left over), in a few chunks besides those of
    about 20 ms each that keep a Ctrl-C heard."""
    from unittest import mock

    import fnmcts.mcts._search as searching

    now = [0.0]
    with mock.patch.object(searching, "time", SimpleNamespace(perf_counter=lambda: now[0])):
        budget = searching._Budget(dives, seconds, None)
        done, chunks = 0, 0
        while k := budget.take():
            now[0] += fixed + k * pace
            budget.spent(k)
            done, chunks = done + k, chunks + 1
    assert now[0] <= seconds - min(seconds / 10, 0.005) + fixed + pace + 1e-9
    share = min(seconds / 10, 0.005)  # the finish's share (the set-up took no time here)
    assert done == dives or now[0] >= seconds - share - fixed - 1e-9
    if done < dives and seconds >= 100 * (fixed + pace):
        assert chunks <= 12 + seconds / 0.01, chunks


def test_a_chunk_that_reads_the_clock_runs_until_the_deadline_and_spends_the_budget():
    """A clocked chunk (the compiled rules' loop reads the clock itself) is bounded by the dives left, not by a pace;
    it returns by the deadline or 20 ms on, whichever is first; once it stopped short on the deadline, no chunk
    follows, while one stopped on its 20 ms gives way to the next."""
    from unittest import mock

    import fnmcts.mcts._search as searching

    now = [0.0]
    with mock.patch.object(searching, "time", SimpleNamespace(perf_counter=lambda: now[0])):
        budget = searching._Budget(None, 0.05, None)
        assert budget.take(10_000, 16, clocked=True) == 10_000
        assert budget.until == pytest.approx(0.02)  # 20 ms on: a Ctrl-C is heard
        now[0] = 0.02
        budget.spent(700)
        assert budget.take(10_000, 16, clocked=True) == 10_000
        assert budget.until == pytest.approx(0.04)  # 20 ms on again: stopped there, a chunk follows
        now[0] = 0.04
        budget.spent(600)
        assert budget.take(10_000, 16, clocked=True) == 10_000
        assert budget.until == pytest.approx(0.045)  # the deadline, less the finish's share (a tenth: 5 ms)
        now[0] = 0.045
        budget.spent(900)
        assert budget.take(10_000, 16, clocked=True) == 0
        left = searching._Budget(300, 0.05, None)
        assert left.take(10_000, 16, clocked=True) == 300  # the dives left bound it
