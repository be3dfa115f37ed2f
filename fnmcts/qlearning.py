"""Q-learning by self-play: the Nim AI that teaches itself, on any two-player game.

The Q-learning project's ``NimAI`` as an immutable value and pure functions.
An AI (``QAI``) holds a persistent Q table, a ``pmap`` from ``(state, action)``
to a number, with the learning rate ``alpha``, the exploration rate
``epsilon`` and the game it plays. A state in the table is the game's
``q_key`` of the state (a hook of the protocol): the pile sizes for ``Piles``,
the heap as a 1-tuple for ``Nim``, the state itself for any other game.
Functions that would change an AI return a new one. Nothing here names a
game: the source's own game (piles 1, 3, 5, 7) is the default of
``fnmcts.new_ai`` and ``fnmcts.train`` (``fnmcts.tutorial``).

>>> from fnmcts.games.piles import Piles
>>> ai = new_ai(Piles((1, 3, 5, 7)))
>>> get_q_value(ai, (0, 0, 0, 2), (3, 2))
0
>>> ai = update_q_value(ai, (0, 0, 0, 2), (3, 2), 0, -1, 0)
>>> get_q_value(ai, (0, 0, 0, 2), (3, 2)), best_future_reward(ai, (0, 0, 0, 2))
(-0.5, 0)
>>> choose_action(ai, (0, 0, 0, 2), epsilon=False)
(3, 1)
>>> trained = train(1_000, seed=1, game=Piles((1, 3, 5, 7)))
>>> len(trained.q) > 1_000, trained.alpha, trained.epsilon
(True, 0.5, 0.1)

Rewards follow the source: -1 for the move that loses, +1 for the move that
makes the other player lose, 0 for a move after which the game goes on (with
the best Q value of the next state as the estimate of future rewards).

The Q table file is JSON, never pickle (``save_ai`` / ``load_ai``), version 1::

    {"format": "fnmcts-q-table", "version": 1,
     "game": {"name": "piles", "piles": [1, 3, 5, 7], "misere": true},
     "alpha": 0.5, "epsilon": 0.1,
     "q": [[[1, 3, 5, 7], [3, 5], 0.25], ...]}

``game`` names a game (``fnmcts.protocol.game_to_json``: its ``name`` and
parameters); reading a file looks the name up in a registry of games given by
the caller (``fnmcts.load_ai`` uses ``fnmcts.games.GAMES``). Each entry of
``q`` is ``[state, action, value]``: the state's key as JSON (the game's
``q_key_to_json``: the pile sizes, or ``[heap]``; ``state_to_json`` for other
games), the action as a list (``[pile, count]``) or a number (a Nim take), the
value a finite number. Entries are sorted, so the same AI always gives the
same file.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from functools import partial
from typing import Any, Callable

from pyrsistent import PMap, field, pmap

from .values import FixedRecord

from .exact import best_moves, solve
from .limits import MAX_PLIES, WORK_LIMIT, check_work, past_budget, size_hint
from .parallel import interrupted, run_chunks
from .matches import playout, random_agent
from .protocol import (
    CHANCE,
    blame_game,
    called,
    checked_play,
    checked_start,
    checked_step,
    game_text,
    guarded,
    _from_json,
    _game_hook,
    _to_json,
    game_from_json,
    game_to_json,
    payoff_range,
    q_key,
    q_key_from_json,
    q_key_to_json,
    sample_outcome,
    state_from_q_key,
)
from ._moved import deprecated
from .rng import make_rng, pick

__all__ = [
    "QAI",
    "ALPHA",
    "EPSILON",
    "REWARDS",
    "FORMAT",
    "FORMAT_VERSION",
    "new_ai",
    "state_key",
    "get_q_value",
    "update_q_value",
    "best_future_reward",
    "choose_action",
    "update",
    "train_game",
    "train",
    "q_agent",
    "optimal_move_rate",
    "win_rate_against",
    "evaluate",
    "ai_to_json",
    "ai_from_json",
    "ai_to_text",
]

ALPHA = 0.5
"""The source's learning rate."""

EPSILON = 0.1
"""The source's exploration rate."""

REWARDS = pmap({"win": 1, "loss": -1, "draw": 0, "step": 0})
"""Rewards: ``win`` for the move that makes the other player lose, ``loss`` for
the move that loses, ``draw`` for a move that ends the game level, ``step`` for
a move after which the game goes on."""

FORMAT = "fnmcts-q-table"
"""The ``format`` tag of a Q table file."""

FORMAT_VERSION = 1
"""The version of the Q table file format that ``save_ai`` writes and ``load_ai`` reads."""


# -- the AI as a value -----------------------------------------------------------


def _check_rate(name):
    def check(value):
        return (0 <= value <= 1 and not isinstance(value, bool), f"{name} must be in [0, 1], got {value!r}")

    return check


