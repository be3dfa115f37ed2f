# Task 6: play the game automatically: win or loss.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import easy_box, is_win, play_game, simplified_start_box
from fnmcts.rng import make_rng

# %%
# The tutorial's win?: every lever down.
is_win(frozenset()), is_win(easy_box)
# => (True, False)

# %%
# play-game from the simplified start: usually a loss.
rng = make_rng(6)
play_game(simplified_start_box, rng, simplified=True)
# => 'loss'

# %%
# From a box with only the 7 up, a 7 (1 roll in 6) wins: try twenty games.
results = [play_game(easy_box, rng, simplified=True) for _ in range(20)]
results.count("win"), results.count("loss")
# => (4, 16)

# %%
# The chance of seeing at least one win in 20 games: the tutorial says "pretty good (> 97%)"
# (task 6, step 4).
round(1 - (5 / 6) ** 20, 4)
# => 0.9739

# %%
# The same seed replays the same game.
play_game(easy_box, make_rng(42), simplified=True) == play_game(easy_box, make_rng(42), simplified=True)
# => True
