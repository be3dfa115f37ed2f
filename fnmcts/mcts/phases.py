"""Monte Carlo tree search in four phases, each a pure function over the persistent tree.

The tutorial's ``uct`` is one recursion that does four things; here each is a function of its own, in the order a dive
runs them (docs/mcts-phases.md steps through one): ``select`` walks down the states the tree knows to a ``Path``,
``expand`` adds the new state, ``simulate`` plays one game from it, ``backup`` adds the payoff to every record of the
path. ``uct(game, tree, state, rng)`` is the four in a row, returning ``(tree, result)`` as the tutorial's
``[tree result]``.

The **tree** is an immutable map from state to record (a ``Tree``, a pmap or a dict). Records belong to the mover:
the record of a state holds the results of the player who moved into it (in Shut the Box, the only player). A payoff
is rescaled to [0, 1] on the game's ``payoff_range``; above 1/2 is a win, 1/2 a draw. Nothing is modified: each
phase returns new values, and the new tree shares every record off the path with the old one.

>>> from fnmcts.games import ShutTheBox
>>> from fnmcts.rng import make_rng
>>> game, rng = ShutTheBox(levers=4), make_rng(1)
>>> box = game.start()
>>> tree = {box: record(win=1, loss=3)}
>>> path = select(game, tree, box, rng)
>>> step = path.steps[0]
>>> step.outcomes, [sorted(s) for s in step.children], path.end, sorted(path.leaf)
((4,), [[1, 2, 3], [2, 4]], 'new', [1, 2, 3])

The dice rolled 4: flip 4, or flip 1 and 3. Neither box is in the tree, so both rate infinity and the first is
taken: a new state, which ``expand`` adds and ``simulate`` plays out (a loss: a payoff of 0); ``backup`` counts the
loss at both boxes of the path.

>>> grown = expand(game, tree, path)
>>> payoff = simulate(game, path.leaf, rng)
>>> after = backup(game, grown, path, payoff)
>>> payoff, after[box], after[path.leaf], tree[box]
((0,), Record(win=1, loss=4), Record(win=0, loss=1), Record(win=1, loss=3))

The options are those of every search of fnmcts (``search``, ``mcts_move``; the table of ``fnmcts.mcts._options`` says
what each does); each option's record form lives in its own module (``backups``, ``solver``, ``bounds``, ``rave``) and
is imported here; each also holds its array form, which the engine calls. This module is the reference: the fast engine
behind ``search`` grows exactly the same trees with exactly the same draws (property tests check it on generated games).
"""

from __future__ import annotations

import math
import random
from collections import ChainMap
from fractions import Fraction
from typing import Any, NamedTuple

from ..matches import playout
from ..protocol import CHANCE, may_repeat, payoff_range, sample_outcome
from ..rng import check_rng

from ._graph import mover_into, rescaler

from ._records import EMPTY_RECORD, add_payoff, builtin_rule, counts_of, rate_record, record, ucb
from ._tree import Tree
from .backups import CHANCE_WALK, expectimax_path, graph_path, graph_value, node_value  # noqa: F401
from .bounds import BOUNDS_WALK, bound_path, bounded_children, bounds_of, decision_bounds, derive_bounds  # noqa: F401
from .rave import amaf_keys, amaf_table, count_amaf, rave_rating  # noqa: F401 (phases.amaf_keys, ...)
from .solver import derive, open_children, proof, prove_path  # noqa: F401 (the record forms: phases.proof, ...)

__all__ = ["Step", "Path", "select", "expand", "simulate", "backup", "uct", "proof", "result_of", "BACKUPS",
           "amaf_keys", "amaf_table", "bounds_of", "derive_bounds", "decision_bounds",
           "bounded_children", "graph_value"]

BACKUPS = ("mean", "expectimax", "graph")
"""How results go back up the tree: the mean of the results, expectimax over the children, or the graph's
children weighted by edge visits."""


# -- the path: what selection saw ---------------------------------------------------------


