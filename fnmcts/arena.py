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

from .play import (  # noqa: F401  (moved to fnmcts.play)
    TOURNAMENT_CHUNK,
    GameRecord,
    TournamentRecord,
    play_game,
    result_line,
    tournament,
    transcript_line,
)
from .protocol import check_state

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
