"""The compiled loop on a game's own compiled rules: ``_engine.dives`` for games too large to hold as tables.

A game may offer ``compiled_rules()`` (``fnmcts.games.connect_four``'s
``Rules``): its states as 64-bit keys and, compiled with Numba, the moves and
the keys they lead to. A plain search (the conditions of ``_kernel.run``) on
such a game runs here: the loop grows the nodes itself (an open-addressing
table from key to node, arrays grown by doubling), interning each state when
``dives`` would, in the order it would (a node's children, in move order, when
a dive first passes through it), and draws its playouts as ``playout`` does.
The nodes and counts are then written into the graph and the stats: the tree,
the counts and the generator's state are those of the Python loop
(tests/test_connect_four.py holds them equal).
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from ._compiled import back_up, choose, counts_in, counts_out, rnd, rng_in, rng_out, tutorial_key
from ._graph import END, UNSEEN

__all__ = ["run_rules"]

_jit = numba.njit(nogil=True)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(29)


@_jit
def _slot(tkeys, tvals, key):
    """The slot of ``key`` in the table (its node there, or the empty slot it goes to)."""
    mask = tkeys.shape[0] - 1
    h = np.uint64(key) * _MIX
    q = np.int64((h ^ (h >> _SHIFT)) & np.uint64(mask))
    while tvals[q] != -1 and tkeys[q] != key:
        q = (q + 1) & mask
    return q


@_jit
def _fill(keys, size, tkeys, tvals):
    """Put nodes ``0..size - 1`` (their ``keys``) into an empty table."""
    for i in range(size):
        q = _slot(tkeys, tvals, keys[i])
        tkeys[q], tvals[q] = keys[i], i


def _loop(step, mover):
    """The dives on the rules ``step`` and ``mover``, compiled once per game's rules (``_compiled_for``)."""

    @_jit
    def expand(i, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals, sizes, order, bk, bm):
        """Node ``i``'s kind, and its children interned in move order (False: no room, nothing changed)."""
        size, used = sizes[0], sizes[1]
        if size + bk.shape[0] > keys.shape[0] or 2 * (size + bk.shape[0]) > tkeys.shape[0] \
                or used + bk.shape[0] > kids.shape[0]:
            return False
        m = step(keys[i], bk, bm)
        if m < 0:
            kind[i], outc[i] = -1, -1 - m
        else:
            kind[i] = mover(keys[i])
            kstart[i], kcount[i] = used, m
            for j in range(m):
                q = _slot(tkeys, tvals, bk[j])
                if tvals[q] == -1:
                    tkeys[q], tvals[q] = bk[j], size
                    keys[size] = bk[j]
                    size += 1
                kids[used + j], moves[used + j] = tvals[q], bm[j]
            sizes[0], sizes[1] = size, used + m
        order[sizes[2]] = i  # (the order the nodes were expanded in)
        sizes[2] += 1
        return True

    @_jit
    def dives(keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals, sizes, order, N, S, whole, W, D, u, uwhole,
              logs, width, root, root_mover, n, mode, c, mt, pos, out):
        """Up to ``n`` dives; ``out``: ``(dives run, the last dive's outcome)``, fewer dives when the arrays are full.

        ``sizes``: ``(nodes, children's entries, nodes expanded)``, ``order`` the
        nodes expanded, in order; a node's ``kind`` is -3 until expanded here.
        """
        K = np.zeros(N.shape[0])
        for i in range(sizes[0]):
            if N[i] > 0:
                K[i] = S[i] / N[i] if mode == 1 else tutorial_key(S[i], N[i], c)
        bk, bm = np.empty(width, np.int64), np.empty(width, np.int64)
        path, movers = np.empty(keys.shape[0] + 1, np.int64), np.empty(keys.shape[0] + 1, np.int64)
        for done in range(n):
            i, length, ni, new, term = root, 1, N[root], -1, -1
            path[0], movers[0] = root, root_mover
            while True:
                if ni == -1:  # a new node: one random game from its state (``playout``'s draws)
                    key = keys[i]
                    m = step(key, bk, bm)
                    while m >= 0:
                        key = bk[int(rnd(mt, pos) * m) if m > 1 else 0]
                        m = step(key, bk, bm)
                    term, new = -1 - m, i
                    break
                if kind[i] == -3 and not expand(i, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals,
                                                sizes, order, bk, bm):
                    out[0] = done  # no room: the caller grows the arrays and runs the rest (no draw made yet)
                    return
                k = kind[i]
                if k == -1:
                    term = outc[i]
                    break
                i = choose(kids, kstart[i], kstart[i] + kcount[i], N, K, logs, ni, mode, c)
                path[length], movers[length] = i, k
                length += 1
                ni = N[i]
            if new >= 0:
                N[new] = 0
            back_up(path, movers, length, u, uwhole, term, N, S, whole, K, W, D, mode, c)
            out[1] = term
        out[0] = n

    return dives


@lru_cache(maxsize=8)
def _compiled_for(step, mover):
    return _loop(step, mover)


def compiled(rules) -> bool:
    """Whether the loop on ``rules`` is compiled in this process (the first compile takes seconds)."""
    return bool(_compiled_for(rules.step, rules.mover).signatures)


