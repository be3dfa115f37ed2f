# Task 13: the table of optimal moves: for every box and roll, the levers to flip.
# On the command line: fnmcts table shut-the-box -o best-moves.txt
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fractions import Fraction

from fnmcts.exact import evaluate_policy
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.tables import TIE_RULE, best_move_table, format_best_move_table, parse_best_move_table

# %%
# One row per box with a lever up (511) and roll (11).
table = best_move_table()
len(table)
# => 5621

# %%
# The start box and a roll of 11: flip 2 and 9, winning with probability 0.0727 afterwards.
row = table[(start_box, 11)]
row.flip, float(row.probability), row.ties
# => ((2, 9), 0.07270071122076581, 1)

# %%
# No levers add up to the roll: no move ("x" in the table), probability 0.
row = table[(frozenset({8, 9}), 7)]
row.flip, row.move, row.probability
# => ((), None, Fraction(0, 1))

# %%
# Ties: two moves can be exactly as good; the table keeps the first in the stable move order.
TIE_RULE
# => 'ties: the first optimal move in the stable move order (fewest levers, then lowest levers)'

# %%
tied = sorted((r for r in table.values() if r.ties > 1), key=lambda r: (len(r.box), sorted(r.box), r.roll))
len(tied)
# => 39

# %%
# The smallest: box {1, 2, 3} and a roll of 3. Flipping 3 leaves {1, 2}, flipping 1+2 leaves {3};
# either way only a roll of 3 (2/36) wins next. The table flips the 3 (one lever before two).
first = tied[0]
sorted(first.box), first.roll, first.flip, first.probability, first.ties
# => ([1, 2, 3], 3, (3,), Fraction(1, 18), 2)

# %%
# As plain text, with the tie rule in a comment and a header row, ready to save.
text = format_best_move_table(table)
text.splitlines()[2:5]
# => ['box        roll  flip     leaves    probability   fraction              ties', '123456789  2     2        13456789  0.0451898246  24592103/544195584    1', '123456789  3     3        12456789  0.0510682121  6175799/120932352     1']

# %%
# Read back: the same table.
parse_best_move_table(text) == table
# => True

# %%
# Following the table is optimal play: its exact value is the optimum of task 12.
def follow_table(game, state):
    return ((table[(state["box"], state["roll"])].move, Fraction(1)),)

float(evaluate_policy(ShutTheBox(), follow_table)[start_box][0])
# => 0.07143162230560597
