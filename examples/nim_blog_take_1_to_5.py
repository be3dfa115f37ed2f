# The blog post "MCTS for Nim": one pile of stones, players A and B take 1-5 in turn, whoever
# takes the last stone wins, A starts. Closed form: B wins exactly when the pile is a multiple
# of 6. The post's mcts(init_state, iter_max, explore_weight, rnd) takes its random.Random
# explicitly, as every search in fnmcts does. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
import math
import random

from fnmcts.exact import evaluate_policy, random_policy
from fnmcts.games import Nim
from fnmcts.games.nim import subtraction_winner, subtraction_winning_moves
from fnmcts.mcts import mcts_move

MAX_TAKEN = 5
game = Nim(heap=40, max_take=MAX_TAKEN, misere=False)

# %%
# Who wins from 1..18 stones, by the closed form: multiples of 6 lose for the player to move.
[n for n in range(1, 19) if subtraction_winner(n, MAX_TAKEN, misere=False) == "other"]
# => [6, 12, 18]

# %%
# The winning move restores a multiple of 6.
subtraction_winning_moves(20, MAX_TAKEN, misere=False)
# => (2,)

# %%
# One search: 1,000 iterations, UCB1 with explore weight sqrt(2), an explicit rnd.
rnd = random.Random(0)
found = mcts_move(game, game.state(20), 1000, rnd, c=math.sqrt(2))
found.move
# => 2

# %%
# By default the search is an MCTS-Solver: it proved the state after taking 2 won for the
# player who took (payoffs (1, -1): the first player, A, wins), and stopped spending
# iterations once the answer was known.
found.proven[game.play(game.state(20), 2)], len(found.proven)
# => ((Fraction(1, 1), Fraction(-1, 1)), 33)

# %%
# Without the solver, as in the post, the visits concentrate on the winning move.
plain = mcts_move(game, game.state(20), 1000, random.Random(0), solver=False)
plain.move, [(move, rec["win"] + rec["loss"]) for move, rec in plain.children]
# => (2, [(1, 20), (2, 920), (3, 21), (4, 24), (5, 14)])

# %%
# Same rnd seed, same search.
mcts_move(game, game.state(20), 1000, random.Random(0)) == mcts_move(game, game.state(20), 1000, random.Random(0))
# => True

# %%
# The post found that a poor simulation weakens the search. Random simulations alone are a
# weak guide here: the exact value of random play after each first move from 20 stones.
after = {m: game.play(game.state(20), m) for m in game.possible_moves(game.state(20))}
values = evaluate_policy(game, random_policy, *after.values(), opponent=random_policy)
{m: round(float((values[s][0] + 1) / 2), 3) for m, s in after.items()}
# => {1: 0.501, 2: 0.5, 3: 0.496, 4: 0.497, 5: 0.499}

# %%
# Flat Monte Carlo with infinitely many random simulations would pick the best of those;
# from how many winning piles of 1..40 is that the winning move?
def flat_limit_move(n):
    kids = {m: game.play(game.state(n), m) for m in game.possible_moves(game.state(n))}
    v = evaluate_policy(game, random_policy, *kids.values(), opponent=random_policy)
    return max(kids, key=lambda m: v[kids[m]][0])

winning = [n for n in range(1, 41) if n % 6]
sum(flat_limit_move(n) == n % 6 for n in winning), len(winning)
# => (15, 34)

# %%
# The tree search, with the same random simulations, builds its own opponent model and finds
# the winning move from every winning pile at 1,000 iterations.
sum(mcts_move(game, game.state(n), 1000, random.Random(n)).move == n % 6 for n in winning)
# => 34
