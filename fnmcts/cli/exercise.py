"""``fnmcts exercise list|show N|check N FILE``: the course's exercises and their checkers.

The exercises and the checks are ``fnmcts.exercises``; this module only reads
the arguments and prints. ``check`` prints one ``:)`` or ``:(`` line per check,
as CS50's check50 does, and exits 0 when every check passes, 1 otherwise; a
file that is missing or not valid Python is one line and exit status 2.
"""

from __future__ import annotations

from ._common import CliError, add_json, emit

__all__ = ["register"]


def _exercise_number(text: str) -> int:
    """An exercise number, or the argument error that lists them."""
    from ..exercises import EXERCISES

    if not text.isdigit() or int(text) not in EXERCISES:
        import argparse

        raise argparse.ArgumentTypeError(f"no exercise {text!r}: the exercises are 1 to {max(EXERCISES)} (fnmcts exercise list)")
    return int(text)


def register(cli) -> None:
    """Add ``fnmcts exercise list``, ``show N`` and ``check N FILE`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["exercise", "show", "4"])  # doctest: +ELLIPSIS
    \"\"\"Exercise 4: simplified Shut the Box (the Clojure tutorial, task 4).
    ...
    0
    """
    parser = cli.command("exercise", "the course's exercises: list them, show one to copy, check your answer")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=type(parser))
    verbs.required = True
    listing = verbs.add_parser("list", help="every exercise with its number", description="every exercise with its number")
    add_json(listing)
    show = verbs.add_parser("show", help="print exercise N's file, to copy and fill in",
                            description="print exercise N's file, to copy and fill in")
    show.add_argument("number", type=_exercise_number, metavar="N", help="the exercise (fnmcts exercise list)")
    add_json(show)
    check = verbs.add_parser("check", help="check your FILE for exercise N: one :) or :( line per check",
                             description="check your FILE for exercise N: one :) or :( line per check; exit 0 when all pass, else 1")
    check.add_argument("number", type=_exercise_number, metavar="N", help="the exercise (fnmcts exercise list)")
    check.add_argument("file", metavar="FILE", help="your copy of the exercise file, filled in")
    add_json(check)
    parser.set_defaults(handler=_exercise)


def _exercise(args) -> int:
    from .. import exercises

    if args.verb == "list":
        rows = exercises.exercises()
        emit(args, {"exercises": [{"number": n, "file": name, "title": title} for n, name, title in rows]},
             "\n".join(f"{n:>2}  {name:<22} {title}" for n, name, title in rows))
        return 0
    if args.verb == "show":
        text = exercises.text(args.number)
        emit(args, {"number": args.number, "file": exercises.EXERCISES[args.number][0], "text": text}, text.rstrip("\n"))
        return 0
    try:
        module = exercises.load(args.file)
    except exercises.LoadError as error:
        raise CliError(str(error)) from None
    result = exercises.check(args.number, module)
    checks = [{"name": v.name, "description": v.description, "passed": v.passed,
               "failure": None if v.passed else str(v.failure)} for v in result.verdicts]
    emit(args, {"exercise": args.number, "file": args.file, "passed": result.passed, "checks": checks}, str(result))
    return 0 if result.passed else 1
