"""Mutation testing of a game's rules: change the rules one slip at a time and see which slips the checks catch.

``mutants(game)`` reads the source of the game's rule methods (``start``,
``to_move``, ``possible_moves``, ``chance_outcomes``, ``play``, ``payoff``),
of the methods and module functions they call, and of the module constants
they read, and makes one *mutant* per slip of ``OPERATORS``: a comparison
flipped, ``and`` for ``or``, a ``not`` dropped, an integer one more or one
less, an if's branches swapped, and slips that only games have: an index one
off, the players of a payoff swapped, ``to_move`` ignoring its end test, one
line dropped from a table of lines, a chance outcome's probability moved
to another outcome. ``mutate(game, ...)`` runs the checks
you name (the laws of ``check_game``, goldens of ``check_count``, another
implementation with ``check_against``) on every mutant, each in a worker
process within its own time budget, and returns a ``MutationReport``: the
mutants killed (a check failed, or the mutant ran out of its budget), and
each survivor with its diff and the shortest line of play on which the
mutant and the game differ, or "equivalent" when a walk of every reachable
state finds no difference (the same player to move, moves, next states,
chance outcomes and payoffs everywhere).

>>> from fnmcts.testing.games import TableGame
>>> len(OPERATORS), sorted(OPERATORS)[:3]
(11, ['and_or', 'branches', 'chance_probability'])

The unmutated game is the reference: a survivor comes with the line to add
to a test (a golden, or a check of that state), and an equivalent mutant
needs none.
"""

from __future__ import annotations

import ast
import copy
import difflib
import inspect
import math
import os
import signal
import textwrap
import threading
import time
from collections import deque
from typing import Any, NamedTuple

from ..limits import address_cap
from ..protocol import game_text

__all__ = ["OPERATORS", "RULE_METHODS", "Mutant", "MutantVerdict", "MutationReport", "mutants", "mutant_game", "mutate", "PytestCheck",
           "distinguish", "DEFAULT_BUDGET", "BUDGET_FACTOR", "DEFAULT_MEMORY"]

RULE_METHODS = ("start", "to_move", "possible_moves", "chance_outcomes", "play", "payoff")
"""The methods of the protocol whose code, and the code they call, is mutated."""

DEFAULT_BUDGET = 60.0
"""Seconds a mutant's checks may take before it counts as killed ("timed out")."""

BUDGET_FACTOR = 3
"""A mutant's budget is at least this many times what the game's own checks took: a game whose checks are slow
(its rules slow, or large) gets verdicts from its checks, not from the clock."""

DEFAULT_MEMORY = 2.0
"""Gigabytes of address space a mutant's checks may take above what its process held as they began: a mutant
whose states grow without end (a slice one off that doubles the board) meets a ``MemoryError`` there, a
verdict, before it takes the machine's memory (Linux; elsewhere no cap)."""


OPERATORS = {
    "comparison": "a comparison negated: == and !=, < and >=, > and <=, in and not in, is and is not",
    "and_or": "and for or, or for and",
    "not": "a not dropped",
    "constant": "an integer constant one more, and one less",
    "branches": "the two branches of an if (or of x if c else y) swapped",
    "index": "an index or a slice bound one more, and one less (off by one on the board)",
    "payoff_players": "in payoff, a returned payoff with its players in reverse order",
    "to_move_end": "in to_move, an if that returns None (the end of the game) never taken",
    "drop_line": "one entry dropped from a module constant that is a tuple or list of tuples (a table of win lines)",
    "return_none": "in a helper other than a rule method, a return of a value replaced by a return of its falsy twin "
                   "(0, (), None)",
    "chance_probability": "in chance_outcomes, half of one outcome's probability given to another (the second's to "
                          "the first, or the first's to the last): still exact, positive and summing to 1",
}
"""The mutation operators, each a name and what it changes (the order of the mutants follows the source)."""


class Mutant(NamedTuple):
    """One slip: its number, its operator, the function it is in, the line, a one-line description and a diff.

    >>> from fnmcts.games.nim import Nim
    >>> first = mutants(Nim(heap=3))[0]
    >>> first.index, first.operator in OPERATORS
    (0, True)
    """

    index: int
    operator: str
    function: str  # Class.method or a module function
    line: int  # in the file of the game's module
    description: str
    diff: str


class MutantVerdict(NamedTuple):
    """What the checks made of one mutant: ``"killed"``, ``"timed out"`` (killed too) or ``"survived"``.

    ``reason``: the first line of the check that failed (killed), or how long
    it ran (timed out); ``line``: for a survivor, the shortest line of play
    (the steps from the start) on which it differs from the game, with what
    differs in ``difference``, or None and ``difference == "equivalent"``
    when every reachable state was compared and none differs (``"no
    difference found in N states"`` when the walk stopped short).

    >>> MutantVerdict(Mutant(0, "not", "f", 1, "", ""), "killed", "laws: ...", None, None, 0.1).killed
    True
    """

    mutant: Mutant
    verdict: str
    reason: str | None
    line: tuple | None
    difference: str | None
    seconds: float

    @property
    def killed(self) -> bool:
        """True for ``"killed"`` and ``"timed out"``.

        >>> MutantVerdict(Mutant(0, "not", "f", 1, "", ""), "timed out", "over 1 s", None, None, 1.0).killed
        True
        """
        return self.verdict != "survived"


