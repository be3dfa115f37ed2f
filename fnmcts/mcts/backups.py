"""The expectimax and graph backups, in both their forms: on the persistent tree's records, and on the engine's arrays.

``backup='expectimax'``: after the counts, every state of a dive's path takes
``value``, one expectimax step over its children (the chance outcomes weighted
by their exact probabilities, a decision's best child for its player), read
from the stored children only. ``backup='graph'`` (KataGo's graph search): a
state keeps the results of the dives that ended there and the visits of each
edge to a child, and its value is its children's values weighted by those
visits. Record form: ``node_value``, ``graph_value``, ``expectimax_path``,
``graph_path``; array form: ``stored_value``, ``expectimax_back``,
``graph_back``.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import CHANCE
from ._graph import CHANCE_NODE, END, UNSEEN, rescaler
from ._records import counts_of

__all__ = ["node_value", "graph_value", "CHANCE_WALK"]


def graph_path(game, known, nodes, new, x) -> None:
    """``backup='graph'``: each record of the path counts its edge to the next (the last, the result), then takes ``graph_value``."""
    if getattr(game, "num_players", 1) > 2:
        raise ValueError("backup='graph' values a child for its parent's mover: one or two players (zero-sum)")
    last = len(nodes) - 1
    for t, (state, mover) in enumerate(nodes):
        own, edges = new[state].get("graph") or (0.0, ())
        if t < last:
            edges = _one_more_edge(edges, *nodes[t + 1])
        else:
            own = own + x[mover]
        new[state] = new[state].set("graph", (own, edges))
    for state, mover in reversed(nodes):
        new[state] = new[state].set("value", graph_value(known, state, mover))


def expectimax_path(game, known, nodes, new) -> None:
    """``backup='expectimax'``: each record of the path, deepest first, takes ``value``, one expectimax step (``node_value``)."""
    for state, mover in reversed(nodes):
        n, s, *_ = counts_of(new[state])
        v = node_value(game, known, state, mover, s / n)
        new[state] = new[state].set("value", 0.0 if v < 0.0 else 1.0 if v > 1.0 else v)


def _one_more_edge(edges, child, chooser) -> tuple:
    """``edges`` with one more visit of the edge to ``child`` (added last, entered by ``chooser``, when new)."""
    for j, (c, n, who) in enumerate(edges):
        if c == child:
            return edges[:j] + ((c, n + 1, who),) + edges[j + 1:]
    return edges + ((child, 1, chooser),)


def graph_value(tree, state, mover) -> float:
    """The value of ``state`` for ``mover`` from its own results and its children's values, by edge visits.

    ``(own + sum(visits(edge) * value(child))) / visits(state)``, where ``own``
    is the sum of the results of the dives that ended at ``state`` and a
    child's value is its record's ``value`` (its mean if it keeps none), for
    ``mover``: as it is when the player choosing is ``mover``, its complement
    otherwise (two players, zero-sum); why: docs/search-options.md. A
    child no longer in the tree (a bounded search dropped it) counts for
    nothing, nor do its edge's visits.

    >>> from ._records import record
    >>> tree = {"a": record(1, 3).set("graph", (1.0, (("b", 3, 0),))), "b": record(2, 8, value=0.25)}
    >>> graph_value(tree, "a", 0)  # (1 + 3 * 0.25) / 4
    0.4375
    """
    rec = tree.get(state)
    n, s, *_ = counts_of(rec)
    own, edges = rec.get("graph") or (0.0, ())
    total, weight = own, n - sum(visits_ for _, visits_, _ in edges)  # weight: the dives that ended here, so far
    for child, visits_, who in edges:
        child_rec = tree.get(child)
        if child_rec is None:  # a child no longer in the tree (a bounded search dropped it): its edge goes too
            continue
        c = counts_of(child_rec)
        q = c[4] if c[4] is not None else c[1] / c[0]
        total += visits_ * (q if who == mover else 1.0 - q)
        weight += visits_
    return total / weight if weight else s / n


def node_value(game, tree, state, mover, fallback, _open=None):
    """One expectimax step at ``state``, for ``mover``, over the records of its children.

    At the end: the rescaled payoff; at a chance node: the outcomes' values
    weighted by their exact probabilities; at a decision: the best child the
    tree knows (its value, else its mean) or that ends the game, for the player
    deciding (its complement when another player decides); ``fallback`` where
    no child is known. A chance node is read once a step (``_chance_value``
    tells how a web of them is walked, and where ``fallback`` stands in).

    Taking both sticks of a heap of 2 wins (normal play), so the first
    player's decision is worth 1 to them and 0 to the other player:

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=2, max_take=2, misere=False)
    >>> node_value(game, {}, game.start(), 0, 0.5), node_value(game, {}, game.start(), 1, 0.5)
    (1.0, 0.0)
    """
    player = game.to_move(state)
    if player is None:
        return rescaler(game)(game.payoff(state))[mover]
    if player is CHANCE:
        return _chance_value(state, _open, fallback, lambda seen: sum(
            float(Fraction(p)) * node_value(game, tree, game.play(state, o), mover, fallback, seen)
            for o, p in game.chance_outcomes(state)))
    best = None
    for move in game.possible_moves(state):
        child = game.play(state, move)
        rec = tree.get(child)
        if rec is not None:
            n, s, _, _, v = counts_of(rec)
            v = v if v is not None else (s / n if n else 0.0)
        elif game.to_move(child) is None:
            v = rescaler(game)(game.payoff(child))[player]
        else:
            continue
        if best is None or v > best:
            best = v
    return _for_mover(best, player, mover, fallback)


def _for_mover(best, decider, mover, fallback):
    """``best``, a decision's best child value for ``decider``, for ``mover`` (``fallback`` when there is none)."""
    return fallback if best is None else best if decider == mover else 1.0 - best


