"""fnmcts's plain search against OpenSpiel's C++ MCTSBot per dive, on tic_tac_toe or connect_four, at several budgets.

    python benchmarks/bench_per_dive.py [--game tic_tac_toe|connect_four] [--simulations 1000,10000]
                                        [--positions P] [--rounds R] [--solver] [--quick] [--json]
    python benchmarks/run.py per_dive

Issue 35 asks for the defaults compiled: simulations a second of fnmcts's
plain search (the solver and shallow proofs off) at least the C++ bot's
(``pyspiel.MCTSBot`` with one random rollout an evaluation, ``uct_c=2``,
``solve=False``, ``max_memory_mb=1000``) on tic_tac_toe, interleaved in one
process. Every contender searches the same positions (``--positions`` states
of seeded random games, their first 0 to 5 plies on tic_tac_toe, 0 to 11 on
connect_four) with each budget of ``--simulations`` (one comparison a
budget: a search's own set-up weighs most at a small one). fnmcts runs UCB1
with ``c = 1`` on payoffs rescaled to [0, 1] (the exploration of ``uct_c =
2`` on [-1, 1]) and random playouts, through ``search`` and ``mcts_move``, on
the built-in game and on OpenSpiel's through the adapter
(``from_openspiel``). On tic_tac_toe the adapter's game offers its 5,478
states as tables (``compiled_graph()``), so its searches run the compiled
loop on them (``fnmcts.mcts._kernel``); the built-in ``TicTacToe`` offers
none: its graph is walked through the protocol once and kept for its
searches (``_kernel.whole_graph``).
Before the rounds, each fnmcts contender's tree is checked equal to the
Python loop's (``_kernel.switched_off()``). The rate is the simulations
over the seconds spent in the calls (the bot's construction untimed, the
bot and fnmcts's result freed after the clock stopped;
fnmcts's calls include checking the options and building the tree it
returns, its records written when the tree is first read).

Figures (2 cores shared, load average 2.00; 8 positions, medians of 7
interleaved rounds, ratio to the C++ bot of the same round, [lowest,
highest]; before: 38661f4 with this file, 2026-12-01 04:48 UTC; after: 04:49):

====================================  ===================  ===================
contender                             1,000 simulations    10,000 simulations
====================================  ===================  ===================
search, adapter's tables, before      0.08x [0.07, 0.08]   0.35x [0.33, 0.39]
search, adapter's tables, after       0.73x [0.69, 0.76]   1.75x [1.70, 1.84]
mcts_move, adapter's tables, before   0.09x [0.08, 0.10]   0.52x [0.51, 0.59]
mcts_move, adapter's tables, after    0.66x [0.61, 0.67]   1.70x [1.61, 1.81]
search, built-in TicTacToe, after     0.05x [0.05, 0.05]   0.28x [0.27, 0.30]
search, built-in, walked once (*)     0.86x [0.79, 0.96]   1.90x [1.89, 2.03]
====================================  ===================  ===================

(*) ``_kernel.whole_graph``, 2026-12-01 11:05 UTC, load 1.6, 5 rounds; the
adapter's tables in the same run: 0.66x and 1.83x. With the counts written
back in one loop (6b053be, 23:48 UTC, load 1.9, 7 rounds): built-in 0.95x
[0.68, 1.19] and 1.91x; adapter's tables 0.92x [0.66, 0.98] and 1.83x.

(docs/speed.md, "Per dive against the C++ bot", tells what changed.)

Needs OpenSpiel (``pip install 'fnmcts[openspiel]'``) and Numba; skipped otherwise.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.mcts import _kernel, mcts_move, search  # noqa: E402

TARGETS = {"tic_tac_toe": 1.0, "connect_four": 0.5}
"""The rate issue 35 asks of fnmcts's plain search, as times the C++ bot's, per game."""

PLIES = {"tic_tac_toe": 6, "connect_four": 12}
"""A position is a random game's first ``randrange(PLIES)`` plies."""


def builtin_game(name):
    """fnmcts's own game of OpenSpiel's ``name`` (the same moves: cells, columns)."""
    from fnmcts.games import ConnectFour, TicTacToe

    return {"tic_tac_toe": TicTacToe, "connect_four": ConnectFour}[name]()


def positions(game, count, plies, seed=35) -> list:
    """``count`` positions ``(moves, state)`` of ``game``: each a random game's first ``randrange(plies)`` plies, not over."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        moves, state = [], game.start()
        for _ in range(rng.randrange(plies)):
            move = rng.choice(game.possible_moves(state))
            moves.append(move)
            state = game.play(state, move)
        if game.to_move(state) is not None:
            found.append((tuple(moves), state))
    return found


def replayed(game, places) -> list:
    """The states of ``game`` the moves of ``places`` lead to (the same positions in another game's terms)."""
    found = []
    for moves, _ in places:
        state = game.start()
        for move in moves:
            state = game.play(state, move)
        found.append(state)
    return found


def searching(game, state, simulations, rng, how, solver=False):
    """One fnmcts search of the benchmark (``how``: ``'search'`` or ``'mcts_move'``); the tree it grew.

    ``solver``: MCTS-Solver on, the search stopping once it proves the root (as ``mcts_move`` does)."""
    if how == "search":
        return search(game, state, simulations, rng, solver=solver, until_proven=solver, proofs=0, c=1.0)
    return mcts_move(game, state, simulations, rng, solver=solver, proofs=0, c=1.0).tree


def ours(game, states, simulations, how="search", python=False, solver=False):
    """Every position searched, timed: ``Measured(seconds, simulations)`` (``python``: the Python loop)."""
    def run():
        spent = 0.0
        for k, state in enumerate(states):
            rng = random.Random(k)
            start = time.perf_counter()
            found = searching(game, state, simulations, rng, how, solver)
            spent += time.perf_counter() - start
            del found  # (freed untimed, as the bot is)
        return Measured(spent, simulations * len(states))

    if not python:
        return run

    def slow():
        with _kernel.switched_off():
            return run()

    return slow


def theirs(pyspiel, name, places, simulations, solver=False):
    """OpenSpiel's C++ MCTSBot on the same positions, a bot per search (its construction untimed)."""
    game = pyspiel.load_game(name)

    def run():
        spent = 0.0
        for k, (moves, _) in enumerate(places):
            state = game.new_initial_state()
            for move in moves:
                state.apply_action(move)
            bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, k), uct_c=2, max_simulations=simulations,
                                  max_memory_mb=1000, solve=solver, seed=k, verbose=False)
            start = time.perf_counter()
            bot.step(state)
            spent += time.perf_counter() - start
            del bot
        return Measured(spent, simulations * len(places))

    return run


