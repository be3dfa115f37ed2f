"""The options of a search, one value: ``SearchOptions``, filled by ``search_options``.

``search``, ``mcts_move``, ``mcts_agent`` (and ``uct``, one dive) take the same options, and the command line
spells them the same way (its help reads the table below). ``search_options`` is the one place the defaults are
chosen (docs/search-options.md). The tutorial's rule comes with the tutorial's dive: with ``rule='tutorial'`` (or
``ucb``) the solver is off unless asked for and the backup is the mean, so ``search(..., rule=ucb)`` grows exactly
the tutorial's tree.

=========  ==================================================================
``rule``   the selection rule: ``'ucb1'`` (with ``c``), ``'tutorial'`` or
           ``'ucb'`` (the tutorial's ucb, with ``z``), or a function of a
           record ``rule(record, parent_visits=N)`` (``functools.partial`` of
           ``ucb1`` or ``ucb`` runs on the engine's inline loops)
``c``      UCB1's exploration constant (default ``sqrt(2)``); only with ``'ucb1'``
``z``      the tutorial's confidence multiplier (default 2); only with ``'tutorial'``
``backup`` ``'mean'`` (the results' mean), ``'expectimax'`` or ``'graph'``
           (the children's values weighted by edge visits)
``solver`` MCTS-Solver: prove values, stop at proven states
``rollout`` the playout agent, or by name: ``'random'`` (uniformly random
           moves) or ``'decisive'`` (``decisive_agent``: a winning move, else
           one that leaves no win at once, Teytaud and Teytaud 2010); ``None``:
           the kind's (``'decisive'`` in a game of two players without chance
           whose compiled rules play them, ``kind_defaults``; else random)
``final``  how ``mcts_move`` chooses the root move: ``'visits'`` or ``'mean'``
``root``   a rule of the root's own: ``None`` (the selection rule there too)
           or ``'gumbel'``, sequential halving with Gumbel noise over the
           search's dives (``fnmcts.mcts.enhancements``); the move played is
           then the halving's choice
``rave``   RAVE / GRAVE: ``None`` (the kind's: ``RAVE_K``, 100, in a large game
           of two players without chance; ``AGAIN_RAVE_K``, 3000, with ``c``
           ``AGAIN_C``, 0.7, in one where a player may move twice running), ``False`` (off) or the equivalence
           parameter ``k`` of the blend of a child's mean with its move's
           all-moves-as-first mean, ``beta = sqrt(k / (3n + k))``; UCB1 only
``rave_ref`` GRAVE's threshold: the AMAF statistics read are those of the
           nearest state of the path (from the one deciding up) with at least
           this many visits (0: the deciding state's own, plain RAVE)
``bounds`` score bounds: every state keeps a pessimistic and an optimistic
           bound of its exact value; children that cannot do better are
           pruned, a state whose bounds meet is solved
``proofs`` shallow proofs: 0 (off) or a depth ``d`` in plies; a state (but
           the root) where a player forces a win within ``d`` plies is an
           end with that value for the dives and the playouts
           (``fnmcts.mcts.enhancements.shallow_proof``; one or two players,
           zero-sum); ``PROOFS`` (4) by default in a game without chance
           that offers its states as tables, kept and worked out on them
=========  ==================================================================

>>> search_options()
SearchOptions(rule='ucb1', c=1.4142135623730951, z=2, backup='mean', solver=True, rollout=None, final='visits', root=None, rave=None, rave_ref=0, bounds=False, proofs=0)
>>> from fnmcts.games.shut_the_box import ShutTheBox
>>> search_options(ShutTheBox())
SearchOptions(rule='ucb1', c=1.0, z=2, backup='expectimax', solver=True, rollout=None, final='visits', root=None, rave=None, rave_ref=0, bounds=False, proofs=0)
>>> search_options(ShutTheBox(), rule='tutorial').backup
'mean'
>>> search_options(rule='tutorial', z=1.5).solver, search_options(rule='tutorial', solver=True).solver
(False, True)
>>> search_options(rule='tutorial', c=0.5)
Traceback (most recent call last):
...
ValueError: c is the constant of rule='ucb1'; the tutorial's rule takes z
"""

from __future__ import annotations

import math
import random
from functools import lru_cache, partial
from numbers import Real
from typing import NamedTuple

