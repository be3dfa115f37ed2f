"""The game protocol: one small set of pure functions that every game answers.

A game is an immutable value (a frozen dataclass) holding its parameters. A state
is an immutable, hashable value. Every algorithm in fnmcts (simulation, exact
solving, MCTS, Q-learning, the law checker) is written once against the
functions below, so every algorithm plays every game where it makes sense, and a
user's own game gets all of it by implementing the same methods.

The protocol and its optional hooks, in one table: each method with its
default (``GameBase`` holds the defaults, and a game not inheriting it gets
the same through the data-first functions of this module; "none": the reader
does without) and the modules that read it from a game.
``tests/test_hooks_table.py`` scans the package and keeps the table whole:
every method or hook fnmcts reads from a game is a row, with exactly the
modules that read it.

=====================================  =============================================
method or hook                         what it gives, and who reads it
=====================================  =============================================
``num_players``                        the number of players, an attribute (1 for
                                       Shut the Box, 2 for Nim).
                                       Read by: every algorithm
``start()``                            the initial state.
                                       Read by: every algorithm
``to_move(state)``                     a player index (0, 1, ...), ``CHANCE`` at a
                                       chance node, or ``None`` when the game is over.
                                       Read by: every algorithm
``possible_moves(state)``              the legal moves, a tuple in a stable order
                                       (empty unless a player is to move).
                                       Read by: every algorithm
``chance_outcomes(state)``             ``((outcome, Fraction), ...)`` at a chance
                                       node; probabilities are positive, sum to 1.
                                       Read by: every algorithm
``play(state, move)``                  the state a move (or chance outcome) leads to.
                                       Read by: every algorithm
``payoff(state)``                      at the end: one number per player, within
                                       ``payoff_range()``; two-player games are
                                       zero-sum (+1 win, 0 draw, -1 loss).
                                       Read by: every algorithm
``payoff_range()``                     ``(low, high)``: the worst and the best payoff
                                       (default: ``(0, 1)`` for one player, else
                                       ``(-1, 1)``).
                                       Read by: fnmcts.protocol, fnmcts.cli
``state_to_json(state)``               a JSON-ready form of the state (default: for
                                       states of numbers, strings, tuples, sets and
                                       maps).
                                       Read by: fnmcts.protocol, fnmcts.testing
``state_from_json(data)``              the inverse of ``state_to_json``.
                                       Read by: fnmcts.protocol, fnmcts.testing
``sample_outcome(state, rng)``         one chance outcome drawn with ``rng``, one
                                       ``rng.random()`` (default: by the exact
                                       cumulative weights).
                                       Read by: fnmcts.protocol, fnmcts.mcts,
                                       fnmcts.mcts.enhancements, fnmcts.cli
``describe_move(state, move)``         a short text for a move (default: ``str``).
                                       Read by: fnmcts.protocol, fnmcts.cli
``transcript_line(player, m, after)``  one line of a game's transcript (move ``m``;
                                       default: "Player N: <describe_move>.").
                                       Read by: fnmcts.protocol
``check_state(state)``                 ``state`` (perhaps normalised) if it is one of
                                       the game's, else a ``ValueError`` naming the
                                       problem (default: hash it and ask
                                       ``to_move``).
                                       Read by: fnmcts.protocol
``check_reachable(state)``             ``state`` if play from the start can reach it
                                       (default: ``check_state``).
                                       Read by: fnmcts.protocol
``parse_state(text)``                  a state typed at the command line (default:
                                       its JSON form).
                                       Read by: fnmcts.protocol
``parse_move(state, text)``            a move typed by a person (default: a choice
                                       number from 1, or the move's description;
                                       the play loop then lists the numbers).
                                       Read by: fnmcts.protocol, fnmcts.cli
``render(state)``                      a picture of ``state`` for a person (default:
                                       its JSON form).
                                       Read by: fnmcts.protocol, fnmcts.testing
``q_key(state)``                       the Q table's key of ``state`` (default: the
                                       state).
                                       Read by: fnmcts.protocol
``state_from_q_key(key)``              the inverse of ``q_key``.
                                       Read by: fnmcts.protocol
``q_key_to_json(key)``                 the key in a Q table file (default: the
                                       state's JSON form).
                                       Read by: fnmcts.protocol
``q_key_from_json(data)``              the inverse of ``q_key_to_json``.
                                       Read by: fnmcts.protocol
``may_repeat()``                       True when play can come back to a state seen
                                       before (Pig: two pig-outs in a row); such a
                                       game must end with probability 1 whatever
                                       the players do (default: False, a cycle is
                                       a bug).
                                       Read by: fnmcts.protocol
``winning_moves(state)``               the closed form's winning moves, ``()`` from a
                                       lost position (default: ``None``, no closed
                                       form).
                                       Read by: fnmcts.theory
``mover_wins(state)``                  the closed form's verdict: does the player to
                                       move win? (default: ``None``, no closed form).
                                       Read by: fnmcts.theory
``size_hint(state)``                   ``(states, length, branching)``: upper bounds
                                       from ``state`` for the size checks (default:
                                       ``None`` each, unknown).
                                       Read by: fnmcts.limits
``fewest_moves(state)``                a lower bound on the moves of any game from
                                       ``state``, for a game whose ``size_hint``
                                       gives no longest (Pig: the leader's points
                                       still wanted, 6 a roll; default: none).
                                       Read by: fnmcts.matches, fnmcts.limits,
                                       fnmcts.cli
``size_fits(limit)``                   what would fit in ``limit`` states, said to a
                                       person (default: ``None``).
                                       Read by: fnmcts.limits
``name``                               the game's name in files and at the command
                                       line, an attribute ("nim"; default: the
                                       class's name in lower case, words joined by
                                       ``-``: ``TakeAway`` is ``take-away``).
                                       Read by: fnmcts.protocol, fnmcts.cli
``symmetries(state)``                  the images of ``state`` under the game's
                                       symmetries, ``state`` among them: states
                                       with the same value whose moves map one to
                                       one (tic-tac-toe: its 8 rotations and
                                       reflections; default: ``(state,)``).
                                       Read by: fnmcts.protocol
``components(state)``                  the independent parts of ``state``, each a
                                       state of the game, when it is a sum of games
                                       (Kayles: its rows); the Sprague-Grundy
                                       solver xors their values (default:
                                       ``(state,)``).
                                       Read by: fnmcts.protocol
``random_payoff(state, rng)``          the payoff of one game played at random from
                                       ``state``, drawn as ``playout`` would
                                       (default: none, ``playout``).
                                       Read by: fnmcts.agents, fnmcts.mcts,
                                       fnmcts.mcts.phases, fnmcts.montecarlo
``random_played(state, rng)``          ``(payoff, moves)`` of one random game from
                                       ``state``, drawn as ``random_payoff`` would:
                                       its payoff and the ``(player, move)`` of each
                                       decision, which RAVE counts (default: none,
                                       ``playout`` with its moves).
                                       Read by: fnmcts.mcts
``decisive_payoff(state, rng)``        the payoff of one playout of decisive and
                                       anti-decisive moves from ``state``, drawn as
                                       ``playout`` with ``decisive_agent`` would; the
                                       search takes it for that rollout (the hook
                                       ``decisive_agent.in_place`` names; default:
                                       none, ``playout``).
                                       Read by: fnmcts.mcts.phases
``decisive_played(state, rng)``        ``(payoff, moves)`` of one playout as
                                       ``decisive_payoff`` draws it: its payoff and
                                       the ``(player, move)`` of each decision, which
                                       RAVE counts (default: none, ``playout`` with
                                       its moves).
                                       Read by: fnmcts.mcts
``random_wins(state, n, rng)``         the wins of ``n`` random games from ``state``,
                                       or ``None`` to decline (default: none).
                                       Read by: fnmcts.montecarlo
``random_batch(state, n, rng)``        the payoffs of ``n`` random games at once, a
                                       numpy array (``simulate(batch=True)``), or
                                       ``None`` to decline (default: none).
                                       Read by: fnmcts.montecarlo
``rollout_payoff(s, rng, perfect)``    the payoff of a playout from ``s`` where the
                                       players marked in ``perfect`` play the
                                       closed form (default: none, ``playout``).
                                       Read by: fnmcts.agents
``compiled_graph()``                   the game's states and moves as tables
                                       (``GraphTables``), read by the search instead
                                       of the protocol (default: none).
                                       Read by: fnmcts.mcts, fnmcts.mcts.enhancements
``compiled_rules()``                   the game's rules on keys of its states
                                       (one or two 64-bit words), compiled with
                                       Numba (Connect Four's ``Rules``;
                                       OpenSpiel's connect_four, hex,
                                       breakthrough and dots_and_boxes
                                       through the adapter): a search runs on
                                       them in machine code from 16 dives, and
                                       its decisive playouts there (default: none).
                                       Read by: fnmcts.mcts, fnmcts.mcts.phases
``player_name(player)``                a player's name in transcripts ("Player 1
                                       (X)"; default: none, "Player N").
                                       Read by: fnmcts.cli, fnmcts.testing,
                                       fnmcts.views
``agents()``                           the game's own agents, name -> factory
                                       (Pig's ``hold-at-20``; default: none).
                                       Read by: fnmcts.cli
``end_text(state)``                    how a finished game of one player ended,
                                       said to the person who played it (Shut the
                                       Box: "no levers add up to 3: you lose";
                                       default: none, "You win." or "You lose.").
                                       Read by: fnmcts.cli, fnmcts.testing
``score(state)``                       a finished game's score as a person counts
                                       it, listed by ``play`` when the payoffs are
                                       graded (Shut the Box: the levers left, lower
                                       is better; default: none, the payoff).
                                       Read by: fnmcts.cli
``title``                              the game's name in the command line's help,
                                       an attribute ("Nim (one heap, take 1..K)";
                                       default: none, its ``name``).
                                       Read by: fnmcts.cli
``state_field``                        the field a ``--state`` sets when its option
                                       is not given, an attribute (Nim: "heap";
                                       default: none).
                                       Read by: fnmcts.cli
``state_example``                      a ``--state`` shown in the help, an
                                       attribute (Pig: "45,30,12,2"; default: none).
                                       Read by: fnmcts.cli
``can_draw``                           False when no game can end in a draw, an
                                       attribute: summaries then count no draws,
                                       and the laws hold the game to it
                                       (default: True).
                                       Read by: fnmcts.cli, fnmcts.testing
``train_hint``                         how to train a Q table for the game, an
                                       attribute, told when ``--ai q`` has none
                                       (default: none, ``fnmcts.qlearning.train``).
                                       Read by: fnmcts.cli
``rule_text()``                        the rule a person is told as a game starts
                                       ("taking the last item loses"; default: none).
                                       Read by: fnmcts.cli
``position_text(state)``               a position in words for a report ("heap 5";
                                       default: none); the explorer's tree labels
                                       its nodes with it.
                                       Read by: fnmcts.cli, fnmcts.testing,
                                       fnmcts.views
``empty_text()``                       why the game is over at its start ("the heap
                                       is 0"; default: none, "the start is an end").
                                       Read by: fnmcts.cli
``positions(state)``                   the positions play can reach from ``state``,
                                       whoever is to move, which the commands'
                                       exact-size check counts (Nim: the heaps down
                                       to 0; default: none, ``size_hint``'s states).
                                       Read by: fnmcts.cli
``antithetic_outcome(state, o)``       the mirror image of chance outcome ``o`` (dice:
                                       face ``k`` and ``7 - k``), for antithetic
                                       pairs (default: none).
                                       Read by: fnmcts.lab
``control_feature(state, o)``          a feature of chance outcome ``o`` whose sum,
                                       less its expectations, is a control variate
                                       of mean 0 (default: none).
                                       Read by: fnmcts.lab
``strata(state)``                      ``((probability, state), ...)``: the strata of
                                       stratified sampling, or ``None`` where there
                                       are none (default: none).
                                       Read by: fnmcts.lab
``proposal(state, options, p)``        the probabilities importance sampling draws
                                       with instead of ``p`` (default: none).
                                       Read by: fnmcts.lab
``lab_batch(method, n, rng)``          the lab's games at once, numpy arrays by
                                       method, or ``None`` (drawing nothing) where
                                       it does not play the rules (default: none).
                                       Read by: fnmcts.lab
``_fnmcts_mutant``                     set by fnmcts on a mutant's class, never by a
                                       game: what made the mutant, so a check in
                                       another process makes it again.
                                       Read by: fnmcts.testing
=====================================  =============================================

**What payoffs mean.** A payoff is a number, not a verdict: every algorithm
reads it on the scale of ``payoff_range``, rescaled to [0, 1] for the player
it belongs to (``high`` is 1, ``low`` is 0, the middle is a draw). A search
maximises the expected payoff, so a draw counts half a win, and a score (a
one-player game paying ``total / 7``, say) is maximised as a score, not as
the chance of a positive payoff. Records count a rescaled payoff above 1/2 as
a win, exactly 1/2 as a draw and below 1/2 as a loss. One-player games (Shut
the Box) pay 1 for a win and 0 for a loss.

**Optional hooks.** Everything specific to one game is an optional method of
the game: from ``sample_outcome`` down, the table's rows are hooks, each with a
default that works for any game. No module outside ``fnmcts.games`` tests for
a concrete game class: a user's game gets every feature.

>>> from fnmcts.games.nim import Nim
>>> game = Nim(heap=5, max_take=3)
>>> state = start(game)
>>> to_move(game, state), possible_moves(game, state)
(0, (1, 2, 3))
>>> payoff(game, play(game, play(game, state, 3), 2))
(1, -1)
"""

