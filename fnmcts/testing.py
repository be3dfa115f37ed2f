"""Property-based testing of game rules: hypothesis strategies and a game-law checker.

The public face of ``fnmcts._testing``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._testing import *  # noqa: F401,F403
from ._testing import __all__  # noqa: F401
