# Task 4: the simplified game. The roll's lever goes down if it is up; otherwise the game is lost.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import possible_moves, sample_box

# %%
# possible-moves returns a set: one box...
possible_moves(sample_box, 9, simplified=True) == {sample_box - {9}}
# => True

# %%
# ...or no box at all: the 6 lever is already down, so rolling a 6 loses.
possible_moves(sample_box, 6, simplified=True)
# => frozenset()

# %%
# There is no lever 10, 11 or 12: those rolls lose too.
possible_moves(sample_box, 11, simplified=True)
# => frozenset()

# %%
# A sequence of rolls that wins from the simplified start (lever 1 already down)...
from fnmcts.games.shut_the_box import simplified_start_box

box = simplified_start_box
for roll in [7, 2, 9, 3, 8, 4, 6, 5]:
    (box,) = possible_moves(box, roll, simplified=True)

box
# => frozenset()

# %%
# ...and one that loses: the second 7 finds the 7 lever down.
box = simplified_start_box
(box,) = possible_moves(box, 7, simplified=True)
possible_moves(box, 7, simplified=True)
# => frozenset()
