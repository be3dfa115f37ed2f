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

import math
import random
from collections.abc import Mapping
from functools import partial

from pyrsistent import PMap

from ...mcts import Record, Tree, record, ucb, ucb1
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

    ``fnmcts.mcts.uct`` on ``ShutTheBox()`` (``simplified``: the rules of task
    4) unless another ``game`` is given: the tree maps boxes to records,
    ``result`` is ``'win'`` or ``'loss'``. Options as for ``fnmcts.mcts.uct``
    (``rollout``, ``backup``, ``solver``). This is ``fnmcts.uct``.

    >>> from pyrsistent import pmap
    >>> tree, result = uct(pmap(), start_box, make_rng(1))
    >>> result, tree[start_box]
    ('loss', Record(win=0, loss=1))
    """
    if game is None:
        game = ShutTheBox(simplified=simplified)
    elif simplified:
        raise ValueError("simplified is an option of the tutorial's Shut the Box: give it to the game instead")
    tutorial_rules = isinstance(game, ShutTheBox) and game.tutorial_dice and game.scoring == "win"
    if not options and tutorial_rules and isinstance(box, frozenset):
        bound = _builtin_rule(rule)
        if bound is not None and isinstance(tree, (PMap, Tree)) and _restorable(rng):
            state = rng.getstate()
            try:
                return _kernel_dive(game, tree, box, rng, *bound)
            except _Decline:
                rng.setstate(state)  # the engine starts from the same draws
    return uct_game(tree, box, rng, game, rule, **options)


# -- one dive on the game's box masks, reading the persistent tree lazily ----------------
# ``fnmcts.mcts.uct`` compiles the states a dive meets and reads every child's
# record; this is the same descent (the game's ``search_kernel`` dives, one at a
# time) reading only the records it rates and writing back the path: the same
# tree and the same draws (a property test checks it against the engine).


class _Decline(Exception):
    """A record the kernel cannot keep (draws, values, proofs): the engine's work."""


def _restorable(rng) -> bool:
    """Whether ``rng`` is a ``random.Random`` whose state can be saved (not a SystemRandom)."""
    return isinstance(rng, random.Random) and not isinstance(rng, random.SystemRandom)


def _builtin_rule(rule):
    """``('ucb', z)`` or ``('ucb1', c)`` for a built-in rule (or a partial of one), else None."""
    for func, name, key, default in ((ucb, "ucb", "z", 2), (ucb1, "ucb1", "c", math.sqrt(2))):
        if rule is func:
            return name, default
        if isinstance(rule, partial) and rule.func is func and not rule.args and set(rule.keywords) <= {key}:
            return name, rule.keywords.get(key, default)
    return None


class _TreeCounts:
    """``[wins, losses]`` by box mask, read from a persistent tree on demand and kept."""

    __slots__ = ("tree", "box_of", "read", "seen")

    def __init__(self, tree, box_of):
        self.tree, self.box_of, self.read, self.seen = tree, box_of, {}, {}

    def get(self, mask):
        read = self.read
        if mask in read:
            return read[mask]
        rec = self.tree.get(self.box_of(mask))
        if rec is not None:
            counts = rec._wins_losses() if type(rec) is Record else None
            if counts is None:
                if not isinstance(rec, Mapping) or not set(rec) <= {"win", "loss"}:
                    raise _Decline()  # draws, values, proofs, or not a record: the engine keeps or names them
                counts = [rec.get("win", 0), rec.get("loss", 0)]
            self.seen[mask] = counts[0] + counts[1]
            rec = counts
        read[mask] = rec
        return rec

    def __setitem__(self, mask, counts):
        self.read[mask] = counts


def _kernel_dive(game, tree, box, rng, rule, constant):
    box_of = _BOXES_9.__getitem__ if game.levers == 9 else rules.mask_to_box
    root = rules.box_to_mask(rules._check_box(box, game.levers))
    counts = _TreeCounts(tree, box_of)
    before = counts.get(root)
    wins = before[0] if before is not None else 0
    rules._search_dives(game.kernel_table(), counts, root, 1, rng, rule, constant)
    grown = tree.evolver()
    seen = counts.seen
    for mask, c in counts.read.items():
        if c is not None and c[0] + c[1] != seen.get(mask, 0):
            grown[box_of(mask)] = record(c[0], c[1])
    return Tree(grown.persistent(), box), WIN if counts.read[root][0] > wins else LOSS


_BOXES_9 = tuple(rules.mask_to_box(m) for m in range(1 << 9))
"""The tutorial's 512 boxes, by mask."""
