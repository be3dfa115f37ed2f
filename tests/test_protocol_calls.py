"""A protocol call reads the game's hook once, in one helper (``_asked``), and still names a hook that is missing."""

import sys

import pytest

import fnmcts.protocol as protocol
from fnmcts.games import Nim, ShutTheBox

CALLS = [
    ("to_move", (Nim(), Nim().start())),
    ("possible_moves", (Nim(), Nim().start())),
    ("chance_outcomes", (ShutTheBox(), ShutTheBox().start())),
    ("play", (Nim(), Nim().start(), 1)),
    ("payoff", (Nim(), Nim().state(0, 1))),
]


def _protocol_frames(function, args) -> list:
    """The names of the Python functions of fnmcts.protocol that run during ``function(*args)``."""
    seen = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == protocol.__file__:
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("name, args", CALLS)
def test_a_protocol_call_runs_no_lookup_helper_before_the_hook(name, args):
    assert _protocol_frames(getattr(protocol, name), args) == [name, "_asked"]


class _Broken(Nim):
    possible_moves = None  # a hook that is no function


class _Raises(Nim):
    def possible_moves(self, state):
        return self.no_such_attribute  # the game's own slip, on its own state


@pytest.mark.parametrize("game, text", [
    (_Broken(), "it has no possible_moves"), (None, "it has no possible_moves"), ("nim", "not the name 'nim'"),
])
def test_a_missing_or_broken_hook_is_named(game, text):
    with pytest.raises(TypeError, match=text) as caught:
        protocol.possible_moves(game, Nim().start())
    assert caught.value.__context__ is None or caught.value.__suppress_context__  # one error in the traceback


def test_a_hook_that_fails_on_its_own_state_raises_its_own_error():
    with pytest.raises(AttributeError, match="no_such_attribute"):
        protocol.possible_moves(_Raises(), Nim().start())
