"""The one specialised loop: ``_engine.dives`` compiled to machine code, for a search on a whole graph.

On a small game whose whole graph fits in memory, a search (UCB1 or the tutorial's rule, the mean backup, random
playouts, MCTS-Solver on or off; no bounds, RAVE, root rule or rollout agent) runs ``_engine.dives``'s loop on flat
arrays, compiled with Numba (``pip install fnmcts[fast]``), drawing from the caller's own ``random.Random`` bit for bit
(docs/speed.md tells how): the dives, every count and the generator's state at the end are those of ``dives``
(tests/test_kernel.py holds them equal). Where ``run`` does not apply (Numba missing, among others) ``dives`` runs as
written: the same trees, more slowly.

>>> import random
>>> from fnmcts.games.nim import Nim
>>> from fnmcts.mcts import search
>>> game = Nim(heap=21)
>>> fast = search(game, game.start(), 2_000, random.Random(1), solver=False)  # compiled, with Numba
>>> with switched_off():
...     slow = search(game, game.start(), 2_000, random.Random(1), solver=False)
>>> fast == slow, len(fast)
(True, 42)
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, partial

from ._flat_graph import KEPT, _Same, adopt, arrays, prepared
from ..protocol import GameError, called
from ._graph import CHANCE_NODE, EVERY_NODE, UNSEEN, CompiledGraph, whole_from

__all__ = ["available", "run", "least_chunk", "complete", "whole_graph", "switched_off", "KERNEL_MIN_DIVES", "COMPLETE_LIMIT", "WHOLE_KEPT",
           "WHOLE_PER_DIVE"]

KERNEL_MIN_DIVES = 512
"""Fewer dives than this run in Python: the kernel's set-up (arrays of the graph and counts) costs a few hundred dives."""

RULES_MIN_DIVES = 16
"""Fewer dives run in Python on a game's compiled rules once compiled in the process (its first compile, 4 s, waits
for ``KERNEL_MIN_DIVES``; Connect Four: level near 8 dives, the kernel 6x at 64)."""

COMPLETE_LIMIT = 50_000
"""The most nodes a graph is completed to (every state reachable from the root) for the kernel."""

WHOLE_KEPT = 2
"""The most games (with the thread searching them) whose whole graph ``whole_graph`` keeps (the last used)."""

WHOLE_PER_DIVE = 8
"""The nodes a dive may pay for in a walk of a whole graph (``whole_graph``): a search of 1,000 dives walks tic-tac-toe's
5,478 states once, for every search of the game after it."""

_SWITCHED_ON = ContextVar("fnmcts_compiled_loop", default=True)
"""Whether searches in this context (thread, task) may run the compiled loop: ``switched_off`` sets it for its block."""


def available() -> bool:
    """Whether the compiled loop can run here (Numba importable).

    >>> available() in (True, False)
    True
    """
    return bool(_kernel())


@contextmanager
def switched_off():
    """Within the block every search of this thread or task runs ``dives`` in Python (benchmarks measure both ways; the results are equal).

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.mcts import search
    >>> game = Nim(heap=15)
    >>> with switched_off():
    ...     slow = search(game, game.start(), 2_000, random.Random(1), solver=False)
    >>> slow == search(game, game.start(), 2_000, random.Random(1), solver=False)
    True
    """
    token = _SWITCHED_ON.set(False)
    try:
        yield
    finally:
        _SWITCHED_ON.reset(token)


def _kernel():
    """The compiled loop (Numba's, compiled on first use), or False: Numba missing, or switched off here."""
    return _SWITCHED_ON.get() and _compiled()


@lru_cache(maxsize=1)
def _compiled():
    try:
        return _build()
    except ImportError:
        return False