CHANCE_WALK = 32
"""The chance states one expectimax step (``node_value``) or one derivation of bounds (``bounds_of``) reads at most
below a state, passing through the dice: the rest of a web of chance nodes (rolls after rolls) is not read."""


def _chance_value(key, open_, fallback, weighted, limit=CHANCE_WALK):
    """A chance node's value in one step of ``node_value`` or ``stored_value``: ``weighted(open_)``, read once.

    ``open_`` maps each chance node (a state, or a node of the graph) the step entered to its value, None while the walk
    is below it: met again below itself, ``fallback``; met again elsewhere, the value worked out the first time; past
    ``limit`` chance nodes, ``fallback`` (the rest of the web is not read). The bounds of a node passed through the dice
    are walked so too (``bounds_of``, ``Bounds.of``: the whole range for ``fallback``, ``BOUNDS_WALK`` for ``limit``).

    >>> _chance_value("roll", None, 0.5, lambda seen: 0.25 + len(seen))
    1.25
    >>> _chance_value("roll", {"roll": None}, 0.5, None), _chance_value("roll", {"roll": 0.75}, 0.5, None)
    (0.5, 0.75)
    """
    if open_ is None:
        open_ = {}
    elif key in open_:
        return fallback if open_[key] is None else open_[key]
    if len(open_) >= limit:
        return fallback
    open_[key] = None
    value = open_[key] = weighted(open_)
    return value


def stored_value(graph, stats, i, mover, fallback, _open=None):
    """One expectimax step at node ``i`` for ``mover``, over the stored children: ``node_value`` on the graph.

    In misere Nim(3, 2) the first player wins; after 50 dives the stored
    children say so, for either mover:

    >>> import random
    >>> from fnmcts.games.nim import Nim
    >>> from ._records import ucb1_selector
    >>> from ._engine import dives, started
    >>> graph, stats, root = started(Nim(heap=3, max_take=2))
    >>> _ = dives(graph, stats, root, 1, 50, random.Random(1), ucb1_selector())
    >>> stored_value(graph, stats, root, 0, 0.5), stored_value(graph, stats, root, 1, 0.5)
    (1.0, 0.0)
    """
    g = graph
    k = g.kind[i]  # _graph.derived_from's steps written out: this is the hot path of every chance game's backup
    if k == UNSEEN:
        k = g.expand(i)
        stats.grow()
    if k == END:
        return g.u[i][mover]
    if k == CHANCE_NODE:
        children = g.outcome_children(i)
        stats.grow()
        return _chance_value(i, _open, fallback, lambda seen: sum(
            p * stored_value(g, stats, c, mover, fallback, seen) for p, c in zip(g.chance[i][8], children)))
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


def graph_back(stats, path, movers, res, K):
    """``phases.backup``'s ``backup='graph'``: one more visit of each edge of ``path``, then the values, deepest first.

    The last node of the path keeps the dive's result among its own; every
    node's value is ``graph_value``: its own results and its children's
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
            if nc is None:  # dropped by a bounded tree: its edge counts for nothing (``graph_value``)
                continue
            q = V[child] if V[child] is not None else S[child] / nc
            total += visits * (q if who == m else 1.0 - q)
            weight += visits
        v = V[node] = total / weight if weight else S[node] / n
        E[node] = v * n
        if K is not None:
            K[node] = stats.key(E[node], n)


def expectimax_back(g, stats, path, movers, K) -> None:
    """Each node of the path, deepest first, takes its value: one expectimax step (``node_value``) over its children."""
    N, S, V, E, key = stats.N, stats.S, stats.V, stats.E, stats.key
    for node, m in zip(reversed(path), reversed(movers)):
        nn = N[node]
        v = stored_value(g, stats, node, m, S[node] / nn)
        v = V[node] = 0.0 if v < 0.0 else 1.0 if v > 1.0 else v
        E[node] = v * nn
        if K is not None:
            K[node] = key(E[node], nn)