from __future__ import annotations

import json
import random
from dataclasses import fields, is_dataclass
from fractions import Fraction
from math import lcm
from numbers import Integral, Real
from typing import Any, Hashable, Mapping, NamedTuple, Protocol, runtime_checkable

from .rng import pick_cumulative

__all__ = [
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
    "is_chance",
    "sample_outcome",
    "legal_move",
    "state_to_json",
    "state_from_json",
    "json_player",
    "describe_move",
    "transcript_line",
    "check_state",
    "parse_state",
    "check_reachable",
    "parse_move",
    "render",
    "q_key",
    "state_from_q_key",
    "q_key_to_json",
    "q_key_from_json",
    "may_repeat",
    "game_name",
    "symmetries",
    "components",
    "game_to_json",
    "game_from_json",
    "GraphTables",
    "GameError",
    "shown",
    "valid_player",
    "valid_moves",
    "valid_outcomes",
    "valid_payoff",
    "payoff_check",
    "valid_child",
    "called",
    "checked_step",
    "checked_start",
    "checked_play",
    "blamed_hook",
    "explain_failure",
    "blame_game",
    "guarded",
]


class GraphTables(NamedTuple):
    """A game's states and moves as tables: what the optional ``compiled_graph()`` hook returns.

    Node ``i`` is the state ``states[i]`` (``index`` maps a state to its node);
    ``kinds[i]`` is the player to move (0, 1, ...), -1 at the end or -2 at a
    chance node; ``moves[i]`` a decision's moves (in the order of
    ``possible_moves``) and ``children[i]`` the nodes they lead to; at a chance
    node, ``outcomes[i]`` is ``chance_outcomes`` and ``children[i]`` the nodes of
    the outcomes, in order; ``payoffs[i]`` the payoff at the end (else None).
    The search engine then reads the game's structure from the tables instead of
    asking the protocol: a game offering them must give exactly the protocol's
    answers (a property test per game checks it).

    >>> t = GraphTables(("won",), {"won": 0}, (-1,), ((),), ((),), ((),), ((1,),))
    >>> t.kinds[t.index["won"]], t.payoffs[0]
    (-1, (1,))
    """

    states: tuple
    index: Mapping
    kinds: tuple
    moves: tuple
    children: tuple
    outcomes: tuple
    payoffs: tuple


class _Chance:
    """The type of ``CHANCE``: a singleton that stands for 'the dice move next'."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "CHANCE"

    def __reduce__(self):
        return (_Chance, ())


CHANCE = _Chance()

# The two answers of a closed form's ``winner`` (``fnmcts.theory``, ``fnmcts.games.nim``): who wins under perfect play.
MOVER = "mover"
"""The player to move wins under perfect play."""

OTHER = "other"
"""The player who just moved (the other one) wins under perfect play."""
"""What ``to_move`` returns at a chance node (a dice roll, a coin flip)."""


class _Missing:
    """A value not given (a state or a move a ``GameError`` does not name): shown as ``...``."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __reduce__(self):
        return (_missing, (self.name,))


def _missing(name):
    return _NO_MOVE if name == "no move" else _NO_STATE


_NO_MOVE = _Missing("no move")
_NO_STATE = _Missing("no state")


# -- a game's own failures: one exception, naming the hook, the state and the move ----------------


class GameError(ValueError):
    """A game's own code failed where fnmcts called it: a hook raised, or returned what the protocol does not allow.

    ``hook``, ``state``, ``move``: the hook, the state and the move (None for
    a hook without one) it was called with; a hook that raised is the
    ``__cause__``. Every verb raises it for a game at fault; ``fnmcts check
    GAME`` finds the shortest walk to such a state (docs: protocol.md).

    >>> error = GameError("play", "raised KeyError: 'x'", state=(2, 0), move=1)
    >>> print(error)
    the game's play((2, 0), 1) raised KeyError: 'x'
    >>> error.hook, error.state, error.move, isinstance(error, ValueError)
    ('play', (2, 0), 1, True)
    """

    def __init__(self, hook: str, problem: str, state=None, move=_NO_MOVE):
        self.hook, self.problem, self.state = hook, problem, state
        self.move = None if move is _NO_MOVE else move
        self._has_move = move is not _NO_MOVE
        super().__init__(f"the game's {_call_text(hook, state, move)} {problem}")

    def __reduce__(self):  # pickled by its parts (a worker process's error reaches its parent whole)
        return (GameError, (self.hook, self.problem, self.state, self.move if self._has_move else _NO_MOVE))


def _call_text(hook: str, state, move=_NO_MOVE) -> str:
    """``hook(state, move)`` as text, each value shortened: how a ``GameError`` names the call."""
    if hook in _NO_STATE_HOOKS:
        return f"{hook}()"
    if move is _NO_MOVE:
        return f"{hook}({shown(state)})"
    return f"{hook}({shown(state)}, {shown(move)})"


_NO_STATE_HOOKS = frozenset({"start", "payoff_range", "may_repeat", "compiled_graph", "compiled_rules", "agents", "rule_text",
                             "empty_text", "size_fits"})
"""Hooks called without a state: a ``GameError`` names them ``hook()``."""


def shown(value, width: int = 100) -> str:
    """``repr(value)`` cut to about ``width`` characters (the middle of nested values elided), for messages.

    >>> shown((1, 2, 3))
    '(1, 2, 3)'
    >>> shown(tuple(range(100)), width=30)
    '(0, 1, 2, 3, 4, 5, ...)'
    """
    import reprlib

    short = reprlib.Repr()
    short.maxlevel, short.maxtuple, short.maxlist, short.maxset, short.maxfrozenset = 4, 6, 6, 6, 6
    short.maxdict, short.maxstring, short.maxother, short.maxlong = 6, 40, width, 40
    try:
        text = short.repr(value)
    except Exception:  # a value whose repr raises
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= width else text[: width - 3] + "..."


def _raised(error: BaseException) -> str:
    """``raised KeyError: 'x'``: an exception as a ``GameError``'s problem."""
    text = str(error)
    return f"raised {type(error).__name__}" + (f": {text}" if text else "")


def _hash_problem(value) -> str | None:
    """Why ``value`` cannot be a state or a move (None, or not hashable), or None when it can."""
    if value is None:
        return "returned None"
    try:
        hash(value)
    except Exception as error:
        return f"returned {shown(value)}, which is not hashable ({type(error).__name__}: {error})"
    return None


def _unset_players(game) -> str:
    """What to say when ``game`` has no ``num_players`` and fnmcts took 1: the fix, else ``""``.

    >>> class TwoPlayers: pass
    >>> _unset_players(TwoPlayers())
    '; the game has no num_players, so fnmcts counts 1 player: give its class num_players = 2 (or as many as play)'
    >>> _unset_players(None)
    ''
    """
    if game is None or hasattr(game, "num_players"):
        return ""
    return "; the game has no num_players, so fnmcts counts 1 player: give its class num_players = 2 (or as many as play)"


