"""The full rules of Shut the Box (task 8), a game's steps, and the pure parts of
interactive play (task 9), as properties."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from fnmcts.games import shut_the_box as stb
from fnmcts import tutorial
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.montecarlo import wilson_interval
from fnmcts.tables import random_play_table

boxes = st.frozensets(st.integers(1, 9))
rolls = st.integers(2, 12)


@st.composite
def box_and_flip(draw):
    """A box and a non-empty set of its up levers whose sum two dice can roll."""
    box = draw(st.frozensets(st.integers(1, 9), min_size=1))
    flip = draw(st.frozensets(st.sampled_from(sorted(box)), min_size=1))
    if not 2 <= sum(flip) <= 12:
        flip = frozenset({max(box)}) if max(box) >= 2 else flip
    return box, flip


# -- task 8: lever combinations per roll, moves under the full rules --------------------


def test_lever_combinations_are_every_subset_with_that_sum_by_bitmask():
    # an enumeration independent of ``power``: the 512 bitmasks of the nine levers
    by_roll: dict[int, set] = {}
    for mask in range(512):
        levers = tuple(i + 1 for i in range(9) if mask >> i & 1)
        by_roll.setdefault(sum(levers), set()).add(levers)
    assert len(stb.lever_combinations) == 13  # indexed by the roll, 0 to 12, as in the tutorial
    for roll, combos in enumerate(stb.lever_combinations):
        assert set(combos) == by_roll.get(roll, set())
        assert len(set(combos)) == len(combos)  # no set listed twice
    # counted by hand: 12 = 3+9 4+8 5+7 1+2+9 1+3+8 1+4+7 1+5+6 2+3+7 2+4+6 3+4+5 1+2+3+6 1+2+4+5
    assert len(stb.lever_combinations[12]) == 12 and stb.lever_combinations[2] == ((2,),)


def test_tutorial_six_example():
    # "if the player rolls a 6, then the player can flip down levers 2 and 4;
    # 5 and 1; 1, 2, and 3; or just the 6"
    flips = {frozenset(stb.start_box - m) for m in stb.possible_moves(stb.start_box, 6)}
    assert flips == {frozenset({2, 4}), frozenset({1, 5}), frozenset({1, 2, 3}), frozenset({6})}


@given(box_and_flip())
def test_every_set_of_up_levers_adding_to_the_roll_is_a_move(pair):
    box, flip = pair
    roll = sum(flip)
    if 2 <= roll <= 12:
        assert box - flip in stb.possible_moves(box, roll)
        assert stb.flipped_levers(box, box - flip) == tuple(sorted(flip))


@given(boxes, rolls)
def test_moves_flip_up_levers_only_and_differ(box, roll):
    moves = stb.ordered_moves(box, roll)
    assert len(set(moves)) == len(moves)
    for move in moves:
        flipped = stb.flipped_levers(box, move)
        assert flipped and set(flipped) <= box and sum(flipped) == roll
        assert move | frozenset(flipped) == box and not move & frozenset(flipped)


@given(boxes, rolls)
def test_the_game_value_lists_the_same_moves(box, roll):
    game = ShutTheBox()
    state = game.play(box, roll) if box else None
    if state is not None:
        assert set(game.possible_moves(state)) == stb.possible_moves(box, roll)
        for move in game.possible_moves(state):
            assert game.describe_move(state, move) == "flip " + " ".join(map(str, stb.flipped_levers(box, move)))


# -- random play: a game's steps -----------------------------------------------------


@given(boxes, st.randoms(use_true_random=False), st.booleans())
def test_steps_are_legal_chained_and_match_play_game_draw_for_draw(box, rng, simplified):
    seed = rng.getrandbits(64)
    a, b = random.Random(seed), random.Random(seed)
    steps, result = stb.play_game_steps(box, a, simplified)
    assert result == stb.play_game(box, b, simplified)
    assert a.random() == b.random()  # the same draws were consumed
    current = box
    for i, (at, roll, move) in enumerate(steps):
        assert at == current and 2 <= roll <= 12
        if move is None:
            assert i == len(steps) - 1 and not stb.ordered_moves(at, roll, simplified)
        else:
            assert move in stb.ordered_moves(at, roll, simplified)
            current = move
    assert (result == stb.WIN) == (not current) == (not steps or steps[-1][2] is not None)


def test_random_play_chooses_each_move_uniformly():
    # the first decision from the start box after a roll of 7: five moves
    # (7, 1+6, 2+5, 3+4, 1+2+4), each chosen with probability 1/5
    counts: dict = {}
    rng = random.Random(2024)
    games = 24_000
    for _ in range(games):
        steps, _ = stb.play_game_steps(stb.start_box, rng)
        box, roll, move = steps[0]
        if roll == 7:
            counts[move] = counts.get(move, 0) + 1
    n = sum(counts.values())
    assert len(counts) == len(stb.ordered_moves(stb.start_box, 7)) == 5
    assert abs(n - games / 6) < 5 * math.sqrt(games * (1 / 6) * (5 / 6))  # a 7 one roll in six
    sigma = math.sqrt(n * 0.2 * 0.8)
    for move, k in counts.items():
        assert abs(k - n / 5) < 5 * sigma, (sorted(move), k, n)


@pytest.mark.parametrize("box", [stb.start_box, stb.sample_box, frozenset({2, 3, 4, 5, 6}), frozenset({1, 8, 9})])
def test_simulation_of_the_full_game_matches_exact_random_play(box):
    # 5-sigma-wide Wilson interval (four comparisons) around the simulated frequency
    exact = random_play_table()[box]
    record = tutorial.simulate(100_000, seed=8, box=box)
    low, high = wilson_interval(record.win, record.games, z=5.0)
    assert low <= exact <= high


# -- task 9: the pure parts of interactive play ----------------------------------------


@given(boxes)
def test_render_box_shows_up_levers_and_blanks(box):
    cells = stb.render_box(box).split(" ")
    assert len(cells) == 9
    for lever, cell in enumerate(cells, start=1):
        assert cell == (str(lever) if lever in box else "_")


@given(st.integers(1, 40), st.data())
def test_parse_choice_accepts_exactly_the_numbers_shown(count, data):
    k = data.draw(st.integers(1, count))
    padding = data.draw(st.sampled_from(["", " ", "\t", "  "]))
    assert stb.parse_choice(f"{padding}{k}{padding}", count) == k - 1


@given(st.text(max_size=6), st.integers(1, 12))
def test_parse_choice_refuses_anything_else_with_a_message(text, count):
    try:
        expected = int(text.strip())
    except ValueError:
        expected = None
    if expected is not None and 1 <= expected <= count:
        assert stb.parse_choice(text, count) == expected - 1
    else:
        with pytest.raises(ValueError, match=f"1 to {count}"):
            stb.parse_choice(text, count)


def test_parse_choice_messages():
    for text in ("", "   ", "abc", "0", "4", "-1", "1.5"):
        with pytest.raises(ValueError, match="number from 1 to 3"):
            stb.parse_choice(text, 3)
    with pytest.raises(TypeError):
        stb.parse_choice(2, 3)


@given(st.lists(st.text(alphabet="flip 123456789", min_size=1, max_size=12), min_size=1, max_size=8), st.data())
def test_format_choices_numbers_every_label_and_shows_its_hint(labels, data):
    hints = data.draw(st.none() | st.lists(st.fractions(0, 1), min_size=len(labels), max_size=len(labels)))
    lines = stb.format_choices(labels, hints)
    assert len(lines) == len(labels)
    for i, (line, label) in enumerate(zip(lines, labels), start=1):
        assert line.startswith(f"  {i}) {label}")
        if hints is None:
            assert "win" not in line[len(f"  {i}) {label}") :]
        else:
            shown = float(line.rsplit("win ", 1)[1])
            assert abs(shown - float(hints[i - 1])) <= 0.00005 + 1e-12


def test_format_choices_refuses_a_wrong_number_of_hints():
    with pytest.raises(ValueError, match="2 hints for 1 choices"):
        stb.format_choices(["flip 7"], [Fraction(1), Fraction(0)])


@given(boxes, rolls)
def test_pure_parts_leave_their_inputs_alone(box, roll):
    before = frozenset(box)
    stb.render_box(box)
    stb.play_game_steps(box, random.Random(1))
    for move in stb.ordered_moves(box, roll):
        stb.flipped_levers(box, move)
    assert box == before
