"""The search tree as a value: an immutable map from state to record, short to print.

A ``Tree`` is a pyrsistent ``pmap`` with a view: a tree of 10,000 states prints as one line with its size and its root's
record, and renders in Jupyter as a small table of its most visited states. The root rides along, not part of the value.
A tree may be built on first use (``lazy_tree``): a caller of ``mcts_move`` that reads only the move never pays for the
map.

>>> from ._records import record
>>> tree = Tree({"a": record(win=3, loss=1), "b": record(win=1, loss=0)}, root="a")
>>> tree
Tree(2 states, root 'a': Record(win=3, loss=1))
>>> tree == {"a": record(win=3, loss=1), "b": record(win=1, loss=0)}, len(tree.set("c", record()))
(True, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pyrsistent import PMap, pmap

from ..values import MapOver, html_table
from ._records import score, visits

__all__ = ["Tree", "as_tree"]

_NO_ROOT = type("_NoRoot", (), {"__repr__": lambda self: "<the most visited state>"})()  # help(Tree) reads it


def _visits(rec):
    try:
        return visits(rec)
    except (AttributeError, TypeError):  # not a record: the view counts it as unvisited
        return 0


class Tree(MapOver):
    """An immutable map from state to record: the MCTS tree, equal to the pmap of its items.

    ``Tree(mapping, root=state)``: ``mapping`` is any map (a pmap is kept as it is); ``root`` names the state the search
    ran from (else the most visited state stands for it in the view). ``set``/``remove``/``discard``/``update`` return
    new trees; ``evolver()`` gives pyrsistent's evolver, whose ``persistent()`` is a plain pmap (``Tree(...)`` of it is
    a tree again). ``pmap()`` is the map itself.

    >>> from ._records import record
    >>> tree = Tree({(3,): record(win=1, loss=1)}, root=(3,))
    >>> tree[(3,)], (3,) in tree, tree.get((4,)), dict(tree) == {(3,): record(win=1, loss=1)}
    (Record(win=1, loss=1), True, None, True)
    >>> bigger = tree.set((2,), record(win=1, loss=0))
    >>> len(tree), len(bigger), hash(bigger) == hash(bigger.pmap()), bigger.remove((2,)) == tree
    (1, 2, True, True)
    """

    __slots__ = ("_map", "_root", "_make", "_work", "_walk")

    def __init__(self, mapping=None, root=_NO_ROOT):
        if mapping is None:
            items = pmap()
        elif isinstance(mapping, Tree):
            items = mapping._map
            if root is _NO_ROOT:
                root = mapping._root
        elif isinstance(mapping, PMap):
            items = mapping
        elif isinstance(mapping, Mapping):
            items = pmap(mapping)
        else:
            raise TypeError(f"a tree is a map from state to record (e.g. pmap()), got {type(mapping).__name__}")
        object.__setattr__(self, "_map", items)
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_work", None)  # a search's working copy of this tree (``fnmcts.mcts.search``)
        object.__setattr__(self, "_walk", None)  # what the dives of ``phases.uct`` read from this tree (``phases._Walk``)

    def __setattr__(self, name, value):
        raise AttributeError("a Tree is immutable: use set() for a new one")

    def __eq__(self, other):
        if isinstance(other, Tree):
            return self._map == other._map
        if isinstance(other, Mapping):
            return self._map == other
        return NotImplemented

    def __hash__(self):
        return hash(self._map)

    def __reduce__(self):
        return (_rebuild, (dict(self._map), None if self._root is _NO_ROOT else (self._root,)))

    # -- new trees ----------------------------------------------------------------------
    def _new(self, items):
        return Tree(items, self._root)

    def set(self, state, rec) -> "Tree":
        """A new tree with ``state`` mapped to ``rec``."""
        return self._new(self._map.set(state, rec))

    def remove(self, state) -> "Tree":
        """A new tree without ``state`` (a ``KeyError`` if it is not there)."""
        return self._new(self._map.remove(state))

    def discard(self, state) -> "Tree":
        """A new tree without ``state``, if it was there."""
        return self._new(self._map.discard(state))

    def update(self, *maps) -> "Tree":
        """A new tree with the items of ``maps`` added (the later ones win)."""
        return self._new(self._map.update(*maps))

    def evolver(self):
        """pyrsistent's evolver of the underlying pmap (its ``persistent()`` is a pmap)."""
        return self._map.evolver()

    def pmap(self) -> PMap:
        """The underlying pyrsistent map."""
        return self._map

    @property
    def root(self):
        """The state the search ran from, else the most visited state (None for an empty tree)."""
        if self._root is not _NO_ROOT:
            return self._root
        if not self._map:
            return None
        return max(self._map.items(), key=lambda item: _visits(item[1]))[0]

    def with_root(self, root) -> "Tree":
        """The same tree, viewed from ``root``."""
        return Tree(self._map, root)

    # -- views ---------------------------------------------------------------------------
    def top(self, k: int = 5) -> tuple:
        """The ``k`` most visited ``(state, record)`` pairs, most visited first (ties: in map order).

        >>> from ._records import record
        >>> Tree({1: record(win=1, loss=0), 2: record(win=5, loss=5)}).top(1)
        ((2, Record(win=5, loss=5)),)
        """
        ranked = sorted(self._map.items(), key=lambda item: -_visits(item[1]))
        return tuple(ranked[:k])

    def __repr__(self):
        size = len(self._map)
        head = f"Tree({size:,} state{'' if size == 1 else 's'}"
        if not size:
            return head + ")"
        root = self.root
        rec = self._map.get(root)
        return f"{head}, root {root!r}: {rec!r})" if rec is not None else f"{head}, root {root!r})"

    __str__ = __repr__

    def _repr_html_(self):
        rows = []
        for state, rec in self.top(5):
            n = _visits(rec)
            try:
                mean = score(rec) / n if n else None
            except (AttributeError, TypeError):
                mean = None
            rows.append((state, n, "n/a" if mean is None else round(mean, 4), rec))
        size = len(self._map)
        title = f"Tree of {size:,} state{'' if size == 1 else 's'}, root {self.root!r}"
        return html_table(rows, title=title, header=("state", "visits", "mean", "record"))


