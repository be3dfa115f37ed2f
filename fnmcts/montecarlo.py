"""Monte Carlo: repeated trials, simulated games, estimates with 95% intervals.

The public face of ``fnmcts._montecarlo``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._montecarlo import *  # noqa: F401,F403
from ._montecarlo import __all__  # noqa: F401
