"""Shut the Box as a family: levers 1 to 12, three dice rules, three scorings.

Every rule is checked against the rules' own words (an independent model written
here with itertools), the fast paths against the generic engine draw for draw, and
the exact values against published ones where they exist.
"""

from __future__ import annotations

import json
import math
import pickle
import random
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st
from pyrsistent import pmap

from fnmcts import tables
from fnmcts.cli import main
from fnmcts.exact import evaluate_policy, random_policy, solve
from fnmcts.games.shut_the_box import (
    DICE_RULES,
    SCORINGS,
    ShutTheBox,
    all_boxes,
    box_to_mask,
    box_values,
    count_states,
    exact_tree,
    mask_to_box,
)
from fnmcts.mcts import search, ucb, ucb1, uct
from fnmcts.montecarlo import simulate
from fnmcts.matches import playout
from fnmcts.protocol import CHANCE
from fnmcts.testing import check_game, game_states, shut_the_box_games

RULES = tuple(product(DICE_RULES, SCORINGS))

# -- an independent model, from the rules' words ----------------------------------------------

TWO = {t: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t), 36) for t in range(2, 13)}
ONE = {t: Fraction(1, 6) for t in range(1, 7)}


def may_roll_one(box: tuple, dice: str) -> bool:
    """The dice rules as written: one die when the levers left add up to 6 or less, or
    once 7, 8 and 9 (every lever above 6) are down."""
    if not box or dice == "two":
        return False
    if dice == "low-sum":
        return sum(box) <= 6
    return all(lever < 7 for lever in box)


def score_of(box: tuple, scoring: str):
    """The payoff at the end: a shut box wins (1), else 0; a score is paid as its negative."""
    if scoring == "win":
        return 0 if box else 1
    if scoring == "sum":
        return -sum(box)
    return -int("".join(map(str, sorted(box)))) if box else 0


@lru_cache(maxsize=None)
def model(levers: int, dice: str, scoring: str, optimal: bool, simplified: bool = False):
    """``value(box)`` by plain recursion over sorted tuples (optimal or uniformly random play)."""

    @lru_cache(maxsize=None)
    def value(box: tuple) -> Fraction:
        if not box:
            return Fraction(score_of(box, scoring))

        def after(roll):
            if simplified:
                flips = [(roll,)] if roll in box else []
            else:
                flips = [c for k in range(1, len(box) + 1) for c in combinations(box, k) if sum(c) == roll]
            if not flips:
                return Fraction(score_of(box, scoring))
            kids = [value(tuple(x for x in box if x not in c)) for c in flips]
            return max(kids) if optimal else sum(kids) / len(kids)

        two = sum(p * after(t) for t, p in TWO.items())
        if not may_roll_one(box, dice):
            return two
        one = sum(p * after(t) for t, p in ONE.items())
        return max(two, one) if optimal else (two + one) / 2

    return value


def start_of(game) -> tuple:
    return tuple(sorted(game.start()))


# -- the rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dice, scoring", RULES)
@pytest.mark.parametrize("levers", [1, 4, 6, 7, 9, 12])
def test_who_moves_at_a_box_follows_the_dice_rule(levers, dice, scoring):
    game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
    for box in all_boxes(levers)[1:]:
        choice = may_roll_one(tuple(box), dice)
        assert game.to_move(box) == (0 if choice else CHANCE)
        assert game.possible_moves(box) == ((2, 1) if choice else ())
        if choice:
            one = game.play(box, 1)
            assert game.to_move(one) is CHANCE
            assert [r for r, _ in game.chance_outcomes(one)] == [1, 2, 3, 4, 5, 6]
            assert [r for r, _ in game.chance_outcomes(game.play(box, 2))] == list(range(2, 13))
            assert game.describe_move(box, 1) == "roll one die"
        else:
            assert dict(game.chance_outcomes(box)) == TWO


