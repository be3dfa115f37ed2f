"""Agents: plain functions ``(game, state, rng) -> move``.

The public face of ``fnmcts._agents``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._agents import *  # noqa: F401,F403
from ._agents import __all__  # noqa: F401
