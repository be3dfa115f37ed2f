"""Record the goldens of the user games of this folder: ``python record_goldens.py`` (Connect Four's).

Each file ``<game>.golden.json`` holds one entry of ``fnmcts.testing.record_golden``
from the game as written here (the trusted run); ``fnmcts mutate`` takes it with ``--golden``.
Kayles's and Pig's were recorded with the public command, from this folder, which
checks the laws first (their entries also hold one seeded playthrough):

    fnmcts check --game kayles:Kayles --record-golden kayles.golden.json
    fnmcts check --game pig:Pig --record-golden pig.golden.json --golden-depth 8

Pig's states repeat (a 1 rolled by both players in turn), so its count stops at 8 plies.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from connect_four import ConnectFour  # noqa: E402

from fnmcts.testing import record_golden  # noqa: E402

GAMES = {"connect_four": (ConnectFour(columns=4, rows=3, length=3), None)}


def main() -> None:
    for name, (game, depth) in GAMES.items():
        entry = record_golden(game, name, depth)
        (HERE / f"{name}.golden.json").write_text(json.dumps({"counts": [entry]}, indent=1) + "\n", encoding="utf-8")
        print(name, repr(game), "depth", depth)


if __name__ == "__main__":
    main()