@pytest.mark.slow
@settings(max_examples=150)
@given(shut_the_box_games(max_levers=12), st.data())
def test_the_moves_after_a_roll_are_the_rules_flips_in_order(game, data):
    box = data.draw(st.sampled_from(all_boxes(game.levers)[1:]))
    roll = data.draw(st.integers(1 if may_roll_one(tuple(box), game.dice) else 2, 12))
    state = game.play(box, roll) if game.to_move(box) is CHANCE else game.play(game.play(box, 1 if roll < 2 else 2), roll)
    up = tuple(sorted(box))
    if game.simplified:
        flips = [(roll,)] if roll in box else []
    else:  # fewest levers first, then in lever order: the stable order of the protocol
        flips = [c for k in range(1, len(up) + 1) for c in combinations(up, k) if sum(c) == roll]
    moves = game.possible_moves(state)
    assert moves == tuple(box - frozenset(c) for c in flips)
    assert game.to_move(state) == (0 if flips else None)
    assert [game.play(state, m) for m in moves] == list(moves)
    twin = pmap({"box": frozenset(up), "roll": roll})  # the same state, made elsewhere
    assert game.possible_moves(twin) == moves and game.to_move(twin) == game.to_move(state)


def test_a_game_value_pickles_as_its_rules():
    game = ShutTheBox(levers=5, dice="low-sum", scoring="sum")
    solve(game)
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game and repr(copy) == repr(game) and solve(copy) == solve(game)
    fresh = ShutTheBox(levers=5, dice="low-sum", scoring="sum")
    assert pickle.dumps(game) == pickle.dumps(fresh)  # what the game read and worked out stays behind


@given(shut_the_box_games(max_levers=12), st.data())
def test_a_finished_game_pays_minus_its_score_within_the_range(game, data):
    box = data.draw(st.sampled_from(all_boxes(game.levers)))
    if box:
        roll = data.draw(st.sampled_from([r for r in range(1, 13) if r > 1 or may_roll_one(tuple(sorted(box)), game.dice)]))
        state = game.play(box, roll) if game.to_move(box) is CHANCE else game.play(game.play(box, 2 if roll > 6 else 1), roll)
        if game.to_move(state) is not None:
            return
    else:
        state = box
    pay = game.payoff(state)
    low, high = game.payoff_range()
    assert pay == (score_of(tuple(sorted(box)), game.scoring),)
    assert low <= pay[0] <= high
    assert game.score(state) == (abs(pay[0]) if game.scoring != "win" else (1 if box else 0))
    assert (low, high) == ((0, 1) if game.scoring == "win" else (score_of(tuple(range(1, game.levers + 1)), game.scoring), 0))


def test_the_tutorial_rules_are_the_defaults_and_keep_their_repr():
    assert ShutTheBox() == ShutTheBox(levers=9, simplified=False, dice="two", scoring="win")
    assert repr(ShutTheBox()) == "ShutTheBox(levers=9, simplified=False)"
    assert ShutTheBox(levers=12).payoff_range() == (0, 1)
    assert ShutTheBox(levers=12, scoring="digits").payoff_range() == (-123456789101112, 0)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"dice": "three"}, "dice must be one of two, low-sum, high-down"),
        ({"scoring": "max"}, "scoring must be one of win, sum, digits"),
        ({"levers": 13}, "between 1 and 12"),
    ],
)
def test_bad_rules_are_named(options, message):
    with pytest.raises(ValueError, match=message):
        ShutTheBox(**options)


def test_states_of_a_rule_are_checked():
    game = ShutTheBox(dice="low-sum")
    with pytest.raises(ValueError, match="no choice of dice"):
        game.check_state(pmap({"box": frozenset({7}), "dice": 1}))
    with pytest.raises(ValueError, match="from 2 to 12"):
        ShutTheBox().state_from_json({"box": [1, 2], "roll": 1})
    assert game.state_from_json({"box": [1, 2], "roll": 1}) == pmap({"box": frozenset({1, 2}), "roll": 1})
    assert game.state_from_json({"box": [1, 2], "dice": 1}) == pmap({"box": frozenset({1, 2}), "dice": 1})
    with pytest.raises(ValueError, match="choose 1 or 2 dice"):
        game.play(frozenset({1, 2}), 3)
    with pytest.raises(ValueError, match="illegal dice roll"):
        game.play(game.play(frozenset({1, 2}), 1), 7)


@pytest.mark.parametrize("dice, scoring", RULES)
@pytest.mark.parametrize(
    "levers, simplified, examples",
    [(4, False, 8), pytest.param(7, False, 25, marks=pytest.mark.slow), pytest.param(5, True, 25, marks=pytest.mark.slow)],
)
@pytest.mark.slow
def test_check_game_passes_on_every_rule(levers, simplified, examples, dice, scoring):
    game = ShutTheBox(levers=levers, simplified=simplified, dice=dice, scoring=scoring)
    assert "playthrough_ends" in check_game(game, seed=1, max_examples=examples)


