"""The scoreboard: how often each search variant plays an exact-best move, and what its moves cost, by game and dives.

    python benchmarks/run.py scoreboard
    python benchmarks/bench_scoreboard.py [--quick] [--json] [--games G,...] [--variants V,...]
        [--budgets 16,64,...] [--decisions N|all] [--seed S] [--workers W | --executor KIND] [--markdown FILE]

Every game here is solved exactly (``fnmcts.exact.solve``). A *decision* is a
state where a player chooses (chance and the end excluded); the scoreboard
draws ``--decisions`` of them uniformly from all the game's decisions (``all``:
every one) and, for each variant and budget, runs one ``mcts_move`` of that
many dives from each (a fresh tree, a seed of its own), then judges the move
against the exact values. A cell spends about ``--cell-dives`` dives at most (one
million by default, counted as the searches run: a search the solver ends
early spends fewer): it scores the drawn decisions in order until they are
spent, so at 10,000 dives a decision on a game that the solver does not cut
short it scores the first hundred or so (chunks of 25), the cell saying how many.

* **best**: the share of decisions where the move is exact-best (its exact
  value equals the best move's), with its 95% Wilson interval;
* **regret**: the mean of ``best value - the move's value`` for the player
  deciding, on payoffs rescaled to [0, 1] (a win probability, for the games
  that pay a win or a loss), with its 95% normal interval.

A variant is a set of options of the one search (``fnmcts.mcts.mcts_move``);
``defaults`` is the search with no option given. Published search
enhancements were measured in play on Go, Hex and chess (win rates against a
baseline program); none, to our knowledge, against exact values: that is
what this table adds, on games small enough to solve.

``--quick`` (the test suite's smoke run) scores a few decisions of two small
games at 16 and 64 dives.
"""

from __future__ import annotations

import json
import math
import random
import shlex
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from fnmcts.cli._common import CliError  # noqa: E402
from fnmcts.cli._executor import add_executor, open_executor  # noqa: E402
from fnmcts.exact import solve  # noqa: E402
from fnmcts.games import Kayles, Nim, Pig, TicTacToe  # noqa: E402
from fnmcts.games.shut_the_box import ShutTheBox  # noqa: E402
from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.mcts.enhancements import decisive_agent  # noqa: E402
from fnmcts.montecarlo import mean_interval, wilson_interval  # noqa: E402
from fnmcts.parallel import mapped_on  # noqa: E402
from fnmcts.protocol import CHANCE, GameBase, payoff_range, state_to_json  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402


@lru_cache(maxsize=None)
def _lines(rows, columns, connect) -> tuple:
    """The lines of ``connect`` cells of a ``rows`` x ``columns`` board (cells column by column from the bottom)."""
    found = []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_c, end_r = c + (connect - 1) * dc, r + (connect - 1) * dr
                if 0 <= end_c < columns and 0 <= end_r < rows:
                    found.append(tuple((c + i * dc) * rows + r + i * dr for i in range(connect)))
    return tuple(found)


