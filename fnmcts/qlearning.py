"""Q-learning by self-play: the Nim AI that teaches itself, on any two-player game.

The public face of ``fnmcts._qlearning``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._qlearning import *  # noqa: F401,F403
from ._qlearning import __all__  # noqa: F401
