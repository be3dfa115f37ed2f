"""The command line's output: one JSON object or text, partial results kept on an interruption, prompts, progress.

Interruptions keep the work. While a command runs, SIGTERM stops it as Ctrl-C
does (an ``Interrupted``, a ``KeyboardInterrupt``). A long computation raises
``Interrupted`` carrying its result for the work done so far (``partial``); a
command that wraps it in ``keep_partial(args, report)`` prints that result as
usual, clearly marked as partial (``"partial": true`` in JSON), and exits with
130 or 143. A command that loops itself raises ``interrupted(error, so_far)``.
A worker lost mid-run (``WorkerLost``) is kept the same way: the chunks
finished before it are printed, marked partial, and the command ends with one
line naming what happened and status 1.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from contextlib import contextmanager

from ..parallel import Interrupted, WorkerLost

__all__ = ["emit", "emit_partial", "keep_partial", "read_line", "progress_bar", "non_ascii_digits", "Obedient"]

def non_ascii_digits(text: str) -> bool:
    """Whether ``text`` holds decimal digits of another script, which Python's ``int`` would read as numbers.

    >>> non_ascii_digits("١٠"), non_ascii_digits("10"), non_ascii_digits("Spiel")
    (True, False, False)
    """
    return any(ch.isdecimal() and not ch.isascii() for ch in text)


def emit(args, payload: dict, text: str) -> None:
    """Print ``payload`` as one JSON object with ``--json``, else ``text``.

    >>> from types import SimpleNamespace
    >>> emit(SimpleNamespace(json=True), {"wins": 3, "games": 10}, "3 wins in 10 games")
    {"games": 10, "wins": 3}
    >>> emit(SimpleNamespace(json=False), {"wins": 3, "games": 10}, "3 wins in 10 games")
    3 wins in 10 games
    """
    if getattr(args, "json", False):
        print(json.dumps(payload, sort_keys=True))
    else:
        print(text)


def state_field(args, game, state) -> dict:
    """``{"state": its JSON form}`` for a ``--json`` report, ``{}`` for the text one, which never prints it.

    A game whose states have no JSON form (a dataclass state, without its own
    ``state_to_json``) still gets its text report; ``--json`` names the missing hook.

    >>> from types import SimpleNamespace
    >>> from fnmcts.games import Nim
    >>> state_field(SimpleNamespace(json=True), Nim(heap=3), Nim(heap=3).start())
    {'state': {'heap': 3, 'player': 1}}
    >>> state_field(SimpleNamespace(json=False), Nim(heap=3), Nim(heap=3).start())
    {}
    """
    from ..protocol import state_to_json

    return {"state": state_to_json(game, state)} if getattr(args, "json", False) else {}


def emit_partial(args, payload: dict, text: str, stop: Interrupted) -> None:
    """``emit`` a partial result: ``"partial": true`` and the signal in JSON, a marked header in text.

    >>> from types import SimpleNamespace
    >>> emit_partial(SimpleNamespace(json=True), {"games": 3}, "3 games", Interrupted(None, signal.SIGTERM))
    {"games": 3, "partial": true, "signal": "SIGTERM"}
    >>> emit_partial(SimpleNamespace(json=False), {"games": 3}, "3 games", Interrupted())
    PARTIAL RESULT (interrupted by SIGINT): the work done so far
    3 games
    >>> emit_partial(SimpleNamespace(json=True), {"games": 3}, "3 games", WorkerLost((3,), "KilledWorker: w"))
    {"games": 3, "partial": true, "worker_lost": "KilledWorker: w"}
    """
    if isinstance(stop, WorkerLost):
        fields, why = {"worker_lost": stop.cause}, "a worker was lost"
    else:
        fields, why = {"signal": stop.signal_name}, f"interrupted by {stop.signal_name}"
    emit(args, payload | {"partial": True, **fields}, f"PARTIAL RESULT ({why}): the work done so far\n{text}")
    stop.reported = True


@contextmanager
def keep_partial(args, report):
    """On an ``Interrupted`` (or a ``WorkerLost``) with a partial result inside the block, print ``report(partial)`` marked partial.

    ``report(partial)`` returns ``(payload, text)`` as for ``emit``. The
    interruption goes on after the report (the command exits 130 or 143; a
    lost worker: 1, with its one line); a
    second Ctrl-C or SIGTERM while the report prints is ignored, so the report
    is whole.

    >>> from types import SimpleNamespace
    >>> try:
    ...     with keep_partial(SimpleNamespace(json=False), lambda n: ({"n": n}, f"{n} games")):
    ...         raise Interrupted(5)
    ... except Interrupted as stop:
    ...     stop.reported
    PARTIAL RESULT (interrupted by SIGINT): the work done so far
    5 games
    True
    """
    try:
        yield
    except (Interrupted, WorkerLost) as stop:
        if stop.partial is not None and not stop.reported:
            with _signals_ignored():
                payload, text = report(stop.partial)
                emit_partial(args, payload, text, stop)
                sys.stdout.flush()
        raise


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _signals_ignored():
    """Ctrl-C and SIGTERM ignored for the block (a report being printed), then as before."""
    if not _on_main_thread():
        yield
        return
    saved = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _raise_interrupted(signum, frame):
    raise Interrupted(None, signum)


@contextmanager
def _signals_interrupt():
    """For the block, SIGTERM raises ``Interrupted`` (as Ctrl-C raises ``KeyboardInterrupt``), then as before.

    An ignored signal (a job started with ``nohup``, or in the background of a
    script) stays ignored.
    """
    if not _on_main_thread():
        yield
        return
    saved = {}
    for number, handler in ((signal.SIGTERM, _raise_interrupted), (signal.SIGINT, signal.default_int_handler)):
        if signal.getsignal(number) is not signal.SIG_IGN:
            saved[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _in_gc_callback(frame) -> bool:
    """Whether ``frame`` (or one of the two frames below it) runs a garbage collector's callback.

    >>> import sys
    >>> _in_gc_callback(sys._getframe())
    False
    """
    import gc

    codes = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    for _ in range(3):
        if frame is None:
            return False
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


class Obedient:
    """Ctrl-C and SIGTERM obeyed within a second by a long computation, however its code treats exceptions.

    Used as ``with Obedient(said) as stop:``. For the block, the first Ctrl-C
    (or SIGTERM) is delivered three ways, so none can be lost:

    * at once, as ``Interrupted`` raised by the handler (a ``KeyboardInterrupt``);
    * again at once when Python reports that exception as lost (raised inside a
      garbage-collector callback, a ``__del__`` or a weak reference's callback,
      where Python prints "Exception ignored" and goes on): the report is kept
      quiet and the signal raised again;
    * as a flag: ``stop()`` is true from the signal on, for code to ask between
      two steps (``check_game(..., stop=stop)``).

    If the computation has not stopped ``patience`` seconds after the signal
    (held in code that lets no signal in), and at a second Ctrl-C or SIGTERM,
    the process ends at once with 128 + the signal after one line on standard
    error: ``said()`` (the work done so far). Whoever catches the interruption
    calls ``stop.caught()``: from then on the first signal's handling is over.

    >>> with Obedient(lambda: "nothing done") as stop:
    ...     stop()
    False
    """

    def __init__(self, said, patience: float = 0.7):
        self.said, self.patience = said, patience
        self.signum = None
        self._again = False  # the next call of the handler is the signal raised again, not a second one
        self._caught, self._lost = threading.Event(), threading.Event()
        self._saved, self._hook = {}, None

    def __call__(self) -> bool:
        return self.signum is not None

    def caught(self) -> None:
        """The interruption reached its handler: no more deliveries, no hard exit for being slow."""
        self._caught.set()

    def __enter__(self):
        if _on_main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                if signal.getsignal(number) is not signal.SIG_IGN:
                    self._saved[number] = signal.signal(number, self._handle)
            self._hook, sys.unraisablehook = sys.unraisablehook, self._unraisable
        return self

    def __exit__(self, *exc):
        self._caught.set()
        for number, handler in self._saved.items():
            signal.signal(number, handler)
        if self._hook is not None:
            sys.unraisablehook = self._hook
        return False

    def _handle(self, signum, frame):
        if self._again:
            self._again = False
        elif self.signum is not None:
            self._leave(f"interrupted by {signal.Signals(signum).name} again: stopped at once")
        else:
            self.signum = signum
            threading.Thread(target=self._watch, daemon=True).start()
        if _in_gc_callback(frame):  # raised here it would be lost ("ignored"): the watch raises it again soon
            self._lost.set()
            return
        raise Interrupted(None, self.signum)

    def _unraisable(self, unraisable):
        if (isinstance(unraisable.exc_value, KeyboardInterrupt) and self.signum is not None
                and not self._caught.is_set()):
            self._lost.set()  # lost where Python cannot raise it: the watch raises it again, from outside this hook
            return
        self._hook(unraisable)

    def _watch(self):
        import _thread
        import time

        deadline = time.monotonic() + self.patience
        while not self._caught.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                self._leave(f"interrupted by {signal.Signals(self.signum).name}: stopped at once")
            if self._lost.wait(min(left, 0.05)):
                self._lost.clear()
                self._again = True
                _thread.interrupt_main(self.signum)  # the handler runs in the main thread at its next line

    def _leave(self, what: str) -> None:
        import os

        try:
            line = f"\nfnmcts: {what} ({self.said()})\n"
        except Exception:
            line = f"\nfnmcts: {what}\n"
        try:
            os.write(2, line.encode())
        except OSError:
            pass
        os._exit(128 + (self.signum or signal.SIGINT))


def read_line(prompt: str) -> str:
    """``input(prompt)``, echoing the answer when it comes from a script, not a terminal.

    >>> import io
    >>> def typed(text):
    ...     saved, sys.stdin = sys.stdin, io.StringIO(text)
    ...     try:
    ...         return read_line("move? ")
    ...     finally:
    ...         sys.stdin = saved
    >>> typed("4\\n")
    move? 4
    '4'
    >>> typed("٤\\n4\\n")
    move? ٤
    digits other than 0-9 are not read as numbers: type it with the digits 0-9
    move? 4
    '4'
    """
    while True:
        line = input(prompt)
        if not sys.stdin.isatty():
            print(line)  # so a scripted game's transcript reads like a session
        if not non_ascii_digits(line):
            return line
        print("digits other than 0-9 are not read as numbers: type it with the digits 0-9")


PLAIN_PROGRESS_SECONDS = 30.0
"""How often a long command says how far it is, when standard error is not a terminal (a log, a pipe)."""


class PlainProgress:
    """``update(k)`` for a standard error that is not a terminal: a plain line every ``every`` seconds, never a bar.

    A run shorter than ``every`` seconds prints nothing; a longer one prints
    ``fnmcts: DESC: DONE of TOTAL UNITs (P%) after S s`` (no carriage return, so a log reads it).

    >>> import io
    >>> times = iter([0.0, 10.0, 31.0, 45.0, 62.5])
    >>> out = io.StringIO()
    >>> update = PlainProgress(100, "games", "game", clock=lambda: next(times), stream=out)
    >>> for _ in range(4):
    ...     update(10)
    >>> print(out.getvalue(), end="")
    fnmcts: games: 20 of 100 games (20%) after 31 s
    fnmcts: games: 40 of 100 games (40%) after 62 s
    """

    def __init__(self, total: int, desc: str, unit: str, *, clock=None, stream=None, every: float | None = None):
        import time

        self.total, self.desc, self.unit = total, desc, unit
        self.every = PLAIN_PROGRESS_SECONDS if every is None else every
        self.clock = clock or time.monotonic
        self.stream = stream
        self.done = 0
        self.started = self.clock()
        self.said = self.started

    def __call__(self, k: int = 1) -> None:
        self.done += k
        now = self.clock()
        if now - self.said < self.every:
            return
        self.said = now
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        try:
            print(f"fnmcts: {self.desc}: {self.done:,} of {self.total:,} {self.unit}s{share} after "
                  f"{int(now - self.started)} s", file=self.stream or sys.stderr, flush=True)
        except (OSError, ValueError, AttributeError):  # standard error closed: the work goes on unsaid
            pass


@contextmanager
def progress_bar(total: int, desc: str, enabled: bool | None = None, unit: str = "game", after: float | bool | None = None,
                 beat: bool = False):
    """A tqdm bar on stderr when it is a terminal; yields an ``update(k)`` callback.

    With ``enabled`` False it yields ``None``; when stderr is not a terminal, a
    ``PlainProgress`` (a plain line every 30 seconds, nothing for a shorter run).
    With ``after``, a terminal's bar shows only once the work has run that many
    seconds (``True``: ``_progress.LATE_PROGRESS_SECONDS``), a ``LateBar``; with ``beat``, a
    ``Heartbeat``: a ``stop`` callback, for work that tells no count (``mcts_move``).

    >>> with progress_bar(10, "games", enabled=False) as update:
    ...     update is None
    True
    """
    if enabled is False:
        yield None
        return
    terminal = _is_terminal(sys.stderr)
    if beat or (after is not None and terminal):
        from . import _progress

        late = (_progress.Heartbeat(total, desc, terminal=terminal, every=PLAIN_PROGRESS_SECONDS) if beat else
                _progress.LateBar(total, desc, unit, after=_progress.LATE_PROGRESS_SECONDS if after is True else after))
        try:
            yield late
        finally:
            late.close()
        return
    if not terminal:
        yield PlainProgress(total, desc, unit)
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr) as bar:
        yield bar.update


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or gone
        return False
