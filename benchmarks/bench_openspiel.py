"""fnmcts's MCTS against OpenSpiel's MCTSBot on OpenSpiel's own games, at the same number of simulations.

    python benchmarks/bench_openspiel.py [--quick] [--json] [--rounds R] [--games G] [--iterations N]
    python benchmarks/run.py openspiel

Both search OpenSpiel's game (``fnmcts.openspiel.from_openspiel``): fnmcts's
``mcts_move`` (its defaults: UCB1 on payoffs rescaled to [0, 1], MCTS-Solver,
random playouts) and OpenSpiel's Python ``MCTSBot`` (UCT with c = sqrt 2, its
solver on, one random rollout per evaluation:
``open_spiel.python.algorithms.mcts``).

* **Speed**, on tic_tac_toe and connect_four: both search the same positions
  (the states along a seeded random game) with the same number of simulations
  each, interleaved round by round (``benchmarks/harness.py``); the rate is
  the simulations actually run (a solver that proves the root stops early) over
  the seconds spent searching. Target: fnmcts at least 2x OpenSpiel's bot on both,
  the same search (UCT and its solver): where fnmcts's defaults add shallow proofs
  (a short game that gives tables: ``kind_defaults``), the target reads a
  contender with ``proofs=0``, and the defaults' rate and time are printed
  beside it (a proven root ends their searches sooner: fewer simulations, less
  time). A short game gives the search its states as tables (``compiled_graph()``,
  walked once per game value: the walk's time is printed, and taken before the
  rounds); another contender searches through the protocol without them
  (``graph=CompiledGraph(game)``, a new graph per search, ``proofs=0``), the
  figure of a game that has none.
* **Exact solve**: ``solve`` of OpenSpiel's tic_tac_toe through the adapter (its
  5,478 positions; target: under 5 s), beside ``solve(TicTacToe())`` (the built-in
  game, the baseline) and OpenSpiel's own ``alpha_beta_search`` from the start.
* **Strength**: ``--games`` games of each side first on tic_tac_toe at
  ``--iterations`` a move, with 95% Wilson intervals (0 skips them).

Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``); skipped otherwise.
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.mcts import CompiledGraph, mcts_move, search_options  # noqa: E402
from fnmcts.montecarlo import wilson_interval  # noqa: E402
from fnmcts.protocol import CHANCE, sample_outcome  # noqa: E402

TARGET = 2.0


def _bot(game, iterations, seed):
    """OpenSpiel's MCTSBot on ``game``'s native game, seeded: ``decide(native_state) -> (action, simulations)``."""
    import numpy as np
    from open_spiel.python.algorithms import mcts as spiel_mcts

    random_state = np.random.RandomState(seed)
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = spiel_mcts.MCTSBot(game.native, math.sqrt(2), iterations, evaluator, solve=True, random_state=random_state)

    def decide(native):
        root = bot.mcts_search(native)
        return root.best_child().action, root.explore_count

    return decide


def positions(game, plies: int, seed: int) -> list:
    """The states of one seeded random game of ``game``, its first ``plies`` decisions (ends excluded)."""
    rng, state, out = random.Random(seed), game.start(), []
    while len(out) < plies and (who := game.to_move(state)) is not None:
        if who is CHANCE:
            state = game.play(state, sample_outcome(game, state, rng))
            continue
        out.append(state)
        state = game.play(state, rng.choice(game.possible_moves(state)))
    return out


def search_all(search, states) -> Measured:
    """Seconds and simulations of ``search(state) -> simulations run`` over ``states``."""
    seconds = simulations = 0
    for state in states:
        started = time.perf_counter()
        simulations += search(state)
        seconds += time.perf_counter() - started
    return Measured(seconds, simulations)


def speed(bench, spec: str, iterations: int, plies: int) -> dict:
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(spec)
    started = time.perf_counter()
    tables = game.compiled_graph()
    walked = time.perf_counter() - started
    if tables is None:
        bench.note(f"{game.spec} gives no tables (too long or too large a game): searched through the protocol")
    else:
        bench.figure(f"{game.spec}'s tables, walked once per game value", round(walked * 1000, 1), "ms",
                     f"{len(tables.states):,} states")
    states = positions(game, plies, seed=1)
    natives = [game.native_state(s) for s in states]
    calls = iter(range(10**9))

    def openspiel():
        bot = _bot(game, iterations, next(calls))
        return search_all(lambda native: bot(native.clone())[1], natives)

    def fnmcts():
        rng = random.Random(next(calls))
        return search_all(lambda state: mcts_move(game, state, iterations, rng).iterations, states)

    def plain():
        rng = random.Random(next(calls))
        return search_all(lambda state: mcts_move(game, state, iterations, rng, proofs=0).iterations, states)

    def protocol():
        rng = random.Random(next(calls))
        return search_all(lambda state: mcts_move(game, state, iterations, rng, graph=CompiledGraph(game),
                                                  proofs=0).iterations, states)

    proving = bool(search_options(game).proofs)
    contenders = {"OpenSpiel MCTSBot (Python)": openspiel, "fnmcts mcts_move": fnmcts}
    if proving:  # the defaults prove shallow wins: MCTSBot's own search (UCT and its solver) is the one without
        contenders["fnmcts mcts_move, proofs=0 (MCTSBot's search)"] = plain
    if tables is not None:
        contenders["fnmcts mcts_move, proofs=0, no tables"] = protocol
    comparison = bench.compare(
        f"{game.spec}: {iterations:,} simulations at each of {len(states)} positions of a random game",
        contenders, unit="simulations",
    )
    rows = comparison["contenders"]
    ratio = rows[2 if proving else 1]["ratio"]
    bench.target(f"fnmcts >= {TARGET:.0f}x OpenSpiel's MCTSBot on {game.spec} (the same search, equal simulations)",
                 ratio["median"] >= TARGET,
                 f"{ratio['median']:.2f}x, range over rounds [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    if proving:
        by_default = rows[1]
        bench.figure(f"{game.spec}: the defaults (shallow proofs: a proven root ends a search sooner)",
                     f"{by_default['ratio']['median']:.2f}x the bot's simulations a second",
                     note=f"{by_default['median_seconds'] / rows[0]['median_seconds']:.2f} of the bot's time over the "
                          "same positions")
    return comparison


def exact(bench) -> None:
    from open_spiel.python.algorithms import minimax

    from fnmcts.exact import solve
    from fnmcts.games import TicTacToe
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("tic_tac_toe")
    sizes = {}

    def adapted():
        sizes["adapter"] = len(solve(from_openspiel("tic_tac_toe")))  # a new game value: nothing kept between runs

    comparison = bench.compare(
        "the exact solve of tic-tac-toe from the start",
        {"solve(TicTacToe()), the built-in game": lambda: solve(TicTacToe()),
         "solve(from_openspiel('tic_tac_toe'))": adapted,
         "OpenSpiel's alpha_beta_search": lambda: minimax.alpha_beta_search(game.native, maximizing_player_id=0)},
        unit="solves", rounds=bench.size(3, 1),
    )
    seconds = comparison["contenders"][1]["median_seconds"]
    bench.target("OpenSpiel's tic_tac_toe solved through the adapter in under 5 s", seconds < 5,
                 f"{seconds:.2f} s for {sizes['adapter']:,} states")


def play_one(game, iterations, fnmcts_player, seed):
    """One game, fnmcts as ``fnmcts_player``: its payoff."""
    rng = random.Random(seed)
    bot = _bot(game, iterations, seed)
    state = game.start()
    while (who := game.to_move(state)) is not None:
        if who is CHANCE:
            move = sample_outcome(game, state, rng)
        elif who == fnmcts_player:
            move = mcts_move(game, state, iterations, rng).move
        else:
            move = bot(game.native_state(state))[0]
        state = game.play(state, move)
    return game.payoff(state)[fnmcts_player]


def strength(bench, spec: str, iterations: int, games: int, seed: int) -> None:
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(spec)
    bench.say(f"\n{game.spec}: fnmcts against OpenSpiel's MCTSBot, {iterations:,} simulations a move, "
              f"{games} games with each side first (seed {seed})")
    results = [play_one(game, iterations, side, seed * 1_000_003 + side * 10_007 + i)
               for side in (0, 1) for i in range(games)]
    total = len(results)
    for label, count in (("wins", sum(p > 0 for p in results)), ("draws", sum(p == 0 for p in results)),
                         ("losses", sum(p < 0 for p in results))):
        low, high = wilson_interval(count, total)
        bench.figure(f"fnmcts {label} on {game.spec}", count, f"of {total} games",
                     f"{count / total:.2f}, 95% CI [{low:.2f}, {high:.2f}]")


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=1000, help="simulations a search (default 1000)")
        parser.add_argument("--games", type=int, default=20, help="strength games with each side first (default 20)")
        parser.add_argument("--seed", type=int, default=1)

    bench = Bench("bench_openspiel", __doc__, argv, options=options)
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): skipped")
        return bench.finish()
    iterations = bench.size(bench.args.iterations, 50)
    exact(bench)
    speed(bench, "tic_tac_toe", iterations, bench.size(6, 2))
    speed(bench, "connect_four", bench.size(iterations // 2, 30), bench.size(8, 2))
    games = bench.size(bench.args.games, 1)
    if games:
        strength(bench, "tic_tac_toe", iterations, games, bench.args.seed)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
