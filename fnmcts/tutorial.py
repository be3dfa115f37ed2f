"""The tutorials' own entry points, with their own signatures, over the generic core.

The algorithms below this module name no game; the sources' functions do: the
Clojure tutorial's ``simulate(n)`` plays Shut the Box and its ``uct(tree, box,
rng)`` searches it, the 21 game's ``evaluate_position`` plays one-heap Nim,
and the Q-learning project's ``train(n)`` learns piles [1, 3, 5, 7] and reads
its Q tables back by the names of ``fnmcts.games.GAMES``. They live here, at
the top of the library, and keep the sources' signatures: ``fnmcts.train`` and
``fnmcts.new_ai`` are this module's (piles [1, 3, 5, 7] unless told), while
``fnmcts.simulate`` and ``fnmcts.mcts.uct`` are the generic ones (the game first).
The tutorial's ``possible-moves``, ``play-game`` and ``ucb`` are here too, as
the very objects of ``fnmcts.games.shut_the_box`` and ``fnmcts.mcts``; the top
level re-exports ``possible_moves``, ``play_game``, ``ucb`` and ``uct`` from here.

>>> from pyrsistent import pmap
>>> simulate(100_000, seed=1, simplified=True).win
20
>>> tree, result = uct(pmap(), ShutTheBox().start(), make_rng(1))
>>> result, tree[ShutTheBox().start()]
('loss', Record(win=0, loss=1))
>>> evaluate_position(6, 2000, seed=1)
2
>>> train(1_000, seed=1).game
Piles(piles=(1, 3, 5, 7), misere=True)
"""

from __future__ import annotations

import random
from functools import partial
from typing import Callable

from . import qlearning
from .io import load_ai, load_search, load_tree  # noqa: F401 (the tutorial's names: the registry GAMES by default)
from .agents import montecarlo_agent
from .games import GAMES
from .games.nim import Nim
from .games.piles import Piles
from .games.shut_the_box import ShutTheBox, possible_moves
from .games.shut_the_box import play_game as play_box
from .games.shut_the_box.rules import _is_game, _old_call
from .matches import play_game as play_match
from .mcts import Record, ucb  # noqa: F401 (Record: the doctests)
from .mcts import uct as uct_game
from .montecarlo import simulate as simulate_game
from ._moved import deprecated
from .rng import make_rng

__all__ = [
    "possible_moves",
    "play_game",
    "ucb",
    "simulate",
    "uct",
    "MAX_REMOVE",
    "TRIALS",
    "evaluate_position",
    "Q_GAME",
    "new_ai",
    "train",
    "load_ai",
    "load_tree",
    "load_search",
]

# -- Shut the Box (the Clojure tutorial, tasks 7 and 11) ------------------------------



def play_game(box, *args, **options) -> str:
    """The tutorial's ``play-game``: one game of Shut the Box from ``box`` with random choices, ``'win'`` or ``'loss'``.

    Called ``play_game(box, rng, simplified=False)``. The old call, a game first
    (``play_game(game, agent1, agent2, seed=..., rng=...)``), plays
    ``fnmcts.matches.play_game`` for one release, with a warning.

    >>> play_game(frozenset({1, 2, 3}), make_rng(0), simplified=True)
    'loss'
    """
    if _is_game(box) or any(map(_is_game, args)):  # a game first, or the notebook's order
        _old_call("play_game(game, agent, agent)", "fnmcts.matches.play_game")
        return play_match(box, *args, **options)
    return _play_box(box, *args, **options)


def _play_box(box, rng, simplified: bool = False, *old_args, **old_options) -> str:
    if old_args or old_options:
        raise TypeError(f"play_game(box, rng, simplified=False) takes no more arguments, got {old_args or sorted(old_options)}")
    return play_box(box, rng, simplified)


def simulate(n: int, seed=None, *, rng=None, box=None, simplified: bool = False, **options):
    """The tutorial's ``simulate``: play ``n`` random games of Shut the Box, return the record.

    The record (a ``Simulation``) holds the win/loss counts, the estimate and its
    95% interval. ``box`` defaults to the start box of the chosen rules
    (``simplified``: the rules of task 4). ``fnmcts.simulate`` on
    ``ShutTheBox()``; options as for it.

    >>> record = simulate(10_000, seed=2)
    >>> record.games, record.win + record.loss
    (10000, 10000)
    """
    game = ShutTheBox(simplified=simplified)
    return simulate_game(game, n, seed=seed, rng=rng, state=box, **options)


def uct(tree, box, rng, game=None, rule=ucb, *, simplified: bool = False, **options):
    """The tutorial's ``uct``: one dive from ``box``; return ``(tree, result)``.

    ``fnmcts.mcts.uct`` on ``ShutTheBox()`` (``simplified``: task 4's rules)
    unless another ``game`` is given: the tree maps boxes to records, the new
    tree shares every record off the path with ``tree``. Options as for
    ``fnmcts.mcts.uct``, but the solver is off unless asked for.

    >>> from pyrsistent import pmap
    >>> tree, result = uct(pmap(), ShutTheBox().start(), make_rng(1))
    >>> tree, result = uct(tree, ShutTheBox().start(), make_rng(2))
    >>> result, tree[ShutTheBox().start()]
    ('loss', Record(win=0, loss=2))
    """
    if callable(getattr(tree, "start", None)):  # the old top-level call, uct(game, tree, state, rng, ...)
        deprecated("fnmcts.uct(game, tree, state, rng) is now the tutorial's uct(tree, box, rng): "
                   "the generic step is fnmcts.mcts.uct(game, tree, state, rng)")
        return uct_game(tree, box, rng, game, rule, **options)
    if tree is None:  # the tutorial's dive continues a tree: pmap() is the empty one
        raise TypeError("tree must be a map from state to record: the tutorial's uct starts from pmap(), "
                        "uct(pmap(), box, rng)")
    if game is None:
        game = ShutTheBox(simplified=simplified)
    elif simplified:
        raise ValueError("simplified is an option of the tutorial's Shut the Box: give it to the game instead")
    return uct_game(game, tree, box, rng, rule, **{"solver": False, **options})  # the tutorial's dive: no solver unless asked


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


def __getattr__(name):
    """``ai_from_json``, deprecated here: ``fnmcts.qlearning.ai_from_json(data, fnmcts.games.GAMES)`` is the one."""
    if name == "ai_from_json":
        deprecated("fnmcts.tutorial.ai_from_json is deprecated: use fnmcts.qlearning.ai_from_json(data, fnmcts.games.GAMES)")
        return partial(qlearning.ai_from_json, games=GAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
