"""The game as the search walks it: a graph of nodes, built from the protocol on demand.

The search engine (``_engine``) never calls the game directly. It reads, per node (an integer: states are interned):
``kind[i]`` (the player to move, 0, 1, ...; below 0: ``END``, ``CHANCE_NODE``, or ``UNSEEN`` before the node is
expanded), ``moves[i]``, ``lazy[i]`` (the nodes the moves lead to, each made when first asked: ``child(i, j)``),
``kids[i]`` (all of them, once ``children(i)`` made them), ``chance[i]`` (how to draw a chance outcome), ``u[i]`` (a
terminal's payoff rescaled to [0, 1] per player), each computed from the protocol once, when the node is first expanded.
A game may build its own graph faster through the optional ``compiled_graph()`` hook (same answers). A graph lives as
long as the caller keeps it (``search`` and ``mcts_move`` build one per call unless given one).

>>> from fnmcts.games.nim import Nim
>>> graph = CompiledGraph(Nim(heap=3, max_take=2))
>>> root = graph.node(graph.game.start())
>>> graph.expand(root), list(graph.lazy[root])
(0, [None, None])
>>> [graph.state(i)['heap'] for i in graph.children(root)], graph.lazy[root]
([2, 1], [1, 2])
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from math import lcm

from ..protocol import CHANCE, GameBase, GameError, blame_game, checked_play, checked_step, payoff_check, payoff_range
from ..protocol import ASK, called, game_text, valid_player
from ..rng import pick, pick_cumulative

__all__ = ["END", "CHANCE_NODE", "UNSEEN", "EVERY_NODE", "whole_from", "CompiledGraph", "graph_of", "draw", "rescaler", "mover_into", "SLOT_LIMIT"]

END = -1
"""``kind`` of a terminal node: nobody is to move. (Players are 0, 1, ...: every other kind is below 0.)"""

CHANCE_NODE = -2
"""``kind`` of a chance node."""

UNSEEN = -3
"""``kind`` of a node not expanded yet."""

_UNMADE = object()
"""A node's place in ``CompiledGraph._states`` while its state is not made (``intern_unmade``)."""

EVERY_NODE = "every node"
"""``CompiledGraph.whole_from`` is ``(EVERY_NODE, n)`` when nodes ``0..n - 1`` are all expanded (``_kernel.whole_graph``):
whole from any of them (a node interned since is none of their children)."""


def whole_from(graph, root) -> bool:
    """Whether every node ``root`` reaches in ``graph`` is expanded (``_kernel.complete``, ``_kernel.whole_graph``).

    >>> from fnmcts.games.nim import Nim
    >>> from ._kernel import complete
    >>> graph = CompiledGraph(Nim(heap=4, max_take=2))
    >>> root = graph.node(graph.game.start())
    >>> whole_from(graph, root), complete(graph, root, 100), whole_from(graph, root), whole_from(graph, root + 1)
    (False, True, True, False)
    >>> graph.whole_from = (EVERY_NODE, len(graph))  # every node expanded: whole from any of them
    >>> whole_from(graph, root + 1), whole_from(graph, len(graph))
    (True, False)
    """
    done = graph.whole_from
    return done == root or (type(done) is tuple and root < done[1])


SLOT_LIMIT = 4096
"""Chance nodes whose probabilities share a denominator up to this draw from a table of slots."""


def rescaler(game):
    """``payoff -> rescaled payoff``: each number mapped from ``payoff_range`` onto [0, 1].

    Floats, except whole numbers on a (0, 1) range, which stay as they are (the
    tutorial's wins and losses count in integers).

    >>> from fnmcts.games import Nim
    >>> rescaler(Nim())((1, -1))
    (1.0, 0.0)
    """
    low, high = payoff_range(game)
    span = high - low
    if low == 0 and high == 1:
        return lambda pay: tuple(x if type(x) is int else float(x) for x in pay)
    return lambda pay: tuple(float((x - low) / span) for x in pay)


