"""OpenSpiel's games through the fnmcts protocol (the ``openspiel`` extra).

`OpenSpiel <https://github.com/google-deepmind/open_spiel>`_ registers well
over a hundred games; those that are sequential with perfect information (one
player, or chance, to move at a time, and every player sees the whole state)
fit the fnmcts protocol, with or without chance. ``from_openspiel(name,
**params)`` returns one as an fnmcts game value, so the law checker, the exact
solvers, MCTS, Q-learning and tournaments play it:

>>> from fnmcts.openspiel import from_openspiel
>>> game = from_openspiel("tic_tac_toe")
>>> game
OpenSpielGame(spec='tic_tac_toe()')
>>> state = game.start()
>>> for cell in (4, 0, 8):
...     state = game.play(state, cell)
>>> state, game.to_move(state), game.possible_moves(state)
(OpenSpielState((4, 0, 8)), 1, (1, 2, 3, 5, 6, 7))
>>> print(game.render(state))
o..
.x.
..x

**States** are ``OpenSpielState`` values, immutable and hashable. Where the
game's rules make two histories one position (``POSITIONS``: tic_tac_toe,
connect_four, nim, pig, hex, othello and 13 more), a state is its position, so
positions reached in different orders are one state: the exact solver holds
tic-tac-toe's 5,478 positions, not its 549,946 histories, and MCTS merges
transpositions as it does for the built-in games. Every other game keeps its
history as its state, and its repr says so:

>>> from_openspiel("chess")
OpenSpielGame(spec='chess()', states='histories')
>>> game.state_from_json([0, 4, 8]) == game.state_from_json([8, 4, 0])
True

A state's ``history`` is one line of actions that reaches it (chance outcomes
included); its JSON form is that list, ``[4, 0, 8]``. Each state carries the
OpenSpiel state it stands for (never changed once made), so ``play`` is one clone
and one action, not a replay; a state rebuilt from JSON or unpickled replays its
history once. ``random_payoff`` plays a random game to its end on one OpenSpiel
state in place, drawing as ``playout`` does.

**Moves** are OpenSpiel's action numbers (``describe_move`` gives OpenSpiel's
text: ``x(1,1)``). **Chance outcomes** are OpenSpiel's, with their
probabilities as exact ``Fraction``\\ s: the simplest fraction that is the same
float (1/6 for 0.1666...), or the float's own value; if those do not add up to
exactly 1 they are divided by their sum. A *sampled* chance node (OpenSpiel
draws inside the state from its own seeded generator, the ``rng_seed``
parameter) lists one outcome of probability 1: the draw is fixed by the game's
seed and replays the same. **Payoffs** are OpenSpiel's returns at the end,
scaled from the game's utility range: zero-sum games are divided by the larger
of ``|min_utility|`` and ``|max_utility|`` (a win 1, a draw 0, a loss -1), a
one-player game is mapped onto [0, 1], any other onto [-1, 1].

Games it cannot represent are refused with a ``ValueError`` that says why:

>>> from_openspiel("kuhn_poker")
Traceback (most recent call last):
...
ValueError: OpenSpiel's kuhn_poker has imperfect information: players do not see the whole state (hidden cards or pieces), and fnmcts's algorithms search the true state; fnmcts plays sequential games with perfect information

The adapter imports ``pyspiel`` only when a game is made, never when fnmcts is
imported; without it, a clear ``ImportError`` names the extra.
"""

from __future__ import annotations

import importlib
import numbers
import os
import sys
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from pyrsistent import pmap

from .rng import pick_cumulative
from .protocol import CHANCE, GameBase, GraphTables, _state_text

__all__ = [
    "POSITIONS",
    "STATES",
    "OpenSpielGame",
    "OpenSpielState",
    "from_openspiel",
    "openspiel_catalogue",
    "refusal",
]

_EXTRA = "pip install 'fnmcts[openspiel]'"


def _pyspiel():
    """The ``pyspiel`` module, or an ``ImportError`` naming the extra that installs it."""
    try:
        import pyspiel
    except ImportError:
        raise ImportError(f"OpenSpiel's games need the open_spiel package, the openspiel extra: {_EXTRA}") from None
    return pyspiel


# -- which games fit ------------------------------------------------------------------------


def _game_types() -> dict:
    """OpenSpiel's registered game types by short name."""
    return {t.short_name: t for t in _pyspiel().registered_games()}


def _refusal_of(game_type) -> str | None:
    """Why a game of ``game_type`` (a ``pyspiel.GameType``) cannot be an fnmcts game, or ``None``."""
    kinds = _pyspiel().GameType
    name = f"OpenSpiel's {game_type.short_name}"
    fits = "fnmcts plays sequential games with perfect information"
    if game_type.dynamics == kinds.Dynamics.SIMULTANEOUS:
        return (
            f"{name} has simultaneous moves: the players choose at once, and a state of fnmcts has one "
            f"player (or chance) to move; {fits}"
        )
    if game_type.dynamics != kinds.Dynamics.SEQUENTIAL:
        return f"{name} has {game_type.dynamics.name.lower().replace('_', '-')} dynamics, not turns; {fits}"
    if game_type.information == kinds.Information.ONE_SHOT:
        return f"{name} is a one-shot game: the players choose at once, without seeing each other's choice; {fits}"
    if game_type.information != kinds.Information.PERFECT_INFORMATION:
        return (
            f"{name} has imperfect information: players do not see the whole state (hidden cards or pieces), "
            f"and fnmcts's algorithms search the true state; {fits}"
        )
    return None


def refusal(name: str) -> str | None:
    """Why OpenSpiel's game ``name`` cannot be an fnmcts game (a sentence), or ``None`` when it can.

    >>> refusal("tic_tac_toe") is None
    True
    >>> refusal("goofspiel")
    "OpenSpiel's goofspiel has simultaneous moves: the players choose at once, and a state of fnmcts has one player (or chance) to move; fnmcts plays sequential games with perfect information"
    """
    types = _game_types()
    if name not in types:
        raise ValueError(_unknown(name, types))
    return _refusal_of(types[name])


def openspiel_catalogue():
    """Every game OpenSpiel registers, by short name: ``None`` when fnmcts plays it, else why not.

    >>> catalogue = openspiel_catalogue()
    >>> catalogue["pig"] is None, catalogue["leduc_poker"].split(":")[0]
    (True, "OpenSpiel's leduc_poker has imperfect information")
    >>> sum(reason is None for reason in catalogue.values()) >= 40
    True
    """
    return pmap({name: _refusal_of(t) for name, t in sorted(_game_types().items())})


def _unknown(name: str, types) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(types), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else f"; OpenSpiel has {len(types)} games"
    return f"OpenSpiel has no game {name!r}{hint}"


# -- game strings and parameters ------------------------------------------------------------


