"""play_game and tournament: transcripts, rules, seeds, executors, exact win rates."""

import math
from fractions import Fraction
import re
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import PRecord, pmap

from fnmcts import theory
from fnmcts.agents import exact_agent, montecarlo_agent, perfect_agent
from fnmcts.exact import evaluate_policy, random_policy
from fnmcts.games import Nim, Piles, ShutTheBox
from fnmcts.games.piles import parse_piles
from fnmcts.matches import GameRecord, TournamentRecord, play_game, random_agent, tournament
from fnmcts.protocol import check_reachable as check_within
from fnmcts.protocol import parse_state

LINE = re.compile(r"Player ([12]) takes (\d+) matchstick\(s\)\. There are (\d+) matchstick\(s\) remaining\.")


@st.composite
def nim_games(draw):
    return Nim(heap=draw(st.integers(1, 30)), max_take=draw(st.integers(1, 5)), misere=draw(st.booleans()))


@given(nim_games(), st.integers(0, 2**32), st.sampled_from([random_agent, perfect_agent]))
def test_the_transcript_tells_the_game_by_the_rules(game, seed, agent):
    record = play_game(game, agent, random_agent, seed=seed, verbose=True)
    heap, player = game.heap, 1
    *turns, last = record.transcript
    assert len(turns) == len(record.moves)
    for line, move in zip(turns, record.moves):
        who, take, left = map(int, LINE.fullmatch(line).groups())
        assert who == player and take == move and 1 <= take <= game.max_take
        assert left == heap - take
        heap, player = left, 3 - player
    assert heap == 0
    last_taker = 3 - player
    expected = 3 - last_taker if game.misere else last_taker
    assert last == f"Player {expected} wins!"
    assert record.winner == expected
    assert record.reward == (1 if expected == 1 else -1)
    assert record.payoff == ((1, -1) if expected == 1 else (-1, 1))


@given(nim_games(), st.integers(0, 2**32))
def test_same_seed_same_game(game, seed):
    a = play_game(game, random_agent, random_agent, seed=seed, verbose=True)
    b = play_game(game, random_agent, random_agent, seed=seed, verbose=True)
    assert a == b and a.seed == seed
    assert isinstance(a, PRecord) and isinstance(hash(a.moves), int)


def test_quiet_games_carry_no_transcript():
    assert play_game(Nim(), random_agent, random_agent, seed=1).transcript == ()


def test_the_notebook_transcript_starts_and_ends_as_printed():
    record = play_game(Nim(21, 3), random_agent, perfect_agent, seed=4, verbose=True)
    assert record.transcript[-1] == "Player 2 wins!"  # 21 = 1 mod 4: the second player wins
    assert all(LINE.fullmatch(line) for line in record.transcript[:-1])


@pytest.mark.parametrize("heap", range(1, 30))
@pytest.mark.parametrize("misere", [True, False])
def test_perfect_against_perfect_is_decided_by_theory(heap, misere):
    game = Nim(heap=heap, max_take=3, misere=misere)
    record = tournament(game, perfect_agent, perfect_agent, 20, seed=heap)
    first_wins = theory.mover_wins(game, game.start())
    assert record.wins == pmap({1: 20 if first_wins else 0, 2: 0 if first_wins else 20})


def test_the_notebook_tournaments_with_perfect_play():
    game = Nim(21, 3)
    assert tournament(game, random_agent, perfect_agent, 100, seed=1).summary() == (
        "Player 1 wins 0 games. Player 2 wins 100 games."
    )
    assert tournament(Nim(22, 3), perfect_agent, perfect_agent, 100, seed=1).wins[1] == 100


@pytest.mark.parametrize("game", [Nim(21, 3, misere=True), Nim(10, 3, misere=False), Piles((1, 3, 5))])
def test_random_tournament_matches_the_exact_value(game):
    """Random against random: player 1's wins within 5 sigma of the exact probability."""
    n = 2000
    p = (evaluate_policy(game, random_policy, opponent=random_policy)[game.start()][0] + 1) / 2
    record = tournament(game, random_agent, random_agent, n, seed=11)
    assert record.wins[1] + record.wins[2] == n and record.draws == 0
    assert abs(record.wins[1] / n - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n)