# -- exact values ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("dice, scoring", RULES)
@pytest.mark.parametrize("levers", [1, 3, 6, 8])
def test_exact_values_equal_the_independent_model(levers, dice, scoring):
    for simplified in (False, True):
        game = ShutTheBox(levers=levers, simplified=simplified, dice=dice, scoring=scoring)
        best, anyhow = box_values(game), box_values(game, "random")
        optimal = model(levers, dice, scoring, True, simplified)
        randomly = model(levers, dice, scoring, False, simplified)
        for box in all_boxes(levers):
            assert best[box_to_mask(box)] == optimal(tuple(sorted(box)))
            assert anyhow[box_to_mask(box)] == randomly(tuple(sorted(box)))
            assert best[box_to_mask(box)] >= anyhow[box_to_mask(box)]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(shut_the_box_games(max_levers=5))
def test_the_mask_solver_equals_the_protocol_solver_state_for_state(game):
    boxes = all_boxes(game.levers)
    reference = solve(game, *boxes)
    assert exact_tree(game) == {state: v[0] for state, v in reference.items()}
    randomly = evaluate_policy(game, random_policy, *boxes)
    assert box_values(game, "random") == tuple(randomly[mask_to_box(m)][0] for m in range(1 << game.levers))
    assert count_states(game, game.start()) == len(solve(game))


@pytest.mark.parametrize("levers", [9, 10, pytest.param(12, marks=pytest.mark.slow)])
@pytest.mark.parametrize("dice, scoring", [("two", "win"), ("low-sum", "sum"), ("high-down", "digits")])
def test_large_boxes_equal_the_independent_model(levers, dice, scoring):
    game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
    assert box_values(game)[-1] == model(levers, dice, scoring, True)(start_of(game))


def test_published_values_of_the_nine_lever_box():
    """Butler (durangobill.com, Shut the Box analysis, STBstats.txt): the chance of shutting the box
    under optimal play, 7.1432% always with two dice and 9.7614% with one die when the levers
    left add up to 6 or less."""
    two = box_values(ShutTheBox())[-1]
    low_sum = box_values(ShutTheBox(dice="low-sum"))[-1]
    assert round(float(two) * 100, 4) == 7.1432
    assert round(float(low_sum) * 100, 4) == 9.7614
    assert box_values(ShutTheBox(dice="high-down"))[-1] == low_sum  # one die never helps above 6 left


def test_one_die_is_never_worse_where_it_is_allowed():
    """With 6 or less left one die reaches every total 1-6 with chance 1/6, two dice at most 5/36."""
    for dice, scoring in RULES:
        if dice == "two":
            continue
        tree = exact_tree(ShutTheBox(dice=dice, scoring=scoring), rolls=False)
        for box in all_boxes():
            if box and sum(box) <= 6:
                assert tree[pmap({"box": box, "dice": 1})] >= tree[pmap({"box": box, "dice": 2})]


# -- the fast paths against the engine, draw for draw -------------------------------------------


@settings(max_examples=80, deadline=None)
@given(game_states(shut_the_box_games(max_levers=12)), st.integers(0, 2**32))
def test_the_random_play_kernels_are_the_generic_playout(reached, seed):
    game, box = reached.game, reached.state  # a box, a dice choice, a roll, or the end
    rng_kernel, rng_engine = random.Random(seed), random.Random(seed)
    assert game.random_payoff(box, rng_kernel) == game.payoff(playout(game, box, rng_engine))
    assert rng_kernel.random() == rng_engine.random()
    if game.scoring == "win":
        wins = game.random_wins(box, 20, rng_kernel)
        assert wins == sum(game.payoff(playout(game, box, rng_engine))[0] for _ in range(20))
        assert rng_kernel.random() == rng_engine.random()
    else:
        assert game.random_wins(box, 20, rng_kernel) is None  # declined, drawing nothing
        assert rng_kernel.random() == rng_engine.random()


