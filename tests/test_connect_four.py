"""Connect Four: its rules agree with OpenSpiel's, its compiled rules with its protocol, and the search on the
compiled rules (``fnmcts.mcts._rules_kernel``) equals the Python loop draw for draw.

The game's laws (``check_game``) run with every built-in game's: tests/test_builtin_game_laws.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.games import GAMES, ConnectFour
from fnmcts.games.connect_four import four
from fnmcts.mcts import _kernel, search, visits
from fnmcts.mcts._graph import CompiledGraph

from spies import both_loops, rules_runs, runs_of

GAME = ConnectFour()


def _line(seed, plies, game=GAME):
    """The states of a random game of ``game`` from the start, at most ``plies`` moves (``seed``'s moves)."""
    rng, state, states = random.Random(seed), game.start(), [game.start()]
    while len(states) <= plies and game.to_move(state) is not None:
        state = game.play(state, rng.choice(game.possible_moves(state)))
        states.append(state)
    return states


def test_the_command_line_knows_it():
    assert GAMES["connect-four"] is ConnectFour


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_a_random_game_agrees_with_openspiel(seed):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    theirs = pyspiel.load_game("connect_four").new_initial_state()
    rng, state = random.Random(seed), GAME.start()
    while True:
        player = GAME.to_move(state)
        assert theirs.is_terminal() == (player is None)
        if player is None:
            assert tuple(theirs.returns()) == GAME.payoff(state)
            break
        assert theirs.current_player() == player
        assert tuple(theirs.legal_actions()) == GAME.possible_moves(state)
        move = rng.choice(GAME.possible_moves(state))
        theirs.apply_action(move)
        state = GAME.play(state, move)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_compiled_rules_agree_with_the_protocol(seed):
    rules = GAME.compiled_rules()
    if rules is None:
        pytest.skip("the compiled rules need Numba (pip install fnmcts[fast])")
    kids, moves = np.zeros(rules.width, np.int64), np.zeros(rules.width, np.int64)
    for state in _line(seed, 42):
        key = rules.key(state)
        assert key == GAME.key(state) and GAME.state(key) == state and rules.states(np.array([key])) == [state]
        m = rules.step(key, kids, moves)
        if GAME.to_move(state) is None:
            assert m < 0 and rules.payoffs[-1 - m] == GAME.payoff(state)
            continue
        assert rules.mover(key) == GAME.to_move(state)
        assert tuple(moves[:m].tolist()) == GAME.possible_moves(state)
        assert rules.states(kids[:m]) == [GAME.play(state, move) for move in GAME.possible_moves(state)]


def _decisive_game(game, state, rng):
    """``(payoff, moves)`` of ``decisive_agent``'s game from ``state``, played through the protocol (no kernel)."""
    from fnmcts.mcts.enhancements import decisive_agent

    played = []
    while (player := game.to_move(state)) is not None:
        move = decisive_agent(game, state, rng)
        played.append((player, move))
        state = game.play(state, move)
    return game.payoff(state), tuple(played)


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 42), draws=st.integers(0, 2**32 - 1))
@settings(max_examples=80, deadline=None)
def test_the_decisive_kernel_plays_as_decisive_agent_through_the_protocol(seed, plies, draws):
    # the bitboards' decisive playout: the same moves, payoff and draws as the agent asking play and payoff
    state = _line(seed, plies)[-1]
    mine, theirs = random.Random(draws), random.Random(draws)
    assert GAME.decisive_played(state, mine) == _decisive_game(GAME, state, theirs)
    assert mine.getstate() == theirs.getstate()
    assert GAME.decisive_payoff(state, random.Random(draws)) == _decisive_game(GAME, state, random.Random(draws))[0]


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 42), draws=st.integers(0, 2**32 - 1),
       states=st.sampled_from(("positions", "histories")))