@dataclass(frozen=True)
class ConnectFour(GameBase):
    """Connect Four on a small board: drop a disc in a column; four in a row (any direction) wins; a full board draws.

    A state is ``(cells, to_move)`` with ``cells`` a tuple of ``rows * columns``
    cells column by column from the bottom (0 empty, 1 the first player's
    disc, 2 the second's); a move is a column that is not full. Payoffs
    ``(1, -1)``, ``(-1, 1)`` or ``(0, 0)``.

    >>> game = ConnectFour()
    >>> state = game.start()
    >>> for column in (0, 1, 0, 1, 0, 1, 0):
    ...     state = game.play(state, column)
    >>> game.to_move(state), game.payoff(state)
    (None, (1, -1))
    """

    rows: int = 4
    columns: int = 4
    connect: int = 4
    num_players = 2
    name = "connect-four"

    def start(self):
        return ((0,) * (self.rows * self.columns), 0)

    def _winner(self, cells):
        for line in _lines(self.rows, self.columns, self.connect):
            mark = cells[line[0]]
            if mark and all(cells[i] == mark for i in line):
                return mark
        return 0

    def to_move(self, state):
        cells, player = state
        if self._winner(cells) or 0 not in cells:
            return None
        return player

    def possible_moves(self, state):
        if self.to_move(state) is None:
            return ()
        cells, rows = state[0], self.rows
        return tuple(c for c in range(self.columns) if cells[c * rows + rows - 1] == 0)

    def play(self, state, move):
        cells, player = state
        rows = self.rows
        if move not in self.possible_moves(state):
            raise ValueError(f"illegal move {move!r}: a move is a column not full, one of {self.possible_moves(state)}")
        base = move * rows
        height = next(r for r in range(rows) if cells[base + r] == 0)
        cells = cells[:base + height] + (player + 1,) + cells[base + height + 1:]
        return (cells, 1 - player)

    def payoff(self, state):
        mark = self._winner(state[0])
        if not mark and 0 in state[0]:
            raise ValueError(f"the game is not over at {state!r}")
        return ((1, -1), (-1, 1), (0, 0))[(mark - 1) if mark else 2]


BUDGETS = (16, 64, 256, 1_000, 10_000)
"""Dives a decision, by default."""

CLUSTER_WIDTH = 8
"""Searches sent to a cluster executor (dask:tcp, ray, mpi) at a time: a fixed number, so a cell scores the same
decisions whatever the cluster's size (with processes:N or dask:local:N, N at a time, as --workers N)."""
"""Dives a decision."""

GAMES = {
    "tic-tac-toe": TicTacToe,
    "connect-four-4x4": ConnectFour,
    "pig-30": lambda: Pig(goal=30),
    "shut-the-box": ShutTheBox,
    "shut-the-box-low-sum": lambda: ShutTheBox(dice="low-sum"),
    "nim-21": lambda: Nim(heap=21, max_take=3),
    "kayles-12": lambda: Kayles(pins=(12,)),
}
"""The games of the scoreboard, by name: each a function making the game value."""

QUICK_GAMES = ("nim-21", "tic-tac-toe")

VARIANTS = {
    "defaults": {},
    "tutorial": {"rule": "tutorial", "solver": False},
    "mean c=sqrt2": {"c": math.sqrt(2), "backup": "mean"},
    "mean c=sqrt2 no-solver": {"c": math.sqrt(2), "backup": "mean", "solver": False},
    "mean c=0.2": {"c": 0.2, "backup": "mean"},
    "mean c=0.5": {"c": 0.5, "backup": "mean"},
    "mean c=1": {"c": 1.0, "backup": "mean"},
    "mean c=sqrt2 final=mean": {"c": math.sqrt(2), "backup": "mean", "final": "mean"},
    "expectimax c=sqrt2": {"c": math.sqrt(2), "backup": "expectimax"},
    "expectimax c=0.2": {"c": 0.2, "backup": "expectimax"},
    "expectimax c=0.5": {"c": 0.5, "backup": "expectimax"},
    "expectimax c=0.2 no-solver": {"c": 0.2, "backup": "expectimax", "solver": False},
    "decisive playouts": {"rollout": decisive_agent},
    "gumbel root": {"root": "gumbel"},
    "rave k=100": {"rave": 100},
    "grave k=100 ref=25": {"rave": 100, "rave_ref": 25},
    "bounds": {"bounds": True},
    "graph backup": {"backup": "graph"},
    "proofs 4": {"proofs": 4},
    "batch 16": {"batch": 16},
}
"""The variants of the search, by name (no commas: ``--variants`` lists them so): options of ``mcts_move``, each spelling out what differs from the defaults of either kind of game."""

QUICK_VARIANTS = ("defaults", "tutorial")

TIE = 1e-9
"""Two exact values closer than this (on the rescaled scale) are a tie: the values of games whose states repeat are floats."""


# -- the exact side: decisions and what each move is worth ----------------------------------


