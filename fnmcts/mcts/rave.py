"""RAVE and GRAVE, in both their forms: on the persistent tree's records, and on the engine's arrays.

All-moves-as-first: each record also counts, per ``(player, move)``, the results of the dives in which that player made
that move at or below its state; a child is rated by its mean blended with its move's AMAF mean (``rave_score``, with
the equivalence parameter ``k``), read from the nearest state of the path with at least ``rave_ref`` visits (GRAVE).
Record form: ``amaf_keys``, ``amaf_table``, ``count_amaf``; array form: ``rave_picker``, ``amaf_backup``.
"""

from __future__ import annotations

import math
from math import inf as _inf

from pyrsistent import pmap

from ..protocol import CHANCE
from ._graph import children_made
from ._records import counts_of, rave_score
from .solver import _open_positions

__all__ = ["amaf_keys", "amaf_table"]


def amaf_table(records, ref: int = 0):
    """The AMAF statistics a rating reads: those of the last of ``records`` (the path, root first) with ``ref`` visits.

    GRAVE (Cazenave 2015): the nearest state of the path, from the one
    deciding up, whose record holds at least ``ref`` visits; the root's when
    none does. ``ref = 0`` is plain RAVE: the deciding state's own. A map
    ``{(player, move): (visits, score)}``, or None when it keeps none.

    >>> from ._records import record
    >>> amaf_table([record(9, 1).set('amaf', {(0, 1): (10, 9.0)}), record(1, 1)], 5)
    {(0, 1): (10, 9.0)}
    >>> amaf_table([record(9, 1).set('amaf', {(0, 1): (10, 9.0)}), record(1, 1)], 0) is None
    True
    """
    for rec in reversed(records):
        if counts_of(rec)[0] >= ref:
            return rec.get("amaf")
    return records[0].get("amaf")


def rave_rating(rec, parent, c, table, player, move, k, expectimax):
    """``rave_score`` of a child's record (None: not in the tree) reached by ``move`` of ``player``."""
    if rec is None:
        return math.inf
    n, s, _, _, v = counts_of(rec)
    if expectimax and v is not None:
        s = v * n
    return rave_score(s, n, parent, c, None if table is None else table.get((player, move)), k)


def count_amaf(game, path, played, nodes, new, x) -> None:
    """RAVE: each record of the path counts, in ``amaf``, every ``(player, move)`` played at or below it, once."""
    for state, keys in zip((state for state, _ in nodes), amaf_keys(game, path, played)):
        if not keys:  # a dive that ended where no one moved: nothing to count
            continue
        table = new[state].get("amaf") or _EMPTY_TABLE
        grown = table.evolver()
        for key in keys:
            n, s = table.get(key, (0, 0.0))
            grown[key] = (n + 1, s + x[key[0]]) if n else (1, x[key[0]])
        new[state] = new[state].set("amaf", grown.persistent())


_EMPTY_TABLE = pmap()


def amaf_keys(game, path, played=()) -> list:
    """Per state of ``path.nodes``, the set of ``(player, move)`` played at or below it in the dive (RAVE).

    The moves chosen on the path from that state down, then the moves of the playout (``played``, its moves and chance
    outcomes in order, from ``path.leaf``; the outcomes are no one's move): all moves as first, each counted once.

    >>> import random
    >>> from functools import partial
    >>> from fnmcts.games import Nim
    >>> from ._records import record, ucb1
    >>> from .phases import select
    >>> game = Nim(heap=4, max_take=2)
    >>> tree = {game.start(): record(1, 0)}
    >>> path = select(game, tree, game.start(), random.Random(1), rave=0, rule=partial(ucb1, c=1))
    >>> [sorted(keys) for keys in amaf_keys(game, path, (1, 2))]
    [[(0, 1), (0, 2), (1, 1)], [(0, 2), (1, 1)]]

The root's player took 1 (heap 3, a new state), then the playout took 1 (player 1) and 2 (player 0): the new state
counts the playout's two moves, the root those and its own.
    """
    chosen = [(step.player, step.moves[step.chosen]) for step in path.steps if step.chosen is not None]
    keys = set()
    count_played(game, path.leaf, played, keys)
    out = []
    for t in range(len(path.nodes) - 1, -1, -1):
        if t < len(chosen):
            keys.add(chosen[t])
        out.append(frozenset(keys))
    out.reverse()
    return out


def count_played(game, state, played, keys) -> None:
    """Add to ``keys`` the ``(player, move)`` of each move of ``played`` (a playout's moves and outcomes from ``state``)."""
    for item in played:
        player = game.to_move(state)
        if player is not CHANCE:
            keys.add((player, item))
        state = game.play(state, item)


def rave_picker(g, stats, solver, rave, chosen, bounds=None):
    """``pick(options, parent visits, node, decision d, player k, path)``: the child RAVE / GRAVE rates best (``phases.select``).

    ``options``: the children a dive may enter (all of ``d``'s: no proof is looked up again); the AMAF statistics read
    are those of the nearest node of ``path`` with ``rave_ref`` visits (``phases.amaf_table``); the move taken is
    appended to ``chosen``. (A closure, as ``_engine``'s pickers: the loop calls it at every step.)
    """
    k_, ref, c = rave
    N, E, A, kids_, moves_ = stats.N, stats.E, stats.A, g.kids, g.moves

    def pick(options, parent, i, d, k, path):
        kids, moves = kids_[d] or children_made(g, stats, d), moves_[d]
        positions = range(len(kids)) if options is kids else _open_positions(g, kids, k, solver, bounds)
        if len(positions) == 1:
            best = positions[0]
        else:
            for node in reversed(path):  # ``amaf_table``'s choice, written out: this runs at every step of a dive
                if N[node] >= ref:
                    table = A.get(node)
                    break
            else:
                table = A.get(path[0])
            best, top = None, None
            for j in positions:
                child = kids[j]
                n = N[child]
                amaf = None if table is None else table.get((k, moves[j]))
                r = _inf if not n else rave_score(E[child], n, parent, c, amaf, k_)
                if best is None or r > top:
                    best, top = j, r
        chosen.append((k, moves[best]))
        return kids[best]

    return pick


def amaf_backup(A, path, chosen, keys, res):
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
