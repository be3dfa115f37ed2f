"""A trace of a search: every dive, what each of its phases saw, and every tree, kept as one value.

``trace(game, state, n, rng)`` runs ``n`` dives of the phases of
``fnmcts.mcts.phases`` (select, expand, simulate, back up: ``uct``, one dive at
a time) and keeps, for each dive, the path (at every selection step the
children with their visits, mean, exploration bonus and score), the state it
expanded, the playout's moves and payoff, the records it changed and the tree
after it. The trees share structure (a dive makes new records only along its
path), so a trace of 10,000 dives of tic-tac-toe holds every tree in well
under 100 MB. Beside each state the trace knows its exact value, when the game
is small enough to solve (``fnmcts.exact.solve`` within ``exact`` states).

A trace is a value, so a search can be travelled in time: ``trace.tree(10)``
is the tree after 10 dives, ``trace.dive(10)`` the tenth dive taken apart,
``fnmcts.views.diff(trace.tree(10), trace.tree(100))`` what changed between
them. Its last tree is the tree ``search`` grows with the same options and
generator, draw for draw.

>>> from fnmcts.games import Nim
>>> from fnmcts.mcts import search
>>> from fnmcts.rng import make_rng
>>> game = Nim(heap=5, max_take=2)

>>> t = trace(game, game.start(), 20, make_rng(1))
>>> t
Trace(20 dives of Nim(heap=5, max_take=2, misere=True) from the start: Tree(10 states, root pmap({'heap': 5, 'player': 0}): Record(win=10, loss=10)))
>>> t.tree() == search(game, game.start(), 20, make_rng(1), rule='tutorial')   # uct's rule, the trace's default
True
>>> dive = t.dive(3)
>>> dive.path.end, sorted(s["heap"] for s in dive.changed), dive.payoff
('new', [3, 5], (-1, 1))

Only memory limits a trace: ``trace`` estimates what ``n`` dives would hold
and refuses up front (``TooLarge``) a trace beyond ``memory`` bytes, saying how
many dives fit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from pyrsistent import pmap

from ..exact import solve
from ..limits import TooLarge, _deep_size, many, random_lines, size_hint
from ..mcts import phases
from ..mcts._records import ucb, visits
from ._explore import explore_page, iframe
from ._reading import _check_reading
from ..mcts._options import SearchOptions, search_options
from ..mcts._search import _check_tree, _given, _options
from ..protocol import game_text
from ._texts import (
    _describe,
    _estimate,
    _exact_for,
    _leaf_name,
    _names,
    _outcome_states,
    _payoff_text,
    _player_name,
    format_number,
    record_text,
)
from ..mcts._tree import Tree
from ..mcts.enhancements import with_proofs

__all__ = [
    "trace",
    "first_difference",
    "trace_bytes",
    "Trace",
    "Dive",
    "Sibling",
    "TRACE_MEMORY",
    "EXACT_STATES",
]

TRACE_MEMORY = 10**9
"""Bytes a trace may hold unless told otherwise (``memory=``): a gigabyte."""


EXACT_STATES = 50_000
"""The most states a trace's exact solution may hold unless told otherwise (``exact=``)."""

# What one dive costs, measured (benchmarks/bench_trace.py prints the estimate beside the bytes
# really held): the dive's frame, and per record it changes the record and the new nodes of the
# persistent map (a path of the map's trie, copied once per dive), per playout move a slot.
FRAME_BYTES = 400
RECORD_BYTES = 160
MAP_NODE_BYTES = 320
MOVE_BYTES = 8
UNKNOWN_LENGTH = 100
"""The longest line assumed for a game whose ``size_hint`` gives no length."""


# -- the values ---------------------------------------------------------------------------------