class MutationReport(NamedTuple):
    """The verdicts of a mutation run, in mutant order; ``str`` gives "killed K of N" and every survivor.

    >>> report = MutationReport("G()", ("laws",), (), 0.0)
    >>> report.killed, report.total, report.score
    (0, 0, None)
    """

    game: str
    checks: tuple
    verdicts: tuple
    seconds: float

    @property
    def killed(self) -> int:
        """The mutants killed (timed out included).

        >>> MutationReport("G()", (), (), 0.0).killed
        0
        """
        return sum(v.killed for v in self.verdicts)

    @property
    def total(self) -> int:
        """The mutants run.

        >>> MutationReport("G()", (), (), 0.0).total
        0
        """
        return len(self.verdicts)

    @property
    def equivalent(self) -> int:
        """The survivors shown equivalent to the game (no check can kill them).

        >>> MutationReport("G()", (), (), 0.0).equivalent
        0
        """
        return sum(v.difference == "equivalent" for v in self.verdicts)

    @property
    def score(self) -> float | None:
        """Killed over the mutants that are not equivalent (None when there are none).

        >>> MutationReport("G()", (), (), 0.0).score is None
        True
        """
        live = self.total - self.equivalent
        return None if live == 0 else self.killed / live

    def summary(self) -> str:
        """One line: "killed K of N", how many timed out, survived, and were shown equivalent.

        >>> MutationReport("G()", ("laws",), (), 0.0).summary()
        'killed 0 of 0 mutants of G() (laws)'
        """
        return _summary(self)

    def __str__(self) -> str:
        return _report_text(self)

    def to_json(self) -> dict:
        """A JSON-ready form: the counts, and each mutant with its verdict.

        >>> MutationReport("G()", ("laws",), (), 1.0).to_json()["killed"]
        0
        """
        return {"game": self.game, "checks": list(self.checks), "killed": self.killed, "total": self.total,
                "equivalent": self.equivalent, "score": self.score, "seconds": round(self.seconds, 2),
                "mutants": [{"index": v.mutant.index, "operator": v.mutant.operator, "function": v.mutant.function,
                             "line": v.mutant.line, "description": v.mutant.description, "diff": v.mutant.diff,
                             "verdict": v.verdict, "reason": v.reason,
                             "differs_on": None if v.line is None else [repr(s) for s in v.line],
                             "difference": v.difference, "seconds": round(v.seconds, 3)} for v in self.verdicts]}


# -- finding the code to mutate ------------------------------------------------------------------------


class _Source(NamedTuple):
    """The code of one function (or constant) to mutate: where it lives and its parsed tree."""

    name: str  # the method's or the module function's name, or the constant's
    kind: str  # "method", "function" or "constant"
    tree: ast.AST  # the FunctionDef, or the constant's value
    offset: int  # add to the tree's line numbers for the line in the file


def _sources(cls) -> tuple:
    """The rule methods of ``cls``, the methods and module functions they call, the module constants they read."""
    import sys

    module = sys.modules[cls.__module__]
    try:
        text = textwrap.dedent(inspect.getsource(cls))
        _, first = inspect.getsourcelines(cls)
    except (OSError, TypeError) as error:
        raise ValueError(f"the source of {cls.__qualname__} cannot be read ({error}): mutate needs a game whose "
                         "class is defined in a file") from None
    classdef = ast.parse(text).body[0]
    methods = {node.name: node for node in classdef.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    wanted = deque(name for name in RULE_METHODS if name in methods)
    found, order = {}, []
    while wanted:
        name = wanted.popleft()
        if name in found:
            continue
        if name in methods:
            found[name] = _Source(name, "method", methods[name], first - 1)
        else:
            found[name] = _module_source(module, name)
            if found[name] is None:
                continue
        order.append(name)
        for node in ast.walk(found[name].tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
                    and node.attr in methods):
                wanted.append(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in found:
                wanted.append(node.id)
    return tuple(found[name] for name in order if found[name] is not None)


def _module_source(module, name: str):
    """A module function of ``module`` called ``name`` (defined in it), or a constant table of tuples, or None."""
    value = getattr(module, name, None)
    if inspect.isfunction(value) and value.__module__ == module.__name__:
        try:
            lines, first = inspect.getsourcelines(value)
        except (OSError, TypeError):
            return None
        return _Source(name, "function", ast.parse(textwrap.dedent("".join(lines))).body[0], first - 1)
    if isinstance(value, (tuple, list)) and len(value) > 1 and all(isinstance(x, tuple) for x in value):
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError):
            return None
        for node in tree.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == name and isinstance(node.value, (ast.Tuple, ast.List))):
                return _Source(name, "constant", node.value, 0)
    return None


# -- the operators -----------------------------------------------------------------------------------

_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE,
            ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


def _shifted(node, by: int):
    """``node + by`` as an expression (``node - 1`` for ``by == -1``)."""
    return ast.BinOp(left=node, op=ast.Add() if by > 0 else ast.Sub(), right=ast.Constant(abs(by)))


def _falsy(node):
    """The falsy value of the kind a return gives: ``()`` for a tuple, ``0`` for a number, else None."""
    if isinstance(node, (ast.Tuple, ast.GeneratorExp, ast.ListComp)) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tuple"):
        return ast.Tuple(elts=[], ctx=ast.Load())
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return ast.Constant(0)
    return ast.Constant(None)


def _points(source: _Source) -> list:
    """``[(operator, node, [(description, replacement), ...]), ...]``: every place a slip can go, in source order."""
    points = []
    if source.kind == "constant":
        elements = source.tree.elts
        for i, element in enumerate(elements):
            kept = [e for j, e in enumerate(elements) if j != i]
            points.append(("drop_line", source.tree, [(f"{source.name} without {ast.unparse(element)}",
                                                       type(source.tree)(elts=kept, ctx=ast.Load()))]))
        return points
    name = source.name
    for node in ast.walk(source.tree):
        points += _node_points(name, source.kind, node)
    points.sort(key=lambda p: (getattr(p[1], "lineno", 0), getattr(p[1], "col_offset", 0), p[0]))
    return points


def _node_points(name: str, kind: str, node) -> list:
    """The slips one node can take (see ``OPERATORS``), in ``function`` ``name`` of ``kind``."""
    return [point for kinds, make in _MAKERS if isinstance(node, kinds) for point in make(name, kind, node)]


