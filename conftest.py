"""Doctests of modules behind an optional extra skip, with the reason, when the extra is not installed."""

from importlib.util import find_spec

import pytest

# module file -> (the package it needs, the extra that installs it)
OPTIONAL = {"openspiel.py": ("pyspiel", "openspiel")}


def pytest_collection_modifyitems(config, items):
    for item in items:
        needed = OPTIONAL.get(item.path.name) if item.path.parent.name == "fnmcts" else None
        if needed is not None and find_spec(needed[0]) is None:
            package, extra = needed
            item.add_marker(pytest.mark.skip(reason=f"{package} is not installed: pip install 'fnmcts[{extra}]'"))
