"""``uct``, ``search`` and ``mcts_move``: the phases of a dive, and three ways to run them.

``uct`` is one dive on the persistent tree (``phases.uct``); ``search`` many on the engine (``_engine.dives``), the same
tree as as many calls of ``uct`` with the same ``rng`` (a property test); ``mcts_move`` a search from a decision, with
MCTS-Solver on by default, and the move it chooses. Every option (docs/search-options.md) is an option of all three.
"""

from __future__ import annotations

import heapq
import json
import math
import random
import threading
import time
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Callable

from pyrsistent import field, pmap

from ..limits import size_hint
from ..values import FixedRecord
from ..parallel import check_workers, halted, kept_pool, run_chunks, worker_kept
from ..matches import MemoryAgent
from ..protocol import CHANCE, check_state, guarded, payoff_range, state_to_json  # noqa: F401 (payoff_range: doctests)
from .._moved import deprecated
from ..rng import check_rng
from . import phases
from ._engine import Stats, dives, root_children, user_selector
from .batch import batch_runner
from .bounds import Bounds
from .solver import Solver, proofs_of
from ._options import OPTION_NAMES, ROOT_RULES, SearchOptions, search_options
from .enhancements import SequentialHalving, sequential_halving, with_proofs
from ._kernel import least_chunk, rules_root, whole_graph
from ._graph import CHANCE_NODE, END, UNSEEN, CompiledGraph, children_made, expanded_kind, graph_of, mover_into as _root_mover
from ._tree import LazyMap, LazyTuple, Tree, as_tree, lazy_tree
from .phases import BACKUPS, result_of
from ._records import EMPTY_RECORD, Record, counts_of, make_record, mean, ucb, ucb1_selector, ucb_selector
from ._records import visits  # noqa: F401 (doctests)

__all__ = ["uct", "search", "mcts_move", "mcts_agent", "SearchOptions", "search_options", "subtree", "MoveSearch",
           "BACKUPS", "DEFAULT_ITERATIONS", "ROOT_TREES", "ROOT_TREE_MIN", "result_of"]

ROOT_TREES = 2
"""Independent trees a root-parallel ``mcts_move`` splits its dives into unless told otherwise.

A fixed number, never the number of workers, so a seed gives the same move on any pool;
each tree is one worker's task, grown from the root once for its whole share of the dives."""

ROOT_TREE_MIN = 25_000
"""The fewest dives a tree of the default root-parallel split gets (fewer trees; one: the plain search): docs/speed.md."""

DEFAULT_ITERATIONS = 10_000
"""The default budget of ``mcts_agent``: dives a move, at most (the solver may stop sooner)."""


def _given(**options) -> dict:
    """The options a caller gave (None: not given, the default)."""
    return {k: v for k, v in options.items() if v is not None}


# -- between the persistent tree and the working counts -------------------------------


def _check_tree(tree, empty=False) -> Tree:
    """``tree`` as a ``Tree``: a tree is returned as is, a pmap or a plain mapping wrapped (None: a new one if ``empty``)."""
    if tree is None and empty:
        return Tree()
    if isinstance(tree, Mapping):
        return as_tree(tree)
    raise TypeError(f"tree must be a map from state to record (e.g. pmap()), got {type(tree).__name__}")


def _working(game, graph, tree, solver, whole=False):
    """``(graph, stats, solver)``: the engine's working copy of ``tree``.

    Its records are read as the search meets their states; ``whole``: all of
    them at once (a bounded tree counts and prunes the whole tree).
    """
    g = graph_of(game, graph)
    items = tree.pmap() if isinstance(tree, Tree) else tree  # records read as met (none in an empty tree)
    stats = Stats(g, (lambda state: items[state] if state in items else None) if len(tree) else None)
    if whole:
        for state in tree:
            g.node(state)
        stats.grow()
    return g, stats, Solver(g, stats) if solver else None


def _record_of(stats, i) -> Record:
    """The record of stored node ``i``, from the working counts."""
    n, w, d = stats.N[i], stats.W[i], stats.D[i]
    if not (stats.has_amaf() or stats.B or stats.G):  # no enhancement keeps anything: the plain record
        return make_record(w, n - w - d, d, stats.S[i], stats.V[i], stats.P[i])
    amaf = stats.amaf_of(i)
    if amaf is not None:  # (in the order of its keys where they have one: the same map whatever counted it first)
        try:
            items = sorted(amaf.items())
        except TypeError:
            items = amaf.items()
        amaf = pmap({key: tuple(entry) for key, entry in items})
    graph = stats.G.get(i) if stats.G else None
    if graph is not None:
        states = stats.graph.states
        graph = (graph[0], tuple((states[c], n_, who) for c, (n_, who) in graph[1].items()))
    return make_record(w, n - w - d, d, stats.S[i], stats.V[i], stats.P[i], amaf, stats.B.get(i) if stats.B else None,
                       graph)


def _written_back(graph, stats, tree):
    """``tree``'s pmap with the records that changed written back (every other record the same object)."""
    states = graph.states
    if not len(tree):
        return pmap({states[i]: _record_of(stats, i) for i, n in enumerate(stats.N) if n is not None})
    grown = tree.pmap().evolver()
    for i, stored in stats.changed():
        if stored:
            grown[states[i]] = _record_of(stats, i)
        elif states[i] in grown:
            del grown[states[i]]
    return grown.persistent()


# -- stepping: a returned tree carries its working copy, continued where it left off -------


class _Work:
    """The engine's working copy of a tree a search returned, carried by that ``Tree`` (its ``_work``).

    A call that continues from that very tree runs on these counts as they stand; the copy then moves to the new
    tree (one owner: a tree continued twice is read again the second time). ``entry``: ``_entry`` of ``opts``;
    ``call``: the options a call gave and what they resolved to; ``checked``: ``_options``'s last root.
    """

    __slots__ = ("items", "graph", "stats", "solver", "expectimax", "root", "mover", "opts", "entry", "call",
                 "checked")

    def __init__(self):
        self.opts = self.entry = self.call = self.checked = self.root = None


def _handed(tree):
    """The working copy ``tree`` carries, taken from it (None for a tree without one, a pmap, a dict)."""
    if not isinstance(tree, Tree):
        return None
    tree.pmap()  # a tree not built yet is built first, off the counts as its search left them (the next one moves them)
    work = tree._work
    if work is not None:
        object.__setattr__(tree, "_work", None)  # one owner: the tree the next call returns
    return work


def _fitting(work, game, items, solver, expectimax, graph):
    """``work`` if it is the working copy of ``items`` for this search, else None."""
    if work is None:
        return None
    g = work.graph
    if (
        work.items is not items
        or work.expectimax != expectimax
        or (graph is not None and graph is not g)
        or (g.game is not game and g.game != game)
    ):
        return None
    if not solver:
        work.solver = None
    elif work.solver is None:
        work.solver = Solver(g, work.stats)
    return work


def _entry(work, opts):
    """The options as the engine takes them: ``(solver, expectimax, bounds, selector, dives' keyword arguments)``."""
    if work is not None and work.opts is opts:  # options are values: the same object, the same selector
        return work.entry
    try:  # (by identity too: equal options of another type, c=1 and c=1.0, are not mixed)
        return _entry_of(id(opts), opts)
    except TypeError:  # options holding a value that does not hash (a caller's rule or playout)
        return _entry_of.__wrapped__(id(opts), opts)