class Sibling(NamedTuple):
    """One child a selection step compared: its move, record, visits, mean, bonus, score, exact value.

    ``mean`` is the estimate the rating started from (the mean payoff, or the
    expectimax value; None when unvisited), ``score`` the rule's rating and
    ``bonus = score - mean`` the exploration bonus (infinity when unvisited);
    ``score`` and ``bonus`` are None when the step had one child, taken without
    a rating. ``exact`` is the child's exact value for the player choosing it,
    on the same [0, 1] scale as the mean (None when the game was not solved).
    ``chosen``: the dive went into this child.

    >>> from fnmcts.games import Nim
    >>> from fnmcts.rng import make_rng
    >>> first = trace(Nim(heap=5, max_take=2), Nim(heap=5, max_take=2).start(), 5, make_rng(2)).dive(5).siblings(0)[0]
    >>> first.move, first.visits, first.mean, first.bonus, first.score, first.exact, first.chosen
    (1, 1, 1.0, 0.0, 1.0, 1.0, False)
    """

    move: Any
    child: Any
    record: Any
    visits: int
    mean: Any
    bonus: Any
    score: Any
    exact: Any
    chosen: bool


class Dive(NamedTuple):
    """One dive of a trace, taken apart: its path, expansion, playout, backup, and the trees around it.

    ``index`` counts from 1; ``before`` and ``tree`` are the trees before and
    after it; ``path`` is what ``select`` returned (``fnmcts.mcts.phases.Path``:
    its steps hold every child's record and rating); ``expanded`` the state it
    added (None when the path ended at the end of the game, at a proven state
    or at a repeat); ``playout`` the moves and chance outcomes of the playout
    (empty when there was none) and ``payoff`` its payoff (or the terminal's,
    the proven value's); ``changed`` the records it changed, a map from state
    to new record (exactly the states of its path). ``siblings(j)`` is step
    ``j``'s children, compared; ``lines()`` the dive phase by phase, as text.

    >>> from fnmcts.games import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=5, max_take=2)
    >>> dive = trace(game, game.start(), 5, make_rng(2)).dive(5)
    >>> dive.index, dive.path.end, dive.expanded == game.state(1, 0), dive.playout, dive.payoff
    (5, 'new', True, (1,), (-1, 1))
    >>> set(dive.changed) == {state for state, _ in dive.path.nodes}, len(dive.tree) - len(dive.before)
    (True, 1)
    """

    index: int
    before: Any
    path: Any
    expanded: Any
    playout: tuple
    payoff: tuple
    changed: Any
    tree: Any
    game: Any
    exact: Any = None

    def siblings(self, j: int) -> tuple:
        """The children step ``j`` of the path compared (from 0): a ``Sibling`` each, in move order.

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> game = Nim(heap=5, max_take=2)
        >>> dive = trace(game, game.start(), 5, make_rng(2)).dive(5)
        >>> [(s.move, s.visits, s.mean, s.bonus, s.score, s.chosen) for s in dive.siblings(0)]
        [(1, 1, 1.0, 0.0, 1.0, False), (2, 2, 0.0, 1.5, 1.5, True)]

        The rule of three rates two losses (1.5) above one win (1.0), so the
        dive takes 2, though taking 1 (leaving 4) is the move that wins:

        >>> [s.exact for s in dive.siblings(0)]
        [1.0, 0.0]
        """
        step = self.path.steps[j]
        split = step.split()
        value = _exact_for(self.game, self.exact)
        out = []
        for k, (move, child, rec) in enumerate(zip(step.moves, step.children, step.records)):
            part = split[k]
            estimate, bonus, score = (None, None, None) if part is None else part
            if part is None and rec is not None and visits(rec):
                estimate = _estimate(rec, step)
            out.append(Sibling(move, child, rec, 0 if rec is None else visits(rec), estimate, bonus, score,
                               value(child, step.player), k == step.chosen))
        return tuple(out)

    def lines(self, min_width: int = 8) -> tuple:
        """The dive phase by phase, as lines of text: each selection step's split, expand, playout, backup.

        The numbers are those the explorer page shows for the same dive (three
        decimals; "inf" for the bound of a child not yet visited).

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> game = Nim(heap=5, max_take=2)
        >>> print("\\n".join(trace(game, game.start(), 5, make_rng(2)).dive(5).lines()))
        dive 5
        select 1: at the root: player 1 chooses (mean + bonus = score)
          take 1    visits 1  mean 1.000 + bonus 0.000 = score 1.000  exact 1.000
          take 2    visits 2  mean 0.000 + bonus 1.500 = score 1.500  exact 0.000  <- chosen
        select 2: at take 2: player 2 chooses (mean + bonus = score)
          take 1    visits 1  mean 1.000 + bonus 0.000 = score 1.000  exact 0.000
          take 2    visits 0  mean - + bonus inf = score inf  exact 1.000  <- chosen
        expand: adds take 2 > take 2
        playout: take 1: payoff (-1, 1)
        backup: take 2 > take 2 (new) -> Record(win=1, loss=0)
        backup: take 2 Record(win=0, loss=2) -> Record(win=0, loss=3)
        backup: the root Record(win=3, loss=1) -> Record(win=4, loss=1)
        """
        game, path = self.game, self.path
        names = _names(game, path)
        out = [f"dive {self.index}"]
        for j, step in enumerate(path.steps):
            where = f"select {j + 1}: at {names.get(step.node, '?')}"
            if step.outcomes:
                where += ", " + ", ".join(_describe(game, s, o) for s, o in _outcome_states(game, step))
            if step.player is None:
                out.append(f"{where}: the game is over")
                continue
            who = _player_name(game, step.player)
            if step.scores is None:
                out.append(f"{where}: {who} has one move, {_describe(game, step.decision, step.moves[0])}")
                continue
            out.append(f"{where}: {who} chooses (mean + bonus = score)")
            siblings = self.siblings(j)
            texts = [_describe(game, step.decision, s.move) for s in siblings]
            width = max(min_width, *(len(text) for text in texts))
            for s, text in zip(siblings, texts):
                exact = "" if s.exact is None else f"  exact {format_number(s.exact)}"
                mark = "  <- chosen" if s.chosen else ""
                out.append(
                    f"  {text:<{width}}  visits {s.visits}  mean {format_number(s.mean)} + bonus "
                    f"{format_number(s.bonus)} = score {format_number(s.score)}{exact}{mark}"
                )
        leaf = names.get(path.leaf) or _leaf_name(game, path, names)
        if path.end == "new":
            out.append(f"expand: adds {leaf}")
        elif path.end == "terminal":
            out.append(f"expand: the game is over at {leaf}: nothing to add")
        elif path.end == "proven":
            out.append(f"expand: {leaf} is proven: nothing to add")
        else:
            out.append(f"expand: {leaf} is on the path already: nothing to add")
        if self.playout:
            played, state = [], path.leaf
            for move in self.playout:
                played.append(_describe(game, state, move))
                state = game.play(state, move)
            out.append(f"playout: {', '.join(played)}: payoff {_payoff_text(self.payoff)}")
        elif path.end == "new":
            out.append(f"playout: no move (the game is over there): payoff {_payoff_text(self.payoff)}")
        else:
            out.append(f"playout: none: payoff {_payoff_text(self.payoff)}")
        for state, _ in reversed(path.nodes):
            old = self.before.get(state)
            out.append(f"backup: {names.get(state, '?')} {record_text(old)} -> {record_text(self.changed[state])}")
        return tuple(out)


