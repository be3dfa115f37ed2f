"""Run an example file step by step and check every ``# => result`` line.

An example is a REPL session written as a script: a top-level expression
followed directly by a comment ``# => text`` shows its result, and ``text`` must
equal ``repr`` of the value (a trailing ``...`` matches any rest). Several
comment lines ``# => a`` / ``#    b`` continue one result.
"""

from __future__ import annotations

import ast
import io
import contextlib
from pathlib import Path

__all__ = ["run_example", "Mismatch"]


class Mismatch(AssertionError):
    pass


def _expected_after(lines: list[str], end_lineno: int):
    """The ``# =>`` text right after line ``end_lineno`` (1-based), or None."""
    i = end_lineno  # index of the next line
    if i >= len(lines) or not lines[i].strip().startswith("# =>"):
        return None
    parts = [lines[i].strip()[4:].strip()]
    i += 1
    while i < len(lines) and lines[i].strip().startswith("#   "):
        parts.append(lines[i].strip()[1:].strip())
        i += 1
    return " ".join(parts)


def _matches(actual: str, expected: str) -> bool:
    actual = " ".join(actual.split())
    expected = " ".join(expected.split())
    if expected.endswith("..."):
        return actual.startswith(expected[:-3])
    return actual == expected


def run_example(path) -> int:
    """Execute ``path``; return how many results were checked."""
    path = Path(path)
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source, filename=str(path))
    namespace = {"__name__": "__example__", "__file__": str(path)}
    checked = 0
    for node in tree.body:
        expected = _expected_after(lines, node.end_lineno)
        with contextlib.redirect_stdout(io.StringIO()):
            if isinstance(node, ast.Expr) and expected is not None:
                code = compile(ast.Expression(node.value), str(path), "eval", dont_inherit=True)
                value = eval(code, namespace)
            else:
                code = compile(ast.Module([node], []), str(path), "exec", dont_inherit=True)
                exec(code, namespace)
                continue
        if not _matches(repr(value), expected):
            raise Mismatch(f"{path.name}:{node.lineno}: expected {expected!r}, got {value!r}")
        checked += 1
    return checked


def fill_example(path) -> int:
    """Rewrite every ``# =>`` line of ``path`` with the real result; return how many.

    For writing examples: ``python tests/examples_harness.py examples/x.py``.
    Review the diff: the shown results become what the code really returns.
    """
    path = Path(path)
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source, filename=str(path))
    namespace = {"__name__": "__example__", "__file__": str(path)}
    replacements = {}
    for node in tree.body:
        expected = _expected_after(lines, node.end_lineno)
        with contextlib.redirect_stdout(io.StringIO()):
            if isinstance(node, ast.Expr) and expected is not None:
                value = eval(compile(ast.Expression(node.value), str(path), "eval", dont_inherit=True), namespace)
                replacements[node.end_lineno] = repr(value)
            else:
                exec(compile(ast.Module([node], []), str(path), "exec", dont_inherit=True), namespace)
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if (i + 1) in replacements:
            indent = lines[i + 1][: len(lines[i + 1]) - len(lines[i + 1].lstrip())]
            out.append(f"{indent}# => {replacements[i + 1]}")
            i += 2
            while i < len(lines) and lines[i].strip().startswith("#   "):
                i += 1
            continue
        i += 1
    path.write_text("\n".join(out) + "\n")
    return len(replacements)


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        print(name, fill_example(name))
