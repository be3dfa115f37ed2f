"""The search flags of every command, read from ``fnmcts.mcts.SearchOptions``: its fields, types, defaults and docs.

Each field of ``SearchOptions`` is a flag ``--NAME`` (``_`` written ``-``) on
every command that searches, unset by default (the library's
``search_options`` then fills it, the same for every command). A field's
flag is typed by the field's ``type`` (or its default's): a yes/no field is
``--NAME`` / ``--no-NAME``, a whole number ``N``, a number ``X``, a word;
its help is the field's row of the table in ``fnmcts.mcts._options``'s
docstring, and its default the field's ``initial``. A field no flag can
carry (a function: ``rollout``) is left out. So an option added to
``SearchOptions`` appears on every verb without an edit here. The fields of
old keep their spelling of old: their choices (``--rule ucb1|tutorial``),
``--no-solver``, and the constants' checks.
"""

from __future__ import annotations

import argparse
import re

from ._common import CliError, advanced_group, non_negative_number

__all__ = ["add_search_options", "search_flags", "search_fields", "SEARCH_RULES", "COURSE_FLAGS"]

SEARCH_RULES = ("ucb1", "tutorial", "ucb")
"""The selection rules the commands name: UCB1, and the tutorial's ucb (by either name)."""

_HIDDEN = ("rollout",)
"""Fields no command-line flag carries: a playout agent is a function."""

COURSE_FLAGS = ("rule", "c", "z", "solver")
"""The search flags a course meets (the tutorial's ``ucb`` and its ``z``, UCB1's ``c``, the solver): the others
(backups, root and final rules, RAVE, bounds, shallow proofs) go in the "advanced" group of ``--help``."""

_PER_SEARCH = {"final": "final", "root": "root"}
"""Fields only some commands take (``add_search_options(final=..., root=...)``): the move played, the root's own rule."""


def _options_module():
    from ..mcts import _options

    return _options


def _docs() -> dict:
    """``name -> its one-line doc``: the rows of the table in ``fnmcts.mcts._options``'s docstring.

    >>> _docs()["c"]
    "UCB1's exploration constant (default ``sqrt(2)``); only with ``'ucb1'``"
    """
    rows, name = {}, None
    for line in (_options_module().__doc__ or "").splitlines():
        found = re.match(r"^``(\w+)``\s+(.*)$", line)
        if found:
            name, text = found.groups()
            rows[name] = text.strip()
        elif name is not None and line.startswith(" ") and line.strip() and not line.startswith("="):
            rows[name] += " " + line.strip()
        else:
            name = None
    return rows


def _field_type(field) -> type | None:
    """The Python type of a ``SearchOptions`` field: its declared type, else its default's; ``None``: unknown."""
    types = [t for t in getattr(field, "type", ()) if t is not type(None)]
    if len(types) == 1 and types[0] in (bool, int, float, str):
        return types[0]
    if {int, float} <= set(types):
        return float
    initial = getattr(field, "initial", None)
    kind = type(initial)
    return kind if kind in (bool, int, float, str) else None


def search_fields() -> tuple:
    """``((name, type or None, default or None, doc), ...)``: the options of ``SearchOptions``, in order.

    >>> [name for name, *_ in search_fields()]
    ['rule', 'c', 'z', 'backup', 'solver', 'rollout', 'final', 'root', 'rave', 'rave_ref', 'bounds', 'proofs']
    """
    options = _options_module()
    fields = dict(options.SearchOptions._declared_specs)  # each field() as SearchOptions declares it
    names = [n for n in options.OPTION_NAMES if n in fields] + [n for n in fields if n not in options.OPTION_NAMES]
    docs = _docs()
    found = []
    for name in names:
        field = fields[name]
        initial = getattr(field, "initial", None)
        default = initial if isinstance(initial, (bool, int, float, str)) else None
        found.append((name, _field_type(field), default, docs.get(name, f"the search option {name}")))
    return tuple(found)


def _plain(doc: str) -> str:
    return doc.replace("``", "")


