"""``fnmcts table GAME -o FILE``: a table of exact values by state, for any game the exact solver can solve.

Every state reachable from the start (or ``--state``), one row each: the
state (its JSON form), who moves there, the exact value of each player and,
where a player moves, the best moves. ``-o -`` prints it (the report then goes
to standard error); a file named ``.json`` gets one JSON object with the rows as
fields, a file named ``.csv`` comma-separated values (``--format`` says it for any name). ``--json`` prints a summary. A solve beyond the size limits names its size and goes on with
``--force``. Shut the Box's best-move and look-up tables keep their own
command (``fnmcts table shut-the-box``). Nothing here names a game.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..exact import best_moves, solve
from ..limits import STATE_LIMIT
from ..protocol import CHANCE, describe_move, game_text, state_to_json
from ._common import add_force, add_json, emit
from ._streams import claim_output, report_stream, to_stdout, write_output
from ._board import state_argument
from ._payoffs import scale_fields, scale_note
from ._games import GAME_FORMS, resolve_game

__all__ = ["register", "value_rows", "write_text_atomically", "table_format", "csv_text", "add_format"]

_HELP = "write a table of exact values for a game"


def register(cli) -> None:
    """Add ``fnmcts table GAME -o FILE`` for any game (a spec) to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["table", "nim(heap=2, max_take=2, misere=False)", "-o", "-"])
    # exact values of Nim(heap=2, max_take=2, misere=False): 4 states reachable from the start; payoffs: each player, the game's own, in [-1, 1]
    state                       to_move    value    best
    {"heap": 2, "player": 1}    1          1 -1     take 2
    {"heap": 1, "player": 2}    2          -1 1     take 1
    {"heap": 0, "player": 1}    -          -1 1
    {"heap": 0, "player": 2}    -          1 -1
    0
    """
    p = cli.game_option("table", "any", f"every state's exact values and best moves, for any game (GAME: {GAME_FORMS})", _HELP)
    p.add_argument("--game", dest="game_spec", required=True, metavar="SPEC", help=f"the game: {GAME_FORMS}")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the file to write ('-' for standard output; a name ending in .csv gets CSV, .json JSON)")
    p.add_argument("--state", default=None, metavar="STATE", help="the states reachable from this one (default: the start)")
    add_format(p)
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_table)


def add_format(parser) -> None:
    """``--format text|csv|json``: what the table file holds (default: from its name).

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_format(parser)
    >>> parser.parse_args(["--format", "csv"]).table_format, parser.parse_args([]).table_format
    ('csv', None)
    """
    parser.add_argument("--format", choices=("text", "csv", "json"), default=None, dest="table_format",
                        help="what FILE holds: text (aligned columns), csv or json (default: csv for a name "
                             "ending in .csv, json for .json, else text)")


def table_format(output: str, chosen: str | None) -> str:
    """The format of a table written to ``output``: ``chosen`` (``--format``), else the file name's suffix, else text.

    >>> table_format("values.CSV", None), table_format("v.json", None), table_format("-", None), table_format("-", "csv")
    ('csv', 'json', 'text', 'csv')
    """
    if chosen is not None:
        return chosen
    suffix = Path(output).suffix.lower()
    return {".csv": "csv", ".json": "json"}.get(suffix, "text")


def csv_text(rows: list) -> str:
    """Rows (dicts with the same keys) as CSV with a header line; a list cell is its items joined by spaces.

    >>> print(csv_text([{"box": [1, 2], "roll": 3, "move": "flip 1, 2"}]), end="")
    box,roll,move
    1 2,3,"flip 1, 2"
    """
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(rows[0].keys() if rows else ())
    for row in rows:
        writer.writerow(" ".join(str(v) for v in cell) if isinstance(cell, list) else "" if cell is None else cell
                        for cell in row.values())
    return out.getvalue()


def _number(value):
    return int(value) if value == int(value) else float(value)


def value_rows(game, solution, start) -> list:
    """The table's rows as JSON values: every state of ``solution`` in the order a walk from ``start`` meets them.

    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=1, max_take=1)
    >>> value_rows(game, solve(game), game.start())[0]
    {'state': {'heap': 1, 'player': 1}, 'to_move': 1, 'value': [-1, 1], 'value_exact': ['-1', '1'], 'best_moves': ['take 1']}
    """
    order, seen, stack = [], {start}, [start]
    while stack:  # depth first, children in move order: the same order every run
        state = stack.pop()
        order.append(state)
        who = game.to_move(state)
        if who is None:
            continue
        children = [game.play(state, o) for o, _ in game.chance_outcomes(state)] if who is CHANCE else [
            game.play(state, m) for m in game.possible_moves(state)]
        for child in reversed(children):
            if child not in seen and child in solution:
                seen.add(child)
                stack.append(child)
    rows = []
    for state in order:
        who = game.to_move(state)
        values = solution[state]
        best = best_moves(game, solution, state) if who is not None and who is not CHANCE else ()
        rows.append({
            "state": state_to_json(game, state),
            "to_move": None if who is None else "chance" if who is CHANCE else who + 1,
            "value": [_number(v) for v in values],
            "value_exact": [str(v) for v in values],
            "best_moves": [describe_move(game, state, m) for m in best],
        })
    return rows


def _text(game, rows) -> str:
    cells = [(json.dumps(r["state"]), "-" if r["to_move"] is None else str(r["to_move"]),
              " ".join(r["value_exact"]), ", ".join(r["best_moves"])) for r in rows]
    header = ("state", "to_move", "value", "best")
    widths = [max(len(h), *(len(c[i]) for c in cells)) + 4 for i, h in enumerate(header[:3])]

    def line(row):
        return "".join(cell.ljust(w) for cell, w in zip(row[:3], widths)).rstrip() + (
            " " * (widths[2] - len(row[2])) + row[3] if row[3] else "")

    title = f"# exact values of {game_text(game)}: {len(rows):,} states reachable from the start; {scale_note(game, 'each player')}"
    return "\n".join([title, line(header), *(line(c) for c in cells)]) + "\n"


def write_text_atomically(path, text: str) -> Path:
    """``fnmcts.files.write_atomically`` with its errors as one-line command-line errors (``-``: standard output).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_text_atomically(folder / "t.txt", "box roll\\n").read_text()
    'box roll\\n'
    >>> write_text_atomically(folder, "x")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: ... is a directory: give the name of a file to write
    """
    where = write_output(path, text)
    return Path(path) if to_stdout(path) else Path(where)


def _table(args):
    game = resolve_game(args.game_spec)
    start = state_argument(game, args.state)
    claim_output(args.output)  # before the work, not after it
    solution = solve(game, start, limit=None if args.force else STATE_LIMIT)
    rows = value_rows(game, solution, start)
    text = _text(game, rows)
    from .move import _game_json

    kind = table_format(args.output, args.table_format)
    if kind == "csv":  # one column per player's exact value; the state as its JSON form
        text = csv_text([{"state": json.dumps(r["state"], sort_keys=True), "to_move": r["to_move"],
                          **{f"value_{i + 1}": v for i, v in enumerate(r["value_exact"])},
                          "best_moves": " | ".join(r["best_moves"])} for r in rows])
    elif kind == "json":
        text = json.dumps({"game": _game_json(game), "row_count": len(rows), "rows": rows, **scale_fields(game)},
                          sort_keys=True) + "\n"
    where = write_output(args.output, text)
    payload = {"kind": "exact-values", "rows": len(rows), "path": where, "start_value": rows[0]["value"],
               "start_value_exact": rows[0]["value_exact"], "game": _game_json(game), **scale_fields(game)}
    with report_stream(args):  # with -o -, standard output holds the table: the report goes to standard error
        emit(args, payload, f"wrote the exact values of {len(rows):,} states of {game_text(game)} to {where}")
    return 0
