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

from .elo import MatchStatistics, Sprt, SprtResult, match_statistics, sprt_scan
from .limits import MAX_PLIES, WORK_LIMIT, check_work, past_budget, size_hint
from .parallel import Interrupted, WorkerLost, check_count, chunks_done, interrupted, run_chunks
from .protocol import _NO_MOVE, _NO_STATE, CHANCE, _asked, _game_hook, _refuse_class, blame_game, check_state, guarded, payoff_check, sample_outcome
from .protocol import game_text, payoff_range, transcript_line
from .rng import check_rng, child_seed, pick, resolve_seed

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
    moves = _asked(game, "possible_moves", state)  # Nim for Nim(), a state of another game: said so
    if not moves:
        raise ValueError(f"no legal move at {state!r}")
    if len(moves) == 1:
        return moves[0]
    return pick(rng, moves)


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


def playout(game, state, rng: random.Random, agent=None, *, moves: bool = False, max_plies: int | None = MAX_PLIES,
            tables: dict | None = None):
    """Play from ``state`` to the end; return the terminal state.

    ``agent`` is a function ``(game, state, rng) -> move`` used for every player,
    or a tuple of one agent per player; the default plays uniformly at random.
    Chance nodes draw from ``rng`` (on the draw ``tables`` a caller keeps, if given). ``moves=True``:
    return ``(end, moves)``, with every move and chance outcome played, in order (the same draws).
    Play past ``max_plies`` plies (``fnmcts.limits.ply_budget``: the game's own
    bound when longer; None: no budget) is a ``NoEnd``; a hook of the game that
    raises or returns what the protocol does not allow, a ``GameError``.

    >>> from fnmcts.games.nim import Nim
    >>> end = playout(Nim(heap=5), Nim(heap=5).start(), random.Random(2))
    >>> end["heap"], Nim(heap=5).payoff(end)
    (0, (1, -1))
    >>> playout(Nim(heap=5), Nim(heap=5).start(), random.Random(2), moves=True)[1]  # the same game's moves
    (3, 2)
    """
    check_rng(rng)
    _game_hook(game, "to_move")  # a game's name, or None: said so, not an AttributeError of str
    agents = agent if isinstance(agent, tuple) else None
    single = agent or random_agent
    played = [] if moves else None
    start, plies, budget = state, 0, max_plies
    move = before = _NO_STATE
    tables = {} if tables is None else tables  # the draw tables of the outcome tuples met (``sample_outcome``)
    try:
        while True:
            player = game.to_move(state)
            if player is None:
                return (state, tuple(played)) if moves else state
            if player is CHANCE:
                move = sample_outcome(game, state, rng, tables)
            else:
                chooser = agents[player] if agents else single
                move = chooser(game, state, rng)
            if moves:
                played.append(move)
            before = state
            state = game.play(state, move)
            plies += 1
            if budget is not None and plies > budget:
                budget = past_budget(game, start, plies, budget, max_plies)
    except Exception as error:
        _refuse_class(game)  # Nim for Nim(): said so, not "missing 'state'"
        blame_game(game, error, state, _NO_MOVE if before is _NO_STATE else move, before)


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
    """The result of ``n`` games: wins per agent (keys 1 and 2), draws, the seed; pairs and the SPRT if asked.

    ``wins[1]`` counts the games ``agent1`` won, ``wins[2]`` those of
    ``agent2`` (in a tournament without pairs ``agent1`` is always player 1).
    ``pairs`` (paired tournaments) counts the seeds played from both sides by
    what ``agent1`` scored over the two games: 0, 1/2, 1, 3/2 or 2. ``sprt``
    (tournaments with ``sprt=``) is where the sequential test stopped.
    ``statistics()`` is the score, Elo, interval, likelihood of superiority
    and verdict (``fnmcts.elo``), over the pairs when there are pairs;
    ``str()`` prints them under the notebook's line.

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> result = tournament(Nim(heap=5, max_take=3), random_agent, perfect_agent, 10, seed=1)
    >>> result.games, result.wins == {1: 0, 2: 10}, result.draws, result.seed, result.results
    (10, True, 0, 1, (10, 0, 0))
    >>> print(result)
    Player 1 wins 0 games. Player 2 wins 10 games.
    agent 1 against agent 2: score 0.000 [0.000, 0.198] over 10 games (+0 =0 -10); Elo -inf [-inf, -243]; LOS 0.001: significant at 95%: second is stronger
    """

    games = field(type=int, mandatory=True)
    wins = field(mandatory=True)
    draws = field(type=int, initial=0)
    seed = field(initial=None)
    pairs = field()
    sprt = field()

    @property
    def paired(self) -> bool:
        """Whether every seed was played from both sides."""
        return "pairs" in self

    @property
    def results(self) -> tuple:
        """``(losses, draws, wins)`` of ``agent1``: its games as a trinomial, lowest score first."""
        return (self.wins[2], self.draws, self.wins[1])

    def statistics(self, level: float = 0.95) -> MatchStatistics:
        """Score, Elo and their interval, likelihood of superiority and verdict of ``agent1`` against ``agent2``.

        >>> print(TournamentRecord(games=6, wins=pmap({1: 3, 2: 0}), draws=3).statistics())
        score 0.750 [0.371, 1.000] over 6 games (+3 =3 -0); Elo +191 [-92, +inf]; LOS 0.933: not significant
        """
        return match_statistics(self.pairs if self.paired else self.results, level)

    def summary(self) -> str:
        """The notebook's line: "Player 1 wins 47 games. Player 2 wins 53 games." ("Agent" when paired).

        >>> TournamentRecord(games=4, wins=pmap({1: 1, 2: 2}), draws=1).summary()
        'Player 1 wins 1 game. Player 2 wins 2 games. 1 draw.'
        """
        who = "Agent" if self.paired else "Player"
        text = " ".join(f"{who} {p} wins {self.wins[p]} game{'s' * (self.wins[p] != 1)}." for p in sorted(self.wins))
        return text + (f" {self.draws} draw{'s' * (self.draws != 1)}." if self.draws else "")

    def report(self, level: float = 0.95) -> str:
        """The summary, the statistics and the sequential test's verdict, one line each (``str()``).

        >>> print(TournamentRecord(games=6, wins=pmap({1: 3, 2: 3})).report())
        Player 1 wins 3 games. Player 2 wins 3 games.
        agent 1 against agent 2: score 0.500 [0.000, 1.000] over 6 games (+3 =0 -3); Elo +0 [-inf, +inf]; LOS 0.500: not significant
        """
        lines = [self.summary(), f"agent 1 against agent 2: {self.statistics(level)}"]
        if "sprt" in self:
            lines.append(str(self["sprt"]))
        return "\n".join(lines)

    __str__ = report

    def to_json(self) -> dict:
        """A plain dict for ``json.dumps``: games, wins ("1"/"2" -> count), draws, seed, and the statistics.

        Infinite Elo (a score of 0 or 1) is written as null.

        >>> data = TournamentRecord(games=3, wins=pmap({1: 1, 2: 2}), seed=5).to_json()
        >>> data["wins"], data["verdict"], round(data["los"], 3)
        ({'1': 1, '2': 2}, 'not significant', 0.309)
        """
        stats = self.statistics()
        data = {
            "games": self.games,
            "wins": {str(p): self.wins[p] for p in sorted(self.wins)},
            "draws": self.draws,
            "seed": self.seed,
            "score": stats.score,
            "interval": list(stats.interval),
            "elo": _finite(stats.elo),
            "elo_interval": [_finite(stats.elo_low), _finite(stats.elo_high)],
            "los": stats.los,
            "verdict": stats.verdict,
        }
        if self.paired:
            data["pairs"] = list(self.pairs)
        if "sprt" in self:
            found = self["sprt"]
            test = found.test
            data["sprt"] = {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
                            "decision": found.decision, "llr": found.llr, "bounds": list(test.bounds)}
        return data