def add_search_options(parser, who: str = "", old_rule_flag: str | None = None, root: bool = False,
                       final: bool = False) -> None:
    """Add a flag for every field of ``SearchOptions`` (see the module): ``--rule``, ``--c``, ``--z``, ``--backup``, ...

    Unset flags stay ``None``. ``who`` prefixes the help (``"mcts: "``).
    ``root=True`` adds ``--root`` (a root rule plans one search's dives: for
    agents that search afresh each move, not for a search saved and resumed);
    ``final=True`` adds ``--final`` (how an agent picks the move it plays).

    >>> parser = argparse.ArgumentParser()
    >>> add_search_options(parser)
    >>> args = parser.parse_args(["--rule", "tutorial", "--z", "1.5"])
    >>> search_flags(args)
    {'rule': 'tutorial', 'z': 1.5}
    >>> [a.dest for a in advanced_group(parser)._group_actions][:3]
    ['backup', 'rave', 'rave_ref']
    """
    options = _options_module()
    wanted = {"root": root, "final": final}
    course = parser
    for name, kind, default, doc in search_fields():
        if name in _HIDDEN or not wanted.get(name, True):
            continue
        parser = course if name in COURSE_FLAGS else advanced_group(course)
        help = f"{who}{_plain(doc)}"
        flag = "--" + name.replace("_", "-")
        if name == "rule":
            flags = (flag,) if old_rule_flag is None else (flag, old_rule_flag)
            parser.add_argument(*flags, dest=name, choices=SEARCH_RULES, default=None, help=help)
        elif name in ("c", "z"):
            parser.add_argument(flag, dest=name, type=non_negative_number, default=None, metavar=name.upper(), help=help)
        elif name == "backup":
            parser.add_argument(flag, dest=name, choices=tuple(options.BACKUPS), default=None, help=help)
        elif name == "solver":
            parser.add_argument("--no-solver", dest=name, action="store_false", default=None,
                                help=f"{who}plain UCT, without MCTS-Solver's proofs (on by default, off with --rule tutorial)")
        elif name == "final":
            parser.add_argument(flag, dest=name, choices=options.FINALS, default=None, help=help)
        elif name == "root":
            parser.add_argument(flag, dest=name, choices=options.ROOT_RULES, default=None, help=help)
        elif kind is bool:
            parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None,
                                help=f"{help} (default {'on' if default else 'off'})")
        elif kind is not None:
            convert, metavar = {int: (_whole, "N"), float: (_number, "X"), str: (str, "WORD")}[kind]
            shown = "" if default is None else f" (default {default})"
            parser.add_argument(flag, dest=name, type=convert, default=None, metavar=metavar, help=help + shown)


def _whole(text: str) -> int:
    try:
        return int(text) if text.strip().lstrip("-").isdigit() and text.isascii() else int("x")
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _number(text: str) -> float:
    try:
        value = float(text) if text.isascii() else float("x")
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def search_flag_names() -> tuple:
    """The ``args`` names of the search flags (every field a flag carries).

    >>> search_flag_names()
    ('rule', 'c', 'z', 'backup', 'solver', 'final', 'root', 'rave', 'rave_ref', 'bounds', 'proofs')
    """
    return tuple(name for name, *_ in search_fields() if name not in _HIDDEN)


def search_flags(args, *, final: bool = False) -> dict:
    """The search options given on the command line (a dict of those set), checked with the flags' names.

    ``final`` keeps ``--final`` in the dict (the agents take it apart from the search's options).

    >>> parser = argparse.ArgumentParser()
    >>> add_search_options(parser)
    >>> search_flags(parser.parse_args(["--rule", "tutorial", "--c", "0.5"]))
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)
    """
    given = {name: getattr(args, name, None) for name in search_flag_names() if final or name != "final"}
    rule = given.get("rule") or "ucb1"
    if rule != "ucb1" and given.get("c") is not None:
        raise CliError("--c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)")
    if rule == "ucb1" and given.get("z") is not None:
        raise CliError("--z belongs to the tutorial's ucb: use it with --rule tutorial (UCB1 takes --c)")
    return {k: v for k, v in given.items() if v is not None}
