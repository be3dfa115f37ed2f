"""The game protocol: one small set of pure functions that every game answers.

The public face of ``fnmcts._protocol``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._protocol import *  # noqa: F401,F403
from ._protocol import __all__  # noqa: F401