from pyrsistent import field

from ..protocol import CHANCE, payoff_range, sample_outcome
from ..rng import pick
from ..values import FixedRecord
from ._records import RULES, builtin_rule, ucb, ucb1
from .enhancements import SequentialHalving, _per_game, decisive_agent
from .phases import BACKUPS

__all__ = [
    "SearchOptions",
    "search_options",
    "OPTION_NAMES",
    "BACKUPS",
    "DEFAULT_C",
    "CHANCE_C",
    "RIVALS_CHANCE_C",
    "DEFAULT_Z",
    "ROOT_RULES",
    "GameKind",
    "game_kind",
    "kind_defaults",
    "PROOFS",
    "RAVE_K",
    "AGAIN_RAVE_K",
    "AGAIN_C",
    "ROLLOUTS",
]

DEFAULT_C = math.sqrt(2)
"""UCB1's exploration constant unless ``c`` is given (a game without chance)."""

CHANCE_C = 1.0
"""UCB1's exploration constant in a one-player game with chance unless ``c`` is given (with the expectimax backup).

Chosen on graded dice games and generated games (docs/scoreboard.md, "The one-player chance constant")."""

RIVALS_CHANCE_C = 0.5
"""UCB1's exploration constant in a game of two or more players with chance unless ``c`` is given (with the expectimax backup)."""

DEFAULT_Z = 2
"""The tutorial's ucb multiplier unless ``z`` is given (about 95% confidence)."""

PROOFS = 4
"""The depth of the shallow proofs unless ``proofs`` is given, in a game without chance of one or two players that
offers its states as tables (``compiled_graph()``); 0 (none) in any other game (``kind_defaults``)."""

RAVE_K = 100
"""RAVE's ``k`` unless ``rave`` is given, in a game of two players without chance whose ``compiled_graph()`` declines
(too large to hold: OpenSpiel's connect_four, hex...); off in any other (``kind_defaults``; docs/scoreboard.md's ladder)."""

AGAIN_RAVE_K = 3000
"""RAVE's ``k`` unless ``rave`` is given, in a game of the kind ``RAVE_K`` serves where a player may move twice running
(``GameKind.again``: dots and boxes, a box closed): its own counts lean on the moves' AMAF statistics longer
(docs/scoreboard.md's ladder)."""

AGAIN_C = 0.7
"""UCB1's exploration constant unless ``c`` is given, in a game of the kind ``AGAIN_RAVE_K`` serves."""

ROLLOUTS = ("random", "decisive")
"""The playouts by name: ``'random'`` (random moves, kept where the kind would take decisive ones; ``None`` in the
engine, ``SearchOptions.playout``) and ``'decisive'`` (``decisive_agent``)."""

FINALS = ("visits", "mean")

ROOT_RULES = ("gumbel",)
"""Root rules by name: ``'gumbel'``, sequential halving with Gumbel noise (``fnmcts.mcts.enhancements``)."""

OPTION_NAMES = ("rule", "c", "z", "backup", "solver", "rollout", "final", "root", "rave", "rave_ref", "bounds", "proofs")
"""The names of the options every way into a search takes."""


