# Nim, part 2 (the notebook): flat Monte Carlo. Try each move, play the rest of the game
# at random many times, keep the move with the best average. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import montecarlo_agent, perfect_agent, random_agent, win_rates
from fnmcts.exact import evaluate_policy, random_policy, solve, best_moves
from fnmcts.games import Nim
from fnmcts.matches import tournament
from fnmcts.rng import make_rng
from functools import partial

game = Nim(heap=21, max_take=3, misere=True)
rng = make_rng(2024)

# %%
# The notebook's example: 6 matchsticks left. The right move is 1 (leave 5 = 1 mod 4).
best_moves(game, solve(game, game.state(6)), game.state(6))
# => (1,)

# %%
# randomrollout: after each move, 1,000 random games; the fraction the mover wins.
win_rates(game, game.state(6), rng, trials=1000)
# => ((1, 0.558), (2, 0.333), (3, 0.511))

# %%
# What infinitely many rollouts would say: the exact value of random play after each move.
# Random opponents blunder, so taking 2 or 3 looks nearly as good as taking 1.
after = {m: game.play(game.state(6), m) for m in (1, 2, 3)}
exact = evaluate_policy(game, random_policy, *after.values(), opponent=random_policy)  # both sides at random
{m: round(float((exact[s][0] + 1) / 2), 4) for m, s in after.items()}
# => {1: 0.5556, 2: 0.3333, 3: 0.5}

# %%
# MonteCarloAgent: the move with the best win rate (1,000 rollouts a move, as in the notebook).
montecarlo = partial(montecarlo_agent, trials=1000)
montecarlo(game, game.state(6), rng)
# => 1

# %%
# From 21 (a lost start) and 22 (a won one): far from the end, random rollouts blur the values.
win_rates(game, game.state(22), rng, trials=1000)
# => ((1, 0.501), (2, 0.528), (3, 0.506))

# %%
# The notebook's tournaments (10 games each; 4 for Monte Carlo against itself).
tournament(game, montecarlo, montecarlo, 4, seed=15).summary()
# => 'Player 1 wins 3 games. Player 2 wins 1 game.'

# %%
tournament(game, random_agent, montecarlo, 10, seed=16).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, montecarlo, random_agent, 10, seed=17).summary()
# => 'Player 1 wins 9 games. Player 2 wins 1 game.'

# %%
# Against a perfect player, Monte Carlo loses as the notebook found.
tournament(game, perfect_agent, montecarlo, 10, seed=18).summary()
# => 'Player 1 wins 10 games. Player 2 wins 0 games.'

# %%
tournament(game, montecarlo, perfect_agent, 10, seed=19).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'
