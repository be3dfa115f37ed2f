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
- the median time a move, in the same runs;
- the cost of reuse on a game too big to walk: OpenSpiel's connect_four from
  3 random plies in, ``mcts_agent(400)`` a move against
  ``mcts_agent(400, reuse=True)`` a move (the agent against a random player,
  6 of its moves a game, 4 games a round), and the reusing agent's
  ``subtree`` alone (the pruning after its move), in seconds a move and
  times the plain agent's. The target: reuse at most about 1.2x.

    python benchmarks/bench_reuse.py [--iterations N] [--connect-four-only] [--spec SPEC] [--quick] [--json] [--rounds R]

``--spec``: another OpenSpiel game in place of connect_four (``--spec "hex(board_size=5)"``).

Seeded: the same figures on every run up to the times, which depend on the
machine (shared and noisy: quote the ratios). The two agents play in
interleaved rounds (``benchmarks/harness.py``); the rate is moves a second.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.agents import make_agent  # noqa: E402
from fnmcts.games import Nim, ShutTheBox, TicTacToe  # noqa: E402
from fnmcts.mcts import mcts_agent, mcts_move, subtree  # noqa: E402
from fnmcts.montecarlo import wilson_interval  # noqa: E402
from fnmcts.matches import MemoryAgent, agent_move, initial_memory, play_game  # noqa: E402


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
    return losses, timed.times


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
    return wins, played, times


def shut_the_box(iterations: int, games: int, reuse: bool):
    game = ShutTheBox()
    timed = Timed(mcts_agent(iterations, reuse=reuse, solver=False))
    agent = timed.as_agent()
    wins = sum(play_game(game, agent, agent, seed=seed).winner == 1 for seed in range(games))
    return wins, games, timed.times


def connect_four(iterations: int, games: int, moves: int, kind: str, spec: str = "connect_four") -> Measured:
    """``moves`` moves of the agent (``kind``: plain, reuse, or the reusing agent's ``subtree`` timed alone) in
    each of ``games`` games from 3 random plies in, against a random player; its seconds and moves."""
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(spec)
    agent = mcts_agent(iterations, reuse=kind == "reuse")
    seconds = played = 0
    for seed in range(games):
        opening, rng, memory = random.Random(seed), random.Random(1000 + seed), None
        state = game.start()
        for _ in range(3):
            state = game.play(state, opening.choice(list(game.possible_moves(state))))
        for _ in range(moves):
            started = time.perf_counter()
            if kind == "subtree":  # the reusing agent's step, only its pruning timed
                found = mcts_move(game, state, iterations, rng, tree=memory)
                started = time.perf_counter()
                move, memory = found.move, subtree(game, found.tree, game.play(state, found.move))
            else:
                move, memory = agent_move(agent, game, state, rng, memory)
            seconds += time.perf_counter() - started
            played += 1
            state = game.play(state, move)
            if game.to_move(state) is None:
                break
            state = game.play(state, opening.choice(list(game.possible_moves(state))))
            if game.to_move(state) is None:
                break
    return Measured(seconds, played)


def reuse_cost(bench, iterations: int, spec: str = "connect_four") -> None:
    """The connect_four comparison: seconds a move of the plain and the reusing agent, and ``subtree`` alone."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        bench.note("connect_four: OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): not measured")
        return
    games, moves = bench.size(4, 1), bench.size(6, 2)
    compared = bench.compare(
        f"OpenSpiel {spec}, {iterations} dives a move, 3 random plies in: time a move",
        {name: (lambda kind=kind: connect_four(iterations, games, moves, kind, spec)) for name, kind in (
            ("mcts_agent (fresh tree)", "plain"), ("mcts_agent(reuse=True)", "reuse"),
            ("its subtree alone", "subtree"))},
        unit="moves", warmup=0, rounds=bench.args.rounds or bench.size(5, 2),
    )
    for row in compared["contenders"]:
        bench.figure(f"{row['name']}: seconds a move", round(1 / row["rate"], 4), "s", "median of the rounds")
    slowdown = bench.times_the_baseline(compared, "the fresh tree's move")
    bench.target("reuse at most about 1.2x the plain agent's time a move", slowdown <= 1.2,
                 f"{slowdown:.2f}x, median of the per-round ratios")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=100)
        parser.add_argument("--connect-four-iterations", type=int, default=400)
        parser.add_argument("--connect-four-only", action="store_true", help="only the connect_four time a move")
        parser.add_argument("--spec", default="connect_four", help="the OpenSpiel game of that comparison")

    bench = Bench("bench_reuse", __doc__, argv, options=options, rounds=1)
    reuse_cost(bench, bench.size(bench.args.connect_four_iterations, 50), bench.args.spec)
    if bench.args.connect_four_only:
        return bench.finish()
    iterations = bench.args.iterations
    ttt_games, nim_seeds, stb_games = bench.size(60, 4), bench.size(4, 1), bench.size(600, 20)
    bench.say(f"equal budget: {iterations} dives a move, MCTS-Solver off; fresh tree vs tree kept (reuse=True)")
    found = {}

    def run(name, play):
        def contender():
            *outcome, times = play()
            found[name] = outcome
            return Measured(sum(times), len(times))

        return contender

    for title, play in (
        ("tic-tac-toe against a perfect player", lambda reuse: tictactoe(iterations, ttt_games, reuse)),
        ("Nim N=2..30 winning heaps against a perfect player", lambda reuse: nim(iterations, nim_seeds, reuse)),
        ("Shut the Box (optimum 0.0714, random 0.0204)", lambda reuse: shut_the_box(iterations, stb_games, reuse)),
    ):
        bench.compare(f"{title}: time a move", {"fresh tree": run("fresh", lambda: play(False)),
                                                "tree kept (reuse=True)": run("kept", lambda: play(True))},
                      unit="moves", warmup=0)
        for name in ("fresh", "kept"):
            outcome = found[name]
            if len(outcome) == 1:
                bench.figure(f"{title}, {name}: games lost", outcome[0], f"of {ttt_games}")
            elif title.startswith("Nim"):
                bench.figure(f"{title}, {name}: games won", outcome[0], f"of {outcome[1]}")
            else:
                low, high = wilson_interval(outcome[0], outcome[1])
                bench.figure(f"{title}, {name}: win rate", round(outcome[0] / outcome[1], 4), "",
                             f"{outcome[0]}/{outcome[1]}, 95% CI [{low:.4f}, {high:.4f}]")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
