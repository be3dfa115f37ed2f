"""OpenSpiel's games through the fnmcts protocol (the ``openspiel`` extra).

The public face of ``fnmcts._openspiel``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._openspiel import *  # noqa: F401,F403
from ._openspiel import __all__  # noqa: F401
