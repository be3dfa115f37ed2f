# Task 3: the game state. A box (the set of levers up) and a dice roll (the sum of two dice).
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import all_boxes, dice_roll, sample_box, start_box
from fnmcts.rng import DICE_PROBABILITIES, make_rng

# %%
# How many game states? 2^9 boxes times 11 possible rolls (2..12).
len(all_boxes()) * len(DICE_PROBABILITIES)
# => 5632

# %%
# The box with the 1, 3 and 6 levers down, as the tutorial's sample:
sorted(sample_box)
# => [2, 4, 5, 7, 8, 9]

# %%
sample_box == start_box - {1, 3, 6}
# => True

# %%
# A state of the game: that box, and a roll of a 5 and a 3.
state = (sample_box, 5 + 3)
state[1]
# => 8

# %%
# dice-roll: a random valid roll. Randomness is explicit: pass an rng.
rng = make_rng(3)
[dice_roll(rng) for _ in range(10)]
# => [5, 7, 6, 8, 8, 3, 2, 10, 5, 5]

# %%
# Each sum comes with its probability; a 7 is the most likely, 6 ways in 36.
dict(DICE_PROBABILITIES)[7]
# => Fraction(1, 6)