@lru_cache(maxsize=16)
def _entry_of(_, opts):
    """``_entry`` of options not carried by a working copy, the last few kept (what it holds is read, never changed)."""
    expectimax = opts.backup != "mean"  # the ratings read the values (expectimax, graph)
    bound = opts.builtin()  # a built-in rule runs inline in the engine, with the constant the options bind
    if bound is None:
        select = user_selector(opts.rule, expectimax)
    else:
        select = ucb_selector(bound[1]) if bound[0] == "ucb" else ucb1_selector(bound[1])
    return (opts.solver, expectimax, opts.bounds, select,
            dict(expectimax=expectimax, rollout=opts.playout(), rave=opts.rave_args(), graph_backup=opts.backup == "graph"))


def _step(game, items, state, rng, iterations, opts, graph=None, root_rule=None, work=None):
    """``iterations`` dives from ``state`` on the tree whose map is ``items`` (a pmap): the grown tree.

    The engine runs on ``work`` (``_handed``) when it fits the search, else on a new working copy; the grown tree
    gets only the records that changed and carries the copy on. ``root_rule``: as ``dives``'.
    """
    entry = _entry(work, opts)
    solver, expectimax, bounded, select, engine = entry
    kept = _fitting(work, game, items, solver, expectimax, graph)
    if kept is None:
        kept = _Work()
        kept.graph, kept.stats, kept.solver = _working(game, graph, items, solver)
        kept.expectimax = expectimax
        if work is not None:
            kept.call, kept.checked = work.call, work.checked  # what the call resolved holds for the new copy too
    kept.opts, kept.entry = opts, entry
    g, stats = kept.graph, kept.stats
    if kept.root is not state:
        kept.root, kept.mover = state, _root_mover(game, state)
    root = g.index.get(state)
    if root is None:
        root = g.node(state)
    if stats.known < len(g):
        stats.grow()
    touched = [] if iterations == 1 else None
    dives(
        g, stats, root, kept.mover, iterations, rng, select,
        solver=kept.solver, touched=touched, root_rule=root_rule, bounds=Bounds(g, stats) if bounded else None, **engine,
    )
    made, lock = [], threading.Lock()

    def written():  # the records that changed, written back once: at the tree's first read, or when a search continues it
        with lock:
            if not made:
                made.append(_records_back(items, g, stats, touched, kept))
            return made[0]

    tree = lazy_tree(written, state)  # a caller that reads only the root's children never pays for the map
    object.__setattr__(tree, "_work", kept)
    return tree


def _records_back(items, g, stats, touched, kept):
    """``items`` with the records of the nodes the dives changed (``touched``, or every node whose visits moved)."""
    states, N, N0 = g.states, stats.N, stats.N0
    if touched is None:
        touched = [i for i, _ in stats.changed()]
    elif len(touched) != len(set(touched)):  # one dive backs up each node of its path once
        touched = set(touched)
    plain = not (stats.A or stats.B or stats.G)  # no enhancement keeps anything in the records
    evolver = items.evolver()
    if plain and len(items):  # the plain records (``_record_of``, ``make_record``), inline: one loop reads, makes and writes
        put, of = evolver.set, Record._of
        S, W, D, V, P = stats.S, stats.W, stats.D, stats.V, stats.P
        for i in touched:
            w, d, s, n = W[i], D[i], S[i], N[i]
            put(states[i], of(w, n - w - d, d or None, None if s == (w + d / 2 if d else w) else s, V[i], P[i]))
            N0[i] = n
    else:
        for i in touched:
            evolver.set(states[i], _record_of(stats, i))
            N0[i] = N[i]
    grown = evolver.persistent()
    kept.items = grown
    stats.lookup = grown.get  # records not yet in the working lists are read from the tree the copy belongs to
    return grown


def _options(game, state, rng, work=None):
    """``state`` checked for ``game`` (``check_state``); a working copy's last root, given again, is not checked again."""
    checked = work.checked if work is not None else None
    if checked is not None and checked[1] is state and (checked[0] is game or checked[0] == game):
        check_rng(rng)
        return checked[2]
    if game is None or not hasattr(game, "to_move"):
        raise TypeError(f"game must implement the fnmcts game protocol, got {game!r}")
    check_rng(rng)
    found = check_state(game, state)
    if work is not None:
        work.checked = (game, state, found)
    return found


def _set_up(game, state, rng, opts, graph=None, iterations=None, work=None, decision=False):
    """What every search does first: ``(game, state, graph, player, root rule)``.

    ``state`` checked (``_options``); the game as the dives see it (shallow proofs: a graph given is the game's, not the
    view's); with ``decision``, the player to choose (``_decider``), else None; the root rule (``_root_rule``, which
    draws from ``rng`` for ``'gumbel'``).
    """
    state = _options(game, state, rng, work)
    if opts.proofs:
        game, graph = with_proofs(game, opts.proofs, state), None
    elif graph is None and work is None:  # a small game's graph walked once, for its searches long enough to use it
        graph = whole_graph(game, iterations)
        graph = graph if graph is not None and state in graph.index else None  # (a state off its graph: one of its own)
    player = _decider(game, state) if decision else None
    return game, state, graph, player, _root_rule(game, state, opts.root, iterations, rng)


# -- the root's own rule ----------------------------------------------------------------------

def _root_rule(game, state, root, iterations, rng):
    """The root rule of a search: None, a ``SequentialHalving`` given, or one drawn for ``'gumbel'`` (consumes ``rng``)."""
    if root is not None:
        _root_decision(game, state, root)
    if root is None or isinstance(root, SequentialHalving):  # else a name of ROOT_RULES (search_options checked it)
        return root
    if iterations is None:
        raise ValueError("root='gumbel' plans its dives: give the search iterations= (seconds= alone cannot say how many)")
    return sequential_halving(game, state, max(iterations, 1), rng)


def _root_decision(game, state, root):
    player = game.to_move(state)
    if player is None or player is CHANCE:
        raise ValueError(f"a root rule ({root!r}) chooses among the moves of a decision; at {state!r} "
                         f"{'the game is over' if player is None else 'chance moves next'}")


# -- uct: one dive on the persistent tree --------------------------------------------------


def _is_game(x) -> bool:
    return hasattr(x, "to_move") and hasattr(x, "possible_moves") and not isinstance(x, Mapping)


