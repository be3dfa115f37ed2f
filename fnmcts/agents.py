"""Agents: plain functions ``(game, state, rng) -> move``.

Configure one with ``functools.partial``; pass one to ``playout``, ``simulate``
or ``play_game``. Every agent here plays every game of the protocol.

>>> from fnmcts.games.nim import Nim
>>> from fnmcts.rng import make_rng
>>> game = Nim(heap=5, max_take=3)
>>> random_agent(game, game.start(), make_rng(1))
1
"""

from __future__ import annotations

import random

__all__ = ["random_agent", "first_move_agent"]


def random_agent(game, state, rng: random.Random):
    """A uniformly random legal move, consuming one ``rng.random()`` (none if forced).

    >>> from fnmcts.games.nim import Nim
    >>> random_agent(Nim(heap=1), Nim(heap=1).start(), random.Random(0))
    1
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no legal move at {state!r}")
    if len(moves) == 1:
        return moves[0]
    return moves[int(rng.random() * len(moves))]


def first_move_agent(game, state, rng: random.Random = None):
    """The first legal move in the game's stable order (deterministic)."""
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no legal move at {state!r}")
    return moves[0]
