"""The public API: one curated namespace, every module's ``__all__`` true, every public function documented.

* ``fnmcts.__all__`` lists exactly the public names of the ``fnmcts`` namespace.
* Every module of the package defines ``__all__``, and every name in it exists.
* Every function and class a module lists in its ``__all__`` (and defines
  itself) has a one-line summary and a doctest, so the doctest run covers it.
"""

import importlib
import inspect
import pkgutil
import types

import pytest

import fnmcts

DOCTEST_EXCEPTIONS = {
    # name: why its docstring carries no doctest (none today: every public function has one)
}


def _modules():
    """Every module of the package, imported; ``fnmcts.cli`` modules without ``__all__`` left out."""
    names = ["fnmcts"] + [info.name for info in pkgutil.walk_packages(fnmcts.__path__, "fnmcts.")]
    modules = [importlib.import_module(name) for name in names]
    return [
        module
        for module in modules
        if not (module.__name__.startswith("fnmcts.cli.") and not hasattr(module, "__all__"))
    ]


MODULES = _modules()


def _documented():
    """``(qualified name, object)`` for each function and class a module lists in ``__all__`` and defines."""
    found = {}
    for module in MODULES:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = obj
    return sorted(found.items())


DOCUMENTED = _documented()


def summary_problem(doc):
    """What is wrong with ``doc`` as a docstring with a one-line summary and a doctest, or ``None``.

    >>> summary_problem('''Add one.
    ...
    ...     >>> 1 + 1
    ...     2
    ... ''') is None
    True
    >>> summary_problem('''Add one
    ...     to a number.
    ... ''')
    'the first line is not a one-line summary (end it with a period or follow it with a blank line)'
    >>> summary_problem("Add one.")
    'no doctest (>>>)'
    """
    if not doc or not doc.strip():
        return "no docstring"
    lines = inspect.cleandoc(doc).splitlines()
    if not (lines[0].rstrip().endswith(".") or len(lines) == 1 or not lines[1].strip()):
        return "the first line is not a one-line summary (end it with a period or follow it with a blank line)"
    if ">>>" not in doc:
        return "no doctest (>>>)"
    return None


def public_names(namespace):
    """The names of ``namespace`` a user sees: not starting with ``_`` and not a submodule."""
    return {
        name
        for name in dir(namespace)
        if not name.startswith("_") and not isinstance(getattr(namespace, name), types.ModuleType)
    }


def test_the_curated_namespace_lists_exactly_its_public_names():
    assert len(fnmcts.__all__) == len(set(fnmcts.__all__)), "fnmcts.__all__ has duplicates"
    public = public_names(fnmcts)
    assert sorted(public - set(fnmcts.__all__)) == [], "public in fnmcts but not in __all__"
    assert sorted(set(fnmcts.__all__) - public) == [], "in fnmcts.__all__ but not a public name of fnmcts"


def test_the_walk_sees_the_whole_package():
    names = {module.__name__ for module in MODULES}
    assert {"fnmcts", "fnmcts.mcts", "fnmcts.mcts._engine", "fnmcts.games.shut_the_box.rules", "fnmcts.cli"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_every_module_defines_all_and_every_name_in_it_exists(module):
    assert hasattr(module, "__all__"), f"{module.__name__} defines no __all__"
    names = list(module.__all__)
    assert len(names) == len(set(names)), f"{module.__name__}.__all__ has duplicates"
    assert [name for name in names if not hasattr(module, name)] == []


def test_there_are_public_functions_to_check():
    assert len(DOCUMENTED) > 200


@pytest.mark.parametrize("name, obj", DOCUMENTED, ids=[name for name, _ in DOCUMENTED])
def test_every_public_function_and_class_has_a_summary_and_a_doctest(name, obj):
    problem = summary_problem(obj.__doc__)
    if name in DOCTEST_EXCEPTIONS:
        assert problem is not None, f"{name} is documented now: drop it from DOCTEST_EXCEPTIONS"
        return
    assert problem is None, f"{name}: {problem}"


def test_every_exception_names_a_public_function():
    assert set(DOCTEST_EXCEPTIONS) <= {name for name, _ in DOCUMENTED}


def test_a_new_undocumented_function_fails_the_check():
    def shiny(x):
        """Return x
        unchanged."""
        return x

    def bare(x):
        """Return x."""
        return x

    assert summary_problem(shiny.__doc__) is not None
    assert summary_problem(bare.__doc__) == "no doctest (>>>)"
    assert summary_problem(None) == "no docstring"
