"""The adapter's fast paths (a legal move from a state whose moves are known, the payoff of a state kept over)
give exactly what a state replayed from its history gives, on every kind of position and on histories."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")

from fnmcts import CHANCE  # noqa: E402
from fnmcts.openspiel import from_openspiel  # noqa: E402

SPECS = ("tic_tac_toe", "connect_four", "nim(pile_sizes=1;2;3)", "pig(winscore=6,horizon=7)", "hex(board_size=3)",
         "cliff_walking(horizon=8)", "tic_tac_toe|histories")
"""A game of each recipe: the picture alone, with the length, with the decisions, rewards on the way, histories."""


def _game(spec):
    name, _, states = spec.partition("|")
    return from_openspiel(name, states=states or None)


def _returns(game, native):
    """The payoff of OpenSpiel's returns, scaled here as the adapter's documentation says (zero-sum by the
    largest |utility|; one player onto [0, 1])."""
    low, high = game.native.min_utility(), game.native.max_utility()
    if game.num_players == 1:
        return tuple((r - low) / (high - low) for r in native.returns())
    return tuple(r / max(abs(low), abs(high)) for r in native.returns())


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SPECS), st.randoms(use_true_random=False), st.booleans())
def test_every_state_played_is_the_state_replayed_from_its_history(spec, rng, ask_moves_first):
    game = _game(spec)
    state = game.start()
    while (who := game.to_move(state)) is not None:
        if who is CHANCE:
            move = rng.choice([o for o, _ in game.chance_outcomes(state)])
        else:
            moves = game.possible_moves(state) if ask_moves_first else tuple(game.native_state(state).legal_actions())
            move = rng.choice(moves)
        after = game.play(state, move)
        replayed = game.state_from_json(list(after.history))  # the slow path: every action checked on a new state
        assert after == replayed and after.key == replayed.key and hash(after) == hash(replayed)
        assert game.to_move(after) == game.to_move(replayed)
        assert game.possible_moves(after) == game.possible_moves(replayed)
        assert game.native_state(after).history() == list(after.history)
        state = after
    end = game.state_from_json(list(state.history))
    assert game.payoff(state) == game.payoff(end) == pytest.approx(_returns(game, game.native_state(end)))


def test_an_illegal_move_is_still_refused_on_the_fast_path():
    game = from_openspiel("tic_tac_toe")
    state = game.play(game.start(), 4)
    game.possible_moves(state)  # the moves known: the fast path is open
    with pytest.raises(ValueError, match="action 4 is not legal"):
        game.play(state, 4)
    with pytest.raises(TypeError, match="an OpenSpiel move is an action number"):
        game.play(state, "4")
    end = state
    for cell in (0, 3, 1, 6, 2):
        end = game.play(end, cell)
    with pytest.raises(ValueError, match="the game is not over"):
        game.payoff(state)
    assert game.to_move(end) is None and game.payoff(end) == (-1, 1)
