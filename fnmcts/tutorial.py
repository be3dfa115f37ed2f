"""The tutorials' own entry points that build a concrete game over the generic core.

The public face of ``fnmcts._tutorial``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._tutorial import *  # noqa: F401,F403
from ._tutorial import __all__  # noqa: F401
