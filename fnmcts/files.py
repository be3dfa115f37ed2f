"""Writing files safely: check the target first, then write it whole or not at all.

The public face of ``fnmcts._files``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._files import *  # noqa: F401,F403
from ._files import __all__  # noqa: F401
