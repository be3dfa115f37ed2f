"""The one descent of fnmcts's Monte Carlo tree search, fast, over a compiled graph (``_graph``).

``dives`` runs the dives of ``fnmcts.mcts.phases`` (select, expand, simulate, back up) from a root, on working
statistics (``Stats``: flat lists indexed by node, mutated in place, read from a persistent tree as the search goes and
written back by the callers). Every option of the phases is an option of this one loop, each through its module
(``solver``, ``bounds``, ``rave``, ``backups``). Property tests hold it to the phases, draw for draw, on generated
games. In a game whose states may repeat, a dive that comes back to a state already on its path stops there and plays
one game to the end from it.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from functools import partial
from math import inf as _inf, log as _log, sqrt as _sqrt

from ..limits import MAX_PLIES, cycle_found, past_budget
from ..matches import playout
from ..protocol import may_repeat
from . import _kernel
from ._graph import CHANCE_NODE, END, UNSEEN, CompiledGraph, children_made, draw
from ._graph import children_made as _children_of  # noqa: F401 (batch.py reads it so)
from ._records import _NO_EXTRAS, Record, builtin_rule, counts_of, rating, rating_selector, ucb_score
from .bounds import Bounds
from .backups import expectimax_back, graph_back, stored_value  # noqa: F401 (stored_value: _engine's own name before)
from .phases import rules_playout, simulate
from .rave import amaf_backup, count_played, rave_picker
from .solver import Solver, _no_proof, _open_positions, open_steps, proofs_of

__all__ = ["Stats", "Solver", "Bounds", "dives", "user_selector", "started"]


class _Unrated:
    """The key of a node whose tutorial rating is undefined: comparing it raises, as the rating did."""

    def __gt__(self, other):
        raise ValueError("math domain error")

    __lt__ = __ge__ = __le__ = __gt__


_UNRATED = _Unrated()


class Stats:
    """The working statistics of a search, one entry per node of its graph.

    ``N`` visits (None: the node is not in the tree), ``S`` the score (sum of rescaled payoffs for the mover into the
    node), ``W`` wins, ``D`` draws, ``V`` the expectimax value (or None), ``P`` the proof (the exact value its record
    keeps, or None), ``E`` the score the ratings read (``S``, or ``V * N`` under expectimax); ``A``, ``B``, ``G``: the
    options' (``__init__``). ``lookup(state)``, if given, supplies the record of a state when its node first appears
    (only the records a search meets are read); ``N0`` keeps the visits read, so the records that changed are known at
    the end. ``logs[n]`` is ``log(n)`` for the visit counts the search has met. ``K`` (``use_keys``): per node, the part
    of a built-in rule's rating that reads its own counts alone (the mean under UCB1, the whole ``ucb_score`` under the
    tutorial's rule), kept with the counts.

    >>> from fnmcts.games.nim import Nim
    >>> graph, stats, root = started(Nim(heap=3, max_take=2))
    >>> stats.known, stats.N[root], stats.counts(root)
    (1, None, None)
    >>> stats.set(root, (4, 3.0, 3, 0, None))
    >>> stats.counts(root), stats.use_keys(1, 2 ** 0.5)[root], stats.use_keys(2, 2)[root] == ucb_score(3.0, 4, 2)
    ((4, 3.0, 3, 0, None), 0.75, True)
    """

    def __init__(self, graph, lookup=None):
        self.graph = graph
        self.lookup = lookup
        self.known = 0  # the graph's nodes the lists have taken in (they may hold more entries, for room)
        self.key_rule = None
        self.logs = [-_inf]  # log 0: a visited child under a parent of no visits is rated as log(0) was: an error
        self.dropped = set()  # nodes a bounded tree dropped: written back even if they came back
        self.solver = None
        self._A = {}  # RAVE: node -> {(player, move): [visits, score]}, the AMAF statistics of its record (``A``)
        self.amaf_pending = None  # the compiled rules loop's statistics not yet in ``_A`` (``_rules_kernel``)
        self.amaf_arrays = None  # ``A`` as the compiled rules loop left it (``_rules_kernel``): None once changed here
        self.B = {}  # score bounds: node -> (pessimistic, optimistic), the bounds of its record
        self.G = {}  # graph backup: node -> [own results' sum, {child: [edge visits, player choosing]}]
        self.held = None  # the compiled loop's counts not yet in the lists (``hold``)
        self.unmade = lookup is None  # a new tree's lists, made when first read (``_settle``): every node out of it
        self.lock = threading.Lock()
        if not self.unmade:
            self.__dict__.update(self._lists(0))
        self.grow()

    def _lists(self, size):
        """The working lists (``_LISTS``) of ``size`` nodes none of which is in the tree."""
        found = {name: [None] * size for name in ("N", "V", "P", "N0")}
        found.update((name, [0] * size) for name in ("S", "W", "D"))
        found["E"], found["K"] = found["S"], None if self.key_rule is None else [None] * size
        return found

    def untouched(self) -> bool:
        """Whether no list is made yet (a new tree: no node in it) and no count is held back (``hold``)."""
        return self.unmade and self.held is None

    def hold(self, write, at):
        """Hold the counted columns (``N``, ``S``, ``W``, ``D``, ``K``, ``E``) back until a list is first read.

        Then ``write(columns)`` puts the counts the compiled loop left into them (``_compiled.counts_out``), as they
        stood; ``at(i)``: node ``i``'s ``(visits, score, wins, draws)`` among those counts, or None (``counts`` reads
        them there). A search whose tree is never read never writes them into the lists (an agent playing the move)."""
        if self.held is not None:
            self._settle()
        columns = None if self.unmade else {name: self.__dict__.pop(name) for name in _COUNTED}
        self.held = (columns, write, at, self.key_rule)

    def __getattr__(self, name):
        """A working list not made yet or held back: made, the held counts written into it first (``_settle``)."""
        d = self.__dict__
        if name in _LISTS and (d.get("held") is not None or d.get("unmade")):
            self._settle()
            if name in d:
                return d[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _settle(self):
        """The lists as they stand: made if not yet, the counts held back written into them (two threads reading one
        result: once, before either reads them)."""
        with self.lock:
            d = self.__dict__
            lists = self._lists(max(self.known, len(self.graph), 64)) if self.unmade else {}
            held = self.held
            if held is not None:
                columns, write, _, key_rule = held
                columns = columns or {name: lists[name] for name in _COUNTED}
                write(_Columns(columns, key_rule))
                lists.update(columns)
            for name, column in lists.items():  # (a column set meanwhile, ``rule_keys``, stays as set)
                d.setdefault(name, column)
            self.held, self.unmade = None, False

    @property
    def A(self):
        """RAVE's AMAF statistics, node -> ``{(player, move): [visits, score]}``; those the compiled rules loop counted
        are written in when first read (``_rules_kernel.settle_amaf``), so a search that reads a few records pays
        for those alone (``amaf_of``)."""
        if self.amaf_pending is not None:
            from ._rules_kernel import settle_amaf

            settle_amaf(self)
        return self._A

    @A.setter
    def A(self, tables):
        self._A, self.amaf_pending = tables, None

    def amaf_of(self, i):
        """Node ``i``'s AMAF table (``A.get(i)``), read without writing the compiled loop's others in."""
        if self.amaf_pending is not None:
            from ._rules_kernel import pending_table

            return pending_table(self, i)
        return self._A.get(i)

    def has_amaf(self) -> bool:
        """Whether any node keeps AMAF statistics (``bool(A)``), read without writing the compiled loop's in."""
        return bool(self._A) or (self.amaf_pending is not None and bool((self.amaf_pending[1][2] >= 0).any()))

    def use_values(self):
        """Keep ``E`` apart from ``S``: the ratings read the expectimax values."""
        if self.E is self.S:
            self.E = [s if v is None else v * n for s, v, n in zip(self.S, self.V, self.N)]
            if self.K is not None:
                self.K = [self.key(e, n) for e, n in zip(self.E, self.N)]

    def rule_keys(self, rule, constant):
        """``K`` for built-in ``rule`` 1 or 2 (``use_keys``); no keys (None) for rule 0: they would go stale.

        Lists not made yet (``untouched``) take the rule alone, their keys made with them (None returned)."""
        if self.untouched():
            self.key_rule = (rule, constant) if rule else None
            return None
        if rule:
            return self.use_keys(rule, constant)
        self.K = self.key_rule = None
        return None

    def use_keys(self, rule, constant):
        """Keep ``K`` for built-in ``rule`` 1 (UCB1) or 2 (the tutorial's, with ``z`` = ``constant``); return it."""
        if self.key_rule != (rule, constant):
            self.key_rule = (rule, constant)
            key = self.key
            N = self.N  # most nodes are not stored (in a new search, none)
            fresh = N.count(None) == len(N)
            self.K = [None] * len(N) if fresh else [None if n is None else key(e, n) for e, n in zip(self.E, N)]
        return self.K

    def key(self, e, n):
        """``K`` of a node of score ``e`` over ``n`` visits."""
        if not n:
            return None
        rule, z = self.key_rule
        if rule == 1:
            return e / n
        try:
            return ucb_score(e, n, z)
        except ValueError:  # a score above the visits (a tree given so): an error when rated, as the rule's
            return _UNRATED

    def grow(self):
        """Give every node of the graph an entry (after the graph interned new states).

        The lists grow ahead of the graph, in chunks (an entry past the graph's
        nodes is a node not in the tree), so most calls find room and return.
        """
        size = len(self.graph)
        start = self.known
        if start >= size:
            return
        if self.unmade:  # (the lists are made as long as the graph is then)
            self.known = size
            return
        room = len(self.N)
        if size > room:
            more = max(size - room, room, 64)
            extra, zeros = [None] * more, [0] * more
            for column in (self.N, self.N0, self.V, self.P) + (() if self.K is None else (self.K,)):
                column.extend(extra)
            for column in (self.S, self.W, self.D) + (() if self.E is self.S else (self.E,)):
                column.extend(zeros)
        self.known = size
        if self.lookup is not None:
            states = self.graph.states
            for i in range(start, size):
                rec = self.lookup(states[i])
                if rec is not None:
                    self.set(i, counts_of(rec), rec.get("proven"))
                    self.N0[i] = self.N[i]
                    if type(rec) is Record:
                        amaf, kept, graph = rec._x or _NO_EXTRAS
                    else:
                        amaf, kept, graph = rec.get("amaf"), rec.get("bounds"), rec.get("graph")
                    if amaf:
                        self.A[i] = {key: list(entry) for key, entry in amaf.items()}
                        self.amaf_arrays = None
                    if kept is not None:
                        self.B[i] = kept
                    if graph is not None:
                        node = self.graph.node
                        self.G[i] = [graph[0], {node(c): [n, who] for c, n, who in graph[1]}]

    def set(self, i, counts, proof=None):
        """Store ``counts`` = ``(visits, score, wins, draws, value)`` and ``proof`` at node ``i``."""
        n, s, w, d, v = counts
        self.N[i], self.S[i], self.W[i], self.D[i], self.V[i], self.P[i] = n, s, w, d, v, proof
        if self.E is not self.S:
            self.E[i] = s if v is None else v * n
        if self.K is not None:
            self.K[i] = self.key(self.E[i], n)
        if proof is not None and self.solver is not None:  # a proof given: the solver reads it afresh
            self.solver.forget(i)

    def drop(self, i):
        """Take node ``i`` out of the tree (a bounded tree prunes its least visited nodes)."""
        self.N[i], self.S[i], self.W[i], self.D[i], self.V[i], self.P[i] = None, 0, 0, 0, None, None
        self.dropped.add(i)
        self.A.pop(i, None)
        self.amaf_arrays = None
        self.B.pop(i, None)
        self.G.pop(i, None)
        if self.E is not self.S:
            self.E[i] = 0
        if self.K is not None:
            self.K[i] = None
        if self.solver is not None:
            self.solver.forget(i)

    def counts(self, i):
        """``(visits, score, wins, draws, value)`` at node ``i``, or None if not in the tree."""
        held = self.held
        if held is not None:  # the compiled loop's counts, read where they are (``hold``)
            found, values = held[2](i), self.__dict__.get("V")  # (no list made: no value)
            return None if found is None else (*found, None if values is None else values[i])
        n = self.N[i]
        return None if n is None else (n, self.S[i], self.W[i], self.D[i], self.V[i])

    def changed(self):
        """The nodes whose records differ from those read: ``(i, in the tree now)``."""
        N, N0, dropped = self.N, self.N0, self.dropped
        return [(i, n is not None) for i, n in enumerate(N) if n != N0[i] or (i in dropped and n is not None)]