def complete(graph, root, limit) -> bool:
    """Expand every node reachable from ``root`` (decisions' children, chance outcomes); False past ``limit`` nodes.

    Expanding asks the protocol what ``dives`` would ask of the same states and makes no draw: the search's results do
    not depend on it. The nodes it interns stay in the graph when it gives up (``run`` grows the stats).

    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> graph = CompiledGraph(Nim(heap=5, max_take=3))
    >>> complete(graph, graph.node(graph.game.start()), 100), len(graph)
    (True, 10)
    >>> big = CompiledGraph(Nim(heap=30))
    >>> complete(big, big.node(big.game.start()), 20)
    False
    """
    if whole_from(graph, root):
        return True
    kind, kids, chance = graph.kind, graph.kids, graph.chance
    seen, stack = {root}, [root]
    while stack:
        i = stack.pop()
        k = kind[i]
        if k == UNSEEN:
            k = graph.expand(i)
        if k >= 0:
            nodes = kids[i] or graph.children(i)
        elif k == CHANCE_NODE:
            if chance[i][0] is None and chance[i][5] is not None:  # the game's own sampler: Python only
                return False
            nodes = graph.outcome_children(i)
        else:
            continue
        for j in nodes:
            if j not in seen:
                seen.add(j)
                stack.append(j)
        if len(graph) > limit:
            return False
    graph.whole_from = root
    return True


def whole_graph(game, dives):
    """The graph of every state of ``game`` from its start, expanded, kept for its later searches (by value and thread).

    For a game with no hook of its own, walked once through the protocol (every answer checked), not by each search
    (``complete``); its searches share it as searches given ``graph=`` do, the compiled loop its arrays. A game's own
    tables (``compiled_graph()``) make one graph too, not one a search (``_flat_graph.adopt``). A walk takes at most
    ``WHOLE_PER_DIVE`` nodes a dive (rounded up to a power of 2) and ``COMPLETE_LIMIT``. None: fewer dives than
    ``KERNEL_MIN_DIVES``, a larger game (not walked again for as many dives), no hash, or a state the game cannot
    answer for (the search meets it, or not). Expanding makes no draw: the same trees.

    >>> from fnmcts.games.nim import Nim
    >>> graph = whole_graph(Nim(heap=21), 2_000)
    >>> len(graph), graph is whole_graph(Nim(heap=21), 600), whole_graph(Nim(heap=21), 100)
    (42, True, None)
    >>> whole_graph(Nim(heap=5_000), 600) is None  # 10,000 states (a heap and whose turn): more than 8,192
    True
    """
    if type(dives) is not int or dives < KERNEL_MIN_DIVES:
        return None
    rules = getattr(game, "compiled_rules", None)
    if rules is not None and rules() is not None:  # the compiled rules' loop grows its own nodes
        return None
    try:
        kept = _whole(game, threading.get_ident())
    except TypeError:  # a game with no hash: no value to keep a graph for
        return None
    hook = getattr(game, "compiled_graph", None)
    if hook is not None:  # the game's own tables: one graph of them, every node expanded (``adopt``)
        tables, graph = hook(), kept[0]
        if tables is not None and (graph is None or graph.given is not tables):
            graph = CompiledGraph(game, tables)
            kept[0] = graph if adopt(graph, 0) else None
        return kept[0] if tables is not None else None
    limit = min(COMPLETE_LIMIT, 1 << (WHOLE_PER_DIVE * dives - 1).bit_length())
    graph, tried = kept
    if graph is not None or tried >= limit:  # walked and kept, or a walk of as many nodes ran out before
        return graph if graph is not None and len(graph) <= limit else None
    graph = CompiledGraph(game)
    try:
        whole = complete(graph, graph.node(called("start", lambda _: game.start(), None)), limit)
    except GameError:  # a state the game cannot answer for: never walked again
        whole, limit = False, COMPLETE_LIMIT
    if not whole:
        kept[1] = limit
        return None
    graph.whole_from = (EVERY_NODE, len(graph))
    kept[0] = graph
    return graph


@lru_cache(maxsize=WHOLE_KEPT)
def _whole(game, thread):
    """``[graph or None, the most nodes a walk ran out of]`` for ``game`` searched in ``thread``."""
    return [None, 0]


