"""Chunks, child seeds and executors: the same seed, the same result, on any workers.

Work of ``n`` trials is cut into chunks of a fixed size; chunk ``i`` draws from
its own generator seeded with ``child_seed(seed, i)``. The chunks can run in
this process, on a ``concurrent.futures`` executor, or on a Dask
``distributed.Client`` (anything with a ``map`` method): the combined result
depends on the seed alone. Chunks are made as they are needed and sent to an
executor a window at a time, so memory does not grow with ``n``.

Nothing is lost and nothing hangs: Ctrl-C (``KeyboardInterrupt``) during
``run_chunks`` raises ``Interrupted`` carrying the results of the chunks
finished so far (in chunk order, so a partial result depends on the seed and
the number of chunks alone); ``worker_pool`` stops its workers on every exit
path, and a worker started by ``make_executor`` ignores Ctrl-C (its parent
decides), holds no terminal or pipe of its parent (its standard streams are
``/dev/null``) and ends itself when its parent dies. A worker lost mid-run (a
process of the pool killed, a Dask worker gone) raises ``WorkerLost`` the same
way, carrying the results of the chunks finished before it.

>>> chunks(10, 4)
((0, 4), (1, 4), (2, 2))
>>> run_chunks(_count, 10, seed=1, chunk_size=4)
(4, 4, 2)
"""

from __future__ import annotations

import hashlib
import os
import pickle
import signal
import sys
import threading
import time
import weakref
from collections import OrderedDict
from contextlib import contextmanager
from functools import partial
from itertools import chain
from typing import Callable

from toolz import partition_all

from .rng import child_rng, check_seed

__all__ = [
    "DEFAULT_CHUNK",
    "chunks",
    "run_chunks",
    "mapped_on",
    "pulled",
    "make_executor",
    "worker_pool",
    "kept_pool",
    "worker_kept",
    "halted",
    "Interrupted",
    "interrupted",
    "chunks_done",
    "WorkerLost",
]

DEFAULT_CHUNK = 50_000
"""Trials per chunk (and per child seed) unless told otherwise."""


class Interrupted(KeyboardInterrupt):
    """A long call stopped by Ctrl-C (or SIGTERM at the command line), with the work done so far.

    ``partial`` is what the call returns for the work finished before the
    signal (``None`` when there is nothing to give); ``signum`` is the signal
    (``signal.SIGINT`` for Ctrl-C). It is a ``KeyboardInterrupt``, so code that
    knows nothing of it stops as it would on Ctrl-C.

    >>> stop = Interrupted((4, 4), signal.SIGTERM)
    >>> stop.partial, stop.signal_name, isinstance(stop, KeyboardInterrupt)
    ((4, 4), 'SIGTERM', True)
    """

    def __init__(self, partial=None, signum: int = signal.SIGINT):
        self.partial = partial
        self.signum = int(signum)
        self.reported = False  # set once the partial result has been shown
        super().__init__(f"interrupted by {self.signal_name}")

    @property
    def signal_name(self) -> str:
        """The signal's name: ``"SIGINT"`` or ``"SIGTERM"``."""
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


def chunks_done(stop) -> tuple:
    """The results of the chunks ``run_chunks`` finished before ``stop`` (its ``Interrupted`` or ``WorkerLost``).

    None finished when the signal came before its loop began or after it returned (the handler's ``Interrupted``
    carries no ``partial`` then): the caller's partial result is that of no work, never a ``TypeError``.

    >>> chunks_done(Interrupted((4, 4), 15)), chunks_done(Interrupted(None, 15))
    ((4, 4), ())
    """
    return () if stop.partial is None else stop.partial


def interrupted(error: BaseException, partial):
    """``Interrupted`` with ``partial`` for the interruption ``error`` (its signal kept; Ctrl-C by default).

    A ``WorkerLost`` stays one, with ``partial`` and its cause: a caller that
    turns the chunks finished into its own result does it once for both.

    >>> interrupted(KeyboardInterrupt(), 3).partial, interrupted(Interrupted(None, 15), 3).signum
    (3, 15)
    >>> interrupted(WorkerLost((1,), "KilledWorker: w"), 3).cause
    'KilledWorker: w'
    """
    if isinstance(error, WorkerLost):
        lost = WorkerLost(partial, error.cause)
        lost.args = error.args  # its line counts the chunks finished, not the caller's result
        return lost
    return Interrupted(partial, getattr(error, "signum", signal.SIGINT))


class WorkerLost(RuntimeError):
    """A worker of the executor died mid-run (killed, out of memory, its machine gone), with the work done so far.

    ``partial`` is the tuple of the results of the chunks finished before it,
    in chunk order (as ``Interrupted`` carries them); ``cause`` names what the
    executor said, in one line.

    >>> lost = WorkerLost((4, 4), "BrokenProcessPool: a process in the pool was terminated abruptly")
    >>> lost.partial, str(lost)
    ((4, 4), 'a worker was lost (BrokenProcessPool: a process in the pool was terminated abruptly); 2 chunks finished before it')
    """

    def __init__(self, partial=None, cause: str = "a worker died"):
        self.partial = partial
        self.cause = cause
        self.reported = False  # set once the partial result has been shown
        done = len(partial) if isinstance(partial, tuple) else 0
        super().__init__(f"a worker was lost ({cause}); {done} chunk{'' if done == 1 else 's'} finished before it")


