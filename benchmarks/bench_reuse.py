"""What keeping the tree between moves buys: strength at an equal budget a move, and time a move.

The same agent, ``mcts_agent(iterations)`` (a fresh tree each move) against
``mcts_agent(iterations, reuse=True)`` (the tree kept, pruned to the states
still reachable), each with the same dives a move, MCTS-Solver off so that the
budget decides:

- tic-tac-toe against a perfect player, half the games with each side first (losses: lower is better);
- Nim, K = 3, misère, every winning heap N = 2..30 with the agent moving first
  against a perfect player (games won: higher is better; the exact result is a win);
- Shut the Box (the tutorial's rules) played by the agent, its win rate beside
  the exact optimum 0.071432 and random play 0.020393, with 95% Wilson intervals;
- the median time a move, in the same runs.

    python benchmarks/bench_reuse.py

Seeded: the same figures on every run up to the times, which depend on the
machine (shared and noisy: quote the ratios).
"""

from __future__ import annotations

import statistics
import time

from fnmcts.agents import make_agent
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.mcts import mcts_agent
from fnmcts.montecarlo import wilson_interval
from fnmcts.matches import MemoryAgent, agent_move, initial_memory, play_game


class Timed:
    """An agent wrapper that records the seconds of each move (plain or with memory)."""

    def __init__(self, agent):
        self.agent, self.times = agent, []

    def step(self, game, state, rng, memory):
        started = time.perf_counter()
        result = agent_move(self.agent, game, state, rng, memory)
        self.times.append(time.perf_counter() - started)
        return result

    def as_agent(self):
        return MemoryAgent(self.step, initial_memory(self.agent))


def tictactoe(iterations: int, games: int, reuse: bool):
    game = TicTacToe()
    perfect = make_agent("perfect", game=game)
    timed = Timed(mcts_agent(iterations, reuse=reuse, solver=False))
    agent = timed.as_agent()
    losses = 0
    for seed in range(games):
        first = seed % 2 == 0
        record = play_game(game, agent, perfect, seed=seed) if first else play_game(game, perfect, agent, seed=seed)
        losses += record.winner == (2 if first else 1)
    return losses, statistics.median(timed.times)


def nim(iterations: int, seeds: int, reuse: bool):
    wins = played = 0
    times = []
    for heap in range(2, 31):
        game = Nim(heap=heap, max_take=3, misere=True)
        if heap % 4 == 1:
            continue  # a lost position for the first player
        perfect = make_agent("perfect", game=game)
        timed = Timed(mcts_agent(iterations, reuse=reuse, solver=False))
        for seed in range(seeds):
            record = play_game(game, timed.as_agent(), perfect, seed=1000 * heap + seed)
            wins += record.winner == 1
            played += 1
        times.extend(timed.times)
    return wins, played, statistics.median(times)


def shut_the_box(iterations: int, games: int, reuse: bool):
    game = ShutTheBox()
    timed = Timed(mcts_agent(iterations, reuse=reuse, solver=False))
    agent = timed.as_agent()
    wins = sum(play_game(game, agent, agent, seed=seed).winner == 1 for seed in range(games))
    return wins, games, statistics.median(timed.times)


def main(iterations: int = 100, ttt_games: int = 60, nim_seeds: int = 4, stb_games: int = 600) -> None:
    print(f"equal budget: {iterations} dives a move, MCTS-Solver off; fresh tree vs tree kept (reuse=True)")
    rows = []
    for reuse in (False, True):
        name = "kept" if reuse else "fresh"
        losses, t1 = tictactoe(iterations, ttt_games, reuse)
        wins, played, t2 = nim(iterations, nim_seeds, reuse)
        stb, n, t3 = shut_the_box(iterations, stb_games, reuse)
        low, high = wilson_interval(stb, n)
        rows.append((name, losses, t1, wins, played, t2, stb, n, low, high, t3))
        print(
            f"{name:5}  tic-tac-toe vs perfect: {losses}/{ttt_games} lost ({t1 * 1e3:.1f} ms a move)  |  "
            f"Nim N=2..30 winning heaps vs perfect: {wins}/{played} won ({t2 * 1e3:.2f} ms a move)  |  "
            f"Shut the Box: {stb}/{n} won = {stb / n:.4f} [{low:.4f}, {high:.4f}] "
            f"(optimum 0.0714, random 0.0204; {t3 * 1e3:.2f} ms a move)",
            flush=True,
        )
    fresh, kept = rows
    print(
        f"time a move, kept / fresh: tic-tac-toe {kept[2] / fresh[2]:.2f}, Nim {kept[5] / fresh[5]:.2f}, "
        f"Shut the Box {kept[10] / fresh[10]:.2f}"
    )


if __name__ == "__main__":
    main()