class SearchOptions(FixedRecord):
    """The options of one search, complete and checked (make one with ``search_options``).

    ``selection()`` is the rule as a function of a record, with its constant bound.

    >>> options = search_options(rule='ucb1', c=0.2)
    >>> options.selection()
    functools.partial(<function ucb1 at ...>, c=0.2)
    >>> options.set(c=0.5).c
    0.5
    """

    rule = field(mandatory=True)
    c = field(mandatory=True)
    z = field(mandatory=True)
    backup = field(mandatory=True)
    solver = field(mandatory=True)
    rollout = field(mandatory=True)
    final = field(mandatory=True)
    root = field(initial=None)
    rave = field(type=(int, float, type(None)), initial=None)
    """RAVE's equivalence parameter ``k`` (a number >= 0; None: RAVE off): ``beta = sqrt(k / (3n + k))``."""
    rave_ref = field(type=int, initial=0)
    """GRAVE's threshold (a whole number >= 0): the AMAF statistics of the nearest state on the path with this many visits."""
    bounds = field(type=bool, initial=False)
    """Score bounds (True or False): pessimistic and optimistic bounds of every state's exact value, pruning and solving."""
    proofs = field(type=int, initial=0)
    """Shallow proofs' depth in plies (0: off): a state where a player forces a win within it ends a dive or playout."""

    def playout(self):
        """The playout agent the engine runs: ``rollout``, None for random moves (``'random'`` or None).

        >>> search_options(rollout='random').playout(), search_options(rollout='decisive').playout().__name__
        (None, 'decisive_agent')
        """
        return None if self.rollout == "random" else self.rollout

    def selection(self):
        """The rule as a function of a record: ``partial(ucb1, c=c)``, ``partial(ucb, z=z)`` or the given function."""
        if isinstance(self.rule, str):
            return _bound(ucb1, "c", self.c) if RULES[self.rule] is ucb1 else _bound(ucb, "z", self.z)
        return self.rule

    def builtin(self):
        """``('ucb1', c)`` or ``('ucb', z)``: the built-in rule and the constant bound here once, which the engine rates inline.

        >>> search_options(c=0.5).builtin(), search_options(rule='tutorial').builtin(), search_options(rule=max).builtin()
        (('ucb1', 0.5), ('ucb', 2), None)
        """
        if isinstance(self.rule, str):
            return ("ucb1", self.c) if RULES[self.rule] is ucb1 else ("ucb", self.z)
        return builtin_rule(self.rule)

    def rave_args(self):
        """``(k, rave_ref, c)`` for the engine when RAVE is on, else None.

        >>> search_options(rave=30, c=0.5).rave_args(), search_options().rave_args()
        ((30, 0, 0.5), None)
        """
        if self.rave is None:
            return None
        return (self.rave, self.rave_ref, self.builtin()[1])

    def is_tutorial(self) -> bool:
        """Whether the rule is the tutorial's ``ucb`` (by name, as the function, or a partial of it)."""
        return _rule_kind(self.rule) == "tutorial"


@lru_cache(maxsize=256)
def _bound(rule, name, value):
    """``partial(rule, name=value)``, one object for equal arguments (so equal options give equal values).

    >>> _bound(ucb1, "c", 0.5) is _bound(ucb1, "c", 0.5)
    True
    """
    return partial(rule, **{name: value})


def _rule_kind(rule):
    """``'ucb1'``, ``'tutorial'`` or None (another function) for a rule."""
    if isinstance(rule, str):
        return "ucb1" if RULES[rule] is ucb1 else "tutorial"
    func = rule.func if isinstance(rule, partial) and not rule.args else rule
    return "ucb1" if func is ucb1 else "tutorial" if func is ucb else None


def _check_constant(name, value):
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be a finite number, 0 or more, got {value!r}")
    return value


# -- the kind of game: what the defaults depend on ---------------------------------------

PROBE_GAMES = 16
"""Random games ``game_kind`` plays from the start to see what kind of game it is."""

PROBE_PLIES = 400
"""The most plies ``game_kind`` follows in one random game (a game whose states repeat may not end)."""


class GameKind(NamedTuple):
    """What ``game_kind`` saw of a game in a few random games: chance, ends neither won nor lost, a player moving again.

    ``chance``: a chance state (dice, cards) came up; ``between``: a game
    ended with a payoff neither the best nor the worst there is for a player
    (a draw, or a graded score); ``players``: the players seen to move;
    ``again``: in a game of more than one player, a player moved twice running,
    no chance between (dots and boxes: a box closed; the turns do not strictly
    alternate).

    >>> from fnmcts.games import TicTacToe
    >>> kind = game_kind(TicTacToe())
    >>> kind.chance, kind.between, kind.players, kind.again
    (False, True, 2, False)
    """

    chance: bool
    between: bool
    players: int
    again: bool = False


def game_kind(game) -> GameKind:
    """The kind of ``game`` as a few seeded random games from its start show it (``GameKind``).

    ``PROBE_GAMES`` uniformly random games from ``game.start()`` of at most ``PROBE_PLIES`` plies, with a
    generator of its own (seed 0: the same answer every time, the caller's ``rng`` untouched): a game whose chance
    never comes up in them is taken for one without. Remembered for the last 128 games that hash.

    >>> from fnmcts.games import Nim, Pig, TicTacToe
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> game_kind(Nim()), game_kind(TicTacToe())
    (GameKind(chance=False, between=False, players=2, again=False), GameKind(chance=False, between=True, players=2, again=False))
    >>> game_kind(Pig(goal=30)).chance, game_kind(ShutTheBox())
    (True, GameKind(chance=True, between=False, players=1, again=False))
    """
    return _probe(game)


