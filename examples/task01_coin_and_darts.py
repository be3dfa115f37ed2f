# Task 1: Monte Carlo simulation. Flip a coin, then throw darts at a circle.
# Run it, or paste it into a REPL line by line: every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.games import coin, darts
from fnmcts.montecarlo import estimate
from fnmcts.rng import make_rng

# %%
# Step 1: define the game. One trial is one flip; randomness comes in as `rng`.
rng = make_rng(2017)
coin.flip_coin(rng)
# => 'heads'

# %%
# Step 2: define how you win.
coin.is_win("heads"), coin.is_win("tails")
# => (True, False)

# %%
# Step 3: a sequence of outcomes, as the tutorial's (repeatedly 100 flip-coin).
games = [coin.flip_coin(rng) for _ in range(100)]
sum(map(coin.is_win, games))
# => 49

# %%
# Step 4: the probability of winning: successes divided by trials.
sum(map(coin.is_win, games)) / len(games)
# => 0.49

# %%
# The library does steps 3-4 for you, with a 95% interval, from a seed.
record = coin.simulate(100_000, seed=1)
record.estimate, round(record.ci_low, 3), round(record.ci_high, 3)
# => (0.50003, 0.497, 0.503)

# %%
# Darts: x and y are `rand` scaled by 2 and shifted by -1.
darts.throw_dart(rng)
# => (-0.45548157023698277, -0.7237947339529363)

# %%
# You win if the dart lands inside the circle: x^2 + y^2 < 1.
darts.is_win((0.5, 0.5)), darts.is_win((0.9, 0.9))
# => (True, False)

# %%
# The probability of a hit is pi/4: multiply by 4 and see if it looks familiar.
record = darts.simulate(1_000_000, seed=1)
4 * record.estimate
# => 3.142292

# %%
# More trials, a narrower interval for pi.
[round(x, 4) for x in darts.pi_estimate(record)]
# => [3.1423, 3.1391, 3.1455]

# %%
# The same with the generic `estimate`: any trial function and any win test.
estimate(darts.throw_dart, 1_000_000, win=darts.is_win, seed=1) == record
# => True

# %%
# The picture: `fnmcts plot darts -o pi.png` draws the estimate as the darts add up, with its
# 95% band. The data behind it, at three checkpoints:
from fnmcts.plots import pi_data
[(p.n, round(p.estimate, 3), round(p.high - p.low, 3)) for p in pi_data(100_000, seed=1, points=3)]
# => [(10, 2.0, 2.107), (1000, 3.084, 0.208), (100000, 3.139, 0.02)]