_LOST = frozenset({"BrokenProcessPool", "BrokenExecutor", "KilledWorker", "WorkerCrashedError", "RayActorError",
                   "ActorDiedError", "NodeDiedError", "BrokenThreadPool"})
"""The names of the exceptions by which an executor says that a worker died (concurrent.futures, Dask, Ray)."""


def lost_worker(error: BaseException) -> str | None:
    """One line naming the lost worker ``error`` says (an executor's own exception), or ``None`` for any other.

    >>> from concurrent.futures.process import BrokenProcessPool
    >>> lost_worker(BrokenProcessPool("A process in the process pool was terminated abruptly."))
    'BrokenProcessPool: A process in the process pool was terminated abruptly.'
    >>> lost_worker(ValueError("bad")) is None
    True
    """
    if not any(kind.__name__ in _LOST for kind in type(error).__mro__):
        return None
    said = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {said[0][:200]}" if said else type(error).__name__


def check_count(n, what: str = "n") -> int:
    """``n`` if it is a non-negative int, else a clear ``TypeError``/``ValueError``.

    >>> check_count(3)
    3
    >>> check_count(2.5, "games")
    Traceback (most recent call last):
    ...
    TypeError: games must be a whole number, got float: 2.5
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"{what} must be a whole number, got {type(n).__name__}: {n!r}")
    if n < 0:
        raise ValueError(f"{what} must be non-negative, got {n}")
    return n


def check_workers(workers, executor) -> None:
    """A clear ``ValueError`` unless ``workers`` is None or a positive whole number, given without ``executor``.

    >>> check_workers(2, None)
    >>> check_workers(0, None)
    Traceback (most recent call last):
    ...
    ValueError: workers must be a positive whole number, got 0
    >>> check_workers(2, object())
    Traceback (most recent call last):
    ...
    ValueError: give workers= (the library's kept pool) or executor=, not both
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive whole number, got {workers!r}")
    if workers is not None and executor is not None:
        raise ValueError("give workers= (the library's kept pool) or executor=, not both")


def chunks(n: int, chunk_size: int = DEFAULT_CHUNK) -> tuple[tuple[int, int], ...]:
    """``((index, size), ...)`` covering ``n`` trials in chunks of ``chunk_size``.

    >>> chunks(10, 4), chunks(8, 4), chunks(0, 4)
    (((0, 4), (1, 4), (2, 2)), ((0, 4), (1, 4)), ())
    """
    return tuple(iter_chunks(n, chunk_size))


def iter_chunks(n: int, chunk_size: int = DEFAULT_CHUNK):
    """The chunks of ``chunks(n, chunk_size)``, one at a time (for any ``n``).

    >>> next(iter_chunks(10**30, 7))
    (0, 7)
    """
    check_count(n)
    if check_count(chunk_size, "chunk_size") == 0:
        raise ValueError("chunk_size must be positive")
    full, rest = divmod(n, chunk_size)
    index = 0
    while index < full:
        yield (index, chunk_size)
        index += 1
    if rest:
        yield (full, rest)


def _call(job):
    fn, seed, index, size, run = job
    if "halting" in _WORKER_KEPT:  # a worker of a kept pool: the run its chunk is part of, for ``halted``
        _WORKER_KEPT["run"] = run
    if type(fn) is Shared:
        fn = fn.loaded()
        if fn is None:  # this worker has not met the function yet: the caller sends it again, whole
            return Unknown()
    return fn(size, child_rng(seed, index))


class Unknown:
    """What a chunk sent as a ``Shared`` token alone returns from a worker that has not loaded its function yet."""

    def __eq__(self, other):
        return type(other) is Unknown

    def __hash__(self):
        return 0


class Shared:
    """A chunk's function sent once per worker: its digest (the token), and its pickled bytes or ``None``.

    ``run_chunks`` on an executor whose workers unpickle what they are sent
    pickles the function (with the game and options it carries) once; the
    first chunks of a window carry the bytes, the others the token alone. A
    worker keeps the last ``SHARED_KEEPS`` functions it loaded (by token), so
    the game and options of a call are unpickled once per worker, not once per
    chunk; a worker given a token it does not know answers ``Unknown`` and the
    chunk is sent again with the bytes. The function, hence the result, is the
    same either way.

    >>> blob = pickle.dumps(abs)
    >>> Shared(blob).token == Shared(blob).without().token, Shared(blob).without().blob
    (True, None)
    >>> Shared(blob).loaded() is abs
    True
    """

    __slots__ = ("token", "blob", "sent")

    def __init__(self, blob: bytes | None, token: str | None = None):
        self.blob = blob
        self.sent = False  # in the calling process: sent whole once (``mapped_shared``)
        self.token = token if token is not None else hashlib.blake2b(blob, digest_size=16).hexdigest()

    def __reduce__(self):
        return Shared, (self.blob, self.token)

    def without(self) -> "Shared":
        """The token alone (what a worker that has loaded the function needs)."""
        return Shared(None, self.token)

    def loaded(self):
        """The function in this process: kept, else unpickled from the bytes and kept; ``None`` without bytes."""
        with _SHARED_LOCK:
            fn = _SHARED.get(self.token)
            if fn is not None:
                _SHARED.move_to_end(self.token)
                return fn
        if self.blob is None:
            return None
        fn = pickle.loads(self.blob)
        with _SHARED_LOCK:
            _SHARED[self.token] = fn
            while len(_SHARED) > SHARED_KEEPS:
                _SHARED.popitem(last=False)
        return fn


SHARED_KEEPS = 4
"""How many chunk functions (their games and options) a process keeps loaded at most, the oldest used going first."""

_SHARED: OrderedDict = OrderedDict()
"""In a process that runs chunks sent as ``Shared``: ``token -> function``, at most ``SHARED_KEEPS`` of them."""

_SHARED_LOCK = threading.Lock()


def _pickles(executor) -> bool:
    """True when ``executor`` sends work to other processes (pickled); False for ``None`` and a thread pool."""
    if executor is None:
        return False
    import sys

    thread = sys.modules.get("concurrent.futures.thread")
    return not (thread is not None and isinstance(executor, thread.ThreadPoolExecutor))


def _workers_of(executor) -> int:
    """How many workers ``executor`` has, as far as it says (a guess of 2 where it does not)."""
    for name in ("_max_workers", "_processes"):  # concurrent.futures, multiprocessing.Pool
        count = getattr(executor, name, None)
        if isinstance(count, int) and count > 0:
            return count
    nthreads = getattr(executor, "nthreads", None)  # a Dask client: one entry per worker
    if callable(nthreads):
        try:
            return max(1, len(nthreads()))
        except Exception:  # noqa: BLE001 (a client that cannot say: the guess)
            pass
    return 2


def make_executor(workers: int | None = None, keep: bool = False) -> Executor:
    """A process pool with ``workers`` processes (default: one per core).

    Its workers ignore Ctrl-C (the parent stops them), write nothing to the
    parent's terminal or pipes, and end when the parent dies. ``keep``: the
    workers keep what ``worker_kept`` makes, between the chunks they run.

    >>> with make_executor(2) as executor:
    ...     type(executor).__name__
    'ProcessPoolExecutor'
    """
    from concurrent.futures import ProcessPoolExecutor  # imported when a pool is made, not with fnmcts

    halting = pulls = channel = None
    workers = workers or os.cpu_count() or 1
    if keep:  # the one number its workers read to stop a run's dropped chunks (``halted``)
        import multiprocessing

        halting = multiprocessing.RawValue("q", 0)
        pulls = multiprocessing.Array("q", 2)  # a step's token and its next job (``pulled``)
        channel = _Channel(workers)  # a batched step's way to the workers and back (``pulled``)
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start,
                                   initargs=(os.getpid(), keep, halting, pulls, channel and channel.there))
    executor.fnmcts_halting, executor.fnmcts_pulls, executor.fnmcts_channel = halting, pulls, channel
    return executor


