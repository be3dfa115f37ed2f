"""``--trees N`` with ``--workers W`` or ``--executor KIND``: one search as N independent trees, grown anywhere.

``search GAME`` and ``move GAME --ai mcts`` search once by default. With
``--trees N`` (N of 2 or more) the dives are split into N independent
searches from the state, tree ``i`` drawing from its own child seed, and the
root's statistics are summed before the move is chosen: the library's
root-parallel ``fnmcts.mcts.mcts_move(..., trees=N)``. The trees run in this
process, on ``--workers W`` processes (kept for the command: each worker builds
the game's graph once) or on ``--executor KIND`` (``fnmcts.cli._executor``);
the result depends on the seed and N alone, never on where the trees ran.

A root-parallel search grows fresh trees on ``--dives`` alone, from a state
where a player moves: ``--seconds``, ``--root`` and a chance node are refused in
one line, and so are ``--workers`` or ``--executor`` without ``--trees``.

``--batch K`` instead grows one tree, its dives selected K a step and their
playouts run on the workers or the executor: ``mcts_move(..., batch=K)``,
the same tree for a seed and K wherever the playouts ran.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_trees(parser)
>>> args = parser.parse_args(["--trees", "4", "--workers", "2"])
>>> with tree_options(args) as options:
...     options
{'trees': 4, 'workers': 2}
"""

from __future__ import annotations

from contextlib import contextmanager

from ..limits import many
from ._common import CliError, positive_count, worker_count
from ._executor import add_executor, open_executor

__all__ = ["add_trees", "tree_options", "trees_of"]


def add_trees(parser) -> None:
    """Give ``parser`` ``--trees N``, ``--workers W`` and ``--executor KIND`` (see this module).

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_trees(parser)
    >>> args = parser.parse_args([])
    >>> args.trees, args.workers, args.executor
    (None, 1, None)
    """
    parser.add_argument(
        "--trees", type=positive_count, default=None, metavar="N",
        help="mcts: split the dives into N independent trees from the state, their root statistics summed "
             "(root-parallel search; default one tree); the same result for a seed wherever they run",
    )
    parser.add_argument(
        "--batch", type=positive_count, default=None, metavar="K",
        help="mcts: one tree, its dives selected K a step (pending visits counted) and their playouts run on the "
             "--workers or --executor; the same tree for a seed and K wherever they run",
    )
    parser.add_argument("--workers", type=worker_count, default=1, metavar="W",
                        help="worker processes that grow the --trees or run the --batch playouts (default 1: this process)")
    add_executor(parser)


def trees_of(args) -> int:
    """The number of trees ``args`` asks for: ``--trees``, else 1.

    >>> import argparse
    >>> trees_of(argparse.Namespace(trees=None)), trees_of(argparse.Namespace(trees=3))
    (1, 3)
    """
    return getattr(args, "trees", None) or 1


@contextmanager
def tree_options(args, seconds=None, root=None, dives=None):
    """``mcts_move``'s keywords for the trees ``args`` asks for: ``{}`` for one tree, else ``trees`` and where.

    ``seconds`` and ``root`` are the search's time budget and root rule, which
    a search of several trees refuses (``CliError``), ``dives`` its budget of
    dives, which must give each tree one at least. The executor opened for the
    trees is closed on every exit path.

    >>> import argparse
    >>> with tree_options(argparse.Namespace(trees=None, workers=1, executor=None)) as options:
    ...     options
    {}
    >>> with tree_options(argparse.Namespace(trees=None, workers=2, executor=None)) as options:
    ...     pass
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --workers and --executor run the trees of a root-parallel search: give --trees N too (N of 2 or more)
    """
    trees, spec, batch = trees_of(args), getattr(args, "executor", None), getattr(args, "batch", None)
    if batch is not None:
        with _batch_options(args, batch, trees, seconds, root) as where:
            yield where
        return
    if trees == 1:
        if getattr(args, "workers", 1) > 1 or spec is not None:
            raise CliError("--workers and --executor run the trees of a root-parallel search: "
                           "give --trees N too (N of 2 or more)")
        yield {}
        return
    if seconds is not None:
        raise CliError("--trees grows fresh trees on --dives alone: drop --seconds")
    if dives is not None and trees > dives:  # a tree without a dive adds nothing: every move would show 0 visits
        raise CliError(f"--trees {many(trees)} is more than --dives {many(dives)}: each tree grows on one dive at "
                       "least (the dives are split among the trees)")
    if root is not None:
        raise CliError("--root plans the dives of one search: drop it, or --trees")
    if spec is not None and getattr(args, "workers", 1) > 1:
        raise CliError("give --workers N or --executor KIND, not both (--workers N is --executor processes:N)")
    if spec is None or spec.kind == "processes":  # the library's kept pool: a worker builds the game's graph once
        yield {"trees": trees, "workers": args.workers if spec is None else spec.value}
        return
    with open_executor(args) as executor:
        yield {"trees": trees, "executor": executor}


@contextmanager
def _batch_options(args, batch, trees, seconds, root):
    """``mcts_move``'s keywords for ``--batch K``: ``batch`` and where its playouts run (``tree_options``).

    >>> import argparse
    >>> with _batch_options(argparse.Namespace(workers=2, executor=None), 8, 1, None, None) as options:
    ...     options
    {'batch': 8, 'workers': 2}
    """
    if trees > 1:
        raise CliError("give --trees N (independent trees) or --batch K (one tree, K dives a step), not both")
    if seconds is not None:
        raise CliError("--batch runs on --dives alone: drop --seconds")
    if root is not None:
        raise CliError("--root plans the dives of one search: drop it, or --batch")
    spec = getattr(args, "executor", None)
    if spec is not None and getattr(args, "workers", 1) > 1:
        raise CliError("give --workers N or --executor KIND, not both (--workers N is --executor processes:N)")
    if spec is None or spec.kind == "processes":  # the library's kept pool: a worker loads the game once
        yield {"batch": batch, "workers": args.workers if spec is None else spec.value}
        return
    with open_executor(args) as executor:
        yield {"batch": batch, "executor": executor}