def least_chunk(graph, stats, rng) -> int:
    """The fewest dives a chunk of a clocked search should take.

    ``RULES_MIN_DIVES`` where the game's compiled rules would run them (its loop compiled in this process or kept on
    disk: a chunk of fewer runs in Python, each dive 10 to 50 times a compiled one's cost), else 1.

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import started
    >>> graph, stats, root = started(Nim(heap=5))
    >>> least_chunk(graph, stats, random.Random(1))
    1
    """
    rules = _rules(graph, stats) if type(rng) is random.Random and _kernel() else None
    if rules is None:
        return 1
    from ._rules_kernel import compiled

    return RULES_MIN_DIVES if compiled(rules, graph.game) else 1


def rules_root(graph, stats, root) -> bool:
    """Expand ``root``, a fresh graph's one node, from the game's compiled rules where their loop may run
    (``_rules_kernel.expand_root``); False where it does not apply (the protocol expands it then)."""
    rules = _rules(graph, stats) if _kernel() else None
    if rules is None:
        return False
    from ._rules_kernel import expand_root

    return expand_root(rules, graph, root)


def _rules(graph, stats):
    """The game's compiled rules where its loop may run the dives (no tables given, no tree read in), else None."""
    own = getattr(graph.game, "compiled_rules", None)
    return own() if own is not None and graph.given is None and stats.lookup is None else None


def run(graph, stats, root, root_mover, n, rng, mode, c, solver=None, stop=False, rave=None, rollout=None, until=None):
    """``_engine.dives``' result of these dives, compiled; None if it does not apply.

    The dives of ``dives(graph, stats, root, root_mover, n, rng, <built-in rule
    mode, c>, solver=solver, stop_when_proven=stop, rave=rave, rollout=rollout)``
    (RAVE and decisive playouts on a game's compiled rules alone). ``mode`` 1 is UCB1 with constant ``c``, 2 the tutorial's rule with ``z`` =
    ``c``. ``stats``, ``rng`` and the ``solver`` change as ``dives`` changes
    them. It does not apply to a generator that is not a plain
    ``random.Random``, a graph too large to complete within ``COMPLETE_LIMIT``
    states, counts only the Python loop rates as it does, the solver on a game
    of chance or of more than two players, or proofs it compares by their exact
    values (``_compiled.proofs_in``; and without Numba).

    >>> from fnmcts.games.tictactoe import TicTacToe
    >>> from ._engine import started
    >>> graph, stats, root = started(TicTacToe())
    >>> run(graph, stats, root, 1, 100, random.Random(1), 1, 2 ** 0.5) is None  # too few
    True
    >>> found = run(graph, stats, 0, 1, 6_000, random.Random(1), 1, 2 ** 0.5)  # None without Numba
    >>> found is None or (found[0], len(graph), stats.N[0]) == (6000, 5478, 6000)
    True
    """
    if n < RULES_MIN_DIVES or type(rng) is not random.Random or not (kernel := _kernel()):
        return None
    game = graph.game
    if (rules := _rules(graph, stats)) is not None:
        from ._rules_kernel import compiled, run_rules  # the game's rules compiled: no tables, the loop grows the nodes

        if not all(hasattr(rules, f) for f in ("step", "mover", "payoffs", "states", "key", "width")):
            raise GameError("compiled_rules", f"returned {rules!r}: a Rules (fnmcts.games._connect_four_rules), or None")
        return run_rules(rules, graph, stats, root, root_mover, n, rng, mode, c, solver, stop, rave, rollout, until) \
            if n >= KERNEL_MIN_DIVES or compiled(rules, game) else None
    if n < KERNEL_MIN_DIVES or rave is not None or rollout is not None:
        return None
    if graph.given is None and getattr(game, "compiled_graph", None) is not None:
        return None  # the game's own hook gave no tables: it says its graph is too large to hold
    limit = min(COMPLETE_LIMIT, max(len(graph), n))  # a walk of at most a node a dive asked for
    if graph.walk_spent >= limit:  # a walk of this graph ran out of as much before: it is not walked again
        return None
    if not adopt(graph, root):  # a graph of the game's tables alone takes them made whole once (``_flat_graph``)
        whole = complete(graph, root, limit)
        stats.grow()  # the walk interned nodes, all or up to the limit: the working lists take them in either way
        if not whole:
            graph.walk_spent = limit
            return None
    return _run(kernel, graph, stats, root, root_mover, n, rng, mode, c, solver, stop)


