"""Fuzzing observations: any mutation of a real observation either loads (normalised, a fixed
point), and then the advisor answers with legal moves and both engines go on from it the same way,
or is refused with an ``OmenError`` naming the field.

A case is one mutated observation: one of ``docs/examples``'s (read at test time) or what a seat
sees in a seeded random game (two players, the Emissary variant or the solo game) stopped at a
random ply, with 1–4 edits (``fuzzlib.mutate_json``, plus edits of the hidden counts). Sometimes it
goes through the command line instead (``advise --observation FILE --iterations 30``: exit 0, or
exit 2 with one line on stderr).

When it loads: ``load_observation`` of the result gives the result again; ``Advisor`` (30
iterations) answers with distinct legal moves and strict-JSON numbers, or raises an ``OmenError``
(the game is over, the other seat decides, the rules cannot go on without hidden cards); and the
full state the advisor builds from it (``state_from_observation``) plays 30 random plies on both
engines with the same legal moves and observations.

Default 40 cases; ``OMEN_FUZZ=long`` 4000.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from omen_search.advisor import Advisor
from omen_search.errors import OmenError
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_observation, state_from_observation
from omen_search.search import Limit

from fuzzlib import (Case, check_cli_contract, examples_of, fuzz, lockstep, mutate_json, mutate_text, random_config,
                     random_game, run_cli)


@functools.cache
def generated_observations() -> tuple[str, ...]:
    """What a seat sees in seeded random games at random plies (mostly the seat that decides)."""
    rng = random.Random("observations")
    out = []
    for _ in range(40):
        state = random_game(rng, "core", config=random_config(rng), plies=rng.randrange(0, 250))
        seat = state.current_player if not state.is_terminal() and rng.random() < 0.8 else rng.randrange(2)
        out.append(json.dumps(observe(state, seat)))
    return tuple(out)


def seeds() -> list[dict[str, Any]]:
    return examples_of("omen-observation/1") + [json.loads(t) for t in generated_observations()]


def edit_observation(rng: random.Random, doc: dict[str, Any], donors: list[dict[str, Any]]) -> dict[str, Any]:
    doc = mutate_json(rng, doc, donors=donors)
    if isinstance(doc, dict) and rng.random() < 0.3:  # the hidden counts, which must add up
        key = rng.choice(("deck_size", "hand_size", "unused_count", "under_count", "city_tiles", "emissary_chosen"))
        step = rng.choice((-1, 1))
        try:
            if key == "deck_size":
                doc[key] += step
            elif key == "city_tiles":
                doc[key][rng.randrange(3)] += step
            elif key == "emissary_chosen":
                doc["players"][rng.randrange(2)][key] = rng.random() < 0.5
            else:
                doc["players"][rng.randrange(2)][key] += step
            if rng.random() < 0.5 and key != "deck_size":
                doc["deck_size"] -= step
        except (KeyError, IndexError, TypeError):
            pass
    return doc


def check_advice(case: Case, doc: dict[str, Any]) -> str:
    """The advisor answers with legal moves, or refuses with an OmenError."""
    advisor = Advisor(Limit(iterations=30), seed=case.rng.randrange(2**32), workers=case.rng.choice((1, 1, 2)))
    try:
        advice = advisor.advise(doc if case.rng.random() < 0.7 else json.dumps(doc))
    except OmenError as exc:
        assert str(exc).startswith(("observation", "advise")), f"the error does not name the field: {exc}"
        return "loaded, no advice"
    state, _ = state_from_observation(doc)
    if state.pending is None:
        state.run_to_decision()
    legal = state.legal_moves()
    moves = [m.move for m in advice.moves]
    assert len(set(moves)) == len(moves) and set(moves) <= set(legal), f"advised {moves}, legal {legal}"
    assert advice.pov == state.current_player
    json.dumps(advice.to_dict(), allow_nan=False)
    return "advised"


def check_engines(case: Case, doc: dict[str, Any]) -> None:
    ref, _ = state_from_observation(doc)
    lockstep(ref, case.rng, plies=30)


def observation_case(case: Case) -> str:
    rng = case.rng
    pool = seeds()
    doc = edit_observation(rng, rng.choice(pool), pool)
    if rng.random() < 0.15:  # through the command line
        text = json.dumps(doc)
        if rng.random() < 0.3:
            text = mutate_text(rng, text, 1)
        path = case.path("observation.json")
        path.write_text(text, encoding="utf-8")
        case.note("observation.json", text)
        argv = case.note("argv", ["advise", "--observation", str(path), "--iterations", "30", "--quiet",
                                  *rng.choice(([], ["--json"], ["--top", "2"], ["--seed", "5", "--workers", "2"]))])
        result = run_cli(argv)
        check_cli_contract(result, argv)
        return "cli ok" if result.status == 0 else "cli refused"
    case.note("observation.json", doc)
    try:
        normal = load_observation(doc)
    except OmenError as exc:
        assert str(exc).startswith("observation"), f"the error does not name the field: {exc}"
        assert "\n" not in str(exc), f"a multi-line error: {exc!r}"
        return "refused"
    assert load_observation(normal) == normal, "load_observation's result does not load unchanged"
    outcome = check_advice(case, doc)
    check_engines(case, doc)
    return outcome


def test_fuzz_observations(tmp_path):
    fuzz("observations", observation_case, tmp_path, default=40, long=4000)
