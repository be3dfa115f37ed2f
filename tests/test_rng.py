"""``pick``: the one uniform draw of fnmcts, one ``rng.random()`` an item."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from fnmcts.rng import make_rng, pick, pick_cumulative

items = st.lists(st.integers(), min_size=1, max_size=50)


class _Fixed:
    """An rng whose ``random()`` gives ``u``: the pick's rule read at any point of [0, 1)."""

    def __init__(self, u):
        self.u = u

    def random(self):
        return self.u


@given(items, st.integers(0, 2**32))
def test_the_same_seed_picks_the_same_item_with_one_draw_as_the_hand_written_draw(seq, seed):
    rng, again = make_rng(seed), random.Random(seed)
    assert pick(rng, seq) == seq[int(again.random() * len(seq))]
    assert rng.random() == again.random()  # exactly one draw consumed, as before


@given(items, st.randoms(use_true_random=False))
def test_a_pick_is_an_item_of_the_sequence(seq, rng):
    assert pick(rng, seq) in seq


@given(st.integers(1, 10**9), st.floats(0, 1, exclude_max=True))
def test_every_point_of_the_unit_interval_picks_an_index_in_range(n, u):
    index = pick(_Fixed(u), range(n))
    assert 0 <= index < n and index == int(u * n)


@given(st.integers(1, 10**9))
def test_the_last_float_below_one_still_picks_the_last_index(n):
    assert pick(_Fixed(math.nextafter(1.0, 0.0)), range(n)) == n - 1


@given(st.integers(1, 12), st.integers(0, 2**16))
def test_each_index_is_picked_equally_often(n, seed):
    # Pearson's chi-square over the n cells of 2,000 n picks; with k = n - 1 degrees of freedom
    # P(X > k + 2 sqrt(k t) + 2 t) <= exp(-t) (Laurent and Massart 2000): t = 20, a false
    # alarm about once in 500 million seeds; a pick that gives one index twice as often fails it
    draws = 2_000 * n
    rng = make_rng(seed)
    counts = Counter(pick(rng, range(n)) for _ in range(draws))
    assert set(counts) <= set(range(n))
    expected = draws / n
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(n))
    k, t = n - 1, 20
    assert chi2 <= k + 2 * math.sqrt(k * t) + 2 * t


def test_an_empty_sequence_is_a_clear_error_before_any_draw():
    rng = make_rng(3)
    with pytest.raises(ValueError, match="at least one item"):
        pick(rng, ())
    assert rng.random() == make_rng(3).random()


weights = st.lists(st.integers(1, 20), min_size=1, max_size=12)


@given(weights, st.integers(0, 2**32))
def test_a_weighted_draw_is_the_hand_written_bisect_with_one_draw(ws, seed):
    from bisect import bisect_right
    from itertools import accumulate

    cumulative = tuple(accumulate(ws))
    rng, again = make_rng(seed), random.Random(seed)
    assert pick_cumulative(rng, cumulative, cumulative[-1]) == bisect_right(cumulative, again.random() * cumulative[-1])
    assert rng.random() == again.random()  # exactly one draw consumed


@given(weights, st.floats(0, 1, exclude_max=True))
def test_a_weighted_draw_on_whole_weights_is_a_pick_among_slots(ws, u):
    from itertools import accumulate

    cumulative = tuple(accumulate(ws))
    slots = tuple(j for j, w in enumerate(ws) for _ in range(w))
    assert pick_cumulative(_Fixed(u), cumulative, cumulative[-1]) == pick(_Fixed(u), slots)
