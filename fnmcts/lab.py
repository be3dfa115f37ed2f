"""The Monte Carlo lab: variance reduction measured against exact variance, anytime-valid intervals.

Plain sampling (``plain``) plays random games and averages player 1's payoff.
The lab's other estimators play the same games differently and lower the
variance per game played, each a pure function of an explicit ``rng``
returning an ``Estimate`` (estimate, standard error, 95% interval, games):

* ``antithetic``: games in pairs, the second's chance outcomes the mirror
  image of the first's (the game's ``antithetic_outcome`` hook: on dice,
  face ``k`` and ``7 - k``);
* ``control_variate``: the payoff minus a fitted multiple of a control of
  exact mean 0, the sum over the game's chance events of a feature of the
  outcome minus its expectation at that node (the game's ``control_feature``
  hook: a feature of the game, never its value function);
* ``stratified``: games from each stratum of the game's ``strata`` hook (the
  states after the first roll, with their probabilities), in proportion or by
  optimal (Neyman) allocation from a pilot run;
* ``importance``: chance outcomes and random moves drawn from the game's
  ``proposal`` hook, each game weighted by the likelihood ratio (rare events);
* ``common_random_numbers``: two policies compared on the same dice.

A game without the hook a method needs gets a ``TypeError`` naming the hook.
``exact_variances`` computes, on any acyclic game with chance (through the
game protocol and exact policy weights), the exact variance per game played
of each estimator, and ``variance_factors`` the reduction factors; the tests
hold every measured factor within its sampling interval of these.

``confidence_sequence`` gives anytime-valid intervals for bounded payoffs
(the predictable plug-in empirical Bernstein sequence of Waudby-Smith and
Ramdas, 2023): they hold at every number of games at once, so a student may
stop when the interval looks narrow enough; ``run_until`` plays until its
half-width is below ``eps``.

>>> from fnmcts.games.shut_the_box import ShutTheBox
>>> game = ShutTheBox(levers=4)
>>> record = antithetic(game, 2_000, random.Random(1))
>>> record.games, round(record.estimate, 3), round(exact_variances(game).value, 4)
(4000, 0.152, 0.147)
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from itertools import accumulate
from typing import Callable

from pyrsistent import field, pmap

from .exact import evaluate_policy, random_policy, value as exact_value
from .limits import STATE_LIMIT
from .protocol import CHANCE, game_text, may_repeat, payoff_range
from .rng import check_rng
from .sampling import Z95
from .values import FixedRecord

__all__ = [
    "Estimate",
    "ExactVariances",
    "METHODS",
    "BATCH_METHODS",
    "plain",
    "antithetic",
    "control_variate",
    "stratified",
    "importance",
    "common_random_numbers",
    "estimate_with",
    "batch_estimate",
    "comparison",
    "exact_variances",
    "variance_factors",
    "exact_difference_variances",
    "confidence_sequence",
    "anytime_intervals",
    "run_until",
]

METHODS = ("plain", "antithetic", "control", "stratified", "importance")
"""The estimators of one game's value, by the names ``estimate_with`` and the command line take."""

BATCH_METHODS = ("plain", "antithetic", "control", "stratified")
"""The estimators that vectorise: the methods a game's ``lab_batch`` hook plays in numpy (``batch_estimate``)."""

HOOKS = {"antithetic": "antithetic_outcome", "control": "control_feature", "stratified": "strata",
         "importance": "proposal"}
"""The game hook each method needs."""


class Estimate(FixedRecord):
    """One estimator's result: the estimate, its standard error, its 95% interval, the games played.

    ``batch`` says whether the games were played in numpy (``batch_estimate``).

    >>> Estimate(method="plain", estimate=0.5, std_error=0.1, ci_low=0.3, ci_high=0.7, games=25).games
    25
    """

    method = field(type=str, mandatory=True)
    estimate = field(type=float, mandatory=True)
    std_error = field(type=float, mandatory=True)
    ci_low = field(type=float, mandatory=True)
    ci_high = field(type=float, mandatory=True)
    games = field(type=int, mandatory=True)
    batch = field(type=bool, initial=False)


def _record(method, mean, se, games, low, high) -> Estimate:
    """An ``Estimate`` with the normal 95% interval ``mean +/- 1.96 se``, clipped to ``[low, high]``."""
    return Estimate(method=method, estimate=float(mean), std_error=float(se),
                    ci_low=float(min(high, max(low, mean - Z95 * se))),
                    ci_high=float(max(low, min(high, mean + Z95 * se))), games=int(games))


def _count(n, what="n") -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"{what} must be a whole number >= 2, got {n!r}")
    return n


def _check_rng(rng, n=2, what="n") -> None:
    """A ``TypeError`` unless ``rng`` is a ``random.Random``; a ``ValueError`` unless ``n`` is a count >= 2."""
    _count(n, what)
    check_rng(rng)


def _hooks(game) -> dict:
    """``method -> the game's hook for it, or None`` (each read by its literal name)."""
    found = {"antithetic": getattr(game, "antithetic_outcome", None), "control": getattr(game, "control_feature", None),
             "stratified": getattr(game, "strata", None), "importance": getattr(game, "proposal", None)}
    return {method: hook if callable(hook) else None for method, hook in found.items()}