@settings(max_examples=30, deadline=None)
@given(shut_the_box_games(max_levers=7), st.integers(0, 2**32), st.integers(0, 300), st.sampled_from((ucb, ucb1)))
def test_search_on_every_rule_is_the_phases(game, seed, dives, rule):
    """The engine on the game's compiled graph against ``uct`` (the phases) one dive at a time."""
    rng_fast, rng_phases = random.Random(seed), random.Random(seed)
    fast = search(game, game.start(), dives, rng_fast, rule=rule)
    stepped = pmap()
    for _ in range(dives):
        stepped, _ = uct(game, stepped, game.start(), rng_phases, rule)
    assert fast == stepped
    assert rng_fast.random() == rng_phases.random()


@settings(max_examples=30, deadline=None)
@given(shut_the_box_games(max_levers=6), st.integers(0, 2**32), st.integers(1, 60))
def test_the_tutorial_uct_on_every_rule_is_the_generic_uct(game, seed, dives):
    from fnmcts.tutorial import uct as tutorial_uct

    tree_tutorial = tree_generic = pmap()
    rng_tutorial, rng_generic = random.Random(seed), random.Random(seed)
    for _ in range(dives):
        tree_tutorial, result_tutorial = tutorial_uct(tree_tutorial, game.start(), rng_tutorial, game)
        tree_generic, result_generic = uct(game, tree_generic, game.start(), rng_generic)
        assert result_tutorial == result_generic
    assert dict(tree_tutorial) == dict(tree_generic)
    assert rng_tutorial.random() == rng_generic.random()


@pytest.mark.slow
@pytest.mark.parametrize("levers, dice, scoring", [(9, "low-sum", "win"), (9, "two", "sum"), (10, "high-down", "digits")])
def test_simulation_brackets_the_exact_random_play_value(levers, dice, scoring):
    game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
    exact = float(box_values(game, "random")[-1])
    record = simulate(game, 40_000, seed=11)
    low, high = game.payoff_range()
    # 5 standard errors, the standard deviation bounded by the sample's (or the range's half for wins)
    sd = math.sqrt(max(0.0, (record.sum_squares - record.total**2 / record.games) / (record.games - 1)))
    assert abs(record.mean - exact) < 5 * sd / math.sqrt(record.games)
    assert low <= record.mean <= high


@pytest.mark.parametrize("dice, scoring", [("low-sum", "win"), ("high-down", "sum")])
def test_mcts_learns_a_variant(dice, scoring):
    from fnmcts.exact import value
    from fnmcts.views import backed_up_values, greedy_policy

    game = ShutTheBox(levers=6, dice=dice, scoring=scoring)
    tree = search(game, game.start(), 6_000, random.Random(3), backup="expectimax")
    optimum = box_values(game)[-1]
    backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree)), game.start()), game.start())[0]
    anyhow = box_values(game, "random")[-1]
    assert anyhow < backed <= optimum
    assert float(optimum - backed) <= 0.02 * (game.payoff_range()[1] - game.payoff_range()[0])


# -- tables -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice, scoring", [("low-sum", "sum"), ("high-down", "win"), ("two", "digits")])
def test_best_move_tables_of_a_rule_are_optimal_and_round_trip(dice, scoring):
    levers = 5
    game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
    table = tables.best_move_table(levers, dice=dice, scoring=scoring)
    values = box_values(game)
    for (box, roll), row in table.items():
        if roll == 0:
            assert may_roll_one(tuple(sorted(box)), dice) and row.move in (1, 2)
            assert row.probability == values[box_to_mask(box)]
            continue
        moves = game.possible_moves(pmap({"box": box, "roll": roll}))
        if not moves:
            assert row.move is None and row.probability == score_of(tuple(sorted(box)), scoring)
            continue
        assert row.probability == max(values[box_to_mask(m)] for m in moves) == values[box_to_mask(row.move)]
    assert {k for k in table if k[1] == 0} == {(b, 0) for b in all_boxes(levers) if may_roll_one(tuple(sorted(b)), dice)}
    text = tables.format_best_move_table(table, value="probability" if scoring == "win" else "value")
    assert tables.parse_best_move_table(text) == table


