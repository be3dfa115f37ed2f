"""Property-based testing of game rules: hypothesis strategies, game laws and the checkers built on them.

Any game of the protocol (``fnmcts.protocol``) can be checked in one call:
``check_game`` draws playthroughs with hypothesis, checks every law at every
state on the way, and on failure raises an ``AssertionError`` that names the law
and shows the shortest move sequence from the start to a bad state.

>>> from fnmcts.games.nim import Nim
>>> check_game(Nim(heap=7, max_take=3), max_examples=20)
('moves_stable_and_legal', 'play_pure', 'hash_consistent', 'terminal_iff_nobody_to_move',
 'chance_probabilities', 'payoff_in_range', 'json_round_trip', 'text_hooks', 'playthrough_ends',
 'symmetry', 'solver_recursion', 'agents_legal')

The laws are plain functions too, ``law(game, state, ...) -> True`` (or an
``AssertionError``), so a test can pick some and run them on the states of the
strategies:

>>> game = Nim(heap=7, max_take=3)
>>> law_moves_stable_and_legal(game, game.start())
True

The modules, each with its ``__all__`` (everything is also here):

- ``fnmcts.testing.strategies``: ``reachable_states(game)`` for any game (a
  ``Reached``: the game, the state and the moves that reached it), the built-in
  games' parameters (``nim_games()``, ...) and states (``nim_states()``, ...);
- ``fnmcts.testing.laws``: the laws and ``LAWS``;
- ``fnmcts.testing.check``: ``check_game`` and ``find_counterexample``;
- ``fnmcts.testing.counts``: ``count``, states and histories ply by ply (perft);
- ``fnmcts.testing.goldens``: published numbers shipped as data, and their checks;
- ``fnmcts.testing.differential``: ``check_against``, two implementations of a game
  walked in lockstep to the shortest line where they differ;
- ``fnmcts.testing.machine``: ``game_machine``, a hypothesis state machine for any
  game (``TestMyGame = game_machine(MyGame()).TestCase``);
- ``fnmcts.testing.playthroughs``: golden playthroughs, one seeded game as text,
  and the check that replays it;
- ``fnmcts.testing.mutate``: mutation testing of a game's rules, ``mutate``
  (how many slips the checks catch, and a line of play for each they miss).

This package needs hypothesis, which ``pip install fnmcts`` installs.
"""

try:
    import hypothesis  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "fnmcts.testing needs hypothesis, which fnmcts installs: pip install fnmcts (or pip install hypothesis)"
    ) from error

from ._walk import DEFAULT_MAX_STEPS, GameRaised, replay
from .check import DEFAULT_EXACT_LIMIT, CheckEstimate, Counterexample, check_game, estimate_check, find_counterexample
from .counts import COUNT_LIMIT, Count, FirstStep, Outcome, Ply, count, outcome_name
from .differential import Difference, check_against, describe_difference, find_difference
from .machine import MACHINE_LAWS, game_machine
from .playthroughs import check_playthrough, playthrough, playthrough_seed
from .goldens import (POSITION_KEYS, WHO_MOVES_FIELDS, GoldenWarning, check_count, check_grundy, game_of, golden,
                      golden_gaps, goldens, record_golden)
from .laws import (
    LAWS,
    SMALL_BUDGETS,
    agents_for,
    builtin_agents,
    count_states,
    law_agents_legal,
    law_chance_probabilities,
    law_hash_consistent,
    law_json_round_trip,
    law_moves_stable_and_legal,
    law_payoff_in_range,
    law_play_pure,
    law_playthrough_ends,
    law_solver_recursion,
    law_symmetry,
    law_terminal_iff_nobody_to_move,
    law_text_hooks,
)
from . import laws, strategies
from .games import SeededGame, TableGame
from .mutate import (BUDGET_FACTOR, DEFAULT_BUDGET, DEFAULT_MEMORY, OPERATORS, RULE_METHODS, MutationReport, Mutant, MutantVerdict, PlaythroughsCheck, PytestCheck, distinguish, mutant_game,
                     mutants, mutate)
from .strategies import (
    PLAYERS,
    Reached,
    builtin_game_states,
    builtin_games,
    decision_states,
    game_states,
    nim_games,
    nim_states,
    piles_games,
    piles_states,
    random_games,
    reachable_states,
    seeded_games,
    shut_the_box_games,
    shut_the_box_states,
    table_games,
)

__all__ = [
    *strategies.__all__,
    *laws.__all__,
    "DEFAULT_MAX_STEPS",
    "DEFAULT_EXACT_LIMIT",
    "Counterexample",
    "GameRaised",
    "TableGame",
    "SeededGame",
    "find_counterexample",
    "check_game",
    "CheckEstimate",
    "estimate_check",
    "Count",
    "COUNT_LIMIT",
    "FirstStep",
    "Outcome",
    "Ply",
    "count",
    "outcome_name",
    "goldens",
    "golden",
    "game_of",
    "check_count",
    "check_grundy",
    "POSITION_KEYS",
    "record_golden",
    "golden_gaps",
    "GoldenWarning",
    "WHO_MOVES_FIELDS",
    "OPERATORS",
    "RULE_METHODS",
    "DEFAULT_BUDGET",
    "DEFAULT_MEMORY",
    "BUDGET_FACTOR",
    "Mutant",
    "MutantVerdict",
    "MutationReport",
    "mutants",
    "mutant_game",
    "mutate",
    "PlaythroughsCheck",
    "PytestCheck",
    "distinguish",
    "Difference",
    "find_difference",
    "check_against",
    "describe_difference",
    "MACHINE_LAWS",
    "game_machine",
    "playthrough",
    "check_playthrough",
    "playthrough_seed",
]
