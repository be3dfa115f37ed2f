"""Shut the Box, as in the tutorial (tasks 2-8): the box, the dice, the moves, the exact values.

One folder, at the game layer (its modules import nothing above the protocol):

* ``rules``: the box, the dice and the moves as the tutorial names them
  (``start_box``, ``dice_roll``, ``possible_moves``, ``play_game``, ...), and
  the game value ``ShutTheBox`` that puts them behind the game protocol;
* ``masks``: boxes as bitmasks, the moves of every box and roll as tables
  (built once per rule set, on first use, shared by equal rule sets) and the
  random-play kernels on them;
* ``values``: the exact value of every box on the masks (``box_values``,
  ``exact_tree``, ``count_states``).

The tutorial's own ``simulate(n)`` and ``uct(tree, box, rng)``, which run the
Monte Carlo and search layers on this game, live with the tutorial's other
entry points in ``fnmcts.tutorial``; ``fnmcts.games.shut_the_box.simulate`` and
``.uct`` still reach them for one release, with a ``DeprecationWarning`` (the
one import from this layer upward, inside the function that serves them).

The rules themselves (a box is the frozenset of levers still up, the dice,
the moves, a loss when none is possible) are told once, with their examples,
in ``rules``; every name of it is a name of this package:

>>> play_game(frozenset({7}), make_rng(9))
'win'

Through the game protocol, a move is the box it leads to, as in the tutorial:

>>> from fnmcts.protocol import describe_move, play, possible_moves as possible_moves_of, start
>>> game = ShutTheBox()
>>> state = play(game, start(game), 4)
>>> [describe_move(game, state, m) for m in possible_moves_of(game, state)]
['flip 4', 'flip 1 3']
"""

from __future__ import annotations

from ..._moved import deprecated as _deprecated
from . import masks, rules, values
from .masks import random_finish  # noqa: F401 (a name of the package before the folder was split)
from .rules import *  # noqa: F403 (every name of the rules, as the tutorial uses them)
from .rules import ShutTheBox, make_rng, start_box  # noqa: F401 (named below and in doctests)
from .values import box_values, count_states, exact_tree

__all__ = [*rules.__all__, "random_finish", "box_values", "exact_tree"]

_MOVED = {"simulate", "uct"}
"""The tutorial's functions that ran the upper layers on this game: now in ``fnmcts.tutorial``."""


def __getattr__(name):
    """``simulate`` and ``uct``, for one release, from their new home ``fnmcts.tutorial`` (with a warning)."""
    if name in _MOVED:
        _deprecated(f"fnmcts.games.shut_the_box.{name} moved to fnmcts.tutorial.{name}; the old name goes in the next release")
        from ... import tutorial  # the one import above the game layer: this deprecated name, for one release

        return getattr(tutorial, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