def _run(kernel, graph, stats, root, root_mover, n, rng, mode, c, solver, stop):
    import numpy as np

    from ._compiled import counts_at, counts_in, counts_out, dives_result, proofs_in, rng_in, rng_out

    size = len(graph)
    counts = counts_in(stats, size, n, mode)
    if counts is None:
        return None
    n_a, s_a, whole, w_a, d_a, logs = counts
    shape = arrays(graph, root)
    proofs = None
    if solver is not None:
        ends = _ends(graph, shape)
        if ends is None or (proofs := proofs_in(solver, stats, size, ends[1])) is None:
            return None
        proofs[0][ends[0]] = ends[2]  # an end is proven by its payoff
    pf, pset, pu = proofs or _no_proofs(shape[7].shape[1])
    mt, pos = rng_in(rng)
    out = np.zeros(4, np.int64)
    path = np.empty(size + 1, np.int64)
    before = n_a.copy()
    kernel(*shape, n_a, s_a, whole, w_a, d_a, logs, root, root_mover, n, mode, float(c), mt, pos, out,
           proofs is not None, stop, pf, pset, pu, path)
    done, last = int(out[0]), int(out[1])
    if done < 0:  # a dive that went round a cycle, or random play that did not end
        from ..limits import cycle_found, no_end

        game, states = graph.game, graph.states
        raise (cycle_found(game, states[root], states[last]) if done == -1 else
               no_end(game, states[last], 10_000 + 100 * len(states)))
    rng_out(rng, mt, pos)
    stats.hold(lambda columns: counts_out(columns, counts, before, mode, c), partial(counts_at, counts))  # (when read)
    return dives_result(done, graph.payoff_at(last) if last >= 0 else None, path[:out[3]].tolist(), solver, stats,
                        proofs, proofs and ends[1], int(out[2]))


def _ends(graph, shape):
    """``(the ends, their game's payoffs, each end's payoff's place among them)`` of the graph read as ``shape``
    (``arrays``), kept with it; None: it holds a chance node (the compiled solver's games have none). A graph of a
    game's tables reads them from the tables, once for every search of them (``_flat_graph.prepared``)."""
    kept = graph.proof_ends
    if kept is not None and kept[0] is shape:
        return kept[1]
    t = graph.given
    if t is not None and (made := prepared(graph.game, t)) is not None and made[1] is shape:
        found = _tables_ends(_Same(graph.game, t))
    else:
        found = _ends_of(shape, graph.payoff_at)
    graph.proof_ends = (shape, found)
    return found


@lru_cache(maxsize=KEPT)
def _tables_ends(key):
    return _ends_of(prepared(key.game, key.tables)[1], key.tables.payoffs.__getitem__)


def _ends_of(shape, payoff_at):
    import numpy as np

    kind = shape[0]
    if (kind == CHANCE_NODE).any():
        return None
    ends = np.flatnonzero(kind == -1)
    payoffs, place = {}, []
    for i in ends.tolist():
        place.append(payoffs.setdefault(tuple(payoff_at(i)), len(payoffs)))
    return ends, list(payoffs), np.array(place, np.int64)


def _no_proofs(players):
    """The solver's arrays when it is off (never read)."""
    import numpy as np

    return np.full(1, -1, np.int64), np.zeros(1, np.bool_), np.zeros((1, players))


def _build():
    from ._compiled import dives_kernel  # imports Numba (ImportError without it)

    return dives_kernel