def _needed(game, method: str):
    name = HOOKS[method]
    hook = _hooks(game)[method]
    if hook is None:
        raise TypeError(f"the {method} method needs the game hook {name}(...); {game_text(game)} has none")
    return hook


def _mean_var(xs) -> tuple:
    n = len(xs)
    mean = math.fsum(xs) / n
    return mean, math.fsum((x - mean) ** 2 for x in xs) / (n - 1)


# --- one game through the protocol -------------------------------------------------------------

def _node(game, state, policy):
    """``(is_chance, options, probabilities)`` at ``state``, or None where the game is over."""
    player = game.to_move(state)
    if player is None:
        return None
    if player is CHANCE:
        pairs = game.chance_outcomes(state)
        return True, tuple(o for o, _ in pairs), tuple(float(p) for _, p in pairs)
    if policy is random_policy:  # uniform: the same probabilities, without a Fraction a move
        moves = tuple(game.possible_moves(state))
        return False, moves, (1.0 / len(moves),) * len(moves)
    pairs = policy(game, state)
    return False, tuple(m for m, _ in pairs), tuple(float(p) for _, p in pairs)


def _pick(probabilities, u: float) -> int:
    cumulative = list(accumulate(probabilities))
    return min(bisect_right(cumulative, u * cumulative[-1]), len(probabilities) - 1)


def _proposed(game, state, chance, options, probabilities, proposal):
    """The proposal's probabilities at a node (chance, or a random move), checked."""
    q = tuple(float(x) for x in proposal(state, options, probabilities))
    if len(q) != len(options) or any(x < 0 for x in q) or abs(sum(q) - 1) > 1e-9 or any(
            p > 0 and x == 0 for p, x in zip(probabilities, q)):
        raise ValueError(f"proposal at {state!r} must give a probability > 0 to every option of "
                         f"probability > 0, summing to 1; got {q!r}")
    return q


def _coupled(mirror, a, node_a, node_b):
    """``b``'s outcome index for each of ``a``'s chance outcomes, or ``None`` where the two nodes differ in kind.

    Two chance nodes are coupled when they have the same outcomes with the same
    probabilities (one die against two is not): ``b`` then takes ``a``'s outcome,
    or its mirror ``mirror(a, outcome)``, which must map the outcomes one to one
    onto outcomes of equal probability. Elsewhere the two draw independently.
    """
    if not _same_kind(node_a, node_b):
        return None
    options_a, probabilities_a = node_a[1], node_a[2]
    options_b, probabilities_b = node_b[1], node_b[2]
    index = [_coupled_index(mirror, a, o, options_b) for o in options_a]
    if sorted(index) != list(range(len(options_b))) or any(
            abs(probabilities_b[i] - p) > 1e-9 for i, p in zip(index, probabilities_a)):
        raise ValueError(f"the coupling at {a!r} does not keep the outcomes' probabilities "
                         "(an antithetic map must be a bijection between outcomes of equal probability)")
    return index


def _same_kind(node_a, node_b) -> bool:
    """Whether two chance nodes have the same outcomes with the same probabilities (in any order)."""
    pairs_a, pairs_b = tuple(zip(node_a[1], node_a[2])), tuple(zip(node_b[1], node_b[2]))
    return pairs_a == pairs_b or sorted(map(repr, pairs_a)) == sorted(map(repr, pairs_b))


def _coupled_index(mirror, a, outcome, options_b) -> int:
    """The index among ``options_b`` of ``a``'s ``outcome`` (or of its mirror ``mirror(a, outcome)``)."""
    ob = mirror(a, outcome) if mirror else outcome
    try:
        return options_b.index(ob)
    except ValueError:
        raise ValueError(f"antithetic_outcome gave {ob!r} at {a!r}, not one of {options_b!r}") from None


def _play(game, state, policy, rng, *, given=(), mirror=None, feature=None, proposal=None):
    """One game from ``state``: ``(payoff, likelihood ratio, control, chance nodes met)``.

    ``given``: the chance nodes of another game, ``(state, node, outcome index)``
    each; the k-th chance node of this game takes the k-th outcome of ``given``
    (through ``mirror``) where the two nodes are coupled (``_coupled``), and
    draws its own where they are not or once ``given`` runs out.
    """
    weight, control, drawn = 1.0, 0.0, []
    while True:
        node = _node(game, state, policy)
        if node is None:
            return float(game.payoff(state)[0]), weight, control, drawn
        chance, options, probabilities = node
        index = None
        if chance and len(drawn) < len(given):
            other, other_node, other_index = given[len(drawn)]
            if _same_kind(other_node, node):  # coupled: the other game's outcome, or its mirror
                index = _coupled_index(mirror, other, other_node[1][other_index], options)
        if index is None:
            if proposal is not None and (chance or policy is random_policy):
                q = _proposed(game, state, chance, options, probabilities, proposal)
                index = _pick(q, rng.random())
                weight *= probabilities[index] / q[index]
            else:
                index = _pick(probabilities, rng.random())
        if chance:
            drawn.append((state, node, index))
            if feature is not None:
                values = [float(feature(state, o)) for o in options]
                control += values[index] - math.fsum(p * v for p, v in zip(probabilities, values))
        state = game.play(state, options[index])