def _key(game, state) -> str:
    """A sort key of a state that does not depend on hashing: its JSON text."""
    try:
        return json.dumps(state_to_json(game, state), sort_keys=True)
    except (TypeError, ValueError):
        return repr(state)


class Exact:
    """A game solved: its decisions in a fixed order, and per decision the rescaled value of every move."""

    def __init__(self, name: str):
        self.name = name
        self.game = GAMES[name]()
        started = time.perf_counter()
        solution = solve(self.game, limit=None)
        self.seconds = time.perf_counter() - started
        low, high = payoff_range(self.game)
        span = Fraction(high) - Fraction(low) if not isinstance(high, float) else high - low
        self.decisions = sorted(
            (s for s in solution if (p := self.game.to_move(s)) is not None and p is not CHANCE),
            key=lambda s: _key(self.game, s),
        )
        self.states = len(solution)
        self._solution, self._low, self._span = solution, low, span

    def move_values(self, state) -> dict:
        """``move -> value`` for the player to move at ``state``, rescaled to [0, 1] (floats)."""
        game, player = self.game, self.game.to_move(state)
        return {m: float((self._solution[game.play(state, m)][player] - self._low) / self._span)
                for m in game.possible_moves(state)}

    def sample(self, count, seed) -> list:
        """``count`` decisions drawn without replacement (all of them when ``count`` is None or larger)."""
        if count is None or count >= len(self.decisions):
            return list(self.decisions)
        return random.Random(seed).sample(self.decisions, count)


# -- the search side: one move per decision -----------------------------------------------


def _moves(job):
    """``[(move, dives), ...]``: the variant's move at each decision of the job and the dives it took (a worker's unit of work)."""
    name, options, budget, seed, states, first = job
    game = GAMES[name]()
    found = []
    for i, state in enumerate(states):
        chosen = mcts_move(game, state, budget, random.Random(child_seed(seed, first + i)), **options)
        found.append((chosen.move, chosen.iterations))
    return found


def _jobs(name, options, budget, seed, states, size=25):
    return [(name, options, budget, seed, states[i:i + size], i) for i in range(0, len(states), size)]


def score(exact: Exact, states, moves) -> dict:
    """The figures of one cell: best share and regret with their intervals, over ``states`` and the ``moves`` made there."""
    best = 0
    total = squares = 0.0
    for state, move in zip(states, moves):
        values = exact.move_values(state)
        top = max(values.values())
        regret = max(0.0, top - values[move])
        best += regret <= TIE
        total += regret
        squares += regret * regret
    n = len(states)
    low, high = wilson_interval(best, n)
    r_low, r_high = mean_interval(total, squares, n, 0.0, 1.0)
    return {"decisions": n, "best": best, "share": best / n if n else float("nan"), "share_interval": [low, high],
            "regret": total / n if n else float("nan"), "regret_interval": [r_low, r_high]}



def cell_text(cell: dict) -> str:
    """``97.1% [96.5, 97.6]; 0.0012 [0.0008, 0.0016]``: the best share, then the mean regret, with their intervals."""
    low, high = cell["share_interval"]
    r_low, r_high = cell["regret_interval"]
    return (f"{100 * cell['share']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]; "
            f"{cell['regret']:.4f} [{r_low:.4f}, {r_high:.4f}]")


def markdown(board: dict, budgets) -> str:
    """The scoreboard as Markdown: one table per game, a row per variant, a column per budget."""
    lines = []
    for name, entry in board.items():
        lines += [f"**{name}** ({entry['states']:,} states, {entry['decisions']:,} decisions; "
                  f"{entry['sampled']:,} drawn; a cell: best share [95% Wilson]; mean regret [95%])", "",
                  "| variant | " + " | ".join(f"{b:,} dives" for b in budgets) + " |",
                  "|---|" + "---|" * len(budgets)]
        for variant, cells in entry["variants"].items():
            lines.append(f"| {variant} | " + " | ".join(
                f"{cell_text(cells[str(b)])} (n={cells[str(b)]['decisions']})" if str(b) in cells else "-"
                for b in budgets) + " |")
        lines.append("")
    return "\n".join(lines)


