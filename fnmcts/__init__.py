"""fnmcts: Monte Carlo simulation and Monte Carlo tree search over immutable game values.

Games are immutable values with a small protocol; states, records and trees
are immutable (pyrsistent maps, frozensets, tuples); every function that draws
takes an explicit ``rng`` or ``seed``.

>>> import fnmcts
>>> from fnmcts.games import ShutTheBox
>>> game = ShutTheBox(simplified=True)
>>> fnmcts.simulate(game, 100_000, seed=1).win
20

The game classes live in ``fnmcts.games`` (``from fnmcts.games import Nim``),
each algorithm's helpers and value types in its module (``fnmcts.mcts``,
``fnmcts.montecarlo``, ``fnmcts.exact``, ``fnmcts.qlearning``, ...); this
namespace holds the protocol and the verbs, and the tutorial's functions with
its signatures: ``possible_moves(box, roll)``, ``play_game(box, rng)``, ``ucb``,
``uct(tree, box, rng)`` (``fnmcts.tutorial``). Names of earlier releases, and
the old calls ``possible_moves(game, state)``, ``play_game(game, a, b)`` and
``uct(game, ...)``, work for one release with a ``DeprecationWarning``.
"""

import importlib

_HOMES = {
    "protocol": "CHANCE Game GameBase GameError start to_move chance_outcomes play payoff is_terminal",
    "rng": "make_rng",
    "limits": "TooLarge",
    "games": "GAMES",
    "openspiel": "from_openspiel",  # OpenSpiel's games (the openspiel extra; pyspiel loads with a game)
    "matches": "random_agent playout tournament",
    "montecarlo": "simulate",
    "exact": "solve value best_move evaluate_policy random_policy",
    "agents": "AGENTS make_agent perfect_agent exact_agent",
    "theory": "winner winning_moves",
    "mcts": "search mcts_move mcts_agent Tree Record record ucb1 subtree",
    "views": "greedy_policy",
    "qlearning": "choose_action get_q_value update_q_value",
    # the tutorials' own functions with their signatures: possible_moves(box, roll), play_game(box, rng),
    # ucb(record), uct(tree, box, rng); the Q-learning source's train(n) and NimAI(): piles 1, 3, 5, 7 by default
    "tutorial": "possible_moves play_game ucb uct new_ai train",
    "io": "save_ai load_ai save_tree load_tree save_search load_search",
}

_LAZY = {name: "." + module for module, names in _HOMES.items() for name in names.split()}
"""Where each public name lives: ``import fnmcts`` loads none of these modules; the first use of a
name imports its module (once per process, as any import), so the import itself stays light."""

_OLD_NAMES = {
    "protocol": "payoff_range sample_outcome",
    "rng": "child_seed dice_roll",
    "games": "ShutTheBox Nim Piles TicTacToe",
    "parallel": "Interrupted",
    "montecarlo": "Simulation estimate wilson_interval",
    "matches": "MemoryAgent GameRecord TournamentRecord agent_move",
    "exact": "best_moves",
    "agents": "montecarlo_agent montecarlo_perfect_agent",
    "grundy": "nim_sum",
    "mcts": "visits mean CompiledGraph MoveSearch",
    "views": "greedy_move backed_up_values top_children principal_variation",
    "qlearning": "QAI best_future_reward train_game optimal_move_rate",
    "tables": "random_play_table optimal_play_table lookup_table build_tree best_move_table",
    "tutorial": "evaluate_position",
}
_MOVED = {name: f"fnmcts.{module}" for module, names in _OLD_NAMES.items() for name in names.split()}
"""Top-level names of earlier releases and the module each lives in now: ``fnmcts.NAME`` still
works for one release, with a ``DeprecationWarning`` naming the new home."""