@_per_game(128)
def _probe(game) -> GameKind:
    rng = random.Random(0)
    low, high = payoff_range(game)
    chance = between = again = False
    players = set()
    start = game.start()
    for _ in range(PROBE_GAMES):
        state, last = start, None  # (the player who made the last decision, no chance since)
        for _ in range(PROBE_PLIES):
            player = game.to_move(state)
            if player is None:
                between = between or any(low < p < high for p in game.payoff(state))
                break
            if player is CHANCE:
                chance, last = True, None
                state = game.play(state, sample_outcome(game, state, rng))
            else:
                players.add(player)
                again = again or player == last
                moves = tuple(game.possible_moves(state))
                state, last = game.play(state, pick(rng, moves)), player
    return GameKind(chance, between, len(players), again and len(players) > 1)


def kind_defaults(game) -> dict:
    """The defaults ``search_options`` takes for ``game`` beyond the ones every game shares (its kind's).

    Which defaults each kind of game takes (``CHANCE_C``, ``RIVALS_CHANCE_C``, ``PROOFS``): docs/search-options.md;
    the figures: docs/scoreboard.md.

    >>> from fnmcts.games import Nim, Pig
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> kind_defaults(ShutTheBox()), kind_defaults(Pig(goal=30))
    ({'c': 1.0, 'backup': 'expectimax'}, {'c': 0.5, 'backup': 'expectimax'})
    >>> kind_defaults(Nim()), kind_defaults(None)
    ({}, {})
    >>> from fnmcts.openspiel import from_openspiel
    >>> kind_defaults(from_openspiel("tic_tac_toe")), kind_defaults(from_openspiel("hex(board_size=8)"))
    ({'proofs': 4}, {'rave': 100})
    >>> kind_defaults(from_openspiel("connect_four"))["rollout"].__name__  # (its compiled rules play them)
    'decisive_agent'
    >>> defaults = kind_defaults(from_openspiel("dots_and_boxes(num_rows=3,num_cols=3)"))  # (a box closed: again)
    >>> defaults["rave"], defaults["c"]
    (3000, 0.7)

    """
    if game is None or not hasattr(game, "start"):
        return {}
    try:
        kind = game_kind(game)
    except Exception:  # a game the probe cannot play from its start: the shared defaults
        return {}
    if kind.chance:
        return {"c": CHANCE_C if kind.players < 2 else RIVALS_CHANCE_C, "backup": "expectimax"}
    players, tables = getattr(game, "num_players", 1), _offers_tables(game)
    if players <= 2 and tables:
        return {"proofs": PROOFS}
    if players == 2 and tables is None:
        rave = {"rave": AGAIN_RAVE_K, "c": AGAIN_C} if kind.again else {"rave": RAVE_K}
        return {**rave, "rollout": decisive_agent} if _decisive_rules(game) else rave
    return {}


@_per_game(128)
def _decisive_rules(game) -> bool:
    """Whether ``game``'s compiled rules (``compiled_rules()``) play decisive playouts in machine code (their
    ``decisive``): there they cost a dive a few tenths more, where through the protocol they cost each playout step
    a play of every move. Remembered for a game that hashes."""
    own = getattr(game, "compiled_rules", None)
    if own is None:
        return False
    try:
        rules = own()
    except Exception:  # a hook that fails: the search says so where it reads it
        return False
    return rules is not None and getattr(rules, "decisive", None) is not None


@_per_game(128)
def _offers_tables(game):
    """Whether ``game``'s ``compiled_graph()`` hook gives its tables: True, False (no hook, or one that fails) or
    None (the hook declines: the game says it is too large to hold). Remembered for a game that hashes."""
    own = getattr(game, "compiled_graph", None)
    if own is None:
        return False
    try:
        tables = own()
    except Exception:  # a hook that fails: no tables (the search then walks the game through the protocol)
        return False
    if tables is None:
        return None
    return hasattr(tables, "kinds") and hasattr(tables, "index")


