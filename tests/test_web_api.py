"""The web app's JSON API (omen_search.web.app), through Starlette's TestClient: games started,
played, hinted, taken back, saved and loaded; every bad request a named OmenError answered with a
4xx status and a message; no response holding a card hidden from the person.

Skipped, saying why, without the web extra (Starlette) or httpx (the TestClient's transport).
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette", reason="Starlette is not installed: pip install '.[web]' (the web extra)")
pytest.importorskip("httpx", reason="httpx is not installed (Starlette's TestClient needs it; the test extra has it)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # newer Starlette asks for httpx2 instead of httpx; both work
    from starlette.testclient import TestClient

from omen_search.bots import SEARCHING_KINDS, make_bot, parse_spec  # noqa: E402
from omen_search.game import all_games, get_game  # noqa: E402
from omen_search.records import replay  # noqa: E402
from omen_search.web.app import MAX_BODY, create_app  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(allowed_hosts=("testserver",), threads=2)) as c:
        yield c


def session_of(client: TestClient, game_id: str) -> Any:
    """The server's session (to check responses against what is hidden)."""
    return client.app.state.sessions.get(game_id)  # type: ignore[attr-defined]


def settle(client: TestClient, snap: dict[str, Any]) -> dict[str, Any]:
    """The game once no bot is thinking."""
    for _ in range(100):
        if snap["status"] != "thinking":
            return snap
        snap = client.get(f"/api/play/{snap['id']}", params={"after": snap["version"], "wait": 10}).json()
    raise AssertionError("the bot never finished")


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    body = {"game": "heir", "opponent": "greedy", "seed": 11, **body}
    response = client.post("/api/play", json=body)
    assert response.status_code == 201, response.text
    return settle(client, response.json())


def play(client: TestClient, snap: dict[str, Any], move: str | None = None) -> dict[str, Any]:
    response = client.post(f"/api/play/{snap['id']}/move", json={"move": move or snap["moves"][0]["move"]})
    assert response.status_code == 200, response.text
    return settle(client, response.json())


def error(response, status: int, kind: str, *words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == kind, body
    for word in words:
        assert word in body["message"], body


def test_the_games_offered_are_the_registered_ones(client):
    games = client.get("/api/games").json()
    assert [g["name"] for g in games["games"]] == [g.name for g in all_games()]
    assert {"heir", "heir-solo", "reign-of-war"} <= {g["name"] for g in games["games"]}
    assert all(g["options"] for g in games["games"]) and games["opponents"]


def test_the_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for path in ("/static/app.js", "/static/app.css"):
        assert client.get(path).status_code == 200
    assert "http" not in page.text.replace("http-equiv", ""), "the page fetches nothing from elsewhere"


@pytest.mark.parametrize("name,seat", [("heir", 0), ("heir", 1), ("reign-of-war", 0), ("heir-solo", 0)])
def test_a_whole_game_played_through_the_api(client, name, seat):
    snap = new(client, game=name, seat=seat, opponent="random")
    moves = 0
    while snap["status"] == "your-move":
        assert snap["to_move"] == seat and snap["moves"] and snap["decision"]
        snap = play(client, snap)
        moves += 1
    assert snap["status"] == "over" and snap["result"]["scores"] and moves > 5
    assert snap["moves"] == [] and len([e for e in snap["log"] if e["kind"] == "move"]) == snap["ply"]
    assert {e["seat"] for e in snap["log"]} == {0, 1}, "the other seat's moves are in the log"
    if name == "heir-solo":  # the Corrupted Heir plays inside the rules: what it did is logged
        assert all(e["kind"] == "automaton" and e["who"] == "corrupted-heir" for e in snap["log"] if e["seat"] == 1)
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": "end"}), 409, "TurnError", "over")


def test_the_bots_moves_show_one_by_one_as_they_are_made(client):
    snap = client.post("/api/play", json={"game": "heir", "seat": 1, "opponent": "ismcts:seconds=0.2", "seed": 3}).json()
    seen = [len(snap["log"])]
    while snap["status"] == "thinking":
        snap = client.get(f"/api/play/{snap['id']}", params={"after": snap["version"], "wait": 10}).json()
        seen.append(len(snap["log"]))
    assert seen[-1] > 1 and len(set(seen)) > 2, f"the log grew {seen}"
    assert all(e["who"] == "ismcts:seconds=0.2" for e in snap["log"])
    assert snap["version"] == len(snap["log"]), "one change a move"


def test_an_illegal_move_is_refused_with_422_naming_it(client):
    snap = new(client)
    before = snap["ply"]
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": 'play "Opal Statue" city1'}), 422,
          "IllegalMoveError", "Opal Statue", "unknown card")
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": "war city1"}), 422, "IllegalMoveError",
          "war city1", "not legal here")
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": "fly to the moon"}), 400, "NotationError", "fly")
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": 7}), 400, "NotationError", "text")
    assert client.get(f"/api/play/{snap['id']}").json()["ply"] == before


