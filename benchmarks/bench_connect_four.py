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
the nodes back into its tree). The measuring is ``bench_per_dive.py``'s
(``--game connect_four``), which also measures tic_tac_toe.

Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``) and Numba; skipped otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_per_dive import measure, options  # noqa: E402
from harness import Bench  # noqa: E402


def main(argv=None) -> int:
    bench = Bench("bench_connect_four", __doc__, argv, lambda parser: options(parser, "connect_four"), rounds=7)
    return measure(bench, "connect_four")


if __name__ == "__main__":
    sys.exit(main())