class _Frame:
    """What a trace keeps of one dive beside its tree: enough to replay its path exactly."""

    __slots__ = ("outcomes", "playout", "payoff", "nodes", "leaf", "end")

    def __init__(self, outcomes, playout, payoff, nodes, leaf, end):
        self.outcomes, self.playout, self.payoff = outcomes, playout, payoff
        self.nodes, self.leaf, self.end = nodes, leaf, end

    def route(self) -> tuple:
        """The walk without its numbers: the dice, the states of the path, where and why it stopped."""
        return (self.outcomes, self.nodes, self.leaf, self.end)


class Trace:
    """Every dive of a search and every tree, as one immutable value (``trace`` makes one).

    ``len(trace)`` dives; ``dive(k)`` the ``k``-th (from 1), taken apart (a
    ``Dive``); ``tree(k)`` the tree after ``k`` dives (``tree(0)``: the tree it
    started from; ``tree()``: the last); ``changes(k)`` the records dive ``k``
    changed; ``exact_value(state)`` a state's exact payoff (None when the game
    was not solved). Iterating gives the dives in order. In Jupyter a trace
    shows the explorer (``fnmcts.views.explore_page``) inline.

    >>> from fnmcts.games import TicTacToe
    >>> from fnmcts.rng import make_rng
    >>> t = trace(TicTacToe(), TicTacToe().start(), 50, make_rng(1))
    >>> len(t), len(t.tree(10)), len(t.tree(50)), [dive.path.end for dive in t][:3]
    (50, 10, 50, ['new', 'new', 'new'])
    """


    __slots__ = ("game", "root", "options", "_trees", "_frames", "exact")

    def __init__(self, game, root, options, trees, frames, exact):
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "root", root)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "_trees", tuple(trees))
        object.__setattr__(self, "_frames", tuple(frames))
        object.__setattr__(self, "exact", exact)

    def __setattr__(self, name, value):
        raise AttributeError("a Trace is immutable")

    def __len__(self):
        return len(self._frames)

    def __iter__(self):
        return (self.dive(k) for k in range(1, len(self) + 1))

    def __eq__(self, other):
        if not isinstance(other, Trace):
            return NotImplemented
        return (
            self.game == other.game
            and self.root == other.root
            and self.options == other.options
            and self._trees == other._trees
            and [f.route() + (f.playout, f.payoff) for f in self._frames]
            == [f.route() + (f.playout, f.payoff) for f in other._frames]
        )

    def __hash__(self):
        return hash((self.game, self.root, len(self)))

    def _index(self, k, low: int) -> int:
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"a dive is a whole number, got {k!r}")
        n = len(self)
        if k < 0:
            k += n + 1
        if not low <= k <= n:
            first = "0 (the tree before the first dive)" if low == 0 else "1"
            raise IndexError(f"this trace has {n:,} dives: give {first} to {n:,}, got {k}")
        return k

    def tree(self, k: int | None = None) -> Tree:
        """The tree after ``k`` dives (``0``: the tree the trace started from; None or -1: the last).

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> t = trace(Nim(heap=5), Nim(heap=5).start(), 10, make_rng(1))
        >>> len(t.tree(0)), len(t.tree(1)), t.tree(10) is t.tree()
        (0, 1, True)
        """
        return self._trees[-1 if k is None else self._index(k, 0)]

    def changes(self, k: int):
        """The records dive ``k`` changed: a map from state to its new record (exactly the states of its path).

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> t = trace(Nim(heap=5), Nim(heap=5).start(), 10, make_rng(1))
        >>> sorted((s["heap"], r) for s, r in t.changes(2).items())
        [(4, Record(win=0, loss=1)), (5, Record(win=2, loss=0))]
        """
        k = self._index(k, 1)
        after = self._trees[k].pmap()
        return pmap({state: after[state] for state in self._frames[k - 1].nodes})

    def dive(self, k: int) -> Dive:
        """The ``k``-th dive (from 1; -1 the last), taken apart: a ``Dive`` with its path replayed.

        The path is ``select`` again on the tree before the dive, with the dice
        the dive drew: exactly the path the dive took (a property test checks it).

        >>> from fnmcts.games import ShutTheBox
        >>> from fnmcts.rng import make_rng
        >>> game = ShutTheBox(levers=4)
        >>> dive = trace(game, game.start(), 30, make_rng(1)).dive(30)
        >>> [step.outcomes for step in dive.path.steps], dive.path.end, dive.payoff
        ([(3,), (5,), (9,)], 'terminal', (0,))

        Rolls of 3 and 5 led to the box {2}, where a 9 ends the game: a loss.
        """
        k = self._index(k, 1)
        frame = self._frames[k - 1]
        before = self._trees[k - 1]
        opts = self.options
        path = phases.select(
            with_proofs(self.game, opts.get("proofs", 0), self.root), before, self.root, None, opts["rule"],
            backup=opts["backup"], solver=opts["solver"],
            replay=frame.outcomes, rave=opts.get("rave"), rave_ref=opts.get("rave_ref", 0), bounds=opts.get("bounds", False),
        )
        expanded = path.leaf if path.end == "new" else None
        return Dive(k, before, path, expanded, frame.playout, frame.payoff, self.changes(k), self._trees[k],
                    self.game, self.exact)

    def exact_value(self, state):
        """The exact payoff of ``state`` (a tuple of fractions), or None when the game was not solved.

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> t = trace(Nim(heap=5), Nim(heap=5).start(), 1, make_rng(1))
        >>> t.exact_value(Nim(heap=5).start())       # 5 sticks, take 1-3, the last loses: the mover loses
        (Fraction(-1, 1), Fraction(1, 1))
        """
        if self.exact is None:
            return None
        return self.exact.get(state)

    def route(self, k: int) -> tuple:
        """Dive ``k``'s walk without its numbers: its dice, the states of its path, where and why it stopped.

        Two dives took the same path when their routes are equal (``first_difference``).
        """
        return self._frames[self._index(k, 1) - 1].route()

    def first_difference(self, other: "Trace"):
        """The first dive whose path differs from ``other``'s (``first_difference(self, other)``), or None.

        >>> from fnmcts.games import Nim
        >>> from fnmcts.rng import make_rng
        >>> game = Nim(heap=9)
        >>> a, b = (trace(game, game.start(), 30, make_rng(seed), exact=0) for seed in (1, 2))
        >>> a.first_difference(b), a.first_difference(a)
        (5, None)
        """
        if self.game != other.game or self.root != other.root:
            raise ValueError("first_difference compares traces of the same game from the same state")
        for k, (mine, theirs) in enumerate(zip(self._frames, other._frames), 1):
            if mine.route() != theirs.route():
                return k
        return None

    def __repr__(self):
        where = "the start" if self.root == _start(self.game) else repr(self.root)
        n = len(self)
        return f"Trace({n:,} dive{'' if n == 1 else 's'} of {game_text(self.game)} from {where}: {self.tree()!r})"

    def _repr_html_(self):
        return iframe(explore_page(self))


