# Task 5: play the game from the REPL, feeding each result of possible_moves back in.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import dice_roll, possible_moves, simplified_start_box
from fnmcts.rng import make_rng

rng = make_rng(0)
box = simplified_start_box
roll = dice_roll(rng)
roll
# => 10

# %%
possible_moves(box, roll, simplified=True)
# => frozenset()

# %%
# Lost at once: there is no lever 10. Again, with another seed:
rng = make_rng(3)
roll = dice_roll(rng)
roll
# => 5

# %%
(box,) = possible_moves(box, roll, simplified=True)
sorted(box)
# => [2, 3, 4, 6, 7, 8, 9]

# %%
roll = dice_roll(rng)
roll
# => 7

# %%
(box,) = possible_moves(box, roll, simplified=True)
sorted(box)
# => [2, 3, 4, 6, 8, 9]

# %%
roll = dice_roll(rng)
roll
# => 6

# %%
(box,) = possible_moves(box, roll, simplified=True)
sorted(box)
# => [2, 3, 4, 8, 9]

# %%
roll = dice_roll(rng)
roll
# => 8

# %%
(box,) = possible_moves(box, roll, simplified=True)
sorted(box)
# => [2, 3, 4, 9]

# %%
# Another 8: its lever is down now, so the set of moves is empty and the game is lost.
roll = dice_roll(rng)
roll
# => 8

# %%
possible_moves(box, roll, simplified=True)
# => frozenset()
