"""A trace of a search: the dives of the phases, each kept, equal to ``search`` draw for draw.

Properties on generated games (draws, scores, chance, repeating states) and the
built-in ones, for every rule, backup and solver setting: the last tree is
``search``'s and the generator ends where the search leaves it; folding the
dives' changes over the first tree rebuilds the last; the records dive k
changes are exactly the states of its path; every other record is the same
object as before (the trees share structure); a dive's path, replayed from
the tree before it with its dice, is the path the dive took.
"""

from __future__ import annotations

import gc
import math
import random
import tracemalloc
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import solve
from fnmcts.games import Nim, Pig, Piles, ShutTheBox, TicTacToe
from fnmcts.limits import TooLarge
from fnmcts.matches import playout
from fnmcts.mcts import mean, phases, record, search, ucb, ucb1, visits
from fnmcts.views import EXACT_STATES, first_difference, format_number, record_text, trace, trace_bytes
from fnmcts.mcts._graph import rescaler
from fnmcts.mcts._records import counts_of, rating
from fnmcts.rng import make_rng

from small_games import custom_rule, search_games


RULES = (ucb, ucb1, partial(ucb1, c=0.3), partial(ucb, z=1), custom_rule)

games = search_games((Pig(goal=6),))
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from(RULES),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)


def _phases(game, state, dives, rng, tree=None, *, rule=ucb, backup="mean", solver=False, rollout=None):
    """The phases by hand, one dive at a time: ``(trees, paths)`` of every dive (trees[0] the first)."""
    tree = {} if tree is None else tree
    trees, paths = [tree], []
    for _ in range(dives):
        path = phases.select(game, tree, state, rng, rule, backup=backup, solver=solver)
        grown = phases.expand(game, tree, path)
        payoff = phases.simulate(game, path.leaf, rng, rollout) if path.end in ("new", "repeat") else path.value
        tree = phases.backup(game, grown, path, payoff, backup=backup, solver=solver)
        trees.append(tree)
        paths.append(path)
    return trees, paths


# -- the options the trace asks of the phases ------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_a_playout_that_records_its_moves_draws_the_same(game, rng):
    """``moves=True`` gives the same payoff and draws, and its moves replayed reach the same end."""
    seed = rng.getrandbits(32)
    plain, recording = random.Random(seed), random.Random(seed)
    payoff = phases.simulate(game, game.start(), plain)
    recorded, moves = phases.simulate(game, game.start(), recording, moves=True)
    assert recorded == payoff
    assert plain.random() == recording.random()
    state = game.start()
    for move in moves:
        state = game.play(state, move)
    assert game.to_move(state) is None and tuple(game.payoff(state)) == payoff
    end, moves_again = playout(game, game.start(), random.Random(seed), moves=True)
    assert moves_again == moves and end == state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 40))
def test_select_replays_a_walk_from_its_dice(game, opts, seed, dives):
    """``select(..., replay=outcomes)`` walks exactly the path the dice drew, without a generator."""
    trees, paths = _phases(game, game.start(), dives, random.Random(seed), **opts)
    for tree, path in zip(trees, paths):
        outcomes = [o for step in path.steps for o in step.outcomes]
        again = phases.select(game, tree, game.start(), None, opts["rule"], backup=opts["backup"],
                              solver=opts["solver"], replay=outcomes)
        assert again == path


def test_a_replay_that_runs_out_of_outcomes_says_so():
    game = ShutTheBox(levers=3)
    tree = {game.start(): record(0, 1)}
    with pytest.raises(ValueError, match="ran out"):
        phases.select(game, tree, game.start(), None, replay=())