_COUNTED = ("N", "S", "W", "D", "K", "E")
"""The columns of ``Stats`` the compiled loop's counts go into (``Stats.hold``)."""

_LISTS = _COUNTED + ("V", "P", "N0")
"""The working lists of ``Stats``, made when first read in a new tree (``Stats.unmade``)."""


class _Columns:
    """The counted columns of a ``Stats`` held back (``Stats.hold``), with the key rule of their keys then."""

    def __init__(self, columns, key_rule):
        self.__dict__.update(columns)
        self.key_rule = key_rule

    key = Stats.key


_LOG_TABLE = 1 << 16
"""The largest visit count whose logarithm a search keeps in its table (``Stats.logs``)."""


def started(game) -> tuple:
    """``(graph, stats, root)``: a new ``CompiledGraph`` of ``game``, its empty ``Stats``, and the node of its start.

    What a search of the engine starts from (the doctests of the option modules build theirs so).

    >>> from fnmcts.games.nim import Nim
    >>> graph, stats, root = started(Nim(heap=3))
    >>> graph.state(root) == Nim(heap=3).start(), stats.N[root]
    (True, None)
    """
    graph = CompiledGraph(game)
    root = graph.node(game.start())  # before the stats, which are as long as the graph
    return graph, Stats(graph), root


