"""Rules of Shut the Box (tasks 2-7) as properties, and the simplified game's exact value."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, strategies as st
from pyrsistent import pmap

from fnmcts.exact import evaluate_policy, random_policy, solve, value
from fnmcts.games import shut_the_box as stb
from fnmcts import tutorial
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.rng import make_rng

boxes = st.frozensets(st.integers(1, 9))
rolls = st.integers(2, 12)


@given(boxes, rolls)
def test_simplified_moves_hold_one_box_or_none(box, roll):
    moves = stb.possible_moves(box, roll, simplified=True)
    if roll in box:
        assert moves == {box - {roll}}
    else:
        assert moves == frozenset()


@given(boxes, rolls)
def test_full_moves_flip_only_up_levers_summing_to_the_roll(box, roll):
    moves = stb.possible_moves(box, roll)
    for move in moves:
        flipped = box - move
        assert move < box
        assert sum(flipped) == roll
    # and every set of up levers that sums to the roll is found
    expected = {
        box - frozenset(c)
        for c in stb.power(sorted(box))
        if sum(c) == roll
    }
    assert moves == expected


@given(boxes, rolls)
def test_ordered_moves_are_the_possible_moves_in_a_stable_order(box, roll):
    ordered = stb.ordered_moves(box, roll)
    assert frozenset(ordered) == stb.possible_moves(box, roll)
    assert len(set(ordered)) == len(ordered)
    assert ordered == stb.ordered_moves(frozenset(sorted(box)), roll)
    keys = [(len(box - m), sorted(box - m)) for m in ordered]
    assert keys == sorted(keys)


def test_lever_combinations_match_the_tutorial_example():
    # "if an 11 is rolled, the player can flip the 8 and the 3; or the 7 and
    # the 4; or the 1, 2, 3, and 5; etc."
    combos = {frozenset(c) for c in stb.lever_combinations[11]}
    assert {frozenset({8, 3}), frozenset({7, 4}), frozenset({1, 2, 3, 5})} <= combos
    assert all(sum(c) == 11 for c in combos)
    assert stb.lever_combinations[1] == ((1,),) and stb.lever_combinations[0] == ((),)


@given(boxes, st.randoms(use_true_random=False), st.booleans())
def test_play_game_ends_with_win_exactly_when_the_box_is_emptied(box, rng, simplified):
    # replay the same draws by hand: the result is win iff the walk empties the box
    seed = rng.getrandbits(32)
    result = stb.play_game(box, random.Random(seed), simplified)
    assert result in (stb.WIN, stb.LOSS)
    replay, current = random.Random(seed), box
    while current:
        moves = stb.ordered_moves(current, stb.dice_roll(replay), simplified)
        if not moves:
            break
        current = moves[0] if len(moves) == 1 else moves[int(replay.random() * len(moves))]
    assert (result == stb.WIN) == (not current)


@given(boxes, st.integers(0, 2**32), st.booleans())
def test_the_fast_kernel_agrees_with_play_game_draw_for_draw(box, seed, simplified):
    game = ShutTheBox(simplified=simplified)
    n = 40
    reference_rng, kernel_rng = random.Random(seed), random.Random(seed)
    wins = sum(stb.play_game(box, reference_rng, simplified) == stb.WIN for _ in range(n))
    assert game.random_wins(box, n, kernel_rng) == wins
    assert reference_rng.random() == kernel_rng.random()  # same number of draws consumed


@given(boxes, st.integers(0, 2**32))
def test_the_kernel_agrees_with_the_generic_protocol_playout(box, seed):
    from fnmcts.montecarlo import playout

    game = ShutTheBox()
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(10):
        end = playout(game, box, a)
        assert game.payoff(end)[0] == game.random_wins(box, 1, b)
    assert a.random() == b.random()


@given(boxes, rolls)
def test_inputs_never_change(box, roll):
    before = frozenset(box)
    stb.possible_moves(box, roll)
    stb.play_game(box, make_rng(1))
    assert box == before


def test_same_seed_same_record():
    assert tutorial.simulate(5_000, seed=11) == tutorial.simulate(5_000, seed=11)
    assert tutorial.simulate(5_000, seed=11) != tutorial.simulate(5_000, seed=12)


def test_seven_lever_alone_wins_one_time_in_six():
    # the tutorial's easy box: only a 7 (probability 6/36) wins
    game = ShutTheBox()
    assert value(solve(game, stb.easy_box), stb.easy_box) == (Fraction(1, 6),)
    record = tutorial.simulate(60_000, seed=3, box=stb.easy_box)
    assert record.ci_low < 1 / 6 < record.ci_high


def _simplified_win_probability_from_dice_alone() -> Fraction:
    """P(win) for the simplified game, derived from the dice probabilities only.

    Any roll that is not an up lever loses at once, so the game is won exactly by
    the roll sequences that are orderings of 2..9. The 8! orderings are disjoint
    events with the same probability, the product of the eight roll probabilities.
    """
    p = {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}
    product = 1
    for lever in range(2, 10):
        product *= p[lever]
    return product * len(list(permutations(range(2, 10))))


def test_simplified_exact_value_from_dice_probabilities():
    exact = _simplified_win_probability_from_dice_alone()
    game = ShutTheBox(simplified=True)
    assert value(solve(game), game.start()) == (exact,)
    assert value(evaluate_policy(game, random_policy), game.start()) == (exact,)


@pytest.mark.slow
def test_one_million_simplified_games_match_the_exact_value():
    exact = float(_simplified_win_probability_from_dice_alone())  # about 0.000206
    record = tutorial.simulate(1_000_000, seed=2017, simplified=True)
    assert record.games == 1_000_000
    # 95% Wilson interval, and a 5-sigma binomial band around the exact value
    sigma = (exact * (1 - exact) / record.games) ** 0.5
    assert abs(record.estimate - exact) < 5 * sigma
    assert record.ci_low < exact < record.ci_high


def test_full_game_random_play_matches_the_exact_value():
    game = ShutTheBox()
    exact = float(value(evaluate_policy(game, random_policy), stb.start_box)[0])
    record = tutorial.simulate(200_000, seed=7)
    sigma = (exact * (1 - exact) / record.games) ** 0.5
    assert abs(record.estimate - exact) < 5 * sigma


def test_the_game_value_follows_the_protocol():
    game = ShutTheBox()
    state = game.start()
    assert state == stb.start_box and game.to_move(state) is not None
    rolled = game.play(state, 3)
    assert rolled == pmap({"box": stb.start_box, "roll": 3})
    assert game.possible_moves(rolled) == (stb.start_box - {3}, stb.start_box - {1, 2})
    assert game.payoff(frozenset()) == (1,)
    assert game.to_move(frozenset()) is None
    dead = game.play(frozenset({9}), 2)
    assert game.to_move(dead) is None and game.payoff(dead) == (0,)


@pytest.mark.parametrize(
    "bad, error, message",
    [("123", TypeError, "a box is a set"), (7, TypeError, "a box is a set"), ({"a"}, ValueError, "'a'"),
     ({0, 3}, ValueError, "1 to 9"), ({10}, ValueError, "1 to 9")],
)
def test_bad_boxes_are_named(bad, error, message):
    with pytest.raises(error, match=message):
        stb.play_game(bad, make_rng(0))
    with pytest.raises(error, match=message):
        tutorial.simulate(10, seed=1, box=bad)


def test_illegal_moves_are_refused():
    game = ShutTheBox()
    rolled = game.play(stb.start_box, 4)
    with pytest.raises(ValueError, match="illegal move"):
        game.play(rolled, stb.start_box - {5})
    with pytest.raises(ValueError, match="illegal dice roll"):
        game.play(stb.start_box, 13)
    for fresh in (ShutTheBox(), game):  # before and after the game has read a state
        with pytest.raises(ValueError, match="illegal dice roll 7 at None"):
            fresh.play(None, 7)
        assert fresh.possible_moves(None) == () and fresh.to_move(None) is None
    with pytest.raises(ValueError):
        ShutTheBox(levers=0)


@pytest.mark.slow
@given(boxes.filter(bool), rolls, st.sampled_from([False, True]), st.frozensets(st.integers(0, 10)), st.data())
def test_play_takes_exactly_the_possible_moves_however_the_state_was_read(box, roll, simplified, other, data):
    game = ShutTheBox(simplified=simplified)
    rolled, twin = game.play(box, roll), pmap({"box": box, "roll": roll})
    legal = stb.ordered_moves(box, roll, simplified)
    reads = [lambda: None, lambda: game.to_move(rolled), lambda: game.possible_moves(twin),
             lambda: game.to_move(game.play(box, 2 if roll != 2 else 3))]
    for read in data.draw(st.lists(st.sampled_from(reads), max_size=4)):
        read()  # the game keeps the last state it read: any order of reads gives the same answers
    assert game.possible_moves(rolled) == legal and game.to_move(twin) == (0 if legal else None)
    for move in legal:
        assert game.play(rolled, move) is move
        with pytest.raises(ValueError, match="illegal move"):
            game.play(rolled, set(move))  # equal to a possible move, but a set can change
    if other not in legal:
        with pytest.raises(ValueError, match="illegal move"):
            game.play(rolled, other)
    assert game.payoff(rolled) == (0,) if not legal else game.to_move(rolled) == 0


@pytest.mark.parametrize("bad", [frozenset({True, 2}), frozenset({1.0, 2}), frozenset({0, 2}), frozenset({10})])
def test_a_box_given_to_play_is_checked(bad):
    with pytest.raises(ValueError, match="levers are whole numbers from 1 to 9"):
        ShutTheBox().play(bad, 7)
    assert ShutTheBox().play({2, 5}, 7) == pmap({"box": frozenset({2, 5}), "roll": 7})


@pytest.mark.slow
@given(st.integers(0, 511))
def test_masks_and_boxes_round_trip(mask):
    assert stb.box_to_mask(stb.mask_to_box(mask)) == mask


def test_the_tutorial_s_simulate_and_uct_moved_to_the_tutorial_layer_and_the_old_names_warn():
    import warnings

    from fnmcts.mcts import uct as generic_uct

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from fnmcts.games.shut_the_box import simulate, uct
    assert simulate is tutorial.simulate and uct is tutorial.uct
    assert caught and all(w.category is DeprecationWarning and "fnmcts.tutorial" in str(w.message) for w in caught)
    assert {str(w.message).split()[0] for w in caught} == {"fnmcts.games.shut_the_box.simulate", "fnmcts.games.shut_the_box.uct"}
    assert "simulate" not in stb.__all__ and "uct" not in stb.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        stb.nothing
    import fnmcts

    assert fnmcts.mcts.uct is generic_uct  # the generic uct(game, tree, state, rng); fnmcts.uct is a deprecated alias of it


def test_a_game_value_never_changes_itself_and_equal_rule_sets_share_their_tables():
    import dataclasses

    from fnmcts.games.shut_the_box import masks

    game = ShutTheBox(levers=7, dice="low-sum")
    before = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)}
    assert set(before) == {"levers", "simplified", "dice", "scoring"}  # the rules, nothing kept beside them
    slots = getattr(game, "__dict__", {})
    state = game.play(frozenset({4, 5, 6}), 9)
    game.to_move(state), game.possible_moves(state), game.random_wins(game.start(), 10, random.Random(1))
    assert getattr(game, "__dict__", {}) == slots  # reading states and playing kept nothing in the value
    twin = ShutTheBox(levers=7, dice="low-sum")
    assert masks.rule_tables(7, False) is masks.rule_tables(7, False)
    assert masks.kernel_tables(7, False, "low-sum") is masks.kernel_tables(7, False, "low-sum")
    assert twin.possible_moves(twin.play(frozenset({4, 5, 6}), 9)) == game.possible_moves(state) == (frozenset({6}),)  # 9 = 4 + 5
