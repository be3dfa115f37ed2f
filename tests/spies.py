"""A spy the tests set on the search's compiled loops: which of their calls ran the dives."""

from __future__ import annotations


def runs_of(monkeypatch, owner, name: str) -> list:
    """A list that gets, for each call of ``owner.name`` from now on, whether it gave a result (None: it did not run)."""
    runs, real = [], getattr(owner, name)

    def spy(*args):
        found = real(*args)
        runs.append(found is not None)
        return found

    monkeypatch.setattr(owner, name, spy)
    return runs


def rules_runs(monkeypatch, game) -> list:
    """``runs_of`` the compiled rules' loop (``_rules_kernel.run_rules``), its machine code made first if a process
    has none yet (a search long enough to pay for it: then it runs from 16 dives)."""
    import random

    import pytest

    pytest.importorskip("numba", reason="the compiled loop needs Numba (pip install fnmcts[fast])")
    from fnmcts.mcts import _kernel, _rules_kernel, search

    if not _rules_kernel.compiled(game.compiled_rules()):
        search(game, game.start(), _kernel.KERNEL_MIN_DIVES, random.Random(0), solver=False)
    return runs_of(monkeypatch, _rules_kernel, "run_rules")


def both_loops(call):
    """``call(rng)`` with the compiled loop, then in Python (each from ``random.Random(7)``): the trees equal, records
    and types alike, and the generators left in one state; the first's."""
    import random

    from fnmcts.mcts import _kernel

    fast_rng, slow_rng = random.Random(7), random.Random(7)
    fast = call(fast_rng)
    with _kernel.switched_off():
        slow = call(slow_rng)
    assert dict(fast) == dict(slow)
    for state, rec in slow.items():
        assert repr(fast[state]) == repr(rec)
    assert fast_rng.getstate() == slow_rng.getstate()
    return fast
