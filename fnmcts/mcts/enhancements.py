"""Enhancements of the search as strategies of the one descent: decisive playouts and sequential halving at the root.

Each is a plain value or function that the phases (``fnmcts.mcts.phases``) and the engine behind ``search`` both take,
proven equal draw for draw (docs/search-options.md and docs/scoreboard.md give their sources and figures):

* ``decisive_agent``: a playout agent that takes a move winning at once and
  otherwise avoids the moves after which the opponent wins at once
  (Teytaud and Teytaud, IEEE CIG 2010): ``rollout=decisive_agent``.
* ``shallow_proof``: a state where a player forces a win within ``depth``
  plies is an end with that value: ``proofs=depth`` ends dives and playouts there (``with_proofs``; Baier and Winands'
  MCTS-minimax hybrids). The answers are kept per game value (``prover_of``) and worked out on the game's tables when it
  offers them (``compiled_graph()``).
* ``SequentialHalving``: the root's children chosen by sequential halving with
  Gumbel noise (Danihelka et al., ICLR 2022; ``mctx``), every move with the same prior:
  ``root=sequential_halving(game, state, dives, rng)`` or ``root='gumbel'``, which draws the noise the same way.

>>> from fnmcts.games import TicTacToe
>>> game = TicTacToe()
>>> state = (1, 1, 0, 2, 2, 0, 0, 0, 0)   # X to move: the top row wins at once
>>> decisive_agent(game, state, random.Random(1))
2
>>> considered_visits(4, 12)
(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4)
"""

from __future__ import annotations

import math
import random
from functools import lru_cache, wraps
from typing import NamedTuple

from ..matches import random_agent
from ..protocol import CHANCE, GameBase, payoff_range, sample_outcome
from ..protocol import state_from_json as _state_from_json, state_to_json as _state_to_json
from ..rng import pick

__all__ = [
    "decisive_agent",
    "forced_win",
    "shallow_proof",
    "with_proofs",
    "ProvingGame",
    "prover_of",
    "PROOF_MEMO",
    "PROVED_GAMES",
    "considered_visits",
    "SequentialHalving",
    "sequential_halving",
    "CONSIDERED",
    "GUMBEL_SCALE",
]

CONSIDERED = 16
"""The root's moves sequential halving considers at most (``mctx``'s ``max_num_considered_actions``)."""

GUMBEL_SCALE = 1.0
"""The scale of the Gumbel noise on the root's moves (0: none, the first moves in move order are considered)."""


# -- decisive and anti-decisive moves -------------------------------------------------------


def _wins_at_once(game, state, player, high) -> bool:
    """Whether ``state`` is the end of the game with the best payoff there is for ``player``."""
    return game.to_move(state) is None and game.payoff(state)[player] == high


def decisive_agent(game, state, rng: random.Random):
    """A playout's move: one that wins at once if any, else one after which the opponent cannot win at once.

    A move *wins at once* when it ends the game with the best payoff there is for the player making it. Among the
    winning moves, or else among the moves that leave the next player no move that wins at once, or else among all
    moves, the move is drawn as ``random_agent`` draws. A search's playouts run on the game's ``decisive_payoff`` when
    it has one.

    >>> from fnmcts.games import TicTacToe
    >>> game = TicTacToe()
    >>> decisive_agent(game, (1, 1, 0, 2, 2, 0, 0, 0, 0), random.Random(1))   # X wins in the top row
    2
    >>> decisive_agent(game, (1, 0, 0, 2, 2, 0, 1, 0, 0), random.Random(1))   # X must block O's middle row
    5
    """
    player = game.to_move(state)
    moves = tuple(game.possible_moves(state))
    if len(moves) <= 1:
        return random_agent(game, state, rng)
    high = payoff_range(game)[1]
    play = game.play
    afters = [play(state, m) for m in moves]
    choices = [m for m, after in zip(moves, afters) if _wins_at_once(game, after, player, high)]
    if not choices:
        for m, after in zip(moves, afters):
            other = game.to_move(after)
            if other is None or other is CHANCE or other == player or not any(
                _wins_at_once(game, play(after, reply), other, high) for reply in game.possible_moves(after)
            ):
                choices.append(m)
    choices = choices or moves
    return choices[0] if len(choices) == 1 else pick(rng, choices)  # drawn as ``random_agent`` draws


