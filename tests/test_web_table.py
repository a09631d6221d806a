"""The table companion's API (omen_search.web.tables through omen_search.web.app): set up, events
entered with the cards they showed, questions, refusals, advice, undo, records and their review.

Skipped, saying why, without the web extra (Starlette) or httpx (the TestClient's transport).
"""

from __future__ import annotations

import json
import random
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="Starlette is not installed: pip install '.[web]' (the web extra)")
pytest.importorskip("httpx", reason="httpx is not installed (Starlette's TestClient needs it; the test extra has it)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from omen_search.games.heir.reference import GameState  # noqa: E402
from omen_search.games.heir.rules import Config  # noqa: E402
from omen_search.games.heir.table import witness  # noqa: E402
from omen_search.web.app import create_app  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "docs" / "examples" / "table.json"


@pytest.fixture
def client():
    with TestClient(create_app(allowed_hosts=("testserver",), threads=2)) as c:
        yield c


def true_game(seed: int, plies: int) -> tuple[list[str], list[str], list[tuple[int, str, list[str]]]]:
    rnd, state = random.Random(seed), GameState.new(seed=seed)
    while len(state.moves) < plies:
        state.apply(rnd.choice(state.legal_moves()))
    return witness(seed, Config(), 0, state.moves)


def started(client: TestClient, seed: int = 3) -> tuple[dict[str, Any], list]:
    hand, seen, events = true_game(seed, 40)
    response = client.post("/api/table", json={"game": "heir", "seat": 0, "hand": hand})
    assert response.status_code == 200 and "which card was revealed" in response.json()["question"]["prompt"]
    assert seen[0] in response.json()["question"]["choices"]
    response = client.post("/api/table", json={"game": "heir", "seat": 0, "hand": hand, "seen": seen})
    assert response.status_code == 201, response.text
    return response.json(), events


def test_setup_offers_the_cards_of_a_hand(client):
    setup = client.get("/api/table/setup", params={"game": "heir"}).json()
    assert setup["hand_size"] == 4 and "Temple Servant" in setup["cards"] and setup["seats"] == [0, 1]
    refused = client.get("/api/table/setup", params={"game": "heir-solo"})
    assert refused.status_code == 400 and "heir-solo has no table companion yet" in refused.json()["message"]


def test_events_entered_with_questions_answered(client):
    snap, events = started(client)
    for index, (seat, move, seen) in enumerate(events):
        assert snap["next"]["seat"] == seat
        asked = []
        while True:
            response = client.post(f"/api/table/{snap['id']}/event", json={"seat": seat, "move": move, "seen": asked})
            assert response.status_code == 200, response.text
            body = response.json()
            if "question" not in body:
                break
            assert body["question"]["kind"] == "seen" and seen[len(asked)] in body["question"]["choices"]
            asked.append(seen[len(asked)])
        snap = body
        assert len(snap["events"]) == index + 1 and snap["events"][-1]["seen"] == seen
    assert snap["view"]["seats"][0]["name"] and snap["players"] == ["you", "opponent"]


def test_an_impossible_event_is_refused_with_its_reason(client):
    snap, events = started(client)
    hand = {c["name"] for p in snap["view"]["seats"][0]["piles"] if p["name"] == "hand" for c in p["cards"]}
    absent = next(n for n in ("Fallen Archivist", "Opal Statuary", "Temple Servant") if n not in hand)
    seat, move, seen = events[0]
    response = client.post(f"/api/table/{snap['id']}/event", json={"seat": 1 - seat, "move": move})
    assert response.status_code == 422 and response.json()["message"].startswith("event 0: it is your")
    response = client.post(f"/api/table/{snap['id']}/event", json={"seat": 0, "move": f'reveal "{absent}"'})
    assert response.status_code == 422, response.text
    assert client.get(f"/api/table/{snap['id']}").json()["events"] == []  # nothing changed
    bad = client.post(f"/api/table/{snap['id']}/event", json={"seat": 0, "move": move, "seen": "x"})
    assert bad.status_code == 422 and bad.json()["message"].startswith("event 0: seen: must be a list")


def test_advice_undo_record_and_review(client):
    snap, events = started(client)
    assert snap["next"]["seat"] == 0
    advice = client.post(f"/api/table/{snap['id']}/advice", json={"iterations": 200})
    assert advice.status_code == 200, advice.text
    top = advice.json()["moves"]
    assert top and all(m["move"] in {c["move"] for c in snap["next"]["moves"]} for m in top)
    seat, move, seen = events[0]
    snap = client.post(f"/api/table/{snap['id']}/event", json={"seat": seat, "move": move, "seen": seen}).json()
    assert snap["can_undo"] and snap["hint"] is None
    undone = client.post(f"/api/table/{snap['id']}/undo").json()
    assert undone["events"] == []
    client.post(f"/api/table/{snap['id']}/event", json={"seat": seat, "move": move, "seen": seen})
    record = client.get(f"/api/table/{snap['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert record.json()["format"] == "omen-table/1" and len(record.json()["events"]) == 1
    review = client.post("/api/review", json={"table": snap["id"], "iterations": 30})
    assert review.status_code == 201 and review.json()["you"] == 0


def test_a_table_record_loads_and_reviews_from_its_seat_only(client):
    record = json.loads(EXAMPLE.read_text())
    snap = client.post("/api/table/load", json={"record": record}).json()
    assert len(snap["events"]) == 109 and snap["next"]["kind"] == "over"
    opened = client.post("/api/review", json={"record": json.dumps(record), "iterations": 20}).json()
    for _ in range(200):
        if opened["status"] != "analysing":
            break
        opened = client.get(f"/api/review/{opened['id']}", params={"after": opened["version"], "wait": 10}).json()
    assert opened["status"] == "done" and [s["seat"] for s in opened["seats"]] == [0]
    first = opened["seats"][0]["decisions"][0]
    board = client.get(f"/api/review/{opened['id']}/decision", params={"seat": 0, "ply": first["ply"]})
    assert board.status_code == 200 and board.json()["moves"]
    record["events"][3]["seat"] = 1 - record["events"][3]["seat"]
    refused = client.post("/api/table/load", json={"record": record})
    assert refused.status_code == 422 and refused.json()["message"].startswith("event 3:")


def test_advice_can_be_stopped_early(client):
    snap, _ = started(client)
    assert client.post(f"/api/table/{snap['id']}/advice/stop").json() == {"stopping": False}
    session = client.app.state.tables.get(snap["id"])  # type: ignore[attr-defined]
    done: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: done.update(
        client.post(f"/api/table/{snap['id']}/advice", json={"iterations": 10**8}).json()))
    thread.start()
    for _ in range(500):
        if session.hinting:
            break
        threading.Event().wait(0.01)
    assert client.post(f"/api/table/{snap['id']}/advice/stop").json() == {"stopping": True}
    thread.join(60)
    assert not thread.is_alive() and done["moves"] and done["iterations"] < 10**8