def _check_game(game):
    players = getattr(game, "num_players", None)
    return (players == 2, f"Q-learning by self-play needs a two-player game, got {game_text(game)}")


class QAI(FixedRecord):
    """A Q-learning AI: the Q table, ``alpha``, ``epsilon`` and the game, all immutable.

    >>> from fnmcts.games import Nim
    >>> ai = QAI(game=Nim(heap=5))
    >>> ai.q == {}, ai.alpha, ai.epsilon
    (True, 0.5, 0.1)
    >>> ai.set(alpha=0.25).alpha, ai.alpha
    (0.25, 0.5)
    """

    q = field(type=PMap, initial=pmap(), mandatory=True)
    alpha = field(type=float, factory=float, initial=ALPHA, mandatory=True, invariant=_check_rate("alpha"))
    epsilon = field(type=float, factory=float, initial=EPSILON, mandatory=True, invariant=_check_rate("epsilon"))
    game = field(mandatory=True, invariant=_check_game)


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not 0 <= value <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return float(value)


def new_ai(game, *, alpha: float = ALPHA, epsilon: float = EPSILON) -> QAI:
    """A fresh AI for ``game`` with an empty Q table (the source's ``NimAI()``).

    >>> from fnmcts.games import Piles
    >>> ai = new_ai(Piles((1, 3, 5, 7)))
    >>> ai.game, len(ai.q), ai.alpha, ai.epsilon
    (Piles(piles=(1, 3, 5, 7), misere=True), 0, 0.5, 0.1)
    """
    if game is None:
        raise TypeError("new_ai needs the game to learn (fnmcts.new_ai() learns the source's piles 1, 3, 5, 7)")
    _game_hook(game, "start")  # a game's name, a number: said so, not blamed on a start it lacks
    checked_start(game)  # Nim for Nim() is a TypeError that says so
    if getattr(game, "num_players", None) != 2:
        raise ValueError(f"Q-learning by self-play needs a two-player game, got {game_text(game)}")
    return QAI(game=game, alpha=_number("alpha", alpha), epsilon=_number("epsilon", epsilon))


# -- states as table keys --------------------------------------------------------


def state_key(game, state) -> tuple:
    """The Q table's form of ``state``: the game's ``q_key`` (pile sizes for piles, ``(heap,)`` for Nim).

    Nim is impartial, so the player to move is not part of the key (as in the
    source); for a game without the hook the key is the state itself.

    >>> from fnmcts.games import Nim, Piles
    >>> game = Piles((1, 3, 5, 7))
    >>> state_key(game, game.start()), state_key(Nim(heap=21), Nim(heap=21).start())
    ((1, 3, 5, 7), (21,))
    """
    return q_key(game, state)


def _game_of(ai) -> Any:
    """``ai``'s game; a ``TypeError`` naming ``new_ai`` when ``ai`` is no Q-learning AI (None, a game, a Q table).

    >>> _game_of(None)
    Traceback (most recent call last):
    ...
    TypeError: ai must be a Q-learning AI (fnmcts.qlearning.new_ai(game), or train's result), got None
    """
    if not isinstance(ai, QAI):
        raise TypeError(f"ai must be a Q-learning AI (fnmcts.qlearning.new_ai(game), or train's result), "
                        f"got {type(ai).__name__ if ai is not None else None}")
    return ai.game


def _key_and_state(game, state):
    """``(key, state)`` from a state of the game, or from a key written as a tuple or list."""
    if isinstance(state, (tuple, list)):
        key = tuple(state)
        return key, state_from_q_key(game, key)
    return q_key(game, state), state


def _moves(game, state) -> tuple:
    player = game.to_move(state)
    if player is None or player is CHANCE:
        return ()
    return game.possible_moves(state)


# -- the source's four functions -------------------------------------------------


def get_q_value(ai: QAI, state, action):
    """The Q value of ``action`` at ``state``, 0 when the table has none.

    ``state`` is a state of the AI's game, or its key (a tuple: the piles, ``(heap,)``).

    >>> from fnmcts.games import Piles
    >>> ai = new_ai(Piles()).set(q=pmap({((0, 0, 0, 2), (3, 2)): -1}))
    >>> get_q_value(ai, (0, 0, 0, 2), (3, 2)), get_q_value(ai, (0, 0, 0, 2), (3, 1))
    (-1, 0)
    """
    key, _ = _key_and_state(_game_of(ai), state)
    return ai.q.get((key, action), 0)


