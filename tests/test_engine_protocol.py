"""``omen-search engine`` (issue 5, point 4): JSON Lines after KataGo's analysis engine, fed garbage,
unknown fields, huge numbers, interleaved queries and terminations. It never crashes, never hangs
(every wait here has a timeout, so a hang fails the test instead of blocking it) and answers every
query exactly once: one final line, a reply with ``"isDuringSearch": false`` or an error
``{"id", "error", "field"}``.

Most tests run :class:`EngineServer` in a thread on a pipe; two run the real command as a process.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import omen_search
from omen_search.advisor import Advisor
from omen_search.engine_protocol import (
    KATAGO_FIELDS,
    MIN_REPORT_EVERY,
    PROTOCOL_VERSION,
    EngineServer,
    root_info,
    unknown_field_warning,
)
from omen_search.games.heir.observe import observe
from omen_search.records import replay
from omen_search.search import Limit

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"
OBSERVATION = json.loads((EXAMPLES / "observation.json").read_text(encoding="utf-8"))
RECORD = json.loads((EXAMPLES / "record.json").read_text(encoding="utf-8"))
WAIT = 30.0  # seconds: the longest any single reply may take here
SEAT1_AT_63 = observe(replay(RECORD, upto=63), 1)  # seat 0 decides there
LONG = {"maxIterations": 1_000_000_000, "maxSeconds": 20}  # runs until terminated (20 s at most)


def strict_json(line: str) -> dict[str, Any]:
    """A reply line: one JSON object, with no NaN or Infinity (which JSON does not have)."""
    def no_constant(name: str) -> None:
        raise AssertionError(f"{name} in a reply: {line}")

    doc = json.loads(line, parse_constant=no_constant)
    assert isinstance(doc, dict), line
    return doc


class _Lines:
    """A text stream for the server's stdout that hands each complete line to a queue."""

    def __init__(self, out: queue.Queue[str]):
        self.out, self.buffer = out, ""

    def write(self, text: str) -> int:
        self.buffer += text
        while "\n" in self.buffer:
            line, self.buffer = self.buffer.split("\n", 1)
            self.out.put(line)
        return len(text)

    def flush(self) -> None:
        pass


class Engine:
    """An EngineServer in a thread, fed through a pipe."""

    def __init__(self) -> None:
        read_fd, self.write_fd = os.pipe()
        self.stdin = os.fdopen(self.write_fd, "w", encoding="utf-8")
        self.lines: queue.Queue[str] = queue.Queue()
        self.server = EngineServer(os.fdopen(read_fd, "r", encoding="utf-8"), _Lines(self.lines))  # type: ignore[arg-type]
        self.status: int | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        self.seen: list[dict[str, Any]] = []

    def _serve(self) -> None:
        self.status = self.server.serve()

    def send(self, message: Any) -> None:
        self.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.stdin.flush()

    def send_bytes(self, data: bytes) -> None:
        self.stdin.flush()
        os.write(self.write_fd, data)

    def reply(self, timeout: float = WAIT) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the engine did not answer within {timeout} s")
        doc = strict_json(line)
        self.seen.append(doc)
        return doc

    def reply_for(self, qid: Any, final: bool = True, timeout: float = WAIT) -> dict[str, Any]:
        """The next reply for ``qid`` (the final one if ``final``), keeping the others in ``seen``."""
        deadline = time.monotonic() + timeout
        while True:
            doc = self.reply(max(0.01, deadline - time.monotonic()))
            if doc.get("id") == qid and (not final or is_final(doc)):
                return doc

    def close(self, timeout: float = WAIT) -> list[dict[str, Any]]:
        """Close stdin; the engine answers what is queued and returns 0. Every reply, in order."""
        self.stdin.close()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the engine did not finish after stdin closed"
        assert self.status == 0
        while not self.lines.empty():
            self.reply()
        return self.seen


def is_final(doc: dict[str, Any]) -> bool:
    return "error" in doc or doc.get("isDuringSearch") is False


def finals_by_id(replies: list[dict[str, Any]]) -> Counter:
    return Counter(json.dumps(d["id"]) for d in replies if is_final(d) and "action" not in d)


def query(qid: Any, **fields: Any) -> dict[str, Any]:
    return {"id": qid, "observation": OBSERVATION, "maxIterations": 300, **fields}


def expected_reply(qid: Any, advisor: Advisor, source: Any = OBSERVATION, ply: int | None = None,
                   top: int | None = None) -> dict[str, Any]:
    """The final reply the engine must give: the advisor's JSON, with the id, the ply and rootInfo."""
    advice = advisor.advise(source, ply)
    return {"id": qid, "isDuringSearch": False, "turnNumber": advice.ply, **advice.to_dict(top),
            "rootInfo": root_info(advice)}