def _split_top(text: str, sep: str) -> list:
    """``text`` split at ``sep`` outside parentheses."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def _parse_spec(spec: str) -> tuple:
    """``(short name, {parameter: text})`` of an OpenSpiel game string ``name(key=value,...)``."""
    text = spec.strip()
    if "(" not in text:
        return text, {}
    name, _, rest = text.partition("(")
    if not rest.endswith(")") or rest.count("(") != rest.count(")") - 1:
        raise ValueError(f"bad OpenSpiel game string {spec!r}: write name(key=value,...)")
    inner = rest[:-1].strip()
    params = {}
    for part in _split_top(inner, ",") if inner else []:
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad parameter {part!r} in {spec!r}: write key=value")
        if key.strip() in params:
            raise ValueError(f"parameter {key.strip()!r} is given twice in {spec!r}")
        params[key.strip()] = value.strip()
    return name.strip(), params


def _typed(game: str, key: str, value, default):
    """``value`` (text or a Python value) as the type of the parameter's ``default``, or a ``ValueError``."""
    kind = type(default)
    problem = f"parameter {key} of OpenSpiel's {game} is a {kind.__name__} (default {default!r}), got {value!r}"
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
            return value.lower() in ("true", "1")
        raise ValueError(problem)
    if kind in (int, float):  # a float parameter takes a whole number too
        if isinstance(value, (int, kind)) and not isinstance(value, bool):
            return value if kind is int else float(value)
        if isinstance(value, str):
            try:
                return kind(value)
            except ValueError:
                pass
        raise ValueError(problem)
    if kind is str:
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        raise ValueError(problem)
    return value  # a nested game or another kind: OpenSpiel reads it


def _quietly(function, *args):
    """``function(*args)`` with OpenSpiel's own error printing kept off the terminal.

    OpenSpiel prints "OpenSpiel exception: ..." on the standard error stream (file
    descriptor 2) before it raises; the message is in the exception, so what it
    printed is dropped when the call fails and passed on when it succeeds (warnings).
    """
    import tempfile

    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no real stderr (embedded): call it plainly
        return function(*args)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            result = function(*args)
        except Exception:
            os.dup2(saved, 2)
            os.close(saved)
            raise
        os.dup2(saved, 2)
        os.close(saved)
        captured.seek(0)
        printed = captured.read().decode("utf-8", "replace")
    if printed:
        sys.stderr.write(printed)
    return result


def _load(name: str, given: dict, spec: str):
    """``(pyspiel game, its canonical string)``: game ``name`` with parameters ``given``, checked before OpenSpiel sees them."""
    pyspiel = _pyspiel()
    types = _game_types()
    if name not in types:
        raise ValueError(_unknown(name, types))
    reason = _refusal_of(types[name])
    if reason is not None:
        raise ValueError(reason)
    defaults = dict(types[name].parameter_specification)
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults)) or "none"
        raise ValueError(f"OpenSpiel's {name} has no parameter {unknown[0]!r} (its parameters: {known})")
    params = {key: _typed(name, key, value, defaults[key]) for key, value in given.items()}
    try:
        native = _quietly(pyspiel.load_game, name, params)
    except pyspiel.SpielError as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"OpenSpiel cannot make {spec!r}: {message}") from None
    _check_start(native, spec)
    return native, str(native)


def _check_start(native, spec: str) -> None:
    """A ``ValueError`` when parameters OpenSpiel took cannot start a game: its start fails, or offers no move.

    (``clobber(rows=0)`` loads, then fails as it starts; ``catch(columns=0)``
    starts with nothing to draw.) OpenSpiel's own printing is kept off the terminal.

    >>> _check_start(_pyspiel().load_game("clobber", {"rows": 0}), "clobber(rows=0)")
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel cannot start 'clobber(rows=0)': .../clobber.cc:... rows_ >= 1
    """
    try:
        state = _quietly(native.new_initial_state)
        stuck = not state.is_terminal() and not (
            _quietly(state.chance_outcomes) if state.is_chance_node() else _quietly(state.legal_actions))
    except Exception as error:  # SpielError, or a C++ error pybind11 raises as another type
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ValueError(f"OpenSpiel cannot start {spec!r}: {message}") from None
    if stuck:
        raise ValueError(f"OpenSpiel's {spec!r} starts with no move and no chance outcome: its parameters make no game")


# -- positions -------------------------------------------------------------------------------

POSITIONS = {
    # OpenSpiel's picture of the state (its ToString) holds everything that decides the future, the
    # player to move and the returns so far aside (checked against the members of each game's C++ state):
    "breakthrough": "picture",
    "catch": "picture",
    "clobber": "picture",
    "connect_four": "picture",
    "dots_and_boxes": "picture",
    "mancala": "picture",  # its picture has the move number, which ends the game at OpenSpiel's horizon
    "mnk": "picture",
    "nim": "picture",
    "nine_mens_morris": "picture",  # its picture has the turn number, the men to deploy and the capture flag
    "hex": "picture",  # the stones' counts give the actions played: a swap (swap=True) leaves white a stone ahead
    "othello": "picture",
    "pentago": "picture",
    "tic_tac_toe": "picture",
    "ultimate_tic_tac_toe": "picture",  # its picture has the board the next move is forced into
    "y": "picture",
    # ... and the number of actions played, which ends the game at a horizon or allows a swap:
    "2048": "picture and length",
    "cliff_walking": "picture and length",
    "havannah": "picture and length",
    # ... and the number of the players' decisions (chance outcomes not counted), which end it at its horizon:
    "pig": "picture and decisions",
}
"""The games whose states are positions, by OpenSpiel's short name, and what a position is made of.

Two histories of such a game are one state when their player to move, OpenSpiel's
picture of the state (its ``ToString``), the returns so far (where the game pays
rewards along the way) and, for "picture and length", the number of actions played
are equal ("picture and decisions": the number of actions the players chose) are
equal: OpenSpiel's state then has the same legal actions, chance outcomes,
returns and future. Each entry was checked against the members of the game's C++
state (a member the picture does not show must follow from what it shows), and
``tests/test_openspiel_positions.py`` checks the law on transposed histories of
every one. Every other game keeps its history as its state (chess and its kin and
go remember earlier positions for repetitions and ko, checkers and backgammon keep
counters the picture does not show, amazons a move half made, the dice games and
the sampled ones what their picture leaves out).
"""

CLONES_SHARE = frozenset({"morpion_solitaire"})
"""Games whose OpenSpiel states share memory with the state they were cloned from (open_spiel 1.6:
morpion_solitaire's copy keeps pointers into its source's moves, so a clone crashes once its source is
gone): the adapter makes each of their states by replaying its history on a new state instead."""

STATES = ("positions", "histories")
"""What an adapted game's states are: ``"positions"`` (transpositions merged) or ``"histories"``."""


# -- states ----------------------------------------------------------------------------------


class _StateSlots:
    """The fields of an ``OpenSpielState``, settable while one is made (then the state is frozen)."""

    __slots__ = ("history", "key", "_hash", "_native", "_owner", "_player", "_moves", "_outcomes")


class OpenSpielState(_StateSlots):
    """A state of an OpenSpiel game: an immutable hashable value, a position or a history.

    A state made by a game whose states are positions (``game.states ==
    "positions"``, see ``POSITIONS``) is equal to every state of that game with the
    same position, whatever line reached it; any other state is its history.
    ``history`` is one line of actions from the start that reaches the state (its
    JSON form, replayed when needed); ``key`` is what the state is compared and
    hashed by. The OpenSpiel state it stands for rides along (made by ``play`` or
    rebuilt from the history once) and is never changed. ``OpenSpielState(history)``
    makes a state that is its history, for any game; make positions through the
    game (``start``, ``play``, ``state_from_json``, ``parse_state``).

    >>> a, b = OpenSpielState((4, 0)), OpenSpielState([4, 0])
    >>> a == b, hash(a) == hash(b), a.history, a == (4, 0)
    (True, True, (4, 0), False)
    """

    __slots__ = ()

    def __init__(self, history=()):
        history = tuple(history)
        for action in history:
            if type(action) is not int:
                raise TypeError(f"an OpenSpiel history holds action numbers, got {action!r}")
        _fill(self, history, history, None, None, None)

    def __setattr__(self, name, value):
        raise AttributeError("an OpenSpielState is immutable")

    def __eq__(self, other):
        if self is other:
            return True
        if type(other) is not OpenSpielState:
            return NotImplemented
        return self._hash == other._hash and self.key == other.key

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"OpenSpielState({self.history!r})"

    def __len__(self):
        return len(self.history)

    def __reduce__(self):
        return (_restored, (self.history, self.key))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return _restored(self.history, self.key)

    def __sizeof__(self):
        """Bytes of the state, the OpenSpiel state behind it included (an estimate, for the memory checks)."""
        own = object.__sizeof__(self)
        native, owner = self._native, self._owner
        if native is None or owner is None:
            return own
        return own + owner._native_bytes(len(self.history))


