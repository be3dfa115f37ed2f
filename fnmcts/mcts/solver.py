"""MCTS-Solver, in both its forms: proofs on the persistent tree's records, and on the engine's arrays.

A state is proven when its value is certain: an end (its payoff), a decision with a child that gives the player to move
the best payoff there is (one or two players) or with every child proven (the best of them), a chance state with every
outcome proven (the expectation, in exact fractions). Record form: ``proof``, ``derive``, ``open_children``,
``prove_path``; array form: ``Solver``. The proofs live in the records alone, so a continued search proves what the
longer one would have (docs/mcts.md); where states repeat a node is proven only from proven children.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import CHANCE, payoff_range
from ._graph import CHANCE_NODE, END, UNSEEN, derived_from, expanded_kind, terminal_value

__all__ = ["proof", "prove_path", "Solver"]


def prove_path(game, known, nodes, new) -> None:
    """MCTS-Solver: the states of the path proven from their children, deepest first, up to the first that is not.

    ``nodes``: the path's ``(state, mover)``, root first; ``new``: the records the backup is writing (each proven one
    gets ``proven``); ``known``: the records as they are read (``new`` over the tree). In misere Nim(2, 2) taking 1
    leaves the last stick to the other player, so the whole path is a win for the first player:

    >>> from fnmcts.games import Nim
    >>> from ._records import record
    >>> game = Nim(heap=2, max_take=2)
    >>> start = game.start()
    >>> one_left = game.play(start, 1)
    >>> end = game.play(one_left, 1)
    >>> new = {start: record(1, 0), one_left: record(0, 1), end: record(1, 0)}
    >>> prove_path(game, new, [(start, 1), (one_left, 0), (end, 1)], new)
    >>> new[start]["proven"]
    (Fraction(1, 1), Fraction(-1, 1))
    """
    for state, _ in reversed(nodes):
        rec = new[state]
        value = rec.get("proven")
        if value is None:
            value = terminal_value(game, state)
            if value is None:
                value = derive(game, known, state)
            if value is None:
                break
            new[state] = rec.set("proven", value)


def proof(game, tree, state, passing: bool = False, _open=frozenset()):
    """The exact value of ``state`` as far as the tree proves it (a payoff tuple of fractions), else None.

    A state that ends the game: its payoff. A state the tree knows: the value its record keeps under ``proven`` (set by
    the backup). A state the tree does not know, ``passing`` (reached through the dice, as a dive passes the rolls):
    proven from its children as ``derive`` does, so the proofs of the states between stored ones live in the stored
    records alone.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=1, max_take=1)
    >>> proof(game, {}, game.state(0, 0)), proof(game, {}, game.start())
    ((Fraction(1, 1), Fraction(-1, 1)), None)
    """
    rec = tree.get(state)
    if rec is not None:
        value = rec.get("proven")
        if value is not None:
            return value
    value = terminal_value(game, state)
    if value is not None or rec is not None or not passing or state in _open:
        return value
    return derive(game, tree, state, _open | {state})


def derive(game, tree, state, _open=frozenset()):
    """The exact value of ``state`` if its children's proofs decide it, else None.

    A chance node: the expectation over its outcomes, once every outcome is proven (the outcomes are passed through:
    ``proof(..., passing=True)``). A decision of player ``k``: a child that gives ``k`` the best payoff there is (one or
    two players), else the best child once every child is proven.
    """
    player = game.to_move(state)
    if player is None:
        return terminal_value(game, state)
    if player is CHANCE:
        total = None
        for outcome, p in game.chance_outcomes(state):
            value = proof(game, tree, game.play(state, outcome), True, _open)
            if value is None:
                return None
            p = Fraction(p)
            total = tuple(p * x for x in value) if total is None else tuple(t + p * x for t, x in zip(total, value))
        return total
    high = Fraction(payoff_range(game)[1])
    shortcut = getattr(game, "num_players", 1) <= 2
    best, unproven = None, False
    for move in game.possible_moves(state):
        value = proof(game, tree, game.play(state, move))
        if value is None:
            if not shortcut:
                return None
            unproven = True
        elif shortcut and value[player] == high:
            return value
        elif best is None or value[player] > best[player]:
            best = value
    return None if unproven else best


def open_children(game, tree, children, player) -> tuple:
    """The indices of the children a dive may enter at a decision of ``player`` (the solver's choice).

    A child proven to give ``player`` the best payoff there is, alone; else every child not proven, and the best proven
    child (unless it is proven at the worst payoff and some child is not proven).
    """
    low, high = (Fraction(x) for x in payoff_range(game))
    shortcut = getattr(game, "num_players", 1) <= 2
    values = [proof(game, tree, c) for c in children]
    best = None
    for j, value in enumerate(values):
        if value is not None:
            if shortcut and value[player] == high:
                return (j,)
            if best is None or value[player] > values[best][player]:
                best = j
    if best is None:
        return tuple(range(len(children)))
    keep = values[best][player] > low
    open_ = tuple(j for j, c in enumerate(children) if values[j] is None or (keep and c == children[best]))
    return open_ or (best,)


_OPEN = object()
"""``Solver.plies``'s mark of a node on the walk (a cycle back to it counts as unknown)."""


class Solver:
    """The proofs of one search: ``lookup(node)`` is ``(exact value, rescaled floats)`` or None.

    ``proven`` holds the proofs of stored nodes (their records' ``proven``, and those a backup makes) and of terminal
    nodes (proven at sight); ``derived`` the proofs of nodes not stored that dives pass through the dice, worked out
    from their children when asked (``derive``) and kept while they hold (they always do, unless a bounded tree drops a
    node: then they are worked out again). The same proofs as ``fnmcts.mcts.phases.proof``.

    Proofs are compared by their floats while the floats of every value seen order them exactly (``floats_exact``: no
    two different values rounded to the same float, which a game paying whole numbers or simple fractions never comes
    near); else, where floats tie, by the exact values.

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import started
    >>> graph, stats, _ = started(Nim(heap=3, max_take=2))
    >>> solver = Solver(graph, stats)
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
        # per decision node, what its children's proofs decide, kept until one of them changes (``choices_at``):
        self.open = {}  # node -> the children a dive may enter (``choices``)
        self.decided = {}  # node -> its proof from its children (``derive``), or None
        self._parents = {}  # child -> the decision nodes whose ``open`` entry read it
        self._era = 0  # counts ``forget``: an entry worked out across one is not kept
        self.compiled_rows = {}  # payoffs -> their places and floats as the compiled loops read proofs (``_compiled``)

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

    def lookup(self, i, passing=False, _open=(), leave=False):
        """The proof of node ``i`` (terminal, stored, or ``passing`` through the dice and not stored), or None.

        ``leave``: a node not seen yet that is no end is left unseen (``CompiledGraph.ends``): a decision looks
        at its children's proofs without listing the moves of each (a wide game's hundreds)."""
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
            if leave and (i in self.graph.asked or not self.graph.ends(i)):  # (``asked``: known to be no end)
                return None
            k = expanded_kind(self.graph, self.stats, i)
        if k == END:
            pv = self._terminal.get(i)
            if pv is None:
                pay = self.graph.payoff_at(i)
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
        k, below = derived_from(self.graph, self.stats, i)
        if below is None:
            return self.lookup(i)
        if k == CHANCE_NODE:
            total = None
            for p, child in below:
                pv = self.lookup(child, True, _open)
                if pv is None:
                    return None
                v = pv[0]
                total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
            return self.value(total)
        _, top, unproven = self._sorted_out(below, [self.lookup(child, leave=True) for child in below], k)
        return None if unproven else top

    def prove_path(self, path):
        """After a backup: prove the path's nodes from their children, deepest first, while they are decided.

        Each proof is recorded (``stats.P``) so it goes into the node's record.
        """
        P, proven, decided, lookup = self.stats.P, self.proven, self.decided, self.lookup
        kind, kids = self.graph.kind, self.graph.kids
        for node in reversed(path):
            pv = lookup(node)  # (``proven`` first)
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
        self.open.clear()
        self.decided.clear()
        self._era += 1

    def _best(self, pv, k):
        """Whether proof ``pv`` gives player ``k`` the best payoff there is."""
        return pv[1][k] == 1.0 and (self.floats_exact or pv[0][k] == self.high)

    def _above(self, pv, other, k):
        """Whether proof ``pv`` is worth more than ``other`` to player ``k`` (exactly).

        The floats are rounded from the exact values by an increasing map: floats that differ order the values; equal
        floats mean equal values unless two values seen share a float (then the exact values are compared).
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

        A terminal node: 0 (an end of a game's view that stands for a forced win,
        ``fnmcts.mcts.enhancements.ProvingGame``: the plies that win takes, its ``end_plies``). A chance node: one more
        than its longest outcome. A decision: one more than the proven children worth the node's value to the player
        deciding there: the shortest of them when that value is above the middle of the payoffs (a winner hurries), the
        longest when it is at or below (a loser resists). ``memo`` (a dict) carries the answers across calls on the same
        proofs.

        Read off the proofs the search holds (``known``), nothing expanded or worked out anew: the walk costs at most
        the nodes the search made.

        In misère Nim(7, 3) (who takes the last loses) the first player wins by taking 2 (heap 5: the second player's
        loss in 3 more steps); taking 1 and taking 3 are not proven when the search stops (None: unknown):

        >>> import random
        >>> from fnmcts.games.nim import Nim
        >>> from ._engine import dives, started
        >>> from ._records import ucb1_selector
        >>> game = Nim(heap=7, max_take=3)
        >>> graph, stats, root = started(game)
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

        A node not expanded yet is not known; a stored one is proven by its record or by the search, a node passed
        through the dice by what ``derive`` found when a dive asked. No node is expanded or made.
        """
        pv = self.proven.get(i) or self.derived.get(i)  # a proof is a pair: never false
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
            return 0 if ends is None else ends(g.state(x))
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
        """The children a dive may enter at a decision of player ``k``, in move order (``phases.open_children``'s)."""
        kept = self._sorted_out(kids, [self.lookup(child, leave=True) for child in kids], k)[0]
        return kids if kept is None else tuple(map(kids.__getitem__, kept))

    def _sorted_out(self, kids, proofs, k) -> tuple:
        """``(open, top, unproven)`` at a decision of player ``k`` from its children's ``proofs`` (one pass).

        ``open``: the positions in ``kids`` a dive may enter (None: all of them); ``top``: the best proof among them, or
        None; ``unproven``: whether a child is not proven (then ``top`` decides nothing, unless it is the best payoff
        there is).
        """
        shortcut, best_of, above = self.shortcut, self._best, self._above
        best = top = None
        unproven = False
        for j, pv in enumerate(proofs):
            if pv is None:
                unproven = True
            elif shortcut and best_of(pv, k):
                return (j,), pv, False
            elif top is None or above(pv, top, k):
                best, top = j, pv
        if best is None:
            return None, None, unproven
        keep_best, child = top[0][k] > self.low, kids[best]
        return tuple([j for j, pv in enumerate(proofs) if pv is None or (keep_best and kids[j] == child)]) or (best,), \
            top, unproven

    def choices_at(self, d, kids, k):
        """``choices(kids, k)`` at decision node ``d`` (its children ``kids``), kept in ``open`` with ``derive(d)``.

        One pass over the children's proofs works out both; they stay in ``open`` and ``decided`` until a child of ``d``
        is proven (``_proved``), a proof is forgotten, or the proofs start comparing by their exact values: a dive reads
        them again without looking at the children.
        """
        era = self._era
        kept, top, unproven = self._sorted_out(kids, [self.lookup(child, leave=True) for child in kids], k)
        open_ = kids if kept is None else tuple(map(kids.__getitem__, kept))
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


def _open_positions(graph, kids, k, solver, bounds) -> tuple:
    """The positions in ``kids`` (a decision of player ``k``) a dive may enter: the solver's (exactly
    ``phases.open_children``'s indices), then the bounds'."""
    kept = None if solver is None else solver._sorted_out(kids, [solver.lookup(c, leave=True) for c in kids], k)[0]
    positions = tuple(range(len(kids))) if kept is None else kept
    if bounds is not None:
        positions = tuple(positions[j] for j in bounds.keep([kids[p] for p in positions], k))
    return positions


def _no_proof(i):
    """No proof: neither the solver nor score bounds is on."""
    return None


def proofs_of(solver, bounds) -> tuple:
    """``(at_root, at_node)``: the proof of a node (``(exact, floats)``) or None, the solver's, else its bounds met.

    ``at_root`` looks the node up afresh (None when neither option is on); ``at_node`` reads the proof of a child the
    dive just chose, which the solver's choice of it looked up (``choices_at``).

    >>> proofs_of(None, None)[0] is None, proofs_of(None, None)[1](0) is None
    (True, True)
    """
    if solver is None:
        return (None, _no_proof) if bounds is None else (bounds.solved, bounds.solved)
    lookup, proven = solver.lookup, solver.proven.get
    if bounds is None:
        return lookup, proven
    solved = bounds.solved
    return (lambda i: lookup(i) or solved(i)), (lambda i: proven(i) or solved(i))


def open_choices(solver, bounds):
    """``choose(d, kids, k)``: the children a dive may enter at decision ``d`` of player ``k``, the solver's (kept in
    its ``open``: ``choices_at``), then the bounds'; None when neither option is on (``open_steps`` in one call).

    >>> open_choices(None, None) is None
    True
    """
    kept, choose = open_steps(solver, bounds, None)
    return None if choose is None else (lambda d, kids, k: kept(d) or choose(d, kids, k))


def open_steps(solver, bounds, kids) -> tuple:
    """``(kept, choose)``: ``open_choices`` as a dive's loop calls it, ``kept(d) or choose(d, children, k)``: the solver's
    kept choice read with no Python call; with neither option on, ``kept`` gives the children (of ``kids``, the graph's).

    >>> open_steps(None, None, [(1, 2)])[0](0)
    (1, 2)
    """
    if solver is None:
        return (None if kids is None else kids.__getitem__, None) if bounds is None else \
            ({}.get, lambda d, kids, k: bounds.choices(kids, k))
    kept, choices_at = solver.open.get, solver.choices_at
    if bounds is None:
        return kept, choices_at
    return {}.get, lambda d, kids, k: bounds.choices(kept(d) or choices_at(d, kids, k), k)