def _compare_points(name, kind, node) -> list:
    found = []
    for i, op in enumerate(node.ops):  # a chain (a == b == c) has a slip at each comparison
        if type(op) in _NEGATED:
            flipped = _NEGATED[type(op)]()
            which = f" (comparison {i + 1})" if len(node.ops) > 1 else ""
            ops = node.ops[:i] + [flipped] + node.ops[i + 1:]
            found.append(("comparison", node, [(f"{_op(op)} -> {_op(flipped)}{which}",
                                                ast.Compare(left=node.left, ops=ops, comparators=node.comparators))]))
    return found


def _bool_points(name, kind, node) -> list:
    other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    return [("and_or", node, [(f"{_op(node.op)} -> {_op(other)}", ast.BoolOp(op=other, values=node.values))])]


def _not_points(name, kind, node) -> list:
    if not isinstance(node.op, ast.Not):
        return []
    return [("not", node, [(f"not {ast.unparse(node.operand)} -> {ast.unparse(node.operand)}", node.operand)])]


def _constant_points(name, kind, node) -> list:
    if type(node.value) is not int:
        return []
    return [("constant", node, [(f"{node.value} -> {node.value + d}", ast.Constant(node.value + d)) for d in (1, -1)])]


def _if_points(name, kind, node) -> list:
    found = []
    if node.orelse:
        found.append(("branches", node, [(f"if {ast.unparse(node.test)}: branches swapped",
                                          ast.If(test=node.test, body=node.orelse, orelse=node.body))]))
    if name == "to_move" and _returns_none(node.body):
        found.append(("to_move_end", node, [(f"if {ast.unparse(node.test)}: never taken",
                                             ast.If(test=ast.Constant(False), body=node.body, orelse=node.orelse))]))
    return found


def _if_expression_points(name, kind, node) -> list:
    return [("branches", node, [(f"{ast.unparse(node)}: branches swapped",
                                 ast.IfExp(test=node.test, body=node.orelse, orelse=node.body))])]


def _index_points(name, kind, node) -> list:
    """Off by one: an index that is not a constant (the constants have their own slips), or a slice bound."""
    index = node.slice
    if isinstance(index, ast.Slice):
        found = []
        for bound in ("lower", "upper"):
            value = getattr(index, bound)
            if value is None or isinstance(value, ast.Constant):
                continue
            variants = []
            for d in (1, -1):
                changed = ast.Slice(**{**{f: getattr(index, f) for f in ("lower", "upper", "step")},
                                       bound: _shifted(value, d)})
                variants.append((f"[{ast.unparse(index)}] -> [{ast.unparse(changed)}]",
                                 ast.Subscript(value=node.value, slice=changed, ctx=node.ctx)))
            found.append(("index", node, variants))
        return found
    if isinstance(index, (ast.Constant, ast.Tuple)):
        return []
    return [("index", node, [(f"[{ast.unparse(index)}] -> [{ast.unparse(_shifted(index, d))}]",
                              ast.Subscript(value=node.value, slice=_shifted(index, d), ctx=node.ctx))
                             for d in (1, -1)])]


def _return_points(name: str, kind: str, node) -> list:
    """Swapped players in ``payoff``'s returns; a falsy return in a helper."""
    if node.value is None:
        return []
    if name == "payoff":
        reversed_ = ast.Call(func=ast.Name("tuple", ast.Load()), args=[ast.Call(
            func=ast.Name("reversed", ast.Load()), args=[ast.Call(func=ast.Name("tuple", ast.Load()),
                                                                  args=[node.value], keywords=[])], keywords=[])],
            keywords=[])
        return [("payoff_players", node, [(f"return {ast.unparse(node.value)}: players reversed",
                                           ast.Return(value=reversed_))])]
    if name == "chance_outcomes" and not _empty(node.value):
        return [("chance_probability", node, [(f"return {ast.unparse(node.value)}: {what}",
                                               ast.Return(value=_moved_mass(node.value, template)))
                                              for what, template in _MASS_MOVES])]
    if name not in RULE_METHODS and not (isinstance(node.value, ast.Constant) and not node.value.value):
        falsy = _falsy(node.value)
        return [("return_none", node, [(f"return {ast.unparse(node.value)} -> return {ast.unparse(falsy)}",
                                        ast.Return(value=falsy))])]
    return []


_MASS_MOVES = (
    ("half the second outcome's probability moved to the first",
     "(lambda outcomes: tuple((o, p + outcomes[1][1] / 2 if i == 0 else p / 2 if i == 1 else p) "
     "for i, (o, p) in enumerate(outcomes)) if len(outcomes) > 1 else outcomes)(tuple(OUTCOMES))"),
    ("half the first outcome's probability moved to the last",
     "(lambda outcomes: tuple((o, p / 2 if i == 0 else p + outcomes[0][1] / 2 if i == len(outcomes) - 1 else p) "
     "for i, (o, p) in enumerate(outcomes)) if len(outcomes) > 1 else outcomes)(tuple(OUTCOMES))"),
)
"""The ``chance_probability`` slips: a description and the expression that wraps the outcomes returned (``OUTCOMES``)."""


def _empty(node) -> bool:
    """True for a literal that returns no outcomes: ``()``, ``[]``, None."""
    return (isinstance(node, (ast.Tuple, ast.List)) and not node.elts) or (
        isinstance(node, ast.Constant) and node.value is None)


def _moved_mass(outcomes, template: str):
    """``template`` as an expression, with the returned ``outcomes`` expression where it says ``OUTCOMES``."""
    tree = ast.parse(template, mode="eval").body
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(isinstance(x, ast.Name) and x.id == "OUTCOMES" for x in value):
                setattr(parent, field, [outcomes if isinstance(x, ast.Name) and x.id == "OUTCOMES" else x
                                        for x in value])
    return tree


