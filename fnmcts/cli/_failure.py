"""One place that turns any exception escaping a command into one line and an exit status.

``failure(error, args)`` is what ``fnmcts`` prints and returns when a command
ends in an exception, whatever it is: a ``CliError`` (a usage error, 2), a
game's own failure (1, with the hint to run ``fnmcts check GAME``), a path that
cannot be written (2) or a full disk (1), memory run out (1), and any other
exception (1), named by its type, its text and the line of code that raised it,
so the one line says what went wrong and where. The traceback itself is printed
only when the environment asks for it (``FNMCTS_TRACEBACK=1``).

Where the exception was raised decides whose problem it is: in the code of a
game of the user's (a file outside fnmcts, its dependencies and Python's own
library) it is the game's, and the line names the file, the line and the
function (the hook); in fnmcts's own checks (a ``ValueError``, ``TypeError`` or
``KeyError`` fnmcts raises about what it was given) it is the input's: exit 2,
the message alone.
"""

from __future__ import annotations

import os
import sys

__all__ = ["failure", "origin", "TRACEBACK_VARIABLE"]

TRACEBACK_VARIABLE = "FNMCTS_TRACEBACK"
"""Set in the environment (to anything but empty or 0) to see the traceback above the one line."""

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../fnmcts
_INPUT_ERRORS = (ValueError, TypeError, KeyError)


