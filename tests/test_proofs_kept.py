"""Shallow proofs kept per game (``prover_of``) and worked out on a game's tables: the same answers as a search afresh.

The reference here is a plain short search to the end, written again with no
memory at all: every kept answer, whatever the order and the depths asked
before, must equal it; a memory made wrong on purpose must be caught.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.matches import playout
from fnmcts.mcts import search
from fnmcts.mcts import enhancements
from fnmcts.mcts.enhancements import PROOF_MEMO, prover_of, shallow_proof, with_proofs
from fnmcts.protocol import CHANCE, GraphTables, payoff_range

from small_games import TableGame, cyclic_table_games, table_games


def _reference_forced(game, state, player, depth, target):
    """Whether ``player`` forces ``target`` within ``depth`` plies: the definition, searched afresh."""
    who = game.to_move(state)
    if who is None:
        return tuple(game.payoff(state)) == target
    if depth <= 0:
        return False
    steps = [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state)
    answers = (_reference_forced(game, game.play(state, s), player, depth - 1, target) for s in steps)
    return any(answers) if who == player else all(answers)


def _reference_proof(game, state, depth):
    """``shallow_proof`` by the definition: the player to move first, then the others; None at the end."""
    who = game.to_move(state)
    if who is None:
        return None
    low, high = payoff_range(game)
    players = getattr(game, "num_players", 1)
    for player in ([who] if who is not CHANCE else []) + [k for k in range(players) if k != who]:
        target = tuple(high if k == player else low for k in range(players))
        if _reference_forced(game, state, player, depth, target):
            return target
    return None


def _states(game):
    seen, todo = {game.start()}, [game.start()]
    while todo:
        state = todo.pop()
        who = game.to_move(state)
        if who is None:
            continue
        for step in [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state):
            after = game.play(state, step)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return sorted(seen)


def _tables_of(game) -> GraphTables:
    """``game``'s tables walked through its protocol (what a ``compiled_graph()`` hook gives)."""
    states = _states(game)
    index = {s: i for i, s in enumerate(states)}
    kinds, moves, children, outcomes, payoffs = [], [], [], [], []
    for s in states:
        who = game.to_move(s)
        if who is None:
            kinds.append(-1), moves.append(()), children.append(()), outcomes.append(()), payoffs.append(game.payoff(s))
        elif who is CHANCE:
            found = game.chance_outcomes(s)
            kinds.append(-2), moves.append(()), outcomes.append(found), payoffs.append(None)
            children.append(tuple(index[game.play(s, o)] for o, _ in found))
        else:
            kinds.append(who), moves.append(game.possible_moves(s)), outcomes.append(()), payoffs.append(None)
            children.append(tuple(index[game.play(s, m)] for m in game.possible_moves(s)))
    return GraphTables(tuple(states), index, tuple(kinds), tuple(moves), tuple(children), tuple(outcomes),
                       tuple(payoffs))


@dataclass(frozen=True)
class TabledGame(TableGame):
    """A ``TableGame`` that offers its tables (``compiled_graph()``): its proofs are worked out on them."""

    def compiled_graph(self):
        return _tables_of(self)


class Unhashable(TableGame):
    """A ``TableGame`` that cannot be hashed: it keeps no proofs between searches."""

    __hash__ = None


def _tabled(game):
    return TabledGame(game.table, game.num_players, game.repeats)


any_game = st.one_of(table_games(), cyclic_table_games())
asked = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6)), min_size=1, max_size=40)