@pytest.fixture
def engine():
    e = Engine()
    yield e
    if e.thread.is_alive():  # a test that failed half-way: stop what runs, let the thread end
        for key in list(e.server.pending):
            e.send({"id": "cleanup", "action": "terminate", "terminateId": json.loads(key)})
        if not e.stdin.closed:
            e.stdin.close()
        e.thread.join(WAIT)


# ------------------------------------------------------------------------------ answers


def test_a_query_is_answered_with_the_advisors_advice(engine):
    engine.send(query("a", seed=3, top=2))
    reply = engine.reply_for("a")
    assert reply["isDuringSearch"] is False and "terminated" not in reply and "warnings" not in reply
    assert reply == expected_reply("a", Advisor(Limit(iterations=300), seed=3), top=2)
    assert reply["turnNumber"] == OBSERVATION["ply"] == 63
    assert engine.close() == [reply]


def test_root_info_is_the_positions_value_over_every_iteration(engine):
    engine.send(query("r", seed=4))
    reply = engine.reply_for("r")
    info = reply["rootInfo"]
    assert set(info) == {"currentPlayer", "winProb", "vpMargin", "visits"}
    assert info["currentPlayer"] == reply["pov"] == 0 and info["visits"] == reply["iterations"] == 300
    moves = reply["moves"]
    assert info["winProb"] == pytest.approx(sum(m["win_prob"] * m["visits"] for m in moves) / 300, abs=1e-3)
    assert info["vpMargin"] == pytest.approx(sum(m["vp_margin"] * m["visits"] for m in moves) / 300, abs=1e-3)
    assert min(m["win_prob"] for m in moves) <= info["winProb"] <= max(m["win_prob"] for m in moves)


def test_a_forced_move_has_a_root_info_without_values(engine):
    state = replay(RECORD, upto=0)
    for move in RECORD["moves"]:
        if len(state.legal_moves()) == 1:
            break
        state.apply(move)
    ply = state.ply
    engine.send({"id": "f", "record": RECORD, "ply": ply})
    reply = engine.reply_for("f")
    assert reply["turnNumber"] == ply and reply["separated"] is True
    assert reply["rootInfo"] == {"currentPlayer": reply["pov"], "winProb": None, "vpMargin": None, "visits": 0}


def test_a_record_and_ply_is_the_observation_of_the_seat_to_move(engine):
    engine.send({"id": 1, "record": RECORD, "ply": 63, "maxIterations": 300, "seed": 3})
    engine.send(query(2, seed=3))
    first, second = engine.reply_for(1), engine.reply_for(2)
    assert first["pov"] == 0 and first["turnNumber"] == 63 and {**first, "id": 2} == second


def test_a_query_naming_the_documents_game_is_answered_as_without_it(engine):
    engine.send(query("named", seed=3, game="heir"))
    engine.send(query("any", seed=3, game=None))
    named, unnamed = engine.reply_for("named"), engine.reply_for("any")
    assert "warnings" not in named and {**named, "id": "any"} == unnamed


def test_workers_and_the_mo_algorithm(engine):
    engine.send(query("mo", maxIterations=901, workers=2, algorithm="ismcts-mo", seed=5))
    reply = engine.reply_for("mo")
    assert reply["iterations"] == 901 and sum(m["visits"] for m in reply["moves"]) == 901
    assert reply == expected_reply("mo", Advisor(Limit(iterations=901), "ismcts-mo", seed=5, workers=2))


def test_query_version(engine):
    engine.send({"id": "v", "action": "query_version"})
    reply = engine.reply()
    assert reply == {"id": "v", "action": "query_version", "version": omen_search.__version__,
                     "protocol": PROTOCOL_VERSION}


def test_partial_reports_come_during_the_search_then_one_final_reply(engine):
    engine.send(query("p", maxIterations=None, maxSeconds=0.9, reportDuringSearchEvery=0.2, top=3))
    final = engine.reply_for("p")
    partial = [d for d in engine.seen if d.get("isDuringSearch") is True]
    assert len(partial) >= 2 and all(d["id"] == "p" for d in partial)
    iterations = [d["iterations"] for d in partial] + [final["iterations"]]
    assert iterations == sorted(iterations) and iterations[0] > 0
    for d in partial:
        assert 1 <= len(d["moves"]) <= 3 and d["turnNumber"] == 63 and isinstance(d["separated"], bool)
        assert all(m["pv"] == [] for m in d["moves"])  # found at the end
        assert d["rootInfo"]["visits"] == d["iterations"]
    assert all(m["pv"] for m in final["moves"])
    assert finals_by_id(engine.close()) == {'"p"': 1}