def _finite(x):
    return x if x == x and abs(x) != float("inf") else None


def result_line(winner) -> str:
    """The last transcript line: "Player 2 wins!", or "Nobody wins." for ``None``.

    >>> result_line(2)
    'Player 2 wins!'
    """
    return "Nobody wins." if winner is None else f"Player {winner} wins!"


def _winner(payoff, game_range=(0, 1)) -> int | None:
    """1 or 2 for a sole best payoff, else None; one player: 1 above the middle of ``game_range`` (``payoff_range``).

    One player wins as ``simulate`` counts a win: a payoff of 1/2 on ``(0, 1)``
    is a draw, not a win for being positive.

    >>> _winner((1, -1)), _winner((0.5,)), _winner((0.75,)), _winner((-3,), (-10, 0))
    (1, None, 1, 1)
    """
    if len(payoff) == 1:
        low, high = game_range
        return 1 if 2 * payoff[0] > low + high else None
    best = max(payoff)
    leaders = [i for i, x in enumerate(payoff) if x == best]
    return leaders[0] + 1 if len(leaders) == 1 else None


def _play(agents, game, state, rng, verbose, chance=None, ends=None, max_plies=MAX_PLIES):
    """Play one game: ``(moves, end, payoff, winner, transcript)``; the dice from ``chance`` (default ``rng``).

    ``ends``: a ``payoff_check`` of the game, the payoff checked by it;
    play past ``max_plies`` is a ``NoEnd``, a failure of the game's own code a
    ``GameError``.
    """
    dice = rng if chance is None else chance
    moves, lines = [], []
    memories = [initial_memory(agent) for agent in agents]
    start, budget = state, max_plies
    move = before = _NO_STATE
    tables = {}  # the draw tables of this game's outcome tuples (``sample_outcome``)
    try:
        while True:
            player = game.to_move(state)
            if player is None:
                break
            if player is CHANCE:
                move = sample_outcome(game, state, dice, tables)
            else:
                move, memories[player] = agent_move(agents[player], game, state, rng, memories[player])
                if move not in game.possible_moves(state):
                    raise ValueError(f"player {player + 1} chose an illegal move {move!r} at {state!r}")
            before = state
            after = state = game.play(state, move)
            moves.append(move)
            if verbose:
                lines.append(transcript_line(game, player, move, after, before))
            if budget is not None and len(moves) > budget:
                budget = past_budget(game, start, len(moves), budget, max_plies)
        payoff = game.payoff(state)
        payoff = ends(state, payoff) if ends is not None else tuple(payoff)
    except Exception as error:
        blame_game(game, error, state, _NO_MOVE if before is _NO_STATE else move, before)
    winner = _winner(payoff, payoff_range(game) if len(payoff) == 1 else None)
    if verbose:
        lines.append(result_line(winner))
    return tuple(moves), state, payoff, winner, tuple(lines)


