"""check_game names each broken game's own law: every law runs on fresh copies of the walk's states."""

from __future__ import annotations

import pytest

from fnmcts.protocol import GameBase
from fnmcts.testing import check_game, find_counterexample
from small_games import ListCountdown


class MutatingCountdown(ListCountdown):
    """A countdown whose state is a list that play changes in place (and returns)."""

    def possible_moves(self, state):
        return (1, 2) if state[0] >= 2 else ((1,) if state[0] else ())

    def play(self, state, move):
        if move not in self.possible_moves(state):
            raise ValueError(f"illegal move {move!r}")
        state[0] -= move
        state[1] = 1 - state[1]
        return state


class Token:
    """An object without value equality: a copy of it is another object."""

    def __repr__(self):
        return "Token()"


class TokenCountdown(GameBase):
    """A sound countdown whose states carry a ``Token``: equal only to themselves."""

    num_players = 1
    token = Token()

    def start(self):
        return (3, self.token)

    def to_move(self, state):
        return 0 if state[0] else None

    def possible_moves(self, state):
        return (1,) if state[0] else ()

    def play(self, state, move):
        return (state[0] - move, state[1])

    def payoff(self, state):
        return (1,)


def test_a_play_that_changes_its_input_is_told_under_play_pure_at_the_start():
    with pytest.raises(AssertionError) as failure:
        check_game(MutatingCountdown(), max_examples=30)
    text = str(failure.value)
    assert text.startswith("game law 'play_pure' fails for")
    assert "at the start" in text and "state: [4, 0]" in text and "changed its input state" in text


def test_the_moves_law_alone_does_not_blame_the_mutation_on_the_moves():
    assert find_counterexample(MutatingCountdown(), "moves_stable_and_legal", max_examples=30) is None


def test_a_state_without_value_equality_is_told_under_hash_consistent_not_as_a_changed_input():
    assert find_counterexample(TokenCountdown(), "play_pure", max_examples=20) is None
    with pytest.raises(AssertionError) as failure:
        check_game(TokenCountdown(), max_examples=20, exact=False)
    text = str(failure.value)
    assert text.startswith("game law 'hash_consistent' fails for") and "is not equal to it" in text
    assert "changed its input" not in text


# -- an exception of any type raised inside the game's code is the game's, with the move and the state --

from dataclasses import dataclass

from fnmcts.games.nim import Nim


@dataclass(frozen=True)
class AssertsInPlay(Nim):
    """Lists 'take 0' below a heap of 3, and play asserts it never comes."""

    def possible_moves(self, state):
        moves = super().possible_moves(state)
        return (0,) + moves if 0 < state["heap"] < 3 else moves

    def play(self, state, move):
        assert move != 0, "unreachable"
        return super().play(state, move)


@dataclass(frozen=True)
class KeyErrorInPayoff(Nim):
    def payoff(self, state):
        return {}["winner"]


@pytest.mark.parametrize("error, make", [("AssertionError: unreachable", AssertsInPlay),
                                         ("ValueError", None)])
def test_the_game_s_own_exception_is_reported_with_the_move_whatever_its_type(error, make):
    if make is None:  # the same bug, told by a ValueError
        @dataclass(frozen=True)
        class RaisesInPlay(AssertsInPlay):
            def play(self, state, move):
                if move == 0:
                    raise ValueError("no such move")
                return super().play(state, move)

        make = RaisesInPlay
    with pytest.raises(AssertionError) as failure:
        check_game(make(heap=5, max_take=3), max_examples=30)
    lines = str(failure.value).splitlines()
    assert lines[0].startswith("game law 'moves_stable_and_legal' fails for")
    assert lines[1] == "  moves from the start: (3,)"  # the first heap below 3 from 5
    assert lines[2].startswith("  state: pmap(") and "'heap': 2" in lines[2] and "'player': 1" in lines[2]
    assert lines[3].startswith(f"  problem: play with the listed move 0 raised {error}")


def test_an_exception_in_payoff_is_the_game_s_not_a_law_s():
    with pytest.raises(AssertionError) as failure:
        check_game(KeyErrorInPayoff(heap=2, max_take=3), max_examples=20)
    text = str(failure.value)
    assert "problem: payoff at the end raised KeyError: 'winner'" in text


@pytest.mark.parametrize("thing", [5, "nim", None, object()])
def test_a_value_that_is_no_game_is_a_type_error_naming_it(thing):
    """check_game(5) was an AttributeError listing all six methods an int lacks, not the TypeError it documents."""
    with pytest.raises(TypeError, match="check_game needs a game of the fnmcts protocol, got"):
        check_game(thing, max_examples=1)
