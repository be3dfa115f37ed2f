"""Games named on the command line with ``--game SPEC``: built-in, OpenSpiel's, or a user's own.

SPEC is one of

* a built-in game's name (``nim``, ``tic-tac-toe``, ...: ``fnmcts.games.GAMES``) with its defaults;
* ``openspiel:NAME`` or ``openspiel:NAME(key=value,...)``: an OpenSpiel game with
  its parameters, as OpenSpiel writes them (``openspiel:nim(pile_sizes=1;2;3)``);
* ``module:attribute``: a game value, or a class or function that makes one
  without arguments (``mygames:TakeAway``), imported as Python imports
  ``module`` with ``MODULE_PATH`` before it: first the current folder (the
  file ``mygames.py``, or a package ``mygames/``), then the folders of
  ``PYTHONPATH``, then the installed packages.

A built-in game or a user's class takes parameters as keyword arguments of
literals: ``nim(heap=5, max_take=2)``, ``mygames:Connect(rows=4)``.
"""

from __future__ import annotations

import importlib
import re
import sys

from ..games import GAMES
from ._common import CliError
from ._fields import split_call

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + r'|"(?:[^"\\]|\\.)*"')
"""A quoted string parameter of a spec (``'a(b'``): its parentheses are text, not the parameter list's."""

__all__ = ["GAME_FORMS", "resolve_game"]

MODULE_PATH = "the current folder, then PYTHONPATH, then the installed packages"
"""Where ``module:attribute`` finds ``module``, in order (said in the error when it is found nowhere)."""

GAME_FORMS = "a built-in game (" + ", ".join(sorted(GAMES)) + "), openspiel:NAME(params) or module:attribute"
"""What ``--game`` takes, for help texts and errors."""


def resolve_game(spec: str):
    """The game ``spec`` names (see the module's docstring), or a ``CliError`` saying what is wrong.

    >>> resolve_game("nim")
    Nim(heap=21, max_take=3, misere=True)
    >>> resolve_game("fnmcts.games:TicTacToe")
    TicTacToe()
    >>> resolve_game("nim(heap=5, misere=False)"), resolve_game("fnmcts.games:Piles(piles=(2, 2))")
    (Nim(heap=5, max_take=3, misere=False), Piles(piles=(2, 2), misere=True))
    >>> resolve_game("nim(heap=-1)")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: nim(heap=-1): heap must be at least 0, got -1
    >>> resolve_game("nim(heap=3")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: nim(heap=3: its parentheses do not match; write a game's parameters as nim(keyword=literal, ...), in quotes at the shell
    >>> resolve_game("chess")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: unknown game 'chess': give a built-in game (connect-four, kayles, nim, pig, piles, shut-the-box, tic-tac-toe), openspiel:NAME(params) or module:attribute
    """
    if not isinstance(spec, str) or not spec.strip():
        raise CliError(f"--game needs {GAME_FORMS}")
    spec = spec.strip()
    if spec.startswith("openspiel:"):  # OpenSpiel writes its own parameters: openspiel:nim(pile_sizes=1;2;3)
        return _openspiel(spec.partition(":")[2])
    bare = _QUOTED.sub("''", spec)  # a parenthesis inside a quoted parameter (name='a(b') is the parameter's
    if bare.count("(") != bare.count(")"):  # a parameter list cut short by the shell or a slip: say where
        raise CliError(f"{spec}: its parentheses do not match; write a game's parameters as {spec.partition('(')[0]}"
                       f"(keyword=literal, ...), in quotes at the shell")
    name, params = split_call(spec)
    if name in GAMES:
        return _made(spec, GAMES[name], params)
    prefix, colon, rest = name.partition(":")
    if not colon:
        raise CliError(f"unknown game {spec!r}{_nearest(name, GAMES) or file_hint(name)}: give {GAME_FORMS}")
    return _user_game(prefix, rest, params, spec)


def _nearest(name: str, names) -> str:
    """`` (did you mean 'X'?)`` when one of ``names`` is close to ``name``, else nothing.

    >>> _nearest("nmi", ["nim", "pig"]), _nearest("chess", ["nim", "pig"])
    (" (did you mean 'nim'?)", '')
    """
    import difflib

    near = difflib.get_close_matches(name, sorted(names), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def file_hint(name: str) -> str:
    """For a file given as a game (``mygame.py``): `` (a file: ...)`` naming ``module:Class`` for its classes.

    >>> file_hint("nim"), file_hint("games/takeaway.py")
    ('', ' (a file: name a game in it as takeaway:ClassName, run from its folder)')
    """
    from pathlib import Path

    if not name.endswith(".py"):
        return ""
    path, classes = Path(name), []
    try:
        import ast

        classes = [n.name for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef)]
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):  # no such file, or not Python: the form alone
        pass
    named = " or ".join(f"{path.stem}:{c}" for c in classes[:3]) or f"{path.stem}:ClassName"
    where = "" if path.parent == Path(".") else ", run from its folder"
    return f" (a file: name a game in it as {named}{where})"