def _is_game(x) -> bool:
    """True for a game value (it has the protocol's methods); agents are plain callables."""
    return not isinstance(x, type) and all(
        callable(getattr(x, name, None)) for name in ("start", "to_move", "possible_moves", "play"))


def _game_first(name: str, game, agent1, agent2):
    """``(game, agent1, agent2)`` from the game-first order or the notebook's ``(agent1, agent2, game)``.

    An agent that is no function is named (a tuple of both agents given as one):

    >>> from fnmcts.agents import random_agent
    >>> from fnmcts.games import Nim
    >>> _game_first("play_game", Nim(), (random_agent, random_agent), 3)
    Traceback (most recent call last):
    ...
    TypeError: play_game(game, agent1, agent2, ...): agent1 is a tuple, not an agent (a function (game, state, rng) -> move, or a MemoryAgent); give the two agents as two arguments: play_game(game, agent1, agent2, seed=...)
    """
    _refuse_class(game)
    if _is_game(game):
        if agent2 is None and getattr(game, "num_players", 2) == 1:  # one player: no second agent to give
            return game, _agents(name, agent1, agent1)[0], None
        return game, *_agents(name, agent1, agent2)
    if _is_game(agent2) and not _is_game(agent1):
        return agent2, *_agents(name, game, agent1)
    raise TypeError(
        f"{name}(game, agent1, agent2, ...) takes a game (with start, to_move, possible_moves and play) "
        f"and two agents; got {game!r}, {agent1!r}, {agent2!r}")


