"""The optional game hooks: defaults that work for any game, and a user's game that answers them."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts import io as fnmcts_io
from fnmcts import protocol, qlearning, theory
from fnmcts.agents import make_agent, perfect_agent
from fnmcts.exact import best_moves, solve
from fnmcts.games import Nim, Piles, TicTacToe
from fnmcts.matches import play_game, tournament


class Countdown:
    """Take 1 or 2 from a counter; taking the last one wins. Not a GameBase: only the protocol."""

    num_players = 2
    name = "countdown"

    def __init__(self, start=7):
        self.first = start

    def start(self):
        return (self.first, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(m for m in (1, 2) if m <= state[0])

    def chance_outcomes(self, state):
        return ()

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)

    def state_to_json(self, state):
        return list(state)

    def state_from_json(self, data):
        return tuple(data)


@dataclass(frozen=True)
class ClosedCountdown(protocol.GameBase):
    """The same game with its closed form (leave a multiple of 3) as hooks."""

    first: int = 7
    num_players = 2
    name = "closed-countdown"

    def start(self):
        return (self.first, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(m for m in (1, 2) if m <= state[0])

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)

    def winning_moves(self, state):
        return (state[0] % 3,) if state[0] % 3 else ()

    def mover_wins(self, state):
        return state[0] % 3 != 0


def test_a_game_outside_gamebase_gets_every_default():
    game = Countdown()
    state = game.start()
    assert protocol.parse_state(game, "[5, 1]") == (5, 1)
    with pytest.raises(ValueError, match="JSON form"):
        protocol.parse_state(game, "five")
    assert protocol.check_reachable(game, (5, 1)) == (5, 1)
    assert protocol.render(game, state) == "[7, 0]"
    assert protocol.parse_move(game, state, "2") == 2 and protocol.parse_move(game, state, "1") == 1
    with pytest.raises(ValueError, match="number from 1 to 2"):
        protocol.parse_move(game, state, "3")
    assert protocol.transcript_line(game, 0, 2, (5, 1)) == "Player 1: 2."
    assert protocol.q_key(game, state) == state == protocol.state_from_q_key(game, state)
    assert protocol.q_key_from_json(game, protocol.q_key_to_json(game, state)) == state
    assert not theory.has_closed_form(game)
    with pytest.raises(TypeError, match="no closed form"):
        theory.winning_moves(game, state)


def test_a_users_closed_form_serves_theory_and_the_perfect_agent():
    game = ClosedCountdown(7)
    assert theory.has_closed_form(game)
    assert theory.winning_moves(game, game.start()) == (1,) and theory.winner(game, (6, 0)) == theory.OTHER
    assert perfect_agent(game, game.start(), random.Random(0)) == 1
    record = tournament(game, perfect_agent, perfect_agent, 20, seed=1)
    assert record.wins[1] == 20


@given(st.integers(1, 12), st.integers(0, 2**32))
def test_without_a_closed_form_perfect_plays_the_exact_solvers_first_optimal_move(start, seed):
    game = Countdown(start)
    state = game.start()
    solution = solve(game)
    move = perfect_agent(game, state, random.Random(seed))
    if solution[state][0] > -1:  # won: the first optimal move
        assert move == best_moves(game, solution, state)[0]
    else:  # lost whatever the move: any of them
        assert move in game.possible_moves(state)
    assert make_agent("perfect", game=game)(game, state, random.Random(seed)) == move


def test_perfect_play_draws_tic_tac_toe():
    game = TicTacToe()
    agent = make_agent("perfect", game=game)
    assert play_game(game, agent, agent, seed=1).winner is None


@pytest.mark.parametrize("game", [Nim(heap=9), Piles((1, 3, 5))], ids=repr)
def test_q_keys_round_trip_through_json_and_back_to_states(game):
    state = game.play(game.start(), game.possible_moves(game.start())[-1])
    key = protocol.q_key(game, state)
    assert protocol.q_key_from_json(game, protocol.q_key_to_json(game, key)) == key
    assert protocol.q_key(game, protocol.state_from_q_key(game, key)) == key


def test_q_learning_plays_a_users_game_with_the_default_keys(tmp_path):
    game = ClosedCountdown(6)
    ai = qlearning.train(300, seed=1, game=game)
    assert all(isinstance(key, tuple) and len(key) == 2 for key, _ in ai.q)  # the state itself
    path = fnmcts_io.save_ai(ai, tmp_path / "q.json")
    assert fnmcts_io.load_ai(path, {"closed-countdown": ClosedCountdown}) == ai
    assert qlearning.optimal_move_rate(ai) > 0
