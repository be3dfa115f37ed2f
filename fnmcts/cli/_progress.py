"""Progress for work that may or may not run long: a terminal's bar once it has, a line that says it still runs.

``progress_bar(..., after=...)`` (in ``_output``) opens a ``LateBar``; a search
whose library call tells no count (``mcts_move``) gets a ``Heartbeat`` as its
``stop`` callback (``progress_bar(..., beat=True)``). Off a terminal both keep ``PlainProgress``'s 30-s rhythm.
"""

from __future__ import annotations

import sys

LATE_PROGRESS_SECONDS = 2.0
"""A search shorter than a bar is worth starts one, on a terminal, once it has run this long (a slow game's)."""


class LateBar:
    """``update(k)`` for a terminal: nothing for the first ``after`` seconds, then a tqdm bar from the count so far.

    A short command stays quiet (and never imports tqdm); a long one, a slow
    game's search say, shows how far it is. ``close()`` takes the bar away.

    >>> times = iter([0.0, 1.0, 2.5])
    >>> update = LateBar(100, "dives", "dive", after=2.0, clock=lambda: next(times))
    >>> update(10); update.bar is None
    True
    >>> update.close()
    """

    def __init__(self, total: int, desc: str, unit: str, *, after: float, clock=None):
        import time

        self.total, self.desc, self.unit, self.after = total, desc, unit, after
        self.clock = clock or time.monotonic
        self.started = self.clock()
        self.done, self.bar = 0, None

    def __call__(self, k: int = 1) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k)
        elif self.clock() - self.started >= self.after:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, initial=self.done, desc=self.desc, unit=self.unit, unit_scale=True,
                            leave=False, file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Heartbeat:
    """A ``stop`` callback (never stops) that says a long piece of work is still running, when only its pace is unknown.

    ``mcts_move`` calls ``stop()`` between two chunks of dives but tells no
    count: past ``LATE_PROGRESS_SECONDS`` a terminal gets a line with the time so far,
    redrawn at each call; a log gets ``PlainProgress``'s plain line every 30 s.

    >>> import io
    >>> times = iter([0.0, 1.0, 40.0])
    >>> out = io.StringIO()
    >>> beat = Heartbeat(20000, "dives", terminal=False, clock=lambda: next(times), stream=out)
    >>> beat(), beat()
    (False, False)
    >>> print(out.getvalue(), end="")
    fnmcts: dives: still searching after 40 s (20,000 dives asked)
    """

    def __init__(self, total: int, desc: str, *, terminal: bool, every: float = 30.0, clock=None, stream=None):
        import time

        self.total, self.desc, self.terminal, self.stream = total, desc, terminal, stream
        self.every = LATE_PROGRESS_SECONDS if terminal else every
        self.clock = clock or time.monotonic
        self.started = self.said = self.clock()
        self.shown = False

    def __call__(self) -> bool:
        now = self.clock()
        if now - self.said < self.every and not (self.terminal and self.shown):
            return False
        self.said = now
        line = f"{self.desc}: still searching after {int(now - self.started)} s ({self.total:,} {self.desc} asked)"
        try:
            if self.terminal:
                print(f"\r{line}\x1b[K", end="", file=self.stream or sys.stderr, flush=True)
                self.shown = True
            else:
                print(f"fnmcts: {line}", file=self.stream or sys.stderr, flush=True)
        except (OSError, ValueError, AttributeError):  # standard error closed: the work goes on unsaid
            pass
        return False

    def close(self) -> None:
        """Take a terminal's line away."""
        if self.shown:
            try:
                print("\r\x1b[K", end="", file=self.stream or sys.stderr, flush=True)
            except (OSError, ValueError, AttributeError):
                pass
