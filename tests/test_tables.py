"""The look-up table (task 10), the full tree (task 12) and the best-move table
(task 13), each checked against an independent derivation."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import given, strategies as st
from pyrsistent import PMap, pmap

from fnmcts import tables
from fnmcts.games.shut_the_box import ShutTheBox, all_boxes, box_to_mask, ordered_moves
from fnmcts.montecarlo import simulate
from fnmcts.rng import child_seed


# The tables are computed on each call (no cache in the library); the tests share one of each.
@functools.cache
def random_table(simplified=False):
    return tables.random_play_table(simplified=simplified)


@functools.cache
def optimal_table(simplified=False):
    return tables.optimal_play_table(simplified=simplified)


@functools.cache
def best_moves_table(simplified=False):
    return tables.best_move_table(simplified=simplified)


START = frozenset(range(1, 10))

# -- an independent model: two dice, subsets by itertools, recursion by hand ------------

DICE = {}
for a in range(1, 7):
    for b in range(1, 7):
        DICE[a + b] = DICE.get(a + b, 0) + Fraction(1, 36)


def _flips(box, roll):
    levers = sorted(box)
    return [frozenset(c) for k in range(1, len(levers) + 1) for c in combinations(levers, k) if sum(c) == roll]


@lru_cache(maxsize=None)
def model_random(box: frozenset) -> Fraction:
    if not box:
        return Fraction(1)
    total = Fraction(0)
    for roll, p in DICE.items():
        flips = _flips(box, roll)
        if flips:
            total += p * sum(model_random(box - f) for f in flips) / len(flips)
    return total


@lru_cache(maxsize=None)
def model_optimal(box: frozenset) -> Fraction:
    if not box:
        return Fraction(1)
    return sum((p * max((model_optimal(box - f) for f in _flips(box, roll)), default=Fraction(0)) for roll, p in DICE.items()), Fraction(0))


def model_simplified(box: frozenset) -> Fraction:
    # each roll must hit a lever still up, so the rolls are the levers of the box
    # in some order: |B|! orderings, each with probability prod p(b)
    return math.factorial(len(box)) * math.prod((DICE.get(b, Fraction(0)) for b in box), start=Fraction(1))


# -- exact tables ------------------------------------------------------------------------


def test_random_play_table_equals_the_independent_model_for_all_512_boxes():
    table = tables.random_play_table()
    assert isinstance(table, PMap) and len(table) == 512
    for box in all_boxes():
        assert table[box] == model_random(box), sorted(box)


def test_optimal_table_equals_the_independent_model_for_all_512_boxes():
    table = tables.optimal_play_table()
    assert len(table) == 512
    for box in all_boxes():
        assert table[box] == model_optimal(box), sorted(box)


def test_optimal_play_is_never_worse_than_random_play():
    optimal, random_ = optimal_table(), random_table()
    assert all(0 <= random_[b] <= optimal[b] <= 1 for b in all_boxes())
    assert optimal[START] > 3 * random_[START]


@pytest.mark.slow
def test_the_tree_satisfies_its_own_recursion():
    tree = tables.build_tree()
    game = ShutTheBox()
    assert tree[frozenset()] == 1
    for box in all_boxes():
        if not box:
            continue
        # a box (chance node): the dice-weighted sum over the 11 rolls
        decisions = {roll: pmap({"box": box, "roll": roll}) for roll in range(2, 13)}
        assert tree[box] == sum(DICE[roll] * tree[d] for roll, d in decisions.items())
        # a box and a roll (decision node): the best child, or 0 without a move
        for roll, d in decisions.items():
            moves = game.possible_moves(d)
            assert tree[d] == max((tree[m] for m in moves), default=Fraction(0))
            assert (game.to_move(d) is None) == (not moves)
    assert len(tree) == 512 + 511 * 11


def test_simplified_tree_from_the_dice_probabilities_alone():
    tree = tables.build_tree(simplified=True)
    random_ = tables.random_play_table(simplified=True)
    for box in all_boxes():
        assert tree[box] == random_[box] == model_simplified(box), sorted(box)
    assert tree[START - {1}] == Fraction(875, 4251528)


def test_tutorial_random_play_figure_is_consistent_with_the_exact_value():
    # the tutorial's own solution reports 0.0203326 for {1 ... 9} from 10,000,000
    # random games; the exact value must lie within 5 binomial sigmas of it
    exact = random_table()[START]
    n, reported = 10_000_000, 0.0203326
    sigma = math.sqrt(float(exact) * (1 - float(exact)) / n)
    assert abs(reported - float(exact)) < 5 * sigma
    assert 0.0203 < float(exact) < 0.0205


def test_bad_rules_are_named():
    with pytest.raises(TypeError, match="simplified"):
        tables.random_play_table(simplified="yes")


# -- the look-up table ----------------------------------------------------------------


# Bonferroni: 512 comparisons at an overall error rate of 1e-4 need a per-box
# two-sided 2e-7, i.e. z = 5.2; covers() treats exact 0 and 1 exactly.
Z_512 = 5.2


@pytest.mark.slow
def test_lookup_estimates_match_the_exact_values_for_all_512_boxes():
    table = tables.lookup_table(2_000, seed=2017)
    assert isinstance(table, PMap) and len(table) == 512
    missed = [sorted(b) for b, e in table.items() if not e.covers(Z_512)]
    assert not missed
    for box, entry in table.items():
        assert entry.exact == random_table()[box]
        assert entry.games == 2_000 and entry.wins + 0 <= entry.games
        assert entry.estimate == entry.wins / entry.games


@pytest.mark.slow
def test_lookup_estimates_with_many_games_per_box():
    table = tables.lookup_table(100_000, seed=10)
    assert all(e.covers(Z_512) for e in table.values())


def test_covers_can_fail():
    assert not tables.LookupEntry.of(Fraction(1, 2), 900, 1000).covers(Z_512)
    assert not tables.LookupEntry.of(Fraction(0), 1, 1000).covers(Z_512)
    assert not tables.LookupEntry.of(Fraction(1), 999, 1000).covers(Z_512)
    assert tables.LookupEntry.of(Fraction(1), 1000, 1000).covers(Z_512)


@pytest.mark.slow
def test_lookup_is_seeded_per_box():
    a = tables.lookup_table(300, seed=5)
    assert a == tables.lookup_table(300, seed=5)
    assert a != tables.lookup_table(300, seed=6)
    box = frozenset({2, 3, 5})
    record = simulate(ShutTheBox(), 300, seed=child_seed(5, box_to_mask(box)), state=box)
    assert a[box].wins == record.win


@pytest.mark.parametrize(
    "n, seed, error",
    [(0, 1, ValueError), (-1, 1, ValueError), (1.5, 1, TypeError), (10, None, ValueError), (10, -3, ValueError)],
)
def test_lookup_refuses_bad_arguments(n, seed, error):
    with pytest.raises(error):
        tables.lookup_table(n, seed=seed)


@given(st.frozensets(st.integers(1, 9)), st.integers(2, 12), st.booleans())
def test_choice_hints_are_the_values_of_the_boxes_moved_to(box, roll, optimal):
    table = optimal_table() if optimal else random_table()
    hints = tables.choice_hints(table, box, roll)
    assert [m for m, _ in hints] == list(ordered_moves(box, roll))
    model = model_optimal if optimal else model_random
    assert all(p == model(m) for m, p in hints)


# -- the best-move table --------------------------------------------------------------


@pytest.mark.slow
def test_best_moves_are_optimal_and_ties_go_to_the_first_in_move_order():
    table = best_moves_table()
    assert isinstance(table, PMap)
    assert set(table) == {(b, r) for b in all_boxes() if b for r in range(2, 13)}
    for (box, roll), row in table.items():
        assert row.box == box and row.roll == roll
        flips = _flips(box, roll)
        if not flips:
            assert row.move is None and row.flip == () and row.probability == 0 and row.ties == 0
            continue
        best = max(model_optimal(box - f) for f in flips)
        assert row.probability == best
        assert row.ties == sum(1 for f in flips if model_optimal(box - f) == best) >= 1
        assert sum(row.flip) == roll and set(row.flip) <= box and row.move == box - frozenset(row.flip)
        first = next(m for m in ordered_moves(box, roll) if model_optimal(m) == best)
        assert row.move == first


@pytest.mark.slow
def test_table_text_has_a_header_states_the_tie_rule_and_round_trips():
    table = best_moves_table()
    text = tables.format_best_move_table(table)
    lines = text.splitlines()
    assert any("ties" in line and "first optimal move" in line for line in lines if line.startswith("#"))
    data = [line for line in lines if not line.startswith("#")]
    assert tuple(data[0].split()) == tables.BEST_MOVE_COLUMNS
    assert len(data) == 1 + 511 * 11
    assert tables.parse_best_move_table(text) == table


@pytest.mark.slow
@given(st.sets(st.integers(1, 511), max_size=6), st.sampled_from([False, True]))
def test_any_part_of_the_table_round_trips(masks, simplified):
    full = best_moves_table(simplified)
    part = pmap({k: v for k, v in full.items() if box_to_mask(k[0]) in masks})
    assert tables.parse_best_move_table(tables.format_best_move_table(part)) == part


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda lines: lines[3:], "header"),
        (lambda lines: lines[:3] + ["123456789  2  3  12456789  0.1  1/10  1"], "not a move"),
        (lambda lines: lines[:3] + ["123456789  3  3  13456789  0.1  1/10  1"], "leaves"),
        (lambda lines: lines[:4] + lines[3:4], "second row"),
        (lambda lines: lines[:3] + ["123456789  3  3"], "columns"),
        (lambda lines: lines[:3] + ["12345678x  3  3  12456789  0.1  1/10  1"], "digits"),
        (lambda lines: lines[:3] + ["123456789  3  x  x  0.1  1/10  1"], "without a move"),
    ],
)
@pytest.mark.slow
def test_a_damaged_table_is_refused_with_the_line_named(edit, message):
    lines = tables.format_best_move_table(best_moves_table()).splitlines()
    with pytest.raises(ValueError, match=message):
        tables.parse_best_move_table("\n".join(edit(lines)))


@given(st.frozensets(st.integers(1, 9)))
def test_boxes_round_trip_as_text(box):
    assert tables.parse_box(tables.format_box(box)) == box


@pytest.mark.slow
def test_tables_are_immutable_values():
    row = best_moves_table()[(START, 7)]
    with pytest.raises(AttributeError):
        row.ties = 5
    changed = row.set(ties=5)
    assert row.ties != 5 and changed.ties == 5
    with pytest.raises(TypeError):
        tables.random_play_table()[START] = Fraction(1)