def _agents(name: str, agent1, agent2) -> tuple:
    """``(agent1, agent2)``, or a ``TypeError`` naming the first that is not callable."""
    for label, agent in (("agent1", agent1), ("agent2", agent2)):
        if not callable(agent):
            hint = (f"give the two agents as two arguments: {name}(game, agent1, agent2, seed=...)"
                    if isinstance(agent, (tuple, list)) else
                    f"an agent by name is fnmcts.agents.make_agent({agent!r})" if isinstance(agent, str) else
                    "fnmcts.agents holds the built-in ones")
            kind = type(agent).__name__
            raise TypeError(f"{name}(game, agent1, agent2, ...): {label} is {'an' if kind[0] in 'aeiou' else 'a'} "
                            f"{kind}, not an agent "
                            f"(a function (game, state, rng) -> move, or a MemoryAgent); {hint}")
    return agent1, agent2


def _check_two_players(name: str, game) -> None:
    """A ``ValueError`` for a game of more than two players: ``name`` takes two agents, one a player."""
    players = getattr(game, "num_players", 1)
    if players > 2:
        raise ValueError(f"{name} takes two agents; this game has {players} players")


@guarded
def play_game(
    game,
    agent1: Callable,
    agent2: Callable,
    seed: int | None = None,
    verbose: bool = False,
    *,
    rng: random.Random | None = None,
    state=None,
    max_plies: int | None = MAX_PLIES,
) -> GameRecord:
    """Play one game of ``game`` from ``state`` (default: the start); player 1 is ``agent1``.

    Agents are functions ``(game, state, rng) -> move`` or ``MemoryAgent``
    values, whose memory is threaded from each move to the agent's next; both draw from one
    generator seeded with ``seed`` (or ``rng``), so the same seed gives the same
    game. With ``verbose`` the record carries the notebook's transcript lines.
    The notebook's order, ``play_game(agent1, agent2, game)``, is accepted too.
    A game longer than ``max_plies`` plies is a ``NoEnd`` (``fnmcts.limits``:
    the game's own bound when longer; None: no budget), a failure of the
    game's own code (a hook that raises, a payoff outside ``payoff_range``) a
    ``GameError``.

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
    _check_two_players("play_game", game)
    start = game.start() if state is None else check_state(game, state)  # the game's own start: its hooks say
    # the game draws from Random(seed), so the record's seed replays it even when an rng was given
    moves, end, payoff, winner, lines = _play(agents, game, start, random.Random(base), verbose, None, payoff_check(game),
                                              max_plies)
    return GameRecord(moves=moves, end=end, payoff=payoff, winner=winner, transcript=lines, seed=base)


def _tournament_chunk(agent1, agent2, game, state, size, rng, tick=None, paired=False, sequence=False,
                      max_plies=MAX_PLIES):
    """One chunk of a tournament: counts, or with ``sequence`` every game's (or pair's) outcome in order.

    Counts: ``(draws, agent1's wins, agent2's wins)``, and with ``paired`` the
    pair counts after them. An outcome is a game's score bin for ``agent1``
    (0 loss, 1 draw, 2 win), or for a pair the bins of its two games.
    """
    ends = payoff_check(game)
    if not paired:
        counts = [0, 0, 0]  # draws, player 1, player 2
        outcomes = []
        for _ in range(size):
            _, _, _, winner, _ = _play((agent1, agent2), game, state, rng, False, None, ends, max_plies)
            counts[winner or 0] += 1
            if sequence:
                outcomes.append(_BIN[winner])
            if tick is not None:
                tick(1)
        return tuple(outcomes) if sequence else tuple(counts)
    counts, outcomes = [0, 0, 0] + [0] * 5, []
    for _ in range(size // 2):
        pair = rng.getrandbits(63)
        bins = []
        for agents, first in (((agent1, agent2), True), ((agent2, agent1), False)):
            players, dice = random.Random(child_seed(pair, 1)), random.Random(child_seed(pair, 0))
            _, _, _, winner, _ = _play(agents, game, state, players, False, dice, ends, max_plies)
            mine = _BIN[winner] if first else 2 - _BIN[winner]
            bins.append(mine)
            counts[_WINNER_OF[mine]] += 1
            if tick is not None:
                tick(1)
        counts[3 + bins[0] + bins[1]] += 1
        outcomes.append(tuple(bins))
    return tuple(outcomes) if sequence else tuple(counts)


_BIN = {1: 2, 2: 0, None: 1}
"""A game's score bin for player 1 by its winner: 2 a win, 1 a draw, 0 a loss."""