class Step(NamedTuple):
    """One step of a selection: from a stored state, through the dice, into a child.

    ``node`` is the state the tree knows and ``record`` its record before the dive; ``outcomes`` the chance outcomes
    drawn from it (the dice), which lead to ``decision``, where ``player`` chooses (``decision`` is ``node`` when
    nobody rolls; ``player`` is None when the dice ended the game there). ``moves`` and ``children`` are the moves
    considered and the states they lead to (with the solver, only those not proven worse), ``records`` their records
    (None: not in the tree), ``scores`` the rule's rating of each (None when there is one child: it is taken without
    a rating), ``chosen`` the index of the child the dive goes into; ``expectimax``: the ratings read the children's
    values (``split`` shows each rating as estimate + bonus).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=2, max_take=2)
    >>> step = select(game, {game.start(): record(1, 1)}, game.start(), random.Random(1)).steps[0]
    >>> step.player, step.moves, step.scores, step.chosen, step.child == game.state(1, 1)
    (0, (1, 2), (inf, inf), 0, True)
    """

    node: Any
    record: Any
    outcomes: tuple
    decision: Any
    player: Any
    moves: tuple
    children: tuple
    records: tuple
    scores: Any
    chosen: Any
    expectimax: bool = False

    @property
    def child(self):
        """The state the dive goes into (None when the dice ended the game)."""
        return None if self.chosen is None else self.children[self.chosen]

    def split(self) -> tuple:
        """Per child ``(estimate, bonus, score)``: what the rating adds to the child's estimate.

        The estimate is the child's mean payoff (its value under expectimax; None when unvisited), ``score`` the
        rule's rating and ``bonus = score - estimate``, the exploration bonus, for any rule. None per child when the
        step took its only child without a rating.

        >>> from fnmcts.games import Nim
        >>> game = Nim(heap=3, max_take=2)
        >>> tree = {game.start(): record(2, 2), game.state(2, 1): record(1, 1), game.state(1, 1): record(0, 1)}
        >>> [tuple(round(x, 3) for x in part) for part in select(game, tree, game.start(), random.Random(1)).steps[0].split()]
        [(0.5, 0.707, 1.207), (0.0, 3.0, 3.0)]
        """
        if self.scores is None:
            return tuple(None for _ in self.children)
        estimates = [_visits_estimate(rec, self.expectimax)[1] for rec in self.records]
        return tuple((None, math.inf, s) if e is None else (e, s - e, s) for e, s in zip(estimates, self.scores))


class Path(NamedTuple):
    """What ``select`` returns: the steps from the root, where they stopped, and why.

    ``end`` is why the walk stopped at ``leaf``: ``'new'`` (the tree does not know it: expand it and play out from it),
    ``'terminal'`` (the game is over there: ``value`` is its payoff), ``'proven'`` (the solver knows its exact value:
    ``value``) or ``'repeat'`` (a state this walk already passed, in a game whose states repeat: play out from it, but
    it is not stored again). ``mover`` is the player who moved into the root (whose record the root holds).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=2, max_take=2)
    >>> path = select(game, {}, game.start(), random.Random(1))
    >>> path.end, path.steps, path.nodes == ((game.start(), 1),)
    ('new', (), True)
    """

    root: Any
    mover: int
    steps: tuple
    leaf: Any
    end: str
    value: Any = None

    @property
    def nodes(self) -> tuple:
        """``(state, mover)`` of every state on the path whose record the backup updates, root first."""
        out = [(self.root, self.mover)]
        for step in self.steps:
            if step.chosen is not None:
                out.append((step.children[step.chosen], step.player))
        if self.end == "repeat":
            out.pop()
        return tuple(out)

    def __repr__(self):
        return f"Path(root={self.root!r}, {len(self.steps)} steps, leaf={self.leaf!r}, end={self.end!r})"


# -- 1. select ----------------------------------------------------------------------------


