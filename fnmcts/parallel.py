"""Chunks, child seeds and executors: the same seed, the same result, on any workers.

The public face of ``fnmcts._parallel``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._parallel import *  # noqa: F401,F403
from ._parallel import __all__  # noqa: F401