def test_unknown_fields_are_warned_about_and_the_query_still_answered(engine):
    engine.send(query(7, colour="blue", maxVisits=5, seed=2))
    reply = engine.reply_for(7)
    assert reply["isDuringSearch"] is False and reply["iterations"] == 300  # maxVisits is not read
    assert reply["warnings"] == [
        {"field": "colour", "warning": "unknown field, ignored"},
        {"field": "maxVisits", "warning": "unknown field, ignored: KataGo's maxVisits; did you mean maxIterations?"}]
    assert {k: v for k, v in reply.items() if k != "warnings"} == expected_reply(7, Advisor(Limit(iterations=300),
                                                                                            seed=2))


@pytest.mark.parametrize("name, warning", [
    ("maxVisits", "unknown field, ignored: KataGo's maxVisits; did you mean maxIterations?"),
    ("maxPlayouts", "unknown field, ignored: KataGo's maxPlayouts; did you mean maxIterations?"),
    ("moves", "unknown field, ignored: KataGo's moves; did you mean record?"),
    ("initialStones", "unknown field, ignored: KataGo's initialStones; did you mean observation?"),
    ("rules", "unknown field, ignored: KataGo's rules; did you mean game?"),
    ("komi", "unknown field, ignored: KataGo's komi, which these games do not have"),
    ("boardXSize", "unknown field, ignored: KataGo's boardXSize, which these games do not have"),
    ("includeOwnership", "unknown field, ignored: KataGo's includeOwnership, which these games do not have"),
    ("maxIteration", "unknown field, ignored; did you mean maxIterations?"),
    ("analyseTurns", "unknown field, ignored; did you mean analyzeTurns?"),
    ("Seed", "unknown field, ignored; did you mean seed?"),
    ("colour", "unknown field, ignored"),
])
def test_katago_names_and_near_misses_get_a_did_you_mean_warning_not_an_error(engine, name, warning):
    engine.send({**query("w"), name: 5})
    reply = engine.reply_for("w")
    assert "error" not in reply and reply["moves"]
    assert reply["warnings"] == [{"field": name, "warning": warning}]


