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

from ..exact import evaluate_policy, value
from ..files import claim_target
from ..games import GAMES
from ..games.shut_the_box import box_to_mask, box_values
from ..io import load_tree_and_search, save_tree
from ..mcts import mean, search, search_options, visits, win_rate
from ..views import backed_up_values, greedy_policy
from ..views._saved import rng_state_from_json, rng_state_to_json
from ..rng import make_rng, resolve_seed
from ._search_flags import add_search_options, search_flags
from ._common import (
    CliError,
    add_dives,
    Interrupted,
    add_json,
    add_seed,
    count,
    emit,
    keep_partial,
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
        "--seconds", type=_seconds, default=None, metavar="S",
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


def _seconds(text: str) -> float:
    import argparse

    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (number > 0 and math.isfinite(number)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return number


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
    enabled = None if left >= 100_000 or args.seconds is not None else False
    started = time.perf_counter()
    with _stop_on_signals() as stop, progress_bar(left, "dives", enabled=enabled, unit="dive") as update:
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


def _report(game, tree, settings, done, target, ran, seconds, args):
    """``(payload, text)`` of a finished (or stopped) search."""
    root = game.start()
    greedy = value(evaluate_policy(game, greedy_policy(tree), root), root)[0]
    backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree)), root), root)[0]
    optimum = box_values(game)[box_to_mask(root)]  # solve(game, root)'s value, on box masks
    rate = win_rate(tree[root]) if root in tree else None
    if game.scoring != "win":
        return _report_scores(game, tree, settings, done, target, ran, seconds, args, greedy, backed, optimum)
    payload = {
        **_settings_payload(game, settings, done, target),
        "win_rate": rate,
        "greedy_value": float(greedy),
        "greedy_probability": f"{greedy.numerator}/{greedy.denominator}",
        "backed_up_value": float(backed),
        "optimum": float(optimum),
        "optimum_probability": f"{optimum.numerator}/{optimum.denominator}",
        "greedy_share_of_optimum": float(greedy / optimum) if optimum else None,
        **_run_payload(tree, root, ran, seconds, args),
    }
    share = f"{float(greedy / optimum):.1%}" if optimum else "n/a"
    backed_share = f"{float(backed / optimum):.1%}" if optimum else "n/a"
    lines = [
        _heading(game, settings, done),
        f"dives' win rate        {'n/a (no dives)' if rate is None else f'{rate:.4f}'}",
        f"greedy policy (exact)  {float(greedy):.6f}  ({share} of the optimum)",
        f"expectimax read-off    {float(backed):.6f}  ({backed_share} of the optimum)",
        f"optimum (exact)        {float(optimum):.6f}",
        *_proven_lines(payload["proven"], lambda v: f"{v:.6f}"),
    ]
    return payload, "\n".join(lines + _run_lines(tree, settings, done, target, ran, seconds, args, payload["proven"]))


def _heading(game, settings, done) -> str:
    """The report's first line: the rules, the dives and the search's settings."""
    return (f"Shut the Box, {rules_text(game)}: {done:,} dive{'' if done == 1 else 's'}, rule {settings['rule']}, "
            f"backup {settings['backup']}, solver {'on' if settings['solver'] else 'off'}, seed {settings['seed']}")


def _run_payload(tree, root, ran, seconds, args) -> dict:
    """The report's JSON fields about the run (win or score alike): size, time, files, proof."""
    return {
        "states": len(tree),
        "seconds": seconds,
        "dives_per_s": ran / seconds if seconds > 0 else None,
        "resumed_from": args.resume,
        "saved_to": args.save,
        "proven": _proven(tree, root),
    }


def _run_lines(tree, settings, done, target, ran, seconds, args, proven) -> list:
    """The report's lines about the run (win or score alike): tree size, speed, then ``_ending``."""
    speed = f"{ran / seconds:,.0f}" if seconds > 0 else "n/a"
    return [
        f"states in the tree     {len(tree)}" + (f" (at most {settings['max_nodes']:,})" if settings["max_nodes"] else ""),
        f"dives per second       {speed}",
        *_ending(done, target, args, proven is not None),
    ]


def _proven(tree, root):
    """The root's exact value the solver proved, as JSON (a list, one number a player), or None."""
    value = tree[root].get("proven") if root in tree else None
    return None if value is None else [int(x) if x == int(x) else float(x) for x in value]


def _proven_lines(proven, shown) -> list:
    """The report's line of a proven root: its exact value, the search stopped there (none when not proven)."""
    if proven is None:
        return []
    return [f"proven (exact)         {shown(proven[0])}  (the search proved the root and stopped)"]


def _settings_payload(game, settings, done, target) -> dict:
    """The JSON report's first keys: the dives and the search's settings and rules."""
    ucb_name = settings["rule"]
    return {
        "dives": done,
        "target_dives": target,
        "seed": settings["seed"],
        "rule": ucb_name,
        "z": settings["z"] if ucb_name == "tutorial" else None,
        "c": settings["c"] if ucb_name == "ucb1" else None,
        "rules": "simplified" if game.simplified else "full",
        "levers": game.levers,
        "dice": game.dice,
        "scoring": game.scoring,
        "backup": settings["backup"],
        "solver": settings["solver"],
        "max_nodes": settings["max_nodes"],
    }


def _ending(done, target, args, proven=False) -> list:
    """The report's last lines: dives left to do, where the search came from and went."""
    lines = []
    if done < target:
        lines.append(f"dives done             {done:,} of {target:,}" + (" (the root is proven)" if proven else ""))
    if args.resume is not None:
        lines.append(f"resumed from           {args.resume}")
    if args.save is not None:
        lines.append(f"saved to               {args.save} (continue with --resume {args.save})")
    return lines


def _report_scores(game, tree, settings, done, target, ran, seconds, args, greedy, backed, optimum):
    """``(payload, text)`` under a score: expected scores (lower is better), not win shares."""
    root = game.start()
    low, high = game.payoff_range()
    dives_score = -(low + mean(tree[root]) * (high - low)) if root in tree else None
    payload = {
        **_settings_payload(game, settings, done, target),
        "dives_score": dives_score,
        "greedy_score": float(-greedy),
        "greedy_expected_score": f"{-greedy.numerator}/{greedy.denominator}",
        "backed_up_score": float(-backed),
        "optimum_score": float(-optimum),
        "optimum_expected_score": f"{-optimum.numerator}/{optimum.denominator}",
        "greedy_excess": float(optimum - greedy),
        **_run_payload(tree, root, ran, seconds, args),
    }
    lines = [
        _heading(game, settings, done) + " (expected scores: lower is better)",
        f"dives' mean score      {'n/a (no dives)' if dives_score is None else f'{dives_score:.6g}'}",
        f"greedy policy (exact)  {float(-greedy):.6g}  ({float(optimum - greedy):+.6g} over the optimum)",
        f"expectimax read-off    {float(-backed):.6g}  ({float(optimum - backed):+.6g} over the optimum)",
        f"optimum (exact)        {float(-optimum):.6g}",
        *_proven_lines(payload["proven"], lambda v: f"{-v:.6g}"),
    ]
    return payload, "\n".join(lines + _run_lines(tree, settings, done, target, ran, seconds, args, payload["proven"]))