def tables(documents) -> str:
    """The tables of several runs' JSON documents (``--json``), one per game, each under the line of its run.

    A game found in more than one document takes its rows from each in
    turn (a later run adds variants, or runs one again: the later row wins).
    """
    games, runs = {}, {}
    for document in documents:
        load = document.get("load_at_start", [float("nan")])[0], document.get("load_at_end", [float("nan")])[0]
        command = _shown(document.get("arguments", {}).get("command"))
        run_line = (f"{document['date']}, load {load[0]:.1f} to {load[1]:.1f}, {document.get('seconds', 0):,.0f} s"
                    + (f": `{command}`" if command else ""))
        for name, entry in document["scoreboard"].items():
            kept = games.setdefault(name, {**entry, "variants": {}})
            kept["sampled"] = max(kept["sampled"], entry["sampled"])
            for variant, cells in entry["variants"].items():
                kept["variants"].setdefault(variant, {}).update(cells)
            runs.setdefault(name, []).append(run_line)
    budgets = sorted({int(b) for entry in games.values() for cells in entry["variants"].values() for b in cells})
    parts = []
    for name, entry in games.items():
        parts.append("Measured " + "; then ".join(runs[name]) + ".\n")
        parts.append(markdown({name: entry}, budgets))
    return "\n".join(parts)


def _shown(command):
    """The command of a run as the tables show it: without where its output went (``--json``, ``--markdown FILE``).

    >>> _shown("python benchmarks/bench_scoreboard.py --games kayles-12 --json --markdown out.md --seed 2")
    'python benchmarks/bench_scoreboard.py --games kayles-12 --seed 2'
    """
    if not command:
        return None
    words, kept = shlex.split(command), []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--markdown":
            skip = True
        elif word != "--json":
            kept.append(word)
    return shlex.join(kept)


def speed(bench, variants, seed) -> dict:
    """The dives a second of each variant, searching the same tic-tac-toe decisions (interleaved rounds)."""
    exact = Exact("tic-tac-toe")
    states = exact.sample(bench.size(20, 3), child_seed(seed, 8))
    budget = bench.size(1_000, 16)

    def contender(options):
        def searches():
            started, dives = time.perf_counter(), 0
            for i, state in enumerate(states):
                dives += mcts_move(exact.game, state, budget, random.Random(child_seed(seed, i)), **options).iterations
            return Measured(time.perf_counter() - started, dives)
        return searches

    return bench.compare(f"the variants' speed: {len(states)} tic-tac-toe decisions, {budget:,} dives each at most",
                         {v: contender(VARIANTS[v]) for v in variants}, unit="dives")


def _spend(jobs, executor, cell_dives, workers=1) -> list:
    """The moves of the jobs, in order, until ``cell_dives`` dives are spent (every job's when None).

    The search stops early where the solver proves the root, so a cell scores
    every drawn decision where its dives allow, and otherwise a prefix of
    them (itself a uniform sample), the same for every variant of a budget
    only when their dives are alike: the cell says how many it scored.
    """
    moves, spent, width = [], 0, 1 if executor is None else max(1, workers)
    for at in range(0, len(jobs), width):
        batch = jobs[at:at + width]
        for chunk in mapped_on(executor, _moves, batch)[0]:
            moves += [move for move, _ in chunk]
            spent += sum(dives for _, dives in chunk)
        if cell_dives is not None and spent >= cell_dives:
            break
    return moves