def _rebuild(items, root):
    return Tree(items) if root is None else Tree(items, root[0])


class _LazyTree(Tree):
    """A ``Tree`` whose map is not built yet: on first read it builds it and becomes a plain ``Tree``.

    (``__getattr__`` on ``Tree`` itself would slow every read of every tree.) It
    is named ``Tree`` too: ``type(tree).__name__`` reads the same before and after.
    """

    __slots__ = ()

    def __getattr__(self, name):
        # Reached only for a slot not set: the map, built now, once.
        if name != "_map":
            raise AttributeError(f"'Tree' object has no attribute {name!r}")
        make = object.__getattribute__(self, "_make")
        if make is None:  # another thread built it meanwhile
            return object.__getattribute__(self, "_map")
        items = make()
        object.__setattr__(self, "_map", items if isinstance(items, PMap) else pmap(items))
        object.__setattr__(self, "_make", None)  # let go of what the map was made from
        object.__setattr__(self, "__class__", Tree)
        return object.__getattribute__(self, "_map")


_LazyTree.__name__ = _LazyTree.__qualname__ = "Tree"


def lazy_tree(make, root) -> Tree:
    """A ``Tree`` whose map is ``make()`` (a pmap or a dict), called when the tree is first read.

    The same value as ``Tree(make(), root)`` in every use; ``make`` is called at most once, and dropped after.

    >>> from ._records import record
    >>> calls = []
    >>> tree = lazy_tree(lambda: calls.append(1) or {"a": record(win=1, loss=0)}, root="a")
    >>> calls, tree.root, type(tree).__name__
    ([], 'a', 'Tree')
    >>> tree, tree == {"a": record(win=1, loss=0)}, len(tree), calls, type(tree) is Tree
    (Tree(1 state, root 'a': Record(win=1, loss=0)), True, 1, [1], True)
    """
    if not callable(make):
        raise TypeError(f"make must be a function returning the tree's map, got {make!r}")
    tree = _LazyTree.__new__(_LazyTree)
    object.__setattr__(tree, "_make", make)
    object.__setattr__(tree, "_root", root)
    object.__setattr__(tree, "_work", None)
    return tree


