"""Deterministic tree-parallel search: ``mcts_move(..., batch=k)``, the dives run ``k`` at a time.

Each step selects ``k`` leaves in order on one tree, counting the earlier selections of the step as pending visits ``O``
(WU-UCT, Liu et al., ICLR 2020: UCB1's exploration reads ``N + O``, the value the completed visits alone; docs/mcts.md).
A dive that meets a leaf another dive of the step holds goes on below it. The ``k`` playouts then run on the executor,
playout ``j`` of step ``s`` drawing from ``child_seed(child_seed(seed, s), j)``, and are backed up in selection order:
the tree depends on the seed and ``k`` alone, and ``k = 1`` is the plain search, draw for draw. It takes UCB1 with the
mean or expectimax backup, the solver, a ``rollout`` agent and shallow proofs; any other option is refused with a
``ValueError`` naming it.
"""

from __future__ import annotations

import random
import time
from functools import partial
from math import inf as _inf, sqrt as _sqrt

from ..limits import cycle_found
from ..parallel import (Unknown, check_count, check_workers, kept_pool, loaded, mapped_shared, pulled, served,
                        shared)
from ..rng import child_seed
from ._engine import _children_of, _count_back, _options_back, _parent_log, _past_chance, _plan, dives
from ._graph import END
from .phases import simulate
from .solver import _no_proof, open_choices, proofs_of

__all__ = ["batch_size", "batch_runner", "batch_dives"]


def batch_size(batch) -> int:
    """``batch`` checked: a positive whole number (None: 1, the plain search).

    >>> batch_size(None), batch_size(16)
    (1, 16)
    >>> batch_size(0)
    Traceback (most recent call last):
    ...
    ValueError: batch must be a positive whole number (the dives a step selects), got 0
    """
    if batch is None:
        return 1
    try:
        positive = check_count(batch, "batch") >= 1  # a TypeError names a batch that is not a whole number
    except ValueError:  # below 0
        positive = False
    if not positive:
        raise ValueError(f"batch must be a positive whole number (the dives a step selects), got {batch!r}")
    return batch


def _refused(opts, refused) -> None:
    """A ``ValueError`` naming the first option a batched search does not take."""
    for name, given in refused.items():
        if given is not None:
            raise ValueError(f"a batched search (batch=) takes iterations= as its budget: {name}= is not supported "
                             "with it")
    bound = opts.builtin()
    checks = (("rule", bound is None or bound[0] != "ucb1", "UCB1 alone ('ucb1')"),
              ("backup", opts.backup not in ("mean", "expectimax"), "'mean' or 'expectimax'"),
              ("root", opts.root is not None, "none"), ("rave", opts.rave is not None, "none"),
              ("bounds", bool(opts.bounds), "none"))
    for name, bad, takes in checks:
        if bad:
            raise ValueError(f"a batched search (batch=) does not support {name}={getattr(opts, name)!r}: it takes "
                             f"{takes}")


def batch_runner(batch, opts, workers, executor, refused):
    """None without ``batch``; else ``mcts_move``'s runner of the dives (``_search._run``'s arguments), batched.

    ``batch`` 1 runs the plain dives here (``workers``/``executor`` unused: the playouts one at a time); ``refused``,
    the options given by name that a batched search does not take (None: not given).

    >>> from fnmcts.mcts import search_options
    >>> batch_runner(None, search_options(), None, None, {}) is None
    True
    >>> batch_runner(4, search_options(rave=10), None, None, {})
    Traceback (most recent call last):
    ...
    ValueError: a batched search (batch=) does not support rave=10: it takes none
    """
    if batch is None:
        return None
    k = batch_size(batch)
    _refused(opts, refused)
    check_workers(workers, executor)
    return partial(_run_batch, k, workers, executor)


def _run_batch(k, workers, executor, g, stats, root, mover, rng, select, opts, budget, proofs, bounded, root_rule, *,
               until_proven, max_nodes) -> int:
    """The dives of ``budget`` from ``root``, ``k`` a step, until the root is proven: the dives run."""
    expectimax = opts.backup != "mean"
    if k == 1:
        return dives(g, stats, root, mover, budget.left, rng, select, expectimax=expectimax, solver=proofs,
                     rollout=opts.playout(), stop_when_proven=True)[0]
    parts = workers or getattr(executor, "_max_workers", None) or k
    with kept_pool(workers if executor is None else None) as kept, served(kept or executor) as pool:
        return batch_dives(g, stats, root, mover, budget.left, rng, k, select, executor=pool, parts=parts,
                           expectimax=expectimax, solver=proofs, rollout=opts.playout())


