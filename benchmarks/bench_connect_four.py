"""fnmcts's plain search on the built-in Connect Four against OpenSpiel's C++ MCTSBot on connect_four, per dive.

    python benchmarks/bench_connect_four.py [--quick] [--json] [--rounds R] [--positions P] [--simulations N]
    python benchmarks/run.py connect_four

Issue 35 asks for the defaults compiled: simulations a second of fnmcts's
plain search (the solver and shallow proofs off) at least 0.5x OpenSpiel's
C++ bot (``pyspiel.MCTSBot`` with one random rollout an evaluation,
``uct_c=2``, ``solve=False``) on connect_four, interleaved in one process.
Both search the same positions (``--positions`` states of seeded random
games) with ``--simulations`` simulations each: fnmcts's ``search`` on
``ConnectFour`` (UCB1 with ``c = 1`` on payoffs rescaled to [0, 1], the
exploration of ``uct_c = 2`` on [-1, 1]; random playouts), which runs on the
game's compiled rules (``compiled_rules()``), and the same search in Python
(``_kernel.switched_off()``, the tree it returns is the same: checked before
the rounds). The rate is the simulations over the seconds spent in the
searches (the bot's construction is not timed; fnmcts's includes writing
the nodes back into its tree).

Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``) and Numba; skipped otherwise.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.games import ConnectFour  # noqa: E402
from fnmcts.mcts import _kernel, search  # noqa: E402

TARGET = 0.5
GAME = ConnectFour()


def positions(count, seed=35) -> list:
    """``count`` positions ``(moves, state)``: each a random game's first few plies (0 to 11), not over."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        moves, state = [], GAME.start()
        for _ in range(rng.randrange(12)):
            move = rng.choice(GAME.possible_moves(state))
            moves.append(move)
            state = GAME.play(state, move)
        if GAME.to_move(state) is not None:
            found.append((tuple(moves), state))
    return found


def ours(places, simulations, python=False):
    """The searches of every position, timed: ``Measured(seconds, simulations)``."""
    def run():
        spent = 0.0
        for k, (_, state) in enumerate(places):
            rng = random.Random(k)
            start = time.perf_counter()
            search(GAME, state, simulations, rng, solver=False, proofs=0, c=1.0)
            spent += time.perf_counter() - start
        return Measured(spent, simulations * len(places))

    if not python:
        return run

    def slow():
        with _kernel.switched_off():
            return run()

    return slow


def theirs(pyspiel, places, simulations):
    """OpenSpiel's C++ MCTSBot on the same positions, a bot per search (its construction untimed)."""
    game = pyspiel.load_game("connect_four")

    def run():
        spent = 0.0
        for k, (moves, _) in enumerate(places):
            state = game.new_initial_state()
            for move in moves:
                state.apply_action(move)
            bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, k), uct_c=2, max_simulations=simulations,
                                  max_memory_mb=1000, solve=False, seed=k, verbose=False)
            start = time.perf_counter()
            bot.step(state)
            spent += time.perf_counter() - start
        return Measured(spent, simulations * len(places))

    return run


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--positions", type=int, default=None, help="positions searched a round (default 8)")
        parser.add_argument("--simulations", type=int, default=None, help="simulations a search (default 2,000)")

    bench = Bench("bench_connect_four", __doc__, argv, options, rounds=7)
    try:
        import pyspiel
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): nothing to compare")
        return bench.finish()
    if not _kernel.available():
        bench.note("Numba is not installed (pip install 'fnmcts[fast]'): the compiled loop does not run")
        return bench.finish()
    count = bench.args.positions or bench.size(8, 2)
    simulations = bench.args.simulations or bench.size(2_000, _kernel.KERNEL_MIN_DIVES)
    places = positions(count)
    _, state = places[-1]
    fast = search(GAME, state, simulations, random.Random(1), solver=False, proofs=0, c=1.0)
    with _kernel.switched_off():
        slow = search(GAME, state, simulations, random.Random(1), solver=False, proofs=0, c=1.0)
    if fast != slow:
        raise AssertionError("the compiled search and the Python loop grew different trees")
    result = bench.compare(
        f"connect_four, {count} positions x {simulations:,} simulations, solver and proofs off",
        {"OpenSpiel C++ MCTSBot": theirs(pyspiel, places, simulations),
         "fnmcts search (compiled rules)": ours(places, simulations),
         "fnmcts search (Python loop)": ours(places, simulations, python=True)},
        unit="simulations")
    ratio = result["contenders"][1]["ratio"]
    bench.target(f"fnmcts's plain search at least {TARGET}x the C++ MCTSBot on connect_four", ratio["median"] >= TARGET,
                 f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
