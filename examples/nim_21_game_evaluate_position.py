# The 21 game (the Monte Carlo exercise): one heap of 21, remove 1-3, whoever removes the last
# item WINS. evaluate_position(num_items) plays TRIALS random games after each first move and
# keeps the move that wins most often. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import win_rates
from fnmcts.exact import evaluate_policy, random_policy
from fnmcts.games import Nim
from fnmcts.games.nim import subtraction_winning_moves
from fnmcts.rng import make_rng
from fnmcts.tutorial import MAX_REMOVE, TRIALS, evaluate_position

MAX_REMOVE, TRIALS
# => (3, 10000)

# %%
# The optimal strategy: leave a multiple of 4. From 10, remove 2.
subtraction_winning_moves(10, 3, misere=False), subtraction_winning_moves(21, 3, misere=False)
# => ((2,), (1,))

# %%
# evaluate_position(10) and (21), with the exercise's 10,000 trials a move.
evaluate_position(10, seed=1), evaluate_position(21, seed=1)
# => (2, 3)

# %%
# What it saw at 21: the fraction of random games won after each first move (1 is right).
rng = make_rng(1)
game = Nim(heap=21, max_take=3, misere=False)
win_rates(game, game.start(), rng, trials=TRIALS)
# => ((1, 0.4958), (2, 0.5016), (3, 0.5038))

# %%
# The exercise: "for 1 <= n <= 3 items the move n has a 100% win rate". At 4 (a lost heap)
# taking 1 or 2 each win half of the random games in the limit: a coin toss.
[evaluate_position(n, seed=n) for n in range(1, 5)]
# => [1, 2, 3, 2]

# %%
# "Reliable below 10 items": every winning heap from 1 to 9 gets the optimal move.
[(n, evaluate_position(n, seed=n)) for n in range(1, 10) if n % 4]
# => [(1, 1), (2, 2), (3, 3), (5, 1), (6, 2), (7, 3), (9, 1)]

# %%
# From 14 up it goes wrong. Why? More trials only approach a limit: the exact value of random
# play after each first move. Compute that limit exactly and take its best move.
def limit_move(n):
    g = Nim(heap=n, max_take=3, misere=False)
    after = {m: g.play(g.start(), m) for m in g.possible_moves(g.start())}
    values = evaluate_policy(g, random_policy, *after.values(), opponent=random_policy)
    return max(after, key=lambda m: values[after[m]][0])

# %%
# Winning heaps 2..30: (heap, optimal move, the infinite-trial limit's move).
[(n, n % 4, limit_move(n)) for n in range(2, 31) if n % 4]
# => [(2, 2, 2), (3, 3, 3), (5, 1, 1), (6, 2, 2), (7, 3, 3), (9, 1, 1), (10, 2, 2), (11, 3, 3), (13, 1,
#    1), (14, 2, 1), (15, 3, 2), (17, 1, 3), (18, 2, 1), (19, 3, 1), (21, 1, 3), (22, 2, 1), (23, 3, 1),
#    (25, 1, 3), (26, 2, 3), (27, 3, 1), (29, 1, 2), (30, 2, 3)]

# %%
# The limit is right for every winning heap up to 13 and wrong for every one from 14 to 30:
# no number of trials fixes flat Monte Carlo there.
[n for n in range(2, 31) if n % 4 and limit_move(n) != n % 4]
# => [14, 15, 17, 18, 19, 21, 22, 23, 25, 26, 27, 29, 30]

# %%
# The limit's win rates differ by about 0.001 there, far below the noise of 10,000 trials
# (a standard deviation of 0.005): the sampled choice is close to a coin toss, and wrong in
# the limit. (heap, optimal move, evaluate_position's move) for 14..20:
[(n, n % 4, evaluate_position(n, seed=n)) for n in range(14, 21) if n % 4]
# => [(14, 2, 2), (15, 3, 2), (17, 1, 3), (18, 2, 1), (19, 3, 2)]

# %%
# The picture (the 21 game's, `fnmcts.plots.flat_mc_data`) shows, for every winning heap up to 30,
# how often evaluate_position finds the winning move, with the limit. Its data up to 15
# (`fnmcts plot "nim(heap=21, misere=False)" --what flat-mc -o flat.png` puts MCTS beside it):
from fnmcts.plots import flat_mc_data
[(p.heap, p.right, p.limit_right) for p in flat_mc_data(15, trials=1_000, seeds=5)][-4:]
# => [(11, 0.6, True), (13, 0.4, True), (14, 0.6, False), (15, 0.2, False)]