def select(game, tree, state, rng: random.Random, rule=ucb, *, backup: str = "mean", solver: bool = False,
           replay=None, root=None, rave=None, rave_ref: int = 0, bounds: bool = False) -> Path:
    """Walk down ``tree`` from ``state``, rating children with ``rule``; return the ``Path``.

    At a state the tree knows, draw the chance outcomes (roll the dice) until a player is to move, rate the states
    the moves lead to with ``rule`` (the first of the best on ties) and go into the best. Stop at a state the tree
    does not know, at the end of the game, at a state the solver has proven (``solver=True``), or at a state already
    on this path (a game whose states repeat). Consumes ``rng`` for the dice only; nothing is modified. ``replay``:
    the chance outcomes to take, in order, instead of drawing them (a walk replayed: the ``outcomes`` of a path's
    steps, one after the other); ``rng`` is then not read. ``root``: a root rule
    (``fnmcts.mcts.enhancements.SequentialHalving``) that chooses instead of ``rule`` at ``state`` when ``state`` is
    a decision. ``rave`` and ``rave_ref`` (RAVE / GRAVE, with UCB1): a child is rated by ``rave_rating`` on the AMAF
    statistics of ``amaf_table``. ``bounds=True`` (score bounds): a state whose bounds meet (``bounds_of``) ends the
    walk as a proven one, and only ``bounded_children`` are considered.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3, max_take=2)
    >>> tree = {game.start(): record(1, 1), game.state(2, 1): record(0, 1), game.state(1, 1): record(1, 0)}
    >>> path = select(game, tree, game.start(), random.Random(1))
    >>> first = path.steps[0]
    >>> first.moves, first.scores, first.chosen, first.child == game.state(2, 1)
    ((1, 2), (3.0, 1.0), 0, True)
    >>> len(path.steps), path.end, path.leaf == game.state(1, 0)
    (2, 'new', True)

    Taking 1 (a loss so far, rated by the rule of three: 3/1) beats taking 2 (a win so far: 1.0); below it, neither
    move is in the tree, so the first is a new state.
    """
    if replay is None:
        check_rng(rng)
    else:
        replay = iter(replay)
    expectimax = _check_backup(backup) != "mean"  # the ratings read the values (expectimax, graph)
    builtin = builtin_rule(rule) or ()
    if rave is not None and builtin[:1] != ("ucb1",):
        raise ValueError(f"rave blends into UCB1's rating: it needs rule=ucb1 (or a partial of it), got {rule!r}")
    repeats = may_repeat(game)
    mover = mover_into(game, state)
    walk = _walk_of(game, tree)
    if walk is None:  # a walk for this selection alone
        walk = _Walk(game, tree.pmap() if isinstance(tree, Tree) else tree)
    get = walk.__getitem__
    steps = []
    seen = {state}
    node = state
    while True:
        rec = get(node)
        value = _proven_at(game, tree, node, solver, bounds) if solver or bounds else None
        if value is not None:
            return Path(state, mover, tuple(steps), node, "proven", value)
        if rec is None:
            return Path(state, mover, tuple(steps), node, "new")
        player = game.to_move(node)
        if player is None:
            return Path(state, mover, tuple(steps), node, "terminal", tuple(game.payoff(node)))
        decision, outcomes = node, ()
        if player is CHANCE:
            decision, player, outcomes = _rolled(game, node, player, rng, replay)
        if player is None:  # the dice ended the game
            steps.append(Step(node, rec, outcomes, decision, None, (), (), (), None, None))
            return Path(state, mover, tuple(steps), decision, "terminal", tuple(game.payoff(decision)))
        keep, moves, children = _considered(game, tree, decision, player, solver, bounds, walk)
        records = tuple(map(get, children))
        if len(children) == 1:
            scores, chosen = None, 0
        else:
            at_root = root is not None and not steps and not outcomes
            scores = _scores(rule, builtin, rec, records, keep, moves, player, expectimax, root if at_root else None,
                             rave, rave_ref, steps)
            chosen = scores.index(max(scores))  # the first of the best
        steps.append(Step(node, rec, outcomes, decision, player, moves, children, records, scores, chosen, expectimax))
        node = children[chosen]
        if repeats:
            if node in seen:
                return Path(state, mover, tuple(steps), node, "repeat")
            seen.add(node)


def _proven_at(game, tree, node, solver, bounds):
    """The exact payoff of ``node`` if the solver proved it (``solver``) or its score bounds meet (``bounds``), else None."""
    if solver:
        value = proof(game, tree, node)
        if value is not None:
            return value
    if bounds:
        low, high = bounds_of(game, tree, node)
        if low == high:
            return low
    return None