@settings(max_examples=40, deadline=None)
def test_openspiel_s_connect_four_plays_decisive_playouts_on_the_bitboards_as_on_its_own_states(seed, plies, draws,
                                                                                               states):
    pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("connect_four", states=states)
    state = game.start()
    for move in _moves(seed, plies):
        state = game.play(state, move)
    mine, theirs = random.Random(draws), random.Random(draws)
    (payoff, played), (their_payoff, their_played) = game.decisive_played(state, mine), \
        _decisive_game(game, state, theirs)
    assert (payoff, played) == (their_payoff, their_played) and repr(payoff) == repr(their_payoff)
    assert mine.getstate() == theirs.getstate()


def _moves(seed, plies):
    """The columns of ``_line(seed, plies)``'s game."""
    states = _line(seed, plies)
    return [next(c for c in GAME.possible_moves(a) if GAME.play(a, c) == b) for a, b in zip(states, states[1:])]


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 42))
@settings(max_examples=40, deadline=None)
def test_a_state_reads_back_from_its_texts(seed, plies):
    state = _line(seed, plies)[-1]
    assert GAME.parse_state(GAME.render(state).rsplit("\n", 1)[0]) == state
    assert GAME.state_from_json(GAME.state_to_json(state)) == state
    assert GAME.check_state(state) == state


def test_four_in_a_row_is_read_in_every_direction_and_never_across_columns():
    assert four(0b1111) and four(1 | 1 << 8 | 1 << 16 | 1 << 24) and four(1 << 3 | 1 << 9 | 1 << 15 | 1 << 21)
    assert not four(0b111 | 1 << 7)  # three up a column and the next column's bottom: no line
    assert not four(1 << 5 | 1 << 7 | 1 << 8 | 1 << 9)  # row 5 of column 0 and the bottom of column 1: no line


def test_a_bad_move_or_state_is_told():
    with pytest.raises(ValueError, match="column 0 is full"):
        GAME.play((21, 0b111111), 0)
    with pytest.raises(ValueError, match="a move is a column with room"):
        GAME.play(GAME.start(), 7)
    with pytest.raises(ValueError, match="floats"):
        GAME.check_state((0, 0b10))
    with pytest.raises(ValueError, match="the game is over"):
        GAME.play((15, 15 | 128), 3)


@pytest.fixture
def ran(monkeypatch):
    """The searches the compiled rules ran (a list that grows by one per run)."""
    return rules_runs(monkeypatch, GAME)


_both = both_loops


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), n=st.integers(_kernel.RULES_MIN_DIVES, 900),
       rule=st.sampled_from(("ucb1", "tutorial")), c=st.sampled_from((0.5, 2**0.5, 2.0)), solver=st.booleans())
@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_compiled_rules_search_as_the_python_loop(ran, seed, plies, n, rule, c, solver):
    state = _line(seed, plies)[-1]
    options = {"c": c} if rule == "ucb1" else {"z": c}

    def call(rng):
        rng.seed(seed)
        return search(GAME, state, n, rng, rule=rule, solver=solver, rave=False, **options)

    ran.clear()  # (one list for every example)
    tree = _both(call)
    assert ran == [True]
    assert visits(tree[state]) == n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(12, 40), n=st.integers(_kernel.RULES_MIN_DIVES, 3_000))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_compiled_solver_proves_late_positions_as_the_python_loop(ran, seed, plies, n):
    # MCTS-Solver on the compiled rules, searching until the root is proven: the same proofs, the same stop
    state = _line(seed, plies)[-1]
    if GAME.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        return search(GAME, state, n, rng, rave=False, until_proven=True)

    ran.clear()
    tree = _both(call)
    assert ran == [True]
    assert visits(tree[state]) <= n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), n=st.integers(_kernel.RULES_MIN_DIVES, 900),
       k=st.sampled_from((None, 30, 100)), ref=st.sampled_from((0, 5, 25)), c=st.sampled_from((0.7, 2**0.5)),
       solver=st.booleans(), adapter=st.booleans(), sure=st.booleans())