_MAKERS = ((ast.Compare, _compare_points), (ast.BoolOp, _bool_points), (ast.UnaryOp, _not_points),
           (ast.Constant, _constant_points), (ast.If, _if_points), (ast.IfExp, _if_expression_points),
           (ast.Subscript, _index_points), (ast.Return, _return_points))
"""Node types and the functions that list their slips."""


def _returns_none(body) -> bool:
    return any(isinstance(s, ast.Return) and (s.value is None or (isinstance(s.value, ast.Constant)
                                                                  and s.value.value is None)) for s in body)


def _op(op) -> str:
    return {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
            ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.And: "and", ast.Or: "or"}[type(op)]


def _replace(tree, old, new):
    """``tree`` with the node ``old`` replaced by ``new`` (``tree`` itself changed; ``new`` when ``old`` is it)."""
    if tree is old:
        return new
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return tree
            if isinstance(value, list) and any(item is old for item in value):
                setattr(parent, field, [new if item is old else item for item in value])
                return tree
    raise ValueError("the node to replace is not in the tree")


# -- making mutants ------------------------------------------------------------------------------------


def _plan(cls, operators) -> list:
    """``[(source number, point number, variant number, Mutant), ...]``: every mutant of ``cls``, in source order."""
    plan = []
    for s, source in enumerate(_sources(cls)):
        for p, (operator, node, variants) in enumerate(_points(source)):
            if operator not in operators:
                continue
            for v, (description, _) in enumerate(variants):
                before = ast.unparse(source.tree)
                after = ast.unparse(_applied(source, p, v))
                if before == after:
                    continue
                line = getattr(node, "lineno", getattr(source.tree, "lineno", 1)) + source.offset
                where = f"{cls.__qualname__}.{source.name}" if source.kind == "method" else source.name
                plan.append((s, p, v, Mutant(len(plan), operator, where, line, f"{where}: {description}",
                                             _diff(before, after, where))))
    return plan


def _applied(source: _Source, point: int, variant: int):
    """A copy of ``source``'s tree with variant ``variant`` of its slip number ``point`` applied."""
    fresh = source._replace(tree=copy.deepcopy(source.tree))
    _, node, variants = _points(fresh)[point]
    return _replace(fresh.tree, node, variants[variant][1])


def _diff(before: str, after: str, where: str) -> str:
    return "".join(difflib.unified_diff((before + "\n").splitlines(True), (after + "\n").splitlines(True), f"{where} (the game)",
                                        f"{where} (the mutant)", n=1)).rstrip("\n")


def _operators(operators) -> tuple:
    chosen = tuple(OPERATORS) if operators is None else tuple(operators)
    unknown = [name for name in chosen if name not in OPERATORS]
    if unknown:
        raise ValueError(f"unknown mutation operator {unknown[0]!r}; choose from {', '.join(OPERATORS)}")
    return chosen


def mutants(game, operators=None) -> tuple:
    """Every mutant of ``game``'s rules by ``operators`` (default: all of ``OPERATORS``), as ``Mutant`` values.

    >>> import fnmcts.games.nim as nim
    >>> found = mutants(nim.Nim(heap=3), operators=["comparison"])
    >>> found[0].function, found[0].description.split(": ")[1]
    ('Nim.to_move', '> -> <=')
    """
    return tuple(m for *_, m in _plan(type(game), _operators(operators)))


def mutant_game(game, index: int, operators=None):
    """The game with mutant ``index`` of ``mutants(game, operators)`` applied: the same fields, rules changed.

    >>> import fnmcts.games.nim as nim
    >>> changed = mutant_game(nim.Nim(heap=3), 0, operators=["comparison"])
    >>> changed.to_move(changed.start()) is None  # heap > 0 -> heap <= 0: the game over at the start
    True
    """
    with _AST_BUILT:  # mutants made at once on threads (an executor's): one at a time through Python's AST
        return _mutant_game(game, index, operators)


_AST_BUILT = threading.Lock()
"""Held while a mutant's source is parsed and compiled: CPython 3.11 builds ASTs on threads at once wrongly
(``SystemError: AST constructor recursion depth mismatch``, python/cpython#106905), which ``mutate`` on a thread
executor met."""


def _mutant_game(game, index: int, operators):
    import sys

    cls = type(game)
    plan = _plan(cls, _operators(operators))
    if not 0 <= index < len(plan):
        raise ValueError(f"no mutant {index}: {cls.__qualname__} has {len(plan)} mutants (0 to {len(plan) - 1})")
    s, p, v, _ = plan[index]
    sources = list(_sources(cls))
    source = sources[s]
    changed = _applied(source, p, v)
    namespace = dict(vars(sys.modules[cls.__module__]))
    if source.kind == "constant":
        namespace[source.name] = eval(compile(ast.Expression(ast.fix_missing_locations(changed)), "<mutant>", "eval"),
                                      namespace)
    elif source.kind == "function":
        _define(changed, namespace, source.offset)
    classdef = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    if source.kind == "method":
        classdef.body = [changed if isinstance(n, ast.FunctionDef) and n.name == source.name else n
                         for n in classdef.body]
    _define(classdef, namespace, inspect.getsourcelines(cls)[1] - 1)
    mutated = namespace[classdef.name]
    mutated._fnmcts_mutant = (cls, index, operators)  # what made it: a check in another process makes it again
    twin = copy.copy(game)
    object.__setattr__(twin, "__class__", mutated)
    return twin


def _define(node, namespace: dict, offset: int) -> None:
    """Run the definition ``node`` in ``namespace`` (its lines as in the file, for tracebacks)."""
    module = ast.Module(body=[node], type_ignores=[])
    ast.increment_lineno(module, offset)
    exec(compile(ast.fix_missing_locations(module), namespace.get("__file__") or "<mutant>", "exec"), namespace)


