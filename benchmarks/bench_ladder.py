"""A decisive-games ladder: fnmcts at its defaults against OpenSpiel's C++ MCTSBot, cell by cell, SPRT-stopped.

    python benchmarks/bench_ladder.py [--quick] [--json] [--specs "connect_four;hex(board_size=5)"]
        [--cells 400,1600,time] [--games-max 400] [--workers 2] [--seed S] [--cap-gb 3] [--timeout 1800] [--write]
        [--fnmcts-options '{"c": 1.0}' | '{"reuse": true}']

Each game of ``--specs`` (OpenSpiel's, ``;`` between them; default the five
of issue 35: ``connect_four``, ``hex(board_size=5)``, ``hex(board_size=7)``,
``breakthrough(rows=6,columns=6)``, ``dots_and_boxes(num_rows=3,num_cols=3)``)
is played in each cell of ``--cells``:

- ``N`` (400, 1600): equal simulations, fnmcts's ``mcts_move`` at its
  defaults with ``N`` dives a move, the bot with ``max_simulations=N``;
- ``time`` (``time@N``): equal wall time a move, the bot at 400 (``N``)
  simulations and fnmcts with ``seconds=`` the bot's median time a move at
  400 (``N``), measured in the ``400`` cell of this run, or else in one game
  of the bot against itself played first. Each game's process loads
  fnmcts's machine code before the game, untimed (``ready``), as a user's
  session does once.

The opponent is fixed: ``pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1,
seed), uct_c=2, max_simulations=N, max_memory_mb=1000, solve=True,
seed=seed, verbose=False)``, OpenSpiel's C++ bot, seeded per game as fnmcts
is (``mcts_move`` with a ``random.Random`` of the game's seed, through
``fnmcts.openspiel.from_openspiel``).

Games come in pairs: both games of a pair start from the same
``OPENING_PLIES`` uniformly random plies (drawn from the pair's seed),
fnmcts the first player in the first game and the second in the other. A
pair scores 0, 1/2, 1, 3/2 or 2 for fnmcts (win 1, draw 1/2); after each pair
the sequential probability ratio test of ``fnmcts.elo`` (``sprt_scan`` on
pairs: H0 a score of 0.50 against H1 0.60, alpha = beta = 0.05) decides,
or the cell stops at ``--games-max`` games. The score and its 95%
interval (``fnmcts.elo.match_statistics``) are over the pairs whose two
games both finished, in the order of the pairs whatever ``--workers``.

Each game runs in a process of its own under an address-space cap (as
``bench_decisive.py``): a game whose process fails (an exception, a crash,
the cap, ``--timeout``) is *unfinished*, and its pair is left out of the
score. Per cell: the score, its interval, games, unfinished games, the
median wall time a move of each side, the peak resident memory of a game's
process (``ru_maxrss``; both players live in it) and the SPRT's verdict.

``--write`` puts the cells measured into the ladder table of
docs/scoreboard.md (between its ``<!-- ladder:begin -->`` and ``<!--
ladder:end -->`` markers), keeping the rows of cells not measured, each row
with its run's date and load, the runs' commands below the table; a cell
stopped by ``--games-max`` below 400 games, the SPRT undecided, is marked
partial.

``--fnmcts-options`` (a JSON object of search options, ``search_options``'s
names: ``{"c": 1.0}``, ``{"rollout": "decisive"}``, ``{"final": "mean"}``)
plays fnmcts with those options over its defaults, so a candidate default is
measured without changing the defaults: the cell of its rows reads ``400
{"c": 1.0}`` beside the defaults' ``400``. ``{"reuse": true}`` keeps fnmcts's
tree between its moves of a game (``mcts_agent(N, reuse=True)``, the memory
threaded move to move, a fresh one each game): each move still runs ``N`` new
dives, on top of the subtree kept. A rollout is named
(``ROLLOUTS``: ``"decisive"`` is ``fnmcts.mcts.enhancements.decisive_agent``).
``--quick`` plays four games of tic_tac_toe in two tiny cells.
"""