def _rolled(game, node, player, rng, replay) -> tuple:
    """``(decision, its player, outcomes)``: the chance outcomes from ``node`` drawn (or replayed) until a player moves."""
    decision, outcomes = node, []
    while player is CHANCE:
        outcome = sample_outcome(game, decision, rng) if replay is None else next(replay, _NONE_LEFT)
        if outcome is _NONE_LEFT:
            raise ValueError(f"the outcomes to replay ran out at {decision!r}")
        outcomes.append(outcome)
        decision = game.play(decision, outcome)
        player = game.to_move(decision)
    return decision, player, tuple(outcomes)


def _considered(game, tree, decision, player, solver, bounds, walk) -> tuple:
    """``(indices, moves, children)`` of the moves at ``decision`` still worth rating: not proven (``solver``), not cut by the bounds."""
    moves, children = walk.played(decision)
    keep = range(len(moves))
    if solver:
        keep = open_children(game, tree, children, player)
        moves, children = tuple(moves[j] for j in keep), tuple(children[j] for j in keep)
    if bounds:
        kept = bounded_children(game, tree, children, player)
        keep = tuple(keep[j] for j in kept)
        moves, children = tuple(moves[j] for j in kept), tuple(children[j] for j in kept)
    return keep, moves, children


def _scores(rule, builtin, rec, records, keep, moves, player, expectimax, root, rave, rave_ref, steps) -> tuple:
    """The ratings of the children of ``rec``'s state (below ``steps``): by the root rule, by RAVE / GRAVE, else by ``rule``."""
    if root is not None:  # the root's own rule
        estimates = [(j, *_visits_estimate(r, expectimax)) for j, r in zip(keep, records)]
        return tuple(root.scores(estimates, _visits_estimate(rec, expectimax)[1]))
    parent = counts_of(rec)[0]
    if rave is not None:  # RAVE / GRAVE: the mean blended with the move's AMAF mean
        table = amaf_table([*(step.record for step in steps), rec], rave_ref)
        return tuple([rave_rating(r, parent, builtin[1], table, player, m, rave, expectimax)
                      for r, m in zip(records, moves)])
    return tuple([rate_record(rule, r, parent, expectimax, builtin) for r in records])


_NONE_LEFT = object()


class _Walk(dict):
    """A ``Tree``'s records read so far (a miss reads its map ``items``) and ``moves``, each decision's ``played`` once.

    Carried by the tree (its ``_walk``), the tree's and the game's alone, it holds no more than the states the dives
    met, and moves on to the tree expand and backup return (one owner)."""

    __slots__ = ("game", "items", "moves", "call")  # call: what the last ``fnmcts.mcts.uct`` on the tree resolved

    def __init__(self, game, items):
        super().__init__()
        self.game, self.items, self.moves, self.call = game, items, {}, None

    def __missing__(self, state):
        rec = self[state] = self.items.get(state)
        return rec

    def played(self, decision) -> tuple:
        """``(moves, children)``: the moves at ``decision`` and the states they lead to, played once."""
        known = self.moves.get(decision)
        if known is None:
            moves = tuple(self.game.possible_moves(decision))
            known = self.moves[decision] = moves, tuple([self.game.play(decision, m) for m in moves])
        return known


def _walk_of(game, tree):
    """The ``_Walk`` ``tree`` carries, if it is this tree's and this game's, else None."""
    walk = getattr(tree, "_walk", None) if isinstance(tree, Tree) else None
    return walk if walk is not None and walk.items is tree.pmap() and walk.game is game else None


def _walked_on(game, tree, grown, records):
    """``grown`` (``tree`` with ``records`` set) carrying on the walk of ``tree``, if it has one: one owner."""
    walk = _walk_of(game, tree)
    if walk is not None:
        object.__setattr__(tree, "_walk", None)
        walk.items = grown.pmap()
        walk.update(records)
        object.__setattr__(grown, "_walk", walk)
    return grown


def _visits_estimate(rec, expectimax) -> tuple:
    """``(visits, estimate)`` of a record (None: not in the tree): the mean, the value under expectimax, None unvisited."""
    if rec is None:
        return 0, None
    n, s, _, _, v = counts_of(rec)
    return n, (None if not n else v if expectimax and v is not None else s / n)


# -- 2. expand ----------------------------------------------------------------------------