@guarded
def uct(game, tree=None, state=None, rng: random.Random | None = None, rule=None, *, c=None, z=None, rollout=None,
        backup=None, solver=None, root=None, rave=None, rave_ref=None, bounds=None, proofs=None,
        options: SearchOptions | None = None):
    """One dive of Monte Carlo tree search from ``state``; return ``(tree, result)``.

    ``phases.uct`` (select, expand, simulate, backup) for any game. ``result`` is ``'win'`` or ``'loss'`` in a
    one-player game that pays wins and losses (the tutorial's Shut the Box), else the payoff tuple. ``tree`` (a
    ``Tree``, a pmap or a dict) is never modified: the ``Tree`` returned shares every record off the path with it.
    The order ``uct(tree, state, rng, game)`` of earlier releases works, with a ``DeprecationWarning``.

    The options are ``search``'s (``fnmcts.mcts.search_options``, docs/search-options.md; ``root``: a
    ``SequentialHalving`` made for the whole search), but the rule is the tutorial's ``ucb`` unless ``rule``
    (or ``options``) says otherwise: one dive of the tutorial, so the solver is off unless asked for.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> rng = make_rng(3)
    >>> tree, result = uct(ShutTheBox(), pmap(), start_box, rng)
    >>> tree, result = uct(ShutTheBox(), tree, start_box, rng)
    >>> len(tree), visits(tree[start_box])
    (2, 2)
    """
    plain = all(x is None for x in (c, z, rollout, backup, solver, root, rave, rave_ref, bounds, proofs))
    last = getattr(getattr(tree, "_walk", None), "call", None) if plain else None  # the tree's last uct call, resolved
    if last is not None and last[0] is game and last[1] is rule and last[2] is options and last[3] is state:
        check_rng(rng)
        return phases.uct(game, tree, last[4], rng, **last[5])
    given = (game, rule, options, state)
    if not _is_game(game) and isinstance(game, Mapping):  # the order of earlier releases: (tree, state, rng, game)
        if rng is None or not _is_game(rng):
            raise TypeError("uct needs the game first: uct(game, tree, state, rng); the tutorial's uct(tree, box, rng) "
                            "is fnmcts.tutorial.uct")
        deprecated("uct(tree, state, rng, game) is deprecated: the game comes first, uct(game, tree, state, rng)")
        game, tree, state, rng = rng, game, tree, state
    if rule is None and options is None:
        rule = ucb
    opts = search_options(game, options, **_given(rule=rule, c=c, z=z, rollout=rollout, backup=backup, solver=solver,
                                                  root=root, rave=rave, rave_ref=rave_ref, bounds=bounds, proofs=proofs))
    if opts.root is not None and not isinstance(opts.root, SequentialHalving):
        raise TypeError(f"uct runs one dive: its root rule is a value made for the whole search "
                        f"(fnmcts.mcts.enhancements.sequential_halving), got {opts.root!r}")
    checked = _options(game, state, rng)
    if opts.root is not None:
        _root_decision(game, checked, opts.root)
    settings = dict(rule=opts.selection(), rollout=opts.playout(), backup=opts.backup, solver=opts.solver, root=opts.root,
                    rave=opts.rave, rave_ref=opts.rave_ref, bounds=opts.bounds, proofs=opts.proofs)
    grown, result = phases.uct(game, _check_tree(tree, empty=True), checked, rng, **settings)
    if plain and opts.root is None and not opts.proofs:  # given by ``rule``, ``options`` alone: resolved once a tree
        grown._walk.call = (*given, checked, settings)
    return grown, result


def _repeat_uct(game, state, dives_, rng, tree=None, rule=None, **options):
    """``dives_`` calls of ``uct`` with ``search``'s options, threading the tree (the reference loop the tests replay)."""
    opts = search_options(game, **_given(rule=rule, **options))
    tree = pmap() if tree is None else tree
    for _ in range(dives_):
        tree, _ = phases.uct(game, tree, state, rng, opts.selection(), backup=opts.backup, solver=opts.solver,
                             rollout=opts.playout(), rave=opts.rave, rave_ref=opts.rave_ref, bounds=opts.bounds,
                             proofs=opts.proofs)
    return tree


# -- search: many dives on a working copy --------------------------------------------------

CHUNK = 10_000
"""Dives between two calls of a search's ``progress`` (at most)."""


# -- budgets: dives, seconds, a stop signal, a bound on the tree --------------------------


def _check_budget(iterations, seconds, max_nodes, least=0):
    """Check the budget of a search (``least``: the fewest iterations); a clear error when none is given or one is malformed."""
    if iterations is None and seconds is None:
        raise TypeError("give the search a budget: iterations= (search and mcts_move take it after the state), "
                        "seconds= or both")
    at_least = "a positive whole number" if least else "non-negative"
    for name, value, low, what in (("iterations", iterations, least, at_least),
                                   ("max_nodes", max_nodes, 2, "at least 2 (the root and one more state)")):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be a whole number, got {value!r}")
        if value is not None and value < low:
            raise ValueError(f"{name} must be {what}, got {value}")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"seconds must be a number, got {seconds!r}")
        if not (seconds > 0 and math.isfinite(seconds)):
            raise ValueError(f"seconds must be a positive finite number, got {seconds!r}")


class _Budget:
    """How many dives to run next: ``take(cap)`` until the dives, the time or ``stop`` say done.

    With a clock or a ``stop`` the chunks start small and grow while a chunk takes under 20 ms (at most as many as 20
    ms hold at the last pace), so a deadline or a Ctrl-C is heard within milliseconds; the draws do not depend on the
    chunking. The clock runs from the call (the set-up counts) less the finish's share (as long as the set-up took, or
    a tenth of the time given up to 5 ms); a first timed chunk is one dive. Against a deadline a chunk is sized by the
    pace of the chunks before: at first at most half the time left at the last pace; once two chunks of different
    sizes have run, by a chunk's cost fitted to them (a fixed part, as a compiled call's set-up and write-back, and a
    part a dive, ``_pace``): 80% of the time left, and no chunk once the fixed part alone would run past the
    deadline; a loop that reads the clock itself (the compiled rules', ``take(clocked=True)``) runs until it.
    ``least`` dives run whatever the clock says (``mcts_move``: one).
    """

    def __init__(self, iterations, seconds, stop, least=0):
        self.made = time.perf_counter()
        self.left, self.least = iterations, least
        self.deadline = None if seconds is None else self.made + seconds
        self.stop = stop
        self.watch = seconds is not None or stop is not None
        self.size = CHUNK if not self.watch else 1 if seconds is not None else 16
        self.started, self.last = None, 0  # when the last chunk started, its dives
        self.runs = []  # ``(dives, seconds, fit)`` of the last two chunks of different sizes (the first: no fit)
        self.chunks = self.asked = 0
        self.until, self.clocked_out = None, False  # a clocked chunk's time to return by; whether it stopped on the deadline
        self.stopped = False

    def take(self, cap=CHUNK, least=1, clocked=False):
        """The next chunk's size (0: the budget is spent); at least ``least`` dives while any are left (a chunk of
        the compiled rules' loop, ``_kernel.least_chunk``: fewer would run in Python, at many times the cost).

        ``clocked``: the chunk's loop reads the clock and returns by ``until`` itself (the deadline, or 20 ms on,
        so a Ctrl-C is heard), so its size is only a bound: the dives left, else ``cap``; once a chunk has stopped on
        the deadline the budget is spent.
        """
        now = time.perf_counter()
        if self.started is not None and self.watch and self.last:
            self._paced(now - self.started)
        if self.stop is not None and self.stop():
            self.stopped = True
            return 0
        if self.deadline is not None and self._over(now):
            return 0
        k = self._sized(min(self.size, cap), cap, now, clocked)
        if k is None:
            return 0
        k = max(k, min(least, cap))
        if self.left is not None:
            k = min(k, self.left)
        self.started, self.asked = now, k
        self.chunks += 1
        return k

    def _paced(self, took):
        """Take in the last chunk's time: the next chunk's bound (about 20 ms of dives) and the runs ``_pace`` fits."""
        if took < 0.02:
            self.size = min(CHUNK, max(self.size * 2, int(self.last * 0.02 / took) if took > 0 else CHUNK))
        self.runs = [r for r in self.runs if r[0] != self.last and r[2]][-1:] + [(self.last, took, self.chunks > 1)]

    def _over(self, now) -> bool:
        """Whether the deadline has come (the finish's share kept back from it at the first chunk: as long as the
        set-up took, or a tenth of the time given up to 5 ms, the final move's, at most half the time left), or a
        clocked chunk stopped on it; never while ``least`` dives are owed."""
        if self.started is None:
            share = max(now - self.made, min((self.deadline - self.made) / 10, 0.005))
            self.deadline -= min(share, max(0.0, self.deadline - now) / 2)
        return (now >= self.deadline or self.clocked_out) and self.least <= 0

    def _sized(self, k, cap, now, clocked):
        """A chunk of at most ``k`` dives sized to the deadline (None: none fits before it)."""
        if clocked and self.deadline is not None:
            self.until = min(self.deadline, now + 0.02)
            return cap
        if self.deadline is None or not self.runs:
            return k
        room = self.deadline - now
        fixed, each = self._pace()
        if fixed is None:  # one chunk's pace alone: at most half the time left at it
            return min(k, max(1, int(room / each / 2)))
        fit = int(0.8 * (room - fixed) / each)
        if fit < 1 and room < fixed and self.least <= 0:
            return None  # a chunk's fixed cost alone would run past the deadline
        return min(k, max(1, fit))

    def _pace(self):
        """``(fixed, a dive)``: a chunk's cost in seconds fitted to the last two chunks of different sizes, the
        first chunk aside (it carries the search's own set-up; ``fixed`` None: the last chunk's seconds a dive). The
        dive's part is at least half the last chunk's average (the times are noisy): a chunk is never sized at more
        than twice the dives the last pace allows."""
        *before, (n2, t2, _) = self.runs
        if not (before and before[0][2]):
            return None, max(t2, 1e-9) / n2
        n1, t1, _ = before[0]
        each = max((t2 - t1) / (n2 - n1), t2 / n2 / 2, 1e-9)
        return max(0.0, t2 - each * n2), each

    def spent(self, k):
        """Count ``k`` dives done (fewer than taken, by a chunk that read the clock: it stopped on ``until``)."""
        self.clocked_out = self.until is not None and k < self.asked and self.until >= self.deadline
        self.last = k
        self.least -= k
        if self.left is not None:
            self.left -= k