def _pending_pick(K, N, O, logs, c):
    """``pick(options, parent count)``: UCB1 over ``N + O`` (``O``: pending visits), values of completed visits.

    With no visit pending, ``_engine._ucb1_pick``'s choice: a child neither visited nor pending first, in move order.
    """
    sqrt, inf, get = _sqrt, _inf, O.get

    def pick(options, ni):
        if len(options) == 1:
            return options[0]
        lp = logs[ni] if type(ni) is int and ni < len(logs) else _parent_log(logs, ni)
        best, best_rating = None, -inf
        for child in options:
            n, o = N[child], get(child, 0)
            if not n:
                if not o:
                    return child
                r = c * sqrt(lp / o)
            else:
                r = K[child] + c * sqrt(lp / (n + o))
            if r > best_rating:
                best, best_rating = child, r
        return best

    return pick


def _select(g, stats, root, mover, pending, pick, at_node, choose, repeats, rng) -> tuple:
    """One dive's selection: ``(path, movers, end)``; ``end`` is ``('play', node, fresh)``, ``('end', node)`` or
    ``('proof', proof)``. A pending node (``pending``) is gone through as if stored."""
    kind, kids_, states, N, get, rnd = g.kind, g.kids, g.states, stats.N, pending.get, rng.random
    i, path, movers, on_path = root, [root], [mover], {root}
    depth, cap = 0, len(states)
    while True:
        ni, o = N[i], get(i, 0)
        if ni is None and not o:  # a new node: one playout from it
            return path, movers, ("play", i, True)
        k, d = kind[i], i
        if k < 0:
            d, k = _past_chance(g, stats, i, k, rnd, rng)
            if k == END:
                return path, movers, ("end", d)
        options = kids_[d] or _children_of(g, stats, d)
        if choose is not None:
            options = choose(d, options, k)
        i = pick(options, (ni or 0) + o)
        if repeats and i in on_path:  # back to a state of this dive: one playout from it
            return path, movers, ("play", i, False)
        on_path.add(i)
        path.append(i)
        movers.append(k)
        pv = at_node(i)
        if pv is not None:
            return path, movers, ("proof", pv)
        depth += 1
        if depth > cap:
            cap = len(states)
            if depth > cap:
                raise cycle_found(g.game, states[root], states[i])


def _playouts(players, jobs) -> tuple:
    """The payoffs of a game played to the end from each ``(state, seed)`` of ``jobs`` (``phases.simulate``), by
    ``players``: ``(game, rollout)``, or those ``shared`` (a worker unpickles them once; ``Unknown`` for a token)."""
    game, rollout = loaded(players) or (None, None)
    return Unknown() if game is None else tuple(simulate(game, s, random.Random(seed), rollout) for s, seed in jobs)


PAYS = 0.002
"""Seconds of playouts a group must hold (as last measured here) to be sent to a worker: less runs here."""