def expand(game, tree, path: Path):
    """``tree`` with the path's new state added (an empty record), if the path ended at one.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3, max_take=2)
    >>> path = select(game, {}, game.start(), random.Random(1))
    >>> path.end, expand(game, {}, path) == {game.start(): record()}
    ('new', True)
    """
    if path.end != "new":
        return tree
    if isinstance(tree, dict):
        return {**tree, path.leaf: EMPTY_RECORD}
    return _walked_on(game, tree, tree.set(path.leaf, EMPTY_RECORD), {path.leaf: EMPTY_RECORD})


# -- 3. simulate --------------------------------------------------------------------------


def simulate(game, state, rng: random.Random, rollout=None, *, moves: bool = False, check=None) -> tuple:
    """Play one game from ``state`` to the end (random moves, or ``rollout``'s); return its payoff.

    ``rollout`` is an agent, ``(game, state, rng) -> move`` (``fnmcts.matches.playout``). Random play runs on the
    game's ``random_payoff`` kernel, a rollout naming one (``in_place``) on the game's kernel of that name, when it
    has it: the same draws as the playout (each game's property tests check it). ``moves=True``: return ``(payoff,
    moves)``, the moves and chance outcomes the playout took, in order, with the same draws (a trace keeps them).
    ``check``: a ``fnmcts.protocol.payoff_check`` the payoff passes through (a ``GameError`` for a payoff of the
    wrong length or out of range).

    >>> from fnmcts.games import Nim
    >>> simulate(Nim(heap=5), Nim(heap=5).start(), random.Random(2))
    (1, -1)
    >>> simulate(Nim(heap=5), Nim(heap=5).start(), random.Random(2), moves=True)  # take 3, take 2: the last loses
    ((1, -1), (3, 2))
    """
    if moves:
        end, played = playout(game, state, rng, rollout, moves=True)
        return (tuple(game.payoff(end)) if check is None else check(end, game.payoff(end))), played
    hook = "random_payoff" if rollout is None else getattr(rollout, "in_place", None)  # a kernel of the same draws
    kernel = getattr(game, hook, None) if hook else None
    if hook == "decisive_payoff":
        kernel = rules_playout(game, False) or kernel
    if kernel is not None:
        return tuple(kernel(state, rng)) if check is None else check(state, kernel(state, rng), hook)
    end = playout(game, state, rng, rollout)
    return tuple(game.payoff(end)) if check is None else check(end, game.payoff(end))


def rules_playout(game, played):
    """``game``'s decisive playout on its compiled rules, in machine code (``_rules_kernel.decisive_kernel``: the
    same draws as its ``decisive_payoff``, ``played``: ``decisive_played``), or None: no such rules, no Numba."""
    if getattr(game, "compiled_rules", None) is None:
        return None
    from . import _kernel

    if not _kernel.available():
        return None
    from ._rules_kernel import decisive_kernel

    return decisive_kernel(game, played)


# -- 4. backup ----------------------------------------------------------------------------


def backup(game, tree, path: Path, payoff, *, backup: str = "mean", solver: bool = False, played=None,
           bounds: bool = False):
    """``tree`` with ``payoff`` added to the record of every state on ``path``, for its mover.

    The payoff is rescaled to [0, 1] on the game's ``payoff_range``; each record gains a visit and the rescaled
    payoff of the player who moved into its state (a win above 1/2, a draw at 1/2, else a loss). Then each option
    makes its pass over the path's records, deepest first, as its function's docstring tells:
    ``backup='expectimax'`` sets ``value`` (``expectimax_path``), ``backup='graph'`` sets ``graph`` and ``value``
    (``graph_path``), ``solver=True`` sets ``proven`` (``prove_path``; a path that ended at a new state proves
    nothing: its children are not known yet), ``bounds=True`` sets ``bounds`` on every record but a new state's
    (``bound_path``), and ``played`` (RAVE: the playout's moves and outcomes, ``simulate(..., moves=True)``; ``()``
    when the dive ended without one) counts each ``(player, move)`` of ``amaf_keys`` in ``amaf``, with that player's
    rescaled payoff (``count_amaf``). Only the records of the path change.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3, max_take=2)
    >>> path = select(game, {}, game.start(), random.Random(1))
    >>> backup(game, expand(game, {}, path), path, (1, -1)) == {game.start(): record(0, 1)}
    True
    """
    expectimax = _check_backup(backup) == "expectimax"
    x = rescaler(game)(payoff)
    nodes = path.nodes
    new = {}
    walk = _walk_of(game, tree)
    get = tree.get if walk is None else walk.__getitem__
    for state, mover in nodes:
        rec = get(state)
        new[state] = add_payoff(EMPTY_RECORD if rec is None else rec, x[mover])
    known = ChainMap(new, tree)  # the records as the backup has written them so far
    if backup == "graph":
        graph_path(game, known, nodes, new, x)
    if expectimax:
        expectimax_path(game, known, nodes, new)
    if solver and path.end != "new":  # a new state's children are not known yet: nothing is proven from them
        prove_path(game, known, nodes, new)
    if bounds:
        bound_path(game, known, nodes[:-1] if path.end == "new" else nodes, new)
    if played is not None:
        count_amaf(game, path, played, nodes, new, x)
    return _walked_on(game, tree, _set(tree, new), new)


