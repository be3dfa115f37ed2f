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

__all__ = ["check_target", "write_atomically", "WriteError"]


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


def write_atomically(path, text: str) -> Path:
    """Write ``text`` to ``path`` whole (temporary file, then rename); return the path.

    An existing file keeps its permissions; a new one gets the usual ones (the
    umask applies). On any failure the old file is left as it was and the
    temporary file removed; the error names ``path``: a ``ValueError`` for a
    target that cannot be written (``check_target``), a ``WriteError`` (an
    ``OSError`` keeping its ``errno``, and a ``ValueError``) for a failure
    while writing (a full disk, an I/O error).

    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "table.txt"
    >>> write_atomically(path, "old\\n") == path, path.read_text()
    (True, 'old\\n')
    >>> write_atomically(path, "new\\n").read_text(), sorted(p.name for p in path.parent.iterdir())
    ('new\\n', ['table.txt'])
    """
    real = check_target(path)
    if real.exists():
        mode = real.stat().st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    except OSError as error:
        raise WriteError(error.errno, f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
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
