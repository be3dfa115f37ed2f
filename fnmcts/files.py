"""Writing files safely: check the target first, then write it whole or not at all.

``check_target(path)`` says before any long computation whether a file can be
written there; ``write_atomically(path, text)`` writes through a temporary file
in the same directory and ``os.replace``, so a reader sees the old file or the
whole new one, never a part. A symbolic link is written through (its target is
replaced); a directory, a device or any other non-regular file is refused.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomically(folder / "t.txt", "box roll\\n").read_text()
'box roll\\n'
>>> check_target(folder)
Traceback (most recent call last):
...
ValueError: ... is a directory: give the name of a file to write
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["check_target", "write_atomically", "WriteError", "read_file", "partial_path", "claim_target", "release_target", "release_claims", "held_claims"]

MAX_READ = 1 << 30
"""The most bytes ``read_file`` reads (1 GiB): a file larger than this is refused, not read into memory."""


class WriteError(OSError, ValueError):
    """A file that could not be written (a full disk, an I/O error): an ``OSError`` keeping its ``errno``.

    It is a ``ValueError`` too, as every error of this module; its text is the
    message alone (no ``[Errno 28]``).

    >>> error = WriteError(28, "cannot write q.json: No space left on device")
    >>> error.errno, str(error), isinstance(error, ValueError)
    (28, 'cannot write q.json: No space left on device', True)
    """

    def __str__(self):
        return self.strerror or super().__str__()


def _a_path(path, function: str):
    """``path`` if it is a file's path (a str, bytes or a ``pathlib.Path``), else a ``TypeError`` naming it."""
    if isinstance(path, (str, bytes, os.PathLike)):
        return path
    raise TypeError(f"{function}: path must be a file path (a str or a pathlib.Path), got {type(path).__name__}: "
                    f"{path!r:.60}")


