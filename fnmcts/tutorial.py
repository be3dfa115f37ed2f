"""The tutorials' own entry points that build a concrete game over the generic core.

The algorithms below this module name no game; the sources' functions do: the
21 game's ``evaluate_position`` plays one-heap Nim, and the Q-learning
project's ``train(n)`` learns piles [1, 3, 5, 7] and reads its Q tables back
by the names of ``fnmcts.games.GAMES``. They live here, at the top of the
library, and ``fnmcts`` exports them (``fnmcts.train``, ``fnmcts.new_ai``,
``fnmcts.load_ai``, ``fnmcts.evaluate_position``).

>>> evaluate_position(6, 2000, seed=1)
2
>>> train(1_000, seed=1).game
Piles(piles=(1, 3, 5, 7), misere=True)
"""

from __future__ import annotations

import random
from typing import Callable

from . import io, qlearning
from .agents import montecarlo_agent
from .games import GAMES
from .games.nim import Nim
from .games.piles import Piles
from .rng import make_rng

__all__ = [
    "MAX_REMOVE",
    "TRIALS",
    "evaluate_position",
    "Q_GAME",
    "new_ai",
    "train",
    "ai_from_json",
    "load_ai",
    "load_tree",
    "load_search",
]

# -- the 21 game ---------------------------------------------------------------------

MAX_REMOVE = 3
"""The 21 game: a move removes 1..MAX_REMOVE items."""

TRIALS = 10_000
"""The 21 game: random games played after each first move by ``evaluate_position``."""


def evaluate_position(num_items: int, trials: int = TRIALS, max_remove: int = MAX_REMOVE, *, rng=None, seed=None):
    """The 21 game's Monte Carlo move for a heap of ``num_items`` (taking the last wins).

    For each first move, ``trials`` games of random moves; the move with the
    highest fraction of games won (``fnmcts.agents.montecarlo_agent`` on
    ``Nim(num_items, max_remove, misere=False)``). Give ``rng`` or ``seed``.

    >>> evaluate_position(6, 2000, seed=1), evaluate_position(3, 100, seed=1)
    (2, 3)
    """
    if rng is not None and seed is not None:
        raise ValueError("give a seed or an rng, not both")
    game = Nim(heap=num_items, max_take=max_remove, misere=False)
    if num_items < 1:
        raise ValueError(f"num_items must be at least 1, got {num_items}")
    return montecarlo_agent(game, game.start(), make_rng(seed, rng), trials=trials)


# -- the Q-learning project ------------------------------------------------------------

Q_GAME = Piles((1, 3, 5, 7))
"""The Q-learning project's game: piles 1, 3, 5, 7; taking the last object loses."""


def new_ai(game=None, *, alpha: float = qlearning.ALPHA, epsilon: float = qlearning.EPSILON) -> qlearning.QAI:
    """A fresh AI with an empty Q table (the source's ``NimAI()``); default game ``Q_GAME``.

    >>> ai = new_ai()
    >>> ai.game, len(ai.q), ai.alpha, ai.epsilon
    (Piles(piles=(1, 3, 5, 7), misere=True), 0, 0.5, 0.1)
    """
    return qlearning.new_ai(Q_GAME if game is None else game, alpha=alpha, epsilon=epsilon)


def train(
    n: int,
    seed: int | None = None,
    game=None,
    *,
    alpha: float = qlearning.ALPHA,
    epsilon: float = qlearning.EPSILON,
    rewards=qlearning.REWARDS,
    ai: qlearning.QAI | None = None,
    rng: random.Random | None = None,
    progress: Callable[[int], None] | None = None,
) -> qlearning.QAI:
    """The source's ``train(n)``: ``fnmcts.qlearning.train`` with ``game`` defaulting to ``Q_GAME``.

    >>> train(200, seed=7) == qlearning.train(200, seed=7, game=Q_GAME)
    True
    """
    if game is None and ai is None:
        game = Q_GAME
    return qlearning.train(
        n, seed, game, alpha=alpha, epsilon=epsilon, rewards=rewards, ai=ai, rng=rng, progress=progress
    )


def ai_from_json(data, games=GAMES) -> qlearning.QAI:
    """The AI whose JSON form is ``data``, its game named in ``games`` (default ``fnmcts.games.GAMES``).

    >>> ai = train(100, seed=1, game=Nim(heap=6))
    >>> ai_from_json(qlearning.ai_to_json(ai)) == ai
    True
    """
    return qlearning.ai_from_json(data, games)


def load_ai(path, games=GAMES) -> qlearning.QAI:
    """The AI saved in ``path`` by ``save_ai``, its game named in ``games`` (default ``fnmcts.games.GAMES``).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = io.save_ai(train(50, seed=1), pathlib.Path(tmp) / "q.json")
    ...     load_ai(path) == train(50, seed=1)
    True
    """
    return io.load_ai(path, games)


def load_tree(path, games=GAMES) -> tuple:
    """``(game, tree)`` saved in ``path`` by ``fnmcts.save_tree``, its game named in ``games`` (default ``GAMES``).

    >>> import tempfile, pathlib
    >>> from fnmcts.mcts import search
    >>> game = Nim(heap=9)
    >>> tree = search(game, game.start(), 200, make_rng(1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     load_tree(io.save_tree(game, tree, pathlib.Path(tmp) / "t.json")) == (game, tree)
    True
    """
    return io.load_tree(path, games)


def load_search(path, games=GAMES) -> tuple:
    """``(game, MoveSearch)`` saved in ``path`` by ``fnmcts.save_search`` (games named in ``games``).

    >>> import tempfile, pathlib
    >>> from fnmcts.mcts import mcts_move
    >>> game = Nim(heap=9)
    >>> found = mcts_move(game, game.start(), 200, make_rng(1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     load_search(io.save_search(game, found, pathlib.Path(tmp) / "m.json")) == (game, found)
    True
    """
    return io.load_search(path, games)
