"""The compiled loop on a game's own compiled rules: ``_engine.dives`` for games too large to hold as tables.

A game may offer ``compiled_rules()`` (``fnmcts.games.connect_four``'s ``Rules``): its states as keys of one or two
64-bit words and, compiled with Numba, the moves and the keys they lead to. A search (the conditions of ``_kernel.run``:
MCTS-Solver, RAVE and GRAVE among them) on such a game runs here: the loop grows the nodes itself (an open-addressing
table from key to node, arrays grown by doubling), interning each state when ``dives`` would, in the order it would (a
node's children, in move order, when a dive first passes through it), and draws its playouts as ``playout`` does. The
nodes and counts are then written into the graph and the stats: the tree, the counts and the generator's state are those
of the Python loop (tests/test_connect_four.py holds them equal).
"""

from __future__ import annotations

import base64
import os
import pickle
import platform
import subprocess
import sys
import tempfile
import time
import zlib
from functools import lru_cache, partial, wraps

import numba
import numpy as np
from llvmlite import ir
from numba.extending import intrinsic, overload

from ._compiled import (amaf_back, back_up, choose, counts_at, counts_in, counts_out, dives_result, open_children,
                        proofs_in, prove_path, rave_choose, rnd, rng_in, rng_out, tutorial_key)
from ._graph import END, UNSEEN

__all__ = ["run_rules"]

_jit = numba.njit(cache=True, nogil=True)  # (kept on disk: the rules come as functions of a fixed type, ``_compiled_for``)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(29)


@intrinsic
def _cycles(typingctx):
    """The processor's cycle counter (LLVM's ``readcyclecounter``, x86-64's time-stamp counter): the loop's clock, a
    read in about 12 ns, kept on disk with the loop (a call of Python's clock could not be)."""
    def codegen(context, builder, signature, args):
        counter = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(counter, [])

    return numba.types.int64(), codegen


@_jit
def _now():
    return _cycles()


@lru_cache(maxsize=1)
def settled() -> bool:
    """Collect the garbage once, after the loop's machine code is first loaded in a process: numba leaves some
    100,000 new objects, which each collection of the oldest generation walks until a full one has seen them (5 ms,
    every few searches on OpenSpiel's connect_four). True once done."""
    import gc

    gc.collect()
    return True


