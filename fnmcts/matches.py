"""Playing games: the random agent, playouts, whole games and tournaments.

The bottom of the algorithms: everything here is written once against the
protocol and names no game. ``random_agent`` and ``first_move_agent`` are the
two agents every other layer can lean on; ``playout`` plays a state to its end;
``play_game(game, agent1, agent2, seed)`` plays one game and returns an
immutable ``GameRecord`` (the moves, the payoff, the winner 1 or 2, the
notebook's player numbers, and with ``verbose`` the transcript as data: "Player
1 takes 3 matchstick(s). There are 18 matchstick(s) remaining."); nothing is
printed here. ``tournament(game, agent1, agent2, n, seed)`` plays ``n`` games
and returns a ``TournamentRecord``: same seed, same result, on one worker or
many (one child seed per fixed-size chunk of games).

Both take the game first, as every generic function does (game, state, ...,
count, rng). The Nim notebook's order, ``Game(Agent1, Agent2, N, K)`` and
``Tournament(numgames, Agent1, Agent2, N, K)``, is accepted too:
``play_game(agent1, agent2, game)`` and ``tournament(n, agent1, agent2, game)``
give the same records (a game is told from an agent by its protocol methods).

>>> from fnmcts.agents import perfect_agent
>>> from fnmcts.games import Nim
>>> game = Nim(heap=21, max_take=3, misere=True)
>>> record = play_game(game, random_agent, perfect_agent, seed=1, verbose=True)
>>> record.winner, record.transcript[-1]
(2, 'Player 2 wins!')
>>> tournament(game, random_agent, perfect_agent, 100, seed=1).summary()
'Player 1 wins 0 games. Player 2 wins 100 games.'
>>> play_game(random_agent, perfect_agent, game, seed=1) == play_game(game, random_agent, perfect_agent, seed=1)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from pyrsistent import field, pmap

from .values import FixedRecord

from .limits import WORK_LIMIT, check_work, size_hint
from .parallel import Interrupted, check_count, interrupted, run_chunks
from .protocol import CHANCE, check_state, sample_outcome, transcript_line
from .rng import check_rng, resolve_seed

__all__ = [
    "random_agent",
    "first_move_agent",
    "MemoryAgent",
    "agent_move",
    "initial_memory",
    "playout",
    "GameRecord",
    "TournamentRecord",
    "play_game",
    "tournament",
    "transcript_line",
    "result_line",
    "TOURNAMENT_CHUNK",
]

TOURNAMENT_CHUNK = 100
"""Games per chunk (and per child seed) of a tournament unless told otherwise."""


def random_agent(game, state, rng: random.Random):
    """A uniformly random legal move, consuming one ``rng.random()`` (none if forced).

    >>> from fnmcts.games.nim import Nim
    >>> random_agent(Nim(heap=1), Nim(heap=1).start(), random.Random(0))
    1
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no legal move at {state!r}")
    if len(moves) == 1:
        return moves[0]
    return moves[int(rng.random() * len(moves))]