def test_the_documented_katago_names_are_the_ones_warned_about():
    page = (Path(__file__).parent.parent / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    table = page[page.index("### Fields the engine does not read"):page.index("## Replies")]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| `")]
    documented = {name for first, _ in rows for name in re.findall(r"`(\w+)`", first)}
    assert documented == set(KATAGO_FIELDS)
    for first, warning in rows:
        shown = re.search(r"`([^`]*)`", warning).group(1).removeprefix("… ")  # type: ignore[union-attr]
        name = re.findall(r"`(\w+)`", first)[0]
        assert unknown_field_warning(name).endswith(shown), (name, shown)


# ------------------------------------------------------------------------------ analyzeTurns


def test_analyze_turns_answers_each_ply_in_order_as_a_query_of_that_ply_would(engine):
    engine.send({"id": "game", "record": RECORD, "analyzeTurns": [63, 20, 5], "maxIterations": 300, "seed": 3,
                 "top": 2, "komi": 0})
    replies = [engine.reply_for("game") for _ in range(3)]
    assert [r["turnNumber"] for r in replies] == [63, 20, 5]
    warning = [{"field": "komi", "warning": "unknown field, ignored: KataGo's komi, which these games do not have"}]
    for reply in replies:
        assert reply["warnings"] == warning
        ply = reply["turnNumber"]
        assert {k: v for k, v in reply.items() if k != "warnings"} == expected_reply(
            "game", Advisor(Limit(iterations=300), seed=3), RECORD, ply, top=2)
    assert finals_by_id(engine.close()) == {'"game"': 3}


def test_analyze_turns_with_partial_reports_carry_the_ply(engine):
    engine.send({"id": "g", "record": RECORD, "analyzeTurns": [10, 11], "maxSeconds": 0.5,
                 "reportDuringSearchEvery": 0.1})
    replies = engine.close()
    assert [r["turnNumber"] for r in replies if is_final(r)] == [10, 11]
    partial = [r["turnNumber"] for r in replies if r.get("isDuringSearch")]
    assert partial and partial == sorted(partial) and set(partial) <= {10, 11}


def test_analyze_turns_a_ply_that_cannot_be_advised_is_an_error_for_that_ply_alone(engine):
    over = len(RECORD["moves"])
    engine.send({"id": "g", "record": RECORD, "analyzeTurns": [500, 3, over], "maxIterations": 100})
    replies = [engine.reply_for("g") for _ in range(3)]
    assert replies[0] == {"id": "g", "error": "ply 500: the record has 93 plies", "field": "analyzeTurns[0]",
                          "turnNumber": 500}
    assert replies[1]["turnNumber"] == 3 and replies[1]["moves"]
    assert replies[2] == {"id": "g", "error": "advise: the game is over at ply 93", "field": "analyzeTurns[2]",
                          "turnNumber": over}


@pytest.mark.parametrize("fields, field, message", [
    ({"analyzeTurns": []}, "analyzeTurns", "analyzeTurns: must be a list of 1 to 10000 plies, got []"),
    ({"analyzeTurns": 5}, "analyzeTurns", "analyzeTurns: must be a list of 1 to 10000 plies, got 5"),
    ({"analyzeTurns": [1] * 10_001}, "analyzeTurns", "analyzeTurns: must be a list of 1 to 10000 plies"),
    ({"analyzeTurns": [3, "4"]}, "analyzeTurns[1]", "analyzeTurns[1] must be an integer from 0 to 10000000"),
    ({"analyzeTurns": [3, -1]}, "analyzeTurns[1]", "analyzeTurns[1] must be an integer from 0 to 10000000"),
    ({"analyzeTurns": [3, 4.5]}, "analyzeTurns[1]", "analyzeTurns[1] must be an integer"),
    ({"analyzeTurns": [3, 7, 3]}, "analyzeTurns[2]", "analyzeTurns[2]: ply 3 is asked for twice"),
    ({"analyzeTurns": [3], "ply": 3}, "analyzeTurns", "analyzeTurns: give ply or analyzeTurns, not both"),
])
def test_analyze_turns_bad_lists_are_refused_naming_the_entry(engine, fields, field, message):
    engine.send({"id": "bad", "record": RECORD, **fields})
    error = engine.reply()
    assert set(error) == {"id", "error", "field"} and error["field"] == field and error["error"].startswith(message)


def test_analyze_turns_goes_with_a_record(engine):
    engine.send(query("obs", analyzeTurns=[3]))
    assert engine.reply() == {"id": "obs", "error": "analyzeTurns goes with a record", "field": "analyzeTurns"}


def test_terminate_some_turns_of_an_analysis(engine):
    engine.send({"id": "g", "record": RECORD, "analyzeTurns": [2, 3, 6, 7], **LONG, "reportDuringSearchEvery": 0.1})
    assert engine.reply_for("g", final=False)["turnNumber"] == 2  # running
    engine.send({"id": "t", "action": "terminate", "terminateId": "g", "turnNumbers": [2, 6]})
    ack = engine.reply_for("t", final=False)
    assert ack == {"id": "t", "action": "terminate", "terminateId": "g", "turnNumbers": [2, 6]}
    while (report := engine.reply_for("g", final=False))["turnNumber"] != 3:  # 2 stops, 6 is skipped, 3 runs
        assert report["turnNumber"] == 2
    engine.send({"id": "t2", "action": "terminate_all", "turnNumbers": [3, 7]})
    replies = engine.close()
    finals = {r["turnNumber"]: r for r in replies if r.get("id") == "g" and is_final(r)}
    assert sorted(finals) == [2, 3, 6, 7] and all(r.get("terminated") is True for r in finals.values()), finals
    assert finals[6] == {"id": "g", "isDuringSearch": False, "turnNumber": 6, "moves": [], "terminated": True}
    assert finals[2]["moves"] and finals[3]["moves"]  # searched a while, each
    assert finals_by_id(replies) == {'"g"': 4}


def test_terminate_all_stops_the_running_query_and_answers_the_queued_ones(engine):
    engine.send(query("long", **LONG, reportDuringSearchEvery=0.1))
    engine.reply_for("long", final=False)
    engine.send(query("queued"))
    engine.send({"id": "g", "record": RECORD, "analyzeTurns": [5, 6]})
    engine.send({"id": "all", "action": "terminate_all"})
    engine.send(query("after", maxIterations=200))
    replies = engine.close()
    assert {"id": "all", "action": "terminate_all"} in replies
    assert finals_by_id(replies) == {'"long"': 1, '"queued"': 1, '"g"': 2, '"after"': 1}
    terminated = [r for r in replies if is_final(r) and r.get("terminated")]
    assert sorted(json.dumps(r["id"]) for r in terminated) == ['"g"', '"g"', '"long"', '"queued"']
    assert {r["turnNumber"] for r in terminated if r["id"] == "g"} == {5, 6}
    queued = next(r for r in terminated if r["id"] == "queued")
    assert queued == {"id": "queued", "isDuringSearch": False, "turnNumber": 63, "moves": [], "terminated": True}
    after = next(r for r in replies if r.get("id") == "after" and is_final(r))
    assert after["iterations"] == 200 and "terminated" not in after  # later queries are not touched


@pytest.mark.parametrize("source, turn", [
    ({"record": RECORD}, 93), ({"record": RECORD, "ply": 12}, 12), ({"observation": OBSERVATION}, 63),
    ({"observation": {k: v for k, v in OBSERVATION.items() if k != "ply"}}, 0),
    ({"observation": {**OBSERVATION, "ply": "x"}}, None), ({"record": {**RECORD, "moves": "x"}}, None),
])
def test_a_query_terminated_before_it_runs_names_the_ply_its_document_gives(engine, source, turn):
    engine.send(query("long", **LONG, reportDuringSearchEvery=0.1))
    engine.reply_for("long", final=False)
    engine.send({"id": "q", **source})
    engine.send({"id": "all", "action": "terminate_all"})
    assert engine.reply_for("q") == {"id": "q", "isDuringSearch": False, "turnNumber": turn, "moves": [],
                                     "terminated": True}


def test_turn_numbers_pick_queries_by_the_ply_they_are_about(engine):
    """An observation's ply and a record's length count, as in the replies' turnNumber."""
    engine.send(query("long", **LONG, reportDuringSearchEvery=0.1))  # the observation is at ply 63
    engine.reply_for("long", final=False)
    engine.send({"id": "whole", "record": RECORD, "ply": 20, "maxIterations": 200})
    engine.send({"id": "at63", "record": RECORD, "ply": 63})
    engine.send({"id": "all", "action": "terminate_all", "turnNumbers": [63]})
    assert engine.reply_for("at63") == {"id": "at63", "isDuringSearch": False, "turnNumber": 63, "moves": [],
                                        "terminated": True}
    assert engine.reply_for("long")["terminated"] is True
    whole = engine.reply_for("whole")
    assert whole["turnNumber"] == 20 and whole["iterations"] == 200 and "terminated" not in whole


@pytest.mark.parametrize("action", [
    {"action": "terminate_all", "turnNumbers": 5},
    {"action": "terminate_all", "turnNumbers": [1, "2"]},
    {"action": "terminate", "terminateId": "x", "turnNumbers": [-1]},
])
def test_terminate_turn_numbers_must_be_a_list_of_plies(engine, action):
    engine.send({"id": "t", **action})
    error = engine.reply()
    assert error["field"] == "turnNumbers" and error["error"].startswith("turnNumbers must be a list of at most")


# ------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("line", [
    "garbage", "{", '{"id": 1,}', "[]", "42", '"text"', "null", "true", "[" * 50_000 + "]" * 50_000,
    '{"id": 1, "maxIterations": ' + "9" * 5000 + "}",
])
def test_garbage_lines_get_an_error_and_the_engine_keeps_serving(engine, line):
    engine.send(line)
    error = engine.reply()
    assert error["id"] is None and error["field"] == "" and error["error"].startswith(("not valid JSON", "not a JSON"))
    assert set(error) == {"id", "error", "field"}
    engine.send(query("after"))
    assert engine.reply_for("after")["moves"]


def test_bytes_that_are_not_utf8_are_a_bad_line_not_the_end(engine):
    engine.send_bytes(b'{"id": "\xff\xfe"}\n\xc3\x28\n')
    first, second = engine.reply(), engine.reply()
    assert first["field"] == "observation" and second["error"].startswith("not valid JSON")
    engine.send({"id": "v", "action": "query_version"})
    assert engine.reply()["version"] == omen_search.__version__


@pytest.mark.parametrize("qid", [None, 1.5, True, [1], {"a": 1}, "missing"])
def test_a_query_or_action_needs_an_id(engine, qid):
    doc = query(qid)
    if qid == "missing":
        del doc["id"]
    engine.send(doc)
    assert engine.reply() == {"id": None, "error": "every query and action needs an id (a string or an integer)",
                              "field": "id"}


@pytest.mark.parametrize("fields, field", [
    ({"maxIterations": 10**30}, "maxIterations"),
    ({"maxIterations": -5}, "maxIterations"),
    ({"maxIterations": 0}, "maxIterations"),
    ({"maxIterations": 1e400}, "maxIterations"),  # JSON 1e400 reads as infinity
    ({"maxIterations": float("nan")}, "maxIterations"),  # written as NaN, which Python's JSON reads
    ({"maxIterations": "300"}, "maxIterations"),
    ({"maxIterations": 300.5}, "maxIterations"),
    ({"maxIterations": True}, "maxIterations"),
    ({"maxSeconds": 0}, "maxSeconds"),
    ({"maxSeconds": -1}, "maxSeconds"),
    ({"maxSeconds": 1e308}, "maxSeconds"),
    ({"maxSeconds": float("-inf")}, "maxSeconds"),
    ({"maxSeconds": "1"}, "maxSeconds"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"seed": 1.0}, "seed"),
    ({"top": 0}, "top"),
    ({"top": 10**30}, "top"),
    ({"workers": 0}, "workers"),
    ({"workers": 10**6}, "workers"),
    ({"reportDuringSearchEvery": 0}, "reportDuringSearchEvery"),
    ({"reportDuringSearchEvery": MIN_REPORT_EVERY / 10}, "reportDuringSearchEvery"),
    ({"reportDuringSearchEvery": float("nan")}, "reportDuringSearchEvery"),
    ({"algorithm": "alphazero"}, "algorithm"),
    ({"game": "chess"}, "game"),
    ({"game": ["heir"]}, "game"),
    ({"ply": 3}, "ply"),
    ({"observation": "seat 1 holds five cards"}, "observation"),
    ({"observation": None}, "observation"),
    ({"record": RECORD}, "observation"),  # both
])
def test_bad_fields_get_an_error_naming_the_field(engine, fields, field):
    engine.send(json.dumps(query(5, **fields)))  # Python's json writes NaN and Infinity, as a careless client may
    error = engine.reply()
    assert set(error) == {"id", "error", "field"} and error["id"] == 5 and error["field"] == field, error
    engine.send(query(6))
    assert engine.reply_for(6)["moves"]
    assert finals_by_id(engine.close()) == {"5": 1, "6": 1}


