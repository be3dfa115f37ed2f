"""OpenSpiel's hex on compiled rules (``fnmcts.games._hex_rules``): the rules agree with OpenSpiel's state for state,
their decisive choice with the adapter's, and a search on them equals the Python loop draw for draw, on keys of one
word (boards up to 31 cells) and of two (up to 63: hex 7x7)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
np = pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the compiled rules need Numba (pip install fnmcts[fast])")

from fnmcts.games._hex_rules import key_after, key_after_for, key_pair_after, rules_for  # noqa: E402
from fnmcts.mcts import _kernel, search, visits  # noqa: E402
from fnmcts.mcts._graph import CompiledGraph  # noqa: E402
from fnmcts.openspiel import from_openspiel  # noqa: E402

from spies import both_loops, rules_runs  # noqa: E402

BOARDS = ("hex(board_size=5)", "hex(board_size=3)", "hex(num_rows=3,num_cols=4)", "hex(num_rows=6,num_cols=2)",
          "hex(board_size=2)", "hex(board_size=7)", "hex(num_rows=9,num_cols=7)", "hex(num_rows=4,num_cols=8)",
          "hex(num_rows=2,num_cols=16)")
"""Square boards and long ones both ways (rows and columns are not interchangeable: black joins north to south); the
last four on keys of two words (32 to 63 cells)."""

FIVE = from_openspiel("hex(board_size=5)")
SEVEN = from_openspiel("hex(board_size=7)")


def _rules(native):
    """The compiled ``Rules`` of a ``pyspiel`` hex game, and buffers as wide as its moves (``kids``: a row of two words
    a move where its keys are two)."""
    rules = rules_for(dict(native.get_parameters()))
    kids = np.zeros((rules.width,) + ((2,) if rules.words == 2 else ()), np.int64)
    return rules, kids, *(np.zeros(rules.width, np.int64) for _ in range(2))


def _key(history, words=1):
    """The key after ``history``: an int64 (one word), or an array of two (two: black's stones, white's)."""
    return (key_after if words == 1 else key_pair_after)(np.array(history, np.int64))


def _held(key):
    """``key`` as a value to compare and hash: an int, or a pair of ints."""
    return int(key) if np.ndim(key) == 0 else tuple(np.asarray(key).tolist())


def _line(seed, plies, game=FIVE):
    """The states of a random game of ``game`` from the start, at most ``plies`` moves (``seed``'s moves)."""
    rng, state, states = random.Random(seed), game.start(), [game.start()]
    while len(states) <= plies and game.to_move(state) is not None:
        state = game.play(state, rng.choice(game.possible_moves(state)))
        states.append(state)
    return states


@given(spec=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_the_compiled_rules_agree_with_openspiel_along_random_games(spec, seed):
    # every state of a few random games: the moves in OpenSpiel's order, the keys after them, the mover, the end
    native = pyspiel.load_game(spec)
    rules, kids, moves, _ = _rules(native)
    assert rules.width == native.num_distinct_actions()
    assert rules.words == (1 if rules.width <= 31 else 2) and key_after_for(dict(native.get_parameters())) is (
        key_after if rules.words == 1 else key_pair_after)
    rng, boards = random.Random(seed), {}
    for _ in range(4):
        state, history = native.new_initial_state(), []
        while True:
            key = _key(history, rules.words)
            held = _held(key)
            assert boards.setdefault(held, str(state)) == str(state)  # one board a key ...
            assert boards.setdefault(str(state), held) == held  # ... and one key a board
            m = rules.step(key, kids, moves)
            if state.is_terminal():
                assert m < 0 and rules.payoffs[-1 - m] == tuple(state.returns())
                break
            assert moves[:m].tolist() == state.legal_actions()
            assert rules.mover(key) == state.current_player()
            assert [_held(k) for k in kids[:m]] == [_held(_key(history + [a], rules.words))
                                                   for a in state.legal_actions()]
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            history.append(action)


@given(spec=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 60))
@settings(max_examples=80, deadline=None)
def test_the_decisive_choice_is_the_adapter_s(spec, seed, plies):
    # the winning moves, else the safe ones, else all: the same places in the same order (the last state before the
    # end where the game ends first)
    game = from_openspiel(spec)
    rules, kids, moves, chosen = _rules(game.native)
    line = _line(seed, plies, game)
    state = line[-1] if game.to_move(line[-1]) is not None or len(line) == 1 else line[-2]
    player = game.to_move(state)
    key = _key(state.history, rules.words)
    m = rules.step(key, kids, moves)
    n = rules.decisive(key, kids, moves, m, chosen)
    native = game.native_state(state)
    assert moves[chosen[:n]].tolist() == list(game._decisive_choices(native, list(state.history), player,
                                                                      native.legal_actions()))


def test_the_decisive_choice_wins_else_blocks_the_one_threat_else_takes_all():
    rules, kids, moves, chosen = _rules(pyspiel.load_game("hex(board_size=3)"))

    def choice(history):
        key = _key(history)
        m = rules.step(key, kids, moves)
        return moves[chosen[:rules.decisive(key, kids, moves, m, chosen)]].tolist()

    # (the cells: 0 1 2 / 3 4 5 / 6 7 8, each row a cell east of the one above; black joins rows 0 and 2)
    assert choice([1, 0, 4, 3]) == [6, 7]  # black's 1 and 4 join the south row by either cell below 4
    assert choice([0, 3, 2, 4]) == [5]  # white's 3 and 4 need 5 alone: black takes it
    assert choice([0, 3, 8, 4]) == [1, 2, 5, 6, 7]  # white wins at 2 or at 5: no move is safe, all are drawn from
    assert choice([]) == list(range(9))


@pytest.mark.parametrize("spec", ["hex(board_size=4)", "hex(board_size=4,swap=True)"])
def test_hex_states_are_their_boards(spec):
    # two histories to one board: one state (its picture alone), the same moves and ends played on
    game = from_openspiel(spec)
    assert game._picture
    rng = random.Random(5)
    for _ in range(20):
        history = [m for m in _line(rng.randrange(2**32), 12, game)[-1].history]
        if len(history) < 5:
            continue
        swapped = list(history)
        swapped[2], swapped[4] = swapped[4], swapped[2]  # (black's third and fifth stones: the same board)
        a, b = game.state_from_json(history), game.state_from_json(swapped)
        assert a == b and a.history != b.history and game.render(a) == game.render(b)
        while game.to_move(a) is not None:
            assert game.to_move(a) == game.to_move(b) and game.possible_moves(a) == game.possible_moves(b)
            move = rng.choice(game.possible_moves(a))
            a, b = game.play(a, move), game.play(b, move)
            assert a == b
        assert game.to_move(b) is None and game.payoff(a) == game.payoff(b)


def test_boards_the_rules_do_not_model_have_none():
    assert rules_for(dict(pyspiel.load_game("hex(board_size=8)").get_parameters())) is None  # 64 cells: no key
    assert rules_for(dict(pyspiel.load_game("hex(num_rows=8,num_cols=8)").get_parameters())) is None
    assert rules_for(dict(pyspiel.load_game("hex(board_size=5,swap=True)").get_parameters())) is None
    assert rules_for(dict(pyspiel.load_game("hex(board_size=7,swap=True)").get_parameters())) is None
    assert rules_for(dict(pyspiel.load_game("hex(num_rows=1,num_cols=5)").get_parameters())) is None
    assert rules_for({"board_size": 5, "komi": 1}) is None
    assert rules_for(dict(pyspiel.load_game("hex(num_rows=3,num_cols=10)").get_parameters())).width == 30
    assert from_openspiel("hex(board_size=8)").compiled_rules() is None
    assert from_openspiel("hex(board_size=5)", states="histories").compiled_rules() is None
    assert FIVE.compiled_rules().payoffs == ((1, -1), (-1, 1)) == SEVEN.compiled_rules().payoffs
    assert (FIVE.compiled_rules().words, SEVEN.compiled_rules().words, SEVEN.compiled_rules().width) == (1, 2, 49)
    assert SEVEN.compiled_rules().key(SEVEN.state_from_json([0, 48, 3])) == (1 | 1 << 3, 1 << 48)


GAMES = pytest.mark.parametrize("game", [FIVE, SEVEN], ids=["5x5", "7x7"])
"""Hex on keys of one word and of two."""


@pytest.fixture
def ran(monkeypatch, game):
    """The searches the compiled rules ran (a list that grows by one per run)."""
    return rules_runs(monkeypatch, game)


_both = both_loops


@GAMES
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 16), n=st.integers(_kernel.RULES_MIN_DIVES, 500),
       then=st.integers(_kernel.RULES_MIN_DIVES, 200), solver=st.booleans(),
       rave=st.sampled_from((False, 100, (100, 5))))
