"""The one descent of fnmcts's Monte Carlo tree search, over a compiled graph (``_graph``).

``dives`` runs dives from a root on working statistics (``Stats``: flat lists
indexed by node, mutated in place: the transient side of Clojure's transient /
persistent! idiom; the callers freeze them into a tree of immutable records).
The backup (``'mean'`` or ``'expectimax'``) and MCTS-Solver (``Solver``) are
parameters of this one loop; ``uct`` runs it once, ``search`` and
``mcts_move`` many times. The common case (no solver, the mean backup, random
playouts, states that do not repeat) runs on a leaner copy of the loop,
``_lean_dives``, with the same draws and ties: the property tests hold both
to the plain reference descent.

A dive, as the tutorial's ``uct``:

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

With the solver, terminal nodes are proven at sight, and a node is proven
when its value is known from proven children: a decision when a child gives
the player to move the best payoff there is (one or two players) or when every
child is proven (the best of them), a chance node when every outcome is (the
expectation, in exact fractions). Proven values are exact payoff tuples, equal
to ``fnmcts.exact.solve``'s (a property test checks it).

In a game whose states repeat the proofs stay sound: a node is proven only
from proven children, whose values are the game's true values, and the true
values satisfy the same equations (a decision is worth its best child, a
chance node its expectation). So a state on a cycle is proven only when a
child proves the best payoff there is, or when proofs from outside the cycle
decide every child; otherwise it stays unproven and the search goes on by its
statistics.
"""

from __future__ import annotations

from fractions import Fraction
from math import inf as _inf, log as _log, sqrt as _sqrt

from ..matches import playout
from ..protocol import may_repeat, payoff_range
from ._graph import CHANCE_NODE, END, UNSEEN, draw

__all__ = ["Stats", "Solver", "dives", "node_value"]


class Stats:
    """The working statistics of a search, one entry per node of its graph.

    ``N`` visits (None: the node is not in the tree), ``S`` the score (sum of
    rescaled payoffs for the mover into the node), ``W`` wins, ``D`` draws,
    ``V`` the expectimax value (or None), ``E`` the score the ratings read
    (``S``, or ``V * N`` under expectimax). ``lookup(state)``, if given, supplies
    the record of a state when its node first appears (a persistent tree read
    lazily, as ``uct`` does). ``logs[n]`` is ``log(n)`` for the visit counts the
    search has met (UCB1 reads the log of the parent's visits at every step; the
    table lives as long as the search, see ``_parent_log``).

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
    >>> stats.N, stats.counts(root)
    ([None], None)
    >>> stats.set(root, [4, 3.0, 3, 0, None])
    >>> from ._records import ucb_score
    >>> stats.counts(root), stats.use_keys(1, 2 ** 0.5), stats.use_keys(2, 2) == [ucb_score(3.0, 4, 2)]
    ([4, 3.0, 3, 0, None], [0.75], True)
    """

    def __init__(self, graph, lookup=None):
        self.graph = graph
        self.lookup = lookup
        self.N, self.S, self.W, self.D, self.V = [], [], [], [], []
        self.E = self.S
        self.K, self.key_rule = None, None
        self.logs = [-_inf]  # log 0: a visited child under a parent of no visits is rated as log(0) was: an error
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
            self.K = [self.key(e, n) for e, n in zip(self.E, self.N)]
        return self.K

    def key(self, e, n):
        """``K`` of a node of score ``e`` over ``n`` visits."""
        if not n:
            return None
        rule, z = self.key_rule
        if rule == 1:
            return e / n
        try:
            return 3 / n if not e else (e + z * _sqrt(e * (n - e) / n)) / n
        except ValueError:  # a score above the visits (a tree given so): an error when rated, as before
            return _UNRATED

    def grow(self):
        """Give every node of the graph an entry (after the graph interned new states)."""
        size = len(self.graph.states)
        start = len(self.N)
        if start >= size:
            return
        extra = size - start
        self.N.extend([None] * extra)
        self.S.extend([0] * extra)
        if self.E is not self.S:
            self.E.extend([0] * extra)
        self.W.extend([0] * extra)
        self.D.extend([0] * extra)
        self.V.extend([None] * extra)
        if self.K is not None:
            self.K.extend([None] * extra)
        if self.lookup is not None:
            states = self.graph.states
            for i in range(start, size):
                counts = self.lookup(states[i])
                if counts is not None:
                    self.set(i, counts)

    def set(self, i, counts):
        """Store ``counts`` = ``[visits, score, wins, draws, value]`` at node ``i``."""
        n, s, w, d, v = counts
        self.N[i], self.S[i], self.W[i], self.D[i], self.V[i] = n, s, w, d, v
        if self.E is not self.S:
            self.E[i] = s if v is None else v * n
        if self.K is not None:
            self.K[i] = self.key(self.E[i], n)

    def drop(self, i):
        """Take node ``i`` out of the tree (a bounded tree prunes its least visited nodes)."""
        self.N[i], self.S[i], self.W[i], self.D[i], self.V[i] = None, 0, 0, 0, None
        if self.E is not self.S:
            self.E[i] = 0
        if self.K is not None:
            self.K[i] = None

    def counts(self, i):
        """``[visits, score, wins, draws, value]`` at node ``i``, or None if not in the tree."""
        n = self.N[i]
        return None if n is None else [n, self.S[i], self.W[i], self.D[i], self.V[i]]


