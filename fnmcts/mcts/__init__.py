"""Monte Carlo tree search: records, ucb rules, the phases, one engine, agents.

The tutorial's task 11, written once against the game protocol. A **record** holds a state's visits and results for the
player who moved into it (the tutorial's ``{'win': w, 'loss': l}``, plus draws and scores where a game has them); the
**tree** is an immutable map from state to record. The stored states, the records' owners, the phases
(``fnmcts.mcts.phases``: ``uct`` is their composition) and the one engine behind ``search`` and ``mcts_move``
(``fnmcts.mcts._engine``, with its Numba twin ``_kernel``), proven equal draw for draw: docs/mcts.md.

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

See Also: ``fnmcts.views`` (reading a finished tree: greedy moves, summaries, a trace of every dive, the explorer page),
``fnmcts.exact`` (the truth every estimate is judged by), ``fnmcts.matches.playout`` (the playouts).
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
