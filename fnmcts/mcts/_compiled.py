"""The compiled body of ``_kernel``: ``_engine.dives``'s plain loop over flat arrays, and CPython's ``random()``.

Imported only when a search first runs the kernel (it imports Numba). The machine code is cached beside this file
(Numba's ``cache=True``), so a new process loads it rather than compiling it again.
"""

from __future__ import annotations

import math
from array import array
from fractions import Fraction
from functools import lru_cache

import numba
import numpy as np

__all__ = ["rnd", "dives_kernel", "choose", "back_up", "open_children", "prove_path", "rave_choose", "amaf_back",
           "counts_in", "counts_out", "counts_at", "rng_in", "rng_out"]

_jit = numba.njit(cache=True, nogil=True)

_UPPER, _LOWER, _MATRIX = np.uint64(0x80000000), np.uint64(0x7FFFFFFF), np.uint64(0x9908B0DF)
_ONE, _WORD = np.uint64(1), np.uint64(0xFFFFFFFF)
_S11, _S7, _S15, _S18, _S5, _S6 = (np.uint64(k) for k in (11, 7, 15, 18, 5, 6))
_B, _C = np.uint64(0x9D2C5680), np.uint64(0xEFC60000)


@_jit
def genrand(mt, pos):
    """One 32-bit word of CPython's Mersenne Twister (``genrand_uint32``); ``mt`` and ``pos`` change in place."""
    if pos[0] >= 624:
        for kk in range(624):
            y = (mt[kk] & _UPPER) | (mt[(kk + 1) % 624] & _LOWER)
            v = mt[(kk + 397) % 624] ^ (y >> _ONE)
            if y & _ONE:
                v ^= _MATRIX
            mt[kk] = v
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> _S11
    y ^= (y << _S7) & _B
    y ^= (y << _S15) & _C
    y ^= y >> _S18
    return y & _WORD


@_jit
def rnd(mt, pos):
    """CPython's ``random.random()`` (``genrand_res53``) from the generator state ``mt``, ``pos``.

    >>> import random
    >>> rng = random.Random(4)
    >>> state = rng.getstate()[1]
    >>> mt, pos = np.array(state[:624], np.uint64), np.array([state[624]], np.int64)
    >>> [rnd(mt, pos) for _ in range(3)] == [rng.random() for _ in range(3)]
    True
    """
    a = genrand(mt, pos) >> _S5
    b = genrand(mt, pos) >> _S6
    return (float(a) * 67108864.0 + float(b)) * (1.0 / 9007199254740992.0)


@_jit
def tutorial_key(s, n, z):
    """``_records.ucb_score``: the tutorial's rating of a score ``s`` over ``n`` visits."""
    if n == 0:
        return np.inf
    if s == 0.0:
        return 3.0 / n
    return (s + z * np.sqrt(s * (n - s) / n)) / n


@_jit
def choose(flat, a, b, N, K, logs, ni, mode, c):
    """The child a dive enters among ``flat[a:b]``: the first unvisited in move order, else the best rated (``dives``).

    ``ni`` is the parent's visits; ``K`` the children's keys (the mean under
    UCB1, mode 1; the tutorial's rating, mode 2, ``z`` = ``c``).
    """
    for q in range(a, b):  # an unvisited child: the first in move order
        if N[flat[q]] <= 0:
            return flat[q]
    best, best_rating = -1, -np.inf
    if mode == 1:
        lp = logs[ni]
        for q in range(a, b):
            ch = flat[q]
            r = K[ch] + c * np.sqrt(lp / N[ch])
            if r > best_rating:
                best, best_rating = ch, r
    else:
        for q in range(a, b):
            ch = flat[q]
            if K[ch] > best_rating:
                best, best_rating = ch, K[ch]
    return best