def test_a_move_while_the_bot_thinks_is_409_and_closing_the_game_stops_its_search(client):
    snap = client.post("/api/play", json={"game": "heir", "seat": 1, "opponent": "ismcts:seconds=60"}).json()
    assert snap["status"] == "thinking"
    error(client.post(f"/api/play/{snap['id']}/move", json={"move": "end"}), 409, "TurnError", "not your turn")
    error(client.post(f"/api/play/{snap['id']}/hint", json={}), 409, "TurnError", "not your turn")
    time.sleep(0.3)
    started = time.perf_counter()
    assert client.delete(f"/api/play/{snap['id']}").status_code == 204
    assert time.perf_counter() - started < 2
    error(client.get(f"/api/play/{snap['id']}"), 404, "UnknownSessionError", "no such game")
    # the search threads are free again: a hint on another game answers at once
    other = new(client)
    started = time.perf_counter()
    assert client.post(f"/api/play/{other['id']}/hint", json={"iterations": 500}).status_code == 200
    assert time.perf_counter() - started < 5


def test_a_hint_is_the_advisors_best_three_with_intervals(client):
    snap = new(client)
    while len(snap["moves"]) < 3:
        snap = play(client, snap)
    hint = client.post(f"/api/play/{snap['id']}/hint", json={"iterations": 2000}).json()
    assert len(hint["moves"]) == 3 and hint["iterations"] == 2000 and not hint["stopped"]
    legal = {m["move"] for m in snap["moves"]}
    for m in hint["moves"]:
        assert m["move"] in legal
        assert 0 <= m["win_prob_low"] <= m["win_prob"] <= m["win_prob_high"] <= 1
    again = client.get(f"/api/play/{snap['id']}").json()
    assert again["hint"]["moves"] == hint["moves"] and not again["hinting"]
    after = play(client, again, hint["moves"][0]["move"])
    assert after["hint"] is None


def test_a_running_hint_can_be_stopped(client):
    snap = new(client)
    while len(snap["moves"]) < 2:
        snap = play(client, snap)
    answer: list[Any] = []
    thread = threading.Thread(target=lambda: answer.append(
        client.post(f"/api/play/{snap['id']}/hint", json={"seconds": 60})))
    thread.start()
    for _ in range(100):
        if client.get(f"/api/play/{snap['id']}").json()["hinting"]:
            break
        time.sleep(0.05)
    time.sleep(0.3)
    started = time.perf_counter()
    assert client.post(f"/api/play/{snap['id']}/hint/stop").json() == {"stopping": True}
    thread.join(10)
    assert time.perf_counter() - started < 2
    hint = answer[0].json()
    assert answer[0].status_code == 200 and hint["stopped"] and hint["iterations"] > 0


def test_undo_goes_back_to_your_previous_decision(client):
    snap = new(client, seat=0, opponent="random")
    for _ in range(3):
        snap = play(client, snap)
    mine = [e["ply"] for e in snap["log"] if e["seat"] == 0]
    before_log = snap["log"]
    undone = client.post(f"/api/play/{snap['id']}/undo").json()
    assert undone["ply"] == mine[-1] and undone["status"] == "your-move"
    assert undone["log"] == before_log[: mine[-1]]
    state = session_of(client, snap["id"]).state
    assert [str(m) for m in state.legal_moves()] == [m["move"] for m in undone["moves"]]
    while client.get(f"/api/play/{snap['id']}").json()["can_undo"]:
        client.post(f"/api/play/{snap['id']}/undo")
    error(client.post(f"/api/play/{snap['id']}/undo"), 409, "TurnError", "no move to take back")


def test_resign_ends_the_game(client):
    snap = new(client)
    over = client.post(f"/api/play/{snap['id']}/resign").json()
    assert over["status"] == "over" and over["result"]["resigned"] and over["result"]["winner"] == 1
    error(client.post(f"/api/play/{snap['id']}/resign"), 409, "TurnError", "over")