def search_options(game=None, options=None, **given) -> SearchOptions:
    """The options of a search: ``given`` over ``options`` (a ``SearchOptions``), the defaults for the rest.

    ``game`` is the game searched: the defaults depend on its kind
    (``kind_defaults``; None: a game without chance). Every option is checked
    here: an unknown name is a TypeError naming it, a bad value a
    TypeError or ValueError naming the option.

    >>> search_options(rule='tutorial')
    SearchOptions(rule='tutorial', c=1.4142135623730951, z=2, backup='mean', solver=False, rollout=None, final='visits', root=None, rave=None, rave_ref=0, bounds=False, proofs=0)
    >>> search_options(search_options(), c=0.5)
    Traceback (most recent call last):
    ...
    TypeError: search_options(game=None, options=None, **options): the game comes first, got SearchOptions(...) there
    >>> search_options(None, search_options(c=0.3), backup='expectimax').c
    0.3
    >>> search_options(rulle='ucb1')
    Traceback (most recent call last):
    ...
    TypeError: unknown search option 'rulle': the options are rule, c, z, backup, solver, rollout, final, root, rave, rave_ref, bounds, proofs
    >>> search_options(root='gumbel').root
    'gumbel'
    >>> search_options(rave=30, rave_ref=50).rave_ref
    50
    >>> search_options(rule='tutorial', rave=30)
    Traceback (most recent call last):
    ...
    ValueError: rave blends into UCB1's rating: it needs rule='ucb1' (got rule='tutorial')
    """
    if options is None and not isinstance(game, SearchOptions):  # options given one by one: checked once a value
        rule = given.get("rule", "ucb1")
        by_kind = kind_defaults(game) if isinstance(rule, str) and RULES.get(rule) is ucb1 else None
        try:
            return _checked(DEFAULT_C, DEFAULT_Z, tuple(sorted(by_kind.items())) if by_kind is not None else None,
                            tuple((name, type(value), value) for name, value in given.items()))
        except TypeError as error:  # a value that does not hash (or a bad option: checked again below, named)
            if "unhashable" not in str(error):
                raise
        return _search_options(game, None, given, by_kind)
    return _search_options(game, options, given)


@lru_cache(maxsize=64)
def _checked(default_c, default_z, kind, given) -> SearchOptions:
    """``search_options`` of the options ``given`` one by one, as ``(name, type, value)``, and the kind's defaults.

    A value of what it is given: the kind's defaults (``kind_defaults``,
    None: the rule's own) and the defaults of the module stand for the game.
    """
    return _search_options(None, None, {name: value for name, _, value in given},
                           dict(kind) if kind is not None else {})


def _search_options(game, options, given, by_kind=None) -> SearchOptions:
    if isinstance(game, SearchOptions):
        raise TypeError(
            "search_options(game=None, options=None, **options): the game comes first, got SearchOptions(...) there"
        )
    explicit, given = given, _over(options, given)
    rule = _checked_rule(given.get("rule", "ucb1"))
    kind = _rule_kind(rule)
    named = isinstance(rule, str)
    for name, owner in (("c", "ucb1"), ("z", "tutorial")):
        if explicit.get(name) is not None and not (named and kind == owner):
            raise ValueError(_constant_misplaced(name, rule, kind))
    # the kind's defaults go with UCB1 by name (the default rule); the tutorial's rule keeps
    # the tutorial's dive, and a rule given as a function the plain defaults
    if not (named and kind == "ucb1"):
        by_kind = {}
    elif by_kind is None:
        by_kind = kind_defaults(game)
    c = _check_constant("c", by_kind.get("c", DEFAULT_C) if given.get("c") is None else given["c"])
    z = _check_constant("z", DEFAULT_Z if given.get("z") is None else given["z"])
    backup = given.get("backup") or by_kind.get("backup", "mean")
    if backup not in BACKUPS:
        raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {backup!r}")
    solver = _switch("solver", kind != "tutorial" if given.get("solver") is None else given["solver"])
    rollout = given.get("rollout")
    rollout, final, root = _played(by_kind.get("rollout") if rollout is None else rollout, given.get("final", "visits"),
                                   given.get("root"))
    rave, rave_ref = _rave(given.get("rave", by_kind.get("rave")), given.get("rave_ref"), kind, rule)
    bounds = _switch("bounds", False if given.get("bounds") is None else given["bounds"])
    proofs = given.get("proofs")
    if proofs is None:
        proofs = by_kind.get("proofs", 0)
    elif not _whole(proofs):
        raise ValueError(f"proofs is a depth in plies, a whole number, 0 (off) or more, got {proofs!r}")
    return SearchOptions(rule=rule, c=c, z=z, backup=backup, solver=solver, rollout=rollout, final=final, root=root,
                         rave=rave, rave_ref=rave_ref, bounds=bounds, proofs=proofs)


