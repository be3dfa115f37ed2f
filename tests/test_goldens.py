"""The goldens shipped with fnmcts.testing: every count and Grundy value a game must give, checked.

A fast subset runs with the README's test command: tic-tac-toe, Nim, piles,
Shut the Box, Kayles in full; Connect Four through OpenSpiel to 5 plies, chess
perft to 3. Connect Four to 8 plies and perft 4 are marked slow.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap
from closed_forms import nim, piles, shut_the_box_states

from fnmcts.testing import check_count, check_grundy, game_of, golden, goldens

COUNTS = goldens()["counts"]


def _fast_depth(entry):
    return entry.get("slow_from_depth", 10**9) - 1


@pytest.mark.slow
@pytest.mark.parametrize("entry", COUNTS, ids=[e["name"] for e in COUNTS])
def test_a_count_agrees_with_its_golden(entry):
    if entry["game"].startswith("openspiel:"):
        pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    depth = _fast_depth(entry) if "slow_from_depth" in entry else None
    assert check_count(entry, depth=depth) == ()


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in COUNTS if "slow_from_depth" in e], ids=lambda e: e["name"])
def test_a_long_count_agrees_with_its_golden_to_its_last_ply(entry):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    assert check_count(entry) == ()


def test_kayles_grundy_values_are_oeis_a002186():
    assert check_grundy(golden("kayles")) == ()
    assert len(golden("kayles")["values"]) == 105  # n = 0..104


def test_the_closed_form_goldens_are_what_the_closed_forms_give():
    # the numbers in the file are the formulas' (tests/closed_forms.py), not a count's
    for name, form in [("nim 21, take 1-3, misere", nim(21, 3, True)), ("nim 10, take 1-4", nim(10, 4, False)),
                       ("piles 1 3 5 7, misere", piles((1, 3, 5, 7), True))]:
        entry = golden(name)
        assert list(entry["states_by_ply"]) == form["plies"]
        assert list(entry["histories_by_ply"]) == form["histories"]
        assert list(entry["games_by_ply"]) == form["games"]
        assert entry["states"] == form["states"] and dict(entry["games_by_outcome"]) == form["outcomes"]
    assert golden("shut the box")["states"] == shut_the_box_states(9)


def test_the_published_sums_hold_within_the_file():
    ttt, symmetric = golden("tic-tac-toe"), golden("tic-tac-toe up to symmetry")
    assert sum(ttt["states_by_ply"]) == ttt["states"] and sum(symmetric["states_by_ply"]) == symmetric["states"]
    assert sum(ttt["games_by_outcome"].values()) == ttt["games"]


def test_a_golden_catches_a_rule_slip():
    from dataclasses import dataclass

    from fnmcts.games import TicTacToe
    from fnmcts.games.tictactoe import LINES

    @dataclass(frozen=True)
    class NoDiagonals(TicTacToe):
        """Three in a row on a diagonal does not end the game (nor win it)."""

        def _line(self, state):
            return any(state[a] and state[a] == state[b] == state[c] for a, b, c in LINES[:6])

        def to_move(self, state):
            if self._line(state) or 0 not in state:
                return None
            return 0 if state.count(1) == state.count(2) else 1

        def possible_moves(self, state):
            return tuple(i for i in range(9) if state[i] == 0) if self.to_move(state) is not None else ()

        def play(self, state, move):
            return state[:move] + ((1 if self.to_move(state) == 0 else 2),) + state[move + 1:]

        def payoff(self, state):
            for a, b, c in LINES[:6]:
                if state[a] and state[a] == state[b] == state[c]:
                    return (1, -1) if state[a] == 1 else (-1, 1)
            return (0, 0)

    found = check_count(golden("tic-tac-toe"), game=NoDiagonals())
    # the first plies agree (no line can be made before ply 5); the slip shows from ply 6 on
    assert found and found[0].startswith("states_by_ply: [1, 9, 72, 252, 756, 1260, ")


def test_an_unknown_golden_lists_the_names():
    with pytest.raises(ValueError, match="no golden called 'go'; there are: tic-tac-toe, "):
        golden("go")


def test_the_goldens_name_their_games_and_sources():
    for entry in list(goldens()["counts"]) + list(goldens()["grundy"]):
        assert entry["source"]
        if not entry["game"].startswith("openspiel:"):
            assert game_of(entry) is not None


# Goldens that pin who moves: per ply, the states each player is to move at, and the chance nodes.

def _user_tic_tac_toe():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from bench_engine import UserTicTacToe
    finally:
        sys.path.pop(0)
    return UserTicTacToe


def _with_to_move(base, to_move):
    """The user's tic-tac-toe with another ``to_move`` (a slip a mutant makes)."""
    return type("Slipped", (base,), {"to_move": to_move})()


