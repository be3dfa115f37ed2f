"""OpenSpiel's games through the fnmcts protocol: the laws on the whole catalogue, refusals, exact values.

Skipped without OpenSpiel (the ``openspiel`` extra). The catalogue test runs
``check_game`` on every game the adapter accepts, with the game's default
parameters and bounded walks; the cross-checks compare fnmcts's exact solver
with OpenSpiel's own minimax and expectiminimax (``open_spiel.python.algorithms.minimax``).
"""

import json
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")

from open_spiel.python.algorithms import minimax  # noqa: E402

from fnmcts import CHANCE, from_openspiel  # noqa: E402
from fnmcts.agents import random_agent  # noqa: E402
from fnmcts.exact import best_moves, solve, value  # noqa: E402
from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.openspiel import OpenSpielGame, OpenSpielState, openspiel_catalogue, refusal  # noqa: E402
from fnmcts.matches import play_game  # noqa: E402
from fnmcts.testing import check_game, law_playthrough_ends  # noqa: E402

CATALOGUE = openspiel_catalogue()
ACCEPTED = sorted(name for name, reason in CATALOGUE.items() if reason is None)
REFUSED = sorted(name for name, reason in CATALOGUE.items() if reason is not None)

UNLOADABLE = {"efg_game": "reads its game from a file, and the default file is not in the wheel"}
"""Games the adapter accepts whose default parameters OpenSpiel itself cannot load."""

CATALOGUE_BOUNDS = dict(max_examples=3, max_steps=16, exact_limit=200, agents={"random": random_agent})
"""check_game's bounds for the catalogue: 3 walks of at most 16 steps per law, subgames of at most
200 states for the solver law, the random agent for the agent law. The playthrough law runs
separately, once, with OpenSpiel's own bound on a game's length."""


HEAVY = {"yacht": dict(max_examples=1, max_steps=4)} | {
    name: dict(max_examples=2, max_steps=8) for name in ("go", "mnk", "gomoku", "y", "havannah", "hex")
}
"""Tighter bounds where every state has hundreds of moves or outcomes, each played five times by the
legality, purity and hash laws: yacht (7,776 rolls of five dice) and the wide boards (121 to 361 moves)."""


def _length_bound(game) -> int:
    """OpenSpiel's bound on the steps of one game: decisions plus chance nodes."""
    return game.native.max_game_length() + game.native.max_chance_nodes_in_history()


SLOW_CHECKS = {"yacht"}
"""Games whose catalogue check takes over half a minute on two cores (yacht: 7,776 rolls a chance node),
run by ``pytest -m slow`` (``.ci/run``'s second step) so the README's test command stays under four minutes."""


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_CHECKS else n
                                  for n in ACCEPTED if n not in UNLOADABLE])
@pytest.mark.slow
def test_check_game_passes_on_every_accepted_game(name):
    game = from_openspiel(name)
    laws = check_game(game, skip="playthrough_ends", **(CATALOGUE_BOUNDS | HEAVY.get(name, {})))
    assert "solver_recursion" in laws and "json_round_trip" in laws
    assert law_playthrough_ends(game, game.start(), random.Random(0), max_steps=_length_bound(game))


def test_the_catalogue_is_what_the_readme_says():
    assert len(ACCEPTED) == 43 and len(ACCEPTED) + len(REFUSED) == len(pyspiel.registered_games())
    assert {"tic_tac_toe", "nim", "pig", "connect_four", "backgammon", "checkers", "go", "chess"} <= set(ACCEPTED)
    assert {"kuhn_poker", "goofspiel", "matrix_rps", "mfg_garnet"} <= set(REFUSED)


@pytest.mark.parametrize("name", sorted(UNLOADABLE))
def test_games_openspiel_cannot_load_are_a_value_error(name):
    with pytest.raises(ValueError, match=f"OpenSpiel cannot make '{name}'"):
        from_openspiel(name)


@pytest.mark.parametrize("name", REFUSED)
def test_every_refused_game_is_refused_with_its_reason(name):
    reason = CATALOGUE[name]
    assert any(why in reason for why in ("simultaneous moves", "imperfect information", "one-shot", "dynamics"))
    with pytest.raises(ValueError) as error:
        from_openspiel(name)
    assert str(error.value) == reason == refusal(name)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: from_openspiel("no_such_game"), "OpenSpiel has no game 'no_such_game'"),
        (lambda: from_openspiel("nim", heaps=3), "OpenSpiel's nim has no parameter 'heaps'"),
        (lambda: from_openspiel("nim", pile_sizes=True), "parameter pile_sizes of OpenSpiel's nim is a str"),
        (lambda: from_openspiel("pig(winscore=ten)"), "parameter winscore of OpenSpiel's pig is a int"),
        (lambda: from_openspiel("nim(pile_sizes=1;2"), "bad OpenSpiel game string"),
        (lambda: from_openspiel("nim(pile_sizes=1;2)", pile_sizes="3"), "given both"),
    ],
)
def test_bad_names_and_parameters_are_value_errors(call, message, capfd):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()
    assert capfd.readouterr().err == ""  # OpenSpiel's own printing never reaches the terminal


