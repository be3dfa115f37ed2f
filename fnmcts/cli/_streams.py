"""The command line's standard streams and output files: closed streams, a stream that cannot be written, ``-o -``.

``closed_streams()`` names the standard streams the process was started
without (``>&-``); ``settle_stdout()`` flushes standard output or, when it
cannot take the rest (a reader gone, a full disk), points it at /dev/null so
the interpreter prints nothing as it exits. Every verb that writes a file
takes ``-o -`` for standard output (``write_output``); the report then goes
to standard error (``report_stream``), and a file is claimed before the work
(``claim_output``) and written whole.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

__all__ = ["closed_streams", "closed_text", "settle_stdout", "to_stdout", "report_stream", "claim_output",
           "write_output"]

_STREAMS = (("stdin", 0, "standard input", "<&-", "</dev/null"), ("stdout", 1, "standard output", ">&-", ">/dev/null"),
            ("stderr", 2, "standard error", "2>&-", "2>/dev/null"))
_NEEDS = {"standard output": "nothing can be printed",
          "standard input": "fnmcts reads answers from it, and a file it opened would take its place"}


def closed_streams() -> list:
    """The standard streams the process was started without (``>&-``): ``(name, how it was closed, an open one)``.

    Python starts with ``sys.stdout`` (or ``stdin``, ``stderr``) set to None
    when its descriptor is closed; a descriptor closed later is closed too.

    >>> closed_streams()
    []
    """
    import os

    closed = []
    for name, number, said, how, instead in _STREAMS:
        stream = getattr(sys, name)
        if stream is None:
            closed.append((said, how, instead))
            continue
        try:
            os.fstat(number)
        except OSError:
            if _fileno(stream) == number:  # the real descriptor, not a test's capture
                closed.append((said, how, instead))
    return closed


def closed_text(closed) -> str:
    """The one line for ``closed_streams()``: what is closed, why it matters, what to give instead.

    >>> closed_text([("standard output", ">&-", ">/dev/null")])
    'standard output is closed: nothing can be printed (give it >/dev/null instead of >&-)'
    """
    said = " and ".join(name for name, _, _ in closed)
    why = "; ".join(_NEEDS[name] for name, _, _ in closed if name in _NEEDS)
    how = ", ".join(f"{instead} instead of {was}" for _, was, instead in closed)
    return f"{said} {'is' if len(closed) == 1 else 'are'} closed: {why} (give it {how})"


def _fileno(stream):
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def settle_stdout():
    """Flush standard output; if it cannot be written (a reader gone, a full disk, closed), point it at /dev/null.

    Returns the ``OSError`` (or ``ValueError`` for a closed file) that
    stopped the flush, else None. Afterwards nothing is left in the buffer, so
    the interpreter's own flush as it exits has nothing to complain about.

    >>> settle_stdout() is None
    True
    """
    import os

    stream = sys.stdout
    if stream is None:
        return None
    try:
        stream.flush()
        return None
    except (OSError, ValueError) as error:
        number = _fileno(stream)
        if number is not None:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, number)
                os.close(devnull)
                stream.flush()  # what was left goes to /dev/null
            except (OSError, ValueError):
                pass
        return error


def to_stdout(path) -> bool:
    """Whether an output file named ``path`` is standard output (``-o -``).

    >>> to_stdout("-"), to_stdout("page.html"), to_stdout(None)
    (True, False, False)
    """
    return path == "-"


@contextmanager
def report_stream(args, name: str = "output"):
    """With ``-o -`` (``args.<name>`` is ``-``) the block's prints go to standard error: standard output holds the file.

    >>> import io
    >>> from types import SimpleNamespace
    >>> saved, sys.stderr = sys.stderr, io.StringIO()
    >>> try:
    ...     with report_stream(SimpleNamespace(output="-")):
    ...         print("wrote standard output")
    ...     said = sys.stderr.getvalue()
    ... finally:
    ...     sys.stderr = saved
    >>> said
    'wrote standard output\\n'
    """
    from contextlib import nullcontext, redirect_stdout

    with (redirect_stdout(sys.stderr) if to_stdout(getattr(args, name, None)) else nullcontext()):
        yield


def claim_output(path) -> None:
    """Before the work: hold the file ``path`` for this command (``fnmcts.files.claim_target``); nothing for ``-``.

    A missing folder, a directory or another process writing the file is a
    usage error (a ``CliError``) now, not after the work.

    >>> claim_output("-")
    >>> claim_output("/no/such/folder/page.html")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: cannot write /no/such/folder/page.html: the folder /no/such/folder does not exist
    """
    if to_stdout(path):
        return
    from ..files import claim_target
    from ._common import CliError

    try:
        claim_target(path)
    except ValueError as error:
        raise CliError(str(error)) from None


def write_output(path, content) -> str:
    """Write ``content`` (text, or bytes: a picture) to the file ``path`` whole, or to standard output for ``-``.

    Returns where it went: the path, or ``"standard output"``. A file is written
    atomically (``fnmcts.files``): a signal or a full disk leaves the old file
    or none, never a part. A target that cannot be written is a ``CliError``;
    a failure while writing (a full disk) stays a ``WriteError`` (exit status 1).

    >>> write_output("-", "box roll\\n")
    box roll
    'standard output'
    """
    if to_stdout(path):
        if isinstance(content, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(content)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(content)
            sys.stdout.flush()
        return "standard output"
    from ..files import WriteError, write_atomically
    from ._common import CliError

    try:
        return str(write_atomically(path, content))
    except WriteError:
        raise
    except ValueError as error:
        raise CliError(str(error)) from None
