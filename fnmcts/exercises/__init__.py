"""Exercises with checkers: the tutorial's tasks 1-13 and the Nim notebook's agents, to write and check.

Each exercise is a Python file to copy (``text(n)``; ``fnmcts exercise show N``)
with the task in its docstring and functions that raise ``NotImplementedError``
until written. ``check(n, module_or_path)`` runs exercise ``n``'s checker, in
the style of CS50's check50: every check has a name and a one-line description,
compares the student's functions with the library's on inputs that no draw
order changes, and a failure names the first failing input with the expected
and the actual value (a student's exception: "raised X: message"; a stub: "not
written yet"), never a traceback.

>>> result = check(4, solution(4))
>>> result.passed
True
>>> print(check(4, text_module(4)))
:( returns_set: possible_moves returns a set of boxes (empty for a loss)
    possible_moves({2, 4, 5, 7, 8, 9}, 9): not written yet
:( possible_moves: possible_moves(box, roll) under the simplified rules (task 4) on all 512 boxes x 11 rolls
    possible_moves(frozenset(), 2): not written yet
"""

from __future__ import annotations

import importlib.util
import sys
import types
from importlib import resources
from pathlib import Path

from ._runner import Check, Failure, Result, Verdict, run_checks
from .checkers import EXERCISES, checks
from .solutions import solution

__all__ = ["check", "exercises", "text", "text_module", "load", "solution", "LoadError",
           "Check", "Failure", "Result", "Verdict", "EXERCISES"]


class LoadError(ValueError):
    """A student's file that cannot be loaded: missing, or not valid Python (the message says which).

    >>> str(LoadError("mine.py: no such file"))
    'mine.py: no such file'
    """


def exercises() -> tuple:
    """``(number, file name, title)`` of every exercise, in order.

    >>> exercises()[3]
    (4, 'task04_simplified.py', 'simplified rules: possible_moves')
    """
    return tuple((n, name, title) for n, (name, title, _) in EXERCISES.items())


def _number(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n not in EXERCISES:
        raise ValueError(f"no exercise {n!r}: the exercises are 1 to {max(EXERCISES)}")
    return n


def text(n: int) -> str:
    """The exercise file of exercise ``n``, to copy and fill in.

    >>> text(4).splitlines()[0]
    '\"\"\"Exercise 4: simplified Shut the Box (the Clojure tutorial, task 4).'
    """
    return resources.files(__name__).joinpath("files", EXERCISES[_number(n)][0]).read_text(encoding="utf-8")


def _module(name: str, source: str, filename: str) -> types.ModuleType:
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as error:
        raise LoadError(f"{filename}, line {error.lineno}: syntax error: {error.msg}") from None
    module = types.ModuleType(name)
    module.__file__ = filename
    try:
        exec(code, module.__dict__)  # noqa: S102 (the student's own file, run as Python runs it)
    except Exception as error:  # noqa: BLE001 (one line, never a traceback)
        raise LoadError(f"{filename}: loading it raised {type(error).__name__}: {error}") from None
    return module


def text_module(n: int) -> types.ModuleType:
    """Exercise ``n``'s file, unwritten, loaded as a module (every check says "not written yet").

    >>> text_module(14).perfect_agent(5, 3)
    Traceback (most recent call last):
    ...
    NotImplementedError
    """
    return _module(f"exercise{_number(n)}", text(n), EXERCISES[n][0])


def load(path) -> types.ModuleType:
    """The student's file at ``path`` as a module, or a ``LoadError`` saying why not in one line.

    >>> load("no/such/file.py")
    Traceback (most recent call last):
    ...
    fnmcts.exercises.LoadError: no/such/file.py: no such file
    """
    from ..files import read_file

    path = Path(path)
    if not path.exists():
        raise LoadError(f"{path}: no such file")
    try:
        source = read_file(path).decode("utf-8")  # a directory, a device or a pipe: said as such
    except UnicodeDecodeError as error:
        raise LoadError(f"{path}: cannot be read: {error}") from None
    except ValueError as error:
        raise LoadError(str(error)) from None
    sys.path.insert(0, str(path.parent.resolve()))  # the student's own helpers beside the file import as Python would
    try:
        return _module(path.stem, source, str(path))
    finally:
        sys.path.remove(str(path.parent.resolve()))


def check(n: int, module_or_path, only=None) -> Result:
    """Run exercise ``n``'s checks on a module (or anything with its functions as attributes) or a file's path.

    ``only``: the names of the checks to run (default: all of them), e.g. to
    leave out a long one while writing.

    >>> [str(v) for v in check(11, solution(11), only=["ucb"]).verdicts]
    [":) ucb: ucb(record) is the tutorial's bound (z = 2; infinity at n = 0; 3/n at w = 0) on a grid of records"]
    """
    n = _number(n)
    chosen = checks(n)
    if only is not None:
        unknown = sorted(set(only) - {c.name for c in chosen})
        if unknown:
            raise ValueError(f"exercise {n} has no check {', '.join(unknown)}: its checks are {', '.join(c.name for c in chosen)}")
        chosen = tuple(c for c in chosen if c.name in set(only))
    module = load(module_or_path) if isinstance(module_or_path, (str, Path)) else module_or_path
    return run_checks(chosen, module, n)