from __future__ import annotations

import json
import random
import shlex
import statistics
import sys
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_decisive import in_child  # noqa: E402
from harness import Bench, Measured, load_average  # noqa: E402

from fnmcts.elo import Sprt, match_statistics, score_to_elo, sprt_scan  # noqa: E402
from fnmcts.protocol import CHANCE, sample_outcome  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402

SPECS = ("connect_four", "hex(board_size=5)", "hex(board_size=7)", "breakthrough(rows=6,columns=6)",
         "dots_and_boxes(num_rows=3,num_cols=3)")
CELLS = ("400", "1600", "time")
TIME_AT = 400
"""The bot's simulations a move in the equal-time cell, whose median time a move fnmcts gets."""
OPENING_PLIES = 2
GAMES_MAX = 400
TEST = Sprt(0.0, score_to_elo(0.60), 0.05, 0.05)
"""H0: a score of 0.50 (Elo 0) against H1: 0.60 (Elo +70.4), alpha = beta = 0.05."""
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"
SCOREBOARD = HERE.parent / "docs" / "scoreboard.md"
ROLLOUTS = ("decisive",)
"""The playout agents ``--fnmcts-options`` names (``"rollout": "decisive"``); None: random moves."""
HEADER = ("| game | cell | fnmcts's score [95%] | games | unfinished | SPRT | fnmcts a move | bot a move "
          "| peak memory | run |\n|---|---|---|---|---|---|---|---|---|---|")


def parse_cell(text: str) -> tuple:
    """``('simulations', N)`` for ``'N'``, ``('time', N)`` for ``'time@N'`` (``'time'``: at 400); else ValueError.

    >>> parse_cell("1600"), parse_cell("time"), parse_cell("time@50")
    (('simulations', 1600), ('time', 400), ('time', 50))
    """
    kind, at, count = text.strip().partition("@")
    try:
        if kind == "time":
            n = int(count) if at else TIME_AT
        elif not at:
            kind, n = "simulations", int(kind)
        else:
            raise ValueError
    except ValueError:
        raise ValueError(f"a cell is a number of simulations (400) or time (time@400), got {text!r}") from None
    if n < 1:
        raise ValueError(f"a cell's simulations are at least 1, got {text!r}")
    return kind, n


def fnmcts_options(text) -> dict:
    """The search options of ``--fnmcts-options`` (a JSON object), checked by ``search_options``; else ValueError.

    >>> fnmcts_options('{"c": 1.0}'), fnmcts_options(None)
    ({'c': 1.0}, {})
    >>> fnmcts_options('{"rollout": "greedy"}')
    Traceback (most recent call last):
    ...
    ValueError: --fnmcts-options: a rollout is one of 'decisive' (or null for random moves), got 'greedy'
    """
    if not text:
        return {}
    try:
        given = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"--fnmcts-options is a JSON object of search options, got {text!r} ({error})") from None
    if not isinstance(given, dict):
        raise ValueError(f"--fnmcts-options is a JSON object of search options, got {text!r}")
    if not isinstance(given.get("reuse", False), bool):
        raise ValueError(f"--fnmcts-options: reuse is true or false, got {given['reuse']!r}")
    rollout = given.get("rollout")
    if rollout is not None and rollout not in ROLLOUTS:
        raise ValueError(f"--fnmcts-options: a rollout is one of {', '.join(map(repr, ROLLOUTS))} "
                         f"(or null for random moves), got {rollout!r}")
    from fnmcts.mcts import search_options

    try:
        search_options(None, **resolved(given))
    except (TypeError, ValueError) as error:
        raise ValueError(f"--fnmcts-options: {error}") from None
    return given


