"""Record the goldens of the user games of this folder, as ``fnmcts check --record-golden`` would: ``python record_goldens.py``.

Each file ``<game>.golden.json`` holds one entry of ``fnmcts.testing.record_golden``
from the game as written here (the trusted run); ``fnmcts mutate`` takes it with ``--golden``.
Pig's states repeat (a 1 rolled by both players in turn), so its count stops at 8 plies.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from connect_four import ConnectFour  # noqa: E402
from kayles import Kayles  # noqa: E402
from pig import Pig  # noqa: E402

from fnmcts.testing import record_golden  # noqa: E402

GAMES = {"kayles": (Kayles(), None), "pig": (Pig(), 8), "connect_four": (ConnectFour(columns=4, rows=3, length=3), None)}


def main() -> None:
    for name, (game, depth) in GAMES.items():
        entry = record_golden(game, name, depth)
        (HERE / f"{name}.golden.json").write_text(json.dumps({"counts": [entry]}, indent=1) + "\n", encoding="utf-8")
        print(name, repr(game), "depth", depth)


if __name__ == "__main__":
    main()
