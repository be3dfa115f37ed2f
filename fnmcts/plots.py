"""Pictures of what the methods learn: the data as immutable values, the figures with matplotlib.

Each picture is two steps. A data function computes what is drawn, from a
seed, as a tuple of named tuples (pure: same seed, same data). A figure
function draws it with matplotlib (the ``plot`` extra:
``pip install 'fnmcts[plot]'``) and returns the ``Figure``; ``save_figure``
writes it to a PNG or SVG file that is the same, byte for byte, for the same
data. ``fnmcts plot NAME -o FILE`` does all three.

| name | what it shows |
|---|---|
| ``pi`` | the darts estimate of pi converging, with its 95% band |
| ``mcts`` | MCTS on Shut the Box: the dives' win rate and the greedy policy's exact value against dives, beside the optimum and random play |
| ``flat-mc`` | flat Monte Carlo on the 21 game: how often it finds the winning move, by heap size, with the exact infinite-trial limit |
| ``qlearning`` | Q-learning on piles 1, 3, 5, 7: the share of winning states where the greedy move is optimal, against training games |
| ``tournament`` | Nim 21 (the notebook's game): each agent's win rate against random and perfect play, with 95% intervals |

>>> [point.n for point in pi_data(1_000, seed=1, points=3)]
[10, 100, 1000]
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, NamedTuple

from .agents import make_agent, perfect_agent
from .files import check_target
from .exact import evaluate_policy, random_policy, solve, value
from .games import darts
from .games.nim import Nim
from .games.shut_the_box import ShutTheBox
from .mcts import greedy_policy, search, ucb
from .montecarlo import wilson_interval
from .matches import random_agent, tournament
from .qlearning import optimal_move_rate
from .rng import child_seed, make_rng
from .tutorial import Q_GAME, evaluate_position, train

__all__ = [
    "PLOTS",
    "checkpoints",
    "PiPoint",
    "pi_data",
    "CurvePoint",
    "mcts_data",
    "HeapPoint",
    "flat_mc_data",
    "QPoint",
    "qlearning_data",
    "RatePoint",
    "tournament_data",
    "figure",
    "figure_bytes",
    "save_figure",
]


def checkpoints(n: int, points: int, first: int = 10) -> tuple:
    """About ``points`` whole numbers from ``first`` to ``n``, evenly spaced on a log scale.

    >>> checkpoints(10_000, 4)
    (10, 100, 1000, 10000)
    >>> checkpoints(5, 3)
    (5,)
    """
    if n <= first or points < 2:
        return (n,)
    ratio = (n / first) ** (1 / (points - 1))
    out = sorted({min(n, round(first * ratio**i)) for i in range(points)} | {n})
    return tuple(out)


def _tick(progress, k=1):
    if progress is not None:
        progress(k)


# -- pi from darts ---------------------------------------------------------------------


class PiPoint(NamedTuple):
    """The estimate of pi after ``n`` darts, with its 95% interval.

    >>> PiPoint(100, 3.2, 2.9, 3.4).estimate
    3.2
    """

    n: int
    estimate: float
    low: float
    high: float


def pi_data(n: int = 100_000, seed: int = 1, points: int = 40, progress: Callable | None = None) -> tuple:
    """Darts thrown one after another from ``seed``: the estimate of pi (4 x hits / n) at checkpoints.

    The interval is 4 times the 95% Wilson interval of the hit rate.

    >>> last = pi_data(10_000, seed=1, points=2)[-1]
    >>> last.n, round(last.estimate, 4), last.low < math.pi < last.high
    (10000, 3.116, True)
    """
    rng = make_rng(seed)
    marks = checkpoints(n, points)
    out, hits, thrown = [], 0, 0
    for mark in marks:
        for _ in range(mark - thrown):
            hits += darts.is_win(darts.throw_dart(rng))
        _tick(progress, mark - thrown)
        thrown = mark
        low, high = wilson_interval(hits, thrown)
        out.append(PiPoint(thrown, 4 * hits / thrown, 4 * low, 4 * high))
    return tuple(out)


# -- MCTS on Shut the Box --------------------------------------------------------------


class CurvePoint(NamedTuple):
    """After ``dives`` dives: the dives' own win rate and the greedy policy's exact value.

    >>> CurvePoint(1000, 0.027, 0.033).greedy_value
    0.033
    """

    dives: int
    win_rate: float
    greedy_value: float


def mcts_data(dives: int = 100_000, seed: int = 2017, points: int = 8, progress: Callable | None = None) -> tuple:
    """One growing search on Shut the Box, with the tutorial's rule: ``(curve, random_value, optimum)``.

    The tree grows from ``seed`` by ``search`` to each checkpoint (from 100
    dives); there the dives' win rate at the start box and the exact value of
    the greedy policy read off the tree. ``random_value`` and ``optimum`` are
    the exact values of random and optimal play.

    >>> curve, random_value, optimum = mcts_data(1_000, points=2)
    >>> [p.dives for p in curve], round(random_value, 4), round(optimum, 4)
    ([100, 1000], 0.0204, 0.0714)
    """
    game = ShutTheBox()
    root = game.start()
    rng = make_rng(seed)
    tree, done, out = None, 0, []
    for mark in checkpoints(dives, points, first=100):
        tree = search(game, root, mark - done, rng, tree=tree, rule=ucb)  # the tutorial's search
        done = mark
        rec = tree[root]
        greedy = value(evaluate_policy(game, greedy_policy(tree), root), root)[0]
        out.append(CurvePoint(mark, rec["win"] / mark, float(greedy)))
        _tick(progress, 1)
    random_value = float(value(evaluate_policy(game, random_policy, root), root)[0])
    optimum = float(value(solve(game, root), root)[0])
    return tuple(out), random_value, optimum


# -- flat Monte Carlo on the 21 game ---------------------------------------------------


class HeapPoint(NamedTuple):
    """A winning heap: how often flat Monte Carlo picked the winning move, and whether its limit does.

    >>> HeapPoint(14, 0.6, False).limit_right
    False
    """

    heap: int
    right: float
    limit_right: bool


def _limit_move(n: int, max_take: int) -> int:
    """The move infinitely many random rollouts pick: the best exact value of random play after it."""
    game = Nim(heap=n, max_take=max_take, misere=False)
    after = {m: game.play(game.start(), m) for m in game.possible_moves(game.start())}
    values = evaluate_policy(game, random_policy, *after.values(), opponent=random_policy)
    return max(after, key=lambda m: values[after[m]][0])


def flat_mc_data(
    largest: int = 30, trials: int = 1_000, seeds: int = 10, seed: int = 1, progress: Callable | None = None
) -> tuple:
    """The 21 game's ``evaluate_position`` on every winning heap from 1 to ``largest``.

    For each heap (``n % 4 != 0``: the player to move can win), the share of
    ``seeds`` runs with ``trials`` rollouts a move that return the winning move,
    and whether the infinite-trial limit (the exact value of random play after
    each move) picks it.

    >>> [(p.heap, p.right, p.limit_right) for p in flat_mc_data(3, trials=100, seeds=2)]
    [(1, 1.0, True), (2, 1.0, True), (3, 1.0, True)]
    """
    out = []
    for n in range(1, largest + 1):
        if n % 4 == 0:
            continue
        best = n % 4
        runs = [evaluate_position(n, trials, seed=child_seed(seed, n * 1000 + i)) for i in range(seeds)]
        out.append(HeapPoint(n, sum(m == best for m in runs) / seeds, _limit_move(n, 3) == best))
        _tick(progress, 1)
    return tuple(out)


# -- Q-learning ------------------------------------------------------------------------


class QPoint(NamedTuple):
    """After ``games`` training games: the share of winning states where the greedy move is optimal.

    >>> QPoint(1000, 0.594).optimal
    0.594
    """

    games: int
    optimal: float


def qlearning_data(games: int = 10_000, seed: int = 1, points: int = 10, progress: Callable | None = None) -> tuple:
    """One AI trained on piles 1, 3, 5, 7 from ``seed``, judged at checkpoints (from 10 games).

    >>> [(p.games, round(p.optimal, 3)) for p in qlearning_data(100, points=2)]
    [(10, 0.158), (100, 0.203)]
    """
    rng = make_rng(seed)
    solution = solve(Q_GAME)
    ai, done, out = None, 0, []
    for mark in checkpoints(games, points):
        ai = train(mark - done, rng=rng, ai=ai) if ai is not None else train(mark, rng=rng)
        done = mark
        out.append(QPoint(mark, float(optimal_move_rate(ai, solution))))
        _tick(progress, 1)
    return tuple(out)


# -- tournaments -----------------------------------------------------------------------


class RatePoint(NamedTuple):
    """One agent against one opponent: games won of ``games`` (half on each side), with its 95% interval.

    >>> RatePoint("mcts", "random", 10, 10, 0.72, 1.0).wins
    10
    """

    agent: str
    opponent: str
    wins: int
    games: int
    low: float
    high: float


TOURNAMENT_AGENTS = ("random", "montecarlo", "montecarlo-perfect", "mcts", "perfect")


def tournament_data(games: int = 100, seed: int = 1, trials: int = 200, progress: Callable | None = None) -> tuple:
    """Nim 21 (take 1-3, taking the last loses): each agent against random and perfect play.

    ``games`` games a pairing, half with the agent moving first; flat Monte
    Carlo uses ``trials`` rollouts a move, MCTS 1,000 iterations. Against
    perfect play one half is the best possible: 21 is lost for the first player.

    >>> [(p.agent, p.opponent, p.wins) for p in tournament_data(4, trials=20)][:2]
    [('random', 'random', 2), ('random', 'perfect', 0)]
    """
    game = Nim(heap=21, max_take=3, misere=True)
    options = {"montecarlo": {"trials": trials}, "montecarlo-perfect": {"trials": trials}, "mcts": {"iterations": 1000}}
    opponents = (("random", random_agent), ("perfect", perfect_agent))
    out = []
    for index, name in enumerate(TOURNAMENT_AGENTS):
        agent = make_agent(name, **options.get(name, {}))
        for o, (opponent_name, opponent) in enumerate(opponents):
            base = child_seed(seed, 10 * index + o)
            first = tournament(game, agent, opponent, games - games // 2, seed=child_seed(base, 1))
            second = tournament(game, opponent, agent, games // 2, seed=child_seed(base, 2))
            wins = first.wins[1] + second.wins[2]
            low, high = wilson_interval(wins, games)
            out.append(RatePoint(name, opponent_name, wins, games, low, high))
            _tick(progress, 1)
    return tuple(out)


# -- figures ---------------------------------------------------------------------------


def _pyplot():
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - the plot extra is missing
        raise ImportError("plots need matplotlib: pip install 'fnmcts[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _figure_pi(data):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    n = [p.n for p in data]
    ax.fill_between(n, [p.low for p in data], [p.high for p in data], alpha=0.25, label="95% interval")
    ax.plot(n, [p.estimate for p in data], marker=".", label="4 x hits / darts")
    ax.axhline(math.pi, color="black", linewidth=1, linestyle="--", label="pi")
    ax.set_xscale("log")
    ax.set_ylim(2.6, 3.7)
    ax.set_xlabel("darts thrown")
    ax.set_ylabel("estimate of pi")
    ax.set_title("Task 1: pi from darts, with its 95% band")
    ax.legend(loc="upper right")
    return fig


def _figure_mcts(data):
    curve, random_value, optimum = data
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    dives = [p.dives for p in curve]
    ax.plot(dives, [p.greedy_value for p in curve], marker="o", label="greedy policy read off the tree (exact value)")
    ax.plot(dives, [p.win_rate for p in curve], marker=".", label="the dives' own win rate")
    ax.axhline(optimum, color="green", linestyle="--", label=f"optimum (exact) {optimum:.4f}")
    ax.axhline(random_value, color="grey", linestyle=":", label=f"random play (exact) {random_value:.4f}")
    ax.set_xscale("log")
    ax.set_ylim(0, optimum * 1.15)
    ax.set_xlabel("dives")
    ax.set_ylabel("probability of winning")
    ax.set_title("Task 11: MCTS learning Shut the Box")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def _figure_flat_mc(data):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    heaps = [p.heap for p in data]
    ax.bar(heaps, [p.right for p in data], color="tab:blue", label="share of runs picking the winning move")
    ax.plot(heaps, [1.0 if p.limit_right else 0.0 for p in data], "kx", label="infinite trials (exact limit): right?")
    ax.set_xlabel("heap (winning heaps only)")
    ax.set_ylabel("winning move found")
    ax.set_ylim(-0.05, 1.1)
    ax.set_title("The 21 game: flat Monte Carlo (evaluate_position) by heap size")
    ax.legend(loc="upper right", fontsize="small")
    return fig


def _figure_qlearning(data):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    ax.plot([p.games for p in data], [p.optimal for p in data], marker="o")
    ax.axhline(1.0, color="green", linestyle="--", label="every winning state")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("training games (self-play)")
    ax.set_ylabel("greedy move optimal (share of winning states)")
    ax.set_title("Q-learning Nim, piles 1, 3, 5, 7")
    ax.legend(loc="lower right")
    return fig


def _figure_tournament(data):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    agents = list(dict.fromkeys(p.agent for p in data))
    for offset, (opponent, color) in enumerate((("random", "tab:blue"), ("perfect", "tab:red"))):
        rows = [p for p in data if p.opponent == opponent]
        x = [agents.index(p.agent) + (offset - 0.5) * 0.3 for p in rows]
        rate = [p.wins / p.games for p in rows]
        err = [[r - p.low for r, p in zip(rate, rows)], [p.high - r for r, p in zip(rate, rows)]]
        ax.errorbar(x, rate, yerr=err, fmt="o", color=color, capsize=4, label=f"against {opponent}")
    ax.set_xticks(range(len(agents)))
    ax.set_xticklabels(agents)
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title("Nim 21, take 1-3, last taker loses: half the games on each side")
    ax.legend(loc="upper left", fontsize="small")
    return fig


PLOTS = {
    "pi": (pi_data, _figure_pi, "the darts estimate of pi converging, with its 95% band"),
    "mcts": (mcts_data, _figure_mcts, "MCTS learning curve on Shut the Box against the optimum and random play"),
    "flat-mc": (flat_mc_data, _figure_flat_mc, "flat Monte Carlo accuracy by heap size, with the exact limit"),
    "qlearning": (qlearning_data, _figure_qlearning, "Q-learning: optimal-move share against training games"),
    "tournament": (tournament_data, _figure_tournament, "tournament win rates with their 95% intervals"),
}
"""``name -> (data function, figure function, description)``."""


def figure(name: str, data):
    """The matplotlib ``Figure`` of plot ``name`` for ``data`` (from its data function).

    >>> fig = figure("pi", pi_data(1_000, points=3))
    >>> fig.axes[0].get_xlabel()
    'darts thrown'
    """
    if name not in PLOTS:
        raise ValueError(f"no plot named {name!r}: choose one of {', '.join(PLOTS)}")
    return PLOTS[name][1](data)


def figure_bytes(fig, fmt: str = "png") -> bytes:
    """``fig`` as the bytes of a PNG or SVG file: the same bytes for the same figure.

    The file carries no date, and SVG ids come from a fixed salt.

    >>> figure_bytes(figure("pi", pi_data(100, points=2)), "svg")[:5]
    b'<?xml'
    """
    import io

    import matplotlib

    fmt = fmt.lower()
    if fmt not in ("png", "svg"):
        raise ValueError(f"a plot is written as png or svg, not {fmt!r}")
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "fnmcts"}):
        fig.savefig(buffer, format=fmt, metadata=metadata, dpi=100)
    _pyplot().close(fig)
    return buffer.getvalue()


def save_figure(fig, path) -> Path:
    """Write ``fig`` to ``path`` (``.png`` or ``.svg``) whole: a temporary file, then a rename.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "pi.svg"
    >>> save_figure(figure("pi", pi_data(100, points=2)), path).read_text().startswith("<?xml")
    True
    """
    import os
    import tempfile

    path = check_target(path)
    data = figure_bytes(fig, path.suffix.lstrip(".") or "?")
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    return path