def test_a_query_without_a_position(engine):
    engine.send({"id": 1, "maxIterations": 10})
    assert engine.reply() == {"id": 1, "error": "a query needs exactly one of observation and record",
                              "field": "observation"}
    engine.send({"id": 2, "record": [], "ply": 3})
    assert engine.reply()["field"] == "record"


@pytest.mark.parametrize("source, field, message", [
    ({"observation": {**OBSERVATION, "players": [{**OBSERVATION["players"][0], "hand": ["Opal Statue"]},
                                                  OBSERVATION["players"][1]]}},
     "observation.players[0].hand[0]", "observation.players[0].hand[0]: unknown card 'Opal Statue'"),
    ({"observation": SEAT1_AT_63}, "observation.player", "observation.player: this is seat 1's"),
    ({"observation": {}}, "observation.player", "observation.player: missing"),
    ({"record": {**RECORD, "format": "pgn"}}, "record.format", "record.format: expected 'omen-record/1'"),
    ({"record": RECORD, "ply": 500}, "ply", "ply 500: the record has 93 plies"),
    ({"record": RECORD, "ply": 93}, "ply", "advise: the game is over at ply 93"),
    ({"record": RECORD}, "record", "advise: the game is over at ply 93"),
    ({"record": {**RECORD, "moves": RECORD["moves"][:3] + ["pass"] + RECORD["moves"][4:]}, "ply": 20},
     "record.moves[3]", "ply 3: move 'pass' does not replay"),
    ({"observation": OBSERVATION, "game": "heir-solo"}, "game",
     "game: the query asks for heir-solo, but the observation is a game of heir"),
    ({"record": RECORD, "ply": 63, "game": "heir-solo"}, "game",
     "game: the query asks for heir-solo, but the record is a game of heir"),
    ({"record": {**RECORD, "game": "heir-solo"}, "ply": 63}, "record.game",
     "record.game: is 'heir-solo', but record.config sets up 'heir'"),
    ({"observation": {**OBSERVATION, "game": "chess"}, "game": "heir"}, "observation.game",
     "observation.game: unknown game 'chess'"),
])
def test_a_bad_observation_or_record_gets_the_advisors_error(engine, source, field, message):
    engine.send({"id": "bad", "maxIterations": 100, **source})
    error = engine.reply()
    assert error["id"] == "bad" and error["field"] == field and error["error"].startswith(message), error
    engine.send(query("good"))
    assert engine.reply_for("good")["moves"]


