"""OpenSpiel's dots_and_boxes on compiled rules (``fnmcts.games._dots_and_boxes_rules``): the rules on keys agree
with OpenSpiel's state for state, a key is the adapter's state, the decisive choice is the adapter's, and a search on
the compiled rules (``fnmcts.mcts._rules_kernel``) equals the Python loop draw for draw.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
pytest.importorskip("numba", reason="the compiled rules need Numba (pip install fnmcts[fast])")

from fnmcts.games._dots_and_boxes_rules import key_after, key_bits, rules_for  # noqa: E402
from fnmcts.mcts import _kernel, search, visits  # noqa: E402
from fnmcts.mcts._graph import CompiledGraph  # noqa: E402
from fnmcts.openspiel import from_openspiel  # noqa: E402

from spies import both_loops, rules_runs  # noqa: E402

SPEC = "dots_and_boxes(num_rows=3,num_cols=3)"

SIZES = ((1, 1), (1, 3), (2, 2), (3, 3), (2, 4), (4, 4))
"""Boards the rules are checked on: one box, a strip, OpenSpiel's default (draws possible), the searched board,
an oblong, the largest square whose key fits."""


def _history(seed, plies, lines):
    """A random order of ``plies`` of the ``lines`` lines: a line of play (any order of lines not all drawn is
    legal)."""
    rng = random.Random(seed)
    return rng.sample(range(lines), min(plies, lines))


def _native(rows, cols, history=()):
    """OpenSpiel's state of a board of ``rows`` by ``cols`` boxes after ``history``."""
    native = pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols}).new_initial_state()
    for action in history:
        native.apply_action(action)
    return native