def test_tournament_is_the_same_on_any_executor():
    game = Nim(15, 3)
    agent = partial(montecarlo_agent, trials=20)
    alone = tournament(game, agent, random_agent, 60, seed=9, chunk_size=7)
    with ThreadPoolExecutor(2) as pool:
        pooled = tournament(game, agent, random_agent, 60, seed=9, chunk_size=7, executor=pool)
    assert alone == pooled
    assert alone != tournament(game, agent, random_agent, 60, seed=10, chunk_size=7)


def test_tournament_progress_and_json():
    seen = []
    record = tournament(Nim(), random_agent, random_agent, 250, seed=2, progress=seen.append)
    assert seen == [1] * 250  # in this process, every game moves the bar (on an executor, every chunk)
    data = record.to_json()
    assert data["games"] == 250 and set(data["wins"]) == {"1", "2"} and sum(data["wins"].values()) == 250
    assert isinstance(record, TournamentRecord)


def test_piles_transcript():
    game = Piles((1, 3, 5, 7))
    record = play_game(game, random_agent, perfect_agent, seed=1, verbose=True)
    piles = list(game.piles)
    for line, (i, j) in zip(record.transcript, record.moves):
        piles[i] -= j
        assert line.endswith(f"takes {j} object(s) from pile {i}. Piles: {' '.join(map(str, piles))}.")
    assert record.transcript[-1] == "Player 2 wins!"  # [1, 3, 5, 7] misère: a lost start


def test_one_player_game_and_chance():
    game = ShutTheBox(simplified=True)
    record = play_game(game, exact_agent, None, seed=3, verbose=True)
    assert record.winner in (1, None)
    assert record.transcript[0].startswith("Chance: ")
    assert record.transcript[-1] in ("Player 1 wins!", "Nobody wins.")


def test_illegal_agent_moves_and_bad_arguments():
    with pytest.raises(ValueError, match="illegal"):
        play_game(Nim(), lambda g, s, r: 99, random_agent, seed=1)
    with pytest.raises(ValueError):
        play_game(Nim(), random_agent, random_agent, seed=-1)
    with pytest.raises(TypeError):
        tournament(Nim(), random_agent, random_agent, "ten", seed=1)
    with pytest.raises(ValueError, match="seed or an rng"):
        import random

        play_game(Nim(), random_agent, random_agent, seed=1, rng=random.Random(1))


def test_game_record_is_immutable():
    record = play_game(Nim(), random_agent, random_agent, seed=1)
    assert isinstance(record, GameRecord)
    with pytest.raises(AttributeError):
        record.winner = 3
    original = record.winner
    assert record.set(winner=None).winner is None and record.winner == original in (1, 2)


@pytest.mark.parametrize(
    "game, text, expected",
    [
        (Nim(), "21", pmap({"heap": 21, "player": 0})),
        (Nim(), ' {"heap": 5, "player": 2} ', pmap({"heap": 5, "player": 1})),
        (Piles(), "1,3,5,7", pmap({"piles": (1, 3, 5, 7), "player": 0})),
        (Piles(), "2 0  4", pmap({"piles": (2, 0, 4), "player": 0})),
        (Piles(), "[1, 2]", pmap({"piles": (1, 2), "player": 0})),
    ],
)
def test_parse_state(game, text, expected):
    assert parse_state(game, text) == expected


@pytest.mark.parametrize(
    "game, text",
    [(Nim(), "many"), (Nim(), "-3"), (Piles(), "1,x"), (Piles(), ""), (Piles(), "1,-1"), (Nim(), "{bad"),
     (ShutTheBox(), "123"), (Piles(), "1,,3"), (Piles(), "1,3,"), (Piles(), ",1"), (Piles(), "1, ,3")],
)
def test_parse_state_rejects_bad_text(game, text):
    with pytest.raises(ValueError):
        parse_state(game, text)


