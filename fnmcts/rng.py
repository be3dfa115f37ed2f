"""Explicit randomness: seeds, child seeds and dice.

The public face of ``fnmcts._rng``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._rng import *  # noqa: F401,F403
from ._rng import __all__  # noqa: F401