def update_q_value(ai: QAI, state, action, old_q, reward, future_rewards) -> QAI:
    """A new AI with the Q value of ``(state, action)`` moved towards the reward; ``ai`` is unchanged.

    The new value is ``old_q + alpha * ((reward + future_rewards) - old_q)``.

    >>> from fnmcts.games import Piles
    >>> ai = new_ai(Piles())
    >>> new = update_q_value(ai, (1, 3, 5, 7), (3, 5), 0, 0, 0.5)
    >>> get_q_value(new, (1, 3, 5, 7), (3, 5)), get_q_value(ai, (1, 3, 5, 7), (3, 5))
    (0.25, 0)

    The new value must be a finite number and the action legal at the state,
    so that the AI can always be saved (``save_ai``) and loaded back:

    >>> update_q_value(ai, (1, 3, 5, 7), (0, 2), 0, 1, 0)
    Traceback (most recent call last):
    ...
    ValueError: illegal action (0, 2) at state (1, 3, 5, 7)
    >>> update_q_value(ai, (1, 3, 5, 7), (3, 5), 0, float("inf"), 0)
    Traceback (most recent call last):
    ...
    ValueError: the new Q value must be a finite number, got inf (old_q 0, reward inf, future_rewards 0)
    """
    key, state = _key_and_state(_game_of(ai), state)
    value = old_q + ai.alpha * ((reward + future_rewards) - old_q)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(
            f"the new Q value must be a finite number, got {value!r} "
            f"(old_q {old_q!r}, reward {reward!r}, future_rewards {future_rewards!r})"
        )
    if action not in _moves(ai.game, state):
        raise ValueError(f"illegal action {action!r} at state {key!r}")
    return ai.set(q=ai.q.set((key, action), value))


def best_future_reward(ai: QAI, state):
    """The best Q value of any possible action at ``state`` (unknown ones count as 0).

    It is 0 when there is no action.

    >>> from fnmcts.games import Piles
    >>> ai = new_ai(Piles()).set(q=pmap({((0, 0, 1, 1), (2, 1)): -0.5, ((0, 0, 1, 1), (3, 1)): -0.75}))
    >>> best_future_reward(ai, (0, 0, 1, 1)), best_future_reward(ai, (0, 0, 0, 0))
    (-0.5, 0)
    >>> best_future_reward(ai, (0, 0, 2, 1))
    0
    """
    key, state = _key_and_state(_game_of(ai), state)
    moves = _moves(ai.game, state)
    if not moves:
        return 0
    q = ai.q
    return max(q.get((key, move), 0) for move in moves)


def choose_action(ai: QAI, state, rng: random.Random | None = None, epsilon: bool = True):
    """An action at ``state``: sometimes a random one (epsilon-greedy), else the best one.

    With ``epsilon`` True, a uniformly random possible action with probability
    ``ai.epsilon`` (drawn from ``rng``), else the best one: the first action, in
    the game's move order, with the highest Q value (0 if unknown).

    With ``epsilon`` it consumes one ``rng.random()``, and a second one when it
    explores; greedy choice (``epsilon=False``) needs no ``rng``.

    >>> from fnmcts.games import Piles
    >>> ai = new_ai(Piles()).set(q=pmap({((0, 0, 1, 2), (3, 1)): 0.5, ((0, 0, 1, 2), (2, 1)): -1}))
    >>> choose_action(ai, (0, 0, 1, 2), epsilon=False)
    (3, 1)
    >>> rng = random.Random(3)
    >>> sorted({choose_action(ai, (0, 0, 1, 2), rng) for _ in range(100)})
    [(2, 1), (3, 1), (3, 2)]
    """
    key, state = _key_and_state(_game_of(ai), state)
    moves = _moves(ai.game, state)
    if not moves:
        raise ValueError(f"no possible action at {state!r}")
    if epsilon:
        if rng is None:
            raise TypeError("epsilon-greedy choice needs an rng (a random.Random)")
        if rng.random() < ai.epsilon:
            return pick(rng, moves)
    q = ai.q
    best, best_value = moves[0], q.get((key, moves[0]), 0)
    for move in moves[1:]:
        value = q.get((key, move), 0)
        if value > best_value:
            best, best_value = move, value
    return best


def update(ai: QAI, old_state, action, new_state, reward) -> QAI:
    """The source's ``update``: a new AI that learned from taking ``action`` at ``old_state``.

    The action led to ``new_state`` (the next state the same player faces)
    with ``reward``.

    >>> from fnmcts.games import Piles
    >>> ai = update(new_ai(Piles()), (0, 0, 0, 1), (3, 1), (0, 0, 0, 0), -1)
    >>> get_q_value(ai, (0, 0, 0, 1), (3, 1))
    -0.5
    """
    old = get_q_value(ai, old_state, action)
    future = best_future_reward(ai, new_state)
    return update_q_value(ai, old_state, action, old, reward, future)


# -- self-play ---------------------------------------------------------------------


def _terminal_reward(rewards, payoff):
    if payoff > 0:
        return rewards["win"]
    if payoff < 0:
        return rewards["loss"]
    return rewards["draw"]


