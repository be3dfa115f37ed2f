"""Immutable values that print the same in every process, and their small HTML tables.

A ``pmap`` prints its keys in hash order, and Python salts the hash of a string
per process (``PYTHONHASHSEED``), so ``pmap({'heap': 21, 'player': 0})`` prints
``heap`` first in some runs and ``player`` first in others. ``fixed_pmap``
gives the same map, equal to and hashing like the pmap, that always prints its
keys in sorted order. ``FixedRecord`` does the same for a ``PRecord``: its
fields print in the order the class declares them. ``html_table`` is the small
HTML table a notebook shows for such a value (``_repr_html_``).

>>> fixed_pmap({'player': 0, 'heap': 21})
pmap({'heap': 21, 'player': 0})
>>> fixed_pmap({'player': 0, 'heap': 21}) == pmap({'heap': 21, 'player': 0})
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping

from pyrsistent import PMap, PRecord, field, pmap

__all__ = ["FixedPMap", "fixed_pmap", "FixedRecord", "MapOver", "html_table"]


def _key_order(key):
    return (type(key).__name__, str(key))


class FixedPMap(PMap):
    """A ``pmap`` that prints its keys in sorted order; equal to, and hashing as, the same pmap.

    Updates (``set``, ``discard``, ...) return plain pmaps, as a pmap's do; a
    game builds its states with ``fixed_pmap``.

    >>> state = fixed_pmap({'roll': 7, 'box': frozenset({7})})
    >>> state, hash(state) == hash(pmap(dict(state))), isinstance(state, PMap)
    (pmap({'box': frozenset({7}), 'roll': 7}), True, True)
    """

    __slots__ = ()  # no slot of its own: a fresh pmap becomes a FixedPMap by taking on its class

    def __getattr__(self, key):
        # A pmap's dot access to its keys (``state.heap``), with the same error for a missing one. A
        # pmap asks for a missing attribute whenever it first works out its hash, and finds it out
        # through a KeyError turned into a chained AttributeError; asking first is cheaper.
        if key in self:
            return self[key]
        raise AttributeError(f"{type(self).__name__} has no attribute '{key}'")

    def __repr__(self):
        items = sorted(self.items(), key=lambda kv: _key_order(kv[0]))
        return "pmap({" + ", ".join(f"{k!r}: {v!r}" for k, v in items) + "})"

    __str__ = __repr__

    def _repr_html_(self) -> str:
        return html_table(sorted(self.items(), key=lambda kv: _key_order(kv[0])))


def fixed_pmap(initial=None) -> FixedPMap:
    """The ``pmap`` of ``initial`` (a mapping), printing its keys in sorted order.

    >>> fixed_pmap({'b': 1, 'a': 2})
    pmap({'a': 2, 'b': 1})
    >>> fixed_pmap().set('x', 1) == {'x': 1}
    True
    """
    # ``pmap`` gives a new map for any non-empty ``initial`` and one shared empty map for an empty
    # one; ``pre_size`` (the public hint of how many buckets) makes a new empty map of the same shape.
    # Only a new map may take on the class: FixedPMap adds no slot, so the object stays the pmap it was.
    plain = pmap(initial) if initial else pmap({}, pre_size=8)
    plain.__class__ = FixedPMap
    return plain


_FIELD = type(field())
"""What pyrsistent's ``field()`` makes: how a ``PRecord`` class declares a field."""


class _DeclaredOrder(type(PRecord)):
    """PRecord's metaclass, noting the order in which a class declares its fields (its bases' first).

    PRecord's own metaclass takes the ``field()`` attributes out of the class
    body; this one reads their names first, in the body's order, and keeps
    each ``field()`` as declared (``_declared_specs``: its ``type`` and
    ``initial``, for readers such as the command line's flags).
    """

    def __new__(mcs, name, bases, namespace):
        inherited = [k for base in bases for k in getattr(base, "_declared_fields", ())]
        own = [k for k, v in namespace.items() if isinstance(v, _FIELD)]
        namespace["_declared_fields"] = tuple(dict.fromkeys(inherited + own))
        specs = {k: v for base in bases for k, v in getattr(base, "_declared_specs", {}).items()}
        namespace["_declared_specs"] = specs | {k: namespace[k] for k in own}
        return super().__new__(mcs, name, bases, namespace)