def test_public_names():
    import fnmcts
    import fnmcts.protocol

    assert fnmcts.play is fnmcts.protocol.play  # the function, not a module of the same name
    import importlib

    # the module of play_game (two agents) is fnmcts.matches; fnmcts.play_game is the tutorial's
    assert importlib.import_module("fnmcts.matches").play_game is not fnmcts.play_game
    assert fnmcts.play_game is importlib.import_module("fnmcts.tutorial").play_game
    for name in ("play_game", "tournament", "perfect_agent", "make_agent", "AGENTS", "winner", "winning_moves"):
        assert name in fnmcts.__all__ and getattr(fnmcts, name) is not None
    # their companions live in their modules (the top-level names: deprecated for one release)
    for name, home in (("GameRecord", "fnmcts.matches"), ("TournamentRecord", "fnmcts.matches"),
                       ("nim_sum", "fnmcts.grundy"), ("evaluate_position", "fnmcts.tutorial")):
        assert name not in fnmcts.__all__ and name in importlib.import_module(home).__all__


@given(nim_games(), st.integers(0, 60), st.integers(0, 2**32), st.integers(1, 30))
def test_tournament_counts_every_game_once_whatever_the_chunks(game, n, seed, chunk):
    record = tournament(game, random_agent, perfect_agent, n, seed=seed, chunk_size=chunk)
    assert record.games == n == record.wins[1] + record.wins[2] + record.draws and record.draws == 0
    if not theory.mover_wins(game, game.start()):  # perfect second player from a lost start
        assert record.wins[2] == n


pile_lists = st.lists(st.integers(0, 12), min_size=1, max_size=5)


@given(pile_lists, st.sampled_from([",", ", ", " ", " , "]))
def test_parse_piles_reads_back_what_is_written(piles, sep):
    assert parse_piles(sep.join(map(str, piles))) == tuple(piles)


@given(pile_lists, st.data())
def test_parse_piles_refuses_an_empty_field(piles, data):
    """"1,,3" is a typo, not the piles 1 3: an empty field anywhere is refused."""
    fields = [str(p) for p in piles]
    fields.insert(data.draw(st.integers(0, len(fields))), data.draw(st.sampled_from(["", " "])))
    with pytest.raises(ValueError, match="empty field"):
        parse_piles(",".join(fields))


@st.composite
def piles_games_and_states(draw):
    """A Piles game and a state reached from its start by random legal moves."""
    game = Piles(tuple(draw(pile_lists)), misere=draw(st.booleans()))
    state = game.start()
    for _ in range(draw(st.integers(0, 20))):
        if game.to_move(state) is None:
            break
        state = game.play(state, draw(st.sampled_from(game.possible_moves(state))))
    return game, state


@given(piles_games_and_states())
def test_every_state_play_reaches_is_within_the_game(game_state):
    game, state = game_state
    assert check_within(game, state) == state


@given(piles_games_and_states(), st.data())
def test_a_larger_pile_or_another_number_of_piles_is_not_within(game_state, data):
    game, state = game_state
    piles = list(state["piles"])
    change = data.draw(st.sampled_from(["grow", "add", "drop"]))
    if change == "grow":
        i = data.draw(st.integers(0, len(piles) - 1))
        piles[i] = game.piles[i] + data.draw(st.integers(1, 5))
    elif change == "add":
        piles.append(data.draw(st.integers(0, 3)))
    elif len(piles) > 1:
        piles.pop()
    else:
        piles.append(0)
    with pytest.raises(ValueError, match="cannot reach"):
        check_within(game, game.state(piles, state["player"]))


@given(nim_games(), st.integers(0, 40), st.integers(0, 1))
def test_a_nim_state_is_within_the_game_iff_its_heap_is_at_most_the_start(game, heap, player):
    state = game.state(heap, player)
    if heap <= game.heap:
        assert check_within(game, state) == state
    else:
        with pytest.raises(ValueError, match="cannot reach"):
            check_within(game, state)
    with pytest.raises(ValueError):
        check_within(game, Piles().start())  # a state of another game