# -- telling a mutant from the game ----------------------------------------------------------------------


def distinguish(game, other, limit: int = 100_000) -> tuple:
    """``(line, what)``: the shortest line of play on which ``other`` differs from ``game``, breadth-first.

    At every state ``game`` reaches, both are asked who is to move, the moves
    (or chance outcomes, with their probabilities), the payoff at the end and
    the state each step leads to. ``line`` is the steps from the start to the
    first difference and ``what`` says it; ``(None, "equivalent")`` when all
    the reachable states were compared and agree; ``(None, "no difference
    found in N states")`` when ``limit`` states were compared first.

    >>> from fnmcts.games import Nim
    >>> distinguish(Nim(heap=4), Nim(heap=4, max_take=2))
    ((), 'moves (1, 2, 3) in the game, moves (1, 2) in the mutant')
    >>> distinguish(Nim(heap=4), Nim(heap=4))
    (None, 'equivalent')
    """
    from .differential import _compare, _play_both
    from ._walk import game_call

    same = lambda step: step  # noqa: E731 - the mutant knows the game's moves
    start = game_call("start", game.start)
    other_start = game_call("start", other.start)
    if start != other_start:
        return (), f"start: {start!r} in the game, {other_start!r} in the mutant"
    queue, seen = deque([((), start)]), {start}
    while queue:
        if len(seen) > limit:
            return None, f"no difference found in {limit:,} states"
        path, state = queue.popleft()
        found, steps = _compare(game, other, same, path, state, state)
        if found is not None:
            said = f"{found.a} in the game, {found.b} in the mutant"
            return path, said if found.a.startswith(found.what) else f"{found.what}: {said}"
        for step, _ in steps:
            (child, twin), errors = _play_both(game, other, state, state, step, step)
            if any(errors):
                return path + (step,), f"play: {errors[0] or 'no exception'} in the game, " \
                                       f"{errors[1] or 'no exception'} in the mutant"
            if child != twin:
                return path + (step,), f"next state: {child!r} in the game, {twin!r} in the mutant"
            if child not in seen:
                seen.add(child)
                queue.append((path + (step,), child))
    return None, "equivalent"


# -- running the checks ------------------------------------------------------------------------------------


ALARM_AGAIN = 0.05  # seconds between a budget's alarm and the next, until the run is over


class _OverBudget(BaseException):
    """Raised in a mutant's run when its budget is spent (a BaseException: the game's own handlers let it by).

    Its ``where`` is the innermost place in the game's own code the run was
    in (``"the game's play (line 78)"``), or None; ``check`` is the name of
    the check that was running, set as it leaves that check.
    """

    def __init__(self, where: str | None = None):
        super().__init__(where)
        self.where = where
        self.check = None


def _alarm_in(file, deadline: float = -math.inf):
    """The SIGALRM handler of a mutant's run: raise ``_OverBudget`` saying where in ``file`` (the game's files) it was.

    An alarm before ``deadline`` (``time.perf_counter()``'s) is another run's, handled late: it is let by.

    >>> _alarm_in(None, time.perf_counter() + 60)(14, None) is None  # early: not this run's
    True
    """

    def alarm(signum, frame):
        if time.perf_counter() >= deadline:
            raise _OverBudget(_where(frame, file))

    return alarm


def _where(frame, file) -> str | None:
    """``"the game's NAME (line N)"`` of the innermost frame of ``frame``'s stack whose code is in ``file``.

    ``file`` is a path or a collection of paths (the game's files, ``_game_files``); a path is compared as
    the file it names, whether written relative to the current folder, through ``..`` or a symbolic link.
    The mutant's methods are compiled with the game's file and its lines, so
    the line is the one of the mutated source.

    >>> import os, sys
    >>> space = {"sys": sys}
    >>> exec(compile("def play():\\n    return sys._getframe()\\n", "game.py", "exec"), space)
    >>> _where(space["play"](), "game.py")
    "the game's play (line 2)"
    >>> _where(space["play"](), [os.path.abspath("game.py")])  # the same file, written otherwise
    "the game's play (line 2)"
    >>> _where(space["play"](), "other.py") is None  # nor fnmcts's own code on that stack
    True
    >>> space["_where"] = _where
    >>> exec(compile("def payoff():\\n    return next(_where(sys._getframe(), 'game.py')\\n                for _ in [0])\\n",
    ...              "game.py", "exec"), space)
    >>> space["payoff"]()  # in a generator expression: its function's name, its own line
    "the game's payoff (line 2)"
    """
    innermost, line = frame, None
    files = None if file is None else {_real(f) for f in ([file] if isinstance(file, str) else file)}
    while files and frame is not None:
        if _real(frame.f_code.co_filename) in files:
            line = frame.f_lineno if line is None else line
            if not frame.f_code.co_name.startswith("<"):  # a generator expression's: named by its function
                return f"the game's {frame.f_code.co_name} (line {line})"
        frame = frame.f_back
    return f"the game's code (line {line})" if line is not None else _fnmcts_frame(innermost)


def _real(path: str) -> str:
    """The file ``path`` names, as one string whatever the spelling (relative, ``..``, a link, the case on Windows)."""
    return os.path.normcase(os.path.realpath(path))