def _start(game):
    try:
        return game.start()
    except Exception:  # a game without a start: never equal
        return object()


# -- making one ---------------------------------------------------------------------------------


def trace(
    game,
    state,
    n: int,
    rng: random.Random,
    tree=None,
    rule=None,
    *,
    c=None,
    z=None,
    rollout=None,
    backup: str | None = None,
    solver: bool | None = None,
    rave=None,
    rave_ref=None,
    bounds=None,
    proofs=None,
    options: SearchOptions | None = None,
    exact: int = EXACT_STATES,
    memory: int | None = TRACE_MEMORY,
    progress=None,
    **others,
) -> Trace:
    """``n`` dives of MCTS from ``state``, each kept: the ``Trace`` of a search, phase by phase.

    Each dive is the phases of ``fnmcts.mcts.phases`` in a row, as ``uct``
    runs them: the trace's last tree is ``search(game, state, n, rng, tree,
    rule, ...)``'s, and ``rng`` ends where the search leaves it (a property
    test checks both). The options are ``search``'s (``rule``, ``c``, ``z``,
    ``backup``, ``solver``, ``rollout``, ``rave``, ``rave_ref``, ``bounds`` or one ``options`` value;
    ``fnmcts.mcts.search_options``) with ``uct``'s rule: the tutorial's
    ``ucb`` (so the solver is off) unless ``rule`` or ``options`` says
    otherwise; and a ``tree`` to continue; a trace keeps every tree
    whole, so the budgets that stop or prune a search (``seconds``,
    ``max_nodes``, ``stop``) are not among them. ``exact``: solve the game from
    ``state`` exactly when it has at most this many states, for the exact
    value beside every state (0: do not). ``memory``: refuse up front, with a
    ``TooLarge`` naming how many dives fit, a trace estimated beyond this many
    bytes (None: go on regardless). ``progress(k)``, if given, hears of every
    ``k`` dives done.

    >>> from fnmcts.games import TicTacToe
    >>> from fnmcts.mcts import search
    >>> from fnmcts.rng import make_rng
    >>> game = TicTacToe()
    >>> t = trace(game, game.start(), 100, make_rng(1))
    >>> len(t), t.tree(100) == search(game, game.start(), 100, make_rng(1), rule='tutorial')
    (100, True)
    >>> trace(game, game.start(), 10**9, make_rng(1))
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: a trace of 1,000,000,000 dives of TicTacToe() would hold about 8,932 GB (8,932 bytes a dive at most); the budget is 1.00 GB: at most 111,957 dives fit; memory=None goes on regardless
    """
    for name in ("seconds", "max_nodes", "stop", "graph"):
        if name in others:
            raise TypeError(
                f"trace keeps every tree of its {n!r} dives whole: {name}= is an option of search, not of trace"
            )
    if others:
        raise TypeError(f"trace got an unexpected option {sorted(others)[0]!r}")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n (the number of dives) must be a whole number, got {n!r}")
    if n < 0:
        raise ValueError(f"n (the number of dives) must be non-negative, got {n}")
    if isinstance(exact, bool) or not isinstance(exact, int) or exact < 0:
        raise ValueError(f"exact is the most states the exact solution may hold (0: none), got {exact!r}")
    if rule is None and options is None:
        rule = ucb  # as uct: a trace is the tutorial's dives unless a rule is given
    opts = search_options(
        game, options,
        **_given(rule=rule, c=c, z=z, rollout=rollout, backup=backup, solver=solver, rave=rave, rave_ref=rave_ref,
                 bounds=bounds, proofs=proofs),
    )
    if opts.root is not None:
        raise TypeError(f"trace runs the phases dive by dive: a root rule (root={opts.root!r}) is an option of search")
    rule, backup, solver, rollout = opts.selection(), opts.backup, opts.solver, opts.playout()
    state = _options(game, state, rng)
    if isinstance(tree, Mapping):
        _check_reading(None, tree)  # mcts_move's MoveSearch is a map of its fields: say to give its .tree
    tree = Tree(pmap(), state) if tree is None else _check_tree(tree).with_root(state)
    if memory is not None:
        _check_memory(game, state, n, memory, tree)
    solution = _solution(game, state, exact)
    rave, rave_ref = opts.rave, opts.rave_ref
    options = pmap({"rule": rule, "backup": backup, "solver": solver, "rollout": rollout}
                   | ({} if rave is None else {"rave": rave, "rave_ref": rave_ref})
                   | ({"bounds": True} if opts.bounds else {})
                   | ({"proofs": opts.proofs} if opts.proofs else {}))
    bounds = opts.bounds
    seen = with_proofs(game, opts.proofs, state)  # the game as the dives see it (shallow proofs)
    canon, trees, frames = {}, [tree], []
    intern = canon.setdefault
    for k in range(n):
        path = phases.select(seen, tree, state, rng, rule, backup=backup, solver=solver, rave=rave, rave_ref=rave_ref,
                             bounds=bounds)
        grown = phases.expand(seen, tree, path)
        if path.end in ("new", "repeat"):
            payoff, played = phases.simulate(seen, path.leaf, rng, rollout, moves=True)
        else:
            payoff, played = path.value, ()
        tree = phases.backup(seen, grown, path, payoff, backup=backup, solver=solver,
                             played=None if rave is None else played, bounds=bounds)
        outcomes = tuple(o for step in path.steps for o in step.outcomes)
        nodes = tuple(intern(s, s) for s, _ in path.nodes)
        frames.append(_Frame(outcomes, played, payoff, nodes, intern(path.leaf, path.leaf), path.end))
        trees.append(tree)
        if progress is not None and (k + 1) % 1_000 == 0:
            progress(1_000)
    if progress is not None and n % 1_000:
        progress(n % 1_000)
    return Trace(game, state, options, trees, frames, solution)


