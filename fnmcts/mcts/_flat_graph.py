"""A graph as the compiled loop reads it (flat arrays), and a game's tables made whole once for every search of them.

The compiled loop (``fnmcts.mcts._kernel``) runs on a graph expanded from the root to every end (``_kernel.complete``),
read out as flat arrays (``arrays``). A game that offers its states as tables (``compiled_graph()``, ``GraphTables``)
gives every search the same graph: ``adopt`` hands a graph of those tables its nodes already expanded and the arrays
already built, made once per tables object and kept (the last ``KEPT`` tables), so a search pays for its dives alone.
Expanding a node of the tables reads them and makes no draw: a kept graph gives the same trees, draw for draw, as one
expanded by the search.

>>> import random
>>> from fnmcts.mcts import search
>>> from fnmcts.testing.games import TableGame
>>> game = TableGame((("move", 0, (1, 2)), ("move", 1, (3,)), ("move", 1, (3,)), ("end", (1, -1))), tables=True)
>>> first = search(game, 0, 600, random.Random(1), solver=False)   # the tables made whole, kept
>>> first == search(game, 0, 600, random.Random(1), solver=False)  # the kept ones: the same tree
True
"""

from __future__ import annotations

from functools import lru_cache

from ._graph import CHANCE_NODE, END, EVERY_NODE, CompiledGraph, whole_from

__all__ = ["arrays", "adopt", "prepared", "KEPT"]

KEPT = 4
"""The most tables whose whole graph and arrays are kept (the last used): each holds a node's entries and arrays."""


class _Same:
    """A game and its tables as a cache's key: equal only to the very same objects (tables hold a dict: no hash)."""

    __slots__ = ("game", "tables")

    def __init__(self, game, tables):
        self.game, self.tables = game, tables  # held while kept: their ids stay theirs

    def __hash__(self):
        return hash((id(self.game), id(self.tables)))

    def __eq__(self, other):
        return other.game is self.game and other.tables is self.tables


def arrays(graph, root) -> tuple:
    """The graph as the compiled loop reads it from ``root`` (``complete`` from it), kept while it holds the same nodes.

    ``(kind, start, flat, denom, slot_start, slots, cumulative, u, uwhole)``: node ``i``'s children (or its outcomes'
    nodes) are ``flat[start[i]:start[i + 1]]``; a chance node draws from its slots or its cumulative weights out of
    ``denom[i]``; an end pays ``u[i]`` (``uwhole``: which of those are whole numbers). Every node the root reaches was
    expanded when they were made, and an expanded node never changes: a node expanded since is one the root does not
    reach, as is a node with a child not made yet (-1, never read).

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.mcts._graph import CompiledGraph
    >>> from fnmcts.mcts._kernel import complete
    >>> graph = CompiledGraph(Nim(heap=2, max_take=2))
    >>> complete(graph, graph.node(graph.game.start()), 10)
    True
    >>> kind, start, flat = arrays(graph, 0)[:3]
    >>> kind.tolist(), [flat[start[i]:start[i + 1]].tolist() for i in range(len(graph))]
    ([0, 1, -1, -1], [[1, 2], [3], [], []])
    """
    import numpy as np

    size = len(graph)
    kept = graph.flat
    if kept is not None and kept[0][0] == size and (kept[0][1] == root or whole_from(graph, root)):
        return kept[1]
    kind, kids, chance, u = graph.kind, graph.kids, graph.chance, graph.u
    players = max(1, graph.num_players)
    kind_a = np.empty(size, np.int64)
    start = np.zeros(size + 1, np.int64)
    flat, denom, slot_start, slots = [], np.zeros(size), np.zeros(size + 1, np.int64), []
    uarr, uwhole = np.zeros((size, players)), np.zeros((size, players), np.bool_)
    for i in range(size):
        k = kind[i]
        kind_a[i] = k
        if k >= 0:
            flat.extend(-1 if j is None else j for j in (kids[i] if kids[i] is not None else graph.lazy[i]))
        elif k == CHANCE_NODE:
            e = chance[i]
            flat.extend(-1 if j is None else j for j in e[3])
            denom[i] = e[1]
            if e[0] is not None:
                slots.extend(e[0])
        elif k == END:
            pay = u[i]
            for m in range(players):
                uarr[i, m] = pay[m]
                uwhole[i, m] = type(pay[m]) is int
        # else not expanded: a node the root does not reach (``complete`` expanded every other), never entered
        start[i + 1] = len(flat)
        slot_start[i + 1] = len(slots)
    cumulative = np.zeros(max(1, len(flat)))
    for i in range(size):
        if kind[i] == CHANCE_NODE and chance[i][0] is None:
            cumulative[start[i]:start[i + 1]] = chance[i][2]
    shape = (kind_a, start, np.array(flat or [0], np.int64), denom, slot_start, np.array(slots or [0], np.int64),
             cumulative, uarr, uwhole)
    graph.flat = ((size, root), shape)
    return shape


