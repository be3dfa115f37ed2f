"""Agents: plain functions ``(game, state, rng) -> move``.

Configure one with ``functools.partial``; pass one to ``playout``, ``simulate``,
``play_game`` or ``tournament``. The agents of the Nim material:

==========================  =====================================================
``random_agent``            a uniformly random legal move (the notebook's RandomAgent)
``perfect_agent``           the closed-form winning move (PerfectAgent: one-heap
                            and multi-pile Nim), else the exact solver's; a
                            random move from a lost position
``montecarlo_agent``        flat Monte Carlo: ``trials`` random playouts after each
                            move, the best win rate (MonteCarloAgent; the 21 game's
                            ``evaluate_position`` is in ``fnmcts.tutorial``)
``montecarlo_perfect_agent``the same with a perfect opponent in the playouts
                            (MonteCarloPerfectOppAgent)
``mcts_agent``              Monte Carlo tree search from ``fnmcts.mcts`` (MCTSAgent)
``exact_agent``             the first optimal move of the exact solution (ValueAgent)
==========================  =====================================================

``AGENTS`` maps each command-line name to a factory ``(**options) -> agent``;
``make_agent(name, **options)`` looks one up. Nothing here names a game: every
agent plays every game of the protocol where it makes sense, through the
game's optional hooks (a closed form, a fast playout kernel). No state outlives
a call: an agent that needs the exact solution solves per call, or holds one
given by its factory (``make_agent("exact", game=game)``).

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
from functools import partial

from pyrsistent import pmap

from . import qlearning as qlearning
from .exact import best_moves, solve
from .mcts import DEFAULT_ITERATIONS
from .mcts import mcts_agent  # re-exported: one agent, one name
from .parallel import check_count
from .matches import first_move_agent, playout, random_agent
from .protocol import payoff_range
from .rng import pick
from .qlearning import q_agent  # re-exported: one agent, one name
from .theory import closed_form_moves, has_closed_form

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
    "AGENTS",
    "make_agent",
]

def _solution_at(game, state, solution):
    """``solution`` when it holds ``state``, else the exact solution from ``state`` (solved now)."""
    return solution if solution is not None and state in solution else solve(game, state)


def _choose(moves, rng):
    """One of ``moves`` at random as ``random_agent`` draws: one ``rng.random()``, none if forced."""
    return moves[0] if len(moves) == 1 else pick(rng, moves)


def perfect_agent(game, state, rng: random.Random, *, solution=None):
    """The first winning move: by the game's closed form, else by the exact solver.

    The notebook's PerfectAgent: "if can make it 1 mod (K+1), then do so ...
    otherwise just choose a random amount". With a closed form (one-heap and
    multi-pile Nim: the ``winning_moves`` hook) it consumes ``rng`` only when it
    has no winning move. Any other finite game: the first optimal move of the
    exact solution (``solution`` when it holds ``state``, else solved from
    ``state`` now); from a lost position a random move among the equally bad ones.

    >>> from fnmcts.games import Nim, Piles, ShutTheBox
    >>> perfect_agent(Nim(heap=21, misere=False), Nim(heap=21).start(), random.Random(0))
    1
    >>> perfect_agent(Piles((1, 3, 5, 6)), Piles((1, 3, 5, 6)).start(), random.Random(0))
    (0, 1)
    >>> game = ShutTheBox()
    >>> sorted(perfect_agent(game, game.play(game.start(), 4), random.Random(0)))
    [1, 2, 3, 5, 6, 7, 8, 9]
    """
    moves = closed_form_moves(game, state)
    if moves is not None:
        return moves[0] if moves else random_agent(game, state, rng)
    return _perfect_move(_perfect_choice(game, state, solution), rng)


def _perfect_choice(game, state, solution) -> tuple:
    """``(best moves, lost)`` at ``state`` by the exact solution (``solution`` when it holds ``state``)."""
    solution = _solution_at(game, state, solution)
    best = best_moves(game, solution, state)
    if not best:
        raise ValueError(f"no player is to move at {state!r}")
    return best, solution[state][game.to_move(state)] <= payoff_range(game)[0]


def _perfect_move(choice, rng):
    """``perfect_agent``'s move from its ``(best moves, lost)``: the first, or when lost a random one (the notebook's)."""
    best, lost = choice
    return _choose(best, rng) if lost else best[0]


def _remembering_perfect(solution):
    """``perfect_agent`` holding ``solution``, which works out each state's best moves once for all its playouts.

    What it remembers is bounded by the states of ``solution`` and lives as
    long as the agent (``montecarlo_perfect_agent`` makes one a call); it
    draws from ``rng`` exactly as ``perfect_agent`` does.
    """
    known = {}

    def perfect(game, state, rng):
        if closed_form_moves(game, state) is not None:  # a closed form here after all: perfect_agent's own
            return perfect_agent(game, state, rng, solution=solution)
        try:
            choice = known[state]
        except KeyError:
            choice = known[state] = _perfect_choice(game, state, solution)
        return _perfect_move(choice, rng)

    return perfect


def exact_agent(game, state, rng: random.Random = None, *, ties: str = "first", solution=None):
    """An optimal move from the exact solution (``fnmcts.exact.solve``).

    The notebook's ValueAgent, for every game the exact solver can solve (Shut
    the Box included). ``ties="first"``: the first optimal move in move order
    (deterministic, ``rng`` unused); ``ties="random"``: one of them at random.
    ``solution`` (a ``solve`` result) is used when it holds ``state``; else the
    game is solved from ``state`` for this call (``make_agent("exact",
    game=game)`` solves once and keeps the solution in the agent).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> exact_agent(game, game.state(22)), exact_agent(game, game.state(19))
    (1, 2)
    """
    if ties not in ("first", "random"):
        raise ValueError(f"ties must be 'first' or 'random', got {ties!r}")
    moves = best_moves(game, _solution_at(game, state, solution), state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    if ties == "first" or len(moves) == 1:
        return moves[0]
    if rng is None:
        raise TypeError("exact_agent with ties='random' needs an rng")
    return pick(rng, moves)


# -- flat Monte Carlo ---------------------------------------------------------------


def perfect_opponent_rollout(game, player, state=None, solution=None):
    """Rollout agents, one per player: ``random_agent`` for ``player``, a perfect agent for the others.

    The notebook's perfectrollout.

    With a closed form the opponents play ``perfect_agent`` itself; otherwise
    ``perfect_agent`` holding the exact solution from ``state`` (default: the
    start): ``solution`` when it holds ``state``, else solved once here for all
    the playouts.

    >>> from fnmcts.games import Nim
    >>> perfect_opponent_rollout(Nim(), 0) == (random_agent, perfect_agent)
    True
    """
    if game.num_players == 1:
        return (random_agent,)
    perfect = perfect_agent
    if not has_closed_form(game):
        state = game.start() if state is None else state
        perfect = _remembering_perfect(_solution_at(game, state, solution))
    return tuple(random_agent if p == player else perfect for p in range(game.num_players))


def _rollout_kernel(game, rollout, rng):
    """A fast ``child -> payoff`` for playouts by ``rollout`` when the game has a kernel, else None.

    Random play: the game's ``random_payoff(state, rng)``; random and closed-form
    perfect play: its ``rollout_payoff(state, rng, perfect)``. Both draw from
    ``rng`` exactly as ``playout`` with those agents does.
    """
    agents = rollout if isinstance(rollout, tuple) else (rollout or random_agent,) * game.num_players
    if len(agents) != game.num_players or any(a is not random_agent and a is not perfect_agent for a in agents):
        return None
    if all(a is random_agent for a in agents) and hasattr(game, "random_payoff"):
        return lambda child: game.random_payoff(child, rng)
    if hasattr(game, "rollout_payoff"):
        perfect = tuple(a is perfect_agent for a in agents)
        return lambda child: game.rollout_payoff(child, rng, perfect)
    return None


def win_rates(game, state, rng: random.Random, trials: int = 1000, rollout=None) -> tuple:
    """``((move, fraction of playouts won), ...)`` for every move at ``state``.

    After each move, ``trials`` games are played to the end by ``rollout`` (an
    agent for every player, or a tuple of one agent per player; default random
    play); a playout is won when the mover's payoff is positive. Moves in move
    order, each scored with the same ``rng`` in turn. A game's fast playout
    kernel (``random_payoff``, ``rollout_payoff``) gives the same result sooner.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3, max_take=3, misere=False)
    >>> win_rates(game, game.start(), random.Random(0), trials=1000)  # exact: 1/2, 0, 1
    ((1, 0.508), (2, 0.0), (3, 1.0))
    """
    check_count(trials, "trials")
    if trials == 0:
        raise ValueError("trials must be positive")
    me = game.to_move(state)
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no player is to move at {state!r}")
    kernel = _rollout_kernel(game, rollout, rng)
    out, tables = [], {}  # (tables: the draw tables of the playouts' outcome tuples)
    for move in moves:
        child = game.play(state, move)
        if game.to_move(child) is None:
            wins = trials if game.payoff(child)[me] > 0 else 0
        elif kernel is not None:
            wins = sum(1 for _ in range(trials) if kernel(child)[me] > 0)
        else:
            wins = sum(1 for _ in range(trials) if game.payoff(playout(game, child, rng, rollout, tables=tables))[me] > 0)
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


def montecarlo_perfect_agent(game, state, rng: random.Random, *, trials: int = 1000, solution=None):
    """Flat Monte Carlo whose playouts have a perfect opponent and a random self.

    The notebook's MonteCarloPerfectOppAgent: a move into a lost position
    never wins a playout, so any winning move scores higher. The opponent
    plays by the closed form, or by the exact solution from ``state``
    (``solution`` when it holds ``state``: ``make_agent("montecarlo-perfect",
    game=game)`` solves once).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3, misere=True)
    >>> montecarlo_perfect_agent(game, game.state(24), random.Random(1), trials=100)
    3
    """
    rollout = perfect_opponent_rollout(game, game.to_move(state), state, solution)
    return montecarlo_agent(game, state, rng, trials=trials, rollout=rollout)


# -- agents from other modules --------------------------------------------------------


def _mcts(iterations: int | None = None, **options):
    """Monte Carlo tree search: ``fnmcts.mcts.mcts_agent(iterations, **options)``, ``iterations=None`` the default.

    ``iterations`` defaults to ``fnmcts.mcts.DEFAULT_ITERATIONS`` (with
    MCTS-Solver the search stops as soon as the position is proven).
    Options (see ``fnmcts.mcts``): ``rule`` ("ucb1" or the tutorial's "ucb"),
    ``c``, ``final`` ("visits" or "mean"), ``solver`` (MCTS-Solver),
    ``seconds`` (a time budget a move), ``max_nodes``, ``reuse`` (keep the tree
    from move to move: a ``fnmcts.matches.MemoryAgent``).
    """
    return mcts_agent(DEFAULT_ITERATIONS if iterations is None else iterations, **options)


def _q(ai=None):
    """A trained Q-learning agent from an ``ai`` value (``fnmcts.qlearning.q_agent``); load a saved table first."""
    if ai is None:
        raise ValueError("the q agent needs a trained ai: load a q_table file with fnmcts.load_ai(path)")
    return q_agent(ai)


def _plain(agent, what):
    def factory():
        return agent

    factory.__doc__ = f"{what} (no options)."
    return factory


def _montecarlo(trials: int = 1000):
    """Flat Monte Carlo with ``trials`` random playouts a move."""
    return partial(montecarlo_agent, trials=_trials(trials))


def _solved(game, solution):
    """``solution`` (the game's ``solve`` result, from its start) when given, else the game solved now."""
    return solve(game) if solution is None else solution


def _montecarlo_perfect(trials: int = 1000, game=None, solution=None):
    """Monte Carlo with perfect-opponent playouts, ``trials`` a move (with ``game``: solved once, now, unless
    ``solution`` is its ``solve`` result)."""
    if game is None or has_closed_form(game):
        return partial(montecarlo_perfect_agent, trials=_trials(trials))
    return partial(montecarlo_perfect_agent, trials=_trials(trials), solution=_solved(game, solution))


def _perfect(game=None, solution=None):
    """The closed-form winning move, else the exact solver's (with ``game``: solved once, now, unless
    ``solution`` is its ``solve`` result)."""
    if game is None or has_closed_form(game):
        return perfect_agent
    return partial(perfect_agent, solution=_solved(game, solution))


def _exact(ties: str = "first", game=None, solution=None):
    """The exact value agent (ties: "first" or "random"; with ``game``: solved once, now, unless ``solution``
    is its ``solve`` result)."""
    if ties not in ("first", "random"):
        raise ValueError(f"ties must be 'first' or 'random', got {ties!r}")
    options = {} if ties == "first" else {"ties": ties}
    if game is not None:
        options["solution"] = _solved(game, solution)
    return partial(exact_agent, **options) if options else exact_agent


def _trials(trials):
    if check_count(trials, "trials") == 0:
        raise ValueError("trials must be positive")
    return trials


AGENTS = pmap(
    {
        "random": _plain(random_agent, "A uniformly random move"),
        "perfect": _perfect,
        "montecarlo": _montecarlo,
        "montecarlo-perfect": _montecarlo_perfect,
        "mcts": _mcts,
        "exact": _exact,
        "q": _q,
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