@_jit
def back_up(path, movers, length, x_row, x_whole, N, S, whole, K, W, D, mode, c):
    """The backup of one dive: each node of ``path[:length]`` gets ``x_row`` for the player who moved into it.

    ``x_row`` is an end's rescaled payoff (``u[term]``, ``uwhole[term]`` saying
    which entries are whole numbers) or a proof's floats (never whole).
    """
    for p in range(length):
        node = path[p]
        x = x_row[movers[p]]
        cnt = N[node] + 1
        N[node] = cnt
        s = S[node] + x
        S[node] = s
        whole[node] = whole[node] and x_whole[movers[p]]
        K[node] = s / cnt if mode == 1 else tutorial_key(s, cnt, c)
        if x > 0.5:
            W[node] += 1
        elif x == 0.5:
            D[node] += 1


@_jit
def open_children(flat, a, b, pf, pu, k, opts):
    """MCTS-Solver at a decision of player ``k`` (one or two players) whose children are ``flat[a:b]``.

    ``(m, proof)``: the children a dive may enter are at ``opts[:m]`` in ``flat`` (in move order), and ``proof`` is the
    decision's proof from its children's (-1: not decided). A child's proof ``pf[child]`` is a row of ``pu``, the
    proofs' rescaled floats (-1: not proven). ``solver.Solver._sorted_out``, in floats (``Solver.floats_exact``): a
    child proven to give ``k`` the best payoff alone; else every child not proven, and the best proven child unless it
    gives ``k`` the worst payoff (then it alone if none is left).

    >>> flat, pu = np.array([3, 4, 5]), np.array([[1.0, 0.0], [0.5, 0.5]])
    >>> opts = np.empty(3, np.int64)
    >>> m, proof = open_children(flat, 0, 3, np.array([0, 0, 0, 1, -1, 1]), pu, 1, opts)
    >>> flat[opts[:m]].tolist(), proof
    ([3, 4], -1)
    >>> m, proof = open_children(flat, 0, 3, np.array([0, 0, 0, 1, 1, 0]), pu, 0, opts)
    >>> flat[opts[:m]].tolist(), proof
    ([5], 0)
    """
    best, top, unproven = -1, -1, False
    for q in range(a, b):
        p = pf[flat[q]]
        if p < 0:
            unproven = True
        elif pu[p, k] == 1.0:
            opts[0] = q
            return 1, p
        elif top < 0 or pu[p, k] > pu[top, k]:
            best, top = q, p
    m = 0
    if top < 0:
        for q in range(a, b):
            opts[m] = q
            m += 1
        return m, -1
    keep = pu[top, k] > 0.0
    for q in range(a, b):
        ch = flat[q]
        if pf[ch] < 0 or (keep and ch == flat[best]):
            opts[m] = q
            m += 1
    if m == 0:
        opts[0] = best
        m = 1
    return m, -1 if unproven else top


@_jit
def prove_path(path, length, kind, starts, counts, flat, pf, pset, pu, opts):
    """After a backup: the path's nodes proven from their children, deepest first, while they are decided.

    ``Solver.prove_path``: a node's children are ``flat[starts[i]:starts[i] + counts[i]]``; each node proven on the way
    (or before) is marked in ``pset`` (its proof goes into its record, ``stats.P``).
    """
    for p in range(length - 1, -1, -1):
        node = path[p]
        if pf[node] < 0:
            if kind[node] < 0:
                return
            m, proof = open_children(flat, starts[node], starts[node] + counts[node], pf, pu, kind[node], opts)
            if proof < 0:
                return
            pf[node] = proof
        pset[node] = True


@_jit
def rave_choose(kids, moves, qs, m, N, S, logs, ni, c, rk, An, As, table, k, width):
    """RAVE's choice (``rave.rave_picker``) among the children at ``kids[qs[:m]]`` of a decision of player ``k``
    with ``ni`` visits: the place in ``kids`` of the first rated best by ``rave_score`` (``_records``), its move's
    AMAF statistics read from row ``table`` of ``An``, ``As`` (-1: no table), ``rk`` its ``k``; alone, no rating."""
    if m == 1:
        return qs[0]
    best, top = -1, -np.inf
    for t in range(m):
        q = qs[t]
        ch = kids[q]
        n = N[ch]
        if n <= 0:
            r = np.inf
        else:
            v = S[ch] / n
            j = k * width + moves[q]
            if table >= 0 and An[table, j] > 0:
                beta = np.sqrt(rk / (3 * n + rk)) if rk else 0.0
                v = (1.0 - beta) * v + beta * (As[table, j] / An[table, j])
            r = v + c * np.sqrt(logs[ni] / n)
        if best < 0 or r > top:
            best, top = q, r
    return best