def _parent_log(logs, n):
    """``log(n)`` for a visit count ``n`` past the end of the table ``logs``, growing it when ``n`` is near.

    The table doubles when a count reaches its end (up to ``_LOG_TABLE`` entries), so it costs at most a few times the
    counts it serves; a count far beyond it (the root of a large tree given to continue) is computed. The same floats as
    ``math.log`` (the table holds its results).

    >>> from math import log
    >>> logs = [float("-inf")]
    >>> _parent_log(logs, 3) == log(3), len(logs), logs[2] == log(2)
    (True, 70, True)
    >>> _parent_log(logs, 10**6) == log(10**6), len(logs)
    (True, 70)
    """
    size = len(logs)
    if type(n) is int and size <= n < min(2 * size + 64, _LOG_TABLE):
        logs.extend(map(_log, range(size, min(2 * n + 64, _LOG_TABLE))))
        return logs[n]
    return _log(n)


def user_selector(rule, expectimax=False):
    """``select(children, stats, parent_visits)`` rating every child with ``rule`` (``_records.rating``).

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(counts=lambda i: [(3, 0, 0, 0, None), (3, 2, 2, 0, None)][i])
    >>> user_selector(lambda rec, parent_visits: rec["win"])((0, 1), stats, 6)
    1
    """
    builtin = builtin_rule(rule) or ()
    return rating_selector(lambda counts, parent: rating(rule, counts, parent, expectimax, builtin))