def _range(game) -> tuple:
    low, high = payoff_range(game)
    return float(low), float(high)


def _mean_record(method, game, ys, games=None) -> Estimate:
    """The ``Estimate`` of the mean of ``ys``, one value a game (``games`` counts them when a value stands for more).

    Its standard error is ``sqrt(var / len(ys))``; its interval is clipped to the game's payoff range.
    """
    mean, var = _mean_var(ys)
    return _record(method, mean, math.sqrt(var / len(ys)), len(ys) if games is None else games, *_range(game))


# --- the estimators ------------------------------------------------------------------------------

def plain(game, n: int, rng: random.Random, policy: Callable = random_policy) -> Estimate:
    """Plain sampling: the mean payoff of ``n`` games of ``policy`` (random play by default).

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = plain(ShutTheBox(levers=4), 1_000, random.Random(2))
    >>> record.games, round(record.estimate, 3), round(record.std_error, 4)
    (1000, 0.155, 0.0115)
    """
    _check_rng(rng, n)
    ys = [_play(game, game.start(), policy, rng)[0] for _ in range(n)]
    return _mean_record("plain", game, ys)


def antithetic(game, pairs: int, rng: random.Random) -> Estimate:
    """Antithetic variates: ``pairs`` pairs of random games, the second on the mirrored chance outcomes.

    The second game of a pair takes the first's chance outcomes, in order,
    through the game's ``antithetic_outcome(state, outcome)`` hook (a
    probability-preserving map of the first game's outcomes at ``state``), at
    each chance node of the same kind as the first game's (the same outcomes
    and probabilities: one die is not two), and draws its own elsewhere and once
    they run out; each pair counts as two games.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = antithetic(ShutTheBox(levers=4), 500, random.Random(2))
    >>> record.games, round(record.estimate, 3)
    (1000, 0.141)
    """
    _check_rng(rng, pairs, "pairs")
    mirror = _needed(game, "antithetic")
    means = []
    for _ in range(pairs):
        y1, _, _, drawn = _play(game, game.start(), random_policy, rng)
        y2 = _play(game, game.start(), random_policy, rng, given=drawn, mirror=mirror)[0]
        means.append((y1 + y2) / 2)
    return _mean_record("antithetic", game, means, games=2 * pairs)


def control_variate(game, n: int, rng: random.Random) -> Estimate:
    """Control variates: the mean payoff less a fitted multiple of a control of exact mean 0.

    The control is the sum, over the game's chance events, of the game's
    ``control_feature(state, outcome)`` less its expectation at that node: a
    martingale, so its mean is exactly 0. The coefficient is the least-squares
    fit on the same games.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = control_variate(ShutTheBox(levers=4), 1_000, random.Random(2))
    >>> record.games, round(record.estimate, 3), round(record.std_error, 4)
    (1000, 0.155, 0.0098)
    >>> record.std_error < plain(ShutTheBox(levers=4), 1_000, random.Random(2)).std_error  # the same seed: less spread
    True
    """
    _check_rng(rng, n)
    feature = _needed(game, "control")
    games = [_play(game, game.start(), random_policy, rng, feature=feature) for _ in range(n)]
    ys, cs = [g[0] for g in games], [g[2] for g in games]
    my, _ = _mean_var(ys)
    mc, vc = _mean_var(cs)
    cov = math.fsum((y - my) * (c - mc) for y, c in zip(ys, cs)) / (n - 1)
    beta = cov / vc if vc > 0 else 0.0
    adjusted = [y - beta * c for y, c in zip(ys, cs)]
    return _mean_record("control", game, adjusted)


def _strata(game) -> tuple:
    """The game's strata at its start, checked; ``None`` where its ``strata`` hook says it has none there."""
    given = _needed(game, "stratified")(game.start())
    if given is None:
        return None
    strata = tuple((float(w), s) for w, s in given)
    if not strata or abs(math.fsum(w for w, _ in strata) - 1) > 1e-9 or any(w <= 0 for w, _ in strata):
        raise ValueError(f"strata of {game_text(game)} must be (probability > 0, state) pairs whose probabilities sum to 1")
    return strata


def _allocate(n: int, shares, floor: int = 2) -> list:
    """``n`` split exactly: ``floor`` to each part, the rest in proportion to ``shares`` (largest remainders)."""
    rest = n - floor * len(shares)
    total = math.fsum(shares)
    raw = [rest * s / total for s in shares] if total > 0 else [rest / len(shares)] * len(shares)
    parts = [int(r) for r in raw]
    for i in sorted(range(len(raw)), key=lambda i: raw[i] - parts[i], reverse=True)[: rest - sum(parts)]:
        parts[i] += 1
    return [floor + k for k in parts]


