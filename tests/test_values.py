"""Fixed-order values through pyrsistent's public API only: no private attribute, constructor or module."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest
from pyrsistent import PMap, PRecord, field, pmap

import fnmcts
from fnmcts.values import FixedPMap, FixedRecord, fixed_pmap

PACKAGE = Path(fnmcts.__file__).resolve().parent

PRIVATE_NAMES = frozenset({
    "_size", "_buckets", "_cached_hash", "_getitem", "_get_bucket", "_contains", "_Evolver",
    "_precord_fields", "_precord_initial_values", "_precord_mandatory_fields", "_precord_invariants",
    "_pclass_fields", "_pclass_frozen", "_pclass_invariants",
    "_checked_types", "_checked_key_types", "_checked_value_types", "_totuple", "_to_dict",
})
"""Attributes that pyrsistent's classes keep to themselves (their slots and internal helpers)."""

PRIVATE_CONSTRUCTORS = frozenset({"PMap", "FixedPMap"})
"""Classes whose call is pyrsistent's private constructor ``PMap(size, buckets)``: ``pmap()`` makes a map."""


def private_pyrsistent_uses(source: str) -> list:
    """``(line, what)`` for each use of pyrsistent's private API in ``source``, read with ``ast``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in PRIVATE_NAMES:
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pyrsistent._"):
            found.append((node.lineno, f"from {node.module} import"))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if a.name.startswith("pyrsistent._")]
        elif isinstance(node, ast.Call):
            callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if callee in PRIVATE_CONSTRUCTORS:
                found.append((node.lineno, f"{callee}(...)"))
    return found


def test_the_scan_catches_the_private_api():
    old = (
        "from pyrsistent._pmap import _turbo_mapping\n"
        "import pyrsistent._precord\n"
        "def fixed_pmap(initial=None):\n"
        "    plain = pmap(initial or {})\n"
        "    return FixedPMap(plain._size, plain._buckets)\n"
        "def order(self):\n"
        "    return tuple(type(self)._precord_fields), hasattr(self, '_cached_hash') or self._cached_hash\n"
        "def build(buckets):\n"
        "    return pyrsistent.PMap(0, buckets)\n"
    )
    assert sorted(what for _, what in private_pyrsistent_uses(old)) == sorted([
        "from pyrsistent._pmap import", "import pyrsistent._precord", "FixedPMap(...)", "._size", "._buckets",
        "._precord_fields", "._cached_hash", "PMap(...)",
    ])
    assert private_pyrsistent_uses("state = pmap({'heap': 3}); state.heap; record._declared_fields") == []


@pytest.mark.slow
def test_no_module_of_the_package_uses_pyrsistent_private_api():
    uses = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if (found := private_pyrsistent_uses(path.read_text(encoding="utf-8")))
    }
    assert uses == {}


def test_fixed_pmap_is_a_new_map_even_when_empty():
    shared = pmap()
    empty = fixed_pmap()
    assert type(empty) is FixedPMap and empty is not shared and type(shared) is PMap
    assert empty == shared == {} and hash(empty) == hash(shared) and repr(empty) == "pmap({})"
    assert type(fixed_pmap({})) is FixedPMap and type(pmap()) is PMap  # the shared empty map keeps its class
    source = pmap({"a": 1})
    fixed = fixed_pmap(source)
    assert fixed is not source and type(source) is PMap and fixed == source
    assert fixed_pmap([("b", 2), ("a", 1)]) == {"a": 1, "b": 2}


def test_fixed_pmap_reads_like_a_pmap():
    state = fixed_pmap({"heap": 3, "player": 1})
    assert state.heap == 3 and hasattr(state, "player") and not hasattr(state, "missing")
    with pytest.raises(AttributeError, match="FixedPMap has no attribute 'missing'"):
        state.missing
    assert state.set("heap", 2) == {"heap": 2, "player": 1} and state.discard("player") == {"heap": 3}
    assert pickle.loads(pickle.dumps(state)) == state
    assert {state: 1}[pmap({"player": 1, "heap": 3})] == 1 and {pmap(dict(state)): 2}[state] == 2


def test_fixed_records_print_in_declared_order_with_inherited_fields_first():
    class Base(FixedRecord):
        zeta = field(initial=0)
        alpha = field(initial=0)

    class Child(Base):
        beta = field(initial=0)
        zeta = field(initial=5)

    class Plain(PRecord):
        zeta = field(initial=0)
        alpha = field(initial=0)

    assert repr(Base(alpha=1, zeta=2)) == "Base(zeta=2, alpha=1)"
    assert repr(Child(alpha=1, beta=2)) == "Child(zeta=5, alpha=1, beta=2)"
    assert Child(alpha=1) == Child(alpha=1) and hash(Base(alpha=1)) == hash(Plain(alpha=1))
    assert Base(alpha=1) == Plain(alpha=1)
