"""The tools on a game that is not Heir: the three-player toy game "tricks" (tests/toy_game),
registered in a registry of the test's own, through advice, analysis, records and every command.

Each test checks what a user of that tool would: advice for the seat that decides (any of the
three), a review of the third seat, a record that replays, one-line errors for a seat or a game
that is not there.
"""

from __future__ import annotations

import json
import random

import pytest

from cli_helper import assert_one_line_error, run
from omen_search.advisor import Advisor
from omen_search.analysis import analyze_game
from omen_search.errors import FormatError, UsageError
from omen_search.game import get_game
from omen_search.records import make_record, replay
from omen_search.search import Limit
from toy_game.game import ToyGame


def _played(game: ToyGame, seed: int, plies: int):
    state = game.new_initial_state(seed, engine="reference")
    rng = random.Random(seed)
    while state.ply < plies and not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_advice_is_for_whichever_of_three_seats_decides(tricks):
    seats = set()
    for seed in range(6):
        state = _played(tricks, seed, 3 + seed)
        seat = state.current_player
        observation = tricks.observe(state, seat)
        advice = Advisor(Limit(iterations=300), seed=1, game=tricks).advise(observation)
        seats.add(advice.pov)
        assert advice.pov == seat
        assert {m.move for m in advice.moves} == set(state.legal_moves())
        assert all(0.0 <= m.win_prob <= 1.0 for m in advice.moves if m.visits)
        assert "war_outlook" not in advice.to_dict()  # the outlook is Heir's; tricks has none
    assert seats == {0, 1, 2}


def test_an_observation_of_a_seat_that_does_not_decide_is_refused(tricks):
    state = _played(tricks, 3, 4)
    other = (state.current_player + 1) % 3
    with pytest.raises(FormatError, match="observation.player"):
        Advisor(Limit(iterations=50), game=tricks).advise(tricks.observe(state, other))


def test_the_advice_never_depends_on_cards_the_seat_cannot_see(tricks):
    """Two games that one seat sees alike get the same advice for it."""
    state = _played(tricks, 7, 4)
    seat = state.current_player
    twin = state.determinized(seat, seed=99)
    assert twin.observation(seat) == state.observation(seat)
    a = Advisor(Limit(iterations=400), seed=5, game=tricks).advise(state)
    b = Advisor(Limit(iterations=400), seed=5, game=tricks).advise(twin)
    assert a.to_dict() == b.to_dict()


def test_a_record_of_three_players_replays_and_names_its_game(tricks):
    state = _played(tricks, 11, 99)
    record = make_record(state, ["random", "random", "random"], tricks)
    assert record["game"] == "tricks-3" and record["scores"] == list(state.scores())
    again = replay(json.loads(json.dumps(record)))
    assert again.moves == state.moves and again.scores() == state.scores()


def test_analysis_reviews_the_third_seat(tricks):
    state = _played(tricks, 12, 99)
    record = make_record(state, ["random"] * 3, tricks)
    review = analyze_game(record, 2, Limit(iterations=150))
    decided = [ply for ply, (seat, _) in enumerate(state.history) if seat == 2]
    assert review.player == 2 and review.decisions
    assert {d.ply for d in review.decisions} <= set(decided)
    assert all(d.observation["seat"] == 2 for d in review.decisions)
    with pytest.raises(UsageError, match="seat from 0 to 2"):
        analyze_game(record, 3, Limit(iterations=10))