def _past_chance(game, state, rng, tables=None):
    plies = 0
    while game.to_move(state) is CHANCE:
        state = checked_play(game, state, sample_outcome(game, state, rng, tables))
        plies += 1
        if plies > MAX_PLIES:  # the dice alone, again and again: past the budget, the game's own bound or a verdict
            past_budget(game, state, plies, MAX_PLIES, MAX_PLIES)
    return state


def train_game(ai: QAI, rng: random.Random, rewards=REWARDS) -> QAI:
    """The AI after one more game of self-play (the source's training loop body); consumes ``rng``.

    It plays step by step with the persistent functions above.

    Each player's last state and action are remembered; when a move ends the
    game, the mover's action is updated with its reward (``loss`` when taking the
    last object loses) and the other player's last action with the opposite
    one; otherwise the last action of the player now to move is updated with
    reward ``step`` and the best Q value of the state that player faces.

    With ``random.Random(0)`` (draws 0.84, 0.76, 0.42: no exploration) both
    players take 1 from a heap of 3; the first player takes the last item and loses:

    >>> from fnmcts.games import Nim
    >>> ai = train_game(new_ai(Nim(heap=3, max_take=2)), random.Random(0))
    >>> ai.q == {((3,), 1): 0.0, ((2,), 1): 0.5, ((1,), 1): -0.5}
    True
    """
    game, tables = ai.game, {}  # (tables: the draw tables of the outcome tuples met in this game)
    state = _past_chance(game, game.start(), rng, tables)
    last: dict = {}
    if game.to_move(state) is None:
        return ai  # the game is over before it starts: nothing to learn
    while True:
        player = game.to_move(state)
        action = choose_action(ai, state, rng)
        last[player] = (state, action)
        new_state = _past_chance(game, game.play(state, action), rng, tables)
        following = game.to_move(new_state)
        if following is None:
            payoff = game.payoff(new_state)
            ai = update(ai, state, action, new_state, _terminal_reward(rewards, payoff[player]))
            other = 1 - player
            if other in last:
                old_state, old_action = last[other]
                ai = update(ai, old_state, old_action, new_state, _terminal_reward(rewards, payoff[other]))
            return ai
        if following in last:
            old_state, old_action = last[following]
            ai = update(ai, old_state, old_action, new_state, rewards["step"])
        state = new_state


@guarded
def train(
    n: int,
    seed: int | None = None,
    game=None,
    *,
    alpha: float = ALPHA,
    epsilon: float = EPSILON,
    rewards=REWARDS,
    ai: QAI | None = None,
    rng: random.Random | None = None,
    progress: Callable[[int], None] | None = None,
    limit: int | None = WORK_LIMIT,
    max_plies: int | None = MAX_PLIES,
) -> QAI:
    """The AI after ``n`` games of self-play from ``seed`` (the source's ``train(n)``).

    Starts from ``ai`` when given (its game, alpha and epsilon), else from a new
    AI for ``game`` (``fnmcts.train`` defaults it to piles [1, 3, 5, 7]). The result equals ``n`` steps of
    ``train_game`` with the same ``rng``, value for value; the work is done on a
    transient working copy (a plain dict and a cache of the game's states) and
    frozen into a fresh ``QAI`` at the end. ``progress(k)`` is called as games finish.
    Ctrl-C raises ``Interrupted`` whose ``partial`` is ``(ai, games)``: the AI
    after the games finished (the game in progress undone), and how many; it
    equals ``train(games, ...)`` with the same seed. Games times their length
    times the moves at a state (the game's ``size_hint``) beyond ``limit`` is
    refused up front (``TooLarge``; ``limit=None`` goes on); a game longer
    than ``max_plies`` moves is a ``NoEnd`` (``fnmcts.limits``), a failure of
    the game's own code a ``GameError``, each state checked when first met.

    >>> from functools import reduce
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> rng = make_rng(7)
    >>> stepwise = reduce(lambda ai, _: train_game(ai, rng), range(200), new_ai(game))
    >>> train(200, seed=7, game=game) == stepwise
    True
    """
    if isinstance(n, bool) or not isinstance(n, int):
        first = "; train(n, seed, game) takes the game third, or as game=" if hasattr(n, "to_move") else ""
        first = "; an AI to train further goes as ai=: train(n, ai=ai)" if isinstance(n, QAI) else first
        raise TypeError(f"n must be a whole number of games, got {n!r}{first}")
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    if ai is None:
        if game is None:
            raise TypeError("train needs a game or an ai (fnmcts.train defaults to the source's piles 1, 3, 5, 7)")
        ai = new_ai(game, alpha=alpha, epsilon=epsilon)
    elif game is not None and game != ai.game:
        raise ValueError(f"the ai plays {game_text(ai.game)}, not {game_text(game)}")
    _, length, branching = size_hint(ai.game, checked_start(ai.game))  # a start of a list: named, not a TypeError
    check_work(n, length, branching, limit=limit)
    if n:  # one random game first (its own generator): a game that never ends says so before training grows a table
        playout(ai.game, ai.game.start(), random.Random(0), max_plies=max_plies)
    rng = make_rng(seed, rng)
    game = ai.game
    alpha, explore = ai.alpha, ai.epsilon
    step, win, loss, draw = rewards["step"], rewards["win"], rewards["loss"], rewards["draw"]
    to_key = partial(q_key, game)
    q = dict(ai.q)
    nodes: dict = {}

    players, (low, high) = getattr(game, "num_players", 1), payoff_range(game)

    def node(state):
        # (player, (key, move) pairs, moves, children by move index, payoff): checked when first met
        found = nodes.get(state)
        if found is None:
            player, step = checked_step(game, state, players, low, high)
            moves = step if player is not None and player is not CHANCE else ()
            key = called("q_key", to_key, state) if moves else None
            payoff = step if player is None else None
            found = nodes[state] = (player, tuple((key, m) for m in moves), moves, [None] * len(moves), payoff)
        return found

    def reward_of(p):
        return win if p > 0 else loss if p < 0 else draw

    undo: list = []  # (pair, value before) of the game in progress, to undo it when interrupted
    try:
        _train_games(n, game, rng, node, q, undo, alpha, explore, step, reward_of, progress, max_plies)
    except KeyboardInterrupt as error:
        for pair, old in reversed(undo[1:]):  # the first entry counts the games finished
            if old is None:
                q.pop(pair, None)
            else:
                q[pair] = old
        raise interrupted(error, (ai.set(q=pmap(q)), _games_done(undo))) from None
    return ai.set(q=pmap(q))


