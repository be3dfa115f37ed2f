"""``fnmcts check --game SPEC`` and ``--game SPEC`` for ``play``, ``move``, ``solve`` and ``tournament``.

SPEC names any game (``fnmcts.cli._games``): a built-in one, an OpenSpiel game
``openspiel:NAME(params)`` (the ``openspiel`` extra), or a game of your own as
``module:attribute``.

* ``check --game SPEC``: ``fnmcts.testing.check_game`` from the terminal: every
  game law on hypothesis walks, the shrunk counterexample when one fails (exit
  status 1), the laws checked when all hold.
* ``play|move|solve|tournament --game SPEC ...``: the two-player commands of
  the game commands (``fnmcts.cli.play``, ``tournament``, ``move``, ``solve``) on that game (its own parameters come with SPEC).
"""

from __future__ import annotations

import json
import signal
import sys

from ..exact import best_moves, solve
from ..protocol import CHANCE, describe_move, game_text, render, state_to_json
from ..rng import make_rng
from . import _agents, _board, _executor, _golden_file
from . import move as move_verb
from . import play as play_verb
from . import solve as solve_verb
from . import tournament as tournament_verb
from ._common import (CliError, Interrupted, add_force, add_json, add_seed, count, emit, finish_seeded, keep_partial,
                      positive_count, progress_bar, worker_count)
from ._output import Obedient
from ._games import GAME_FORMS, resolve_game
from ._payoffs import scale_fields
from ._hints import add_hints
from ..limits import GO_ON, TooLarge

__all__ = ["register", "run_check", "slow_note", "SLOW"]

_ANY = "any"  # the GAME sub-command that --game SPEC implies


SLOW = 60.0
"""Seconds beyond which ``fnmcts check`` is refused up front, saying how long it would take and what makes it
quick (``--force`` checks regardless, saying so)."""


def run_check(game, *, examples: int = 100, max_steps=None, exact_limit: int = 200_000, exact: bool = True,
              agents=None, seed: int = 0, progress=None, warn=None, stop=None,
              refuse: float | None = None) -> dict:
    """``check_game`` on ``game`` as a report: ``passed``, the ``laws`` checked, or the ``failure`` text.

    ``max_steps`` defaults to the game's own bound on its length (``size_hint``) when it
    has one, else 1,000; ``agents`` names built-in agents (default: all that play it).
    ``progress`` and ``stop`` are ``check_game``'s; with ``warn``, the time is estimated first
    (``estimate_seconds`` in the report) and, beyond ``SLOW`` seconds, ``warn``
    gets a sentence saying how long and which options make it quick; beyond
    ``refuse`` seconds the check is refused instead, up front (``TooLarge``,
    the same sentence; ``None``: never). Ctrl-C ends it with
    ``fnmcts.parallel.Interrupted``, its ``partial`` the laws that held so far.

    >>> from fnmcts.games import Nim
    >>> report = run_check(Nim(heap=5), examples=10)
    >>> report["passed"], report["laws"][:2]
    (True, ['moves_stable_and_legal', 'play_pure'])
    """
    from ..limits import size_hint
    from ..testing import DEFAULT_MAX_STEPS, builtin_agents, check_game

    if max_steps is None:
        length = size_hint(game, game.start())[1]
        max_steps = length if length is not None else DEFAULT_MAX_STEPS
    chosen = None
    if agents is not None:
        known = builtin_agents(game=None)
        unknown = [a for a in agents if a not in known]
        if unknown:
            raise CliError(f"unknown agent {unknown[0]!r} for --agents; choose from {', '.join(sorted(known))}")
        chosen = {a: known[a] for a in agents}
    report = {"game": repr(game), "examples": examples, "max_steps": max_steps, "seed": seed}
    if warn is not None:
        from ..testing import LAWS, estimate_check
        from ..testing.check import ends_at_all

        try:  # a game that never ends gets its verdict before any estimate (which would only say "too slow")
            ends_at_all(game, tuple(LAWS.items()), max_steps, seed)
        except AssertionError as failure:
            return report | {"passed": False, "laws": [], "failure": str(failure)} | _counterexample(game, str(failure))

        try:
            estimate = estimate_check(game, max_examples=examples, max_steps=max_steps, exact=exact,
                                      exact_limit=exact_limit, agents=chosen)
        except Exception:  # a game too broken to time: the laws say what is wrong
            estimate = None
        if estimate is not None:
            report["estimate_seconds"] = round(estimate.seconds, 1)
            if refuse is not None:
                _refuse_memory(game, estimate, exact_limit)
            if refuse is not None and estimate.seconds > refuse:
                raise TooLarge(slow_note(game, estimate) + GO_ON)
            if estimate.seconds > SLOW:
                warn(slow_note(game, estimate))
    try:
        laws = check_game(game, max_examples=examples, max_steps=max_steps, exact=exact, exact_limit=exact_limit,
                          agents=chosen, seed=seed, progress=progress, stop=stop)
    except AssertionError as failure:
        return report | {"passed": False, "laws": [], "failure": str(failure)} | _counterexample(game, str(failure))
    return report | {"passed": True, "laws": list(laws), "failure": None}


