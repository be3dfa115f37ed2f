"""The built-in games: coin and darts (trials), Shut the Box, Nim, multi-pile Nim, tic-tac-toe, Connect Four, Pig,
Kayles.

``Coin`` and ``Darts`` are the tutorial's trials as games of chance alone, for
the Monte Carlo lab (``fnmcts.lab``); ``GAMES`` holds the games the verbs
take by name.

>>> sorted(GAMES)
['connect-four', 'kayles', 'nim', 'pig', 'piles', 'shut-the-box', 'tic-tac-toe']
>>> GAMES["nim"]()
Nim(heap=21, max_take=3, misere=True)
"""

from ..values import FixedPMap, fixed_pmap

from .coin import Coin
from .connect_four import ConnectFour
from .darts import Darts
from .kayles import Kayles
from .nim import Nim
from .pig import Pig
from .piles import Piles
from .shut_the_box import ShutTheBox
from .tictactoe import TicTacToe

__all__ = ["GAMES", "Coin", "ConnectFour", "Darts", "Kayles", "Nim", "Pig", "Piles", "ShutTheBox", "TicTacToe"]



class _Registry(FixedPMap):
    """A ``fixed_pmap`` of names whose missing name is a KeyError that lists the names, the nearest first.

    >>> GAMES["nimm"]
    Traceback (most recent call last):
    ...
    KeyError: "no game named 'nimm' (did you mean 'nim'?): the games are connect-four, kayles, nim, pig, piles, shut-the-box, tic-tac-toe"
    """

    __slots__ = ()

    def __getitem__(self, name):
        try:
            return FixedPMap.__getitem__(self, name)
        except KeyError:
            from difflib import get_close_matches

            near = get_close_matches(str(name), list(self), 1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise KeyError(f"no game named {name!r}{hint}: the games are {', '.join(sorted(self))}") from None


def _registry(names: dict) -> _Registry:
    """``fixed_pmap(names)`` as a ``_Registry`` (a fresh pmap takes on the class, as ``fixed_pmap`` does)."""
    made = fixed_pmap(names)
    made.__class__ = _Registry
    return made


GAMES = _registry({"shut-the-box": ShutTheBox, "nim": Nim, "piles": Piles, "tic-tac-toe": TicTacToe, "pig": Pig,
                   "kayles": Kayles, "connect-four": ConnectFour})
"""Game constructors by their command-line name."""
