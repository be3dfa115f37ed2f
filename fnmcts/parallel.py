"""Chunks, child seeds and executors: the same seed, the same result, on any workers.

Work of ``n`` trials is cut into chunks of a fixed size; chunk ``i`` draws from
its own generator seeded with ``child_seed(seed, i)``. The chunks can run in
this process, on a ``concurrent.futures`` executor, or on a Dask
``distributed.Client`` (anything with a ``map`` method): the combined result
depends on the seed alone. Chunks are made as they are needed and sent to an
executor a window at a time, so memory does not grow with ``n``.

>>> chunks(10, 4)
((0, 4), (1, 4), (2, 2))
>>> run_chunks(_count, 10, seed=1, chunk_size=4)
(4, 4, 2)
"""

from __future__ import annotations

import os
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Callable

from toolz import partition_all

from .rng import child_rng, check_seed

__all__ = ["DEFAULT_CHUNK", "chunks", "run_chunks", "make_executor", "check_count"]

DEFAULT_CHUNK = 50_000
"""Trials per chunk (and per child seed) unless told otherwise."""


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
    fn, seed, index, size = job
    return fn(size, child_rng(seed, index))


def make_executor(workers: int | None = None) -> Executor:
    """A process pool with ``workers`` processes (default: one per core).

    >>> with make_executor(2) as executor:
    ...     type(executor).__name__
    'ProcessPoolExecutor'
    """
    return ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)


def run_chunks(
    fn: Callable,
    n: int,
    seed: int,
    chunk_size: int = DEFAULT_CHUNK,
    executor=None,
    progress: Callable[[int], None] | None = None,
) -> tuple:
    """``fn(size, rng)`` for every chunk of ``n`` trials, results in chunk order.

    ``fn`` must be picklable (a module-level function or a ``functools.partial``
    of one) when ``executor`` runs it in other processes. ``progress`` is called
    with each finished chunk's size.

    >>> run_chunks(lambda size, rng: size, 10, seed=1, chunk_size=4)
    (4, 4, 2)
    >>> run_chunks(lambda size, rng: rng.random(), 2, seed=1, chunk_size=1) == run_chunks(
    ...     lambda size, rng: rng.random(), 2, seed=1, chunk_size=1)
    True
    >>> sizes = []
    >>> run_chunks(lambda size, rng: size, 5, seed=1, chunk_size=2, progress=sizes.append), sizes
    ((2, 2, 1), [2, 2, 1])
    """
    check_seed(seed)
    if executor is not None and not hasattr(executor, "map"):
        raise TypeError(f"executor must offer map(), got {type(executor).__name__}")
    jobs = ((fn, seed, index, size) for index, size in iter_chunks(n, chunk_size))
    results = []
    for window in partition_all(1 if executor is None else WINDOW, jobs):
        if executor is None:
            mapped = map(_call, window)
        elif hasattr(executor, "gather") and not isinstance(executor, Executor):  # dask.distributed
            mapped = executor.gather(executor.map(_call, window, pure=False))
        else:
            mapped = executor.map(_call, window)
        for job, result in zip(window, mapped):
            results.append(result)
            if progress is not None:
                progress(job[3])
    return tuple(results)


WINDOW = 64
"""Chunks handed to an executor at a time."""



def _count(size, rng):
    return size
