"""Shut the Box, as in the tutorial (tasks 2-8): the box, the dice, the moves, ``simulate``.

The rules are in ``fnmcts.games.shut_the_box.rules`` (the game layer: they
import nothing above the protocol); this package adds the tutorial's
``simulate``, which runs on ``fnmcts.montecarlo``, and ``uct``, one dive of
``fnmcts.mcts``, and offers every name under ``fnmcts.games.shut_the_box`` as
the tutorial uses them.

A box is the frozenset of levers still up. Each turn two dice are rolled; the
player flips down levers that add up to the roll (under the simplified rules of
task 4, exactly the lever showing the roll). No possible move: a loss. An empty
box: a win.

>>> sorted(sample_box)
[2, 4, 5, 7, 8, 9]
>>> possible_moves(sample_box, 9, simplified=True) == {frozenset({2, 4, 5, 7, 8})}
True
>>> play_game(frozenset({7}), make_rng(9))
'win'
>>> simulate(100_000, seed=1, simplified=True).win
20

The game value ``ShutTheBox`` puts the same rules behind the game protocol:
states are a box (before the roll, a chance node) or a ``pmap`` with the box
and the roll (the player's decision). A move is the box it leads to, as in the
tutorial.

>>> from fnmcts.protocol import describe_move, play, possible_moves as possible_moves_of, start
>>> game = ShutTheBox()
>>> state = play(game, start(game), 4)
>>> [describe_move(game, state, m) for m in possible_moves_of(game, state)]
['flip 4', 'flip 1 3']
"""

from __future__ import annotations

from ...mcts import Record, ucb  # noqa: F401 (Record: the doctests)
from ...mcts import uct as uct_game
from ...montecarlo import simulate as simulate_game
from . import rules
from .rules import *  # noqa: F403 (every name of the rules, as the tutorial uses them)
from .rules import ShutTheBox, make_rng, start_box  # noqa: F401 (named below and in doctests)

__all__ = [*rules.__all__, "simulate", "uct"]


def simulate(n: int, seed=None, *, rng=None, box=None, simplified: bool = False, **options):
    """The tutorial's ``simulate``: play ``n`` random games, return the record.

    The record (a ``Simulation``) holds the win/loss counts, the estimate and its
    95% interval. ``box`` defaults to the start box of the chosen rules.

    >>> record = simulate(10_000, seed=2)
    >>> record.games, record.win + record.loss
    (10000, 10000)
    """
    game = ShutTheBox(simplified=simplified)
    return simulate_game(game, n, seed=seed, rng=rng, state=box, **options)


def uct(tree, box, rng, game=None, rule=ucb, *, simplified: bool = False, **options):
    """The tutorial's ``uct``: one dive from ``box``; return ``(tree, result)``.

    ``fnmcts.mcts.phases.uct`` on ``ShutTheBox()`` (``simplified``: the rules of task
    4) unless another ``game`` is given: the tree maps boxes to records,
    ``result`` is ``'win'`` or ``'loss'``. Options as for ``fnmcts.mcts.uct``
    (``rollout``, ``backup``, ``solver``), but the solver is off unless asked
    for, whatever the rule: the tutorial's dive.

    >>> from pyrsistent import pmap
    >>> tree, result = uct(pmap(), start_box, make_rng(1))
    >>> result, tree[start_box]
    ('loss', Record(win=0, loss=1))
    """
    if game is None:
        game = ShutTheBox(simplified=simplified)
    elif simplified:
        raise ValueError("simplified is an option of the tutorial's Shut the Box: give it to the game instead")
    return uct_game(game, tree, box, rng, rule, **{"solver": False, **options})  # the tutorial's dive: no solver unless asked
