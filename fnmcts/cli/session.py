"""Show a Python script as a REPL session: each statement as typed, then its value.

The examples and ``fnmcts tour`` are written as scripts whose steps are
top-level statements. ``session_lines`` runs such a script statement by
statement and returns what a REPL would have shown: the comments before a step,
the step itself after ``>>> `` (continuation lines after ``... ``), then the
value of an expression (its ``repr``; nothing for ``None``) or whatever the step
printed. A ``# => ...`` line after a step (the expected result, checked by the
tests) is left out: the real value is shown instead. Notebook cell markers
(``# %%``) are left out too.

>>> for line in session_lines("# Add two numbers.\\nx = 1\\nx + 1\\n# => 2\\n"):
...     print(line.replace(">>>", "$"))
# Add two numbers.
$ x = 1
$ x + 1
2
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import sys

__all__ = ["session_lines", "run_as_session", "paste_problems"]

_HIDDEN = ("run_as_session",)  # the examples' own header: not a step of the session


def _comment_lines(lines, start: int, end: int) -> list:
    """The comments of ``lines[start:end]`` that explain the next step, in order.

    Expected results (``# =>`` and the ``#    `` lines continuing them) and cell
    markers (``# %%``) are left out; a blank line between comments is kept once.
    """
    out, in_result = [], False
    for line in lines[start:end]:
        text = line.strip()
        if text.startswith("# =>"):
            in_result = True
            continue
        if in_result and text.startswith("#   "):
            continue
        in_result = False
        if text.startswith("# %%") or text.startswith("#!") or text.startswith("# -*-"):
            continue
        if text.startswith("#"):
            out.append(text)
        elif not text and out and out[-1] != "":
            out.append("")
    while out and out[-1] == "":
        out.pop()
    return out


_COMPOUND = (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)


def _typed(body, compound: bool) -> list:
    """The step as typed at the REPL: ``>>> `` first, ``... `` after (a compound step ends with ``...``)."""
    typed = [((">>> " if i == 0 else "... ") + line).rstrip() for i, line in enumerate(body)]
    return typed + ["..."] if compound else typed


def session_lines(source: str, namespace: dict | None = None, filename: str = "<session>"):
    """Run ``source`` step by step in ``namespace``; yield the lines a REPL session would show.

    Lines come as each step runs, so a long step shows what came before it.
    ``namespace`` (default: a fresh one) is where the steps run and is left with
    their names. A step that raises stops the session with the exception, as a
    script would.

    >>> list(session_lines("for i in range(2):\\n    print(i)\\nNone"))
    ['>>> for i in range(2):', '...     print(i)', '...', '0', '1', '>>> None']
    """
    namespace = {"__name__": "__session__"} if namespace is None else namespace
    lines = source.splitlines()
    tree = ast.parse(source, filename=filename)
    shown = False
    previous_end = 0
    for node in tree.body:
        start = node.lineno - 1
        if getattr(node, "decorator_list", None):
            start = min(d.lineno for d in node.decorator_list) - 1
        text = "\n".join(lines[start : node.end_lineno])
        if any(name in text for name in _HIDDEN):
            continue  # its comments (a file's title) go with the next step
        comments = _comment_lines(lines, previous_end, start)
        previous_end = node.end_lineno
        if comments:
            if shown:
                yield ""
            yield from comments
        yield from _typed(lines[start : node.end_lineno], isinstance(node, _COMPOUND))
        shown = True
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            if isinstance(node, ast.Expr):
                value = eval(compile(ast.Expression(node.value), filename, "eval", dont_inherit=True), namespace)
            else:
                exec(compile(ast.Module([node], []), filename, "exec", dont_inherit=True), namespace)
                value = None
        yield from printed.getvalue().splitlines()
        if value is not None:
            yield from repr(value).splitlines()


def paste_problems(source: str) -> list:
    """Where pasting ``source`` into the standard REPL, line by line, would not compile.

    The REPL ends a compound statement (``for``, ``def``, ...) at a blank line
    only, so a statement right after a loop's body, or a blank line inside a
    function, breaks a paste. Returns ``[(line number, line, message), ...]``.

    >>> paste_problems("for i in range(2):\\n    pass\\nprint(i)\\n")
    [(3, 'print(i)', 'invalid syntax (<input>, line 3)')]
    >>> paste_problems("for i in range(2):\\n    pass\\n\\nprint(i)\\n")
    []
    """
    import codeop
    import warnings

    problems, buffer = [], []
    for number, line in enumerate(source.splitlines(), 1):
        if not buffer and not line.strip():
            continue
        buffer.append(line)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = codeop.compile_command("\n".join(buffer), "<input>", "single")
        except (SyntaxError, OverflowError, ValueError) as error:
            problems.append((number, line, str(error)))
            buffer = []
            continue
        if code is not None:
            buffer = []
    return problems


def _interactive(namespace) -> bool:
    """True in a REPL, a notebook or IPython, where the file is not being run as a script."""
    return (
        hasattr(sys, "ps1")
        or "get_ipython" in namespace
        or "IPython" in sys.modules
        or bool(getattr(sys.flags, "interactive", 0))
    )


def run_as_session(namespace) -> None:
    """When a file is run as a script (``python examples/FILE.py``), show it as a REPL session and stop.

    Call it as ``run_as_session(globals())`` at the top of a file. Run as a
    script, the file's steps are run and shown (``session_lines``), then the
    script ends; imported, pasted into a REPL, run in a notebook or by the
    tests, it does nothing and the file runs as it is.

    >>> run_as_session({"__name__": "some_module"}) is None
    True
    """
    if namespace.get("__name__") != "__main__" or "__file__" not in namespace or _interactive(namespace):
        return
    path = namespace["__file__"]
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    fresh = {"__name__": "__session__", "__file__": path}
    try:
        for line in session_lines(source, fresh, filename=path):
            print(line)
            sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``... | head``): stop quietly
        sys.stdout = open(os.devnull, "w")
    raise SystemExit(0)
