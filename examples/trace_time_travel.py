# Watch the search think: keep every dive of MCTS on Shut the Box, then travel in time through it.
# Run it, or paste it into a REPL line by line: every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from functools import partial

from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.mcts import search, ucb1
from fnmcts.views import diff, explore_page, first_difference, trace
from fnmcts.rng import make_rng

game = ShutTheBox()

# %%
# Step 1: a trace is a search that keeps everything: 100 dives from the start box, seed 2017.
t = trace(game, game.start(), 100, make_rng(2017))
t
# => Trace(100 dives of ShutTheBox(levers=9, simplified=False) from the start: Tree(94 states, root frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}): Record(win=3, loss=97)))

# %%
# Its last tree is the tree search grows with the same seed and rule (a trace, like uct, takes the tutorial's rule unless told otherwise), draw for draw.
t.tree() == search(game, game.start(), 100, make_rng(2017), rule='tutorial')
# => True

# %%
# Step 2: time travel. The tree after 10 dives, and after 100.
t.tree(10)
# => Tree(10 states, root frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}): Record(win=0, loss=10))

# %%
t.tree(100)
# => Tree(94 states, root frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}): Record(win=3, loss=97))

# %%
# Step 3: what the 90 dives between them changed, as a value: 84 boxes added, 9 records changed.
change = diff(t.tree(10), t.tree(100))
len(change.added), len(change.changed), len(change.removed)
# => (84, 9, 0)

# %%
# The start box's record then and now: 3 wins came in dives 11 to 100.
change.changed[game.start()]
# => (Record(win=0, loss=10), Record(win=3, loss=97))

# %%
# Nothing was changed in place: the tree of dive 10 is still what it was.
t.tree(10)[game.start()]
# => Record(win=0, loss=10)

# %%
# Step 4: one dive taken apart. Dive 10 rolled a 7 at the start box; none of the five moves
# had been tried, so each rates infinity and the first is taken. The exact value of each
# child (the probability of winning with best play after it) stands beside its rating.
dive = t.dive(10)
dive.lines()[1]
# => 'select 1: at the root, roll 7: the player chooses (mean + bonus = score)'

# %%
dive.lines()[2]
# => '  flip 7      visits 0  mean - + bonus inf = score inf  exact 0.071  <- chosen'

# %%
# The dive added the box {1, 2, 3, 4, 5, 6, 8, 9} and played it out at random: a loss.
dive.path.end, sorted(dive.expanded), dive.payoff
# => ('new', [1, 2, 3, 4, 5, 6, 8, 9], (0,))

# %%
# The records it changed are exactly the states on its path: the new box and the start box.
sorted(sorted(state) for state in dive.changed)
# => [[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 8, 9]]

# %%
# Step 5: the changes of every dive, folded over the first tree, rebuild the last.
rebuilt = dict(t.tree(0))
for k in range(1, len(t) + 1):
    rebuilt.update(t.changes(k))

rebuilt == dict(t.tree())
# => True

# %%
# Step 6: the same seed with UCB1 at c = 0.2 runs the same dives until its ratings first
# choose another child: dive 68.
other = trace(game, game.start(), 100, make_rng(2017), rule=partial(ucb1, c=0.2))
first_difference(t, other)
# => 68

# %%
# Step 7: all of it on one page, to step through in a browser (the same page the command
# `fnmcts explore shut-the-box --dives 100 --seed 2017 --vs-rule ucb1 --vs-c 0.2 -o page.html`
# writes; in Jupyter, `t` alone shows it inline).
page = explore_page(t, other)
page[:15], "<script src" in page
# => ('<!DOCTYPE html>', False)