def _games_done(undo) -> int:
    """The games finished, kept by ``_train_games`` as the first entry of its undo log."""
    return undo[0][1] if undo else 0


def _train_games(n, game, rng, node, q, undo, alpha, explore, step, reward_of, progress, max_plies=MAX_PLIES) -> None:
    """Play ``n`` games of self-play, updating ``q`` in place; ``undo`` logs the game in progress.

    A game longer than ``max_plies`` moves is a ``NoEnd``; a failure of the
    game's own code a ``GameError`` (``node`` checks each state when first met).
    """
    try:
        _train_loop(n, game, rng, node, q, undo, alpha, explore, step, reward_of, progress, max_plies)
    except Exception as error:
        blame_game(game, error)


def _train_loop(n, game, rng, node, q, undo, alpha, explore, step, reward_of, progress, max_plies) -> None:
    q_get = q.get
    random_ = rng.random
    done, tables = 0, {}  # (tables: the draw tables of the outcome tuples met in this run)
    for _ in range(n):
        undo[:] = [(_DONE, done)]
        start = state = _past_chance(game, game.start(), rng, tables)
        last: dict = {}
        plies, budget = 0, max_plies
        while node(state)[0] is not None:
            plies += 1
            if budget is not None and plies > budget:
                budget = past_budget(game, start, plies, budget, max_plies)
            player, pairs, moves, children, _ = node(state)
            # choose_action(ai, state, rng): the same draws, the same choice
            if random_() < explore:
                i = int(random_() * len(pairs))
            else:
                i, best = 0, q_get(pairs[0], 0)
                for j in range(1, len(pairs)):
                    v = q_get(pairs[j], 0)
                    if v > best:
                        i, best = j, v
            pair = pairs[i]
            last[player] = pair
            new_state = children[i]
            if new_state is None:
                new_state = children[i] = checked_play(game, state, moves[i])
            following, next_pairs, _, _, payoff = node(new_state)
            if following is CHANCE:
                new_state = _past_chance(game, new_state, rng, tables)
                following, next_pairs, _, _, payoff = node(new_state)
            if following is None:
                undo.append((pair, q_get(pair)))
                old = q_get(pair, 0)
                q[pair] = old + alpha * ((reward_of(payoff[player]) + 0) - old)
                other = 1 - player
                if other in last:
                    previous = last[other]
                    undo.append((previous, q_get(previous)))
                    old = q_get(previous, 0)
                    q[previous] = old + alpha * ((reward_of(payoff[other]) + 0) - old)
                break
            previous = last.get(following)
            if previous is not None:
                future = max(q_get(p, 0) for p in next_pairs)
                undo.append((previous, q_get(previous)))
                old = q_get(previous, 0)
                q[previous] = old + alpha * ((step + future) - old)
            state = new_state
        done += 1
        undo[:] = [(_DONE, done)]
        if progress is not None and done % 100 == 0:
            progress(100)
    if progress is not None and done % 100:
        progress(done % 100)


_DONE = object()  # the undo log's first entry: (_DONE, games finished)


# -- playing and measuring -----------------------------------------------------------


def _check_same_game(ai, game):
    if game != ai.game:
        raise ValueError(f"this Q table was trained on {game_text(ai.game)}, not {game_text(game)}")