def _worker_start(parent: int, keep: bool = False, halting=None, pulls=None, channel=None) -> None:
    """Set up a worker of ``make_executor``: signals, standard streams, the watch on its parent, what it keeps."""
    if keep:
        _WORKER_KEPT.update(keeps={}, halting=halting, pulls=pulls, channel=channel)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the parent decides
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # a reader of the parent's pipe must not wait for a worker
        os.dup2(devnull, fd)
    os.close(devnull)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int, poll: float = 0.2) -> None:
    """End this process as soon as ``parent`` is no longer its parent (it died)."""
    while os.getppid() == parent:
        time.sleep(poll)
    os._exit(1)


@contextmanager
def worker_pool(workers: int | None):
    """A ``make_executor`` pool of ``workers`` processes, or ``None`` for one worker; shut down on every exit.

    On a normal exit the pool finishes and closes; on an exception (Ctrl-C
    and SIGTERM included) its pending work is cancelled and its workers are
    stopped at once, so no process outlives the block.

    >>> with worker_pool(1) as executor:
    ...     executor is None
    True
    >>> with worker_pool(2) as executor:
    ...     run_chunks(_count, 10, seed=1, chunk_size=4, executor=executor)
    (4, 4, 2)
    """
    if workers is None or workers <= 1:
        yield None
        return
    import multiprocessing

    before = set(multiprocessing.active_children())
    executor = make_executor(workers)
    try:
        yield executor
    except BaseException:
        _halt(executor, [p for p in multiprocessing.active_children() if p not in before])
        raise
    finally:
        executor.shutdown(wait=True)


def _quiet_manager(executor) -> None:
    """Let the thread that manages ``executor``'s workers end without printing a traceback.

    A pool stopped on purpose (Ctrl-C, SIGTERM) has its workers terminated
    under it; the pool's manager thread may then fail to report to a future
    already cancelled (Python 3.11 raises ``InvalidStateError`` there) and
    print a traceback after the command's one-line message. That thread's
    exceptions are dropped from now on; every other thread's still print.
    One hook (``_quiet_hook``) is installed for the process, not one per stop:
    a long process that stops many pools keeps one hook in front of the
    previous one, and a quiet thread is forgotten once it is gone.

    >>> import io, sys, threading
    >>> class Pool:
    ...     _executor_manager_thread = threading.Thread(target=lambda: 1 / 0)
    >>> _quiet_manager(Pool())
    >>> err, sys.stderr = sys.stderr, io.StringIO()
    >>> Pool._executor_manager_thread.start(); Pool._executor_manager_thread.join()
    >>> printed, sys.stderr = sys.stderr.getvalue(), err
    >>> printed, threading.excepthook is _quiet_hook
    ('', True)
    """
    thread = getattr(executor, "_executor_manager_thread", None)
    if thread is None:
        return
    _QUIET_THREADS.add(thread)
    if threading.excepthook is not _quiet_hook:  # once, or again if someone replaced it since
        _QUIET_HOOK["previous"] = threading.excepthook
        threading.excepthook = _quiet_hook