def stratified(game, n: int, rng: random.Random, allocation: str = "proportional") -> Estimate:
    """Stratified sampling over the game's ``strata`` hook, by ``'proportional'`` or ``'optimal'`` allocation.

    Each stratum (a state with its probability, e.g. the box after the first
    roll) gets its share of the ``n`` games (at least 2); ``'optimal'`` spends
    a tenth of them on a proportional pilot, then the rest by Neyman allocation
    (in proportion to probability times the pilot's standard deviation).

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = stratified(ShutTheBox(levers=4), 1_000, random.Random(2))
    >>> record.games, round(record.estimate, 3)
    (1000, 0.15)
    """
    if allocation not in ("proportional", "optimal"):
        raise ValueError(f"allocation must be 'proportional' or 'optimal', got {allocation!r}")
    _check_rng(rng, n)
    strata = _strata(game)
    if strata is None:
        raise ValueError(f"{game_text(game)} has no strata at its start (its strata hook gave None): the stratified method "
                         "needs a chance node there")
    weights = [w for w, _ in strata]
    low, high = _range(game)
    if n < 2 * len(strata) * (10 if allocation == "optimal" else 1):
        raise ValueError(f"n must be at least {2 * len(strata)} (twice the {len(strata)} strata"
                         + (", ten times over for an optimal allocation)" if allocation == "optimal" else ")"))
    pilot = _allocate(n // 10 if allocation == "optimal" else n, weights)
    ys = [[_play(game, s, random_policy, rng)[0] for _ in range(k)] for k, (_, s) in zip(pilot, strata)]
    if allocation == "optimal":
        floor = 1e-3 * (high - low)
        sds = [max(floor, math.sqrt(_mean_var(y)[1])) for y in ys]
        more = _allocate(n - sum(pilot), [w * sd for w, sd in zip(weights, sds)], floor=0)
        ys = [y + [_play(game, s, random_policy, rng)[0] for _ in range(k)] for y, k, (_, s) in zip(ys, more, strata)]
    parts = [_mean_var(y) for y in ys]
    mean = math.fsum(w * m for w, (m, _) in zip(weights, parts))
    se = math.sqrt(math.fsum(w * w * v / len(y) for w, (_, v), y in zip(weights, parts, ys)))
    return _record(f"stratified ({allocation})", mean, se, sum(map(len, ys)), low, high)


def importance(game, n: int, rng: random.Random) -> Estimate:
    """Importance sampling: games drawn from the game's ``proposal`` hook, weighted by the likelihood ratio.

    ``proposal(state, options, probabilities)`` gives the probabilities to
    draw with at a chance node or a random move (from features of the game,
    never its values); each game's payoff is multiplied by the product of
    ``p / q`` along it, so the mean stays unbiased.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = importance(ShutTheBox(levers=4), 1_000, random.Random(2))
    >>> record.games, round(record.estimate, 3), round(record.std_error, 4)
    (1000, 0.15, 0.0086)
    """
    _check_rng(rng, n)
    proposal = _needed(game, "importance")
    ys = [y * w for y, w, _, _ in (_play(game, game.start(), random_policy, rng, proposal=proposal)
                                   for _ in range(n))]
    return _mean_record("importance", game, ys)


def common_random_numbers(game, policy_a: Callable, policy_b: Callable, n: int, rng: random.Random,
                          common: bool = True) -> Estimate:
    """The difference of two policies' mean payoffs, each pair of games on the same dice (``common=True``).

    Both games of a pair see the same chance outcomes in order (the second
    draws its own once the first's run out); ``common=False`` plays them on
    independent dice, the baseline. ``n`` pairs: ``2 n`` games.

    >>> from fnmcts.exact import random_policy
    >>> from fnmcts.games.shut_the_box import ShutTheBox, largest_first
    >>> record = common_random_numbers(ShutTheBox(), largest_first, random_policy, 500, random.Random(3))
    >>> record.games, round(record.estimate, 3)
    (1000, 0.044)
    """
    _check_rng(rng, n)
    for name, policy in (("policy_a", policy_a), ("policy_b", policy_b)):
        if not callable(policy):
            raise TypeError(f"{name} must be a function (game, state) -> ((move, probability), ...), got {policy!r}")
    diffs = []
    for _ in range(n):
        ya, _, _, drawn = _play(game, game.start(), policy_a, rng)
        yb = _play(game, game.start(), policy_b, rng, given=drawn if common else ())[0]
        diffs.append(ya - yb)
    mean, var = _mean_var(diffs)
    low, high = _range(game)
    return _record("common random numbers" if common else "independent", mean, math.sqrt(var / n), 2 * n,
                   low - high, high - low)


def estimate_with(method: str, game, n: int, rng: random.Random, *, batch: bool = False) -> Estimate:
    """The estimator named ``method`` (one of ``METHODS``) with about ``n`` games.

    ``batch=True`` plays them in numpy (``batch_estimate``) where the game's
    ``lab_batch`` hook plays this method under the game's rules and numpy is
    installed, and game by game everywhere else: batch where it can.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> estimate_with("antithetic", ShutTheBox(levers=4), 1_000, random.Random(2)).games
    1000
    >>> one_die = ShutTheBox(levers=4, dice="high-down")  # the batch path plays two dice only: game by game
    >>> estimate_with("control", one_die, 1_000, random.Random(2), batch=True) == estimate_with(
    ...     "control", one_die, 1_000, random.Random(2))
    True
    """
    if batch and method in BATCH_METHODS and callable(getattr(game, "lab_batch", None)) and _numpy_found():
        _check_rng(rng, n)
        arrays = game.lab_batch(method, n, rng)
        if arrays is not None:
            return _batch_record(method, game, arrays)
    if method == "plain":
        return plain(game, n, rng)
    if method == "antithetic":
        return antithetic(game, max(2, n // 2), rng)
    if method == "control":
        return control_variate(game, n, rng)
    if method == "stratified":
        return stratified(game, n, rng)
    if method == "importance":
        return importance(game, n, rng)
    raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def _numpy_found() -> bool:
    """Whether numpy (the batch extra) can be imported."""
    from importlib.util import find_spec

    return find_spec("numpy") is not None


def batch_estimate(method: str, game, n: int, rng: random.Random) -> Estimate:
    """A vectorised estimator (plain, antithetic, control or stratified) through the game's ``lab_batch`` hook.

    ``lab_batch(method, n, rng)`` plays the games in numpy arrays: ``(payoffs,)``,
    ``(first, second)`` of antithetic pairs, ``(payoffs, control)`` with a
    control of mean 0, or ``(payoffs, stratum)`` of equally likely strata dealt
    in turn, or ``None`` (drawing nothing) where its batch path does not play
    the game's rules. Needs numpy (the batch extra).

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = batch_estimate("control", ShutTheBox(), 100_000, random.Random(1))
    >>> record.games, round(record.estimate, 4)
    (100000, 0.0203)
    """
    if method not in BATCH_METHODS:
        raise ValueError(f"the batch path has the methods plain, antithetic, control and stratified, got {method!r}")
    _check_rng(rng, n)
    hook = getattr(game, "lab_batch", None)
    if not callable(hook):
        raise TypeError(f"the batch path needs the game hook lab_batch(method, n, rng); {game_text(game)} has none")
    arrays = hook(method, n, rng)
    if arrays is None:
        raise ValueError(f"the batch path of {game_text(game)} does not play its rules (lab_batch gave None): "
                         "estimate_with(..., batch=True) plays them game by game")
    return _batch_record(method, game, arrays)


def _batch_record(method: str, game, arrays) -> Estimate:
    """The ``Estimate`` of ``method`` from the arrays of the game's ``lab_batch``, marked as played in numpy."""
    return _arrays_record(method, game, arrays).set(batch=True)


def _arrays_record(method: str, game, arrays) -> Estimate:
    """The ``Estimate`` of ``method`` from ``lab_batch``'s arrays (the stratified one's with proportional allocation)."""
    low, high = _range(game)
    if method == "plain":
        ys = arrays[0]
        return _record(method, ys.mean(), ys.std(ddof=1) / math.sqrt(ys.size), ys.size, low, high)
    if method == "antithetic":
        means = (arrays[0] + arrays[1]) / 2
        return _record(method, means.mean(), means.std(ddof=1) / math.sqrt(means.size), 2 * means.size, low, high)
    if method == "control":
        ys, cs = arrays
        size = ys.size
        sy, sc = float(ys.sum()), float(cs.sum())  # the moments by dot products: no array the size of the run
        vy = (float(ys @ ys) - sy * sy / size) / (size - 1)
        vc = (float(cs @ cs) - sc * sc / size) / (size - 1)
        cov = (float(ys @ cs) - sy * sc / size) / (size - 1)
        beta = cov / vc if vc > 0 else 0.0
        variance = max(0.0, vy - 2 * beta * cov + beta * beta * vc)
        return _record(method, (sy - beta * sc) / size, math.sqrt(variance / size), size, low, high)
    ys, strata = arrays
    import numpy as np  # the hook made these arrays: numpy is installed

    counts = np.bincount(strata)
    sums = np.bincount(strata, weights=ys)
    squares = np.bincount(strata, weights=ys * ys)
    if counts.min() < 2:
        raise ValueError(f"n must give every one of the {counts.size} strata two games at least, got {ys.size}")
    means = sums / counts
    variances = (squares - counts * means * means) / (counts - 1)
    weight = 1.0 / counts.size
    return _record("stratified (proportional)", weight * means.sum(),
                   math.sqrt(float((weight * weight * np.maximum(variances, 0) / counts).sum())), ys.size, low, high)


def comparison(game, n: int, rng: random.Random, methods=METHODS) -> list:
    """A row per method on one game: estimate, interval, measured and exact variance factors, games a second.

    Each method plays about ``n`` games (numpy's batch path where the game has
    ``lab_batch`` and the method vectorises); the measured factor is plain
    sampling's variance per game over the method's, both from this run, the
    exact one from ``exact_variances``.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> rows = comparison(ShutTheBox(levers=4), 2_000, random.Random(3))
    >>> [(r["method"], round(r["estimate"], 3), round(r["exact_factor"], 2)) for r in rows]
    [('plain', 0.164, 1.0), ('antithetic', 0.152, 0.98), ('control', 0.147, 1.35), ('stratified', 0.157, 2.22), ('importance', 0.152, 1.75)]
    """
    from time import perf_counter

    exact = exact_variances(game, methods=methods)
    rows = []
    plain_variance = None
    for method in methods:
        if method not in exact.variances:
            continue
        started = perf_counter()
        record = estimate_with(method, game, n, rng, batch=True)
        seconds = perf_counter() - started
        variance = record.std_error ** 2 * record.games
        plain_variance = variance if method == "plain" else plain_variance
        rows.append({"method": method, "estimate": record.estimate, "ci_low": record.ci_low,
                     "ci_high": record.ci_high, "games": record.games, "exact_value": exact.value,
                     "measured_factor": plain_variance / variance if variance > 0 and plain_variance else math.inf,
                     "exact_factor": exact.variances["plain"] / exact.variances[method]
                     if exact.variances[method] > 0 else math.inf,
                     "games_per_second": record.games / seconds if seconds > 0 else math.inf,
                     "batch": record.batch})
    return rows


# --- exact variances ---------------------------------------------------------------------------

class ExactVariances(FixedRecord):
    """The exact value of random play and the exact variance per game played of each estimator.

    ``variances`` maps a method to its variance per game played (``n`` times
    the estimator's variance over ``n`` games); a method whose hook the game
    lacks is absent. ``control`` is taken at the exact optimal coefficient,
    ``stratified (optimal)`` at the exact Neyman allocation.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> exact = exact_variances(ShutTheBox(levers=4))
    >>> round(exact.value, 4), round(exact.variances["plain"], 4)
    (0.147, 0.1254)
    """

    value = field(type=float, mandatory=True)
    variances = field(mandatory=True)


class _Walk:
    """The memo of one exact computation (it lives for one call)."""

    def __init__(self, game):
        self.game = game
        self.memo = {}
        self.open = set()

    def node(self, state, policy):
        """``_node`` at ``state`` with the children of its options: ``(is_chance, options, probabilities, kids)``."""
        key = ("n", state, policy)
        found = self.memo.get(key)
        if found is None:
            node = _node(self.game, state, policy)
            found = self.memo[key] = node and (*node, tuple(self.game.play(state, o) for o in node[1]))
        return found

    def enter(self, key):
        if key in self.open:
            raise ValueError(f"{self.game!r} repeats a state ({key!r}): exact variances need a game without cycles")
        self.open.add(key)

    def leave(self, key, result):
        self.open.discard(key)
        self.memo[key] = result
        return result


def _moments(walk, state, policy, feature=None, proposal=None) -> tuple:
    """``(E[Y], E[Y^2], E[C^2], E[Y C], E[(Y W)^2 / W])`` from ``state`` on (C: the control, W: the weight)."""
    key = ("m", state, policy, feature, proposal)
    if key in walk.memo:
        return walk.memo[key]
    node = walk.node(state, policy)
    if node is None:
        y = float(walk.game.payoff(state)[0])
        return (y, y * y, 0.0, 0.0, y * y)
    walk.enter(key)
    chance, options, ps, kids = node
    values = [float(feature(state, o)) for o in options] if chance and feature is not None else [0.0] * len(ps)
    centre = math.fsum(p * v for p, v in zip(ps, values))
    tilted = proposal is not None and (chance or policy is random_policy)
    qs = _proposed(walk.game, state, chance, options, ps, proposal) if tilted else ps
    total = [0.0] * 5
    for kid, p, q, v in zip(kids, ps, qs, values):
        if p == 0:
            continue
        ey, ey2, ec2, eyc, ew = _moments(walk, kid, policy, feature, proposal)
        d = v - centre  # the control's increment; its children's control has mean 0
        for i, x in enumerate((ey, ey2, d * d + ec2, d * ey + eyc, p / q * ew)):
            total[i] += p * x
    return walk.leave(key, tuple(total))


def _joint(walk, a, b, pa, pb, mirror) -> float:
    """``E[Y_a Y_b]`` for games from ``a`` (policy ``pa``) and ``b`` (``pb``), the k-th chance outcomes coupled.

    ``mirror(state, outcome)`` gives b's outcome from a's (None: the same one).
    """
    key = ("j", a, b, pa, pb, mirror)
    if key in walk.memo:
        return walk.memo[key]
    na, nb = walk.node(a, pa), walk.node(b, pb)
    if na is None or nb is None:  # one game is over: the other's chance outcomes are its own
        return (float(walk.game.payoff(a)[0]) if na is None else _moments(walk, a, pa)[0]) * (
            float(walk.game.payoff(b)[0]) if nb is None else _moments(walk, b, pb)[0])
    walk.enter(key)
    if not na[0]:
        total = math.fsum(p * _joint(walk, kid, b, pa, pb, mirror) for kid, p in zip(na[3], na[2]) if p)
    elif not nb[0]:
        total = math.fsum(p * _joint(walk, a, kid, pa, pb, mirror) for kid, p in zip(nb[3], nb[2]) if p)
    else:
        coupling = _coupled(mirror, a, na, nb)
        if coupling is None:  # nodes of different kinds: the two draw independently
            total = math.fsum(p * q * _joint(walk, kid, other, pa, pb, mirror)
                              for kid, p in zip(na[3], na[2]) if p for other, q in zip(nb[3], nb[2]) if q)
        else:
            total = math.fsum(p * _joint(walk, kid, nb[3][i], pa, pb, mirror)
                              for kid, p, i in zip(na[3], na[2], coupling) if p)
    return walk.leave(key, total)


class _Squared:
    """``game`` paying each player the square of its payoff: its exact value is the payoff's second moment."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def payoff(self, state):
        return tuple(x * x for x in self._game.payoff(state))

    def payoff_range(self):
        low, high = payoff_range(self._game)
        return (0 if low <= 0 <= high else min(low * low, high * high), max(low * low, high * high))


def _repeating_plain(game, policy, limit) -> tuple:
    """``(E[Y], Var Y)`` of one game of ``policy`` in a game whose states repeat, by the exact solver's iteration.

    Every seat plays ``policy``; the second moment is the value of the game
    paying the payoffs squared, so both come from the one engine, to its tolerance.
    """
    seats = (policy,) * getattr(game, "num_players", 1)
    start = game.start()
    mean = float(exact_value(evaluate_policy(game, seats, start, limit=limit), start)[0])
    second = float(exact_value(evaluate_policy(_Squared(game), seats, start, limit=limit), start)[0])
    return mean, max(0.0, second - mean * mean)


def exact_variances(game, policy: Callable = random_policy, methods=METHODS,
                    limit: int | None = STATE_LIMIT) -> ExactVariances:
    """The exact variance per game played of each estimator of ``policy``'s value (random play by default).

    Through the game protocol, with the policy's own probabilities (every
    player plays ``policy``); for an acyclic game small enough to walk (Shut
    the Box, coins, darts on a grid). The reduced methods among ``methods``
    are computed where the game has their hook (``stratified`` gives both
    allocations). A game whose states repeat (``may_repeat()``: Pig) gets the
    plain estimator's variance alone, from the exact solver's iteration to
    its tolerance, within ``limit`` states (``limit=None``: no limit).

    >>> from fnmcts.games.pig import Pig
    >>> exact = exact_variances(Pig(goal=10))  # random play: player 1 wins this often (payoffs 1 and -1)
    >>> round((exact.value + 1) / 2, 4), round(exact.variances["plain"], 4), sorted(exact.variances)
    (0.6162, 0.946, ['plain'])

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> exact = exact_variances(ShutTheBox(levers=4))
    >>> round(exact.value, 4), sorted(exact.variances)
    (0.147, ['antithetic', 'control', 'importance', 'plain', 'stratified', 'stratified (optimal)'])
    """
    if not callable(policy):
        raise TypeError(f"policy must be a function (game, state) -> ((move, probability), ...), got {policy!r}")
    unknown = set(methods) - set(METHODS)
    if unknown:
        raise ValueError(f"methods must be among {', '.join(METHODS)}, got {sorted(unknown)}")
    if may_repeat(game):
        mean, variance = _repeating_plain(game, policy, limit)
        return ExactVariances(value=mean, variances=pmap({"plain": variance}))
    hooks = _hooks(game)
    wanted = {m for m in methods if policy is random_policy and hooks.get(m) is not None}
    walk = _Walk(game)
    start = game.start()
    mean, second = _moments(walk, start, policy)[:2]
    variance = max(0.0, second - mean * mean)
    out = {"plain": variance}
    if "antithetic" in wanted:
        cross = _joint(walk, start, start, policy, policy, hooks["antithetic"])
        out["antithetic"] = max(0.0, variance + cross - mean * mean)  # per game: (var + cov) of a pair
    if "control" in wanted:
        _, _, ec2, eyc, _ = _moments(walk, start, policy, feature=hooks["control"])
        out["control"] = max(0.0, variance - (eyc * eyc / ec2 if ec2 > 0 else 0.0))
    strata = _strata(game) if "stratified" in wanted else None
    if strata is not None:
        parts = [(w, _moments(walk, s, policy)[:2]) for w, s in strata]
        sds = [(w, math.sqrt(max(0.0, m2 - m * m))) for w, (m, m2) in parts]
        out["stratified"] = math.fsum(w * sd * sd for w, sd in sds)
        out["stratified (optimal)"] = math.fsum(w * sd for w, sd in sds) ** 2
    if "importance" in wanted:
        out["importance"] = max(0.0, _moments(walk, start, policy, proposal=hooks["importance"])[4] - mean * mean)
    return ExactVariances(value=mean, variances=pmap(out))


def variance_factors(game, methods=METHODS) -> dict:
    """The exact variance-reduction factor per game played of each method against plain sampling.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> factors = variance_factors(ShutTheBox(), ("control", "stratified", "importance"))  # the tutorial's box
    >>> {method: round(f, 2) for method, f in sorted(factors.items())}
    {'control': 1.69, 'importance': 14.14, 'plain': 1.0, 'stratified': 1.0, 'stratified (optimal)': 1.0}
    """
    exact = exact_variances(game, methods=methods).variances
    return {m: (exact["plain"] / v if v > 0 else math.inf) for m, v in exact.items()}


def exact_difference_variances(game, policy_a: Callable, policy_b: Callable) -> tuple:
    """``(difference, independent, common)``: the exact mean difference of two policies and its variance per pair.

    ``independent``: the variance of one pair's difference on independent
    dice; ``common``: on common random numbers (the same dice in order).

    >>> from fnmcts.games.shut_the_box import ShutTheBox, largest_first
    >>> d, independent, common = exact_difference_variances(ShutTheBox(), largest_first, random_policy)
    >>> round(d, 4), independent / common >= 1
    (0.0492, True)
    """
    walk = _Walk(game)
    start = game.start()
    ma, sa = _moments(walk, start, policy_a)[:2]
    mb, sb = _moments(walk, start, policy_b)[:2]
    independent = (sa - ma * ma) + (sb - mb * mb)
    cross = _joint(walk, start, start, policy_a, policy_b, None)
    common = max(0.0, independent - 2 * (cross - ma * mb))
    return ma - mb, independent, common


# --- anytime-valid intervals -------------------------------------------------------------------

def confidence_sequence(payoffs, low: float = 0.0, high: float = 1.0, alpha: float = 0.05) -> list:
    """Anytime-valid ``1 - alpha`` intervals ``[(lo, hi), ...]`` for the mean after each payoff.

    The predictable plug-in empirical Bernstein confidence sequence of
    Waudby-Smith and Ramdas (2023, Theorem 2) for payoffs in ``[low, high]``,
    intersected over time: with probability ``1 - alpha`` the mean lies in
    every interval at once, so stopping at any time, chosen from the data,
    keeps the coverage.

    >>> [tuple(round(x, 3) for x in ci) for ci in confidence_sequence([1, 0, 1, 1, 0] * 40)][-1]
    (0.48, 0.723)
    """
    return list(anytime_intervals(payoffs, low, high, alpha))


def anytime_intervals(payoffs, low: float = 0.0, high: float = 1.0, alpha: float = 0.05):
    """``confidence_sequence``'s intervals, one as each payoff arrives: a generator, to stop at any time.

    >>> for games, (low, high) in enumerate(anytime_intervals(iter(lambda: 1, None)), start=1):
    ...     if high - low < 0.5:
    ...         break
    >>> games, round(low, 3), high
    (16, 0.529, 1.0)
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    if not low < high:
        raise ValueError(f"the payoff range must have low < high, got {(low, high)!r}")
    span = high - low
    log_term = math.log(2 / alpha)
    sum_x = sum_sq = sum_l = sum_lx = sum_v = 0.0
    mu_prev, var_prev = 0.5, 0.25
    lo, hi = 0.0, 1.0
    for t, payoff in enumerate(payoffs, start=1):
        x = (payoff - low) / span
        if not -1e-12 <= x <= 1 + 1e-12:
            raise ValueError(f"payoff {payoff!r} lies outside the range [{low}, {high}]")
        lam = min(math.sqrt(2 * log_term / (var_prev * t * math.log(1 + t))), 0.5)
        sum_l += lam
        sum_lx += lam * x
        sum_v += (x - mu_prev) ** 2 * (-math.log(1 - lam) - lam)  # v_t psi_E(lambda_t) = 4 (x - mu)^2 (...) / 4
        centre, half = sum_lx / sum_l, (log_term + sum_v) / sum_l
        lo, hi = max(lo, centre - half), min(hi, centre + half)
        if lo > hi:  # the intersection emptied (an event of probability < alpha): keep the latest interval
            lo, hi = max(0.0, centre - half), min(1.0, centre + half)
        sum_x += x
        mu_prev = (0.5 + sum_x) / (t + 1)
        sum_sq += (x - mu_prev) ** 2
        var_prev = (0.25 + sum_sq) / (t + 1)
        yield (low + span * lo, low + span * hi)


def run_until(game, eps: float, rng: random.Random, alpha: float = 0.05, max_games: int = 1_000_000,
              policy: Callable = random_policy) -> Estimate:
    """Play random games until the anytime-valid interval's half-width is below ``eps`` (or ``max_games``).

    The interval is ``confidence_sequence``'s, valid whenever the run stops;
    ``std_error`` is the plain one, for comparison.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> record = run_until(ShutTheBox(levers=4), 0.05, random.Random(1))
    >>> record.games, record.ci_high - record.ci_low < 0.1
    (686, True)
    """
    if isinstance(eps, bool) or not (isinstance(eps, (int, float)) and 0 < eps < math.inf):
        raise ValueError(f"eps must be a number > 0, got {eps!r}")
    _count(max_games, "max_games")
    _check_rng(rng)
    low, high = _range(game)
    ys = []

    def games():
        while len(ys) < max_games:
            ys.append(_play(game, game.start(), policy, rng)[0])
            yield ys[-1]

    ci = (low, high)
    for ci in anytime_intervals(games(), low, high, alpha):
        if (ci[1] - ci[0]) / 2 < eps:
            break
    mean, var = _mean_var(ys) if len(ys) > 1 else (ys[0], 0.0)
    return Estimate(method="anytime", estimate=mean, std_error=math.sqrt(var / len(ys)), ci_low=ci[0],
                    ci_high=ci[1], games=len(ys))
