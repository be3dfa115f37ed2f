"""The built-in games: coin and darts (trials), Shut the Box, Nim, multi-pile Nim.

>>> sorted(GAMES)
['nim', 'piles', 'shut-the-box']
>>> GAMES["nim"]()
Nim(heap=21, max_take=3, misere=True)
"""

from pyrsistent import pmap

from .nim import Nim
from .piles import Piles
from .shut_the_box import ShutTheBox

__all__ = ["GAMES", "Nim", "Piles", "ShutTheBox"]

GAMES = pmap({"shut-the-box": ShutTheBox, "nim": Nim, "piles": Piles})
"""Game constructors by their command-line name."""
