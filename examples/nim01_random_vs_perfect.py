# Nim, part 1 (the notebook): N matchsticks, take 1..K, whoever takes the last one loses.
# Game, Tournament, RandomAgent and PerfectAgent. Every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import perfect_agent, random_agent
from fnmcts.games import Nim
from fnmcts.games.nim import subtraction_winner, subtraction_winning_moves
from fnmcts.matches import play_game, tournament
from fnmcts.rng import make_rng

# %%
# The game is a value: 21 matchsticks, take 1-3, taking the last loses (misère).
game = Nim(heap=21, max_take=3, misere=True)
game
# => Nim(heap=21, max_take=3, misere=True)

# %%
# A state is an immutable map: the matchsticks left and the player to move (0 or 1).
state = game.start()
state["heap"], state["player"], game.possible_moves(state)
# => (21, 0, (1, 2, 3))

# %%
# Moves return new states; the old one is untouched.
after = game.play(state, 3)
after["heap"], after["player"], state["heap"]
# => (18, 1, 21)

# %%
# RandomAgent: a plain function (game, state, rng) -> move. Randomness comes in as rng.
rng = make_rng(2024)
[random_agent(game, state, rng) for _ in range(10)]
# => [2, 3, 1, 3, 2, 3, 1, 1, 3, 2]

# %%
# PerfectAgent: "if can make it 1 mod (K+1), then do so", else a random move.
# From 22 it takes 1 (leaving 21 = 1 mod 4); from 21 there is no such move.
perfect_agent(game, game.state(22), rng), subtraction_winning_moves(21, 3, misere=True)
# => (1, ())

# %%
# Game(RandomAgent, PerfectAgent, 21, 3): the record carries the notebook's transcript.
record = play_game(game, random_agent, perfect_agent, seed=6, verbose=True)
record.transcript
# => ('Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 17 matchstick(s) remaining.',
#    'Player 1 takes 3 matchstick(s). There are 14 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 13 matchstick(s) remaining.',
#    'Player 1 takes 2 matchstick(s). There are 11 matchstick(s) remaining.',
#    'Player 2 takes 2 matchstick(s). There are 9 matchstick(s) remaining.',
#    'Player 1 takes 1 matchstick(s). There are 8 matchstick(s) remaining.',
#    'Player 2 takes 3 matchstick(s). There are 5 matchstick(s) remaining.',
#    'Player 1 takes 1 matchstick(s). There are 4 matchstick(s) remaining.',
#    'Player 2 takes 3 matchstick(s). There are 1 matchstick(s) remaining.',
#    'Player 1 takes 1 matchstick(s). There are 0 matchstick(s) remaining.',
#    'Player 2 wins!')

# %%
# The notebook's Game returns player 1's reward: -1, player 2 won.
record.reward, record.winner
# => (-1, 2)

# %%
# Game(PerfectAgent, RandomAgent, 21, 3): 21 is a lost start, but a random opponent slips.
record = play_game(game, perfect_agent, random_agent, seed=7, verbose=True)
record.transcript[-3:]
# => ('Player 1 takes 2 matchstick(s). There are 1 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 0 matchstick(s) remaining.',
#    'Player 1 wins!')

# %%
# Tournament(100, RandomAgent, RandomAgent, 21, 3): about even.
tournament(game, random_agent, random_agent, 100, seed=8).summary()
# => 'Player 1 wins 50 games. Player 2 wins 50 games.'

# %%
# Tournament(100, RandomAgent, PerfectAgent, 21, 3): the perfect second player always wins.
tournament(game, random_agent, perfect_agent, 100, seed=9).summary()
# => 'Player 1 wins 0 games. Player 2 wins 100 games.'

# %%
# Tournament(100, PerfectAgent, RandomAgent, 21, 3): nearly always, from a lost start.
tournament(game, perfect_agent, random_agent, 100, seed=10).summary()
# => 'Player 1 wins 100 games. Player 2 wins 0 games.'

# %%
# Perfect against perfect: 21 = 1 mod 4 loses for the first player, 22 wins.
tournament(game, perfect_agent, perfect_agent, 100, seed=11).summary()
# => 'Player 1 wins 0 games. Player 2 wins 100 games.'

# %%
tournament(Nim(heap=22, max_take=3), perfect_agent, perfect_agent, 100, seed=11).summary()
# => 'Player 1 wins 100 games. Player 2 wins 0 games.'

# %%
# The closed form says who wins from any heap: the player to move loses exactly at 1 mod (K+1).
[n for n in range(1, 30) if subtraction_winner(n, 3, misere=True) == "other"]
# => [1, 5, 9, 13, 17, 21, 25, 29]

# %%
# Same seed, same games.
tournament(game, random_agent, random_agent, 100, seed=8) == tournament(game, random_agent, random_agent, 100, seed=8)
# => True