class FixedRecord(PRecord, metaclass=_DeclaredOrder):
    """A ``PRecord`` whose fields print in the order the class declares them.

    >>> from pyrsistent import field
    >>> class Point(FixedRecord):
    ...     y = field(initial=0)
    ...     x = field(initial=0)
    >>> Point(x=1, y=2)
    Point(y=2, x=1)
    >>> '<td>2</td>' in Point(x=1, y=2)._repr_html_()
    True
    >>> class Short(Point):
    ...     def __repr__(self): return "Short<x>"
    >>> str(Short(x=1)), Short(x=1)._repr_html_()
    ('Short<x>', '<pre>Short&lt;x&gt;</pre>')
    """

    def _ordered_items(self):
        declared = type(self)._declared_fields
        known = [(k, self[k]) for k in declared if k in self]
        rest = sorted(((k, v) for k, v in self.items() if k not in declared), key=lambda kv: _key_order(kv[0]))
        return known + rest

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(f"{k}={v!r}" for k, v in self._ordered_items()) + ")"

    def __str__(self):  # a subclass's own repr, when it has one
        return repr(self)

    def _repr_html_(self) -> str:  # a subclass with its own short repr (a summary) is shown by it in a notebook too
        if type(self).__repr__ is not FixedRecord.__repr__:
            return f"<pre>{html.escape(repr(self))}</pre>"
        return html_table(self._ordered_items(), title=type(self).__name__)


class MapOver(Mapping):
    """A read-only ``Mapping`` over the map its ``_map`` slot holds (an MCTS ``Tree``, ``exact.Solution``).

    >>> class Box(MapOver):
    ...     __slots__ = ("_map",)
    ...     def __init__(self, items):
    ...         self._map = items
    >>> box = Box({"a": 1})
    >>> box["a"], box.get("b"), "a" in box, len(box), list(box.items()), list(box.values())
    (1, None, True, 1, [('a', 1)], [1])
    """

    __slots__ = ()

    def __getitem__(self, key):
        return self._map[key]

    def get(self, key, default=None):
        return self._map.get(key, default)

    def __contains__(self, key):
        return key in self._map

    def __iter__(self):
        return iter(self._map)

    def __len__(self):
        return len(self._map)

    def keys(self):
        return self._map.keys()

    def values(self):
        return self._map.values()

    def items(self):
        return self._map.items()


def _cell(value) -> str:
    if isinstance(value, float):
        return html.escape(f"{value:.6g}")
    return html.escape(repr(value) if not isinstance(value, str) else value)


def html_table(items, title: str | None = None, header=None) -> str:
    """A small HTML table: ``items`` as ``(name, value)`` rows, or as rows under ``header``.

    >>> html_table([('win', 2), ('loss', 3)], title='Record')
    '<table><caption>Record</caption><tr><th>win</th><td>2</td></tr><tr><th>loss</th><td>3</td></tr></table>'
    >>> html_table([(1, 0.5)], header=('move', 'mean'))
    '<table><tr><th>move</th><th>mean</th></tr><tr><td>1</td><td>0.5</td></tr></table>'
    """
    parts = ["<table>"]
    if title:
        parts.append(f"<caption>{html.escape(title)}</caption>")
    if header is not None:
        parts.append("<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>")
        for row in items:
            parts.append("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>")
    else:
        for name, value in items:
            parts.append(f"<tr><th>{html.escape(str(name))}</th><td>{_cell(value)}</td></tr>")
    parts.append("</table>")
    return "".join(parts)


def rating_error(rule: str, rec, **constants) -> Exception:
    """The error for a rating rule (``ucb``, ``ucb1``) given a bad argument: it names the argument.

    ``rec`` must be a mapping of ``win``/``loss``/``draw`` counts (a ``Record``)
    or None, each constant a number; the first one that is not is named.

    >>> rating_error('ucb1', -1, parent_visits=2)
    TypeError('ucb1: rec must be a record (a Record or a mapping of win/loss/draw counts) or None, got -1 (int)')
    >>> rating_error('ucb1', {'win': 1}, parent_visits='10')
    TypeError("ucb1: parent_visits must be a number, got '10' (str)")
    """
    import numbers

    what = "a record (a Record or a mapping of win/loss/draw counts) or None"
    if not isinstance(rec, Mapping):
        return TypeError(f"{rule}: rec must be {what}, got {rec!r} ({type(rec).__name__})")
    for name, value in constants.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return TypeError(f"{rule}: {name} must be a number, got {value!r} ({type(value).__name__})")
    counts = {key: rec.get(key) for key in ("win", "loss", "draw", "score") if rec.get(key) is not None}
    return TypeError(f"{rule}: rec's counts must be numbers, got {counts!r}")
