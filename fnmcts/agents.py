"""Agents: plain functions ``(game, state, rng) -> move``.

Configure one with ``functools.partial``; pass one to ``playout``, ``simulate``,
``play_game`` or ``tournament``. The agents of the Nim material:

==========================  =====================================================
``random_agent``            a uniformly random legal move (the notebook's RandomAgent)
``perfect_agent``           the closed-form winning move, else a random move
                            (PerfectAgent; one-heap and multi-pile Nim)
``montecarlo_agent``        flat Monte Carlo: ``trials`` random playouts after each
                            move, the best win rate (MonteCarloAgent, the 21 game's
                            ``evaluate_position``)
``montecarlo_perfect_agent``the same with a perfect opponent in the playouts
                            (MonteCarloPerfectOppAgent)
``mcts_agent``              Monte Carlo tree search from ``fnmcts.mcts`` (MCTSAgent)
``exact_agent``             the first optimal move of the exact solution (ValueAgent)
==========================  =====================================================

``AGENTS`` maps each command-line name to a factory ``(**options) -> agent``;
``make_agent(name, **options)`` looks one up.

>>> from fnmcts.games.nim import Nim
>>> from fnmcts.rng import make_rng
>>> game = Nim(heap=5, max_take=3)
>>> random_agent(game, game.start(), make_rng(1))
1
>>> perfect_agent(game, game.state(7), make_rng(1))  # leave 1 mod 4
2
>>> make_agent("montecarlo", trials=200)(game, game.state(7), make_rng(1))
2
"""

from __future__ import annotations

import random
from functools import lru_cache, partial

from pyrsistent import pmap

from .play import first_move_agent, random_agent

__all__ = [
    "random_agent",
    "first_move_agent",
    "perfect_agent",
    "exact_agent",
    "win_rates",
    "montecarlo_agent",
    "montecarlo_perfect_agent",
    "perfect_opponent_rollout",
    "mcts_agent",
    "q_agent",
    "evaluate_position",
    "MAX_REMOVE",
    "TRIALS",
    "AGENTS",
    "make_agent",
]

MAX_REMOVE = 3
"""The 21 game: a move removes 1..MAX_REMOVE items."""

TRIALS = 10_000
"""The 21 game: random games played after each first move by ``evaluate_position``."""


def perfect_agent(game, state, rng: random.Random):
    """The first winning move by the closed form; from a lost position a random move.

    The notebook's PerfectAgent: "if can make it 1 mod (K+1), then do so ...
    otherwise just choose a random amount". It consumes ``rng`` only when it
    has no winning move. One-heap Nim (misère or normal) and multi-pile Nim.

    >>> from fnmcts.games import Nim, Piles
    >>> perfect_agent(Nim(heap=21, misere=False), Nim(heap=21).start(), random.Random(0))
    1
    >>> perfect_agent(Piles((1, 3, 5, 6)), Piles((1, 3, 5, 6)).start(), random.Random(0))
    (0, 1)
    """
    from .theory import winning_moves

    moves = winning_moves(game, state)
    return moves[0] if moves else random_agent(game, state, rng)


@lru_cache(maxsize=64)
def _start_solution(game):
    from .exact import solve

    return solve(game)


@lru_cache(maxsize=4096)
def _exact_best_moves(game, state) -> tuple:
    from .exact import best_moves, solve

    solution = _start_solution(game)
    if state not in solution:
        solution = solve(game, state)
    return best_moves(game, solution, state)


