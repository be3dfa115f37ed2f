"""Immutable values that print the same in every process, and their small HTML tables.

The public face of ``fnmcts._values``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._values import *  # noqa: F401,F403
from ._values import __all__  # noqa: F401
