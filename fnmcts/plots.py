"""Pictures of what the methods learn: the data as immutable values, the figures with matplotlib.

Each picture is two steps. A data function computes what is drawn, as a
tuple of named tuples (pure: the same generator state, the same data). A
figure function draws it with matplotlib (the ``plot`` extra:
``pip install 'fnmcts[plot]'``) and returns the ``Figure``; ``save_figure``
writes it to a PNG or SVG file that is the same, byte for byte, for the same
data. ``fnmcts plot GAME [--what KIND] -o FILE`` does all three.

The pictures of any game (``KINDS``, drawn by ``draw``) take the game and an
explicit ``rng``:

| kind | data function | what it shows |
|---|---|---|
| ``search`` | ``search_curve`` | one search's root value, its move and that move's share of the visits against dives; with exact values, the move's value (one player: the greedy policy's) beside the optimum |
| ``flat-mc`` | ``flat_mc_curve`` | flat Monte Carlo beside MCTS at equal playouts: the share of runs that pick an exact best move |
| ``tournament`` | ``match_curve`` | a match's running score between two agents, sides alternating, with its 95% band |
| ``qlearning`` | ``qlearning_curve`` | Q-learning by self-play: the optimal-move share against training games |
| ``simulate`` | ``estimate_curve`` | a running Monte Carlo estimate with its 95% band: random play (``random_play_trial``), the coin, the darts |
| ``convergence`` | ``convergence_curve`` | random play's running mean payoff with its fixed-n 95% band and its anytime-valid band (``fnmcts.lab``), beside the exact value |

The tutorial's five pictures (``PLOTS``, drawn by ``figure``) keep their
fixed games and take a seed; ``fnmcts plot NAME`` draws them, the old
spelling, for one release:

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
from statistics import NormalDist
from typing import Callable, NamedTuple

from .agents import make_agent, perfect_agent
from .files import check_target
from .exact import best_moves, evaluate_policy, random_policy, solve, value
from .games import darts
from .games.nim import Nim
from .games.shut_the_box import ShutTheBox
from .mcts import mcts_move, mean, search, ucb, visits
from .views import greedy_policy
from .lab import anytime_intervals
from .montecarlo import mean_interval, wilson_interval
from .sampling import Z95
from .matches import play_game, playout, random_agent, tournament
from .protocol import CHANCE, describe_move, game_text, payoff_range
from .qlearning import optimal_move_rate, train as qlearn
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
    "EstimatePoint",
    "estimate_curve",
    "random_play_trial",
    "ConvergencePoint",
    "convergence_curve",
    "SearchPoint",
    "search_curve",
    "BudgetPoint",
    "flat_mc_curve",
    "ScorePoint",
    "match_curve",
    "qlearning_curve",
    "KINDS",
    "draw",
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


# -- pictures of any game: the game and the rng given -----------------------------------


def _rescaled(game, payoff, player: int) -> float:
    """``player``'s payoff on [0, 1]: the worst payoff there is 0, the best 1 (a draw 1/2)."""
    low, high = payoff_range(game)
    return float((payoff[player] - low) / (high - low)) if high != low else 0.5


class EstimatePoint(NamedTuple):
    """After ``n`` trials: the share of successes, with its 95% Wilson interval.

    >>> EstimatePoint(100, 0.43, 0.34, 0.53).estimate
    0.43
    """

    n: int
    estimate: float
    low: float
    high: float


def estimate_curve(trial: Callable, n: int, rng, points: int = 40, progress: Callable | None = None) -> tuple:
    """``n`` trials one after another (``trial(rng)``: a success?): the running share of successes at checkpoints.

    The Monte Carlo estimate of a probability converging, with its 95% Wilson
    interval: the coin's heads, the darts inside the circle (4 times it is pi),
    player 1's wins in random play (``random_play_trial``).

    >>> from fnmcts.games import coin
    >>> heads = lambda rng: coin.is_win(coin.flip_coin(rng))
    >>> [(p.n, p.estimate) for p in estimate_curve(heads, 1_000, make_rng(1), points=3)]
    [(10, 0.6), (100, 0.47), (1000, 0.473)]
    """
    marks = checkpoints(n, points)
    out, wins, done = [], 0, 0
    for mark in marks:
        for _ in range(mark - done):
            wins += bool(trial(rng))
        _tick(progress, mark - done)
        done = mark
        low, high = wilson_interval(wins, done)
        out.append(EstimatePoint(done, wins / done, low, high))
    return tuple(out)