# -- the trace: the phases, draw for draw ----------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(0, 60))
def test_the_last_tree_is_the_search_tree_draw_for_draw(game, opts, seed, dives):
    """``trace`` ends with ``search``'s tree and leaves the generator where ``search`` does."""
    rng = random.Random(seed)
    traced = trace(game, game.start(), dives, rng, exact=0, **opts)
    by_search = random.Random(seed)
    grown = search(game, game.start(), dives, by_search, **opts)
    assert traced.tree() == grown
    assert rng.random() == by_search.random()
    assert len(traced) == dives


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 40))
def test_every_tree_and_path_is_the_phases_one_dive_at_a_time(game, opts, seed, dives):
    """Tree k is the tree after k dives of the phases; dive k's path is the path the phases took."""
    traced = trace(game, game.start(), dives, random.Random(seed), exact=0, **opts)
    trees, paths = _phases(game, game.start(), dives, random.Random(seed), **opts)
    for k in range(1, dives + 1):
        assert traced.tree(k) == trees[k]
        dive = traced.dive(k)
        assert dive.path == paths[k - 1]
        assert dive.before == trees[k - 1] and dive.tree == trees[k]


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 50))
def test_folding_the_changes_over_the_first_tree_rebuilds_the_last(game, opts, seed, dives):
    traced = trace(game, game.start(), dives, random.Random(seed), exact=0, **opts)
    tree = dict(traced.tree(0))
    for k in range(1, dives + 1):
        tree.update(traced.changes(k))
    assert tree == dict(traced.tree())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 50))
def test_the_records_a_dive_changes_are_exactly_the_states_of_its_path(game, opts, seed, dives):
    """Compared tree to tree, not by the trace's own word: what differs is the path, and nothing else moved."""
    traced = trace(game, game.start(), dives, random.Random(seed), exact=0, **opts)
    for k in range(1, dives + 1):
        before, after = traced.tree(k - 1).pmap(), traced.tree(k).pmap()
        differ = {s for s in after if s not in before or before[s] != after[s]}
        assert not set(before) - set(after)  # nothing dropped
        on_path = {state for state, _ in traced.dive(k).path.nodes}
        assert differ == on_path == set(traced.changes(k))
        for state in before:
            if state not in on_path:
                assert after[state] is before[state]  # shared, not copied


def test_a_trace_continues_a_given_tree():
    game = TicTacToe()
    first = search(game, game.start(), 30, make_rng(4))
    rng = make_rng(5)
    traced = trace(game, game.start(), 20, rng, first)
    assert traced.tree(0) == first
    assert traced.tree() == search(game, game.start(), 20, make_rng(5), first, rule='tutorial')


def test_a_trace_is_a_value():
    game = Nim(heap=6)
    a = trace(game, game.start(), 15, make_rng(3))
    b = trace(game, game.start(), 15, make_rng(3))
    assert a == b and hash(a) == hash(b)
    assert a != trace(game, game.start(), 15, make_rng(4))
    with pytest.raises(AttributeError):
        a.root = None
    assert [dive.index for dive in a] == list(range(1, 16))
    assert a.dive(-1).index == 15 and a.tree(-1) is a.tree()


@pytest.mark.parametrize("k", [0, 11, -12, 2.0, True])
def test_a_dive_out_of_range_is_a_clear_error(k):
    t = trace(Nim(heap=4), Nim(heap=4).start(), 10, make_rng(1))
    with pytest.raises((IndexError, TypeError), match="dive"):
        t.dive(k)


# -- what a step shows: siblings, exact values, texts ------------------------------------------------


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 30))
def test_siblings_split_each_score_as_mean_plus_bonus_and_carry_the_exact_value(game, opts, seed, dives):
    traced = trace(game, game.start(), dives, random.Random(seed), **opts)
    exact = solve(game)
    scale = rescaler(game)
    for dive in traced:
        for j, step in enumerate(dive.path.steps):
            if step.player is None:
                continue
            siblings = dive.siblings(j)
            assert [s.child for s in siblings] == list(step.children)
            assert [s.chosen for s in siblings].count(True) == 1 and siblings[step.chosen].chosen
            parent = counts_of(step.record)[0]
            for s in siblings:
                assert s.exact == float(scale(exact[s.child])[step.player])
                assert s.visits == (0 if s.record is None else visits(s.record))
                if step.scores is None:
                    assert s.score is None and s.bonus is None
                    continue
                expected = rating(opts["rule"], None if s.record is None else counts_of(s.record), parent,
                                  opts["backup"] == "expectimax")
                assert s.score == expected
                if s.mean is None:
                    assert s.visits == 0 and s.bonus == math.inf
                else:
                    assert s.mean + s.bonus == pytest.approx(s.score)