def _solution(game, state, limit):
    """The exact solution from ``state`` if it holds at most ``limit`` states, else None."""
    if not limit:
        return None
    try:
        return solve(game, state, limit=limit)
    except TooLarge:
        return None


def trace_bytes(game, state, n: int, tree=None) -> int:
    """The bytes a trace of ``n`` dives from ``state`` holds at most, by the game's longest line.

    Each dive keeps a frame, the state it adds, a new record per state of its
    path (at most one more than the decisions of the longest line) with the
    nodes of the persistent map above it, and its playout's moves. The longest
    line is the game's ``size_hint``, else the longest of a few random games
    from ``state`` (drawn with a generator of its own). An estimate for the
    memory check, not a measure: ``benchmarks/bench_trace.py`` prints it beside
    the bytes traces really hold, and a test checks it bounds them.

    >>> from fnmcts.games import TicTacToe
    >>> round(trace_bytes(TicTacToe(), TicTacToe().start(), 10_000) / 1e6, 1)
    89.3
    """
    return n * _dive_bytes(game, state, n + (0 if tree is None else len(tree)))


def _dive_bytes(game, state, size) -> int:
    states, length, _ = size_hint(game, state)
    moves = length
    if length is None:
        length, moves = _longest_line(game, state)
    if states is not None:
        size = min(size, states)
    depth = max(1, math.ceil(math.log(max(2 * size, 2), 32)))  # levels of the map's trie
    per_record = RECORD_BYTES + (depth - 1) * MAP_NODE_BYTES  # the trie's root is copied once a dive
    return FRAME_BYTES + MAP_NODE_BYTES + _deep_size([state], {id(game)}) + (length + 1) * per_record + moves * MOVE_BYTES