def _quiet_hook(args) -> None:
    """``threading.excepthook`` of this process once a pool was stopped: quiet for a stopped pool's manager thread."""
    if args.thread is not None and args.thread in _QUIET_THREADS:
        return
    if getattr(_QUIET_LOCAL, "inside", False):  # a hook that wrapped this one was wrapped by it in turn
        threading.__excepthook__(args)
        return
    _QUIET_LOCAL.inside = True
    try:
        _QUIET_HOOK.get("previous", threading.__excepthook__)(args)
    finally:
        _QUIET_LOCAL.inside = False


_QUIET_THREADS = weakref.WeakSet()
"""The manager threads of the pools stopped on purpose: their exceptions are dropped."""

_QUIET_HOOK: dict = {}
"""``{"previous": hook}``: the ``threading.excepthook`` that ``_quiet_hook`` replaced, which it calls for every other thread."""

_QUIET_LOCAL = threading.local()


_KEPT: dict = {}
"""The kept pools of this process, by their number of workers: ``workers -> (pid, executor, processes)``."""

_WORKER_KEPT: dict = {}
"""In a worker of a kept pool only: ``{"keeps": {key: value}}``, what ``worker_kept`` made there."""

WORKER_KEEPS = 4
"""How many values a worker of a kept pool keeps at most (the oldest goes first)."""


def worker_kept(key, make):
    """In a worker of a kept pool: the value kept under ``key``, made by ``make()`` the first time; else ``None``.

    What a chunk builds that the next chunk of the same work can use again (a
    search's compiled graph of the game, which depends on the game alone) is
    built once per worker, not once per chunk; at most ``WORKER_KEEPS`` values
    are kept. Anywhere else (this process, a worker of another executor)
    nothing is kept and the caller builds its own.

    >>> worker_kept("graph", dict) is None  # not in a worker of a kept pool
    True
    >>> with kept_pool(2) as pool:
    ...     made = set(pool.map(_kept_id, ["graph"] * 20))
    >>> None not in made and len(made) <= 2  # each worker made it once, whichever chunks it ran
    True
    """
    keeps = _WORKER_KEPT.get("keeps")
    if keeps is None:
        return None
    value = keeps.get(key)
    if value is None:
        while len(keeps) >= WORKER_KEEPS:
            del keeps[next(iter(keeps))]
        value = keeps[key] = make()
    return value


def halted() -> bool:
    """In a worker of a kept pool: True once the run of the chunk it runs has ended without it; else False.

    ``run_chunks`` ends a run early when ``until`` says so, and drops the results of the chunks
    after that one: a chunk still running then (in a worker of a ``kept_pool``) can read this to stop
    at once (a search's ``stop=``). A chunk whose result is kept is never halted, so what a run
    returns never depends on it.

    >>> halted()  # not in a worker of a kept pool
    False
    >>> with kept_pool(2) as pool:
    ...     run = time.monotonic_ns()
    ...     _halt_run(pool, run)
    ...     list(pool.map(_call, [(_halted, 1, 0, 1, run), (_halted, 1, 1, 1, run + 1)]))
    [True, False]
    """
    halting = _WORKER_KEPT.get("halting")
    return halting is not None and halting.value == _WORKER_KEPT.get("run")


def _halted(size, rng):
    return halted()


def _halt_run(executor, run: int) -> None:
    """Tell the workers of kept pool ``executor`` that run ``run`` has ended (any other executor: nothing).

    One number holds the run ended last: a run ended after it lets this run's leftover chunks
    finish (their results are dropped all the same).
    """
    halting = getattr(executor, "fnmcts_halting", None)
    if halting is not None:
        halting.value = run


def _kept_id(key):
    return id(worker_kept(key, dict))


@contextmanager
def kept_pool(workers: int | None):
    """A ``make_executor`` pool of ``workers`` processes kept for the rest of this process, or ``None`` for one.

    The first call starts the workers; every later call asking for as many uses them
    again, so a search or a simulation repeated in one process pays for starting
    processes once. The workers stop when the process exits. On an exception in the
    block (Ctrl-C and SIGTERM included, or a worker that died) the pool's pending
    work is cancelled, its workers are stopped at once, and the next call starts a
    new pool. A child process made by ``fork`` never uses its parent's pool.

    >>> with kept_pool(2) as first:
    ...     run_chunks(_count, 10, seed=1, chunk_size=4, executor=first)
    (4, 4, 2)
    >>> with kept_pool(2) as second:
    ...     second is first
    True
    """
    if workers is None or workers <= 1:
        yield None
        return
    entry = _KEPT.get(workers)
    if entry is None or entry[0] != os.getpid():
        import atexit
        import multiprocessing

        before = set(multiprocessing.active_children())
        executor = make_executor(workers, keep=True)
        executor.submit(_count, 0, None).result()  # the workers start now, so they can be told apart
        processes = [p for p in multiprocessing.active_children() if p not in before]
        if not _KEPT:
            atexit.register(_stop_kept)
        entry = _KEPT[workers] = (os.getpid(), executor, processes)
    try:
        yield entry[1]
    except BaseException:
        _stop(_KEPT.pop(workers, entry))
        raise