def _played(players, executor, parts, jobs, cost) -> list:
    """The payoffs of ``jobs`` (not empty) in order, in ``parts`` groups at once, one here (on a kept pool each side
    takes the next job left: ``parallel.pulled``); all here without ``executor``, or when a group holds under ``PAYS``
    seconds (``cost[0]``: a playout's, as last measured here; updated). A payoff depends on its job alone."""
    size, spent, mine = -(-len(jobs) // max(1, min(parts, len(jobs)))), [], []
    sent = len(jobs) if executor is not None and cost[0] * size >= PAYS else 0
    groups = [tuple(jobs[a:a + size]) for a in range(size, sent, size)]

    def here(some):  # the payoffs of some jobs, played here; a playout's seconds noted
        start = time.perf_counter()
        pays = _playouts(players[0], some)
        spent.append((time.perf_counter() - start) / len(some))
        return pays

    pays = pulled(executor, _playouts, players[1], here, [(j,) for j in jobs], len(groups) + 1) if groups else [here(jobs)]
    if pays is None:  # another executor: contiguous groups, the first played here
        pays = mapped_shared(executor, _playouts, players[1], groups, lambda: mine.append(here(jobs[:size])))
    cost[0] = min(sum(spent) / len(spent), 2 * cost[0]) if spent else cost[0]  # a step slowed by others: once
    return [pay for group in mine + pays for pay in group]


def batch_dives(g, stats, root, mover, n, rng, k, select, *, executor=None, parts=1, expectimax=False, solver=None,
                rollout=None, pending=None, watch=None) -> int:
    """Run up to ``n`` dives from ``root``, ``k`` a step (the module's WU-UCT steps); return the dives run.

    ``select`` is UCB1's (``ucb1_selector``: its constant is read); the search stops once the root is proven
    (``solver``). A step's playouts go in ``parts`` groups, the first played here while ``executor`` (None: all here)
    plays the others (``_played``); an executor of processes gets the game and rollout once per worker
    (``fnmcts.parallel.shared``). ``pending`` (a dict, empty) holds the pending counts; ``watch(pending)``, if given,
    hears it after a step's selections and after its backups (empty again).

    >>> from fnmcts.games.nim import Nim
    >>> from ._engine import Stats
    >>> from ._graph import CompiledGraph
    >>> from ._records import ucb1_selector
    >>> graph = CompiledGraph(Nim(heap=5, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> stats = Stats(graph)
    >>> batch_dives(graph, stats, root, 1, 40, random.Random(1), 4, ucb1_selector()), stats.N[root]
    (40, 40)
    """
    pending = {} if pending is None else pending
    plan = _plan(g, stats, select, expectimax=expectimax, solver=solver, rollout=rollout, compiled_playouts=True,
                 root_rule=None, touched=None, rave=None, bounds=None, graph_backup=False)
    mode, c, key_rule, repeats = plan[0], plan[1], plan[2], plan[4]
    if mode != 1:
        raise ValueError("a batched search (batch=) rates with UCB1 alone (rule='ucb1')")
    at_root, at_node = proofs_of(solver, None)
    at_root, choose = at_root or _no_proof, open_choices(solver, None)
    pick = _pending_pick(stats.K, stats.N, pending, stats.logs, c)
    players = ((g.game, rollout), shared((g.game, rollout), executor) or (g.game, rollout))  # here, sent
    cost = [_inf]  # a playout's seconds, measured here: unknown, so the first step sends its groups
    seed, done, step = rng.getrandbits(63), 0, 0
    while done < n and at_root(root) is None:
        dives_ = []
        for _ in range(min(k, n - done)):
            path, movers, end = _select(g, stats, root, mover, pending, pick, at_node, choose, repeats, rng)
            for x in path:
                pending[x] = pending.get(x, 0) + 1
            dives_.append((path, movers, end))
        if watch is not None:
            watch(pending)
        step_seed = child_seed(seed, step)
        jobs = [(g.states[end[1]], child_seed(step_seed, j)) for j, (_, _, end) in enumerate(dives_) if end[0] == "play"]
        payoffs = iter(_played(players, executor, parts, jobs, cost) if jobs else ())
        for path, movers, end in dives_:
            _back(g, stats, path, movers, end, payoffs, key_rule, c, expectimax, solver, pending)
        done, step = done + len(dives_), step + 1
        if watch is not None:
            watch(pending)
    return done


def _back(g, stats, path, movers, end, payoffs, key_rule, c, expectimax, solver, pending) -> None:
    """One dive's backup (``_engine``'s counts, then the options'), its pending counts taken off."""
    N, fresh = stats.N, False
    if end[0] == "play":
        res, fresh = g.rescale(g.check_payoff(g.states[end[1]], next(payoffs))), end[2]
    elif end[0] == "end":
        res = g.u[end[1]]
    else:
        res = end[1][1]
    groups = [[] for _ in range(g.num_players)]
    for x, m in zip(path, movers):
        if N[x] is None:  # stored now: the backup counts it from 0
            N[x] = 0
        groups[m].append(x)
        pending[x] -= 1
        if not pending[x]:
            del pending[x]
    _count_back(stats, groups, res, key_rule, c, None)
    if expectimax or solver is not None:
        _options_back(g, stats, path, movers, res, fresh, expectimax, False, solver, None, None, [], set())
