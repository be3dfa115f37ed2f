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