@lru_cache(maxsize=1)
def cycle_rate() -> float:
    """The cycle counter's ticks a second, timed once a process over 0.2 ms (0.0: no counter the loop may read,
    a processor other than x86-64's, whose counter runs at a constant rate: the clocked search then sizes its chunks
    by their pace alone)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return 0.0
    _now()  # (loaded or compiled first)
    c0, t0 = _now(), time.perf_counter()
    while time.perf_counter() - t0 < 2e-4:
        pass
    c1, t1 = _now(), time.perf_counter()
    return (c1 - c0) / (t1 - t0) if c1 > c0 else 0.0


def _by_words(one, two):
    """A function of the loop's keys, its first argument an array of them: ``one`` where a key is one word (the array
    1-D, a key an int64), ``two`` where it is two (2-D, a key a row); numba compiles the one that fits."""
    def by_words(*args):
        raise NotImplementedError  # (compiled code alone calls it)

    overload(by_words, inline="always")(wraps(one)(lambda *types: one if types[0].ndim == 1 else two))
    return by_words


def _held_two(keys, j, into):
    into[0], into[1] = keys[j, 0], keys[j, 1]
    return into


_hash = _by_words(lambda tkeys, key: np.uint64(key), lambda tkeys, key: np.uint64(key[0]) * _MIX ^ np.uint64(key[1]))
_same = _by_words(lambda tkeys, q, key: tkeys[q] == key,
                  lambda tkeys, q, key: (tkeys[q, 0] == key[0]) & (tkeys[q, 1] == key[1]))
_held = _by_words(lambda keys, j, into: keys[j], _held_two)  # (key ``j``; a row copied: ``step`` writes over ``keys``)


@_jit
def _slot(tkeys, tvals, key):
    """The slot of ``key`` in the table (its node there, or the empty slot it goes to)."""
    mask = tkeys.shape[0] - 1
    h = _hash(tkeys, key) * _MIX
    q = np.int64((h ^ (h >> _SHIFT)) & np.uint64(mask))
    while tvals[q] != -1 and not _same(tkeys, q, key):
        q = (q + 1) & mask
    return q


@_jit
def _fill(keys, size, tkeys, tvals):
    """Put nodes ``0..size - 1`` (their ``keys``) into an empty table."""
    for i in range(size):
        q = _slot(tkeys, tvals, keys[i])
        tkeys[q], tvals[q] = keys[i], i


@_jit
def _expand(step, mover, i, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals, sizes, order, bk, bm):
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
def _settle(step, mover, i, keys, kind, outc, pf, order, sizes, bk, bm):
    """Whether node ``i``, not expanded, is an end (``CompiledGraph.ends``): an end is expanded, its proof its
    payoff; any other node is marked asked (``-10 - mover``) and left unexpanded."""
    m = step(keys[i], bk, bm)
    if m < 0:
        kind[i], outc[i], pf[i] = -1, -1 - m, -1 - m
        order[sizes[2]] = i
        sizes[2] += 1
    else:
        kind[i] = -10 - mover(keys[i])

@_jit
def _dives(step, mover, decisive, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals, sizes, order, N, S, whole, W, D, pf, pset,
          An, As, Arow, u, uwhole, pu, logs, width, root, root_mover, n, mode, c, solve, stop, rave, sure, mt, pos,
          out, last_path, until, after):
    """Up to ``n`` dives; ``out``: ``(dives run, the last dive's outcome, its proof or -1, its path's length (path in
    ``last_path``), 1 if the dives are over)``, fewer when arrays are full (``out[4]``: 0 the nodes', 2 the AMAF rows).
    ``sizes``: ``(nodes, children's entries, nodes expanded, AMAF rows used)``, ``order`` the nodes expanded; a node's
    ``kind`` is -3 until expanded here, ``-10 - mover`` once known to be no end. ``solve``: MCTS-Solver, ``stop``: no
    dive once the root is proven. ``rave``: ``(k, rave_ref, c)`` (``k`` < 0: off), node ``i``'s AMAF statistics row
    ``Arow[i]`` of ``An``, ``As`` (-1: none). ``sure``: ``decisive_agent``'s playouts (the rules' ``decisive``).
    ``until``: the cycle count (``_cycles``) no dive starts at, less ``after`` cycles a dive run (0: no clock)."""
    K = np.zeros(N.shape[0])
    for i in range(sizes[0]):
        if N[i] > 0:
            K[i] = S[i] / N[i] if mode == 1 else tutorial_key(S[i], N[i], c)
    bk, bm = np.empty((width,) + keys.shape[1:], np.int64), np.empty(width, np.int64)  # (a row of words a key ...
    kb = np.empty(keys.shape[1:], np.int64)  # ... and the key a playout is at, where a key is two words)
    path, movers = np.empty(keys.shape[0] + 1, np.int64), np.empty(keys.shape[0] + 1, np.int64)
    opts, optn, cand = np.empty(width, np.int64), np.empty(width, np.int64), np.empty(width, np.int64)
    proven_row = np.zeros(u.shape[1], np.bool_)
    rk, ref, rc = rave[0], int(rave[1]), rave[2]
    chosen = np.empty(keys.shape[0] + 1, np.int64)  # RAVE: the moves taken on the path, the playout's, marked
    seen, played = np.zeros(An.shape[1], np.bool_), np.empty(An.shape[1], np.int64)
    out[4] = 0
    for done in range(n):
        if until > 0 and done > 0 and _cycles() + done * after >= until:
            out[0], out[4] = done, 1
            return
        proof = -1
        if solve:  # the root's proof, looked up as ``Solver.lookup`` does: the root expanded first
            if kind[root] <= -3 and not _expand(step, mover, root, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals,
                                               sizes, order, bk, bm):
                out[0] = done
                return
            if kind[root] == -1:
                pf[root] = outc[root]
            proof = pf[root]
            if proof >= 0 and stop:
                out[0], out[4] = done, 1
                return
        i, length, ni, new, term, count = root, 1, N[root], -1, -1, 0
        path[0], movers[0] = root, root_mover
        while proof < 0:
            if ni == -1:  # a new node: one random game from its state (``playout``'s draws)
                key = keys[i]
                m = step(key, bk, bm)
                while m >= 0:
                    if sure and m > 1:  # decisive and anti-decisive moves: one draw among them (none for one)
                        m = decisive(key, bk, bm, m, cand)
                        j = cand[int(rnd(mt, pos) * m) if m > 1 else 0]
                    else:
                        j = int(rnd(mt, pos) * m) if m > 1 else 0
                    if rk >= 0:  # RAVE: the playout's (player, move), each once
                        e = mover(key) * width + bm[j]
                        if not seen[e]:
                            seen[e] = True
                            played[count] = e
                            count += 1
                    key = _held(bk, j, kb)
                    m = step(key, bk, bm)
                term, new = -1 - m, i
                break
            if kind[i] <= -3 and not _expand(step, mover, i, keys, kind, outc, kstart, kcount, kids, moves, tkeys, tvals,
                                            sizes, order, bk, bm):
                out[0] = done  # no room: the caller grows the arrays and runs the rest (no draw made yet)
                return
            k = kind[i]
            if k == -1:
                term = outc[i]
                break
            a, b = kstart[i], kstart[i] + kcount[i]
            if solve:  # the children's proofs (an end is one), the solver's choice of them, then the rule's
                for q in range(a, b):
                    if kind[kids[q]] == -3:
                        _settle(step, mover, kids[q], keys, kind, outc, pf, order, sizes, bk, bm)
                m, _ = open_children(kids, a, b, pf, pu, k, opts)
            else:
                m = b - a
                for t in range(m):
                    opts[t] = a + t
            if rk >= 0:  # RAVE / GRAVE: the AMAF statistics of the nearest node of the path with ``ref`` visits
                table = path[0]
                for t in range(length - 1, -1, -1):
                    if N[path[t]] >= ref:
                        table = path[t]
                        break
                q = rave_choose(kids, moves, opts, m, N, S, logs, ni, rc, rk, An, As, Arow[table], k, width)
                chosen[length - 1] = k * width + moves[q]
                i = kids[q]
            elif solve:
                for t in range(m):
                    optn[t] = kids[opts[t]]
                i = choose(optn, 0, m, N, K, logs, ni, mode, c)
            else:
                i = choose(kids, a, b, N, K, logs, ni, mode, c)
            if solve:
                proof = pf[i]
            path[length], movers[length] = i, k
            length += 1
            if rk >= 0 and sizes[3] + length >= An.shape[0]:  # (a row for each node of the path, and the next root)
                out[0], out[4] = done, 2  # no row left: the caller grows them and runs the rest (no draw made yet)
                return
            ni = N[i]
        if proof >= 0:  # a proven node ended the dive (counted from 0 if it is new)
            if ni == -1:
                N[i] = 0
            x_row = pu[proof]
            back_up(path, movers, length, x_row, proven_row, N, S, whole, K, W, D, mode, c)
            term = -1
        else:
            if new >= 0:
                N[new] = 0
            x_row = u[term]
            back_up(path, movers, length, x_row, uwhole[term], N, S, whole, K, W, D, mode, c)
        if solve and new < 0:  # a dive that ended at a new node proves nothing
            prove_path(path, length, kind, kstart, kcount, kids, pf, pset, pu, opts)
        if rk >= 0:
            sizes[3] = amaf_back(path, length, chosen, seen, played, count, An, As, Arow, sizes[3], x_row, width)
        out[1], out[2], out[3] = term, proof, length
        last_path[:length] = path[:length]
    out[0], out[4] = n, 1


@_jit
def _movers(step, mover, keys, width):
    """The player to move at each of ``keys``, -1 at an end."""
    found, bm = np.empty(keys.shape[0], np.int64), np.empty(width, np.int64)
    bk = np.empty((width,) + keys.shape[1:], np.int64)
    for i in range(keys.shape[0]):
        found[i] = -1 if step(keys[i], bk, bm) < 0 else mover(keys[i])
    return found


@_jit
def _step_of(step, keys, width):
    """``step`` at ``keys[0]``: ``(its result, the keys, the moves)`` (their first ``m`` entries, ``m`` the result)."""
    kids, moves = np.empty((width,) + keys.shape[1:], np.int64), np.empty(width, np.int64)
    return step(keys[0], kids, moves), kids, moves


def _types(words):
    """The types of the rules' ``step``, ``mover`` and ``decisive`` on keys of ``words`` words (1 or 2)."""
    i = numba.types.int64
    key, keys = (i, i[::1]) if words == 1 else (i[::1], i[:, ::1])
    return i(key, keys, i[::1]), i(key), i(key, keys, i[::1], i, i[::1])


def _words(types) -> int:
    """The words of a key in the types of a call of the loop's (its first argument the rules' ``step``; else 1)."""
    step = types[0] if types else None
    return 1 + (isinstance(step, numba.types.FunctionType) and isinstance(step.signature.args[0], numba.types.Array))


def _every(key, kids, moves, m, chosen):
    """The rules' ``decisive`` where they have none (never called: no decisive playouts then)."""
    for j in range(m):
        chosen[j] = j
    return m


@lru_cache(maxsize=8)
def _compiled_for(step, mover, decisive=None, words=1):
    """The rules ``step``, ``mover`` and ``decisive`` on keys of ``words`` words as the loop takes them: functions of
    a fixed type (compiled once, kept on disk), so one machine code of the loop serves every game's rules of as many
    words and a new process loads it."""
    return tuple(numba.cfunc(t, cache=True, nogil=True)(f) for t, f in zip(_types(words), (
        step.py_func, mover.py_func, _every if decisive is None else decisive.py_func)))


@_jit
def _playout(step, mover, decisive, keys, width, mt, pos, who, what):
    """One decisive playout from ``keys[0]`` (``decisive_agent``'s, drawn as the dives draw theirs): the decisions'
    number, each one's player and move written to ``who``, ``what``, and the outcome after them (-1: more
    decisions than the arrays hold)."""
    bk, bm, cand = np.empty((width,) + keys.shape[1:], np.int64), np.empty(width, np.int64), np.empty(width, np.int64)
    key, kb, count = keys[0], np.empty(keys.shape[1:], np.int64), 0
    m = step(key, bk, bm)
    while m >= 0:
        if count + 1 >= who.shape[0]:
            return -1
        if m > 1:
            m = decisive(key, bk, bm, m, cand)
            j = cand[int(rnd(mt, pos) * m) if m > 1 else 0]
        else:
            j = 0
        who[count], what[count] = mover(key), bm[j]
        count += 1
        key = _held(bk, j, kb)
        m = step(key, bk, bm)
    who[count] = -1 - m
    return count


def decisive_kernel(game, played=False):
    """``game``'s ``decisive_payoff`` (``played``: ``decisive_played``) on its compiled rules, ``(state, rng) ->
    payoff`` (``-> (payoff, ((player, move) of each decision))``): the same moves and draws, in machine code (a
    breakthrough playout 3.6 ms through OpenSpiel's states made for each move tried, 0.1 ms here); None where the
    game has no such rules or the loop's machine code is not at hand (``compiled``). Made once for the rules
    (``_decisive_of``): a playout through the protocol asks for it at every call."""
    own = getattr(game, "compiled_rules", None)
    rules = own() if own is not None else None
    if rules is None or getattr(rules, "decisive", None) is None or not compiled(rules):
        return None
    return _decisive_of(rules, played)


@lru_cache(maxsize=16)
def _decisive_of(rules, played):
    """``decisive_kernel``'s function for ``rules`` (kept with them: the last few games' rules)."""
    step, mover, decisive = _compiled_for(rules.step, rules.mover, rules.decisive, rules.words)
    payoffs, width, key, words = rules.payoffs, rules.width, rules.key, rules.words

    def kernel(state, rng):
        size = 256
        while True:  # (arrays too short for the game: longer ones, the draws made again from the same state)
            who, what = np.empty(size, np.int64), np.empty(size, np.int64)
            mt, pos = rng_in(rng)
            count = _entry(_playout, words)(step, mover, decisive, np.array([key(state)], np.int64), width, mt, pos,
                                            who, what)
            if count >= 0:
                break
            size *= 8
        rng_out(rng, mt, pos)
        payoff = payoffs[int(who[count])]
        return (payoff, tuple(zip(who[:count].tolist(), what[:count].tolist()))) if played else payoff

    kernel.__name__ = "decisive_played" if played else "decisive_payoff"  # (a payoff's check names it)
    return kernel


def compiled(rules, game=None) -> bool:
    """Whether the loop's machine code for the rules' keys is at hand: compiled in this process, or kept on disk by
    one before. Where it is not, a process of its own starts making it on ``game`` if given (``compile_elsewhere``):
    the searches run in Python meanwhile, with the same draws, and in machine code once it is on disk."""
    if _entry(None, rules.words) is not _dives or _on_disk(rules.words):
        return True
    if game is not None:
        compile_elsewhere(rules.words, game)
    return False


ELSEWHERE = "FNMCTS_COMPILE_ELSEWHERE"
"""The environment variable that, set to ``0``, keeps ``compile_elsewhere`` from starting a process (the test suite's
and the compiling process's own setting)."""

_CHILD = """import base64, os, pickle, random, sys
sys.path.insert(0, {root!r})
from fnmcts.mcts import mcts_move
from fnmcts.mcts._kernel import KERNEL_MIN_DIVES, RULES_MIN_DIVES
game = pickle.loads(base64.b64decode({blob!r}))
for n in (KERNEL_MIN_DIVES, RULES_MIN_DIVES):  # the loop compiled, then a root its rules expand
    mcts_move(game, game.start(), n, random.Random(0))
os.remove({lock!r})
"""
"""What the compiling process runs: searches of ``game`` from its start, long enough to compile the loop (numba keeps
the machine code on disk), then its lock removed (left where they failed: no other tries for 5 minutes)."""


def compile_elsewhere(words, game) -> bool:
    """Start making the loop's machine code for keys of ``words`` words in a process of its own, on searches of
    ``game`` (pickled to it): the first compile takes 5-10 s, which a short search would wait for (so one of fewer
    than ``KERNEL_MIN_DIVES`` never paid for it, and a clocked one never ran compiled in a new install). That process
    leaves it on disk, where the next search finds it (``_on_disk``). One at a time between processes (``_locked``:
    its file, kept while one runs or for 5 minutes after one failed, says whether to try); none where ``ELSEWHERE``
    says ``0``. Whether one was started."""
    if os.environ.get(ELSEWHERE, "").strip() == "0":
        return False
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # (this fnmcts's, not another)
    if not _locked(lock := _lock(root, words)):
        return False
    if _disk_holds.__wrapped__(words, None):  # (made since the cache was last read: the lock of the process before)
        os.remove(lock)
        return False
    try:
        blob = base64.b64encode(pickle.dumps(game)).decode()
    except Exception:  # a game that does not pickle: the search pays for the compile as before (the lock kept)
        return False
    try:
        subprocess.Popen([sys.executable, "-c", _CHILD.format(root=root, blob=blob, lock=lock)],
                         env={**os.environ, ELSEWHERE: "0"}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except Exception:  # no processes here: the search pays for the compile as before (the lock kept)
        return False
    return True


def _lock(root, words) -> str:
    """The file that says a process is compiling the loop for ``words`` words into this cache (of this fnmcts, this
    Python, ``NUMBA_CACHE_DIR``): many new processes at once (a script's commands) start one between them."""
    place = f"{root}|{sys.version_info[:2]}|{os.environ.get('NUMBA_CACHE_DIR', '')}|{words}"
    return os.path.join(tempfile.gettempdir(), f"fnmcts-compiling-{zlib.crc32(place.encode()):08x}")


def _locked(path) -> bool:
    """Take the lock ``path``: made now, or left over 5 minutes ago by a process that died (taken over)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        if time.time() - os.path.getmtime(path) < 300:
            return False
        os.utime(path)
        return True
    except OSError:  # no temporary directory to write: no process started, none a search
        return False


def _entry(function=None, words=1):
    """``function`` (``_dives``) on keys of ``words`` words, called past numba's dispatch once its one machine code
    for them is made (the types of the rules' functions are worked out afresh at every call through the dispatcher:
    a third of a short call)."""
    function = _dives if function is None else function
    return _entry_point(function, words, len(function.overloads))


@lru_cache(maxsize=32)
def _entry_point(function, words, _):
    """The machine code of ``function``'s one overload on keys of ``words`` words (numba's own attribute), else
    ``function``: read once for each number of overloads, a read of numba's ordered table of overloads hashes each
    signature's types (40-80 microseconds for the loop's)."""
    made = [made for types, made in function.overloads.items() if _words(types) == words]
    return getattr(made[0], "entry_point", None) or function if len(made) == 1 else function


def _on_disk(words) -> bool:
    """Whether numba's cache beside this file holds the loop on keys of ``words`` words (False if it cannot tell): read
    again every 0.2 s at most, as a process of its own may be making it (``compile_elsewhere``)."""
    return _disk_holds(words, int(time.monotonic() * 5))


@lru_cache(maxsize=4)
def _disk_holds(words, _tick) -> bool:
    try:
        return any(_words(key[0]) == words for key in _dives._cache._cache_file._load_index())
    except Exception:  # numba's cache reads differently, or none: the loop is compiled when a search pays for it
        return False


def _room(size, n, width) -> int:
    """The nodes the arrays hold at first, a power of 2 (the table's slots are found by a mask): room for the nodes
    ``n`` dives make from ``size`` (a dive expands one node: about 2 new nodes a dive on Connect Four); the arrays
    double when they run out."""
    return 1 << max(64, 2 * size, 4 * width, size + 3 * n).bit_length()


def _amaf_room(used, n) -> int:
    """The AMAF rows at first, ``used`` taken: a dive takes one a node of its path without (most often the new one)."""
    return used + min(n, 4096) + 64


def _keys(rules, graph, size):
    """The keys of the graph's first ``size`` states (rows, keys of two words): those a call before kept
    (``graph.rule_keys``), the rest read from their states (only theirs made: those left unmade before stay so)."""
    kept, shape = graph.rule_keys, (0,) + (() if rules.words == 1 else (rules.words,))
    have = (kept[1] if kept is not None and kept[0] is rules.key else np.zeros(shape, np.int64))[:size]
    more = np.array([rules.key(graph.state(i)) for i in range(len(have), size)], np.int64).reshape((-1,) + shape[1:])
    return np.concatenate([have, more]) if len(more) else have.copy()


def _grown(arrays, room, fill):
    """Each array of ``arrays`` ``room`` long (its rows), its entries kept and the new ones ``fill``."""
    grown = []
    for a, f in zip(arrays, fill):
        rows = np.empty((room,) + a.shape[1:], a.dtype)  # (half the time of a concatenation with ``np.full``)
        rows[:a.shape[0]], rows[a.shape[0]:] = a, f
        grown.append(rows)
    return grown


def _amaf_in(stats, size, width, players, payoffs):
    """``(An, As, Arow)``: RAVE's statistics of nodes ``0..size - 1`` (``stats.A``) as the loop reads them (node
    ``i``'s in row ``Arow[i]``, -1: none), or None where the Python loop counts them (a payoff of whole numbers, a
    key that is no player and move of the rules). The arrays a call before left are read again while nothing else
    changed ``stats.A`` (``Stats.amaf_arrays``)."""
    if any(type(x) is not float for pay in payoffs for x in pay):
        return None
    kept = stats.amaf_arrays
    if kept is not None and kept[0].shape[1] == players * width and kept[2].shape[0] <= size:
        more = size - kept[2].shape[0]  # (nodes interned since: no statistics)
        return kept[0], kept[1], np.concatenate([kept[2], np.full(more, -1, np.int64)]) if more else kept[2]
    tables, Arow = [(i, table) for i, table in stats.A.items() if i < size], np.full(size, -1, np.int64)
    An, As = np.zeros((len(tables), players * width), np.int64), np.zeros((len(tables), players * width))
    for r, (i, table) in enumerate(tables):
        Arow[i] = r
        for (p, m), (visits, score) in table.items():
            if not (type(p) is int and type(m) is int and 0 <= p < players and 0 <= m < width) or type(score) is not float:
                return None
            An[r, p * width + m], As[r, p * width + m] = visits, score
    return An, As, Arow


def _rows(arrays, room, used):
    """Each of ``arrays`` ``room`` rows long, its first ``used`` rows kept and the others zeros (zeros the system
    gives untouched: a row is paid for when a dive first writes it, 864 numbers wide on breakthrough)."""
    grown = []
    for a in arrays:
        rows = np.zeros((room,) + a.shape[1:], a.dtype)
        rows[:used] = a[:used]
        grown.append(rows)
    return grown


def _amaf_out(stats, before, after, size, used, width):
    """Leave the AMAF statistics the dives changed to be written into ``stats.A`` when it is first read
    (``settle_amaf``): ``stats.amaf_pending`` holds the arrays as ``stats.A`` has them and as the dives left them
    (a node's row keeps its place from call to call)."""
    after = (after[0][:used], after[1][:used], after[2][:size])
    pending = stats.amaf_pending
    stats.amaf_pending = (before if pending is None else pending[0], after, width)  # (``A`` as it is: the first before)
    stats.amaf_arrays = after


def settle_amaf(stats):
    """Write the statistics ``stats.amaf_pending`` holds into ``stats.A``: a table per node changed, ``[visits,
    score]`` per ``(player, move)`` counted (a node on a path where nothing was played keeps an empty table)."""
    before, (An, As, Arow), width = stats.amaf_pending
    stats.amaf_pending = None
    rows0 = before[0].shape[0]
    changed = np.ones(An.shape[0], np.bool_)  # a row of a table made since, or whose visits changed
    changed[:rows0] = (An[:rows0] != before[0]).any(axis=1)
    nodes = np.flatnonzero(Arow >= 0)
    nodes = nodes[changed[Arow[nodes]]]
    rows = Arow[nodes]
    at, cols = np.nonzero(An[rows])
    tables = [{} for _ in range(len(nodes))]
    keys = [divmod(j, width) for j in range(An.shape[1])]
    for t, j, n, s in zip(at.tolist(), cols.tolist(), An[rows[at], cols].tolist(), As[rows[at], cols].tolist()):
        tables[t][keys[j]] = [n, s]
    stats.A.update(zip(nodes.tolist(), tables))


def pending_table(stats, i):
    """Node ``i``'s AMAF table as ``settle_amaf`` would write it (None: it keeps none), nothing written."""
    _, (An, As, Arow), width = stats.amaf_pending
    if i >= Arow.shape[0]:
        return stats._A.get(i)
    if (r := Arow[i]) < 0:
        return None
    cols = np.flatnonzero(An[r])
    return {divmod(j, width): [n, s] for j, n, s in zip(cols.tolist(), An[r, cols].tolist(), As[r, cols].tolist())}


def run_rules(rules, graph, stats, root, root_mover, n, rng, mode, c, solver=None, stop=False, rave=None, rollout=None,
              until=None):
    """``dives``' result on the game's ``rules`` (``Rules``), compiled; None where the Python loop must run them.

    None: counts, proofs or AMAF statistics only the Python loop rates as it
    does (``_kernel.run`` takes the same options: MCTS-Solver, RAVE and GRAVE,
    decisive playouts). ``graph``, ``stats``, ``rng`` and the ``solver`` change
    as ``dives`` changes them. ``until``: a time (``time.perf_counter``) the call
    returns by, its write-back included: the loop reads the processor's clock
    (``_cycles``) before each dive and keeps back the write-back's share, at the
    seconds a dive the last write-back of this graph took (``_clock``); at least
    one dive runs.

    >>> import random
    >>> from fnmcts.games.connect_four import ConnectFour
    >>> from ._engine import started
    >>> graph, stats, root = started(ConnectFour())
    >>> done, _, payoff, _ = run_rules(ConnectFour().compiled_rules(), graph, stats, root, 1, 600, random.Random(1), 1,
    ...                                2 ** 0.5)
    >>> done, stats.N[root], len(graph) > 600, payoff in ((1, -1), (-1, 1), (0, 0))
    (600, 600, True, True)
    """
    sure = rollout is not None  # decisive playouts (``decisive_agent``), where the rules compile them
    if sure and (getattr(rollout, "in_place", None) != "decisive_payoff" or rules.decisive is None):
        return None
    size0 = len(graph)
    counts = counts_in(stats, size0, n, mode)
    proofs = None if solver is None or counts is None else proofs_in(solver, stats, size0, rules.payoffs)
    if counts is None or (solver is not None and proofs is None):
        return None
    width = rules.width
    payoffs = [graph.rescale(p) for p in rules.payoffs]
    players = range(max(1, graph.num_players))
    amaf = _amaf_in(stats, size0, width, len(players), payoffs) if rave is not None else \
        (np.zeros((0, 1), np.int64), np.zeros((0, 1)), np.full(size0, -1, np.int64))
    if amaf is None:
        return None
    expect = n if until is None else min(n, 256)  # the dives the arrays hold at first (a clocked call's double as it goes)
    room = _room(size0, expect, width)
    keys = _keys(rules, graph, size0)
    # key, kind, outcome, children's start and count, counts, order, proof, proven on a path, AMAF table's row:
    fill = (0, -3, 0, -1, 0, -1, 0.0, True, 0, 0, 0, -1, False, -1)
    pf, pset, pu = proofs or (np.full(size0, -1, np.int64), np.zeros(size0, np.bool_), None)
    nodes = _grown([keys, np.full(size0, -3, np.int64), np.zeros(size0, np.int64), np.full(size0, -1, np.int64),
                    np.zeros(size0, np.int64), *counts[:5], np.zeros(size0, np.int64), pf, pset, amaf[2]], room, fill)
    used = amaf[0].shape[0]
    An, As = _rows(amaf[:2], _amaf_room(used, expect) if rave is not None else 1, used)
    flat = [np.zeros(2 * room, np.int64), np.zeros(2 * room, np.int64)]  # the children and their moves, node by node
    tkeys, tvals = _table(nodes[0], size0, 4 * room)
    sizes = np.array([size0, 0, 0, used], np.int64)
    u = np.array([[p[m] for m in players] for p in payoffs], np.float64)
    uwhole = np.array([[type(p[m]) is int for m in players] for p in payoffs], np.bool_)
    pu = np.zeros_like(u) if pu is None else pu
    ravep = np.array([-1.0, 0.0, 0.0] if rave is None else [float(x) for x in rave])  # (k, rave_ref, c)
    mt, pos = rng_in(rng)
    out = np.zeros(5, np.int64)
    step, mover, decisive = _compiled_for(rules.step, rules.mover, rules.decisive, rules.words)
    clock = _clock(graph, until)
    left, last = n, None  # the dives left; the last dive's path and its length
    while True:
        last_path = np.empty(room + 1, np.int64)
        _entry(None, rules.words)(step, mover, decisive, *nodes[:5], *flat, tkeys, tvals, sizes, nodes[10], *nodes[5:10], *nodes[11:13], An, As, nodes[13], u, uwhole,
               pu, counts[5], width, root, root_mover, left, mode, float(c or 0.0), proofs is not None, stop, ravep, sure, mt, pos,
               out, last_path, max(1, clock[0] - (n - left) * clock[1]) if clock[0] else 0, clock[1])
        left -= int(out[0])
        if out[0]:
            last = (last_path, int(out[3]))
        if out[4] == 1:
            break
        if out[4] == 2:  # the AMAF rows ran out: doubled
            An, As = _rows((An, As), 2 * An.shape[0], int(sizes[3]))
            continue
        room *= 2  # the arrays ran out of room before a dive ended: doubled, and the dives go on
        nodes = _grown(nodes, room, fill)
        flat = _grown(flat, max(room, 2 * flat[0].shape[0]), (0, 0))
        tkeys, tvals = _table(nodes[0], int(sizes[0]), 4 * room)
    settled()
    looped = time.perf_counter()
    rng_out(rng, mt, pos)
    _write_back(rules, graph, stats, nodes, flat, sizes, counts[0], payoffs, mode, c, root)
    size, term = int(sizes[0]), int(out[1])
    graph.rule_keys = (rules.key, nodes[0][:size])  # (the next call on this graph reads them: a key may cost a replay)
    if rave is not None:
        _amaf_out(stats, amaf, (An, As, nodes[13]), size, int(sizes[3]), width)
    raw = rules.payoffs[term] if last and term >= 0 else None
    found = dives_result(n - left, raw, last and last[0][:last[1]].tolist(), solver, stats,
                         proofs and (nodes[11][:size], nodes[12][:size], pu), rules.payoffs, int(out[2]))
    if n - left >= 32:  # (the write-back's seconds a dive, read by the next clocked call: a few dives' is mostly fixed)
        graph.rules_after = (time.perf_counter() - looped) / (n - left)
    return found


def _clock(graph, until) -> tuple:
    """``(until, after)`` of the loop (``_dives``): the cycle count no dive starts at or past, 0.05 ms before ``until``
    (a ``time.perf_counter`` time, or None: no clock, ``(0, 0)``), and the cycles a dive's write-back takes, from the
    graph's last (``rules_after``), else 0.75 microseconds (a fresh search's: 0.5-1.1 on the ladder's games)."""
    rate = cycle_rate() if until is not None else 0.0
    if not rate:
        return 0, 0
    now_c, now = _now(), time.perf_counter()
    per = graph.rules_after or 7.5e-7
    return max(1, now_c + int((until - now - 5e-5) * rate)), int(per * rate)


@_jit
def _made_below(kids, moves, kind, kstart, kcount, order, size0, size):
    """``(parents, moves)`` of the nodes ``size0 .. size - 1`` the dives made: the node each was first made below (a
    child of it, interned when it was expanded) and the move there, in node order. The expansions are read in their
    ``order``, each node's children in move order: a node made is the first child naming it."""
    parents, made = np.full(size - size0, -1, np.int64), np.empty(size - size0, np.int64)
    for i in order:
        if kind[i] >= 0:
            for q in range(kstart[i], kstart[i] + kcount[i]):
                j = kids[q] - size0
                if j >= 0 and parents[j] < 0:
                    parents[j], made[j] = i, moves[q]
    return parents, made


def _table(keys, size, capacity):
    tkeys, tvals = np.zeros((capacity,) + keys.shape[1:], np.int64), np.full(capacity, -1, np.int64)
    _fill(keys, size, tkeys, tvals)
    return tkeys, tvals


def expand_root(rules, graph, root) -> bool:
    """Expand decision ``root``, a graph's one node, from the game's compiled ``rules``; whether it was.

    As ``CompiledGraph.expand`` and ``children`` would: its children interned in move order (``_intern_new``: their
    states made when first read) and their keys kept for the loop (``graph.rule_keys``). A search afresh each move
    made its root's children through the game's ``play`` (25 OpenSpiel states on hex 5x5: a sixth of a move of 1.5
    ms). False, nothing done, where the graph holds more, the root is expanded or an end, or the loop's machine code
    is not at hand."""
    if len(graph) != 1 or graph.kind[root] != UNSEEN or not compiled(rules):
        return False
    key = rules.key(graph.state(root))
    step, mover, _ = _compiled_for(rules.step, rules.mover, rules.decisive, rules.words)
    m, kids, moves = _entry(_step_of, rules.words)(step, np.array([key], np.int64), rules.width)
    if m <= 0:
        return False
    found, new, made, nodes, moves = {key: root}, [key], [], [], moves[:m].tolist()
    for kid, move in zip(kids[:m].tolist() if rules.words == 1 else map(tuple, kids[:m].tolist()), moves):
        node = found.get(kid)
        if node is None:  # (a move to a state met before: its node)
            node = found[kid] = len(new)
            new.append(kid)
            made.append(move)
        nodes.append(node)
    keys = np.array(new, np.int64)
    _intern_new(rules, graph, keys, 1, [root] * len(made), made)
    graph.kind[root], graph.moves[root], graph.lazy[root] = int(mover(key)), tuple(moves), nodes
    graph.kids[root] = tuple(nodes)
    graph.rule_keys = (rules.key, keys)
    return True


def _intern_new(rules, graph, keys, size0, parents, moves):
    """Intern the states of ``keys[size0:]``, new nodes, in order: made from their keys (``rules.states``), or
    each from ``parents[j]``'s state by ``moves[j]`` when first read (``rules.played``, else the game's ``play``)."""
    if rules.states is not None:
        graph.intern_all(rules.states(keys[size0:]))
        return
    if rules.played is not None:  # the rules make a state from its parent's and the player to move after it
        step, mover, _ = _compiled_for(rules.step, rules.mover, rules.decisive, rules.words)
        after, played = _entry(_movers, rules.words)(step, mover, keys[size0:], rules.width).tolist(), rules.played
        play = lambda at, move, j: played(at, move, after[j])  # noqa: E731
    else:
        game_play = graph.game.play
        play = lambda at, move, j: game_play(at, move)  # noqa: E731
    graph.intern_unmade(parents, moves, play)


def _write_back(rules, graph, stats, nodes, flat, sizes, before, payoffs, mode, c, root):
    """The nodes the dives made, interned in the graph in their order, the nodes they expanded, and the counts; the
    root's children the solver found no end marked so (``graph.asked``: the final move reads their proofs)."""
    keys, kind, outc, kstart, kcount = nodes[:5]
    size0, size, used = len(graph), int(sizes[0]), int(sizes[1])
    kids, moves, order = tuple(flat[0][:used].tolist()), tuple(flat[1][:used].tolist()), nodes[10][:sizes[2]]
    if size > size0:  # each new state made from its key, or played from the node it was first made below when read
        parents, made = _entry(_made_below)(flat[0], flat[1], kind, kstart, kcount, order, size0, size) \
            if rules.states is None else (np.zeros(0, np.int64), np.zeros(0, np.int64))
        _intern_new(rules, graph, keys[:size], size0, parents.tolist(), made.tolist())
    gkind, kids_, lazy, moves_, u, asked, paid = graph.kind, graph.kids, graph.lazy, graph.moves, graph.u, \
        graph.asked, graph.paid
    for i, k, a, m, o in zip(*(x.tolist() for x in (order, kind[order], kstart[order], kcount[order], outc[order]))):
        if asked:
            asked.pop(i, None)
        if k == -1:
            if gkind[i] == UNSEEN:
                gkind[i], u[i], paid[i] = END, payoffs[o], rules.payoffs[o]
        elif kids_[i] is None:  # (every child known: ``lazy`` never written, one tuple for both)
            got = kids[a:a + m]
            gkind[i], moves_[i], lazy[i], kids_[i] = k, moves[a:a + m], got, got
    for i in kids_[root] or ():
        if kind[i] <= -10 and gkind[i] == UNSEEN:
            asked[i] = -10 - int(kind[i])
    stats.grow()
    counts, before = (*(a[:size] for a in nodes[5:10]), None), np.concatenate([before, np.full(size - size0, -1)])
    stats.hold(lambda columns: counts_out(columns, counts, before, mode, c), partial(counts_at, counts))  # (when read)
