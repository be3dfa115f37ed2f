"""Where a batched search (``mcts_move(..., batch=k)``) plays a step's playouts, and with which code.

The calling process plays the first group of a step while the executor plays
the others; a step whose groups hold less than ``batch.PAYS`` seconds of
playouts (as last measured here) runs here whole. Neither changes the tree. A
playout runs the game's own kernel (``random_payoff``) wherever it runs: in
the plain search, in a batch here and on a worker. ``Pickling`` stands in for a
process pool: every call and item goes through ``pickle`` both ways.
"""

from __future__ import annotations

import math
import os
import pickle
import random
from dataclasses import dataclass

import pytest

from fnmcts.games import Nim
from fnmcts.mcts import batch, mcts_move


class Pickling:
    """An executor of ``_max_workers`` workers that pickles what it runs, as processes do; it counts its maps."""

    _max_workers = 3

    def __init__(self):
        self.maps = []

    def map(self, fn, items):
        items = list(items)
        self.maps.append(len(items))
        return [pickle.loads(pickle.dumps(pickle.loads(pickle.dumps(fn))(pickle.loads(pickle.dumps(item)))))
                for item in items]


def _kernel_ran(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


@dataclass(frozen=True)
class KernelNim(Nim):
    """Nim whose random-play kernel adds one byte to the file ``path`` each time it runs, in any process."""

    path: str = ""

    def random_payoff(self, state, rng) -> tuple:
        with open(self.path, "ab") as out:
            out.write(b"x")
        return super().random_payoff(state, rng)


def _search(game, **how):
    return mcts_move(game, game.start(), 96, random.Random(3), solver=False, **how)


@pytest.mark.parametrize("pays", [0.0, math.inf])
def test_where_a_step_plays_does_not_change_the_tree(monkeypatch, pays):
    game = Nim(heap=60, max_take=3)
    serial = _search(game, batch=8)
    monkeypatch.setattr(batch, "PAYS", pays)
    pool = Pickling()
    pooled = _search(game, batch=8, executor=pool)
    assert dict(pooled.tree.pmap()) == dict(serial.tree.pmap()) and pooled.move == serial.move
    if pays == 0:  # every step: 3 groups, the first played here, the other 2 sent
        assert len(pool.maps) == 96 // 8 and set(pool.maps) == {2}
    else:  # the first step is sent (nothing measured yet); then every step is cheaper than a round trip
        assert pool.maps == [2]


def test_the_same_kernel_plays_here_in_a_batch_and_on_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "PAYS", 0.0)
    counts = []
    for how in ({}, {"batch": 8}, {"batch": 8, "executor": Pickling()}):
        path = str(tmp_path / f"kernel{len(counts)}")
        found = _search(KernelNim(heap=60, max_take=3, path=path), **how)
        counts.append((_kernel_ran(path), found.iterations))
    assert all(ran > 0.5 * dives for ran, dives in counts)  # a playout each dive but those that reach the end
    assert counts[1] == counts[2]  # the batch's playouts, wherever they run
