"""Deprecated names: the one way fnmcts warns that a name moved or goes.

A name a user imports keeps working for one release and says where it went,
with a ``DeprecationWarning`` that points at the user's line.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     deprecated("fnmcts.old is now fnmcts.new")
>>> caught[0].category.__name__, str(caught[0].message)
('DeprecationWarning', 'fnmcts.old is now fnmcts.new')
"""

from __future__ import annotations

import warnings

__all__ = ["deprecated"]


def deprecated(message: str, stacklevel: int = 2) -> None:
    """Warn with ``message`` as a ``DeprecationWarning``, ``stacklevel`` counted from the caller.

    ``stacklevel=2`` (the default) blames the line that called the caller: the
    user's use of the deprecated name.

    >>> import warnings
    >>> def old():
    ...     deprecated("old() is now new()")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old()
    >>> caught[0].filename.startswith("<doctest")  # the line that called old(), not old() itself
    True
    """
    warnings.warn(message, DeprecationWarning, stacklevel=stacklevel + 1)
