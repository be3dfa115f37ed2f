# Task 10: the look-up table: every box's probability of winning by random play.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games.shut_the_box import all_boxes, start_box
from fnmcts.tutorial import simulate
from fnmcts.tables import lookup_table, random_play_table

# %%
# The probability of winning from a given box, by simulation (task 7's simulate, from any box).
simulate(100_000, seed=10, box=frozenset({2, 3, 5})).estimate
# => 0.12257

# %%
# (a) all the box states: 2^9 of them, as sets of the levers still up.
boxes = all_boxes()
len(boxes), boxes[:4]
# => (512, (frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2})))

# %%
# (b) a map from each box to its probability: here n = 2,000 games per box, each box
# from its own child seed, played by the fast kernel, next to the exact value.
table = lookup_table(2_000, seed=10)
len(table)
# => 512

# %%
entry = table[frozenset({2, 3, 5})]
entry.wins, entry.estimate, entry.exact, float(entry.exact)
# => (239, 0.1195, Fraction(179, 1458), 0.12277091906721536)

# %%
# The start box: its estimate from this table's games beside the exact probability.
start = table[start_box]
start.estimate, round(float(start.exact), 6)
# => (0.0225, 0.020393)

# %%
# Every estimate against its exact value: one 95% interval per box misses now and then
# (about one box in twenty: 26 of 512 expected)...
sum(not e.covers() for e in table.values())
# => 34

# %%
# ... while intervals wide enough for 512 comparisons at once (z = 5.2) all hold.
all(e.covers(z=5.2) for e in table.values())
# => True

# %%
# The exact table alone, as a map box -> Fraction. Only {1} can never be won: two dice never roll 1.
exact = random_play_table()
exact[frozenset({1})], exact[frozenset({7})], sum(1 for p in exact.values() if p == 0)
# => (Fraction(0, 1), Fraction(1, 6), 1)

# %%
# Same seed, same table: it is an immutable value.
lookup_table(2_000, seed=10) == table
# => True
