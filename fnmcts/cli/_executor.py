"""``--executor KIND``: where a command's independent pieces run (worker processes, Dask, Ray, MPI).

A command that cuts its work into seeded chunks (``simulate``, ``tournament``,
``train``'s evaluation, the trees of ``search`` and ``move --trees N``, the mutants of
``mutate``) gives the same result on any of them. KIND is one of

- ``processes:N``: N worker processes on this machine (what ``--workers N`` means);
- ``dask:local:N``: a Dask ``LocalCluster`` of N worker processes on this machine;
- ``dask:tcp://HOST:PORT``: the Dask scheduler at that address (``dask scheduler``, then
  ``dask worker tcp://HOST:PORT`` on each machine);
- ``ray``: Ray's ``Pool`` on the Ray cluster named by ``RAY_ADDRESS``, else on a local Ray;
- ``mpi``: mpi4py's ``MPIPoolExecutor``, for a command started under
  ``mpiexec -n N python -m mpi4py.futures -m fnmcts ...`` (rank 0 runs the command, the others work).

A kind that cannot be read, a package that is missing, an address where no
scheduler answers: one line and exit status 2 (``CliError``), before any work.

>>> executor_spec("processes:4"), executor_spec("dask:tcp://127.0.0.1:8786")
(Spec(kind='processes', value=4), Spec(kind='dask', value='tcp://127.0.0.1:8786'))
>>> executor_spec("spark")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: unknown executor 'spark': give processes:N, dask:local:N, dask:tcp://HOST:PORT, ray or mpi
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from contextlib import contextmanager
from typing import NamedTuple
from urllib.parse import urlsplit

from ._common import CliError, add_force, add_json, worker_count

__all__ = ["Spec", "executor_spec", "add_executor", "add_run_flags", "open_executor", "CONNECT_TIMEOUT"]

KINDS = "processes:N, dask:local:N, dask:tcp://HOST:PORT, ray or mpi"

CONNECT_TIMEOUT = 10
"""Seconds to reach a Dask scheduler, and then to see its first worker, before the command gives up."""


class Spec(NamedTuple):
    """A parsed ``--executor``: ``kind`` (processes, dask-local, dask, ray, mpi) and its number or address.

    >>> Spec("processes", 2).value, Spec("ray").value
    (2, None)
    """

    kind: str
    value: object = None


def executor_spec(text: str) -> Spec:
    """``--executor``'s value read: a ``Spec``, or one clear line (``ArgumentTypeError``) naming the problem.

    >>> executor_spec("dask:local:2"), executor_spec("ray"), executor_spec("mpi")
    (Spec(kind='dask-local', value=2), Spec(kind='ray', value=None), Spec(kind='mpi', value=None))
    >>> executor_spec("dask:tcp://cluster:99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: bad Dask scheduler address 'tcp://cluster:99999': expected tcp://HOST:PORT with a port from 1 to 65535
    """
    kind, _, rest = text.strip().partition(":")
    if kind in ("ray", "mpi") and not rest:
        return Spec(kind)
    if kind == "processes" and rest:
        return Spec(kind, _workers(rest, text))
    if kind == "dask" and rest.startswith("local:"):
        return Spec("dask-local", _workers(rest[len("local:"):], text))
    if kind == "dask" and rest:
        return Spec(kind, _address(rest))
    raise argparse.ArgumentTypeError(f"unknown executor {text!r}: give {KINDS}")


def _workers(number: str, text: str) -> int:
    try:
        return worker_count(number)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"bad executor {text!r}: {error}") from None


def _address(address: str) -> str:
    """``tcp://HOST:PORT`` checked: a scheme Dask speaks, a host and a port in range."""
    bad = argparse.ArgumentTypeError(
        f"bad Dask scheduler address {address!r}: expected tcp://HOST:PORT with a port from 1 to 65535"
    )
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise bad from None
    if parts.scheme not in ("tcp", "tls") or not parts.hostname or port is None or not 0 < port < 65536:
        raise bad
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise bad
    return f"{parts.scheme}://{parts.netloc}"


def add_executor(parser) -> None:
    """Give ``parser`` the ``--executor KIND`` option (see this module); ``open_executor(args)`` opens it.

    >>> parser = argparse.ArgumentParser()
    >>> add_executor(parser)
    >>> parser.parse_args(["--executor", "dask:local:2"]).executor, parser.parse_args([]).executor
    (Spec(kind='dask-local', value=2), None)
    """
    parser.add_argument(
        "--executor", type=executor_spec, default=None, metavar="KIND",
        help=f"where the pieces run: {KINDS} (processes:N is --workers N)",
    )


def add_run_flags(parser) -> None:
    """Give ``parser`` the flags of a run of many games in pieces: ``--force``, ``--json``, ``--executor``.

    >>> parser = argparse.ArgumentParser()
    >>> add_run_flags(parser)
    >>> args = parser.parse_args(["--force", "--json", "--executor", "processes:2"])
    >>> args.force, args.json, args.executor
    (True, True, Spec(kind='processes', value=2))
    """
    add_force(parser)
    add_json(parser)
    add_executor(parser)


@contextmanager
def open_executor(args):
    """The executor that ``args`` asks for (``--executor``, else ``--workers``), closed on every exit path.

    ``None`` (this process) for neither; ``--workers N`` is ``processes:N``.

    >>> with open_executor(argparse.Namespace(workers=1, executor=None)) as executor:
    ...     executor is None
    True
    >>> with open_executor(argparse.Namespace(workers=2, executor=executor_spec("ray"))) as executor:
    ...     pass
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: give --workers N or --executor KIND, not both (--workers N is --executor processes:N)
    """
    from ..parallel import worker_pool

    spec, workers = getattr(args, "executor", None), getattr(args, "workers", 1)
    if spec is not None and workers > 1:
        raise CliError("give --workers N or --executor KIND, not both (--workers N is --executor processes:N)")
    if spec is None or spec.kind == "processes":
        with worker_pool(workers if spec is None else spec.value) as executor:
            yield executor
        return
    with _background_prints_to_stderr(), _OPENERS[spec.kind](spec.value) as executor:
        yield executor


class _MainThreadOut:
    """Standard output for the main thread, standard error for every other: what a cluster's client threads print
    (Ray's driver prints its workers' errors, "(raylet) A worker died...", to ``sys.stdout`` from a thread of its own)
    stays out of the command's output, a ``--json`` record most of all."""

    def __init__(self, out, err):
        self._out, self._err = out, err

    def _stream(self):
        return self._out if threading.current_thread() is threading.main_thread() else self._err

    def write(self, text):
        return self._stream().write(text)

    def flush(self):
        self._out.flush()
        self._err.flush()

    def __getattr__(self, name):
        return getattr(self._out, name)


@contextmanager
def _background_prints_to_stderr():
    """``sys.stdout`` as ``_MainThreadOut`` while a cluster's client runs in this process, then as it was.

    >>> import io, sys
    >>> out, err = io.StringIO(), io.StringIO()
    >>> sys.stdout, sys.stderr, kept = out, err, (sys.stdout, sys.stderr)
    >>> with _background_prints_to_stderr():
    ...     print("the record")
    ...     other = threading.Thread(target=print, args=("(raylet) A worker died",))
    ...     other.start(); other.join()
    >>> sys.stdout, sys.stderr = kept
    >>> out.getvalue(), err.getvalue()
    ('the record\\n', '(raylet) A worker died\\n')
    """
    kept = sys.stdout
    if kept is None or sys.stderr is None:
        yield
        return
    sys.stdout = _MainThreadOut(kept, sys.stderr)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stdout = kept


def _need(module: str, what: str, extra: str):
    try:
        return __import__(module)
    except ImportError:
        raise CliError(f"--executor needs {what}: pip install 'fnmcts[{extra}]'") from None


@contextmanager
def _dask_local(workers: int):
    distributed = _need("distributed", "Dask", "dask")
    with distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, dashboard_address=None, silence_logs=50
    ) as cluster, distributed.Client(cluster) as client:
        yield client