def valid_player(game, state, player, players: int):
    """``player``, what ``to_move(state)`` returned, if it is a player index below ``players``, ``CHANCE`` or None; else a ``GameError``.

    >>> valid_player(None, "s", 1, 2), valid_player(None, "s", CHANCE, 2)
    (1, CHANCE)
    >>> valid_player(None, "s", 2, 2)
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's to_move('s') returned 2: the player to move is a number from 0 to 1 (num_players is 2), CHANCE at a chance node, or None at the end
    """
    if player is None or player is CHANCE:
        return player
    if isinstance(player, Integral) and not isinstance(player, bool) and 0 <= player < players:
        return player
    raise GameError("to_move", f"returned {shown(player)}: the player to move is a number from 0 to {players - 1} "
                               f"(num_players is {players}), CHANCE at a chance node, or None at the end"
                               f"{_unset_players(game)}", state)


def valid_moves(game, state, moves, player=None) -> tuple:
    """``moves``, what ``possible_moves(state)`` returned, as a tuple if it is a non-empty sequence of hashable moves; else a ``GameError``.

    >>> valid_moves(None, "s", [1, 2])
    (1, 2)
    >>> valid_moves(None, "s", None, player=0)
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's possible_moves('s') returned None: the moves are a tuple, in a stable order
    >>> valid_moves(None, "s", (), player=0)
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's possible_moves('s') returned no moves, but to_move says player 1 is to move
    >>> valid_moves(None, "s", (1, 1, 2))
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's possible_moves('s') returned the move 1 twice: the moves are distinct
    """
    if type(moves) is not tuple:
        if not isinstance(moves, (list, tuple, range)):
            raise GameError("possible_moves", f"returned {shown(moves)}: the moves are a tuple, in a stable order",
                            state)
        moves = tuple(moves)
    if not moves:
        who = "a player" if player is None else f"player {player + 1}"
        raise GameError("possible_moves", f"returned no moves, but to_move says {who} is to move", state)
    seen = set()
    for move in moves:
        try:
            repeated = move in seen
            seen.add(move)
        except Exception as error:
            raise GameError("possible_moves", f"returned the move {shown(move)}, which is not hashable "
                                              f"({type(error).__name__}: {error}): a move is an immutable value",
                            state) from None
        if repeated:  # counted twice, searched as two moves, solved twice: the moves are distinct
            raise GameError("possible_moves", f"returned the move {shown(move)} twice: the moves are distinct",
                            state)
    return moves


def valid_outcomes(game, state, outcomes) -> tuple:
    """``outcomes``, what ``chance_outcomes(state)`` returned, as a tuple if it is a non-empty sequence of ``(outcome, probability)`` pairs, positive, summing to 1; else a ``GameError``.

    >>> valid_outcomes(None, "s", [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))])
    (('heads', Fraction(1, 2)), ('tails', Fraction(1, 2)))
    >>> valid_outcomes(None, "s", (("a", Fraction(1, 3)), ("b", Fraction(1, 3))))
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's chance_outcomes('s') returned probabilities that sum to 2/3, not 1
    """
    if not isinstance(outcomes, (list, tuple)) or not outcomes:
        raise GameError("chance_outcomes", f"returned {shown(outcomes)}: a chance node's outcomes are a non-empty "
                                           "tuple of (outcome, probability) pairs", state)
    total = Fraction(0)
    for pair in outcomes:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise GameError("chance_outcomes", f"returned {shown(pair)} among its outcomes: each is an "
                                               "(outcome, probability) pair", state)
        outcome, p = pair
        if not isinstance(p, (Fraction, Integral, float)) or isinstance(p, bool) or not p > 0 or p != p:
            raise GameError("chance_outcomes", f"gave the outcome {shown(outcome)} the probability {shown(p)}: "
                                               "a probability is a positive number (a Fraction)", state)
        problem = _hash_problem(outcome)
        if problem is not None and outcome is not None:
            raise GameError("chance_outcomes", f"returned the outcome {shown(outcome)}, which is not hashable",
                            state)
        total += Fraction(p)
    if total != 1:
        raise GameError("chance_outcomes", f"returned probabilities that sum to {total}, not 1"
                        + _FLOAT_HINT * any(isinstance(p, float) for _, p in outcomes), state)
    return outcomes if type(outcomes) is tuple else tuple(map(tuple, outcomes))


def valid_payoff(game, state, payoff, players: int, low, high, hook: str = "payoff") -> tuple:
    """``payoff``, what ``payoff(state)`` returned, as a tuple if it has one number per player within ``[low, high]``; else a ``GameError``.

    ``hook``: the hook that gave it (``random_payoff``: the payoff of a game
    played from ``state``).

    >>> valid_payoff(None, "end", [1, -1], 2, -1, 1)
    (1, -1)
    >>> valid_payoff(None, "end", (5, -5), 2, -1, 1)
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's payoff('end') returned (5, -5): player 1's payoff 5 lies outside payoff_range() (-1, 1)
    """
    if not isinstance(payoff, (tuple, list)):
        raise GameError(hook, f"returned {shown(payoff)}: a payoff is a tuple of one number per player "
                              f"({players})", state)
    if len(payoff) != players:
        raise GameError(hook, f"returned {shown(payoff)}: one number for each of the {players} players "
                              f"(num_players), not {len(payoff)}{_unset_players(game)}", state)
    for player, x in enumerate(payoff):
        if not isinstance(x, Real) or x != x:
            raise GameError(hook, f"returned {shown(payoff)}: player {player + 1}'s payoff {shown(x)} is not a "
                                  "number", state)
        if not low <= x <= high:
            raise GameError(hook, f"returned {shown(payoff)}: player {player + 1}'s payoff {shown(x)} lies "
                                  f"outside payoff_range() ({low}, {high})", state)
    return payoff if type(payoff) is tuple else tuple(payoff)


def payoff_check(game, hook: str = "payoff"):
    """``check(state, payoff) -> payoff``: ``valid_payoff`` for ``game``, once per distinct payoff (a walk's end check).

    The payoffs found valid are kept (the first 4,096): a walk that meets the
    same few payoffs again and again checks each once. ``check(state, payoff,
    hook)`` names another hook than ``hook`` in its ``GameError``.

    >>> from fnmcts.games import Nim
    >>> check = payoff_check(Nim())
    >>> check("end", (1, -1)), check("end", [-1, 1])
    ((1, -1), (-1, 1))
    >>> check("end", (1,))
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's payoff('end') returned (1,): one number for each of the 2 players (num_players), not 1
    """
    players, (low, high) = getattr(game, "num_players", 1), payoff_range(game)
    known: set = set()

    def check(state, payoff, named: str = hook):
        if type(payoff) is tuple and payoff in known:
            return payoff
        checked = valid_payoff(game, state, payoff, players, low, high, named)
        if len(known) < 4096:
            known.add(checked)
        return checked

    return check


def valid_child(game, state, move, child):
    """``child``, what ``play(state, move)`` returned, if it can be a state (not None, hashable); else a ``GameError``.

    >>> valid_child(None, (3, 0), 1, (2, 1))
    (2, 1)
    >>> valid_child(None, (3, 0), 1, [2, 1])
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's play((3, 0), 1) returned [2, 1], which is not hashable (TypeError: unhashable type: 'list'): a state is an immutable value (a tuple, a frozenset, a pmap...)
    """
    problem = _hash_problem(child)
    if problem is None:
        return child
    if child is None:
        raise GameError("play", "returned None: play returns the state the move leads to", state, move)
    raise GameError("play", problem + ": a state is an immutable value (a tuple, a frozenset, a pmap...)",
                    state, move)


def called(hook: str, function, state, *rest, move=_NO_MOVE):
    """``function(state, *rest)``, a hook of the game; anything it raises becomes a ``GameError`` naming the hook.

    >>> called("payoff", lambda s: s[5], (0, 1))
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's payoff((0, 1)) raised IndexError: tuple index out of range
    """
    try:
        return function(state, *rest)
    except (GameError, MemoryError):  # running out of memory is the machine's, not the game's
        raise
    except Exception as error:
        raise GameError(hook, _raised(error), state, move) from error


ASK = object()  # ``checked_step``'s player not known yet: ``to_move`` is asked


def checked_step(game, state, players: int, low, high, player=ASK) -> tuple:
    """``(player, choices)`` at ``state``: who moves, and the moves, the chance outcomes or the payoff, each checked.

    The first meeting of a state in a walk: ``to_move`` and then
    ``possible_moves``, ``chance_outcomes`` or ``payoff``, each called once,
    what it returns checked (``valid_player``, ``valid_moves``,
    ``valid_outcomes``, ``valid_payoff``), anything raised a ``GameError``.
    ``player``: who moves there, already checked (``to_move`` is not asked again).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3)
    >>> checked_step(game, game.start(), 2, -1, 1), checked_step(game, game.state(0, 1), 2, -1, 1)
    ((0, (1, 2, 3)), (None, (-1, 1)))
    """
    if player is ASK:
        player = valid_player(game, state, called("to_move", game.to_move, state), players)
    if player is None:
        return None, valid_payoff(game, state, called("payoff", game.payoff, state), players, low, high)
    if player is CHANCE:
        return player, valid_outcomes(game, state, called("chance_outcomes", game.chance_outcomes, state))
    return player, valid_moves(game, state, called("possible_moves", game.possible_moves, state), player)


def checked_start(game):
    """``game.start()``, checked: a ``GameError`` when it raises or returns no state (None, or not hashable).

    >>> from fnmcts.games import Nim
    >>> checked_start(Nim(heap=3))["heap"]
    3
    """
    try:
        state = game.start()
    except Exception as error:
        if isinstance(error, MemoryError):
            raise
        _refuse_class(game)  # Nim for Nim(): the user's slip, not the game's fault
        raise GameError("start", _raised(error)) from error
    problem = _hash_problem(state)
    if problem is not None:
        raise GameError("start", problem + ": a state is an immutable value (a tuple, a frozenset, a pmap...)")
    return state