def _random_finish(g, rnd, rng, off, i):
    """``(rescaled payoff, payoff or None, terminal node or None)`` of random moves from node ``i`` to the end.

    The draws are ``playout``'s. The walk follows the graph where the descent made it (a game's own tables: all of it);
    at the first state past it ``off(state)`` ends the game (the payoff is then given, and the terminal node None). It
    makes no node. The uniform draw of ``random_agent`` and the chance draw of ``draw``, inline.
    """
    kind, kids, chance = g.kind, g.kids, g.chance
    given = g.given
    tabled = 0 if given is None else len(given.states)  # nodes the game's tables give: expanding them reads the tables
    first, steps, budget = i, 0, MAX_PLIES
    while True:
        steps += 1
        if steps > budget:  # random play round the graph's states past the budget: the game's own bound, or a verdict
            budget = past_budget(g.game, g.states[first], steps, budget, MAX_PLIES)
        k = kind[i]
        if k >= 0:
            ks = kids[i]
            if ks is None:
                return (*off(g.states[i]), None)
            i = ks[int(rnd() * len(ks)) if len(ks) > 1 else 0]
        elif k == END:
            return g.u[i], None, i
        elif k == UNSEEN:
            if i >= tabled:
                return (*off(g.states[i]), None)
            g.expand(i)
        else:
            e = chance[i]
            if e[0] is not None:  # a slot table
                j = e[0][int(rnd() * e[1])]
            elif e[5] is not None:  # the game's own sampler
                j = e[6][e[5](g.states[i], rng)]
            else:
                j = bisect_right(e[2], rnd() * e[1])
            c = e[3][j]
            if c is None:
                return (*off(g.game.play(g.states[i], e[7][j][0])), None)
            i = c


def _finisher(g, rng):
    """``off(state) -> (rescaled payoff, payoff)`` of a random game from ``state`` off the graph.

    On the game's ``random_payoff`` kernel when it has one (as ``phases.simulate``), else ``matches.playout`` through
    the protocol; each payoff is rescaled once (the first 4,096 kept: a game of many scores).
    """
    game = g.game
    kernel = getattr(game, "random_payoff", None)
    rescale, rescaled = g.rescale, {}
    check, tables = g.check_payoff, {}  # (tables: the draw tables of the playouts' outcome tuples)

    def off(state):
        if kernel is not None:
            end, pay = state, kernel(state, rng)
        else:
            end = playout(game, state, rng, tables=tables)
            pay = game.payoff(end)
        res = rescaled.get(pay) if type(pay) is tuple else None
        if res is None:  # a payoff met for the first time: checked (its length, its range), then rescaled
            pay = check(end, pay, "payoff" if kernel is None else "random_payoff")
            res = rescale(pay)
            if len(rescaled) < 4096:
                rescaled[pay] = res
        return res, pay

    return off


