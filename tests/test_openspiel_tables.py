"""A short OpenSpiel game gives the search its states as tables (``OpenSpielGame.compiled_graph``): the tables
answer as the adapter's protocol does, state for state, and a search on them is the search through the protocol,
draw for draw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")

from fnmcts import CHANCE  # noqa: E402
from fnmcts.mcts import CompiledGraph, mcts_move, search  # noqa: E402
from fnmcts.openspiel import TABLE_LIMIT, from_openspiel  # noqa: E402
from fnmcts.openspiel import _walk_tables  # noqa: E402

TABLED = ("tic_tac_toe", "nim(pile_sizes=1;2;3)", "catch", "pig(winscore=5,horizon=4)", "hex(board_size=2)",
          "cliff_walking(horizon=8)")
"""Short games of each kind: two players, one player with chance, two with chance, rewards on the way."""

OPTIONS = (
    {}, {"solver": False}, {"bounds": True}, {"rave": 50}, {"backup": "expectimax"}, {"backup": "graph"},
    {"rule": "ucb"}, {"root": "gumbel"}, {"max_nodes": 1000},
)
"""Every option of the search. A bounded tree that prunes is left out: it breaks ties among the nodes it may drop
by each state's JSON text, an OpenSpiel position's first history met, which the tables (walked breadth first) and
a search through the protocol (its own first line to the position) may hold differently."""


@pytest.mark.parametrize("spec", TABLED)
def test_the_tables_answer_as_the_protocol_does_state_for_state(spec):
    game = from_openspiel(spec)
    tables = game.compiled_graph()
    assert tables is not None and tables is game.compiled_graph()  # walked once per game value
    assert tables.states[0] == game.start() and len(tables.states) == len(tables.index)
    for i, state in enumerate(tables.states):
        assert tables.index[state] == i
        player = game.to_move(state)
        if player is None:
            assert tables.kinds[i] == -1 and tables.payoffs[i] == game.payoff(state) and tables.children[i] == ()
            continue
        assert tables.payoffs[i] is None
        if player is CHANCE:
            outcomes = game.chance_outcomes(state)
            assert tables.kinds[i] == -2 and tables.outcomes[i] == outcomes
            steps = [outcome for outcome, _ in outcomes]
        else:
            assert tables.kinds[i] == player and tables.moves[i] == game.possible_moves(state)
            steps = game.possible_moves(state)
        assert tables.children[i] == tuple(tables.index[game.play(state, step)] for step in steps)


def test_every_state_of_the_game_is_in_the_tables():
    """tic_tac_toe's 5,478 positions: OpenSpiel's own enumeration of its states by their picture."""
    game = from_openspiel("tic_tac_toe")
    assert len(game.compiled_graph().states) == 5478
    from open_spiel.python.algorithms import get_all_states

    assert len(get_all_states.get_all_states(game.native, include_terminals=True, include_chance_states=True,
                                                 to_string=str)) == 5478


def test_a_long_or_large_game_or_one_of_histories_has_no_tables():
    assert from_openspiel("connect_four").compiled_graph() is None  # longer than the steps walked
    assert from_openspiel("tic_tac_toe", states="histories").compiled_graph() is None  # histories are not merged
    assert _walk_tables(from_openspiel("tic_tac_toe"), 5477) is None  # one state past the limit: none
    assert TABLE_LIMIT >= 5478


def _position(game, rng, plies):
    state = game.start()
    for _ in range(plies):
        who = game.to_move(state)
        if who is None:
            break
        steps = [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state)
        after = game.play(state, rng.choice(steps))
        if game.to_move(after) is None:
            break
        state = after
    return state


def _outcome(run):
    """What ``run()`` gives, or the error it raises (a rule whose rating is undefined raises it either way)."""
    try:
        return run()
    except ValueError as error:
        return ("ValueError", str(error))


def _found(found):
    return found.move, found.iterations, found.children, dict(found.proven), dict(found.tree)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLED), st.integers(0, 2**32 - 1), st.integers(0, 5), st.sampled_from(OPTIONS),
       st.integers(1, 120))
@pytest.mark.slow
def test_a_search_on_the_tables_is_the_search_through_the_protocol(spec, seed, plies, options, iterations):
    game = from_openspiel(spec)
    state = _position(game, random.Random(seed), plies)
    if game.to_move(state) is CHANCE:
        if "root" in options:  # a root rule chooses among moves: not at a roll
            return
        tabled = _outcome(lambda: search(game, state, iterations, random.Random(seed), **options))
        through = _outcome(lambda: search(game, state, iterations, random.Random(seed), graph=CompiledGraph(game),
                                          **options))
    else:
        tabled = _outcome(lambda: _found(mcts_move(game, state, iterations, random.Random(seed), **options)))
        through = _outcome(lambda: _found(mcts_move(game, state, iterations, random.Random(seed),
                                                    graph=CompiledGraph(game), **options)))
    assert tabled == through
