"""fnmcts: Monte Carlo simulation and Monte Carlo tree search over immutable game values.

Games are immutable values with a small protocol; states, records and trees
are immutable (pyrsistent maps, frozensets, tuples); every function that draws
takes an explicit ``rng`` or ``seed``.

>>> import fnmcts
>>> game = fnmcts.ShutTheBox(simplified=True)
>>> fnmcts.simulate(game, 100_000, seed=1).win
20
"""

import importlib

_LAZY = {
    # matches
    "GameRecord": ".matches",
    "MemoryAgent": ".matches",
    "TournamentRecord": ".matches",
    "agent_move": ".matches",
    "play_game": ".matches",
    "playout": ".matches",
    "random_agent": ".matches",
    "tournament": ".matches",
    # exact
    "best_move": ".exact",
    "best_moves": ".exact",
    "evaluate_policy": ".exact",
    "random_policy": ".exact",
    "solve": ".exact",
    "value": ".exact",
    # games
    "GAMES": ".games",
    "Nim": ".games",
    "Piles": ".games",
    "ShutTheBox": ".games",
    "TicTacToe": ".games",
    # openspiel
    "from_openspiel": ".openspiel",  # OpenSpiel's games (the openspiel extra; pyspiel loads with a game)
    # montecarlo
    "Simulation": ".montecarlo",
    "estimate": ".montecarlo",
    "simulate": ".montecarlo",
    "wilson_interval": ".montecarlo",
    # mcts
    "CompiledGraph": ".mcts",
    "MoveSearch": ".mcts",
    "Record": ".mcts",
    "Tree": ".mcts",
    "mean": ".mcts",
    "visits": ".mcts",
    "backed_up_values": ".mcts",
    "greedy_move": ".mcts",
    "greedy_policy": ".mcts",
    "mcts_agent": ".mcts",
    "mcts_move": ".mcts",
    "principal_variation": ".mcts",
    "record": ".mcts",
    "search": ".mcts",
    "subtree": ".mcts",
    "top_children": ".mcts",
    "ucb": ".mcts",
    "ucb1": ".mcts",
    "uct": ".mcts",
    # agents
    "AGENTS": ".agents",
    "exact_agent": ".agents",
    "make_agent": ".agents",
    "montecarlo_agent": ".agents",
    "montecarlo_perfect_agent": ".agents",
    "perfect_agent": ".agents",
    # protocol
    "CHANCE": ".protocol",
    "Game": ".protocol",
    "GameBase": ".protocol",
    "chance_outcomes": ".protocol",
    "is_terminal": ".protocol",
    "payoff": ".protocol",
    "payoff_range": ".protocol",
    "play": ".protocol",
    "possible_moves": ".protocol",
    "sample_outcome": ".protocol",
    "start": ".protocol",
    "to_move": ".protocol",
    # qlearning
    "QAI": ".qlearning",
    "best_future_reward": ".qlearning",
    "choose_action": ".qlearning",
    "get_q_value": ".qlearning",
    "optimal_move_rate": ".qlearning",
    "train_game": ".qlearning",
    "update_q_value": ".qlearning",
    # io
    "load_ai": ".io",
    "load_search": ".io",
    "load_tree": ".io",
    "save_ai": ".io",
    "save_search": ".io",
    "save_tree": ".io",
    # rng
    "child_seed": ".rng",
    "dice_roll": ".rng",
    "make_rng": ".rng",
    # limits
    "TooLarge": ".limits",
    # parallel
    "Interrupted": ".parallel",
    # tables
    "best_move_table": ".tables",
    "build_tree": ".tables",
    "lookup_table": ".tables",
    "optimal_play_table": ".tables",
    "random_play_table": ".tables",
    # theory
    "winner": ".theory",
    "winning_moves": ".theory",
    # games.piles
    "nim_sum": ".games.piles",
    # tutorial
    "evaluate_position": ".tutorial",
    "new_ai": ".tutorial",
    "train": ".tutorial",
}
"""Where each public name lives: ``import fnmcts`` loads none of these modules; the first use of a
name imports its module (once per process, as any import), so the import itself stays light."""


def __getattr__(name):
    """A public name, or a submodule (``fnmcts.exact``), imported on first use."""
    home = _LAZY.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home, __name__), name)
        globals()[name] = value  # found once: later uses are plain attribute reads
        return value
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))




def _deprecated_play_module():
    """``fnmcts.play`` as a module name: the old home of ``play_game`` and ``tournament``, now ``fnmcts.matches``.

    Registered in ``sys.modules`` so that ``from fnmcts.play import play_game``
    keeps working for one release (with a ``DeprecationWarning``) while the
    attribute ``fnmcts.play`` stays the protocol's function.
    """
    import sys
    import types
    import warnings

    module = types.ModuleType(__name__ + ".play", "Deprecated: use fnmcts.matches.")

    def __getattr__(name):
        matches = importlib.import_module(".matches", __name__)
        if name == "__all__":
            return list(matches.__all__)
        if name in matches.__all__:
            warnings.warn(
                f"fnmcts.play.{name} moved to fnmcts.matches.{name}; the module name fnmcts.play is deprecated",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(matches, name)
        raise AttributeError(f"module 'fnmcts.play' has no attribute {name!r}")

    module.__getattr__ = __getattr__
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
