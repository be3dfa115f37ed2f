"""Q-learning: training speed against a plain-dict baseline, and the learning curve.

    python benchmarks/run.py qlearning
    python benchmarks/bench_qlearning.py [--games N] [--curve 1000,10000,100000] [--quick] [--json] [--rounds R]

Measured in the same run, on piles [1, 3, 5, 7] (taking the last object loses):

* the baseline: a plain-dict port of the source's ``Nim`` and ``NimAI`` classes
  (mutable lists and a dict, the source's train loop), written out below;
* ``fnmcts.qlearning.train``: the same algorithm over the protocol, returning an
  immutable ``QAI`` (a transient dict inside, frozen into a pmap at the end);
* ``train_game`` step by step: every update returns a new persistent AI.

The three run interleaved, round by round (``benchmarks/harness.py``); each figure is
the median of the rounds; the ratio is the baseline's time over the contender's
(above 1: faster than the baseline).
Then the learning curve: the optimal-move rate (exact solver) after 1,000,
10,000 and 100,000 training games, for a few seeds.
"""

from __future__ import annotations

import statistics
import sys
from functools import reduce

from pyrsistent import pmap

from harness import Bench

from fnmcts.exact import solve
from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.qlearning import QAI, new_ai, optimal_move_rate, train, train_game
from fnmcts.rng import make_rng

PILES = [1, 3, 5, 7]


# -- the baseline: the source's classes, with a plain dict and mutable lists ------


class SourceNim:
    """The source's Nim game: a list of piles, the player to move, the winner."""

    def __init__(self, initial=PILES):
        self.piles = initial.copy()
        self.player = 0
        self.winner = None

    @classmethod
    def available_actions(cls, piles):
        actions = set()
        for i, pile in enumerate(piles):
            for j in range(1, pile + 1):
                actions.add((i, j))
        return actions

    @classmethod
    def other_player(cls, player):
        return 0 if player == 1 else 1

    def switch_player(self):
        self.player = SourceNim.other_player(self.player)

    def move(self, action):
        pile, count = action
        if self.winner is not None:
            raise Exception("Game already won")
        elif pile < 0 or pile >= len(self.piles):
            raise Exception("Invalid pile")
        elif count < 1 or count > self.piles[pile]:
            raise Exception("Invalid number of objects")
        self.piles[pile] -= count
        self.switch_player()
        if all(pile == 0 for pile in self.piles):
            self.winner = self.player


class SourceNimAI:
    """The source's NimAI: a dict ``(tuple(state), action) -> value``."""

    def __init__(self, rng, alpha=0.5, epsilon=0.1):
        self.q = dict()
        self.alpha = alpha
        self.epsilon = epsilon
        self.rng = rng

    def update(self, old_state, action, new_state, reward):
        old = self.get_q_value(old_state, action)
        best_future = self.best_future_reward(new_state)
        self.update_q_value(old_state, action, old, reward, best_future)

    def get_q_value(self, state, action):
        return self.q.get((tuple(state), action), 0)

    def update_q_value(self, state, action, old_q, reward, future_rewards):
        self.q[(tuple(state), action)] = old_q + self.alpha * ((reward + future_rewards) - old_q)

    def best_future_reward(self, state):
        actions = SourceNim.available_actions(state)
        if not actions:
            return 0
        return max(self.get_q_value(state, action) for action in actions)

    def choose_action(self, state, epsilon=True):
        actions = SourceNim.available_actions(state)
        if epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(list(actions))
        best, best_value = None, None
        for action in actions:
            value = self.get_q_value(state, action)
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best


def source_train(n, seed):
    """The source's ``train(n)``: self-play, updating on each move and at the end."""
    player = SourceNimAI(make_rng(seed))
    for _ in range(n):
        game = SourceNim()
        last = {0: {"state": None, "action": None}, 1: {"state": None, "action": None}}
        while True:
            state = game.piles.copy()
            action = player.choose_action(game.piles)
            last[game.player]["state"] = state
            last[game.player]["action"] = action
            game.move(action)
            new_state = game.piles.copy()
            if game.winner is not None:
                player.update(state, action, new_state, -1)
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 1)
                break
            elif last[game.player]["state"] is not None:
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 0)
    return player


# -- measuring -------------------------------------------------------------------------


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--games", type=int, default=10_000)
        parser.add_argument("--curve", default="1000,10000,100000")
        parser.add_argument("--seeds", default="1,2,3")

    bench = Bench("bench_qlearning", __doc__, argv, options=options)
    args = bench.args
    n = bench.size(args.games, 300)
    game = Piles(tuple(PILES))
    solution = solve(game)

    def stepwise():
        rng = make_rng(1)
        return reduce(lambda a, _: train_game(a, rng), range(n), new_ai(game))

    names = ("plain-dict port of the source", "fnmcts.qlearning.train (immutable result)",
             "train_game step by step (persistent)")

    def check(results):
        assert results[names[2]] == results[names[1]], "train and train_game disagree"
        kept.update(results)

    kept = {}
    comparison = bench.compare(
        f"training {n:,} games of self-play on piles {PILES} (misere)",
        dict(zip(names, (lambda: source_train(n, 1), lambda: train(n, seed=1, game=game), stepwise))),
        work=n, unit="games", check=check,
    )
    source_ai, ai = kept[names[0]], kept[names[1]]
    as_qai = QAI(game=game, q=pmap(source_ai.q))
    bench.figure("optimal-move rate of the source port's table", float(optimal_move_rate(as_qai, solution)), "",
                 f"table {len(source_ai.q):,}")
    bench.figure("optimal-move rate of train's table", float(optimal_move_rate(ai, solution)), "", f"table {len(ai.q):,}")
    ratio = comparison["contenders"][1]["ratio"]
    time_ratio = 1 / ratio["median"]
    bench.target("train takes at most 1.5 times the baseline's time", time_ratio <= 1.5,
                 f"{time_ratio:.2f} times; speed ratio {ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")

    sizes = [int(x) for x in args.curve.split(",") if x]
    sizes = bench.size(sizes, sizes[:1] and [min(sizes[0], 300)])
    seeds = [int(x) for x in args.seeds.split(",") if x]
    bench.say(f"\nlearning curve: optimal-move rate (share of {game.piles} winning states where the greedy action is optimal)")
    bench.say("  games      " + "  ".join(f"seed {s:<4d}" for s in seeds) + "  median")
    for size in sizes:
        rates = [float(optimal_move_rate(train(size, seed=s, game=game), solution)) for s in seeds]
        cells = "  ".join(f"{r:9.4f}" for r in rates)
        bench.say(f"  {size:>9,}  {cells}  {statistics.median(rates):.4f}")
        bench.figure(f"optimal-move rate after {size:,} games, median of seeds {seeds}", statistics.median(rates), show=False)

    heap = Nim(heap=21, max_take=3)
    heap_solution = solve(heap)
    bench.say(f"\nthe single heap too: {heap} (misere), optimal-move rate")
    bench.say("  games      " + "  ".join(f"seed {s:<4d}" for s in seeds) + "  median")
    for size in bench.size((10, 30, 100, 1_000), (10,)):
        rates = [float(optimal_move_rate(train(size, seed=s, game=heap), heap_solution)) for s in seeds]
        cells = "  ".join(f"{r:9.4f}" for r in rates)
        bench.say(f"  {size:>9,}  {cells}  {statistics.median(rates):.4f}")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
