"""The public rating rules (``fnmcts.ucb``, ``fnmcts.ucb1``) refuse a bad argument with a TypeError naming it."""

import math

import pytest
from hypothesis import given, strategies as st

import fnmcts
from fnmcts.mcts import record

not_a_record = st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=3), st.tuples(st.integers()))
not_a_number = st.one_of(st.text(max_size=3), st.none(), st.lists(st.integers(), max_size=2))


@given(not_a_record, st.integers(1, 100))
def test_ucb1_names_a_record_that_is_not_one(rec, parent):
    with pytest.raises(TypeError, match=r"^ucb1: rec must be a record .*got "):
        fnmcts.ucb1(rec, parent)


@given(not_a_record)
def test_ucb_names_a_record_that_is_not_one(rec):
    with pytest.raises(TypeError, match=r"^ucb: rec must be a record .*got "):
        fnmcts.ucb(rec)


@given(not_a_number, st.integers(1, 5), st.integers(0, 5))
def test_the_constants_must_be_numbers(bad, win, loss):
    rec = record(win=win, loss=loss)
    with pytest.raises(TypeError, match=r"^ucb1: parent_visits must be a number, got "):
        fnmcts.ucb1(rec, bad)
    with pytest.raises(TypeError, match=r"^ucb1: c must be a number, got "):
        fnmcts.ucb1(rec, 10, c=bad)
    with pytest.raises(TypeError, match=r"^ucb: z must be a number, got "):
        fnmcts.ucb(rec, z=bad)


def test_counts_that_are_not_numbers_are_named():
    with pytest.raises(TypeError, match=r"^ucb: rec's counts must be numbers, got \{'win': 'a'\}"):
        fnmcts.ucb({"win": "a"})


def test_good_arguments_rate_as_before():
    assert fnmcts.ucb1(None, 0) == math.inf and fnmcts.ucb1(record(), 0) == math.inf
    assert round(fnmcts.ucb1(record(win=3, loss=1), 10), 4) == 1.823
    with pytest.raises(ValueError, match="parent_visits must be at least 1"):
        fnmcts.ucb1(record(win=1), 0)


@given(st.sampled_from([0, -1, 0.5, float("nan"), float("-inf")]), st.integers(1, 5))
def test_a_visited_record_needs_a_parent_visited_at_least_once(parent, win):
    with pytest.raises(ValueError, match=r"^parent_visits must be at least 1 for a visited record, got "):
        fnmcts.ucb1(record(win=win), parent)