_set = object.__setattr__


def _fill(state, history, key, native, owner, player):
    _set(state, "history", history)
    _set(state, "key", key)
    _set(state, "_hash", hash(key))
    _set(state, "_native", native)
    _set(state, "_owner", owner)
    _set(state, "_player", player)
    _set(state, "_moves", None)
    _set(state, "_outcomes", None)


def _new_state(history, key, native, owner, player) -> OpenSpielState:
    """A new state: its fields set on a mutable shell, which then becomes an ``OpenSpielState`` (the fast path)."""
    state = _new_slots(_StateSlots)
    state.history = history
    state.key = key
    state._hash = hash(key)
    state._native = native
    state._owner = owner
    state._player = player
    state._moves = None
    state._outcomes = None
    state.__class__ = OpenSpielState
    return state


_new_slots = object.__new__


def _restored(history, key) -> OpenSpielState:
    """A state unpickled or copied: its history and key; its OpenSpiel state is rebuilt when a game first reads it."""
    state = object.__new__(OpenSpielState)
    _fill(state, tuple(history), key, None, None, None)
    return state


def _malloc_in_use():
    """A function giving the bytes the C allocator has handed out (glibc's ``mallinfo2``), or None where there is none."""
    try:
        import ctypes
        import ctypes.util

        class _Info(ctypes.Structure):
            _fields_ = [(name, ctypes.c_size_t) for name in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                "keepcost")]

        mallinfo = ctypes.CDLL(ctypes.util.find_library("c")).mallinfo2
        mallinfo.restype = _Info
    except (OSError, AttributeError, TypeError):
        return None

    def in_use() -> int:
        info = mallinfo()
        return info.uordblks + info.hblkhd

    return in_use


# -- probabilities and payoffs --------------------------------------------------------------


def _exact(p: float) -> Fraction:
    """The simplest fraction (denominator up to 10**7) that is the float ``p``, else ``p``'s own value.

    >>> _exact(1 / 6), _exact(0.05625), _exact(0.1 + 0.2)
    (Fraction(1, 6), Fraction(9, 160), Fraction(1351079888211149, 4503599627370496))
    """
    own = Fraction(p)
    simple = own.limit_denominator(10**7)
    return simple if float(simple) == p else own


def _exact_probabilities(probabilities) -> tuple:
    """Exact ``Fraction``s for OpenSpiel's float probabilities, adding up to exactly 1.

    >>> _exact_probabilities((1 / 3, 1 / 3, 1 / 3))
    (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    >>> sum(_exact_probabilities((0.1, 0.2, 0.7)))
    Fraction(1, 1)
    """
    exact = tuple(_exact(p) for p in probabilities)
    total = sum(exact)
    if total != 1 and total > 0:
        exact = tuple(q / total for q in exact)
    return exact


def _number(x: Fraction):
    """A whole ``Fraction`` as an ``int`` (faster for every algorithm), else the ``Fraction``."""
    return x.numerator if x.denominator == 1 else x


