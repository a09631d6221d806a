"""Fuzzing positions: any mutation of a real position either loads, and then both engines go on from
it the same way, or is refused with an ``OmenError`` naming the field.

A case is one mutated position document: ``docs/examples/position.json`` (read at test time) or the
position of a seeded random game (two players, the Emissary variant or the solo game) stopped at a
random ply, with 1–4 edits (``fuzzlib.mutate_json``: values set to neighbours or anything, entries
deleted, duplicated or swapped, cards moved between hands, cities, the deck and the other piles,
parts grafted from another position). Sometimes the document is passed as JSON text, or written to
a file and loaded with ``load_position_file``; sometimes the text itself is cut or spliced.

When it loads: it writes back (``to_position``) to a document that loads to the same state; the
observation of each seat loads and is unchanged; and from the loaded phase the reference engine and
the Cython core (``CoreState.from_state``) play 40 random plies side by side, with the same legal
moves and observations at every ply.

Default 60 cases; ``OMEN_FUZZ=long`` 6000.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from omen_search.errors import OmenError
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_observation, load_position, load_position_file, to_position
from omen_search.games.heir.rules import DECISIONS, PHASES

from fuzzlib import Case, examples_of, fuzz, lockstep, mutate_json, mutate_text, random_config, random_game


@functools.cache
def generated_positions() -> tuple[str, ...]:
    """Positions of seeded random games at random plies, in every setup (as JSON text)."""
    rng = random.Random("positions")
    out = []
    for _ in range(40):
        state = random_game(rng, "core", config=random_config(rng), plies=rng.randrange(0, 250))
        out.append(json.dumps(to_position(state)))
    return tuple(out)


def seeds() -> list[dict[str, Any]]:
    return examples_of("omen-position/1") + [json.loads(t) for t in generated_positions()]


def edit_position(rng: random.Random, doc: dict[str, Any], donors: list[dict[str, Any]]) -> dict[str, Any]:
    """Generic edits, and now and then one that knows the format (a phase, a decision's kind)."""
    doc = mutate_json(rng, doc, donors=donors)
    if isinstance(doc, dict) and rng.random() < 0.2:
        r = rng.random()
        if r < 0.3:
            doc["phase"] = rng.choice(PHASES)
            if rng.random() < 0.5:
                doc["pending"] = None
        elif r < 0.6 and isinstance(doc.get("pending"), dict):
            doc["pending"]["kind"] = rng.choice(DECISIONS)
        elif r < 0.8:
            doc.pop(rng.choice(("deck", "rng", "pending", "stack", "flags", "war", "ply", "limbo", "revealed")), None)
        else:
            stack = doc.get("stack")
            doc["stack"] = [] if rng.random() < 0.5 or not isinstance(stack, list) else stack * 2
    return doc


def check_loaded(case: Case, state: Any, doc: Any) -> None:
    """What must hold of a position that loads."""
    again = load_position(to_position(state))
    assert again._snapshot() == state._snapshot(), "to_position then load_position changes the state"
    for p in (0, 1):
        seen = observe(state, p)
        assert load_observation(seen) == seen, f"the observation of seat {p} does not load unchanged"
    lockstep(load_position(doc, settle=False), case.rng, plies=40)


def position_case(case: Case) -> str:
    rng = case.rng
    pool = seeds()
    doc = edit_position(rng, rng.choice(pool), pool)
    how = rng.random()
    if how < 0.1:  # text cut or spliced: JSON or not
        data: Any = case.note("position.json", mutate_text(rng, json.dumps(doc), 1))
    else:
        data = case.note("position.json", doc)
    path = case.path("position.json")
    root = str(path) if how < 0.25 else "position"
    try:
        if how < 0.25:
            path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
            state = load_position_file(path)
        else:
            state = load_position(data if how >= 0.4 or isinstance(data, str) else json.dumps(data))
    except OmenError as exc:
        message = str(exc)
        assert message.startswith(root), f"the error does not name the field: {message}"
        assert "\n" not in message, f"a multi-line error: {message!r}"
        return "refused"
    check_loaded(case, state, json.loads(data) if isinstance(data, str) else data)
    return "loaded"


def test_fuzz_positions(tmp_path):
    fuzz("positions", position_case, tmp_path, default=60, long=6000)