@given(nim_games(), st.integers(0, 2**32), st.integers(0, 12), st.sampled_from([random_agent, perfect_agent]))
def test_the_notebooks_argument_order_gives_the_same_records(game, seed, n, agent):
    """Game(Agent1, Agent2, ...) and Tournament(numgames, Agent1, Agent2, ...): the notebook's order, same results."""
    assert play_game(agent, random_agent, game, seed=seed, verbose=True) == play_game(
        game, agent, random_agent, seed=seed, verbose=True)
    assert tournament(n, agent, random_agent, game, seed=seed, chunk_size=5) == tournament(
        game, agent, random_agent, n, seed=seed, chunk_size=5)
    assert play_game(agent1=agent, agent2=random_agent, game=game, seed=seed) == play_game(game, agent, random_agent, seed=seed)


@pytest.mark.parametrize("call", [
    lambda: play_game(random_agent, random_agent, random_agent, seed=1),
    lambda: tournament(random_agent, random_agent, random_agent, 3, seed=1),
    lambda: tournament(3, random_agent, random_agent, 4, seed=1),
])
def test_no_game_among_the_arguments_is_a_type_error_that_says_so(call):
    with pytest.raises(TypeError, match=r"takes a game \(with start, to_move, possible_moves and play\)"):
        call()


def test_a_games_class_is_told_to_make_one():
    with pytest.raises(TypeError, match=r"not the class Nim: make one, Nim\(\)"):
        play_game(Nim, random_agent, random_agent, seed=1)  # the class, not a game value


class _ThreeTake:
    """Three players take 1 or 2 stones in turn; the last taker gets 1, the one before 1/2, the other 0."""

    num_players = 3

    def start(self):
        return (4, 0, None)

    def to_move(self, s):
        return s[1] if s[0] else None

    def possible_moves(self, s):
        return tuple(m for m in (1, 2) if m <= s[0])

    def chance_outcomes(self, s):
        return ()

    def play(self, s, m):
        return (s[0] - m, (s[1] + 1) % 3, s[1])

    def payoff(self, s):
        return tuple(1 if p == s[2] else Fraction(1, 2) if p == (s[2] - 1) % 3 else 0 for p in range(3))

    def payoff_range(self):
        return (0, 1)


@pytest.mark.parametrize("verb", [partial(play_game, seed=1), partial(tournament, n=4, seed=1)])
def test_a_game_of_three_players_is_told_the_match_takes_two_agents(verb):
    """A tournament of a three-player game met player 3 with no agent: an IndexError, no word of why."""
    with pytest.raises(ValueError, match="takes two agents; this game has 3 players"):
        verb(_ThreeTake(), random_agent, random_agent)


class _Score:
    """One move ends a one-player game with the payoff ``score`` on ``(low, high)``."""

    num_players = 1

    def __init__(self, score, low, high):
        self.score, self.low, self.high = score, low, high

    def start(self):
        return 0

    def to_move(self, s):
        return 0 if s == 0 else None

    def possible_moves(self, s):
        return ("end",) if s == 0 else ()

    def play(self, s, m):
        return 1

    def payoff(self, s):
        return (self.score,)

    def payoff_range(self):
        return (self.low, self.high)


@given(st.integers(-20, 20), st.integers(1, 40), st.integers(0, 40))
def test_one_player_wins_a_match_as_simulate_counts_a_win(low, width, at):
    """A payoff of 1/2 on (0, 1) was a win for being positive, where simulate and the protocol call it a draw."""
    from fnmcts.montecarlo import simulate

    game = _Score(low + Fraction(min(at, width), 1), low, low + width)
    record = play_game(game, random_agent, random_agent, seed=1, verbose=True)
    won = simulate(game, 1, seed=1).win == 1
    assert (record.winner == 1) == won
    assert record.transcript[-1] == ("Player 1 wins!" if won else "Nobody wins.")
    assert tournament(game, random_agent, random_agent, 2, seed=1).wins[1] == (2 if won else 0)