@_jit
def amaf_back(path, length, chosen, seen, keys, count, An, As, Arow, used, x_row, width):
    """``rave.amaf_backup``: every node of ``path[:length]`` counts each ``(player, move)`` played at or below it once
    (``keys[:count]``, the playout's, as ``player * width + move``; ``chosen[t]`` the move taken at ``path[t]``),
    with the player's ``x_row``; ``seen`` marks the keys held, cleared after. A node's table is row ``Arow[node]``
    of ``An``, ``As``, a node without (-1) takes the next of the ``used`` rows; the rows used after, returned."""
    for t in range(length - 1, -1, -1):
        if t < length - 1 and not seen[chosen[t]]:
            seen[chosen[t]] = True
            keys[count] = chosen[t]
            count += 1
        node = path[t]
        if Arow[node] < 0:
            Arow[node], used = used, used + 1
        r = Arow[node]
        for e in range(count):
            j = keys[e]
            An[r, j] += 1
            As[r, j] += x_row[j // width]
    for e in range(count):
        seen[keys[e]] = False
    return used


@_jit
def _outcome(d, start, denom, slot_start, slots, cumulative, mt, pos):
    """The outcome a chance node ``d`` draws: ``_graph.draw``'s slot table or ``bisect_right``."""
    if slot_start[d + 1] > slot_start[d]:
        return slots[slot_start[d] + int(rnd(mt, pos) * denom[d])]
    x = rnd(mt, pos) * denom[d]
    o = 0
    while o < start[d + 1] - start[d] - 1 and cumulative[start[d] + o] <= x:
        o += 1
    return o


@_jit
def dives_kernel(kind, start, flat, denom, slot_start, slots, cumulative, u, uwhole, N, S, whole, W, D, logs,
                 root, root_mover, n, mode, c, mt, pos, out, solve, stop, pf, pset, pu, path):
    """``n`` dives of ``_engine.dives`` (rule ``mode`` 1: UCB1 of constant ``c``; 2: the tutorial's, ``z`` = ``c``).

    Node ``i``: ``kind[i]`` (player, -1 an end, -2 chance), its children (or outcomes' nodes)
    ``flat[start[i]:start[i + 1]]``; ``u[i]`` an end's rescaled payoff. ``N`` (-1: not in the tree), ``S``, ``W``, ``D``
    change in place; ``whole[i]`` stays true while only whole numbers were added to ``S[i]``. ``out``:
    ``(dives run, the end node of the last dive, the proof that ended it or -1, its path's length)``, the path in
    ``path``, or ``(-1, a node)`` when a dive went round a cycle of states and ``(-2, a node)`` when random play from a
    node did not end (the counts are then left half done: the caller raises). ``_kernel.run`` builds the arrays from a
    graph and its counts.

    ``solve``: MCTS-Solver (one or two players, no chance), its proofs in ``pf``, ``pset``, ``pu`` (``open_children``,
    ``prove_path``; an end's ``pf`` its payoff's row of ``pu``); ``stop``: no dive once the root is proven.

    Two items, take 1 or 2, taking the last wins: player 0 at the start (node 0) takes one (to node 1: player 1
    then takes the last, node 2) or both (node 3, a win). After 10 dives the win has most of them:

    >>> kind = np.array([0, 1, -1, -1]); start = np.array([0, 2, 3, 3, 3]); flat = np.array([1, 3, 2])
    >>> u = np.array([[0., 0.], [0., 0.], [0., 1.], [1., 0.]])  # taking the last item wins
    >>> N, S = np.full(4, -1), np.zeros(4)
    >>> W, D, out = np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
    >>> mt = np.array(__import__("random").Random(1).getstate()[1][:624], np.uint64)
    >>> pf, pset, pu = np.array([-1, -1, 0, 1]), np.zeros(4, np.bool_), np.array([[0., 1.], [1., 0.]])
    >>> args = (kind, start, flat, np.zeros(4), np.zeros(5, np.int64), np.zeros(1, np.int64), np.zeros(3), u,
    ...         np.ones((4, 2), np.bool_), N, S, np.ones(4, np.bool_), W, D, np.log(np.arange(1.0, 12)), 0, 1, 10, 1,
    ...         2 ** 0.5)
    >>> dives_kernel(*args, mt, np.array([624]), out, False, False, pf, pset, pu, np.empty(5, np.int64))
    >>> N.tolist(), out.tolist()
    ([10, 2, 1, 7], [10, 3, -1, 2])

    With the solver, taking both is proven a win at the second dive, and the search stops there (``stop``):

    >>> N, S = np.full(4, -1), np.zeros(4)
    >>> args = args[:9] + (N, S) + args[11:]
    >>> dives_kernel(*args, mt, np.array([624]), out, True, True, pf, pset, pu, np.empty(5, np.int64))
    >>> N.tolist(), out.tolist(), pf.tolist(), pset.tolist()
    ([2, -1, -1, 1], [2, -1, 1, 2], [1, -1, 0, 1], [True, False, False, True])
    """
    size = kind.shape[0]
    K = np.zeros(size)
    for i in range(size):
        if N[i] > 0:
            K[i] = S[i] / N[i] if mode == 1 else tutorial_key(S[i], N[i], c)
    movers = np.empty(size + 1, np.int64)
    opts = np.empty(size + 1, np.int64)
    counts = start[1:] - start[:-1]
    proven_row = np.zeros(u.shape[1], np.bool_)  # (a proof's floats are never whole numbers)
    last, last_proof, last_length, done = -1, -1, 0, 0  # the last dive's end, proof and path's length
    for _ in range(n):
        proof = pf[root] if solve else -1
        if proof >= 0 and stop:
            break
        done += 1
        i = root
        length = 1
        path[0] = root
        movers[0] = root_mover
        ni = N[i]
        term = -1
        new = -1
        while proof < 0:
            if ni == -1:  # a new node: one random game from it (``_random_finish``)
                j = i
                steps = 0
                while True:
                    k = kind[j]
                    if k >= 0:
                        m = start[j + 1] - start[j]
                        j = flat[start[j] + (int(rnd(mt, pos) * m) if m > 1 else 0)]
                    elif k == -1:
                        break
                    else:
                        j = flat[start[j] + _outcome(j, start, denom, slot_start, slots, cumulative, mt, pos)]
                    steps += 1
                    if steps > 10_000 + 100 * size:  # random play that does not end: the caller's verdict
                        out[0], out[1] = -2, i
                        return
                term = j
                new = i
                break
            k = kind[i]
            d = i
            while k == -2:  # the chance outcomes, drawn until a player is to move
                d = flat[start[d] + _outcome(d, start, denom, slot_start, slots, cumulative, mt, pos)]
                k = kind[d]
            if k == -1:
                term = d
                break
            if solve:  # the solver's choice of children, then the rule's
                m, _ = open_children(flat, start[d], start[d + 1], pf, pu, k, opts)
                for t in range(m):
                    opts[t] = flat[opts[t]]
                i = choose(opts, 0, m, N, K, logs, ni, mode, c)
                proof = pf[i]
            else:
                i = choose(flat, start[d], start[d + 1], N, K, logs, ni, mode, c)
            if length > size:  # longer than the nodes: a cycle of states (the caller's verdict)
                out[0], out[1] = -1, i
                return
            path[length] = i
            movers[length] = k
            length += 1
            ni = N[i]
        if proof >= 0:  # a proven node ended the dive (counted from 0 if it is new)
            if ni == -1:
                N[i] = 0
            back_up(path, movers, length, pu[proof], proven_row, N, S, whole, K, W, D, mode, c)
            term = -1
        else:
            if new >= 0:
                N[new] = 0
            back_up(path, movers, length, u[term], uwhole[term], N, S, whole, K, W, D, mode, c)
        if solve and new < 0:  # a dive that ended at a new node proves nothing
            prove_path(path, length, kind, start, counts, flat, pf, pset, pu, opts)
        last, last_proof, last_length = term, proof, length
    out[0], out[1], out[2], out[3] = done, last, last_proof, last_length


def counts_in(stats, size, n, mode):
    """``(N, S, whole, W, D, logs)``: the counts of nodes ``0..size - 1`` as arrays, or None where Python rates them.

    ``N`` is -1 for a node not in the tree; ``whole[i]``: node ``i``'s score holds whole numbers alone; ``logs[v]`` is
    ``log(v)`` for every count ``n`` more dives can reach.

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import started
    >>> graph, stats, root = started(Nim(heap=3))
    >>> stats.set(root, (4, 3, 3, 0, None))
    >>> n_a, s_a, whole, w_a, d_a, logs = counts_in(stats, 1, 10, 1)
    >>> n_a.tolist(), s_a.tolist(), whole.tolist(), w_a.tolist(), len(logs) >= 16
    ([4], [3.0], [True], [3], True)
    """
    if stats.untouched() and n < 1 << 24:  # a new tree's: no node in it, no list read
        return (np.full(size, -1, np.int64), np.zeros(size), np.ones(size, np.bool_), np.zeros(size, np.int64),
                np.zeros(size, np.int64), _logs(n + 2))
    if stats.E is not stats.S:
        return None
    N = stats.N[:size]
    kept = [i for i in range(size) if N[i] is not None] if N.count(None) < size else []  # the nodes in the tree
    counts = [N[i] for i in kept]
    if any(type(x) is not int or x <= 0 for x in counts):  # a count 0 or not whole (a tree given so): Python rates it
        return None
    most = max(counts, default=0)
    if most + n >= 1 << 24:
        return None
    S, W, D = stats.S, stats.W, stats.D  # a node not in the tree holds 0s (``Stats.grow``, ``Stats.drop``): not read
    scores = [S[i] for i in kept]
    if mode == 2 and any(s > x for x, s in zip(counts, scores)):
        return None  # a score above the visits (a tree given so): only the Python loop rates it as an error
    n_a, s_a, whole = np.full(size, -1, np.int64), np.zeros(size), np.ones(size, np.bool_)
    w_a, d_a = np.zeros(size, np.int64), np.zeros(size, np.int64)
    if kept:
        n_a[kept], s_a[kept], whole[kept] = counts, scores, [type(s) is int for s in scores]  # only whole numbers added
        w_a[kept], d_a[kept] = [W[i] for i in kept], [D[i] for i in kept]
    return n_a, s_a, whole, w_a, d_a, _logs(most + n + 2)


@lru_cache(maxsize=1)
def _log_table(size):
    return np.array([-math.inf] + list(map(math.log, range(1, size))))


def _logs(size):
    """``log(v)`` for ``v`` below at least ``size`` (``-inf`` at 0), as ``math.log`` gives it: a table kept, doubled."""
    size = 1 << max(15, (size - 1).bit_length())  # (a table of 32,768 at least: one for most searches)
    return _log_table(size) if size <= 1 << 20 else _log_table.__wrapped__(size)  # (past 8 MB: made, not kept)


def counts_out(stats, counts, before, mode, c):
    """Write the counts ``counts_in`` gave, as the dives left them, back into ``stats`` (the nodes whose ``N`` moved).

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import started
    >>> graph, stats, root = started(Nim(heap=3))
    >>> stats.set(root, (4, 3, 3, 0, None))
    >>> counts = counts_in(stats, 1, 10, 1)
    >>> before = counts[0].copy()
    >>> counts[0][0], counts[1][0], counts[3][0] = 5, 4.0, 4  # a dive won
    >>> counts_out(stats, counts, before, 1, 2 ** 0.5)
    >>> stats.counts(root)
    (5, 4, 4, 0, None)
    """
    n_a, s_a, whole, w_a, d_a, _ = counts
    K, N, S, W, D = stats.K, stats.N, stats.S, stats.W, stats.D
    moved = np.flatnonzero(n_a != before)  # the nodes the dives backed up
    size, keep = len(n_a), K is not None and stats.key_rule == (mode, c)
    if 3 * len(moved) >= size and mode == 1:  # most nodes moved: whole columns at once, faster than the loop below
        in_tree = n_a > 0  # (a count of the tree is at least 1: ``counts_in``)
        n_o, s_o = n_a.astype(object), s_a.astype(object)
        n_o[~in_tree] = None
        s_o[whole] = s_a[whole].astype(np.int64).astype(object)  # a score of whole numbers alone stays an int
        N[:size], S[:size], W[:size], D[:size] = n_o.tolist(), s_o.tolist(), w_a.tolist(), d_a.tolist()
        if keep:  # UCB1's key, the mean: ``Stats.key``'s division, the same floats
            k_o = np.divide(s_a, n_a, out=np.zeros(size), where=in_tree).astype(object)
            k_o[~in_tree] = None
            K[:size] = k_o.tolist()
        return
    nodes, n_m, s_m = moved.tolist(), n_a[moved], s_a[moved]
    counts, scores, wins, draws = n_m.tolist(), s_m.tolist(), w_a[moved].tolist(), d_a[moved].tolist()
    for j in np.flatnonzero(whole[moved]).tolist():  # a score of whole numbers alone stays an int
        scores[j] = int(scores[j])
    if not keep:  # else one loop of list stores (STORE_SUBSCR's fast path), the keys in it
        for i, n, s, w, d in zip(nodes, counts, scores, wins, draws):
            N[i], S[i], W[i], D[i] = n, s, w, d
        return
    # UCB1's key, the mean: ``Stats.key``'s division, the same floats; else the rule's own key
    keys = np.divide(s_m, n_m).tolist() if mode == 1 else list(map(stats.key, scores, counts))
    for i, n, s, w, d, k in zip(nodes, counts, scores, wins, draws, keys):
        N[i], S[i], W[i], D[i], K[i] = n, s, w, d, k


def counts_at(counts, i):
    """Node ``i``'s ``(visits, score, wins, draws)`` in the arrays ``counts_in`` gave, or None: not in the tree.

    The numbers ``counts_out`` writes (a score of whole numbers alone an int).

    >>> counts = (np.array([3, -1]), np.array([2.0, 0.0]), np.array([True, True]), np.array([2, 0]), np.zeros(2, int), None)
    >>> counts_at(counts, 0), counts_at(counts, 1)
    ((3, 2, 2, 0), None)
    """
    n_a, s_a, whole, w_a, d_a, _ = counts
    n = int(n_a[i])
    if n <= 0:
        return None
    s = float(s_a[i])
    return n, int(s) if whole[i] else s, int(w_a[i]), int(d_a[i])


def proofs_in(solver, stats, size, payoffs):
    """``(pf, pset, pu)``: the proofs of nodes ``0..size - 1`` as the compiled solver reads them, or None.

    ``payoffs`` are the game's payoffs its ends pay (distinct); a proof is one of them (a game of one or two players
    without chance), the row of ``pu`` (their floats, ``Solver.value``'s) that ``pf[i]`` names (-1: not proven). ``pf``
    holds the proofs ``stats.P`` keeps (an end's are set by the caller), ``pset`` none yet. None where the Python solver
    must decide: more than two players, proofs compared by their exact values (``Solver.floats_exact``), or a proof kept
    that is not one of ``payoffs``.

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import started
    >>> from .solver import Solver
    >>> graph, stats, root = started(Nim(heap=3))
    >>> solver = Solver(graph, stats)
    >>> pf, pset, pu = proofs_in(solver, stats, 1, [(1, -1), (-1, 1)])
    >>> pf.tolist(), pset.tolist(), pu.tolist()
    ([-1], [False], [[1.0, 0.0], [0.0, 1.0]])
    """
    if not solver.shortcut or not solver.floats_exact:
        return None
    payoffs = tuple(payoffs)
    kept = solver.compiled_rows  # per payoffs: their rows, worked out once a search
    found = kept[payoffs] if payoffs in kept else kept.setdefault(payoffs, _rows(solver, payoffs))
    if found is None:
        return None
    place, rows = found
    pf = np.full(size, -1, np.int64)
    P = stats.P
    for i in [i for i, p in enumerate(P[:size]) if p is not None]:
        j = place.get(tuple(P[i]))
        if j is None:
            return None
        pf[i] = j
    return pf, np.zeros(size, np.bool_), np.array(rows, np.float64).reshape(len(rows), -1)


def dives_result(done, raw, path, solver, stats, proofs, payoffs, proof) -> tuple:
    """``_engine.dives``' result of the compiled dives: ``(done, path, payoff, exact)`` (``raw``: the payoff of the last
    dive's end, or None), the proofs written back (``proofs_out``) when the solver is on (``proofs``).

    >>> dives_result(5, (1, -1), [0, 3], None, None, None, [], -1)
    (5, None, (1, -1), None)
    """
    if proofs is None:
        return done, None, raw, None
    exact = proofs_out(solver, stats, proofs, payoffs, proof if done else -1)
    return done, path if done else None, raw if exact is None else exact, exact


def _rows(solver, payoffs):
    """``(place of each exact payoff, their rows of floats)``, or None if two values share a float."""
    exacts, rows = _float_rows(solver.low, solver.span, payoffs)
    seen = dict(solver._exact_of)
    for exact, row in zip(exacts, rows):  # no two values on one float: the floats order the proofs exactly
        for x, f in zip(exact, row):
            if seen.setdefault(f, x) != x:
                return None
    return {exact: j for j, exact in enumerate(exacts)}, rows


@lru_cache(maxsize=16)
def _float_rows(low, span, payoffs):
    """The exact payoffs and their floats, as ``Solver.value`` works them out (the same for every search of a game)."""
    exacts = [tuple(map(Fraction, pay)) for pay in payoffs]
    return exacts, [tuple(float((x - low) / span) for x in exact) for exact in exacts]


def proofs_out(solver, stats, proofs, payoffs, last):
    """Write the proofs the compiled dives made (``pset``) into ``stats.P`` and the ``solver``; the exact value of
    proof ``last`` (None: -1, the last dive ended at no proof).

    The solver's kept choices are worked out afresh after (children were proven meanwhile).
    """
    pf, pset, _ = proofs
    values = {}  # proof -> ``Solver.value`` of it, worked out for the proofs met

    def value(j):
        pv = values.get(j)
        if pv is None:
            pv = values[j] = solver.value(tuple(map(Fraction, payoffs[j])))
        return pv

    P, proven = stats.P, solver.proven
    for i, j in zip(np.flatnonzero(pset).tolist(), pf[pset].tolist()):
        P[i] = (pv := value(j))[0]
        proven[i] = pv
    solver.open.clear()
    solver.decided.clear()
    solver._parents.clear()
    return value(last)[0] if last >= 0 else None


def rng_in(rng) -> tuple:
    """``(mt, pos)``: the state of ``rng`` (a ``random.Random``) as the compiled ``rnd`` reads it.

    >>> import random
    >>> rnd(*rng_in(random.Random(3))) == random.Random(3).random()
    True
    """
    words = np.frombuffer(array("Q", rng.getstate()[1]), np.uint64)  # the 624 words, then the position: one buffer
    return words[:624], words[624:].view(np.int64)


def rng_out(rng, mt, pos) -> None:
    """Set ``rng`` to the state ``mt``, ``pos`` the compiled draws left.

    >>> import random
    >>> rng, twin = random.Random(3), random.Random(3)
    >>> mt, pos = rng_in(rng)
    >>> drawn = [rnd(mt, pos) for _ in range(5)]
    >>> rng_out(rng, mt, pos)
    >>> drawn == [twin.random() for _ in range(5)] and rng.getstate() == twin.getstate()
    True
    """
    rng.setstate((rng.VERSION, (*mt.tolist(), int(pos[0])), rng.gauss_next))  # (``getstate``'s three parts)