@given(size=st.sampled_from(SIZES), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_rules_on_keys_play_as_openspiel_along_a_random_game(size, seed):
    rows, cols = size
    rules = rules_for({"num_rows": rows, "num_cols": cols, "utility_margin": False})
    lines = rules.width
    assert lines == pyspiel.load_game("dots_and_boxes", {"num_rows": rows, "num_cols": cols}).num_distinct_actions()
    history = _history(seed, lines, lines)
    kids, moves = np.zeros(lines, np.int64), np.zeros(lines, np.int64)
    native = _native(rows, cols)
    for ply in range(lines + 1):
        key = key_after(np.array(history[:ply], np.int64), rows, cols)
        assert 0 <= key < 1 << key_bits(rows, cols)
        m = rules.step(key, kids, moves)
        if native.is_terminal():
            assert ply == lines and m < 0 and rules.payoffs[-1 - m] == tuple(native.returns())
            break
        assert rules.mover(key) == native.current_player()
        assert moves[:m].tolist() == native.legal_actions()
        assert kids[:m].tolist() == [key_after(np.array(history[:ply] + [a], np.int64), rows, cols)
                                     for a in moves[:m].tolist()]
        native.apply_action(history[ply])


@given(seed=st.integers(0, 2**32 - 1), other=st.integers(0, 2**32 - 1), plies=st.integers(0, 24))
@settings(max_examples=60, deadline=None)
def test_a_key_is_the_adapter_s_state(seed, other, plies):
    # the same lines drawn in two orders: one key exactly when one state (its picture, boxes' owners, player to move)
    game = from_openspiel(SPEC)
    rules = game.compiled_rules()
    one = _history(seed, plies, 24)
    two = random.Random(other).sample(one, len(one))
    a, b = game.state_from_json(one), game.state_from_json(two)
    assert (rules.key(a) == rules.key(b)) == (a == b)
    assert rules.key(a) == key_after(np.array(one, np.int64), 3, 3)


def test_transposed_lines_with_the_same_boxes_and_player_are_one_key():
    # box 0 (lines 0, 3, 12, 13) closed by the second player both ways, who then draws line 5: one state, one key
    game = from_openspiel(SPEC)
    key = game.compiled_rules().key
    a, b = game.state_from_json([0, 12, 13, 3, 5]), game.state_from_json([13, 12, 0, 3, 5])
    assert a == b and key(a) == key(b)
    c = game.state_from_json([5, 13, 12, 0, 3])  # the first player closes it last, and moves: another owner alone
    assert game.to_move(c) == game.to_move(a) == 0 and c != a and key(c) != key(a)


@given(size=st.sampled_from(SIZES[:4]), seed=st.integers(0, 2**32 - 1),
       back=st.one_of(st.integers(1, 4), st.integers(1, 24)))
@settings(max_examples=60, deadline=None)
def test_the_decisive_choice_is_the_adapter_s(size, seed, back):
    # OpenSpielGame._decisive_choices, the Python playout's: winning, else safe, else all, in move order
    rows, cols = size
    game = from_openspiel(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    rules = game.compiled_rules()
    lines = rules.width
    history = _history(seed, max(0, lines - back), lines)  # often near the end, where the choice is made
    state = game.state_from_json(history)
    native = game.native_state(state)
    player, legal = native.current_player(), native.legal_actions()
    kids, moves, chosen = np.zeros(lines, np.int64), np.zeros(lines, np.int64), np.zeros(lines, np.int64)
    key = rules.key(state)
    m = rules.step(key, kids, moves)
    n = rules.decisive(key, kids, moves, m, chosen)
    assert moves[chosen[:n]].tolist() == game._decisive_choices(native, list(history), player, legal)


@pytest.fixture
def ran(monkeypatch):
    """The searches the compiled rules ran (a list that grows by one per run)."""
    return rules_runs(monkeypatch, from_openspiel(SPEC))


_both = both_loops


def _state(game, seed, plies):
    """The state after a random ``plies`` of the game's lines (None at the end)."""
    state = game.state_from_json(_history(seed, plies, 24))
    return None if game.to_move(state) is None else state


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 20), n=st.integers(_kernel.RULES_MIN_DIVES, 500),
       then=st.integers(_kernel.RULES_MIN_DIVES, 200), solver=st.booleans())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_openspiel_s_dots_and_boxes_searches_on_the_compiled_rules_as_the_python_loop(ran, seed, plies, n, then,
                                                                                    solver):
    game = from_openspiel(SPEC)
    state = _state(game, seed, plies)

    def call(rng):  # a search, then one more on its graph (its states' keys read from their histories)
        rng.seed(seed)
        graph = CompiledGraph(game)
        one = search(game, state, n, rng, solver=solver, rave=False, graph=graph)
        two = search(game, state, then, rng, solver=solver, rave=False, graph=graph)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()  # (one list for every example)
    tree = _both(call)
    assert ran == [True, True]
    assert (visits(tree[("first", state)]), visits(tree[("then", state)])) == (n, then)


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 22), n=st.integers(_kernel.RULES_MIN_DIVES, 300),
       rave=st.sampled_from((False, 100)), solver=st.booleans(), sure=st.booleans())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_rave_and_decisive_playouts_on_the_compiled_rules_search_as_the_python_loop(ran, seed, plies, n, rave, solver,
                                                                                   sure):
    # RAVE, decisive playouts (``decisive_agent``'s, on the rules' ``decisive``), the solver: the same choices, AMAF
    # statistics, proofs and draws, over a search and one more on its graph
    from fnmcts.mcts.enhancements import decisive_agent

    game = from_openspiel(SPEC)
    state = _state(game, seed, plies)
    if state is None:
        return

    def call(rng):
        rng.seed(seed)
        graph, options = CompiledGraph(game), dict(solver=solver, rave=rave, rollout=decisive_agent if sure else None)
        one = search(game, state, n, rng, graph=graph, **options)
        two = search(game, state, n // 2 + _kernel.RULES_MIN_DIVES, rng, graph=graph, **options)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()
    tree = _both(call)
    assert ran == [True, True]
    assert visits(tree[("first", state)]) == n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(12, 22), n=st.integers(_kernel.RULES_MIN_DIVES, 1_500))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_compiled_solver_proves_late_positions_as_the_python_loop(ran, seed, plies, n):
    # MCTS-Solver searching until the root is proven: the same proofs, the same stop
    game = from_openspiel(SPEC)
    state = _state(game, seed, plies)
    if state is None:
        return

    def call(rng):
        rng.seed(seed)
        return search(game, state, n, rng, rave=False, until_proven=True)

    ran.clear()
    tree = _both(call)
    assert ran == [True]
    assert visits(tree[state]) <= n


def test_boards_and_parameters_the_rules_do_not_model_have_none():
    assert key_bits(4, 4) == 57 and rules_for({"num_rows": 4, "num_cols": 4, "utility_margin": False}) is not None
    assert key_bits(4, 5) > 63 and rules_for({"num_rows": 4, "num_cols": 5, "utility_margin": False}) is None
    assert rules_for({"num_rows": 1, "num_cols": 15}) is not None and rules_for({"num_rows": 1, "num_cols": 16}) is None
    assert rules_for({"num_rows": 3, "num_cols": 3, "utility_margin": True}) is None  # returns of the margin
    assert rules_for({"num_rows": 3, "num_cols": 3, "board": "x"}) is None  # a parameter it does not know
    assert from_openspiel("dots_and_boxes(num_rows=5,num_cols=5)").compiled_rules() is None
    assert from_openspiel("dots_and_boxes(utility_margin=true)").compiled_rules() is None
    assert from_openspiel(SPEC, states="histories").compiled_rules() is None  # (no transpositions to key)
    rules = from_openspiel(SPEC).compiled_rules()
    assert (rules.width, rules.payoffs, rules.states) == (24, ((1, -1), (-1, 1), (0, 0)), None)
