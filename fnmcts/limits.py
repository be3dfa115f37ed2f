"""Sizes checked up front: how much work and memory a call asks for, refused before it starts.

The public face of ``fnmcts._limits``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._limits import *  # noqa: F401,F403
from ._limits import __all__  # noqa: F401