def _play_out(g, rng, rollout, keys, kernel, i):
    """``(rescaled payoff, payoff, None)`` of one game played to the end from node ``i`` through the protocol.

    ``phases.simulate``: the game's end is not interned. ``keys`` (RAVE), a set: the playout's moves are kept, and each
    ``(player, move)`` is added to it (``kernel``, the game's ``_played_kernel``: it gives them, the same draws).
    """
    game = g.game
    if keys is None:
        payoff = simulate(game, g.states[i], rng, rollout, check=g.check_payoff)
    elif kernel is not None:  # the game's kernel gives the moves with the payoff
        payoff, played = kernel(g.states[i], rng)
        payoff = g.check_payoff(g.states[i], payoff, kernel.__name__)
        keys.update(played)
    else:
        payoff, played = simulate(game, g.states[i], rng, rollout, moves=True, check=g.check_payoff)
        count_played(game, g.states[i], played, keys)
    return g.rescale(payoff), payoff, None  # (no terminal node: the end is not interned)


def _played_kernel(game, rollout):
    """The game's kernel of a playout's payoff and ``(player, move)`` decisions (``random_played``, ``decisive_played``)."""
    if rollout is None:
        return game.random_played if hasattr(game, "random_played") else None
    if getattr(rollout, "in_place", None) == "decisive_payoff":
        return rules_playout(game, True) or getattr(game, "decisive_played", None)
    return None


def root_children(graph, stats, root, solver, expectimax, bounds=None) -> tuple:
    """``(positions, children, parent estimate)`` at decision node ``root``: what a root rule chooses among.

    ``children`` are ``(move index, visits, estimate or None)`` for the children a dive may enter (the solver's choice),
    in move order; an estimate is the child's mean, its value under expectimax (``phases``' ``_visits_estimate``).
    """
    kids = children_made(graph, stats, root)
    positions = _open_positions(graph, kids, graph.kind[root], solver, bounds)
    return tuple(positions), tuple((j, *_estimate(stats, kids[j], expectimax)) for j in positions), \
        _estimate(stats, root, expectimax)[1]


def _estimate(stats, i, expectimax):
    """``(visits, estimate or None)`` of node ``i``: its mean, its value under expectimax."""
    n = stats.N[i]
    if not n:
        return 0, None
    v = stats.V[i]
    return n, v if expectimax and v is not None else stats.S[i] / n


def _options_back(g, stats, path, movers, res, fresh, expectimax, graph_backup, solver, bounds, rave, chosen, keys):
    """What the options back up after the counts: expectimax or graph values (``movers``), proofs, bounds, AMAF."""
    if expectimax:
        if graph_backup:
            graph_back(stats, path, movers, res, stats.K)
        else:
            expectimax_back(g, stats, path, movers, stats.K)
    if solver is not None and not fresh:  # a dive that ended at a new node proves nothing: its children are not known yet
        solver.prove_path(path)
    if bounds is not None:
        bounds.update_path(path, fresh)
    if rave is not None:
        amaf_backup(stats.A, path, chosen, keys, res)
        stats.amaf_arrays = None


def _plan(g, stats, select, *, expectimax, solver, rollout, compiled_playouts, root_rule, touched, rave, bounds,
          graph_backup) -> tuple:
    """What the options ask of the loop: ``(mode, constant, key rule, compiled playouts, repeats, track, after, gate)``.

    ``mode`` is the built-in rule the loop rates inline (1 UCB1, 2 the tutorial's; 0: ``select`` is called, and RAVE
    rates each child itself) with its ``constant``; its keys are kept in ``stats.K`` (``use_keys``) and ``key rule`` is
    the rule whose keys the counts keep (0 under expectimax: the values keep them). ``track``: the path is kept in order
    (the options that read it); ``after``: the options back up more than the counts; ``gate``: nothing asks for the
    Python loop, so the compiled loop may run the dives (``_kernel.run``: the plain search, or with the solver).
    """
    if graph_backup and g.num_players > 2:
        raise ValueError("backup='graph' values a child for its parent's mover: one or two players (zero-sum)")
    repeats = may_repeat(g.game)
    if expectimax:
        stats.use_values()
    # RAVE rates each child with its move's AMAF statistics: not inline
    mode, rule_c = getattr(select, "inline", (0, None)) if rave is None else (0, None)
    stats.rule_keys(mode, rule_c)
    key_rule = 0 if expectimax else mode  # 1 or 2: the counting loop keeps the keys (under expectimax: the values)
    compiled = rollout is None and compiled_playouts and rave is None
    after = solver is not None or expectimax or rave is not None or bounds is not None
    track = after or repeats  # the path in order: the options that read it
    gate = all(((mode or rave is not None), (root_rule, touched, bounds) == (None,) * 3, compiled_playouts,
                rollout is None or getattr(rollout, "in_place", None) == "decisive_payoff",
                not any((expectimax, repeats, graph_backup))))  # (the solver, RAVE, decisive playouts: compiled too)
    return mode, rule_c, key_rule, compiled, repeats, track, after, gate