def _chance_entry(game, state, outcomes, tables=None):
    """How to draw one outcome: the draw of ``GameBase.sample_outcome``, on a table.

    ``[slots, D, cumulative, children, probabilities, sampler, by_outcome, outcomes, weights]``
    (``weights``: the probabilities as floats, what expectimax's backup multiplies): with ``slots``, the draw is outcome
    ``slots[int(rng.random() * D)]``; else ``bisect_right(cumulative, rng.random() * D)`` (the same draw: the cumulative
    weights are whole numbers). A game with its own ``sample_outcome`` is asked instead (``sampler``) and its outcome
    looked up in ``by_outcome``. ``children[j]``, the node of outcome ``j``, is filled when first drawn.
    """
    children = [None] * len(outcomes)
    own = getattr(type(game), "sample_outcome", None)
    if own is not None and own is not GameBase.sample_outcome:
        probabilities = tuple(Fraction(p) for _, p in outcomes)
        by_outcome = {o: j for j, (o, _) in enumerate(outcomes)}
        return [None, None, None, children, probabilities, game.sample_outcome, by_outcome, outcomes,
                tuple(map(float, probabilities))]
    table = None
    if tables is not None:  # the same outcomes object again (a game's dice constant): no hashing
        last = tables.get(None)
        if last is not None and last[0] is outcomes:
            table = last[1]
    if table is None:
        key = tuple(p for _, p in outcomes)
        table = None if tables is None else tables.get(key)
        if table is None:
            table = _draw_table(state, key)
        if tables is not None:
            tables[key] = table
            tables[None] = (outcomes, table)
    slots, denominator, cumulative, probabilities, weights = table
    return [slots, denominator, cumulative, children, probabilities, None, None, outcomes, weights]