def test_a_game_value_is_equal_hashable_and_pickles():
    game = from_openspiel("nim", pile_sizes="1;2")
    assert game == OpenSpielGame("nim(pile_sizes=1;2)") == from_openspiel(game)
    assert hash(game) == hash(OpenSpielGame("nim(pile_sizes=1;2)"))
    assert pickle.loads(pickle.dumps(game)) == game
    assert from_openspiel(pyspiel.load_game("nim(pile_sizes=1;2)")) == game


# -- the adapter against OpenSpiel's own state, along random playthroughs -----------------------

SMALL = ("tic_tac_toe", "nim(pile_sizes=1;2;3)", "pig(winscore=8)", "catch", "maedn", "2048", "backgammon")


@settings(max_examples=40)
@given(spec=st.sampled_from(SMALL), rng=st.randoms(use_true_random=False), steps=st.integers(0, 60))
def test_states_follow_openspiel_step_by_step(spec, rng, steps):
    game = from_openspiel(spec)
    state, native = game.start(), game.native.new_initial_state()
    for _ in range(steps):
        who = game.to_move(state)
        assert who == (None if native.is_terminal() else CHANCE if native.is_chance_node() else native.current_player())
        if who is None:
            break
        if who is CHANCE:
            outcomes = game.chance_outcomes(state)
            floats = dict(native.chance_outcomes())
            assert [a for a, _ in outcomes] == [a for a, p in native.chance_outcomes() if p > 0]
            assert all(float(p) == pytest.approx(floats[a], rel=1e-12) for a, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
            move = game.sample_outcome(state, rng)
        else:
            assert game.possible_moves(state) == tuple(native.legal_actions())
            move = rng.choice(game.possible_moves(state))
        state = game.play(state, move)
        native.apply_action(move)
        assert list(state.history) == native.history()
        assert game.render(state) == str(native).rstrip("\n")
    back = game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))
    assert back == state and hash(back) == hash(state) and game.render(back) == game.render(state)
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state and game.possible_moves(unpickled) == game.possible_moves(state)


@settings(max_examples=30)
@given(spec=st.sampled_from(SMALL), seed=st.integers(0, 2**32))
def test_payoffs_are_openspiels_returns_scaled_from_its_utility_range(spec, seed):
    game = from_openspiel(spec)
    rng, state = random.Random(seed), game.start()
    while game.to_move(state) is not None:
        who = game.to_move(state)
        move = game.sample_outcome(state, rng) if who is CHANCE else rng.choice(game.possible_moves(state))
        state = game.play(state, move)
    returns = game.native_state(state).returns()
    low, high = Fraction(game.native.min_utility()), Fraction(game.native.max_utility())
    pay = game.payoff(state)
    if game.num_players == 1:
        assert pay == tuple((Fraction(r) - low) / (high - low) for r in returns)
        assert game.payoff_range() == (0, 1)
    else:
        assert pay == tuple(Fraction(r) / max(abs(low), abs(high)) for r in returns)
        assert sum(pay) == 0 and game.payoff_range() == (-1, 1)
    assert all(game.payoff_range()[0] <= x <= game.payoff_range()[1] for x in pay)


def test_illegal_moves_and_foreign_states_are_value_errors():
    game = from_openspiel("tic_tac_toe")
    with pytest.raises(ValueError, match="not legal"):
        game.play(game.start(), 9)
    with pytest.raises(TypeError, match="action number"):
        game.play(game.start(), "4")
    with pytest.raises(ValueError, match="not a state"):
        game.to_move((4, 0))
    with pytest.raises(ValueError, match="over after 5 actions"):
        game.state_from_json([0, 3, 1, 4, 2, 5])
    with pytest.raises(ValueError, match="write a state"):
        game.parse_state("x(1,1)")


