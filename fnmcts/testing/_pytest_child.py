"""``python -m fnmcts.testing._pytest_child JOB``: a user's pytest file run on one mutant of their game (``PytestCheck``).

``JOB`` is a pickle of ``(module name, game, mutant index or None, operators,
test file)``. The game's module is imported, its class replaced by the
mutant's (``mutant_game``), then pytest runs the file; the exit status is
pytest's.
"""

from __future__ import annotations

import importlib
import pickle
import sys

__all__: list = []  # run as a program by PytestCheck, nothing to import


def main(job_path: str) -> int:
    """Run the job pickled at ``job_path``: the game's class replaced by the mutant's, then pytest on the file."""
    with open(job_path, "rb") as source:
        module_name, game, index, operators, test_file = pickle.load(source)
    if index is not None:
        from .mutate import mutant_game

        module = importlib.import_module(module_name)
        mutated = type(mutant_game(game, index, operators))
        setattr(module, type(game).__name__, mutated)
    import pytest

    return int(pytest.main([test_file, "-x", "-q", "-rfE", "-p", "no:cacheprovider", "-p", "no:randomly",
                            "-o", "addopts=", "--no-header"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
