"""``python -m fnmcts``: the same as the ``fnmcts`` command."""

import sys

from .cli import main

__all__: list = []

if __name__ == "__main__":
    sys.exit(main())
