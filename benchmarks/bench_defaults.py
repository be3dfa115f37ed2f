"""How well the search plays at its defaults: Shut the Box, Pig against the optimum, tic-tac-toe against OpenSpiel.

    python benchmarks/bench_defaults.py [--quick] [--json] [--pig-pairs N] [--workers W] [--bot-games N] [--seed S]
        [--parts shut-the-box,pig,tic-tac-toe]
    python benchmarks/run.py defaults

The targets (issue 25), each at the search's defaults (no option given):

* **Shut the Box**, the tutorial's rule and the one-die rule ``low-sum``: the
  greedy policy read off one ``search(game, game.start(), 10_000, rng)``
  (``greedy_policy``), judged exactly (``evaluate_policy``), reaches at least
  99% of the optimum for each of the seeds 1 to 5.
* **Pig to 30**: ``mcts_move`` with 10,000 dives scores at least 0.45 against the
  optimal player, in pairs of games: each game seed played from both sides
  (optimal against optimal: 0.5; the first player's edge, 0.568 to 0.432,
  cancels within a pair, and the interval is over the pairs). The score
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
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from fnmcts.elo import match_statistics  # noqa: E402
from fnmcts.exact import best_moves, evaluate_policy, solve, value  # noqa: E402
from fnmcts.games import Pig  # noqa: E402
from fnmcts.games.shut_the_box import ShutTheBox  # noqa: E402
from fnmcts.mcts import mcts_move, search  # noqa: E402
from fnmcts.views import greedy_policy  # noqa: E402
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


@lru_cache(maxsize=4)
def _pig_solution(goal):
    return solve(Pig(goal=goal), limit=None)


def pig_game(job) -> tuple:
    """One game of Pig: ``mcts_move`` (``options``) as ``side`` against the optimal player, game seed ``game_seed``.

    ``(estimate, won, seconds, decisions, slips)``: the regret-accounted
    score (the start's exact value for ``side`` less the regrets of the
    searcher's moves), whether the searcher won, its seconds of search, its
    decisions of two moves and how many of its moves there were not exact-best (a forced move, a turn's first roll, is played without a
    search: the move is the same, and only the draws of the generator
    differ). A top-level function of one tuple: a worker's unit of work.
    """
    goal, dives, game_seed, side, options = job
    game, solution = Pig(goal=goal), _pig_solution(goal)

    def win(state):
        return (float(solution[state][side]) + 1) / 2

    rng = random.Random(game_seed)
    state, regret, seconds, decisions, slips = game.start(), 0.0, 0.0, 0, 0
    while (player := game.to_move(state)) is not None:
        if player is CHANCE:
            move = sample_outcome(game, state, rng)
        elif player == side:
            moves = game.possible_moves(state)
            if len(moves) == 1:  # a turn's first roll: the search would play it whatever it found
                move = moves[0]
            else:
                started = time.perf_counter()
                move = mcts_move(game, state, dives, rng, **options).move
                seconds += time.perf_counter() - started
                values = {m: win(game.play(state, m)) for m in moves}
                regret += max(values.values()) - values[move]
                decisions += 1
                slips += values[move] < max(values.values()) - 1e-9
        else:
            move = best_moves(game, solution, state)[0]
        state = game.play(state, move)
    return win(game.start()) - regret, game.payoff(state)[side] > 0, seconds, decisions, slips


def pig_match(pairs, dives, seed, workers=1, goal=30, options=None) -> dict:
    """``pairs`` paired games of Pig against the optimal player: game seed ``i`` played from both sides.

    The figures: ``score`` (the mean regret-accounted score) with its 95%
    interval over the pairs (a pair's mean is one observation: the first
    player's edge cancels within it), the games won with their Wilson
    interval, the seconds of search a game. The same with any number of
    ``workers`` (each game has its seed).
    """
    from fnmcts.parallel import worker_pool

    jobs = [(goal, dives, child_seed(seed, i), side, dict(options or {})) for i in range(pairs) for side in (0, 1)]
    with worker_pool(workers) as pool:
        games = list(map(pig_game, jobs) if pool is None else pool.map(pig_game, jobs, chunksize=1))
    means = [(games[2 * i][0] + games[2 * i + 1][0]) / 2 for i in range(pairs)]
    n = len(means)
    low, high = mean_interval(sum(means), sum(x * x for x in means), n, 0.0, 1.0)
    wins = sum(g[1] for g in games)
    decisions, slips = sum(g[3] for g in games), sum(g[4] for g in games)
    # whatever a wrong move costs (at most 1 in win probability), a game loses at most its
    # wrong moves: the score is at least 1/2 less the decisions a game times the share of
    # wrong moves (its Wilson upper bound), the sound figure where every game pays the same
    # and the normal interval has no width
    share_high = wilson_interval(slips, decisions)[1] if decisions else 1.0
    floor = 0.5 - decisions / len(games) * share_high
    return {"pairs": n, "score": sum(means) / n, "interval": (low, high), "wins": wins, "games": len(games),
            "wins_interval": wilson_interval(wins, len(games)), "seconds_a_game": sum(g[2] for g in games) / len(games),
            "decisions_a_game": decisions / len(games), "decisions": decisions, "slips": slips, "floor": floor}


def pig(bench, dives, pairs, seed, workers=1) -> None:
    found = pig_match(pairs, dives, seed, workers)
    score, (low, high) = found["score"], found["interval"]
    w_low, w_high = found["wins_interval"]
    bench.figure(f"Pig to 30: score against the optimal player at {dives:,} dives, {found['pairs']} pairs of games "
                 f"(regret accounting)", round(score, 4),
                 note=f"95% interval [{low:.4f}, {high:.4f}]; games won {found['wins']}/{found['games']} = "
                 f"{found['wins'] / found['games']:.3f} [{w_low:.3f}, {w_high:.3f}]; "
                 f"{found['seconds_a_game']:.1f} s of search a game, {found['decisions_a_game']:.1f} decisions; "
                 f"exact-best at {found['decisions'] - found['slips']} of {found['decisions']} decisions, so the score is "
                 f"at least {found['floor']:.4f} whatever a wrong move costs")
    verdict = "met" if max(low, found["floor"]) >= 0.45 else "not met" if high < 0.45 else "undecided"
    bench.target("Pig to 30: >= 0.45 against the optimal player", score >= 0.45,
                 f"{score:.4f} [{low:.4f}, {high:.4f}] over {found['pairs']} pairs, at least {found['floor']:.4f} "
                 f"({verdict} at 95%)")


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
        parser.add_argument("--pig-pairs", type=int, default=100,
                            help="pairs of games of Pig against the optimum, each seed from both sides (default 100)")
        parser.add_argument("--workers", type=int, default=1, help="worker processes for the games of Pig (default 1)")
        parser.add_argument("--bot-games", type=int, default=100, help="tic-tac-toe games a side against MCTSBot (default 100)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--parts", default=",".join(PARTS), help=f"the targets measured (default all: {','.join(PARTS)})")

    bench = Bench("bench_defaults", __doc__, argv, options=options)
    args = bench.args
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise SystemExit(f"bench_defaults: unknown part {unknown[0]!r}; choose from {', '.join(PARTS)}")
    dives = bench.size(10_000, 200)
    game = ShutTheBox()
    bench.compare("the default search's speed: Shut the Box from the start",
                  {"search": lambda: Measured(*_timed(lambda: search(game, game.start(), dives, random.Random(1))), dives)},
                  unit="dives", rounds=bench.size(3, 1))
    if "shut-the-box" in parts:
        shut_the_box(bench, dives, bench.size((1, 2, 3, 4, 5), (1,)))
    if "pig" in parts:
        pig(bench, dives, bench.size(args.pig_pairs, 1), args.seed, args.workers)
    if "tic-tac-toe" in parts:
        tictactoe(bench, bench.size((100, 1_000), (20,)), bench.size(args.bot_games, 1), args.seed)
    return bench.finish()


PARTS = ("shut-the-box", "pig", "tic-tac-toe")
"""The targets, by name (``--parts``)."""


def _timed(fn):
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started,)


if __name__ == "__main__":
    sys.exit(main())