class ConvergencePoint(NamedTuple):
    """After ``n`` games: the running mean payoff, its fixed-n 95% interval and its anytime-valid 95% interval.

    >>> ConvergencePoint(100, 0.5, 0.4, 0.6, 0.3, 0.7).anytime_high
    0.7
    """

    n: int
    estimate: float
    low: float
    high: float
    anytime_low: float
    anytime_high: float


def convergence_curve(game, n: int, rng, points: int = 40, *, state=None, exact: float | None = None,
                      alpha: float = 0.05, progress: Callable | None = None) -> tuple:
    """``n`` random games of ``game`` from ``state``: player 1's running mean payoff at checkpoints, with both bands.

    At each checkpoint the fixed-n ``1 - alpha`` interval (``mean_interval``:
    right only for a number of games fixed in advance) and the anytime-valid
    one (``fnmcts.lab.anytime_intervals``: right wherever the run stops, and
    wider for it). Returns ``(curve, exact)``: ``exact`` is passed through, the
    exact value to draw beside them (``fnmcts.lab.exact_variances(game).value``
    for random play from the start), or ``None``.

    >>> from fnmcts.games import Coin
    >>> curve, exact = convergence_curve(Coin(), 1_000, make_rng(1), points=3, exact=0.5)
    >>> [(p.n, p.estimate, round(p.high - p.low, 3), round(p.anytime_high - p.anytime_low, 3)) for p in curve]
    [(10, 0.6, 0.64, 1.0), (100, 0.47, 0.197, 0.273), (1000, 0.473, 0.062, 0.123)]
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    start = game.start() if state is None else state
    low, high = (float(x) for x in payoff_range(game))
    z = Z95 if alpha == 0.05 else NormalDist().inv_cdf(1 - alpha / 2)
    marks = set(checkpoints(n, points))
    sums = [0.0, 0.0]

    def payoffs():
        for _ in range(n):
            y = float(game.payoff(playout(game, start, rng))[0])
            sums[0], sums[1] = sums[0] + y, sums[1] + y * y
            yield y

    out = []
    for t, (a_low, a_high) in enumerate(anytime_intervals(payoffs(), low, high, alpha), start=1):
        if t in marks:
            f_low, f_high = mean_interval(sums[0], sums[1], t, low, high, z)
            out.append(ConvergencePoint(t, sums[0] / t, f_low, f_high, a_low, a_high))
            _tick(progress, t - (out[-2].n if len(out) > 1 else 0))
    return tuple(out), exact


def random_play_trial(game, state=None) -> Callable:
    """``rng -> bool``: one game of ``game`` played at random from ``state`` (default: the start); did player 1 win?

    A win is player 1's best payoff there is (``payoff_range``): a draw or a
    graded score short of the best is not a win, as ``simulate`` counts.

    >>> from fnmcts.games import Nim
    >>> trial = random_play_trial(Nim(heap=1))
    >>> trial(make_rng(1))  # player 1 must take the last item: misere Nim, a loss
    False
    """
    start = game.start() if state is None else state
    best = payoff_range(game)[1]
    return lambda rng: game.payoff(playout(game, start, rng))[0] == best


class SearchPoint(NamedTuple):
    """One search after ``dives`` dives: what the root has learned, and how good its choice is when exact values are known.

    ``value``: the mean payoff of the root's dives for the player to move, on
    [0, 1] (a draw 1/2). ``best_move``: the move the search plays there
    (``mcts_move``'s choice: proofs first, then the visits); ``best_share``:
    its share of the root's visits. ``move_value``: its exact value on the same
    scale (``None`` without exact values). ``greedy_value``: in a game of one
    player, the exact value of the whole greedy policy read off the tree (else
    ``None``). At a chance root (the dice first) there is no move yet: ``value``
    is the dives' mean in a game of one player, the rest ``None``.
    ``proven``: once the search has proven the root (MCTS-Solver), its exact
    value on the same scale, which ``value`` then is too; ``dives`` counts the
    dives that ran (a search stops at its proof), so a proven point is the last.

    >>> SearchPoint(100, 0.6, 0.5, "take 1", 1.0, None).best_move
    'take 1'
    """

    dives: int
    value: float | None
    best_share: float | None
    best_move: str | None
    move_value: float | None
    greedy_value: float | None
    proven: float | None = None


def search_curve(game, dives: int, rng, points: int = 8, *, state=None, solution=None,
                 progress: Callable | None = None, **options) -> tuple:
    """One search on ``game`` grown to ``dives`` from ``state`` (default: the start), read at checkpoints (from 10 dives).

    The tree grows by ``mcts_move`` from checkpoint to checkpoint; a root
    proven by MCTS-Solver stops the search: the last point is where it was
    proven, at the dives that ran, with its exact value. ``options`` are
    the search's (``fnmcts.mcts.search``'s: ``rule``, ``c``, ``final``, ...). With ``solution`` (``exact.solve``'s) each point also holds the exact
    value of the move the search would play, and the curve's companion is the
    optimum. Returns ``(curve, optimum)`` (``optimum`` ``None`` without a solution).

    >>> from fnmcts.exact import solve
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=7, max_take=3, misere=False)
    >>> curve, optimum = search_curve(game, 1_000, make_rng(1), points=2, solution=solve(game))
    >>> [(p.dives, p.best_move, p.move_value) for p in curve], optimum  # wrong at 10 dives, proven at 14
    ([(10, 'take 2', 0.0), (14, 'take 3', 1.0)], 1.0)
    """
    root = game.start() if state is None else state
    player = game.to_move(root)
    if player is None:
        raise ValueError("the game is over at this state: nothing to search")
    alone = getattr(game, "num_players", 2) == 1
    tree, done, out = None, 0, []
    for mark in checkpoints(dives, points):
        tree, done, move, seen = _grown(game, root, player, alone, mark - done, rng, tree, done, options)
        point = _search_point(game, root, player, alone, tree, done, move, seen, solution)
        out.append(point)
        _tick(progress, 1)
        if point.proven is not None:  # the search has stopped: its move and value are known
            break
    optimum = None
    if solution is not None and (player is not CHANCE or alone):
        optimum = _rescaled(game, value(solution, root), 0 if player is CHANCE else player)
    return tuple(out), optimum


def _grown(game, root, player, alone, more, rng, tree, done, options) -> tuple:
    """``(tree, dives done, move or None, [(move, visits, mean), ...])``: the search grown by ``more`` dives."""
    if player is CHANCE:  # dice first (Shut the Box): the search grows from the roll, no move to play yet
        tree = search(game, root, more, rng, tree=tree, until_proven=True,
                      **{k: v for k, v in options.items() if k != "final"})
        done = visits(tree[root]) if root in tree else 0
        return tree, done, None, [(None, visits(tree[root]), mean(tree[root]))] if root in tree and alone else []
    found = mcts_move(game, root, more, rng, tree=tree, **options)
    return (found.tree, done + found.iterations, found.move,
            [(m, visits(record), mean(record)) for m, record in found.children])


def _search_point(game, root, player, alone, tree, done, move, seen, solution) -> SearchPoint:
    """The ``SearchPoint`` of a search at ``done`` dives: its value, its move, and with ``solution`` exact values."""
    exact = tree[root].get("proven") if root in tree else None
    proven = None if exact is None else _rescaled(game, exact, 0 if player is CHANCE else player)
    total = sum(n for _, n, _ in seen)
    move_value = greedy = None
    if solution is not None and move is not None:
        move_value = _rescaled(game, value(solution, game.play(root, move)), player)
    if solution is not None and alone:
        greedy = _rescaled(game, value(evaluate_policy(game, greedy_policy(tree), root), root), 0)
    return SearchPoint(
        done, proven if proven is not None else sum(n * m for _, n, m in seen) / total if total else None,
        sum(n for m, n, _ in seen if m == move) / total if total and move is not None else None,
        None if move is None else describe_move(game, root, move), move_value, greedy, proven)


class BudgetPoint(NamedTuple):
    """At ``playouts`` random games a move: how often flat Monte Carlo and MCTS (the same playouts in all) pick a best move.

    >>> BudgetPoint(10, 0.6, 0.9, 20).mcts
    0.9
    """

    playouts: int
    flat: float
    mcts: float
    runs: int


def flat_mc_curve(game, playouts: int, rng, solution, points: int = 6, runs: int = 20, *, state=None,
                  progress: Callable | None = None, **options) -> tuple:
    """Flat Monte Carlo beside MCTS at ``state`` (default: the start): the share of ``runs`` runs picking an exact best move.

    At each budget (checkpoints up to ``playouts`` random games a move, from
    1), flat Monte Carlo plays that many games after each move and MCTS as
    many dives in all (``options``: the search's); a move is right when the
    exact ``solution`` says it is best.

    >>> from fnmcts.exact import solve
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=10, max_take=3, misere=False)  # take 2: flat Monte Carlo's limit is wrong here
    >>> [(p.playouts, p.flat, p.mcts) for p in flat_mc_curve(game, 100, make_rng(1), solve(game), points=3, runs=10)]
    [(1, 0.3, 0.3), (10, 0.7, 1.0), (100, 0.5, 1.0)]
    """
    root = game.start() if state is None else state
    player = game.to_move(root)
    if player is None or player is CHANCE:
        raise ValueError("flat Monte Carlo picks a move: give a state where a player is to move")
    right = set(best_moves(game, solution, root))
    moves = len(game.possible_moves(root))
    out = []
    for budget in checkpoints(playouts, points, first=1):
        flat = make_agent("montecarlo", trials=budget)
        tree_search = make_agent("mcts", iterations=budget * moves, **options)
        hits = [sum(agent(game, root, rng) in right for _ in range(runs)) for agent in (flat, tree_search)]
        out.append(BudgetPoint(budget, hits[0] / runs, hits[1] / runs, runs))
        _tick(progress, 1)
    return tuple(out)


class ScorePoint(NamedTuple):
    """After ``games`` games: the first agent's score (a win 1, a draw 1/2) a game, with its 95% interval.

    >>> ScorePoint(10, 0.75, 0.45, 0.92).score
    0.75
    """

    games: int
    score: float
    low: float
    high: float


def match_curve(game, agent1, agent2, games: int, rng, progress: Callable | None = None) -> tuple:
    """``games`` games of ``agent1`` against ``agent2``, sides alternating (``agent1`` first in the odd games): the running score.

    One point a game: ``agent1``'s points so far over the games so far (a
    win 1, a draw 1/2, a loss 0), with the 95% interval of a mean of payoffs
    in [0, 1] (``mean_interval``). Each game draws from its own child of one
    seed drawn from ``rng``.

    >>> from fnmcts.agents import perfect_agent, random_agent
    >>> from fnmcts.games import Nim
    >>> [p.score for p in match_curve(Nim(heap=5, max_take=3, misere=False), perfect_agent, random_agent, 4, make_rng(1))]
    [1.0, 1.0, 1.0, 1.0]
    """
    if getattr(game, "num_players", 2) != 2:
        raise ValueError(f"a match is between two players; {game_text(game)} has {game.num_players}")
    base = rng.getrandbits(63)
    out, total, squares = [], 0.0, 0.0
    for number in range(games):
        first = number % 2 == 0
        pair = (agent1, agent2) if first else (agent2, agent1)
        record = play_game(game, *pair, seed=child_seed(base, number))
        points = _rescaled(game, record.payoff, 0 if first else 1)
        total, squares = total + points, squares + points * points
        low, high = mean_interval(total, squares, number + 1)
        out.append(ScorePoint(number + 1, total / (number + 1), low, high))
        _tick(progress, 1)
    return tuple(out)


def qlearning_curve(game, games: int, rng, solution, points: int = 10, progress: Callable | None = None) -> tuple:
    """One Q-learning AI trained by self-play on ``game`` to ``games`` games: its optimal-move share at checkpoints.

    The share of reachable winning states where the greedy move is optimal
    (``qlearning.optimal_move_rate`` against the exact ``solution``).

    >>> from fnmcts.exact import solve
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=21, max_take=3)
    >>> [(p.games, round(p.optimal, 3)) for p in qlearning_curve(game, 3_000, make_rng(2), solve(game), points=3)]
    [(10, 0.6), (173, 1.0), (3000, 1.0)]
    """
    ai, done, out = None, 0, []
    for mark in checkpoints(games, points):
        ai = qlearn(mark - done, game=None if ai is not None else game, ai=ai, rng=rng, limit=None)
        done = mark
        out.append(QPoint(mark, float(optimal_move_rate(ai, solution))))
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


def _finish_log_axes(ax, xlabel, ylabel, title, ylim=None, **legend):
    """A figure over a log x axis finished: its y range, labels, title and legend (``legend``: its options)."""
    ax.set_xscale("log")
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(**legend)


def _figure_pi(data):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    n = [p.n for p in data]
    ax.fill_between(n, [p.low for p in data], [p.high for p in data], alpha=0.25, label="95% interval")
    ax.plot(n, [p.estimate for p in data], marker=".", label="4 x hits / darts")
    ax.axhline(math.pi, color="black", linewidth=1, linestyle="--", label="pi")
    _finish_log_axes(
        ax, "darts thrown", "estimate of pi", "Task 1: pi from darts, with its 95% band",
        ylim=(2.6, 3.7), loc="upper right",
    )
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
    _finish_log_axes(
        ax, "dives", "probability of winning", "Task 11: MCTS learning Shut the Box",
        ylim=(0, optimum * 1.15), loc="lower right", fontsize="small",
    )
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
    _finish_log_axes(
        ax, "training games (self-play)", "greedy move optimal (share of winning states)",
        "Q-learning Nim, piles 1, 3, 5, 7",
        ylim=(0, 1.05), loc="lower right",
    )
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


def _figure_estimate(data, title="", scale=1.0, what="share of successes", truth=None):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    n = [p.n for p in data]
    ax.fill_between(n, [scale * p.low for p in data], [scale * p.high for p in data], alpha=0.25, label="95% interval")
    ax.plot(n, [scale * p.estimate for p in data], marker=".", label=what)
    if truth is not None:
        ax.axhline(truth[1], color="black", linewidth=1, linestyle="--", label=truth[0])
    return _log_scaled(fig, "trials", what, title or "A Monte Carlo estimate converging, with its 95% band")


def _log_scaled(fig, xlabel, ylabel, title):
    """``fig`` with its runs on a log scale, its axes' labels, its title and a small legend at the top right."""
    ax = fig.axes[0]
    _finish_log_axes(ax, xlabel, ylabel, title, loc="upper right", fontsize="small")
    return fig


