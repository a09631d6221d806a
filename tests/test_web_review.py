"""The web app's reviews (omen_search.web.reviews) through its JSON API and Starlette's TestClient:
a record analysed for every deciding seat, as ``analyze_game`` analyses it, with progress that
reaches its total; the board of a decision is that seat's view at that ply; a move tried in
practice is judged by a search of that move alone; stopping, a game of the server reviewed as it
stands, and every bad request a named error.

Games are short (``max_turns=3``) and searches small (150 iterations), so the file runs in
seconds. Skipped, saying why, without the web extra or httpx.
"""

from __future__ import annotations

import json
import time
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette", reason="Starlette is not installed: pip install '.[web]' (the web extra)")
pytest.importorskip("httpx", reason="httpx is not installed (Starlette's TestClient needs it; the test extra has it)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # newer Starlette asks for httpx2 instead of httpx; both work
    from starlette.testclient import TestClient

from omen_search.analysis import analyze_game, value_of_move  # noqa: E402
from omen_search.bots import make_bot  # noqa: E402
from omen_search.game import get_game  # noqa: E402
from omen_search.records import make_record, replay  # noqa: E402
from omen_search.search import Limit  # noqa: E402
from omen_search.web.app import create_app  # noqa: E402

ITERATIONS = 150


@pytest.fixture
def client():
    with TestClient(create_app(allowed_hosts=("testserver",), threads=2)) as c:
        yield c


def played_record(name: str = "heir", seed: int = 24, players: tuple[str, str] = ("random", "greedy"),
                  **options: Any) -> dict[str, Any]:
    """A finished game of bots, as ``omen-search play --record`` writes it (seat 0 named human)."""
    game = get_game(name)
    state = game.new_initial_state(seed, engine="core", config=game.config(**options))
    bots = [make_bot(spec, seed + seat, game) for seat, spec in enumerate(players)]
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
    return make_record(state, ["human", players[1]], game)


def finished(client: TestClient, snap: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """The review once its analysis is over, and the progress seen on the way."""
    seen = []
    for _ in range(200):
        seen.append((snap["progress"]["done"], snap["progress"]["total"]))
        if snap["status"] != "analysing":
            return snap, seen
        snap = client.get(f"/api/review/{snap['id']}", params={"after": snap["version"], "wait": 10}).json()
    raise AssertionError("the analysis never ended")


def open_review(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/review", json={"iterations": ITERATIONS, **body})
    assert response.status_code == 201, response.text
    return response.json()


def error(response, status: int, kind: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == kind, body
    for word in words:
        assert word in body["message"], body


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(max_turns=3)  # seat 0 (random) blunders at plies 3 and 19 by 150 iterations


def test_a_review_is_analyze_game_for_every_seat_with_its_progress(client, record):
    snap, seen = finished(client, open_review(client, record=json.dumps(record)))  # the file's text
    assert snap["status"] == "done" and snap["plies"] == record["plies"] and snap["you"] == 0
    assert snap["players"] == ["human", "greedy"] and snap["iterations"] == ITERATIONS
    done, total = seen[-1]
    assert done == total > 0 and len(seen) > 2, seen
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:])), "progress never goes back"
    assert [s["seat"] for s in snap["seats"]] == [0, 1]
    for seat in snap["seats"]:
        expected = analyze_game(record, seat["seat"], Limit(iterations=ITERATIONS), seed=0).to_dict()
        assert seat["accuracy"] == round(expected["accuracy"], 1)
        got = [(d["ply"], d["played"], d["best"], d["label"], d["before"]["win_prob"], d["after"]["win_prob"])
               for d in seat["decisions"]]
        assert got == [(d["ply"], d["played"], d["best"], d["label"], d["win_prob_before"], d["win_prob_after"])
                       for d in expected["decisions"]]
        for d in seat["decisions"]:
            assert d["top"][0]["move"] == d["best"] and d["top"][0]["win_prob"] == d["before"]["win_prob"]
            assert d["before"]["low"] <= d["before"]["win_prob"] <= d["before"]["high"]
    assert any(d["label"] for s in snap["seats"] for d in s["decisions"]), "a game with a mistake to practise"


def test_the_board_of_a_decision_is_that_seats_view_at_that_ply(client, record):
    snap, _ = finished(client, open_review(client, record=record))
    game = get_game("heir")
    for seat in snap["seats"]:
        for d in seat["decisions"][:: max(1, len(seat["decisions"]) // 4)]:
            board = client.get(f"/api/review/{snap['id']}/decision", params={"seat": seat["seat"], "ply": d["ply"]}).json()
            state = replay(record, upto=d["ply"])
            assert board["view"] == game.view(game.observe(state, seat["seat"]))
            assert [m["move"] for m in board["moves"]] == [str(m) for m in state.legal_moves()]
            assert board["ply"] == d["ply"] and board["played"] == d["played"] and board["turn"] == game.turn_header(state)


def test_practice_judges_a_move_by_a_search_of_it_alone(client, record):
    snap, _ = finished(client, open_review(client, record=record))
    d = next(d for s in snap["seats"] for d in s["decisions"] if d["label"])
    url = f"/api/review/{snap['id']}/practice"
    best = client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": d["best"]}).json()
    assert best["verdict"] == "best" and best["good"] and best["win_prob"] == d["before"]["win_prob"]
    played = client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": d["played"]}).json()
    assert played["verdict"] == d["label"] and not played["good"] and "played in the game" in played["text"]
    board = client.get(f"/api/review/{snap['id']}/decision", params={"seat": d["seat"], "ply": d["ply"]}).json()
    game, state = get_game("heir"), replay(record, upto=d["ply"])
    other = next(m["move"] for m in board["moves"] if m["move"] not in (d["best"], d["played"]))
    tried = client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": other}).json()
    value = value_of_move(game, game.observe(state, d["seat"]), d["ply"], game.parse_move(other),
                          Limit(iterations=ITERATIONS))
    assert tried["move"] == other and tried["win_prob"] == round(value.win_prob, 4)
    assert tried["verdict"] in ("as-good", "close", "inaccuracy", "mistake", "blunder")
    assert tried["good"] == (tried["verdict"] == "as-good") and other in tried["text"]
    error(client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": "war city2"}), 422, "IllegalMoveError",
          "war city2", "not legal")
    error(client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": "fly"}), 400, "NotationError", "fly")
    error(client.post(url, json={"seat": d["seat"], "ply": d["ply"], "move": None}), 400, "NotationError", "move")
    error(client.post(url, json={"seat": 1 - d["seat"], "ply": d["ply"], "move": d["best"]}), 400, "UsageError",
          f"ply {d['ply']}", "no decision")
    error(client.post(url, json={"seat": "0", "ply": d["ply"], "move": d["best"]}), 400, "UsageError", "seat")


def test_a_game_of_the_server_is_reviewed_as_it_stands(client):
    snap = client.post("/api/play", json={"game": "heir", "seat": 1, "opponent": "random", "seed": 5,
                                          "options": {"max_turns": 2}}).json()
    for _ in range(100):
        if snap["status"] == "over":
            break
        if snap["status"] == "your-move":
            snap = client.post(f"/api/play/{snap['id']}/move", json={"move": snap["moves"][0]["move"]}).json()
        else:
            snap = client.get(f"/api/play/{snap['id']}", params={"after": snap["version"], "wait": 10}).json()
    assert snap["status"] == "over"
    held = client.get("/api/play").json()["games"]
    assert [g["id"] for g in held] == [snap["id"]] and held[0]["status"] == "over" and held[0]["ply"] == snap["ply"]
    review, _ = finished(client, open_review(client, play=snap["id"]))
    assert review["you"] == 1 and review["players"] == ["random", "human"] and review["plies"] == snap["ply"]
    assert review["status"] == "done" and "your game" in review["title"]
    error(client.post("/api/review", json={"play": "nope"}), 404, "UnknownSessionError", "nope")


def test_a_review_without_a_budget_settles_as_omen_search_analyze(client, record, monkeypatch):
    monkeypatch.setattr("omen_search.advisor.DEFAULT_ITERATIONS", 100)
    monkeypatch.setattr("omen_search.advisor.DEFAULT_SETTLE", 400)
    response = client.post("/api/review", json={"record": record})
    assert response.status_code == 201, response.text
    snap, _ = finished(client, response.json())
    assert snap["status"] == "done" and snap["iterations"] == 100 and snap["settle"] == 400
    expected = analyze_game(record, 1, seed=0).to_dict()  # the API's own default, patched alike
    assert expected["settle"] == 400
    got = next(seat for seat in snap["seats"] if seat["seat"] == 1)
    assert [(d["ply"], d["best"], d["before"]["win_prob"]) for d in got["decisions"]] == \
        [(d["ply"], d["best"], d["win_prob_before"]) for d in expected["decisions"]]
    assert open_review(client, record=record)["settle"] is None, "a budget given does not settle"


def test_an_analysis_can_be_stopped_and_a_review_closed(client, record):
    snap = open_review(client, record=record, iterations=100_000)
    started = time.perf_counter()
    assert client.post(f"/api/review/{snap['id']}/stop").json() == {"stopping": True}
    snap, _ = finished(client, snap)
    assert snap["status"] == "stopped" and snap["seats"] == [] and time.perf_counter() - started < 10
    error(client.post(f"/api/review/{snap['id']}/stop"), 409, "TurnError", "stopped")
    error(client.get(f"/api/review/{snap['id']}/decision", params={"seat": 0, "ply": 1}), 409, "TurnError", "stopped")
    assert client.delete(f"/api/review/{snap['id']}").status_code == 204
    error(client.get(f"/api/review/{snap['id']}"), 404, "UnknownSessionError", "review", "no such review")


@pytest.mark.parametrize("body, status, kind, words", [
    ({"record": "{not json"}, 400, "FormatError", ["record", "not valid JSON"]),
    ({"record": [1]}, 400, "FormatError", ["record"]),
    ({}, 400, "FormatError", ["record"]),
    ({"record": {"format": "omen-record/1", "game": "chess", "seed": 1, "moves": []}}, 400, "FormatError",
     ["record.game", "chess"]),
    ({"record": {"format": "omen-record/9", "game": "heir", "seed": 1, "moves": []}}, 400, "FormatError",
     ["record.format"]),
    ({"record": {"format": "omen-record/1", "game": "heir", "seed": 1, "moves": []}, "iterations": 0}, 400,
     "UsageError", ["iterations"]),
    ({"record": {"format": "omen-record/1", "game": "heir", "seed": 1, "moves": []}, "iterations": "many"}, 400,
     "UsageError", ["iterations"]),
])
def test_a_bad_record_or_budget_is_a_named_error(client, body, status, kind, words):
    error(client.post("/api/review", json=body), status, kind, *words)


def test_a_record_that_does_not_replay_is_refused_naming_the_ply(client, record):
    bad = {**record, "moves": record["moves"][:2] + ["war city7"] + record["moves"][3:]}
    error(client.post("/api/review", json={"record": bad}), 400, "RecordError", "ply 2", "war city7")


def test_bad_review_requests_are_named_errors(client, record):
    error(client.get("/api/review/nope"), 404, "UnknownSessionError", "nope")
    error(client.post("/api/review/nope/practice", json={}), 404, "UnknownSessionError", "nope")
    snap, _ = finished(client, open_review(client, record=record))
    url = f"/api/review/{snap['id']}/decision"
    error(client.get(url, params={"seat": "x", "ply": 1}), 400, "RequestError", "seat")
    error(client.get(url, params={"seat": 0}), 400, "RequestError", "ply")
    error(client.get(url, params={"seat": 5, "ply": 1}), 400, "UsageError", "seat")
    error(client.get(url, params={"seat": 0, "ply": 10**6}), 400, "UsageError", "ply")
    error(client.get(f"/api/review/{snap['id']}", params={"after": "x"}), 400, "RequestError", "after")