def _refuse_memory(game, estimate, exact_limit: int, budget: int | None = None) -> None:
    """Refuse (``TooLarge``) a check whose exact laws would hold more than the memory budget, naming what fits.

    They count and solve up to ``exact_limit`` states, at the bytes a state
    costs (``CheckEstimate.state_bytes``, measured on the game's own states).

    >>> from fnmcts.testing import CheckEstimate
    >>> _refuse_memory("Big()", CheckEstimate(10.0, (), 5.0, {}, 10.0, 40_000), 200_000, budget=2 * 10**9)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: checking Big() would hold up to 200,000 states for its exact laws at about 40,000 bytes each (8.0 GB), beyond the memory budget of 2.0 GB: --exact-limit 50,000 fits, or --no-exact; limit=None goes on regardless
    """
    from ..limits import memory_budget

    budget = memory_budget() if budget is None else budget
    held = exact_limit * estimate.state_bytes
    if held > budget:
        fits = budget // estimate.state_bytes
        raise TooLarge(f"checking {game} would hold up to {exact_limit:,} states for its exact laws at about "
                       f"{estimate.state_bytes:,} bytes each ({held / 1e9:.1f} GB), beyond the memory budget of "
                       f"{budget / 1e9:.1f} GB: --exact-limit {fits:,} fits, or --no-exact{GO_ON}")


_FLAGS = {"max_examples": "--examples", "exact_limit": "--exact-limit", "max_steps": "--max-steps",
          "agents": "--agents"}


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def slow_note(game, estimate) -> str:
    """One sentence: how long a check would take, the laws that take it, and the options that make it quick.

    >>> from fnmcts.testing import CheckEstimate
    >>> slow_note("Go()", CheckEstimate(1500.0, (("json_round_trip", 10.0), ("solver_recursion", 1490.0)), 40.0,
    ...                                  {"exact_limit": 1000, "agents": ("random",)}, 12.0))
    'checking Go() with these options would take about 25 minutes (solver_recursion 25 minutes); --exact-limit 1000 --agents random make it about 12 s'
    """
    slowest = sorted(estimate.laws, key=lambda row: -row[1])[:2]
    laws = ", ".join(f"{name} {_duration(seconds)}" for name, seconds in slowest if seconds > estimate.seconds / 5)
    flags = " ".join("--no-exact" if key == "exact" else
                     f"{_FLAGS[key]} {value if isinstance(value, int) else ','.join(value)}"
                     for key, value in estimate.quick.items())
    quick = f"; {flags} make it about {_duration(estimate.quick_seconds)}" if flags else ""
    return f"checking {game} with these options would take about {_duration(estimate.seconds)} ({laws}){quick}"


def _counterexample(game, text: str) -> dict:
    """The failing law, the moves from the start, the state and the problem of a ``check_game`` failure, as fields.

    The moves and the state are JSON where they can be read back (``state_json``
    by the game's own ``state_to_json``), and their text always.

    >>> from fnmcts.games import Nim
    >>> failure = ("game law 'play_pure' fails for Nim(heap=3)\\n  moves from the start: (1, 1)\\n"
    ...            "  state: pmap({'heap': 1, 'player': 0})\\n  problem: play changed its input")
    >>> fields = _counterexample(Nim(heap=3), failure)
    >>> fields["law"], fields["path"], fields["state"], fields["problem"]
    ('play_pure', [1, 1], "pmap({'heap': 1, 'player': 0})", 'play changed its input')
    """
    import ast
    import re

    lines = text.splitlines()
    fields = {"law": None, "path": None, "path_text": None, "state": None, "state_json": None, "problem": None}
    head = re.match(r"game law '(.+?)' fails for ", lines[0]) if lines else None
    if head:
        fields["law"] = head.group(1)
    for number, line in enumerate(lines[1:], 1):
        line = line.strip()
        if line == "at the start":
            fields["path"], fields["path_text"] = [], "()"
        elif line.startswith("moves from the start: "):
            fields["path_text"] = line[len("moves from the start: "):]
            try:
                fields["path"] = json.loads(json.dumps(list(ast.literal_eval(fields["path_text"]))))
            except (ValueError, SyntaxError, TypeError):
                pass
        elif line.startswith("state: "):
            fields["state"] = line[len("state: "):]
        elif line.startswith("problem: "):
            fields["problem"] = "\n".join([line[len("problem: "):], *lines[number + 1:]]).strip()
            break
    if fields["path"] is not None:
        try:  # the state again, from the start along the moves: its JSON form
            state = game.start()
            for move in fields["path"]:
                state = game.play(state, tuple(move) if isinstance(move, list) else move)
            if repr(state) == fields["state"]:
                fields["state_json"] = json.loads(json.dumps(state_to_json(game, state)))
        except Exception:  # a broken game may fail on the way: the text stays
            pass
    return fields