def _figure_convergence(data, title="", what="player 1's mean payoff"):
    curve, exact = data
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    n = [p.n for p in curve]
    ax.fill_between(n, [p.anytime_low for p in curve], [p.anytime_high for p in curve], alpha=0.2, color="tab:orange",
                    label="anytime-valid 95% band (stop whenever you like)")
    ax.fill_between(n, [p.low for p in curve], [p.high for p in curve], alpha=0.35, color="tab:blue",
                    label="fixed-n 95% interval (n chosen in advance)")
    ax.plot(n, [p.estimate for p in curve], marker=".", color="tab:blue", label="running estimate")
    if exact is not None:
        ax.axhline(exact, color="black", linewidth=1, linestyle="--", label=f"exact value {exact:.6g}")
    return _log_scaled(fig, "games", what, title or "A Monte Carlo estimate converging: fixed-n and anytime-valid bands")


def _figure_search(data, title=""):
    curve, optimum = data
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    dives = [p.dives for p in curve]
    lines = (("value", ".", "the root's mean payoff (0 worst, 1 best)"),
             ("best_share", "s", "the move played: its share of the root's visits"),
             ("move_value", "o", "the move played: its exact value"),
             ("greedy_value", "^", "the greedy policy's exact value"))
    shown = [optimum] if optimum is not None else []
    for name, marker, label in lines:
        values = [getattr(p, name) for p in curve]
        if any(v is not None for v in values):
            ax.plot(dives, [math.nan if v is None else v for v in values], marker=marker, label=label)
            shown += [v for v in values if v is not None]
    if optimum is not None:
        ax.axhline(optimum, color="green", linestyle="--", label=f"optimum (exact) {optimum:.4f}")
    if curve and curve[-1].proven is not None:
        ax.axvline(curve[-1].dives, color="grey", linestyle=":",
                   label=f"root proven at {curve[-1].dives:,} dives: {curve[-1].proven:.4f} (the search stops)")
    _finish_log_axes(
        ax, "dives", "share or value on [0, 1]", title or "MCTS: what the root learns as the dives add up",
        ylim=(-0.02, min(1.05, max(0.1, 1.15 * max(shown, default=1.0)))), loc="best", fontsize="small",
    )
    return fig