decisive_agent.in_place = "decisive_payoff"  # a game's kernel of its playouts, the same draws (OpenSpiel's adapter)


# -- shallow proofs: short searches to the end -----------------------------------------------


def _target(game, player):
    """The payoff of a win for ``player``: the best there is for them, the worst for the other (two players)."""
    low, high = payoff_range(game)
    return tuple(high if k == player else low for k in range(getattr(game, "num_players", 1)))


def forced_win(game, state, player, depth: int) -> bool:
    """Whether ``player`` can force, within ``depth`` plies, an end that pays them the best and the other the worst.

    A ply is one move or one chance outcome. Where ``player`` moves one of their moves must force it; where another
    player moves, or chance, every move or outcome must. Exact (no estimate): a sound proof or nothing. The answers are
    kept for the game (``prover_of``).

    >>> from fnmcts.games import TicTacToe
    >>> game = TicTacToe()
    >>> forced_win(game, (1, 0, 0, 0, 2, 0, 0, 0, 0), 0, 5), forced_win(game, (1, 2, 0, 0, 0, 0, 0, 0, 0), 0, 5)
    (False, True)
    """
    return prover_of(game).forced(state, player, depth, _target(game, player))


PROOF_MEMO = 100_000
"""The states one game's kept proofs hold at most (``prover_of``): past it they are dropped and found again.

About 1 KB a state with its answers and children (Connect Four 4x4: 125,000 states
took 120 MB), so a game's proofs stay near 100 MB."""

PROVED_GAMES = 4
"""The games whose proofs are kept at once (``prover_of``): a fifth drops the one used least recently."""


_INFINITE = float("inf")

_END = -1
"""The kind of ``GraphTables`` (``fnmcts.protocol``) at the end."""


def _in_turn(who, num_players) -> list:
    """The players a shallow proof asks in turn: ``who``, the one to move (none at chance), then the others in order."""
    return ([who] if who in range(num_players) else []) + [k for k in range(num_players) if k != who]


class _Prover:
    """Short searches to the end on one game, keeping what they learn: each state's steps and each answer.

    An answer is kept per state and player as two depths: ``won``, the fewest plies known to force the win, and
    ``open_``, the most plies known not to (a win forced within ``d`` plies is forced within more; one not forced within
    ``d`` is not within fewer), so a search of any depth reads what a search of another depth found. ``proofs`` keeps
    ``proof``'s answers by ``(state, depth)``. Past ``PROOF_MEMO`` states everything kept is dropped, between two proofs
    (the answers are found again: the same answers).
    """

    def __init__(self, game):
        self.game = game
        self.num_players = getattr(game, "num_players", 1)
        self.targets = tuple(_target(game, k) for k in range(self.num_players))
        own = getattr(game, "compiled_graph", None)
        tables = own() if own is not None else None
        self.table = _TableProver(tables, self.targets) if hasattr(tables, "kinds") and hasattr(tables, "index") else None
        self.clear()

    def clear(self):
        """Drop every answer and step kept."""
        self.won = {}  # (state, player) -> fewest plies known to force the win
        self.open_ = {}  # (state, player) -> most plies known not to force it
        self.steps = {}  # state -> [who, its moves or outcomes, the states they lead to, made as asked]
        self.proofs = {}  # (state, depth) -> proof's answer

    def _steps(self, state):
        """``[who, moves or outcomes, the states they lead to so far]``: the children are made as they are asked for."""
        found = self.steps.get(state)
        if found is None:
            game = self.game
            who = game.to_move(state)
            if who is None:
                found = [None, (), [], tuple(game.payoff(state))]
            else:
                found = [who, tuple(o for o, _ in game.chance_outcomes(state)) if who is CHANCE
                         else tuple(game.possible_moves(state)), []]
            self.steps[state] = found
        return found

    def _children(self, state, steps):
        """The states ``state``'s moves or outcomes lead to, in order, each made once."""
        _, moves, made = steps[:3]
        for i in range(len(moves)):
            if i == len(made):
                made.append(self.game.play(state, moves[i]))
            yield made[i]

    def forced(self, state, player, depth, target) -> bool:
        """``forced_win``'s answer, ``target`` the payoff of ``player``'s win (kept)."""
        if self.table is not None and target == self.targets[player]:
            i = self.table.tables.index.get(state)
            if i is not None:
                return bool(self.table.wins(depth)[player][i])
        key = (state, player)
        won = self.won.get(key)
        if won is not None and won <= depth:
            return True
        if depth <= self.open_.get(key, -1):
            return False
        steps = self._steps(state)
        who = steps[0]
        if who is None:
            if steps[3] == target:
                self.won[key] = 0
                return True
            self.open_[key] = _INFINITE
            return False
        if depth <= 0:
            found = False
        elif who == player:
            found = any(self.forced(child, player, depth - 1, target) for child in self._children(state, steps))
        else:  # another player, or chance: every move or outcome
            found = all(self.forced(child, player, depth - 1, target) for child in self._children(state, steps))
        if found:
            self.won[key] = depth
        else:
            self.open_[key] = depth
        return found

    def proof(self, state, depth):
        """``shallow_proof``'s answer (kept)."""
        key = (state, depth)
        proofs = self.proofs
        if key in proofs:
            return proofs[key]
        if self.table is not None:
            i = self.table.tables.index.get(state)
            if i is not None:
                found = proofs[key] = self.table.proof_at(i, depth)
                return found
        if len(self.steps) > PROOF_MEMO:
            self.clear()
            proofs = self.proofs
        who, targets = self._steps(state)[0], self.targets
        won = (targets[k] for k in _in_turn(who, self.num_players) if self.forced(state, k, depth, targets[k]))
        found = proofs[key] = None if who is None else next(won, None)
        return found