# -- the game --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenSpielGame(GameBase):
    """An OpenSpiel game as an fnmcts game value; ``spec`` is OpenSpiel's game string.

    Equal game strings are equal games. Prefer ``from_openspiel``, which also
    takes parameters as keywords; the string is made canonical (``nim`` and
    ``nim()`` are one game). ``states``: ``"positions"`` (the default for the games
    of ``POSITIONS``: histories that reach one position are one state) or
    ``"histories"`` (every other game's, and any game's on request); the repr says
    when a game's states are histories.

    >>> game = OpenSpielGame("nim(pile_sizes=1;2)")
    >>> game.spec, game.name, game.num_players, game.payoff_range(), game.states
    ('nim(pile_sizes=1;2)', 'openspiel:nim', 2, (-1, 1), 'positions')
    >>> [game.describe_move(game.start(), m) for m in game.possible_moves(game.start())]
    ['pile:1, take:1;', 'pile:2, take:1;', 'pile:2, take:2;']
    >>> OpenSpielGame("chess"), OpenSpielGame("nim", states="histories").states
    (OpenSpielGame(spec='chess()', states='histories'), 'histories')
    """

    spec: str
    states: str | None = None

    def __post_init__(self):
        if not isinstance(self.spec, str):
            raise TypeError(f"an OpenSpiel game is named by its game string, got {self.spec!r}")
        native, canonical = _load(*_parse_spec(self.spec), self.spec)
        self._setup(native, canonical, self.states)

    def _setup(self, native, canonical, states=None):
        """Fill in the derived, non-compared parts: the OpenSpiel game, the payoff scale, what a state is."""
        setter = object.__setattr__
        setter(self, "spec", canonical)
        setter(self, "_native", native)
        game_type = native.get_type()
        kinds = _pyspiel().GameType
        setter(self, "states", _states_of(game_type.short_name, states))
        recipe = POSITIONS.get(game_type.short_name) if self.states == "positions" else None
        setter(self, "_positions", recipe is not None)
        setter(self, "_with_length", recipe == "picture and length")
        setter(self, "_with_decisions", recipe == "picture and decisions")
        setter(self, "_with_returns", game_type.reward_model == kinds.RewardModel.REWARDS)
        setter(self, "_picture", recipe == "picture" and not self._with_returns)  # the key is the picture alone
        setter(self, "_clones_share", game_type.short_name in CLONES_SHARE)
        low, high = Fraction(native.min_utility()), Fraction(native.max_utility())
        if not low < high:
            raise ValueError(f"OpenSpiel's {canonical} has the utility range [{low}, {high}]: nothing to win or lose")
        players = native.num_players()
        if game_type.utility == kinds.Utility.ZERO_SUM and players >= 2:
            divisor = max(abs(low), abs(high))
            scale = (lambda r: _number(Fraction(r) / divisor)) if divisor != 1 else (
                lambda r: int(r) if r.is_integer() else Fraction(r))
            payoff_range = (-1, 1)
        elif players == 1:
            scale = lambda r: _number((Fraction(r) - low) / (high - low))  # noqa: E731
            payoff_range = (0, 1)
        else:
            scale = lambda r: _number(2 * (Fraction(r) - low) / (high - low) - 1)  # noqa: E731
            payoff_range = (-1, 1)
        setter(self, "_scale", scale)
        setter(self, "_payoff_range", payoff_range)
        setter(self, "_players", players)
        setter(self, "_short_name", game_type.short_name)
        setter(self, "_probabilities", {})  # float probabilities -> exact ones: derived values, never results
        setter(self, "_payoffs", {})  # OpenSpiel's returns -> the payoff they scale to (derived, as above)
        setter(self, "_calibration", [])  # the bytes of one OpenSpiel state, measured when first asked
        setter(self, "_tables", [])  # the game's GraphTables (or None: too large), worked out when a search first asks
        setter(self, "_rules", [])  # the game's compiled Rules (COMPILED_RULES) or None, when a search first asks
        setter(self, "_board", [])  # the built-in ConnectFour and its payoffs as this game's (connect_four) or None

    def __repr__(self):
        shown = ", states='histories'" if self.states == "histories" else ""
        return f"OpenSpielGame(spec={self.spec!r}{shown})"

    def __reduce__(self):
        return (OpenSpielGame, (self.spec, self.states))

    @property
    def num_players(self) -> int:
        """How many players the game has (OpenSpiel's ``num_players``).

        >>> from_openspiel("pig", players=3).num_players
        3
        """
        return self._players

    @property
    def name(self) -> str:
        """``openspiel:`` and OpenSpiel's short name, as the command line names the game.

        >>> from_openspiel("connect_four").name
        'openspiel:connect_four'
        """
        return f"openspiel:{self._short_name}"

    @property
    def native(self):
        """The ``pyspiel.Game`` behind this value (for OpenSpiel's own algorithms); do not change it.

        >>> from_openspiel("tic_tac_toe").native.num_distinct_actions()
        9
        """
        return self._native

    def native_state(self, state):
        """The ``pyspiel.State`` that ``state`` stands for: a fresh clone, free to change.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.native_state(game.play(game.start(), 4)).history()
        [4]
        """
        return self._copy(self._state_of(state), state.history)

    def _copy(self, native, history):
        """A copy of ``native``, the OpenSpiel state after ``history``, free to change (see ``CLONES_SHARE``)."""
        if not self._clones_share:
            return native.clone()
        fresh = self._native.new_initial_state()
        for action in history:
            fresh.apply_action(action)
        return fresh

    def _native_bytes(self, length: int) -> int:
        """Bytes an OpenSpiel state of this game holds after ``length`` actions: measured once (clones of the
        start, by the C allocator's count where it gives one), plus its history of actions."""
        calibration = self._calibration
        if not calibration:
            in_use = _malloc_in_use()
            base = 1024
            if in_use is not None:
                start = self._native.new_initial_state()
                before = in_use()
                clones = [start.clone() for _ in range(64)]
                grown = in_use() - before
                del clones
                base = max(base, grown // 64)
            calibration.append(base)
        return calibration[0] + 32 * length  # a history entry is 16 bytes; a vector may hold twice its size

    def _state(self, history: tuple, native, decisions: int | None = None) -> OpenSpielState:
        """The state of ``history``, whose OpenSpiel state is ``native`` (taken, never changed again): no checks.

        ``decisions``: the actions of ``history`` that players chose, where the
        position counts them (worked out from ``native`` when not given).
        """
        player = native.current_player()
        if self._picture:  # the common case in one test: the spec, the player and OpenSpiel's picture
            return _new_state(history, (self.spec, player, str(native)), native, self, player)
        if self._positions:
            key = (self.spec, player, str(native))
            if self._with_length:
                key += (len(history),)
            elif self._with_decisions:
                if decisions is None:
                    decisions = sum(1 for step in native.full_history() if step.player >= 0)
                key += (decisions,)
            if self._with_returns:
                key += (tuple(native.returns()),)
        else:
            key = history
        return _new_state(history, key, native, self, player)

    def _state_of(self, state):
        """The OpenSpiel state of ``state`` (shared: never change it), rebuilt from its history when needed."""
        try:
            native, owner = state._native, state._owner
        except AttributeError:
            raise ValueError(f"not a state of {self!r}: {state!r}") from None
        if native is not None and (owner is self or owner == self):
            return native
        native = self._replay(state.history)
        _fill(state, state.history, state.key, native, self, native.current_player())  # forget another game's
        return native

    def _replay(self, history):
        """The OpenSpiel state after ``history``, every action checked on the way."""
        native = self._native.new_initial_state()
        for step, action in enumerate(history):
            if native.is_terminal():
                raise ValueError(f"the game {self.spec} is over after {step} actions, but the history goes on")
            allowed = [a for a, _ in native.chance_outcomes()] if native.is_chance_node() else native.legal_actions()
            if action not in allowed:
                raise ValueError(f"action {action!r} at step {step + 1} is not legal in {self.spec} (legal: {allowed})")
            native.apply_action(action)
        return native

    def _exact_outcomes(self, pairs) -> tuple:
        """``(outcomes, denominator, cumulative)`` for OpenSpiel's ``(action, float)`` pairs.

        The outcomes of positive probability as exact ``Fraction``\\ s, and their integer
        cumulative weights (as ``GameBase.sample_outcome`` draws), worked out once per
        tuple of floats.
        """
        floats = tuple(p for _, p in pairs)
        cache = self._probabilities
        found = cache.get(floats)
        if found is None:
            exact = _exact_probabilities(floats)
            keep = [i for i, p in enumerate(exact) if p > 0]
            probabilities = [exact[i] for i in keep]
            denominator = lcm(*(p.denominator for p in probabilities))
            total, cumulative = 0, []
            for p in probabilities:
                total += p.numerator * (denominator // p.denominator)
                cumulative.append(total)
            found = (keep, tuple(probabilities), denominator, tuple(cumulative))
            if len(cache) < 10_000:  # bounded; a conversion, the same whatever is cached
                cache[floats] = found
        keep, probabilities, denominator, cumulative = found
        outcomes = tuple((pairs[i][0], p) for i, p in zip(keep, probabilities))
        return outcomes, denominator, cumulative

    # -- the protocol --------------------------------------------------------------------

    def start(self) -> OpenSpielState:
        """The initial state: no action played yet.

        >>> from_openspiel("pig").start()
        OpenSpielState(())
        """
        return self._state((), self._native.new_initial_state())

    def to_move(self, state):
        """The player to move (0, 1, ...), ``CHANCE`` at a chance node, ``None`` at the end.

        >>> game = from_openspiel("pig")
        >>> game.to_move(game.start()), game.to_move(game.play(game.start(), 0))
        (0, CHANCE)
        """
        if type(state) is OpenSpielState and state._owner is self:
            player = state._player
        else:
            player = self._state_of(state).current_player()
        if player >= 0:
            return player
        if player == -1:
            return CHANCE
        if player == -4:
            return None
        raise ValueError(f"OpenSpiel's {self.spec} has no single player to move at {state!r} (player id {player})")

    def possible_moves(self, state) -> tuple:
        """OpenSpiel's legal actions when a player is to move, else ``()``.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.possible_moves(game.start())
        (0, 1, 2, 3, 4, 5, 6, 7, 8)
        """
        if type(state) is OpenSpielState and state._owner is self:
            moves = state._moves
            if moves is None:
                moves = tuple(state._native.legal_actions()) if state._player >= 0 else ()
                _set(state, "_moves", moves)  # worked out once per state
            return moves
        native = self._state_of(state)
        moves = tuple(native.legal_actions()) if native.current_player() >= 0 else ()
        _set(state, "_moves", moves)  # worked out once per state
        return moves

    def chance_outcomes(self, state) -> tuple:
        """``((outcome, Fraction), ...)`` at a chance node, else ``()``.

        >>> game = from_openspiel("pig")
        >>> game.chance_outcomes(game.play(game.start(), 0))[:2]
        ((0, Fraction(1, 6)), (1, Fraction(1, 6)))
        """
        if type(state) is OpenSpielState and state._owner is self and state._outcomes is not None:
            return state._outcomes
        native = self._state_of(state)
        outcomes = self._exact_outcomes(native.chance_outcomes())[0] if native.is_chance_node() else ()
        _set(state, "_outcomes", outcomes)  # worked out once per state
        return outcomes

    def sample_outcome(self, state, rng):
        """Draw a chance outcome as ``GameBase.sample_outcome`` does (one ``rng.random()``), from tables kept per
        tuple of OpenSpiel's probabilities.

        >>> import random
        >>> game = from_openspiel("pig")
        >>> game.sample_outcome(game.play(game.start(), 0), random.Random(1))
        0
        """
        native = self._state_of(state)
        if not native.is_chance_node():
            raise ValueError(f"no chance outcomes at state {state!r}")
        outcomes, denominator, cumulative = self._exact_outcomes(native.chance_outcomes())
        return outcomes[pick_cumulative(rng, cumulative, denominator)][0]

    def play(self, state, move) -> OpenSpielState:
        """The state after ``move`` (an action number, or a chance outcome); an illegal one is a ``ValueError``.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.play(game.start(), 4)
        OpenSpielState((4,))
        >>> game.play(game.play(game.start(), 4), 4)
        Traceback (most recent call last):
        ...
        ValueError: action 4 is not legal at OpenSpielState((4,)) of tic_tac_toe() (legal: [0, 1, 2, 3, 5, 6, 7, 8])
        """
        if type(state) is OpenSpielState and state._owner is self:
            native, allowed = state._native, state._moves
            if allowed is not None and type(move) is int and move in allowed and not self._clones_share:
                child = native.clone()  # the fast path: a player's legal move, the moves known
                child.apply_action(move)
                if self._picture:
                    player = child.current_player()
                    return _new_state(state.history + (move,), (self.spec, player, str(child)), child, self, player)
                decisions = None
                if self._with_decisions and state.key[0] is self.spec:
                    decisions = state.key[3] + 1
                return self._state(state.history + (move,), child, decisions)
        else:
            native = self._state_of(state)
        return self._played(state, native, _action_number(move))

    def _played(self, state, native, move: int) -> OpenSpielState:
        """The state after ``move`` from ``state`` (``native``: its OpenSpiel state), the move checked to be legal."""
        player = state._player
        if player >= 0:
            allowed = state._moves
            if allowed is None:
                allowed = self.possible_moves(state)
        else:
            allowed = [a for a, _ in native.chance_outcomes()] if player == -1 else ()
        if move not in allowed:
            raise ValueError(f"action {move} is not legal at {state!r} of {self.spec} (legal: {sorted(allowed)})")
        child = native.clone() if not self._clones_share else self._copy(native, state.history)
        child.apply_action(move)
        decisions = None
        if self._with_decisions and state._owner is self and state.key[0] is self.spec:
            decisions = state.key[3] + (player >= 0)
        return self._state(state.history + (move,), child, decisions)

    def random_payoff(self, state, rng) -> tuple:
        """The payoff after uniformly random play from ``state``, drawn as ``playout`` with the random agent draws
        (one ``rng.random()`` a move, none when one move is legal; chance as ``sample_outcome``), on one OpenSpiel
        state played in place: no state is made on the way.

        >>> import random
        >>> game = from_openspiel("tic_tac_toe")
        >>> from fnmcts.matches import playout
        >>> game.random_payoff(game.start(), random.Random(7)) == game.payoff(playout(game, game.start(), random.Random(7)))
        True
        """
        return self._random_play(state, rng, None)

    def random_played(self, state, rng) -> tuple:
        """``(payoff, moves)`` of ``random_payoff``'s game (the same draws): its payoff and the ``(player, move)`` of
        each decision, in order, as RAVE counts them; chance outcomes are no one's move.

        >>> import random
        >>> from fnmcts.matches import playout
        >>> game = from_openspiel("tic_tac_toe")
        >>> payoff, moves = game.random_played(game.start(), random.Random(7))
        >>> end, played = playout(game, game.start(), random.Random(7), moves=True)
        >>> payoff == game.payoff(end), [move for _, move in moves] == list(played), moves[:2]
        (True, True, ((0, 2), (1, 1)))
        """
        moves = []
        return self._random_play(state, rng, moves), tuple(moves)

    def _random_play(self, state, rng, moves) -> tuple:
        """``random_payoff``'s loop; ``moves``, a list or None: each decision's ``(player, move)`` is appended."""
        native = self._copy(self._state_of(state), state.history)
        rnd = rng.random
        outcomes_of = self._exact_outcomes
        while True:
            player = native.current_player()
            if player >= 0:
                legal = native.legal_actions()
                move = legal[0] if len(legal) == 1 else legal[int(rnd() * len(legal))]
                if moves is not None:
                    moves.append((player, move))
                native.apply_action(move)
            elif player == -1:
                outcomes, denominator, cumulative = outcomes_of(native.chance_outcomes())
                native.apply_action(outcomes[bisect_right(cumulative, rnd() * denominator)][0])
            elif player == -4:
                return self._payoff_of(tuple(native.returns()))
            else:
                raise ValueError(f"OpenSpiel's {self.spec} has no single player to move (player id {player})")

    def decisive_payoff(self, state, rng) -> tuple:
        """The payoff after decisive and anti-decisive play from ``state``, drawn as ``playout`` with
        ``fnmcts.mcts.enhancements.decisive_agent`` draws, on OpenSpiel states played in place.

        At each decision the move is drawn uniformly (one ``rng.random()``,
        none when one is left) among the moves that end the game with the best
        payoff for the mover, or else among those after which the next player
        has no such move, or else among all; chance as ``sample_outcome``. The
        same draws and the same payoff as ``playout(game, state, rng,
        decisive_agent)``, without a state made on the way: the search takes
        this path for ``rollout=decisive_agent`` (``decisive_agent.in_place``
        names it).

        >>> import random
        >>> from fnmcts.matches import playout
        >>> from fnmcts.mcts.enhancements import decisive_agent
        >>> game = from_openspiel("tic_tac_toe")
        >>> [game.decisive_payoff(game.start(), random.Random(k)) ==
        ...  game.payoff(playout(game, game.start(), random.Random(k), decisive_agent)) for k in range(3)]
        [True, True, True]
        """
        return self._decisive_play(state, rng, None)

    def decisive_played(self, state, rng) -> tuple:
        """``(payoff, moves)`` of ``decisive_payoff``'s game (the same draws): its payoff and the ``(player, move)`` of
        each decision, in order, as RAVE counts them.

        >>> import random
        >>> game = from_openspiel("tic_tac_toe")
        >>> payoff, moves = game.decisive_played(game.start(), random.Random(2))
        >>> payoff == game.decisive_payoff(game.start(), random.Random(2)), [p for p, _ in moves][:4]
        (True, [0, 1, 0, 1])
        """
        played = []
        return self._decisive_play(state, rng, played), tuple(played)

    def _decisive_play(self, state, rng, played) -> tuple:
        """``decisive_payoff``'s loop; ``played``, a list or None: each decision's ``(player, move)`` is appended.

        On connect_four of the standard size, the built-in ``ConnectFour``'s bitboards play it (the same moves and
        draws: a column is a move in both), about 20 times faster than OpenSpiel's states made for each move tried.
        """
        kept = self._board
        if not kept:
            kept.append(_connect_four_board(self) if self._short_name == "connect_four" else None)
        if kept[0] is not None:
            board, payoffs = kept[0]
            return payoffs[board._decisive_play(_on_board(board, state), rng, played)]
        history = list(state.history)
        native = self._copy(self._state_of(state), history)
        rnd, outcomes_of, choices = rng.random, self._exact_outcomes, self._decisive_choices
        while True:
            player = native.current_player()
            if player >= 0:
                moves = native.legal_actions()
                if len(moves) > 1:
                    moves = choices(native, history, player, moves)
                move = moves[0] if len(moves) == 1 else moves[int(rnd() * len(moves))]
                if played is not None:
                    played.append((player, move))
            elif player == -1:
                outcomes, denominator, cumulative = outcomes_of(native.chance_outcomes())
                move = outcomes[bisect_right(cumulative, rnd() * denominator)][0]
            elif player == -4:
                return self._payoff_of(tuple(native.returns()))
            else:
                raise ValueError(f"OpenSpiel's {self.spec} has no single player to move (player id {player})")
            native.apply_action(move)
            history.append(move)

    def _decisive_choices(self, native, history, player, moves) -> list:
        """``decisive_agent``'s moves to draw from at ``native`` (``player`` to move): the winning, else the safe,
        else all of ``moves``, in move order (``native`` is left as it was)."""
        high, shares = self._payoff_range[1], self._clones_share
        afters, winning = [], []
        for move in moves:
            after = self._after(native, history, move) if shares else native.child(move)
            afters.append(after)
            if after.is_terminal() and self._payoff_of(tuple(after.returns()))[player] == high:
                winning.append(move)
        if winning:
            return winning
        safe = []
        for move, after in zip(moves, afters):
            other = after.current_player()
            if other < 0 or other == player or not self._wins_at_once(after, history + [move], other, high):
                safe.append(move)
        return safe or moves

    def _wins_at_once(self, native, history, player, high) -> bool:
        """Whether ``player``, to move at ``native``, has a move that ends the game with ``high`` for them."""
        payoff_of, shares, child = self._payoff_of, self._clones_share, native.child
        for move in native.legal_actions():
            after = self._after(native, history, move) if shares else child(move)
            if after.is_terminal() and payoff_of(tuple(after.returns()))[player] == high:
                return True
        return False

    def _after(self, native, history, move):
        """A new OpenSpiel state: ``native`` (after ``history``) with ``move`` played (see ``CLONES_SHARE``)."""
        after = self._copy(native, history)
        after.apply_action(move)
        return after

    def payoff(self, state) -> tuple:
        """OpenSpiel's returns at the end, scaled into ``payoff_range()``.

        >>> game = from_openspiel("tic_tac_toe")
        >>> state = game.start()
        >>> for cell in (0, 3, 1, 4, 2):
        ...     state = game.play(state, cell)
        >>> game.payoff(state)
        (1, -1)
        """
        if type(state) is OpenSpielState and state._owner is self and state._player == -4:
            native = state._native  # over: OpenSpiel's terminal player id, kept with the state
        else:
            native = self._state_of(state)
            if not native.is_terminal():
                raise ValueError(f"the game is not over at {state!r}: no payoff yet")
        return self._payoff_of(tuple(native.returns()))

    def _payoff_of(self, returns: tuple) -> tuple:
        """The payoff OpenSpiel's ``returns`` scale to, kept per tuple of returns (the first 4,096 seen)."""
        payoff = self._payoffs.get(returns)
        if payoff is None:
            scale = self._scale
            payoff = tuple(scale(r) for r in returns)
            if len(self._payoffs) < 4096:  # a game of many returns keeps the first seen
                self._payoffs[returns] = payoff
        return payoff

    def payoff_range(self) -> tuple:
        """``(-1, 1)``, or ``(0, 1)`` for a one-player game.

        >>> from_openspiel("catch").payoff_range(), from_openspiel("nim").payoff_range()
        ((0, 1), (-1, 1))
        """
        return self._payoff_range

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)``: unknown states; OpenSpiel's bounds on the steps left and the choices.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.size_hint(game.play(game.start(), 4))
        (None, 8, 9)
        """
        native = self._native
        steps = native.max_game_length() + native.max_chance_nodes_in_history()
        return (None, max(0, steps - len(state.history)), max(native.num_distinct_actions(), native.max_chance_outcomes()))

    def compiled_graph(self) -> GraphTables | None:
        """Every state of a small game and its moves as tables (the protocol's optional hook), or None.

        A game whose states are positions, no longer than ``TABLE_STEPS`` steps
        (OpenSpiel's bound on its moves and chance outcomes) and of at most
        ``TABLE_LIMIT`` states (tic_tac_toe: 5,478 positions) is
        walked once per game value, when a search first asks, through this
        adapter's own protocol methods; every search on it then reads the moves,
        the children, the chance outcomes and the payoffs from the tables instead
        of playing each move through OpenSpiel and interning its state again (the
        same answers: a property test checks them state for state, and a search
        on the tables draw for draw against one through the protocol; a bounded
        tree, ``max_nodes``, breaks ties among the nodes it drops by each state's
        history, the first line met to a position, which the tables may hold
        differently). Any other
        game: None (a short game found larger by a walk that stops at the limit,
        once per game value); the search then walks it through the protocol.

        >>> t = from_openspiel("tic_tac_toe").compiled_graph()
        >>> len(t.states), t.kinds[0], t.moves[0], t.kinds[t.children[0][4]]
        (5478, 0, (0, 1, 2, 3, 4, 5, 6, 7, 8), 1)
        >>> t is from_openspiel("tic_tac_toe").compiled_graph(), from_openspiel("connect_four").compiled_graph()
        (False, None)
        """
        kept = self._tables
        if not kept:
            native = self._native
            short = native.max_game_length() + native.max_chance_nodes_in_history() <= TABLE_STEPS
            kept.append(_walk_tables(self, TABLE_LIMIT) if self._positions and short else None)
        return kept[0]

    def compiled_rules(self):
        """The game's rules compiled (the protocol's optional hook), for the games of ``COMPILED_RULES``: OpenSpiel's
        connect_four (7 columns, 6 rows, four in a row) on the built-in ``ConnectFour``'s, hex on boards of at most
        63 cells without the swap (``fnmcts.games._hex_rules``: keys of two words past 31), dots_and_boxes on boards whose lines and boxes fit
        a 64-bit key (``fnmcts.games._dots_and_boxes_rules``), breakthrough on the 6 by 6 board
        (``fnmcts.games._breakthrough_rules``). A search (MCTS-Solver, RAVE and GRAVE, decisive playouts among its
        options) runs in machine code, growing this adapter's own states (each made from the one it was reached
        from: connect_four's from its picture, ``_picture_played``, else by ``play``, when first read), the same
        tree as the loop in Python, draw for draw. Any other game or parameters, one whose states are histories, or
        without Numba: None.

        >>> rules = from_openspiel("connect_four").compiled_rules()
        >>> rules is None or (rules.states, rules.payoffs, rules.width) == (None, ((1, -1), (-1, 1), (0, 0)), 7)
        True
        >>> rules = from_openspiel("hex(board_size=5)").compiled_rules()
        >>> rules is None or (rules.payoffs, rules.width) == (((1, -1), (-1, 1)), 25)
        True
        >>> rules = from_openspiel("breakthrough(rows=6,columns=6)").compiled_rules()
        >>> rules is None or (rules.states, rules.payoffs, rules.width) == (None, ((1, -1), (-1, 1)), 432)
        True
        >>> from_openspiel("tic_tac_toe").compiled_rules(), from_openspiel("connect_four(rows=5)").compiled_rules()
        (None, None)
        >>> rules = from_openspiel("hex(board_size=7)").compiled_rules()
        >>> rules is None or (rules.words, rules.width, rules.key(from_openspiel("hex(board_size=7)").start())) == (2,
        ...                                                                                              49, (0, 0))
        True
        >>> [from_openspiel(spec).compiled_rules() for spec in ("hex(board_size=8)", "hex(board_size=5,swap=True)")]
        [None, None]
        >>> from_openspiel("breakthrough").compiled_rules()  # (8 by 8: its key would pass 64 bits)
        >>> from_openspiel("connect_four", states="histories").compiled_rules() is None  # (no transpositions)
        True
        >>> rules = from_openspiel("dots_and_boxes(num_rows=3,num_cols=3)").compiled_rules()
        >>> rules is None or (rules.width, rules.payoffs) == (24, ((1, -1), (-1, 1), (0, 0)))
        True
        """
        kept = self._rules
        if not kept:
            made = COMPILED_RULES.get(self._short_name)
            kept.append(_rules_of(self, made) if made is not None and self._positions else None)
        return kept[0]

    # -- texts and forms -----------------------------------------------------------------

    def describe_move(self, state, move) -> str:
        """OpenSpiel's text for ``move`` at ``state`` (the action number without a state).

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.describe_move(game.start(), 4), game.describe_move(None, 4)
        ('x(1,1)', '4')
        """
        if state is None:
            return str(move)
        native = self._state_of(state)
        return native.action_to_string(native.current_player(), move)

    def transcript_line(self, player, move, after) -> str:
        """"Player N: <OpenSpiel's text for the move>." (the text read at the state before it).

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.transcript_line(0, 4, game.play(game.start(), 4))
        'Player 1: x(1,1).'
        """
        history = getattr(after, "history", None)
        if not history:
            return f"Player {player + 1}: {move}."
        before = OpenSpielState(history[:-1])
        try:
            text = self.describe_move(before, move)
        except ValueError:
            text = str(move)
        return f"Player {player + 1}: {text}."

    def render(self, state) -> str:
        """OpenSpiel's picture of ``state`` (its ``ToString``).

        >>> game = from_openspiel("nim(pile_sizes=1;3)")
        >>> game.render(game.start())
        '(0): 1 3'
        """
        return str(self._state_of(state)).rstrip("\n")

    def state_to_json(self, state) -> list:
        """The JSON form of ``state``: its history, a list of action numbers.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.state_to_json(game.play(game.start(), 4))
        [4]
        """
        return list(state.history)

    def state_from_json(self, data) -> OpenSpielState:
        """The state whose history is ``data``, replayed and checked action by action.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.state_from_json([4, 0]) == game.play(game.play(game.start(), 4), 0)
        True
        >>> game.state_from_json([4, 4])
        Traceback (most recent call last):
        ...
        ValueError: action 4 at step 2 is not legal in tic_tac_toe() (legal: [0, 1, 2, 3, 5, 6, 7, 8])
        """
        if not isinstance(data, (list, tuple)) or not all(type(a) is int for a in data):
            raise ValueError(f"an OpenSpiel state is a list of action numbers, got {data!r}")
        history = tuple(data)
        return self._state(history, self._replay(history))

    def check_state(self, state):
        """``state`` if it is a history of this game's legal actions, else a ``ValueError`` naming the problem.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.check_state(OpenSpielState((4, 0))), game.check_state((4, 0))
        Traceback (most recent call last):
        ...
        ValueError: not a state of OpenSpielGame(spec='tic_tac_toe()'): (4, 0)
        """
        if type(state) is not OpenSpielState:
            raise ValueError(f"not a state of {self!r}: {state!r}")
        self._state_of(state)
        return state

    def parse_state(self, text: str) -> OpenSpielState:
        """The state typed as its history: a JSON list ``[4, 0]``, or ``4,0`` or ``4 0``; empty for the start.

        >>> game = from_openspiel("tic_tac_toe")
        >>> game.parse_state("[4, 0]"), game.parse_state("4,0"), game.parse_state(" ")
        (OpenSpielState((4, 0)), OpenSpielState((4, 0)), OpenSpielState(()))
        """
        typed = _state_text(text)
        if typed.startswith("["):
            return super().parse_state(typed)
        fields = typed.replace(",", " ").split()
        if not all(f.lstrip("-").isdigit() for f in fields):
            raise ValueError(
                f"write a state of {self.spec} as the actions played from the start: '[4, 0]', '4,0' or '4 0'; "
                f"got {text!r}"
            )
        return self.state_from_json([int(f) for f in fields])


TABLE_LIMIT = 10_000
"""The most states an OpenSpiel game may have to be given to the search as tables (``OpenSpielGame.compiled_graph``)."""

TABLE_STEPS = 16
"""The longest game (OpenSpiel's bound on its steps) whose states are walked for tables: longer games are not tried."""


def _action_number(move) -> int:
    """``move`` as an OpenSpiel action number (a ``TypeError`` when it is no whole number)."""
    if type(move) is not int:
        if not isinstance(move, numbers.Integral) or isinstance(move, bool):
            raise TypeError(f"an OpenSpiel move is an action number, got {move!r}")
        move = int(move)
    return move


COMPILED_RULES = {
    "breakthrough": "breakthrough",  # on the 6 by 6 board (a larger one passes a 64-bit key)
    "connect_four": "connect_four",
    "dots_and_boxes": "dots_and_boxes",
    "hex": "hex",
}
"""OpenSpiel's games whose rules fnmcts compiles (``compiled_rules()``): short name -> the module of
``fnmcts.games`` that holds them, ``_<name>_rules``, whose ``rules_for(parameters)`` gives the game's ``Rules`` at
OpenSpiel's parameters (or None: parameters it does not take, a state too large for a 64-bit key) and
``key_after(actions)`` the key after an array of OpenSpiel's actions from the start (where the key depends on the
parameters, as a board's size, ``key_after_for(parameters)`` gives that function for them). Imported only when a
search asks (they import Numba)."""


def _rules_of(game, name):
    """The compiled ``Rules`` of ``game`` from ``fnmcts.games._<name>_rules`` (``COMPILED_RULES``), or None: without
    Numba, or at parameters the module does not take. A state's key is read from its history, the payoffs are the
    game's own, the new states are made by the game's ``play`` (connect_four: from the picture, ``_picture_played``)."""
    if name == "connect_four":
        return _connect_four_rules(game)
    try:
        module = importlib.import_module(f"fnmcts.games._{name}_rules")
    except ImportError:  # no Numba: the Python loop
        return None
    parameters = dict(game.native.get_parameters())
    rules = module.rules_for(parameters)
    if rules is None:
        return None
    import numpy as np

    key_after = module.key_after_for(parameters) if hasattr(module, "key_after_for") else module.key_after

    def key(state):  # (the key after its history's actions, replayed on the compiled rules: a pair of two words)
        found = key_after(np.array(state.history, np.int64))
        return int(found) if rules.words == 1 else tuple(found.tolist())

    return rules._replace(states=None, key=key, played=None,
                          payoffs=tuple(game._payoff_of(tuple(float(x) for x in pay)) for pay in rules.payoffs))


def _connect_four_rules(game):
    """The built-in ``ConnectFour``'s compiled ``Rules`` for ``game``, OpenSpiel's connect_four of the standard size
    (else None): its states' keys read from their histories, its payoffs its own, new states made by ``play``."""
    found = _connect_four_board(game)
    rules = None if found is None else found[0].compiled_rules()
    if rules is None:
        return None
    board, payoffs = found
    import numpy as np

    from .games._connect_four_rules import key_after

    def key(state):  # (the columns of its history, dropped on the bitboards: the key the built-in game gives)
        return int(key_after(np.array(state.history, np.int64)))

    return rules._replace(states=None, key=key, payoffs=tuple(payoffs[pay] for pay in rules.payoffs),
                          played=_picture_played(game) if game._picture else None)


def _picture_played(game):
    """``played(state, move, mover)`` for OpenSpiel's connect_four keyed by its picture: the state after ``move``
    made from ``state``'s picture (the lowest empty cell of the column gets the mover's mark), no OpenSpiel state
    made (rebuilt from the history when a game first reads it); the same state ``play`` makes.

    >>> import random
    >>> game = from_openspiel("connect_four")
    >>> played, rng, state = _picture_played(game), random.Random(2), game.start()
    >>> while game.to_move(state) is not None:
    ...     move = rng.choice(game.possible_moves(state))
    ...     after = game.play(state, move)
    ...     made = played(state, move, -1 if game.to_move(after) is None else game.to_move(after))
    ...     assert (made, made.key, made.history) == (after, after.key, after.history)
    ...     state = after
    """
    spec = game.spec

    def played(state, move, mover):
        _, player, picture = state.key
        at = 40 + move  # the bottom row's cell of the column, then a row up at a time
        while picture[at] != ".":
            at -= 8
        return _new_state(state.history + (move,), (spec, -4 if mover < 0 else mover,
                                                     picture[:at] + "xo"[player] + picture[at + 1:]), None, None, None)

    return played


def _connect_four_board(game):
    """``(ConnectFour(), its payoffs as game's)`` for ``game``, OpenSpiel's connect_four of the standard size, else None."""
    given = game.native.get_parameters()
    if (given.get("columns"), given.get("rows"), given.get("x_in_row")) != (7, 6, 4):
        return None
    from .games.connect_four import ConnectFour

    return ConnectFour(), {pay: game._payoff_of(tuple(float(x) for x in pay)) for pay in ((1, -1), (-1, 1), (0, 0))}


def _on_board(board, state):
    """``state``, OpenSpiel's connect_four, as the built-in ``board``'s: its columns played from the start."""
    at = board.start()
    for column in state.history:
        at = board.play(at, column)
    return at


def _walk_tables(game, limit: int) -> GraphTables | None:
    """``game``'s states from its start, breadth first, as ``GraphTables``; None once more than ``limit`` are met."""
    start = game.start()
    states, index = [start], {start: 0}
    kinds, moves, children, outcomes, payoffs = [], [], [], [], []
    to_move, play = game.to_move, game.play
    for state in states:  # grows as it goes
        player = to_move(state)
        if player is None:
            kinds.append(-1)
            moves.append(())
            children.append(())
            outcomes.append(())
            payoffs.append(game.payoff(state))
            continue
        if player is CHANCE:
            chance = game.chance_outcomes(state)
            steps = tuple(outcome for outcome, _ in chance)
            kinds.append(-2)
            moves.append(())
            outcomes.append(chance)
        else:
            steps = game.possible_moves(state)
            kinds.append(player)
            moves.append(steps)
            outcomes.append(())
        payoffs.append(None)
        kids = []
        for step in steps:
            after = play(state, step)
            node = index.get(after)
            if node is None:
                if len(states) >= limit:
                    return None
                node = index[after] = len(states)
                states.append(after)
            kids.append(node)
        children.append(tuple(kids))
    return GraphTables(tuple(states), index, tuple(kinds), tuple(moves), tuple(children), tuple(outcomes),
                       tuple(payoffs))


def from_openspiel(game_or_name, *, states: str | None = None, **params) -> OpenSpielGame:
    """An OpenSpiel game as an fnmcts game value: by short name, game string or ``pyspiel.Game``.

    ``params`` are OpenSpiel's parameters of the game (checked against its
    parameter list: a name it lacks or a value of the wrong type is a
    ``ValueError``); an unknown game, or one with simultaneous moves or imperfect
    information, is a ``ValueError`` that says why. ``states``: ``"positions"``
    (the default where ``POSITIONS`` has the game) or ``"histories"``.

    >>> from_openspiel("nim", pile_sizes="1;2;3", is_misere=False)
    OpenSpielGame(spec='nim(is_misere=False,pile_sizes=1;2;3)')
    >>> from_openspiel("nim(pile_sizes=2;2)") == from_openspiel("nim", pile_sizes="2;2")
    True
    >>> from_openspiel("conect_four")
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel has no game 'conect_four'; did you mean connect_four?
    >>> from_openspiel("nim", piles="1;2")
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel's nim has no parameter 'piles' (its parameters: is_misere, pile_sizes)
    """
    if isinstance(game_or_name, OpenSpielGame):
        if params:
            raise TypeError("parameters go with a game's name, not with a game already made")
        if states is not None and states != game_or_name.states:
            return OpenSpielGame(game_or_name.spec, states)
        return game_or_name
    if isinstance(game_or_name, str):
        name, given = _parse_spec(game_or_name)
        twice = sorted(set(given) & set(params))
        if twice:
            raise ValueError(f"parameter {twice[0]!r} is given both in {game_or_name!r} and as a keyword")
        for value in params.values():
            _check_value(value)
        native, canonical = _load(name, {**given, **params}, game_or_name)
        game = object.__new__(OpenSpielGame)
        game._setup(native, canonical, states)
        return game
    if params:
        raise TypeError("parameters go with a game's name, not with a game already made")
    get_type = getattr(game_or_name, "get_type", None)
    if get_type is None:
        raise TypeError(f"from_openspiel takes an OpenSpiel game or its name, got {game_or_name!r}")
    reason = _refusal_of(get_type())
    if reason is not None:
        raise ValueError(reason)
    game = object.__new__(OpenSpielGame)
    game._setup(game_or_name, str(game_or_name), states)
    return game


def _states_of(short_name: str, states) -> str:
    """What the states of OpenSpiel's game ``short_name`` are: ``states`` checked, or the sound default.

    >>> _states_of("tic_tac_toe", None), _states_of("chess", None), _states_of("tic_tac_toe", "histories")
    ('positions', 'histories', 'histories')
    >>> _states_of("chess", "positions")
    Traceback (most recent call last):
    ...
    ValueError: OpenSpiel's chess keeps its history as its state: its picture of a state does not decide the future (see fnmcts.openspiel.POSITIONS for the games whose positions are merged); leave states out or give states='histories'
    """
    if states is None:
        return "positions" if short_name in POSITIONS else "histories"
    if states not in STATES:
        raise ValueError(f"states is 'positions' or 'histories', got {states!r}")
    if states == "positions" and short_name not in POSITIONS:
        raise ValueError(
            f"OpenSpiel's {short_name} keeps its history as its state: its picture of a state does not decide the "
            f"future (see fnmcts.openspiel.POSITIONS for the games whose positions are merged); leave states out or "
            f"give states='histories'"
        )
    return states


def _check_value(value) -> None:
    """A keyword parameter is a bool, int, float or str, else a ``TypeError``."""
    if not isinstance(value, (bool, int, float, str)):
        raise TypeError(f"an OpenSpiel parameter is a bool, int, float or str, got {value!r}")