class _Unrated:
    """The key of a node whose tutorial rating is undefined: comparing it raises, as the rating did."""

    def __gt__(self, other):
        raise ValueError("math domain error")

    __lt__ = __ge__ = __le__ = __gt__


_UNRATED = _Unrated()


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


class Solver:
    """The proofs of one search: node -> ``(exact value, rescaled floats)``.

    Proofs are compared by their floats while the floats of every value seen
    order them exactly (``floats_exact``: no two different values rounded to
    the same float, which a game paying whole numbers or simple fractions
    never comes near); else, where floats tie, by the exact values.

    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> solver = Solver(graph)
    >>> solver.value((1, -1))
    ((1, -1), (1.0, 0.0))
    >>> end = graph.node(Nim(heap=3, max_take=2).state(0, 1))
    >>> solver.prove_terminal(end), end in solver.proven
    (((Fraction(-1, 1), Fraction(1, 1)), (0.0, 1.0)), True)
    >>> solver.floats_exact, solver.value((Fraction(1, 3), 1 - Fraction(1, 10**30)))[1], solver.floats_exact
    (True, (0.6666666666666666, 1.0), False)
    """

    def __init__(self, graph):
        self.graph = graph
        self.low, self.high = (Fraction(x) for x in payoff_range(graph.game))
        self.span = self.high - self.low
        self.proven = {}
        self.shortcut = graph.num_players <= 2
        self.floats_exact = True
        self._exact_of = {0.0: self.low, 1.0: self.high}  # float -> the one value seen with it
        self._terminal = {}  # terminal node -> its proof

    def value(self, exact):
        """``(exact, rescaled floats)`` for an exact payoff tuple."""
        low, span = self.low, self.span
        floats = tuple(float((x - low) / span) for x in exact)
        if self.floats_exact:
            seen = self._exact_of
            for x, f in zip(exact, floats):
                y = seen.setdefault(f, x)
                if y is not x and y != x:
                    self.floats_exact = False
                    break
        return (exact, floats)

    def prove(self, i, exact):
        value = self.proven[i] = self.value(exact)
        return value

    def prove_terminal(self, i):
        """Prove terminal node ``i`` by its payoff (computed once a search: a dive meets it again and again)."""
        value = self._terminal.get(i)
        if value is None:
            g = self.graph
            value = self._terminal[i] = self.value(tuple(Fraction(x) for x in g.game.payoff(g.states[i])))
        self.proven[i] = value
        return value

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

    def try_prove(self, i):
        """Prove node ``i`` from its children if their proofs decide it; True if proven."""
        g, proven = self.graph, self.proven
        k = g.kind[i]
        if k == UNSEEN:
            k = g.expand(i)
        if k == END:
            self.prove_terminal(i)
            return True
        if k == CHANCE_NODE:
            total = None
            for p, child in zip(g.chance[i][4], g.outcome_children(i)):
                pv = proven.get(child)
                if pv is None:
                    return False
                v = pv[0]
                total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
            self.prove(i, total)
            return True
        best, unproven = None, False
        shortcut = self.shortcut
        for child in g.kids[i]:
            pv = proven.get(child)
            if pv is None:
                if not shortcut:
                    return False
                unproven = True
                continue
            if shortcut and self._best(pv, k):
                proven[i] = pv
                return True
            if best is None or self._above(pv, best, k):
                best = pv
        if unproven:
            return False
        proven[i] = best
        return True

    def favours(self, exact, k) -> int:
        """1 if the value ``exact`` is above the middle of the payoffs for player ``k``, -1 below, 0 at it."""
        twice = 2 * exact[k]
        middle = self.low + self.high
        return (twice > middle) - (twice < middle)

    def plies(self, i, memo=None):
        """How many steps (moves and chance outcomes) the line of node ``i``'s proof lasts; None if unknown.

        A terminal node: 0. A chance node: one more than its longest outcome.
        A decision: one more than the proven children worth the node's value
        to the player deciding there: the shortest of them when that value is
        above the middle of the payoffs (a winner hurries), the longest when
        it is at or below (a loser resists). Read off the proofs as they stand,
        so a win proven before all its children were, counts the shortest win
        proven so far. ``memo`` (a dict) carries the answers across calls on
        the same proofs.

        In misère Nim(7, 3) (who takes the last loses) the first player wins by
        taking 2 (heap 5: the second player's loss in 3 more steps); taking 3
        loses in 2 steps (the second player takes 3), taking 1 in 4:

        >>> import random
        >>> from fnmcts.games.nim import Nim
        >>> from ._graph import CompiledGraph
        >>> from ._records import ucb1_selector
        >>> game = Nim(heap=7, max_take=3)
        >>> graph = CompiledGraph(game)
        >>> root = graph.node(game.start())
        >>> solver = Solver(graph)
        >>> _ = dives(graph, Stats(graph), root, 1, 1000, random.Random(1), ucb1_selector(), solver=solver,
        ...           stop_when_proven=True)
        >>> solver.plies(root), [(m, solver.plies(graph.node(game.play(game.start(), m)))) for m in (1, 2, 3)]
        (4, [(1, 4), (2, 3), (3, 2)])
        """
        memo = {} if memo is None else memo
        if i in memo:
            return memo[i]
        g, proven = self.graph, self.proven
        open_ = object()
        stack = [(i, False)]
        while stack:
            x, ready = stack.pop()
            if ready:
                memo[x] = self._plies_of(x, memo, open_)
                continue
            if x in memo:
                continue
            memo[x] = open_  # on the walk: a cycle back to it counts as unknown
            stack.append((x, True))
            if x not in proven:
                continue
            k = g.kind[x]
            if k == UNSEEN:
                k = g.expand(x)
            if k == END:
                continue
            nexts = g.outcome_children(x) if k == CHANCE_NODE else [c for c in g.kids[x] if c in proven]
            stack.extend((c, False) for c in nexts if c not in memo)
        return memo[i]

    def _plies_of(self, x, memo, open_):
        """``plies`` of node ``x`` from the answers of its children in ``memo``."""
        g, proven = self.graph, self.proven
        pv = proven.get(x)
        if pv is None:
            return None
        k = g.kind[x]
        if k == END:
            return 0
        if k == CHANCE_NODE:
            below = [memo.get(c, open_) for c in g.outcome_children(x)]
            if any(p is None or p is open_ for p in below):
                return None
            return 1 + max(below)
        value = pv[0][k]
        below = [memo.get(c) for c in g.kids[x] if c in proven and proven[c][0][k] == value]
        below = [p for p in below if p is not None and p is not open_]
        if not below:
            return None
        return 1 + (min(below) if self.favours(pv[0], k) > 0 else max(below))

    def choices(self, kids, k):
        """The children a dive may enter at a decision of player ``k``, in move order.

        A child proven to give ``k`` the best payoff alone; else the unproven
        children and the best proven one (unless it is proven at the worst payoff
        and an unproven child is left).
        """
        proven = self.proven
        shortcut, exact = self.shortcut, not self.floats_exact
        best = top = None
        for child in kids:
            pv = proven.get(child)
            if pv is not None:
                f = pv[1][k]
                if shortcut and f == 1.0 and (not exact or pv[0][k] == self.high):
                    return (child,)
                if top is None or f > tf or (exact and f == tf and pv[0][k] > top[0][k]):
                    best, top, tf = child, pv, f
        if best is None:
            return kids
        keep_best = tf > 0.0 or (tf == 0.0 and exact and top[0][k] > self.low)
        open_ = tuple(c for c in kids if c not in proven or (c == best and keep_best))
        return open_ or (best,)