def _past_chance(g, stats, d, k, rnd, rng) -> tuple:
    """``(node, kind)``: from node ``d`` of kind ``k``, the outcomes drawn until a node that is not a chance node.

    A node not expanded yet is expanded (the working lists grow with it); the draw of ``draw``, inline for a slot table.
    """
    kind, chance = g.kind, g.chance
    while True:
        if k == UNSEEN:
            k = g.expand(d)
            stats.grow()
        if k != CHANCE_NODE:
            return d, k
        e = chance[d]
        if e[0] is not None:  # the draw of ``draw``, inline: a slot table
            j = e[0][int(rnd() * e[1])]
            c = e[3][j]
            d = c if c is not None else g.outcome_child(d, j)
        else:
            d = draw(g, d, rng)
        k = kind[d]


def _ucb1_pick(K, N, logs, c):
    """``pick`` for UCB1 (``ucb1_score``) of constant ``c``: the keys ``K`` are the means, inline.

    The log of the parent's visits comes from a table (``_parent_log``); an unvisited child (0 or None) is entered
    first, in move order. (A closure: the loop calls it at every step, and a closure's call costs the least.)
    """
    sqrt, inf = _sqrt, _inf

    def pick(options, ni, i, d, k, path):
        try:
            lp = logs[ni]
        except IndexError:
            lp = _parent_log(logs, ni)
        except TypeError:  # a count that is not a whole number (a tree given so)
            lp = _log(ni)
        best, best_rating = None, -inf
        try:
            for child in options:
                if (r := K[child] + c * sqrt(lp / N[child])) > best_rating:
                    best, best_rating = child, r
        except (ZeroDivisionError, TypeError):  # unvisited (0 or None): the first in move order
            best = child
        except ValueError:  # log 0 (a parent of no visits in a given tree): one child needs no rating
            if len(options) != 1:
                raise
            best = options[0]
        return best

    return pick


def _key_pick(K):
    """``pick`` for the tutorial's rule (``ucb_score``): the ratings are the keys ``K``; an unvisited child first."""
    inf = _inf

    def pick(options, ni, i, d, k, path):
        best, best_rating = None, -inf
        try:
            for child in options:
                if (r := K[child]) > best_rating:
                    best, best_rating = child, r
        except TypeError:  # unvisited (None): the first in move order
            best = child
        except ValueError:  # a rating undefined (a tree given so): one child needs no rating
            if len(options) != 1:
                raise
            best = options[0]
        return best

    return pick


def _picker(g, stats, select, mode, rule_c, *, root, root_rule, solver, expectimax, rave, bounds, chosen):
    """``pick(options, parent visits, node, decision, player, path)``: the child a dive enters at a decision.

    The built-in rules inline (``_ucb1_pick``, ``_key_pick``), RAVE / GRAVE (``rave_picker``), or ``select``; with a
    ``root_rule``, the root's child is the root rule's whenever the root is a decision of more than one open child
    (``root_children``).
    """
    if mode == 1:
        pick = _ucb1_pick(stats.K, stats.N, stats.logs, rule_c)
    elif mode == 2:
        pick = _key_pick(stats.K)
    elif rave is not None:
        pick = rave_picker(g, stats, solver, rave, chosen, bounds)
    else:
        def pick(options, ni, i, d, k, path):
            return options[0] if len(options) == 1 else select(options, stats, ni)
    if root_rule is None:
        return pick
    kind, kids, below = g.kind, g.kids, pick

    def pick(options, ni, i, d, k, path):
        if i != root or kind[root] < 0 or len(options) < 2:
            return below(options, ni, i, d, k, path)
        positions, children, parent = root_children(g, stats, root, solver, expectimax, bounds)
        j = positions[root_rule.choose(children, parent)]
        if rave is not None:
            chosen.append((kind[root], g.moves[root][j]))
        return kids[root][j]

    return pick


