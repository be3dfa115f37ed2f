"""OpenSpiel's breakthrough on the 6 by 6 board: its compiled rules (``fnmcts.games._breakthrough_rules``) agree
with OpenSpiel state for state, their ``decisive`` with the adapter's ``_decisive_choices``, and a search on them
(``fnmcts.mcts._rules_kernel``) equals the Python loop draw for draw."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
pytest.importorskip("numba", reason="the compiled rules need Numba (pip install fnmcts[fast])")

from fnmcts.games import _breakthrough_rules as bt  # noqa: E402
from fnmcts.mcts import _kernel, search, visits  # noqa: E402
from fnmcts.mcts._graph import CompiledGraph  # noqa: E402
from fnmcts.openspiel import from_openspiel  # noqa: E402

from spies import both_loops, rules_runs  # noqa: E402

SPEC = "breakthrough(rows=6,columns=6)"
GAME = from_openspiel(SPEC)


STYLES = ("uniform", "captures", "sweeps")
"""How ``_line`` draws a game's actions: uniformly; else holding back from the end while it may, and taking a piece
where it can, four times in five and never to end the game ("captures": a lone piece is left to be taken), or always
("sweeps": a game ends with no piece of one side more often than on the far row)."""


def _line(seed, plies, style="uniform"):
    """The actions of a random game of OpenSpiel's breakthrough from the start, at most ``plies`` (``seed``'s,
    drawn in the ``style`` of ``STYLES``)."""
    rng, state, actions = random.Random(seed), GAME.native.new_initial_state(), []
    while len(actions) < plies and not state.is_terminal():
        legal = state.legal_actions()
        if style != "uniform":
            quiet = [a for a in legal if not state.child(a).is_terminal()]
            takes = [a for a in legal if a & 1 and (style == "sweeps" or a in quiet)]
            legal = takes if takes and (style == "sweeps" or rng.random() < 0.8) else quiet or legal
        actions.append(rng.choice(legal))
        state.apply_action(actions[-1])
    return actions


def _state(seed, plies):
    """The adapter's state after ``_line(seed, plies)``."""
    state = GAME.start()
    for action in _line(seed, plies):
        state = GAME.play(state, action)
    return state


def _key(actions):
    return int(bt.key_after(np.array(actions, np.int64)))


@given(seed=st.integers(0, 2**32 - 1), style=st.sampled_from(STYLES))
@settings(max_examples=40, deadline=None)
def test_the_rules_agree_with_openspiel_along_a_random_game(seed, style):
    # every state of a game to its end: the legal actions in OpenSpiel's order, the keys they lead to, the player
    # to move, the end (a piece on the far row, or none left) and its returns
    kids, moves = np.zeros(bt.RULES.width, np.int64), np.zeros(bt.RULES.width, np.int64)
    native, actions = GAME.native.new_initial_state(), []
    for action in _line(seed, 200, style) + [None]:
        key = _key(actions)
        m = bt.step(key, kids, moves)
        if action is None:
            assert native.is_terminal() and m < 0 and bt.RULES.payoffs[-1 - m] == tuple(native.returns())
            break
        assert m >= 0 and bt.mover(key) == native.current_player()
        assert moves[:m].tolist() == native.legal_actions()
        assert kids[:m].tolist() == [_key(actions + [a]) for a in native.legal_actions()]
        actions.append(action)
        native.apply_action(action)


@given(seed=st.integers(0, 2**32 - 1), style=st.sampled_from(STYLES))
@settings(max_examples=30, deadline=None)
def test_the_decisive_choice_is_the_adapter_s(seed, style):
    # decisive_agent's moves at every state of a random game: the winning (onto the far row, or taking the last
    # piece), else the safe, else all
    kids, moves, chosen = (np.zeros(bt.RULES.width, np.int64) for _ in range(3))
    native, actions = GAME.native.new_initial_state(), []
    for action in _line(seed, 200, style):
        key = _key(actions)
        m = bt.step(key, kids, moves)
        n = bt.decisive(key, kids, moves, m, chosen)
        assert moves[chosen[:n]].tolist() == list(GAME._decisive_choices(native, actions, native.current_player(),
                                                                          native.legal_actions()))
        actions.append(action)
        native.apply_action(action)


SWEPT = [134, 306, 112, 380, 52, 330, 88, 342, 193, 323, 173, 248, 74, 354, 205, 226, 97, 178, 29, 298, 149, 392, 233,
         403, 253, 428, 269, 419, 134, 310, 161, 370, 241, 354, 205]
"""A game black wins by taking white's last piece (d4xe3), not on the far row."""

LONE = [98, 308, 169, 299, 76, 368, 88, 334, 169, 322, 229, 379, 24, 274, 125, 344, 205, 355, 108, 259, 89, 416, 12, 404,
        4, 272, 133, 332, 173, 343, 193, 296, 157, 394, 76, 330, 161]
