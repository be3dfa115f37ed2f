"""``fnmcts plot NAME``, the old spelling (one release): the tutorial's five pictures by method name.

``pi``, ``mcts``, ``flat-mc``, ``qlearning`` and ``tournament`` draw
``fnmcts.plots``' fixed pictures (``pi_data``, ``mcts_data``, ...) as they
always did, with a warning on standard error naming the new spelling,
``fnmcts plot GAME [--what KIND]`` (``fnmcts.cli.plot``).
"""

from __future__ import annotations

import sys

from ._common import CliError, emit, progress_bar

__all__ = ["BUDGETS", "NEW_SPELLING", "plot_old"]

BUDGETS = {
    "pi": ("darts thrown", "n", 100_000, "dart", lambda n: n),
    "mcts": ("dives", "dives", 100_000, "checkpoint", lambda n: 8),
    "flat-mc": ("rollouts a move", "trials", 1_000, "heap", lambda n: 23),
    "qlearning": ("training games", "games", 10_000, "checkpoint", lambda n: 10),
    "tournament": ("games a pairing", "games", 100, "pairing", lambda n: 10),
}
"""``plot -> (what --budget counts, the data function's argument, its default, the progress unit, progress total)``."""

NEW_SPELLING = {
    "pi": "fnmcts plot darts",
    "mcts": "fnmcts plot shut-the-box",
    "flat-mc": "fnmcts plot GAME --what flat-mc",
    "qlearning": "fnmcts plot GAME --what qlearning",
    "tournament": "fnmcts plot GAME --what tournament",
}
"""The picture of the new spelling nearest to each old one (any game where the old picture had one)."""

_SEEDS = {"pi": 1, "mcts": 2017, "flat-mc": 1, "qlearning": 1, "tournament": 1}


def plot_old(args) -> int:
    """Draw the old picture ``args.game_spec`` (a name of ``BUDGETS``) to ``args.output``, warning on stderr.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from types import SimpleNamespace
    >>> out = Path(tempfile.mkdtemp()) / "pi.svg"
    >>> plot_old(SimpleNamespace(game_spec="pi", output=str(out), budget=100, seed=1, json=False))
    wrote .../pi.svg (pi: darts thrown 100, seed 1)
    0
    >>> from fnmcts.files import release_target
    >>> release_target(out)  # a command's claims end with the command (``fnmcts.cli.main``); called alone, let go here
    """
    name = args.game_spec
    print(f"fnmcts: warning: 'fnmcts plot {name}' is the old spelling, read for one release: "
          f"write {NEW_SPELLING[name]} (see fnmcts plot --help)", file=sys.stderr)
    own = ("what", "points", "state", "agents", "runs")
    given = [f"--{flag}" for flag in own if getattr(args, flag, None) is not None]
    if given:
        raise CliError(f"'fnmcts plot {name}' draws its fixed picture: {', '.join(given)} belong to fnmcts plot GAME")
    if args.output is None:
        raise CliError(f"'fnmcts plot {name}' needs -o FILE.png|svg")
    suffix = args.output.rsplit(".", 1)[-1].lower() if "." in args.output else ""
    if suffix not in ("png", "svg"):
        raise CliError(f"the output must end in .png or .svg, got {args.output!r}")
    try:
        from .. import plots as plots
    except ImportError as error:  # matplotlib missing
        raise CliError(f"{error}: pip install 'fnmcts[plot]'") from None
    from ..files import claim_target

    claim_target(args.output)  # a missing folder, a directory or another writer fails before the work
    what, argument, default, unit, total = BUDGETS[name]
    budget = default if args.budget is None else args.budget
    seed = _SEEDS[name] if args.seed is None else args.seed
    compute = plots.PLOTS[name][0]
    with progress_bar(total(budget), name, unit=unit) as update:
        data = compute(**{argument: budget}, seed=seed, progress=update)
    path = plots.save_figure(plots.figure(name, data), args.output)
    payload = {"file": str(path), "plot": name, "budget": budget, "budget_counts": what, "seed": seed}
    emit(args, payload, f"wrote {path} ({name}: {what} {budget:,}, seed {seed})")
    return 0
