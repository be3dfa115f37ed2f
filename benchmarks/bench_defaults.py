"""How well the search plays at its defaults: Shut the Box, Pig against the optimum, tic-tac-toe against OpenSpiel.

    python benchmarks/bench_defaults.py [--quick] [--json] [--pig-games N] [--bot-games N] [--seed S]
    python benchmarks/run.py defaults

The targets (issue 25), each at the search's defaults (no option given):

* **Shut the Box**, the tutorial's rule and the one-die rule ``low-sum``: the
  greedy policy read off one ``search(game, game.start(), 10_000, rng)``
  (``greedy_policy``), judged exactly (``evaluate_policy``), reaches at least
  99% of the optimum for each of the seeds 1 to 5.
* **Pig to 30**: ``mcts_agent(10_000)`` scores at least 0.45 against the
  optimal player, sides alternating (optimal against optimal: 0.5). The score
  is measured by *regret accounting*: against an optimal opponent the exact
  value of the position (the mover's win probability) changes in expectation
  only where the agent moves, by minus the regret of its move (the best
  move's exact value less its move's), so the agent's expected score is the
  exact value of the start for its side less the regrets of its moves; each
  game gives that sum, with far less spread than its win or loss (both are
  reported, the games' own results with their Wilson interval).
* **tic-tac-toe against OpenSpiel's MCTSBot** (``open_spiel.python.algorithms.mcts``,
  c = sqrt 2, one random rollout, its solver on), the same number of
  simulations each, 100 and 1,000, sides alternating: fnmcts scores at least
  0.60. The score comes with its interval and likelihood of superiority
  (``fnmcts.elo``); beside it, the score of a perfect player (a uniformly
  drawn exact-best move) against the same bot, the most that playing
  perfectly gets from it.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from fnmcts.elo import match_statistics  # noqa: E402
from fnmcts.exact import best_moves, evaluate_policy, solve, value  # noqa: E402
from fnmcts.games import Pig  # noqa: E402
from fnmcts.games.shut_the_box import ShutTheBox  # noqa: E402
from fnmcts.mcts import greedy_policy, mcts_move, search  # noqa: E402
from fnmcts.montecarlo import mean_interval, wilson_interval  # noqa: E402
from fnmcts.protocol import CHANCE, sample_outcome  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402


def shut_the_box(bench, dives, seeds) -> None:
    for dice in ("two", "low-sum"):
        game = ShutTheBox(dice=dice)
        optimum = value(solve(game), game.start())[0]
        shares, seconds = [], 0.0
        for seed in seeds:
            started = time.perf_counter()
            tree = search(game, game.start(), dives, random.Random(seed))
            seconds += time.perf_counter() - started
            greedy = value(evaluate_policy(game, greedy_policy(tree)), game.start())[0]
            shares.append(float(greedy / optimum))
        text = ", ".join(f"{s:.4f}" for s in shares)
        bench.figure(f"Shut the Box ({dice}): greedy policy / optimum after {dives:,} dives, seeds {seeds[0]}-{seeds[-1]}",
                     text, note=f"searches took {seconds:.1f} s")
        bench.target(f"Shut the Box ({dice}): >= 99% of the optimum for every seed", min(shares) >= 0.99,
                     f"lowest {min(shares):.4f}")


def pig(bench, dives, games, seed) -> None:
    game = Pig(goal=30)
    solution = solve(game, limit=None)

    def win(v, side):
        return (float(v[side]) + 1) / 2

    estimates, wins, seconds = [], 0, 0.0
    for i in range(games):
        side = i % 2
        rng = random.Random(child_seed(seed, i))
        state, regret = game.start(), 0.0
        while (player := game.to_move(state)) is not None:
            if player is CHANCE:
                move = sample_outcome(game, state, rng)
            elif player == side:
                started = time.perf_counter()
                move = mcts_move(game, state, dives, rng).move
                seconds += time.perf_counter() - started
                values = {m: win(solution[game.play(state, m)], side) for m in game.possible_moves(state)}
                regret += max(values.values()) - values[move]
            else:
                move = best_moves(game, solution, state)[0]
            state = game.play(state, move)
        estimates.append(win(solution[game.start()], side) - regret)
        wins += game.payoff(state)[side] > 0
    n = len(estimates)
    score = sum(estimates) / n
    low, high = mean_interval(sum(estimates), sum(x * x for x in estimates), n, 0.0, 1.0)
    w_low, w_high = wilson_interval(wins, n)
    bench.figure(f"Pig to 30: score against the optimal player at {dives:,} dives, {n} games (regret accounting)",
                 round(score, 4), note=f"95% interval [{low:.4f}, {high:.4f}]; games won {wins}/{n} = {wins / n:.3f} "
                 f"[{w_low:.3f}, {w_high:.3f}]; {seconds / max(n, 1):.1f} s of search a game")
    bench.target("Pig to 30: >= 0.45 against the optimal player", score >= 0.45,
                 f"{score:.4f} [{low:.4f}, {high:.4f}] over {n} games")


def _bot(game, simulations, seed):
    from bench_openspiel import _bot as bot

    return bot(game, simulations, seed)


def against_mctsbot(bench, simulations, games, seed, exact=None) -> dict:
    """``games`` games a side of fnmcts (or the perfect player ``exact``) against OpenSpiel's MCTSBot."""
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("tic_tac_toe")
    results = [0, 0, 0]  # losses, draws, wins of fnmcts
    for side in (0, 1):
        for i in range(games):
            game_seed = child_seed(seed, 2 * i + side)
            rng, bot = random.Random(game_seed), _bot(game, simulations, game_seed % 2**31)
            state = game.start()
            while (player := game.to_move(state)) is not None:
                if player == side:
                    move = rng.choice(best_moves(game, exact, state)) if exact is not None else \
                        mcts_move(game, state, simulations, rng).move
                else:
                    move = bot(game.native_state(state))[0]
                state = game.play(state, move)
            results[1 + (game.payoff(state)[side] > 0) - (game.payoff(state)[side] < 0)] += 1
    return match_statistics(tuple(results))


