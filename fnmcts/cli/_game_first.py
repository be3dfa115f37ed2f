"""Flags typed before GAME: ``fnmcts search --dives 200 nim`` read as ``fnmcts search nim --dives 200``.

A verb's flags belong to its game's parser, which argparse reaches only after GAME;
so the words are put in that order before parsing, when it is clear which word is GAME.
"""

from __future__ import annotations

import argparse

from ._common import CliError

__all__ = ["game_first"]


def game_first(command: str, verb, choices: dict, route: str | None, rest: list) -> list:
    """``rest`` with GAME moved before the flags typed ahead of it.

    A word is GAME when the words before it are whole flags of that game's parser (with
    their values); ``route`` names the sub-command that reads any other spec (``None``:
    the verb's own games only). Words that start with a flag of the verb itself (``-h``)
    are left as typed; flags before no game are one line saying the order.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--times", type=int); _ = p.add_argument("--loud", action="store_true")
    >>> game_first("greet", argparse.ArgumentParser(), {"nim": p}, None, ["--times", "2", "--loud", "nim", "-v"])
    ['nim', '--times', '2', '--loud', '-v']
    >>> game_first("greet", argparse.ArgumentParser(), {"nim": p}, None, ["--times", "2", "chess"])
    Traceback (most recent call last):
    fnmcts.cli._common.CliError: no game found after --times 2 chess: write 'fnmcts greet GAME [flags]' (a game's flags come after GAME; an unknown flag or a typo of the game's name also ends here)
    """
    if not rest or not rest[0].startswith("-") or rest[0] in verb._option_string_actions:
        return rest
    for j, word in enumerate(rest):
        if word.startswith("-"):
            continue
        parser = choices.get(word) or (choices[route] if route is not None and _is_spec(word) else None)
        if parser is not None and _flags_end_at(parser, rest[:j]):
            return [word, *rest[:j], *rest[j + 1:]]
    raise CliError(f"no game found after {' '.join(rest[:3])}{' ...' if len(rest) > 3 else ''}: write "
                   f"'fnmcts {command} GAME [flags]' (a game's flags come after GAME; an unknown flag or a "
                   "typo of the game's name also ends here)")


def _is_spec(word: str) -> bool:
    """Whether ``word`` names a game as a spec: a built-in game, ``openspiel:...``, ``module:attribute``, or with parameters.

    >>> _is_spec("nim"), _is_spec("mygames:Connect(rows=4)"), _is_spec("nim(heap=5)"), _is_spec("chess"), _is_spec("-h")
    (True, True, True, False, False)
    """
    from ..games import GAMES

    return not word.startswith("-") and (":" in word or "(" in word or word.strip() in GAMES)


def _flags_end_at(parser, words: list) -> bool:
    """Whether ``words`` are whole flags of ``parser`` with their values (none may be help, nor a positional).

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--dives", type=int); _ = p.add_argument("--json", action="store_true")
    >>> _flags_end_at(p, ["--dives", "5", "--json"]), _flags_end_at(p, ["--dives"]), _flags_end_at(p, ["--json", "5"])
    (True, False, False)
    """
    actions = parser._option_string_actions
    i = 0
    while i < len(words):
        flag, has_value, _ = words[i].partition("=")
        action = actions.get(flag)
        if action is None or isinstance(action, argparse._HelpAction):
            return False
        if has_value or action.nargs == 0:
            i += 1
        elif action.nargs in (None, 1):
            i += 2
        elif action.nargs == "?":
            i += 1 if i + 1 >= len(words) or words[i + 1].startswith("-") else 2
        elif isinstance(action.nargs, int):
            i += 1 + action.nargs
        else:  # "*" or "+": every word up to the next flag
            i += 1
            while i < len(words) and not words[i].startswith("-"):
                i += 1
    return i == len(words)