_backup = backup  # ``uct``'s option ``backup`` hides the function's name there


def _set(tree, records: dict):
    """``tree`` with ``records`` set: the same kind of map back, sharing everything else."""
    if isinstance(tree, dict):
        return {**tree, **records}
    try:
        grown = tree.evolver()
    except AttributeError:
        raise TypeError(f"tree must be a map from state to record (e.g. pmap()), got {type(tree).__name__}") from None
    for state, rec in records.items():
        grown[state] = rec
    return Tree(grown.persistent(), tree._root) if isinstance(tree, Tree) else grown.persistent()


def _check_backup(backup):
    if backup not in BACKUPS:
        raise ValueError(f"backup must be one of {BACKUPS}, got {backup!r}")
    return backup


# -- uct: the four phases, one dive -------------------------------------------------------


def result_of(game, payoff):
    """What a dive returns: ``'win'`` / ``'loss'`` for a one-player game, else the payoff tuple.

    The words are for a one-player game that pays a win or a loss (the tutorial's results).

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


def uct(game, tree, state, rng: random.Random, rule=ucb, *, rollout=None, backup: str = "mean", solver: bool = False,
        root=None, rave=None, rave_ref: int = 0, bounds: bool = False, proofs: int = 0):
    """One dive from ``state``: select, expand, simulate, back up; return ``(tree, result)``.

    The tutorial's ``uct``, for any game: ``result`` is ``'win'`` or ``'loss'`` in a one-player game that pays wins
    and losses (Shut the Box), else the payoff tuple. ``tree`` is never modified; the new tree shares every record
    off the path with it. ``rng`` is consumed. Options as for ``select`` and ``backup``; ``rollout``: the agent of
    the playout. ``proofs=d`` (shallow proofs): the dive sees the game through ``enhancements.with_proofs(game, d,
    state)``, where a state (but ``state``) that a ``d``-ply search to the end solves is an end with its exact
    value, in the tree and the playout.

    >>> from fnmcts.games import ShutTheBox
    >>> from fnmcts.rng import make_rng
    >>> game, rng = ShutTheBox(), make_rng(3)
    >>> tree, result = uct(game, {}, game.start(), rng)
    >>> tree, result = uct(game, tree, game.start(), rng)
    >>> len(tree), tree[game.start()]
    (2, Record(win=0, loss=2))
    """
    if proofs:
        from .enhancements import with_proofs

        game = with_proofs(game, proofs, state)
    if isinstance(tree, Tree) and _walk_of(game, tree) is None:  # the dives from this tree on read through one walk
        object.__setattr__(tree, "_walk", _Walk(game, tree.pmap()))
    path = select(game, tree, state, rng, rule, backup=backup, solver=solver, root=root, rave=rave, rave_ref=rave_ref,
                  bounds=bounds)
    played = None if rave is None else ()
    if path.end not in ("new", "repeat"):
        payoff = path.value
    elif rave is None:
        payoff = simulate(game, path.leaf, rng, rollout)
    else:
        payoff, played = simulate(game, path.leaf, rng, rollout, moves=True)
    tree = _backup(game, expand(game, tree, path), path, payoff, backup=backup, solver=solver, played=played,
                   bounds=bounds)  # the walk moves on with the tree (expand, backup)
    return tree, result_of(game, payoff)