def tictactoe(bench, simulations_list, games, seed) -> None:
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): tic-tac-toe against MCTSBot skipped")
        return
    from fnmcts.openspiel import from_openspiel

    perfect = solve(from_openspiel("tic_tac_toe"), limit=None)
    for simulations in simulations_list:
        ours = against_mctsbot(bench, simulations, games, seed)
        best = against_mctsbot(bench, simulations, games, seed, exact=perfect)
        bench.figure(f"tic-tac-toe against MCTSBot, {simulations:,} simulations each, {2 * games} games", round(ours.score, 4),
                     note=str(ours))
        bench.figure(f"a perfect player against MCTSBot, {simulations:,} simulations, {2 * games} games",
                     round(best.score, 4), note=str(best))
        bench.target(f"tic-tac-toe against MCTSBot at {simulations:,} simulations: score >= 0.60", ours.score >= 0.60,
                     f"{ours.score:.3f} [{ours.interval[0]:.3f}, {ours.interval[1]:.3f}]; a perfect player "
                     f"{best.score:.3f} [{best.interval[0]:.3f}, {best.interval[1]:.3f}]")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--pig-games", type=int, default=60, help="games of Pig against the optimum (default 60)")
        parser.add_argument("--bot-games", type=int, default=100, help="tic-tac-toe games a side against MCTSBot (default 100)")
        parser.add_argument("--seed", type=int, default=1)

    bench = Bench("bench_defaults", __doc__, argv, options=options)
    args = bench.args
    dives = bench.size(10_000, 200)
    game = ShutTheBox()
    bench.compare("the default search's speed: Shut the Box from the start",
                  {"search": lambda: Measured(*_timed(lambda: search(game, game.start(), dives, random.Random(1))), dives)},
                  unit="dives", rounds=bench.size(3, 1))
    shut_the_box(bench, dives, bench.size((1, 2, 3, 4, 5), (1,)))
    pig(bench, dives, bench.size(args.pig_games, 2), args.seed)
    tictactoe(bench, bench.size((100, 1_000), (20,)), bench.size(args.bot_games, 1), args.seed)
    return bench.finish()


def _timed(fn):
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started,)


if __name__ == "__main__":
    sys.exit(main())
