"""The one descent of fnmcts's Monte Carlo tree search, fast, over a compiled graph (``_graph``).

``dives`` runs the dives of ``fnmcts.mcts.phases`` (select, expand, simulate,
back up) from a root, on working statistics (``Stats``: flat lists indexed by
node, mutated in place: the transient side of Clojure's transient /
persistent! idiom; the callers read them from a persistent tree as they go and
write back the records that changed). Every option of the phases is an option
of this one loop: the rule (the built-in ones rated inline from kept keys), the
backup (``'mean'`` or ``'expectimax'``), MCTS-Solver (``Solver``), score bounds
(``Bounds``), RAVE / GRAVE (AMAF statistics in ``Stats.A``), a rollout agent,
games whose states repeat. Property tests hold it to the phases, draw
for draw, on generated games.

A dive, as ``fnmcts.mcts.phases.uct``:

* at a node not in the tree, play one game to the end from it (random moves,
  or ``rollout``), add the node with that result and stop;
* at a terminal node, take its payoff; at a proven node (solver), its value;
* else draw the chance outcomes until a player is to move (a roll with no move
  left ends the dive there), rate that player's children with the selection
  rule and go into the best (ties: the first in move order);
* the result goes back to every stored node on the path, for the player who
  moved into it: visits + 1, score + the payoff rescaled to [0, 1], and a win
  (above 1/2), a draw (1/2) or a loss.

In a game whose states may repeat (``may_repeat()``), a dive that comes back
to a state already on its path stops there and plays one game to the end from
it, as from a new node: the path holds each node once, and a cycle of stored
states cannot hold a dive for ever.

With the solver, a terminal node is proven at sight; a stored node keeps its
proof (the ``proven`` of its record), set when the backup of a dive that went
through it finds its children decide it (a decision when a child gives the
player to move the best payoff there is, one or two players, or when every
child is proven: the best of them; a chance node when every outcome is: the expectation, in exact
fractions); a state not stored that a dive passes through the dice is proven
from its children whenever asked. A dive that ended at a new node proves
nothing: that node's children are not known yet, and none is made to try (a
win is proven once a dive went through the node and found the winning child).
So the proofs live in the tree's records and
nowhere else: a search continued on the tree it returned proves what the
longer search would have. Proven values are exact payoff tuples, equal to
``fnmcts.exact.solve``'s (a property test checks it).

In a game whose states repeat the proofs stay sound: a node is proven only
from proven children, whose values are the game's true values, and the true
values satisfy the same equations. A chance cycle of states not stored proves
nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from math import inf as _inf, log as _log, sqrt as _sqrt

from ..limits import MAX_PLIES, cycle_found, past_budget
from ..matches import playout
from ..protocol import CHANCE, may_repeat, payoff_range
from . import _kernel
from ._graph import CHANCE_NODE, END, UNSEEN, draw
from ._records import _NO_EXTRAS, Record, builtin_rule, counts_of, rating, rating_selector, rave_score, ucb_score
from .phases import BOUNDS_WALK, CHANCE_WALK, decision_bounds, simulate

__all__ = ["Stats", "Solver", "Bounds", "dives", "node_value", "user_selector"]


class _Unrated:
    """The key of a node whose tutorial rating is undefined: comparing it raises, as the rating did."""

    def __gt__(self, other):
        raise ValueError("math domain error")

    __lt__ = __ge__ = __le__ = __gt__


_UNRATED = _Unrated()


class Stats:
    """The working statistics of a search, one entry per node of its graph.

    ``N`` visits (None: the node is not in the tree), ``S`` the score (sum of
    rescaled payoffs for the mover into the node), ``W`` wins, ``D`` draws,
    ``V`` the expectimax value (or None), ``P`` the proof (the exact value its
    record keeps, or None), ``E`` the score the ratings read (``S``, or ``V *
    N`` under expectimax), ``A`` (a dict: RAVE) the AMAF statistics of the
    nodes that keep some, ``{(player, move): [visits, score]}``, ``B`` (a
    dict: score bounds) the ``(pessimistic, optimistic)`` bounds of the nodes
    that keep them. ``lookup(state)``, if given, supplies the record of
    a state when its node first appears (a persistent tree read lazily: only
    the records a search meets are read); ``N0`` keeps the visits read, so the
    records that changed are known at the end. ``logs[n]`` is ``log(n)`` for
    the visit counts the search has met (UCB1 reads the log of the parent's
    visits at every step).

    ``K``, once a search with a built-in rule asks for it (``use_keys``), is per
    node the part of its rating that reads its own counts alone (None where
    ``N`` is None or 0): its mean ``E / N`` under UCB1 (rule 1), its whole
    ``ucb_score`` under the tutorial's rule (rule 2). Every change of the
    counts keeps it, so a rating computes it once per result, not once per
    child and step.

    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> stats = Stats(graph)
    >>> stats.known, stats.N[root], stats.counts(root)
    (1, None, None)
    >>> stats.set(root, (4, 3.0, 3, 0, None))
    >>> stats.counts(root), stats.use_keys(1, 2 ** 0.5)[root], stats.use_keys(2, 2)[root] == ucb_score(3.0, 4, 2)
    ((4, 3.0, 3, 0, None), 0.75, True)
    """

    def __init__(self, graph, lookup=None):
        self.graph = graph
        self.lookup = lookup
        self.N, self.S, self.W, self.D, self.V, self.P, self.N0 = [], [], [], [], [], [], []
        self.known = 0  # the graph's nodes the lists have taken in (they may hold more entries, for room)
        self.E = self.S
        self.K, self.key_rule = None, None
        self.logs = [-_inf]  # log 0: a visited child under a parent of no visits is rated as log(0) was: an error
        self.dropped = set()  # nodes a bounded tree dropped: written back even if they came back
        self.solver = None
        self.A = {}  # RAVE: node -> {(player, move): [visits, score]}, the AMAF statistics of its record
        self.B = {}  # score bounds: node -> (pessimistic, optimistic), the bounds of its record
        self.G = {}  # graph backup: node -> [own results' sum, {child: [edge visits, player choosing]}]
        self.grow()

    def use_values(self):
        """Keep ``E`` apart from ``S``: the ratings read the expectimax values."""
        if self.E is self.S:
            self.E = [s if v is None else v * n for s, v, n in zip(self.S, self.V, self.N)]
            if self.K is not None:
                self.K = [self.key(e, n) for e, n in zip(self.E, self.N)]

    def use_keys(self, rule, constant):
        """Keep ``K`` for built-in ``rule`` 1 (UCB1) or 2 (the tutorial's, with ``z`` = ``constant``); return it."""
        if self.key_rule != (rule, constant):
            self.key_rule = (rule, constant)
            key = self.key
            self.K = [None if n is None else key(e, n) for e, n in zip(self.E, self.N)]  # most nodes: not stored
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
        states = self.graph.states
        size = len(states)
        start = self.known
        if start >= size:
            return
        room = len(self.N)
        if size > room:
            more = max(size - room, room, 64)
            extra = [None] * more
            zeros = [0] * more
            self.N.extend(extra)
            self.N0.extend(extra)
            self.S.extend(zeros)
            if self.E is not self.S:
                self.E.extend(zeros)
            self.W.extend(zeros)
            self.D.extend(zeros)
            self.V.extend(extra)
            self.P.extend(extra)
            if self.K is not None:
                self.K.extend(extra)
        self.known = size
        if self.lookup is not None:
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
        n = self.N[i]
        return None if n is None else (n, self.S[i], self.W[i], self.D[i], self.V[i])

    def changed(self):
        """The nodes whose records differ from those read: ``(i, in the tree now)``."""
        N, N0, dropped = self.N, self.N0, self.dropped
        return [(i, n is not None) for i, n in enumerate(N) if n != N0[i] or (i in dropped and n is not None)]


_LOG_TABLE = 1 << 16
"""The largest visit count whose logarithm a search keeps in its table (``Stats.logs``)."""


def _parent_log(logs, n):
    """``log(n)`` for a visit count ``n`` past the end of the table ``logs``, growing it when ``n`` is near.

    The table doubles when a count reaches its end (up to ``_LOG_TABLE``
    entries), so it costs at most a few times the counts it serves; a count
    far beyond it (the root of a large tree given to continue) is computed.
    The same floats as ``math.log`` (the table holds its results).

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


_OPEN = object()
"""``Solver.plies``'s mark of a node on the walk (a cycle back to it counts as unknown)."""


class Solver:
    """The proofs of one search: ``lookup(node)`` is ``(exact value, rescaled floats)`` or None.

    ``proven`` holds the proofs of stored nodes (their records' ``proven``, and
    those a backup makes) and of terminal nodes (proven at sight);
    ``derived`` the proofs of nodes not stored that dives pass through the
    dice, worked out from their children when asked (``derive``) and kept while
    they hold (they always do, unless a bounded tree drops a node: then they
    are worked out again). The same proofs as ``fnmcts.mcts.phases.proof``.

    Proofs are compared by their floats while the floats of every value seen
    order them exactly (``floats_exact``: no two different values rounded to
    the same float, which a game paying whole numbers or simple fractions
    never comes near); else, where floats tie, by the exact values.

    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> solver = Solver(graph, Stats(graph))
    >>> solver.value((1, -1))
    ((1, -1), (1.0, 0.0))
    >>> end = graph.node(Nim(heap=3, max_take=2).state(0, 1))
    >>> solver.lookup(end), end in solver.proven
    (((Fraction(-1, 1), Fraction(1, 1)), (0.0, 1.0)), True)
    >>> solver.floats_exact, solver.value((Fraction(1, 3), 1 - Fraction(1, 10**30)))[1], solver.floats_exact
    (True, (0.6666666666666666, 1.0), False)
    """

    def __init__(self, graph, stats):
        self.graph = graph
        self.stats = stats
        stats.solver = self
        self.low, self.high = (Fraction(x) for x in payoff_range(graph.game))
        self.span = self.high - self.low
        self.proven = {}
        self.derived = {}
        self.shortcut = graph.num_players <= 2
        self.floats_exact = True
        self._exact_of = {0.0: self.low, 1.0: self.high}  # float -> the one value seen with it
        self._terminal = {}  # terminal node -> its proof
        self._of_payoff = {}  # payoff -> its proof (the first 4,096 payoffs seen): a game pays few different ones
        self._looked = set()  # children tuples whose every node ``lookup`` has seen: ``proven`` holds their proofs
        # per decision node, what its children's proofs decide, kept until one of them changes (``choices_at``):
        self.open = {}  # node -> the children a dive may enter (``choices``)
        self.decided = {}  # node -> its proof from its children (``derive``), or None
        self._parents = {}  # child -> the decision nodes whose ``open`` entry read it
        self._era = 0  # counts ``forget``: an entry worked out across one is not kept

    def value(self, exact):
        """``(exact, rescaled floats)`` for an exact payoff tuple."""
        low, span = self.low, self.span
        floats = tuple(float((x - low) / span) for x in exact)
        if self.floats_exact:
            seen = self._exact_of
            for x, f in zip(exact, floats):
                y = seen.setdefault(f, x)
                if y is not x and y != x:
                    self.floats_exact = False  # the proofs now compare by their exact values: the kept choices go
                    self.open.clear()
                    self.decided.clear()
                    self._era += 1
                    break
        return (exact, floats)

    def _kind(self, i):
        g = self.graph
        k = g.kind[i]
        if k == UNSEEN:
            k = g.expand(i)
            self.stats.grow()
        return k

    def lookup(self, i, passing=False, _open=()):
        """The proof of node ``i`` (terminal, stored, or ``passing`` through the dice and not stored), or None."""
        pv = self.proven.get(i)
        if pv is not None:
            return pv
        stats = self.stats
        if i >= stats.known:
            stats.grow()
        exact = stats.P[i]
        if exact is not None:
            pv = self.proven[i] = self.value(exact)
            return pv
        k = self.graph.kind[i]
        if k == UNSEEN:
            k = self._kind(i)
        if k == END:
            pv = self._terminal.get(i)
            if pv is None:
                g = self.graph
                pay = g.payoff_at(i)
                pv = self._of_payoff.get(pay)
                if pv is None:
                    pv = self.value(tuple(Fraction(x) for x in pay))
                    if len(self._of_payoff) < 4096:
                        self._of_payoff[pay] = pv
                self._terminal[i] = pv
            self.proven[i] = pv
            return pv
        if not passing or stats.N[i] is not None:
            return None
        pv = self.derived.get(i)
        if pv is None and i not in _open:
            pv = self.derive(i, _open + (i,))
            if pv is not None:
                self.derived[i] = pv
        return pv

    def derive(self, i, _open=()):
        """The proof of node ``i`` from its children's, if they decide it, else None (``phases.derive``)."""
        g = self.graph
        k = self._kind(i)
        if k == END:
            return self.lookup(i)
        if k == CHANCE_NODE:
            outcomes = g.outcome_children(i)
            self.stats.grow()
            total = None
            for p, child in zip(g.chance[i][4], outcomes):
                pv = self.lookup(child, True, _open)
                if pv is None:
                    return None
                v = pv[0]
                total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
            return self.value(total)
        kids = g.children(i)
        self.stats.grow()
        best, unproven = None, False
        shortcut = self.shortcut
        for child in kids:
            pv = self.lookup(child)
            if pv is None:
                if not shortcut:
                    return None
                unproven = True
            elif shortcut and self._best(pv, k):
                return pv
            elif best is None or self._above(pv, best, k):
                best = pv
        return None if unproven else best

    def prove_path(self, path):
        """After a backup: prove the path's nodes from their children, deepest first, while they are decided.

        Each proof is recorded (``stats.P``) so it goes into the node's record.
        """
        P, proven, decided, lookup = self.stats.P, self.proven, self.decided, self.lookup
        kind, kids = self.graph.kind, self.graph.kids
        for node in reversed(path):
            pv = proven.get(node)
            if pv is None:
                pv = lookup(node)
            if pv is None:
                if node in decided:
                    pv = decided[node]
                elif kind[node] >= 0:  # a decision: worked out and kept as a dive would
                    self.choices_at(node, kids[node] or self.graph.children(node), kind[node])
                    pv = decided.get(node)
                else:
                    pv = self.derive(node)
                if pv is None:
                    return
                proven[node] = pv
                self._proved(node)
            P[node] = pv[0]

    def _proved(self, i):
        """Node ``i`` was just proven: the kept choices of the decisions above it are worked out again."""
        parents = self._parents.get(i)
        if parents:
            open_, decided = self.open, self.decided
            for p in parents:
                open_.pop(p, None)
                decided.pop(p, None)

    def forget(self, i):
        """Node ``i`` left the tree: its proof goes, and every proof derived through the dice is worked out again."""
        self.proven.pop(i, None)
        self.derived.clear()
        self._looked.clear()
        self.open.clear()
        self.decided.clear()
        self._era += 1

    def _best(self, pv, k):
        """Whether proof ``pv`` gives player ``k`` the best payoff there is."""
        return pv[1][k] == 1.0 and (self.floats_exact or pv[0][k] == self.high)

    def _above(self, pv, other, k):
        """Whether proof ``pv`` is worth more than ``other`` to player ``k`` (exactly).

        The floats are rounded from the exact values by an increasing map: floats
        that differ order the values; equal floats mean equal values unless two
        values seen share a float (then the exact values are compared).
        """
        a, b = pv[1][k], other[1][k]
        if a != b:
            return a > b
        return not self.floats_exact and pv[0][k] > other[0][k]

    def favours(self, exact, k) -> int:
        """1 if the value ``exact`` is above the middle of the payoffs for player ``k``, -1 below, 0 at it."""
        twice = 2 * exact[k]
        middle = self.low + self.high
        return (twice > middle) - (twice < middle)

    def plies(self, i, memo=None):
        """How many steps (moves and chance outcomes) the line of node ``i``'s proof lasts; None if unknown.

        A terminal node: 0 (an end of a game's view that stands for a forced
        win, ``fnmcts.mcts.enhancements.ProvingGame``: the plies that win takes,
        its ``end_plies``). A chance node: one more than its longest outcome.
        A decision: one more than the proven children worth the node's value
        to the player deciding there: the shortest of them when that value is
        above the middle of the payoffs (a winner hurries), the longest when
        it is at or below (a loser resists). ``memo`` (a dict) carries the
        answers across calls on the same proofs.

        Read off what the search holds, and nothing more (``known``): the
        proofs it made or read, over the children and outcomes its dives
        made. Nothing is expanded or worked out anew, so the walk costs at
        most the nodes the search made, whatever the game (a win proven
        before all its children were counts the shortest win proven so far).

        In misère Nim(7, 3) (who takes the last loses) the first player wins by
        taking 2 (heap 5: the second player's loss in 3 more steps); taking 1
        and taking 3 are not proven when the search stops (None: unknown):

        >>> import random
        >>> from fnmcts.games.nim import Nim
        >>> from ._graph import CompiledGraph
        >>> from ._records import ucb1_selector
        >>> game = Nim(heap=7, max_take=3)
        >>> graph = CompiledGraph(game)
        >>> root = graph.node(game.start())
        >>> stats = Stats(graph)
        >>> solver = Solver(graph, stats)
        >>> _ = dives(graph, stats, root, 1, 1000, random.Random(1), ucb1_selector(), solver=solver,
        ...           stop_when_proven=True)
        >>> solver.plies(root), [solver.plies(graph.node(game.play(game.start(), m))) for m in (1, 2, 3)]
        (4, [None, 3, None])
        >>> size = len(graph)
        >>> _ = [solver.plies(x, {}) for x in range(size)]
        >>> len(graph) == size  # the walk made no node
        True
        """
        memo = {} if memo is None else memo
        if i in memo:
            return memo[i]
        open_, known, below = _OPEN, self.known, self._below
        stack = [(i, False)]
        while stack:
            x, ready = stack.pop()
            if ready:
                memo[x] = self._plies_of(x, memo)
                continue
            if x in memo:
                continue
            memo[x] = open_  # on the walk: a cycle back to it counts as unknown
            stack.append((x, True))
            if known(x) is None:
                continue
            stack.extend((c, False) for c in below(x) if c not in memo and known(c) is not None)
        return memo[i]

    def known(self, i):
        """The proof of node ``i`` the search holds (stored, terminal, derived through the dice), or None: nothing worked out.

        A node not expanded yet is not known; a stored one is proven by its
        record or by the search, a node passed through the dice by what
        ``derive`` found when a dive asked. No node is expanded or made.
        """
        pv = self.proven.get(i)
        if pv is not None:
            return pv
        pv = self.derived.get(i)
        if pv is not None:
            return pv
        k = self.graph.kind[i]
        if k == UNSEEN:
            return None
        if k == END or (i < self.stats.known and self.stats.P[i] is not None):
            return self.lookup(i)
        return None

    def _below(self, x):
        """The nodes the search made below node ``x``: a decision's children, a chance node's outcomes (() if not all made)."""
        g = self.graph
        k = g.kind[x]
        if k >= 0:
            return g.kids[x] or ()
        if k == CHANCE_NODE:
            outcomes = g.chance[x][3]
            return () if None in outcomes else outcomes
        return ()

    def _plies_of(self, x, memo):
        """``plies`` of node ``x`` from the answers of its children in ``memo``."""
        pv = self.known(x)
        if pv is None:
            return None
        g = self.graph
        k = g.kind[x]
        if k == UNSEEN:  # proven by its record (a tree given), never entered: its line is not known
            return None
        if k == END:
            ends = getattr(g.game, "end_plies", None)
            return 0 if ends is None else ends(g.states[x])
        if k == CHANCE_NODE:
            outcomes = self._below(x)
            below = [memo.get(c, _OPEN) for c in outcomes]
            if not outcomes or any(p is None or p is _OPEN for p in below):
                return None
            return 1 + max(below)
        value = pv[0][k]
        below = []
        for c in self._below(x):
            cv = self.known(c)
            if cv is not None and cv[0][k] == value:
                p = memo.get(c)
                if p is not None and p is not _OPEN:
                    below.append(p)
        if not below:
            return None
        return 1 + (min(below) if self.favours(pv[0], k) > 0 else max(below))

    def choices(self, kids, k):
        """The children a dive may enter at a decision of player ``k``, in move order (``phases.open_children``).

        A child proven to give ``k`` the best payoff alone; else the unproven
        children and the best proven one (unless it is proven at the worst payoff
        and an unproven child is left).
        """
        proven = self.proven
        if kids in self._looked:  # each child looked up once: their proofs are all in ``proven`` since
            if proven.keys().isdisjoint(kids):
                return kids
            proofs = list(map(proven.get, kids))
        else:
            lookup = self.lookup
            proofs = [lookup(child) for child in kids]
            self._looked.add(kids)
        best = top = None
        for child, pv in zip(kids, proofs):
            if pv is not None:
                if self.shortcut and self._best(pv, k):
                    return (child,)
                if top is None or self._above(pv, top, k):
                    best, top = child, pv
        if best is None:
            return kids
        keep_best = top[0][k] > self.low
        open_ = tuple(c for c, pv in zip(kids, proofs) if pv is None or (keep_best and c == best))
        return open_ or (best,)

    def choices_at(self, d, kids, k):
        """``choices(kids, k)`` at decision node ``d`` (its children ``kids``), kept in ``open`` with ``derive(d)``.

        One pass over the children's proofs works out both; they stay in
        ``open`` and ``decided`` until a child of ``d`` is proven (``_proved``),
        a proof is forgotten, or the proofs start comparing by their exact
        values: a dive reads them again without looking at the children.
        """
        era = self._era
        lookup = self.lookup
        proofs = [lookup(child) for child in kids]
        shortcut, best_of, above = self.shortcut, self._best, self._above
        best = top = None
        unproven = False
        for child, pv in zip(kids, proofs):
            if pv is None:
                unproven = True
            elif shortcut and best_of(pv, k):
                best, top, unproven = child, pv, False
                open_ = (child,)
                break
            elif top is None or above(pv, top, k):
                best, top = child, pv
        else:
            if best is None:
                open_ = kids
            else:
                keep_best = top[0][k] > self.low
                open_ = tuple(c for c, pv in zip(kids, proofs) if pv is None or (keep_best and c == best)) or (best,)
        if era == self._era:
            self.open[d] = open_
            self.decided[d] = None if unproven else top
            if d not in self._parents.get(kids[0], ()):
                parents = self._parents
                for child in kids:
                    known = parents.get(child)
                    if known is None:
                        parents[child] = [d]
                    elif d not in known:
                        known.append(d)
        return open_

    def open_positions(self, kids, k) -> tuple:
        """The positions in ``kids`` of ``choices(kids, k)``: exactly ``phases.open_children``'s indices."""
        lookup = self.lookup
        proofs = [lookup(child) for child in kids]
        best = top = None
        for j, pv in enumerate(proofs):
            if pv is not None:
                if self.shortcut and self._best(pv, k):
                    return (j,)
                if top is None or self._above(pv, top, k):
                    best, top = j, pv
        if best is None:
            return tuple(range(len(kids)))
        keep_best = top[0][k] > self.low
        open_ = tuple(j for j, pv in enumerate(proofs) if pv is None or (keep_best and kids[j] == kids[best]))
        return open_ or (best,)


class Bounds:
    """The score bounds of one search: ``phases.bounds_of``, ``derive_bounds`` and ``bounded_children`` on nodes.

    A stored node's bounds live in ``stats.B`` (read from its record, set by
    ``update_path`` after each dive); a terminal node's are its payoff; a node
    not stored that a dive passes through the dice takes them from its
    children whenever asked; any other node the whole payoff range. Exact
    fractions throughout, so every comparison is the phases'.

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> from ._records import ucb1_selector
    >>> game = Nim(heap=3, max_take=2)
    >>> graph = CompiledGraph(game)
    >>> root = graph.node(game.start())
    >>> stats = Stats(graph)
    >>> bounds = Bounds(graph, stats)
    >>> bounds.of(root)
    ((Fraction(-1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(1, 1)))
    >>> _ = dives(graph, stats, root, 1, 30, random.Random(1), ucb1_selector(), bounds=bounds)
    >>> bounds.of(root)  # the first player wins misere Nim(3, 2): the bounds met
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))
    """

    def __init__(self, graph, stats):
        self.graph, self.stats = graph, stats
        low, high = (Fraction(x) for x in payoff_range(graph.game))
        players = graph.num_players
        self.whole = ((low,) * players, (high,) * players)
        self.total = low + high if players == 2 else None
        self._terminal = {}

    def _kind(self, i):
        g = self.graph
        k = g.kind[i]
        if k == UNSEEN:
            k = g.expand(i)
            self.stats.grow()
        return k

    def of(self, i, passing=False, _open=None):
        """``(pessimistic, optimistic)`` of node ``i`` (``phases.bounds_of``)."""
        k = self._kind(i)
        if k == END:
            b = self._terminal.get(i)
            if b is None:
                g = self.graph
                v = tuple(Fraction(x) for x in g.payoff_at(i))
                b = self._terminal[i] = (v, v)
            return b
        stats = self.stats
        if i >= stats.known:
            stats.grow()
        if stats.N[i] is not None:
            return stats.B.get(i, self.whole)
        if not passing:
            return self.whole
        if _open is None:  # node -> its bounds once worked out in this walk, None while on it
            _open = {}
        elif i in _open:
            found = _open[i]
            return self.whole if found is None else found
        if len(_open) >= BOUNDS_WALK:  # ``phases.bounds_of``: the rest of a web of chance nodes is not read
            return self.whole
        _open[i] = None
        found = _open[i] = self.derive(i, _open)
        return found

    def derive(self, i, _open=None):
        """The bounds of node ``i`` from its children's (``phases.derive_bounds``)."""
        g = self.graph
        k = self._kind(i)
        if k == END:
            return self.of(i)
        if k == CHANCE_NODE:
            outcomes = g.outcome_children(i)
            self.stats.grow()
            low = high = None
            if _open is None:
                _open = {}
            for p, child in zip(g.chance[i][4], outcomes):
                lo, hi = self.of(child, True, _open)
                if low is None:
                    low, high = tuple(p * x for x in lo), tuple(p * x for x in hi)
                else:
                    low = tuple(a + p * x for a, x in zip(low, lo))
                    high = tuple(a + p * x for a, x in zip(high, hi))
            return low, high
        kids = g.children(i)
        self.stats.grow()
        return decision_bounds([self.of(c) for c in kids], k, self.total)

    def solved(self, i):
        """``(exact value, rescaled floats)`` of node ``i`` if its bounds meet, else None."""
        lo, hi = self.of(i)
        if lo == hi:
            return lo, self.graph.rescale(lo)
        return None

    def keep(self, nodes, k) -> tuple:
        """The positions in ``nodes`` a dive may enter at a decision of player ``k`` (``phases.bounded_children``)."""
        floors = [self.of(c) for c in nodes]
        floor = max(lo[k] for lo, _ in floors)
        kept = tuple(j for j, (_, hi) in enumerate(floors) if hi[k] > floor)
        return kept or self.guaranteed(nodes, k)

    def guaranteed(self, nodes, k) -> tuple:
        """The positions in ``nodes`` whose pessimistic bound for player ``k`` is the best among them."""
        lows = [self.of(c)[0][k] for c in nodes]
        floor = max(lows)
        return tuple(j for j, lo in enumerate(lows) if lo == floor)

    def choices(self, nodes, k) -> tuple:
        """``nodes`` but those ``keep`` drops, in order."""
        kept = self.keep(nodes, k)
        return nodes if len(kept) == len(nodes) else tuple(nodes[j] for j in kept)

    def update_path(self, path, fresh):
        """After a backup: the bounds of the path's nodes from their children, deepest first (a new node's: not yet)."""
        B, derive, walk = self.stats.B, self.derive, {}  # one walk of the dice a backup (``phases.backup``)
        for node in reversed(path[:-1] if fresh else path):
            B[node] = derive(node, walk)


def _open_positions(graph, kids, k, solver, bounds) -> tuple:
    """The positions in ``kids`` (a decision of player ``k``) a dive may enter: the solver's, then the bounds'."""
    positions = solver.open_positions(kids, k) if solver is not None else tuple(range(len(kids)))
    if bounds is not None:
        positions = tuple(positions[j] for j in bounds.keep([kids[p] for p in positions], k))
    return positions


def node_value(graph, stats, i, mover, fallback, _open=None):
    """One expectimax step at node ``i`` for ``mover``, over the stored children (``phases.node_value``).

    At the end: the rescaled payoff; at a chance node: the outcomes' values
    weighted by their exact probabilities; at a decision: the best child that
    is stored (its value, else its mean) or terminal, seen from the player
    deciding (its complement when another player decides); ``fallback`` where
    no child is known, and for a chance node met again below itself (chance
    outcomes that roll again, in a game whose states may repeat). A chance
    node met again elsewhere below takes the value worked out for it the first
    time (``phases.node_value``): a web of chance nodes costs one visit each,
    not one per path through it, and past ``phases.CHANCE_WALK`` chance nodes
    in one step, ``fallback``.

    In misere Nim(3, 2) the first player wins; after 50 dives the stored
    children say so, for either mover:

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> from ._records import ucb1_selector
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> stats = Stats(graph)
    >>> _ = dives(graph, stats, root, 1, 50, random.Random(1), ucb1_selector())
    >>> node_value(graph, stats, root, 0, 0.5), node_value(graph, stats, root, 1, 0.5)
    (1.0, 0.0)
    """
    g = graph
    k = g.kind[i]
    if k == UNSEEN:
        k = g.expand(i)
        stats.grow()
    if k == END:
        return g.u[i][mover]
    if k == CHANCE_NODE:
        children = g.outcome_children(i)
        stats.grow()
        if _open is None:  # chance node -> its value once worked out in this call, None while on the walk
            _open = {}
        elif i in _open:
            v = _open[i]
            return fallback if v is None else v
        if len(_open) >= CHANCE_WALK:  # ``phases.node_value``: the rest of a web of chance nodes is not read
            return fallback
        _open[i] = None
        v = _open[i] = sum(float(p) * node_value(g, stats, c, mover, fallback, _open)
                           for p, c in zip(g.chance[i][4], children))
        return v
    kids = g.children(i)
    stats.grow()
    N, S, V = stats.N, stats.S, stats.V
    best = None
    for child in kids:
        n = N[child]
        if n is not None:
            v = V[child] if V[child] is not None else (S[child] / n if n else 0.0)
        else:
            kc = g.kind[child]
            if kc == UNSEEN:
                kc = g.expand(child)
                stats.grow()
            if kc != END:
                continue
            v = g.u[child][k]
        if best is None or v > best:
            best = v
    if best is None:
        return fallback
    return best if k == mover else 1.0 - best


def user_selector(rule, expectimax=False):
    """``select(children, stats, parent_visits)`` rating every child with ``rule`` (``_records.rating``).

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(counts=lambda i: [(3, 0, 0, 0, None), (3, 2, 2, 0, None)][i])
    >>> user_selector(lambda rec, parent_visits: rec["win"])((0, 1), stats, 6)
    1
    """
    builtin = builtin_rule(rule) or ()
    return rating_selector(lambda counts, parent: rating(rule, counts, parent, expectimax, builtin))


def _random_finish(g, i, rnd, rng, off):
    """``(rescaled payoff, payoff or None, terminal node or None)`` of random moves from node ``i`` to the end.

    The draws are ``playout``'s.

    The walk follows the graph through the decisions whose children the descent
    made (and the chance outcomes drawn before: no state hashed, no protocol
    call); at the first state past them it leaves the graph and ``off(state)``
    ends the game (the game's ``random_payoff`` kernel, or ``playout`` through
    the protocol; the terminal node is then None and the payoff is given;
    at a terminal node of the graph the payoff is None: the node's state has it). It makes no node and expands
    none: a playout builds nothing for the states it passes. A game's own
    tables (``compiled_graph()``) are read as the graph. The uniform draw of
    ``random_agent`` and the chance draw of ``draw``, inline.
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

    On the game's ``random_payoff`` kernel when it has one (as
    ``phases.simulate``), else ``matches.playout`` through the protocol; each
    payoff is rescaled once (the first 4,096 kept: a game of many scores).
    """
    game = g.game
    kernel = getattr(game, "random_payoff", None)
    rescale, rescaled = g.rescale, {}
    check = g.check_payoff

    def off(state):
        if kernel is not None:
            end, pay = state, kernel(state, rng)
        else:
            end = playout(game, state, rng)
            pay = game.payoff(end)
        res = rescaled.get(pay) if type(pay) is tuple else None
        if res is None:  # a payoff met for the first time: checked (its length, its range), then rescaled
            pay = check(end, pay, "payoff" if kernel is None else "random_payoff")
            res = rescale(pay)
            if len(rescaled) < 4096:
                rescaled[pay] = res
        return res, pay

    return off


def _children_of(g, stats, i):
    """The children of decision ``i``, made now (the working lists grow with them)."""
    kids = g.children(i)
    stats.grow()
    return kids


def _play_out(g, i, rng, rollout, keys=None):
    """``(rescaled payoff, payoff)`` of one game played to the end from node ``i`` through the protocol.

    ``phases.simulate``: the game's end is not interned. ``keys`` (RAVE), a
    set: the playout's moves are kept, and each ``(player, move)`` is added to it.
    """
    if keys is None:
        payoff = simulate(g.game, g.states[i], rng, rollout, check=g.check_payoff)
    else:
        game = g.game
        payoff, played = simulate(game, g.states[i], rng, rollout, moves=True, check=g.check_payoff)
        state = g.states[i]
        for item in played:
            player = game.to_move(state)
            if player is not CHANCE:
                keys.add((player, item))
            state = game.play(state, item)
    return g.rescale(payoff), payoff


def _rave_choice(g, stats, d, k, path, parent, solver, rave, chosen, bounds=None):
    """The child RAVE / GRAVE rates best at decision ``d`` of player ``k`` (``phases.select``'s rating).

    ``path`` holds the stored nodes of the dive, the one deciding last; the AMAF
    statistics read are those of the nearest with ``rave_ref`` visits
    (``phases.amaf_table``). The move taken is appended to ``chosen``.
    """
    k_, ref, c = rave
    kids = g.kids[d] or _children_of(g, stats, d)
    positions = _open_positions(g, kids, k, solver, bounds)
    moves = g.moves[d]
    if len(positions) == 1:
        best = positions[0]
    else:
        N, E, A = stats.N, stats.E, stats.A
        table = None
        for node in reversed(path):
            if N[node] >= ref:
                table = A.get(node)
                break
        else:
            table = A.get(path[0])
        best, top = None, None
        for j in positions:
            child = kids[j]
            n = N[child]
            if not n:
                r = _inf
            else:
                r = rave_score(E[child], n, parent, c, None if table is None else table.get((k, moves[j])), k_)
            if best is None or r > top:
                best, top = j, r
    chosen.append((k, moves[best]))
    return kids[best]


def _graph_backup(stats, path, movers, res, K):
    """``phases.backup``'s ``backup='graph'``: one more visit of each edge of ``path``, then the values, deepest first.

    The last node of the path keeps the dive's result among its own; every
    node's value is ``phases.graph_value``: its own results and its children's
    values weighted by the edge visits, over its visits.
    """
    N, S, V, E, G = stats.N, stats.S, stats.V, stats.E, stats.G
    last = len(path) - 1
    for t, node in enumerate(path):
        entry = G.get(node)
        if entry is None:
            entry = G[node] = [0.0, {}]
        if t < last:
            edge = entry[1].get(path[t + 1])
            if edge is None:
                entry[1][path[t + 1]] = [1, movers[t + 1]]
            else:
                edge[0] += 1
        else:
            entry[0] = entry[0] + res[movers[t]]
    for t in range(last, -1, -1):
        node, m = path[t], movers[t]
        own, edges = G[node]
        n = N[node]
        total, weight = own, n - sum(visits for visits, _ in edges.values())
        for child, (visits, who) in edges.items():
            if child >= stats.known:
                stats.grow()
            nc = N[child]
            if nc is None:  # dropped by a bounded tree: its edge counts for nothing (``phases.graph_value``)
                continue
            q = V[child] if V[child] is not None else S[child] / nc
            total += visits * (q if who == m else 1.0 - q)
            weight += visits
        v = V[node] = total / weight if weight else S[node] / n
        E[node] = v * n
        if K is not None:
            K[node] = stats.key(E[node], n)


def _amaf_backup(A, path, chosen, keys, res):
    """Count the dive's moves in the AMAF statistics of every node of ``path`` (``phases.backup``'s ``played``).

    ``chosen[t]`` is the ``(player, move)`` taken at ``path[t]``; ``keys`` the
    set of the playout's. Each node counts every move at or below it once,
    with its player's rescaled payoff ``res``.
    """
    for t in range(len(path) - 1, -1, -1):
        if t < len(chosen):
            keys.add(chosen[t])
        table = A.get(path[t])
        if table is None:
            table = A[path[t]] = {}
        for key in keys:
            entry = table.get(key)
            if entry is None:
                table[key] = [1, res[key[0]]]
            else:
                entry[0] += 1
                entry[1] += res[key[0]]


def root_children(graph, stats, root, solver, expectimax, bounds=None) -> tuple:
    """``(positions, children, parent estimate)`` at decision node ``root``: what a root rule chooses among.

    ``children`` are ``(move index, visits, estimate or None)`` for the
    children a dive may enter (the solver's choice), in move order; an
    estimate is the child's mean, its value under expectimax (``phases``'
    ``_estimate``).
    """
    kids = graph.children(root)
    stats.grow()
    k = graph.kind[root]
    positions = _open_positions(graph, kids, k, solver, bounds)
    return tuple(positions), tuple((j, *_estimate(stats, kids[j], expectimax)) for j in positions), \
        _estimate(stats, root, expectimax)[1]


def _estimate(stats, i, expectimax):
    """``(visits, estimate or None)`` of node ``i``: its mean, its value under expectimax."""
    n = stats.N[i]
    if not n:
        return 0, None
    v = stats.V[i]
    return n, v if expectimax and v is not None else stats.S[i] / n


def _options_back(g, stats, path, movers, res, K, graph_backup, solver, fresh, bounds, amaf) -> None:
    """What the options back up after the counts: expectimax or graph values (``movers``), proofs, bounds, AMAF."""
    if movers is not None:
        if graph_backup:
            _graph_backup(stats, path, movers, res, K)
        else:
            _expectimax_back(g, stats, path, movers, K)
    if solver is not None and not fresh:  # a dive that ended at a new node proves nothing: its children are not known yet
        solver.prove_path(path)
    if bounds is not None:
        bounds.update_path(path, fresh)
    if amaf is not None:
        _amaf_backup(stats.A, path, *amaf, res)


def _expectimax_back(g, stats, path, movers, K) -> None:
    """Each node of the path, deepest first, takes its value: one expectimax step (``node_value``) over its children."""
    N, S, V, E, key = stats.N, stats.S, stats.V, stats.E, stats.key
    for node, m in zip(reversed(path), reversed(movers)):
        nn = N[node]
        v = node_value(g, stats, node, m, S[node] / nn)
        v = V[node] = 0.0 if v < 0.0 else 1.0 if v > 1.0 else v
        E[node] = v * nn
        if K is not None:
            K[node] = key(E[node], nn)


def dives(
    graph,
    stats,
    root,
    root_mover,
    n,
    rng,
    select,
    *,
    expectimax=False,
    solver=None,
    rollout=None,
    stop_when_proven=False,
    compiled_playouts=True,
    root_rule=None,
    touched=None,
    rave=None,
    bounds=None,
    graph_backup=False,
):
    """Run up to ``n`` dives from ``root``; return ``(dives run, last path, payoff, proven value)``.

    ``payoff`` is the last dive's result as the game pays it (``phases.uct``'s
    payoff: the terminal state's payoff, the playout's, or the exact value of
    the proven node that ended it), or None when no dive ran.

    The last path (its stored nodes, root first) is kept when the options read it
    (the solver, expectimax, states that repeat), else it is None.

    ``stats`` (a ``Stats`` of ``graph``) grows in place. ``select(children,
    stats, parent_visits)`` picks the child to enter (``user_selector``; the
    built-in rules, ``ucb_selector`` and ``ucb1_selector``, run inline).
    ``solver``: a ``Solver`` whose proofs are used and extended.
    ``root_rule`` (a ``SequentialHalving``, ``fnmcts.mcts.enhancements``)
    chooses the child at the root when the root is a decision.
    A random playout runs on the game's ``random_payoff`` kernel when it has
    one (``phases.simulate``) and gives no tables of its graph, else walks the
    graph where it is made (a game's tables: all of it) and plays the rest
    through the protocol; ``compiled_playouts=False`` plays it all
    through the protocol (the same draws). No way makes a node. ``proven
    value`` is the exact value of the proven node that ended the last dive (or
    None). ``touched``, a list, if given, gets every node whose counts a dive
    changed (a node once per dive that backs it up: the records to write back).
    ``rave``: ``(k, rave_ref, c)``, RAVE / GRAVE with UCB1 of constant ``c``
    (``phases.select``'s ``rave``): the ratings blend in the AMAF statistics
    (``stats.A``), the playouts keep their moves (through the protocol: the
    same draws) and every dive counts them (``phases.backup``'s ``played``).
    ``graph_backup`` (with ``expectimax``: the ratings read the values):
    ``phases.backup``'s ``backup='graph'``, the edge visits kept in ``stats.G``.
    ``bounds``: a ``Bounds`` (score bounds) whose bounds prune the children a
    dive may enter, end a dive at a node whose bounds meet, and are updated
    along the path after each dive.

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> from ._records import ucb1_selector
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> stats = Stats(graph)
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
    game = g.game
    repeats = may_repeat(game)
    kind, kids_, u, states, chance = g.kind, g.kids, g.u, g.states, g.chance
    N, S, W, D = stats.N, stats.S, stats.W, stats.D
    sqrt, inf, finish, draw_, far_log = _sqrt, _inf, _random_finish, draw, _parent_log  # locals: the loop is hot
    UNSEEN_, END_, CHANCE_ = UNSEEN, END, CHANCE_NODE
    if expectimax:
        stats.use_values()
    mode, rule_c = getattr(select, "inline", (0, None))
    raving = rave is not None
    if raving:  # RAVE rates each child with its move's AMAF statistics: not inline
        mode = 0
        chosen, keys = [], set()
    if not mode and stats.K is not None:  # keys of another rule would go stale: drop them
        stats.K = stats.key_rule = None
    K = stats.use_keys(mode, rule_c) if mode else None
    grow, logs = stats.grow, stats.logs
    rnd = rng.random
    solving = solver is not None
    lookup = solver.lookup if solving else None
    open_get, proven_get = (solver.open.get, solver.proven.get) if solving else (None, None)
    compiled = rollout is None and compiled_playouts and not raving
    off = _finisher(g, rng) if compiled else None
    key_rule = mode if K is not None and not expectimax else 0  # 1 or 2: the counting loop keeps the keys
    score_of = ucb_score
    groups = [[] for _ in range(g.num_players)]  # the nodes of a dive by the player who moved into them
    by_mover = tuple(enumerate(groups))
    bounding = bounds is not None
    filtering = solving or bounding
    if graph_backup and g.num_players > 2:
        raise ValueError("backup='graph' values a child for its parent's mover: one or two players (zero-sum)")
    track = solving or expectimax or repeats or raving or bounding  # the path in order: the options that read it
    after = solving or expectimax or raving or bounding  # the options that back up more than the counts
    movers = None

    if mode and compiled and root_rule is None and touched is None and not (track or graph_backup):
        found = _kernel.run(g, stats, root, root_mover, n, rng, mode, rule_c)  # the same dives, compiled (or None)
        if found is not None:
            return found
    ucb1_rule, tutorial_rule = mode == 1, mode == 2
    done = 0
    path, last, exact, raw = None, None, None, None  # the last dive's path, the node it ended at, its proof, payoff
    for _ in range(n):
        pv = lookup(root) if solving else None
        if bounding and pv is None:
            pv = bounds.solved(root)
        if pv is not None and stop_when_proven:  # proven by the solver, or its bounds met
            break
        done += 1
        i = root
        depth, cap = 0, len(states)  # a dive through distinct nodes is no longer than the nodes
        groups[root_mover].append(root)
        if track:
            path = [root]
            if repeats:
                on_path = {root}
            if expectimax:
                movers = [root_mover]
        exact, fresh = None, False
        if raving:
            chosen.clear()
            keys.clear()
        ni = N[i]
        while pv is None:  # (a proven node ends the dive: ``pv`` is its proof)
            if ni is None:  # a new node: one playout from it; the backup counts it from 0
                if compiled:
                    res, raw, last = finish(g, i, rnd, rng, off)
                else:
                    (res, raw), last = _play_out(g, i, rng, rollout, keys if raving else None), None
                N[i] = 0
                fresh = True
                break
            k = kind[i]
            if k >= 0:  # a decision: its children, made when first asked
                options = kids_[i] or _children_of(g, stats, i)
            else:
                d = i
                if k == UNSEEN_:
                    k = g.expand(i)
                    grow()
                while k == CHANCE_:
                    e = chance[d]
                    if e[0] is not None:  # the draw of ``draw``, inline: a slot table
                        j = e[0][int(rnd() * e[1])]
                        c = e[3][j]
                        d = c if c is not None else g.outcome_child(d, j)
                    else:
                        d = draw_(g, d, rng)
                    k = kind[d]
                    if k == UNSEEN_:
                        k = g.expand(d)
                        grow()
                if k == END_:
                    res = u[d]
                    last = d
                    break
                options = kids_[d] or _children_of(g, stats, d)
            if filtering:  # the solver's choice, then the bounds'
                if solving:
                    if kind[i] >= 0:
                        d = i
                    options = open_get(d) or solver.choices_at(d, options, k)
                if bounding:
                    options = bounds.choices(options, k)
            if root_rule is not None and i == root and kind[root] >= 0 and len(options) > 1:  # the root rule
                positions, children, parent = root_children(g, stats, root, solver, expectimax, bounds)
                j = positions[root_rule.choose(children, parent)]
                i = kids_[root][j]
                if raving:
                    chosen.append((kind[root], g.moves[root][j]))
            elif ucb1_rule:  # UCB1 (``ucb1_score``) inline: the keys are the means, the log of the parent's visits from a table
                try:
                    lp = logs[ni]
                except IndexError:
                    lp = far_log(logs, ni)
                except TypeError:  # a count that is not a whole number (a tree given so)
                    lp = _log(ni)
                best, best_rating = None, -inf
                try:
                    for child in options:
                        if (r := K[child] + rule_c * sqrt(lp / N[child])) > best_rating:
                            best, best_rating = child, r
                except (ZeroDivisionError, TypeError):  # unvisited (0 or None): the first in move order
                    best = child
                except ValueError:  # log 0 (a parent of no visits in a given tree): one child needs no rating
                    if len(options) != 1:
                        raise
                    best = options[0]
                i = best
            elif tutorial_rule:  # the tutorial's rule: the ratings are the keys (``ucb_score``)
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
                i = best
            elif raving:
                i = _rave_choice(g, stats, i if kind[i] >= 0 else d, k, path, ni, solver, rave, chosen, bounds)
            else:
                i = options[0] if len(options) == 1 else select(options, stats, ni)
            if track:
                if repeats:
                    if i in on_path:  # back to a state of this dive: one playout from it ends the dive
                        (res, raw), last = _play_out(g, i, rng, rollout, keys if raving else None), None
                        break
                    on_path.add(i)
                path.append(i)
                if expectimax:
                    movers.append(k)
                if solving:  # every child of the decision was looked up: its proof, if any, is in ``proven``
                    pv = proven_get(i)
                if bounding and pv is None:
                    pv = bounds.solved(i)
            depth += 1
            if depth > cap:
                cap = len(states)
                if depth > cap:  # round a cycle of states in a game that does not say may_repeat()
                    raise cycle_found(game, states[root], states[i])
            groups[k].append(i)
            ni = N[i]
        else:  # a proven node ended the dive (stored by the backup if it is new)
            res, last, exact = pv[1], None, pv[0]
            if ni is None:
                N[i] = 0
        # back up: each mover's result to its nodes at once (the loop written per rule: its key follows the counts)
        for m, nodes in by_mover:
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
                        K[node] = score_of(s, c, rule_c)
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
        if after:
            _options_back(g, stats, path, movers if expectimax else None, res, K, graph_backup, solver, fresh, bounds,
                          (chosen, keys) if raving else None)
    if exact is not None:
        raw = exact
    elif last is not None:
        raw = g.payoff_at(last)
    return done, path, raw, exact
