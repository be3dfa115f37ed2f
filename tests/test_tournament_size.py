"""``tournament`` checks its work on a game with no longest line too (Pig), by the game's ``fewest_moves``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.games import Pig
from fnmcts.limits import TooLarge
from fnmcts.matches import _check_tournament_work, playout, random_agent, tournament
from fnmcts.rng import make_rng


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10**12), st.integers(1, 10**6), st.integers(10, 10**13))
def test_a_pig_tournament_is_refused_exactly_when_its_fewest_moves_pass_the_limit(goal, games, limit):
    game = Pig(goal=goal)
    least = -(-goal // 6)  # from the start: the leader's whole goal still wanted, 6 points a roll at most
    if games * least * 6 > limit:
        with pytest.raises(TooLarge, match=r"no longest game and one takes at least [\d,]+ moves; limit=None goes on"):
            tournament(game, random_agent, random_agent, games, seed=1, limit=limit, chunk_size=10**9)
    else:  # within the limit: the check lets it through (the games are not played here)
        assert _check_tournament_work(game, game.start(), games, limit) is None


def test_fewest_moves_is_a_lower_bound_on_real_games():
    for goal in (1, 5, 13, 30):
        game = Pig(goal=goal)
        for seed in range(20):
            _, steps = playout(game, game.start(), make_rng(seed), moves=True)  # every decision and roll
            rolls = sum(1 for step in steps if isinstance(step, int))
            assert rolls >= game.fewest_moves(game.start()) and len(steps) >= rolls


def test_a_small_pig_tournament_still_plays_and_limit_none_goes_on():
    record = tournament(Pig(goal=10), random_agent, random_agent, 6, seed=2)
    assert record.games == 6
    with pytest.raises(TooLarge):
        tournament(Pig(goal=10**11), random_agent, random_agent, 1, seed=2)


class _Hintless(Pig):
    """Pig without its hints: a user's game, no ``size_hint`` and no ``fewest_moves``."""

    def size_hint(self, state):
        return (None, None, None)

    fewest_moves = None


@given(st.integers(1, 10**30), st.integers(10, 10**13))
@settings(max_examples=30, deadline=None)
def test_a_tournament_of_a_game_without_hints_is_refused_past_the_limit_at_a_move_a_game(games, limit):
    # fnmcts tournament mygame:Race random random --games 1e99 played until killed, where simulate refused it
    game = _Hintless(goal=10)
    if games > limit:
        with pytest.raises(TooLarge, match=r"games? would take about .* steps of play"):
            tournament(game, random_agent, random_agent, games, seed=1, limit=limit, chunk_size=10**9)
    else:
        assert _check_tournament_work(game, game.start(), games, limit) is None
