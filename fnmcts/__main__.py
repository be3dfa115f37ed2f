"""``python -m fnmcts``: the same as the ``fnmcts`` command."""

from .cli import console

__all__: list = []

if __name__ == "__main__":
    console()