PRUNE_WALK = 64
"""The states not stored that ``_stored_children`` passes through below a stored state, at most."""


def _stored_children(graph, N, i) -> set:
    """The stored nodes a dive can enter right after stored node ``i`` (through chance and unstored states).

    Expands what it passes (the game's structure, no draw), so the answer depends on the stored nodes alone, not on what
    earlier dives expanded. It passes through at most ``PRUNE_WALK`` states not stored, in a fixed order: a web of
    chance nodes below ``i`` (rolls after rolls) is not walked whole, and a stored node further in it does not count as
    below ``i`` (it is pruned as a leaf of its own when its turn comes).
    """
    out, stack, seen = set(), [i], {i}
    while stack:
        x = stack.pop()
        k = graph.kind[x]
        if k == UNSEEN:
            k = graph.expand(x)
        if k == END:
            continue
        nxt = graph.outcome_children(x) if k == CHANCE_NODE else graph.children(x)
        for c in nxt:
            if c < len(N) and N[c] is not None:
                if c != i:
                    out.add(c)
            elif k == CHANCE_NODE and c not in seen and len(seen) <= PRUNE_WALK:  # reached by chance: pass through
                seen.add(c)
                stack.append(c)
    return out


def _canonical(graph, cache, i) -> str:
    """A key of node ``i``'s state that does not depend on the order states were met (its JSON text)."""
    key = cache.get(i)
    if key is None:
        state = graph.state(i)
        try:
            key = json.dumps(state_to_json(graph.game, state), sort_keys=True)
        except (TypeError, ValueError):
            key = repr(state)
        cache[i] = key
    return key


def _prune(stats, root, keep) -> int:
    """Drop stored nodes until ``keep`` are left, the least visited leaf first (never the root).

    A leaf is a stored node with no stored child; dropping one may make its parent a leaf. Ties go by the state's JSON
    text, so the same tree prunes the same way whatever the search met before (a resumed search prunes as the
    uninterrupted one). Should only a cycle be left, the least visited node goes.
    """
    N, graph = stats.N, stats.graph
    stored = [i for i, n in enumerate(N) if n is not None]
    excess = len(stored) - max(keep, 1 if N[root] is not None else 0)
    if excess <= 0:
        return 0
    cache = stats.__dict__.setdefault("canonical", {})
    below = {i: 0 for i in stored}
    parents = {i: [] for i in stored}
    for i in stored:
        for c in _stored_children(graph, N, i):
            below[i] += 1
            parents[c].append(i)
    stats.grow()
    N = stats.N

    def key(i):
        return (N[i], _canonical(graph, cache, i), i)

    leaves = [key(i) for i in stored if not below[i] and i != root]
    heapq.heapify(leaves)
    dropped = 0
    alive = set(stored)
    while dropped < excess:
        if leaves:
            i = heapq.heappop(leaves)[2]
        else:  # a cycle: no leaf left
            i = min((j for j in alive if j != root), key=key)
        alive.discard(i)
        for p in parents[i]:
            below[p] -= 1
            if not below[p] and p != root and p in alive:
                heapq.heappush(leaves, key(p))
        stats.drop(i)
        dropped += 1
    return dropped


