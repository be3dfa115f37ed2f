# Task 12: the full tree. 2^9 boxes x 11 rolls is small: solve the game exactly.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from pyrsistent import pmap

from fnmcts.exact import evaluate_policy, random_policy, solve
from fnmcts.games.shut_the_box import ShutTheBox, ordered_moves, start_box
from fnmcts.rng import DICE_PROBABILITIES
from fnmcts.tables import build_tree, optimal_play_table

# %%
# The tree is a DAG: a box's children are its 11 (box, roll) nodes, a (box, roll)'s children
# the boxes its moves lead to; each node is computed once, however it is reached.
tree = build_tree()
len(tree)
# => 6133

# %%
# Leaves: an empty box is a win (1); a roll with no move is a loss (0).
tree[frozenset()], tree[pmap({"box": frozenset({8, 9}), "roll": 7})]
# => (Fraction(1, 1), Fraction(0, 1))

# %%
# A (box, roll) node is worth its best child ...
node = pmap({"box": start_box, "roll": 7})
[(sorted(start_box - m), round(float(tree[m]), 4)) for m in ordered_moves(start_box, 7)]
# => [([7], 0.0713), ([1, 6], 0.0372), ([2, 5], 0.0386), ([3, 4], 0.0376), ([1, 2, 4], 0.0166)]

# %%
tree[node] == max(tree[m] for m in ordered_moves(start_box, 7))
# => True

# %%
# ... and a box the sum of its 11 rolls weighted by their probabilities (a 4 is 3/36).
dict(DICE_PROBABILITIES)[4]
# => Fraction(1, 12)

# %%
tree[start_box] == sum(p * tree[pmap({"box": start_box, "roll": r})] for r, p in DICE_PROBABILITIES)
# => True

# %%
# The probability of winning from the start box under optimal play, exactly.
tree[start_box], float(tree[start_box])
# => (Fraction(466473281, 6530347008), 0.07143162230560597)

# %%
# Under random play (tasks 8 and 10, which estimate it by simulation), exactly:
random_play = evaluate_policy(ShutTheBox(), random_policy)[start_box][0]
random_play, float(random_play)
# => (Fraction(365353070172711611, 17915176356308582400), 0.02039349559872223)

# %%
# Optimal play wins three and a half times as often.
round(float(tree[start_box] / random_play), 2)
# => 3.5

# %%
# The same values through the generic solver (every game of fnmcts has one).
solve(ShutTheBox())[start_box] == (tree[start_box],)
# => True

# %%
# The simplified game has no choices: optimal and random play agree, 875/4251528.
build_tree(simplified=True)[start_box - {1}]
# => Fraction(875, 4251528)

# %%
# For interactive play with optimal hints (`fnmcts play shut-the-box --hints optimal`),
# each choice shows the optimal table's value of the box it leads to.
optimal = optimal_play_table()
[round(float(optimal[m]), 4) for m in ordered_moves(start_box, 7)]
# => [0.0713, 0.0372, 0.0386, 0.0376, 0.0166]