@pytest.mark.parametrize("name", ["heir", "reign-of-war"])
def test_save_and_load_give_back_the_same_game(client, name):
    snap = new(client, game=name, seat=1)
    for _ in range(4):
        snap = play(client, snap)
    response = client.get(f"/api/play/{snap['id']}/record")
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "omen-record/1" and record["players"] == ["greedy", "human"]
    assert replay(record).ply == snap["ply"]
    loaded = client.post("/api/play/load", json={"record": json.dumps(record)})
    assert loaded.status_code == 201, loaded.text
    back = loaded.json()
    assert back["id"] != snap["id"] and back["seat"] == 1 and back["players"] == ["greedy", "you"]
    for key in ("ply", "view", "moves", "log", "status", "can_undo"):
        assert back[key] == snap[key], key
    undone = client.post(f"/api/play/{back['id']}/undo").json()
    assert undone["ply"] < back["ply"]


def test_a_record_that_does_not_replay_is_refused_naming_the_ply(client):
    snap = play(client, play(client, play(client, new(client))))
    record = client.get(f"/api/play/{snap['id']}/record").json()
    record["moves"][1] = "war city2"
    error(client.post("/api/play/load", json={"record": record}), 400, "RecordError", "ply 1", "war city2")
    error(client.post("/api/play/load", json={"record": "{not json"}), 400, "FormatError", "record", "not valid JSON")
    error(client.post("/api/play/load", json={"record": [1]}), 400, "FormatError", "record")
    record["moves"] = record["moves"][:1]
    record["game"] = "chess"
    error(client.post("/api/play/load", json={"record": record}), 400, "FormatError", "record.game", "chess")


@pytest.mark.parametrize("request_, status, kind, words", [
    (("post", "/api/play", {"content": b"{", "headers": {"content-type": "application/json"}}), 400, "FormatError",
     ["request", "not valid JSON"]),
    (("post", "/api/play", {"json": [1, 2]}), 400, "RequestError", ["JSON object"]),
    (("post", "/api/play", {"content": b'{"game": "heir"}', "headers": {"content-type": "text/plain"}}), 400,
     "RequestError", ["application/json"]),
    (("post", "/api/play", {"json": {"game": "chess"}}), 400, "UsageError", ["game", "chess"]),
    (("post", "/api/play", {"json": {"game": "heir", "seat": 2}}), 400, "UsageError", ["seat", "2"]),
    (("post", "/api/play", {"json": {"game": "heir-solo", "seat": 1}}), 400, "UsageError", ["seat", "1"]),
    (("post", "/api/play", {"json": {"game": "heir", "opponent": "human"}}), 400, "UsageError", ["opponent"]),
    (("post", "/api/play", {"json": {"game": "heir", "opponent": "ismcts:iterations=-5"}}), 400, "UsageError",
     ["iterations"]),
    (("post", "/api/play", {"json": {"game": "heir", "options": {"level": "hard"}}}), 400, "UsageError", ["level"]),
    (("post", "/api/play", {"json": {"game": "heir-solo", "options": {"level": "easyish"}}}), 400, "UsageError",
     ["level"]),
    (("post", "/api/play", {"json": {"game": "heir", "seed": -1}}), 400, "UsageError", ["seed"]),
    (("post", "/api/play", {"content": b" " * (MAX_BODY + 1), "headers": {"content-type": "application/json"}}),
     413, "TooLargeError", ["request"]),
    (("get", "/api/play/nope", {}), 404, "UnknownSessionError", ["nope"]),
    (("post", "/api/play/nope/move", {"json": {"move": "end"}}), 404, "UnknownSessionError", ["nope"]),
    (("get", "/api/play/nope/record", {}), 404, "UnknownSessionError", ["nope"]),
])
def test_bad_requests_are_named_errors_with_a_4xx_status(client, request_, status, kind, words):
    method, path, kwargs = request_
    error(getattr(client, method)(path, **kwargs) if method == "get" else client.request(method.upper(), path, **kwargs),
          status, kind, *words)


def test_a_bad_hint_budget_or_wait_is_refused(client):
    snap = new(client)
    error(client.post(f"/api/play/{snap['id']}/hint", json={"iterations": 0}), 400, "UsageError", "iterations")
    error(client.post(f"/api/play/{snap['id']}/hint", json={"seconds": "a while"}), 400, "UsageError", "seconds")
    error(client.get(f"/api/play/{snap['id']}", params={"after": "x"}), 400, "RequestError", "after")


