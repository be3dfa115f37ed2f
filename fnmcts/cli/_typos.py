"""argparse's errors for a typo, said with the nearest name: a game, a verb, a flag.

>>> verb_typo("argument COMMAND: invalid choice: 'solv' (choose from 'solve', 'search')")
"argument COMMAND: invalid choice: 'solv' (did you mean 'solve'?; choose from 'solve', 'search')"
"""

from __future__ import annotations

import argparse  # noqa: F401 (the doctests)

from ._games import GAME_FORMS, file_hint

__all__ = ["game_typo", "verb_typo", "unrecognized"]


def game_typo(message: str, command: str) -> str:
    """argparse's "invalid choice" for a game, said as what GAME can be, with the nearest name.

    >>> game_typo("argument GAME: invalid choice: 'nmi' (choose from 'coin', 'nim', 'any')", "simulate")
    "argument GAME: invalid choice: 'nmi' (did you mean 'nim'?); GAME is a built-in game (connect-four, kayles, nim, pig, piles, shut-the-box, tic-tac-toe), openspiel:NAME(params) or module:attribute; simulate also takes coin"
    """
    import difflib
    import re

    from ..games import GAMES

    head, _, choices = message.partition(" (choose from ")
    bad = head.rpartition("invalid choice: ")[2].strip("'")
    names = [name for name in re.findall(r"'([^']*)'", choices) if name != "any"]
    near = difflib.get_close_matches(bad, sorted(set(names) | set(GAMES)), n=1)
    own = sorted(set(names) - set(GAMES))
    return (head + (f" (did you mean {near[0]!r}?)" if near else file_hint(bad)) + f"; GAME is {GAME_FORMS}"
            + (f"; {command} also takes {', '.join(own)}" if own else ""))


def verb_typo(message: str) -> str:
    """argparse's "invalid choice" for a verb, with the nearest verb.

    >>> verb_typo("argument COMMAND: invalid choice: 'serch' (choose from 'solve', 'search')")
    "argument COMMAND: invalid choice: 'serch' (did you mean 'search'?; choose from 'solve', 'search')"
    """
    import difflib
    import re

    head, _, choices = message.partition(" (choose from ")
    bad = head.rpartition("invalid choice: ")[2].strip("'")
    near = difflib.get_close_matches(bad, re.findall(r"'([^']*)'", choices), n=1, cutoff=0.7)
    return f"{head} (did you mean {near[0]!r}?; choose from {choices}" if near else message


def unrecognized(extras: list, parser) -> str:
    """argparse's "unrecognized arguments", with the nearest option of ``parser`` for a mistyped flag.

    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--dives")
    >>> unrecognized(["--dvies", "100"], parser)
    'unrecognized arguments: --dvies 100 (did you mean --dives?)'
    >>> unrecognized(["--frobnicate"], parser), unrecognized(["extra"], parser)
    ('unrecognized arguments: --frobnicate', 'unrecognized arguments: extra')
    """
    import difflib

    options = sorted({flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")})
    flags = [word.partition("=")[0] for word in extras if word.startswith("--")]
    near = {flag: found[0] for flag in flags for found in [difflib.get_close_matches(flag, options, n=1, cutoff=0.75)]
            if found}
    said = [f"did you mean {best}?" if len(flags) == 1 else f"{flag}: did you mean {best}?" for flag, best in near.items()]
    return f"unrecognized arguments: {' '.join(extras)}" + (f" ({'; '.join(said)})" if said else "")
