"""MCTS iterations per second on the 21 game (21 items, take 1..3, misère).

    python benchmarks/bench_mcts_nim.py [--iterations N] [--quick] [--json] [--rounds R]

fnmcts's ``mcts_move`` (UCB1, c = sqrt 2, the tree a persistent map at the
API; a state-keyed tree, so transpositions share records) beside peers measured
in the same run:

* the same fnmcts search with its compiled loop switched off (``_engine.dives``
  in Python: the same tree, draw for draw; the loop is compiled with Numba,
  ``pip install fnmcts[fast]``, for a plain search on a graph walked whole);
* a plain mutable-node UCT written here (nodes with parent pointers, one child
  expanded per iteration, random rollouts; the shape of the notebook's
  MonteCarloTreeSearch), the baseline of the ratios;
* the PyPI ``mcts`` package, when it is importable (``pip install mcts``);
  skipped otherwise;
* OpenSpiel's Python ``MCTSBot`` (random rollouts) on OpenSpiel's own nim, one
  pile of 21, take any number, misère, beside fnmcts on the same game
  (as ``Piles((21,))`` through the protocol engine, and as ``Nim(21, 21)`` on
  the integer kernel) and the baseline, when ``pyspiel`` is importable
  (``pip install open_spiel``); skipped otherwise.

The contenders run in interleaved rounds (``benchmarks/harness.py``); ratios
are the median of the per-round ratios to the baseline, with their range.
Target: fnmcts at least 2x the integer UCT. Where the time goes: the
children a dive of fnmcts rates and the records it updates, beside the steps
the integer UCT takes in its tree and the moves of its playouts. Then the strength check: the
default ``mcts_agent`` on every winning position N = 2..30, K = 3, misère and
normal, against the exact solver.
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Bench, Measured  # noqa: E402

from fnmcts.exact import best_moves, solve, value  # noqa: E402
from fnmcts.games import Nim  # noqa: E402
from fnmcts.mcts import mcts_agent, mcts_move, visits  # noqa: E402
from fnmcts.mcts._kernel import available, switched_off  # noqa: E402

HEAP, TAKE = 21, 3


# -- the baseline: a plain mutable-node UCT ----------------------------------------------


class _Node:
    __slots__ = ("heap", "parent", "move", "untried", "children", "visits", "value")

    def __init__(self, heap, parent, move, take):
        self.heap = heap
        self.parent = parent
        self.move = move
        self.untried = list(range(1, min(take, heap) + 1))
        self.children = []
        self.visits = 0
        self.value = 0.0


def _mutable_uct(heap, take, iterations, rng, c=math.sqrt(2)):
    """Misère Nim UCT on mutable nodes: the most visited move of the root."""
    return max(_mutable_uct_tree(heap, take, iterations, rng, c).children, key=lambda ch: ch.visits).move


def _mutable_uct_tree(heap, take, iterations, rng, c=math.sqrt(2)):
    """The root of the search: misère Nim UCT on mutable nodes; value = wins of the player who moved in."""
    root = _Node(heap, None, None, take)
    rnd = rng.random
    for _ in range(iterations):
        node = root
        # selection
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            best, best_value = None, -1.0
            for child in node.children:
                v = child.value / child.visits + c * math.sqrt(log_n / child.visits)
                if v > best_value:
                    best, best_value = child, v
            node = best
        # expansion
        if node.untried:
            move = node.untried.pop(0)
            child = _Node(node.heap - move, node, move, take)
            node.children.append(child)
            node = child
        # rollout: the player who moved into ``node`` is "us"
        h, parity = node.heap, 0
        while h:
            k = take if take < h else h
            h -= 1 + int(rnd() * k)
            parity ^= 1
        # misère: whoever takes the last item loses; at parity 0 "we" took it last
        # (or node.heap == 0: we just took the last one)
        won = parity == 1
        # back-propagation, alternating perspective
        while node is not None:
            node.visits += 1
            if won:
                node.value += 1
            won = not won
            node = node.parent
    return root


def _baseline_steps(heap, take, iterations, rng, c=math.sqrt(2)):
    """``(tree steps, playout moves)`` a dive of ``_mutable_uct`` makes on average, read off its tree.

    A node's visits count the dives through it: over the nodes below the root
    they are the selection steps plus the one dive that made each node. A
    dive plays out from the node it made (a visit of a finished game plays
    nothing), so the playout moves are the expected length of a random game
    from each node made.
    """
    root = _mutable_uct_tree(heap, take, iterations, rng, c)
    made, stack = [], list(root.children)
    while stack:
        node = stack.pop()
        made.append(node)
        stack.extend(node.children)
    length = [0.0]  # the expected moves of a random game from a heap of h
    for h in range(1, heap + 1):
        k = min(take, h)
        length.append(1 + sum(length[h - j] for j in range(1, k + 1)) / k)
    steps = sum(node.visits for node in made) - len(made)
    return steps / iterations, sum(length[node.heap] for node in made) / iterations


def where_the_time_goes(game, found, iterations) -> tuple:
    """``(children rated, records updated)`` a dive of ``found`` (an ``mcts_move`` result) makes on average.

    The tree is keyed by state, so a record's visits count every dive that
    passed its state: the records updated a dive are the visits summed over
    the tree, over the dives. Each visit of a stored decision that the dive
    went on from rated every child (less the visit that added the record: that
    dive played out from it).
    """
    rated = updated = 0
    for state, rec in found.tree.items():
        n = visits(rec)
        updated += n
        if game.to_move(state) is not None:
            rated += (n - 1) * len(game.possible_moves(state))
    return rated / iterations, updated / iterations


# -- the PyPI ``mcts`` package, if installed ------------------------------------------------


def _pypi_mcts():
    try:
        from mcts import mcts as pypi_search
    except ImportError:
        return None

    class NimState:
        __slots__ = ("heap", "player")

        def __init__(self, heap, player=1):
            self.heap, self.player = heap, player

        def getCurrentPlayer(self):
            return self.player

        def getPossibleActions(self):
            return list(range(1, min(TAKE, self.heap) + 1))

        def takeAction(self, action):
            return NimState(self.heap - action, -self.player)

        def isTerminal(self):
            return self.heap == 0

        def getReward(self):
            # misère: the player to move at 0 items wins
            return self.player

    def run(iterations):
        return pypi_search(iterationLimit=iterations).search(NimState(HEAP))

    return run


# -- OpenSpiel's MCTSBot on its own nim, if installed ------------------------------------------


def openspiel_mcts(heap):
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts as spiel_mcts
    except ImportError:
        return None
    game = pyspiel.load_game("nim", {"pile_sizes": str(heap), "is_misere": True})

    def run(iterations):
        evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
        bot = spiel_mcts.MCTSBot(
            game, math.sqrt(2), iterations, evaluator, random_state=np.random.RandomState(1), solve=False
        )
        return bot.step(game.new_initial_state())

    return run


def _python(call):
    """``call()`` with the compiled loop switched off: the figure of ``dives`` in Python (the same tree)."""
    with switched_off():
        return call()


def _strength(iterations):
    agent = mcts_agent(iterations)
    rows = []
    for misere in (True, False):
        total = good = 0
        for heap in range(2, 31):
            game = Nim(heap, TAKE, misere)
            solution = solve(game)
            if value(solution, game.start())[0] <= 0:
                continue
            total += 1
            good += agent(game, game.start(), random.Random(heap)) in best_moves(game, solution, game.start())
        rows.append((misere, good, total))
    return rows


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--iterations", type=int, default=30_000)

    bench = Bench("bench_mcts_nim", __doc__, argv, options=options)
    game = Nim(HEAP, TAKE, misere=True)
    n = bench.size(bench.args.iterations, 2_000)
    contenders = {
        "plain mutable-node UCT": lambda: _mutable_uct(HEAP, TAKE, n, random.Random(1)),
        "fnmcts mcts_move, UCB1, no solver": lambda: mcts_move(game, game.start(), n, random.Random(1), solver=False),
        "fnmcts mcts_move, tutorial ucb, no solver": lambda: mcts_move(game, game.start(), n, random.Random(1),
                                                                       solver=False, rule="tutorial"),
        "the same UCB1 search, the Python loop": lambda: _python(
            lambda: mcts_move(game, game.start(), n, random.Random(1), solver=False)),
    }
    if not available():
        bench.note("(Numba not installed: every fnmcts contender runs the Python loop; pip install fnmcts[fast])")
    pypi = _pypi_mcts()
    if pypi is not None:
        contenders["PyPI mcts package"] = lambda: pypi(n)
    else:
        bench.note("(PyPI mcts package not installed: skipped)")
    comparison = bench.compare(f"the 21 game (heap {HEAP}, take 1..{TAKE}, misere): {n:,} iterations", contenders,
                               work=n, unit="iterations")
    ratio = comparison["contenders"][1]["ratio"]
    bench.target("the 21 game: fnmcts at least 2x the integer UCT", ratio["median"] >= 2,
                 f"{ratio['median']:.2f}x [{ratio['low']:.2f}, {ratio['high']:.2f}]")
    python = comparison["contenders"][3]["ratio"]
    bench.figure("the 21 game: the same search in the Python loop (the compiled loop switched off)",
                 f"{python['median']:.2f}x [{python['low']:.2f}, {python['high']:.2f}]", "the integer UCT")
    rated, updated = where_the_time_goes(game, mcts_move(game, game.start(), n, random.Random(1), solver=False), n)
    steps, moves = _baseline_steps(HEAP, TAKE, n, random.Random(1))
    bench.figure("the 21 game, a dive of fnmcts: children rated (UCB1) / records updated", f"{rated:.1f} / {updated:.1f}",
                 note="the tree is keyed by state and holds all 44 states: a dive walks a whole game inside it")
    bench.figure("the 21 game, an iteration of the integer UCT: tree steps (up to three children rated at each) / playout moves",
                 f"{steps:.1f} / {moves:.1f}", note="its tree of histories grows a node an iteration")
    spiel = openspiel_mcts(HEAP)
    if spiel is not None:
        from fnmcts.games import Piles

        one_pile = Piles((HEAP,), misere=True)
        take_any = Nim(HEAP, HEAP, misere=True)  # the same game as a heap
        k = n // 3
        bench.compare(
            f"OpenSpiel's nim (one pile of {HEAP}, take any number, misere): {k:,} iterations",
            {"plain mutable-node UCT": lambda: _mutable_uct(HEAP, HEAP, k, random.Random(1)),
             "fnmcts mcts_move on Piles((21,)), UCB1, no solver":
                 lambda: mcts_move(one_pile, one_pile.start(), k, random.Random(1), solver=False),
             "fnmcts mcts_move on Nim(21, take 1..21), UCB1, no solver":
                 lambda: mcts_move(take_any, take_any.start(), k, random.Random(1), solver=False),
             "OpenSpiel MCTSBot, random rollouts": lambda: spiel(k)},
            work=k, unit="iterations",
        )
    else:
        bench.note("(OpenSpiel not installed: its MCTSBot skipped)")

    def solver_move():
        started = time.perf_counter()
        found = mcts_move(game, game.start(), n, random.Random(1), solver=True)
        return Measured(time.perf_counter() - started, 1)

    solved = bench.compare("with MCTS-Solver: one move, the search stopping once the root is proven",
                           {"mcts_move(solver=True)": solver_move}, unit="moves")
    found = mcts_move(game, game.start(), n, random.Random(1), solver=True)
    bench.figure("iterations until the root is proven", found.iterations, "",
                 f"{solved['contenders'][0]['median_seconds'] * 1000:.1f} ms a move")
    for budget in bench.size((1_000, 10_000), (200,)):
        for misere, good, total in _strength(budget):
            rule = "misere" if misere else "normal"
            bench.figure(f"default mcts_agent({budget:,}), {rule}: optimal in winning positions N = 2..30", good,
                         f"of {total}", f"{good / total:.0%}")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
