"""A game's command-line options, read from its dataclass fields; game specs with parameters.

A built-in game's parameters are the fields of its dataclass, so the options
come from there (``--heap 21 --max-take 3 --misere`` for ``Nim``), typed by
each field's annotation: a whole number, a yes/no flag (``--misere`` and
``--no-misere``), a comma-separated list of whole numbers, a number or a word.
A game that adds a field gets its option without an edit here; the game's own
checks (``__post_init__``) judge the values, and their ``ValueError`` becomes
the command's one-line error. A field's metadata may say more: ``"help"``, what
it means, and for a yes/no field ``"false"``, a second spelling of ``--no-NAME``
(Nim's ``misere`` field: ``--normal``).

A spec may carry parameters as keyword arguments of literals:
``nim(heap=5)``, ``mygames:Connect(rows=4)``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses

from ._common import CliError

__all__ = ["game_fields", "add_field_options", "fields_given", "split_call"]

_TYPES = {int: "int", bool: "bool", float: "float", str: "str", tuple: "tuple"}


def _metadata(kind, name) -> dict:
    return dict(next(f.metadata for f in dataclasses.fields(kind) if f.name == name))


def game_fields(kind) -> tuple:
    """``((name, type name, default), ...)``: the parameters of the game class ``kind``, in order.

    >>> from fnmcts.games import Nim, TicTacToe
    >>> game_fields(Nim)
    (('heap', 'int', 21), ('max_take', 'int', 3), ('misere', 'bool', True))
    >>> game_fields(TicTacToe), game_fields(len)
    ((), ())
    """
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        return ()
    found = []
    for field in dataclasses.fields(kind):
        if not field.init or field.name.startswith("_"):
            continue
        kind_name = field.type if isinstance(field.type, str) else _TYPES.get(field.type, "str")
        default = field.default if field.default is not dataclasses.MISSING else None
        found.append((field.name, kind_name.split("[")[0], default))
    return tuple(found)


def _whole(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def _numbers(text: str) -> tuple:
    parts = [part for field in text.split(",") for part in (field.split() or [""])]
    if "" in parts:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas (1,3,5,7), got {text!r} (an empty field)")
    if not all(part.lstrip("-").isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas (1,3,5,7), got {text!r}")
    return tuple(int(part) for part in parts)


_PARSERS = {"int": (_whole, "N"), "float": (_number, "X"), "tuple": (_numbers, "A,B,..."), "str": (str, "WORD")}


def add_field_options(parser, kind, *, notes=None) -> None:
    """Add an option for each parameter of the game class ``kind`` (see the module), unset by default.

    ``notes`` maps a field's name to a sentence its help adds.

    >>> from fnmcts.games import Nim
    >>> parser = argparse.ArgumentParser()
    >>> add_field_options(parser, Nim)
    >>> fields_given(Nim, parser.parse_args(["--heap", "5", "--no-misere"]))
    {'heap': 5, 'misere': False}
    >>> fields_given(Nim, parser.parse_args(["--normal"])), fields_given(Nim, parser.parse_args(["--misere"]))
    ({'misere': False}, {'misere': True})
    >>> parser.error = lambda message: print("refused:", message)
    >>> _ = parser.parse_known_args(["--misere", "--normal"])
    refused: argument --normal: not allowed with argument --misere/--no-misere
    """
    for name, type_name, default in game_fields(kind):
        flag = "--" + name.replace("_", "-")
        meta = _metadata(kind, name)
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
        help = f"{meta.get('help', 'the game' + chr(39) + 's ' + name.replace('_', ' '))} (default {shown}"
        help += f"; {notes[name]})" if notes and name in notes else ")"
        if type_name == "bool":
            group = parser.add_mutually_exclusive_group() if "false" in meta else parser
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None, help=help)
            if "false" in meta:
                group.add_argument(meta["false"], dest=name, action="store_false", help=f"the same as --no-{flag[2:]}")
        else:
            convert, metavar = _PARSERS.get(type_name, (str, "VALUE"))
            parser.add_argument(flag, dest=name, type=convert, default=None, metavar=metavar, help=help)


def fields_given(kind, args) -> dict:
    """The parameters of ``kind`` given on the command line (those left unset keep the game's defaults).

    >>> from fnmcts.games import Piles
    >>> parser = argparse.ArgumentParser()
    >>> add_field_options(parser, Piles)
    >>> fields_given(Piles, parser.parse_args(["--piles", "1,2"])), fields_given(Piles, parser.parse_args([]))
    ({'piles': (1, 2)}, {})
    >>> fields_given(Piles, parser.parse_args(["--piles", "1 3 5"]))
    {'piles': (1, 3, 5)}
    """
    return {name: getattr(args, name) for name, _, _ in game_fields(kind) if getattr(args, name, None) is not None}


def _example_keyword(name: str, rest: str) -> str:
    """A keyword for the example of a spec's parameters: the first typed, else the built-in game's first field."""
    import re

    from ..games import GAMES

    typed = re.match(r"\s*([A-Za-z_]\w*)\s*=", rest)
    if typed:
        return typed.group(1)
    kind = GAMES.get(name)
    if kind is None or not dataclasses.is_dataclass(kind):  # a game of one's own, not imported to be read here
        return "size"
    names = [f.name for f in dataclasses.fields(kind) if f.init]
    if not names:
        raise CliError(f"{name} takes no parameters: write it as {name}")
    return names[0]


def split_call(spec: str):
    """``(name, {keyword: value})`` of a spec with parameters, ``(spec, {})`` without.

    >>> split_call("mygames:Connect(rows=4, name='c4')")
    ('mygames:Connect', {'rows': 4, 'name': 'c4'})
    >>> split_call("nim")
    ('nim', {})
    >>> split_call("nim(heap=five)")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: the parameters of nim(heap=five) must be keyword=literal pairs, e.g. nim(heap=5)

    The example takes the keyword typed, else a parameter of the game (never one it lacks, as Pig's heap):

    >>> split_call("pig(goal=x)")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: the parameters of pig(goal=x) must be keyword=literal pairs, e.g. pig(goal=5)
    >>> split_call("pig(100)")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: the parameters of pig(100) must be keyword=literal pairs, e.g. pig(goal=5)
    >>> split_call("tic-tac-toe(3)")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: tic-tac-toe takes no parameters: write it as tic-tac-toe
    """
    spec = spec.strip()
    if not spec.endswith(")") or "(" not in spec:
        return spec, {}
    name, _, rest = spec.partition("(")

    def problem() -> CliError:
        example = f"{name.strip()}({_example_keyword(name.strip(), rest)}=5)"
        return CliError(f"the parameters of {spec} must be keyword=literal pairs, e.g. {example}")

    try:
        call = ast.parse(f"f({rest}", mode="eval").body
    except SyntaxError:
        raise problem() from None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
        raise problem()
    try:
        values = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except ValueError:
        raise problem() from None
    return name.strip(), values