def test_the_user_tic_tac_toe_agrees_with_every_number_of_the_golden():
    assert check_count(golden("tic-tac-toe"), game=_user_tic_tac_toe()()) == ()


@pytest.mark.parametrize("slip", ["swapped", "always X", "always O"])
def test_a_to_move_naming_the_wrong_player_fails_the_golden_on_who_moves_alone(slip):
    base = _user_tic_tac_toe()

    def to_move(self, board):
        right = base.to_move(self, board)
        if right is None:
            return None
        return {"swapped": 1 - right, "always X": 0, "always O": 1}[slip]

    found = check_count(golden("tic-tac-toe"), game=_with_to_move(base, to_move))
    # the states, histories and outcomes of the slipped game are the same: only who moves tells it
    assert [line.split(":")[0] for line in found] == ["to_move_by_ply"]


def test_a_golden_recorded_before_who_moves_still_checks_and_says_what_it_lacks():
    from fnmcts.testing import GoldenWarning

    old = {key: value for key, value in golden("tic-tac-toe").items() if key not in ("to_move_by_ply", "chance_by_ply")}
    with pytest.warns(GoldenWarning, match="does not pin who moves .*to_move_by_ply, chance_by_ply"):
        assert check_count(old, depth=3) == ()
    with pytest.warns(GoldenWarning):  # and it still finds what it holds
        assert check_count(old, depth=3, game=game_of(golden("nim 10, take 1-4"))) != ()


from hypothesis import given, settings  # noqa: E402

from fnmcts.testing import playthrough, random_games, record_golden  # noqa: E402
from hypothesis import settings  # noqa: E402


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(random_games(max_states=300, repeats=False))
def test_a_recorded_golden_checks_its_own_game_and_survives_json(game):
    import json

    entry = json.loads(json.dumps(record_golden(game)))
    assert check_count(entry, game=game) == ()
    counted = count_of(game)
    assert entry["chance_by_ply"] == [ply.chance for ply in counted.plies]
    assert [sum(row) for row in entry["to_move_by_ply"]] == [ply.decisions for ply in counted.plies]


def count_of(game):
    from fnmcts.testing import count

    return count(game)


@settings(max_examples=30, deadline=None)
@given(random_games(players=(2, 3), max_states=300, repeats=False))
def test_a_golden_fails_a_game_whose_to_move_rotates_the_players(game):
    counted = count_of(game)
    if not any(ply.movers[0] != ply.movers[1] for ply in counted.plies):
        return  # the rotation changes no count: nothing to see
    entry = record_golden(game)

    class Rotated:
        num_players = game.num_players

        def __getattr__(self, name):
            return getattr(game, name)

        def to_move(self, state):
            who = game.to_move(state)
            return who if who is None or not isinstance(who, int) else (who + 1) % game.num_players

    found = check_count(entry, game=Rotated())
    assert any(line.startswith("to_move_by_ply") for line in found)


def test_a_game_that_never_ends_differs_from_a_golden_at_its_first_plies_instead_of_counting_on():
    base = _user_tic_tac_toe()

    def play(self, board, move):  # every move lengthens the board: the game goes on for ever
        return board[:move] + (1 if board.count(1) == board.count(2) else 2,) + board[move:]

    found = check_count(golden("tic-tac-toe"), game=type("Longer", (base,), {"play": play})())
    assert found and found[0].startswith("states_by_ply: [1, 9, 72] expected, [1, 9, ")


def test_a_game_one_ply_longer_than_its_golden_differs_in_its_plies():
    from fnmcts.games import Nim

    from fnmcts.testing import GoldenWarning

    entry = {"name": "heap 2", "states_by_ply": [1, 1, 1]}  # Nim(heap=2, max_take=1): two plies, then the end
    with pytest.warns(GoldenWarning):
        assert check_count(entry, game=Nim(heap=2, max_take=1)) == ()
    with pytest.warns(GoldenWarning):  # a third ply: counted one ply past the golden's end, and seen
        assert check_count(entry, game=Nim(heap=3, max_take=1)) == (
            "states_by_ply: [1, 1, 1] expected, [1, 1, 1, 1] counted",)