def _made(spec, kind, params):
    """``kind(**params)``, its complaint about a parameter as a ``CliError`` naming ``spec``.

    A parameter the game does not have is told the nearest one and the game's parameters:

    >>> from fnmcts.games import Nim
    >>> _made("nim(hea=3)", Nim, {"hea": 3})
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: nim(hea=3): Nim.__init__() got an unexpected keyword argument 'hea' (did you mean 'heap'?); Nim's parameters: heap, max_take, misere
    """
    try:
        return kind(**params)
    except (TypeError, ValueError) as error:
        raise CliError(f"{spec}: {error}{_parameters_hint(kind, params)}") from None


def _parameters_hint(kind, params) -> str:
    """The nearest parameter to one ``kind`` lacks, and its parameters, for a dataclass game; else nothing."""
    import dataclasses

    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        return ""
    names = [f.name for f in dataclasses.fields(kind) if f.init]
    unknown = [p for p in params if p not in names]
    if not unknown:
        return ""
    listed = ", ".join(names) if names else "none"
    return f"{_nearest(unknown[0], names)}; {kind.__qualname__}'s parameters: {listed}"


def _openspiel(text: str):
    from ..openspiel import from_openspiel

    try:
        return from_openspiel(text)
    except ImportError as error:
        raise CliError(str(error)) from None
    except (ValueError, TypeError) as error:
        raise CliError(str(error)) from None


def _imported(module_name: str, attribute: str):
    """The user's module ``module_name``, found on the path or in the current directory (``CliError`` if it fails)."""
    added = "" not in sys.path
    if added:
        sys.path.insert(0, "")  # a module in the current directory, as `python -m` finds it
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        raise CliError(f"cannot import {module_name!r} for the game {module_name}:{attribute}: {error} (fnmcts looks "
                       f"in {MODULE_PATH})") from None
    except Exception as error:  # the user's module fails as it loads: say so in one line
        raise CliError(f"importing {module_name!r} failed: {type(error).__name__}: {error}") from None
    finally:
        if added:
            sys.path.remove("")


def _attribute(module, module_name: str, attribute: str):
    """``module``'s dotted ``attribute`` (``CliError`` naming the nearest name when it has none)."""
    found = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            near = _nearest(part, [n for n in dir(found) if not n.startswith("_")])
            raise CliError(f"module {module_name!r} has no {attribute!r}{near}")
        found = getattr(found, part)
    return found


def _user_game(module_name: str, attribute: str, params=None, spec=None):
    if not module_name or not attribute:
        raise CliError(f"write a game of your own as module:attribute, e.g. mygames:TakeAway; got {module_name}:{attribute}")
    if module_name.endswith(".py"):  # the file's name: its module is the name without .py, found from its folder
        if "/" in module_name or "\\" in module_name:
            raise CliError(f"{module_name}:{attribute}: name the module, not the file: run from the file's folder with "
                           f"{module_name.replace(chr(92), '/').rpartition('/')[2][:-3]}:{attribute}")
        module_name = module_name[:-3]
    found = _attribute(_imported(module_name, attribute), module_name, attribute)
    if params:
        if not callable(found) or hasattr(found, "to_move") and not isinstance(found, type):
            raise CliError(f"{spec}: {module_name}:{attribute} is a game value, not a class or function to call")
        found = _made(spec, found, params)
    elif isinstance(found, type) or (callable(found) and not hasattr(found, "to_move")):
        try:
            found = found()
        except Exception as error:
            raise CliError(f"{module_name}:{attribute}() failed: {type(error).__name__}: {error}") from None
    missing = [m for m in ("start", "to_move", "possible_moves", "play", "payoff") if not hasattr(found, m)]
    if missing:
        raise CliError(
            f"{module_name}:{attribute} is not a game of the fnmcts protocol "
            f"(start, to_move, possible_moves, play, payoff): it has no {', '.join(missing)}; see fnmcts.protocol"
        )
    _check_start(found)
    return found


def _check_start(game) -> None:
    """A ``GameError`` (exit 1, as every broken hook) when the game's start is no state: None, or not hashable.

    Without it each verb met the start its own way: a usage error (exit 2)
    from the search's and the solver's ``check_state``, a law's failure from
    ``check``. A start that raises is left to the verb, which says where.

    >>> class Listed:
    ...     def start(self):
    ...         return [3, 0]
    >>> _check_start(Listed())
    Traceback (most recent call last):
    ...
    fnmcts.protocol.GameError: the game's start() returned [3, 0], which is not hashable (TypeError: unhashable type: 'list'): a state is an immutable value (a tuple, a frozenset, a pmap...)
    """
    from ..protocol import checked_start

    try:
        game.start()
    except Exception:  # the verb calls it again, and the failure names the file and line
        return
    checked_start(game)