def _draw_table(state, weights):
    """``(slots, D, cumulative, probabilities, weights)`` for one list of chance probabilities (``weights``: floats)."""
    probabilities = tuple(p if type(p) is Fraction else Fraction(p) for p in weights)
    denominator = lcm(*(p.denominator for p in probabilities))
    total, cumulative = 0, []
    for p in probabilities:
        total += p.numerator * (denominator // p.denominator)
        cumulative.append(total)
    if total != denominator:
        raise GameError("chance_outcomes", f"returned probabilities that sum to {Fraction(total, denominator)}, not 1",
                        state)
    slots = None
    if denominator <= SLOT_LIMIT:
        slots, low = [], 0
        for j, high in enumerate(cumulative):
            slots.extend([j] * (high - low))
            low = high
        slots = tuple(slots)
    return (slots, denominator, tuple(cumulative), probabilities, tuple(map(float, probabilities)))


def draw(graph, i, rng):
    """The node chance node ``i`` leads to for one draw of ``rng`` (consumes it).

    >>> import random
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> graph = CompiledGraph(ShutTheBox(levers=4))
    >>> box = graph.node(graph.game.start())
    >>> graph.expand(box) == CHANCE_NODE
    True
    >>> rng = random.Random(1)
    >>> [graph.state(draw(graph, box, rng))["roll"] for _ in range(5)]
    [4, 10, 9, 5, 7]
    """
    slots, d, cumulative, children, _, sampler, by_outcome, outcomes, _ = graph.chance[i]
    if slots is not None:
        j = pick(rng, slots)
    elif sampler is not None:
        j = by_outcome[sampler(graph.states[i], rng)]
    else:
        j = pick_cumulative(rng, cumulative, d)
    child = children[j]
    return child if child is not None else graph.outcome_child(i, j)


class CompiledGraph:
    """States interned to integers; kind, children and chance outcomes kept per state.

    ``tables``, a game's ``GraphTables`` (its ``compiled_graph()`` hook), gives every state its node up front: expanding
    a node then reads the tables instead of asking the protocol.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=6, max_take=3)
    >>> graph = CompiledGraph(game)
    >>> root = graph.node(game.start())
    >>> root, len(graph), graph.state(root) == game.start(), graph.node(game.start())
    (0, 1, True, 0)
    >>> graph.expand(root), graph.moves[root], [graph.state(i)["heap"] for i in graph.children(root)]
    (0, (1, 2, 3), [5, 4, 3])
    """

    def __init__(self, game, tables=None):
        self.game = game
        self.num_players = getattr(game, "num_players", 1)
        self.payoff_range = payoff_range(game)
        self.check_payoff = payoff_check(game)  # a playout's payoff, checked once per distinct payoff
        self._rescale = rescaler(game)
        self._tables = {}  # draw tables by chance probabilities: dice are dice wherever they roll
        self.asked = {}  # node -> who moves, read by ``ends`` before the node is expanded (``to_move`` asked once)
        self.given = tables  # the game's own GraphTables (its compiled_graph hook), read instead of the protocol
        self._states = [] if tables is None else list(tables.states)
        self._index = {} if tables is None else dict(tables.index)
        self._unmade = None  # runs of nodes interned before their states are made (``intern_unmade``), or None
        size = len(self._states)
        self.kind = [UNSEEN] * size
        self.kids, self.lazy, self.moves, self.chance, self.u = ([None] * size for _ in range(5))  # per node
        self.whole_from = None  # the root from which every reachable node is expanded (``_kernel.complete``)
        self.walk_spent = 0  # the node budget a walk to complete this graph ran out of (``_kernel.run``): 0, none
        self.flat = None  # ``((size, root), arrays)``: the graph as the compiled loop reads it (``_kernel``)
        self.proof_ends = None  # ``(arrays, ends)``: the ends of ``flat``'s arrays as the compiled solver reads them
        self.rule_keys = None  # ``(key, keys)``: its states' keys for a game's compiled rules (``_rules_kernel``)
        self.rules_after = None  # seconds a dive of that loop's last write-back took (its clock keeps them back)
        self.paid = {}  # end node -> its payoff as the game's compiled rules gave it (``payoff_at``: no state made)

    def __len__(self):
        return len(self._states)

    @property
    def states(self) -> list:
        """Every node's state, by node (those interned unmade, ``intern_unmade``, made first)."""
        if self._unmade is not None:
            self._make_all()
        return self._states

    @property
    def index(self) -> dict:
        """state -> node, for every node (those interned unmade made first)."""
        if self._unmade is not None:
            self._make_all()
        return self._index

    def node(self, state) -> int:
        """The node of ``state`` (interned on first sight)."""
        if self._unmade is not None:
            self._make_all()
        i = self._index.get(state)
        if i is None:
            i = self._index[state] = len(self._states)
            self._states.append(state)
            self.kind.append(UNSEEN)
            self.kids.append(None)
            self.lazy.append(None)
            self.moves.append(None)
            self.chance.append(None)
            self.u.append(None)
        return i

    def intern_all(self, states):
        """Intern ``states``, none of them met before, in order (the compiled rules' loop made them)."""
        self._grow_columns(len(states))
        start = len(self.states)
        self._states.extend(states)
        self._index.update(zip(states, range(start, start + len(states))))

    def intern_unmade(self, parents, moves, play):
        """Intern as many new nodes as ``parents``, none met before, their states not made yet: node ``len(self) +
        j``'s is ``play(state of parents[j], moves[j], j)`` (a parent is a node before it), made when first read
        (``state(i)``; ``states``, ``index`` and ``node`` make them all, in order). The compiled rules' loop grows
        thousands of nodes a search of which a move reads a few (``_rules_kernel``); they are kept as one run of
        nodes a call, its lists as given (no object a node)."""
        start, more = len(self._states), len(parents)
        self._grow_columns(more)
        self._states.extend([_UNMADE] * more)
        if more:
            self._unmade = (self._unmade or []) + [(start, parents, moves, play)]

    def _grow_columns(self, more):
        self.kind.extend([UNSEEN] * more)
        for column in (self.kids, self.lazy, self.moves, self.chance, self.u):
            column.extend([None] * more)

    def state(self, i):
        """The state of node ``i`` (made now if it was interned unmade: its parents' first)."""
        state = self._states[i]
        if state is _UNMADE:
            line, states = [i], self._states
            while states[line[-1]] is _UNMADE:  # up to the nearest parent made
                start, parents, _, _ = self._run_of(line[-1])
                line.append(parents[line[-1] - start])
            for j in reversed(line[:-1]):
                start, parents, moves, play = self._run_of(j)
                state = states[j] = play(states[parents[j - start]], moves[j - start], j - start)
                self._index[state] = j
        return state

    def _run_of(self, j):
        """The run of nodes interned unmade that holds node ``j`` (``intern_unmade``)."""
        runs = self._unmade
        return runs[bisect_right(runs, j, key=lambda run: run[0]) - 1]

    def _make_all(self):
        runs, states, index = self._unmade, self._states, self._index
        self._unmade = None
        for start, parents, moves, play in runs:  # (a parent is a node before its child: made first)
            for j, (parent, move) in enumerate(zip(parents, moves)):
                if states[start + j] is _UNMADE:
                    state = states[start + j] = play(states[parent], move, j)
                    index[state] = start + j

    def expand(self, i):
        """Compute node ``i``'s kind and what follows it; return the kind.

        The state's first meeting: what the game says of it is checked here (``fnmcts.protocol.checked_step``: who
        moves, the moves, the chance probabilities, the payoff's length and range), once; a failure is a ``GameError``.
        """
        given = self.given
        if given is not None and i < len(given.states):
            return self._expand_given(i, given)
        game, state = self.game, self.state(i)
        player, found = checked_step(game, state, self.num_players, *self.payoff_range, self.asked.pop(i, ASK))
        if player is None:
            self.u[i] = self._rescale(found)
            kind = END
        elif player is CHANCE:
            self.chance[i] = _chance_entry(game, state, found, self._tables)
            kind = CHANCE_NODE
        else:
            self.moves[i] = found
            self.lazy[i] = [None] * len(found)  # the children, each made when first asked
            kind = player
        self.kind[i] = kind
        return kind

    def ends(self, i) -> bool:
        """Whether node ``i`` is an end, read from ``to_move`` alone: an end is expanded, any other node left unseen."""
        k = self.kind[i]
        if k != UNSEEN or i in self.asked:  # expanded, or known to be no end
            return k == END
        if self.given is None or i >= len(self.given.states):
            state = self.state(i)
            player = self.asked[i] = valid_player(self.game, state, called("to_move", self.game.to_move, state),
                                                    self.num_players)
            if player is not None:
                return False
        return self.expand(i) == END

    def _expand_given(self, i, t):
        """``expand`` from the game's tables: no protocol call, every child known."""
        kind = t.kinds[i]
        if kind == END:
            self.u[i] = self._rescale(t.payoffs[i])
        elif kind == CHANCE_NODE:
            entry = _chance_entry(self.game, self.state(i), t.outcomes[i], self._tables)
            entry[3] = list(t.children[i])
            self.chance[i] = entry
        else:
            self.moves[i] = t.moves[i]
            self.lazy[i] = list(t.children[i])
            self.kids[i] = tuple(t.children[i])
        self.kind[i] = kind
        return kind

    def child(self, i, j) -> int:
        """The node move ``j`` of decision ``i`` leads to (interned when first asked)."""
        if self.kids[i] is not None:  # (every child known: the compiled rules' loop leaves ``lazy[i]`` a tuple)
            return self.kids[i][j]
        try:
            state = self.game.play(self.states[i], self.moves[i][j])
            child = self.index.get(state)
            if child is None:
                child = self.node(_state(state))
        except Exception as error:
            _failed_play(self.game, self.states[i], self.moves[i][j], error)
        self.lazy[i][j] = child
        return child

    def children(self, i) -> tuple:
        """The nodes of every move of decision ``i``, in move order (making those not made yet).

        >>> from fnmcts.games.nim import Nim
        >>> graph = CompiledGraph(Nim(heap=4, max_take=3))
        >>> root = graph.node(graph.game.start())
        >>> _ = graph.expand(root)
        >>> graph.child(root, 2), graph.children(root), graph.kids[root]
        (1, (2, 3, 1), (2, 3, 1))
        """
        kids = self.kids[i]
        if kids is None:
            lazy = self.lazy[i]
            if None in lazy:  # the moves not played yet, in one loop (``child`` inline)
                state, moves, play, index, node = self.states[i], self.moves[i], self.game.play, self.index, self.node
                j = 0
                try:
                    for j, child in enumerate(lazy):
                        if child is None:
                            after = play(state, moves[j])
                            child = index.get(after)
                            lazy[j] = child if child is not None else node(_state(after))
                except Exception as error:
                    _failed_play(self.game, state, moves[j], error)
            kids = self.kids[i] = tuple(lazy)
        return kids

    def outcome_child(self, i, j) -> int:
        """The node of outcome ``j`` of chance node ``i`` (interned when first asked)."""
        entry = self.chance[i]
        child = entry[3][j]
        if child is None:
            state, outcome = self.states[i], entry[7][j][0]
            child = entry[3][j] = self.node(checked_play(self.game, state, outcome))
        return child

    def outcome_children(self, i) -> tuple:
        """Every outcome's node at chance node ``i`` (filling those not drawn yet)."""
        children = self.chance[i][3]
        if None in children:  # a tuple of the list as it is, at once, once every outcome is made: a backup's hot path
            for j, child in enumerate(children):
                if child is None:
                    self.outcome_child(i, j)
        return tuple(children)

    def payoff_at(self, i) -> tuple:
        """The payoff of terminal node ``i`` as the game pays it, checked (``payoff_check``: its length, its range).

        >>> from fnmcts.games.nim import Nim
        >>> graph = CompiledGraph(Nim(heap=3))
        >>> graph.payoff_at(graph.node(Nim(heap=3).state(0, 1)))
        (-1, 1)
        """
        paid = self.paid.get(i)
        if paid is not None:  # (an end the compiled rules' loop met: its state need not be made to read it)
            return paid
        state = self.state(i)
        return self.check_payoff(state, called("payoff", self.game.payoff, state))

    def rescale(self, payoff) -> tuple:
        """``payoff`` rescaled to [0, 1] per player (``rescaler``)."""
        return self._rescale(payoff)


def _state(after):
    """``after``, a state ``play`` made and the graph has not met: None is no state (a ``TypeError``, named by ``_failed_play``)."""
    if after is None:
        raise TypeError("play returned None")
    return after


def _failed_play(game, state, move, error):
    """Raise the ``GameError`` of ``play(state, move)`` that failed with ``error`` (itself when the game is not at fault).

    ``play`` is asked again, checked (``checked_play``: what it raises, or a
    result that is no state); else the traceback names the hook.
    """
    if isinstance(error, GameError):
        raise error
    checked_play(game, state, move)
    blame_game(game, error)


def mover_into(game, state) -> int:
    """The player whose record ``state`` holds when nothing says who moved into it.

    The one before the player to move (a record belongs to the mover into a
    state); 0 in a one-player game, at a chance node or at the end.

    >>> from fnmcts.games import Nim
    >>> mover_into(Nim(), Nim().start()), mover_into(Nim(), Nim().state(5, 1))
    (1, 0)
    """
    players = getattr(game, "num_players", 1)
    player = game.to_move(state)
    if players == 1 or player is None or player is CHANCE:
        return 0
    return (player - 1) % players


def graph_of(game, graph=None):
    """The compiled graph to search ``game`` on: ``graph`` if given, else the game's own or a new one.

    >>> from fnmcts.games.nim import Nim
    >>> graph = graph_of(Nim(heap=5))
    >>> type(graph).__name__, graph_of(Nim(heap=5), graph) is graph
    ('CompiledGraph', True)
    >>> graph_of(Nim(heap=6), graph)
    Traceback (most recent call last):
    ...
    ValueError: the graph given belongs to Nim(heap=5, max_take=3, misere=True), not Nim(heap=6, max_take=3, misere=True)
    """
    if graph is not None:
        if graph.game != game:
            raise ValueError(f"the graph given belongs to {game_text(graph.game)}, not {game_text(game)}")
        return graph
    own = getattr(game, "compiled_graph", None)
    tables = own() if own is not None else None
    return tables if isinstance(tables, CompiledGraph) else CompiledGraph(game, tables)


def terminal_value(game, state):
    """The exact payoff of ``state`` as Fractions if the game is over there, else None."""
    if game.to_move(state) is not None:
        return None
    return tuple(Fraction(x) for x in game.payoff(state))


def expanded_kind(g, stats, i):
    """The kind of node ``i`` of graph ``g``, the node expanded first if unseen (``stats`` then grow).

    The one ``_kind`` of the array forms of the solver, score bounds and expectimax (``Solver``, ``Bounds``,
    ``backups.stored_value``).
    """
    k = g.kind[i]
    if k == UNSEEN:
        k = g.expand(i)
        stats.grow()
    return k


def children_made(g, stats, i):
    """The children of decision ``i``, made now if they were not (``stats`` then grow with them)."""
    kids = g.children(i)
    stats.grow()
    return kids


def derived_from(g, stats, i):
    """``(kind, below)``: what node ``i``'s value is derived from (``Solver.derive``, ``Bounds.derive``, ``stored_value``).

    ``below`` is None at an end, the ``(probability, outcome node)`` pairs at a
    chance node, the children at a decision (made: ``stats`` grown).
    """
    k = expanded_kind(g, stats, i)
    if k == END:
        return k, None
    if k == CHANCE_NODE:
        below = tuple(zip(g.chance[i][4], g.outcome_children(i)))
    else:
        below = g.children(i)
    stats.grow()
    return k, below