def test_actions_with_bad_fields(engine):
    engine.send({"id": 1, "action": "ponder"})
    assert engine.reply() == {"id": 1, "error": 'unknown action "ponder" (expected query_version, terminate or '
                                                'terminate_all)', "field": "action"}
    engine.send({"id": 1, "action": "terminateAll"})
    assert engine.reply()["error"] == ('unknown action "terminateAll" (expected query_version, terminate or '
                                       'terminate_all; did you mean terminate_all?)')
    engine.send({"id": 2, "action": "terminate"})
    assert engine.reply()["field"] == "terminateId"
    engine.send({"id": 3, "action": "terminate", "terminateId": "nothing-running"})
    assert engine.reply() == {"id": 3, "action": "terminate", "terminateId": "nothing-running"}


# ------------------------------------------------------------------------------ many queries, terminations


def test_interleaved_queries_are_each_answered_exactly_once_in_order(engine):
    ids = ["a", 2, "c", 4, "a"]  # a repeated id is a second query
    for i, qid in enumerate(ids):
        engine.send(query(qid, maxIterations=200 + 50 * i, seed=i, reportDuringSearchEvery=0.05))
        engine.send("garbage")
        engine.send({"id": f"v{i}", "action": "query_version"})
    replies = engine.close()
    finals = [d for d in replies if is_final(d) and "error" not in d and "action" not in d]
    assert [d["id"] for d in finals] == ids  # one at a time, in order
    assert [d["iterations"] for d in finals] == [200, 250, 300, 350, 400]
    assert sum(1 for d in replies if d.get("error", "").startswith("not valid JSON")) == len(ids)
    assert sum(1 for d in replies if d.get("action") == "query_version") == len(ids)


