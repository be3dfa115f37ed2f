# Multi-pile Nim (the Q-learning project's rules): piles [1, 3, 5, 7], a move takes any number
# from one pile, whoever takes the last object loses. Bouton's theory says who wins; every agent
# of the notebook plays it too. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from functools import partial

from fnmcts import theory
from fnmcts.agents import exact_agent, montecarlo_perfect_agent, perfect_agent, random_agent
from fnmcts.exact import best_moves, solve
from fnmcts.games import Piles
from fnmcts.games.piles import nim_sum, piles_winner, piles_winning_moves
from fnmcts.matches import play_game, tournament

game = Piles((1, 3, 5, 7), misere=True)
state = game.start()

# %%
# A move is (pile, count). From [2, 1, 0, 0] the source lists {(0, 1), (1, 1), (0, 2)}.
game.possible_moves(game.state((2, 1, 0, 0)))
# => ((0, 1), (0, 2), (1, 1))

# %%
# The nim-sum of [1, 3, 5, 7] is 0: the player to move loses, misère or normal.
nim_sum(state["piles"]), theory.winner(game, state), piles_winner((1, 3, 5, 7), misere=False)
# => (0, 'other', 'other')

# %%
# Bouton's misère rule differs from normal play only near the end, when every pile is 0 or 1
# after the move: from [1, 1, 4] misère cuts the 4 to 1, normal play empties it.
piles_winning_moves((1, 1, 4), misere=True), piles_winning_moves((1, 1, 4), misere=False)
# => (((2, 3),), ((2, 4),))

# %%
# The closed form agrees with the exact solver on every state of the game.
solution = solve(game)
all(
    theory.winning_moves(game, s) == (best_moves(game, solution, s) if theory.mover_wins(game, s) else ())
    for s in solution
    if game.to_move(s) is not None
)
# => True

# %%
len(solution)
# => 752

# %%
# A game between a random first player and a perfect second player.
play_game(game, random_agent, perfect_agent, seed=3, verbose=True).transcript[-3:]
# => ('Player 2 takes 4 object(s) from pile 3. Piles: 1 0 0 0.', 'Player 1 takes 1 object(s) from pile 0. Piles: 0 0 0 0.', 'Player 2 wins!')

# %%
# Tournaments: perfect play as the second player wins every game; Monte Carlo with
# perfect-opponent rollouts plays piles as well.
tournament(game, random_agent, perfect_agent, 100, seed=4).summary()
# => 'Player 1 wins 0 games. Player 2 wins 100 games.'

# %%
tournament(game, random_agent, partial(montecarlo_perfect_agent, trials=100), 10, seed=5).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, exact_agent, perfect_agent, 20, seed=6).summary()
# => 'Player 1 wins 0 games. Player 2 wins 20 games.'
