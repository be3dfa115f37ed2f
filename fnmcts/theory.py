"""Closed forms, for any game that has one: who wins, and the winning moves.

The public face of ``fnmcts._theory``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._theory import *  # noqa: F401,F403
from ._theory import __all__  # noqa: F401