def _q_move(ai, game, state, rng=None):
    _check_same_game(ai, game)
    return choose_action(ai, state, epsilon=False)


def q_agent(ai: QAI) -> Callable:
    """An agent ``(game, state, rng) -> move`` that plays the AI's greedy action.

    >>> from fnmcts.games import Piles
    >>> ai = train(2_000, seed=1, game=Piles())
    >>> agent = q_agent(ai)
    >>> agent(ai.game, ai.game.state((0, 0, 1, 1)), random.Random(0)) in ((2, 1), (3, 1))
    True
    """
    return partial(_q_move, ai)


def _play_out(game, agents, rng) -> tuple:
    state, tables = game.start(), {}
    while True:
        player = game.to_move(state)
        if player is None:
            return game.payoff(state)
        if player is CHANCE:
            state = game.play(state, sample_outcome(game, state, rng, tables))
        else:
            state = game.play(state, agents[player](game, state, rng))


def _perfect_move(table, game, state, rng):
    moves = table[state]
    return moves[0] if len(moves) == 1 else pick(rng, moves)


def _perfect_agent(game, solution):
    """Optimal play from the exact solution, a uniformly random choice among the optimal moves."""
    table = pmap(
        {
            s: best_moves(game, solution, s)
            for s in solution
            if game.to_move(s) is not None and game.to_move(s) is not CHANCE
        }
    )
    return partial(_perfect_move, table)


def _optimal_counts(ai, solution):
    """``(optimal, winning)``: table states where the greedy action is optimal, of all winning ones."""
    game = ai.game
    optimal: dict = {}
    for state, value in solution.items():
        player = game.to_move(state)
        if player is None or player is CHANCE or value[player] <= 0:
            continue
        key = state_key(game, state)
        if key not in optimal:
            optimal[key] = choose_action(ai, state, epsilon=False) in best_moves(game, solution, state)
    return sum(optimal.values()), len(optimal)


def optimal_move_rate(ai: QAI, solution=None) -> Fraction:
    """The share of reachable winning states where the AI's greedy action is optimal.

    A winning state is one where the player to move can force a win, by the
    exact solver; each table state counts once.

    In misère Nim(9, 3) the winning heaps are 2, 3, 4, 6, 7, 8 (not 1 mod 4); an
    empty table takes 1 everywhere, which is optimal only at 2 and 6:

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=9, max_take=3)
    >>> optimal_move_rate(new_ai(game)), optimal_move_rate(train(3_000, seed=2, game=game))
    (Fraction(1, 3), Fraction(1, 1))
    """
    solution = solve(ai.game) if solution is None else solution
    optimal, winning = _optimal_counts(ai, solution)
    if not winning:
        raise ValueError(f"{game_text(ai.game)} has no reachable winning state: no optimal-move rate")
    return Fraction(optimal, winning)


EVAL_CHUNK = 100
"""Games per chunk (and per child seed) of an evaluation run on an executor."""


def _seat_chunk(ai, opponent, seat, size, rng):
    """``(wins, draws)`` of the AI in ``size`` games from ``seat`` (0: it moves first)."""
    game = ai.game
    me = q_agent(ai)
    agents = (me, opponent) if seat == 0 else (opponent, me)
    low, high = payoff_range(game)
    middle = Fraction(low + high) / 2
    mine = [_play_out(game, agents, rng)[seat] for _ in range(size)]
    return sum(x > middle for x in mine), sum(x == middle for x in mine)


def _win_rate_counts(games, wins, draws) -> PMap:
    """``win_rate_against``'s map from the wins of each seat and the draws of ``games`` games a seat."""
    total = wins[0] + wins[1]
    return pmap(
        {
            "games": 2 * games,
            "wins": total,
            "wins_first": wins[0],
            "wins_second": wins[1],
            "draws": draws,
            "rate": total / (2 * games),
            "score": (total + draws / 2) / (2 * games),
        }
    )


def _chunked_win_rate(ai, opponent, games, seed, progress, executor, chunk_size):
    from .rng import child_seed, resolve_seed

    base = resolve_seed(seed)
    wins, draws = [], 0
    for seat in (0, 1):
        counts = run_chunks(
            partial(_seat_chunk, ai, opponent, seat), games, child_seed(base, seat), chunk_size, executor, progress
        )
        wins.append(sum(w for w, _ in counts))
        draws += sum(d for _, d in counts)
    return _win_rate_counts(games, wins, draws)


