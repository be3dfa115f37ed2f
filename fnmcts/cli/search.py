"""``fnmcts search shut-the-box``: grow an MCTS tree, then judge it exactly.

Prints the dives' own win rate (the tutorial's measure), the exact win
probability of the greedy policy read off the tree, the optimum, and the
speed in dives per second. Budgets: ``--dives``, ``--seconds`` or both
(whichever comes first), ``--max-nodes`` (a bound on the tree). Ctrl-C (or
SIGTERM) ends the search between two dives: the tree so far is judged and
printed as a normal result, marked partial (exit 130 or 143), and saved with
``--save FILE``; ``--resume FILE`` continues a saved search with its own
settings and generator state, so it ends with the same tree as an
uninterrupted run with the same seed.
"""

from __future__ import annotations

import math
import random
import signal
import threading
import time
from contextlib import contextmanager

from ..files import claim_target
from ..games import GAMES
from ..io import load_tree_and_search, save_tree
from ..mcts import search, search_options, visits
from ..views._saved import rng_state_from_json, rng_state_to_json
from ..rng import make_rng, resolve_seed
from ._search_flags import add_search_options, search_flags
from ._search_report import _report
from ._common import (
    CliError,
    add_dives,
    Interrupted,
    add_json,
    add_seed,
    count,
    emit,
    keep_partial,
    positive_number,
    progress_bar,
)
from .shut_the_box import add_rules, game_of, rules_text

__all__ = ["register"]

_HELP = "grow a Monte Carlo search tree and measure the policy it learned"

DEFAULT_DIVES = 100_000


def register(cli) -> None:
    """Add ``fnmcts search shut-the-box`` (MCTS dives, task 11) to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["search", "shut-the-box", "--dives", "1e3", "--seed", "1"])
    >>> args.dives, args.seed, args.rule, args.backup, args.resume  # unset: the defaults, or the saved search's
    (1000, 1, None, None, None)
    """
    p = cli.game_command("search", "shut-the-box", "MCTS dives on Shut the Box (task 11)", _HELP)
    add_dives(p, help="how many dives in all (default 100000; with --resume, the saved search's own target)")
    p.add_argument(
        "--seconds", type=positive_number("seconds"), default=None, metavar="S",
        help="a time budget: stop after S seconds if the dives are not done",
    )
    p.add_argument(
        "--max-nodes", type=count, default=None, metavar="N",
        help="bound the tree: never more than N states (the least visited leaves go first)",
    )
    p.add_argument("--save", default=None, metavar="FILE", help="write the tree and how to continue it (JSON) to FILE")
    p.add_argument(
        "--resume", default=None, metavar="FILE",
        help="continue the search saved in FILE (its seed, rule and generator state) up to --dives",
    )
    add_seed(p)
    add_search_options(p, old_rule_flag="--ucb")  # --ucb: the old spelling of --rule, for one release
    add_rules(p)
    add_json(p)
    p.set_defaults(handler=_shut_the_box)


class _StopFlag:
    """Set by Ctrl-C or SIGTERM while a search runs: the search ends between two dives."""

    def __init__(self):
        self.signum = None

    def __call__(self) -> bool:
        return self.signum is not None

    def set(self, signum, frame=None):
        self.signum = signum


@contextmanager
def _stop_on_signals():
    """For the block, Ctrl-C and SIGTERM set a ``_StopFlag`` instead of raising (then as before)."""
    flag = _StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    saved = {}
    for number in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(number) is not signal.SIG_IGN:
            saved[number] = signal.signal(number, flag.set)
    try:
        yield flag
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


_SETTINGS = ("seed", "rule", "z", "c", "backup", "solver")


def _settings(args, game=None) -> dict:
    """The search's settings from the command line (the library's defaults filled in), checked."""
    options = search_options(game, **search_flags(args))
    return {
        "seed": resolve_seed(args.seed),  # chosen here when not given, and reported, so the run replays
        "rule": "tutorial" if options.is_tutorial() else "ucb1",
        "z": float(options.z),
        "c": float(options.c),
        "backup": options.backup,
        "solver": options.solver,
        "max_nodes": args.max_nodes,
    }


def _resumed(args):
    """``(game, tree, settings, done, target, rng)`` of the search saved in ``args.resume``."""
    _refuse_settings_given(args)
    try:
        game, tree, saved = load_tree_and_search(args.resume, GAMES)
    except ValueError as error:
        raise CliError(f"cannot resume: {error}") from None
    if not isinstance(game, type(game_of(args))) or saved is None:  # a search of the game this command grows
        raise CliError(f"cannot resume: {args.resume} holds no saved Shut the Box search (write one with --save)")
    settings, done, target, rng = _saved_settings(args.resume, saved)
    _check_saved(args.resume, settings, done, target)
    root = game.start()
    if done and root not in tree:
        raise CliError(f"cannot resume: {args.resume}: the saved tree does not hold the start of {rules_text(game)} "
                       "(its states are of another box)")
    if visits(tree.get(root, {"win": 0, "loss": 0})) != done:
        raise CliError(f"cannot resume: {args.resume}: the tree's root has not seen the {done:,} dives the file says")
    if args.dives is not None:
        target = args.dives
    if target < done:
        raise CliError(f"cannot resume: the saved search has run {done:,} dives already, more than --dives {target:,}")
    return game, tree, settings, done, target, rng