@given(st.dictionaries(st.text(max_size=8), st.integers(0, 9), min_size=1, max_size=6), st.randoms())
def test_a_difference_shows_a_mapping_in_the_same_order_whatever_order_it_was_built_in(counts, rng):
    """A golden's mappings are frozen maps, ordered by their keys' hashes, which differ between processes: the text of
    a difference (a mutant's reason, compared across workers) must not follow that order."""
    from fnmcts.testing.goldens import _differ

    items = list(counts.items())
    shuffled = items[:]
    rng.shuffle(shuffled)
    counted = {k: v + 1 for k, v in items}
    assert _differ("games_by_outcome", pmap(dict(shuffled)), counted) == _differ("games_by_outcome", dict(items), counted)
    assert _differ("games_by_outcome", dict(shuffled), counted)[0].startswith(
        f"games_by_outcome: {dict(sorted(items, key=lambda item: repr(item[0])))!r} expected")


# -- a golden recorded from a trusted run holds one seeded playthrough -----------------------------------------


class _EndsRenamed:
    """``game`` with its end states written otherwise (``state_to_json``): the same counts, other states' values."""

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        return getattr(self.game, name)

    def __repr__(self):
        return f"Renamed({self.game!r})"  # the playthrough's game line is not compared: the name may differ

    def state_to_json(self, state):
        data = self.game.state_to_json(state)
        return {"end": data} if self.game.to_move(state) is None else data


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(random_games(max_states=80, repeats=False), st.integers(0, 50))
def test_a_recorded_golden_replays_its_playthrough_and_fails_a_game_whose_ends_hold_other_values(game, seed):
    import json

    entry = json.loads(json.dumps(record_golden(game, "mine", playthrough_seed=seed)))
    assert entry["playthrough"] == playthrough(game, seed).splitlines()
    assert check_count(entry, game=game) == ()
    renamed = _EndsRenamed(game)
    found = check_count(entry, game=renamed)
    assert len(found) == 1 and found[0].startswith(f"playthrough of seed {seed}: line "), found  # no count sees it
    number = int(found[0].split("line ")[1].split(":")[0])
    assert entry["playthrough"][number - 1].startswith("state: ")
    after = [line for line in entry["playthrough"][number:] if line.startswith("to move: ")]
    assert after[0] == "to move: nobody (the game is over)"  # the line is the end state's
    counts_only = {k: v for k, v in entry.items() if k != "playthrough"}  # an older golden: it checks what it holds
    assert check_count(counts_only, game=renamed) == () == check_count(counts_only, game=game)


def test_a_golden_of_nim_fails_the_game_whose_end_state_is_written_otherwise_and_its_counts_alone_pass_it():
    from fnmcts.games import Nim

    game = Nim(heap=4, max_take=2)
    entry = record_golden(game, "nim 4")
    assert check_count(entry, game=game) == ()
    (found,) = check_count(entry, game=_EndsRenamed(game))
    assert found.startswith("playthrough of seed 0: line ") and '"state: {"end":{"heap":0,' in found, found
    assert check_count({k: v for k, v in entry.items() if k != "playthrough"}, game=_EndsRenamed(game)) == ()


def test_the_named_goldens_hold_counts_alone_and_a_golden_may_be_recorded_without_a_playthrough():
    from fnmcts.games import Nim

    assert not any("playthrough" in entry for entry in COUNTS)  # the game's numbers, shared by every implementation
    assert "playthrough" not in record_golden(Nim(heap=3), playthrough_seed=None)
    assert record_golden(Nim(heap=3), playthrough_seed=4)["playthrough"][2] == "seed: 4"
    for bad in (-1, 1.5, True, "0"):
        with pytest.raises(ValueError, match="playthrough_seed is a whole number"):
            record_golden(Nim(heap=3), playthrough_seed=bad)


def test_a_golden_whose_playthrough_is_not_one_says_so_and_a_larger_game_differs_at_its_first_state():
    from fnmcts.games import Nim

    entry = record_golden(Nim(heap=3, max_take=1), "three")
    with pytest.raises(ValueError, match="golden 'three': its playthrough is not one"):
        check_count(entry | {"playthrough": ["my notes"]}, game=Nim(heap=3, max_take=1))
    found = _replayed_only(entry, Nim(heap=5, max_take=1))  # the counts aside: the start differs
    assert found == ('playthrough of seed 0: line 8: the file says "state: {"heap":3,"player":1}", '
                     'the game gives "state: {"heap":5,"player":1}"',)


def _replayed_only(entry, game):
    from fnmcts.testing.goldens import _replayed

    return _replayed(entry, game)
