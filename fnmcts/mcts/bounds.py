"""Score bounds, in both their forms: on the persistent tree's records, and on the engine's arrays.

Every stored state keeps the pessimistic and optimistic payoff tuples its exact value lies between; children that cannot
do better are not entered, and a state whose bounds meet is solved. Record form: ``bounds_of``, ``derive_bounds``,
``decision_bounds``, ``bounded_children``, ``bound_path``; array form: ``Bounds``, in the same exact fractions.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import CHANCE, payoff_range
from ._graph import CHANCE_NODE, END, derived_from, expanded_kind, terminal_value
from .backups import _chance_value

__all__ = ["bounds_of", "derive_bounds", "decision_bounds", "bounded_children", "bound_path", "Bounds", "BOUNDS_WALK"]


def bound_path(game, known, nodes, new) -> None:
    """Score bounds: each record of ``nodes``, deepest first, keeps ``bounds`` (``derive_bounds``), in one walk of the dice.

    ``nodes``: the path's ``(state, mover)``, root first; ``new``: the records the backup is writing; ``known``: the
    records as they are read. In misere Nim(2, 2) the bounds of the start meet at the first player's win:

    >>> from fnmcts.games import Nim
    >>> from ._records import record
    >>> game = Nim(heap=2, max_take=2)
    >>> line = [game.start(), game.state(1, 1), game.state(0, 0)]  # take 1, then the other takes the last
    >>> new = dict(zip(line, (record(1, 0), record(0, 1), record(1, 0))))
    >>> bound_path(game, new, list(zip(line, (1, 0, 1))), new)
    >>> new[game.start()]["bounds"]
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))
    """
    walk = {}  # a state read once a backup, BOUNDS_WALK at most
    for state, _ in reversed(nodes):
        new[state] = new[state].set("bounds", derive_bounds(game, known, state, walk))


def bounds_of(game, tree, state, passing: bool = False, _open=None) -> tuple:
    """``(pessimistic, optimistic)`` payoff tuples (fractions) between which the exact value of ``state`` lies.

    Score bounds (docs/search-options.md). A state that ends the game: its payoff, twice. A state the tree knows: the
    bounds its record keeps, else the whole payoff range. A state the tree does not know, ``passing`` (reached through
    the dice): its bounds from its children (``derive_bounds``), a web of chance nodes walked as ``_chance_value`` walks
    it (``BOUNDS_WALK``); otherwise the whole range.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=1, max_take=1)
    >>> bounds_of(game, {}, game.state(0, 0))
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))
    >>> bounds_of(game, {}, game.start())
    ((Fraction(-1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(1, 1)))
    """
    end = terminal_value(game, state)
    if end is not None:
        return end, end
    rec = tree.get(state)
    kept = None if rec is None else rec.get("bounds")
    if kept is not None:
        return kept
    whole = _whole_range(game)
    if rec is not None or not passing:
        return whole
    return _chance_value(state, _open, whole, lambda walk: derive_bounds(game, tree, state, walk), BOUNDS_WALK)


BOUNDS_WALK = 16
"""The states not stored that one derivation of bounds (``bounds_of``, or a backup's derivations together) reads at most
passing through the dice; the rest count as the whole payoff range (sound: the exact value lies in it). Fewer than
``CHANCE_WALK``: each state read costs exact fractions over every outcome and player."""


def _whole_range(game) -> tuple:
    low, high = (Fraction(x) for x in payoff_range(game))
    players = getattr(game, "num_players", 1)
    return (low,) * players, (high,) * players


def derive_bounds(game, tree, state, _open=None) -> tuple:
    """The bounds of ``state`` its children's bounds give (``bounds_of`` each child).

    A chance node: the expectation of its outcomes' bounds (the outcomes
    passed through); a decision: ``decision_bounds`` of its children's.

    In Nim where taking the last stick wins, from a heap of 2 taking both wins
    at once: the bounds meet, though taking 1 is not known (the whole range):

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=2, max_take=2, misere=False)
    >>> derive_bounds(game, {}, game.start())
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))

    Misere (taking the last loses): taking both loses, taking 1 is not known,
    so the player to move gets between -1 and 1:

    >>> derive_bounds(Nim(heap=2, max_take=2), {}, Nim(heap=2, max_take=2).start())
    ((Fraction(-1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(1, 1)))
    """
    player = game.to_move(state)
    if player is None:
        end = terminal_value(game, state)
        return end, end
    if player is CHANCE:
        _open = {} if _open is None else _open
        return _chance_bounds((Fraction(p), bounds_of(game, tree, game.play(state, outcome), True, _open))
                             for outcome, p in game.chance_outcomes(state))
    children = [bounds_of(game, tree, game.play(state, m)) for m in game.possible_moves(state)]
    return decision_bounds(children, player, _pair_total(game))


def _chance_bounds(weighted) -> tuple:
    """The bounds of a chance node from its outcomes' ``(probability, (low, high))``: each bound weighted and summed.

    >>> _chance_bounds([(0.5, ((0, 1), (1, 1))), (0.5, ((0, 0), (0, 1)))])
    ((0.0, 0.5), (0.5, 1.0))
    """
    low = high = None
    for p, (lo, hi) in weighted:
        if low is None:
            low, high = tuple(p * x for x in lo), tuple(p * x for x in hi)
        else:
            low = tuple(a + p * x for a, x in zip(low, lo))
            high = tuple(a + p * x for a, x in zip(high, hi))
    return low, high


def _pair_total(game):
    """``low + high`` of a two-player game (zero-sum: the players' payoffs add up to it), else None."""
    if getattr(game, "num_players", 1) != 2:
        return None
    low, high = payoff_range(game)
    return Fraction(low) + Fraction(high)


def decision_bounds(children: list, k, total=None) -> tuple:
    """The bounds of a decision of player ``k`` from its children's ``(pessimistic, optimistic)`` bounds.

    For ``k``: the best pessimistic and the best optimistic bound. For the other player of a two-player game (zero-sum:
    the payoffs add up to ``total``), ``total`` minus those. For every other player of a game of more: the widest bounds
    among the children ``k`` may still choose (those whose optimistic bound for ``k`` reaches ``k``'s pessimistic one).

    >>> from fractions import Fraction as F
    >>> decision_bounds([((F(-1), F(-1)), (F(1), F(1))), ((F(1), F(-1)), (F(1), F(-1)))], 0, F(0))
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))
    """
    floor = max(lo[k] for lo, _ in children)
    top = max(hi[k] for _, hi in children)
    players = len(children[0][0])
    if total is not None:
        return ((floor, total - top) if k == 0 else (total - top, floor)), \
            ((top, total - floor) if k == 0 else (total - floor, top))
    choices = [(lo, hi) for lo, hi in children if hi[k] >= floor]
    low = tuple(floor if j == k else min(lo[j] for lo, _ in choices) for j in range(players))
    high = tuple(top if j == k else max(hi[j] for _, hi in choices) for j in range(players))
    return low, high


def bounded_children(game, tree, children, player) -> tuple:
    """The indices of the children a dive may enter under score bounds, at a decision of ``player``.

    Those whose optimistic bound for ``player`` is above the best pessimistic bound among them (the others cannot do
    better than what is already guaranteed); when none is (the bounds of the decision met), those guaranteed it: their
    pessimistic bound reaches it (a child whose optimistic bound merely reaches it may still be worse).

    Misere Nim from a heap of 2: taking both loses at once (its bounds are -1
    for the player to move), taking 1 is not known (up to 1): only it is open.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=2, max_take=2)
    >>> bounded_children(game, {}, [game.play(game.start(), m) for m in (1, 2)], 0)
    (0,)
    """
    return _kept([bounds_of(game, tree, c) for c in children], player)


def _kept(floors, k) -> tuple:
    """The positions ``bounded_children`` (and ``Bounds.keep``) keeps, from the children's bounds ``floors``."""
    floor = max(lo[k] for lo, _ in floors)
    keep = tuple(j for j, (_, hi) in enumerate(floors) if hi[k] > floor)
    return keep or tuple(j for j, (lo, _) in enumerate(floors) if lo[k] == floor)


class Bounds:
    """The score bounds of one search: ``phases.bounds_of``, ``derive_bounds`` and ``bounded_children`` on nodes.

    A stored node's bounds live in ``stats.B`` (read from its record, set by ``update_path`` after each dive); a
    terminal node's are its payoff; a node not stored that a dive passes through the dice takes them from its children
    whenever asked; any other node the whole payoff range. Exact fractions throughout, so every comparison is the
    phases'.

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import dives, started
    >>> from ._records import ucb1_selector
    >>> graph, stats, root = started(Nim(heap=3, max_take=2))
    >>> bounds = Bounds(graph, stats)
    >>> bounds.of(root)
    ((Fraction(-1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(1, 1)))
    >>> _ = dives(graph, stats, root, 1, 30, random.Random(1), ucb1_selector(), bounds=bounds)
    >>> bounds.of(root)  # the first player wins misere Nim(3, 2): the bounds met
    ((Fraction(1, 1), Fraction(-1, 1)), (Fraction(1, 1), Fraction(-1, 1)))
    """

    def __init__(self, graph, stats):
        self.graph, self.stats = graph, stats
        self.whole = _whole_range(graph.game)  # the record form's own range and zero-sum total
        self.total = _pair_total(graph.game)
        self._terminal = {}

    def of(self, i, passing=False, _open=None):
        """``(pessimistic, optimistic)`` of node ``i`` (``phases.bounds_of``)."""
        k = expanded_kind(self.graph, self.stats, i)
        if k == END:
            b = self._terminal.get(i)
            if b is None:
                v = tuple(Fraction(x) for x in self.graph.payoff_at(i))
                b = self._terminal[i] = (v, v)
            return b
        stats = self.stats
        if i >= stats.known:
            stats.grow()
        if stats.N[i] is not None:
            return stats.B.get(i, self.whole)
        if not passing:
            return self.whole
        return _chance_value(i, _open, self.whole, lambda walk: self.derive(i, walk), BOUNDS_WALK)

    def derive(self, i, _open=None):
        """The bounds of node ``i`` from its children's (``phases.derive_bounds``)."""
        k, below = derived_from(self.graph, self.stats, i)
        if below is None:
            return self.of(i)
        if k == CHANCE_NODE:
            _open = {} if _open is None else _open
            return _chance_bounds((p, self.of(child, True, _open)) for p, child in below)
        return decision_bounds([self.of(c) for c in below], k, self.total)

    def solved(self, i):
        """``(exact value, rescaled floats)`` of node ``i`` if its bounds meet, else None."""
        lo, hi = self.of(i)
        return (lo, self.graph.rescale(lo)) if lo == hi else None

    def keep(self, nodes, k) -> tuple:
        """The positions in ``nodes`` a dive may enter at a decision of player ``k`` (``phases.bounded_children``)."""
        return _kept([self.of(c) for c in nodes], k)

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