def test_terminate_a_running_query(engine):
    engine.send(query("long", **LONG, reportDuringSearchEvery=0.1))
    assert engine.reply_for("long", final=False)["isDuringSearch"] is True  # it is running
    started = time.monotonic()
    engine.send({"id": "t", "action": "terminate", "terminateId": "long"})
    final = engine.reply_for("long")
    assert time.monotonic() - started < 5
    assert final["isDuringSearch"] is False and final["terminated"] is True
    assert final["moves"] and 0 < final["iterations"] < LONG["maxIterations"]
    replies = engine.close()
    assert {"id": "t", "action": "terminate", "terminateId": "long"} in replies
    assert finals_by_id(replies) == {'"long"': 1}
    assert not [d for d in replies[replies.index(final) + 1:] if d.get("id") == "long"]  # nothing after


def test_terminate_a_running_query_without_reports(engine):
    engine.send(query("long", **LONG))
    time.sleep(0.5)
    engine.send({"id": "t", "action": "terminate", "terminateId": "long"})
    final = engine.reply_for("long", timeout=5)
    assert final["terminated"] is True and final["moves"]


def test_terminate_a_queued_query_answers_it_at_once(engine):
    engine.send(query("long", **LONG, reportDuringSearchEvery=0.1))
    engine.reply_for("long", final=False)
    engine.send(query("queued"))
    engine.send(query("next", maxIterations=200))
    engine.send({"id": "t", "action": "terminate", "terminateId": "queued"})
    dropped = engine.reply_for("queued", timeout=5)
    assert dropped == {"id": "queued", "isDuringSearch": False, "turnNumber": 63, "moves": [], "terminated": True}
    assert not any(d.get("id") == "long" and is_final(d) for d in engine.seen)  # still running
    engine.send({"id": "t2", "action": "terminate", "terminateId": "long"})
    assert engine.reply_for("long")["terminated"] is True
    assert engine.reply_for("next")["iterations"] == 200
    replies = engine.close()
    assert finals_by_id(replies) == {'"long"': 1, '"queued"': 1, '"next"': 1}


def test_terminate_every_query_with_an_id_and_terminate_twice(engine):
    engine.send(query(9, **LONG, reportDuringSearchEvery=0.1))
    engine.reply_for(9, final=False)
    engine.send(query(9, **LONG))
    for _ in range(2):
        engine.send({"id": "t", "action": "terminate", "terminateId": 9})
    replies = engine.close()
    finals = [d for d in replies if d.get("id") == 9 and is_final(d)]
    assert len(finals) == 2 and all(d["terminated"] is True for d in finals)
    assert sum(1 for d in replies if d.get("action") == "terminate") == 2


def test_closing_stdin_finishes_the_queued_queries(engine):
    for qid in range(4):
        engine.send(query(qid, maxIterations=300))
    replies = engine.close()
    assert finals_by_id(replies) == {str(q): 1 for q in range(4)}
    assert all(d["isDuringSearch"] is False and d["iterations"] == 300 for d in replies)


# ------------------------------------------------------------------------------ the command