def resolved(given: dict) -> dict:
    """The search options of ``given`` (``fnmcts_options``'s): a rollout's name made its agent, ``reuse`` left out.

    >>> resolved({"reuse": True, "c": 0.5})
    {'c': 0.5}
    """
    options = {k: v for k, v in given.items() if k != "reuse"}
    if options.get("rollout") == "decisive":
        from fnmcts.mcts.enhancements import decisive_agent

        options["rollout"] = decisive_agent
    return options


def fnmcts_player(simulations, seconds, given: dict):
    """fnmcts's side of a game: ``(game, state, rng, memory) -> (move, memory)``, and the memory of its first move.

    ``mcts_move`` at ``given``'s options (``resolved``), each move afresh; with
    ``"reuse": true`` the step of ``mcts_agent(simulations, reuse=True)``
    (``_reusing``) whose memory, the tree pruned to the states still reachable,
    is threaded from one of its moves to its next through the game (each move
    still runs ``simulations`` new dives on top of what it keeps). The draws of
    a first move are the same either way.

    >>> import random
    >>> from fnmcts.games import TicTacToe
    >>> game = TicTacToe()
    >>> fresh, memory = fnmcts_player(50, None, {})
    >>> kept, start = fnmcts_player(50, None, {"reuse": True})
    >>> fresh(game, game.start(), random.Random(3), memory)[0] == kept(game, game.start(), random.Random(3), start)[0]
    True
    """
    from fnmcts.mcts import mcts_agent, mcts_move

    options, budget = resolved(given), None if seconds else simulations
    if given.get("reuse"):
        mcts_agent(budget, reuse=True, seconds=seconds, **options)  # the options checked as the agent checks them
        return partial(_reusing, budget, seconds, options), None
    return (lambda game, state, rng, memory: (mcts_move(game, state, budget, rng, seconds=seconds, **options).move,
                                               memory)), None


def cell_label(cell: str, given: dict) -> str:
    """The cell column of a row: the cell, and the options fnmcts played with when any.

    >>> cell_label("400", {}), cell_label("400", {"c": 1.0})
    ('400', '400 {"c": 1.0}')
    """
    return f"{cell} {json.dumps(given, sort_keys=True)}" if given else cell


def opening(game, plies: int, seed: int):
    """The state after ``plies`` uniformly random decisions from the start (chance drawn too), from ``seed`` alone."""
    rng, state, made = random.Random(seed), game.start(), 0
    while made < plies and (who := game.to_move(state)) is not None:
        if who is CHANCE:
            state = game.play(state, sample_outcome(game, state, rng))
            continue
        state = game.play(state, rng.choice(list(game.possible_moves(state))))
        made += 1
    return state


