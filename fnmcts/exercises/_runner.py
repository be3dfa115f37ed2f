"""The checkers' machinery, in the style of CS50's check50: named checks, one line per verdict.

A check is a name, a one-line description and a function of the student's
module that returns ``None`` (passed) or a ``Failure`` naming the first failing
input, the expected and the actual value. A student's exception never escapes:
``call`` turns it into a failure ("raised ValueError: ..." on that input, or
"not written yet" for ``NotImplementedError``).

>>> import types
>>> student = types.SimpleNamespace(double=lambda x: x + x)
>>> check = Check("double", "double(x) is 2x", lambda m: compare(m, "double", [(1,), (2,)], lambda x: 2 * x))
>>> print(run_checks([check], student))
:) double: double(x) is 2x
>>> print(run_checks([check], types.SimpleNamespace(double=lambda x: x * x)))
:( double: double(x) is 2x
    double(1): expected 2, got 1
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

__all__ = ["Check", "Failure", "Verdict", "Result", "StudentError", "call", "compare", "run_checks", "same"]


@dataclass(frozen=True)
class Failure:
    """Why a check failed: the input (as the student's call), the expected and the actual value, or a message.

    >>> print(Failure("ucb({})", float("inf"), 0.0)), print(Failure("f(1)", message="not written yet"))
    ucb({}): expected inf, got 0.0
    f(1): not written yet
    (None, None)
    """

    call: str
    expected: object = None
    actual: object = None
    message: str | None = None

    def __str__(self) -> str:
        """``possible_moves({2}, 2): expected {frozenset()}, got set()``, or the call with its message."""
        if self.message is not None:
            return f"{self.call}: {self.message}" if self.call else self.message
        return f"{self.call}: expected {self.expected!r}, got {self.actual!r}"


@dataclass(frozen=True)
class Check:
    """One named check: ``run(module)`` returns ``None`` when it passes, else a ``Failure``.

    >>> Check("one", "f() is 1", lambda m: None).name
    'one'
    """

    name: str
    description: str
    run: Callable


@dataclass(frozen=True)
class Verdict:
    """One check's verdict: its name, description and failure (``None``: passed).

    >>> print(Verdict("one", "f() is 1", Failure("f()", 1, 2)))
    :( one: f() is 1
        f(): expected 1, got 2
    """

    name: str
    description: str
    failure: Failure | None = None

    @property
    def passed(self) -> bool:
        """Did the check pass?"""
        return self.failure is None

    def __str__(self) -> str:
        """``:) name: description``, or ``:(`` with the failure on the next line."""
        head = f"{':)' if self.passed else ':('} {self.name}: {self.description}"
        return head if self.passed else f"{head}\n    {self.failure}"


@dataclass(frozen=True)
class Result:
    """Every verdict of one exercise's checker, in order.

    >>> result = Result(1, (Verdict("a", "first"), Verdict("b", "second", Failure("g()", message="not written yet"))))
    >>> result.passed, [v.name for v in result.failures()]
    (False, ['b'])
    """

    exercise: int
    verdicts: tuple

    @property
    def passed(self) -> bool:
        """Did every check pass?"""
        return all(v.passed for v in self.verdicts)

    def failures(self) -> tuple:
        """The verdicts that failed."""
        return tuple(v for v in self.verdicts if not v.passed)

    def __str__(self) -> str:
        return "\n".join(map(str, self.verdicts))


class StudentError(Exception):
    """The student's function raised, or is missing: carries the ``Failure`` that says so.

    >>> str(StudentError(Failure("f(1)", message="not written yet")))
    'f(1): not written yet'
    """

    def __init__(self, failure: Failure):
        super().__init__(str(failure))
        self.failure = failure


def _show(args) -> str:
    """The arguments as the call shows them: sets sorted, so the line reads the same on every run."""
    def one(a):
        if isinstance(a, (set, frozenset)):
            return "{" + ", ".join(map(repr, sorted(a, key=repr))) + "}" if a else f"{type(a).__name__}()"
        return repr(a)

    return ", ".join(map(one, args))


def call(module, name: str, *args, shown=None):
    """``module.name(*args)``; a missing name or a raised exception becomes a ``StudentError``.

    >>> import types
    >>> call(types.SimpleNamespace(f=lambda x: 1 // x), "f", 0)
    Traceback (most recent call last):
    ...
    fnmcts.exercises._runner.StudentError: f(0): raised ZeroDivisionError: integer division or modulo by zero
    """
    where = f"{name}({_show(args) if shown is None else shown})"
    fn = getattr(module, name, None)
    if fn is None:
        raise StudentError(Failure(where, message=f"{name} is missing from your file"))
    try:
        return fn(*args)
    except NotImplementedError:
        raise StudentError(Failure(where, message="not written yet")) from None
    except Exception as error:  # noqa: BLE001 (the student's error, reported on its input: never a traceback)
        raise StudentError(Failure(where, message=f"raised {type(error).__name__}: {error}")) from None


def same(expected, actual, tolerance: float = 1e-9) -> bool:
    """Equal, or both numbers within ``tolerance`` (infinities equal only to themselves).

    >>> same(0.1 + 0.2, 0.3), same(math.inf, math.inf), same(1.0, math.inf), same({1}, {1})
    (True, True, False, True)
    """
    numbers = (int, float)
    if isinstance(expected, numbers) and isinstance(actual, numbers) and not isinstance(actual, bool):
        if math.isinf(expected) or math.isinf(actual):
            return expected == actual
        return abs(expected - actual) <= tolerance
    try:
        return bool(expected == actual)
    except Exception:  # noqa: BLE001 (a student's value whose == raises is simply not equal)
        return False


def compare(module, name: str, inputs, expected: Callable, tolerance: float = 1e-9):
    """The first of ``inputs`` (argument tuples) where ``module.name`` differs from ``expected``, as a ``Failure``.

    >>> import types
    >>> print(compare(types.SimpleNamespace(sq=lambda x: x * 2), "sq", [(2,), (3,)], lambda x: x * x))
    sq(3): expected 9, got 6
    """
    for args in inputs:
        actual = call(module, name, *args)
        want = expected(*args)
        if not same(want, actual, tolerance):
            return Failure(f"{name}({_show(args)})", want, actual)
    return None


def run_checks(checks, module, exercise: int = 0) -> Result:
    """Run every check on ``module``; a check after a failed one still runs (as check50's independent checks).

    >>> import types
    >>> checks = [Check("f", "f() is 1", lambda m: compare(m, "f", [()], lambda: 1)), Check("g", "g exists", lambda m: None)]
    >>> print(run_checks(checks, types.SimpleNamespace()))
    :( f: f() is 1
        f(): f is missing from your file
    :) g: g exists
    """
    verdicts = []
    for check in checks:
        try:
            failure = check.run(module)
        except StudentError as error:
            failure = error.failure
        verdicts.append(Verdict(check.name, check.description, failure))
    return Result(exercise, tuple(verdicts))