def _refuse_settings_given(args) -> None:
    """Refuse (``CliError``) settings given with ``--resume``: the saved search continues with its own."""
    given = [("--no-solver" if name == "solver" else f"--{name}") for name in _SETTINGS if getattr(args, name) is not None]
    given += ["--simplified"] if args.simplified else []
    given += [f"--{name}" for name, default in (("levers", 9), ("dice", "two"), ("scoring", "win"))
              if getattr(args, name) != default]
    given += ["--max-nodes"] if args.max_nodes is not None else []
    if given:
        raise CliError(f"--resume continues the saved search with its own settings: drop {', '.join(given)}")


def _saved_settings(path, saved) -> tuple:
    """``(settings, done, target, rng)`` read from a saved search (``CliError`` when incomplete or damaged)."""
    try:
        old = {"rule": saved.get("ucb"), "solver": False}  # a search saved before --rule and the solver
        missing = [name for name in (*_SETTINGS, "max_nodes", "done", "dives", "rng") if name not in saved and name not in old]
        if missing:
            raise CliError(f"cannot resume: {path}: the saved search lacks {', '.join(missing)} (incomplete or damaged)")
        settings = {name: saved[name] if name in saved else old[name] for name in (*_SETTINGS, "max_nodes")}
        done, target = saved["done"], saved["dives"]
        rng = random.Random()
        rng.setstate(rng_state_from_json(saved["rng"]))
    except (ValueError, TypeError, OverflowError):
        raise CliError(f"cannot resume: {path}: the saved generator state is damaged") from None
    return settings, done, target, rng


MAX_SAVED_COUNT = 2**53
"""The largest dive count a saved search holds: JSON readers keep whole numbers exact up to 2**53."""


def _whole(value, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= MAX_SAVED_COUNT


def _check_saved(path, settings, done, target) -> None:
    """Refuse saved settings of the wrong kind, naming the field and what it must be."""
    problems = []
    if settings["rule"] not in ("tutorial", "ucb1"):
        problems.append(f"rule {settings['rule']!r} (tutorial or ucb1)")
    if settings["backup"] not in ("mean", "expectimax"):
        problems.append(f"backup {settings['backup']!r} (mean or expectimax)")
    if not isinstance(settings["solver"], bool):
        problems.append(f"solver {settings['solver']!r} (true or false)")
    if not _whole(settings["seed"]):
        problems.append(f"seed {settings['seed']!r} (a whole number, 0 or more)")
    for name in ("z", "c"):
        number = settings[name]
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number < math.inf:
            problems.append(f"{name} {number!r} (a finite number, 0 or more)")
    if settings["max_nodes"] is not None and not _whole(settings["max_nodes"], 2):
        problems.append(f"max_nodes {settings['max_nodes']!r} (null or a whole number from 2 to 2**53)")
    for name, number in (("done", done), ("dives", target)):
        if not _whole(number):
            problems.append(f"{name} {number!r} (a whole number from 0 to 2**53)")
    if problems:
        raise CliError(f"cannot resume: {path}: the saved search holds a bad " + "; a bad ".join(problems))


def _no_dash(args) -> None:
    """``--save -`` and ``--resume -`` name files: a saved search is continued from a file, not a stream."""
    for flag, name in (("--save", args.save), ("--resume", args.resume)):
        if name == "-":
            raise CliError(f"{flag} needs a file name: a saved search is continued with --resume FILE, so it "
                           "cannot go through standard output or input ('-')")


def _shut_the_box(args):
    _no_dash(args)
    if args.resume is not None:
        game, tree, settings, done, target, rng = _resumed(args)
    else:
        game, tree, done = game_of(args), None, 0
        settings = _settings(args, game)
        target = DEFAULT_DIVES if args.dives is None else args.dives
        rng = make_rng(settings["seed"])
    if args.save is not None:
        claim_target(args.save)  # before the search, not after it; another process writing it is refused
    if settings["max_nodes"] is not None and settings["max_nodes"] < 2:
        raise CliError(f"--max-nodes must be at least 2 (the root and one more state), got {settings['max_nodes']}")
    constant = {"z": settings["z"]} if settings["rule"] == "tutorial" else {"c": settings["c"]}
    options = search_options(game, rule=settings["rule"], backup=settings["backup"], solver=settings["solver"],
                             **constant)
    root = game.start()
    left = target - done
    after = None if left >= 100_000 or args.seconds is not None else True  # a short search: a bar once it runs long
    started = time.perf_counter()
    with _stop_on_signals() as stop, progress_bar(left, "dives", unit="dive", after=after) as update:
        tree = search(
            game, root, left, rng, tree, options=options, progress=update,
            seconds=args.seconds, max_nodes=settings["max_nodes"], stop=stop, until_proven=True,
        )
    seconds = time.perf_counter() - started
    ran = (visits(tree[root]) if root in tree else 0) - done
    done += ran
    if args.save is not None:
        session = dict(settings, done=done, dives=target, rng=rng_state_to_json(rng.getstate()))
        save_tree(game, tree, args.save, search=session)
    payload, text = _report(game, tree, settings, done, target, ran, seconds, args)
    with keep_partial(args, lambda report: report):
        if stop.signum is not None:
            raise Interrupted((payload, text), stop.signum)
    emit(args, payload, text)
