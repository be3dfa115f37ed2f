"""Playthroughs as a mutant's check (``mutate(..., playthroughs=)``, ``fnmcts mutate --playthrough``).

A playthrough pins what the golden counts cannot: the states' own values, the
player to move and the payoffs along one seeded game. The check's verdict is
``check_playthrough``'s on the mutant, by definition.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.cli import main
from fnmcts.games.nim import Nim
from fnmcts.testing import PlaythroughsCheck, check_playthrough, mutant_game, mutants, mutate, playthrough

GAME = Nim(heap=4)
OPERATORS = ["payoff_players", "comparison"]


@lru_cache(maxsize=None)
def _indices() -> list:
    return [m.index for m in mutants(GAME, OPERATORS)]


@lru_cache(maxsize=None)
def _mutant(index):
    """A mutant of ``GAME``, made once for the whole property (making one parses and compiles the class)."""
    return mutant_game(GAME, index, OPERATORS)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 50), st.data())
def test_a_mutant_dies_of_a_playthrough_exactly_when_it_plays_the_text_differently(seed, data):
    text = playthrough(GAME, seed=seed)
    index = data.draw(st.sampled_from(_indices()))
    mutant = _mutant(index)
    try:
        differs = check_playthrough(mutant, text)
    except Exception as error:  # a mutant that raises while played: the check dies of it too
        differs = repr(error)
    try:
        PlaythroughsCheck((text,))(mutant)
        killed = False
    except Exception as error:
        killed = True
        if isinstance(error, AssertionError):
            assert str(error).startswith(f"playthrough of seed {seed}: ")
    assert killed == (differs is not None)


def test_mutate_names_the_check_and_its_reason():
    report = mutate(GAME, laws=False, playthroughs=[playthrough(GAME, seed=1)], operators=["payoff_players"], budget=None)
    assert report.checks == ("playthroughs",)
    assert report.total > 0 and report.killed > 0
    assert all(v.reason.startswith("playthroughs: ") for v in report.verdicts if v.killed)


def test_a_text_that_is_not_a_playthrough_or_a_lone_text_is_refused():
    with pytest.raises(TypeError, match="not one text"):
        mutate(GAME, laws=False, playthroughs=playthrough(GAME, seed=1))
    with pytest.raises(ValueError, match="not an fnmcts playthrough"):
        mutate(GAME, laws=False, playthroughs=["a shopping list"])


def test_the_command_reads_playthrough_files_and_refuses_a_bad_one_in_one_line(tmp_path, capsys):
    good = tmp_path / "nim.txt"
    good.write_text(playthrough(GAME, seed=2), encoding="utf-8")
    bad = tmp_path / "notes.txt"
    bad.write_text("not a playthrough\n", encoding="utf-8")
    for path, says in ((tmp_path / "missing.txt", "missing.txt: "), (bad, "is not a playthrough of fnmcts")):
        code = main(["mutate", "nim(heap=4)", "--no-laws", "--playthrough", str(path)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and says in err
    code = main(["mutate", "nim(heap=4)", "--no-laws", "--playthrough", str(good), "--operators", "payoff_players",
                 "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["checks"] == ["playthroughs"] and report["killed"] > 0