def _parts(g, stats, rng, select, mode, rule_c, compiled, *, root, root_rule, solver, expectimax, rollout, rave,
           bounds) -> tuple:
    """``(leaf, replay, pick, at_root, at_node, open, chosen, keys, groups)``: the loop's steps, each option bound once.

    ``leaf(i)`` and ``replay(i)`` play one game from node ``i`` (``leaf``: a new node, on the game's kernel or the graph
    when ``compiled``; ``replay``: through the protocol) and give ``(rescaled payoff, payoff, terminal node or None)``;
    ``pick`` is ``_picker``'s; ``at_root``, ``at_node`` and ``open`` (``(kept, choose)``) are the solver's and the
    bounds' (``proofs_of``, ``open_steps``); ``chosen`` and ``keys`` hold a dive's moves for RAVE; ``groups[m]``, the
    nodes of a dive player ``m`` moved into.
    """
    chosen, keys = [], set()
    kernel = None if rave is None else _played_kernel(g.game, rollout)  # looked up once a search
    replay = partial(_play_out, g, rng, rollout, None if rave is None else keys, kernel)  # (the node last: no frame)
    leaf = partial(_random_finish, g, rng.random, rng, _finisher(g, rng)) if compiled else replay
    pick = _picker(g, stats, select, mode, rule_c, root=root, root_rule=root_rule, solver=solver,
                   expectimax=expectimax, rave=rave, bounds=bounds, chosen=chosen)
    at_root, at_node = proofs_of(solver, bounds)
    groups = [[] for _ in range(g.num_players)]
    return leaf, replay, pick, at_root or _no_proof, at_node, open_steps(solver, bounds, g.kids), chosen, keys, groups


def _compiled_loop(gate, g, stats, root, root_mover, n, rng, mode, rule_c, solver, stop, rave, rollout, until):
    """The compiled loop's result of the dives (``_kernel.run``) when ``gate`` lets it run them, else None."""
    return _kernel.run(g, stats, root, root_mover, n, rng, mode, rule_c, solver, stop, rave, rollout, until) if gate else None


def _count_back(stats, groups, res, key_rule, z, touched) -> None:
    """The backup's counts: each mover's result to its nodes of the dive at once (``touched`` gets the nodes).

    The loop is written per rule (``key_rule`` 1: UCB1's mean, 2: the
    tutorial's ``ucb_score`` with ``z``): the key of a node follows its counts.
    """
    N, S, W, D, K = stats.N, stats.S, stats.W, stats.D, stats.K
    for m, nodes in enumerate(groups):
        if not nodes:
            continue
        if touched is not None:
            touched.extend(nodes)
        x = res[m]
        if key_rule == 1:
            for node in nodes:
                N[node] = c = N[node] + 1
                S[node] = s = S[node] + x
                K[node] = s / c
        elif key_rule == 2:
            for node in nodes:
                N[node] = c = N[node] + 1
                S[node] = s = S[node] + x
                try:
                    K[node] = ucb_score(s, c, z)
                except ValueError:  # a score above the visits (a tree given so): an error when rated
                    K[node] = _UNRATED
        else:
            for node in nodes:
                N[node] += 1
                S[node] += x
        if x > 0.5:
            for node in nodes:
                W[node] += 1
        elif x == 0.5:
            for node in nodes:
                D[node] += 1
        nodes.clear()