def first_move_agent(game, state, rng: random.Random = None):
    """The first legal move in the game's stable order (deterministic).

    >>> from fnmcts.games.nim import Nim
    >>> first_move_agent(Nim(), Nim().start())
    1
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no legal move at {state!r}")
    return moves[0]


@dataclass(frozen=True)
class MemoryAgent:
    """An agent that carries a memory from move to move, functionally.

    ``step(game, state, rng, memory) -> (move, next memory)``; the first move
    of a game gets ``initial``. ``play_game``, ``tournament`` and the command
    line thread the memory from one of the agent's moves to its next (a fresh
    ``initial`` each game); anywhere else (a playout, ``simulate``) the agent
    is a plain ``(game, state, rng) -> move`` agent that starts from
    ``initial`` each move. For MCTS the memory is the tree, pruned to the
    states still reachable (``fnmcts.mcts.mcts_agent(..., reuse=True)``). A
    ``MemoryAgent`` of picklable parts pickles, so it runs in worker processes.

    >>> from fnmcts.games import Nim
    >>> def counting(game, state, rng, memory):  # takes 1 and counts its own moves
    ...     return 1, memory + 1
    >>> agent = MemoryAgent(counting, initial=0)
    >>> agent(Nim(), Nim().start(), random.Random(1)), agent_move(agent, Nim(), Nim().start(), random.Random(1), 4)
    (1, (1, 5))
    """

    step: Callable
    initial: Any = None

    def __call__(self, game, state, rng):
        return self.step(game, state, rng, self.initial)[0]


def initial_memory(agent):
    """The memory ``agent`` starts a game with: a ``MemoryAgent``'s ``initial``, else None.

    >>> initial_memory(random_agent), initial_memory(MemoryAgent(None, initial=()))
    (None, ())
    """
    return agent.initial if isinstance(agent, MemoryAgent) else None


def agent_move(agent, game, state, rng, memory=None) -> tuple:
    """``(move, next memory)``: a ``MemoryAgent``'s step, or a plain agent's move and the memory unchanged.

    >>> from fnmcts.games import Nim
    >>> agent_move(first_move_agent, Nim(), Nim().start(), random.Random(1), "kept")
    (1, 'kept')
    """
    if isinstance(agent, MemoryAgent):
        result = agent.step(game, state, rng, memory)
        if not (isinstance(result, tuple) and len(result) == 2):
            raise TypeError(f"a MemoryAgent's step returns (move, memory), got {result!r}")
        return result
    return agent(game, state, rng), memory


def playout(game, state, rng: random.Random, agent=None, *, moves: bool = False):
    """Play from ``state`` to the end; return the terminal state.

    ``agent`` is a function ``(game, state, rng) -> move`` used for every player,
    or a tuple of one agent per player; the default plays uniformly at random.
    Chance nodes draw from ``rng``. ``moves=True``: return ``(end, moves)``,
    with every move and chance outcome played, in order (the same draws).

    >>> from fnmcts.games.nim import Nim
    >>> end = playout(Nim(heap=5), Nim(heap=5).start(), random.Random(2))
    >>> end["heap"], Nim(heap=5).payoff(end)
    (0, (1, -1))
    >>> playout(Nim(heap=5), Nim(heap=5).start(), random.Random(2), moves=True)[1]  # the same game's moves
    (3, 2)
    """
    check_rng(rng)
    agents = agent if isinstance(agent, tuple) else None
    single = agent or random_agent
    played = [] if moves else None
    while True:
        player = game.to_move(state)
        if player is None:
            return (state, tuple(played)) if moves else state
        if player is CHANCE:
            move = sample_outcome(game, state, rng)
        else:
            chooser = agents[player] if agents else single
            move = chooser(game, state, rng)
        if moves:
            played.append(move)
        state = game.play(state, move)


class GameRecord(FixedRecord):
    """One finished game: moves, final state, payoff, winner (1, 2 or None), transcript.

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> record = play_game(Nim(heap=5, max_take=3), random_agent, perfect_agent, seed=1)
    >>> record.moves, record.end["heap"], record.payoff, record.winner, record.reward
    ((1, 3, 1), 0, (-1, 1), 2, -1)
    """

    moves = field(type=tuple, mandatory=True)
    end = field(mandatory=True)
    payoff = field(type=tuple, mandatory=True)
    winner = field(mandatory=True)
    transcript = field(type=tuple, initial=())
    seed = field(initial=None)

    @property
    def reward(self):
        """The payoff of player 1 (the notebook's Game return value: 1 or -1)."""
        return self.payoff[0]


class TournamentRecord(FixedRecord):
    """The result of ``n`` games: wins per player (keys 1 and 2), draws, the seed.

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> result = tournament(Nim(heap=5, max_take=3), random_agent, perfect_agent, 10, seed=1)
    >>> result.games, result.wins == {1: 0, 2: 10}, result.draws, result.seed
    (10, True, 0, 1)
    """

    games = field(type=int, mandatory=True)
    wins = field(mandatory=True)
    draws = field(type=int, initial=0)
    seed = field(initial=None)

    def summary(self) -> str:
        """The notebook's line: "Player 1 wins 47 games. Player 2 wins 53 games."

        >>> TournamentRecord(games=3, wins=pmap({1: 1, 2: 2})).summary()
        'Player 1 wins 1 games. Player 2 wins 2 games.'
        """
        text = " ".join(f"Player {p} wins {self.wins[p]} games." for p in sorted(self.wins))
        return text + (f" {self.draws} draws." if self.draws else "")

    def to_json(self) -> dict:
        """A plain dict for ``json.dumps``: games, wins ("1"/"2" -> count), draws, seed.

        >>> TournamentRecord(games=3, wins=pmap({1: 1, 2: 2}), seed=5).to_json()["wins"]
        {'1': 1, '2': 2}
        """
        return {
            "games": self.games,
            "wins": {str(p): self.wins[p] for p in sorted(self.wins)},
            "draws": self.draws,
            "seed": self.seed,
        }


def result_line(winner) -> str:
    """The last transcript line: "Player 2 wins!", or "Nobody wins." for ``None``.

    >>> result_line(2)
    'Player 2 wins!'
    """
    return "Nobody wins." if winner is None else f"Player {winner} wins!"


def _winner(payoff) -> int | None:
    """1 or 2 for a sole best payoff (one player: 1 for a positive payoff), else None."""
    if len(payoff) == 1:
        return 1 if payoff[0] > 0 else None
    best = max(payoff)
    leaders = [i for i, x in enumerate(payoff) if x == best]
    return leaders[0] + 1 if len(leaders) == 1 else None


def _play(agents, game, state, rng, verbose):
    moves, lines = [], []
    memories = [initial_memory(agent) for agent in agents]
    while True:
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            move = sample_outcome(game, state, rng)
        else:
            move, memories[player] = agent_move(agents[player], game, state, rng, memories[player])
            if move not in game.possible_moves(state):
                raise ValueError(f"player {player + 1} chose an illegal move {move!r} at {state!r}")
        after = game.play(state, move)
        moves.append(move)
        if verbose:
            lines.append(transcript_line(game, player, move, after))
        state = after
    payoff = tuple(game.payoff(state))
    winner = _winner(payoff)
    if verbose:
        lines.append(result_line(winner))
    return tuple(moves), state, payoff, winner, tuple(lines)


def _is_game(x) -> bool:
    """True for a game value (it has the protocol's methods); agents are plain callables."""
    return not isinstance(x, type) and all(
        callable(getattr(x, name, None)) for name in ("start", "to_move", "possible_moves", "play"))


def _game_first(name: str, game, agent1, agent2):
    """``(game, agent1, agent2)`` from the game-first order or the notebook's ``(agent1, agent2, game)``."""
    if _is_game(game):
        return game, agent1, agent2
    if _is_game(agent2) and not _is_game(agent1):
        return agent2, game, agent1
    raise TypeError(
        f"{name}(game, agent1, agent2, ...) takes a game (with start, to_move, possible_moves and play) "
        f"and two agents; got {game!r}, {agent1!r}, {agent2!r}")


def play_game(
    game,
    agent1: Callable,
    agent2: Callable,
    seed: int | None = None,
    verbose: bool = False,
    *,
    rng: random.Random | None = None,
    state=None,
) -> GameRecord:
    """Play one game of ``game`` from ``state`` (default: the start); player 1 is ``agent1``.

    Agents are functions ``(game, state, rng) -> move`` or ``MemoryAgent``
    values, whose memory is threaded from each move to the agent's next; both draw from one
    generator seeded with ``seed`` (or ``rng``), so the same seed gives the same
    game. With ``verbose`` the record carries the notebook's transcript lines.
    The notebook's order, ``play_game(agent1, agent2, game)``, is accepted too.

    >>> from fnmcts.agents import perfect_agent, random_agent
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=22, max_take=3, misere=True)
    >>> record = play_game(game, perfect_agent, perfect_agent, seed=3, verbose=True)
    >>> record.winner, record.reward, record.transcript[0]
    (1, 1, 'Player 1 takes 1 matchstick(s). There are 21 matchstick(s) remaining.')
    >>> play_game(perfect_agent, random_agent, perfect_agent)
    Traceback (most recent call last):
    ...
    TypeError: play_game(game, agent1, agent2, ...) takes a game (with start, to_move, possible_moves and play) and two agents; got <function perfect_agent ...>, <function random_agent ...>, <function perfect_agent ...>
    """
    game, agent1, agent2 = _game_first("play_game", game, agent1, agent2)
    base = resolve_seed(seed, rng)
    agents = (agent1, agent2)
    if game.num_players > 2:
        raise ValueError(f"play_game takes two agents; this game has {game.num_players} players")
    start = check_state(game, game.start() if state is None else state)
    # the game draws from Random(seed), so the record's seed replays it even when an rng was given
    moves, end, payoff, winner, lines = _play(agents, game, start, random.Random(base), verbose)
    return GameRecord(moves=moves, end=end, payoff=payoff, winner=winner, transcript=lines, seed=base)


def _tournament_chunk(agent1, agent2, game, state, size, rng, tick=None):
    counts = [0, 0, 0]  # draws, player 1, player 2
    for _ in range(size):
        _, _, _, winner, _ = _play((agent1, agent2), game, state, rng, False)
        counts[winner or 0] += 1
        if tick is not None:
            tick(1)
    return tuple(counts)


def tournament(
    game,
    agent1: Callable,
    agent2: Callable,
    n: int,
    seed: int | None = None,
    *,
    rng: random.Random | None = None,
    state=None,
    executor=None,
    chunk_size: int = TOURNAMENT_CHUNK,
    progress: Callable[[int], None] | None = None,
    limit: int | None = WORK_LIMIT,
) -> TournamentRecord:
    """Play ``n`` games of ``game``, ``agent1`` (player 1) against ``agent2``; count the wins.

    The games are cut into chunks of ``chunk_size``, each played with its own
    child seed of ``seed``, in this process or on ``executor`` (agents and game
    must then be picklable: module-level functions or partials of them).
    Ctrl-C raises ``Interrupted`` whose ``partial`` is the record of the chunks
    of games finished. Games times their length times the moves at a state
    (the game's ``size_hint``, the least any agent looks at) beyond ``limit``
    is refused up front (``TooLarge``; ``limit=None`` goes on). The notebook's
    order, ``tournament(n, agent1, agent2, game)``, is accepted too.

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> tournament(Nim(heap=22), perfect_agent, perfect_agent, 10, seed=1).to_json()
    {'games': 10, 'wins': {'1': 10, '2': 0}, 'draws': 0, 'seed': 1}
    >>> tournament(10, perfect_agent, perfect_agent, Nim(heap=22), seed=1).to_json()["wins"]
    {'1': 10, '2': 0}
    """
    if not _is_game(game) and _is_game(n):  # the notebook's Tournament(numgames, Agent1, Agent2, ...)
        game, n = n, game
    game, agent1, agent2 = _game_first("tournament", game, agent1, agent2)
    check_count(n, "the number of games")
    base = resolve_seed(seed, rng)
    start = game.start() if state is None else state
    _, length, branching = size_hint(game, start)
    check_work(n, length, branching, limit=limit)
    tick = progress if executor is None else None  # in this process, progress moves with every game
    fn = partial(_tournament_chunk, agent1, agent2, game, start, tick=tick)
    try:
        counts = run_chunks(fn, n, base, chunk_size, executor, None if tick is not None else progress)
    except Interrupted as stop:
        raise interrupted(stop, _tournament_record(stop.partial, base)) from None
    return _tournament_record(counts, base)


def _tournament_record(counts, seed) -> TournamentRecord:
    draws, one, two = (sum(c[i] for c in counts) for i in range(3))
    return TournamentRecord(games=draws + one + two, wins=pmap({1: one, 2: two}), draws=draws, seed=seed)
