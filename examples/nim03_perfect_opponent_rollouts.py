# Nim, part 3 (the notebook): Monte Carlo with a perfect opponent in the rollouts.
# The opponent answers perfectly, we play at random: a move into a lost position never
# wins a rollout, so any winning move scores higher. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import (
    montecarlo_perfect_agent,
    perfect_agent,
    perfect_opponent_rollout,
    random_agent,
    win_rates,
)
from fnmcts.games import Nim
from fnmcts.matches import play_game, tournament
from fnmcts.rng import make_rng
from functools import partial

game = Nim(heap=21, max_take=3, misere=True)
rng = make_rng(2024)

# %%
# perfectrollout: one agent per player; player 0 (the one choosing now) plays at random.
perfect_opponent_rollout(game, 0) == (random_agent, perfect_agent)
# => True

# %%
# At 6 matchsticks: taking 2 or 3 never wins against a perfect reply; taking 1 sometimes does.
win_rates(game, game.state(6), rng, trials=1000, rollout=perfect_opponent_rollout(game, 0))
# => ((1, 0.392), (2, 0.0), (3, 0.0))

# %%
# From 22 the winning move (1) is the only one with wins at all.
win_rates(game, game.state(22), rng, trials=1000, rollout=perfect_opponent_rollout(game, 0))
# => ((1, 0.002), (2, 0.0), (3, 0.0))

# %%
# MonteCarloPerfectOppAgent, 1,000 rollouts a move.
mc_perfect = partial(montecarlo_perfect_agent, trials=1000)
mc_perfect(game, game.state(22), rng)
# => 1

# %%
# The notebook's tournaments.
tournament(game, random_agent, mc_perfect, 10, seed=20).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, mc_perfect, random_agent, 10, seed=21).summary()
# => 'Player 1 wins 10 games. Player 2 wins 0 games.'

# %%
# Against perfect play from 21: whoever moves first loses, both ways round.
tournament(game, perfect_agent, mc_perfect, 10, seed=22).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, mc_perfect, perfect_agent, 10, seed=23).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
# One game against a random player, told move by move.
play_game(game, mc_perfect, random_agent, seed=24, verbose=True).transcript[-4:]
# => ('Player 2 takes 3 matchstick(s). There are 2 matchstick(s) remaining.',
#    'Player 1 takes 1 matchstick(s). There are 1 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 0 matchstick(s) remaining.',
#    'Player 1 wins!')
