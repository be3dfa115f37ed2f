"""Pig: two players race to ``goal`` points (100) rolling one die; a 1 loses the turn's points.

Each turn the player to move rolls the die again and again. A 1 ("pig")
scores nothing and passes the turn; 2 to 6 add to the turn total. After a roll
the player may hold instead: the turn total joins the score and the other
player moves. A player whose score and turn total reach the goal wins at once
(holding then is the only sensible move, so the game ends there, as in Neller
and Presser's analysis). A turn starts with a roll: holding a turn total of 0
would only pass the turn, and two players passing could play for ever.

Play can come back to a state seen before (both players roll a 1 in turn:
same scores, same player to move), so the game says ``may_repeat()``; it still
ends with probability 1 whatever the players do, since every turn either adds
to a score or, with probability at least (5/6)^50, reaches the goal.

A state is a tuple ``(player, score0, score1, turn_total, phase)``: ``phase``
is ``DECIDE`` (the player chooses ``"roll"`` or ``"hold"``), ``ROLLING`` (a
chance node: the die, 1 to 6) or ``OVER`` (``player`` has won; the winner's
score includes the last turn total).

>>> game = Pig(goal=20)
>>> state = game.start()
>>> game.to_move(state), game.possible_moves(state)
(0, ('roll',))
>>> state = game.play(game.play(state, "roll"), 5)
>>> state, game.possible_moves(state)
((0, 0, 0, 5, 0), ('roll', 'hold'))
>>> state = game.play(state, "hold")
>>> print(game.render(state))
Player 1: 5, Player 2: 0 (goal 20). Player 2 to move, turn total 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from ..protocol import CHANCE, GameBase, _state_json, _state_text

__all__ = [
    "Pig",
    "ROLL",
    "HOLD",
    "DECIDE",
    "ROLLING",
    "OVER",
    "DIE",
    "hold_at_agent",
    "hold_threshold",
    "hold_thresholds",
    "policy_table",
]

ROLL, HOLD = "roll", "hold"
"""The two moves: roll the die again, or bank the turn total."""

DECIDE, ROLLING, OVER = 0, 1, 2
"""The phases of a state: the player decides, the die rolls, the game is over."""

DIE = tuple((face, Fraction(1, 6)) for face in range(1, 7))
"""The chance outcomes of a roll: faces 1 to 6, each with probability 1/6 (one tuple for every roll)."""

_ROLL_ONLY, _BOTH = (ROLL,), (ROLL, HOLD)


@dataclass(frozen=True)
class Pig(GameBase):
    """Pig for two players, first to ``goal`` points wins (Neller and Presser's rules; 100 by default).

    >>> Pig().goal, Pig(goal=10).start()
    (100, (0, 0, 0, 0, 0))
    >>> Pig(goal=0)
    Traceback (most recent call last):
    ...
    ValueError: the goal of Pig is a whole number of points from 1, got 0
    """

    goal: int = 100
    num_players = 2
    name = "pig"
    title = "Pig (one die, first to the goal)"
    state_example = "45,30,12,2"
    can_draw = False
    train_hint = "train one with fnmcts.qlearning.train(n, game=Pig(goal=...)) and save_ai"

    def __post_init__(self):
        if isinstance(self.goal, bool) or not isinstance(self.goal, int) or self.goal < 1:
            raise ValueError(f"the goal of Pig is a whole number of points from 1, got {self.goal!r}")

    def start(self) -> tuple:
        """Player 1 to move, no points yet.

        >>> Pig().start()
        (0, 0, 0, 0, 0)
        """
        return (0, 0, 0, 0, DECIDE)

    def may_repeat(self) -> bool:
        """True: two pig-outs in a row bring back the same state.

        >>> Pig().may_repeat()
        True
        """
        return True

    def to_move(self, state):
        """The player deciding (0 or 1), ``CHANCE`` while the die rolls, ``None`` when the game is over.

        >>> game = Pig()
        >>> game.to_move((1, 10, 20, 4, DECIDE)), game.to_move((1, 10, 20, 4, ROLLING)), game.to_move((0, 100, 3, 0, OVER))
        (1, CHANCE, None)
        """
        phase = state[4]
        if phase == DECIDE:
            return state[0]
        return CHANCE if phase == ROLLING else None

    def possible_moves(self, state) -> tuple:
        """``("roll",)`` at the start of a turn, ``("roll", "hold")`` once the turn total is positive.

        >>> Pig().possible_moves((0, 0, 0, 0, DECIDE)), Pig().possible_moves((0, 0, 0, 3, DECIDE))
        (('roll',), ('roll', 'hold'))
        """
        if state[4] != DECIDE:
            return ()
        return _BOTH if state[3] else _ROLL_ONLY

    def chance_outcomes(self, state) -> tuple:
        """The die's faces, 1 to 6, each 1/6, while it rolls (the same tuple ``DIE`` every time).

        >>> Pig().chance_outcomes((0, 0, 0, 0, ROLLING))[:2], Pig().chance_outcomes(Pig().start())
        (((1, Fraction(1, 6)), (2, Fraction(1, 6))), ())
        """
        return DIE if state[4] == ROLLING else ()

    def play(self, state, move) -> tuple:
        """The state after ``move``: ``"roll"``, ``"hold"`` or, while the die rolls, a face 1 to 6.

        >>> game = Pig(goal=20)
        >>> game.play((0, 3, 4, 0, ROLLING), 1), game.play((0, 3, 4, 15, ROLLING), 2)
        ((1, 3, 4, 0, 0), (0, 20, 4, 0, 2))
        >>> game.play((0, 3, 4, 5, DECIDE), "hold")
        (1, 8, 4, 0, 0)
        >>> game.play((0, 3, 4, 0, DECIDE), "hold")
        Traceback (most recent call last):
        ...
        ValueError: illegal move 'hold' at (0, 3, 4, 0, 0): the possible moves are roll
        """
        player, s0, s1, turn, phase = state
        if phase == ROLLING and move in _FACES:
            if move == 1:
                return (1 - player, s0, s1, 0, DECIDE)
            turn += move
            if (s0 if player == 0 else s1) + turn >= self.goal:
                return (player, s0 + turn, s1, 0, OVER) if player == 0 else (player, s0, s1 + turn, 0, OVER)
            return (player, s0, s1, turn, DECIDE)
        if phase == DECIDE:
            if move == ROLL:
                return (player, s0, s1, turn, ROLLING)
            if move == HOLD and turn:
                return (1, s0 + turn, s1, 0, DECIDE) if player == 0 else (0, s0, s1 + turn, 0, DECIDE)
        possible = " or ".join(self.possible_moves(state)) or " ".join(str(f) for f in _FACES)
        raise ValueError(f"illegal move {move!r} at {state!r}: the possible moves are {possible}")

    def payoff(self, state) -> tuple:
        """``(1, -1)`` when player 1 has won, ``(-1, 1)`` when player 2 has.

        >>> Pig().payoff((1, 40, 100, 0, OVER))
        (-1, 1)
        """
        if state[4] != OVER:
            raise ValueError(f"the game is not over at {state!r}")
        return (1, -1) if state[0] == 0 else (-1, 1)

    def check_state(self, state):
        """``state`` if it is a state of this game, else a ``ValueError`` naming the problem.

        >>> Pig(goal=20).check_state((0, 5, 19, 3, DECIDE))
        (0, 5, 19, 3, 0)
        >>> Pig(goal=20).check_state((0, 18, 0, 3, DECIDE))
        Traceback (most recent call last):
        ...
        ValueError: player 1 would have 21 points with the turn total, at least the goal 20: the game ended
        """
        form = "a Pig state is (player 0 or 1, score0, score1, turn total, phase 0 decide / 1 rolling / 2 over)"
        if not isinstance(state, tuple) or len(state) != 5 or any(type(x) is not int for x in state):
            raise ValueError(f"{form}, got {state!r}")
        player, s0, s1, turn, phase = state
        if player not in (0, 1) or phase not in (DECIDE, ROLLING, OVER) or min(s0, s1, turn) < 0:
            raise ValueError(f"{form}, got {state!r}")
        mine, theirs = (s0, s1) if player == 0 else (s1, s0)
        if phase == OVER:
            if turn or mine < self.goal or theirs >= self.goal:
                raise ValueError(f"a finished game has the winner ({player}) alone at the goal {self.goal} "
                                 f"and no turn total, got {state!r}")
            if mine - self.goal > 5:
                raise ValueError(f"the winner's last roll takes them at most 5 past the goal {self.goal}, "
                                 f"got {state!r}")
            return state
        if theirs >= self.goal:
            raise ValueError(f"player {2 - player} has {theirs} points, at least the goal {self.goal}: "
                             "the game ended")
        if mine + turn >= self.goal:
            raise ValueError(f"player {player + 1} would have {mine + turn} points with the turn total, "
                             f"at least the goal {self.goal}: the game ended")
        if turn == 1:
            raise ValueError(f"a turn total is 0 or at least 2 (a 1 ends the turn), got {state!r}")
        return state

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)``: at most the states from ``state``'s scores on; no longest game.

        Each player's decisions and rolls at every score pair from here and
        every turn total short of the goal, and the ends. Play may repeat, so
        no game length bounds it (``None``).

        >>> Pig().size_hint(Pig().start()), Pig(goal=10).size_hint((1, 5, 8, 0, DECIDE))
        ((2021201, None, 6), (133, None, 6))
        """
        player, s0, s1, turn, phase = state
        if phase == OVER:
            return (1, 0, 0)
        a, b = self.goal - s0, self.goal - s1
        return (2 * (a * (a + 1) // 2 * b + b * (b + 1) // 2 * a) + 6 * (a + b) + 1, None, 6)

    def fewest_moves(self, state) -> int:
        """The fewest moves any game from ``state`` takes: the leader's points still wanted, 6 a roll at most.

        A game of Pig has no longest line, so this lower bound is what a size check counts.

        >>> Pig().fewest_moves(Pig().start()), Pig(goal=10).fewest_moves((1, 5, 8, 0, DECIDE))
        (17, 1)
        """
        _, s0, s1, turn, phase = state
        if phase == OVER:
            return 0
        return max(1, -(-(self.goal - max(s0, s1) - turn) // 6))

    def size_fits(self, limit: int):
        """The largest goal whose whole game fits in ``limit`` states, said to a person.

        >>> Pig().size_fits(200_000)
        'a goal of at most 46'
        """
        goal = 1
        while Pig(goal + 1).size_hint((0, 0, 0, 0, DECIDE))[0] <= limit:
            goal += 1
        return f"a goal of at most {goal}"

    def describe_move(self, state, move) -> str:
        """``"roll"``, ``"hold"``; a face of the die as ``"rolled 4"``.

        >>> Pig().describe_move(Pig().start(), "roll"), Pig().describe_move(None, 4)
        ('roll', 'rolled 4')
        """
        return f"rolled {move}" if move in _FACES else str(move)

    def transcript_line(self, player, move, after) -> str:
        """The transcript line for ``player`` (0 or 1) playing ``move`` to reach ``after``.

        >>> Pig().transcript_line(0, "hold", (1, 27, 0, 0, DECIDE))
        'Player 1 holds: 27 points.'
        >>> Pig().transcript_line(1, "roll", (1, 27, 0, 8, ROLLING))
        'Player 2 rolls (turn total 8).'
        """
        if move == HOLD:
            return f"Player {player + 1} holds: {after[1 + player]} points."
        return f"Player {player + 1} rolls (turn total {after[3]})."

    def render(self, state) -> str:
        """The scores, the goal, who is to move and the turn total.

        >>> print(Pig().render((1, 45, 30, 12, DECIDE)))
        Player 1: 45, Player 2: 30 (goal 100). Player 2 to move, turn total 12.
        >>> print(Pig(goal=20).render((0, 22, 3, 0, OVER)))
        Player 1: 22, Player 2: 3 (goal 20). Player 1 has won.
        """
        player, s0, s1, turn, phase = state
        scores = f"Player 1: {s0}, Player 2: {s1} (goal {self.goal})."
        if phase == OVER:
            return f"{scores} Player {player + 1} has won."
        doing = "rolling" if phase == ROLLING else "to move"
        return f"{scores} Player {player + 1} {doing}, turn total {turn}."

    def state_to_json(self, state) -> dict:
        """``{"player", "scores", "turn_total", "phase"}``, the phase as a word.

        >>> Pig().state_to_json((1, 45, 30, 12, DECIDE))
        {'player': 1, 'scores': [45, 30], 'turn_total': 12, 'phase': 'decide'}
        """
        player, s0, s1, turn, phase = state
        return {"player": player, "scores": [s0, s1], "turn_total": turn, "phase": _PHASES[phase]}

    def state_from_json(self, data) -> tuple:
        """The state whose JSON form is ``data`` (checked); ``phase`` defaults to ``"decide"``.

        >>> Pig().state_from_json({"player": 1, "scores": [45, 30], "turn_total": 12})
        (1, 45, 30, 12, 0)
        """
        try:
            s0, s1 = data["scores"]
            phase = _PHASES.index(data.get("phase", "decide"))
            state = (data["player"], s0, s1, data.get("turn_total", 0), phase)
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ValueError(
                'a Pig state in JSON is {"player": 0 or 1, "scores": [s0, s1], "turn_total": k, '
                f'"phase": "decide", "rolling" or "over"}}, got {data!r}'
            ) from None
        return self.check_state(state)

    def parse_state(self, text: str) -> tuple:
        """A state typed as ``"S0,S1,TURN,PLAYER"`` (player 1 or 2; 1 if left out) or as its JSON form.

        >>> Pig().parse_state("45, 30, 12, 2"), Pig().parse_state("45,30")
        ((1, 45, 30, 12, 0), (0, 45, 30, 0, 0))
        >>> Pig().parse_state("45")
        Traceback (most recent call last):
        ...
        ValueError: write a Pig state as S0,S1[,TURN_TOTAL[,PLAYER 1 or 2]], e.g. 45,30,12,2, or its JSON form; got '45'
        """
        stripped = _state_text(text)
        if stripped.startswith("{"):
            return self.state_from_json(_state_json(text))
        fields = [f.strip() for f in stripped.split(",")]
        if not 2 <= len(fields) <= 4 or not all(f.isascii() and f.isdigit() for f in fields):
            raise ValueError("write a Pig state as S0,S1[,TURN_TOTAL[,PLAYER 1 or 2]], e.g. 45,30,12,2, "
                             f"or its JSON form; got {text!r}")
        numbers = [int(f) for f in fields] + [0, 1][len(fields) - 2:]
        s0, s1, turn, player = numbers[:4]
        if player not in (1, 2):
            raise ValueError(f"the player is 1 or 2, got {player} in {text!r}")
        return self.check_state((player - 1, s0, s1, turn, DECIDE))

    def parse_move(self, state, text: str) -> str:
        """``"roll"`` or ``"hold"`` typed in full, by its first letter, or as a choice number from 1.

        >>> Pig().parse_move((0, 0, 0, 6, DECIDE), " H "), Pig().parse_move((0, 0, 0, 6, DECIDE), "1")
        ('hold', 'roll')
        >>> Pig().parse_move(Pig().start(), "hold")
        Traceback (most recent call last):
        ...
        ValueError: type roll (or r, or 1): a turn starts with a roll
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is typed as text, got {type(text).__name__}")
        moves = self.possible_moves(state)
        if not moves:
            raise ValueError(f"nobody has a move at {state!r}")
        typed = text.strip().lower()
        for number, move in enumerate(moves, 1):
            if typed in (move, move[0], str(number)):
                return move
        if len(moves) == 1:
            raise ValueError("type roll (or r, or 1): a turn starts with a roll")
        raise ValueError("type roll (r, 1) or hold (h, 2)")

    def player_name(self, player) -> str:
        """``"Player 1"`` or ``"Player 2"``.

        >>> Pig().player_name(1)
        'Player 2'
        """
        return f"Player {player + 1}"

    def agents(self):
        """The agents of Pig's own vocabulary: ``hold-at-20``, and ``optimal`` (the exact solver's agent).

        >>> sorted(Pig().agents())
        ['hold-at-20', 'optimal']
        """
        return {"hold-at-20": partial(partial, hold_at_agent, threshold=20), "optimal": "exact"}


_FACES = (1, 2, 3, 4, 5, 6)
_PHASES = ("decide", "rolling", "over")


def hold_at_agent(game, state, rng=None, *, threshold: int = 20):
    """Roll until the turn total reaches ``threshold`` (or the goal, which wins at once), then hold.

    >>> hold_at_agent(Pig(), (0, 50, 60, 18, DECIDE)), hold_at_agent(Pig(), (0, 50, 60, 21, DECIDE))
    ('roll', 'hold')
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no move at {state!r}")
    return HOLD if HOLD in moves and state[3] >= threshold else ROLL


def _roll_is_better(game, solution, state) -> bool:
    """True when rolling is worth more than holding at ``state`` to the player to move (ties: hold)."""
    player = state[0]
    roll = solution[game.play(state, ROLL)][player]
    return roll > solution[game.play(state, HOLD)][player]


def hold_threshold(game, solution, mine: int, theirs: int):
    """The smallest turn total at which the player to move, ``mine`` to ``theirs``, holds under ``solution``.

    ``solution`` is ``fnmcts.exact.solve(game)`` (player 1 to move is read; the
    game is symmetric). Returns ``(threshold, exceptions)``: the smallest turn
    total from which holding is optimal, and the turn totals above it at which
    rolling is still optimal (optimal play is not always a threshold). With
    nothing to gain by holding below the goal, the threshold is the points
    left to the goal.

    >>> from fnmcts.exact import solve
    >>> game = Pig(goal=10)
    >>> hold_threshold(game, solve(game), 0, 0)
    (10, ())
    """
    left = game.goal - mine
    rolls = [turn for turn in range(2, left) if (0, mine, theirs, turn, DECIDE) in solution
             and _roll_is_better(game, solution, (0, mine, theirs, turn, DECIDE))]
    holds = [turn for turn in range(2, left) if (0, mine, theirs, turn, DECIDE) in solution and turn not in rolls]
    threshold = min(holds, default=left)
    return threshold, tuple(t for t in rolls if t > threshold)


def hold_thresholds(game, solution) -> dict:
    """``{(mine, theirs): threshold}`` for every score pair of player 1 to move in ``solution``.

    >>> from fnmcts.exact import solve
    >>> game = Pig(goal=6)
    >>> table = hold_thresholds(game, solve(game))
    >>> table[(0, 0)], table[(4, 0)]
    (6, 2)
    """
    pairs = sorted({(s[1], s[2]) for s in solution if s[0] == 0 and s[4] == DECIDE})
    return {pair: hold_threshold(game, solution, *pair)[0] for pair in pairs}


def policy_table(game, solution, step: int = 10) -> str:
    """A text table of the optimal hold thresholds: rows your score, columns the other's, every ``step`` points.

    Each cell is the turn total at which player 1 (to move) holds; ``*`` marks
    a cell where optimal play is not a plain threshold (some higher turn total
    rolls again).

    >>> from fnmcts.exact import solve
    >>> game = Pig(goal=10)
    >>> print(policy_table(game, solve(game), step=5))
    hold at   other:  0  5
    you  0           10 10
    you  5            5  5
    """
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise ValueError(f"step must be a positive whole number, got {step!r}")
    marks = list(range(0, game.goal, step))
    width = max(len(str(game.goal)) + 1, 3)
    lines = ["hold at   other:" + "".join(f"{j:>{width}}" for j in marks)]
    for i in marks:
        cells = []
        for j in marks:
            threshold, exceptions = hold_threshold(game, solution, i, j)
            cells.append(f"{threshold}{'*' if exceptions else ''}".rjust(width))
        lines.append(f"you {i:>2}          " + "".join(cells))
    return "\n".join(lines)
