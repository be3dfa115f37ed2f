"""fnmcts: Monte Carlo simulation and Monte Carlo tree search over immutable game values.

Games are immutable values with a small protocol; states, records and trees
are immutable (pyrsistent maps, frozensets, tuples); every function that draws
takes an explicit ``rng`` or ``seed``.

>>> import fnmcts
>>> game = fnmcts.ShutTheBox(simplified=True)
>>> fnmcts.simulate(game, 100_000, seed=1).win
20
"""

from .agents import random_agent
from .exact import best_move, best_moves, evaluate_policy, random_policy, solve, value
from .games import GAMES, Nim, Piles, ShutTheBox
from .montecarlo import Simulation, estimate, playout, simulate, wilson_interval
from .protocol import (
    CHANCE,
    Game,
    GameBase,
    chance_outcomes,
    is_terminal,
    payoff,
    play,
    possible_moves,
    sample_outcome,
    start,
    to_move,
)
from .rng import child_seed, dice_roll, make_rng

__all__ = [
    # the protocol
    "CHANCE",
    "Game",
    "GameBase",
    "start",
    "to_move",
    "possible_moves",
    "chance_outcomes",
    "play",
    "payoff",
    "is_terminal",
    "sample_outcome",
    # randomness
    "make_rng",
    "child_seed",
    "dice_roll",
    # games
    "GAMES",
    "ShutTheBox",
    "Nim",
    "Piles",
    # Monte Carlo
    "Simulation",
    "estimate",
    "simulate",
    "playout",
    "wilson_interval",
    # agents
    "random_agent",
    # exact values
    "solve",
    "value",
    "best_move",
    "best_moves",
    "evaluate_policy",
    "random_policy",
]