def checked_play(game, state, move):
    """``play(state, move)``, checked (``valid_child``); anything raised a ``GameError``.

    >>> from fnmcts.games import Nim
    >>> checked_play(Nim(heap=3), Nim(heap=3).start(), 2)["heap"]
    1
    """
    return valid_child(game, state, move, called("play", game.play, state, move, move=move))


# -- finding the game at fault in an exception -------------------------------------------------


def _hook_codes(game) -> dict:
    """``code object -> (name, is GameBase's default)`` for every method of the game's class and its bases."""
    codes: dict = {}
    for kind in type(game).__mro__:
        if kind is object:
            continue
        for name, value in vars(kind).items():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            elif isinstance(value, property):
                value = value.fget
            code = getattr(value, "__code__", None)
            if code is not None and code not in codes:
                codes[code] = (name, kind is GameBase)
    return codes


_INPUT_HOOKS = frozenset({"parse_state", "parse_move", "check_state", "check_reachable", "state_from_json",
                          "state_from_q_key", "q_key_from_json", "__init__", "__post_init__", "__new__"})
"""Hooks that read a person's input (a state or move typed, the game's options given to its constructor): what
they raise names the input, never a ``GameError``."""


def _frame_call(name: str, frame) -> tuple:
    """``(state, move)`` a hook's frame was called with (``_NO_MOVE``: a hook that takes no move)."""
    code = frame.f_code
    names = code.co_varnames[: code.co_argcount]
    names = names[1:] if names and names[0] in ("self", "cls") else names
    values = [frame.f_locals.get(n) for n in names]
    if name in _NO_STATE_HOOKS or not values:
        return None, _NO_MOVE
    if name == "transcript_line" and len(values) >= 3:  # (player, move, after)
        return values[2], values[1]
    if name in ("play", "describe_move", "parse_move") and len(values) >= 2:
        return values[0], values[1]
    return values[0], _NO_MOVE


def blamed_hook(game, error: BaseException) -> GameError | None:
    """The ``GameError`` for ``error`` when it was raised in the code of ``game`` (a hook, or what a hook called), else None.

    The hook is the outermost frame of the game's own methods in the traceback
    (a default of ``GameBase`` only when none of the game's own is there), and
    the state and move are the arguments it was called with.

    >>> from fnmcts.games import Nim
    >>> try:
    ...     Nim(heap=3).play(Nim(heap=3).start(), 9)
    ... except ValueError as error:
    ...     print(blamed_hook(Nim(heap=3), error))
    the game's play(pmap({'heap': 3, 'player': 0}), 9) raised ValueError: illegal move 9: take 1..3 from 3
    >>> blamed_hook(Nim(), ValueError("not from a game")) is None
    True
    """
    if isinstance(error, GameError):
        return error
    if _verdict(error):
        return None
    codes = _hook_codes(game)
    found = None
    tb = error.__traceback__
    while tb is not None:
        hit = codes.get(tb.tb_frame.f_code)
        if hit is not None and (found is None or found[1] and not hit[1]):
            found = (hit[0], hit[1], tb.tb_frame)
            if not hit[1]:
                break
        tb = tb.tb_next
    if found is None or found[0] in _INPUT_HOOKS:  # a hook that reads what a person typed: their input, not the game
        return None
    state, move = _frame_call(found[0], found[2])
    blamed = GameError(found[0], _raised(error), state, move)
    blamed.__cause__ = error
    return blamed


def explain_failure(game, error: BaseException, state=_NO_STATE, move=_NO_MOVE, before=_NO_STATE):
    """The ``GameError`` that says how ``game`` caused ``error`` in a walk at ``state``, or None when it did not.

    ``state`` is where the walk stood, ``before`` and ``move`` the state and
    move that led there (when known). First what the game returned is checked
    (the state ``play`` made, then the step at ``state``, each hook called
    again: ``checked_step``), so a hook that returned garbage is named rather
    than the one that choked on it; else the traceback names the hook that
    raised (``blamed_hook``).

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=3)
    >>> print(explain_failure(game, TypeError("'NoneType' object is not iterable"), None, 2, game.start()))
    the game's play(pmap({'heap': 3, 'player': 0}), 2) returned None: play returns the state the move leads to
    """
    if isinstance(error, GameError):
        return error
    if _verdict(error):
        return None
    if state is not _NO_STATE:
        try:
            if before is not _NO_STATE:
                valid_child(game, before, move, state)
            checked_step(game, state, getattr(game, "num_players", 1), *payoff_range(game))
        except GameError as found:
            return found
        except Exception:  # the game's payoff_range itself: the traceback says
            pass
    return blamed_hook(game, error)


def blame_game(game, error: BaseException, state=_NO_STATE, move=_NO_MOVE, before=_NO_STATE):
    """Raise the ``GameError`` for ``error`` (``explain_failure``), chained to it, or ``error`` itself when the game is not at fault.

    A walk's ``except Exception as error: blame_game(game, error, state, ...)``.

    >>> from fnmcts.games import Nim
    >>> blame_game(Nim(), KeyError("mine"))
    Traceback (most recent call last):
    ...
    KeyError: 'mine'
    """
    found = explain_failure(game, error, state, move, before)
    if found is None or found is error:
        raise error
    raise found from error


def guarded(function):
    """``function`` (a verb whose first argument, or ``game=``, is a game) with the game's failures raised as ``GameError``.

    Whatever a hook of the game raises on the way, however deep, becomes a
    ``GameError`` naming the hook and its arguments (``blamed_hook``), chained
    to the original; any other exception passes as it is.

    >>> from fnmcts.games import Nim
    >>> class Broken(Nim):
    ...     def payoff(self, state):
    ...         raise KeyError("boom")
    >>> @guarded
    ... def last_payoff(game):
    ...     return game.payoff(game.state(0, 1))
    >>> last_payoff(Broken())
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's payoff(pmap({'heap': 0, 'player': 1})) raised KeyError: 'boom'
    """
    from functools import wraps

    @wraps(function)
    def verb(*args, **options):
        try:
            return function(*args, **options)
        except GameError:
            raise
        except Exception as error:
            if _verdict(error):
                raise
            if isinstance(error, TypeError):
                _refuse_call(function, args, options, error)
            game = _game_among(args, options)
            found = None if game is None else blamed_hook(game, error)
            if found is None:
                raise
            raise found from error

    return verb


def _refuse_call(function, args, options, error) -> None:
    """``error`` with the fix named when ``function`` cannot take these arguments (an rng given by position where
    only ``rng=`` takes one, a misspelt keyword); a call it can take returns.

    >>> import random
    >>> def simulate(game, n, *, seed=None, rng=None): ...
    >>> _refuse_call(simulate, ("nim", 10, random.Random(1)), {}, TypeError("too many"))
    Traceback (most recent call last):
    ...
    TypeError: too many: simulate(game, n, rng=random.Random(1)) or seed=1, by keyword
    >>> _refuse_call(simulate, ("nim", 10), {"sed": 1}, TypeError("no sed"))
    Traceback (most recent call last):
    ...
    TypeError: no sed: did you mean seed=?
    >>> _refuse_call(simulate, ("nim", 10), {"rng": None}, TypeError("the game's"))
    """
    from difflib import get_close_matches
    from inspect import Parameter, signature

    try:
        signature(function).bind(*args, **options)
    except TypeError:
        params = signature(function).parameters.values()
        names = [p.name for p in params if p.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD)]
        keywords = [p.name for p in params if p.kind is Parameter.KEYWORD_ONLY]
        extra, call = args[len(names):], f"{function.__name__}({', '.join(names)}"
        every, near = names + keywords, []
        for k in (k for k in options if k not in every):
            if k == "seed" and "rng" in every:  # search and mcts_move take an rng only
                near.append("rng=random.Random(seed)")
            else:
                near += [m + "=" for m in get_close_matches(k, every, 1)]
        if "rng" in keywords and any(isinstance(a, random.Random) for a in extra):
            hint = f": {call}, rng=random.Random(1))" + (" or seed=1" if "seed" in keywords else "") + ", by keyword"
        elif extra and keywords:
            hint = f": {call}), the rest by keyword ({', '.join(k + '=' for k in keywords)})"
        else:
            hint = f": did you mean {' or '.join(near)}?" if near else ""
        raise TypeError(f"{error}{hint}") from None


class _Verdict(ValueError):
    """The base of fnmcts's own verdicts on a walk (``fnmcts.limits.TooLarge``, ``NoEnd``): never a game's failure."""


def _verdict(error: BaseException) -> bool:
    """True for fnmcts's own verdicts (``TooLarge``, ``NoEnd``) and a ``MemoryError`` (the machine's): they pass
    through as they are, wherever raised."""
    return isinstance(error, (_Verdict, MemoryError))


def _game_among(args, options):
    """The game among a verb's arguments: ``game=``, else the first argument with the protocol's methods."""
    game = options.get("game")
    if game is not None:
        return game
    for arg in args:
        if not isinstance(arg, type) and callable(getattr(arg, "to_move", None)) and callable(
                getattr(arg, "play", None)):
            return arg
    return None


@runtime_checkable
class Game(Protocol):
    """The methods a game value provides (see the module docstring).

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> isinstance(Nim(), Game), isinstance(ShutTheBox(), Game), isinstance("nim", Game)
    (True, True, False)
    """

    num_players: int

    def start(self) -> Hashable: ...

    def to_move(self, state) -> Any: ...

    def possible_moves(self, state) -> tuple: ...

    def chance_outcomes(self, state) -> tuple: ...

    def play(self, state, move) -> Hashable: ...

    def payoff(self, state) -> tuple: ...

    def state_to_json(self, state) -> Any: ...

    def state_from_json(self, data) -> Hashable: ...