def _over(options, given) -> dict:
    """The options ``given`` over those of ``options`` (a ``SearchOptions`` or None); a new rule drops the old one's solver and backup."""
    unknown = [name for name in given if name not in OPTION_NAMES]
    if unknown:
        raise TypeError(f"unknown search option {unknown[0]!r}: the options are {', '.join(OPTION_NAMES)}")
    if options is None:
        return dict(given)
    if not isinstance(options, SearchOptions):
        raise TypeError(f"options must be a SearchOptions (from search_options), got {options!r}")
    merged = {**dict(options), **given}
    if "rule" in given:  # a new rule: its own defaults
        for name in ("solver", "backup"):
            if name not in given:
                del merged[name]
    return merged


def _checked_rule(rule):
    """``rule`` if it names a rule (``RULES``) or is a function, else the error that says which."""
    if isinstance(rule, str):
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}: choose from {', '.join(sorted(RULES))}, or give a function")
    elif not callable(rule):
        raise TypeError(f"rule must be a name ({', '.join(sorted(RULES))}) or a function of a record, got {rule!r}")
    return rule


def _played(rollout, final, root) -> tuple:
    """``(rollout, final, root)`` checked: how playouts, the final choice and the root's choices are made."""
    if isinstance(rollout, str):
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r}: choose from {', '.join(map(repr, ROLLOUTS))}, or give an agent")
        rollout = decisive_agent if rollout == "decisive" else rollout
    elif rollout is not None and not callable(rollout):
        raise TypeError(f"rollout must be an agent (game, state, rng) -> move, 'random' or 'decisive', or None for the "
                        f"game kind's, got {rollout!r}")
    if final not in FINALS:
        raise ValueError(f"final must be 'visits' or 'mean', got {final!r}")
    if not (root is None or isinstance(root, SequentialHalving) or (isinstance(root, str) and root in ROOT_RULES)):
        raise ValueError(f"root must be None, one of {', '.join(map(repr, ROOT_RULES))} or a SequentialHalving, got {root!r}")
    return rollout, final, root


def _switch(name, value) -> bool:
    """``value`` if it is True or False, else a TypeError naming the option."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value


def _whole(value) -> bool:
    """Whether ``value`` is a whole number (not a bool), 0 or more."""
    return not isinstance(value, bool) and isinstance(value, int) and value >= 0


def _rave(rave, rave_ref, kind, rule) -> tuple:
    """``(rave, rave_ref)`` checked: RAVE's equivalence parameter (UCB1 only) and GRAVE's threshold (0: none)."""
    if rave is not None:
        if rave is False:  # RAVE off, where the game's kind would take it (``RAVE_K``)
            if rave_ref:
                raise ValueError("rave_ref is GRAVE's threshold: it needs RAVE on (rave=k), got rave=False")
            return None, 0
        _check_constant("rave", rave)
        if kind != "ucb1":
            raise ValueError(f"rave blends into UCB1's rating: it needs rule='ucb1' (got rule={rule!r})")
    if rave_ref is None:
        return rave, 0
    if not _whole(rave_ref):
        raise ValueError(f"rave_ref must be a whole number, 0 or more, got {rave_ref!r}")
    if rave_ref and rave is None:
        raise ValueError("rave_ref is GRAVE's threshold: give rave (the equivalence parameter) too")
    return rave, rave_ref


def _constant_misplaced(name, rule, kind) -> str:
    owner = "rule='ucb1'" if name == "c" else "rule='tutorial'"
    if kind == "tutorial" and isinstance(rule, str):
        return f"{name} is the constant of {owner}; the tutorial's rule takes z"
    if kind == "ucb1" and isinstance(rule, str):
        return f"{name} is the constant of {owner}; UCB1 takes c"
    return (
        f"{name} is the constant of {owner}; a rule given as a function carries its own "
        f"(functools.partial(ucb1, c=...) or functools.partial(ucb, z=...))"
    )
