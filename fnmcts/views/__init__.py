"""Views of a search tree: moves and values read off it, texts, a trace of every dive, saved files, the explorer.

``fnmcts.mcts`` grows a tree; this package reads one and shows it, and never
runs a search of its own but through ``fnmcts.mcts``'s phases (a ``trace``
is ``uct`` one dive at a time). Every function here takes a finished tree (or
a trace) and returns a value, a text or a page:

* **Reading a tree**: ``greedy_move``, ``greedy_policy``, ``backed_up_values``,
  ``top_children``, ``principal_variation``, ``dives_win_rate``.
* **Texts**: ``tree_summary`` (a state's children with visits, mean, ucb and
  exact value), ``line_summary`` (the principal variation), ``aligned_table``,
  ``to_dot`` (Graphviz), ``format_number`` and ``record_text``.
* **A trace** (``trace``): every dive of a search kept, phase by phase, with
  every tree, to travel in time (``Trace``, ``Dive``, ``Sibling``,
  ``first_difference``, ``trace_bytes``); ``diff`` of two trees (a ``TreeDiff``).
* **The explorer** (``explore_page``): a trace as one self-contained HTML page.
* **Saved trees**: the JSON forms ``fnmcts.io`` writes (``save_tree``,
  ``save_search``) are defined in ``fnmcts.views._saved``.

These names lived in ``fnmcts.mcts`` before; there they still work for one
release, with a ``DeprecationWarning`` naming this package.

>>> from fnmcts.games import Nim
>>> from fnmcts.mcts import search
>>> from fnmcts.rng import make_rng
>>> game = Nim(heap=5, max_take=2)
>>> tree = search(game, game.start(), 200, make_rng(1), rule="tutorial")  # uct's rule, a trace's default
>>> greedy_move(game, tree, game.start())  # misere Nim: leave a heap of 4 (1 more than a multiple of 3)
1
>>> t = trace(game, game.start(), 200, make_rng(1))
>>> d = diff(t.tree(100), t.tree(200))  # the last 100 dives met no new state, and changed 6 of 10
>>> t.tree(200) == tree, len(d.added), len(d.changed), len(tree)
(True, 0, 6, 10)
"""

from . import _diff, _explore, _reading, _texts, _trace
from ._diff import TreeDiff, diff
from ._explore import PAGE_DIVES, explore_page, iframe, page_data
from ._reading import (
    aligned_table,
    backed_up_values,
    dives_win_rate,
    greedy_move,
    greedy_policy,
    line_summary,
    principal_variation,
    to_dot,
    top_children,
    tree_summary,
)
from ._texts import format_number, record_text
from ._trace import EXACT_STATES, TRACE_MEMORY, Dive, Sibling, Trace, first_difference, trace, trace_bytes

__all__ = [*_reading.__all__, *_trace.__all__, *_diff.__all__, *_texts.__all__, *_explore.__all__]