class _TableProver:
    """Shallow proofs on a game's own tables (``compiled_graph()``): every node's answer at once, by depth.

    ``wins(depth)[player]`` is a bytearray over the tables' nodes: 1 where ``player`` forces the win within ``depth``
    plies (``forced_win``, worked out for every node a ply at a time). ``proof_at(node, depth)`` is ``shallow_proof``'s
    answer at a node.
    """

    def __init__(self, tables, targets):
        self.tables, self.targets = tables, targets  # ``targets``: the game's per player (``_Prover``'s)
        self._wins = []  # depth -> (one bytearray a player)
        self._settled = False  # the last depth's answers are every deeper depth's
        self._proofs = {}  # depth -> (kinds, payoffs) with every proven node an end with its proof

    def wins(self, depth):
        """One bytearray a player: the nodes where they force the win within ``depth`` plies.

        A ply more can only turn a node's answer from no to yes (a win forced within ``d`` plies is forced within more),
        and only at a node a child of which turned at the ply before: those alone are looked at again.
        """
        t, wins = self.tables, self._wins
        kinds, children = t.kinds, t.children
        if not wins:
            rows = tuple(bytearray(1 if k == _END and tuple(p) == target else 0
                                   for k, p in zip(kinds, t.payoffs)) for target in self.targets)
            wins.append(rows)
            self._turned = tuple([i for i, won in enumerate(row) if won] for row in rows)
            parents = [[] for _ in kinds]
            for i, kids in enumerate(children):
                if kinds[i] != _END:
                    for c in set(kids):
                        parents[c].append(i)
            self._parents = parents
        parents = self._parents
        while len(wins) <= depth and not self._settled:
            last, now, turned = wins[-1], [], []
            for player, before in enumerate(last):
                row, flipped, asked = bytearray(before), [], set()
                for c in self._turned[player]:
                    for i in parents[c]:
                        if before[i] or i in asked:
                            continue
                        asked.add(i)
                        kids = children[i]
                        if kinds[i] == player:
                            won = any(before[k] for k in kids)
                        else:  # another player, or chance: every move or outcome
                            won = all(before[k] for k in kids)
                        if won:
                            row[i] = 1
                            flipped.append(i)
                now.append(row)
                turned.append(flipped)
            self._turned = tuple(turned)
            self._settled = not any(turned)  # a ply more changed nothing: nor will any further ply
            wins.append(tuple(now))
        return wins[min(depth, len(wins) - 1)]

    def proof_at(self, i, depth):
        """``shallow_proof``'s answer at node ``i``."""
        who = self.tables.kinds[i]
        if who == _END:
            return None
        rows = self.wins(depth)
        return next((self.targets[k] for k in _in_turn(who, len(self.targets)) if rows[k][i]), None)

    def proven(self, depth):
        """``(kinds, payoffs)``: the tables' with every node ``shallow_proof`` solves an end with its proof (kept)."""
        found = self._proofs.get(depth)
        if found is None:
            t = self.tables
            kinds, payoffs = list(t.kinds), list(t.payoffs)
            won = set()
            for row in self.wins(depth):  # a node no player wins at is proven by no one: only the others are asked
                won.update(i for i, w in enumerate(row) if w)
            for i in sorted(won):
                proof = self.proof_at(i, depth)
                if proof is not None:
                    kinds[i], payoffs[i] = _END, proof
            found = self._proofs[depth] = (tuple(kinds), tuple(payoffs))
        return found