@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_rave_and_decisive_playouts_on_the_compiled_rules_search_as_the_python_loop(ran, seed, plies, n, k, ref, c, solver, adapter, sure):
    # RAVE and GRAVE (the defaults of OpenSpiel's connect_four), decisive playouts (``sure``: ``decisive_agent``'s, on
    # the rules' ``decisive``): the same choices, AMAF statistics, proofs and draws
    from fnmcts.mcts.enhancements import decisive_agent

    game = GAME
    if adapter:
        pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
        from fnmcts.openspiel import from_openspiel

        game = from_openspiel("connect_four")
    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return

    def call(rng):  # a search, then one more on its graph (the AMAF statistics it kept read in)
        rng.seed(seed)
        graph, options = CompiledGraph(game), dict(c=c, solver=solver, rollout=decisive_agent if sure else None)
        options.update(rave=False) if k is None else options.update(rave=k, rave_ref=ref)
        one = search(game, state, n, rng, graph=graph, **options)
        two = search(game, state, n // 2 + _kernel.RULES_MIN_DIVES, rng, graph=graph, **options)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()
    tree = _both(call)
    assert ran == [True, True]
    assert visits(tree[("first", state)]) == n


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 20), n=st.integers(_kernel.RULES_MIN_DIVES, 400),
       rave=st.booleans(), sure=st.booleans())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_arrays_that_run_out_of_room_grow_and_search_as_the_python_loop(ran, monkeypatch, seed, plies, n, rave, sure):
    # the loop's arrays made as small as they may be: they double many times a search, its statistics with them
    from fnmcts.mcts import _rules_kernel
    from fnmcts.mcts.enhancements import decisive_agent

    monkeypatch.setattr(_rules_kernel, "_room", lambda size, n, width: 1 << (4 * width + size).bit_length())
    state = _line(seed, plies)[-1]
    if GAME.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        return search(GAME, state, n, rng, rave=100 if rave else False, rollout=decisive_agent if sure else None)

    ran.clear()
    _both(call)
    assert ran == [True]


@given(seed=st.integers(0, 2**32 - 1), first=st.integers(_kernel.RULES_MIN_DIVES, 700),
       then=st.integers(_kernel.RULES_MIN_DIVES, 700), solver=st.booleans())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_graph_kept_across_searches_searches_as_the_python_loop(ran, seed, first, then, solver):
    start = GAME.start()
    after = GAME.play(start, seed % 7)

    def call(rng):  # the second search starts from the first one's graph: its nodes, some expanded, some not
        rng.seed(seed)
        graph = CompiledGraph(GAME)
        one = search(GAME, start, first, rng, solver=solver, rave=False, graph=graph)
        two = search(GAME, after, then, rng, solver=solver, rave=False, graph=graph)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()
    _both(call)
    assert ran == [True, True]


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), n=st.integers(_kernel.RULES_MIN_DIVES, 600),
       then=st.integers(_kernel.RULES_MIN_DIVES, 300), solver=st.booleans())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_openspiel_s_connect_four_searches_on_the_compiled_rules_as_the_python_loop(ran, seed, plies, n, then, solver):
    pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("connect_four")
    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return

    def call(rng):  # a search, then one more on its graph (its states' keys read from their histories)
        rng.seed(seed)
        graph = CompiledGraph(game)
        one = search(game, state, n, rng, solver=solver, rave=False, graph=graph)
        two = search(game, state, then, rng, solver=solver, rave=False, graph=graph)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()
    tree = _both(call)
    assert ran == [True, True]
    assert (visits(tree[("first", state)]), visits(tree[("then", state)])) == (n, then)


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), n=st.integers(_kernel.RULES_MIN_DIVES, 600),
       order=st.randoms(use_true_random=False))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_states_a_move_leaves_unmade_are_made_the_same_whenever_read(ran, seed, plies, n, order):
    """OpenSpiel's connect_four: a move on the compiled rules interns its new nodes unmade (a move reads few), and
    each state, read one at a time in any order or all at once, is the state its parent's move makes."""
    pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
    from fnmcts.mcts import mcts_move
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("connect_four")
    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return
    one, two = CompiledGraph(game), CompiledGraph(game)
    ran.clear()
    moves = [mcts_move(game, state, n, random.Random(seed), graph=g).move for g in (one, two)]
    assert ran and moves[0] == moves[1]
    assert one._unmade or len(one) == 1 + len(game.possible_moves(state))  # (a proof at sight: no dive made more)
    nodes = list(range(len(one)))
    order.shuffle(nodes)
    read = {i: one.state(i) for i in nodes}
    assert [read[i] for i in range(len(one))] == two.states == one.states
    assert one.index == two.index == {s: i for i, s in enumerate(two.states)}
    for i in range(len(one)):
        for move, kid in zip(one.moves[i] or (), one.kids[i] or ()):
            assert one.state(kid) == game.play(one.state(i), move)