def checked_equal(game, state, simulations, how, solver=False) -> None:
    """Raise unless ``how``'s compiled search and the Python loop grow the same tree from ``state``."""
    fast = searching(game, state, simulations, random.Random(1), how, solver)
    with _kernel.switched_off():
        slow = searching(game, state, simulations, random.Random(1), how, solver)
    if fast != slow:
        raise AssertionError(f"{how} on {game!r}: the compiled search and the Python loop grew different trees")


def contenders(pyspiel, name, places, simulations, python, solver=False) -> dict:
    """The contenders of one budget, the C++ bot first (the baseline)."""
    from fnmcts.openspiel import from_openspiel

    own, adapted = builtin_game(name), from_openspiel(name)
    own_states, adapted_states = replayed(own, places), replayed(adapted, places)
    found = {"OpenSpiel C++ MCTSBot": theirs(pyspiel, name, places, simulations, solver)}
    if name == "tic_tac_toe":
        found["fnmcts search, adapter (tables)"] = ours(adapted, adapted_states, simulations, solver=solver)
        found["fnmcts mcts_move, adapter (tables)"] = ours(adapted, adapted_states, simulations, "mcts_move",
                                                           solver=solver)
        found["fnmcts search, built-in TicTacToe"] = ours(own, own_states, simulations, solver=solver)
    else:
        found["fnmcts search (compiled rules)"] = ours(own, own_states, simulations, solver=solver)
    if python:
        found["fnmcts search (Python loop)"] = ours(own, own_states, simulations, python=True, solver=solver)
    return found


def run(bench, pyspiel, name, count, budgets, python, solver=False) -> list:
    """One comparison a budget; the ratios of fnmcts's first contender to the bot."""
    places = positions(builtin_game(name), count, PLIES[name])
    from fnmcts.openspiel import from_openspiel

    checked = (builtin_game(name),) if name == "connect_four" else (builtin_game(name), from_openspiel(name))
    for game in checked:  # the trees equal the Python loop's
        for how in ("search", "mcts_move"):
            checked_equal(game, replayed(game, places)[-1], budgets[0], how, solver)
    ratios = []
    what = "MCTS-Solver on (each stops once the root is proven: the budget over the time a search)" if solver \
        else "solver and proofs off"
    for simulations in budgets:
        result = bench.compare(
            f"{name}, {count} positions x {simulations:,} simulations, {what}",
            contenders(pyspiel, name, places, simulations, python, solver), unit="simulations")
        ratios.append((simulations, result["contenders"][1]))
    return ratios


def options(parser, game=None) -> None:
    """The benchmark's own arguments (``--game`` unless ``game`` is fixed)."""
    if game is None:
        parser.add_argument("--game", choices=sorted(TARGETS), default="tic_tac_toe", help="the game (default tic_tac_toe)")
    parser.add_argument("--positions", type=int, default=None, help="positions searched a round (default 8)")
    parser.add_argument("--simulations", default=None,
                        help="simulations a search, comma-separated budgets (default 1000,10000; connect_four 2000)")
    parser.add_argument("--python", action="store_true", help="the Python loop as a contender too")
    parser.add_argument("--solver", action="store_true",
                        help="MCTS-Solver on in both (the bot's solve=True), each search stopping once it proves the root")


def measure(bench, which) -> int:
    """The comparisons of ``bench`` (its arguments: ``options``) on the game ``which``; the exit status."""
    try:
        import pyspiel
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): nothing to compare")
        return bench.finish()
    if not _kernel.available():
        bench.note("Numba is not installed (pip install 'fnmcts[fast]'): the compiled loop does not run")
        return bench.finish()
    count = bench.args.positions or bench.size(8, 2)
    default = "2000" if which == "connect_four" else "1000,10000"
    budgets = [int(x) for x in (bench.args.simulations or default).split(",")]
    if bench.quick and not bench.args.simulations:
        budgets = [_kernel.KERNEL_MIN_DIVES]
    python = bench.args.python or which == "connect_four"
    for simulations, row in run(bench, pyspiel, which, count, budgets, python, bench.args.solver):
        ratio = row["ratio"]
        bench.target(f"{row['name']} at least {TARGETS[which]}x the C++ MCTSBot on {which}, {simulations:,} simulations",
                     ratio["median"] >= TARGETS[which], f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    return bench.finish()


def main(argv=None) -> int:
    bench = Bench("bench_per_dive", __doc__, argv, options, rounds=7)
    return measure(bench, bench.args.game)


if __name__ == "__main__":
    sys.exit(main())
