"""Monte Carlo tree search: records, ucb rules, the phases, one engine, agents.

The tutorial's task 11, written once against the game protocol. A **record**
holds a state's visits and results for the player who moved into it (the
tutorial's ``{'win': w, 'loss': l}``, plus draws and scores where a game has
them); the **tree** is an immutable map from state to record (for Shut the
Box: from box to record, exactly the tutorial's table).

How the protocol's parts map onto the tutorial's tree:

* **Stored nodes** are the root and every state a player's move leads to (for
  Shut the Box: boxes). States reached by chance (a box with its roll) are
  passed through, never stored: at a stored node the dive draws the chance
  outcomes (rolls the dice), then rates the children of the decision.
* **Records belong to the mover.** A payoff is rescaled to [0, 1] on the
  game's ``payoff_range``; the record adds it to its ``score`` and counts a
  win (above 1/2), a draw (1/2) or a loss. Ratings use the mean, so a draw is
  half a win and a score is a score. A state must determine its mover (Nim's
  states say who is to move), so transpositions share one record soundly.
* **The phases** (``fnmcts.mcts.phases``): ``select``, ``expand``,
  ``simulate`` and ``backup``, each a pure function over the persistent tree,
  and ``uct`` their composition: one dive, reading and writing only the records
  on its path. A module to read top to bottom, and the reference.
* **One descent** (``fnmcts.mcts._engine``) runs the same dives fast for
  ``search`` (many dives) and ``mcts_move`` (a move chosen, MCTS-Solver on);
  the backup (``'mean'``, ``'expectimax'``) and the solver are its parameters.
  Every finite game runs on a compiled graph of interned states
  (``CompiledGraph``), proven equal, draw for draw, to the phases. One
  specialised loop (``fnmcts.mcts._kernel``): a plain search (UCB1 or the
  tutorial's rule, no solver) on a graph small enough to walk whole runs the
  same dives compiled with Numba (``pip install fnmcts[fast]``), proven equal
  to the Python loop draw for draw.

>>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
>>> from fnmcts.rng import make_rng
>>> ucb(record(win=23, loss=77)) > ucb(record(win=1, loss=9))
True
>>> tree, result = uct(ShutTheBox(), pmap(), start_box, make_rng(1))
>>> result, tree[start_box]
('loss', Record(win=0, loss=1))
>>> tree = search(ShutTheBox(), start_box, 1_000, make_rng(1))
>>> visits(tree[start_box])
1000

See Also: ``fnmcts.views`` (reading a finished tree: greedy moves, summaries,
a trace of every dive, the explorer page), ``fnmcts.exact`` (the truth every estimate is judged by),
``fnmcts.matches.playout`` (the playouts).
"""


from pyrsistent import pmap  # noqa: F401 (the module doctest)

from .._moved import deprecated as _deprecated
from . import phases
from ._graph import CompiledGraph
from . import _records
from ._records import *  # the records and their ratings: _records.__all__
from ._search import (
    BACKUPS,
    DEFAULT_ITERATIONS,
    MoveSearch,
    SearchOptions,
    _repeat_uct,  # noqa: F401 (the reference loop the tests replay)
    mcts_agent,
    mcts_move,
    result_of,
    search,
    search_options,
    subtree,
    uct,
)
from ._options import GameKind, game_kind
from ._tree import Tree, as_tree

__all__ = [
    *_records.__all__,
    "uct",
    "search",
    "result_of",
    "MoveSearch",
    "Tree",
    "as_tree",
    "mcts_move",
    "mcts_agent",
    "subtree",
    "BACKUPS",
    "DEFAULT_ITERATIONS",
    "SearchOptions",
    "search_options",
    "game_kind",
    "GameKind",
    "CompiledGraph",
]

_MOVED_TO_VIEWS = frozenset(
    "dives_win_rate greedy_move greedy_policy backed_up_values top_children principal_variation tree_summary "
    "line_summary aligned_table to_dot trace Trace Dive Sibling first_difference trace_bytes format_number "
    "record_text TRACE_MEMORY EXACT_STATES explore_page page_data iframe PAGE_DIVES diff TreeDiff".split()
)
"""The views of a finished tree, in ``fnmcts.views`` now: here for one release, with a warning."""


def __getattr__(name):
    """A view moved to ``fnmcts.views``: still given here, with a ``DeprecationWarning`` naming its new place."""
    if name not in _MOVED_TO_VIEWS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .. import views  # a layer above the search: imported on first use, so no import circle

    message = f"fnmcts.mcts.{name} moved to fnmcts.views.{name}; the old name goes in the next release"
    _deprecated(message)
    return getattr(views, name)
