"""Fuzzing game records: any mutation of a real record either replays, and then the core replays the
same moves with the same legal moves and observations, or is refused with an ``OmenError`` naming
the field or the ply; the commands that read records (``replay``, ``advise --record``, ``analyze``)
exit 0, or 2 with one line on stderr.

A case is one mutated record: one of ``docs/examples``'s or ``tests/data``'s (read at test time) or
the record of a seeded game (random or greedy players; two players, the Emissary variant or the
solo game; finished or cut short), with 1–4 edits: generic ones (``fuzzlib.mutate_json``) or edits
of the move list (a move dropped, repeated, swapped with the next, replaced by another move's
notation or by text that is not notation; the list cut short). Then one of: ``replay`` (and
``replay(upto=…)``) in Python, the advisor at a random ply (30 iterations), ``analyze_game`` (3
iterations a decision), or one of the commands above on the record written to a file (its text
sometimes cut or spliced).

Default 40 cases; ``OMEN_FUZZ=long`` 4000.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from omen_search.advisor import Advisor
from omen_search.analysis import analyze_game
from omen_search.bots import GreedyBot, RandomBot
from omen_search.games.heir.engines import new_game
from omen_search.errors import OmenError
from omen_search.records import make_record, replay
from omen_search.search import Limit

from fuzzlib import (Case, check_cli_contract, examples_of, fuzz, mutate_json, mutate_text, random_config, run_cli,
                     same)

NOT_NOTATION = ("", "end ", "End", "pass pass", 'play "Opal Statuary"', 'play "Opal Statuary" city3', "wealth draw 9",
                "wealth draw 99 coin 99", 'keep "Nobody"', "choose 1abel", "move city0>city0", "\u0000", "é" * 50,
                'build "Gilded Taskmaster"', 'offer "Temple Servant" draw -1 coin 1', 'war city-1', None, 3, [])


@functools.cache
def generated_records() -> tuple[str, ...]:
    """Records of seeded games in every setup (as JSON text), some cut short."""
    rng = random.Random("records")
    out = []
    for i in range(24):
        config = random_config(rng)
        state = new_game("core", seed=rng.randrange(2**64), config=config)
        bots = [GreedyBot(i) if rng.random() < 0.3 else RandomBot(i), RandomBot(i + 1)]
        stop = rng.choice((None, None, rng.randrange(1, 200)))
        while not state.is_terminal() and (stop is None or state.ply < stop):
            state.apply(bots[state.current_player].choose(state))
        out.append(json.dumps(make_record(state, ["greedy", "random"])))
    return tuple(out)


def seeds() -> list[dict[str, Any]]:
    return examples_of("omen-record/1") + [json.loads(t) for t in generated_records()]


def all_notations(pool: list[dict[str, Any]]) -> list[str]:
    return sorted({m for doc in pool for m in doc.get("moves", []) if isinstance(m, str)})


def edit_record(rng: random.Random, doc: dict[str, Any], pool: list[dict[str, Any]]) -> dict[str, Any]:
    """A quarter of the records are left as they are (they reach the engines' comparison, the advisor and
    the analysis at random plies); the rest get generic edits or edits of the moves."""
    r = rng.random()
    if r < 0.25:
        return doc
    if r < 0.6 or not isinstance(doc.get("moves"), list) or not doc["moves"]:
        return mutate_json(rng, doc, donors=pool)
    doc = json.loads(json.dumps(doc))
    moves = doc["moves"]
    for _ in range(rng.randint(1, 3)):
        if not moves:
            break
        i = rng.randrange(len(moves))
        op = rng.randrange(6)
        if op == 0:
            moves.pop(i)
        elif op == 1:
            moves.insert(i, moves[i])
        elif op == 2 and i + 1 < len(moves):
            moves[i], moves[i + 1] = moves[i + 1], moves[i]
        elif op == 3:
            moves[i] = rng.choice(all_notations(pool))
        elif op == 4:
            moves[i] = rng.choice(NOT_NOTATION)
        else:
            del moves[i:]
            if rng.random() < 0.5:
                for key in ("scores", "winner", "plies", "turns"):
                    doc.pop(key, None)
    return doc


def check_core_replays(case: Case, doc: dict[str, Any]) -> None:
    """A record the reference engine replays is replayed move for move by the core."""
    state = replay(doc)
    ref = replay(doc, upto=0)
    core = new_game("core", seed=ref.seed, config=ref.config)
    for move in state.moves:
        same(ref, core)
        ref.apply(move)
        core.apply(move)
    same(ref, core)


def python_case(case: Case, doc: Any) -> str:
    rng = case.rng
    which = rng.random()
    try:
        if which < 0.5:
            replay(doc)
            check_core_replays(case, doc)
            upto = rng.randrange(0, len(doc["moves"]) + 2)
            try:
                replay(doc, upto=upto)
            except OmenError as exc:
                assert str(exc).startswith(f"ply {upto}:"), f"the error does not name the ply: {exc}"
            return "replayed"
        if which < 0.85:
            ply = rng.choice((None, rng.randrange(-2, 300)))
            advice = Advisor(Limit(iterations=30), seed=rng.randrange(100)).advise(doc, ply)
            assert advice.moves, "advice without moves"
            json.dumps(advice.to_dict(), allow_nan=False)
            return "advised"
        review = analyze_game(doc, rng.randrange(2), Limit(iterations=3), workers=rng.choice((1, 2)))
        json.dumps(review.to_dict(), allow_nan=False)
        return "analysed"
    except OmenError as exc:
        message = str(exc)
        assert message.startswith(("record", "ply", "advise", "player", "observation")), f"the error does not name the field: {message}"
        assert "\n" not in message, f"a multi-line error: {message!r}"
        return "refused"


def cli_case(case: Case, doc: Any) -> str:
    rng = case.rng
    text = json.dumps(doc, indent=rng.choice((None, 1)))
    if rng.random() < 0.3:
        text = mutate_text(rng, text)
    path = case.path("record.json")
    path.write_text(text, encoding="utf-8")
    case.note("record.json", text)
    command = rng.random()
    if command < 0.4:
        argv = ["replay", str(path)] + (["--json"] if rng.random() < 0.5 else [])
    elif command < 0.8:
        argv = ["advise", "--record", str(path), "--iterations", "30", "--quiet"]
        if rng.random() < 0.6:
            argv += ["--ply", str(rng.choice((0, 1, 5, 40, 143, 144, 145, -1, 10**6)))]
        argv += rng.choice(([], ["--json"], ["--top", "1"]))
    else:
        argv = ["analyze", str(path), "--player", str(rng.randrange(2)), "--iterations", "3", "--quiet"]
        argv += rng.choice(([], ["--json"], ["--all"], ["--html", str(case.path("review.html"))]))
    case.note("argv", argv)
    result = run_cli(argv)
    check_cli_contract(result, argv)
    return "cli ok" if result.status == 0 else "cli refused"


def record_case(case: Case) -> str:
    rng = case.rng
    pool = seeds()
    doc = edit_record(rng, rng.choice(pool), pool)
    if rng.random() < 0.3:
        return cli_case(case, doc)
    case.note("record.json", doc)
    return python_case(case, doc)


def test_fuzz_records(tmp_path):
    fuzz("records", record_case, tmp_path, default=40, long=4000)