def _disagreements(game, questions):
    """The ``(state, depth)`` asked (state by its rank) where the kept proofs differ from the definition."""
    states = _states(game)
    wrong = []
    for rank, depth in questions:
        state = states[rank % len(states)]
        if shallow_proof(game, state, depth) != _reference_proof(game, state, depth):
            wrong.append((state, depth))
    return wrong


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, asked, st.booleans())
def test_kept_proofs_are_the_proofs_afresh_whatever_was_asked_before(game, questions, tabled):
    game = _tabled(game) if tabled else game
    assert (prover_of(game).table is not None) == tabled
    assert _disagreements(game, questions) == []
    assert _disagreements(game, questions) == []  # asked again: read from what is kept


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, st.integers(1, 5))
def test_the_tables_a_view_gives_are_its_protocol_state_for_state(game, depth):
    game = _tabled(game)
    for root in _states(game):
        view = with_proofs(game, depth, root)
        t = view.compiled_graph()
        for i, state in enumerate(t.states):
            who = view.to_move(state)
            assert t.kinds[i] == (-1 if who is None else -2 if who is CHANCE else who)
            if who is None:
                assert tuple(t.payoffs[i]) == tuple(view.payoff(state))
        assert t.kinds[t.index[root]] == game.compiled_graph().kinds[t.index[root]]  # the root is never ended


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, st.integers(1, 4), st.booleans(), st.integers(0, 2**32))
def test_a_views_random_payoff_is_the_playout_draw_for_draw(game, depth, tabled, seed):
    game = _tabled(game) if tabled else game
    view = with_proofs(game, depth, game.start())
    for state in _states(game):
        a, b = random.Random(seed), random.Random(seed)
        assert view.random_payoff(state, a) == tuple(view.payoff(playout(view, state, b)))
        assert a.random() == b.random()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, st.integers(1, 4), st.integers(0, 2**32), st.integers(1, 80))
def test_a_search_on_the_tables_is_the_search_through_the_protocol(game, depth, seed, dives):
    # the same game with and without its tables: the view's tables must lead every dive and playout the same way
    through, rng_a = search(game, game.start(), dives, random.Random(seed), proofs=depth), random.Random(seed)
    on_tables = search(_tabled(game), game.start(), dives, rng_a, proofs=depth)
    assert dict(on_tables) == dict(through)


def test_a_wrong_kept_answer_is_caught():
    # the check above must fail when the memory lies: a win recorded where none is forced, and the reverse
    game = TableGame((("move", 0, (1, 2)), ("move", 1, (3, 4)), ("end", (1, -1)), ("end", (1, -1)),
                      ("end", (-1, 1))), 2)
    questions = [(rank, depth) for rank in range(5) for depth in range(4)]
    assert _disagreements(game, questions) == []
    prover = prover_of(game)
    prover.proofs[(1, 2)] = (1, -1)  # player 1 to move at 1 takes the win: the proof is theirs
    assert (1, 2) in _disagreements(game, questions)
    prover.clear()
    prover.open_[(0, 0)] = 5  # "player 0 forces no win within 5 plies": they win in 1
    assert _disagreements(game, questions)
    prover.clear()
    assert _disagreements(game, questions) == []
    tabled = _tabled(game)
    prover = prover_of(tabled)
    assert _disagreements(tabled, questions) == []
    prover.table.wins(2)[1][1] = 0  # the tables' answer at node 1 (player 1 wins there), made wrong
    prover.proofs.clear()
    assert _disagreements(tabled, questions)
    enhancements.prover_of.cache_clear()  # the wrong answers made above go


def test_equal_games_share_their_proofs_and_the_memory_is_bounded(monkeypatch):
    game = TableGame((("move", 0, (1, 2)), ("end", (1, -1)), ("end", (-1, 1))), 2)
    assert prover_of(game) is prover_of(TableGame(game.table, 2))
    assert prover_of(_tabled(game)) is not prover_of(game)  # another class: another game
    unhashable = Unhashable(game.table, 2)
    assert prover_of(unhashable) is not prover_of(unhashable)  # not kept
    assert shallow_proof(unhashable, 0, 1) == (1, -1)
    assert with_proofs(unhashable, 1, 1).payoff(0) == (1, -1)
    for k in range(enhancements.PROVED_GAMES + 3):
        prover_of(TableGame(game.table + (("end", (0, 0)),) * k, 2))
        assert enhancements.prover_of.cache_info().currsize <= enhancements.PROVED_GAMES
    assert PROOF_MEMO >= 1_000


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, asked)
def test_a_memory_full_drops_what_it_keeps_and_answers_the_same(game, questions):
    limit = 3
    old = enhancements.PROOF_MEMO
    enhancements.PROOF_MEMO = limit
    try:
        prover = prover_of(game)
        prover.clear()
        cleared, clear = [], prover.clear
        prover.clear = lambda: (cleared.append(1), clear())
        assert _disagreements(game, questions) == []
        prover.proofs.pop((game.start(), 1), None)
        kept, before = len(prover.steps), len(cleared)
        assert prover.proof(game.start(), 1) == _reference_proof(game, game.start(), 1)
        assert (len(cleared) > before) == (kept > limit)  # dropped exactly when full
        del prover.clear
    finally:
        enhancements.PROOF_MEMO = old