def win_rate_against(
    ai: QAI,
    opponent: Callable,
    games: int = 1000,
    seed: int | None = 0,
    progress: Callable[[int], None] | None = None,
    *,
    executor=None,
    chunk_size: int | None = None,
) -> PMap:
    """The AI's greedy play against ``opponent`` (an agent), as a map of counts and rates.

    It plays ``games`` games as the first player and ``games`` as the second,
    one ``rng`` from ``seed`` for all; ``progress(1)`` is called after each game.
    With ``executor`` (a process pool or a Dask client, as for ``tournament``)
    or ``chunk_size``, the games of each side are cut into chunks of
    ``chunk_size`` (default ``EVAL_CHUNK``), each with its own child seed, and
    played there: the same counts for a seed whatever the executor and its
    number of workers (and ``progress`` hears of each chunk's games).

    Returns a map with ``games`` (both sides), ``wins``, ``wins_first``,
    ``wins_second``, ``draws`` (games whose payoff to the AI is the middle of the
    game's ``payoff_range``), ``rate`` (wins / games) and ``score`` (wins plus
    half the draws, over the games).

    >>> from fnmcts.games import Piles
    >>> game = Piles((1, 2))
    >>> from fnmcts.matches import random_agent
    >>> result = win_rate_against(train(500, seed=1, game=game), random_agent, games=100, seed=3)
    >>> result["games"], result["wins_first"]
    (200, 100)
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive whole number, got {games!r}")
    if executor is not None or chunk_size is not None:
        return _chunked_win_rate(ai, opponent, games, seed, progress, executor, chunk_size or EVAL_CHUNK)
    game = ai.game
    me = q_agent(ai)
    rng = make_rng(seed)
    low, high = payoff_range(game)
    middle = Fraction(low + high) / 2
    wins, draws = [], 0
    for seat in (0, 1):
        agents = (me, opponent) if seat == 0 else (opponent, me)
        mine = []
        for _ in range(games):
            mine.append(_play_out(game, agents, rng)[seat])
            if progress is not None:
                progress(1)
        wins.append(sum(x > middle for x in mine))
        draws += sum(x == middle for x in mine)
    return _win_rate_counts(games, wins, draws)


def evaluate(
    ai: QAI,
    games: int = 1000,
    seed: int | None = 0,
    solution=None,
    progress: Callable[[int], None] | None = None,
    *,
    executor=None,
    chunk_size: int | None = None,
) -> PMap:
    """The AI's report card, a map: its optimal move rate and its win rates against two opponents.

    ``optimal_move_rate`` (with ``optimal_states`` of ``winning_states``;
    ``None`` when no reachable state is a win), and ``win_rate_vs_random`` /
    ``win_rate_vs_perfect`` over ``games`` games on each side (``vs_random`` /
    ``vs_perfect`` hold the details). ``progress(1)`` is called after each of
    the ``4 * games`` games. ``executor`` / ``chunk_size``: the games run in
    chunks with child seeds, there (see ``win_rate_against``).

    >>> from fnmcts.games import Nim
    >>> report = evaluate(train(3_000, seed=2, game=Nim(heap=9, max_take=3)), games=200, seed=1)
    >>> report["optimal_move_rate"], report["win_rate_vs_perfect"]
    (1.0, 0.5)
    """
    game = ai.game
    solution = solve(game) if solution is None else solution
    optimal, winning = _optimal_counts(ai, solution)
    rng = make_rng(seed)
    chunks = dict(executor=executor, chunk_size=chunk_size)
    vs_random = win_rate_against(ai, random_agent, games, rng.randrange(2**32), progress, **chunks)
    vs_perfect = win_rate_against(ai, _perfect_agent(game, solution), games, rng.randrange(2**32), progress, **chunks)
    return pmap(
        {
            "optimal_move_rate": optimal / winning if winning else None,
            "optimal_states": optimal,
            "winning_states": winning,
            "win_rate_vs_random": vs_random["rate"],
            "win_rate_vs_perfect": vs_perfect["rate"],
            "vs_random": vs_random,
            "vs_perfect": vs_perfect,
        }
    )


# -- the file format -------------------------------------------------------------------


def _game_to_json(game) -> dict:
    try:
        return game_to_json(game)
    except ValueError as error:
        raise ValueError(f"cannot save a Q table for {game_text(game)}: {error}") from None


def _game_from_json(data, games):
    game = game_from_json(data, games)
    if getattr(game, "num_players", None) != 2:
        raise ValueError(f"game {data['name']!r} is not a two-player game")
    return game


def ai_to_json(ai: QAI) -> dict:
    """The JSON form of ``ai`` (the documented, versioned Q table format).

    >>> from fnmcts.games import Nim
    >>> ai = update_q_value(new_ai(Nim(heap=5)), (2,), 1, 0, 1, 0)
    >>> ai_to_json(ai)["q"], ai_to_json(ai)["game"]
    ([[[2], 1, 0.5]], {'name': 'nim', 'heap': 5, 'max_take': 3, 'misere': True})
    """
    game = ai.game
    entries = [[q_key_to_json(game, key), _to_json(action), value] for (key, action), value in ai.q.items()]
    entries.sort(key=lambda entry: json.dumps(entry[:2], sort_keys=True))
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": _game_to_json(game),
        "alpha": ai.alpha,
        "epsilon": ai.epsilon,
        "q": entries,
    }


def _entry_from_json(game, index, entry):
    if not isinstance(entry, list) or len(entry) != 3:
        raise ValueError(f"q entry {index} must be [state, action, value], got {entry!r}")
    key_data, action_data, value = entry
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"q entry {index}: the value must be a finite number, got {value!r}")
    try:
        key = q_key_from_json(game, key_data)
        state = state_from_q_key(game, key)
    except (ValueError, TypeError) as error:
        raise ValueError(f"q entry {index}: bad state {key_data!r}: {error}") from None
    action = _from_json(action_data)
    try:
        legal = action in _moves(game, state)
    except TypeError:
        legal = False
    if not legal:
        raise ValueError(f"q entry {index}: illegal action {action_data!r} at state {key_data!r}")
    return (key, action), value


def ai_from_json(data, games) -> QAI:
    """The AI whose JSON form is ``data``, checked: a ``ValueError`` names any problem.

    ``games`` maps the names of games to their constructors (``fnmcts.games.GAMES``;
    ``fnmcts.ai_from_json`` uses it unless told).

    >>> from fnmcts.games import GAMES, Nim
    >>> ai = train(100, seed=1, game=Nim(heap=6))
    >>> ai_from_json(ai_to_json(ai), GAMES) == ai
    True
    >>> ai_from_json(ai_to_json(ai) | {"version": 9}, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: unsupported Q table version 9 (this fnmcts reads version 1)
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a Q table: expected an object with \"format\": {FORMAT!r}")
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"unsupported Q table version {data.get('version')!r} (this fnmcts reads version {FORMAT_VERSION})")
    missing = [k for k in ("game", "alpha", "epsilon", "q") if k not in data]
    if missing:
        raise ValueError(f"the Q table lacks {', '.join(map(repr, missing))}")
    game = _game_from_json(data["game"], games)
    alpha = _number("alpha", data["alpha"])
    epsilon = _number("epsilon", data["epsilon"])
    if not isinstance(data["q"], list):
        raise ValueError(f"'q' must be a list of [state, action, value], got {type(data['q']).__name__}")
    q = {}
    for index, entry in enumerate(data["q"]):
        pair, value = _entry_from_json(game, index, entry)
        if pair in q:
            raise ValueError(f"q entry {index}: state {entry[0]!r} and action {entry[1]!r} appear twice")
        q[pair] = value
    return QAI(game=game, alpha=alpha, epsilon=epsilon, q=pmap(q))