def _stop(entry) -> None:
    """Stop a kept pool's workers at once (its own process only)."""
    pid, executor, processes = entry
    if pid != os.getpid():
        return
    _halt(executor, processes)


def _halt(executor, processes) -> None:
    """Cancel ``executor``'s pending work and stop its worker ``processes`` now, quietly."""
    _quiet_manager(executor)
    manager = getattr(executor, "_executor_manager_thread", None)  # shutdown forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    _end(processes)
    if manager is not None:  # it reaps workers too: once it ends, every worker it reaped reads as stopped
        manager.join(5)


def _end(processes) -> None:
    """Terminate ``processes`` and wait for them; one still alive after 5 s (a loaded machine) is killed."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join(5)


def _stop_kept() -> None:
    """At exit: stop every kept pool of this process."""
    while _KEPT:
        _stop(_KEPT.popitem()[1])


def run_chunks(
    fn: Callable,
    n: int,
    seed: int,
    chunk_size: int = DEFAULT_CHUNK,
    executor=None,
    progress: Callable[[int], None] | None = None,
    until: Callable[[object], bool] | None = None,
) -> tuple:
    """``fn(size, rng)`` for every chunk of ``n`` trials, results in chunk order.

    ``fn`` must be picklable (a module-level function or a ``functools.partial``
    of one) when ``executor`` runs it in other processes. ``progress`` is called
    with each finished chunk's size. ``until(result)``, if given, hears every
    chunk's result in chunk order and ends the run when it returns True: the
    results up to that chunk come back, whatever the executor (a sequential
    test that stops a tournament). Ctrl-C (or any ``KeyboardInterrupt``)
    raises ``Interrupted`` whose ``partial`` is the tuple of the results of the
    chunks finished so far, in order; the executor's pending chunks are
    cancelled. A worker lost mid-run raises ``WorkerLost`` whose ``partial``
    is the same tuple, the executor's other chunks cancelled.

    >>> run_chunks(lambda size, rng: size, 10, seed=1, chunk_size=4)
    (4, 4, 2)
    >>> run_chunks(lambda size, rng: rng.random(), 2, seed=1, chunk_size=1) == run_chunks(
    ...     lambda size, rng: rng.random(), 2, seed=1, chunk_size=1)
    True
    >>> sizes = []
    >>> run_chunks(lambda size, rng: size, 5, seed=1, chunk_size=2, progress=sizes.append), sizes
    ((2, 2, 1), [2, 2, 1])
    >>> run_chunks(lambda size, rng: size, 10**9, seed=1, chunk_size=4, until=lambda result: True)
    (4,)
    """
    check_seed(seed)
    if executor is not None and not hasattr(executor, "map"):
        raise TypeError(f"executor must offer map(), got {type(executor).__name__}")
    run = time.monotonic_ns()  # names this run in the workers of a kept pool (``halted``)
    jobs = ((fn, seed, index, size, run) for index, size in iter_chunks(n, chunk_size))
    whole = shared(fn, executor)
    results = []
    futures = mapped = None
    first = 0 if whole is None else _workers_of(executor)  # the chunks of a window that carry it whole
    try:
        for window in partition_all(1 if executor is None else WINDOW, jobs):
            window = window if whole is None else _tokens(window, whole, first)
            mapped, futures = mapped_on(executor, _call, window)
            done = False
            for job, result in zip(window, mapped):
                if type(result) is Unknown:  # its worker had not loaded the function: again, with it
                    result = next(iter(mapped_on(executor, _call, [(whole,) + job[1:]])[0]))
                results.append(result)
                if progress is not None:
                    progress(job[3])
                if until is not None and until(result):
                    done = True
                    break
            if done:
                _cancel(executor, futures, mapped)
                _halt_run(executor, run)  # its chunks still running stop, if they read ``halted``
                break
            futures = None
    except KeyboardInterrupt as error:
        _cancel(executor, futures, mapped)
        raise interrupted(error, tuple(results)) from None
    except Exception as error:
        cause = lost_worker(error)
        if cause is None:
            raise
        _cancel(executor, futures, mapped)
        raise WorkerLost(tuple(results), cause) from None
    return tuple(results)


def shared(fn, executor) -> Shared | None:
    """``fn`` (any value) pickled once as a ``Shared`` for ``executor`` when its workers unpickle what they
    get, else ``None`` (this process, a thread pool, a value that does not pickle: it goes as it is).

    >>> shared(abs, None) is None, type(shared(abs, object())).__name__
    (True, 'Shared')
    """
    if not _pickles(executor):
        return None
    try:
        return Shared(_dumps_for(executor)(fn))
    except Exception:  # noqa: BLE001 (not picklable here: sent as it is, and the executor says what it says)
        return None


def _dumps_for(executor) -> Callable:
    """How ``executor`` itself pickles: cloudpickle for Dask and Ray (a function of a script or notebook goes by
    value, as they send it), the standard pickle for the others (by reference, as they send it).

    >>> class Client:
    ...     pass
    >>> Client.__module__ = "distributed.client"
    >>> _dumps_for(Client()).__module__.split(".")[0], _dumps_for(object()) is pickle.dumps
    ('cloudpickle', True)
    """
    if type(executor).__module__.split(".")[0] in ("distributed", "ray"):
        try:
            import cloudpickle

            return cloudpickle.dumps
        except ImportError:
            pass
    return pickle.dumps


def loaded(value):
    """``value``, or the value a ``Shared`` stands for in this process (``None`` for a token not loaded here).

    >>> loaded(3), loaded(Shared(pickle.dumps(abs))) is abs, loaded(Shared(None, "unknown token"))
    (3, True, None)
    """
    return value.loaded() if type(value) is Shared else value


HAND_OFF_SWITCH = 0.00002
"""Seconds between the interpreter's thread switches while the caller works beside its executor (``mapped_shared``'s
``meanwhile``): the executor's own threads, which pickle the items and send them to the workers, wait that long for
the interpreter at most, not the default 5 ms at each of their steps, so the workers start while the caller works.
Measured (connect_four, 8 decisive playouts here and 8 on a worker, quiet machine): 33 ms at the default, 25 ms at
0.5 ms, 42 ms one after the other. A kept pool's worker began a step of 16 playouts 2.9-3.0 ms (median) after the
call at 0.5 ms and 1.3-1.5 ms at 20 us (the two hops: the pool's manager thread, then its queue's feeder thread).
A thread that waits for nothing costs nothing at any interval. The default comes back when ``meanwhile`` returns.
A batched step on a kept pool's channel (``pulled``) goes through neither thread: this is for the others."""


