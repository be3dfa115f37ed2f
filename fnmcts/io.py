"""Files: Q tables, search trees and move searches saved and read back, atomically, as versioned
JSON (the I/O edge).

The public face of ``fnmcts._io``, where the code and its documentation live:
the names in its ``__all__``, and nothing else.
"""

from ._io import *  # noqa: F401,F403
from ._io import __all__  # noqa: F401