def _library_dirs() -> tuple:
    """The folders of Python's own library and of installed packages (their code is nobody's game)."""
    import sysconfig

    paths = sysconfig.get_paths()
    found = {os.path.abspath(paths[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix):
        found.add(os.path.abspath(os.path.join(prefix, "lib")))
    return tuple(sorted(found))


def _kind_of(filename: str, libraries: tuple) -> str:
    """``'fnmcts'``, ``'library'`` (Python's or an installed package's) or ``'user'`` for a frame's file."""
    if not filename or filename.startswith("<frozen "):
        return "library"
    if filename.startswith("<"):  # typed code: <stdin>, <string> (python -c), <doctest ...>
        return "user"
    path = os.path.abspath(filename)
    if path == _PACKAGE or path.startswith(_PACKAGE + os.sep):
        return "fnmcts"
    if any(path.startswith(folder + os.sep) for folder in libraries):
        return "library"
    return "user"


def origin(error: BaseException):
    """``(kind, filename, line, function)`` of the innermost frame that raised ``error`` outside a library.

    ``kind`` is ``'user'`` (a file of the user's: a game), ``'fnmcts'``, or
    ``'library'`` when every frame is Python's or an installed package's (or
    there is no traceback: ``(kind, None, None, None)``).

    >>> def hook():
    ...     return {}["missing"]
    >>> try:
    ...     hook()
    ... except KeyError as error:
    ...     kind, filename, line, function = origin(error)
    >>> kind, function
    ('user', 'hook')
    >>> origin(ValueError("never raised"))
    ('library', None, None, None)
    """
    import traceback

    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    libraries = _library_dirs()
    for frame in reversed(frames):
        kind = _kind_of(frame.filename, libraries)
        if kind != "library":
            return kind, frame.filename, frame.lineno, frame.name
    return "library", None, None, None


def _where(filename, line, function) -> str:
    name = os.path.relpath(filename) if filename and not filename.startswith("<") else filename
    if name and name.startswith(".." + os.sep + ".."):
        name = filename
    return f"{name}:{line}, in {function}"


def _spec(args) -> str | None:
    """The GAME as the user typed it, when the command names one."""
    for name in ("game_spec", "spec"):
        value = getattr(args, name, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    value = getattr(args, "game", None)
    return value if isinstance(value, str) and value not in ("any",) else None


def check_hint(args) -> str:
    """`` (fnmcts check GAME finds the shortest walk to it)``: where to look when the game the command names failed.

    GAME is written as a person types it at a shell: bare when it can be, else
    in double quotes (its own quotes kept), else quoted by ``shlex``.

    >>> from types import SimpleNamespace
    >>> check_hint(SimpleNamespace(game_spec="mygames:TakeAway"))
    ' (fnmcts check mygames:TakeAway finds the shortest walk to it)'
    >>> check_hint(SimpleNamespace(game_spec="mygames:Broken(size=3)"))
    ' (fnmcts check "mygames:Broken(size=3)" finds the shortest walk to it)'
    """
    import re
    import shlex

    spec = _spec(args)
    if spec is None:
        named = "GAME"
    elif re.fullmatch(r"[\w.:-]+", spec):
        named = spec
    elif not re.search(r'["$`\\!]', spec):  # in double quotes, its own quotes kept
        named = f'"{spec}"'
    else:
        named = shlex.quote(spec)
    return f" (fnmcts check {named} finds the shortest walk to it)"


def _text(error: BaseException) -> str:
    """The exception as ``Type: text`` (one line: a text of many lines is joined)."""
    text = str(error) if not isinstance(error, KeyError) or len(error.args) != 1 else repr(error.args[0])
    text = " / ".join(part.strip() for part in text.splitlines() if part.strip())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _chain(error: BaseException) -> list:
    """``error`` and the exceptions it was raised from or during (``__cause__``, ``__context__``), outermost first."""
    found = []
    while error is not None and error not in found and len(found) < 20:
        found.append(error)
        error = error.__cause__ if error.__cause__ is not None else (
            None if error.__suppress_context__ else error.__context__)
    return found


def _deliberate(error: BaseException) -> bool:
    """Whether fnmcts raised ``error`` on purpose (a ``raise`` line of its own, or a library refusing a value).

    An exception met inside fnmcts's own code (``None[0]``, a call with the
    wrong arguments) is no message for the user: it is fnmcts that failed.
    """
    import linecache
    import traceback

    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    if not frames:
        return True
    last = frames[-1]
    if _kind_of(last.filename, _library_dirs()) == "library":
        return True  # int("x"), json.loads(...): a library refused what it was given
    return linecache.getline(last.filename, last.lineno).lstrip().startswith("raise")


def failure(error: BaseException, args=None) -> tuple:
    """``(message, status)`` for an exception that ended a command (``args``: its parsed arguments, if any).

    >>> from fnmcts.cli._common import CliError
    >>> failure(CliError("no such box"))
    ('no such box', 2)
    >>> failure(MemoryError())[1]
    1
    >>> import errno
    >>> failure(OSError(errno.ENOSPC, "No space left on device"))
    ('[Errno 28] No space left on device', 1)

    An exception raised in a game's own code (here a hook in this file) names
    the file, the line and the function:

    >>> def possible_moves(state):
    ...     return state[0]
    >>> try:
    ...     possible_moves(None)
    ... except TypeError as raised:
    ...     message, status = failure(raised)
    >>> status, message.startswith("the game's code raised TypeError: 'NoneType' object is not subscriptable (")
    (1, True)
    >>> message.endswith("in possible_moves) (fnmcts check GAME finds the shortest walk to it)")
    True
    """
    from ._common import EXIT_FAILURE, EXIT_USAGE, CliError, exit_status

    if isinstance(error, CliError):
        return str(error), EXIT_USAGE
    game_error = _game_error(error)
    if game_error is not None:  # the game failed, not the command line: exit 1, and where to look
        walk = getattr(error, "hook", None) != "start" and getattr(args, "command", None) != "check"
        given = getattr(args, "state", None)
        if walk and isinstance(given, str) and given.strip().lower() not in ("", "start"):  # check walks from the start
            return f"{game_error} (at or below the state given with --state {given.strip()})", EXIT_FAILURE
        return game_error + (check_hint(args) if walk else ""), EXIT_FAILURE  # no walk to a start, nor check again
    missing = _missing_hook(error)
    if missing is not None:  # a game of the user's without an optional hook some verb reads: say which
        return missing, EXIT_FAILURE
    if isinstance(error, MemoryError):
        return ("ran out of memory: the game or the work asked for is too large for this machine "
                "(a smaller game, budget or --limit fits)"), EXIT_FAILURE
    blamed = _blamed(args, error)  # raised in the code of the game the command named: the hook, state and move
    if blamed is not None:
        return str(blamed) + check_hint(args), EXIT_FAILURE
    for link in _chain(error):  # raised in a user's code (a game, or what it calls), or by fnmcts about it
        kind, filename, line, function = origin(link)
        if kind == "user" and _reads_input(link):  # a hook that reads what a person typed: their input, a usage error
            return f"{_text(link).partition(': ')[2] or _text(link)} ({_where(filename, line, function)})", EXIT_USAGE
        if kind == "user":
            said = f"the game's code raised {_text(link)}" if link is error else _text(error).partition(": ")[2]
            return f"{said} ({_where(filename, line, function)}){check_hint(args)}", EXIT_FAILURE
    kind, filename, line, function = origin(error)
    if isinstance(error, OSError):
        return str(error), exit_status(error)
    if isinstance(error, RecursionError):  # reading a state or a file of the user's nested past Python's limit
        return "the input is nested too deeply to read", EXIT_USAGE
    if isinstance(error, _INPUT_ERRORS) and _deliberate(error):  # fnmcts's own checks of what it was given
        return (repr(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)), exit_status(error)
    where = f" ({_where(filename, line, function)})" if filename else ""
    return f"{_text(error)}{where}: fnmcts failed here; {TRACEBACK_VARIABLE}=1 shows the traceback", EXIT_FAILURE


def _missing_hook(error: BaseException) -> str | None:
    """What to write when ``error`` is a game lacking a hook of the protocol (an ``AttributeError`` on the game).

    A game not inheriting ``fnmcts.GameBase`` answers the hooks it defines; a
    verb that reads another one (the exact solver reads ``chance_outcomes``)
    names it, not the ``AttributeError`` as fnmcts's own failure.

    >>> class Plain:
    ...     pass
    >>> try:
    ...     Plain().chance_outcomes
    ... except AttributeError as raised:
    ...     print(_missing_hook(raised))
    the game Plain has no chance_outcomes, which this command reads: define it (chance_outcomes(state) returns () for a game without chance) or inherit fnmcts.GameBase, which gives every optional hook its default
    """
    from ..protocol import GameBase

    for link in _chain(error):
        name, owner = getattr(link, "name", None), getattr(link, "obj", None)
        if not isinstance(link, AttributeError) or not isinstance(name, str) or owner is None:
            continue
        if name.startswith("_") or not hasattr(GameBase, name) or isinstance(owner, GameBase):
            continue
        if name == "chance_outcomes":
            how = "chance_outcomes(state) returns () for a game without chance"
        else:
            how = f"see {name} in fnmcts.protocol"
        return (f"the game {type(owner).__name__} has no {name}, which this command reads: define it ({how}) or "
                "inherit fnmcts.GameBase, which gives every optional hook its default")
    return None


def _blamed(args, error: BaseException):
    """The ``GameError`` of ``error`` when it was raised in the code of the game the command names, else None.

    The game is made again from its spec (its class's code is what the
    traceback is searched for: ``fnmcts.protocol.blamed_hook``); a hook that
    reads what a person typed (``parse_state``...) raising is no game's failure.
    """
    from ..limits import NoEnd, TooLarge
    from ._common import CliError

    spec = _spec(args)
    if spec is None or isinstance(error, (TooLarge, NoEnd, CliError)):
        return None
    from ..protocol import blamed_hook
    from ._games import resolve_game

    try:
        game = resolve_game(spec)
    except Exception:
        return None
    return blamed_hook(game, error)


def _reads_input(error: BaseException) -> bool:
    """Whether ``error`` was raised in a hook that reads a person's input (``fnmcts.protocol``'s input hooks)."""
    import traceback

    from ..protocol import _INPUT_HOOKS

    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    return any(frame.name in _INPUT_HOOKS for frame in frames)


def _game_error(error: BaseException) -> str | None:
    """The text of a game's documented failure, or None: a ``GameError`` (a hook raised or returned what the
    protocol does not allow) or a ``NoEnd`` (play that does not end within its budget of plies).

    >>> from fnmcts.limits import NoEnd
    >>> _game_error(NoEnd("no end within 3 plies: from 0, ...; max_plies= sets another budget"))
    'no end within 3 plies: from 0, ...'
    >>> _game_error(ValueError("x")) is None
    True

    A hook that raised where a checker or a playthrough called it (``GameRaised``) is the game's too:

    >>> from fnmcts.testing._walk import GameRaised
    >>> _game_error(GameRaised("state_to_json raised TypeError: cannot convert Strip to JSON"))
    "the game's state_to_json raised TypeError: cannot convert Strip to JSON"
    """
    from ..limits import PLIES_GO_ON, NoEnd
    from ..protocol import GameError
    from ..testing._walk import GameRaised

    if isinstance(error, GameError):
        return str(error)
    if isinstance(error, GameRaised):  # not fnmcts's failure: the game's hook, named, with what it raised
        return f"the game's {error}"
    if isinstance(error, NoEnd):  # the library's max_plies= is no flag of the command line
        return str(error).replace(PLIES_GO_ON, "")
    return None


def wants_traceback() -> bool:
    """Whether ``FNMCTS_TRACEBACK`` asks for the traceback.

    >>> wants_traceback() in (True, False)
    True
    """
    return os.environ.get(TRACEBACK_VARIABLE, "").strip() not in ("", "0")