def _check(args) -> int:
    from ..testing import LAWS

    game = resolve_game(args.game_spec)
    _golden_file.before_check(args)  # a file recorded over, a missing or mistyped golden: said before the check
    agents = None if args.agents is None else [a.strip() for a in args.agents.split(",") if a.strip()]
    if agents == []:
        raise CliError("--agents names at least one agent, comma-separated (leave it out for every agent that plays)")
    walks = args.examples * (len(LAWS) - (0 if args.exact else 1))
    walked = [0]

    def warn(note):
        print(f"fnmcts: {note}; the check goes on (Ctrl-C stops it)", file=sys.stderr)

    def so_far() -> str:
        return f"{walked[0]:,} of {walks:,} walks checked"

    with progress_bar(walks, "checking the laws", unit="walk") as update:
        def progress(k):
            walked[0] += k
            if update is not None:
                update(k)

        stopped = None
        with Obedient(so_far) as stop:  # Ctrl-C and SIGTERM stop the check within a second, whatever it runs
            try:
                report = run_check(game, examples=args.examples, max_steps=args.max_steps,
                                   exact_limit=args.exact_limit, exact=args.exact, agents=agents, seed=args.seed,
                                   progress=progress, warn=warn, stop=stop, refuse=None if args.force else SLOW)
            except KeyboardInterrupt as error:
                stop.caught()
                stopped = Interrupted(getattr(error, "partial", None) or (), stop.signum or signal.SIGINT)
    if stopped is not None:
        with keep_partial(args, lambda held: _partial_check(args, game, held, walked[0], walks)):
            raise stopped
    if report["passed"]:
        text = f"{report['game']}: every law holds ({report['examples']} walks a law, up to {report['max_steps']} steps)\n"
        text += "\n".join(f"  {law}" for law in report["laws"])
        report, text = _golden_file.apply(args, game, report, text)
    else:
        text = report["failure"]
    emit(args, report | {"spec": args.game_spec}, text)
    if _golden_file.failed(args, report):
        return 1
    if not report["passed"]:  # the verdict is the report above; standard error says it in one line
        law = f"game law {report['law']!r}" if report.get("law") else "a game law"
        problem = (report.get("problem") or "").strip().splitlines()
        problem = f": {problem[0][:300]}" if problem else ""
        print(f"fnmcts: error: {law} fails for {report['game']}{problem} (the shortest walk to it is above)",
              file=sys.stderr)
        return 1
    return 0


def _partial_check(args, game, held, walked: int, walks: int):
    """``(payload, text)`` of a check stopped by Ctrl-C: the walks checked and the laws that held on theirs."""
    payload = {"game": repr(game), "spec": args.game_spec, "examples": args.examples, "seed": args.seed,
               "passed": None, "laws": list(held), "walks_done": walked, "walks": walks, "failure": None}
    laws = ", ".join(held) if held else "none yet"
    return payload, (f"{game_text(game)}: {walked:,} of {walks:,} walks checked; the laws that held on all their walks: {laws}")


def _players(game, command: str) -> None:
    players = getattr(game, "num_players", None)
    if players != 2:
        raise CliError(f"{command} plays two-player games; {game_text(game)} has {players} player(s): try solve or check")


def _any_play(args):
    game = resolve_game(args.game_spec)
    players = getattr(game, "num_players", None)
    if players not in (1, 2):
        raise CliError(f"play plays games of one or two players; {game_text(game)} has {players} player(s): try solve or check")
    return play_verb._play(args)


def _any_tournament(args):
    _players(resolve_game(args.game_spec), "tournament")
    return tournament_verb._tournament(args)


def _any_move(args):
    return move_verb._move(args)


