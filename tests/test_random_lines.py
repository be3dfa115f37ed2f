"""One estimate of a game's length by random play (``fnmcts.limits.random_lines``) for the memory checks of
``held_bytes`` and of a trace: both callers keep the answers they gave when each had its own loop."""

from __future__ import annotations

import random

import pytest

from fnmcts.games import Nim, Pig, ShutTheBox, TicTacToe
from fnmcts.limits import UNKNOWN_LENGTH, _played_length, _steps, random_lines
from fnmcts.rng import pick
from fnmcts.views._trace import _longest_line


def _old_played_length(game, roots, games=16):
    """``_played_length`` as it was: chance drawn by ``rng.choices`` on float weights."""
    rng, longest = random.Random(0), 0
    for root in roots:
        for _ in range(games):
            state, plies = root, 0
            while plies <= UNKNOWN_LENGTH:
                player, choices, weights = _steps(game, state)
                if player is None or not choices:
                    break
                state = game.play(state, rng.choices(choices, weights)[0] if weights else pick(rng, choices))
                plies += 1
            longest = max(longest, plies)
    return min(UNKNOWN_LENGTH, 2 * longest)


@pytest.mark.parametrize("game", [Nim(heap=9), ShutTheBox(levers=6), TicTacToe(), Pig(goal=20)], ids=repr)
def test_the_played_length_is_the_one_the_old_loop_gave(game):
    roots = (game.start(),)
    assert _played_length(game, roots) == _old_played_length(game, roots)


def test_a_trace_estimate_and_the_played_length_come_from_one_function():
    game = ShutTheBox(levers=6)
    assert _longest_line(game, game.start()) == random_lines(game, (game.start(),), 32, 100_000)
    decisions, plies = random_lines(game, (game.start(),), 16, UNKNOWN_LENGTH)
    assert _played_length(game, (game.start(),)) == min(UNKNOWN_LENGTH, 2 * plies)
    assert 0 < decisions < plies


def test_a_game_longer_than_the_cut_stops_just_past_it():
    game = Nim(heap=50, max_take=1)
    assert random_lines(game, (game.start(),), 2, 10) == (11, 11)