def mapped_shared(executor, fn: Callable, value, items, meanwhile: Callable[[], object] | None = None) -> list:
    """``[fn(value, item) for item in items]`` run on ``executor`` (None: here), in order.

    A ``Shared`` ``value`` goes whole with the items of its first call and as its token
    alone after that; ``fn`` answers ``Unknown`` where ``loaded(value)`` is ``None``,
    and that item is sent again with the value whole. ``meanwhile()``, if given, runs
    here once the items are handed to the executor, before their results are awaited
    (the caller's own share of the work).

    >>> value, seen = Shared(pickle.dumps(10)), []
    >>> mapped_shared(None, _plus, value, [1, 2]), value.sent, mapped_shared(None, _plus, 5, [1], lambda: seen.append(1))
    ([11, 12], True, [6])
    >>> seen
    [1]
    """
    sent = value.without() if type(value) is Shared and value.sent else value
    if type(value) is Shared:
        value.sent = True
    mapped = mapped_on(executor, partial(fn, sent), items)[0]
    if meanwhile is not None:
        before = sys.getswitchinterval()
        if executor is not None:  # the executor's threads that pickle and send the items: not held up by ours
            sys.setswitchinterval(min(before, HAND_OFF_SWITCH))
        try:
            meanwhile()
        finally:
            sys.setswitchinterval(before)
    results = list(mapped)
    again = [i for i, result in enumerate(results) if type(result) is Unknown]
    if again:  # (no empty map: a round trip to the executor's queue for nothing)
        for i, result in zip(again, mapped_on(executor, partial(fn, value), [items[i] for i in again])[0]):
            results[i] = result
    return results


def pulled(executor, fn: Callable, value, here: Callable, jobs, parts: int) -> list | None:
    """``[here(job) for job in jobs]`` played here and on a kept pool at once, each side taking the next job left.

    This process and ``parts - 1`` workers of the kept pool ``executor`` each
    take the next job not yet taken until none is left; ``None`` (nothing
    run) for any other executor, which keeps its own split.

    A worker plays a job as ``fn(value, job)`` (``value`` sent as by ``mapped_shared``), which must give
    ``here(job)``: so the results depend on the jobs alone, whoever took which. The next job's index sits in
    one shared counter made with the pool (``make_executor(keep=True)``), so no side waits for the other by
    more than one job. A job nobody took (another call took the counter over) is played here.

    The steps go on the pool's channel (``_Channel``) when it is free and a step's jobs are small
    (``STEP_BYTES``): the first step starts a ``_serve`` on each worker it needs, which gets ``fn`` and
    ``value`` once, then each step's jobs straight from this thread, and sends its results straight back,
    none of them through the pool's own threads; ``served`` tells those workers to stop when the search
    ends. Otherwise (a second thread while one uses the channel, larger jobs) the step goes through the
    pool, the jobs whole to each worker.

    >>> pulled(None, abs, None, abs, [-1], 2) is None
    True
    >>> with kept_pool(2) as pool, served(pool):
    ...     pulled(pool, _plus, 10, lambda job: 10 + job, list(range(6)), 2)
    [10, 11, 12, 13, 14, 15]
    """
    pulls = getattr(executor, "fnmcts_pulls", None)
    if pulls is None:
        return None
    token, mine = time.monotonic_ns(), []
    channel = getattr(executor, "fnmcts_channel", None)
    step = _step_bytes(token, jobs) if channel is not None else None
    if step is not None and channel.lock.acquire(blocking=False):
        try:
            return _direct(executor, channel, (fn, value), here, jobs, parts, token, step)
        finally:
            channel.lock.release()
    with pulls.get_lock():
        pulls.get_obj()[:] = [token, 0]
    taken = mapped_shared(executor, partial(_pulling, fn), value, [(token, jobs)] * (parts - 1),
                          lambda: mine.extend(_taking(pulls, here, token, jobs)))
    return _gathered(here, jobs, chain(mine, *taken))


def _gathered(here: Callable, jobs, pairs) -> list:
    """The results of ``jobs`` in order: those of the ``(index, result)`` ``pairs``, ``here(job)`` for the others."""
    results, left = [None] * len(jobs), set(range(len(jobs)))
    for i, result in pairs:
        results[i] = result
        left.discard(i)
    for i in sorted(left):
        results[i] = here(jobs[i])
    return results