def _per_game(most):
    """A decorator: ``read(game)`` remembered for the last ``most`` games that hash; one that does not is read at each call.

    The remembered function has ``lru_cache``'s ``cache_clear`` and ``cache_info``.

    >>> calls = []
    >>> size = _per_game(128)(lambda game: calls.append(game) or len(game))
    >>> size((1, 2)), size((1, 2)), size([1, 2, 3]), size([1, 2, 3]), len(calls), size.cache_info().currsize
    (2, 2, 3, 3, 3, 1)
    """
    def remembering(read):
        kept = lru_cache(maxsize=most)(read)

        @wraps(read)
        def remembered(game):
            try:
                hash(game)
            except TypeError:  # a game that does not hash: read again
                return read(game)
            return kept(game)

        remembered.cache_clear, remembered.cache_info = kept.cache_clear, kept.cache_info
        return remembered

    return remembering


@_per_game(PROVED_GAMES)
def prover_of(game):
    """The short searches of ``game``, kept and shared by every equal game (a game not hashable: a new one).

    At most ``PROVED_GAMES`` games are kept at once, each with at most
    ``PROOF_MEMO`` states. The answers are those of a search afresh.

    >>> from fnmcts.games import TicTacToe
    >>> prover_of(TicTacToe()) is prover_of(TicTacToe())
    True
    """
    return _Prover(game)


def shallow_proof(game, state, depth: int):
    """The exact payoff of ``state`` if some player forces a win within ``depth`` plies (``forced_win``), else None.

    The player to move is tried first, then the other players in order. In a game of one or two players where a win pays
    the winner the best payoff there is and the other the worst (zero-sum), the payoff given is the state's exact value;
    a state at the end is not proven here (None).

    >>> from fnmcts.games import TicTacToe
    >>> game = TicTacToe()
    >>> shallow_proof(game, (1, 2, 0, 0, 0, 0, 0, 0, 0), 5)   # O answered X's corner on the edge: X wins
    (1, -1)
    >>> shallow_proof(game, (1, 0, 0, 0, 2, 0, 0, 0, 0), 5) is None   # O took the centre
    True
    """
    return prover_of(game).proof(state, depth)