def dives(graph, stats, root, root_mover, n, rng, select, *, expectimax=False, solver=None, rollout=None,
          stop_when_proven=False, compiled_playouts=True, root_rule=None, touched=None, rave=None, bounds=None,
          graph_backup=False, until=None):
    """Run up to ``n`` dives from ``root``; return ``(dives run, last path, payoff, proven value)``.

    ``payoff`` is the last dive's result as the game pays it (``phases.uct``'s payoff: the terminal state's payoff, the
    playout's, or the exact value of the proven node that ended it), or None when no dive ran.

    The last path (its stored nodes, root first) is kept when the options read it (the solver, expectimax, states that
    repeat), else it is None.

    ``stats`` (a ``Stats`` of ``graph``) grows in place. ``select(children, stats, parent_visits)`` picks the child to
    enter (``user_selector``; the built-in rules run inline). ``touched``, a list, if given, gets every node whose
    counts a dive changed. A random playout runs as ``_random_finish`` tells (``compiled_playouts=False``: through the
    protocol, the same draws). The options, each through its module: ``solver`` (a ``Solver``), ``bounds`` (a
    ``Bounds``), ``rave`` (``(k, rave_ref, c)``, the AMAF statistics in ``stats.A``), ``graph_backup`` (with
    ``expectimax``; the edge visits in ``stats.G``), ``root_rule`` (a ``SequentialHalving`` choosing the root's child).
    ``until``: a time (``time.perf_counter``) the compiled rules' loop returns by, fewer dives run then
    (``_rules_kernel.run_rules``; any other loop runs its ``n``).

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._records import ucb1_selector
    >>> graph, stats, root = started(Nim(heap=3, max_take=2))
    >>> done, path, payoff, exact = dives(graph, stats, root, 1, 50, random.Random(1), ucb1_selector())
    >>> done, path, payoff, exact
    (50, None, (1, -1), None)
    >>> sorted((graph.state(i)["heap"], graph.state(i)["player"], stats.N[i]) for i in range(len(graph)))
    [(0, 0, 42), (0, 1, 4), (1, 0, 5), (1, 1, 43), (2, 1, 6), (3, 0, 50)]

    With a ``Solver`` the search stops once the root is proven:

    >>> stats = Stats(graph)
    >>> solver = Solver(graph, stats)
    >>> dives(graph, stats, root, 1, 50, random.Random(1), ucb1_selector(), solver=solver,
    ...       stop_when_proven=True)[0]
    5
    >>> solver.lookup(root)[0]
    (Fraction(1, 1), Fraction(-1, 1))
    """
    g = graph
    mode, rule_c, key_rule, compiled, repeats, track, after, gate = _plan(
        g, stats, select, expectimax=expectimax, solver=solver, rollout=rollout, compiled_playouts=compiled_playouts,
        root_rule=root_rule, touched=touched, rave=rave, bounds=bounds, graph_backup=graph_backup)
    found = _compiled_loop(gate, g, stats, root, root_mover, n, rng, mode, rule_c, solver, stop_when_proven, rave,
                           rollout, until)
    if found is not None:
        return found
    leaf, replay, pick, at_root, at_node, (kept, choose), chosen, keys, groups = _parts(
        g, stats, rng, select, mode, rule_c, compiled, root=root, root_rule=root_rule, solver=solver,
        expectimax=expectimax, rollout=rollout, rave=rave, bounds=bounds)
    kind, kids_, u, states, N, rnd = g.kind, g.kids, g.u, g.states, stats.N, rng.random  # locals: the loop is hot
    done = 0  # the dives run; then the last dive's path and movers, the node it ended at, its proof and payoff:
    path = movers = last = exact = raw = None
    for _ in range(n):
        pv = at_root(root)
        if pv is not None and stop_when_proven:  # proven by the solver, or its bounds met
            break
        done += 1
        i = root
        depth, cap = 0, len(states)  # a dive through distinct nodes is no longer than the nodes
        groups[root_mover].append(root)
        if track:
            path, on_path, movers = [root], {root}, [root_mover]
            chosen.clear()
            keys.clear()
        exact, fresh = None, False
        ni = N[i]
        while pv is None:  # (a proven node ends the dive: ``pv`` is its proof)
            if ni is None:  # a new node: one playout from it; the backup counts it from 0
                res, raw, last = leaf(i)
                N[i] = 0
                fresh = True
                break
            k, d = kind[i], i
            if k < 0:  # not a decision: expanded, and the chance outcomes drawn
                d, k = _past_chance(g, stats, i, k, rnd, rng)
                if k == END:
                    res, last = u[d], d
                    break
            options = kids_[d] or children_made(g, stats, d)  # a decision's children, made when first asked
            options = kept(d) or choose(d, options, k)  # the solver's choice, then the bounds' (``open_steps``)
            i = pick(options, ni, i, d, k, path)
            if track:
                if repeats:  # (the nodes on the path, as a set: in a game whose states may repeat alone)
                    if i in on_path:  # back to a state of this dive: one playout from it ends the dive
                        res, raw, last = replay(i)
                        break
                    on_path.add(i)
                path.append(i)
                if expectimax:  # (the movers: read by expectimax's backup alone)
                    movers.append(k)
                pv = at_node(i)  # every child of the decision was looked up: its proof, if any, is kept
            depth += 1
            if depth > cap:
                cap = _bound(g, root, i, depth)
            groups[k].append(i)
            ni = N[i]
        else:  # a proven node ended the dive (stored by the backup if it is new)
            res, last, exact = pv[1], None, pv[0]
            if ni is None:
                N[i] = 0
        _count_back(stats, groups, res, key_rule, rule_c, touched)
        if after:
            _options_back(g, stats, path, movers, res, fresh, expectimax, graph_backup, solver, bounds, rave, chosen,
                          keys)
    return done, path, _payoff(g, exact, last, raw), exact


def _bound(g, root, i, depth) -> int:
    """A dive's bound on its steps, the graph's nodes now, after ``depth`` steps to node ``i``: past it, the dive went
    round a cycle of states in a game that does not say ``may_repeat()`` (``cycle_found``'s error)."""
    cap = len(g.states)
    if depth > cap:
        raise cycle_found(g.game, g.states[root], g.states[i])
    return cap


def _payoff(g, exact, last, raw):
    """The last dive's payoff: the proof that ended it, the terminal node's payoff, or the playout's (None: no dive)."""
    if exact is not None:
        return exact
    if last is not None:
        return g.payoff_at(last)
    return raw
