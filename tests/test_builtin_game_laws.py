"""Every built-in game obeys every game law (``fnmcts.testing.check_game``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.agents import random_agent
from fnmcts.games import GAMES, ConnectFour, Kayles, Nim, Pig, Piles, ShutTheBox, TicTacToe
from fnmcts.testing import (
    LAWS,
    agents_for,
    builtin_agents,
    check_game,
    game_states,
    nim_games,
    piles_games,
    shut_the_box_games,
)

BUILTIN = [
    Nim(),
    Nim(heap=21, max_take=3, misere=False),
    Nim(heap=17, max_take=5, misere=False),
    Nim(heap=0),
    Piles(),
    Piles((2, 2, 3), misere=False),
    ShutTheBox(),
    ShutTheBox(simplified=True),
    ShutTheBox(levers=4),
    TicTacToe(),
    Pig(goal=8),
    Kayles((3, 4)),
    ConnectFour(),
]


@pytest.mark.slow
@pytest.mark.parametrize("game", BUILTIN, ids=repr)
def test_every_law_holds(game):
    assert check_game(game, max_examples=40) == tuple(LAWS)


def test_every_game_of_the_command_line_is_checked():
    assert {type(game) for game in BUILTIN} == set(GAMES.values())


def test_every_builtin_agent_that_plays_nim_is_checked():
    # the trained Q-learning agent needs a table, so it cannot be built with small budgets alone
    assert set(agents_for(Nim())) >= set(builtin_agents()) - {"q"}
    assert "random" in agents_for(ShutTheBox())


small_games = st.one_of(nim_games(max_heap=12), piles_games(max_piles=3, max_pile=4), shut_the_box_games(max_levers=5))


@settings(max_examples=25)
@given(game_states(small_games), st.randoms(use_true_random=False))
def test_every_law_holds_on_drawn_games_and_states(reached, rng):
    game, state = reached.game, reached.state
    for name, law in LAWS.items():
        if name == "agents_legal":
            assert law(game, state, rng, {"random": random_agent})
        elif name == "playthrough_ends":
            assert law(game, state, rng, max_steps=2 * 12 + 1)
        else:
            assert law(game, state)


@pytest.mark.parametrize("game", [Nim(heap=9, max_take=3), Piles((1, 2, 3))], ids=repr)
def test_a_briefly_trained_q_agent_returns_legal_moves(game):
    import fnmcts.agents

    registry = getattr(fnmcts.agents, "AGENTS", {})
    if "q" not in registry:
        pytest.skip("no Q-learning agent in the registry")
    from fnmcts.qlearning import train

    agent = registry["q"](ai=train(300, seed=1, game=game))
    assert check_game(game, laws=["agents_legal"], agents={"q": agent}, max_examples=40) == ("agents_legal",)