def test_the_proofs_of_tic_tac_toe_on_openspiels_tables_are_the_built_in_games():
    pyspiel = pytest.importorskip("pyspiel")  # noqa: F841
    from fnmcts.games import TicTacToe
    from fnmcts.openspiel import from_openspiel

    game, ours = from_openspiel("tic_tac_toe"), TicTacToe()
    assert prover_of(game).table is not None
    rng = random.Random(5)
    for _ in range(40):  # random positions, the same moves on both boards (OpenSpiel's cells are ours)
        a, b = game.start(), ours.start()
        while ours.to_move(b) is not None and rng.random() < 0.8:
            move = rng.choice(ours.possible_moves(b))
            a, b = game.play(a, move), ours.play(b, move)
        for depth in (1, 2, 3, 4, 5):
            assert shallow_proof(game, a, depth) == shallow_proof(ours, b, depth) == _reference_proof(ours, b, depth)


# -- the default: proofs of PROOFS plies where the game offers its tables and has no chance ------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_game, st.integers(0, 2**32), st.integers(1, 60))
def test_the_default_takes_proofs_on_a_game_with_tables_and_no_chance_alone(game, seed, dives):
    from functools import partial

    from fnmcts.mcts import search_options, ucb, ucb1
    from fnmcts.mcts._options import PROOFS, game_kind

    tabled = _tabled(game)
    chance = game_kind(tabled).chance
    assert search_options(tabled).proofs == (0 if chance else PROOFS)
    assert search_options(game).proofs == 0  # the same game without its tables: none
    assert search_options(tabled, proofs=0).proofs == 0  # given, it wins
    assert search_options(tabled, rule="tutorial").proofs == 0  # the tutorial's dive keeps the tutorial's options
    assert search_options(tabled, rule=partial(ucb1, c=0.5)).proofs == 0  # a rule as a function: the plain defaults
    state = tabled.start()
    if chance or tabled.to_move(state) is None:
        return
    by_default = search(tabled, state, dives, random.Random(seed))
    assert dict(by_default) == dict(search(tabled, state, dives, random.Random(seed), proofs=PROOFS))
    assert dict(search(tabled, state, dives, random.Random(seed), rule=ucb)) == dict(
        search(game, state, dives, random.Random(seed), rule=ucb))  # the tutorial's tree, tables or not


def test_openspiels_tic_tac_toe_takes_the_default_proofs_and_connect_four_none():
    pytest.importorskip("pyspiel")
    from fnmcts.mcts import search_options
    from fnmcts.mcts._options import PROOFS
    from fnmcts.openspiel import from_openspiel

    assert search_options(from_openspiel("tic_tac_toe")).proofs == PROOFS == 4
    assert search_options(from_openspiel("connect_four")).proofs == 0  # no tables: too long a game
    assert search_options(from_openspiel("tic_tac_toe"), rule="tutorial").proofs == 0


def test_a_view_pickles_as_its_game_depth_and_root_not_its_kept_proofs():
    import pickle

    from fnmcts.games import TicTacToe

    game = TicTacToe()
    view = with_proofs(game, 5, game.start())
    search(game, game.start(), 200, random.Random(1), proofs=5)  # proofs kept for the game
    assert len(prover_of(game).steps) > 100
    data = pickle.dumps(view)
    back = pickle.loads(data)
    assert back == view and back.payoff((1, 2, 0, 0, 0, 0, 0, 0, 0)) == (1, -1)  # X forks within 5 plies
    assert len(data) < 1_000  # the game, the depth and the root: no kept proof