def test_the_exact_values_are_left_out_for_a_game_too_large_to_solve():
    game = Nim(heap=40, max_take=3)
    small = trace(game, game.start(), 5, make_rng(1), exact=10)
    assert small.exact is None and small.exact_value(game.start()) is None
    assert all(s.exact is None for dive in small for j in range(len(dive.path.steps)) for s in dive.siblings(j))
    solved = trace(game, game.start(), 5, make_rng(1))
    assert solved.exact_value(game.start()) == solve(game)[game.start()]
    assert EXACT_STATES >= 1_000


def test_the_lines_show_the_siblings_numbers_with_three_decimals():
    game = TicTacToe()
    traced = trace(game, game.start(), 60, make_rng(2))
    dive = traced.dive(60)
    lines = dive.lines()
    assert lines[0] == "dive 60"
    rows = [line for line in lines if line.startswith("  ")]
    shown = [s for j, step in enumerate(dive.path.steps) if step.scores is not None for s in dive.siblings(j)]
    assert len(rows) == len(shown)
    for line, s in zip(rows, shown):
        assert f"visits {s.visits} " in line
        assert f"mean {format_number(s.mean)} + bonus {format_number(s.bonus)} = score {format_number(s.score)}" in line
        assert f"exact {format_number(s.exact)}" in line
        assert line.endswith("<- chosen") == s.chosen
    backups = [line for line in lines if line.startswith("backup: ")]
    assert len(backups) == len(dive.path.nodes)
    assert backups[-1].endswith(record_text(traced.tree(60)[game.start()]))


@given(st.one_of(st.floats(allow_nan=False), st.fractions().map(float), st.integers(-64, 64).map(lambda k: k / 16)))
def test_numbers_show_as_python_formats_them(x):
    assert format_number(x) == ("inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:.3f}")


def test_record_texts():
    assert record_text(record(win=3, loss=1)) == "Record(win=3, loss=1)"
    assert record_text(record(win=1, loss=0, score=0.75)) == "Record(win=1, loss=0, score=0.750)"
    assert record_text(record(1, 1, proven=(Fraction(1), Fraction(-1)))) == "Record(win=1, loss=1, proven=(1, -1))"


# -- first_difference ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, options, st.integers(0, 2**32), st.integers(1, 40))
def test_first_difference_is_the_first_dive_whose_path_differs(game, opts_a, opts_b, seed, dives):
    a = trace(game, game.start(), dives, random.Random(seed), exact=0, **opts_a)
    b = trace(game, game.start(), dives, random.Random(seed), exact=0, **opts_b)
    k = first_difference(a, b)
    assert k == first_difference(b, a)

    def route(t, i):
        path = t.dive(i).path
        return ([(s.node, s.outcomes, s.child) for s in path.steps], path.leaf, path.end)

    same = [route(a, i) == route(b, i) for i in range(1, dives + 1)]
    if k is None:
        assert all(same)
    else:
        assert all(same[: k - 1]) and not same[k - 1]
    if opts_a == opts_b:
        assert k is None


def test_first_difference_refuses_what_it_cannot_compare():
    a = trace(Nim(heap=5), Nim(heap=5).start(), 3, make_rng(1))
    with pytest.raises(ValueError, match="same game"):
        first_difference(a, trace(Nim(heap=6), Nim(heap=6).start(), 3, make_rng(1)))
    with pytest.raises(TypeError, match="two traces"):
        first_difference(a, a.tree())


