# Task 11: Monte Carlo tree search. Learn a strategy for Shut the Box by diving.
# Run it, or paste it into a REPL line by line: every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from functools import partial

from pyrsistent import pmap

from fnmcts.exact import evaluate_policy, random_policy, solve, value
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.tutorial import uct  # the tutorial's uct(tree, box, rng)
from fnmcts.mcts import record, search, ucb, ucb1, visits, win_rate
from fnmcts.views import backed_up_values, greedy_policy, principal_variation, top_children
from fnmcts.rng import make_rng

game = ShutTheBox()

# %%
# Step 1: a record of wins and losses, the tutorial's {:win 0 :loss 0}.
record(win=23, loss=77)
# => Record(win=23, loss=77)

# %%
# Step 2: the bandits. One lever pulled 100 times won 23; another pulled 10 times won 1.
# ucb rates each by (w + z*sqrt(w*l/n)) / n with z = 2: the second one's bound is wide.
ucb(record(win=23, loss=77)), ucb(record(win=1, loss=9))
# => (0.31416650165000326, 0.28973665961010275)

# %%
# Nine more losses on the second lever and its bound drops far below the first's.
ucb(record(win=1, loss=18))
# => 0.15508721334574474

# %%
# The two special cases: never tried is infinitely attractive; no wins yet, the rule of 3.
ucb(record()), ucb(record(win=0, loss=4))
# => (inf, 0.75)

# %%
# UCB1 is the other rule on offer: mean + c*sqrt(ln N / n), N the parent's visits.
ucb1(record(win=23, loss=77), parent_visits=110), ucb1(record(win=1, loss=9), parent_visits=110)
# => (0.5366098617393908, 1.0695855161657912)

# %%
# Rules are plain functions: configure one with partial.
wide = partial(ucb, z=3)
wide(record(win=23, loss=77))
# => 0.35624975247500484

# %%
# Step 3: uct. The tree is a map from box to record; the first dive meets a new box,
# plays one random game from it and adds it: uct returns [tree result].
rng = make_rng(2017)
tree, result = uct(pmap(), start_box, rng)
result, tree == pmap({start_box: record(win=0, loss=1)}), tree
# => ('loss', True, Tree(1 state, root frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}): Record(win=0, loss=1)))

# %%
# The next dive finds the box in the tree: roll the dice, rate the children, recurse.
tree2, result = uct(tree, start_box, rng)
result, len(tree2), visits(tree2[start_box])
# => ('loss', 2, 2)

# %%
# uct is pure: the tree it was given is unchanged.
visits(tree[start_box])
# => 1

# %%
# Inside one dive: uct is four phases, each a pure function you can call yourself
# (fnmcts.mcts.phases). select walks down the tree: at the start box the dice rolled 5,
# three moves were rated, and the first (flip 5) leads to a box the tree does not know.
from fnmcts.mcts import phases

rng = make_rng(3)
path = phases.select(game, tree2, start_box, rng)
path.end, path.steps[0].outcomes, len(path.steps[0].children), sorted(start_box - path.leaf)
# => ('new', (5,), 3, [5])

# %%
# expand adds that box, simulate plays one random game from it, backup adds the result
# to every box on the path: the tree of the next uct call.
grown = phases.expand(game, tree2, path)
payoff = phases.simulate(game, path.leaf, rng)
tree3 = phases.backup(game, grown, path, payoff)
payoff, len(tree3), visits(tree3[start_box]), tree3[path.leaf]
# => ((0,), 3, 3, Record(win=0, loss=1))

# %%
# Step 4: run it 1000 times, retaining the tree from run to run.
rng = make_rng(2017)
tree = pmap()
for _ in range(1_000):
    tree, result = uct(tree, start_box, rng)

# %%
# The dives' own win rate (the tutorial's measure), and how many boxes the tree knows.
win_rate(tree[start_box]), len(tree)
# => (0.027, 476)

# %%
# Random play wins 2.04% of games, exactly:
float(value(evaluate_policy(game, random_policy), start_box)[0])
# => 0.02039349559872223

# %%
# Step 5: 10,000 dives. `search` runs many dives on a transient copy and freezes the
# result: with the tutorial's rule, the very tree that repeated uct builds, only faster.
tree = search(game, start_box, 9_000, rng, tree=tree, rule=ucb)
win_rate(tree[start_box]), len(tree)
# => (0.0475, 511)

# %%
stepped, rng5 = pmap(), make_rng(5)
for _ in range(300):
    stepped, _ = uct(stepped, start_box, rng5)

search(game, start_box, 300, make_rng(5), rule=ucb) == stepped
# => True

# %%
# Learning has occurred! How much? Read the greedy policy off the tree (at each box and
# roll, the move to the child with the best record) and evaluate it exactly.
greedy = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
optimum = value(solve(game), start_box)[0]
float(greedy), float(optimum), round(float(greedy / optimum), 3)
# => (0.05305640353125252, 0.07143162230560597, 0.743)

# %%
# Step 6: 100,000 dives: the tutorial's rule, how close to the optimum.
tree = search(game, start_box, 90_000, rng, tree=tree, rule=ucb)
greedy = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
win_rate(tree[start_box]), round(float(greedy / optimum), 3)
# => (0.06074, 0.948)

# %%
# What the tree recommends at the start with a roll of 7: moves (the boxes left), records.
[(sorted(start_box - box), visits(rec), round(win_rate(rec), 3)) for box, rec in top_children(game, tree, game.play(start_box, 7), k=3)]
# => [([7], 15786, 0.061), ([2, 5], 1045, 0.035), ([3, 4], 857, 0.04)]

# %%
# The most visited line: the likeliest roll, the most visited move (shown as the levers
# left up), the likeliest roll again, and so on.
[move if isinstance(move, int) else sorted(move) for move, _ in principal_variation(game, tree, start_box)[:4]]
# => [7, [1, 2, 3, 4, 5, 6, 8, 9], 7, [1, 3, 4, 6, 8, 9]]

# %%
# Step 7: doing better. The records are sampled under exploration; the dice
# probabilities are known exactly. Backing the tree's states up with them
# (expectimax) reads off a better policy from the very same tree:
values = backed_up_values(game, tree)
float(value(evaluate_policy(game, greedy_policy(tree, values)), start_box)[0] / optimum)
# => 1.0

# %%
# Or keep that value in every record while searching (backup='expectimax'), with UCB1
# and a small exploration constant: the dives themselves play close to the optimum
# (without the solver, every dive plays a game to its end, so the wins count games).
better = search(game, start_box, 10_000, make_rng(2017), rule=partial(ucb1, c=0.2), backup="expectimax", solver=False)
better[start_box]["win"] / 10_000, round(better[start_box]["value"], 4)
# => (0.0623, 0.0714)

# %%
round(float(value(evaluate_policy(game, greedy_policy(better)), start_box)[0] / optimum), 3)
# => 1.0

# %%
# The picture: `fnmcts plot shut-the-box --rule tutorial --dives 100000 -o mcts.png` draws the
# learning curve of one search beside the exact optimum. The tutorial's own data (with
# random play too), at two checkpoints:
from fnmcts.plots import mcts_data
curve, random_value, optimum = mcts_data(20_000, seed=2017, points=2)
[(p.dives, p.win_rate, round(p.greedy_value, 4)) for p in curve], round(optimum, 4)
# => ([(100, 0.03, 0.0332), (20000, 0.04965, 0.0585)], 0.0714)