@contextmanager
def _dask(address: str):
    distributed = _need("distributed", "Dask", "dask")
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise CliError(f"no Dask scheduler answers at {address} ({_reason(error)})") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError):
            raise CliError(f"the Dask scheduler at {address} has no workers: start them with dask worker {address}") from None
        yield client


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


@contextmanager
def _ray(_):
    ray = _need("ray", "Ray", "cluster")
    from ray.util.multiprocessing import Pool

    try:
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
    except (ConnectionError, OSError, TimeoutError, ValueError) as error:
        where = os.environ.get("RAY_ADDRESS", "a local Ray")
        raise CliError(f"cannot start or reach Ray ({where}): {_reason(error)}") from None
    try:
        pool = Pool()
        try:
            yield pool
        finally:
            pool.terminate()
    finally:
        ray.shutdown()


@contextmanager
def _mpi(_):
    _need("mpi4py", "mpi4py (and an MPI such as OpenMPI)", "cluster")
    from mpi4py import MPI
    from mpi4py.futures import MPIPoolExecutor

    if MPI.COMM_WORLD.Get_size() < 2:
        raise CliError(
            "--executor mpi runs under mpiexec: mpiexec -n 3 python -m mpi4py.futures -m fnmcts ... --executor mpi"
        )
    with MPIPoolExecutor() as executor:
        yield executor


_OPENERS = {"dask-local": _dask_local, "dask": _dask, "ray": _ray, "mpi": _mpi}