def _fnmcts_frame(frame) -> str | None:
    """``"fnmcts's NAME (path line N)"`` of the innermost frame of fnmcts's code on ``frame``'s stack (the runner's
    module and the protocol's wrappers of game calls aside), or None.

    A mutant that runs out of time outside the game's code (a law solving a
    subgame the mutant made huge) says where in fnmcts the time went.

    >>> from fnmcts.testing.playthroughs import playthrough_seed
    >>> try:
    ...     playthrough_seed("not one")
    ... except ValueError as error:
    ...     frame = error.__traceback__.tb_next.tb_frame
    >>> _fnmcts_frame(frame).split(" (")[0], _fnmcts_frame(frame).split(" (")[1].split(" line ")[0]
    ("fnmcts's playthrough_seed", 'fnmcts/testing/playthroughs.py')
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the fnmcts package
    passed = {os.path.abspath(__file__), os.path.join(root, "protocol.py")}  # the runner, the wrappers of game calls
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if path.startswith(root + os.sep) and path not in passed:
            where = os.path.relpath(path, os.path.dirname(root)).replace(os.sep, "/")
            return f"fnmcts's {frame.f_code.co_name} ({where} line {frame.f_lineno})"
        frame = frame.f_back
    return None


def _game_files(game) -> frozenset:
    """The files the game's code was read from: its class's module and those of its base classes (a base in
    another of the user's files), fnmcts's own (``GameBase``) aside. Its mutants' code is compiled as its module's.

    >>> from fnmcts.games import Nim
    >>> sorted(os.path.basename(f) for f in _game_files(Nim()))
    ['nim.py']
    """
    import sys

    package = _real(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # fnmcts: GameBase's defaults
    files = [getattr(sys.modules.get(kind.__module__), "__file__", None) for kind in type(game).__mro__]
    bases = {f for f in files[1:] if f and not _real(f).startswith(package + os.sep)}
    return frozenset(bases | ({files[0]} if files[0] else set()))


def _over_budget(over: _OverBudget, stage: str, budget) -> str:
    """The reason of a mutant that ran past its budget: the check (or stage), the budget, where in the game.

    >>> over = _OverBudget("the game's play (line 78)")
    >>> over.check = "laws"
    >>> _over_budget(over, "comparing it with the game", 60.0)
    "laws: ran past the budget of 60 s inside the game's play (line 78)"
    >>> _over_budget(_OverBudget(), "comparing it with the game", 2.5)
    'comparing it with the game: ran past the budget of 2.5 s'
    """
    text = f"{over.check or stage}: ran past the budget of {budget:g} s"
    return text if over.where is None else f"{text} inside {over.where}"


def _run_one(job) -> tuple:
    """``(verdict, reason, line, difference, seconds)`` of one mutant: its checks within its budget (time and
    memory), then a comparison with the game for a survivor. Runs in a worker (or in this process).

    The clock starts once the mutant is made (the same parse of the game's
    source for every mutant, not the mutant's doing)."""
    began = time.perf_counter()
    try:
        return _timed_run(job, began)
    except _OverBudget as over:  # the budget's next alarm, come while the first one's verdict was written
        return "timed out", _over_budget(over, "its checks", job[4]), None, None, time.perf_counter() - began


def _timed_run(job, began) -> tuple:
    """``_run_one``'s work; its alarm cancelled whatever happens (``_disarm``)."""
    game, index, operators, checks, budget, limit, memory = job
    main = threading.current_thread() is threading.main_thread()  # a process-wide timer and cap: main thread only
    timed = main and budget is not None
    previous, stage = None, "its checks"
    try:
        with address_cap(memory if main else None):
            twin = mutant_game(game, index, operators)
            if timed:
                deadline = time.perf_counter() + budget * (1 - 1e-3)  # an alarm before it is a late one of another run
                previous = signal.signal(signal.SIGALRM, _alarm_in(_game_files(game), deadline))
                # then again every 50 ms until cancelled: an alarm raised where Python swallows the exception
                # (a gc callback, a __del__) is raised again, never lost
                signal.setitimer(signal.ITIMER_REAL, budget, ALARM_AGAIN)
            failed = _first_failure(twin, checks)
            if failed is not None:
                return "killed", failed, None, None, time.perf_counter() - began
            stage = "comparing it with the game"
            line, what = distinguish(game, twin, limit)
            return "survived", None, line, what, time.perf_counter() - began
    except _OverBudget as over:
        return "timed out", _over_budget(over, stage, budget), None, None, time.perf_counter() - began
    except MemoryError:  # making the mutant or comparing it with the game, past the memory cap (or the machine's)
        where = "the machine's memory" if memory is None else f"the memory cap of {memory:g} GB"
        return "killed", f"MemoryError: its run ran past {where}", None, None, time.perf_counter() - began
    finally:
        if timed:
            _disarm(previous)


def _disarm(previous) -> None:
    """Stop a mutant's budget alarm and put back the ``previous`` handler (None: leave it), whatever fires meanwhile.

    The alarm can fire after the run's verdict is made, as it is cancelled: it
    is caught here and the cancel tried again, so a verdict already made is
    kept and nothing escapes into the caller's loop (a whole run's work lost).
    """
    while True:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if previous is not None:
                signal.signal(signal.SIGALRM, previous)
            return
        except _OverBudget:
            continue


def _first_failure(twin, checks) -> str | None:
    """The first line of the first check ``twin`` fails, named by the check; None when it passes them all."""
    for name, check in checks:
        try:
            check(twin)
        except _OverBudget as over:  # the check that was running, for the verdict's reason
            over.check = over.check or name
            raise
        except AssertionError as failure:
            return f"{name}: {_first_line(failure)}"
        except MemoryError:  # past the memory cap (``DEFAULT_MEMORY``): a state that grows without end
            return f"{name}: MemoryError: its checks ran past the memory cap"
        except Exception as error:  # a mutant that raises where a check calls it: killed by that check
            return f"{name}: {type(error).__name__}: {_first_line(error)}"
    return None


def _first_line(error) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


class LawsCheck(NamedTuple):
    """The laws of ``check_game`` as a mutant's check (a value, so a worker process can run it)."""

    examples: int
    seed: int
    max_steps: int | None

    def __call__(self, game) -> None:
        from ..limits import size_hint
        from ._walk import DEFAULT_MAX_STEPS
        from .check import check_game

        steps = self.max_steps
        if steps is None:
            steps = size_hint(game, game.start())[1] or DEFAULT_MAX_STEPS
        check_game(game, max_examples=self.examples, seed=self.seed, max_steps=steps)


class GoldensCheck(NamedTuple):
    """Golden entries (``check_count``) as a mutant's check."""

    entries: tuple

    def __call__(self, game) -> None:
        import warnings

        from .goldens import GoldenWarning, check_count

        for entry in self.entries:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", GoldenWarning)
                found = check_count(entry, game=game)
            if found:
                raise AssertionError(f"golden {entry.get('name', '?')!r}: {found[0]}")


class AgainstCheck(NamedTuple):
    """``check_against`` another implementation as a mutant's check."""

    reference: Any
    seed: int

    def __call__(self, game) -> None:
        from .differential import check_against

        check_against(game, self.reference, seed=self.seed)


class FailsItsChecks(ValueError):
    """The game given to ``mutate`` fails the checks itself: the game (or a check) is at fault, not the call.

    >>> issubclass(FailsItsChecks, ValueError)
    True
    """


class PlaythroughsCheck(NamedTuple):
    """Recorded playthroughs (``fnmcts.testing.playthrough`` texts) as a mutant's check: each played again, line for line.

    A playthrough pins what counts do not: the states' own values, the
    player to move and the payoffs along one seeded game (a mutant that
    renames the ends one for one agrees with every count, not with this).

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.testing import playthrough
    >>> check = PlaythroughsCheck((playthrough(Nim(heap=5), seed=1),))
    >>> check(Nim(heap=5)) is None
    True
    >>> check(Nim(heap=6))
    Traceback (most recent call last):
    ...
    AssertionError: playthrough of seed 1: line 2: the file says "game: Nim(heap=5, max_take=3, misere=True)", the game gives "game: Nim(heap=6, max_take=3, misere=True)"
    """

    texts: tuple

    def __call__(self, game) -> None:
        from ..protocol import GameError
        from .playthroughs import check_playthrough, playthrough_seed

        for text in self.texts:
            try:
                found = check_playthrough(game, text)
            except (AssertionError, GameError) as raised:  # the game raised, or returned what no game may
                found = str(raised)
            if found is not None:
                raise AssertionError(f"playthrough of seed {playthrough_seed(text)}: {found}")


class PytestCheck(NamedTuple):
    """A pytest file of the user's as a mutant's check: run in a new process, the game's class there the mutant's.

    The file tests the game as it imports it (``from mygame import MyGame``);
    in the new process the game's module is imported first and its class
    replaced by the mutant's, so every test of the file meets the mutant. The
    mutant is killed when a test fails (pytest's first failure is the reason).

    >>> checks = [("laws", LawsCheck(100, 0, None)), ("pytest test_my_game.py", PytestCheck("test_my_game.py"))]
    >>> [name for name, check in checks if isinstance(check, PytestCheck)]
    ['pytest test_my_game.py']
    """

    path: str

    def __call__(self, game) -> None:
        import os
        import pickle
        import subprocess
        import sys
        import tempfile

        made = getattr(type(game), "_fnmcts_mutant", None)
        original, index, operators = (type(game), None, None) if made is None else made
        reference = copy.copy(game)
        object.__setattr__(reference, "__class__", original)
        with tempfile.TemporaryDirectory(prefix="fnmcts-mutant-") as work:
            job = os.path.join(work, "job.pickle")
            with open(job, "wb") as out:
                pickle.dump((original.__module__, reference, index, operators, os.path.abspath(self.path)), out)
            environment = dict(os.environ, PYTHONPATH=os.pathsep.join(p or os.getcwd() for p in sys.path))
            done = subprocess.run([sys.executable, "-m", "fnmcts.testing._pytest_child", job], capture_output=True,
                                  text=True, env=environment)
        if done.returncode == 0:
            return
        if done.returncode == 1:  # a test failed
            raise AssertionError(f"{self.path}: {_pytest_failure(done.stdout)}")
        said = (done.stdout.strip() or done.stderr.strip()).splitlines()
        raise ValueError(f"pytest {self.path} ended with exit status {done.returncode}"
                         + (f": {said[-1]}" if said else ""))


def _pytest_failure(output: str) -> str:
    """The first failed test of pytest's short summary (``FAILED file::test - why``), or its last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return (failed or lines or ["a test failed"])[0]


def mutate(game, *, laws: bool = True, goldens=(), against=None, examples: int = 100, seed: int = 0,
           max_steps: int | None = None, budget: float | None = DEFAULT_BUDGET, memory: float | None = DEFAULT_MEMORY,
           workers: int | None = 1,
           operators=None, sample: int | None = None, limit: int = 100_000, progress=None,
           pytest=(), executor=None, playthroughs=()) -> MutationReport:
    """Run the checks named on every mutant of ``game``'s rules: a ``MutationReport``, survivors explained.

    - ``laws``: ``check_game`` at ``examples`` walks a law (``seed``,
      ``max_steps``: the game's own bound unless told);
    - ``goldens``: golden entries (``record_golden``, ``golden``) the mutant
      must agree with (``check_count``);
    - ``against``: another implementation of the game (``check_against``);
    - ``pytest``: paths of the user's pytest files, each run in a new process
      with the game's class replaced by the mutant's (``PytestCheck``);
    - ``playthroughs``: texts of ``fnmcts.testing.playthrough`` (a trusted
      run's), each the mutant must play again line for line (``PlaythroughsCheck``);
    - ``budget``: seconds a mutant's checks may take (None: no limit), and
      at least ``BUDGET_FACTOR`` times what the game's own checks took; past
      it the mutant is killed, its verdict "timed out"; ``memory``: gigabytes
      of address space a mutant's checks may take above what its process
      held as they began (None: no cap; ``DEFAULT_MEMORY``), past which it
      meets a ``MemoryError`` and is killed, saying so (Linux; like the
      budget, where a task runs in its process's main thread);
    - ``workers``: processes (1: this one), or ``executor``: any executor of
      ``fnmcts.parallel.mapped_on`` (a Dask client, Ray's or mpi4py's pool), each
      mutant one task; the budget holds where a task runs in its process's main
      thread (here, a process pool, Ray, MPI), not in a Dask worker's threads;
      a worker lost mid-run raises ``fnmcts.parallel.WorkerLost`` whose
      ``partial`` is the report of the mutants finished; ``operators``: the names of
      ``OPERATORS`` to use (default all); ``sample``: a seeded sample of this
      many mutants (``seed``); ``limit``: the states compared with the game
      for a survivor before it is called equivalent; ``progress(1)`` after
      each mutant.

    The game itself must pass the checks (else a ``ValueError`` says which
    fails). The verdicts depend on the seed alone, whatever the workers.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.testing import record_golden
    >>> counts = record_golden(Nim(heap=3), playthrough_seed=None)  # the counts alone, no playthrough
    >>> report = mutate(Nim(heap=3), laws=False, goldens=[counts], operators=["comparison"])
    >>> print(report.summary())
    killed 3 of 5 mutants of Nim(heap=3, max_take=3, misere=True) (goldens); 2 survived, 1 of them equivalent: 75% of the 4 that are not
    >>> [(v.mutant.description, v.difference) for v in report.verdicts if not v.killed and v.difference != "equivalent"]
    [('_end_payoff: == -> !=', 'payoff (-1, 1) in the game, payoff (1, -1) in the mutant')]
    """
    import random

    from contextlib import nullcontext

    from ..parallel import WorkerLost, interrupted, lost_worker, mapped_on, worker_pool

    if memory is not None and (isinstance(memory, bool) or not isinstance(memory, (int, float)) or not memory > 0):
        raise ValueError(f"memory is a number of gigabytes above 0 (or None: no cap), got {memory!r}")
    if executor is not None and workers not in (None, 1):
        raise ValueError("give workers= (a process pool of that many) or executor=, not both")
    chosen = _operators(operators)
    everything = mutants(game, chosen)
    picked = everything if sample is None or sample >= len(everything) else \
        tuple(sorted(random.Random(seed).sample(everything, sample)))
    checks, names = [], []
    if laws:
        checks.append(("laws", LawsCheck(examples, seed, max_steps)))
        names.append("laws")
    if goldens:
        checks.append(("goldens", GoldensCheck(tuple(goldens))))
        names.append("goldens")
    if against is not None:
        checks.append(("against", AgainstCheck(against, seed)))
        names.append("against")
    for path in (pytest,) if isinstance(pytest, str) else pytest:
        checks.append((f"pytest {path}", PytestCheck(str(path))))
        names.append(f"pytest {path}")
    if isinstance(playthroughs, str):
        raise TypeError("playthroughs is a sequence of playthrough texts, not one text: give [text]")
    if playthroughs:
        from .playthroughs import playthrough_seed

        for text in playthroughs:
            playthrough_seed(text)  # a ValueError for a text that is not a playthrough
        checks.append(("playthroughs", PlaythroughsCheck(tuple(playthroughs))))
        names.append("playthroughs")
    if not checks:
        raise ValueError("mutate needs a check to run: laws=True, goldens=[...], against=GAME, pytest=[FILE] "
                         "or playthroughs=[TEXT]")
    began = time.perf_counter()
    failed = _first_failure(game, checks)
    if failed is not None:  # every mutant would die of it: the score would mean nothing
        raise FailsItsChecks(f"{game_text(game)} itself fails its checks ({failed}): mutate measures checks the game passes")
    if budget is not None:  # a mutant as slow to check as the game itself has not run past anything
        budget = max(budget, BUDGET_FACTOR * (time.perf_counter() - began))
    jobs = [(game, m.index, chosen, tuple(checks), budget, limit, memory) for m in picked]
    began = time.perf_counter()
    verdicts = []
    with worker_pool(workers) if executor is None else nullcontext(executor) as pool:
        results, _ = mapped_on(pool, _run_one, jobs)
        try:
            for mutant, result in zip(picked, results):
                verdicts.append(MutantVerdict(mutant, *result))
                if progress is not None:
                    progress(1)
        except Exception as error:
            cause = lost_worker(error)
            if cause is None:
                raise
            done = MutationReport(game_text(game), tuple(names), tuple(verdicts), time.perf_counter() - began)
            raise interrupted(WorkerLost(tuple(verdicts), cause), done) from None
    return MutationReport(game_text(game), tuple(names), tuple(verdicts), time.perf_counter() - began)


def _summary(report: MutationReport) -> str:
    survived = report.total - report.killed
    timed = sum(v.verdict == "timed out" for v in report.verdicts)
    text = f"killed {report.killed} of {report.total} mutants of {report.game} ({', '.join(report.checks)})"
    if timed:
        text += f", {timed} of them by timing out"
    if survived:
        text += f"; {survived} survived"
        if report.equivalent:
            text += f", {report.equivalent} of them equivalent"
    if report.score is not None and report.equivalent:
        text += f": {report.score:.0%} of the {report.total - report.equivalent} that are not"
    return text


def _report_text(report: MutationReport) -> str:
    lines = [_summary(report)]
    for verdict in report.verdicts:
        if verdict.killed:
            continue
        m = verdict.mutant
        lines.append(f"\nsurvived: mutant {m.index}, line {m.line}, {m.operator}: {m.description}")
        lines += ["  " + line for line in m.diff.splitlines()]
        if verdict.line is None:
            lines.append(f"  {verdict.difference}")
        else:
            steps = ", ".join(repr(s) for s in verdict.line) or "none (at the start)"
            lines.append(f"  differs after the steps {steps}: {verdict.difference}")
    return "\n".join(lines)

