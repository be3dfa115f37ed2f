# Task 9: Shut the Box with user control. The terminal game is `fnmcts play shut-the-box`;
# here its pure parts are walked through one turn at a time, with the player's typing scripted.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import (
    ShutTheBox, dice_roll, format_choices, make_rng, parse_choice, render_box, start_box,
)
from fnmcts.tables import choice_hints, optimal_play_table, random_play_table

game = ShutTheBox()
rng = make_rng(10)

# %%
# First, display the current box and the dice roll.
roll = dice_roll(rng)
render_box(start_box), roll
# => ('1 2 3 4 5 6 7 8 9', 7)

# %%
# Second, prompt with the available choices (the game's stable move order).
state = game.play(start_box, roll)
moves = game.possible_moves(state)
format_choices([game.describe_move(state, m) for m in moves])
# => ('  1) flip 7', '  2) flip 1 6', '  3) flip 2 5', '  4) flip 3 4', '  5) flip 1 2 4')

# %%
# Ask the player to choose one (by number). Text, an empty line or a number out of range is refused
# with a message (the terminal loop shows it and prompts again).
def attempt(text):
    try:
        return parse_choice(text, len(moves))
    except ValueError as error:
        return str(error)

[attempt(text) for text in ["two", "", "7", " 3 "]]
# => ["please type a number from 1 to 5, not 'two'", 'please type a number from 1 to 5', '7 is not a choice: please type a number from 1 to 5', 2]

# %%
# Use that choice and proceed: the move is the box it leads to.
box = game.play(state, moves[2])
render_box(box)
# => '1 _ 3 4 _ 6 7 8 9'

# %%
# Task 10's hint: each choice's exact probability of winning by random play afterwards.
roll = dice_roll(rng)
state = game.play(box, roll)
labels = [game.describe_move(state, m) for m in game.possible_moves(state)]
format_choices(labels, [p for _, p in choice_hints(random_play_table(), box, roll)])
# => ('  1) flip 7    win 0.0286', '  2) flip 1 6  win 0.0161', '  3) flip 3 4  win 0.0138')

# %%
# Task 12's hint: the same choices under optimal play afterwards. The order of
# "flip 1 6" and "flip 3 4" changes: random-play hints can mislead.
format_choices(labels, [p for _, p in choice_hints(optimal_play_table(), box, roll)])
# => ('  1) flip 7    win 0.0437', '  2) flip 1 6  win 0.0172', '  3) flip 3 4  win 0.0186')

# %%
# The whole loop, `fnmcts play`'s one loop for every game, takes its input and output as
# functions, so a script can play it. The box comes from the game's `render`, the end from its
# `end_text`; the dice are drawn from the generator.
from fnmcts.cli.play import interactive_game

answers = iter(["1"] * 20)
shown = []
summary = interactive_game(game, None, make_rng(10), human=0, read=lambda prompt: next(answers), write=shown.append)
summary
# => {'games': 1, 'wins': 0, 'losses': 1, 'stopped': None}

# %%
shown[:3]
# => ['box   1 2 3 4 5 6 7 8 9   roll 7', '  1) flip 7', '  2) flip 1 6']

# %%
# End of input stops the game cleanly; the summary says so.
def no_more_input(prompt):
    raise EOFError

interactive_game(game, None, make_rng(9), human=0, read=no_more_input, write=shown.append)
# => {'games': 0, 'wins': 0, 'losses': 0, 'stopped': 'end of input'}
