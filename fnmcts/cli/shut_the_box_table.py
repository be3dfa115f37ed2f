"""``fnmcts table shut-the-box``: Shut the Box's best-move table (every box and roll) or look-up table (every box).

Any other game's table of exact values is ``fnmcts table GAME`` (``fnmcts.cli.table``).
"""

from __future__ import annotations

import json
import sys

from ..files import claim_target
from ..limits import WORK_LIMIT
from ._common import CliError, add_force, emit, finish_seeded, keep_partial, positive_count, progress_bar
from .shut_the_box import _rules_json, add_rules, fraction_text, game_of, rules_text
from .table import add_format, csv_text, table_format, write_text_atomically

__all__ = ["register"]

_TABLE_HELP = "write a table of exact values for a game"


def register(cli) -> None:
    """Add ``fnmcts table shut-the-box`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["table", "shut-the-box", "--levers", "2", "-o", "-"])  # doctest: +ELLIPSIS
    # Shut the Box best-move table (full, 2 levers rules)...
    0
    """
    p = cli.game_command(
        "table",
        "shut-the-box",
        "write the best-move table (every box and roll: best levers to flip, exact win probability) "
        "or the look-up table (every box: random-play estimate beside the exact value)",
        _TABLE_HELP,
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the file to write ('-' for standard output; a name ending in .csv gets CSV, .json JSON)")
    add_format(p)
    p.add_argument(
        "--kind", choices=("best-move", "lookup"), default="best-move", help="which table (default: best-move)"
    )
    add_rules(p)
    p.add_argument(
        "--games", type=positive_count, default=10_000, metavar="N", help="lookup: random games per box (default 10000)"
    )
    add_force(p)
    finish_seeded(p, _table, seed=1)


def _lookup_text(table, n: int, seed: int, rules: str) -> str:
    from ..tables import format_box

    header = ("box", "exact", "fraction", "estimate", "ci_low", "ci_high", "wins", "games")
    rows = []
    for box in sorted(table, key=lambda b: (-len(b), tuple(sorted(b)))):
        entry = table[box]
        rows.append(
            (
                format_box(box),
                f"{float(entry.exact):.10f}",
                str(entry.exact),
                f"{entry.estimate:.6f}",
                f"{entry.ci_low:.6f}",
                f"{entry.ci_high:.6f}",
                str(entry.wins),
                str(entry.games),
            )
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    lines = [
        f"# Shut the Box look-up table ({rules} rules): every box's probability of winning by random play,",
        f"# exact and estimated from {n} games per box (seed {seed}, one child seed per box), with a 95% Wilson interval",
        line(header),
    ]
    lines.extend(line(r) for r in rows)
    return "\n".join(lines) + "\n"


def _table_rows(kind: str, table) -> list:
    """The rows of a best-move or look-up table as JSON values, in a fixed order.

    >>> from fnmcts.tables import best_move_table
    >>> rows = _table_rows("best-move", best_move_table(levers=3))
    >>> rows[0]
    {'box': [1], 'roll': 2, 'flip': [], 'move': None, 'probability': '0/1', 'value': 0.0, 'ties': 0}
    """
    rows = []
    if kind == "best-move":
        for (box, roll), row in sorted(table.items(), key=lambda kv: (sorted(kv[0][0]), kv[0][1])):
            move = row.move
            rows.append({
                "box": sorted(box), "roll": roll, "flip": list(row.flip),
                "move": sorted(move) if isinstance(move, frozenset) else move,
                "probability": fraction_text(row.probability), "value": float(row.probability), "ties": row.ties,
            })
    else:
        for box, entry in sorted(table.items(), key=lambda kv: sorted(kv[0])):
            rows.append({
                "box": sorted(box), "exact": fraction_text(entry.exact), "exact_value": float(entry.exact),
                "wins": entry.wins, "games": entry.games, "estimate": entry.estimate,
                "ci_low": entry.ci_low, "ci_high": entry.ci_high,
            })
    return rows


def _table(args):
    from ..tables import TIE_RULE, best_move_table, build_tree, format_best_move_table, lookup_table

    if args.output == "-" and args.json:
        raise CliError("--json prints a summary: give -o FILE for the table itself")
    game = game_of(args)
    if args.kind == "lookup" and game.scoring != "win":
        raise CliError("--kind lookup counts wins: use it with --scoring win (the best-move table takes any scoring)")
    if args.output != "-":
        try:
            claim_target(args.output)  # before the work, not after it; another writer is refused
        except ValueError as error:
            raise CliError(str(error)) from None
    rules = rules_text(game).replace(" rules", "", 1)
    options = {"levers": game.levers, "simplified": game.simplified, "dice": game.dice}
    if args.kind == "best-move":
        tree = build_tree(**options, scoring=game.scoring)
        table = best_move_table(**options, scoring=game.scoring, tree=tree)
        value = "probability" if game.scoring == "win" else "value"
        text = format_best_move_table(table, title=f"Shut the Box best-move table ({rules} rules)", value=value)
        start = tree[game.start()]
        payload = {"kind": "best-move", "rows": len(table), "ties": TIE_RULE}
    else:
        from ..games.shut_the_box import all_boxes

        boxes = len(all_boxes(game.levers))

        def describe(done):
            text = _lookup_text(done, args.games, args.seed, rules) if done else ""
            payload = {"kind": "lookup", "rows": len(done), "boxes": boxes, "games_per_box": args.games,
                       "seed": args.seed, "written": False}
            return payload, f"{len(done):,} of {boxes:,} boxes done; nothing written to {args.output}\n{text}"

        with keep_partial(args, describe), progress_bar(boxes * args.games, "lookup table") as update:
            table = lookup_table(args.games, seed=args.seed, **options, progress=update,
                                 limit=None if args.force else WORK_LIMIT)
        text = _lookup_text(table, args.games, args.seed, rules)
        start = table[game.start()].exact
        covered = sum(1 for entry in table.values() if entry.covers())
        payload = {"kind": "lookup", "rows": len(table), "games_per_box": args.games, "seed": args.seed,
                   "covered_by_95_interval": covered}
    kind = table_format(args.output, args.table_format)
    if kind == "csv":
        text = csv_text(_table_rows(args.kind, table))
    elif kind == "json":  # a file named .json holds JSON: one object, its rows as fields
        rows = _table_rows(args.kind, table)
        text = json.dumps(payload | _rules_json(game) | {"row_count": len(rows), "rows": rows}, sort_keys=True) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    path = write_text_atomically(args.output, text)
    payload |= _rules_json(game) | {"start_probability": fraction_text(start), "start_value": float(start)}
    payload["path"] = str(path)
    emit(args, payload, f"wrote the {args.kind} table ({len(table):,} rows, {rules} rules) to {path}")
    return 0