@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_search_on_the_compiled_rules_is_the_python_loop_s(ran, game, seed, plies, n, then, solver, rave):
    # UCB1 with and without MCTS-Solver, RAVE and GRAVE: the same tree, AMAF statistics, proofs and draws (on 7x7
    # fewer dives: the Python loop takes 5 ms a dive there)
    if game is SEVEN:
        n, then = max(_kernel.RULES_MIN_DIVES, n // 5), max(_kernel.RULES_MIN_DIVES, then // 5)
    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return
    options = dict(solver=solver, rave=rave) if not isinstance(rave, tuple) else dict(solver=solver, rave=rave[0],
                                                                                     rave_ref=rave[1])

    def call(rng):  # a search, then one more on its graph (its states' keys read from their histories)
        rng.seed(seed)
        graph = CompiledGraph(game)
        one = search(game, state, n, rng, graph=graph, **options)
        two = search(game, state, then, rng, graph=graph, **options)
        return {**{("first", s): r for s, r in one.items()}, **{("then", s): r for s, r in two.items()}}

    ran.clear()  # (one list for every example)
    tree = _both(call)
    assert ran == [True, True]
    assert (visits(tree[("first", state)]), visits(tree[("then", state)])) == (n, then)


@GAMES
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 16), n=st.integers(_kernel.RULES_MIN_DIVES, 150),
       solver=st.booleans(), rave=st.sampled_from((False, 100)))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_decisive_playouts_on_the_compiled_rules_search_as_the_python_loop(ran, game, seed, plies, n, solver, rave):
    # ``decisive_agent``'s playouts on the rules' ``decisive`` (the Python loop: the adapter's, a state a move tried)
    from fnmcts.mcts.enhancements import decisive_agent

    state = _line(seed, plies, game)[-1]
    if game.to_move(state) is None:
        return

    def call(rng):
        rng.seed(seed)
        return search(game, state, n, rng, solver=solver, rave=rave, rollout=decisive_agent)

    ran.clear()
    tree = _both(call)
    assert ran == [True]
    assert visits(tree[state]) == n


@GAMES
def test_a_move_on_the_compiled_rules_is_the_python_loop_s(ran, game):
    from fnmcts.mcts import mcts_move

    state, n = _line(3, 4, game)[-1], 400 if game is FIVE else 120  # (the Python loop's decisive playouts on 7x7:
    fast = mcts_move(game, state, n, random.Random(2))  # 20 ms each)
    assert ran == [True]
    with _kernel.switched_off():
        slow = mcts_move(game, state, n, random.Random(2))
    assert (fast.move, fast.iterations, dict(fast.tree)) == (slow.move, slow.iterations, dict(slow.tree))