def test_every_command_plays_the_toy_game(tricks, capsys, tmp_path):
    status, out, _ = run(capsys, "games", "--json")
    assert status == 0 and {"name": "tricks-3", "players": 3}.items() <= next(
        g for g in json.loads(out) if g["name"] == "tricks-3").items()
    record = tmp_path / "game.json"
    status, out, _ = run(capsys, "play", "--game", "tricks-3", "--players", "random,greedy,ismcts:iterations=50",
                         "--seed", "4", "--record", str(record))
    assert status == 0 and "seat 2 ismcts:iterations=50" in out and "Game over after 12 plies" in out
    status, out, _ = run(capsys, "replay", str(record), "--json")
    assert status == 0 and json.loads(out)["plies"] == 12
    status, out, _ = run(capsys, "advise", "--record", str(record), "--ply", "5", "--iterations", "200", "--json",
                         "--quiet")
    assert status == 0 and json.loads(out)["pov"] == replay(json.loads(record.read_text()), upto=5).current_player
    status, out, _ = run(capsys, "analyze", str(record), "--player", "1", "--iterations", "50", "--json", "--quiet")
    assert status == 0 and json.loads(out)["player"] == 1
    for engine in ("core", "reference"):
        status, out, _ = run(capsys, "perft", "--game", "tricks-3", "--seed", "2", "--depth", "4", "--engine", engine,
                             "--json")
        assert status == 0
        nodes = json.loads(out)["nodes"]
    state = tricks.new_initial_state(2, engine="reference")
    assert nodes == sum(1 for _ in _leaves(state, 4))
    status, out, _ = run(capsys, "selfcheck", "--game", "tricks-3", "--games", "20", "--quiet")
    assert status == 0 and "agree at every ply" in out
    status, out, _ = run(capsys, "demo", "--game", "tricks-3", "--seat", "2", "--iterations", "50")
    assert status == 0 and "advises and plays seat 2" in out and "Game over" in out
    status, out, _ = run(capsys, "bench", "--game", "tricks-3", "--seconds", "0.05", "--json")
    result = json.loads(out)
    assert status == 0 and result["game"] == "tricks-3" and result["signature"]["games"] == 200
    assert result["state_bytes"] == len(tricks.new_initial_state(0).state_bytes())
    status, out, _ = run(capsys, "cards", "--game", "tricks-3")
    assert status == 0 and "tricks-3 has no card set" in out


def _leaves(state, depth):
    if depth == 0 or state.is_terminal():
        yield state
        return
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        yield from _leaves(child, depth - 1)


@pytest.mark.parametrize("argv, words", [
    (["play", "--game", "tricks-3", "--players", "random,random"], ["--players", "tricks-3 needs 3 players"]),
    (["demo", "--game", "tricks-3", "--seat", "3"], ["--seat", "seat 0 or 1 or 2"]),
    (["play", "--game", "tricks-3", "--emissary"], ["--emissary", "not an option of --game tricks-3"]),
])
def test_bad_input_for_the_toy_game_is_one_line(tricks, capsys, argv, words):
    assert_one_line_error(*run(capsys, *argv), *words)


def test_the_engine_protocol_advises_any_seat_of_the_toy_game(tricks):
    """A query names its game; the engine (started for Heir, with Heir's card set) advises the seat
    of a tricks-3 observation that decides, and refuses a query whose observation is of another game."""
    import io

    from omen_search.engine_protocol import EngineServer

    state = _played(tricks, 21, 5)
    observation = tricks.observe(state, state.current_player)
    queries = [{"id": 1, "observation": observation, "game": "tricks-3", "maxIterations": 200},
               {"id": 2, "observation": observation, "maxIterations": 100},
               {"id": 3, "observation": observation, "game": "heir", "maxIterations": 100}]
    out = io.StringIO()
    heir = get_game("heir")
    assert EngineServer(io.StringIO("".join(json.dumps(q) + "\n" for q in queries)), out,
                        cards=heir.default_cards(), game=heir).serve() == 0
    replies = {r["id"]: r for r in map(json.loads, out.getvalue().splitlines())}
    for answered in (1, 2):  # the game from the query, or from the observation's own "game"
        assert replies[answered]["pov"] == state.current_player
        assert {m["move"] for m in replies[answered]["moves"]} == {str(m) for m in state.legal_moves()}
    assert replies[3]["field"] == "game" and "tricks-3" in replies[3]["error"]


def test_the_balance_command_reports_a_two_seat_toy_game(tricks, capsys):
    """``balance`` on ``tricks-2`` (registered beside tricks-3): win rates by seat over seat-swapped
    pairs, from the command line."""
    import omen_search.game as registry
    from toy_game.game import ToyGame

    registry.register(ToyGame(2))
    status, out, _ = run(capsys, "balance", "--game", "tricks-2", "--games", "8", "--bots", "greedy,random",
                         "--json", "--quiet")
    report = json.loads(out)
    assert status == 0 and report["game"] == "tricks-2" and report["games"] == 8
    assert sum(seat["wins"] for seat in report["by_seat"]) == 8  # a tie counts half to each seat
