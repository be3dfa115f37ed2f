"""What the game commands share: the games' options and texts, a game from the command line, the size checks.

A built-in game's options are its dataclass fields (``fnmcts.cli._fields``);
what the commands say of a game beyond its rules (its title in the help, the
rule told as a game starts, ...) comes from its optional hooks (``_family``). When ``--state`` is given without ``--heap`` (or
``--piles``), the game starts from the state. When both are given, the state
must fit the game (no larger heap or pile, as many piles); a state that play
cannot reach is an error. With ``--ai q`` the options not given come from the
Q table's game, and the state must fit that game.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..games import GAMES
from ..limits import STATE_LIMIT, WORK_LIMIT, TooLarge, check_work, play_work, size_hint
from ..protocol import check_reachable, game_name, game_text, parse_state
from ._fields import add_field_options, game_fields
from ._games import resolve_game
from ._common import CliError

__all__ = ["board_games"]

_PLAY_HELP = "play a game at the terminal"
_TOURNAMENT_HELP = "play many games between two agents and count the wins"
_MOVE_HELP = "print the move an agent plays at a state"
_SOLVE_HELP = "solve a game exactly"
_EXACT_LIMIT = STATE_LIMIT  # states: above this, solve trusts the closed form alone and --ai exact is refused

@dataclass(frozen=True)
class _Family:
    """What the commands say of a game beyond its rules, read from its attributes and hooks (defaults for the rest)."""

    title: str  # in --help: "Nim (one heap, take 1..K)"
    size: str | None = None  # the parameter a --state gives when the option is not given
    example: str | None = None  # a --state in --help
    rule: Callable | None = None  # game -> the rule told when a game starts
    where: Callable | None = None  # (game, state) -> the position in solve's text
    empty: Callable | None = None  # game -> why the game is over at its start
    train: str = ""  # how to train a Q table for it
    draws: bool = True  # the game can end in a draw: summaries count draws, the end board is shown


def board_games() -> tuple:
    """The games these commands play: the two-player games of ``GAMES``, by name.

    >>> board_games()
    ('connect-four', 'kayles', 'nim', 'pig', 'piles', 'tic-tac-toe')
    """
    return tuple(sorted(name for name, kind in GAMES.items() if getattr(kind, "num_players", None) == 2))


def _family(game) -> _Family:
    """What the commands say of ``game`` (a game, its class, or a built-in game's name), from the protocol's hooks.

    Each is optional (``fnmcts.protocol``'s table): ``title``, ``state_field``,
    ``state_example``, ``can_draw`` and ``train_hint`` as attributes,
    ``rule_text()``, ``position_text(state)`` and ``empty_text()`` as methods.
    A game with none of them is named by its name and can draw.

    >>> _family("nim").title, _family("nim").draws, _family("tic-tac-toe").title, _family("tic-tac-toe").draws
    ('Nim (one heap, take 1..K)', False, 'tic-tac-toe', True)
    """
    kind = GAMES[game] if isinstance(game, str) else game
    name = game if isinstance(game, str) else game_name(game)

    title = getattr(kind, "title", None)
    train = getattr(kind, "train_hint", None)
    return _Family(
        title=title if isinstance(title, str) else name,
        size=getattr(kind, "state_field", None),
        example=getattr(kind, "state_example", None),
        rule=None if getattr(kind, "rule_text", None) is None else lambda value: value.rule_text(),
        where=None if getattr(kind, "position_text", None) is None else lambda value, state: value.position_text(state),
        empty=None if getattr(kind, "empty_text", None) is None else lambda value: value.empty_text(),
        train=train if isinstance(train, str) else f"a Q table trained on {name}: fnmcts.qlearning.train(n, game=...) and save_ai",
        draws=getattr(kind, "can_draw", True) is not False,
    )


def _player_name(game, player: int) -> str:
    """The game's ``player_name`` hook ("Player 1 (X)"), else "Player 1"."""
    own = getattr(game, "player_name", None)
    return own(player) if own is not None else f"Player {player + 1}"

# the agents each agent option applies to

def _game_options(parser, kind: str, with_state: bool = False) -> None:
    """The options that set ``kind``'s parameters: its dataclass fields (``fnmcts.cli._fields``)."""
    size = _family(kind).size if with_state else None
    note = {size: f"with --state and no --{size}: the state's {size}"} if size is not None else {}
    add_field_options(parser, GAMES[kind], notes=note)



def _load_q(q_table, kind: str = "piles", game=None, force: bool = False, spec: str | None = None):
    """The QAI saved at ``q_table`` (of a built-in game, or of ``game``), or a ``CliError`` naming the problem.

    A file too large to read in the memory budget is refused before it is read
    (``--force`` reads it regardless). ``spec``: the GAME as typed, for the training command to suggest.
    """
    if q_table is None:
        raise CliError(f"--ai q needs --q-table FILE ({_train_hint(kind, spec)})")
    path = Path(q_table)
    if not path.exists():
        raise CliError(f"no Q table at {q_table} ({_train_hint(kind, spec)})")
    if not path.is_file():  # a folder, a device, a pipe: said as what it is, not as missing
        what = "a directory" if path.is_dir() else "not a regular file (a device or a pipe)"
        raise CliError(f"the Q table {q_table} is {what}: give the file a training wrote ({_train_hint(kind, spec)})")
    memory = sys.maxsize if force else None
    try:
        from ..tutorial import load_ai

        if game is None:
            return load_ai(path, memory=memory)
        return load_ai(path, {**GAMES, game_name(game): type(game)}, memory=memory)
    except TooLarge as error:
        raise CliError(str(error).replace("memory= (bytes) sets another budget", "--force reads it regardless")) from None
    except (ValueError, TypeError, KeyError, OSError, UnicodeDecodeError) as error:
        raise CliError(f"bad Q table: {error}") from None


def _train_hint(kind: str, spec: str | None = None) -> str:
    """How to make the Q table a game's ``--ai q`` reads: its ``fnmcts train`` command.

    >>> _train_hint("dice-race", "mygames:DiceRace(goal=10)")
    "train one with `fnmcts train 'mygames:DiceRace(goal=10)' -o FILE`"
    """
    if kind in GAMES:
        return _family(kind).train
    if spec is not None:
        import shlex

        return f"train one with `fnmcts train {shlex.quote(spec)} -o FILE`"
    return f"a Q table trained on {kind}: fnmcts.qlearning.train(n, game=...) and save_ai"


def _nim_game(args, names=(), state_text=None):
    """``(game, state, q_ai)``: the game of ``args``, the parsed ``state_text`` and the Q table.

    Options not given take their defaults, from the Q table's game when an
    agent is ``q``; with a state and no ``--heap``/``--piles`` (and no Q
    table) the game starts from the state; the state must fit the game.
    """
    if getattr(args, "game_spec", None) is not None:  # --game SPEC: any game, its options its own
        return _spec_game(args, names, state_text)
    kind = args.game
    family = _family(kind)
    size = family.size
    defaults = {name: default for name, _, default in game_fields(GAMES[kind])}
    given = {k: getattr(args, k) for k in defaults if getattr(args, k, None) is not None}
    fields = dict(defaults)
    q_ai = _load_q(args.q_table, kind, force=getattr(args, "force", False)) if "q" in names else None
    trained = getattr(q_ai, "game", None)
    if trained is not None:
        if getattr(trained, "name", None) != kind:
            raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not a {kind} game")
        fields.update({k: getattr(trained, k) for k in fields})
    fields.update(given)
    game = _make_game(kind, fields)
    state = None
    if is_start(state_text) and state_text is not None:
        state = game.start()
    elif state_text is not None:
        state = parse_state(game, state_text)
        if size is not None and size not in given and trained is None:
            fields[size] = state[size]
            game = _make_game(kind, fields)
    if trained is not None and trained != game:
        raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not {game_text(game)}")
    if state is not None:
        try:
            check_reachable(game, state)
        except ValueError as error:
            whose = "the Q table's game" if trained is not None else "the game"
            raise CliError(f"--state {state_text.strip()} does not fit {whose}: {error}") from None
    return game, state, q_ai


START = "start"
"""What ``--state`` takes for the game's start, on every verb (``--state start``)."""


def is_start(text) -> bool:
    """Whether a ``--state`` names the start: not given, or ``start``.

    >>> is_start(None), is_start(" Start "), is_start("[3, 0]")
    (True, True, False)
    """
    return text is None or text.strip().lower() == START


def state_argument(game, text, flag: str = "--state"):
    """The state a ``--state`` names: ``start`` (or nothing) is the game's start, else the game's own form.

    The state must be one play can reach (``check_reachable``); a text that is
    no state of the game, or one it cannot reach, is a ``CliError`` naming the
    flag. A game whose own ``parse_state`` fails says so (``GameError``, exit 1).

    >>> from fnmcts.games import Nim
    >>> state_argument(Nim(heap=5), "start") == Nim(heap=5).start(), state_argument(Nim(heap=5), "3")["heap"]
    (True, 3)
    >>> state_argument(Nim(heap=5), "9")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --state 9 does not fit the game: heap 9 is more than ... starts with (5): play cannot reach it
    """
    if is_start(text):
        return game.start()
    from ..protocol import GameError

    try:
        state = parse_state(game, text)
    except GameError:
        raise
    except ValueError as error:
        raise CliError(f"{flag} {text.strip()}: {error}") from None
    try:
        return check_reachable(game, state)
    except GameError:
        raise
    except ValueError as error:
        raise CliError(f"{flag} {text.strip()} does not fit the game: {error}") from None


def _spec_game(args, names, state_text):
    """``(game, state, q_ai)`` for ``--game SPEC``: the game it names, the parsed state and the Q table."""
    game = resolve_game(args.game_spec)
    q_ai = _load_q(args.q_table, game_name(game), game, getattr(args, "force", False),
                   spec=args.game_spec) if "q" in names else None
    trained = getattr(q_ai, "game", None)
    if trained is not None and trained != game:
        raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not {game_text(game)}")
    return game, None if state_text is None else state_argument(game, state_text), q_ai


def _make_game(kind, fields):
    return GAMES[kind](**fields)


def _refuse_empty(game) -> None:
    if game.to_move(game.start()) is None:
        empty = _family(game).empty
        where = empty(game) if empty is not None else f"the start of {game_text(game)} is an end"
        raise CliError(f"nothing to play: {where}, so the game is over before it starts")


def _state_count(game, state):
    """The size of an exact solve from ``state``: the game's ``positions`` hook, else its ``size_hint``'s states, or ``None``."""
    positions = getattr(game, "positions", None)
    return positions(state) if positions is not None else size_hint(game, state)[0]


_DEFAULT_BUDGETS = {"mcts": 10_000, "montecarlo": 1000, "montecarlo-perfect": 1000}  # playouts a move


def _move_cost(name: str, args, game, state):
    """Steps of play one move of agent ``name`` costs at ``state``: its playouts a game long, each move listing the moves.

    A game with no longest line (Pig) counts its shortest one, its ``fewest_moves`` hook: a goal of
    10**11 is then refused up front, not played for days.
    """
    length, branching = play_work(game, state)
    if length is None:
        fewest = getattr(game, "fewest_moves", None)
        if fewest is None:
            return None, None
        length, branching = fewest(state), 1
    budget = _DEFAULT_BUDGETS.get(name)
    if budget is not None:
        budget = args.trials or args.iterations or budget if name != "mcts" else args.iterations or budget
        return length, budget * length * branching
    return length, branching


def _check_work(args, game, state, names, games: int = 1, what: str = "games") -> None:
    """Refuse, unless ``--force``, ``games`` games (or moves) whose play would pass ``WORK_LIMIT`` steps."""
    costs = [_move_cost(name, args, game, state) for name in names]
    if not costs or any(c is None for c, _ in costs):
        return
    length = max(c for c, _ in costs) if what == "games" else 1
    per_move = max(c for _, c in costs)
    try:
        check_work(games, length, per_move, limit=None if args.force else WORK_LIMIT, what=what,
                   go_on=f"; {_smaller_hint(game, state, names, what)}; --force goes on regardless")
    except TooLarge as error:
        raise CliError(str(error)) from None


def _smaller_hint(game, state, names, what: str) -> str:
    """What a person can change: the search budget that would fit one game (or move), or the game."""
    searchers = [n for n in names if n in _DEFAULT_BUDGETS]
    length, branching = play_work(game, state)
    if searchers and length:
        one = "game" if what == "games" else "move"
        most = WORK_LIMIT // (length * branching * (length if one == "game" else 1))
        if most:
            return f"--dives {most:,} or fewer would fit one {one} of {', '.join(searchers)}"
    return "a smaller game would fit"


def _check_exact_size(game, names) -> None:
    """Refuse ``--ai exact`` on a game whose exact solution would hold more than ``_EXACT_LIMIT`` states."""
    if "exact" in names:
        states = _state_count(game, game.start())
        if states is not None and states > _EXACT_LIMIT:
            raise CliError(
                f"--ai exact would solve {states:,} states of {game_text(game)} (the limit is {_EXACT_LIMIT:,}); "
                "use --ai perfect, the closed form"
            )