def _cumulative(probabilities) -> tuple[int, tuple[int, ...]]:
    """Integer cumulative weights over a common denominator: ``(denominator, cumulative)``, immutable."""
    ratios = [p if type(p) is Fraction else Fraction(p) for p in probabilities]
    denominator = lcm(*(r.denominator for r in ratios))
    total, cumulative = 0, []
    for r in ratios:
        total += r.numerator * (denominator // r.denominator)
        cumulative.append(total)
    return denominator, tuple(cumulative)


_FLOAT_HINT = " (floats rarely sum to 1 exactly: give Fractions, Fraction(1, 6) for 1/6)"
"""Said after a sum of probabilities that is not 1 when some of them are floats."""

_MAX_TABLES = 4096
"""The most draw tables a caller's ``tables`` keeps (``sample_outcome``); when full it starts again."""


def _draw_table(outcomes, state, tables=None) -> tuple[int, tuple[int, ...]]:
    """``(denominator, cumulative)`` for ``outcomes``, checked to sum to 1: kept in ``tables`` (a caller's dict), if given.

    ``tables`` maps ``id(outcomes)`` to ``(outcomes, denominator, cumulative)``:
    the tuple is held, so its ``id`` is not reused while the entry lives; only a
    tuple of ``(outcome, probability)`` tuples (immutable all through) is kept.
    """
    if tables is not None:
        kept = tables.get(id(outcomes))
        if kept is not None and kept[0] is outcomes:
            return kept[1], kept[2]
    denominator, cumulative = _cumulative([p for _, p in outcomes])
    if cumulative[-1] != denominator:
        raise GameError("chance_outcomes", f"returned probabilities that sum to {Fraction(cumulative[-1], denominator)}"
                                           ", not 1" + _FLOAT_HINT * any(isinstance(p, float) for _, p in outcomes), state)
    if tables is not None and type(outcomes) is tuple and all(
            type(pair) is tuple and type(pair[1]) in (Fraction, int, float) for pair in outcomes):
        if len(tables) >= _MAX_TABLES:  # a game that makes new tuples per call: start again, keep going
            tables.clear()
        tables[id(outcomes)] = (outcomes, denominator, cumulative)
    return denominator, cumulative


def _drawn(game, state, rng, tables=None):
    """One outcome of ``game``'s chance node ``state``, drawn on its table (``GameBase.sample_outcome``'s draw)."""
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise GameError("chance_outcomes", f"returned {shown(outcomes)}: a chance node's outcomes are a non-empty "
                                           "tuple of (outcome, probability) pairs", state)
    denominator, cumulative = _draw_table(outcomes, state, tables)
    return outcomes[pick_cumulative(rng, cumulative, denominator)][0]


class GameBase:
    """Defaults for the optional parts of the protocol; inherit to get them.

    A coin toss, one chance node, gets sampling, a payoff range and move
    descriptions from ``GameBase``:

    >>> import random
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Toss(GameBase):
    ...     def start(self):
    ...         return "toss"
    ...     def to_move(self, state):
    ...         return CHANCE if state == "toss" else None
    ...     def chance_outcomes(self, state):
    ...         return (("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))) if state == "toss" else ()
    >>> game = Toss()
    >>> game.sample_outcome("toss", random.Random(1)), game.payoff_range(), game.chance_outcomes("heads")
    ('heads', (0, 1), ())
    """

    num_players = 1

    def chance_outcomes(self, state) -> tuple:
        return ()

    def sample_outcome(self, state, rng):
        """Draw one chance outcome with ``rng``, consuming exactly one ``rng.random()``.

        The draw is ``x = rng.random() * D`` with ``D`` the common denominator of the
        probabilities, and the outcome is the first whose cumulative weight exceeds
        ``x``: exact for rational probabilities, up to float resolution.
        """
        return _drawn(self, state, rng)

    def payoff_range(self) -> tuple:
        """``(low, high)``: the worst and the best payoff of one player.

        ``(0, 1)`` for a one-player game, ``(-1, 1)`` otherwise; override it
        for another scale.
        """
        return (0, 1) if self.num_players == 1 else (-1, 1)

    def describe_move(self, state, move) -> str:
        return str(move)

    def may_repeat(self) -> bool:
        """True when play can come back to a state seen before: by default False.

        A game whose states repeat (Pig: both players roll a 1 in turn and the
        scores are as before) returns True; the exact solver then iterates to a
        tolerance inside each cycle, and check_game asks that every playthrough
        end with probability 1. Such a game must end with probability 1 whatever
        the players do. In a game that does not say so, a cycle is a bug.

        >>> GameBase().may_repeat()
        False
        """
        return False

    @property
    def name(self) -> str:
        """The game's name in saved files and at the command line: by default from its class.

        ``TakeAway`` is ``"take-away"``; a game sets its own with a class
        attribute (``name = "tic-tac-toe"``).

        >>> class TakeAway(GameBase):
        ...     pass
        >>> TakeAway().name
        'take-away'
        """
        return _class_name(type(self))

    def symmetries(self, state) -> tuple:
        """The images of ``state`` under the game's symmetries, ``state`` first: by default ``(state,)``.

        A symmetry maps states to states of the same value, whose moves map one
        to one (``fnmcts.testing``'s symmetry law checks it); counts can merge
        the images (``count(game, up_to_symmetry=True)``).

        >>> GameBase().symmetries((1, 2))
        ((1, 2),)
        """
        return (state,)

    def components(self, state) -> tuple:
        """The independent parts of ``state`` when it is a sum of games, each a state: by default ``(state,)``.

        A move in a sum is a move in one part; the Sprague-Grundy value of a sum
        is the xor of its parts' values (``fnmcts.grundy``).

        >>> GameBase().components((1, 2))
        ((1, 2),)
        """
        return (state,)

    def transcript_line(self, player, move, after) -> str:
        """The transcript line for ``player`` (0-based) playing ``move`` to reach ``after``.

        The default: "Player N: <describe_move>."; called as a method it has no
        state to give ``describe_move``, which the protocol's ``transcript_line``
        (``fnmcts.protocol.transcript_line``) gives: the state the move was played at.

        >>> GameBase().transcript_line(1, 4, None)
        'Player 2: 4.'
        """
        return f"Player {player + 1}: {self.describe_move(None, move)}."

    def state_to_json(self, state):
        return _to_json(state)

    def state_from_json(self, data):
        return _from_json(data)

    # -- optional hooks: each default works for any game ---------------------------

    def winning_moves(self, state):
        """The closed form's winning moves at ``state``; ``None``: the game has no closed form.

        >>> GameBase().winning_moves(5) is None
        True
        """
        return None

    def mover_wins(self, state):
        """The closed form's verdict at ``state`` (True: the player to move wins); ``None``: no closed form.

        >>> GameBase().mover_wins(5) is None
        True
        """
        return None

    def size_hint(self, state):
        """``(states, length, branching)``: upper bounds of the game from ``state``; ``None`` each when unknown.

        The states the exact solver would hold, the moves of the longest game,
        the most moves at one state: ``fnmcts.limits`` checks work and memory
        with them before it starts.

        >>> GameBase().size_hint(5)
        (None, None, None)
        """
        return (None, None, None)

    def size_fits(self, limit: int):
        """What would fit in ``limit`` states, said to a person ("a heap of at most 99,999"); ``None``: nothing to say.

        >>> GameBase().size_fits(1000) is None
        True
        """
        return None

    def parse_state(self, text: str):
        """The state written as ``text``: by default its JSON form (``state_from_json``).

        >>> GameBase().parse_state("[3, 1]"), GameBase().parse_state('{"set": [2, 1]}')
        ((3, 1), frozenset({1, 2}))
        """
        return _parse_json_state(self, text)

    def check_reachable(self, state):
        """``state`` if play from the start can reach it, else a ``ValueError``; by default ``check_state``.

        >>> from fnmcts.games import ShutTheBox
        >>> sorted(ShutTheBox().check_reachable(frozenset({1, 2})))
        [1, 2]
        """
        return check_state(self, state)

    def parse_move(self, state, text: str):
        """The move typed as ``text``: a choice number from 1, or the text of ``describe_move``.

        >>> from fnmcts.games import ShutTheBox
        >>> game = ShutTheBox()
        >>> state = game.play(game.start(), 3)
        >>> sorted(game.parse_move(state, "2")) == sorted(game.parse_move(state, "flip 1 2"))
        True
        """
        return _parse_choice_move(self, state, text)

    def render(self, state) -> str:
        """A picture of ``state`` for a person: by default its JSON form as text, else its ``repr``.

        >>> from fnmcts.games import ShutTheBox
        >>> GameBase.render(ShutTheBox(), frozenset({2, 7}))  # the default, which Shut the Box overrides
        '{"box": [2, 7]}'

        A state the default JSON form cannot write (a dataclass) is still shown, so ``play`` runs:

        >>> from collections import namedtuple
        >>> GameBase().render(namedtuple("Cell", "row col")(1, 2))
        'Cell(row=1, col=2)'
        """
        try:
            return json.dumps(state_to_json(self, state))
        except _NoJsonForm:  # the default form's refusal; a game's own state_to_json raising still raises
            return repr(state)

    def q_key(self, state):
        """The key of ``state`` in a Q table: by default the state itself.

        >>> GameBase().q_key((1, 2))
        (1, 2)
        """
        return state

    def state_from_q_key(self, key):
        """A state whose Q table key is ``key``: by default the key itself.

        >>> GameBase().state_from_q_key((1, 2))
        (1, 2)
        """
        return key

    def q_key_to_json(self, key):
        """The JSON form of a Q table key: by default the state's (``state_to_json``).

        >>> GameBase().q_key_to_json((1, frozenset({2})))
        [1, {'set': [2]}]
        """
        return state_to_json(self, key)

    def q_key_from_json(self, data):
        """The Q table key whose JSON form is ``data``: by default ``state_from_json``.

        >>> GameBase().q_key_from_json([1, {"set": [2]}])
        (1, frozenset({2}))
        """
        return state_from_json(self, data)


def _to_json(value):
    """Plain JSON form of nested tuples, frozensets, pmaps and numbers.

    A set's members in order: their own, or their JSON text's where they do not compare (numbers with strings).

    >>> _to_json(frozenset({3, 1, 2})), _to_json(frozenset({2, "b", 1}))
    ({'set': [1, 2, 3]}, {'set': ['b', 1, 2]})

    A map's keys in order; keys that are not strings as ``[key, value]`` pairs, so they read back as they were:

    >>> from pyrsistent import pmap
    >>> _to_json(pmap({"b": 1, "a": (2,)})), _to_json(pmap({(0, 1): "x", 2: "o"}))
    ({'map': {'a': [2], 'b': 1}}, {'map': [[2, 'o'], [[0, 1], 'x']]})
    >>> _from_json(_to_json(pmap({(0, 1): "x", 2: "o"}))) == pmap({(0, 1): "x", 2: "o"})
    True
    """
    from pyrsistent import PMap

    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (frozenset, set)):
        members = [_to_json(v) for v in value]
        try:
            return {"set": sorted(members)}
        except TypeError:  # members of kinds that do not compare: ordered by their JSON text, the same on every run
            return {"set": sorted(members, key=lambda member: json.dumps(member, sort_keys=True))}
    if isinstance(value, (PMap, dict)):
        if all(isinstance(k, str) for k in value):
            return {"map": {k: _to_json(value[k]) for k in sorted(value)}}
        # other keys (numbers, tuples) as [key, value] pairs, so they come back as they were, not as strings
        pairs = [[_to_json(k), _to_json(v)] for k, v in value.items()]
        return {"map": sorted(pairs, key=lambda pair: json.dumps(pair[0], sort_keys=True))}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):  # read back, a plain tuple would lose its names
        raise _NoJsonForm(f"cannot convert {type(value).__name__} (a namedtuple) to JSON: its JSON form would come back "
                        f"as a plain tuple without its field names: {value!r}{_OWN_JSON}")
    if isinstance(value, (tuple, list)):
        return [_to_json(v) for v in value]
    raise _NoJsonForm(f"cannot convert {type(value).__name__} to JSON: {value!r}{_OWN_JSON}")