# -- the commands ----------------------------------------------------------------------------------


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("levers, dice, scoring", [(10, "low-sum", "sum"), (7, "high-down", "win"), (4, "two", "digits")])
def test_solve_reports_each_rule_s_exact_value(capsys, levers, dice, scoring):
    game = ShutTheBox(levers=levers, dice=dice, scoring=scoring)
    for policy in ("optimal", "random"):
        flags = ("--levers", str(levers), "--dice", dice, "--scoring", scoring, "--policy", policy, "--json")
        code, out, _ = run(capsys, "solve", "shut-the-box", *flags)
        data = json.loads(out)
        exact = box_values(game, policy)[-1]
        assert code == 0 and (data["levers"], data["dice"], data["scoring"]) == (levers, dice, scoring)
        if scoring == "win":
            assert Fraction(data["probability"]) == exact
        else:
            assert Fraction(data["expected_score"]) == -exact
        assert data["states"] == count_states(game, game.start())


@pytest.mark.slow
def test_simulate_search_and_table_take_the_rules(capsys, tmp_path):
    flags = ("--levers", "5", "--dice", "low-sum", "--scoring", "sum")
    game = ShutTheBox(levers=5, dice="low-sum", scoring="sum")
    code, out, _ = run(capsys, "simulate", "shut-the-box", *flags, "--games", "3000", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["scoring"] == "sum" and data["score"] == pytest.approx(-data["mean"])
    record = simulate(game, 3000, seed=2).to_json()
    assert {k: data[k] for k in record} == record
    code, out, _ = run(capsys, "search", "shut-the-box", *flags, "--dives", "1000", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and Fraction(data["optimum_expected_score"]) == -box_values(game)[-1]
    assert data["greedy_score"] >= data["optimum_score"]
    path = tmp_path / "best.txt"
    code, out, _ = run(capsys, "table", "shut-the-box", *flags, "-o", str(path), "--json")
    assert code == 0 and tables.parse_best_move_table(path.read_text()) == tables.best_move_table(5, dice="low-sum", scoring="sum")
    assert json.loads(out)["start_value"] == float(box_values(game)[-1])


def test_play_takes_the_rules_and_reports_scores(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    code, out, _ = run(capsys, "play", "shut-the-box", "--levers", "4", "--dice", "high-down", "--scoring", "sum", "--seed", "5", "--games", "3", "--hints", "optimal")
    assert code == 0
    assert "roll one die" in out and "score " in out
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("games 3,") and "scores" in summary


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "shut-the-box", "--levers", "13"], "levers is a whole number from 1 to 12"),
        (["simulate", "shut-the-box", "--dice", "three"], "invalid choice"),
        (["search", "shut-the-box", "--scoring", "max"], "invalid choice"),
    ],
)
@pytest.mark.slow
def test_bad_rules_at_the_command_line_are_one_line_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err
    assert done.value.code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_lookup_table_under_a_score_is_refused(capsys):
    code, _, err = run(capsys, "table", "shut-the-box", "--kind", "lookup", "--scoring", "sum", "-o", "-")
    assert code == 2 and "counts wins" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(shut_the_box_games(max_levers=6))
def test_the_compiled_graph_tables_are_the_protocol_state_for_state(game):
    """The tables the game gives the search (its compiled_graph hook) answer as the protocol does."""
    from fnmcts.protocol import CHANCE

    tables = game.compiled_graph()
    assert tables is game.compiled_graph()  # built once per rule set
    assert len(tables.states) == len(tables.index) == len(set(tables.states))
    for i, state in enumerate(tables.states):
        assert tables.index[state] == i
        player = game.to_move(state)
        kind = tables.kinds[i]
        if player is None:
            assert kind == -1 and tables.payoffs[i] == game.payoff(state)
        elif player is CHANCE:
            assert kind == -2 and tables.outcomes[i] == game.chance_outcomes(state)
            assert [tables.states[c] for c in tables.children[i]] == [game.play(state, o) for o, _ in game.chance_outcomes(state)]
        else:
            assert kind == player and tables.moves[i] == game.possible_moves(state)
            assert [tables.states[c] for c in tables.children[i]] == [game.play(state, m) for m in game.possible_moves(state)]
    reached, stack = {game.start()}, [game.start()]
    while stack:  # every state play reaches from the start is in the tables
        state = stack.pop()
        assert state in tables.index
        player = game.to_move(state)
        nexts = () if player is None else [o for o, _ in game.chance_outcomes(state)] if player is CHANCE else game.possible_moves(state)
        for move in nexts:
            after = game.play(state, move)
            if after not in reached:
                reached.add(after)
                stack.append(after)