class ProvingGame(GameBase):
    """``game`` as a search sees it with shallow proofs: a state ``shallow_proof`` solves is an end with that value.

    ``root``, the state searched from, is never ended (its moves are what a search chooses among). Moves, chance and
    payoffs at the other ends are the game's; the proofs are kept, one per state. Equal for the same game, depth and
    root.

    >>> from fnmcts.games import TicTacToe
    >>> view = with_proofs(TicTacToe(), 5, TicTacToe().start())
    >>> view.to_move((1, 2, 0, 0, 0, 0, 0, 0, 0)), view.payoff((1, 2, 0, 0, 0, 0, 0, 0, 0))
    (None, (1, -1))
    >>> view.to_move((1, 0, 0, 0, 2, 0, 0, 0, 0))   # not proven: X to move, as in the game
    0
    """

    def __init__(self, game, depth, root):
        self.game, self.depth, self.root = game, depth, root
        self.num_players = getattr(game, "num_players", 1)
        self._range = payoff_range(game)
        self._proofs, self._prover, self._tables = {}, prover_of(game), None  # (_tables: ``compiled_graph``'s)

    def __eq__(self, other):
        return (type(other) is type(self) and self.game == other.game and self.depth == other.depth
                and self.root == other.root)

    def __hash__(self):
        return hash((ProvingGame, self.game, self.depth, self.root))

    def __repr__(self):
        return f"with_proofs({self.game!r}, {self.depth!r}, {self.root!r})"

    def __reduce__(self):
        """Pickled as the game, the depth and the root: the proofs kept stay with the process (another finds its own)."""
        return (type(self), (self.game, self.depth, self.root))

    def proof(self, state):
        """The payoff ``shallow_proof`` gives ``state`` (None: not proven, or the root), kept."""
        try:
            return self._proofs[state]
        except KeyError:
            found = None if state == self.root else self._prover.proof(state, self.depth)
            self._proofs[state] = found
            return found

    def end_plies(self, state) -> int:
        """The plies the forced win that ends ``state`` takes with best play: the fewest it is forced within (0 at a true end).

        As ``Solver.plies`` measures a line, so a search proven lost resists longest here as without proofs.

        >>> from fnmcts.games import TicTacToe
        >>> view = with_proofs(TicTacToe(), 4, TicTacToe().start())
        >>> view.end_plies((1, 1, 0, 2, 2, 0, 0, 0, 0)), view.end_plies((1, 2, 0, 0, 1, 0, 0, 0, 2))
        (1, 3)
        """
        found = self.proof(state)
        if found is None:
            return 0
        prover = self._prover
        player = prover.targets.index(tuple(found))
        for d in range(1, self.depth):
            if prover.forced(state, player, d, found):
                return d
        return self.depth

    def compiled_graph(self):
        """The game's tables (its ``compiled_graph()``) with every state proven, but the root, an end with its proof; or None.

        >>> from fnmcts.games import ShutTheBox
        >>> game = ShutTheBox(levers=4)
        >>> t, view = game.compiled_graph(), with_proofs(game, 2, game.start())
        >>> proven = view.compiled_graph()
        >>> ends = [i for i, (k, was) in enumerate(zip(proven.kinds, t.kinds)) if k == -1 and was != -1]
        >>> len(ends) > 0, all(proven.payoffs[i] == view.payoff(t.states[i]) for i in ends)
        (True, True)
        """
        table = self._prover.table
        if table is None:
            return None
        kept = self._tables
        if kept is None:
            t = table.tables
            kinds, payoffs = table.proven(self.depth)
            r = t.index.get(self.root)
            if r is not None and kinds[r] != t.kinds[r]:  # the root is never ended
                kinds = kinds[:r] + (t.kinds[r],) + kinds[r + 1:]
                payoffs = payoffs[:r] + (t.payoffs[r],) + payoffs[r + 1:]
            kept = self._tables = t._replace(kinds=kinds, payoffs=payoffs)
        return kept

    def random_payoff(self, state, rng) -> tuple:
        """The payoff of a random game from ``state`` on this view, drawn as ``playout`` draws (a proven state ends it).

        >>> import random
        >>> from fnmcts.games import TicTacToe
        >>> from fnmcts.matches import playout
        >>> view = with_proofs(TicTacToe(), 3, TicTacToe().start())
        >>> [view.random_payoff(view.start(), random.Random(k)) == view.payoff(playout(view, view.start(), random.Random(k)))
        ...  for k in range(5)]
        [True, True, True, True, True]
        """
        t = self.compiled_graph()
        i = None if t is None else t.index.get(state)
        tables = {}  # the draw tables of the outcome tuples met in this playout (``sample_outcome``)
        if i is not None:  # on the tables: nodes, no state made
            kinds, children, payoffs, rnd = t.kinds, t.children, t.payoffs, rng.random
            while True:
                kind = kinds[i]
                if kind >= 0:
                    kids = children[i]
                    i = kids[0] if len(kids) == 1 else kids[int(rnd() * len(kids))]
                elif kind == _END:
                    return tuple(payoffs[i])
                else:
                    outcome = sample_outcome(self.game, t.states[i], rng, tables)
                    i = children[i][[o for o, _ in t.outcomes[i]].index(outcome)]
        game, proof, rnd = self.game, self.proof, rng.random
        while True:
            found = proof(state)
            if found is not None:
                return found
            who = game.to_move(state)
            if who is None:
                return tuple(game.payoff(state))
            if who is CHANCE:
                move = sample_outcome(game, state, rng, tables)
            else:
                moves = game.possible_moves(state)
                if not moves:
                    raise ValueError(f"no legal move at {state!r}")
                move = moves[0] if len(moves) == 1 else moves[int(rnd() * len(moves))]
            state = game.play(state, move)

    def start(self):
        return self.game.start()

    def to_move(self, state):
        return None if self.proof(state) is not None else self.game.to_move(state)

    def payoff(self, state):
        found = self.proof(state)
        return self.game.payoff(state) if found is None else found

    def possible_moves(self, state):
        return self.game.possible_moves(state)

    def chance_outcomes(self, state):
        return self.game.chance_outcomes(state)

    def play(self, state, move):
        return self.game.play(state, move)

    def payoff_range(self):
        return self._range

    def may_repeat(self):
        own = getattr(self.game, "may_repeat", None)
        return bool(own()) if own is not None else False

    def state_to_json(self, state):
        return _state_to_json(self.game, state)

    def state_from_json(self, data):
        return _state_from_json(self.game, data)