class LazyTuple(Sequence):
    """A tuple made when first read: ``make()``'s, the same value in every use (``==`` and hash as that tuple,
    iteration, indexing, ``len``, repr, a pickle of the tuple). ``mcts_move``'s children: their records (AMAF tables
    among them, 25 moves a player on hex) cost more than the dives of a short move, and an agent reads the move alone.

    >>> calls = []
    >>> items = LazyTuple(lambda: calls.append(1) or ((1, "a"), (2, "b")))
    >>> len(calls), items == ((1, "a"), (2, "b")), ((1, "a"), (2, "b")) == items, len(calls)
    (0, True, True, 1)
    >>> items, len(items), items[1], [m for m, _ in items], hash(items) == hash(((1, "a"), (2, "b")))
    (((1, 'a'), (2, 'b')), 2, (2, 'b'), [1, 2], True)
    """

    __slots__ = ("_make", "_made")

    def __init__(self, make):
        self._make, self._made = make, None

    def _items(self) -> tuple:
        if self._made is None:
            self._made, self._make = tuple(self._make()), None
        return self._made

    def __getitem__(self, index):
        return self._items()[index]

    def __len__(self):
        return len(self._items())

    def __iter__(self):
        return iter(self._items())

    def __eq__(self, other):
        if isinstance(other, LazyTuple):
            other = other._items()
        return self._items() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self):
        return hash(self._items())

    def __repr__(self):
        return repr(self._items())

    def __reduce__(self):
        return (tuple, (self._items(),))


class LazyMap(Mapping):
    """A pmap made when first read: ``make()``'s, the same value in every use (``==`` and hash as that pmap,
    lookups, iteration, ``len``, repr, a pickle of the pmap). ``mcts_move``'s proofs: each proven state is made to
    key them (late in a game of Connect Four, hundreds), where an agent reads the move alone.

    >>> calls = []
    >>> proofs = LazyMap(lambda: calls.append(1) or {"a": 1})
    >>> len(calls), proofs == {"a": 1}, proofs["a"], "b" in proofs, len(calls), proofs
    (0, True, 1, False, 1, pmap({'a': 1}))
    """

    __slots__ = ("_make", "_made")

    def __init__(self, make):
        self._make, self._made = make, None

    def _items(self):
        if self._made is None:
            self._made, self._make = pmap(self._make()), None
        return self._made

    def __getitem__(self, key):
        return self._items()[key]

    def __iter__(self):
        return iter(self._items())

    def __len__(self):
        return len(self._items())

    def __eq__(self, other):
        return self._items() == (other._items() if isinstance(other, LazyMap) else other)

    def __hash__(self):
        return hash(self._items())

    def __repr__(self):
        return repr(self._items())

    def __reduce__(self):
        return (pmap, (dict(self._items()),))


def as_tree(tree, root=_NO_ROOT) -> Tree:
    """``tree`` as a ``Tree`` (a pmap or a dict wrapped; a ``Tree`` kept), or a ``TypeError``.

    >>> as_tree({}) == {}, type(as_tree(pmap())).__name__
    (True, 'Tree')
    >>> as_tree([1, 2])
    Traceback (most recent call last):
    ...
    TypeError: a tree is a map from state to record (e.g. pmap()), got list
    """
    if isinstance(tree, Tree) and root is _NO_ROOT:
        return tree
    return Tree(tree, root)