def __getattr__(name):
    """A public name, a moved name (with a ``DeprecationWarning``), or a submodule, imported on first use."""
    home = _LAZY.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home, __name__), name)
        globals()[name] = value  # found once: later uses are plain attribute reads
        return value
    moved = _MOVED.get(name)
    if moved is not None:
        from ._moved import deprecated  # on first use: importing fnmcts loads no module it does not need

        deprecated(f"fnmcts.{name} moved to {moved}.{name}; the top-level name is deprecated and goes in the next release")
        return getattr(importlib.import_module(moved), name)
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    if name in _TESTING:
        raise _lives_elsewhere(name, "fnmcts.testing")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_TESTING = frozenset(
    "check_game find_counterexample estimate_check count check_count record_golden golden game_machine "
    "check_against find_difference mutate playthrough check_playthrough reachable_states replay LAWS TableGame".split()
)
"""The names of ``fnmcts.testing`` a user reaches for at the top level: refused with a message naming their home."""


def _lives_elsewhere(name: str, home: str) -> Exception:
    """The error for ``fnmcts.NAME`` when NAME lives in ``home``: an ImportError under ``from fnmcts import NAME``.

    ``from fnmcts import NAME`` turns an AttributeError into a bare "cannot import name";
    an ImportError keeps the message. Elsewhere (``fnmcts.NAME``, ``hasattr``) it is an AttributeError.
    """
    import sys
    from opcode import opmap

    message = f"fnmcts has no {name!r}: it lives in {home} (from {home} import {name})"
    try:
        caller = sys._getframe(2)  # the code that asked: 0 is this function, 1 is __getattr__
        importing = caller.f_code.co_code[caller.f_lasti] == opmap["IMPORT_FROM"]
    except (AttributeError, IndexError, ValueError):  # another interpreter: the plain error
        importing = False
    return ImportError(message, name=__name__) if importing else AttributeError(message)


def __dir__():
    """The public names and the dunders: moved names and helpers stay out of ``dir(fnmcts)``."""
    return sorted({name for name in globals() if name.startswith("__")} | set(__all__))


def _deprecated_play_module():
    """``fnmcts.play`` as a module name: the old home of ``play_game`` and ``tournament``, now ``fnmcts.matches``.

    Registered in ``sys.modules`` so that ``from fnmcts.play import play_game``
    keeps working for one release (with a ``DeprecationWarning``) while the
    attribute ``fnmcts.play`` stays the protocol's function.
    """
    import sys
    import types

    module = types.ModuleType(__name__ + ".play", "Deprecated: use fnmcts.matches.")

    def __getattr__(name):
        matches = importlib.import_module(".matches", __name__)
        if name == "__all__":
            return list(matches.__all__)
        if name in matches.__all__:
            from ._moved import deprecated

            deprecated(f"fnmcts.play.{name} moved to fnmcts.matches.{name}; the module name fnmcts.play is deprecated")
            return getattr(matches, name)
        raise AttributeError(f"module 'fnmcts.play' has no attribute {name!r}")

    module.__getattr__ = __getattr__
    sys.modules.setdefault(module.__name__, module)


_deprecated_play_module()
del _deprecated_play_module

__all__ = [
    # the tutorial's functions, with its signatures (fnmcts.tutorial; the protocol's and the generic
    # step are fnmcts.protocol.possible_moves, fnmcts.matches.play_game and fnmcts.mcts.uct)
    "possible_moves",
    "play_game",
    "ucb",
    "uct",
    # the protocol
    "CHANCE",
    "Game",
    "GameBase",
    "start",
    "to_move",
    "chance_outcomes",
    "play",
    "payoff",
    "is_terminal",
    # randomness and errors
    "make_rng",
    "GameError",
    "TooLarge",
    # games
    "GAMES",
    "from_openspiel",
    # games between agents
    "random_agent",
    "playout",
    "tournament",
    # Monte Carlo
    "simulate",
    # exact values
    "solve",
    "value",
    "best_move",
    "evaluate_policy",
    "random_policy",
    # agents by name
    "AGENTS",
    "make_agent",
    "perfect_agent",
    "exact_agent",
    # closed forms
    "winner",
    "winning_moves",
    # Monte Carlo tree search
    "search",
    "mcts_move",
    "mcts_agent",
    "Tree",
    "Record",
    "record",
    "ucb1",
    "greedy_policy",
    "subtree",
    # Q-learning
    "new_ai",
    "train",
    "choose_action",
    "get_q_value",
    "update_q_value",
    # files
    "save_ai",
    "load_ai",
    "save_tree",
    "load_tree",
    "save_search",
    "load_search",
]