def _figure_flat_mc_curve(data, title=""):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    budgets = [p.playouts for p in data]
    ax.plot(budgets, [p.flat for p in data], marker="o", label="flat Monte Carlo")
    ax.plot(budgets, [p.mcts for p in data], marker="s", label="MCTS, the same playouts in all")
    _finish_log_axes(
        ax, "random games a move", f"runs picking an exact best move (of {data[0].runs if data else 0})",
        title or "Flat Monte Carlo beside MCTS",
        ylim=(-0.05, 1.05), loc="lower right", fontsize="small",
    )
    return fig


def _figure_match(data, title=""):
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    games = [p.games for p in data]
    ax.fill_between(games, [p.low for p in data], [p.high for p in data], alpha=0.25, label="95% interval")
    ax.plot(games, [p.score for p in data], label="the first agent's score a game")
    ax.axhline(0.5, color="grey", linestyle=":", label="even")
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("games (sides alternating)")
    ax.set_ylabel("score a game (win 1, draw 1/2)")
    ax.set_title(title or "A match's running score")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def _figure_qlearning_curve(data, title=""):
    fig = _figure_qlearning(data)
    fig.axes[0].set_title(title or "Q-learning by self-play")
    return fig


KINDS = {
    "search": (search_curve, _figure_search, "the search's root value and best-move share against dives (any game)"),
    "flat-mc": (flat_mc_curve, _figure_flat_mc_curve, "flat Monte Carlo beside MCTS: how often each picks an exact best move"),
    "tournament": (match_curve, _figure_match, "a match's running score between two agents (two-player games)"),
    "qlearning": (qlearning_curve, _figure_qlearning_curve, "Q-learning's optimal-move share against training games (two-player games)"),
    "simulate": (estimate_curve, _figure_estimate, "random play's running estimate, with its 95% band (pi for darts)"),
    "convergence": (convergence_curve, _figure_convergence,
                    "random play's running mean payoff, its fixed-n and anytime-valid bands and the exact value"),
}
"""``kind -> (data function, figure function, description)``: the pictures of any game (``fnmcts plot GAME --what KIND``)."""


def draw(kind: str, data, title: str = "", **labels):
    """The matplotlib ``Figure`` of picture ``kind`` of ``KINDS`` for ``data`` (from its data function), under ``title``.

    ``labels`` go to the figure function (the estimate's ``scale``, ``what``
    and ``truth``: darts draw 4 times the share, beside pi).

    >>> from fnmcts.games import Nim
    >>> fig = draw("tournament", match_curve(Nim(heap=5), random_agent, random_agent, 4, make_rng(1)), "Nim")
    >>> fig.axes[0].get_title()
    'Nim'
    """
    if kind not in KINDS:
        raise ValueError(f"no picture of kind {kind!r}: choose one of {', '.join(KINDS)}")
    return KINDS[kind][1](data, title, **labels)


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