def run(bench, names, variants, budgets, count, seed, executor=None, cell_dives=None, workers=1) -> dict:
    board = {}
    for name in names:
        exact = Exact(name)
        states = exact.sample(count, child_seed(seed, 7))
        bench.say(f"\n{name}: {exact.states:,} states solved in {exact.seconds:.1f} s; "
                  f"{len(exact.decisions):,} decisions, {len(states):,} scored")
        entry = {"states": exact.states, "decisions": len(exact.decisions), "sampled": len(states), "variants": {}}
        for variant in variants:
            cells = entry["variants"][variant] = {}
            for budget in budgets:
                started = time.perf_counter()
                moves = _spend(_jobs(name, VARIANTS[variant], budget, seed, states), executor, cell_dives, workers)
                scored = states[: len(moves)]
                cell = score(exact, scored, moves)
                cell["seconds"] = round(time.perf_counter() - started, 2)
                cells[str(budget)] = cell
                bench.figure(f"{name} / {variant} / {budget} dives", round(cell["share"], 4), "best share",
                             f"{cell_text(cell)}; {cell['seconds']:.0f} s", show=False)
                bench.say(f"  {variant:28} {budget:>6,} dives  {cell_text(cell)}  ({cell['seconds']:.1f} s)")
        board[name] = entry
    return board


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--games", default=None, help=f"games, comma-separated (default all: {', '.join(GAMES)})")
        parser.add_argument("--variants", default=None, help=f"variants, comma-separated (default all: {', '.join(VARIANTS)})")
        parser.add_argument("--budgets", default=None, help="dives a decision, comma-separated (default 16,64,256,1000,10000)")
        parser.add_argument("--decisions", default="400", help="decisions scored a game ('all': every one; default 400)")
        parser.add_argument("--cell-dives", type=int, default=1_000_000,
                            help="dives a cell may spend at most: fewer decisions at large budgets (default 1,000,000)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
        add_executor(parser)
        parser.add_argument("--markdown", default=None, help="write the tables to this file ('-': print them)")
        parser.add_argument("--no-speed", action="store_true", help="skip the variants' speed on tic-tac-toe (a run in parts)")
        parser.add_argument("--tables", default=None, nargs="+", metavar="JSON",
                            help="measure nothing: the tables of these runs' --json documents (to --markdown, or printed)")

    bench = Bench("bench_scoreboard", __doc__, argv, options=options)
    args = bench.args
    if args.tables:
        text = tables([json.loads(Path(p).read_text(encoding="utf-8")) for p in args.tables])
        if args.markdown and args.markdown != "-":
            Path(args.markdown).write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return 0
    bench.result["arguments"] = {"command": shlex.join(["python", "benchmarks/bench_scoreboard.py",
                                                        *(sys.argv[1:] if argv is None else argv)])}

    def listed(text, known, quick, what):
        if text is None:
            return list(quick if bench.quick else known)
        names = [t.strip() for t in text.split(",") if t.strip()]
        unknown = [t for t in names if t not in known]
        if unknown:
            raise SystemExit(f"bench_scoreboard: unknown {what} {', '.join(unknown)}; choose from {', '.join(known)}")
        return names

    names = listed(args.games, GAMES, QUICK_GAMES, "game")
    variants = listed(args.variants, VARIANTS, QUICK_VARIANTS, "variant")
    budgets = [int(b) for b in args.budgets.split(",")] if args.budgets else list(bench.size(BUDGETS, (16, 64)))
    count = None if args.decisions == "all" else bench.size(int(args.decisions), 12)
    started = time.perf_counter()
    if not args.no_speed:
        speed(bench, variants, args.seed)
    spec = args.executor
    width = args.workers if spec is None else spec.value if isinstance(spec.value, int) else CLUSTER_WIDTH
    try:
        with open_executor(args) as pool:
            board = run(bench, names, variants, budgets, count, args.seed, pool, args.cell_dives, width)
    except CliError as error:
        raise SystemExit(f"bench_scoreboard: {error}") from None
    bench.result["scoreboard"] = board
    table = markdown(board, budgets)
    bench.note(f"scoreboard of {len(names)} games x {len(variants)} variants x {len(budgets)} budgets "
               f"in {time.perf_counter() - started:.0f} s (seed {args.seed}, "
               f"{args.workers if spec is None else spec.value or spec.kind} worker(s))")
    if args.markdown == "-":
        bench.say("\n" + table)
    elif args.markdown:
        Path(args.markdown).write_text(table + "\n", encoding="utf-8")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