def _longest_line(game, state, games: int = 32) -> tuple:
    """``(decisions, moves)``: the most of each in ``games`` random games from ``state`` (a generator of its own)."""
    return random_lines(game, (state,), games, 100_000)


def _check_memory(game, state, n, memory, tree):
    if isinstance(memory, bool) or not isinstance(memory, int) or memory <= 0:
        raise ValueError(f"memory is a number of bytes (None: no check), got {memory!r}")
    per = _dive_bytes(game, state, n + len(tree))
    if n * per <= memory:
        return
    fit = memory // per
    raise TooLarge(
        f"a trace of {many(n)} dives of {game_text(game)} would hold about {_gb(n * per)} ({per:,} bytes a dive at most); "
        f"the budget is {_gb(memory)}: at most {many(fit)} dives fit; memory=None goes on regardless"
    )


def _gb(size) -> str:
    """``size`` bytes in GB (MB below a GB), in short form past a million GB.

    >>> _gb(3 * 10**8), _gb(2 * 10**9), _gb(10**12), _gb(10**110)
    ('300 MB', '2.00 GB', '1,000 GB', '1e+101 GB')
    """
    if size >= 10**15:
        return f"{size / 1e9:.3g} GB"
    if size >= 10**11:
        return f"{size / 1e9:,.0f} GB"
    if size >= 10**9:
        return f"{size / 1e9:.2f} GB"
    return f"{size / 1e6:,.0f} MB"


