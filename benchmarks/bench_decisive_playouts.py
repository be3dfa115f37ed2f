"""What decisive playouts cost a move on OpenSpiel's games: random playouts, decisive ones in place, decisive ones generic.

    python benchmarks/bench_decisive_playouts.py [--quick] [--json] [--rounds R] [--simulations 400]
        [--specs "connect_four;hex(board_size=5)"] [--generic]

One ``mcts_move`` from the start of each game of ``--specs`` (OpenSpiel's,
through ``fnmcts.openspiel.from_openspiel``) with ``--simulations`` dives and
a fixed seed, at the defaults (random playouts on the adapter's
``random_payoff``) and with ``rollout=decisive_agent`` (decisive and
anti-decisive playouts, on the adapter's in-place ``decisive_payoff``), in
interleaved rounds (``benchmarks/harness.py``); the ratio is moves a second
over the defaults'. ``--generic`` adds the same agent wrapped so that the
search plays it through the protocol (a state made a ply, every reply of
every move played), checked to choose the same move with the same dives as
the in-place kernel (the same draws). ``--quick``: tic_tac_toe, 20 dives.
"""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench  # noqa: E402

from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.mcts.enhancements import decisive_agent  # noqa: E402

SPECS = "connect_four;hex(board_size=5)"


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--simulations", type=int, default=None, help="dives a move (default 400)")
        parser.add_argument("--specs", default=None, help=f"OpenSpiel games, ';' between (default {SPECS})")
        parser.add_argument("--generic", action="store_true", help="time the agent through the protocol too")

    bench = Bench("bench_decisive_playouts", __doc__, argv, options=options, rounds=3)
    try:
        from fnmcts.openspiel import from_openspiel
    except ImportError:  # pragma: no cover - the adapter imports pyspiel only when a game is made
        return bench.finish()
    args = bench.args
    simulations = args.simulations or bench.size(400, 20)
    specs = (args.specs or bench.size(SPECS, "tic_tac_toe")).split(";")
    for spec in specs:
        try:
            game = from_openspiel(spec)
        except ImportError:
            bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): nothing to time")
            return bench.finish()
        start = game.start()
        contenders = {
            "random playouts (defaults)": lambda: mcts_move(game, start, simulations, random.Random(1)),
            "decisive, in place": lambda: mcts_move(game, start, simulations, random.Random(1),
                                                    rollout=decisive_agent),
        }
        if args.generic:  # a partial carries no ``in_place``: the search plays the agent through the protocol
            contenders["decisive, generic"] = lambda: mcts_move(game, start, simulations, random.Random(1),
                                                                rollout=partial(decisive_agent))

        def same(results):
            if "decisive, generic" in results:
                a, b = results["decisive, in place"], results["decisive, generic"]
                if (a.move, a.iterations) != (b.move, b.iterations):
                    raise AssertionError(f"in place {a.move, a.iterations} against generic {b.move, b.iterations}")

        bench.compare(f"{spec}: one {simulations}-dive mcts_move from the start", contenders, unit="moves",
                      check=same)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