def with_proofs(game, depth, root):
    """``game`` with shallow proofs of ``depth`` plies at every state but ``root`` (``ProvingGame``); ``game`` when ``depth`` is 0.

    >>> from fnmcts.games import Nim
    >>> with_proofs(Nim(), 0, Nim().start()) == Nim()
    True
    """
    if not depth:
        return game
    players = getattr(game, "num_players", 1)
    if players > 2:
        raise ValueError(f"proofs end a state at a win forced for one player: one or two players (zero-sum), "
                         f"got a game of {players}")
    own = getattr(type(game), "sample_outcome", None)
    return (_SamplingView if own is not None and own is not GameBase.sample_outcome else ProvingGame)(game, depth, root)


class _SamplingView(ProvingGame):
    """``ProvingGame`` of a game that draws its chance outcomes itself (its own ``sample_outcome``): the view draws as
    it does. (A game without one draws on the outcomes' table, and so does its view: its tables stay the compiled
    loop's, ``_flat_graph.prepared``.)"""

    def sample_outcome(self, state, rng):
        return sample_outcome(self.game, state, rng)


# -- sequential halving with Gumbel noise at the root --------------------------------------------


def considered_visits(considered: int, budget: int) -> tuple:
    """The visit count sequential halving asks of the next root child, for each of ``budget`` dives.

    With ``considered`` moves and ``budget`` dives: rounds of halving, each
    giving every move still in the race ``max(1, budget // (log2(considered)
    * in the race))`` visits, until the budget is spent (the sequence of
    ``mctx``'s ``get_sequence_of_considered_visits``). Dive ``t`` goes into a
    child with exactly ``considered_visits(...)[t]`` visits: the best of them.

    >>> considered_visits(2, 6), considered_visits(1, 3)
    ((0, 0, 1, 1, 2, 2), (0, 1, 2))
    """
    if considered <= 1:
        return tuple(range(budget))
    rounds = math.ceil(math.log2(considered))
    sequence, visits, racing = [], [0] * considered, considered
    while len(sequence) < budget:
        extra = max(1, int(budget / (rounds * racing)))
        for _ in range(extra):
            sequence.extend(visits[:racing])
            for j in range(racing):
                visits[j] += 1
        racing = max(2, racing // 2)
    return tuple(sequence[:budget])


class SequentialHalving(NamedTuple):
    """The root rule of a search of ``budget`` dives: sequential halving over the root's moves, with Gumbel noise.

    ``gumbel[j]`` is the noise of the root's ``j``-th move (in move order), drawn once for the whole search
    (``sequential_halving``). At the root a dive goes into the child of the highest ``gumbel + sigma(q)`` among those
    whose visits equal ``considered_visits(min(considered, moves), budget)[t]`` (``t``: the root's children's visits so
    far); the move chosen at the end is the one of the highest ``gumbel + sigma(q)`` among the most visited. ``q``: a
    child's mean (its value under expectimax; the root's own for an unvisited child), and ``sigma(q) = (50 + most
    visits) * 0.1 * q`` (``mctx``'s ``qtransform_completed_by_mix_value``, no prior).

    The children are given as ``(j, visits, q or None)``, ``j`` the move's index at the root (its noise), in move order;
    ``choose`` and ``final`` return a position in that sequence.

    >>> rule = SequentialHalving(budget=4, gumbel=(0.0, 0.5), considered=16)
    >>> rule.choose([(0, 0, None), (1, 0, None)], 0.5), rule.choose([(0, 1, 0.0), (1, 0, None)], 0.0)
    (1, 1)
    >>> rule.choose([(0, 1, 0.0), (1, 1, 1.0)], 0.5), rule.final([(0, 2, 0.9), (1, 2, 0.2)], 0.5)
    (1, 0)
    """

    budget: int
    gumbel: tuple
    considered: int = CONSIDERED
    table: tuple = None  # ``considered_visits(min(considered, moves), budget)``, made once (``sequential_halving``)

    def scores(self, children, parent_mean) -> list:
        """Per child ``gumbel + sigma(q)``, or ``-inf`` for a child out of the race at this dive."""
        visits = [n for _, n, _ in children]
        t = sum(visits)
        if t < self.budget:
            table = self.table
            if table is None:
                table = considered_visits(min(self.considered, len(self.gumbel)), self.budget)
            target = table[t]
            if target not in visits:  # a tree given with other counts: the least visited are in the race
                target = min(visits)
        else:  # past the budget: the most visited race on
            target = max(visits)
        return self._scores(children, parent_mean, target)

    def _scores(self, children, parent_mean, target):
        qs = [parent_mean if not n or q is None else q for _, n, q in children]
        low, high = min(qs), max(qs)
        span = high - low if high - low > 1e-8 else 1e-8
        scale = (50 + max(n for _, n, _ in children)) * 0.1
        gumbel = self.gumbel
        return [gumbel[j] + scale * (q - low) / span if n == target else -math.inf
                for (j, n, _), q in zip(children, qs)]

    def choose(self, children, parent_mean) -> int:
        """The position of the root child a dive goes into."""
        scores = self.scores(children, parent_mean)
        return scores.index(max(scores))  # the first of the best, as phases.select chooses

    def final(self, children, parent_mean) -> int:
        """The position of the move to play: the best ``gumbel + sigma(q)`` among the most visited children."""
        scores = self._scores(children, parent_mean, max(n for _, n, _ in children))
        return scores.index(max(scores))


def sequential_halving(game, state, budget: int, rng: random.Random, *, considered: int = CONSIDERED,
                       scale: float = GUMBEL_SCALE) -> SequentialHalving:
    """The root rule of a search of ``budget`` dives from ``state``: Gumbel noise drawn for each root move.

    Draws one ``rng.random()`` per move at ``state`` (a Gumbel draw, ``-log(-log(u))``, times ``scale``), in move order:
    ``search(..., root='gumbel')`` draws the same before its first dive.

    >>> from fnmcts.games import Nim
    >>> rule = sequential_halving(Nim(heap=5), Nim(heap=5).start(), 100, random.Random(1))
    >>> rule.budget, [round(g, 3) for g in rule.gumbel], rule.table[:8]
    (100, [-0.697, 1.799, 1.311], (0, 0, 0, 1, 1, 1, 2, 2))
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(f"sequential halving needs the search's budget in dives, a whole number from 1, got {budget!r}")
    if isinstance(considered, bool) or not isinstance(considered, int) or considered < 1:
        raise ValueError(f"considered must be a whole number of moves from 1, got {considered!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not (math.isfinite(scale) and scale >= 0):
        raise ValueError(f"scale must be a finite number, 0 or more, got {scale!r}")
    moves = game.possible_moves(state)
    gumbel = tuple(scale * -math.log(-math.log(_open_unit(rng.random()))) for _ in moves)
    return SequentialHalving(budget, gumbel, considered, considered_visits(min(considered, len(moves)), budget))


def _open_unit(u):
    """``u`` moved off 0 (``rng.random()`` may return 0.0, whose Gumbel draw is undefined)."""
    return u if u > 0.0 else 5e-324
