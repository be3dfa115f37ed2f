"""numpy for the games' batch kernels: imported on first use, with a clear error naming the extra.

>>> import random
>>> generator(random.Random(1)).random(2).shape
(2,)
"""

from __future__ import annotations

__all__ = ["numpy", "generator"]

EXTRA = "pip install 'fnmcts[batch]'"


def numpy():
    """The numpy module, or an ``ImportError`` naming the extra that installs it.

    >>> numpy().__name__
    'numpy'
    """
    try:
        import numpy as np
    except ImportError:
        raise ImportError(f"the batch path needs numpy, the batch extra: {EXTRA}") from None
    return np


def generator(rng):
    """A numpy generator seeded by one draw of ``rng`` (a ``random.Random``): the same ``rng``, the same draws.

    >>> import random
    >>> generator(random.Random(5)).random() == generator(random.Random(5)).random()
    True
    """
    return numpy().random.default_rng(rng.getrandbits(64))