def test_a_state_of_one_game_is_replayed_for_another():
    small, big = from_openspiel("nim(pile_sizes=1;2)"), from_openspiel("nim(pile_sizes=3;3)")
    state = small.play(small.start(), 0)  # take 1 from pile 1
    assert small.render(state) == "(1): 0 2"
    assert big.render(state) == "(1): 2 3"  # the same history, replayed in the other game


def test_transcripts_read_openspiels_move_texts():
    game = from_openspiel("tic_tac_toe")
    record = play_game(game, random_agent, random_agent, seed=3, verbose=True)
    assert record.transcript[0].startswith("Player 1: x(") and record.transcript[1].startswith("Player 2: o(")


# -- exact values against OpenSpiel's own solvers ----------------------------------------------


def _alpha_beta(game, state):
    """OpenSpiel's alpha-beta value of ``state`` for player 0."""
    return minimax.alpha_beta_search(game.native, state=game.native_state(state), maximizing_player_id=0)[0]


def _expectiminimax(game, state):
    """OpenSpiel's expectiminimax value of ``state`` for player 0, searched to the end, on fnmcts's payoff scale."""
    raw = minimax.expectiminimax(game.native_state(state), 10**6, None, 0)[0]
    low, high = game.native.min_utility(), game.native.max_utility()
    return (raw - low) / (high - low) if game.num_players == 1 else raw / max(abs(low), abs(high))


@pytest.mark.parametrize("opening", [(4,), (0, 4), (4, 0), (1, 4), (0, 4, 8), (4, 0, 8, 2)])
def test_tic_tac_toe_values_equal_openspiels_alpha_beta(opening):
    game = from_openspiel("tic_tac_toe")
    state = game.state_from_json(list(opening))
    solution = solve(game, state)
    assert value(solution, state)[0] == _alpha_beta(game, state)
    for move in game.possible_moves(state):  # and every child: the values of every move agree
        child = game.play(state, move)
        assert value(solution, child)[0] == _alpha_beta(game, child)


@pytest.mark.slow
def test_tic_tac_toe_from_the_start_is_a_draw_for_both_solvers():
    game = from_openspiel("tic_tac_toe")
    solution = solve(game)
    assert value(solution, game.start()) == (0, 0) == (_alpha_beta(game, game.start()), 0)
    assert len(solution) == 5_478  # positions: OpenSpiel's own count of tic-tac-toe's states


@pytest.mark.slow
def test_tic_tac_toe_as_histories_is_a_draw_over_every_history():
    game = from_openspiel("tic_tac_toe", states="histories")
    solution = solve(game, limit=None)  # beyond the default limit of 200,000 states
    assert value(solution, game.start()) == (0, 0)
    assert len(solution) == 549_946  # OpenSpiel's own count of tic-tac-toe's histories


@pytest.mark.parametrize("piles, misere", [("1;2;3", True), ("1;2;3", False), ("2;3;4", True), ("1;1;4", False)])
def test_nim_values_equal_openspiels_alpha_beta_at_every_state(piles, misere):
    game = from_openspiel("nim", pile_sizes=piles, is_misere=misere)
    solution = solve(game)
    decisions = [s for s in solution if game.to_move(s) is not None]
    for state in random.Random(1).sample(decisions, min(60, len(decisions))) + [game.start()]:
        assert value(solution, state)[0] == _alpha_beta(game, state)


@pytest.mark.parametrize(
    "spec", ["pig(winscore=4,diceoutcomes=3,horizon=6)", "pig(winscore=5,diceoutcomes=4,horizon=6)", "catch(rows=6)"]
)
def test_chance_game_values_equal_openspiels_expectiminimax(spec):
    game = from_openspiel(spec)
    solution = solve(game)
    states = random.Random(2).sample(sorted(solution, key=len), min(40, len(solution))) + [game.start()]
    for state in states:
        exact = value(solution, state)[0]
        assert float(exact) == pytest.approx(_expectiminimax(game, state), abs=1e-12)
    assert isinstance(value(solution, game.start())[0], Fraction)


def test_pig_first_player_value_is_exact():
    game = from_openspiel("pig(winscore=4,diceoutcomes=3,horizon=6)")
    assert value(solve(game), game.start()) == (Fraction(8, 27), Fraction(-8, 27))


def test_mcts_finds_a_winning_nim_move():
    game = from_openspiel("nim", pile_sizes="1;2;3", is_misere=False)
    state = game.state_from_json([0])  # piles 0 2 3: the player to move wins by making them equal
    solution = solve(game, state)
    found = mcts_move(game, state, 2_000, random.Random(1))
    assert found.move in best_moves(game, solution, state)
    assert value(solution, game.play(state, found.move))[game.to_move(state)] == 1