def node_value(graph, stats, i, mover, fallback, _open=None):
    """One expectimax step at node ``i`` for ``mover``, over the stored children.

    At the end: the rescaled payoff; at a chance node: the outcomes' values
    weighted by their exact probabilities; at a decision: the best child that
    is stored (its value, else its mean) or terminal, seen from the player
    deciding (its complement when another player decides); ``fallback`` where
    no child is known, and for a chance node met again below itself (chance
    outcomes that roll again, in a game whose states may repeat).

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
        if _open is None:
            _open = set()
        elif i in _open:
            return fallback
        _open.add(i)
        v = sum(float(p) * node_value(g, stats, c, mover, fallback, _open) for p, c in zip(g.chance[i][4], children))
        _open.discard(i)
        return v
    stats.grow()
    N, S, V = stats.N, stats.S, stats.V
    best = None
    for child in g.kids[i]:
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


def _random_finish(g, i, rnd, rng):
    """Play random moves from node ``i`` to the end; the terminal node (the draws of ``playout``)."""
    kind, kids, chance = g.kind, g.kids, g.chance
    while True:
        k = kind[i]
        if k < 0:
            if k == UNSEEN:
                k = g.expand(i)
            if k == END:
                return i
            if k == CHANCE_NODE:
                e = chance[i]
                if e[0] is not None:  # the draw of ``draw``, inline: a slot table
                    j = e[0][int(rnd() * e[1])]
                    c = e[3][j]
                    i = c if c is not None else g.outcome_child(i, j)
                else:
                    i = draw(g, i, rng)
                continue
        ks = kids[i]
        i = ks[0] if len(ks) == 1 else ks[int(rnd() * len(ks))]


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
):
    """Run up to ``n`` dives from ``root``; return ``(dives run, last path, end, proven value)``.

    ``stats`` (a ``Stats`` of ``graph``) grows in place. ``select(children,
    stats, parent_visits)`` picks the child to enter (see ``_records``; the two
    built-in rules run inline). ``solver``: a ``Solver`` whose proofs are used
    and extended. ``compiled_playouts=False`` plays the random playouts through
    the protocol (the same draws) instead of interning every state they pass: a
    single dive (``uct``) has no use for those. ``end`` is the terminal node the
    last dive reached (None when a proven node ended it), ``proven value`` the
    exact value of that node.

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._graph import CompiledGraph
    >>> from ._records import ucb1_selector
    >>> graph = CompiledGraph(Nim(heap=3, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> stats = Stats(graph)
    >>> dives(graph, stats, root, 1, 50, random.Random(1), ucb1_selector())
    (50, [0, 2, 4], 4, None)
    >>> stats.counts(root), [graph.state(i)["heap"] for i in range(len(graph))], stats.N
    ([50, 5.0, 5, 0, None], [3, 2, 1, 1, 0, 0], [50, 6, 43, 5, 42, 4])

    With a ``Solver`` the search stops once the root is proven:

    >>> solver = Solver(graph)
    >>> dives(graph, Stats(graph), root, 1, 50, random.Random(1), ucb1_selector(), solver=solver,
    ...       stop_when_proven=True)
    (5, [0, 2, 4], 4, None)
    >>> solver.proven[root][0]
    (Fraction(1, 1), Fraction(-1, 1))
    """
    repeats = may_repeat(graph.game)
    done = 0
    if (
        n > 1
        and solver is None
        and not expectimax
        and rollout is None
        and compiled_playouts
        and not repeats
        and stats.E is stats.S
    ):  # the common case: every dive but the last on the lean loop (the last keeps its path for the caller)
        done = _lean_dives(graph, stats, root, root_mover, n - 1, rng, select)
        n = 1
    g = graph
    kind, kids, u, states, chance = g.kind, g.kids, g.u, g.states, g.chance
    N, S, W, D, V = stats.N, stats.S, stats.W, stats.D, stats.V
    sqrt, inf, finish, draw_, far_log = _sqrt, _inf, _random_finish, draw, _parent_log  # locals: the loop is hot
    UNSEEN_, END_, CHANCE_ = UNSEEN, END, CHANCE_NODE
    if expectimax:
        stats.use_values()
    mode, rule_c = getattr(select, "inline", (0, None))
    E, K = stats.E, stats.use_keys(mode, rule_c) if mode else stats.K
    grow, logs = stats.grow, stats.logs
    rnd = rng.random
    proven = solver.proven if solver is not None else None
    solving = proven is not None
    path, result, exact = [root], None, None
    for _ in range(n):
        if stop_when_proven and solving and root in proven:
            break
        done += 1
        i = root
        path = [root]
        movers = [root_mover]
        through = [root]  # with the solver: every node passed, chance and unstored decisions too
        on_path = {root} if repeats else None
        while True:
            if solving:
                pv = proven.get(i)
                if pv is not None:
                    res, result, exact = pv[1], None, pv[0]
                    break
            ni = N[i]
            if ni is None:  # a new node: one playout from it
                if rollout is None and compiled_playouts:
                    t = finish(g, i, rnd, rng)
                    res, result, exact = u[t], t, None
                else:
                    end = playout(g.game, states[i], rng, rollout)
                    res, result, exact = g.u_of_state(end), g.node(end), None
                if solving and (kind[i] if kind[i] != UNSEEN_ else g.expand(i)) == END_:
                    solver.prove_terminal(i)
                grow()
                break
            k = kind[i]
            d = i
            if k < 0:
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
                    if solving:
                        through.append(d)
                if k == END_:
                    res, result, exact = u[d], d, None
                    if solving:
                        solver.prove_terminal(d)
                    break
            options = kids[d] if not solving else solver.choices(kids[d], k)
            if len(options) == 1:
                i = options[0]
            elif mode == 1:  # ucb1_selector's loop, inline (as in ``_lean_dives``)
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
                i = best
            elif mode == 2:  # ucb_selector's loop, inline: the ratings are the keys
                best, best_rating = None, -inf
                try:
                    for child in options:
                        if (r := K[child]) > best_rating:
                            best, best_rating = child, r
                except TypeError:  # unvisited (None): the first in move order
                    best = child
                i = best
            else:
                i = select(options, stats, ni)
            if repeats:
                if i in on_path:  # back to a state of this dive: one playout from it ends the dive
                    if rollout is None and compiled_playouts:
                        t = finish(g, i, rnd, rng)
                        res, result, exact = u[t], t, None
                    else:
                        end = playout(g.game, states[i], rng, rollout)
                        res, result, exact = g.u_of_state(end), g.node(end), None
                    grow()
                    break
                on_path.add(i)
            path.append(i)
            movers.append(k)
            if solving:
                through.append(i)
        for node, m in zip(path, movers):
            x = res[m]
            c = N[node]
            if c is None:
                N[node] = 1
                S[node] = x
            else:
                N[node] = c + 1
                S[node] += x
            if x > 0.5:
                W[node] += 1
            elif x == 0.5:
                D[node] += 1
        if expectimax:
            for node, m in zip(reversed(path), reversed(movers)):
                nn = N[node]
                v = node_value(g, stats, node, m, S[node] / nn)
                v = V[node] = 0.0 if v < 0.0 else 1.0 if v > 1.0 else v
                E[node] = v * nn
        if K is not None:
            if stats.key_rule[0] == 1:
                for node in path:
                    K[node] = E[node] / N[node]
            else:
                key = stats.key
                for node in path:
                    K[node] = key(E[node], N[node])
        if solving:
            for node in reversed(through):
                if node in proven:
                    continue
                if not solver.try_prove(node):
                    break
            grow()
    return done, path, result, exact


def _lean_dives(g, stats, root, root_mover, n, rng, select):
    """``n`` dives of ``dives`` without the solver, expectimax, a rollout agent or repeated states; the count.

    The same dives, draw for draw, on a leaner loop: no option is asked at a
    step, a decision's children are rated with no check for an unvisited one
    (an unvisited child raises on its division, and is the first in move order
    that does), the ratings read ``stats.K`` (the tutorial's rule no more than
    that, UCB1 the mean there and ``log`` of the parent's visits from
    ``stats.logs``), and the path is kept as one list of nodes per mover, so
    the backup adds each mover's result to all of its nodes at once (a node is
    on a path once: the game's states do not repeat).
    """
    kind, kids, u, chance = g.kind, g.kids, g.u, g.chance
    N, S, W, D = stats.N, stats.S, stats.W, stats.D  # E is S: no expectimax here
    sqrt, inf, log, finish, draw_, far_log = _sqrt, _inf, _log, _random_finish, draw, _parent_log
    UNSEEN_, END_, CHANCE_ = UNSEEN, END, CHANCE_NODE
    grow, logs = stats.grow, stats.logs
    rnd = rng.random
    mode, rule_c = getattr(select, "inline", (0, None))
    ucb1_rule, ucb_rule = mode == 1, mode == 2
    K = stats.use_keys(mode, rule_c) if mode else stats.K
    key, (key_rule, z) = stats.key, stats.key_rule or (0, None)
    groups = [[] for _ in range(g.num_players)]  # the nodes of this dive, by the player who moved into them
    players = tuple(enumerate(groups))
    first = groups[root_mover]
    for _ in range(n):
        i = root
        first.append(root)
        while True:
            ni = N[i]
            if ni is None:  # a new node: one playout from it; the backup counts it from 0
                res = u[finish(g, i, rnd, rng)]
                N[i] = 0
                grow()
                break
            k = kind[i]
            if k >= 0:
                options = kids[i]
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
                    break
                options = kids[d]
            if ucb1_rule:
                try:
                    lp = logs[ni]
                except IndexError:
                    lp = far_log(logs, ni)
                except TypeError:
                    lp = log(ni)
                best, best_rating = None, -inf
                try:
                    for child in options:
                        if (r := K[child] + rule_c * sqrt(lp / N[child])) > best_rating:
                            best, best_rating = child, r
                except (ZeroDivisionError, TypeError):  # unvisited (0 or None): the first in move order
                    best = child
                except ValueError:  # log 0 (a node of no visits in a given tree): one child needs no rating
                    if len(options) != 1:
                        raise
                    best = options[0]
            elif ucb_rule:
                best, best_rating = None, -inf
                try:
                    for child in options:
                        if (r := K[child]) > best_rating:
                            best, best_rating = child, r
                except TypeError:  # unvisited (None): the first in move order
                    best = child
                except ValueError:  # a rating undefined (a tree given with a score above its visits)
                    if len(options) != 1:
                        raise
                    best = options[0]
            else:
                best = options[0] if len(options) == 1 else select(options, stats, ni)
            groups[k].append(best)
            i = best
        for m, nodes in players:
            if nodes:
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
                            K[node] = 3 / c if not s else (s + z * sqrt(s * (c - s) / c)) / c
                        except ValueError:
                            K[node] = key(s, c)
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
    return n