def plan(seed: int, games_max: int) -> list:
    """The games of a cell in order: pairs sharing an opening seed, fnmcts first then second; each a dict."""
    if isinstance(games_max, bool) or not isinstance(games_max, int) or games_max < 2 or games_max % 2:
        raise ValueError(f"games come in pairs: the most games is an even number >= 2, got {games_max!r}")
    jobs = []
    for pair in range(games_max // 2):
        pair_seed = child_seed(seed, pair)
        for side in (0, 1):
            jobs.append({"pair": pair, "side": side, "opening": child_seed(pair_seed, 0),
                         "seed": child_seed(pair_seed, 1 + side) % 2**31})
    return jobs


def game_bin(result: dict) -> int:
    """A finished game's bin for fnmcts: 0 a loss, 1 a draw, 2 a win."""
    mine = result["payoff"][result["side"]]
    return 1 + (mine > 0) - (mine < 0)


def ordered(fn, jobs, workers: int):
    """``fn(job)`` for each job, yielded in the jobs' order, at most ``workers`` running at once, none started past need."""
    jobs = iter(jobs)
    with ThreadPoolExecutor(workers) as pool:
        running = deque(pool.submit(fn, job) for _, job in zip(range(workers), jobs))
        while running:
            found = running.popleft().result()
            following = next(jobs, None)
            if following is not None:
                running.append(pool.submit(fn, following))
            yield found


def run_cell(jobs: list, fn, workers: int, test: Sprt = TEST) -> dict:
    """Play ``jobs`` (``plan``'s) through ``fn(job) -> result`` until the SPRT on whole pairs decides or they run out.

    ``{"games": results in order, "sprt": SprtResult or None, "pairs": pentanomial counts}``;
    a result with ``"unfinished"`` leaves its pair out of the test.
    """
    played, last, waiting = [], None, {}
    for result in ordered(fn, jobs, workers):
        played.append(result)
        waiting.setdefault(result["pair"], []).append(result)
        pair = waiting[result["pair"]]
        if len(pair) < 2:
            continue
        del waiting[result["pair"]]
        if any("unfinished" in r for r in pair):
            continue
        last = sprt_scan(test, [game_bin(pair[0]) + game_bin(pair[1])], 5, last)
        if last.decision is not None:
            break
    pairs = last.results if last is not None else (0, 0, 0, 0, 0)
    return {"games": played, "sprt": last, "pairs": pairs}


def _reusing(budget, seconds, options, game, state, rng, memory) -> tuple:
    """A move of ``mcts_agent(budget, reuse=True)``'s step: the tree kept from the last move, pruned by ``subtree``.

    ``subtree``'s default walk is bounded by the game's own count of states or a
    share of the tree (about 0.01 s a move on connect_four through the adapter).
    """
    from fnmcts.mcts import mcts_move, subtree

    tree = None if memory is None else subtree(game, memory, state)
    found = mcts_move(game, state, budget, rng, tree=tree, seconds=seconds, **options)
    return found.move, subtree(game, found.tree, game.play(state, found.move))


def play(spec: str, simulations: int, seconds, side, seed: int, opening_seed: int, given=None) -> dict:
    """One whole game in this process from the pair's opening; ``side`` None: the bot plays both sides.

    ``given``: fnmcts's search options over its defaults (``fnmcts_options``'s).
    """
    import resource

    import pyspiel

    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(spec)
    bot = pyspiel.MCTSBot(game.native, pyspiel.RandomRolloutEvaluator(1, seed), uct_c=2,
                          max_simulations=simulations, max_memory_mb=1000, solve=True, seed=seed, verbose=False)
    rng, (fnmcts, memory) = random.Random(seed), fnmcts_player(simulations, seconds, given or {})
    if seconds:  # a clocked cell: the machine code loaded in this process before the game, untimed (``ready``)
        ready(game, given or {})
    state, times = opening(game, OPENING_PLIES, opening_seed), ([], [])
    while (who := game.to_move(state)) is not None:
        if who is CHANCE:
            state = game.play(state, sample_outcome(game, state, rng))
            continue
        started = time.perf_counter()
        if who == side:
            move, memory = fnmcts(game, state, rng, memory)
        else:
            move = bot.step(game.native_state(state))
        times[who != side].append(time.perf_counter() - started)
        state = game.play(state, move)
    return {"payoff": list(game.payoff(state)), "side": side, "times_fnmcts": times[0], "times_bot": times[1],
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _median(values) -> float:
    return statistics.median(values) if values else float("nan")


def summary(spec: str, cell: str, found: dict, games_max: int, seconds, given=None) -> dict:
    """The figures of a cell from ``run_cell``'s record."""
    games = found["games"]
    done = [g for g in games if "unfinished" not in g]
    decided = found["sprt"]
    stats = match_statistics(found["pairs"])
    bins = [game_bin(g) for g in done]
    return {"spec": spec, "cell": cell_label(cell, given or {}), "options": dict(given or {}), "score": stats.score, "interval": list(stats.interval),
            "pairs": list(found["pairs"]), "games": len(games), "unfinished": len(games) - len(done),
            "why_unfinished": sorted({g["unfinished"] for g in games if "unfinished" in g}),
            "wins": bins.count(2), "draws": bins.count(1), "losses": bins.count(0),
            "sprt": None if decided is None else decided.decision, "llr": None if decided is None else decided.llr,
            "games_max": games_max, "fnmcts_seconds": seconds,
            "fnmcts_move_s": _median([t for g in done for t in g["times_fnmcts"]]),
            "bot_move_s": _median([t for g in done for t in g["times_bot"]]),
            "peak_mb": max((g["peak_mb"] for g in done), default=float("nan"))}


def verdict(row: dict) -> str:
    """The SPRT's word on a cell, ``partial`` when ``--games-max`` below 400 stopped it undecided."""
    if row["sprt"]:
        return f"{row['sprt']} accepted"
    return f"partial: undecided at {row['games_max']} games" if row["games_max"] < GAMES_MAX else \
        f"undecided at {row['games_max']} games"


def table_row(row: dict, run: str) -> str:
    """A cell's row of the ladder table; an equal-time cell names fnmcts's ``seconds=`` beside its time a move."""
    low, high = row["interval"]
    budget = f" (budget {row['fnmcts_seconds'] * 1e3:.1f} ms)" if row.get("fnmcts_seconds") else ""
    return (f"| {row['spec']} | {row['cell']} | {row['score']:.3f} [{low:.3f}, {high:.3f}] "
            f"(+{row['wins']} ={row['draws']} -{row['losses']}) | {row['games']} | {row['unfinished']} | "
            f"{verdict(row)} | {row['fnmcts_move_s'] * 1e3:.0f} ms{budget} | {row['bot_move_s'] * 1e3:.0f} ms | "
            f"{row['peak_mb']:.0f} MB | {run} |")


def merged(block: str, rows: list, run: str, command: str) -> str:
    """The ladder block with ``rows`` (this run's, named ``run``) in place of the old rows of their cells."""
    kept, runs = {}, []
    for line in block.splitlines():
        if line.startswith("| ") and not line.startswith("| game |"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            kept[(cells[0], cells[1])] = line
        elif line.startswith("- run "):
            runs.append(line)
    for row in rows:
        kept[(row["spec"], row["cell"])] = table_row(row, run)
    order = {name: i for i, name in enumerate(SPECS + CELLS)}
    lines = [kept[k] for k in sorted(kept, key=lambda k: (order.get(k[0], len(SPECS)), k[0], order.get(k[1].split(" ")[0], 99), k[1]))]
    named = [line for line in runs if _run_of(line) != run and any(f"| {_run_of(line)} |" in x for x in lines)]
    return "\n".join([HEADER, *lines, "", *named, f"- run {run}: `{command}`"])


def _run_of(line: str) -> str:
    """The run named by a line ``- run RUN: `command```."""
    return line[len("- run "):].split(": `", 1)[0]


def write(rows: list, run: str, command: str, path: Path = SCOREBOARD) -> None:
    """Remake the ladder table of ``path`` between its markers with ``rows``."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"bench_ladder: {path} has no {BEGIN} ... {END} markers to write the ladder between")
    head, rest = text.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{merged(block, rows, run, command)}\n{END}{tail}", encoding="utf-8")


def _cell(bench, spec, cell, args, games_max, bot_medians) -> dict:
    """Play one cell (calibrating the bot's time first when needed); report and return its figures."""
    kind, n = parse_cell(cell)
    seconds = None
    if kind == "time":
        if n not in bot_medians:  # (the bot against itself from the first openings: its moves' median, pooled)
            times = []
            for job in plan(child_seed(args.seed, SPECS.index(spec) if spec in SPECS else len(SPECS)),
                            2 * CALIBRATION_GAMES)[::2]:
                calibration = in_child(Path(__file__).resolve(), [spec, n, None, None, job["seed"], job["opening"]],
                                       args.cap_gb, args.timeout)
                if "unfinished" in calibration:
                    raise SystemExit(f"bench_ladder: the bot's game at {n} simulations on {spec} failed: "
                                     f"{calibration['unfinished']}")
                times += calibration["times_bot"]
            bot_medians[n] = _median(times)
        seconds = bot_medians[n]
    given = fnmcts_options(args.fnmcts_options)
    jobs = plan(child_seed(args.seed, SPECS.index(spec) if spec in SPECS else len(SPECS)), games_max)

    def one(job):
        return {**in_child(Path(__file__).resolve(), [spec, n, seconds, job["side"], job["seed"], job["opening"], given],
                           args.cap_gb, args.timeout), "pair": job["pair"], "side": job["side"]}

    holder = {}

    def timed():
        started = time.perf_counter()
        holder["found"] = run_cell(jobs, one, args.workers)
        return Measured(time.perf_counter() - started, len(holder["found"]["games"]))

    bench.compare(f"{spec}, cell {cell_label(cell, given)}" + (f" (fnmcts {seconds * 1e3:.1f} ms a move)" if seconds else ""),
                  {"fnmcts vs MCTSBot": timed}, unit="games", rounds=1, warmup=0)
    row = summary(spec, cell, holder["found"], games_max, seconds, given)
    if kind == "simulations":
        bot_medians.setdefault(n, row["bot_move_s"])
    low, high = row["interval"]
    label = f"{spec}, {row['cell']}"
    bench.figure(f"{label}: fnmcts's score", round(row["score"], 4),
                 note=f"[{low:.3f}, {high:.3f}] over {sum(row['pairs'])} whole pairs; +{row['wins']} ={row['draws']} "
                      f"-{row['losses']}; {verdict(row)}")
    bench.figure(f"{label}: games", row["games"], note=f"{row['unfinished']} unfinished"
                 + (f": {'; '.join(row['why_unfinished'])[:300]}" if row["unfinished"] else ""))
    bench.figure(f"{label}: median time a move", round(row["fnmcts_move_s"] * 1e3, 2), "ms",
                 note=f"the bot's {row['bot_move_s'] * 1e3:.2f} ms")
    bench.figure(f"{label}: peak resident memory of a game's process", round(row["peak_mb"], 1), "MB")
    return row


def warm(spec: str, given: dict) -> bool:
    """Make the machine code a game's searches use, once, before its games (Numba keeps it on disk, so the games'
    processes load it): a search of ``KERNEL_MIN_DIVES`` dives at ``given``'s options compiles the loops, as a
    user's first search that long does once per installation. Short clocked searches do not compile it themselves
    (seconds, against a budget of milliseconds): they start a process that does (``compile_elsewhere``) and run
    the Python loop until it is on disk, the first moves of a cell. Whether the game's compiled rules loop is ready.

    >>> warm("tic_tac_toe", {})  # (no compiled rules: its tables' loop, compiled or not)
    False
    """
    from fnmcts.mcts import mcts_move
    from fnmcts.mcts._kernel import KERNEL_MIN_DIVES, least_chunk
    from fnmcts.mcts._engine import started
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel(spec)
    mcts_move(game, game.start(), KERNEL_MIN_DIVES, random.Random(0), **resolved(given))
    graph, stats, _ = started(game)
    return least_chunk(graph, stats, random.Random(0)) > 1


CALIBRATION_GAMES = 4
"""A ``time`` cell run without its 400 cell takes its budget from the bot's moves in this many games against itself,
from the cell's first pairs' openings (one game was too few: 1.1 and 1.4 ms on dots_and_boxes under two seeds, against the
bot's 1.17 and 1.18 ms a move in the cells)."""

WARM_SEARCHES = 40
"""The short clocked searches ``ready`` runs before a ``time`` cell's game."""


def ready(game, given: dict) -> None:
    """Warm ``game``'s searches in this process as a user's session is warm after its first searches: one of
    ``KERNEL_MIN_DIVES`` dives loads the machine code (the loop's: a second or so, once a process), then
    ``WARM_SEARCHES`` clocked ones of 1 ms from the start let Python specialise the search's own code (CPython 3.11
    quickens a function after it has run some times: until then a move's set-up ran about 3 times as long), at
    ``given``'s options, their draws from generators of their own. Each game of a cell runs in a fresh process, and a
    clocked move of 1-3 ms paid for both out of its budget: without this, the first 20-30 moves of every game's
    process (most of a game) ran a dive or two each. The bot's construction is untimed too.

    >>> from fnmcts.openspiel import from_openspiel
    >>> ready(from_openspiel("tic_tac_toe"), {})
    """
    from fnmcts.mcts import mcts_move
    from fnmcts.mcts._kernel import KERNEL_MIN_DIVES

    options = resolved(given)
    mcts_move(game, game.start(), KERNEL_MIN_DIVES, random.Random(0), **options)
    for seed in range(WARM_SEARCHES):
        mcts_move(game, game.start(), None, random.Random(seed), seconds=0.001, **options)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--one"]:  # a child: one game
        print(json.dumps(play(*json.loads(argv[1]))))
        return 0

    def options(parser):
        parser.add_argument("--specs", default=None, help="OpenSpiel games, ';' between (default the five of the ladder)")
        parser.add_argument("--cells", default=None, help=f"cells, ',' between (default {','.join(CELLS)})")
        parser.add_argument("--games-max", type=int, default=None, help=f"most games a cell (default {GAMES_MAX})")
        parser.add_argument("--workers", type=int, default=2, help="games at once, each in its own process (default 2)")
        parser.add_argument("--seed", type=int, default=1, help="the seed of the openings and games (default 1)")
        parser.add_argument("--cap-gb", type=float, default=3.0, help="each game's address-space cap in GB (default 3)")
        parser.add_argument("--timeout", type=float, default=1800.0, help="seconds a game may take (default 1,800)")
        parser.add_argument("--fnmcts-options", default=None,
                            help='fnmcts\'s search options over its defaults, a JSON object ({"c": 1.0}; '
                                 '"rollout": "decisive"); the rows\' cell names them')
        parser.add_argument("--write", action="store_true", help="put the cells into docs/scoreboard.md's ladder table")

    bench = Bench("bench_ladder", __doc__, argv, options=options)
    args = bench.args
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install 'fnmcts[openspiel]'): nothing to play")
        return bench.finish()
    specs = args.specs.split(";") if args.specs else bench.size(list(SPECS), ["tic_tac_toe"])
    cells = args.cells.split(",") if args.cells else bench.size(list(CELLS), ["20", "time@20"])
    games_max = args.games_max or bench.size(GAMES_MAX, 4)
    try:
        for cell in cells:
            parse_cell(cell)
        plan(args.seed, games_max)
        fnmcts_options(args.fnmcts_options)
    except ValueError as error:
        raise SystemExit(f"bench_ladder: {error}") from None
    if args.workers < 1:
        raise SystemExit(f"bench_ladder: --workers is at least 1, got {args.workers}")
    command = shlex.join(["python", "benchmarks/bench_ladder.py", *argv])
    bench.note(f"{len(specs)} game(s) x {len(cells)} cell(s), at most {games_max} games a cell, "
               f"{args.workers} at once, seed {args.seed}: {command}")
    rows = []
    for spec in specs:
        bot_medians = {}
        bench.note(f"{spec}: the compiled rules loop " + ("ready" if warm(spec, fnmcts_options(args.fnmcts_options))
                                                           else "not offered (the tables' loop, or Python)"))
        for cell in sorted(cells, key=lambda c: parse_cell(c)[0] == "time"):  # the time cell after the 400 cell
            rows.append(_cell(bench, spec, cell, args, games_max, bot_medians))
    bench.result["ladder"] = rows
    if args.write:
        load = bench.result["load_at_start"][0], load_average()[0]
        run = f"{bench.result['date']}, load {min(load):.1f}-{max(load):.1f}"
        write(rows, run, command)
        bench.note(f"the ladder table of {SCOREBOARD.relative_to(HERE.parent)} remade with {len(rows)} cell(s)")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
