"""Playing games: the random agent, playouts, whole games and tournaments.

The public face of ``fnmcts._play``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._play import *  # noqa: F401,F403
from ._play import __all__  # noqa: F401