def _room(stats, root, max_nodes) -> int:
    """How many dives may run before the tree could exceed ``max_nodes`` (pruning when it is full)."""
    size = sum(1 for n in stats.N if n is not None)  # the states stored
    if size >= max_nodes:
        size -= _prune(stats, root, max_nodes - max(1, max_nodes // 10))
    return max_nodes - size


@guarded
def search(
    game,
    state,
    iterations: int | None = None,
    rng: random.Random | None = None,
    tree=None,
    rule=None,
    *,
    c: float | None = None,
    z: float | None = None,
    backup: str | None = None,
    solver: bool | None = None,
    rollout=None,
    options: SearchOptions | None = None,
    seconds: float | None = None,
    max_nodes: int | None = None,
    stop=None,
    progress=None,
    graph=None,
    root=None,
    rave=None,
    rave_ref=None,
    bounds=None,
    proofs=None,
    until_proven: bool = False,
) -> Tree:
    """Run ``iterations`` dives from ``state``; return the grown tree (a ``Tree``).

    The same tree as ``iterations`` calls of ``uct`` with the same ``rng`` (a property test), grown on the engine's
    working copy over the game's compiled graph (``graph``: one to reuse across calls). ``tree``: a tree to continue (a
    ``Tree``, a pmap or a dict): ``n1`` dives and then ``n2`` more with the same generator grow the tree of ``n1 + n2``.

    Budgets (docs/mcts.md): ``iterations``, ``seconds``, ``stop()`` and ``max_nodes``; ``progress(k)`` hears of
    every ``k`` dives done. The options are ``mcts_move``'s with its defaults (docs/search-options.md).
    ``until_proven=True``: stop once the root is proven, as ``mcts_move`` does.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> tree = search(ShutTheBox(), start_box, 100, make_rng(5), rule=ucb)
    >>> tree == _repeat_uct(ShutTheBox(), start_box, 100, make_rng(5), rule=ucb)
    True
    >>> tree
    Tree(92 states, root frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}): Record(win=1, loss=99))
    >>> small = search(ShutTheBox(), start_box, 1_000, make_rng(5), max_nodes=50)
    >>> len(small) <= 50, visits(small[start_box])
    (True, 1000)
    >>> timed = search(ShutTheBox(), start_box, rng=make_rng(5), seconds=0.05)  # the dives 0.05 s allows, maybe none
    >>> timed == search(ShutTheBox(), start_box, visits(timed.get(start_box, EMPTY_RECORD)), make_rng(5))
    True
    """
    plain = not until_proven and all(x is None for x in (c, z, backup, solver, rollout, root, rave, rave_ref, bounds,
                                                         proofs, seconds, max_nodes, stop, progress, graph))
    work = _handed(tree)
    last = work.call if plain and work is not None else None  # the tree's last search: (game, rule, options, resolved)
    if last is not None and last[0] is game and last[1] is rule and last[2] is options and type(iterations) is int \
            and iterations >= 0:
        state = _options(game, state, rng, work)
        return _step(game, tree._map, state, rng, iterations, last[3], work=work)
    _check_budget(iterations, seconds, max_nodes)
    budget = _Budget(iterations, seconds, stop)  # the clock starts here: the set-up below is part of the time given
    opts = search_options(game, options, **_given(rule=rule, c=c, z=z, rollout=rollout, backup=backup, solver=solver,
                                                  root=root, rave=rave, rave_ref=rave_ref, bounds=bounds, proofs=proofs))
    game, state, graph, _, root_rule = _set_up(game, state, rng, opts, graph, iterations, work)
    items = pmap() if tree is None else _check_tree(tree).pmap()
    tree = Tree(items, state)
    if iterations is not None and not until_proven and all(x is None for x in (seconds, stop, max_nodes, progress)):
        # dives alone: on the working copy a returned tree carries
        grown = _step(game, items, state, rng, iterations, opts, graph, root_rule=root_rule, work=work)
        if plain and opts.root is None and not opts.proofs:  # given by ``rule`` and ``options`` alone: resolved once
            grown._work.call = (game, rule, options, opts)
        return grown
    g, stats, proofs = _working(game, graph, tree, opts.solver, whole=max_nodes is not None)
    root = g.node(state)
    stats.grow()
    _run(game, state, g, stats, root, rng, opts, budget, proofs, root_rule, until_proven=until_proven,
         max_nodes=max_nodes, progress=progress)
    return Tree(_written_back(g, stats, tree), state)


def _run(game, state, g, stats, root, rng, opts, budget, proofs, root_rule, *, until_proven, max_nodes,
         progress=None, runs=None) -> tuple:
    """Dives from ``root`` in chunks until ``budget`` is spent (``until_proven``: or the root proven).

    ``(the dives run, the score bounds or None)``; ``proofs``: the solver or None; ``runs``: the
    batched dives of ``mcts_move(batch=k)`` instead (``batch.batch_runner``).
    """
    _, _, bounded, select, engine = _entry(None, opts)
    bounded = Bounds(g, stats) if bounded else None
    proven = proofs_of(proofs, bounded)[0] if until_proven else None  # None: no option proves the root
    mover, done = _root_mover(game, state), 0
    least = least_chunk(g, stats, rng) if budget.watch and max_nodes is None else 1
    clocked = least > 1 and budget.deadline is not None  # the compiled rules' loop stops at the deadline itself
    if runs is not None:
        return runs(g, stats, root, mover, rng, select, opts, budget, proofs, bounded, root_rule,
                    until_proven=until_proven, max_nodes=max_nodes), bounded
    while proven is None or proven(root) is None:
        size = budget.take(CHUNK if max_nodes is None else _room(stats, root, max_nodes), least, clocked)
        if not size:
            break
        ran, *_ = dives(
            g, stats, root, mover, size, rng, select, solver=proofs, stop_when_proven=until_proven,
            compiled_playouts=max_nodes is None, root_rule=root_rule, bounds=bounded,
            until=budget.until if clocked else None, **engine,
        )
        budget.spent(ran)
        done += ran
        if progress is not None:
            progress(ran)
    return done, bounded


# -- mcts_move: search from a decision and choose ------------------------------------------


class MoveSearch(FixedRecord):
    """What ``mcts_move`` found: the move, the tree and the proofs (maps from state), the ``(move, record)`` children.

    >>> from fnmcts.games.nim import Nim
    >>> found = mcts_move(Nim(heap=6, max_take=3), Nim(heap=6, max_take=3).start(), 200, random.Random(1))
    >>> found  # a summary: found.tree, found.proven, found.children print in full
    MoveSearch(move=1, iterations=16, mean=0.75, tree=12 states, proven=12 states, children=3 moves)
    >>> found.proven[found.tree.root], [(move, visits(r)) for move, r in found.children]
    ((Fraction(1, 1), Fraction(-1, 1)), [(1, 8), (2, 3), (3, 4)])
    """

    move = field(mandatory=True)
    tree = field(mandatory=True)
    proven = field(mandatory=True)
    iterations = field(type=int, mandatory=True)
    children = field(mandatory=True)

    def __repr__(self):  # the chosen move's mean payoff (for its mover), the sizes: one line
        won = next((round(mean(r), 3) for m, r in self.children if m == self.move), None)
        return (f"MoveSearch(move={self.move!r}, iterations={self.iterations:,}, mean={won}, tree={len(self.tree):,} "
                f"states, proven={len(self.proven):,} states, children={len(self.children)} moves)")


def _proof_choice(graph, stats, solver, root, player, plies_known=None, memo=None):
    """What the proofs decide at decision ``root`` for ``player``: ``(position, ())`` or ``(None, positions left open)``.

    The rule is docs/mcts.md's (the shortest win, the longest defence, then the most visited); open positions are
    ``Solver.choices``'. The lines are ``Solver.plies``; ``plies_known``: node -> plies, where the proofs below a
    node are not at hand; ``memo``: ``plies``'s answers kept.
    """
    kids = graph.children(root)
    proofs = [solver.lookup(child, leave=True) for child in kids]
    memo = dict(plies_known or {}) if memo is None else memo

    def visited(j):
        c = stats.counts(kids[j])
        return c[0] if c else 0

    def plies(j):
        p = solver.plies(kids[j], memo)
        return -1 if p is None else p

    def hurry(j):
        return (plies(j) < 0, plies(j), -visited(j), j)

    wins = [j for j, pv in enumerate(proofs) if pv is not None and solver.shortcut and pv[0][player] == solver.high]
    if wins:
        return min(wins, key=hurry), ()
    if all(pv is not None for pv in proofs):
        top = max(pv[0][player] for pv in proofs)
        best = [j for j, pv in enumerate(proofs) if pv[0][player] == top]
        if solver.favours(proofs[best[0]][0], player) > 0:
            return min(best, key=hurry), ()
        # hold on longest: the opponent must find every move of the longest line
        return min(best, key=lambda j: (-(plies(j) if plies(j) >= 0 else 1.5), -visited(j), j)), ()
    choices = solver.choices(kids, player)
    return None, tuple(j for j, child in enumerate(kids) if child in choices)


def _final_move(graph, stats, solver, root, player, final, plies_known=None, root_rule=None, expectimax=False,
                bounds=None):
    """The move ``mcts_move`` plays: proofs first (``_proof_choice``), then the statistics (``final``).

    Otherwise the moves left open by ``final`` (a ``root_rule``'s own choice replaces it). ``plies_known``: as
    ``_proof_choice``'s. ``bounds``: only the moves the bounds leave open (``Bounds.keep``) and those guaranteed the
    best pessimistic bound.
    """
    kids = graph.children(root)
    moves = graph.moves[root]
    candidates = list(range(len(kids)))
    if solver is not None:
        chosen, open_ = _proof_choice(graph, stats, solver, root, player, plies_known)
        if chosen is not None:
            return moves[chosen]
        candidates = list(open_)
    if bounds is not None:  # not those that cannot beat a move guaranteed more: that move stays
        nodes = [kids[j] for j in candidates]
        open_ = set(bounds.keep(nodes, player)) | set(bounds.guaranteed(nodes, player))
        candidates = [j for p, j in enumerate(candidates) if p in open_]
    if root_rule is not None:
        positions, children, parent = root_children(graph, stats, root, solver, expectimax)
        return moves[positions[root_rule.final(children, parent)]]

    def key(j):
        c = stats.counts(kids[j])
        n = c[0] if c else 0
        m = (c[4] if c[4] is not None else c[1] / n) if n else -1.0
        return (m, n) if final == "mean" else (n, m)

    return moves[max(candidates, key=key)]  # ties: the first in move order


class TreeProofs:
    """The proofs a finished tree keeps, read as ``mcts_move``'s solver reads its own: the move they choose at a state.

    The records' ``proven`` values and the ends of the game, on the engine's working copy of ``tree``; a state's choice
    is ``_proof_choice``'s, so a view of the tree (``greedy_move``, the command line's tables) chooses as the search
    that grew it would. Reading one state walks the stored proven states below it and their children, nothing more of
    the game.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=6, max_take=3)
    >>> proofs = TreeProofs(game, search(game, game.start(), 200, make_rng(1)))
    >>> proofs.choice(game.start())  # take 1: heap 5, a loss for the player to move next
    (1, (1,))
    """

    def __init__(self, game, tree):
        self.game = game
        self.graph, self.stats, self.solver = _working(game, None, _check_tree(tree), True)
        self._memo, self._made = {}, set()

    def choice(self, state):
        """``(move, (move,))`` when the proofs choose the move at decision ``state``, else ``(None, the moves left open)``."""
        g, stats, solver = self.graph, self.stats, self.solver
        root = g.node(state)
        player = expanded_kind(g, stats, root)
        moves = g.moves[root]
        children_made(g, stats, root)
        self._below(root)
        chosen, open_ = _proof_choice(g, stats, solver, root, player, memo=self._memo)
        if chosen is not None:
            return moves[chosen], (moves[chosen],)
        return None, tuple(moves[j] for j in open_)

    def _below(self, root):
        """Make the children of ``root`` and of every proven node below it (expanded: the ends among them are proven)."""
        g, stats, known, made = self.graph, self.stats, self.solver.known, self._made
        stack = [root]
        while stack:
            x = stack.pop()
            if x in made:
                continue
            made.add(x)
            k = g.kind[x] if g.kind[x] != UNSEEN else g.expand(x)
            if k == END or (x != root and known(x) is None):
                continue
            below = _ends_below(g, x, k)
            stats.grow()
            stack.extend(c for c in below if c not in made)


def _ends_below(g, i, k) -> tuple:
    """The nodes one step below node ``i`` of kind ``k``, made; the ends among them expanded (proven at sight), the rest unseen."""
    below = g.children(i) if k >= 0 else g.outcome_children(i) if k == CHANCE_NODE else ()
    for c in below:
        g.ends(c)
    return below


def _root_from_children(graph, stats, root, player, mover):
    """A reused tree without the root (a state reached by chance): its record summed from its children's.

    Without it the root would start at one visit under children with many, and UCB's exploration would vanish; the sums
    are what the root would hold had it been stored (one or two players; results seen by ``mover`` into the root).
    """
    kids = [k for k in graph.children(root) if stats.N[k]]
    if not kids or graph.num_players > 2:
        return
    n = sum(stats.N[k] for k in kids)
    s, w, d = (sum(x[k] for k in kids) for x in (stats.S, stats.W, stats.D))
    if mover != player:  # two players: the other side of every result
        s, w = n - s, n - w - d
    stats.set(root, (n, s, w, d, None))


@guarded
def mcts_move(
    game,
    state,
    iterations: int | None = None,
    rng: random.Random | None = None,
    *,
    seconds: float | None = None,
    max_nodes: int | None = None,
    stop=None,
    rule=None,
    c: float | None = None,
    z: float | None = None,
    final: str | None = None,
    solver: bool | None = None,
    rollout=None,
    backup: str | None = None,
    options: SearchOptions | None = None,
    tree=None,
    graph=None,
    workers: int | None = None,
    executor=None,
    chunk_size: int | None = None,
    root=None,
    trees: int | None = None,
    rave=None,
    rave_ref=None,
    bounds=None,
    proofs=None,
    batch: int | None = None,
) -> MoveSearch:
    """Search ``iterations`` dives from decision ``state``; return the move and the tree.

    The options and budgets are ``search``'s, with the same defaults (docs/search-options.md); ``tree``: a tree
    to continue. How ``final`` and the solver choose the move, and root-parallel search (``workers=N`` or
    ``executor=``, ``trees``, ``chunk_size``): docs/mcts.md; ``iterations`` in the result counts the dives run.
    ``batch=k``: one tree, its dives selected ``k`` a step, their playouts on the workers (``fnmcts.mcts.batch``).

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=22, max_take=3)
    >>> found = mcts_move(game, game.start(), 2_000, make_rng(1))
    >>> found.move, found.proven[game.play(game.start(), found.move)]
    (1, (Fraction(1, 1), Fraction(-1, 1)))
    >>> bounded = mcts_move(game, game.start(), 2_000, make_rng(1), max_nodes=10)
    >>> len(bounded.tree) <= 10, bounded.iterations
    (True, 2000)
    """
    _check_budget(iterations, seconds, max_nodes, least=1)
    budget = _Budget(iterations, seconds, stop, least=1)  # the clock starts here: the set-up is part of the time given
    if batch is not None and rave is None and (options is None or options.rave is None):
        rave = False  # a batched search takes no RAVE: a large game's default (``RAVE_K``) gives way
    opts = search_options(
        game, options,
        **_given(rule=rule, c=c, z=z, final=final, solver=solver, rollout=rollout, backup=backup, root=root,
                 rave=rave, rave_ref=rave_ref, bounds=bounds, proofs=proofs),
    )
    runs = batch_runner(batch, opts, workers, executor, dict(seconds=seconds, max_nodes=max_nodes, stop=stop, trees=trees, chunk_size=chunk_size))
    if runs is None and (workers is not None or executor is not None):
        if opts.root is not None:
            raise ValueError("a root rule (root=) plans one search's dives: it runs in one process, without workers=/executor=")
        return _root_parallel(
            game, state, iterations, rng, workers, executor, _tree_size(iterations, trees, chunk_size),
            dict(seconds=seconds, stop=stop, tree=tree, graph=graph), max_nodes, opts,
        )
    user_game = game
    game, state, graph, player, root_rule = _set_up(game, state, rng, opts, graph, iterations, decision=True)
    tree = Tree(pmap(), state) if tree is None else _check_tree(tree).with_root(state)
    g, stats, proofs, root = _rooted(game, graph, tree, state, player, opts.solver, max_nodes)
    done, bounded = _run(game, state, g, stats, root, rng, opts, budget, proofs, root_rule,
                         until_proven=True, max_nodes=max_nodes, runs=runs)
    grown = lazy_tree(partial(_written_back, g, stats, tree), state)  # an agent that plays the move never reads it
    return _move_search(user_game, g, stats, proofs, root, player, grown, done, final=opts.final, root_rule=root_rule,
                        expectimax=opts.backup != "mean", bounds=bounded)


def _move_search(game, g, stats, proofs, root, player, tree, done, **choice) -> MoveSearch:
    """The ``MoveSearch`` of a finished search: the move (``_final_move``, with ``choice``), the root's children, the proofs."""
    moves = g.moves[root]
    move = moves[0] if len(moves) == 1 else _final_move(g, stats, proofs, root, player, **choice)
    children = LazyTuple(lambda: ((m, EMPTY_RECORD if stats.N[k] is None else _record_of(stats, k))
                                  for m, k in zip(moves, g.kids[root])))  # (read when first used: an agent never)
    proven = LazyMap(partial(_proven_map, game, g, stats, proofs, root)) if proofs is not None else pmap()
    return MoveSearch(move=move, tree=tree, proven=proven, iterations=done, children=children)


def _decider(game, state):
    """The player to choose at ``state``, or the ValueError that says why no one chooses there."""
    player = game.to_move(state)
    if player is None:
        raise ValueError(f"the game is over at {state!r}: there is no move to search")
    if player is CHANCE:
        raise ValueError(
            f"chance moves next at {state!r} (the outcome, e.g. a dice roll, is drawn, not chosen): take one "
            "first, game.play(state, outcome) for an outcome of game.chance_outcomes(state) or "
            "fnmcts.protocol.sample_outcome(game, state, rng), and search from the state it leads to; "
            "fnmcts.views.tree_summary(game, tree, state) shows a tree's best move for each outcome"
        )
    return player


def _rooted(game, graph, tree, state, player, solver, max_nodes) -> tuple:
    """``(graph, stats, solver, root)``: the working copy of ``tree`` with the root's children made."""
    g, stats, proofs = _working(game, graph, tree, solver, whole=max_nodes is not None)
    root = g.node(state)
    if not rules_root(g, stats, root):  # (a game's compiled rules expand a fresh root without its states)
        g.expand(root)
        g.children(root)
    stats.grow()
    if len(tree) and stats.N[root] is None:  # (a new tree's lists are not made for it)
        _root_from_children(g, stats, root, player, _root_mover(game, state))
    return g, stats, proofs, root


def _proven_map(game, graph, stats, solver, root):
    """``state -> exact value`` of every stored state the search has proven, and of every child of ``root`` the
    solver has proven though the search never stored it (shallow proofs prove a state at sight), not an end of
    ``game`` (an end's value is its payoff): the proofs the move rests on, for whoever reads the result.
    """
    state_of, N = graph.state, stats.N  # (a state made only where a proof is read: ``CompiledGraph.intern_unmade``)
    found = {state_of(i): p for i, p in enumerate(stats.P) if p is not None and N[i] is not None}
    for child in graph.children(root):
        state = state_of(child)
        if state not in found and game.to_move(state) is not None:
            pv = solver.lookup(child, leave=True)
            if pv is not None:
                found[state] = pv[0]
    return pmap(found)


def _root_chunk(game, state, max_nodes, options, size, rng):
    """One chunk of a root-parallel search: an independent search, reduced to its root's statistics.

    In a worker of the kept pool the game's compiled graph is built once and used again by the worker's later chunks
    (a graph depends on the game alone: the same search, draw for draw); a chunk its run drops stops early there.
    """
    graph = worker_kept(("compiled graph", game), lambda: graph_of(game))
    stop = halted if graph is not None and options.solver else None
    found = mcts_move(game, state, size, rng, max_nodes=max_nodes, options=options, graph=graph, stop=stop)
    kids = [game.play(state, m) for m, _ in found.children]
    counts = [counts_of(found.tree[state])] + [counts_of(r) for _, r in found.children]
    proofs = {j: found.proven[s] for j, s in enumerate([state] + kids) if s in found.proven}
    return found.iterations, counts, proofs, _proof_plies(game, found.proven, [state] + kids)


def _proof_plies(game, proven, states):
    """``Solver.plies`` of each of ``states`` that ``proven`` (state -> exact value) proves: index -> plies.

    The proofs are read on a graph of the proven states and the nodes one step below them (made and expanded here:
    the ends among them are proven at sight), so the walk costs in proportion to the proofs, never more of the game.
    """
    if not proven:
        return {}
    g = CompiledGraph(game)
    solver = Solver(g, Stats(g))
    for s, exact in proven.items():
        i = g.node(s)
        solver.proven[i] = solver.value(exact)
        _ends_below(g, i, g.expand(i))
    solver.stats.grow()
    memo = {}
    plies = {j: solver.plies(g.node(s), memo) for j, s in enumerate(states) if s in proven}
    return {j: p for j, p in plies.items() if p is not None}


def _merge_counts(a, b):
    if a is None:
        return list(b)
    n, v = a[0] + b[0], None
    if a[4] is not None or b[4] is not None:  # expectimax values: visit-weighted
        va = a[4] if a[4] is not None else (a[1] / a[0] if a[0] else 0.0)
        vb = b[4] if b[4] is not None else (b[1] / b[0] if b[0] else 0.0)
        v = (va * a[0] + vb * b[0]) / n if n else None
    return [n, a[1] + b[1], a[2] + b[2], a[3] + b[3], v]


def _tree_size(iterations, trees, chunk_size):
    """The dives of each tree of a root-parallel search: ``chunk_size``, or ``iterations`` split in ``trees``;
    ``None`` where the default split leaves one tree (the plain search runs instead).

    >>> _tree_size(100_000, None, None), _tree_size(10, 4, None), _tree_size(10, None, 3), _tree_size(40_000, None, None)
    (50000, 3, 3, None)
    """
    if trees is not None and chunk_size is not None:
        raise ValueError("give trees= (how many independent searches) or chunk_size= (the dives of each), not both")
    for name, value in (("chunk_size", chunk_size), ("trees", trees)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    if chunk_size is not None:
        return chunk_size
    if trees is None:  # ROOT_TREES, fewer where a tree would get under ROOT_TREE_MIN dives; one: the plain search
        few = iterations // ROOT_TREE_MIN if type(iterations) is int else 1
        return None if few < 2 else -(-iterations // min(ROOT_TREES, few))
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
        return 1  # the budget's own check speaks next
    return -(-iterations // trees)


def _root_parallel(game, state, iterations, rng, workers, executor, chunk_size, refused, max_nodes, options):
    """``mcts_move`` as independent searches of ``chunk_size`` dives, their root statistics merged."""
    name = next((name for name, given in refused.items() if given is not None), None)
    if name is not None:
        raise ValueError(f"a root-parallel search (workers=, executor=) takes iterations= alone as its budget and "
                         f"starts fresh trees: {name}= is not supported with it")
    check_workers(workers, executor)
    if chunk_size is None:  # too few dives to pay for a second tree: the plain search, as without workers
        return mcts_move(game, state, iterations, rng, max_nodes=max_nodes, options=options)
    state = _options(game, state, rng)
    player = _decider(game, state)  # the single search's error at an end or a chance state, word for word
    seed = rng.getrandbits(63)
    fn = partial(_root_chunk, game, state, max_nodes, options)
    until = (lambda result: 0 in result[2]) if options.solver else None  # the trees after a root's proof: dropped
    trees = -(-iterations // chunk_size)  # one tree: searched here, no pool to pay for
    with kept_pool(min(workers or 1, trees)) as pool:
        on = pool if executor is None or trees == 1 else executor
        results = run_chunks(fn, iterations, seed, chunk_size, on, until=until)
    g, stats, proofs, root = _rooted(game, CompiledGraph(game), Tree(pmap()), state, player, options.solver, None)
    nodes = (root,) + tuple(g.kids[root])
    merged = [None] * len(nodes)
    done, exact, known = 0, {}, {}  # known: node -> the shortest line a chunk's proofs give it (a line of the game)
    for ran, counts, proven, plies in results:
        done += ran
        for j, c in enumerate(counts):
            merged[j] = _merge_counts(merged[j], c)
        if proofs is not None:
            exact.update(proven)
            for j, p in plies.items():
                known[nodes[j]] = min(p, known.get(nodes[j], p))
    for j, c in enumerate(merged):
        if c is not None and c[0]:
            stats.set(nodes[j], c, exact.get(j))
    frozen = Tree(_written_back(g, stats, Tree(pmap())), state)
    return _move_search(game, g, stats, proofs, root, player, frozen, done, final=options.final, plies_known=known)


SUBTREE_WALK, SUBTREE_SHARE, SUBTREE_AHEAD = 50_000, 4, 500
"""``subtree``'s default walk: the game's bound on its states up to ``SUBTREE_WALK``, else a share of the tree."""


def subtree(game, tree, state, *, walk: int | None = None) -> Tree:
    """The part of ``tree`` still reachable from ``state``: the memory a search carries to its next move.

    Walks the game from ``state`` and keeps the stored states it meets: a search from ``state`` on the subtree
    grows exactly what it grows on the whole tree, whatever the options. Exact when at most ``walk`` states from
    ``state`` are not stored (past them, only what stored states lead to); the default bound: docs/mcts.md.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=8, max_take=3)
    >>> tree = search(game, game.start(), 500, make_rng(1))
    >>> after = game.play(game.start(), 3)
    >>> kept = subtree(game, tree, after)
    >>> len(tree), len(kept), kept.root == after, kept[after] == tree[after]
    (16, 10, True, True)
    """
    tree = _check_tree(tree)
    state = check_state(game, state)
    if walk is not None and (isinstance(walk, bool) or not isinstance(walk, int) or walk < 0):
        raise ValueError(f"walk must be a whole number of states, 0 or more, or None (the default), got {walk!r}")
    return Tree(pmap(_reachable(game, tree, state, walk)), state)


def _reachable(game, tree, state, walk):
    """The stored states reachable from ``state`` (``subtree``'s walk; ``walk`` None: its default bound)."""
    if walk is None:
        states, length, branching = size_hint(game, state)
        if states is None and length is not None and branching is not None:  # 1 + b + ... + b**length at most
            states = sum(branching**k for k in range(min(length, 64) + 1))
        walk = states if states is not None and states <= SUBTREE_WALK else (
            len(tree) // SUBTREE_SHARE + (SUBTREE_AHEAD if states is None else 0))
    keep, ahead, seen = {}, [], {state}
    _walked(game, tree, [(state, True)], seen, keep, ahead)
    return every if _walked(game, tree, ahead, seen, every := dict(keep), walk) else keep  # else the stored walk's


def _walked(game, tree, stack, seen, keep, walk):
    """Keeps the stored states met: ``walk`` a list, through them and chance (the rest put in it), else through all
    (False past ``walk`` unstored states)."""
    while stack:
        x, passing = stack.pop()
        rec = tree.get(x)
        if rec is not None:
            keep[x] = rec
        elif not passing and type(walk) is list:
            walk.append((x, True))
            continue
        player = game.to_move(x)
        if player is None:
            continue
        chance = player is CHANCE
        for move in [outcome for outcome, _ in game.chance_outcomes(x)] if chance else game.possible_moves(x):
            child = game.play(x, move)
            if child not in seen:
                seen.add(child)
                if type(walk) is int and child not in tree:
                    walk -= 1
                    if walk < 0:
                        return False
                stack.append((child, chance))
    return True


def mcts_agent(
    iterations: int | None = DEFAULT_ITERATIONS,
    *,
    reuse: bool = False,
    options: SearchOptions | None = None,
    seconds: float | None = None,
    max_nodes: int | None = None,
    **search_opts,
) -> Callable:
    """An agent that runs ``mcts_move`` each turn: ``(game, state, rng) -> move``, or with memory.

    The options and budgets are ``mcts_move``'s, with its defaults, all checked here; a root rule is named
    (``root='gumbel'``), made anew each move. ``reuse=True``: a ``fnmcts.matches.MemoryAgent`` whose memory is the
    tree pruned by ``subtree`` (docs/mcts.md, "agents with memory"). The agent pickles: it runs in workers.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.matches import agent_move
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=10, max_take=3, misere=False)
    >>> mcts_agent(500)(game, game.start(), make_rng(2))
    2
    >>> move, memory = agent_move(mcts_agent(500, reuse=True), game, game.start(), make_rng(2))
    >>> move, memory.root == game.play(game.start(), move), len(memory)
    (2, True, 16)
    """
    _check_budget(iterations, seconds, max_nodes, least=1)
    unknown = sorted(set(search_opts) - set(OPTION_NAMES))
    if unknown:
        raise TypeError(
            f"unknown mcts_agent option {unknown[0]!r}: the options are {', '.join(OPTION_NAMES)}, "
            "options, seconds, max_nodes and reuse"
        )
    given = _given(**search_opts)
    checked = search_options(None, options, **given)  # every option checked now, not at the first move
    if checked.root is not None and checked.root not in ROOT_RULES:
        raise ValueError(f"an agent's root rule is one of {ROOT_RULES} (made anew for each move), got {checked.root!r}")
    settings = (tuple(sorted(_given(seconds=seconds, max_nodes=max_nodes).items())), tuple(sorted(given.items())), options)
    if reuse:
        return MemoryAgent(partial(_agent_step, iterations, settings))
    return partial(_agent_move, iterations, settings)


def _agent_move(iterations, settings, game, state, rng):
    """One move of an ``mcts_agent``: module level, so agents pickle for worker processes."""
    budget, given, options = settings
    return mcts_move(game, state, iterations, rng, options=options, **dict(budget), **dict(given)).move


def _agent_step(iterations, settings, game, state, rng, memory):
    """One move of an ``mcts_agent(reuse=True)``: the move and the tree still reachable after it."""
    budget, given, options = settings  # the memory pruned first only for a bounded search (it counts all of it)
    tree = subtree(game, memory, state) if memory is not None and dict(budget).get("max_nodes") else memory
    found = mcts_move(game, state, iterations, rng, tree=tree, options=options, **dict(budget), **dict(given))
    return found.move, subtree(game, found.tree, game.play(state, found.move))
