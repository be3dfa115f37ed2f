# After task 8: the Monte Carlo lab. Estimate the coin, the darts and Shut the Box better than by plain sampling,
# and check each method by its exact variance.
# Run it, or paste it into a REPL line by line: every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
import random
from fnmcts import lab
from fnmcts.exact import random_policy
from fnmcts.games import Coin, Darts
from fnmcts.games.pig import Pig
from fnmcts.games.shut_the_box import ShutTheBox, largest_first

# %%
# Step 1: task 1's coin. Pair each flip with the other face and no variance is left; with three flips, won on a
# majority of heads, the heads themselves make a control variate that takes out three quarters of it.
lab.exact_variances(Coin()).variances["antithetic"], round(lab.variance_factors(Coin(3))["control"], 2)
# => (0.0, 4.0)

# %%
# Step 2: task 1's darts on a 20 by 20 grid: the exact value is a count (4 times it is 3.16). The squared
# distance from the centre is a control; a near dart paired with a far one an antithetic pair.
game = Darts()
float(game.pi_value()), {m: round(f, 2) for m, f in sorted(lab.variance_factors(game).items())}
# => (3.16, {'antithetic': 1.36, 'control': 2.3, 'plain': 1.0, 'stratified': 1.42, 'stratified (optimal)': 2.09})

# %%
# Step 3: a small box first. Random play from four levers wins this often, exactly:
small = ShutTheBox(levers=4)
exact = lab.exact_variances(small)
round(exact.value, 4), round(exact.variances["plain"], 4)
# => (0.147, 0.1254)

# %%
# Step 4: plain sampling, then the same number of games by each method. Which interval is narrowest?
[(m, round(lab.estimate_with(m, small, 2_000, random.Random(1)).std_error, 4)) for m in lab.METHODS]
# => [('plain', 0.0079), ('antithetic', 0.0081), ('control', 0.0066), ('stratified', 0.0054), ('importance', 0.0059)]

# %%
# Step 5: the exact factors say which narrowing is real: stratifying on the first roll wins here.
{m: round(f, 2) for m, f in sorted(lab.variance_factors(small).items())}
# => {'antithetic': 0.98, 'control': 1.35, 'importance': 1.75, 'plain': 1.0, 'stratified': 2.22, 'stratified (optimal)': 3.29}

# %%
# Step 6: on the tutorial's box winning is rare (about 1 in 50): importance sampling pays 14 times over.
{m: round(f, 2) for m, f in sorted(lab.variance_factors(ShutTheBox(), ("control", "importance")).items())}
# => {'control': 1.69, 'importance': 14.14, 'plain': 1.0}

# %%
# Step 7: a heuristic against random play on the same dice (common random numbers): on four levers they
# mostly play alike, so the variance of the difference almost vanishes.
difference, independent, common = lab.exact_difference_variances(small, largest_first, random_policy)
round(difference, 4), round(independent / common, 2)
# => (0.0005, 532.71)

# %%
# Step 8: stop when you like. The confidence sequence holds at every number of games at once.
record = lab.run_until(small, 0.03, random.Random(8))
record.games, round(record.ci_low, 3), round(record.ci_high, 3)
# => (2012, 0.121, 0.181)

# %%
# Step 9: Pig has no lab hooks: plain sampling works, the other methods say which hook they need.
def needs(method):
    try:
        lab.estimate_with(method, Pig(goal=10), 10, random.Random(1))
    except TypeError as error:
        return str(error)
    return "runs"


needs("plain"), needs("antithetic")
# => ('runs', 'the antithetic method needs the game hook antithetic_outcome(...); Pig(goal=10) has none')
