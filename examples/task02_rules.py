# Task 2: Shut the Box. Nine levers, two dice, one player.
# Each turn: roll the dice, flip down up levers that add up to the roll.
# No such set of levers: the game is lost. Every lever down: the game is won.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import start_box, possible_moves

# %%
# All nine levers up at the start. A box is the set of levers still up.
sorted(start_box)
# => [1, 2, 3, 4, 5, 6, 7, 8, 9]

# %%
# A play-through we control, ending in a loss: roll 9 and flip 9; roll 8 and flip 8;
# roll 12 and flip 5 and 7; roll 11 and flip 2, 3 and 6; then roll a 2 with only 1 and 4 left.
box = start_box
for roll, flip in [(9, {9}), (8, {8}), (12, {5, 7}), (11, {2, 3, 6})]:
    assert box - flip in possible_moves(box, roll)
    box = box - flip

sorted(box)
# => [1, 4]

# %%
possible_moves(box, 2)
# => frozenset()

# %%
# Leaving lever 1 alone up is hopeless: two dice never roll a 1.
possible_moves(frozenset({1}), 2)
# => frozenset()

# %%
# A winning play-through, with chosen rolls; every move is legal.
box = start_box
for roll, flip in [(10, {1, 9}), (10, {2, 8}), (10, {3, 7}), (10, {4, 6}), (5, {5})]:
    assert box - flip in possible_moves(box, roll)
    box = box - flip

box
# => frozenset()
