"""Whole games between agents, and tournaments: the notebook's Game and Tournament.

``play_game(agent1, agent2, game, seed)`` plays one game and returns an
immutable ``GameRecord``: the moves, the payoff, the winner (1 or 2, the
notebook's player numbers) and, when ``verbose``, the notebook's transcript as
data ("Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.").
Nothing is printed here: the command line prints the lines.

``tournament(n, agent1, agent2, game, seed)`` plays ``n`` games and returns a
``TournamentRecord`` with the wins of each player. Same seed, same result, on
one worker or many (one child seed per fixed-size chunk of games).

>>> from fnmcts.agents import perfect_agent, random_agent
>>> from fnmcts.games import Nim
>>> game = Nim(heap=21, max_take=3, misere=True)
>>> record = play_game(random_agent, perfect_agent, game, seed=1, verbose=True)
>>> record.winner, record.transcript[-1]
(2, 'Player 2 wins!')
>>> tournament(100, random_agent, perfect_agent, game, seed=1).summary()
'Player 1 wins 0 games. Player 2 wins 100 games.'
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Callable

from pyrsistent import PRecord, field, pmap

from .parallel import check_count, run_chunks
from .protocol import CHANCE, check_state, sample_outcome
from .rng import resolve_seed

__all__ = [
    "GameRecord",
    "TournamentRecord",
    "play_game",
    "tournament",
    "transcript_line",
    "result_line",
    "parse_state",
    "parse_piles",
    "check_within",
    "TOURNAMENT_CHUNK",
]

TOURNAMENT_CHUNK = 100
"""Games per chunk (and per child seed) of a tournament unless told otherwise."""


class GameRecord(PRecord):
    """One finished game: moves, final state, payoff, winner (1, 2 or None), transcript."""

    moves = field(type=tuple, mandatory=True)
    end = field(mandatory=True)
    payoff = field(type=tuple, mandatory=True)
    winner = field(mandatory=True)
    transcript = field(type=tuple, initial=())
    seed = field(initial=None)

    @property
    def reward(self):
        """The payoff of player 1 (the notebook's Game return value: 1 or -1)."""
        return self.payoff[0]


class TournamentRecord(PRecord):
    """The result of ``n`` games: wins per player (keys 1 and 2), draws, the seed."""

    games = field(type=int, mandatory=True)
    wins = field(mandatory=True)
    draws = field(type=int, initial=0)
    seed = field(initial=None)

    def summary(self) -> str:
        """The notebook's line: "Player 1 wins 47 games. Player 2 wins 53 games."

        >>> TournamentRecord(games=3, wins=pmap({1: 1, 2: 2})).summary()
        'Player 1 wins 1 games. Player 2 wins 2 games.'
        """
        text = " ".join(f"Player {p} wins {self.wins[p]} games." for p in sorted(self.wins))
        return text + (f" {self.draws} draws." if self.draws else "")

    def to_json(self) -> dict:
        """A plain dict for ``json.dumps``: games, wins ("1"/"2" -> count), draws, seed.

        >>> TournamentRecord(games=3, wins=pmap({1: 1, 2: 2}), seed=5).to_json()["wins"]
        {'1': 1, '2': 2}
        """
        return {
            "games": self.games,
            "wins": {str(p): self.wins[p] for p in sorted(self.wins)},
            "draws": self.draws,
            "seed": self.seed,
        }


def transcript_line(game, player, move, after) -> str:
    """The transcript line for ``player`` (0-based) playing ``move`` to reach ``after``.

    >>> from fnmcts.games import Nim, Piles
    >>> transcript_line(Nim(), 0, 3, Nim().state(18, 1))
    'Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.'
    >>> transcript_line(Piles(), 1, (2, 4), Piles().state((1, 3, 1, 7)))
    'Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7.'
    """
    from .games.nim import Nim
    from .games.piles import Piles

    if player is CHANCE:
        return f"Chance: {move}."
    if isinstance(game, Nim):
        return (
            f"Player {player + 1} takes {move} matchstick(s). "
            f"There are {after['heap']} matchstick(s) remaining."
        )
    if isinstance(game, Piles):
        pile, count = move
        piles = " ".join(str(p) for p in after["piles"])
        return f"Player {player + 1} takes {count} object(s) from pile {pile}. Piles: {piles}."
    describe = getattr(game, "describe_move", None)
    return f"Player {player + 1}: {describe(None, move) if describe else move}."


def result_line(winner) -> str:
    """The last transcript line: "Player 2 wins!", or "Nobody wins." for ``None``.

    >>> result_line(2)
    'Player 2 wins!'
    """
    return "Nobody wins." if winner is None else f"Player {winner} wins!"


def _winner(payoff) -> int | None:
    """1 or 2 for a sole best payoff (one player: 1 for a positive payoff), else None."""
    if len(payoff) == 1:
        return 1 if payoff[0] > 0 else None
    best = max(payoff)
    leaders = [i for i, x in enumerate(payoff) if x == best]
    return leaders[0] + 1 if len(leaders) == 1 else None


def _play(agents, game, state, rng, verbose):
    moves, lines = [], []
    while True:
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            move = sample_outcome(game, state, rng)
        else:
            move = agents[player](game, state, rng)
            if move not in game.possible_moves(state):
                raise ValueError(f"player {player + 1} chose an illegal move {move!r} at {state!r}")
        after = game.play(state, move)
        moves.append(move)
        if verbose:
            lines.append(transcript_line(game, player, move, after))
        state = after
    payoff = tuple(game.payoff(state))
    winner = _winner(payoff)
    if verbose:
        lines.append(result_line(winner))
    return tuple(moves), state, payoff, winner, tuple(lines)


def play_game(
    agent1: Callable,
    agent2: Callable,
    game,
    seed: int | None = None,
    verbose: bool = False,
    *,
    rng: random.Random | None = None,
    state=None,
) -> GameRecord:
    """Play one game of ``game`` from ``state`` (default: the start); player 1 is ``agent1``.

    Agents are functions ``(game, state, rng) -> move``; both draw from one
    generator seeded with ``seed`` (or ``rng``), so the same seed gives the same
    game. With ``verbose`` the record carries the notebook's transcript lines.

    >>> from fnmcts.agents import perfect_agent, random_agent
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=22, max_take=3, misere=True)
    >>> record = play_game(perfect_agent, perfect_agent, game, seed=3, verbose=True)
    >>> record.winner, record.reward, record.transcript[0]
    (1, 1, 'Player 1 takes 1 matchstick(s). There are 21 matchstick(s) remaining.')
    """
    base = resolve_seed(seed, rng)
    agents = (agent1, agent2)
    if game.num_players > 2:
        raise ValueError(f"play_game takes two agents; this game has {game.num_players} players")
    start = check_state(game, game.start() if state is None else state)
    # the game draws from Random(seed), so the record's seed replays it even when an rng was given
    moves, end, payoff, winner, lines = _play(agents, game, start, random.Random(base), verbose)
    return GameRecord(moves=moves, end=end, payoff=payoff, winner=winner, transcript=lines, seed=base)


def _tournament_chunk(agent1, agent2, game, state, size, rng):
    counts = [0, 0, 0]  # draws, player 1, player 2
    for _ in range(size):
        _, _, _, winner, _ = _play((agent1, agent2), game, state, rng, False)
        counts[winner or 0] += 1
    return tuple(counts)


def tournament(
    n: int,
    agent1: Callable,
    agent2: Callable,
    game,
    seed: int | None = None,
    *,
    rng: random.Random | None = None,
    state=None,
    executor=None,
    chunk_size: int = TOURNAMENT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> TournamentRecord:
    """Play ``n`` games of ``agent1`` (player 1) against ``agent2``; count the wins.

    The games are cut into chunks of ``chunk_size``, each played with its own
    child seed of ``seed``, in this process or on ``executor`` (agents and game
    must then be picklable: module-level functions or partials of them).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> tournament(10, perfect_agent, perfect_agent, Nim(heap=22), seed=1).to_json()
    {'games': 10, 'wins': {'1': 10, '2': 0}, 'draws': 0, 'seed': 1}
    """
    check_count(n, "the number of games")
    base = resolve_seed(seed, rng)
    start = game.start() if state is None else state
    fn = partial(_tournament_chunk, agent1, agent2, game, start)
    counts = run_chunks(fn, n, base, chunk_size, executor, progress)
    draws, one, two = (sum(c[i] for c in counts) for i in range(3))
    return TournamentRecord(games=n, wins=pmap({1: one, 2: two}), draws=draws, seed=base)


def parse_state(game, text: str):
    """The state of ``game`` written as ``text`` (player 1 to move unless told).

    One heap: ``"21"``; piles: ``"1,3,5,7"`` or ``"1 3 5 7"`` (see
    ``parse_piles``); any game: its JSON form (``'{"heap": 21, "player": 1}'``).
    The state is not checked against the game's start: see ``check_within``.

    >>> from fnmcts.games import Nim, Piles
    >>> parse_state(Nim(), "18") == Nim().state(18)
    True
    >>> parse_state(Piles(), "1, 3,5 7")["piles"]
    (1, 3, 5, 7)
    """
    from .games.nim import Nim
    from .games.piles import Piles

    if not isinstance(text, str):
        raise TypeError(f"a state is written as text, got {type(text).__name__}")
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise ValueError(f"bad JSON state {text!r}: {error.msg}") from None
        if isinstance(data, list) and isinstance(game, Piles):
            data = {"piles": data}
        return game.state_from_json(data)
    if isinstance(game, Nim):
        try:
            return game.state(int(stripped))
        except ValueError:
            raise ValueError(f"a Nim state is a heap size such as 21, got {text!r}") from None
    if isinstance(game, Piles):
        return game.state(parse_piles(stripped))
    raise ValueError(f"write a {type(game).__name__} state in its JSON form, got {text!r}")


def parse_piles(text: str) -> tuple:
    """Pile sizes written as ``"1,3,5,7"`` or ``"1 3 5 7"``; an empty field (``"1,,3"``) is an error.

    >>> parse_piles("1, 3,5 7")
    (1, 3, 5, 7)
    >>> parse_piles("1,,3")
    Traceback (most recent call last):
    ...
    ValueError: piles are whole numbers such as 1,3,5,7, got '1,,3' (an empty field)
    """
    if not isinstance(text, str):
        raise TypeError(f"piles are written as text, got {type(text).__name__}")
    fields = [field.split() for field in text.split(",")]
    if len(fields) > 1 and not all(fields):
        raise ValueError(f"piles are whole numbers such as 1,3,5,7, got {text!r} (an empty field)")
    try:
        piles = tuple(int(p) for field in fields for p in field)
    except ValueError:
        raise ValueError(f"piles are whole numbers such as 1,3,5,7, got {text!r}") from None
    if not piles:
        raise ValueError("piles must hold at least one pile")
    if any(p < 0 for p in piles):
        raise ValueError(f"piles are non-negative whole numbers such as 1,3,5,7, got {text!r}")
    return piles


def check_within(game, state):
    """``state`` if ``game`` can reach it from its start by the sizes, else a ``ValueError``.

    Nim: the heap is at most the game's heap. Piles: as many piles as the
    game, each at most its starting size (play only ever shrinks a pile).
    Other games: only ``check_state``.

    >>> from fnmcts.games import Nim, Piles
    >>> check_within(Piles((1, 3, 5, 7)), Piles().state((1, 2, 0, 7)))["piles"]
    (1, 2, 0, 7)
    >>> check_within(Nim(heap=21), Nim().state(30))
    Traceback (most recent call last):
    ...
    ValueError: heap 30 is more than Nim(heap=21, max_take=3, misere=True) starts with (21): play cannot reach it
    """
    from .games.nim import Nim
    from .games.piles import Piles

    state = check_state(game, state)
    if isinstance(game, Nim) and state["heap"] > game.heap:
        raise ValueError(
            f"heap {state['heap']} is more than {game!r} starts with ({game.heap}): play cannot reach it"
        )
    if isinstance(game, Piles):
        piles, start = state["piles"], game.piles
        if len(piles) != len(start):
            raise ValueError(
                f"piles {_spaced(piles)} has {len(piles)} pile(s), {game!r} has {len(start)}: play cannot reach it"
            )
        if any(p > s for p, s in zip(piles, start)):
            raise ValueError(
                f"piles {_spaced(piles)} hold more than {game!r} starts with ({_spaced(start)}): "
                "play cannot reach it"
            )
    return state


def _spaced(numbers) -> str:
    return " ".join(str(n) for n in numbers)