def _any_solve(args):
    game, state, _ = _board._spec_game(args, (), args.state)
    state = game.start() if state is None else state
    who = game.to_move(state)
    if getattr(game, "num_players", None) == 2 and who is not CHANCE:
        return solve_verb._solve(args)
    limit = None if args.force else _board.STATE_LIMIT
    solution = solve(game, state, limit=limit)
    values = solution[state]
    best = best_moves(game, solution, state) if who is not None and who is not CHANCE else ()
    payload = {
        "value": [solve_verb._number(v) for v in values],
        "value_exact": [str(v) for v in values],
        "to_move": None if who is None else "chance" if who is CHANCE else who + 1,
        "best_moves": [move_verb._move_json(m) for m in best],
        "state": state_to_json(game, state),
        "game": move_verb._game_json(game),
        "states": len(solution),
        "solver": "exact",
        **scale_fields(game),
    }
    mover = "nobody (the game is over)" if who is None else "chance" if who is CHANCE else _board._player_name(game, who)
    lines = [render(game, state), f"to move: {mover}", solve_verb._value_line(game, values)]
    if best:
        lines.append("best moves: " + ", ".join(describe_move(game, state, m) for m in best))
    lines.append(f"(solved by the exact solver over {len(solution):,} states)")
    emit(args, payload, "\n".join(lines))


def _game_argument(parser) -> None:
    parser.add_argument("--game", dest="game_spec", required=True, metavar="SPEC", help=f"the game: {GAME_FORMS}")


def register(cli) -> None:
    """Add ``check`` and the ``--game SPEC`` forms of ``play``, ``move``, ``solve`` and ``tournament`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> cli.run(["move", "--game", "tic-tac-toe", "--state", "010001002", "--ai", "exact"])
    exact: O at 6
    0
    """
    p = cli.spec_command("check", "check a game's rules: every game law on random walks, a shrunk counterexample if one fails")
    p.add_argument("--examples", type=positive_count, default=100, metavar="N", help="walks a law (default 100)")
    p.add_argument("--max-steps", type=positive_count, default=None, metavar="N",
                   help="the longest walk and playthrough (default: the game's own bound, else 1,000)")
    p.add_argument("--exact-limit", type=positive_count, default=200_000, metavar="N",
                   help="the exact solver's law solves (sub)games of at most N states (default 200,000)")
    p.add_argument("--no-exact", dest="exact", action="store_false", help="leave out the exact solver's law")
    p.add_argument("--agents", default=None, metavar="NAMES",
                   help="the agents of the agent law, comma-separated (default: every built-in agent that plays it)")
    p.add_argument("--force", action="store_true",
                   help=f"check even when the estimate passes {SLOW:.0f} s or the memory budget (refused up front "
                        "otherwise; the exact laws then stop counting at the budget)")
    _golden_file.add_options(p)
    finish_seeded(p, _check, seed=0)

    where = f"any other GAME: {GAME_FORMS}"
    p = cli.game_option("play", _ANY, f"play any game of one player, or of two against an agent ({where})")
    _game_argument(p)
    p.add_argument("--ai", default="mcts", metavar="NAME", help=f"the opponent: {', '.join(_agents.agent_names())} (default mcts)")
    side = p.add_mutually_exclusive_group()
    side.add_argument("--first", dest="human", action="store_const", const=0, default=0, help="you move first")
    side.add_argument("--second", dest="human", action="store_const", const=1, help="the agent moves first")
    p.add_argument("--games", type=positive_count, default=1, metavar="N", help="how many games (default 1)")
    add_hints(p)
    _agents._agent_options(p)
    add_force(p)
    add_seed(p)
    p.set_defaults(handler=_any_play)

    p = cli.game_option("tournament", _ANY, f"AGENT1 (player 1) against AGENT2 on any two-player game ({where})")
    p.add_argument("agent1", metavar="AGENT1", help=f"player 1: {', '.join(_agents.agent_names())}")
    p.add_argument("agent2", metavar="AGENT2", help="player 2")
    _game_argument(p)
    p.add_argument("--games", type=count, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--workers", type=worker_count, default=1, metavar="W", help="worker processes")
    _agents._agent_options(p)
    add_force(p)
    add_seed(p)
    add_json(p)
    _executor.add_executor(p)
    p.set_defaults(handler=_any_tournament)

    p = cli.game_option("move", _ANY, f"an agent's move at --state in any game ({where})")
    _game_argument(p)
    p.add_argument("--state", default=None, metavar="STATE", help="the position in the game's own form (OpenSpiel: the "
                   "actions from the start, '4,0'); default, or 'start': the start (chance's outcomes first drawn with the seed)")
    p.add_argument("--ai", default="mcts", metavar="NAME", help=f"the agent: {', '.join(_agents.agent_names())} (default mcts)")
    add_hints(p)
    move_verb.move_options(p, reuse=True)  # --reuse-tree: read as before, though one move keeps no tree
    add_force(p)
    finish_seeded(p, _any_move)

    p = cli.game_option("solve", _ANY, f"any game solved exactly: its value and best moves ({where})")
    _game_argument(p)
    p.add_argument("--state", default=None, metavar="STATE", help="solve from this position (default: the start)")
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_any_solve)
