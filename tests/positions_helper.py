"""Small positions for the rulings tests, written as hand-made position documents.

:func:`position` fills in what a test does not care about (an empty board, 4 coins each, 3 reward
tiles per city) and puts every card not placed elsewhere into the deck in card order, so that the
cards a test names as ``deck_top`` are exactly the ones drawn or revealed first. The other helpers
read a state back as card names, the way a reader of the rules would describe it.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from importlib import resources

from omen_search.games.heir.cards import CardSet, default_cards, parse_cards
from omen_search.games.heir.positions import load_position, to_position
from omen_search.games.heir.reference import GameState

EMPTY = ((), ())  # a city with nobody in it


def seed_card_text() -> str:
    """The text of the built-in card file, as installed."""
    return resources.files("omen_search").joinpath("data/heir-seed.toml").read_text(encoding="utf-8")


def edited_cards(name: str, old: str, new: str) -> CardSet:
    """The built-in set with one edit inside the block of the card (unit or structure) called ``name``.

    Used where the built-in set has no card that can show a ruling (a unit with REINFORCE,
    INVOCATION and MANEUVER at once; a Neutral ENDURING unit; a structure that reveals fewer cards
    than it lets you take)."""
    text = seed_card_text()
    start = text.index(f'\nname = "{name}"\n')
    end = text.find("\n[[", start)
    block = text[start:end]
    assert block.count(old) == 1
    return parse_cards(text[:start] + block.replace(old, new) + text[end:], "edited.toml")


def _placed(doc: dict[str, Any]) -> Counter:
    """Every unit the document puts somewhere other than the deck."""
    seen: Counter = Counter(doc.get("discard", []))
    for sides in doc["cities"]:
        for side in sides:
            seen.update(side)
    seen.update(doc.get("revealed", []))
    seen.update(doc.get("limbo", []))
    for player in doc["players"]:
        seen.update(player.get("hand", []))
        seen.update(player.get("under", []))
        if player.get("emissary"):
            seen[player["emissary"]] += 1
    return seen


def unplaced(doc: dict[str, Any], cards: CardSet | None = None) -> list[str]:
    """The units a document does not place, in card-file order."""
    cards = cards or default_cards()
    seen = _placed(doc)
    out = []
    for unit in cards.units:
        left = unit.copies - seen[unit.name]
        assert left >= 0, f"the position places {seen[unit.name]} copies of {unit.name!r}"
        out += [unit.name] * left
    return out


def position_doc(
    *,
    active: int = 0,
    phase: str = "surge",
    favor: str = "horus",
    cities: Any = None,
    city_tiles: Any = (3, 3, 3),
    players: Any = ({}, {}),
    deck_top: Any = (),
    rest: str = "deck",
    cards: CardSet | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position document. ``cities[c] = (seat 0 side, seat 1 side)``; ``players[p]`` is merged
    into ``{"coins": 4, "hand": []}``; ``deck_top`` lists the next cards of the deck, the first one
    on top. ``rest`` says where the cards placed nowhere go: ``"deck"`` (under ``deck_top``),
    ``"discard"`` (the deck is then exactly ``deck_top``), ``"hand0"`` or ``"hand1"``."""
    cities = cities or (EMPTY, EMPTY, EMPTY)
    doc: dict[str, Any] = {
        "active": active,
        "phase": phase,
        "favor": favor,
        "cities": [[list(side) for side in sides] for sides in cities],
        "city_tiles": [list(s) if isinstance(s, (list, tuple)) else s for s in city_tiles],
        "players": [{"coins": 4, "hand": [], **dict(p)} for p in players],
        **extra,
    }
    for p in doc["players"]:
        p["hand"] = list(p["hand"])
    left = unplaced(doc, cards)
    for name in deck_top:
        left.remove(name)
    top = list(reversed(list(deck_top)))  # the top of the deck is the end of the list
    if rest == "deck":
        doc["deck"] = left + top
    elif rest == "discard":
        doc["discard"] = list(doc.get("discard", [])) + left
        doc["deck"] = top
    elif rest in ("hand0", "hand1"):
        doc["players"][int(rest[-1])]["hand"] += left
        doc["deck"] = top
    else:
        raise ValueError(f"rest: unknown place {rest!r}")
    return doc


ENGINE = {"name": "reference"}  # set by the rulings tests' engine fixture


def position(cards: CardSet | None = None, **kwargs: Any) -> GameState:
    """Load :func:`position_doc` (same arguments); the engine runs to the first decision.

    On the core when ``ENGINE["name"] == "core"``: the same position, copied to the Cython core
    before anything automatic is resolved, so that the core runs its own rules from ``phase`` on."""
    doc = position_doc(cards=cards, **kwargs)
    if ENGINE["name"] == "core":
        from omen_search._core import CoreState

        return CoreState.from_state(load_position(doc, cards, settle=False))  # type: ignore[return-value]
    return load_position(doc, cards)


def moves(state: GameState) -> list[str]:
    """The legal moves, as notation."""
    return [str(m) for m in state.legal_moves()]


def play(state: GameState, *notations: str) -> GameState:
    """Apply moves one after another (each must be legal)."""
    for text in notations:
        state.apply(text)
    return state


def view(state: GameState) -> dict[str, Any]:
    """The full state as a position document (names, not ids)."""
    return to_position(state)


def hand(state: GameState, player: int) -> Counter:
    return Counter(view(state)["players"][player]["hand"])


def known(state: GameState, player: int) -> Counter:
    return Counter(view(state)["players"][player]["known"])


def side(state: GameState, city: int, player: int) -> Counter:
    return Counter(view(state)["cities"][city][player])


def discard(state: GameState) -> list[str]:
    return view(state)["discard"]


def coins(state: GameState) -> list[int]:
    return [state.coins[0], state.coins[1]]


def decision(state: GameState) -> tuple[str, int] | None:
    """``(kind, player)`` of the pending decision, or ``None``."""
    return None if state.pending is None else (state.pending.kind, state.pending.player)


def json_paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON document (its keys and indexes, the root left out): what the format
    tests and the fuzzers edit."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += json_paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += json_paths(v, prefix + (i,))
    return out


def toml_value(value: Any) -> str:
    """A value as TOML (inline tables and arrays are enough for a card file; None leaves a key out)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items() if v is not None) + " }"
    return json.dumps(str(value))


def card_file_text(doc: dict[str, Any]) -> str:
    """A card file (as ``tomllib`` reads it: top-level keys, then each array of tables) as TOML text."""
    def tables(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)

    lines = [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in doc.items() if not tables(v) and v is not None]
    for key, value in doc.items():
        if tables(value):
            for item in value:
                lines += ["", f"[[{key}]]"] + [f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in item.items()
                                                if v is not None]
    return "\n".join(lines) + "\n"

