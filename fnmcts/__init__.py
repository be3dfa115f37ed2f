"""fnmcts: Monte Carlo simulation and Monte Carlo tree search over immutable game values.

Games are immutable values with a small protocol; states, records and trees
are immutable (pyrsistent maps, frozensets, tuples); every function that draws
takes an explicit ``rng`` or ``seed``.

>>> import fnmcts
>>> game = fnmcts.ShutTheBox(simplified=True)
>>> fnmcts.simulate(game, 100_000, seed=1).win
20
"""

from .matches import GameRecord, MemoryAgent, TournamentRecord, agent_move, play_game, playout, random_agent, tournament
from .exact import best_move, best_moves, evaluate_policy, random_policy, solve, value
from .games import GAMES, Nim, Piles, ShutTheBox, TicTacToe
from .openspiel import from_openspiel  # OpenSpiel's games (the openspiel extra; pyspiel loads with a game)
from .montecarlo import Simulation, estimate, simulate, wilson_interval
from .mcts import (
    CompiledGraph,
    MoveSearch,
    Record,
    Tree,
    mean,
    visits,
    backed_up_values,
    greedy_move,
    greedy_policy,
    mcts_agent,
    mcts_move,
    principal_variation,
    record,
    search,
    subtree,
    top_children,
    ucb,
    ucb1,
    uct,
)
from .agents import (
    AGENTS,
    exact_agent,
    make_agent,
    montecarlo_agent,
    montecarlo_perfect_agent,
    perfect_agent,
)
from .protocol import (
    CHANCE,
    Game,
    GameBase,
    chance_outcomes,
    is_terminal,
    payoff,
    payoff_range,
    play,
    possible_moves,
    sample_outcome,
    start,
    to_move,
)
from .qlearning import (
    QAI,
    best_future_reward,
    choose_action,
    get_q_value,
    optimal_move_rate,
    train_game,
    update_q_value,
)
from .io import load_ai, load_search, load_tree, save_ai, save_search, save_tree
from .rng import child_seed, dice_roll, make_rng
from .limits import TooLarge
from .parallel import Interrupted
from .tables import best_move_table, build_tree, lookup_table, optimal_play_table, random_play_table
from .theory import winner, winning_moves
from .games.piles import nim_sum
from .tutorial import evaluate_position, new_ai, train



def _deprecated_play_module():
    """``fnmcts.play`` as a module name: the old home of ``play_game`` and ``tournament``, now ``fnmcts.matches``.

    Registered in ``sys.modules`` so that ``from fnmcts.play import play_game``
    keeps working for one release (with a ``DeprecationWarning``) while the
    attribute ``fnmcts.play`` stays the protocol's function.
    """
    import sys
    import types
    import warnings

    from . import matches

    module = types.ModuleType(__name__ + ".play", "Deprecated: use fnmcts.matches.")

    def __getattr__(name):
        if name in matches.__all__:
            warnings.warn(
                f"fnmcts.play.{name} moved to fnmcts.matches.{name}; the module name fnmcts.play is deprecated",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(matches, name)
        raise AttributeError(f"module 'fnmcts.play' has no attribute {name!r}")

    module.__getattr__ = __getattr__
    module.__all__ = list(matches.__all__)
    sys.modules.setdefault(module.__name__, module)


_deprecated_play_module()
del _deprecated_play_module

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
    "payoff_range",
    "is_terminal",
    "sample_outcome",
    # randomness
    "make_rng",
    "Interrupted",
    "TooLarge",
    "child_seed",
    "dice_roll",
    # games
    "GAMES",
    "ShutTheBox",
    "TicTacToe",
    "Nim",
    "Piles",
    "from_openspiel",
    # Monte Carlo
    "Simulation",
    "estimate",
    "simulate",
    "playout",
    "wilson_interval",
    # agents
    "random_agent",
    # the Nim family: agents, games between agents, closed forms
    "AGENTS",
    "make_agent",
    "perfect_agent",
    "exact_agent",
    "montecarlo_agent",
    "montecarlo_perfect_agent",
    "evaluate_position",
    "GameRecord",
    "TournamentRecord",
    "play_game",
    "tournament",
    "winner",
    "winning_moves",
    "nim_sum",
    # Monte Carlo tree search
    "Record",
    "record",
    "visits",
    "mean",
    "CompiledGraph",
    "ucb",
    "ucb1",
    "uct",
    "search",
    "greedy_move",
    "greedy_policy",
    "backed_up_values",
    "top_children",
    "principal_variation",
    "MoveSearch",
    "Tree",
    "subtree",
    "MemoryAgent",
    "agent_move",
    "mcts_move",
    "mcts_agent",
    # exact values
    "solve",
    "value",
    "best_move",
    "best_moves",
    "evaluate_policy",
    "random_policy",
    # Shut the Box tables: look-up table, full tree, best-move table
    "random_play_table",
    "optimal_play_table",
    "lookup_table",
    "build_tree",
    "best_move_table",
    # Q-learning
    "QAI",
    "new_ai",
    "get_q_value",
    "update_q_value",
    "best_future_reward",
    "choose_action",
    "train_game",
    "train",
    "optimal_move_rate",
    "save_ai",
    "load_ai",
    "save_tree",
    "load_tree",
    "save_search",
    "load_search",
]
