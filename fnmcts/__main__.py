"""``python -m fnmcts``: the same as the ``fnmcts`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
