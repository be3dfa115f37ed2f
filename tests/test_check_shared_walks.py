"""``check_game`` draws its walks once and every later law replays them: the same walks, the same verdicts."""

from __future__ import annotations

import pytest

from fnmcts.games.nim import Nim
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.testing import check_game, find_counterexample
from fnmcts.testing.check import _describe
from fnmcts.testing.mutate import mutant_game, mutants

PLAIN_LAWS = ("moves_stable_and_legal", "play_pure", "hash_consistent", "terminal_iff_nobody_to_move",
              "chance_probabilities", "payoff_in_range", "json_round_trip", "text_hooks", "playthrough_ends")
"""The laws that take no option from ``check_game`` (no solution, no agents): alone, each is its own hypothesis run."""


def _spies(seen: list):
    """Laws that hold everywhere and write down what they are shown: two without an rng, two with one."""

    def law_first(game, state):
        seen.append(("first", repr(state)))

    def law_second(game, state):
        seen.append(("second", repr(state)))

    def law_first_rng(game, state, rng):
        seen.append(("first_rng", repr(state), rng.random()))

    def law_second_rng(game, state, rng):
        seen.append(("second_rng", repr(state), rng.random()))

    return law_first, law_second, law_first_rng, law_second_rng


@pytest.mark.parametrize("game", [Nim(heap=9, max_take=3), ShutTheBox(levers=4)], ids=repr)
def test_every_law_of_a_check_is_shown_the_walks_and_rng_it_would_draw_alone(game):
    together = []
    check_game(game, laws=list(_spies(together)), max_examples=10, seed=3)
    for law in _spies(alone := []):
        find_counterexample(game, law, max_examples=10, seed=3)  # its own hypothesis run, as before the sharing
    name = lambda entry: entry[0]  # noqa: E731
    for law in ("first", "second", "first_rng", "second_rng"):
        mine = [e[1:] for e in together if name(e) == law]
        assert mine and mine == [e[1:] for e in alone if name(e) == law], law
    assert [e[1:] for e in together if name(e) == "first"] == [e[1:] for e in together if name(e) == "second"]


def _verdict_alone(game, laws, examples):
    """What ``check_game`` said before it shared walks: each law its own hypothesis run, the first failure told."""
    for law in laws:
        found = find_counterexample(game, law, max_examples=examples)
        if found is not None:
            return _describe(game, found._replace(law=law))
    return None


def _verdict(game, laws, examples):
    try:
        check_game(game, laws=list(laws), max_examples=examples)
    except AssertionError as error:
        return str(error)
    return None


def _killed_the_same(indices, examples):
    game = Nim(heap=5)
    killed = 0
    for i in indices:
        twin = mutant_game(game, i)
        before, now = _verdict_alone(twin, PLAIN_LAWS, examples), _verdict(twin, PLAIN_LAWS, examples)
        assert now == before, mutants(game)[i].description
        killed += now is not None
    return killed


def test_a_mutant_killed_by_laws_drawn_one_by_one_is_killed_alike_by_the_check_that_shares_them():
    assert _killed_the_same((9,), examples=10) == 1  # its fourth law fails: three laws replayed the first's walks


@pytest.mark.slow
def test_every_mutant_of_nim_gets_the_verdict_it_got_when_each_law_drew_its_own_walks():
    assert _killed_the_same(range(0, len(mutants(Nim(heap=5))), 5), examples=100) >= 3