STEP_BYTES = 16_384
"""The largest step (its token and jobs, pickled) that ``pulled`` sends on a kept pool's channel, and the largest
reply a worker sends back on it: a larger step goes through the pool, a larger reply as its serve's result. So a
message is one write, whole or not at all (a Ctrl-C or a lost worker never leaves half of one), and a channel holds
a message or two at most, far below a socket's buffer: sending never waits."""

SERVE_POLL = 0.05
"""Seconds a side of a kept pool's channel waits for the other at a time, between its checks that the other lives."""

SERVE_IDLE = 0.5
"""Seconds a worker's ``_serve`` waits for a step before it returns, its worker free for other work."""


class _Channel:
    """A kept pool's way for ``pulled``'s steps: one duplex pipe per worker slot (``here`` this process's ends,
    ``there`` the workers', each with the lock its reader holds), the lock of the one thread that uses it, and
    each slot's serve: ``[future, ident, fn, value, ending, unanswered]`` or None."""

    def __init__(self, workers: int):
        import multiprocessing

        pairs = [multiprocessing.Pipe() for _ in range(workers)]
        self.here, self.there = [a for a, _ in pairs], [(b, multiprocessing.Lock()) for _, b in pairs]
        self.lock = threading.Lock()
        self.serves = [None] * workers
        self.made = 0


def _step_bytes(token: int, jobs) -> list | None:
    """A step's jobs pickled for the channel one by one (a worker unpickles those it takes, as it takes them), or
    ``None`` where they do not pickle or the step is over ``STEP_BYTES`` (with its token and a serve's number,
    ``_direct``'s message).

    >>> [pickle.loads(job) for job in _step_bytes(7, [1, 2])], _step_bytes(7, [b"x" * STEP_BYTES])
    ([1, 2], None)
    """
    try:
        step = [pickle.dumps(job) for job in jobs]
    except Exception:  # noqa: BLE001 (the pool says what it says)
        return None
    return step if len(pickle.dumps((token, 2**62, step))) <= STEP_BYTES else None


def _direct(executor, channel: _Channel, work, here: Callable, jobs, parts: int, token: int, step: list) -> list:
    """``pulled`` on ``channel`` (its lock held): the step sent to each serving worker, its results read back."""
    slots, pulls = _serving(executor, channel, work, parts - 1), executor.fnmcts_pulls
    with pulls.get_lock():
        pulls.get_obj()[:] = [token, 0]
    for slot in slots:
        conn = channel.here[slot]
        while conn.poll():  # the replies of earlier steps left unread (their jobs were all played)
            conn.recv_bytes()
            _heard(channel, slot)
        conn.send_bytes(pickle.dumps((token, channel.serves[slot][1], step)))  # for that serve alone
        channel.serves[slot][5] += 1
    mine = _taking(pulls, here, token, jobs)
    pairs, left = list(mine), set(range(len(jobs))) - {i for i, _ in mine}
    _answers(channel, slots, token, pairs, left)
    return _gathered(here, jobs, pairs)


def _serving(executor, channel: _Channel, work, count: int) -> list:
    """The slots (at most ``count``) whose ``_serve`` plays ``work`` (``(fn, value)``): one started in each free
    slot; one that serves other work is told to end and left out."""
    slots = []
    for slot in range(min(count, len(channel.here))):
        serve = channel.serves[slot]
        if serve is None or serve[0].done():
            channel.made += 1
            fn, value = work
            future = executor.submit(_serve, slot, channel.made, fn, value)
            serve = channel.serves[slot] = [future, channel.made, fn, value, False, 0]
        if serve[2] is not work[0] or serve[3] is not work[1]:
            _end_serve(channel, slot)
        elif serve[5] < UNANSWERED:
            slots.append(slot)
    return slots


UNANSWERED = 2
"""Steps sent to a serve not yet started (its task queued behind others) at most: its pipe never fills."""


def _heard(channel: _Channel, slot: int) -> None:
    """A reply read from ``slot``: one step fewer unanswered there."""
    serve = channel.serves[slot]
    serve[5] = max(0, serve[5] - 1)


def _answers(channel: _Channel, slots, token: int, pairs: list, left: set) -> None:
    """Read step ``token``'s results from ``slots`` into ``pairs`` until none is ``left`` or each slot answered or
    ended; a reply to an older step is dropped. A serve that failed (its worker lost) raises its error here."""
    from multiprocessing.connection import wait

    waiting = {channel.here[slot]: slot for slot in slots}
    while waiting and left:
        for conn in wait(list(waiting), SERVE_POLL):
            answer = conn.recv()
            _heard(channel, waiting[conn])
            if answer[0] == token:
                pairs.extend(answer[1])
                left.difference_update(i for i, _ in answer[1])
                del waiting[conn]
        for conn, slot in list(waiting.items()):
            future = channel.serves[slot][0]
            if future.done() and not conn.poll():
                last = future.result()  # its error, if any (a worker lost: BrokenProcessPool)
                if last is not None and last[0] == token:  # a reply over STEP_BYTES
                    pairs.extend(last[1])
                    left.difference_update(i for i, _ in last[1])
                del waiting[conn]  # else it ended before this step: it took none of it