def test_the_server_answers_only_to_its_own_host_names(client):
    response = client.get("/api/games", headers={"host": "attacker.example"})
    assert response.status_code == 400


HINT_SEED = 424242  # the hints' advisor seed in the test below, so that its hints can be recomputed


def _own_lines(hint: dict[str, Any]) -> dict[str, Any]:
    """``hint`` without the bot's moves in its principal lines: those are played in a world dealt
    from the person's view, so they name guessed cards, which may happen to be the true ones."""
    return {**hint, "moves": [{**m, "pv": [s for s in m["pv"] if s["seat"] == 0]} for m in hint["moves"]]}


@pytest.mark.parametrize("name", ["heir", "reign-of-war"])
def test_no_response_holds_a_card_hidden_in_the_opponents_hand(client, name, monkeypatch):
    """Every snapshot, hint and log line is made from the person's view: the names of the cards in
    the bot's hand that the person has not seen (in their observation or in a move made in front of
    them) appear in none of them; nor do the seed or the deck's order. A hint is the advice from
    the person's observation alone, move for move and line for line (the guessed cards of the bot's
    moves in its lines included)."""
    from omen_search.advisor import Advisor
    from omen_search.search import Limit
    from omen_search.web.sessions import HINT_TOP
    from omen_search.web.views import advice_json

    monkeypatch.setattr("omen_search.web.sessions.secrets.randbits", lambda bits: HINT_SEED)
    snap = new(client, game=name, opponent="random", seed=9_876_543_210_123)
    game, checked = get_game(name), 0
    while snap["status"] == "your-move":
        session = session_of(client, snap["id"])
        seen = json.dumps(game.observe(session.state, 0)) + " ".join(e["text"] for e in snap["log"])  # and the moves
        hidden = {card for card in game.cards_held(session.state, 1) if card not in seen}
        texts = [json.dumps(snap)]
        if snap["ply"] % 5 == 0:
            hint = client.post(f"/api/play/{snap['id']}/hint", json={"iterations": 300}).json()
            advice = Advisor(Limit(iterations=300), seed=HINT_SEED, game=game).advise(game.observe(session.state, 0))
            expected = advice_json(game, advice, HINT_TOP)
            assert hint["moves"] == expected["moves"] and hint["outlook"] == expected["outlook"], snap["ply"]
            assert hint["separated"] is expected["separated"] is advice.separated, "whether the top two differ"
            texts.append(json.dumps(_own_lines(hint)))
        for text in texts:
            assert str(session.seed) not in text and "deck_order" not in text
            for card in hidden:
                checked += 1
                assert f'"{card}' not in text and f'{card}"' not in text, (snap["ply"], card)
        opponent = next(s for s in snap["view"]["seats"] if s["seat"] == 1)
        hand = next(p for p in opponent["piles"] if p["name"] == "hand")
        assert hand["hidden"] + sum(c["count"] for c in hand["cards"]) == session.state.hand_size(1)
        snap = play(client, snap)
    assert checked >= 10, "too few hidden cards to check"


def test_several_games_run_at_once(client):
    first, second = new(client, seed=1), new(client, game="reign-of-war", seed=2)
    first, second = play(client, first), play(client, second)
    third = client.post("/api/play", json={"game": "heir", "seat": 1, "opponent": "ismcts:iterations=3000"}).json()
    assert len({first["id"], second["id"], third["id"]}) == 3
    assert client.get(f"/api/play/{first['id']}").json()["game"]["name"] == "heir"
    assert client.get(f"/api/play/{second['id']}").json()["game"]["name"] == "reign-of-war"
    assert settle(client, third)["status"] == "your-move"


def test_every_opponent_offered_is_a_bot_of_every_game_and_omen_plays_a_turn(client):
    specs = [o["spec"] for o in client.get("/api/games").json()["opponents"]]
    kinds = {parse_spec(spec)[0] for spec in specs}
    assert "omen" in kinds and kinds - {"first", "random", "greedy"} <= set(SEARCHING_KINDS)
    for game in all_games():
        for spec in specs:
            make_bot(spec, game=game)
    snap = client.post("/api/play", json={"game": "heir", "seat": 1, "opponent": "omen:seconds=0.05", "seed": 3}).json()
    while snap["status"] == "thinking":
        snap = client.get(f"/api/play/{snap['id']}", params={"after": snap["version"], "wait": 10}).json()
    assert snap["status"] == "your-move" and snap["log"]
    assert all(e["who"] == "omen:seconds=0.05" for e in snap["log"])
