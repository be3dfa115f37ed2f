"""The options of a search, one value: ``SearchOptions``, filled by ``search_options``.

``search``, ``mcts_move``, ``mcts_agent`` (and ``uct``, one dive) take the same
options with the same meaning, and the command line spells them the same way:

=========  ==================================================================
``rule``   the selection rule: ``'ucb1'`` (with ``c``), ``'tutorial'`` or
           ``'ucb'`` (the tutorial's ucb, with ``z``), or a function of a
           record ``rule(record, parent_visits=N)`` (``functools.partial`` of
           ``ucb1`` or ``ucb`` runs on the engine's inline loops)
``c``      UCB1's exploration constant (default ``sqrt(2)``); only with ``'ucb1'``
``z``      the tutorial's confidence multiplier (default 2); only with ``'tutorial'``
``backup`` ``'mean'`` (the results' mean) or ``'expectimax'``
``solver`` MCTS-Solver: prove values, stop at proven states
``rollout`` the playout agent, ``None`` for uniformly random moves
``final``  how ``mcts_move`` chooses the root move: ``'visits'`` or ``'mean'``
``root``   a rule of the root's own: ``None`` (the selection rule there too)
           or ``'gumbel'``, sequential halving with Gumbel noise over the
           search's dives (``fnmcts.mcts.enhancements``); the move played is
           then the halving's choice
=========  ==================================================================

``search_options(game, **given)`` is the one place the defaults are chosen:
UCB1 with ``c = sqrt(2)``, the mean backup, MCTS-Solver on, random playouts,
the most visited move, no root rule. The tutorial's rule comes with the tutorial's dive: with
``rule='tutorial'`` (or ``ucb``) the solver is off unless asked for, so
``search(game, state, n, rng, rule=ucb)`` grows exactly the tutorial's tree.

>>> search_options()
SearchOptions(rule='ucb1', c=1.4142135623730951, z=2, backup='mean', solver=True, rollout=None, final='visits', root=None)
>>> search_options(rule='tutorial', z=1.5).solver, search_options(rule='tutorial', solver=True).solver
(False, True)
>>> search_options(rule='tutorial', c=0.5)
Traceback (most recent call last):
...
ValueError: c is the constant of rule='ucb1'; the tutorial's rule takes z
"""

from __future__ import annotations

import math
from functools import partial
from numbers import Real

from pyrsistent import field

from ..values import FixedRecord
from ._records import RULES, ucb, ucb1
from .enhancements import SequentialHalving
from .phases import BACKUPS

__all__ = ["SearchOptions", "search_options", "OPTION_NAMES", "BACKUPS", "DEFAULT_C", "DEFAULT_Z", "ROOT_RULES"]

DEFAULT_C = math.sqrt(2)
"""UCB1's exploration constant unless ``c`` is given."""

DEFAULT_Z = 2
"""The tutorial's ucb multiplier unless ``z`` is given (about 95% confidence)."""

FINALS = ("visits", "mean")

ROOT_RULES = ("gumbel",)
"""Root rules by name: ``'gumbel'``, sequential halving with Gumbel noise (``fnmcts.mcts.enhancements``)."""

OPTION_NAMES = ("rule", "c", "z", "backup", "solver", "rollout", "final", "root")
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

    def selection(self):
        """The rule as a function of a record: ``partial(ucb1, c=c)``, ``partial(ucb, z=z)`` or the given function."""
        if isinstance(self.rule, str):
            return partial(ucb1, c=self.c) if RULES[self.rule] is ucb1 else partial(ucb, z=self.z)
        return self.rule

    def is_tutorial(self) -> bool:
        """Whether the rule is the tutorial's ``ucb`` (by name, as the function, or a partial of it)."""
        return _rule_kind(self.rule) == "tutorial"


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


def search_options(game=None, options=None, **given) -> SearchOptions:
    """The options of a search: ``given`` over ``options`` (a ``SearchOptions``), the defaults for the rest.

    ``game`` is the game searched (the defaults may one day depend on its
    kind; today they are the same for every game). Every option is checked
    here: an unknown name is a TypeError naming it, a bad value a
    TypeError or ValueError naming the option.

    >>> search_options(rule='tutorial')
    SearchOptions(rule='tutorial', c=1.4142135623730951, z=2, backup='mean', solver=False, rollout=None, final='visits', root=None)
    >>> search_options(search_options(), c=0.5)
    Traceback (most recent call last):
    ...
    TypeError: search_options(game=None, options=None, **options): the game comes first, got SearchOptions(...) there
    >>> search_options(None, search_options(c=0.3), backup='expectimax').c
    0.3
    >>> search_options(rulle='ucb1')
    Traceback (most recent call last):
    ...
    TypeError: unknown search option 'rulle': the options are rule, c, z, backup, solver, rollout, final, root
    >>> search_options(root='gumbel').root
    'gumbel'
    """
    if isinstance(game, SearchOptions):
        raise TypeError(
            "search_options(game=None, options=None, **options): the game comes first, got SearchOptions(...) there"
        )
    unknown = [name for name in given if name not in OPTION_NAMES]
    if unknown:
        raise TypeError(f"unknown search option {unknown[0]!r}: the options are {', '.join(OPTION_NAMES)}")
    explicit = dict(given)
    if options is not None:
        if not isinstance(options, SearchOptions):
            raise TypeError(f"options must be a SearchOptions (from search_options), got {options!r}")
        given = {**dict(options), **given}
        if "solver" not in explicit and "rule" in explicit:
            del given["solver"]  # a new rule: its own default
    rule = given.get("rule", "ucb1")
    if isinstance(rule, str):
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}: choose from {', '.join(sorted(RULES))}, or give a function")
    elif not callable(rule):
        raise TypeError(f"rule must be a name ({', '.join(sorted(RULES))}) or a function of a record, got {rule!r}")
    kind = _rule_kind(rule)
    named = isinstance(rule, str)
    for name, owner in (("c", "ucb1"), ("z", "tutorial")):
        if explicit.get(name) is not None and not (named and kind == owner):
            raise ValueError(_constant_misplaced(name, rule, kind))
    c = _check_constant("c", DEFAULT_C if given.get("c") is None else given["c"])
    z = _check_constant("z", DEFAULT_Z if given.get("z") is None else given["z"])
    backup = given.get("backup", "mean")
    if backup not in BACKUPS:
        raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {backup!r}")
    solver = given.get("solver")
    if solver is None:
        solver = kind != "tutorial"
    if not isinstance(solver, bool):
        raise TypeError(f"solver must be True or False, got {solver!r}")
    rollout = given.get("rollout")
    if rollout is not None and not callable(rollout):
        raise TypeError(f"rollout must be an agent (game, state, rng) -> move, or None for random moves, got {rollout!r}")
    final = given.get("final", "visits")
    if final not in FINALS:
        raise ValueError(f"final must be 'visits' or 'mean', got {final!r}")
    root = given.get("root")
    if not (root is None or isinstance(root, SequentialHalving) or (isinstance(root, str) and root in ROOT_RULES)):
        raise ValueError(f"root must be None, one of {', '.join(map(repr, ROOT_RULES))} or a SequentialHalving, got {root!r}")
    return SearchOptions(rule=rule, c=c, z=z, backup=backup, solver=solver, rollout=rollout, final=final, root=root)


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