def prepared(game, tables):
    """``(columns, arrays)``: every node of ``game``'s ``tables`` expanded, and their arrays; None if the loop cannot.

    ``columns`` are a ``CompiledGraph``'s ``(kind, kids, lazy, moves, chance, u)``, every node expanded from the tables.
    None: a node the tables do not expand (a chance node whose probabilities are wrong), or a chance node drawn by the
    game's own ``sample_outcome`` (Python's alone). Made once per tables object and game, kept for the last ``KEPT`` of
    them.

    >>> from fnmcts.testing.games import TableGame
    >>> game = TableGame((("move", 0, (1, 2)), ("end", (1, -1)), ("end", (0, 0))), tables=True)
    >>> t = game.compiled_graph()
    >>> columns, shape = prepared(game, t)
    >>> columns[0], shape[0].tolist(), prepared(game, t)[1] is shape
    ([0, -1, -1], [0, -1, -1], True)
    """
    return _made(_Same(game, tables))


@lru_cache(maxsize=KEPT)
def _made(key):
    graph = CompiledGraph(key.game, key.tables)
    try:
        kinds = [graph.expand(i) for i in range(len(graph))]
    except Exception:  # a node the tables cannot expand: the search meets it (or not) as it walks
        return None
    chance = graph.chance
    if any(k == CHANCE_NODE and chance[i][0] is None and chance[i][5] is not None for i, k in enumerate(kinds)):
        return None  # the game's own sampler draws: the Python loop's
    return (graph.kind, graph.kids, graph.lazy, graph.moves, graph.chance, graph.u), arrays(graph, 0)


def adopt(graph, root) -> bool:
    """Make ``graph``, of its game's tables alone, whole from ``root`` with the kept columns and arrays; else False.

    The graph's nodes take the kept entries, in new lists (an expanded node never changes: those it had are equal; the
    engine reads the lists after the compiled loop), it is whole from any of its nodes (``whole_from``) and its arrays
    are the kept ones (``flat``).

    >>> from fnmcts.mcts._graph import CompiledGraph
    >>> from fnmcts.testing.games import TableGame
    >>> game = TableGame((("move", 0, (1, 2)), ("end", (1, -1)), ("end", (0, 0))), tables=True)
    >>> graph = CompiledGraph(game, game.compiled_graph())
    >>> list(graph.kind), adopt(graph, 0), graph.kind, graph.whole_from
    ([-3, -3, -3], True, [0, -1, -1], ('every node', 3))
    >>> adopt(CompiledGraph(game), 0)  # no tables
    False
    """
    t = graph.given
    if t is None or len(graph) != len(t.states):
        return False
    made = prepared(graph.game, t)
    if made is None:
        return False
    columns, shape = made
    if graph.flat is None or graph.flat[1] is not shape:  # (else adopted before: a tree continued)
        graph.kind, graph.kids, graph.lazy, graph.moves, graph.chance, graph.u = map(list, columns)  # new lists
    graph.whole_from = (EVERY_NODE, len(graph))  # every node of the tables expanded: whole from any of them
    graph.flat = ((len(graph), root), shape)
    return True