def exact_agent(game, state, rng: random.Random = None, *, ties: str = "first"):
    """An optimal move from the exact solution (``fnmcts.exact.solve``).

    The notebook's ValueAgent, for every game the exact solver can solve (Shut
    the Box included). ``ties="first"``: the first optimal move in move order
    (deterministic, ``rng`` unused); ``ties="random"``: one of them at random.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> exact_agent(game, game.state(22)), exact_agent(game, game.state(19))
    (1, 2)
    """
    if ties not in ("first", "random"):
        raise ValueError(f"ties must be 'first' or 'random', got {ties!r}")
    moves = _exact_best_moves(game, state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    if ties == "first" or len(moves) == 1:
        return moves[0]
    if rng is None:
        raise TypeError("exact_agent with ties='random' needs an rng")
    return moves[int(rng.random() * len(moves))]


# -- flat Monte Carlo ---------------------------------------------------------------


def perfect_opponent_rollout(game, player):
    """Rollout agents, one per player: ``perfect_agent`` for the opponents of
    ``player``, ``random_agent`` for ``player`` (the notebook's perfectrollout).

    >>> from fnmcts.games import Nim
    >>> perfect_opponent_rollout(Nim(), 0) == (random_agent, perfect_agent)
    True
    """
    return tuple(random_agent if p == player else perfect_agent for p in range(game.num_players))


def _nim_kind(game, rollout):
    """``(random?, perfect?)`` per player when a Nim playout kernel applies, else None."""
    from .games.nim import Nim

    if type(game) is not Nim:
        return None
    agents = rollout if isinstance(rollout, tuple) else (rollout or random_agent,) * 2
    if len(agents) != 2 or any(a not in (random_agent, perfect_agent) for a in agents):
        return None
    return tuple(a is perfect_agent for a in agents)


def _nim_playout_winner(heap, player, max_take, misere, perfect, rng) -> int:
    """The winner of a Nim playout from ``heap`` with ``player`` to move.

    The same game as ``playout`` with random/perfect agents, on plain integers:
    it consumes ``rng`` exactly as they do (one ``rng.random()`` per random
    choice among two or more moves), so it returns the same winner.
    """
    k1 = max_take + 1
    shift = 1 if misere else 0
    while heap:
        top = max_take if heap > max_take else heap
        take = (heap - shift) % k1 if perfect[player] else 0
        if not take:
            take = 1 + int(rng.random() * top) if top > 1 else 1
        heap -= take
        player = 1 - player
    last_taker = 1 - player
    return player if misere else last_taker


def win_rates(game, state, rng: random.Random, trials: int = 1000, rollout=None) -> tuple:
    """``((move, fraction of playouts won), ...)`` for every move at ``state``.

    After each move, ``trials`` games are played to the end by ``rollout`` (an
    agent for every player, or a tuple of one agent per player; default random
    play); a playout is won when the mover's payoff is positive. Moves in move
    order, each scored with the same ``rng`` in turn.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3, max_take=3, misere=False)
    >>> win_rates(game, game.start(), random.Random(0), trials=1000)  # exact: 1/2, 0, 1
    ((1, 0.508), (2, 0.0), (3, 1.0))
    """
    from .play import playout
    from .parallel import check_count

    check_count(trials, "trials")
    if trials == 0:
        raise ValueError("trials must be positive")
    me = game.to_move(state)
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    kernel = _nim_kind(game, rollout)
    out = []
    for move in moves:
        child = game.play(state, move)
        if kernel is not None:
            heap, player = child["heap"], child["player"]
            if heap == 0:
                wins = trials if game.payoff(child)[me] > 0 else 0
            else:
                wins = sum(
                    1
                    for _ in range(trials)
                    if _nim_playout_winner(heap, player, game.max_take, game.misere, kernel, rng) == me
                )
        else:
            wins = sum(1 for _ in range(trials) if game.payoff(playout(game, child, rng, rollout))[me] > 0)
        out.append((move, wins / trials))
    return tuple(out)


def montecarlo_agent(game, state, rng: random.Random, *, trials: int = 1000, rollout=None):
    """Flat Monte Carlo: the move with the best ``win_rates`` (first on ties).

    The notebook's MonteCarloAgent (1,000 random rollouts a move) and the 21
    game's ``evaluate_position`` (10,000). Reliable for small heaps only: its
    infinite-trial limit is the exact value of random play after each move,
    which prefers a losing move from many winning positions (21 game: every
    winning heap from 14 to 30; from 31 on it is sometimes right again).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=False)
    >>> montecarlo_agent(game, game.state(6), random.Random(1), trials=2000)
    2
    """
    rates = win_rates(game, state, rng, trials, rollout)
    best_move, best = rates[0]
    for move, rate in rates[1:]:
        if rate > best:
            best_move, best = move, rate
    return best_move


def montecarlo_perfect_agent(game, state, rng: random.Random, *, trials: int = 1000):
    """Flat Monte Carlo whose playouts have a perfect opponent and a random self.

    The notebook's MonteCarloPerfectOppAgent: a move into a lost position
    never wins a playout, so any winning move scores higher.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> montecarlo_perfect_agent(game, game.state(24), random.Random(1), trials=100)
    3
    """
    rollout = perfect_opponent_rollout(game, game.to_move(state))
    return montecarlo_agent(game, state, rng, trials=trials, rollout=rollout)


def evaluate_position(num_items: int, trials: int = TRIALS, max_remove: int = MAX_REMOVE, *, rng=None, seed=None):
    """The 21 game's Monte Carlo move for a heap of ``num_items`` (taking the last wins).

    For each first move, ``trials`` games of random moves; the move with the
    highest fraction of games won. Give ``rng`` or ``seed``.

    >>> evaluate_position(6, 2000, seed=1), evaluate_position(3, 100, seed=1)
    (2, 3)
    """
    from .games.nim import Nim
    from .rng import make_rng

    if rng is not None and seed is not None:
        raise ValueError("give a seed or an rng, not both")
    game = Nim(heap=num_items, max_take=max_remove, misere=False)
    if num_items < 1:
        raise ValueError(f"num_items must be at least 1, got {num_items}")
    return montecarlo_agent(game, game.start(), make_rng(seed, rng), trials=trials)


# -- agents from other modules --------------------------------------------------------


def mcts_agent(iterations: int | None = None, **options):
    """A Monte Carlo tree search agent: ``fnmcts.mcts.mcts_agent(iterations, **options)``.

    ``iterations`` defaults to ``fnmcts.mcts.DEFAULT_ITERATIONS`` (10,000; with
    MCTS-Solver the search stops as soon as the position is proven).

    Options (see ``fnmcts.mcts``): ``rule`` ("ucb1" or the tutorial's "ucb"),
    ``c``, ``final`` ("visits" or "mean"), ``solver`` (MCTS-Solver). The agent
    is a ``functools.partial``, so it can run in worker processes.

    >>> from fnmcts.games import Nim
    >>> import pickle
    >>> agent = mcts_agent(500, solver=False)
    >>> copy = pickle.loads(pickle.dumps(agent))
    >>> agent(Nim(), Nim().state(6), random.Random(1)), copy(Nim(), Nim().state(6), random.Random(1))
    (1, 1)
    """
    from .mcts import DEFAULT_ITERATIONS
    from .mcts import mcts_agent as make

    return make(DEFAULT_ITERATIONS if iterations is None else iterations, **options)


def q_agent(ai=None, *, q_table=None):
    """A trained Q-learning agent, from an ``ai`` value or a saved ``q_table`` file.

    Uses ``fnmcts.qlearning.load_ai`` and ``fnmcts.qlearning.q_agent``.

    >>> from fnmcts import qlearning
    >>> from fnmcts.games import Piles
    >>> ai = qlearning.train(3_000, seed=1, game=Piles((1, 2)))
    >>> q_agent(ai)(ai.game, ai.game.state((0, 2)), random.Random(0))
    (1, 1)
    """
    from . import qlearning

    if (ai is None) == (q_table is None):
        raise ValueError("the q agent needs a trained ai or a q_table file (one of them)")
    if ai is None:
        ai = qlearning.load_ai(q_table)
    return qlearning.q_agent(ai)


def _plain(agent, what):
    def factory():
        return agent

    factory.__doc__ = f"{what} (no options)."
    return factory


def _montecarlo(trials: int = 1000):
    """Flat Monte Carlo with ``trials`` random playouts a move."""
    return partial(montecarlo_agent, trials=_trials(trials))


def _montecarlo_perfect(trials: int = 1000):
    """Monte Carlo with perfect-opponent playouts, ``trials`` a move."""
    return partial(montecarlo_perfect_agent, trials=_trials(trials))


def _exact(ties: str = "first"):
    """The exact value agent (ties: "first" or "random")."""
    if ties not in ("first", "random"):
        raise ValueError(f"ties must be 'first' or 'random', got {ties!r}")
    return exact_agent if ties == "first" else partial(exact_agent, ties=ties)


def _trials(trials):
    from .parallel import check_count

    if check_count(trials, "trials") == 0:
        raise ValueError("trials must be positive")
    return trials


AGENTS = pmap(
    {
        "random": _plain(random_agent, "A uniformly random move"),
        "perfect": _plain(perfect_agent, "The closed-form winning move, else random"),
        "montecarlo": _montecarlo,
        "montecarlo-perfect": _montecarlo_perfect,
        "mcts": mcts_agent,
        "exact": _exact,
        "q": q_agent,
    }
)
"""Agent factories by command-line name: ``AGENTS[name](**options) -> agent``."""


def make_agent(name: str, **options):
    """The agent called ``name`` in ``AGENTS``, configured with ``options``.

    >>> make_agent("perfect") is perfect_agent
    True
    >>> make_agent("montecarlo", trials=50).keywords
    {'trials': 50}
    """
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(sorted(AGENTS))}") from None
    try:
        return factory(**options)
    except TypeError as error:
        if "unexpected keyword" in str(error):
            bad = ", ".join(sorted(options))
            raise TypeError(f"agent {name!r} does not take the option(s) {bad}") from None
        raise