_WINNER_OF = (2, 0, 1)
"""Where a game of score bin 0, 1, 2 for ``agent1`` counts: agent 2's wins, draws, agent 1's wins."""


def _check_sprt(sprt):
    """``sprt`` as a checked ``Sprt``: from an ``Sprt`` or a tuple ``(elo0, elo1, alpha, beta)``."""
    if sprt is None or isinstance(sprt, Sprt):
        return sprt if sprt is None else sprt.check()
    try:
        return Sprt(*sprt).check()
    except TypeError:
        raise TypeError(f"sprt is (elo0, elo1, alpha, beta), e.g. (0, 50, 0.05, 0.05), got {sprt!r}") from None


class _SprtWatch:
    """Hears a tournament's chunks in order and says when its sequential test has decided."""

    def __init__(self, test, paired):
        self.test, self.paired = test, paired
        self.last = None

    def __call__(self, outcomes) -> bool:
        bins = [a + b for a, b in outcomes] if self.paired else outcomes
        self.last = sprt_scan(self.test, bins, 5 if self.paired else 3, self.last)
        return self.last.decision is not None


@guarded
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
    paired: bool | None = None,
    sprt=None,
    max_plies: int | None = MAX_PLIES,
) -> TournamentRecord:
    """Play ``n`` games of ``game``, ``agent1`` (player 1) against ``agent2``; count the wins.

    The games are cut into chunks of ``chunk_size``, each played with its own
    child seed of ``seed``, in this process or on ``executor`` (agents and game
    must then be picklable: module-level functions or partials of them).
    Ctrl-C raises ``Interrupted`` whose ``partial`` is the record of the chunks
    of games finished. Games times their length times the moves at a state
    (the game's ``size_hint``, the least any agent looks at; a game with no
    longest line, Pig, counts its ``fewest_moves``) beyond ``limit`` is
    refused up front (``TooLarge``; ``limit=None`` goes on); a game longer
    than ``max_plies`` plies is a ``NoEnd``, a failure of the game's own code
    a ``GameError`` (as ``play_game``). The notebook's
    order, ``tournament(n, agent1, agent2, game)``, is accepted too.

    ``paired=True`` plays every seed from both sides: ``n / 2`` pairs, each a
    game with ``agent1`` first and one with ``agent2`` first on the same seed
    (the same dice, rolled from a generator of their own; the agents draw
    from another), so luck and the first move's advantage cancel within a
    pair. ``sprt=(elo0, elo1, alpha, beta)`` (or an ``fnmcts.elo.Sprt``) runs
    a sequential probability ratio test of ``agent1``'s Elo over ``agent2``
    after every game (every pair: ``paired`` defaults to True with it), and
    stops the tournament as soon as it accepts H0 (Elo ``elo0``) or H1 (Elo
    ``elo1``), with error rates ``alpha`` and ``beta``; ``n`` is then the
    most games it may play (the record's ``sprt`` says None if they ran out
    first). It stops at the same game whatever the executor. The record
    prints its likelihood of superiority and interval (``fnmcts.elo``).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> data = tournament(Nim(heap=22), perfect_agent, perfect_agent, 10, seed=1).to_json()
    >>> {key: data[key] for key in ("games", "wins", "draws", "seed", "verdict")}
    {'games': 10, 'wins': {'1': 10, '2': 0}, 'draws': 0, 'seed': 1, 'verdict': 'first is stronger'}
    >>> tournament(10, perfect_agent, perfect_agent, Nim(heap=22), seed=1).to_json()["wins"]
    {'1': 10, '2': 0}
    >>> found = tournament(Nim(heap=15), perfect_agent, random_agent, 1_000, seed=1, sprt=(0, 100, 0.05, 0.05))
    >>> found.games, found.pairs, found.sprt.decision
    (26, (0, 0, 0, 0, 13), 'H1')
    """
    if not _is_game(game) and _is_game(n):  # the notebook's Tournament(numgames, Agent1, Agent2, ...)
        game, n = n, game
    game, agent1, agent2 = _game_first("tournament", game, agent1, agent2)
    _check_two_players("tournament", game)
    check_count(n, "the number of games")
    test = _check_sprt(sprt)
    paired = test is not None if paired is None else paired
    if not isinstance(paired, bool):
        raise TypeError(f"paired must be True or False, got {paired!r}")
    if paired and (n % 2 or chunk_size % 2):
        raise ValueError(f"paired games come two a seed: n and chunk_size must be even, got n={n}, chunk_size={chunk_size}")
    base = resolve_seed(seed, rng)
    start = game.start() if state is None else state
    _check_tournament_work(game, start, n, limit)
    tick = progress if executor is None else None  # in this process, progress moves with every game
    fn = partial(_tournament_chunk, agent1, agent2, game, start, tick=tick, paired=paired, sequence=test is not None,
                 max_plies=max_plies)
    watch = None if test is None else _SprtWatch(test, paired)
    build = partial(_tournament_record, seed=base, paired=paired, test=test)
    try:
        counts = run_chunks(fn, n, base, chunk_size, executor, None if tick is not None else progress, until=watch)
    except (Interrupted, WorkerLost) as stop:
        raise interrupted(stop, build(chunks_done(stop))) from None
    return build(counts)


