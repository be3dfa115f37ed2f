"""A game's class given where a game is meant (``Nim`` for ``Nim()``): one message saying to make one, at every entry."""

import pytest

import fnmcts
import fnmcts.testing.counts
from fnmcts.games import Nim
from fnmcts.rng import make_rng

ENTRIES = {
    "search": lambda game: fnmcts.search(game, Nim().start(), 10, make_rng(1)),
    "mcts_move": lambda game: fnmcts.mcts_move(game, Nim().start(), 10, make_rng(1)),
    "solve": lambda game: fnmcts.solve(game),
    "simulate": lambda game: fnmcts.simulate(game, 10, seed=1),
    "tournament": lambda game: fnmcts.tournament(game, fnmcts.random_agent, fnmcts.random_agent, 2, 1),
    "evaluate_policy": lambda game: fnmcts.evaluate_policy(game, fnmcts.random_policy),
    "start": lambda game: fnmcts.protocol.start(game),
    "chance_outcomes": lambda game: fnmcts.protocol.chance_outcomes(game, Nim().start()),
    "is_terminal": lambda game: fnmcts.protocol.is_terminal(game, Nim().start()),
    "random_agent": lambda game: fnmcts.random_agent(game, Nim().start(), make_rng(1)),
    "playout": lambda game: fnmcts.playout(game, Nim().start(), make_rng(1)),
    "random_policy": lambda game: fnmcts.random_policy(game, Nim().start()),
    "perfect_agent": lambda game: fnmcts.perfect_agent(game, Nim().start(), make_rng(1)),
    "new_ai": lambda game: fnmcts.new_ai(game),
    "check_game": lambda game: fnmcts.testing.check_game(game),
    "count": lambda game: fnmcts.testing.counts.count(game),
}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_a_class_is_told_to_make_a_game(entry):
    with pytest.raises(TypeError, match=r"^game must be a game value, not the class Nim: make one, Nim\(\)"):
        ENTRIES[entry](Nim)


class Coin:
    """A game written as a class of static methods: the class itself is the game, and is not refused."""

    num_players = 1

    @staticmethod
    def start():
        return "toss"

    @staticmethod
    def to_move(state):
        return None if state != "toss" else 0

    @staticmethod
    def possible_moves(state):
        return ("heads", "tails") if state == "toss" else ()

    @staticmethod
    def chance_outcomes(state):
        return ()

    @staticmethod
    def play(state, move):
        return move

    @staticmethod
    def payoff(state):
        return (1,) if state == "heads" else (0,)


def test_a_class_of_static_methods_is_still_a_game():
    assert fnmcts.value(fnmcts.solve(Coin), "toss") == (1,)
    assert fnmcts.simulate(Coin, 20, seed=1).games == 20