_OWN_JSON = "; give the game its own state_to_json and state_from_json"


class _NoJsonForm(TypeError):
    """The default JSON form's refusal of a value it cannot write and read back (a dataclass, a namedtuple).

    Messages name it as what it is to a user, a ``TypeError``.
    """


_NoJsonForm.__name__ = _NoJsonForm.__qualname__ = "TypeError"


def _from_json(data):
    from pyrsistent import pmap

    if isinstance(data, list):
        return tuple(_from_json(v) for v in data)
    if isinstance(data, dict):
        if set(data) == {"set"}:
            return frozenset(_from_json(v) for v in data["set"])
        if set(data) == {"map"} and isinstance(data["map"], list):
            return pmap({_from_json(k): _from_json(v) for k, v in data["map"]})
        if set(data) == {"map"}:
            return pmap({k: _from_json(v) for k, v in data["map"].items()})
        raise ValueError(f"unknown JSON state form: {data!r}")
    return data


# -- the protocol as data-first functions ---------------------------------------


def start(game):
    """The initial state of ``game``.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> start(Nim(heap=5)) == {"heap": 5, "player": 0}, sorted(start(ShutTheBox(levers=4)))
    (True, [1, 2, 3, 4])
    """
    try:
        return _game_hook(game, "start")()
    except TypeError:
        _refuse_class(game)  # Nim for Nim(): said so, not "missing 'self'"
        raise


def to_move(game, state):
    """Who moves at ``state``: a player index, ``CHANCE``, or ``None`` at the end.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> game = Nim(heap=5)
    >>> to_move(game, game.state(5, 1)), to_move(game, game.state(0, 1)), to_move(ShutTheBox(), frozenset({1, 2}))
    (1, None, CHANCE)
    """
    return _asked(game, "to_move", state)


def possible_moves(game, state) -> tuple:
    """The legal moves at ``state``, a tuple in a stable order.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> possible_moves(game, start(game)), possible_moves(game, game.state(2, 0))
    ((1, 2, 3), (1, 2))
    """
    return _asked(game, "possible_moves", state)


def chance_outcomes(game, state) -> tuple:
    """``((outcome, probability), ...)`` at a chance node, else ``()``.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> chance_outcomes(ShutTheBox(), frozenset({1, 2}))[:2]
    ((2, Fraction(1, 36)), (3, Fraction(1, 18)))
    >>> chance_outcomes(Nim(), start(Nim()))
    ()
    """
    return _asked(game, "chance_outcomes", state)


def play(game, state, move):
    """The state that ``move`` (a player's move or a chance outcome) leads to.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> play(Nim(heap=5), start(Nim(heap=5)), 2) == {"heap": 3, "player": 1}
    True
    >>> rolled = play(ShutTheBox(levers=4), frozenset({1, 2, 3, 4}), 5)
    >>> sorted(rolled["box"]), rolled["roll"]
    ([1, 2, 3, 4], 5)

    A state of another game (or a tree, or no state) is named, not a ``KeyError``
    from inside the game:

    >>> from fnmcts.games import Piles
    >>> play(Nim(), Piles().start(), 1)
    Traceback (most recent call last):
    ...
    ValueError: a Nim state is pmap(heap=n, player=0 or 1), got pmap({...})
    """
    return _asked(game, "play", state, move)


def payoff(game, state) -> tuple:
    """The payoff to each player at a terminal ``state``.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> payoff(Nim(heap=5), Nim(heap=5).state(0, 1)), payoff(ShutTheBox(), frozenset())
    ((-1, 1), (1,))
    """
    return _asked(game, "payoff", state)


def _game_hook(game, name: str):
    """``game``'s hook ``name``; a ``TypeError`` naming the slip when ``game`` has none (a game's name, None).

    >>> _game_hook("nim", "start")
    Traceback (most recent call last):
    ...
    TypeError: game must be a game value, not the name 'nim' (a built-in game by its name: fnmcts.games.GAMES[name]())
    >>> _game_hook(None, "play")
    Traceback (most recent call last):
    ...
    TypeError: game must implement the fnmcts game protocol (it has no play), got None
    """
    hook = getattr(game, name, None)
    if callable(hook):
        return hook
    raise _no_hook(game, name)


def _no_hook(game, name: str) -> TypeError:
    """The error for a ``game`` without a callable hook ``name``: a game's name, None, a hook that is no function."""
    if isinstance(game, str):
        return TypeError(f"game must be a game value, not the name {game!r} (a built-in game by its name: "
                         "fnmcts.games.GAMES[name]())")
    return TypeError(f"game must implement the fnmcts game protocol (it has no {name}), got {game!r}")


_STATE_ERRORS = (KeyError, IndexError, TypeError, AttributeError)
"""What a game's hook raises on a state that is none of its own: ``_refuse_state`` asks ``check_state`` why."""


def _asked(game, name: str, state, *args):
    """``game``'s hook ``name`` on ``(state, *args)``: the one attribute read a call needs. When it fails,
    a game without that hook (a game's name, None) is named (``_no_hook``), and a state that is none of the
    game's (or a game's class given for one) is said so by ``_refuse_state`` instead of the hook's own error.

    >>> from fnmcts.games import Nim
    >>> _asked(Nim(), "possible_moves", Nim(heap=2).start())
    (1, 2)
    >>> _asked(Nim, "possible_moves", Nim().start())
    Traceback (most recent call last):
    ...
    TypeError: game must be a game value, not the class Nim: make one, Nim() (with its parameters, if any)
    >>> _asked("nim", "play", Nim().start(), 1)
    Traceback (most recent call last):
    ...
    TypeError: game must be a game value, not the name 'nim' (a built-in game by its name: fnmcts.games.GAMES[name]())
    """
    try:
        return getattr(game, name)(state, *args)
    except _STATE_ERRORS as error:
        if not callable(getattr(game, name, None)):
            raise _no_hook(game, name) from None
        _refuse_state(game, state, error)
        raise


def _refuse_state(game, state, error) -> None:
    """``check_state``'s ``ValueError`` (or ``TypeError``) when ``state`` is none of ``game``'s, raised from ``error``.

    A state the game accepts returns: the hook's own error is then the game's, raised as it was.

    >>> from fnmcts.games import Nim
    >>> _refuse_state(Nim(), Nim().start(), KeyError("x"))
    >>> _refuse_state(Nim(), "heap", KeyError("x"))
    Traceback (most recent call last):
    ...
    ValueError: a Nim state is pmap(heap=n, player=0 or 1), got 'heap'
    """
    try:
        check_state(game, state)
    except (ValueError, TypeError) as refused:
        raise refused from error


def game_text(game) -> str:
    """The game as fnmcts names it in messages and files: its repr, or ``Name()`` for a class without its own.

    A playthrough's 'game:' line, a golden's and a count's ``game``, the
    messages of ``check_game``, ``count`` and the solvers name a game so. Python's default repr holds the object's address (``<mygame.Race object
    at 0x7f...>``), another in every process: a file naming it could never be
    checked again.

    >>> from fnmcts.games import Nim
    >>> class Race:
    ...     pass
    >>> game_text(Nim(heap=3)), game_text(Race())
    ('Nim(heap=3, max_take=3, misere=True)', 'Race()')
    """
    return f"{type(game).__qualname__}()" if type(game).__repr__ is object.__repr__ else repr(game)


def payoff_range(game) -> tuple:
    """``(low, high)``: the worst and the best payoff one player can get.

    The game's own ``payoff_range()`` when it has one, else ``(0, 1)`` for one
    player and ``(-1, 1)`` for more.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> payoff_range(Nim()), payoff_range(ShutTheBox())
    ((-1, 1), (0, 1))
    """
    own = getattr(game, "payoff_range", None)
    if own is not None:
        low, high = own()
    else:
        low, high = (0, 1) if getattr(game, "num_players", 1) == 1 else (-1, 1)
    if not low < high:
        raise ValueError(f"payoff_range of {game_text(game)} must be (low, high) with low < high, got {(low, high)!r}")
    return (low, high)


def is_terminal(game, state) -> bool:
    """True when nobody is to move.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=5)
    >>> is_terminal(game, game.state(0, 1)), is_terminal(game, game.state(1, 1))
    (True, False)
    """
    return to_move(game, state) is None


def is_chance(game, state) -> bool:
    """True at a chance node.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> is_chance(ShutTheBox(), frozenset({1, 2})), is_chance(Nim(), start(Nim()))
    (True, False)
    """
    return game.to_move(state) is CHANCE


