# Nim, part 4 (the notebook): Monte Carlo tree search. Each player picks moves by UCB in
# its own interest; the move played is the root move explored most. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import (
    exact_agent,
    mcts_agent,
    montecarlo_agent,
    montecarlo_perfect_agent,
    perfect_agent,
    random_agent,
)
from fnmcts.games import Nim
from fnmcts.mcts import mcts_move
from fnmcts.matches import play_game, tournament
from fnmcts.rng import make_rng
from functools import partial

game = Nim(heap=21, max_take=3, misere=True)
rng = make_rng(2024)

# %%
# One search from 6 matchsticks: 500 iterations (the notebook's MCTSAgent), UCB1 with c = 1.
found = mcts_move(game, game.state(6), 500, rng, c=1.0, solver=False)
found.move
# => 1

# %%
# The root's children: (move, record of wins and losses for the player who moved there).
[(move, dict(rec)) for move, rec in found.children]
# => [(1, {'win': 477, 'loss': 6}), (2, {'win': 0, 'loss': 6}), (3, {'win': 3, 'loss': 7})]

# %%
# The search is a value: the tree it returns is an immutable map, state -> record
# (a Tree: equal to the pmap of its items, printed as one line with its size and root).
type(found.tree).__name__, len(found.tree)
# => ('Tree', 12)

# %%
# MCTSAgent: 500 iterations a move, as in the notebook.
mcts500 = mcts_agent(500, c=1.0, solver=False)
tournament(game, random_agent, mcts500, 10, seed=30).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'
tournament(game, mcts500, random_agent, 10, seed=31).summary()
# => 'Player 1 wins 10 games. Player 2 wins 0 games.'
tournament(game, perfect_agent, mcts500, 10, seed=32).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'
tournament(game, mcts500, perfect_agent, 10, seed=33).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
# Against flat Monte Carlo and Monte Carlo with perfect-opponent rollouts.
montecarlo = partial(montecarlo_agent, trials=1000)
mc_perfect = partial(montecarlo_perfect_agent, trials=1000)
tournament(game, montecarlo, mcts500, 10, seed=34).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'
tournament(game, mcts500, montecarlo, 10, seed=35).summary()
# => 'Player 1 wins 10 games. Player 2 wins 0 games.'
tournament(game, mc_perfect, mcts500, 10, seed=36).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
# From 22 matchsticks the first player can win (take 1). Ten seeds: 500 plain iterations find
# it, and so does the default agent (UCB1, MCTS-Solver: proven wins and losses propagate).
[mcts500(game, game.state(22), make_rng(seed)) for seed in range(10)]
# => [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
default = mcts_agent(3000)
[default(game, game.state(22), make_rng(seed)) for seed in range(10)], exact_agent(game, game.state(22))
# => ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 1)

# %%
# A whole game of the default MCTS against perfect play from the winning heap 22.
play_game(Nim(heap=22, max_take=3), default, perfect_agent, seed=37, verbose=True).transcript[-3:]
# => ('Player 1 takes 2 matchstick(s). There are 1 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 0 matchstick(s) remaining.',
#    'Player 1 wins!')