def ai_to_text(ai: QAI) -> str:
    """The text of the Q table file for ``ai``, checked as ``load_ai`` checks a file.

    The text is ``ai_to_json`` as compact JSON, checked so that what is written
    can be read back.

    A ``ValueError`` names the problem: an illegal action, a value that is not a
    finite number (``inf``, ``nan``, a string), a game that cannot be saved.

    >>> from fnmcts.games import Nim
    >>> ai_to_text(update_q_value(new_ai(Nim(heap=5)), (2,), 1, 0, 1, 0))[-19:]
    '"q":[[[2],1,0.5]]}\\n'
    >>> ai_to_text(new_ai(Nim(heap=5)).set(q=pmap({((2,), 3): 1.0})))
    Traceback (most recent call last):
    ...
    ValueError: cannot save this Q table: q entry 0: illegal action 3 at state [2]
    """
    data = ai_to_json(ai)
    try:
        text = json.dumps(data, indent=None, separators=(",", ":"), allow_nan=False)
    except ValueError as error:
        bad = next((e for e in data["q"] if isinstance(e[2], float) and not math.isfinite(e[2])), None)
        if bad is None:
            raise ValueError(f"cannot save this Q table: {error}") from None
        raise ValueError(
            f"cannot save this Q table: the value of state {bad[0]!r}, action {bad[1]!r} "
            f"must be a finite number, got {bad[2]!r}"
        ) from None
    except TypeError as error:
        raise ValueError(f"cannot save this Q table: {error}") from None
    try:
        back = ai_from_json(json.loads(text), {data["game"]["name"]: type(ai.game)})
    except (ValueError, TypeError) as error:
        raise ValueError(f"cannot save this Q table: {error}") from None
    if back != ai:
        raise ValueError("cannot save this Q table: it would not load back the same (a key or value that JSON cannot hold)")
    return text + "\n"


def __getattr__(name):
    """``win_rate``, the name of ``win_rate_against`` in earlier releases, with a ``DeprecationWarning``."""
    if name == "win_rate":
        deprecated("fnmcts.qlearning.win_rate is now win_rate_against (fnmcts.mcts.win_rate is a record's share of wins)")
        return win_rate_against
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
