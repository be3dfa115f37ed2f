# Q-learning: the Nim AI that teaches itself by playing against itself.
# The source's NimAI as an immutable value and pure functions over a persistent Q table.
# Run it, or paste it into a REPL line by line: every result shown is the real one.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
import tempfile
from collections import Counter
from pathlib import Path

from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.qlearning import (
    best_future_reward,
    choose_action,
    evaluate,
    get_q_value,
    optimal_move_rate,
    q_agent,
    train_game,
    update,
    update_q_value,
)
from fnmcts.io import save_ai
from fnmcts.rng import make_rng
from fnmcts.tutorial import load_ai, new_ai, train  # the source's defaults: piles 1, 3, 5, 7

# %%
# Step 1: the game. Piles [1, 3, 5, 7]; a move takes objects from one pile; whoever
# removes the last object loses. An action is (pile, count).
game = Piles((1, 3, 5, 7))
game.possible_moves(game.state((2, 1, 0, 0)))
# => ((0, 1), (0, 2), (1, 1))

# %%
# Step 2: a new AI (the source's NimAI()): an empty Q table, alpha 0.5, epsilon 0.1.
ai = new_ai(game)
len(ai.q), ai.alpha, ai.epsilon
# => (0, 0.5, 0.1)

# %%
# Step 3: get_q_value. The table is keyed by (state as a tuple of pile sizes, action);
# a pair it does not know is worth 0.
get_q_value(ai, (0, 0, 0, 2), (3, 2))
# => 0

# %%
# Step 4: update_q_value: old + alpha * ((reward + future) - old). Taking both objects
# of the last pile loses: reward -1, no future. The result is a new AI; `ai` is unchanged.
ai2 = update_q_value(ai, (0, 0, 0, 2), (3, 2), 0, -1, 0)
get_q_value(ai2, (0, 0, 0, 2), (3, 2)), get_q_value(ai, (0, 0, 0, 2), (3, 2))
# => (-0.5, 0)

# %%
# Step 5: best_future_reward: the best Q value over the possible actions, with 0 for
# the ones the table does not know ((3, 1) here), and 0 when there is no action.
best_future_reward(ai2, (0, 0, 0, 2)), best_future_reward(ai2, (0, 0, 0, 0))
# => (0, 0)

# %%
# Step 6: choose_action. Greedy: the action with the highest Q value...
choose_action(ai2, (0, 0, 0, 2), epsilon=False)
# => (3, 1)

# %%
# ...epsilon-greedy: a random action with probability epsilon (the rng is explicit),
# so the losing (3, 2) still comes up: 1,000 * 0.1 / 2 = 50 times expected, give or take 7.
rng = make_rng(1)
sorted(Counter(choose_action(ai2, (0, 0, 0, 2), rng) for _ in range(1000)).items())
# => [((3, 1), 967), ((3, 2), 33)]

# %%
# Step 7: update, as in the source: old value, best future reward of the next state
# the same player faces, then update_q_value. (3, 1) at (0, 0, 0, 2) leaves the
# opponent the last object: it makes the other player lose, reward +1.
ai3 = update(ai2, (0, 0, 0, 2), (3, 1), (0, 0, 0, 0), 1)
get_q_value(ai3, (0, 0, 0, 2), (3, 1))
# => 0.5

# %%
# Step 8: one game of self-play (the body of the source's train loop): each player's
# last state and action are remembered and updated as the game goes on and at its end.
one = train_game(new_ai(game), make_rng(1))
len(one.q)
# => 15

# %%
# Step 9: train(n): n games of self-play from a seed. The trained AI is a value.
ai = train(10_000, seed=1)
len(ai.q)
# => 2562

# %%
# Step 10: how good is it? The exact solver knows the best moves: in how many of the
# reachable winning states does the greedy action win?
optimal_move_rate(ai)
# => Fraction(333, 335)

# %%
# The learning curve: more games, better play.
[round(float(optimal_move_rate(train(n, seed=1))), 3) for n in (100, 1_000, 10_000)]
# => [0.203, 0.594, 0.994]

# %%
# Step 11: play (the source's play(ai)): the AI as an agent (game, state, rng) -> move.
agent = q_agent(ai)
move = agent(game, game.start(), make_rng(1))
game.describe_move(game.start(), move)
# => 'take 3 from pile 3'

# %%
# Step 12: win rates, 1,000 games on each side. Misère [1, 3, 5, 7] is lost for the
# first player under perfect play, so against the perfect player 0.5 is the best rate.
report = evaluate(ai, games=1000, seed=1)
report["win_rate_vs_random"], report["win_rate_vs_perfect"]
# => (1.0, 0.5)

# %%
# Step 13: any two-player game of the protocol, the single heap too (the key is (heap,)).
nim_ai = train(3_000, seed=2, game=Nim(heap=21, max_take=3))
sorted(nim_ai.q)[:3]
# => [((1,), 1), ((2,), 1), ((2,), 2)]

# %%
optimal_move_rate(nim_ai)
# => Fraction(1, 1)

# %%
# Step 14: save the Q table as JSON (versioned, written atomically) and load it back.
folder = tempfile.TemporaryDirectory()
path = save_ai(ai, Path(folder.name) / "piles.json")
load_ai(path) == ai
# => True

# %%
folder.cleanup()

# %%
# The picture: `fnmcts plot piles --what qlearning -o q.png` draws the optimal-move share
# against training games, on a log scale. Its data, at three checkpoints (the tutorial's
# `qlearning_data`):
from fnmcts.plots import qlearning_data
[(p.games, round(p.optimal, 3)) for p in qlearning_data(1_000, seed=1, points=3)]
# => [(10, 0.158), (100, 0.203), (1000, 0.594)]