def sample_outcome(game, state, rng, tables=None):
    """Draw a chance outcome at ``state`` with ``rng``; ``tables``: a dict the caller keeps its draw tables in.

    >>> import random
    >>> from fnmcts.games import ShutTheBox
    >>> rng, tables = random.Random(1), {}
    >>> [sample_outcome(ShutTheBox(), frozenset({1, 2}), rng, tables) for _ in range(5)], len(tables)
    ([4, 10, 9, 5, 7], 1)
    """
    sampler = getattr(game, "sample_outcome", None)
    if sampler is None or getattr(sampler, "__func__", None) is GameBase.sample_outcome:
        return _drawn(game, state, rng, tables)
    return sampler(state, rng)


def legal_move(game, state, move) -> bool:
    """True when ``move`` is one of the possible moves at ``state``.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> legal_move(game, start(game), 3), legal_move(game, start(game), 4)
    (True, False)
    """
    return move in game.possible_moves(state)


def state_to_json(game, state):
    """A JSON-ready form of ``state`` (a game without the hook: the default).

    >>> from fnmcts.games import Nim
    >>> state_to_json(Nim(heap=5), start(Nim(heap=5)))
    {'heap': 5, 'player': 1}
    """
    own = getattr(game, "state_to_json", None)
    return _to_json(state) if own is None else own(state)


def json_player(data: dict, keys: tuple, what: str = "a state") -> int:
    """The player to move in a state's JSON form ``data`` (numbered from 1, default 1), as an index from 0.

    JSON output numbers players from 1, as every text does; ``data`` may hold
    no key outside ``keys`` (a misspelt key is an error, not ignored).

    >>> json_player({"heap": 5, "player": 2}, ("heap", "player"))
    1
    >>> json_player({"heap": 5, "plyer": 2}, ("heap", "player"), "a Nim state")
    Traceback (most recent call last):
    ...
    ValueError: a Nim state has no 'plyer': its keys are heap, player
    """
    unknown = sorted(map(str, set(data) - set(keys)))
    if unknown:
        raise ValueError(f"{what} has no {', '.join(map(repr, unknown))}: its keys are {', '.join(keys)}")
    player = data.get("player", 1)
    if player not in (1, 2) or isinstance(player, bool):
        raise ValueError(f"the player to move is 1 or 2 (numbered from 1), got {player!r}")
    return player - 1


def state_from_json(game, data):
    """The state whose JSON form is ``data`` (a game without the hook: the default).

    >>> from fnmcts.games import Nim
    >>> state_from_json(Nim(heap=5), {"heap": 5, "player": 1}) == start(Nim(heap=5))
    True
    """
    own = getattr(game, "state_from_json", None)
    return _from_json(data) if own is None else own(data)


def describe_move(game, state, move) -> str:
    """A short human description of ``move`` at ``state``.

    The game's ``describe_move`` when it has one, else ``str(move)``.

    >>> from fnmcts.games import Nim
    >>> describe_move(Nim(), start(Nim()), 2), describe_move(object(), None, 2)
    ('take 2', '2')
    """
    describe = getattr(game, "describe_move", None)
    return describe(state, move) if describe else str(move)


def transcript_line(game, player, move, after, before=None) -> str:
    """The transcript line for ``player`` (0-based, or ``CHANCE``) playing ``move`` at ``before`` to reach ``after``.

    Chance: "Chance: <outcome>."; a player: the game's own ``transcript_line``
    hook, else "Player N: <describe_move(before, move)>." (``describe_move``
    gets the state the move was played at, as the protocol documents it).

    >>> from fnmcts.games import Nim, Piles
    >>> transcript_line(Nim(), 0, 3, Nim().state(18, 1))
    'Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.'
    >>> transcript_line(Piles(), 1, (2, 4), Piles().state((1, 3, 1, 7)))
    'Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7.'
    >>> class Roll(GameBase):
    ...     def describe_move(self, state, move):
    ...         return f"keep the {state['roll']}"
    >>> transcript_line(Roll(), 0, "keep", {"roll": 6}, before={"roll": 5})
    'Player 1: keep the 5.'
    """
    if player is CHANCE:
        return f"Chance: {move}."
    own = getattr(game, "transcript_line", None)
    if own is not None and getattr(own, "__func__", None) is not GameBase.transcript_line:
        return own(player, move, after)
    return f"Player {player + 1}: {describe_move(game, before, move)}."


def _refuse_class(game) -> None:
    """A ``TypeError`` for a game's class given where a game is meant (``DiceRace`` for ``DiceRace()``).

    Its methods would be called without ``self`` and fail far from the cause
    (``start() missing 1 required positional argument: 'self'``). A class whose
    ``start`` is a static or class method works as a game and passes.

    >>> from fnmcts.games import Nim
    >>> _refuse_class(Nim)
    Traceback (most recent call last):
    ...
    TypeError: game must be a game value, not the class Nim: make one, Nim() (with its parameters, if any)
    >>> _refuse_class(Nim())
    """
    import inspect
    import types

    if isinstance(game, type) and isinstance(inspect.getattr_static(game, "start", None), types.FunctionType):
        given: type = game  # a class, not a game: its name is no hook of the protocol
        name = given.__qualname__
        raise TypeError(f"game must be a game value, not the class {name}: make one, {name}() (with its parameters, if any)")


def check_state(game, state):
    """``state`` if ``game`` can tell who moves there, else a ``ValueError`` naming both.

    For the entry points (solve, simulate, search, play_game): a state of
    another game, or no state at all, fails here with a clear message rather
    than deep inside an algorithm. A game may define its own ``check_state``
    (returning the state, perhaps normalised, or raising); it is used instead.

    >>> from fnmcts.games import Nim, Piles
    >>> check_state(Nim(), Piles().start())
    Traceback (most recent call last):
    ...
    ValueError: a Nim state is pmap(heap=n, player=0 or 1), got pmap({...})
    """
    if game is None or not hasattr(game, "to_move"):
        raise TypeError(f"game must implement the fnmcts game protocol, got {game!r}")
    _refuse_class(game)
    own = getattr(game, "check_state", None)
    if own is not None:  # the game's own check names the problem best
        return own(state)
    try:
        hash(state)
    except TypeError as problem:  # the game's own start, say: name the reason, not only the value
        raise ValueError(f"not a state of {game_text(game)}: {state!r} is not hashable ({problem}); a state is an immutable "
                         f"value (a tuple, a frozenset, a pmap...)") from None
    try:
        game.to_move(state)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as problem:
        raise ValueError(f"not a state of {game_text(game)}: {state!r} (to_move raised {type(problem).__name__}: "
                         f"{problem})") from None
    odd = _unlike_start(game, state)
    if odd:
        raise ValueError(f"not a state of {game_text(game)}: {state!r} {odd}")
    return state


def _kind(value) -> str | None:
    """``"a set"``, ``"a tuple"`` or ``"a map"``: the containers a JSON form can mix up; ``None`` for the rest."""
    if isinstance(value, (frozenset, set)):
        return "a set"
    if isinstance(value, Mapping):
        return "a map"
    return "a tuple" if isinstance(value, (tuple, list)) else None


def _unlike(value, like, where: str) -> str:
    """Where ``value`` holds another container than ``like`` does, inside tuples and maps of the same shape; ``""``."""
    if _kind(value) == "a tuple" == _kind(like) and len(value) == len(like):
        pairs = [(f"{where}[{i}]", v, w) for i, (v, w) in enumerate(zip(value, like))]
    elif _kind(value) == "a map" == _kind(like) and set(value) == set(like):
        pairs = [(f"{where}[{k!r}]", value[k], like[k]) for k in like]
    else:
        return ""
    for at, v, w in pairs:
        if None is not _kind(v) != _kind(w) is not None:
            return f"holds {_kind(v)} at {at}, {v!r}, where the start holds {_kind(w)}, {w!r}"
        found = _unlike(v, w, at)
        if found:
            return found
    return ""


def _unlike_start(game, state) -> str:
    """Why ``state`` cannot be a state of ``game``: a part that is a tuple where its start has a set, say; else ``""``.

    A JSON form writes a set as ``{"set": [...]}``; a list is read as a tuple,
    which a game's ``play`` then fails on far from the cause. Only the parts
    inside tuples and maps shaped like the start's are compared.

    >>> class Draw(GameBase):
    ...     def start(self): return (frozenset(), 0)
    >>> _unlike_start(Draw(), ((), 0))
    'holds a tuple at [0], (), where the start holds a set, frozenset()'
    >>> _unlike_start(Draw(), (frozenset({1}), 1))
    ''
    """
    try:
        begin = game.start()
    except Exception:  # noqa: BLE001 (a game failing at its start: the search that follows names it)
        return ""
    return _unlike(state, begin, "")


# -- the optional hooks as data-first functions -----------------------------------


def _hook(game, name):
    """The game's own method ``name``, else the default of ``GameBase`` bound to ``game``."""
    own = getattr(game, name, None)
    if own is not None:
        return own
    return getattr(GameBase, name).__get__(game)


