"""Pictures of what the methods learn: the data as immutable values, the figures with matplotlib.

The public face of ``fnmcts._plots``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._plots import *  # noqa: F401,F403
from ._plots import __all__  # noqa: F401