def check_target(path) -> Path:
    """The real path a file would be written to, or a ``ValueError`` naming the problem.

    Follows symbolic links; refuses a directory or a non-regular file (a device,
    a pipe), a name ending in ``/`` (a folder's name), and a file that is
    read-only (replacing it by a rename would ignore its protection); names a
    missing folder, a folder that is a file, or one that is not writable.

    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_target(folder / "table.txt") == (folder / "table.txt").resolve()
    True
    >>> check_target(folder / "missing" / "table.txt")
    Traceback (most recent call last):
    ...
    ValueError: cannot write .../missing/table.txt: the folder .../missing does not exist
    """
    _a_path(path, "check_target")
    if isinstance(path, str) and not path.strip():
        raise ValueError("the output file name is empty")
    if isinstance(path, str) and path.endswith(("/", os.sep)) and not os.path.isdir(path):
        raise ValueError(f"{path} ends with '/', the name of a folder: give the name of a file to write")
    given = Path(path)
    real = Path(os.path.realpath(given))
    if real.exists():
        mode = real.stat().st_mode
        if stat.S_ISDIR(mode):
            raise ValueError(f"{given} is a directory: give the name of a file to write")
        if not stat.S_ISREG(mode):
            raise ValueError(f"{given} is not a regular file (a device or a pipe): refusing to replace it")
        if not mode & 0o222 or not os.access(real, os.W_OK):  # no write bit: read-only even for root
            raise ValueError(f"{given} is read-only: refusing to replace it (make it writable, or write elsewhere)")
    parent = real.parent
    if not parent.exists():
        raise ValueError(f"cannot write {given}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise ValueError(f"cannot write {given}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write {given}: the folder {parent} is not writable")
    return real


def read_file(path, what: str = "", limit: int = MAX_READ) -> bytes:
    """The bytes of the regular file ``path``; a ``ValueError`` names a missing file, a pipe, a device, a huge file.

    A pipe (FIFO) would block until a writer comes and a device such as
    ``/dev/zero`` never ends, so only a regular file is read, of at most
    ``limit`` bytes. ``what`` names the file in the messages ("Q table").
    Messages start ``cannot read PATH`` or ``PATH is ...``.

    >>> read_file("/dev/zero", "Q table")
    Traceback (most recent call last):
    ...
    ValueError: the Q table /dev/zero is not a regular file (a device or a pipe): refusing to read it
    """
    given = Path(_a_path(path, "read_file"))
    name = f"the {what} {given}" if what else str(given)
    try:
        mode = os.stat(given).st_mode
    except OSError as error:
        raise ValueError(f"cannot read {name}: {error.strerror or error}") from None
    if stat.S_ISDIR(mode):
        raise ValueError(f"{name} is a directory: give the name of a file")
    if not stat.S_ISREG(mode):
        raise ValueError(f"{name} is not a regular file (a device or a pipe): refusing to read it")
    try:
        with open(given, "rb") as handle:
            if os.fstat(handle.fileno()).st_size > limit:
                raise ValueError(f"{name} is larger than {limit:,} bytes: refusing to read it")
            data = handle.read(limit + 1)
    except OSError as error:
        raise ValueError(f"cannot read {name}: {error.strerror or error}") from None
    if len(data) > limit:
        raise ValueError(f"{name} is larger than {limit:,} bytes: refusing to read it")
    return data


def partial_path(path) -> Path:
    """Where a partial result meant for ``path`` goes, beside it: ``q.json`` -> ``q.partial.json``.

    >>> partial_path("out/q.json"), partial_path("table")
    (PosixPath('out/q.partial.json'), PosixPath('table.partial'))
    """
    given = Path(path)
    return given.with_name(f"{given.stem}.partial{given.suffix}") if given.suffix else given.with_name(f"{given.name}.partial")


_CLAIMED: dict = {}  # real path -> the open lock file held by this process


def _lock_name(real: Path) -> Path:
    return real.with_name(f".{real.name}.lock")


def claim_target(path) -> Path:
    """``check_target``, then hold ``path`` for this process: another process claiming it gets a ``ValueError``.

    Two commands writing the same file would both report success while one
    overwrote the other; a claim is an advisory lock (``flock``) on a lock file
    beside the target (``.NAME.lock``), held until ``release_target(path)`` or
    the process ends (the system drops the lock then). ``write_atomically``
    refuses a file another process has claimed.

    >>> import tempfile
    >>> from pathlib import Path
    >>> target = Path(tempfile.mkdtemp()) / "q.json"
    >>> claim_target(target) == target.resolve(), claim_target(target) == target.resolve()  # again: still ours
    (True, True)
    >>> release_target(target)
    """
    real = check_target(path)
    if real in _CLAIMED:
        return real
    import fcntl

    lock = _lock_name(real)
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise ValueError(f"cannot write {path}: cannot create its lock file {lock}: {error.strerror or error}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ValueError(
                f"{path} is being written by another process (its lock {lock} is held): wait for it to finish, "
                "or write elsewhere"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except OSError:
            same = False
        if same:  # not a lock file its last holder removed while we waited
            _CLAIMED[real] = fd
            return real
        os.close(fd)


def release_target(path) -> None:
    """Let go of a ``claim_target`` (the lock file is removed); nothing if ``path`` is not claimed.

    >>> release_target("never-claimed.json")
    """
    real = Path(os.path.realpath(path))
    fd = _CLAIMED.pop(real, None)
    if fd is None:
        return
    try:
        os.unlink(_lock_name(real))  # while still locked: a process waiting on this file sees it gone
    except OSError:
        pass
    os.close(fd)


def held_claims() -> frozenset:
    """The real paths this process holds by ``claim_target``.

    >>> held_claims()
    frozenset()
    """
    return frozenset(_CLAIMED)


def release_claims(keep=frozenset()) -> None:
    """Let go of every ``claim_target`` of this process but those in ``keep`` (a command lets go of its own as it ends).

    >>> release_claims()
    """
    for real in list(_CLAIMED):
        if real not in keep:
            release_target(real)


import atexit  # noqa: E402  (the claims end with the process)

atexit.register(release_claims)


def write_atomically(path, text) -> Path:
    """Write ``text`` (a ``str``, or ``bytes``: a picture) to ``path`` whole (temporary file, then rename); return the path.

    An existing file keeps its permissions; a new one gets the usual ones (the
    umask applies). On any failure the old file is left as it was and the
    temporary file removed; the error names ``path``: a ``ValueError`` for a
    target that cannot be written (``check_target``), a ``WriteError`` (an
    ``OSError`` keeping its ``errno``, and a ``ValueError``) for a failure
    while writing (a full disk, an I/O error). Ctrl-C or SIGTERM during the
    write waits for it to end (the new file whole, or the old one and no
    temporary file), then stops the program as it would have.

    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "table.txt"
    >>> write_atomically(path, "old\\n") == path, path.read_text()
    (True, 'old\\n')
    >>> write_atomically(path, "new\\n").read_text(), sorted(p.name for p in path.parent.iterdir())
    ('new\\n', ['table.txt'])
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"write_atomically(path, text): text must be a str or bytes, got {type(text).__name__}: "
                        f"{text!r:.60}")
    real = check_target(path)
    claimed_here = real not in _CLAIMED
    claim_target(path)  # refused when another process holds it; held for the write
    try:
        return _write(path, real, text)
    finally:
        if claimed_here:
            release_target(real)


def _write(path, real: Path, text) -> Path:
    if real.exists():
        mode = real.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with _signals_deferred():
        try:
            fd, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
        except OSError as error:
            raise WriteError(error.errno, f"cannot write {path}: {error.strerror or error}") from None
        try:
            binary = isinstance(text, (bytes, bytearray))
            with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, real)
        except BaseException as error:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            if isinstance(error, OSError):
                raise WriteError(error.errno, f"cannot write {path}: {error.strerror or error}") from None
            raise
    return Path(path)


class _signals_deferred:
    """For the block, Ctrl-C and SIGTERM are noted, not acted on; at its end the first one noted is raised again.

    A file being written and renamed is never left half-way (a temporary file
    beside the target) by a signal: the signal comes when the file is whole or
    gone. Off the main thread (where handlers cannot be set) it does nothing.
    """

    def __enter__(self):
        import signal
        import threading

        self.noted, self.saved = [], {}
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                handler = signal.getsignal(number)
                if handler not in (signal.SIG_IGN, None):
                    self.saved[number] = signal.signal(number, lambda signum, frame: self.noted.append(signum))
        return self

    def __exit__(self, *exc):
        import signal

        for number, handler in self.saved.items():
            signal.signal(number, handler)
        if self.noted:
            signal.raise_signal(self.noted[0])  # the program's own handler, now the block is done
        return False