# -- comparing two traces -----------------------------------------------------------------------


def first_difference(trace_a: Trace, trace_b: Trace):
    """The first dive (from 1) whose path differs between two traces, or None when none does.

    The path is the walk without its numbers: the dice, the states it passed,
    where and why it stopped. Two traces of the same game and state with
    different options (another constant, rule or backup) from the same seed
    run the same dives until their ratings first disagree. Only the dives both
    traces hold are compared.

    >>> from functools import partial
    >>> from fnmcts.games import TicTacToe
    >>> from fnmcts.mcts import ucb1
    >>> from fnmcts.rng import make_rng
    >>> game = TicTacToe()
    >>> a = trace(game, game.start(), 40, make_rng(7), exact=0)
    >>> b = trace(game, game.start(), 40, make_rng(7), rule=partial(ucb1, c=0.5), exact=0)
    >>> k = first_difference(a, b)
    >>> k, a.route(k - 1) == b.route(k - 1), a.route(k) == b.route(k)
    (11, True, False)
    >>> first_difference(a, a) is None
    True
    """
    for t in (trace_a, trace_b):
        if not isinstance(t, Trace):
            raise TypeError(f"first_difference compares two traces (fnmcts.views.trace), got {type(t).__name__}")
    return trace_a.first_difference(trace_b)
