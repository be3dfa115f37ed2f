"""Tournament summaries count draws unless the game says it cannot draw (``can_draw = False``); floats that do not sum to 1 say so."""

import random

import pytest

from fnmcts.games import GAMES
from fnmcts.protocol import CHANCE

from cli_run import run, write_user_game


NO_DRAWS = sorted(name for name, make in GAMES.items() if getattr(make(), "can_draw", True) is False)
"""The built-in games that say they cannot draw (``can_draw = False``)."""


def test_the_games_that_say_they_cannot_draw_include_nim_and_kayles():
    assert {"nim", "kayles"} <= set(NO_DRAWS), NO_DRAWS


@pytest.mark.parametrize("name", NO_DRAWS)
def test_a_game_that_says_it_cannot_draw_never_draws_on_random_walks(name):
    game = GAMES[name]()
    rng = random.Random(7)
    for _ in range(20):
        state = game.start()
        while (who := game.to_move(state)) is not None:
            options = [o for o, _ in game.chance_outcomes(state)] if who is CHANCE else game.possible_moves(state)
            state = game.play(state, rng.choice(options))
        assert len(set(game.payoff(state))) > 1, (name, state)


def test_kayles_says_it_cannot_draw_so_its_tournament_counts_no_draws(capsys):
    code, out, _ = run(capsys, "tournament", "kayles(pins=5)", "random", "random", "--games", "6", "--seed", "1")
    assert code == 0 and "draw" not in out


def test_a_users_game_that_does_not_say_keeps_its_draw_count(capsys, tmp_path, monkeypatch):
    spec = write_user_game(tmp_path, monkeypatch, "draws_take_away")
    code, out, _ = run(capsys, "tournament", spec, "random", "random", "--games", "6", "--seed", "1")
    assert code == 0 and "0 draws." in out


FLOAT_DIE = '''
from dataclasses import dataclass
from fnmcts import CHANCE, GameBase

@dataclass(frozen=True)
class Roll(GameBase):
    num_players = 2
    def start(self): return ("roll", 0)
    def to_move(self, state): return None if state[0] == "done" else CHANCE if state[0] == "roll" else state[1]
    def possible_moves(self, state): return ("stop",)
    def chance_outcomes(self, state): return tuple((d, 1 / 6) for d in range(1, 7))
    def play(self, state, move): return ("done", move) if state[0] == "roll" else state
    def payoff(self, state): return (1, -1) if state[1] > 3 else (-1, 1)
'''


def test_float_probabilities_that_miss_1_say_to_give_fractions(capsys, tmp_path, monkeypatch):
    (tmp_path / "float_die.py").write_text(FLOAT_DIE)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = run(capsys, "tournament", "float_die:Roll", "random", "random", "--games", "2", "--seed", "1")
    assert code != 0 and "give Fractions, Fraction(1, 6) for 1/6" in err, err


def test_one_game_and_one_draw_are_said_in_the_singular():
    from pyrsistent import pmap

    from fnmcts.matches import TournamentRecord

    assert TournamentRecord(games=3, wins=pmap({1: 1, 2: 1}), draws=1).summary() == (
        "Player 1 wins 1 game. Player 2 wins 1 game. 1 draw.")
    assert TournamentRecord(games=4, wins=pmap({1: 0, 2: 2}), draws=2).summary() == (
        "Player 1 wins 0 games. Player 2 wins 2 games. 2 draws.")