@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), seconds=st.sampled_from((0.002, 0.01, 0.03)),
       adapter=st.booleans())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_clocked_move_on_the_compiled_rules_is_the_move_of_as_many_dives(ran, seed, plies, seconds, adapter):
    """The loop on the compiled rules reads the clock itself (``_rules_kernel._cycles``): a move given ``seconds``
    runs some dives, at least one, and is the move, the children's records and the proofs a search of that many dives
    finds, draw for draw (the clock decides how many dives, never what they draw)."""
    from fnmcts.mcts import mcts_move

    game = GAME
    if adapter:
        pytest.importorskip("pyspiel", reason="needs OpenSpiel (pip install fnmcts[openspiel])")
        from fnmcts.openspiel import from_openspiel

        game = from_openspiel("connect_four")
    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return
    ran.clear()
    timed = mcts_move(game, state, rng=random.Random(seed), seconds=seconds)
    counted = mcts_move(game, state, timed.iterations, random.Random(seed))
    assert timed.iterations >= 1
    assert (timed.move, timed.children, timed.proven) == (counted.move, counted.children, counted.proven)


def test_a_process_compiles_the_rules_loop_for_a_search_long_enough_to_pay_for_it(monkeypatch):
    pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")
    from fnmcts.mcts import _rules_kernel

    ran = runs_of(monkeypatch, _rules_kernel, "run_rules")
    with monkeypatch.context() as patch:  # as in a process with no machine code at hand, in it or on disk
        patch.setattr(_rules_kernel, "compiled", lambda rules, game=None: False)
        tree = search(GAME, GAME.start(), _kernel.KERNEL_MIN_DIVES - 1, random.Random(1), solver=False)
        assert ran == []  # run in Python
        with _kernel.switched_off():
            assert dict(tree) == dict(search(GAME, GAME.start(), _kernel.KERNEL_MIN_DIVES - 1, random.Random(1),
                                             solver=False))
        search(GAME, GAME.start(), _kernel.KERNEL_MIN_DIVES, random.Random(1), solver=False)
        assert ran == [True]  # long enough to pay for the compile
    assert _rules_kernel.compiled(GAME.compiled_rules())  # then at hand for the searches after it, of any length


def test_the_rules_loop_is_kept_on_disk_for_the_processes_after(tmp_path):
    pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")
    import subprocess
    import sys

    search(GAME, GAME.start(), _kernel.KERNEL_MIN_DIVES, random.Random(1), solver=False)  # compiled here, or loaded
    code = ("from fnmcts.games.connect_four import ConnectFour; from fnmcts.mcts import _rules_kernel; "
            "print(_rules_kernel.compiled(ConnectFour().compiled_rules()))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert found.stdout.strip() == "True", found.stderr


def test_compiled_rules_that_are_no_rules_are_named():
    pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")
    from fnmcts.protocol import GameError

    class Slip(ConnectFour):
        def compiled_rules(self):
            return 42

    with pytest.raises(GameError, match=r"compiled_rules\(\) returned 42: a Rules"):
        search(Slip(), Slip().start(), _kernel.KERNEL_MIN_DIVES, random.Random(1), solver=False)