"""White's lone pawn on f1 to move: to e2 it is taken by d3 (white's last piece: black wins), to f2 it is safe."""


def test_taking_the_last_piece_wins_and_a_lone_piece_left_to_be_taken_is_no_safe_move():
    kids, moves, chosen = (np.zeros(bt.RULES.width, np.int64) for _ in range(3))
    native = GAME.native.new_initial_state()
    for action in SWEPT:
        native.apply_action(action)
    assert bt.step(_key(SWEPT), kids, moves) == -1 and tuple(native.returns()) == bt.RULES.payoffs[0]
    key = _key(SWEPT[:-1])
    m = bt.step(key, kids, moves)
    assert SWEPT[-1] in moves[chosen[:bt.decisive(key, kids, moves, m, chosen)]].tolist()  # (a winning move)
    key = _key(LONE)
    m = bt.step(key, kids, moves)
    assert moves[:m].tolist() == [426, 428]
    assert moves[chosen[:bt.decisive(key, kids, moves, m, chosen)]].tolist() == [428]
    native = GAME.native.new_initial_state()
    for action in LONE:
        native.apply_action(action)
    assert GAME._decisive_choices(native, LONE, 1, native.legal_actions()) == [428]


def test_the_adapter_takes_the_rules_of_the_6_by_6_board_alone():
    rules = GAME.compiled_rules()
    assert (rules.width, rules.payoffs, rules.states) == (432, ((1, -1), (-1, 1)), None)
    state = _state(3, 9)
    assert rules.key(state) == _key(list(state.history))
    assert bt.rules_for({"rows": 8, "columns": 8}) is None and from_openspiel("breakthrough").compiled_rules() is None
    assert bt.rules_for({"rows": 6, "columns": 5}) is None
    assert from_openspiel(SPEC, states="histories").compiled_rules() is None  # (no transpositions: no keys)


@pytest.fixture
def ran(monkeypatch):
    """The searches the compiled rules ran (a list that grows by one per run)."""
    return rules_runs(monkeypatch, GAME)


_both = both_loops


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40), n=st.integers(_kernel.RULES_MIN_DIVES, 400),
       then=st.integers(_kernel.RULES_MIN_DIVES, 120), solver=st.booleans(), rave=st.sampled_from((100, False)))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_search_on_the_compiled_rules_is_the_python_loop_s(ran, seed, plies, n, then, solver, rave):
    # MCTS-Solver on and off, RAVE (the game's default) and none: a search, then one more on its graph (the states'
    # keys read from their histories, the AMAF statistics kept read in)
    state = _state(seed, plies)
    if GAME.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        graph = CompiledGraph(GAME)
        one = search(GAME, state, n, rng, solver=solver, rave=rave, graph=graph)
        two = search(GAME, state, then, rng, solver=solver, rave=rave, graph=graph)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()  # (one list for every example)
    tree = _both(call)
    assert ran == [True, True]
    assert visits(tree[("first", state)]) == n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40), n=st.integers(_kernel.RULES_MIN_DIVES, 150),
       solver=st.booleans(), rave=st.sampled_from((100, False)))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_decisive_playouts_on_the_compiled_rules_search_as_the_python_loop(ran, seed, plies, n, solver, rave):
    # ``decisive_agent``'s playouts: the rules' ``decisive`` in machine code, OpenSpiel's states tried move by move
    # in Python (a few dives from the middle game: each Python playout tries every move and every answer)
    from fnmcts.mcts.enhancements import decisive_agent

    state = _state(seed, plies)
    if GAME.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        return search(GAME, state, n, rng, solver=solver, rave=rave, rollout=decisive_agent)

    ran.clear()
    tree = _both(call)
    assert ran == [True]
    assert visits(tree[state]) == n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40), n=st.integers(_kernel.RULES_MIN_DIVES, 300),
       solver=st.booleans(), ref=st.sampled_from((0, 10)))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_amaf_rows_that_run_out_grow_and_search_as_the_python_loop(ran, monkeypatch, seed, plies, n, solver, ref):
    # RAVE's rows (864 a node here) made as few as they may be: they double many times a search, the tables in them
    # read back as the Python loop counts them
    from fnmcts.mcts import _rules_kernel

    monkeypatch.setattr(_rules_kernel, "_amaf_room", lambda used, n: used + 1)
    state = _state(seed, plies)
    if GAME.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        graph = CompiledGraph(GAME)
        one = search(GAME, state, n, rng, solver=solver, rave=100, rave_ref=ref, graph=graph)
        two = search(GAME, state, n // 2 + _kernel.RULES_MIN_DIVES, rng, solver=solver, rave=100, rave_ref=ref,
                     graph=graph)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()
    _both(call)
    assert ran == [True, True]
