"""Exact values: solve a game (expectimax over chance, best reply for each player) or evaluate any
policy, with exact ``Fraction`` arithmetic.

The public face of ``fnmcts._exact``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._exact import *  # noqa: F401,F403
from ._exact import __all__  # noqa: F401