def _check_tournament_work(game, start, n, limit) -> None:
    """Refuse (``TooLarge``) ``n`` games from ``start`` whose play would pass ``limit`` steps.

    A game whose ``size_hint`` gives no longest line (Pig) counts its
    ``fewest_moves`` hook instead, the least a game from ``start`` can take,
    so a goal of 10**11 is refused up front, not played for days; a game
    with neither counts a game as one move at least, as ``simulate`` does.

    >>> from fnmcts.games import Pig
    >>> _check_tournament_work(Pig(goal=10**11), Pig(goal=10**11).start(), 2, 10**10)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: 2 games would take about 2e+11 steps of play, beyond the limit of 1e+10 (hours of work): not even one fits; Pig(goal=100000000000) has no longest game and one takes at least 16,666,666,667 moves; limit=None goes on regardless
    """
    _, length, branching = size_hint(game, start)
    if length is not None or limit is None:
        check_work(n, length, branching, limit=limit)
        return
    fewest = getattr(game, "fewest_moves", None)
    if fewest is None:  # a user's game without hints: 10**99 games are still refused, not played until killed
        check_work(n, 1, branching or 1, limit=limit)
        return
    shortest = fewest(start)
    check_work(n, shortest, branching, limit=limit,
               go_on=f"; {game_text(game)} has no longest game and one takes at least {shortest:,} moves; limit=None goes on regardless")


def _tournament_record(chunks, seed, paired=False, test=None) -> TournamentRecord:
    """The record of a tournament's chunks (counts, or outcomes in order under a sequential test)."""
    decided = None
    if test is not None:
        outcomes = [o for chunk in chunks for o in chunk]
        bins = [a + b for a, b in outcomes] if paired else outcomes
        decided = sprt_scan(test, bins, 5 if paired else 3)
        outcomes = outcomes[: decided.samples]
        chunks = [_counted(outcomes, paired)]
    draws, one, two = (sum(c[i] for c in chunks) for i in range(3))
    fields = dict(games=draws + one + two, wins=pmap({1: one, 2: two}), draws=draws, seed=seed)
    if paired:
        fields["pairs"] = tuple(sum(c[3 + j] for c in chunks) for j in range(5))
    if decided is not None:
        fields["sprt"] = decided
    return TournamentRecord(**fields)


def _counted(outcomes, paired) -> tuple:
    """The counts of ``_tournament_chunk`` for its outcomes."""
    counts = [0] * (8 if paired else 3)
    for outcome in outcomes:
        if paired:
            for mine in outcome:
                counts[_WINNER_OF[mine]] += 1
            counts[3 + outcome[0] + outcome[1]] += 1
        else:
            counts[_WINNER_OF[outcome]] += 1
    return tuple(counts)
