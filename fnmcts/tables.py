"""Tables for Shut the Box: the look-up table (task 10), the full tree (task 12) and the best-move
table (task 13), all immutable maps with exact ``Fraction``s.

The public face of ``fnmcts._tables``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._tables import *  # noqa: F401,F403
from ._tables import __all__  # noqa: F401
