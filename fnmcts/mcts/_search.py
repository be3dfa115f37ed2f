"""``uct``, ``search`` and ``mcts_move``: one descent (``_engine.dives``), three ways to run it.

* ``uct(tree, state, rng, game)``: one dive on the persistent tree, returning
  ``(tree, result)`` as the tutorial's ``uct`` returns ``[tree result]``. It runs
  on the reference graph (the protocol itself) and reads and writes only the
  records on its path.
* ``search(game, state, dives, rng)``: many dives on a transient working copy of
  the tree over the game's compiled graph, frozen at the end: the same tree as
  ``dives`` calls of ``uct`` with the same ``rng`` (a property test checks it).
* ``mcts_move(game, state, iterations, rng)``: a search from a decision, with
  MCTS-Solver on by default, and the move it chooses.

Every option (the rule, ``backup``, ``solver``, ``rollout``) is an option of
all three.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import partial
from typing import Callable

from pyrsistent import PMap, field, pmap

from ..values import FixedRecord

from ..protocol import CHANCE, check_state, payoff_range
from ..rng import check_rng
from ._engine import Solver, Stats, dives
from ._graph import CompiledGraph, graph_of
from ._graph import mover_into as _root_mover
from ._records import (
    EMPTY_RECORD,
    RULES,
    Record,
    make_record,
    rating_selector,
    record,
    ucb,
    ucb1,
    ucb1_selector,
    ucb_selector,
    visits,  # noqa: F401 (doctests)
)

__all__ = [
    "uct",
    "search",
    "mcts_move",
    "mcts_agent",
    "MoveSearch",
    "BACKUPS",
    "DEFAULT_ITERATIONS",
    "result_of",
]

BACKUPS = ("mean", "expectimax")
"""How results go back up the tree: the mean of the results, or expectimax over the children."""

DEFAULT_ITERATIONS = 10_000
"""The default budget of ``mcts_agent``: dives a move, at most (the solver may stop sooner)."""


# -- ratings: a rule as a function of a node's counts -------------------------------


def _bind(func, defaults, rule):
    """The keyword values of ``rule`` if it is ``func`` or a partial of it, else None."""
    if rule is func:
        return dict(defaults)
    if isinstance(rule, partial) and rule.func is func and not rule.args:
        if set(rule.keywords) <= set(defaults):
            return {**defaults, **rule.keywords}
    return None


def _selector(rule) -> Callable:
    """``select(children, counts, parent_visits)`` for ``rule`` (a function of a record)."""
    bound = _bind(ucb, {"z": 2}, rule)
    if bound is not None:
        return ucb_selector(bound["z"])
    bound = _bind(ucb1, {"c": math.sqrt(2)}, rule)
    if bound is not None:
        return ucb1_selector(bound["c"])
    if not callable(rule):
        raise TypeError(f"a selection rule is a function of a record, got {rule!r}")

    def rate(c, parent):
        if c is None or not c[0]:
            return rule(EMPTY_RECORD, parent_visits=parent)
        if c[4] is None:
            return rule(_freeze_one(c), parent_visits=parent)
        n, v = c[0], c[4]
        return rule(record(v * n, (1 - v) * n), parent_visits=parent)

    return rating_selector(rate)


def _resolve_rule(rule, c, z):
    if isinstance(rule, str):
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}: choose from {sorted(RULES)}")
        return partial(ucb1, c=c) if RULES[rule] is ucb1 else partial(ucb, z=z)
    if not callable(rule):
        raise TypeError(f"rule must be a name or a function, got {rule!r}")
    return rule


# -- between the persistent tree and the working counts -------------------------------


def _check_tree(tree):
    """``tree`` as a persistent map: a pmap is returned as is, a plain mapping frozen."""
    if isinstance(tree, PMap):
        return tree
    if isinstance(tree, Mapping):
        return pmap(tree)
    raise TypeError(f"tree must be a map from state to record (e.g. pmap()), got {type(tree).__name__}")


def _check_backup(backup):
    if backup not in BACKUPS:
        raise ValueError(f"backup must be one of {BACKUPS}, got {backup!r}")


def _counts_of(rec) -> list:
    try:
        w, l, d = rec.get("win", 0), rec.get("loss", 0), rec.get("draw", 0)
    except AttributeError:
        raise TypeError(f"a tree's records are maps such as record(win=1, loss=2), got {rec!r}") from None
    s = rec.get("score")
    if s is None:
        s = w + d / 2 if d else w
    return [w + l + d, s, w, d, rec.get("value")]


def _proof(solver, rec):
    exact = rec.get("proven")
    return None if exact is None else solver.value(exact)


def _thaw(graph, tree, solver) -> Stats:
    stats = Stats(graph)
    for state, rec in tree.items():
        i = graph.node(state)
        stats.grow()
        stats.set(i, _counts_of(rec))
        if solver is not None:
            pv = _proof(solver, rec)
            if pv is not None:
                solver.proven[i] = pv
    return stats


def _freeze_one(c, proven=None) -> Record:
    n, s, w, d, v = c
    return make_record(w, n - w - d, d, s, v, proven)


def _freeze(graph, stats, solver):
    states, S, W, D, V = graph.states, stats.S, stats.W, stats.D, stats.V
    proven = solver.proven if solver is not None else {}
    out = {}
    for i, n in enumerate(stats.N):
        if n is not None:
            pv = proven.get(i)
            w, d = W[i], D[i]
            out[states[i]] = make_record(w, n - w - d, d, S[i], V[i], None if pv is None else pv[0])
    return pmap(out)


def result_of(game, payoff):
    """What a dive returns: ``'win'`` / ``'loss'`` for a one-player game, else the payoff tuple.

    The words are for a one-player game that pays a win or a loss (the
    tutorial's results).

    >>> from fnmcts.games import ShutTheBox, Nim
    >>> result_of(ShutTheBox(), (1,)), result_of(Nim(), (-1, 1))
    ('win', (-1, 1))
    """
    payoff = tuple(payoff)
    if getattr(game, "num_players", 1) == 1:
        low, high = payoff_range(game)
        if payoff[0] == high:
            return "win"
        if payoff[0] == low:
            return "loss"
    return payoff


def _last_payoff(graph, end, exact):
    return exact if end is None else tuple(graph.game.payoff(graph.states[end]))


def _options(game, state, rule, backup, rng):
    if game is None or not hasattr(game, "to_move"):
        raise TypeError(f"game must implement the fnmcts game protocol, got {game!r}")
    if not callable(rule):
        raise TypeError(f"rule must be a function of a record, got {rule!r}")
    _check_backup(backup)
    check_rng(rng)
    return check_state(game, state)


# -- uct: one dive on the persistent tree --------------------------------------------------


def uct(tree, state, rng: random.Random, game=None, rule=ucb, *, rollout=None, backup="mean", solver=False):
    """One dive of Monte Carlo tree search from ``state``; return ``(tree, result)``.

    The tutorial's algorithm, for any game: a state not in ``tree`` gets one
    random playout and joins the tree with its result; otherwise draw the chance
    outcomes (roll the dice), rate the children of the decision with ``rule``
    and go into the best; the result goes back up to every state on the path,
    for the player who moved into it. ``result`` is ``'win'`` or ``'loss'`` in a
    one-player game that pays wins and losses (the tutorial's Shut the Box),
    else the payoff tuple. ``tree`` is never modified; ``rng`` is consumed. (The
    tutorial's own ``uct(tree, box, rng)`` is ``fnmcts.games.shut_the_box.uct``.)

    ``backup='expectimax'``: every record on the path also keeps ``'value'``,
    its expectimax estimate from its children, with the chance outcomes
    weighted by their exact probabilities; ratings then apply ``rule`` to the
    child's value instead of its mean. ``solver=True``: MCTS-Solver; proven
    states keep their exact value under ``'proven'``. Between two calls a proof
    lives only in the record of a stored state, so a state reached by chance
    (a box with its roll) is proven again when a dive passes it; ``search``
    keeps every proof it made until it returns.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> rng = make_rng(3)
    >>> tree, result = uct(pmap(), start_box, rng, ShutTheBox())
    >>> tree, result = uct(tree, start_box, rng, ShutTheBox())
    >>> len(tree), visits(tree[start_box])
    (2, 2)
    """
    if game is None:
        raise TypeError(
            "uct needs the game: uct(tree, state, rng, game); the tutorial's uct(tree, box, rng) "
            "is fnmcts.games.shut_the_box.uct"
        )
    state = _options(game, state, rule, backup, rng)
    tree = _check_tree(tree)
    graph = CompiledGraph(game)  # only the states this dive meets are interned
    proofs = Solver(graph) if solver else None

    def lookup(state):
        rec = tree.get(state)
        if rec is None:
            return None
        if proofs is not None:
            pv = _proof(proofs, rec)
            if pv is not None:
                proofs.proven[graph.index[state]] = pv
        return _counts_of(rec)

    stats = Stats(graph, lookup)
    root = graph.node(state)
    stats.grow()
    _, path, end, exact = dives(
        graph,
        stats,
        root,
        _root_mover(game, state),
        1,
        rng,
        _selector(rule),
        expectimax=backup == "expectimax",
        solver=proofs,
        rollout=rollout,
        compiled_playouts=False,
    )
    grown = tree.evolver()
    proven = proofs.proven if proofs is not None else {}
    changed = set(path) | {i for i in proven if stats.N[i] is not None}
    for i in changed:
        pv = proven.get(i)
        grown[graph.states[i]] = _freeze_one(stats.counts(i), None if pv is None else pv[0])
    return grown.persistent(), result_of(game, _last_payoff(graph, end, exact))


def _repeat_uct(game, state, dives_, rng, tree=None, rule=ucb, backup="mean", solver=False):
    """The reference: ``dives_`` calls of ``uct``, threading the tree (for tests)."""
    tree = pmap() if tree is None else tree
    for _ in range(dives_):
        tree, _ = uct(tree, state, rng, game, rule, backup=backup, solver=solver)
    return tree


# -- search: many dives on a working copy --------------------------------------------------

CHUNK = 10_000
"""Dives between two calls of a search's ``progress``."""


def search(
    game,
    state,
    dives_: int,
    rng: random.Random,
    tree=None,
    rule=ucb,
    *,
    rollout=None,
    progress=None,
    backup="mean",
    solver=False,
    graph=None,
):
    """Run ``dives_`` dives from ``state``; return the grown tree (an immutable map).

    The same tree as ``dives_`` calls of ``uct`` with the same ``rng`` (a
    property test checks it), built on a transient working copy over the
    game's compiled graph and frozen at the end; a game may run it on its own
    ``search_kernel`` (Shut the Box on box masks), proven equal by the same
    property. ``progress(k)``, if given,
    hears of every ``k`` dives done. ``backup``, ``solver``, ``rollout``: as for
    ``uct``. ``graph``: a ``CompiledGraph`` of the game to reuse across calls.

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> tree = search(ShutTheBox(), start_box, 100, make_rng(5))
    >>> tree == _repeat_uct(ShutTheBox(), start_box, 100, make_rng(5))
    True
    """
    if isinstance(dives_, bool) or not isinstance(dives_, int):
        raise TypeError(f"dives must be a whole number, got {dives_!r}")
    if dives_ < 0:
        raise ValueError(f"dives must be non-negative, got {dives_}")
    state = _options(game, state, rule, backup, rng)
    tree = pmap() if tree is None else _check_tree(tree)
    kernel = _kernel(game, rule, backup, solver, rollout, graph, tree)
    if kernel is not None:
        grown = _kernel_search(kernel, tree, state, dives_, rng, progress)
        if grown is not None:
            return grown
    g = graph_of(game, graph)
    proofs = Solver(g) if solver else None
    stats = _thaw(g, tree, proofs)
    root = g.node(state)
    stats.grow()
    select = _selector(rule)
    mover = _root_mover(game, state)
    left = dives_
    while left > 0:
        size = min(left, CHUNK)
        dives(g, stats, root, mover, size, rng, select, expectimax=backup == "expectimax", solver=proofs, rollout=rollout)
        left -= size
        if progress is not None:
            progress(size)
    return _freeze(g, stats, proofs)


def _kernel(game, rule, backup, solver, rollout, graph, tree):
    """The game's own ``search_kernel`` when it applies (a built-in rule, the mean
    backup, no solver, no rollout agent, no graph given, a tree of wins and losses), else None."""
    hook = getattr(game, "search_kernel", None)
    if hook is None or backup != "mean" or solver or rollout is not None or graph is not None:
        return None
    if any(not isinstance(rec, Mapping) or set(rec) - {"win", "loss"} for rec in tree.values()):
        return None  # draws, values, proofs, or not a record at all: the engine keeps or names them
    for func, name, defaults in ((ucb, "ucb", {"z": 2}), (ucb1, "ucb1", {"c": math.sqrt(2)})):
        bound = _bind(func, defaults, rule)
        if bound is not None:
            return hook(name, next(iter(bound.values())))
    return None


def _kernel_search(kernel, tree, state, dives_, rng, progress):
    """``search`` on a game's kernel: counts thawed from the tree, grown, frozen back (None: declined)."""
    counts = {s: [rec["win"], rec["loss"]] for s, rec in tree.items()}
    left = dives_
    while left > 0:
        size = min(left, CHUNK)
        if not kernel(counts, state, size, rng):
            return None  # declined before drawing anything
        left -= size
        if progress is not None:
            progress(size)
    return pmap({s: make_record(w, l) for s, (w, l) in counts.items()})


# -- mcts_move: search from a decision and choose ------------------------------------------


class MoveSearch(FixedRecord):
    """What ``mcts_move`` found: the move, the tree, the proofs, the root's children.

    ``tree`` and ``proven`` are immutable maps from state; ``children`` is a
    tuple of ``(move, record)`` in move order.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=6, max_take=3)
    >>> found = mcts_move(game, game.start(), 200, make_rng(1))
    >>> found.move, found.iterations, found.proven[game.start()]
    (1, 18, (Fraction(1, 1), Fraction(-1, 1)))
    >>> [(move, visits(r)) for move, r in found.children]
    [(1, 9), (2, 3), (3, 5)]
    """

    move = field(mandatory=True)
    tree = field(mandatory=True)
    proven = field(mandatory=True)
    iterations = field(type=int, mandatory=True)
    children = field(mandatory=True)


def _final_move(graph, stats, solver, root, player, final):
    kids = graph.kids[root]
    moves = graph.moves[root]
    candidates = list(range(len(kids)))
    if solver is not None:
        proven = solver.proven
        for j, child in enumerate(kids):
            pv = proven.get(child)
            if pv is not None and solver.shortcut and pv[0][player] == solver.high:
                return moves[j]
        if all(child in proven for child in kids):
            best = max(range(len(kids)), key=lambda j: (proven[kids[j]][0][player], -j))
            return moves[best]
        choices = solver.choices(kids, player)
        candidates = [j for j, child in enumerate(kids) if child in choices]

    def key(j):
        c = stats.counts(kids[j])
        n = c[0] if c else 0
        m = (c[4] if c[4] is not None else c[1] / n) if n else -1.0
        return (m, n) if final == "mean" else (n, m)

    best, best_key = None, None
    for j in candidates:
        k = key(j)
        if best_key is None or k > best_key:
            best, best_key = j, k
    return moves[best]


def mcts_move(
    game,
    state,
    iterations: int,
    rng: random.Random,
    *,
    rule="ucb1",
    c: float = math.sqrt(2),
    z: float = 2,
    final: str = "visits",
    solver: bool = True,
    rollout=None,
    tree=None,
    backup: str = "mean",
    graph=None,
) -> MoveSearch:
    """Search ``iterations`` dives from decision ``state``; return the move and the tree.

    ``rule``: ``'ucb1'`` (with ``c``), ``'tutorial'`` (the tutorial's ``ucb``
    with ``z``) or a function of a record. ``final``: the root move with the
    most visits (``'visits'``) or the best mean payoff (``'mean'``). ``solver``:
    MCTS-Solver; proven values (exact payoff tuples, wins, draws and scores
    alike) propagate up the tree, a move proven to give the mover the best
    payoff there is is played at once, and moves proven worse than another are
    dropped; the search stops as soon as the root is proven, and
    ``iterations`` in the result counts the dives run. ``rollout``: the agent
    for the playouts (default: random). ``backup``: as for ``search``.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=22, max_take=3)
    >>> found = mcts_move(game, game.start(), 2_000, make_rng(1))
    >>> found.move, found.proven[game.play(game.start(), found.move)]
    (1, (Fraction(1, 1), Fraction(-1, 1)))
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive whole number, got {iterations!r}")
    if final not in ("visits", "mean"):
        raise ValueError(f"final must be 'visits' or 'mean', got {final!r}")
    rule = _resolve_rule(rule, c, z)
    state = _options(game, state, rule, backup, rng)
    player = game.to_move(state)
    if player is None:
        raise ValueError(f"the game is over at {state!r}: there is no move to search")
    if player is CHANCE:
        raise ValueError(
            f"chance moves next at {state!r}, not a player: draw the outcome first "
            "(fnmcts.sample_outcome) and search from the state it leads to"
        )
    g = graph_of(game, graph)
    proofs = Solver(g) if solver else None
    stats = _thaw(g, pmap() if tree is None else _check_tree(tree), proofs)
    root = g.node(state)
    g.expand(root)
    stats.grow()
    moves = g.moves[root]
    before = stats.N[root] or 0
    dives(
        g,
        stats,
        root,
        _root_mover(game, state),
        iterations,
        rng,
        _selector(rule),
        expectimax=backup == "expectimax",
        solver=proofs,
        rollout=rollout,
        stop_when_proven=True,
    )
    done = (stats.N[root] or 0) - before
    move = moves[0] if len(moves) == 1 else _final_move(g, stats, proofs, root, player, final)
    frozen = _freeze(g, stats, proofs)
    children = tuple((m, frozen.get(g.states[k], EMPTY_RECORD)) for m, k in zip(moves, g.kids[root]))
    proven = pmap({g.states[i]: pv[0] for i, pv in proofs.proven.items()}) if proofs is not None else pmap()
    return MoveSearch(move=move, tree=frozen, proven=proven, iterations=done, children=children)


def mcts_agent(iterations: int = DEFAULT_ITERATIONS, **options) -> Callable:
    """An agent ``(game, state, rng) -> move`` that runs ``mcts_move`` each turn.

    Options as for ``mcts_move`` (``rule``, ``c``, ``z``, ``final``, ``solver``,
    ``rollout``, ``backup``). Plays every game of the protocol. The agent is a
    ``functools.partial``: it pickles, so it runs in worker processes too.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=10, max_take=3, misere=False)
    >>> mcts_agent(500)(game, game.start(), make_rng(2))
    2
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive whole number, got {iterations!r}")
    unknown = set(options) - {"rule", "c", "z", "final", "solver", "rollout", "backup"}
    if unknown:
        raise TypeError(f"unknown mcts_agent options: {sorted(unknown)}")
    if options.get("final", "visits") not in ("visits", "mean"):
        raise ValueError(f"final must be 'visits' or 'mean', got {options['final']!r}")
    _check_backup(options.get("backup", "mean"))
    _resolve_rule(options.get("rule", "ucb1"), options.get("c", math.sqrt(2)), options.get("z", 2))
    return partial(_agent_move, iterations, tuple(sorted(options.items())))


def _agent_move(iterations, options, game, state, rng):
    """One move of an ``mcts_agent``: module level, so agents pickle for worker processes."""
    return mcts_move(game, state, iterations, rng, **dict(options)).move