# -- bad input: one clear line ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda g: trace(g, g.start(), -1, make_rng(1)), ValueError, "non-negative"),
        (lambda g: trace(g, g.start(), 2.5, make_rng(1)), TypeError, "whole number"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), max_nodes=5), TypeError, "max_nodes= is an option of search"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), seconds=1), TypeError, "seconds= is an option of search"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), colour=1), TypeError, "unexpected option 'colour'"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), backup="max"), ValueError, "backup must be one of"),
        (lambda g: trace(g, (1, 2), 10, make_rng(1)), ValueError, "9"),
        (lambda g: trace("tic-tac-toe", None, 10, make_rng(1)), TypeError, "game protocol"),
        (lambda g: trace(g, g.start(), 10, 7), TypeError, "random.Random"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), exact=-1), ValueError, "exact"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), memory=0), ValueError, "memory"),
        (lambda g: trace(g, g.start(), 10, make_rng(1), tree=[1]), TypeError, "map from state to record"),
    ],
)
def test_bad_input_is_one_clear_error(call, error, words):
    with pytest.raises(error, match=words) as caught:
        call(TicTacToe())
    assert "\n" not in str(caught.value)


# -- memory: the estimate, the refusal, and the bytes really held ------------------------------------


def test_a_budget_beyond_memory_is_refused_up_front_saying_what_fits():
    game = TicTacToe()
    with pytest.raises(TooLarge) as caught:
        trace(game, game.start(), 10**7, make_rng(1), memory=100 * 10**6)
    message = str(caught.value)
    fit = int(message.split("at most ")[1].split(" dives fit")[0].replace(",", ""))
    assert 10_000 <= fit < 10**7 and "memory=None goes on regardless" in message
    assert trace_bytes(game, game.start(), fit) <= 100 * 10**6 < trace_bytes(game, game.start(), fit + 1)
    assert trace_bytes(game, game.start(), 10_000) <= 100 * 10**6  # the trace fits in 100 MB


def _held(game, n, seed=1):
    """The bytes a trace of ``n`` dives holds (tracemalloc), after a warm-up (the game's own tables)."""
    trace(game, game.start(), 20, make_rng(seed + 1), exact=0)
    gc.collect()
    tracemalloc.start()
    try:
        kept = trace(game, game.start(), n, make_rng(seed), exact=0, memory=None)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(kept) == n
    return held


@pytest.mark.slow
@pytest.mark.parametrize("game", [TicTacToe(), ShutTheBox(), Nim(heap=21), Pig(goal=20), Piles()], ids=repr)
def test_the_estimate_bounds_the_bytes_a_trace_holds(game):
    n = 400
    assert _held(game, n) <= trace_bytes(game, game.start(), n)


@pytest.mark.slow
def test_kept_trees_share_structure():
    """A thousand kept trees of tic-tac-toe hold far less than a thousand copies of the last."""
    game = TicTacToe()
    held = _held(game, 1_000)
    gc.collect()
    tracemalloc.start()
    try:
        alone = dict(search(game, game.start(), 1_000, make_rng(1)))
        gc.collect()
        last = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(alone) > 500
    # a copy of every tree would hold about n/2 = 500 times the last (the trees grow by one state a dive);
    # shared, the thousand trees and the frames hold about 16 times the last
    assert held < 40 * last
    assert held / 1_000 < 10_000  # bytes a dive


def test_a_trace_needs_no_memory_check_to_run():
    game = Nim(heap=5)
    assert trace(game, game.start(), 5, make_rng(1), memory=None).tree() == search(game, game.start(), 5, make_rng(1), rule='tutorial')


def test_the_trace_of_no_dive_holds_the_tree_it_was_given():
    game = Nim(heap=5)
    start = {game.start(): record(1, 1)}
    t = trace(game, game.start(), 0, make_rng(1), start)
    assert len(t) == 0 and t.tree() == start and list(t) == []
    assert pmap(t.tree()) == pmap(start)


@pytest.mark.slow
def test_progress_hears_of_every_dive():
    heard = []
    trace(Nim(heap=5), Nim(heap=5).start(), 2_345, make_rng(1), exact=0, progress=heard.append)
    assert sum(heard) == 2_345