def engine_process() -> subprocess.Popen:
    """``python -m omen_search engine`` running this test run's package (-P: not a source tree that
    happens to be the working directory)."""
    env = {**os.environ, "PYTHONPATH": str(Path(omen_search.__file__).parent.parent)}
    return subprocess.Popen([sys.executable, "-P", "-m", "omen_search", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_the_engine_command_answers_everything_and_exits_0_when_stdin_closes():
    lines = ["not json", json.dumps({"id": "v", "action": "query_version"}),
             json.dumps(query(1, maxIterations=400, reportDuringSearchEvery=0.05)),
             json.dumps(query(2, maxIterations=10**30)), json.dumps(query(3, maxIterations=300, top=1)),
             json.dumps({"id": "t", "action": "terminate", "terminateId": 3})]
    process = engine_process()
    try:
        out, err = process.communicate("\n".join(lines) + "\n", timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    replies = [strict_json(line) for line in out.splitlines()]
    assert finals_by_id(replies) == {"null": 1, "1": 1, "2": 1, "3": 1}
    assert next(d for d in replies if d.get("id") == 2)["field"] == "maxIterations"


def test_the_engine_command_keeps_serving_while_a_search_runs():
    process = engine_process()
    assert process.stdin is not None and process.stdout is not None
    got: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [got.put(line) for line in process.stdout], daemon=True).start()

    def next_reply() -> dict[str, Any]:
        try:
            return strict_json(got.get(timeout=WAIT))
        except queue.Empty:
            pytest.fail("the engine did not answer")

    try:
        process.stdin.write(json.dumps(query("long", **LONG, reportDuringSearchEvery=0.2)) + "\n")
        process.stdin.flush()
        assert next_reply()["isDuringSearch"] is True
        process.stdin.write('{"id": "v", "action": "query_version"}\n')
        process.stdin.flush()
        while (reply := next_reply()).get("id") != "v":
            assert reply["id"] == "long" and reply["isDuringSearch"] is True
        process.stdin.write('{"id": "t", "action": "terminate", "terminateId": "long"}\n')
        process.stdin.close()
        assert process.wait(timeout=WAIT) == 0
    finally:
        process.kill()
    rest = []
    while not got.empty():
        rest.append(strict_json(got.get()))
    assert [d for d in rest if is_final(d)] == [next(d for d in rest if d.get("id") == "long" and is_final(d))]


# ------------------------------------------------------------------------------ docs/engine-protocol.md


def test_the_documented_session_is_what_the_engine_says():
    """The example session of docs/engine-protocol.md: every reply line is strict JSON of a
    documented shape, every position asked about in it is answered exactly once, and the replies
    that do not depend on time (an iteration budget, not terminated) are exactly what the engine
    answers today."""
    page = (Path(__file__).parent.parent / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", page, flags=re.S)
    sent, received = blocks[0].splitlines(), [strict_json(line) for line in blocks[1].splitlines()]
    asked = {}
    for line in sent:
        if m := re.match(r'\{"id": "(\w+)", "(observation|record)"', line):
            turns = re.search(r'"analyzeTurns": \[([\d, ]+)\]', line)
            asked[json.dumps(m.group(1))] = len(turns.group(1).split(",")) if turns else 1
    assert finals_by_id(received) == asked | {"null": 1}
    reply_keys = {"id", "isDuringSearch", "turnNumber", "pov", "iterations", "determinizations", "separated", "moves",
                  "war_outlook", "rootInfo"}
    for doc in received:
        if doc.get("moves") == []:
            assert set(doc) == {"id", "isDuringSearch", "turnNumber", "moves", "terminated"}
        elif "isDuringSearch" in doc:
            assert reply_keys <= set(doc) <= reply_keys | {"terminated", "warnings"}
        elif "error" in doc:
            assert set(doc) == {"id", "error", "field"}
        else:
            assert doc["action"] in ("query_version", "terminate", "terminate_all")
    files = {name: json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
             for name in ("advice-handwritten.json", "advice-observation.json", "advice-record.json")}
    engine = Engine()
    for line in sent:
        if line.startswith(('{"id": "war"', '{"id": "game"', '{"id": "last"')):
            line = re.sub(r'"analyzeTurns": \[16, [\d, ]+\]', '"analyzeTurns": [16]', line)  # the plies not terminated
            engine.send(re.sub(r"<([\w.-]+)>", lambda m: json.dumps(files[m.group(1)]), line))
    replies = engine.close()
    assert [(d["id"], d["turnNumber"]) for d in replies] == [("war", 0), ("game", 16), ("last", 16)]
    assert replies == [d for d in received if (d.get("id"), d.get("turnNumber")) in
                       (("war", 0), ("game", 16), ("last", 16))]
