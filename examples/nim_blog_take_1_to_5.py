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
from fnmcts.sampling import wilson_interval

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
# => ((Fraction(1, 1), Fraction(-1, 1)), 30)

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

# %%
# The post's experiment. Its simulation step keeps four policies, three commented out:
#     move = max(moves, key=lambda m: m.taken) if rnd.random() > 0.8 else rnd.choice(moves)
#     move = min(moves, key = lambda m: m.taken)
#     move = rnd.choice(moves)                      # the one it runs
#     move = max(moves, key=lambda m: m.taken)
# The same four as fnmcts rollout agents, (game, state, rng) -> move, for `rollout=`.
def mostly_random(game, state, rng):
    moves = game.possible_moves(state)
    return max(moves) if rng.random() > 0.8 else rng.choice(moves)

def take_fewest(game, state, rng):
    return min(game.possible_moves(state))

def random_choice(game, state, rng):
    return rng.choice(game.possible_moves(state))

def take_most(game, state, rng):
    return max(game.possible_moves(state))

POLICIES = {"mostly random": mostly_random, "take fewest": take_fewest, "random": random_choice, "take most": take_most}
# Their first move from 20 stones with random.Random(0):
[policy(game, game.state(20), random.Random(0)) for policy in POLICIES.values()]
# => [5, 1, 4, 5]

# %%
# Each policy drives the search (UCB1 with explore weight sqrt(2); no solver, as in the
# post) at 100 and 300 iterations, from every winning pile of 20 to 29 with seeds 0, 1 and 2:
# (searches that chose the winning move, searches, 95% Wilson interval of the share).
PILES = [n for n in range(20, 30) if n % 6]

def found(policy, iterations):
    hits = sum(mcts_move(game, game.state(n), iterations, random.Random(seed), c=math.sqrt(2), solver=False,
                         rollout=policy).move == n % 6
               for n in PILES for seed in range(3))
    return hits, 3 * len(PILES), tuple(round(x, 2) for x in wilson_interval(hits, 3 * len(PILES)))

table = {name: {iterations: found(policy, iterations) for iterations in (100, 300)} for name, policy in POLICIES.items()}
table
# => {'mostly random': {100: (23, 27, (0.68, 0.94)), 300: (27, 27, (0.88, 1.0))},
#    'take fewest': {100: (21, 27, (0.59, 0.89)), 300: (27, 27, (0.88, 1.0))},
#    'random': {100: (22, 27, (0.63, 0.92)), 300: (27, 27, (0.88, 1.0))},
#    'take most': {100: (27, 27, (0.88, 1.0)), 300: (27, 27, (0.88, 1.0))}}

# %%
# At 300 iterations every policy found the winning move in all 27 searches. At 100, from
# 21 ("take fewest") to 27 ("take most") of 27: the intervals overlap, so 27 searches a cell
# do not rank the policies, and none of them stops this search at 300 iterations. The post
# does not say which policy it found poor, nor its budgets; its own search also differs from
# this one: it backs up one result at every node, from A's side (-100 for a loss, 1 for a
# win), so B's moves are chosen in A's interest. That search is not run here.
# All four policies together at 100 iterations: (found, searches, 95% Wilson interval).
hits = sum(table[name][100][0] for name in POLICIES)
hits, 4 * 3 * len(PILES), tuple(round(x, 2) for x in wilson_interval(hits, 4 * 3 * len(PILES)))
# => (93, 108, (0.78, 0.91))