def _end_serve(channel: _Channel, slot: int) -> None:
    """Tell slot ``slot``'s serve, if it runs, to return (once)."""
    serve = channel.serves[slot]
    if serve is not None and not serve[4] and not serve[0].done():
        serve[4] = True
        channel.here[slot].send_bytes(pickle.dumps((None, serve[1], None)))


def _serve(slot: int, ident: int, fn: Callable, value) -> tuple | None:
    """On a worker of a kept pool: play the steps for serve ``ident`` that come on channel slot ``slot``
    (``_taking`` from the shared counter, the pairs sent back at once) until told to end or ``SERVE_IDLE`` seconds
    without one; a reply over ``STEP_BYTES`` is returned instead, and the serve with it. One serve reads a slot at
    a time (the slot's lock): one started while another still holds it (left over when Ctrl-C cut its start
    short) returns at once."""
    conn, lock = _WORKER_KEPT["channel"][slot]
    if not lock.acquire(timeout=SERVE_POLL):
        return None
    try:
        return _serving_steps(conn, ident, partial(_unpickled, partial(fn, loaded(value))), _WORKER_KEPT["pulls"])
    finally:
        lock.release()


def _serving_steps(conn, ident: int, play: Callable, pulls) -> tuple | None:
    """``_serve``'s loop: ``(token, ident, jobs)`` a step, ``(None, ident, None)`` the end; another serve's skipped."""
    heard = time.monotonic()
    while time.monotonic() - heard < SERVE_IDLE:
        if not conn.poll(SERVE_POLL):
            continue
        token, to, jobs = conn.recv()
        if to != ident:  # for the serve started after this one: not heard
            continue
        if token is None:
            return None
        heard, reply = time.monotonic(), (token, _taking(pulls, play, token, jobs))
        sent = pickle.dumps(reply)
        if len(sent) > STEP_BYTES:
            return reply
        conn.send_bytes(sent)
    return None


def _unpickled(play: Callable, job: bytes):
    return play(pickle.loads(job))


@contextmanager
def served(executor):
    """``executor`` for a block; on every exit, the workers of a kept pool that serve ``pulled``'s steps stop.

    >>> with served(None) as executor:
    ...     executor is None
    True
    """
    try:
        yield executor
    finally:
        channel = getattr(executor, "fnmcts_channel", None)
        if channel is not None and channel.lock.acquire(blocking=False):  # else another thread's search uses them
            try:
                for slot in range(len(channel.serves)):
                    _end_serve(channel, slot)
            finally:
                channel.lock.release()


def _pulling(fn, value, item) -> list:
    """On a worker of a kept pool: ``_taking``'s pairs for ``item`` (a step's token and jobs); ``Unknown`` for a
    ``value`` not loaded here (it takes no job then)."""
    value = loaded(value)
    return Unknown() if value is None else _taking(_WORKER_KEPT["pulls"], partial(fn, value), *item)


def _taking(pulls, play: Callable, token: int, jobs) -> list:
    """``[(i, play(jobs[i]))]`` for each index ``i`` taken from ``pulls`` while it holds step ``token``'s count."""
    done, raw, lock = [], pulls.get_obj(), pulls.get_lock()
    while True:
        with lock:
            i = raw[1]
            if raw[0] != token or i >= len(jobs):
                return done
            raw[1] = i + 1
        done.append((i, play(jobs[i])))


def _plus(value, item):
    value = loaded(value)
    return Unknown() if value is None else value + item


def _tokens(window, shared: Shared, whole: int) -> tuple:
    """The jobs of ``window`` with ``shared`` in place of the function: whole in the first ``whole``, the token after.

    >>> [job[0].blob is None for job in _tokens([(abs, 1, i, 1, 0) for i in range(3)], Shared(b"x"), 2)]
    [False, False, True]
    """
    light = shared.without()
    return tuple(((shared if i < whole else light),) + job[1:] for i, job in enumerate(window))


def _cancel(executor, futures, mapped) -> None:
    """Cancel what an executor still has of a window: Dask ``futures``, or a concurrent.futures ``mapped``."""
    try:
        if futures is not None:
            executor.cancel(futures)
        if hasattr(mapped, "close"):
            mapped.close()  # a concurrent.futures map: cancels its pending chunks
    except Exception:  # noqa: BLE001 (an executor already broken has nothing left to cancel)
        pass


WINDOW = 64
"""Chunks handed to an executor at a time."""


def mapped_on(executor, fn: Callable, items) -> tuple:
    """``(results, futures)``: ``fn`` of each item on ``executor`` (``None``: here), results in order.

    ``results`` iterates the results in the items' order; ``futures`` is the
    list of Dask futures to cancel for a Dask client, else ``None`` (a
    ``concurrent.futures`` map cancels what is left when its iterator is closed).

    >>> results, futures = mapped_on(None, abs, [-1, 2])
    >>> list(results), futures
    ([1, 2], None)
    """
    if executor is None:
        return map(fn, items), None
    if hasattr(executor, "gather") and not _is_futures_executor(executor):  # dask.distributed
        futures = executor.map(fn, items, pure=False)
        return (future.result() for future in futures), futures  # in order: those before a lost worker are kept
    return executor.map(fn, items), None


def _is_futures_executor(executor) -> bool:
    """True for a ``concurrent.futures`` executor (whose module is loaded once one exists)."""
    import sys

    futures = sys.modules.get("concurrent.futures")
    return futures is not None and isinstance(executor, futures.Executor)



def _count(size, rng):
    return size