def _grown(arrays, room, fill):
    """Each array of ``arrays`` ``room`` long, its entries kept and the new ones ``fill``."""
    return [np.concatenate([a, np.full(room - a.shape[0], f, a.dtype)]) for a, f in zip(arrays, fill)]


def run_rules(rules, graph, stats, root, root_mover, n, rng, mode, c):
    """``dives``' result on the game's ``rules`` (``Rules``), compiled; None if the counts are the Python loop's to rate.

    ``graph``, ``stats`` and ``rng`` change as ``dives`` changes them.

    >>> import random
    >>> from fnmcts.games.connect_four import ConnectFour
    >>> from ._engine import started
    >>> graph, stats, root = started(ConnectFour())
    >>> done, _, payoff, _ = run_rules(ConnectFour().compiled_rules(), graph, stats, root, 1, 600, random.Random(1), 1,
    ...                                2 ** 0.5)
    >>> done, stats.N[root], len(graph) > 600, payoff in ((1, -1), (-1, 1), (0, 0))
    (600, 600, True, True)
    """
    size0 = len(graph)
    counts = counts_in(stats, size0, n, mode)
    if counts is None:
        return None
    width = rules.width
    room = 1 << max(64, 2 * size0, 4 * width).bit_length()  # a power of 2: the table's slots are found by a mask
    keys = np.fromiter(map(rules.key, graph.states), np.int64, size0)
    fill = (0, -3, 0, -1, 0, -1, 0.0, True, 0, 0, 0)  # key, kind, outcome, children's start and count, counts, order
    nodes = _grown([keys, np.full(size0, -3, np.int64), np.zeros(size0, np.int64), np.full(size0, -1, np.int64),
                    np.zeros(size0, np.int64), *counts[:5], np.zeros(size0, np.int64)], room, fill)
    flat = [np.zeros(room, np.int64), np.zeros(room, np.int64)]  # the children and their moves, node by node
    tkeys, tvals = _table(nodes[0], size0, 4 * room)
    sizes = np.array([size0, 0, 0], np.int64)
    payoffs = [graph.rescale(p) for p in rules.payoffs]
    players = range(max(1, graph.num_players))
    u = np.array([[p[m] for m in players] for p in payoffs], np.float64)
    uwhole = np.array([[type(p[m]) is int for m in players] for p in payoffs], np.bool_)
    mt, pos = rng_in(rng)
    out = np.zeros(2, np.int64)
    dives = _compiled_for(rules.step, rules.mover)
    left = n
    while True:
        dives(*nodes[:5], *flat, tkeys, tvals, sizes, nodes[10], *nodes[5:10], u, uwhole, counts[5], width, root,
              root_mover, left, mode, float(c), mt, pos, out)
        left -= int(out[0])
        if not left:
            break
        room *= 2  # the arrays ran out of room before a dive ended: doubled, and the dives go on
        nodes = _grown(nodes, room, fill)
        flat = _grown(flat, max(room, 2 * flat[0].shape[0]), (0, 0))
        tkeys, tvals = _table(nodes[0], int(sizes[0]), 4 * room)
    rng_out(rng, mt, pos)
    _write_back(rules, graph, stats, nodes, flat, sizes, counts[0], payoffs, mode, c)
    return n, None, rules.payoffs[int(out[1])], None


def _table(keys, size, capacity):
    tkeys, tvals = np.zeros(capacity, np.int64), np.full(capacity, -1, np.int64)
    _fill(keys, size, tkeys, tvals)
    return tkeys, tvals


def _write_back(rules, graph, stats, nodes, flat, sizes, before, payoffs, mode, c):
    """The nodes the dives made, interned in the graph in their order, the nodes they expanded, and the counts."""
    keys, kind, outc, kstart, kcount = nodes[:5]
    size0, size = len(graph), int(sizes[0])
    kids, moves, order = flat[0].tolist(), flat[1].tolist(), nodes[10][:sizes[2]].tolist()
    if rules.states is not None:
        graph.intern_all(rules.states(keys[size0:size]))
    else:  # each new state played from the node it was first made below, in the order the nodes were made
        made, play, states = [], graph.game.play, graph.states
        for i in order:
            if kind[i] >= 0:
                at = states[i] if i < size0 else made[i - size0]
                for j in range(int(kstart[i]), int(kstart[i] + kcount[i])):
                    if kids[j] == size0 + len(made):  # (a node made before, here or above, is not made again)
                        made.append(play(at, moves[j]))
        graph.intern_all(made)
    gkind, kids_, lazy, moves_, u = graph.kind, graph.kids, graph.lazy, graph.moves, graph.u
    for i in order:
        k = int(kind[i])
        graph.asked.pop(i, None)
        if k == -1:
            if gkind[i] == UNSEEN:
                gkind[i], u[i] = END, payoffs[outc[i]]
        elif kids_[i] is None:
            a = int(kstart[i])
            b = a + int(kcount[i])
            gkind[i], moves_[i], lazy[i] = k, tuple(moves[a:b]), kids[a:b]
            kids_[i] = tuple(kids[a:b])
    stats.grow()
    counts_out(stats, (*(a[:size] for a in nodes[5:10]), None), np.concatenate([before, np.full(size - size0, -1)]),
               mode, c)