def _whole_at_least(name, value, low) -> int:
    """``value`` if it is a whole number (not a bool) of at least ``low``, else the error that names ``name``.

    >>> _whole_at_least("heap", 3, 0)
    3
    >>> _whole_at_least("heap", -1, 0)
    Traceback (most recent call last):
    ...
    ValueError: heap must be at least 0, got -1
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


def _state_text(text) -> str:
    """``text`` stripped, if it is a string, else a ``TypeError``: every ``parse_state`` starts here.

    >>> _state_text(" 21 ")
    '21'
    >>> _state_text(21)
    Traceback (most recent call last):
    ...
    TypeError: a state is written as text, got int
    """
    if not isinstance(text, str):
        raise TypeError(f"a state is written as text, got {type(text).__name__}")
    return text.strip()


def _state_json(text: str, forms: str = ""):
    """The JSON value written as ``text`` (a state's JSON form), or a ``ValueError`` naming it and ``forms``.

    >>> _state_json("[1, 2]")
    [1, 2]
    >>> _state_json("[1,", "9 cells")
    Traceback (most recent call last):
    ...
    ValueError: bad JSON state '[1,': Expecting value; write 9 cells
    """
    try:
        return json.loads(text.strip())
    except json.JSONDecodeError as error:
        raise ValueError(f"bad JSON state {text!r}: {error.msg}{f'; write {forms}' if forms else ''}") from None


def _parse_json_state(game, text: str):
    """The state whose JSON form is written as ``text``, or a ``ValueError`` saying so, with the start's form to copy.

    >>> class Race(GameBase):
    ...     def start(self): return ((0, 0), 0)
    >>> _parse_json_state(Race(), '{"a": 1}')
    Traceback (most recent call last):
    ...
    ValueError: unknown JSON state form: {'a': 1}; write a Race state in its JSON form, such as the start's [[0,0],0]
    """
    if not _state_text(text).startswith(("{", "[")):
        raise ValueError(f"write a {type(game).__name__} state in its JSON form{_json_example(game)}, got {text!r}")
    data = _state_json(text)
    try:
        state = state_from_json(game, data)
    except ValueError as error:
        if not str(error).startswith("unknown JSON state form"):
            raise
        raise ValueError(f"{error}; write a {type(game).__name__} state in its JSON form{_json_example(game)}") from None
    odd = _unlike_start(game, state)
    if odd:  # a list where the start has a set ({"set": [...]}): refused here, not in the game's play
        raise ValueError(f"{text.strip()} reads as {state!r}, which {odd}; write a {type(game).__name__} state "
                         f"in its JSON form{_json_example(game)}")
    return state


def _json_example(game) -> str:
    """``", such as the start's [...]"``: the JSON form of the game's start, to copy; else what the game lacks."""
    try:
        start_json = state_to_json(game, game.start())
    except _NoJsonForm:
        return f" (its states have no JSON form by default{_OWN_JSON})"
    except Exception:  # noqa: BLE001 (a game failing at its start: the walk that follows names it, not this example)
        return ""
    return f", such as the start's {json.dumps(start_json, separators=(',', ':'))}"


def _parse_choice_move(game, state, text: str):
    """The move typed as a choice number (from 1) or as its description, or a ``ValueError``."""
    if not isinstance(text, str):
        raise TypeError(f"a move is typed as text, got {type(text).__name__}")
    moves = possible_moves(game, state)
    if not moves:
        raise ValueError(f"nobody has a move at {state!r}")
    typed = text.strip()
    if typed.isdigit() and 1 <= int(typed) <= len(moves):
        return moves[int(typed) - 1]
    for move in moves:
        if describe_move(game, state, move) == typed:
            return move
    choices = "; ".join(f"{i}) {describe_move(game, state, m)}" for i, m in enumerate(moves, 1))
    raise ValueError(f"type a number from 1 to {len(moves)} or a move as written: {choices}")


def parse_state(game, text: str):
    """The state of ``game`` written as ``text`` (the CLI's ``--state``).

    The game's ``parse_state`` hook, else its JSON form; a ``ValueError`` names
    a bad text. The state is not checked against the start: see ``check_reachable``.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> parse_state(Nim(), "18") == Nim().state(18)
    True
    >>> sorted(parse_state(ShutTheBox(), '{"box": [1, 2]}'))
    [1, 2]
    >>> parse_state(Nim(), "١٠")  # Python's int() reads other scripts' digits: a state is written 0-9
    Traceback (most recent call last):
    ...
    ValueError: '١٠' holds digits other than 0-9: write numbers with the digits 0-9
    """
    _ascii_digits(text)
    return _hook(game, "parse_state")(text)


def _ascii_digits(text) -> None:
    """A ``ValueError`` when ``text`` holds decimal digits of another script (``int`` would read ``'١٠'`` as 10)."""
    if isinstance(text, str) and any(ch.isdecimal() and not ch.isascii() for ch in text):
        raise ValueError(f"{text!r} holds digits other than 0-9: write numbers with the digits 0-9")


def check_reachable(game, state):
    """``state`` if play from the start of ``game`` can reach it, else a ``ValueError``.

    The game's ``check_reachable`` hook (Nim: no more than the starting heap;
    piles: as many piles, none larger), else ``check_state``.

    >>> from fnmcts.games import Nim
    >>> check_reachable(Nim(heap=21), Nim().state(30))
    Traceback (most recent call last):
    ...
    ValueError: heap 30 is more than Nim(heap=21, max_take=3, misere=True) starts with (21): play cannot reach it
    """
    return _hook(game, "check_reachable")(state)


def parse_move(game, state, text: str):
    """The move at ``state`` typed by a person as ``text``, or a ``ValueError`` telling what to type.

    The game's ``parse_move`` hook, else a choice number from 1 (in move order)
    or the text of ``describe_move``.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> parse_move(Nim(), Nim().state(5), " 2 ")
    2
    >>> state = ShutTheBox().play(ShutTheBox().start(), 4)
    >>> sorted(parse_move(ShutTheBox(), state, "flip 1 3"))
    [2, 4, 5, 6, 7, 8, 9]
    """
    _ascii_digits(text)
    return _hook(game, "parse_move")(state, text)


def render(game, state) -> str:
    """A picture of ``state`` for a person: the game's ``render`` hook, else its JSON form.

    >>> from fnmcts.games import Nim
    >>> render(Nim(), Nim().state(5))
    'There are 5 matchstick(s). Take 1-3.'
    """
    return _hook(game, "render")(state)


def q_key(game, state):
    """The key of ``state`` in a Q table (Nim: ``(heap,)``; piles: the pile sizes; else the state).

    >>> from fnmcts.games import Nim, Piles
    >>> q_key(Nim(), Nim().state(7, 1)), q_key(Piles(), Piles().start())
    ((7,), (1, 3, 5, 7))
    """
    return _hook(game, "q_key")(state)


def state_from_q_key(game, key):
    """A state of ``game`` whose Q table key is ``key``, or a ``ValueError`` for a key play cannot reach.

    >>> from fnmcts.games import Nim
    >>> state_from_q_key(Nim(heap=9), (7,)) == Nim().state(7)
    True
    """
    return _hook(game, "state_from_q_key")(key)


def q_key_to_json(game, key):
    """The JSON form of a Q table key (Nim, piles: a list of numbers; else the state's JSON).

    >>> from fnmcts.games import Nim
    >>> q_key_to_json(Nim(), (7,))
    [7]
    """
    return _hook(game, "q_key_to_json")(key)


def q_key_from_json(game, data):
    """The Q table key whose JSON form is ``data``, or a ``ValueError``.

    >>> from fnmcts.games import Piles
    >>> q_key_from_json(Piles(), [1, 0, 2, 7])
    (1, 0, 2, 7)
    """
    return _hook(game, "q_key_from_json")(data)


def may_repeat(game) -> bool:
    """True when ``game`` says play can come back to a state seen before (its ``may_repeat`` hook).

    >>> from fnmcts.games import Nim
    >>> may_repeat(Nim()), may_repeat(object())
    (False, False)
    """
    _refuse_class(game)
    own = getattr(game, "may_repeat", None)
    return bool(own()) if own is not None else False


def _class_name(kind) -> str:
    """``TakeAway`` -> ``take-away``: the class's name in lower case, words joined by ``-``."""
    import re

    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", kind.__name__).lower()


def game_name(game) -> str:
    """The name of ``game`` in saved files and at the command line: its ``name``, else one made from its class.

    >>> from fnmcts.games import TicTacToe
    >>> class TakeAway:
    ...     pass
    >>> game_name(TicTacToe()), game_name(TakeAway()), game_name(type("HTTPGame", (), {})())
    ('tic-tac-toe', 'take-away', 'http-game')
    """
    own = getattr(game, "name", None)
    return own if isinstance(own, str) and own else _class_name(type(game))


def symmetries(game, state) -> tuple:
    """The images of ``state`` under the symmetries of ``game`` (its ``symmetries`` hook), ``state`` among them.

    >>> from fnmcts.games import Nim
    >>> symmetries(Nim(), 5)
    (5,)
    """
    return _hooked(getattr(game, "symmetries", None), state)


def components(game, state) -> tuple:
    """The independent parts of ``state`` (its game's ``components`` hook), or ``(state,)``.

    >>> from fnmcts.games import Nim
    >>> components(Nim(), 5)
    (5,)
    """
    return _hooked(getattr(game, "components", None), state)


def _hooked(own, state) -> tuple:
    """What a game's hook ``own`` gives for ``state``, as a tuple, or ``(state,)`` when the game has no such hook."""
    return tuple(own(state)) if own is not None else (state,)


def game_to_json(game) -> dict:
    """A game value as JSON: its ``name`` and its parameters (the fields of a frozen dataclass).

    >>> from fnmcts.games import Nim, Piles
    >>> game_to_json(Nim(heap=5))
    {'name': 'nim', 'heap': 5, 'max_take': 3, 'misere': True}
    >>> game_to_json(Piles((1, 2)))
    {'name': 'piles', 'piles': [1, 2], 'misere': True}
    """
    if not is_dataclass(game) or isinstance(game, type):
        raise ValueError(f"{game!r} cannot be written as JSON: a game is a dataclass (its fields are its parameters)")
    return {"name": game_name(game)} | {f.name: _to_json(getattr(game, f.name)) for f in fields(game) if f.init}


def game_from_json(data, games):
    """The game value ``data`` (``game_to_json``'s form) names, its class looked up in ``games`` by name.

    A malformed object, an unknown name or bad parameters are a ``ValueError`` that says which.

    >>> from fnmcts.games import GAMES, Nim
    >>> game_from_json(game_to_json(Nim(heap=5)), GAMES) == Nim(heap=5)
    True
    >>> game_from_json({"name": "nim", "heap": -1}, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: bad parameters for game 'nim': ...
    """
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError(f"'game' must be an object with a 'name', got {data!r}")
    kind = games.get(data["name"])
    if kind is None:
        raise ValueError(
            f"unknown game {data['name']!r}; known: {', '.join(sorted(games))}; a game of your own is passed "
            f"by its name: games={{..., {data['name']!r}: YourGame}} (at the command line: --game module:attribute)"
        )
    params = {k: _from_json(v) for k, v in data.items() if k != "name"}
    try:
        return kind(**params)
    except (TypeError, ValueError) as error:
        raise ValueError(f"bad parameters for game {data['name']!r}: {error}") from None
