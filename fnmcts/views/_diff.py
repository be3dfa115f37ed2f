"""What changed from one tree to another: ``diff`` of two trees, as a value (a ``TreeDiff``).

Two trees of one search share structure (a dive makes new records only along
its path), so a record that is the same object in both is not compared
further: the difference of two trees a few dives apart costs their paths.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from pyrsistent import PMap, pmap

from ..mcts._tree import Tree, as_tree
from ._reading import _check_reading

__all__ = ["TreeDiff", "diff"]

_MISSING = object()


class TreeDiff(NamedTuple):
    """What changed from one tree to another (``diff``).

    ``added`` and ``removed`` map a state to its record, ``changed`` maps a
    state to ``(old record, new record)`` (pmaps, all three). ``bool(d)`` is False when nothing changed; ``apply(tree)`` makes the second
    tree from the first.

    >>> from fnmcts.mcts import record
    >>> d = diff({"a": record(1, 0)}, {"a": record(1, 1), "b": record(0, 1)})
    >>> dict(d.added), dict(d.changed), len(d.removed), bool(d)
    ({'b': Record(win=0, loss=1)}, {'a': (Record(win=1, loss=0), Record(win=1, loss=1))}, 0, True)
    """

    added: PMap
    removed: PMap
    changed: PMap

    def __bool__(self):
        return bool(self.added or self.removed or self.changed)

    def states(self) -> frozenset:
        """Every state the difference touches.

        >>> from fnmcts.mcts import record
        >>> sorted(diff({"a": record(1, 0)}, {"b": record(0, 1)}).states())
        ['a', 'b']
        """
        return frozenset(self.added) | frozenset(self.removed) | frozenset(self.changed)

    def apply(self, tree):
        """``tree`` with this difference made: its records added, removed and changed (a ``Tree`` back).

        >>> from fnmcts.mcts import record
        >>> a, b = {"a": record(1, 0)}, {"a": record(1, 1), "b": record(0, 1)}
        >>> diff(a, b).apply(a) == b
        True
        """
        tree = as_tree(tree)
        grown = tree.evolver()
        for state in self.removed:
            del grown[state]
        for state, rec in self.added.items():
            grown[state] = rec
        for state, (_, new) in self.changed.items():
            grown[state] = new
        return Tree(grown.persistent(), tree._root)


def diff(tree_a, tree_b) -> TreeDiff:
    """The records that changed from ``tree_a`` to ``tree_b``, as a value (a ``TreeDiff``).

    A record that is the same object in both trees (structural sharing: a dive
    makes new records only along its path) is not compared further.

    >>> from fnmcts.games import Nim
    >>> from fnmcts.rng import make_rng
    >>> from fnmcts.mcts import search, uct
    >>> game = Nim(heap=15)
    >>> before = search(game, game.start(), 20, make_rng(1), rule="tutorial")  # uct's rule
    >>> after, result = uct(game, before, game.start(), make_rng(2))
    >>> d = diff(before, after)
    >>> len(d.added), len(d.removed), len(d.changed), sorted(state["heap"] for state in d.states())
    (1, 0, 6, [5, 6, 7, 10, 12, 14, 15])
    >>> result, d.changed[game.start()]    # player 1 won: a loss for the mover into the start (player 2)
    ((1, -1), (Record(win=10, loss=10), Record(win=10, loss=11)))

    The dive's path, seven states from the heap of 15 down to a new state (the
    heap of 5), is all that changed.
    """
    for tree in (tree_a, tree_b):  # mcts_move's MoveSearch is a map too: of its fields, not of states
        if isinstance(tree, Mapping):
            _check_reading(None, tree)
    a = tree_a.pmap() if isinstance(tree_a, Tree) else tree_a
    b = tree_b.pmap() if isinstance(tree_b, Tree) else tree_b
    for tree in (a, b):
        if not isinstance(tree, Mapping):
            raise TypeError(f"diff compares two trees (maps from state to record), got {type(tree).__name__}")
    added, changed = {}, {}
    for state, new in b.items():
        old = a.get(state) if state in a else _MISSING
        if old is _MISSING:
            added[state] = new
        elif old is not new and old != new:
            changed[state] = (old, new)
    removed = {state: rec for state, rec in a.items() if state not in b}
    return TreeDiff(pmap(added), pmap(removed), pmap(changed))
